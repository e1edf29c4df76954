// SPDX-License-Identifier: Apache-2.0
// ONNX node -> DirectML descriptor (include/dmlcpu/onnx.h): the Builder, the checks every op
// shares and the element-type helpers (onnx_internal.h); the OperatorDesc members are
// operator_desc.cc. The ops themselves live in onnx_<family>.cc: pure shape arithmetic that
// validates the node as ONNX defines it, pads every tensor to one DimensionCount (right-aligned,
// leading 1s) and fills an owning OperatorDesc.
#include "dmlcpu/onnx.h"

#include <cinttypes>
#include <string>
#include <utility>
#include <vector>

#include "core/format.h"
#include "onnx/onnx_internal.h"

namespace dmlcpu {
namespace onnx {

std::string ShapeString(const std::vector<int64_t>& shape) {
  return FormatList(shape.data(), static_cast<uint32_t>(shape.size()));
}

Status CheckShape(const char* op, const char* name, const std::vector<int64_t>& shape) {
  if (shape.size() > kMaxRank) {
    return Unsupported("%s: %s rank is %zu, expected <= %u (DirectML's DimensionCount limit)", op,
                       name, shape.size(), kMaxRank);
  }
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] < 0 || shape[d] > kMaxDim) {
      return InvalidArgument("%s: %s.shape[%zu] is %" PRId64 ", expected in [0, %" PRId64 "]", op,
                             name, d, shape[d], kMaxDim);
    }
  }
  return Status::Ok();
}

Status CheckIndexType(const char* op, ElementType type) {
  if (type != ElementType::kInt32 && type != ElementType::kInt64) {
    return InvalidArgument("%s: indices element type is %s (%d), expected INT32 or INT64", op,
                           ElementTypeName(type), static_cast<int>(type));
  }
  return Status::Ok();
}

Status CheckDataType(const char* op, ElementType type, const char* name) {
  if (ElementSizeBytes(type) == 0) {
    return Unsupported("%s: %s element type is %s (%d), expected a fixed-size type (FLOAT, "
                       "FLOAT16, BFLOAT16, DOUBLE, BOOL, [U]INT8/16/32/64)", op, name,
                       ElementTypeName(type), static_cast<int>(type));
  }
  return Status::Ok();
}

Status NormalizeAxis(const char* op, const char* name, int64_t axis, size_t rank,
                     uint32_t* normalized) {
  const int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r) {
    return InvalidArgument("%s: %s is %" PRId64 ", expected in [%" PRId64 ", %" PRId64
                           "] (data rank %zu)", op, name, axis, -r, r - 1, rank);
  }
  *normalized = static_cast<uint32_t>(axis < 0 ? axis + r : axis);
  return Status::Ok();
}

bool HasZero(const std::vector<int64_t>& shape) {
  for (int64_t d : shape) {
    if (d == 0) return true;
  }
  return false;
}

// ---- Builder -----------------------------------------------------------------------------------

size_t Builder::AddInput(const char* onnx_name, std::string dml_field, ElementType type,
                         std::vector<int64_t> buffer_shape,
                         const std::vector<int64_t>* view_shape) {
  OperatorDesc::Tensor t;
  t.onnx_name = onnx_name;
  t.dml_field = std::move(dml_field);
  t.element_type = type;
  t.is_view = view_shape != nullptr && *view_shape != buffer_shape;
  t.view_shape = view_shape != nullptr ? *view_shape : buffer_shape;
  t.buffer_shape = std::move(buffer_shape);
  const size_t index = s().input_count++;
  s().tensors.insert(s().tensors.begin() + static_cast<std::ptrdiff_t>(index), std::move(t));
  return index;
}

size_t Builder::AddOutput(const char* onnx_name, std::string dml_field, ElementType type,
                          std::vector<int64_t> shape) {
  OperatorDesc::Tensor t;
  t.onnx_name = onnx_name;
  t.dml_field = std::move(dml_field);
  t.element_type = type;
  t.view_shape = shape;
  t.buffer_shape = std::move(shape);
  s().tensors.push_back(std::move(t));
  return s().tensors.size() - 1 - s().input_count;
}

