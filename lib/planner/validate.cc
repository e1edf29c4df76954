// SPDX-License-Identifier: Apache-2.0
// Per-operator validation: every documented constraint of the six operators
// (docs/semantics.md). Messages
// follow one format: "<OP>: <field> is <value>, expected <constraint>".
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>

#include "core/format.h"
#include "planner/geometry.h"
#include "planner/ops.h"
#include "planner/validate_util.h"

namespace dmlcpu {
namespace internal {
namespace {

// Reads the tensors common to the family and checks ranks and types.
Status ReadTensors(const char* op, const DML_TENSOR_DESC* input, const DML_TENSOR_DESC* indices,
                   const DML_TENSOR_DESC* output, OpGeometry* g) {
  Status s = ReadTensor(op, "InputTensor", input, /*is_output=*/false, &g->input);
  if (!s.ok()) return s;
  if (g->has_indices) {
    s = ReadTensor(op, "IndicesTensor", indices, /*is_output=*/false, &g->indices);
    if (!s.ok()) return s;
  }
  s = ReadTensor(op, "OutputTensor", output, /*is_output=*/true, &g->output);
  if (!s.ok()) return s;
  if (g->has_indices) {
    s = CheckSameRank(op, "IndicesTensor", g->indices, g->input);
    if (!s.ok()) return s;
    s = CheckIndexType(op, g->indices, &g->index_type);
    if (!s.ok()) return s;
  }
  s = CheckSameRank(op, "OutputTensor", g->output, g->input);
  if (!s.ok()) return s;
  return CheckSameType(op, g->output, g->input);
}

Status ValidateGather(const DML_GATHER_OPERATOR_DESC& d, OpGeometry* g) {
  const char* op = g->name;
  Status s = ReadTensors(op, d.InputTensor, d.IndicesTensor, d.OutputTensor, g);
  if (!s.ok()) return s;
  const uint32_t n = g->input.rank;
  const uint32_t axis = d.Axis, k = d.IndexDimensions;
  if (axis >= n) {
    return InvalidArgument("%s: Axis is %u, expected < %u (InputTensor.DimensionCount)", op, axis,
                           n);
  }
  if (k > n) {
    return InvalidArgument(
        "%s: IndexDimensions is %u, expected <= %u (IndicesTensor."
        "DimensionCount)",
        op, k, n);
  }
  for (uint32_t i = 0; i + k < n; ++i) {
    if (g->indices.sizes[i] != 1) {
      return InvalidArgument(
          "%s: IndicesTensor.Sizes[%u] is %u, expected 1: only the last "
          "IndexDimensions (%u) dimensions hold indices",
          op, i, g->indices.sizes[i], k);
    }
  }
  // full = In[0, axis) ++ Idx[n-k, n) ++ In[axis+1, n), right-aligned to n.
  ExpectedDim full[2 * kMaxRank];
  uint32_t len = 0;
  for (uint32_t j = 0; j < axis; ++j) full[len++] = {g->input.sizes[j], Source("InputTensor", j)};
  for (uint32_t j = n - k; j < n; ++j) {
    full[len++] = {g->indices.sizes[j], Source("IndicesTensor", j)};
  }
  for (uint32_t j = axis + 1; j < n; ++j) {
    full[len++] = {g->input.sizes[j], Source("InputTensor", j)};
  }
  ExpectedDim expected[kMaxRank];
  if (len >= n) {
    for (uint32_t j = 0; j < len - n; ++j) {
      if (full[j].size != 1) {
        return InvalidArgument(
            "%s: %s is %u, expected 1: with Axis %u and IndexDimensions %u the "
            "output (DimensionCount %u) has no room for this dimension",
            op, full[j].source.c_str(), full[j].size, axis, k, n);
      }
    }
    for (uint32_t j = 0; j < n; ++j) expected[j] = full[len - n + j];
  } else {  // k == 0: one leading 1
    expected[0] = {1, "a leading 1: IndexDimensions is 0"};
    for (uint32_t j = 0; j < len; ++j) expected[j + 1] = full[j];
  }
  s = CheckOutputSizes(op, g->output, expected);
  if (!s.ok()) return s;
  g->axis = axis;
  g->index_dimensions = k;
  return Status::Ok();
}

Status ValidateGatherElements(const DML_GATHER_ELEMENTS_OPERATOR_DESC& d, OpGeometry* g) {
  const char* op = g->name;
  Status s = ReadTensors(op, d.InputTensor, d.IndicesTensor, d.OutputTensor, g);
  if (!s.ok()) return s;
  s = CheckElementsAxis(op, d.Axis, g->input, g->indices);
  if (!s.ok()) return s;
  const uint32_t n = g->input.rank;
  ExpectedDim expected[kMaxRank];
  for (uint32_t i = 0; i < n; ++i) expected[i] = {g->indices.sizes[i], Source("IndicesTensor", i)};
  s = CheckOutputSizes(op, g->output, expected);
  if (!s.ok()) return s;
  g->axis = d.Axis;
  return Status::Ok();
}

Status ValidateGatherNd(const DML_TENSOR_DESC* input, const DML_TENSOR_DESC* indices,
                        const DML_TENSOR_DESC* output, uint32_t r, uint32_t q, uint32_t b,
                        OpGeometry* g) {
  const char* op = g->name;
  Status s = ReadTensors(op, input, indices, output, g);
  if (!s.ok()) return s;
  const uint32_t n = g->input.rank;
  if (r < 1 || r > n) {
    return InvalidArgument(
        "%s: InputDimensionCount is %u, expected in [1, %u] (InputTensor."
        "DimensionCount)",
        op, r, n);
  }
  if (q < 1 || q > n) {
    return InvalidArgument(
        "%s: IndicesDimensionCount is %u, expected in [1, %u] (IndicesTensor."
        "DimensionCount)",
        op, q, n);
  }
  if (b >= r || b >= q) {
    return InvalidArgument(
        "%s: BatchDimensionCount is %u, expected < %u (the smaller of "
        "InputDimensionCount %u and IndicesDimensionCount %u)",
        op, b, r < q ? r : q, r, q);
  }
  s = CheckLeadingOnes(op, "InputTensor", g->input, r, "InputDimensionCount");
  if (!s.ok()) return s;
  s = CheckLeadingOnes(op, "IndicesTensor", g->indices, q, "IndicesDimensionCount");
  if (!s.ok()) return s;
  const uint32_t t = g->indices.sizes[n - 1];
  if (t > r - b) {
    return InvalidArgument(
        "%s: IndicesTensor.Sizes[%u] (the index tuple size) is %u, expected in "
        "[1, %u] (InputDimensionCount - BatchDimensionCount)",
        op, n - 1, t, r - b);
  }
  for (uint32_t i = 0; i < b; ++i) {
    if (g->indices.sizes[n - q + i] != g->input.sizes[n - r + i]) {
      return InvalidArgument(
          "%s: IndicesTensor.Sizes[%u] is %u, expected %u (InputTensor.Sizes"
          "[%u], batch dimension %u)",
          op, n - q + i, g->indices.sizes[n - q + i], g->input.sizes[n - r + i], n - r + i, i);
    }
  }
  ExpectedDim expected[kMaxRank];
  const uint32_t m = ExpectNdResult(g->input, g->indices, n, r, q, b, t, expected);
  if (m > n) {
    return InvalidArgument(
        "%s: the output needs %u dimensions ((IndicesDimensionCount - 1) + "
        "(InputDimensionCount - BatchDimensionCount - tuple size %u)), expected "
        "<= %u (OutputTensor.DimensionCount)",
        op, m, t, n);
  }
  s = CheckOutputSizes(op, g->output, expected);
  if (!s.ok()) return s;
  g->input_dims = r;
  g->indices_dims = q;
  g->batch_dims = b;
  return Status::Ok();
}

Status ValidateSlice(const DML_SLICE_OPERATOR_DESC& d, OpGeometry* g) {
  const char* op = g->name;
  Status s = ReadTensors(op, d.InputTensor, nullptr, d.OutputTensor, g);
  if (!s.ok()) return s;
  const uint32_t n = g->input.rank;
  if (d.DimensionCount != n) {
    return InvalidArgument("%s: DimensionCount is %u, expected %u (InputTensor.DimensionCount)", op,
                           d.DimensionCount, n);
  }
  s = RequireArrays(op, {{"Offsets", d.Offsets}, {"Sizes", d.Sizes}, {"Strides", d.Strides}});
  if (!s.ok()) return s;
  for (uint32_t i = 0; i < n; ++i) {
    if (d.Sizes[i] == 0) return InvalidArgument("%s: Sizes[%u] is 0, expected >= 1", op, i);
    if (d.Strides[i] == 0) {
      return InvalidArgument("%s: Strides[%u] is 0, expected >= 1", op, i);
    }
    if (g->output.sizes[i] != d.Sizes[i]) {
      return InvalidArgument("%s: OutputTensor.Sizes[%u] is %u, expected %u (Sizes[%u])", op, i,
                             g->output.sizes[i], d.Sizes[i], i);
    }
    // (2^32 - 1) + (2^32 - 1)^2 < 2^64: no overflow in 64 bits.
    const uint64_t last = static_cast<uint64_t>(d.Offsets[i]) +
                          static_cast<uint64_t>(d.Strides[i]) * (d.Sizes[i] - 1);
    if (last >= g->input.sizes[i]) {
      return InvalidArgument(
          "%s: Offsets[%u] + Strides[%u] * (Sizes[%u] - 1) is %llu (%u + %u * "
          "%u), expected < %u (InputTensor.Sizes[%u])",
          op, i, i, i, static_cast<unsigned long long>(last), d.Offsets[i], d.Strides[i],
          d.Sizes[i] - 1, g->input.sizes[i], i);
    }
    g->slice_start[i] = d.Offsets[i];
    g->slice_step[i] = d.Strides[i];
  }
  return Status::Ok();
}

Status ValidateSlice1(const DML_SLICE1_OPERATOR_DESC& d, OpGeometry* g) {
  const char* op = g->name;
  Status s = ReadTensors(op, d.InputTensor, nullptr, d.OutputTensor, g);
  if (!s.ok()) return s;
  const uint32_t n = g->input.rank;
  if (d.DimensionCount != n) {
    return InvalidArgument("%s: DimensionCount is %u, expected %u (InputTensor.DimensionCount)", op,
                           d.DimensionCount, n);
  }
  s = RequireArrays(op, {{"InputWindowOffsets", d.InputWindowOffsets},
                         {"InputWindowSizes", d.InputWindowSizes},
                         {"InputWindowStrides", d.InputWindowStrides}});
  if (!s.ok()) return s;
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t offset = d.InputWindowOffsets[i], size = d.InputWindowSizes[i];
    const int64_t stride = d.InputWindowStrides[i];
    if (size == 0) return InvalidArgument("%s: InputWindowSizes[%u] is 0, expected >= 1", op, i);
    if (offset + size > g->input.sizes[i]) {
      return InvalidArgument(
          "%s: InputWindowOffsets[%u] + InputWindowSizes[%u] is %llu (%llu + "
          "%llu), expected <= %u (InputTensor.Sizes[%u])",
          op, i, i, static_cast<unsigned long long>(offset + size),
          static_cast<unsigned long long>(offset), static_cast<unsigned long long>(size),
          g->input.sizes[i], i);
    }
    if (stride == 0) {
      return InvalidArgument("%s: InputWindowStrides[%u] is 0, expected non-zero", op, i);
    }
    const uint64_t step = static_cast<uint64_t>(std::llabs(stride));
    const uint64_t max_count = 1 + (size - 1) / step;
    if (g->output.sizes[i] > max_count) {
      return InvalidArgument(
          "%s: OutputTensor.Sizes[%u] is %u, expected in [1, %llu] (1 + "
          "(InputWindowSizes[%u] - 1) / |InputWindowStrides[%u]| = 1 + %llu / "
          "%llu)",
          op, i, g->output.sizes[i], static_cast<unsigned long long>(max_count), i, i,
          static_cast<unsigned long long>(size - 1), static_cast<unsigned long long>(step));
    }
    g->slice_start[i] =
        static_cast<int64_t>(offset) + (stride < 0 ? static_cast<int64_t>(size) - 1 : 0);
    g->slice_step[i] = stride;
  }
  return Status::Ok();
}

}  // namespace

Status ValidateOperator(const DML_OPERATOR_DESC& desc, OpGeometry* g) {
  *g = OpGeometry();
  // Enum fields of caller structs may hold any 32-bit value (from C): read them as integers.
  uint32_t type_value;
  std::memcpy(&type_value, &desc.Type, sizeof(type_value));
  const char* op = OperatorNameForValue(type_value);
  g->name = op;
  switch (type_value) {
    case DML_OPERATOR_GATHER:
    case DML_OPERATOR_GATHER_ELEMENTS:
    case DML_OPERATOR_GATHER_ND:
    case DML_OPERATOR_GATHER_ND1:
      g->has_indices = true;
      break;
    case DML_OPERATOR_SLICE:
    case DML_OPERATOR_SLICE1:
      break;
    default: {
      const unsigned value = type_value;
      if (value == 0 || value > static_cast<unsigned>(DML_OPERATOR_UNFOLD)) {
        return InvalidArgument(
            "DML_OPERATOR_DESC.Type is %u, expected a DML_OPERATOR_TYPE in "
            "[1, %u]",
            value, static_cast<unsigned>(DML_OPERATOR_UNFOLD));
      }
      return Unsupported(
          "DML_OPERATOR_DESC.Type is %u (%s), expected one of %s: dmlcpu does not implement "
          "this operator",
          value, op, ImplementedOperatorsText().c_str());
    }
  }
  g->type = static_cast<DML_OPERATOR_TYPE>(type_value);  // one of the six: a valid enumerator
  if (desc.Desc == nullptr)
    return InvalidArgument("%s: DML_OPERATOR_DESC.Desc is null, expected a non-null pointer", op);
  switch (g->type) {
    case DML_OPERATOR_GATHER:
      return ValidateGather(*static_cast<const DML_GATHER_OPERATOR_DESC*>(desc.Desc), g);
    case DML_OPERATOR_GATHER_ELEMENTS:
      return ValidateGatherElements(
          *static_cast<const DML_GATHER_ELEMENTS_OPERATOR_DESC*>(desc.Desc), g);
    case DML_OPERATOR_GATHER_ND: {
      const auto& d = *static_cast<const DML_GATHER_ND_OPERATOR_DESC*>(desc.Desc);
      return ValidateGatherNd(d.InputTensor, d.IndicesTensor, d.OutputTensor, d.InputDimensionCount,
                              d.IndicesDimensionCount, 0, g);
    }
    case DML_OPERATOR_GATHER_ND1: {
      const auto& d = *static_cast<const DML_GATHER_ND1_OPERATOR_DESC*>(desc.Desc);
      return ValidateGatherNd(d.InputTensor, d.IndicesTensor, d.OutputTensor, d.InputDimensionCount,
                              d.IndicesDimensionCount, d.BatchDimensionCount, g);
    }
    case DML_OPERATOR_SLICE:
      return ValidateSlice(*static_cast<const DML_SLICE_OPERATOR_DESC*>(desc.Desc), g);
    case DML_OPERATOR_SLICE1:
      return ValidateSlice1(*static_cast<const DML_SLICE1_OPERATOR_DESC*>(desc.Desc), g);
    default:
      break;
  }
  return Status(StatusCode::kInternal, "unreachable operator type");
}

}  // namespace internal
}  // namespace dmlcpu
