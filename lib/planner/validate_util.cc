// SPDX-License-Identifier: Apache-2.0
// Checks shared by every operator's validation (validate_util.h).
#include "planner/validate_util.h"

#include "core/format.h"

namespace dmlcpu {
namespace internal {

Status RequireArrays(const char* op, std::initializer_list<NamedArray> arrays) {
  for (const NamedArray& a : arrays) {
    if (a.data == nullptr) {
      return InvalidArgument("%s: %s is null, expected a non-null pointer", op, a.field);
    }
  }
  return Status::Ok();
}

Status CheckSameRank(const char* op, const char* field, const TensorInfo& t, const char* ref_field,
                     const TensorInfo& ref) {
  if (t.rank != ref.rank) {
    return InvalidArgument("%s: %s.DimensionCount is %u, expected %u (%s.DimensionCount)", op,
                           field, t.rank, ref.rank, ref_field);
  }
  return Status::Ok();
}

Status CheckSameRank(const char* op, const char* field, const TensorInfo& t,
                     const TensorInfo& input) {
  return CheckSameRank(op, field, t, "InputTensor", input);
}

Status CheckSameType(const char* op, const char* field, const TensorInfo& t, const char* ref_field,
                     const TensorInfo& ref) {
  if (t.data_type != ref.data_type) {
    return InvalidArgument("%s: %s.DataType is %u (%s), expected %u (%s, the %s.DataType)", op,
                           field, static_cast<unsigned>(t.data_type), DataTypeName(t.data_type),
                           static_cast<unsigned>(ref.data_type), DataTypeName(ref.data_type),
                           ref_field);
  }
  return Status::Ok();
}

Status CheckSameType(const char* op, const TensorInfo& output, const TensorInfo& input) {
  return CheckSameType(op, "OutputTensor", output, "InputTensor", input);
}

Status CheckIndexType(const char* op, const TensorInfo& indices, kernels::IndexType* type) {
  switch (indices.data_type) {
    case DML_TENSOR_DATA_TYPE_INT32:
      *type = kernels::IndexType::kInt32;
      return Status::Ok();
    case DML_TENSOR_DATA_TYPE_UINT32:
      *type = kernels::IndexType::kUint32;
      return Status::Ok();
    case DML_TENSOR_DATA_TYPE_INT64:
      *type = kernels::IndexType::kInt64;
      return Status::Ok();
    case DML_TENSOR_DATA_TYPE_UINT64:
      *type = kernels::IndexType::kUint64;
      return Status::Ok();
    default:
      return InvalidArgument(
          "%s: IndicesTensor.DataType is %u (%s), expected INT32, INT64, "
          "UINT32 or UINT64",
          op, static_cast<unsigned>(indices.data_type), DataTypeName(indices.data_type));
  }
}

Status CheckOutputSizes(const char* op, const char* field, const TensorInfo& t,
                        const ExpectedDim* expected) {
  for (uint32_t i = 0; i < t.rank; ++i) {
    if (t.sizes[i] != expected[i].size) {
      uint32_t sizes[kMaxRank];
      for (uint32_t j = 0; j < t.rank; ++j) sizes[j] = expected[j].size;
      return InvalidArgument("%s: %s.Sizes[%u] is %u, expected %u (%s); expected %s.Sizes %s", op,
                             field, i, t.sizes[i], expected[i].size, expected[i].source.c_str(),
                             field, FormatList(sizes, t.rank).c_str());
    }
  }
  return Status::Ok();
}

Status CheckOutputSizes(const char* op, const TensorInfo& output, const ExpectedDim* expected) {
  return CheckOutputSizes(op, "OutputTensor", output, expected);
}

Status CheckElementsAxis(const char* op, uint32_t axis, const TensorInfo& input,
                         const TensorInfo& indices) {
  const uint32_t n = input.rank;
  if (axis >= n) {
    return InvalidArgument("%s: Axis is %u, expected < %u (InputTensor.DimensionCount)", op, axis,
                           n);
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (i != axis && indices.sizes[i] != input.sizes[i]) {
      return InvalidArgument(
          "%s: IndicesTensor.Sizes[%u] is %u, expected %u (InputTensor.Sizes[%u]; only the Axis "
          "dimension may differ)",
          op, i, indices.sizes[i], input.sizes[i], i);
    }
  }
  return Status::Ok();
}

Status CheckLeadingOnes(const char* op, const char* field, const TensorInfo& t, uint32_t real_dims,
                        const char* count_field) {
  for (uint32_t i = 0; i + real_dims < t.rank; ++i) {
    if (t.sizes[i] != 1) {
      return InvalidArgument(
          "%s: %s.Sizes[%u] is %u, expected 1: only the last %s (%u) dimensions are real", op,
          field, i, t.sizes[i], count_field, real_dims);
    }
  }
  return Status::Ok();
}

uint32_t ExpectNdResult(const TensorInfo& input, const TensorInfo& indices, uint32_t rank,
                        uint32_t input_dims, uint32_t indices_dims, uint32_t batch_dims,
                        uint32_t tuple_size, ExpectedDim* expected) {
  const uint32_t m = (indices_dims - 1) + (input_dims - batch_dims - tuple_size);
  if (m > rank) return m;
  uint32_t j = 0;
  for (; j < rank - m; ++j) expected[j] = {1, "a leading 1"};
  for (uint32_t i = rank - indices_dims; i + 1 < rank; ++i) {
    expected[j++] = {indices.sizes[i], Source("IndicesTensor", i)};
  }
  for (uint32_t i = rank - input_dims + batch_dims + tuple_size; i < rank; ++i) {
    expected[j++] = {input.sizes[i], Source("InputTensor", i)};
  }
  return m;
}

std::string Source(const char* field, uint32_t dim) {
  return StrFormat("%s.Sizes[%u]", field, dim);
}

std::string ArrayField(const char* field, uint32_t i) { return StrFormat("%s[%u]", field, i); }

}  // namespace internal
}  // namespace dmlcpu