StatusOr<OperatorDesc> Builder::Finish() {
  const uint32_t n = s().dimension_count;
  for (OperatorDesc::Tensor& t : s().tensors) {
    t.buffer.DataType = ToDmlDataType(t.element_type).value();
    t.buffer.Flags = DML_TENSOR_FLAG_NONE;
    t.buffer.GuaranteedBaseOffsetAlignment = 0;
    if (n == 0) continue;  // nothing to execute: no DirectML shapes
    t.rank_offset = n - static_cast<uint32_t>(t.view_shape.size());
    for (uint32_t d = 0; d < n; ++d) {
      t.sizes[d] =
          d < t.rank_offset ? 1u : static_cast<uint32_t>(t.view_shape[d - t.rank_offset]);
    }
  }
  s().input_descs.assign(s().input_count, DML_TENSOR_DESC{});
  s().output_descs.assign(s().tensors.size() - s().input_count, DML_TENSOR_DESC{});
  for (size_t i = 0; i < s().tensors.size(); ++i) {
    Status status = desc_.SetStrides(i, {});
    if (!status.ok()) return status;
  }
  desc_.Relink();
  return std::move(desc_);
}

const char* ElementTypeName(ElementType type) {
  switch (type) {
    case ElementType::kUndefined: return "UNDEFINED";
    case ElementType::kFloat: return "FLOAT";
    case ElementType::kUint8: return "UINT8";
    case ElementType::kInt8: return "INT8";
    case ElementType::kUint16: return "UINT16";
    case ElementType::kInt16: return "INT16";
    case ElementType::kInt32: return "INT32";
    case ElementType::kInt64: return "INT64";
    case ElementType::kString: return "STRING";
    case ElementType::kBool: return "BOOL";
    case ElementType::kFloat16: return "FLOAT16";
    case ElementType::kDouble: return "DOUBLE";
    case ElementType::kUint32: return "UINT32";
    case ElementType::kUint64: return "UINT64";
    case ElementType::kComplex64: return "COMPLEX64";
    case ElementType::kComplex128: return "COMPLEX128";
    case ElementType::kBfloat16: return "BFLOAT16";
  }
  return "UNKNOWN";
}

StatusOr<DML_TENSOR_DATA_TYPE> ToDmlDataType(ElementType type) {
  switch (type) {
    case ElementType::kFloat: return DML_TENSOR_DATA_TYPE_FLOAT32;
    case ElementType::kUint8: return DML_TENSOR_DATA_TYPE_UINT8;
    case ElementType::kInt8: return DML_TENSOR_DATA_TYPE_INT8;
    case ElementType::kUint16: return DML_TENSOR_DATA_TYPE_UINT16;
    case ElementType::kInt16: return DML_TENSOR_DATA_TYPE_INT16;
    case ElementType::kInt32: return DML_TENSOR_DATA_TYPE_INT32;
    case ElementType::kInt64: return DML_TENSOR_DATA_TYPE_INT64;
    case ElementType::kBool: return DML_TENSOR_DATA_TYPE_UINT8;
    case ElementType::kFloat16: return DML_TENSOR_DATA_TYPE_FLOAT16;
    case ElementType::kDouble: return DML_TENSOR_DATA_TYPE_FLOAT64;
    case ElementType::kUint32: return DML_TENSOR_DATA_TYPE_UINT32;
    case ElementType::kUint64: return DML_TENSOR_DATA_TYPE_UINT64;
    case ElementType::kBfloat16: return DML_TENSOR_DATA_TYPE_UINT16;
    default: break;
  }
  return Unsupported("ONNX element type is %s (%d), expected one with a DirectML equivalent "
                     "(FLOAT, FLOAT16, BFLOAT16, DOUBLE, BOOL, [U]INT8/16/32/64)",
                     ElementTypeName(type), static_cast<int>(type));
}

uint32_t ElementSizeBytes(ElementType type) {
  switch (type) {
    case ElementType::kUint8:
    case ElementType::kInt8:
    case ElementType::kBool: return 1;
    case ElementType::kUint16:
    case ElementType::kInt16:
    case ElementType::kFloat16:
    case ElementType::kBfloat16: return 2;
    case ElementType::kFloat:
    case ElementType::kInt32:
    case ElementType::kUint32: return 4;
    case ElementType::kInt64:
    case ElementType::kUint64:
    case ElementType::kDouble: return 8;
    default: return 0;
  }
}

std::vector<uint32_t> PaddedStridesElems(const std::vector<int64_t>& shape, uint32_t pad_elems,
                                         uint32_t inner_stride_elems) {
  std::vector<uint32_t> strides(shape.size());
  uint64_t stride = inner_stride_elems;
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = static_cast<uint32_t>(stride);
    stride *= static_cast<uint64_t>(shape[d]) + pad_elems;
  }
  return strides;
}

}  // namespace onnx
}  // namespace dmlcpu
