// SPDX-License-Identifier: Apache-2.0
// ONNX node -> DirectML descriptor (include/dmlcpu/onnx.h). Pure shape arithmetic: validates the
// node as ONNX defines it, pads every tensor to one DimensionCount (right-aligned, leading 1s)
// and fills an owning OperatorDesc. Messages: "<ONNX op>: <attribute/input> is <value>,
// expected <constraint>".
#include "dmlcpu/onnx.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/format.h"

namespace dmlcpu {
namespace onnx {
namespace {

constexpr int64_t kMaxDim = 0xFFFFFFFFll;  // DirectML sizes are UINT
constexpr size_t kData = 0;
constexpr size_t kIndices = 1;

const char* DmlTypeName(DML_TENSOR_DATA_TYPE type) {
  switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: return "FLOAT32";
    case DML_TENSOR_DATA_TYPE_FLOAT16: return "FLOAT16";
    case DML_TENSOR_DATA_TYPE_UINT32: return "UINT32";
    case DML_TENSOR_DATA_TYPE_UINT16: return "UINT16";
    case DML_TENSOR_DATA_TYPE_UINT8: return "UINT8";
    case DML_TENSOR_DATA_TYPE_INT32: return "INT32";
    case DML_TENSOR_DATA_TYPE_INT16: return "INT16";
    case DML_TENSOR_DATA_TYPE_INT8: return "INT8";
    case DML_TENSOR_DATA_TYPE_FLOAT64: return "FLOAT64";
    case DML_TENSOR_DATA_TYPE_UINT64: return "UINT64";
    case DML_TENSOR_DATA_TYPE_INT64: return "INT64";
    default: return "UNKNOWN";
  }
}

std::string ShapeString(const std::vector<int64_t>& shape) {
  return FormatList(shape.data(), static_cast<uint32_t>(shape.size()));
}

// Every dimension of `shape` fits a DirectML size (or is 0) and the rank is at most 8.
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

Status CheckDataType(const char* op, ElementType type) {
  if (ElementSizeBytes(type) == 0) {
    return Unsupported("%s: data element type is %s (%d), expected a fixed-size type (FLOAT, "
                       "FLOAT16, BFLOAT16, DOUBLE, BOOL, [U]INT8/16/32/64)", op,
                       ElementTypeName(type), static_cast<int>(type));
  }
  return Status::Ok();
}

// Normalises an axis attribute into [0, rank).
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

}  // namespace

// Fills an OperatorDesc's state (friend of OperatorDesc).
class Builder {
 public:
  Builder(const char* onnx_op, size_t input_count) {
    s().onnx_op = onnx_op;
    s().input_count = input_count;
  }

  OperatorDesc::State& s() { return desc_.s_; }

  // Declares binding `slot` (inputs, then the output): ONNX element type, the shape of its
  // buffer and, for a view, the (same-rank) shape DirectML sees.
  void SetTensor(size_t slot, ElementType type, std::vector<int64_t> buffer_shape,
                 const std::vector<int64_t>* view_shape = nullptr) {
    s().element_types[slot] = type;
    OperatorDesc::Tensor& t = s().tensors[slot];
    t.is_view = view_shape != nullptr && *view_shape != buffer_shape;
    t.buffer_shape = std::move(buffer_shape);
    const std::vector<int64_t>& sizes = view_shape ? *view_shape : t.buffer_shape;
    t.buffer.DataType = ToDmlDataType(type).value();
    t.buffer.Flags = DML_TENSOR_FLAG_NONE;
    t.buffer.GuaranteedBaseOffsetAlignment = 0;
    t.tensor.Type = DML_TENSOR_TYPE_BUFFER;
    const uint32_t n = s().dimension_count;
    if (n == 0) return;  // empty output: no DirectML shapes
    t.rank_offset = n - static_cast<uint32_t>(sizes.size());
    for (uint32_t d = 0; d < n; ++d) {
      t.sizes[d] = d < t.rank_offset ? 1u : static_cast<uint32_t>(sizes[d - t.rank_offset]);
    }
  }

  // Finishes: layouts (packed), byte sizes, pointers.
  StatusOr<OperatorDesc> Finish() {
    for (size_t i = 0; i <= s().input_count; ++i) {
      Status status = desc_.SetStrides(i, {});
      if (!status.ok()) return status;
    }
    desc_.Relink();
    return std::move(desc_);
  }

 private:
  OperatorDesc desc_;
};

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

// ---- OperatorDesc ------------------------------------------------------------------------------

OperatorDesc& OperatorDesc::operator=(const OperatorDesc& other) {
  if (this != &other) {
    s_ = other.s_;
    Relink();
  }
  return *this;
}

OperatorDesc& OperatorDesc::operator=(OperatorDesc&& other) noexcept {
  if (this != &other) {
    s_ = std::move(other.s_);
    Relink();
  }
  return *this;
}

uint64_t OperatorDesc::output_elems() const {
  uint64_t elems = 1;
  for (int64_t d : s_.output_shape) elems *= static_cast<uint64_t>(d);
  return elems;
}

void OperatorDesc::Relink() {
  for (Tensor& t : s_.tensors) {
    t.buffer.DimensionCount = s_.dimension_count;
    t.buffer.Sizes = t.sizes;
    t.buffer.Strides = t.has_strides ? t.strides_elems : nullptr;
    t.buffer.TotalTensorSizeInBytes = t.total_bytes;
    t.tensor.Desc = &t.buffer;
  }
  const DML_TENSOR_DESC* input = &s_.tensors[0].tensor;
  const DML_TENSOR_DESC* indices = &s_.tensors[1].tensor;
  const DML_TENSOR_DESC* output = &s_.tensors[s_.input_count].tensor;
  switch (s_.op_desc.Type) {
    case DML_OPERATOR_GATHER:
      s_.gather.InputTensor = input;
      s_.gather.IndicesTensor = indices;
      s_.gather.OutputTensor = output;
      s_.op_desc.Desc = &s_.gather;
      break;
    case DML_OPERATOR_GATHER_ELEMENTS:
      s_.gather_elements.InputTensor = input;
      s_.gather_elements.IndicesTensor = indices;
      s_.gather_elements.OutputTensor = output;
      s_.op_desc.Desc = &s_.gather_elements;
      break;
    case DML_OPERATOR_GATHER_ND1:
      s_.gather_nd1.InputTensor = input;
      s_.gather_nd1.IndicesTensor = indices;
      s_.gather_nd1.OutputTensor = output;
      s_.op_desc.Desc = &s_.gather_nd1;
      break;
    case DML_OPERATOR_SLICE1:
      s_.slice1.InputTensor = input;
      s_.slice1.OutputTensor = output;
      s_.slice1.DimensionCount = s_.dimension_count;
      s_.slice1.InputWindowOffsets = s_.window_offsets;
      s_.slice1.InputWindowSizes = s_.window_sizes;
      s_.slice1.InputWindowStrides = s_.window_strides;
      s_.op_desc.Desc = &s_.slice1;
      break;
    default:
      s_.op_desc.Desc = nullptr;
      break;
  }
}

Status OperatorDesc::SetInputStrides(size_t i, const std::vector<uint32_t>& strides_elems) {
  if (i >= s_.input_count) {
    return InvalidArgument("%s: input %zu is not a binding, expected < %zu", s_.onnx_op, i,
                           s_.input_count);
  }
  return SetStrides(i, strides_elems);
}

Status OperatorDesc::SetOutputStrides(const std::vector<uint32_t>& strides_elems) {
  return SetStrides(s_.input_count, strides_elems);
}

Status OperatorDesc::SetStrides(size_t slot, const std::vector<uint32_t>& strides_elems) {
  Tensor& t = s_.tensors[slot];
  const bool is_output = slot == s_.input_count;
  const char* name = is_output ? "output" : (slot == kData ? "data" : "indices");
  const size_t rank = t.buffer_shape.size();
  if (!strides_elems.empty() && strides_elems.size() != rank) {
    return InvalidArgument("%s: strides of %s have %zu values, expected %zu (its rank)",
                           s_.onnx_op, name, strides_elems.size(), rank);
  }
  // The ONNX-ranked element strides of the buffer: the caller's, or packed (saturating: an
  // overflowing packed stride makes the span check below fail).
  std::vector<uint64_t> strides(rank);
  uint64_t packed = 1;
  for (size_t d = rank; d-- > 0;) {
    strides[d] = strides_elems.empty() ? packed : strides_elems[d];
    const uint64_t dim = static_cast<uint64_t>(t.buffer_shape[d]);
    packed = dim != 0 && packed > UINT64_MAX / dim ? UINT64_MAX : packed * dim;
  }
  // Span in elements (index of the last element + 1) and bytes; 0 when the tensor is empty.
  const uint64_t element_bytes = ElementSizeBytes(s_.element_types[slot]);
  uint64_t span_elems = HasZero(t.buffer_shape) ? 0 : 1;
  for (size_t d = 0; d < rank && span_elems != 0; ++d) {
    const uint64_t extent = static_cast<uint64_t>(t.buffer_shape[d]) - 1;
    if (strides[d] != 0 && extent > (UINT64_MAX - span_elems) / strides[d]) {
      span_elems = UINT64_MAX;
      break;
    }
    span_elems += extent * strides[d];
  }
  if (span_elems > (UINT64_MAX - 3) / element_bytes) {
    const std::string layout =
        strides_elems.empty() ? std::string("packed")
                              : "strides " + FormatList(strides_elems.data(),
                                                        static_cast<uint32_t>(rank));
    return InvalidArgument("%s: %s.shape %s (%s) spans 2^64 bytes or more, expected fewer",
                           s_.onnx_op, name, ShapeString(t.buffer_shape).c_str(),
                           layout.c_str());
  }
  t.total_bytes = (span_elems * element_bytes + 3) & ~uint64_t{3};

  // DirectML strides: explicit for a caller layout or a view, else null (packed).
  t.has_strides = !strides_elems.empty() || t.is_view;
  if (t.has_strides && s_.dimension_count != 0) {
    for (uint32_t d = 0; d < s_.dimension_count; ++d) {
      if (d < t.rank_offset) {
        t.strides_elems[d] = 1;  // a padding dimension of size 1: any stride addresses the same
        continue;
      }
      const uint64_t stride = strides[d - t.rank_offset];
      if (stride > UINT32_MAX) {
        return InvalidArgument("%s: %s stride[%u] is %" PRIu64 ", expected <= %u (DirectML "
                               "strides are UINT)", s_.onnx_op, name, d - t.rank_offset, stride,
                               UINT32_MAX);
      }
      t.strides_elems[d] = static_cast<uint32_t>(stride);
    }
  }
  Relink();
  return Status::Ok();
}

std::string OperatorDesc::ToString() const {
  std::string s;
  switch (s_.op_desc.Type) {
    case DML_OPERATOR_GATHER:
      s = StrFormat("GATHER Axis=%u IndexDimensions=%u", s_.gather.Axis,
                    s_.gather.IndexDimensions);
      break;
    case DML_OPERATOR_GATHER_ELEMENTS:
      s = StrFormat("GATHER_ELEMENTS Axis=%u", s_.gather_elements.Axis);
      break;
    case DML_OPERATOR_GATHER_ND1:
      s = StrFormat("GATHER_ND1 InputDimensionCount=%u IndicesDimensionCount=%u "
                    "BatchDimensionCount=%u", s_.gather_nd1.InputDimensionCount,
                    s_.gather_nd1.IndicesDimensionCount, s_.gather_nd1.BatchDimensionCount);
      break;
    case DML_OPERATOR_SLICE1: {
      int64_t strides[kMaxRank];
      for (uint32_t d = 0; d < s_.dimension_count; ++d) strides[d] = s_.window_strides[d];
      s = StrFormat("SLICE1 InputWindowOffsets=%s InputWindowSizes=%s InputWindowStrides=%s",
                    FormatList(s_.window_offsets, s_.dimension_count).c_str(),
                    FormatList(s_.window_sizes, s_.dimension_count).c_str(),
                    FormatList(strides, s_.dimension_count).c_str());
      break;
    }
    default:
      return StrFormat("%s with an empty output %s: nothing to execute", s_.onnx_op,
                       ShapeString(s_.output_shape).c_str());
  }
  static const char* const kInputNames[] = {"InputTensor", "IndicesTensor"};
  for (size_t i = 0; i <= s_.input_count; ++i) {
    const Tensor& t = s_.tensors[i];
    s += StrFormat(" %s=%s%s", i == s_.input_count ? "OutputTensor" : kInputNames[i],
                   DmlTypeName(t.buffer.DataType),
                   FormatList(t.sizes, s_.dimension_count).c_str());
    if (t.has_strides) s += "s" + FormatList(t.strides_elems, s_.dimension_count);
    s += StrFormat("t%" PRIu64, t.total_bytes);
  }
  return s;
}

// ---- Operators ---------------------------------------------------------------------------------

StatusOr<OperatorDesc> Gather(const TensorType& data, const TensorType& indices, int64_t axis) {
  const char* op = "Gather";
  Status status = CheckShape(op, "data", data.shape);
  if (status.ok()) status = CheckShape(op, "indices", indices.shape);
  if (status.ok()) status = CheckDataType(op, data.element_type);
  if (status.ok()) status = CheckIndexType(op, indices.element_type);
  if (!status.ok()) return status;
  const size_t r = data.shape.size();
  const size_t q = indices.shape.size();
  if (r == 0) return InvalidArgument("%s: data rank is 0, expected >= 1", op);
  uint32_t a = 0;
  status = NormalizeAxis(op, "axis", axis, r, &a);
  if (!status.ok()) return status;

  std::vector<int64_t> output(data.shape.begin(), data.shape.begin() + a);
  output.insert(output.end(), indices.shape.begin(), indices.shape.end());
  output.insert(output.end(), data.shape.begin() + a + 1, data.shape.end());
  if (output.size() > kMaxRank) {
    return Unsupported("%s: output rank is %zu (data rank %zu + indices rank %zu - 1), expected "
                       "<= %u (DirectML's DimensionCount limit)", op, output.size(), r, q,
                       kMaxRank);
  }
  const bool empty = HasZero(output);
  if (!empty && data.shape[a] == 0) {
    return InvalidArgument("%s: data.shape[%u] is 0, expected >= 1 (the gathered axis of "
                           "non-empty indices)", op, a);
  }

  Builder b(op, 2);
  const uint32_t n = empty ? 0 : static_cast<uint32_t>(std::max(r, output.size()));
  b.s().dimension_count = n;
  b.s().output_is_empty = empty;
  b.s().output_shape = output;
  b.SetTensor(kData, data.element_type, data.shape);
  b.SetTensor(kIndices, indices.element_type, indices.shape);
  b.SetTensor(2, data.element_type, output);
  if (!empty) {
    b.s().op_desc.Type = DML_OPERATOR_GATHER;
    b.s().gather.Axis = a + (n - static_cast<uint32_t>(r));
    b.s().gather.IndexDimensions = static_cast<uint32_t>(q);
  }
  return b.Finish();
}

StatusOr<OperatorDesc> GatherElements(const TensorType& data, const TensorType& indices,
                                      int64_t axis) {
  const char* op = "GatherElements";
  Status status = CheckShape(op, "data", data.shape);
  if (status.ok()) status = CheckShape(op, "indices", indices.shape);
  if (status.ok()) status = CheckDataType(op, data.element_type);
  if (status.ok()) status = CheckIndexType(op, indices.element_type);
  if (!status.ok()) return status;
  const size_t r = data.shape.size();
  if (r == 0) return InvalidArgument("%s: data rank is 0, expected >= 1", op);
  if (indices.shape.size() != r) {
    return InvalidArgument("%s: indices rank is %zu, expected %zu (data rank)", op,
                           indices.shape.size(), r);
  }
  uint32_t a = 0;
  status = NormalizeAxis(op, "axis", axis, r, &a);
  if (!status.ok()) return status;
  // DirectML wants Idx[d] == In[d] off the axis; a smaller ONNX index extent reads the leading
  // sub-block of data, expressed as a view with data's strides.
  std::vector<int64_t> view = indices.shape;
  view[a] = data.shape[a];
  for (size_t d = 0; d < r; ++d) {
    if (d != a && indices.shape[d] > data.shape[d]) {
      return InvalidArgument("%s: indices.shape[%zu] is %" PRId64 ", expected <= %" PRId64
                             " (data.shape[%zu]; axis is %u)", op, d, indices.shape[d],
                             data.shape[d], d, a);
    }
  }
  const bool empty = HasZero(indices.shape);
  if (!empty && data.shape[a] == 0) {
    return InvalidArgument("%s: data.shape[%u] is 0, expected >= 1 (the gathered axis of "
                           "non-empty indices)", op, a);
  }

  Builder b(op, 2);
  const uint32_t n = empty ? 0 : static_cast<uint32_t>(r);
  b.s().dimension_count = n;
  b.s().output_is_empty = empty;
  b.s().output_shape = indices.shape;
  b.SetTensor(kData, data.element_type, data.shape, &view);
  b.SetTensor(kIndices, indices.element_type, indices.shape);
  b.SetTensor(2, data.element_type, indices.shape);
  if (!empty) {
    b.s().op_desc.Type = DML_OPERATOR_GATHER_ELEMENTS;
    b.s().gather_elements.Axis = a;
  }
  return b.Finish();
}

StatusOr<OperatorDesc> GatherNd(const TensorType& data, const TensorType& indices,
                                int64_t batch_dims) {
  const char* op = "GatherND";
  Status status = CheckShape(op, "data", data.shape);
  if (status.ok()) status = CheckShape(op, "indices", indices.shape);
  if (status.ok()) status = CheckDataType(op, data.element_type);
  if (status.ok()) status = CheckIndexType(op, indices.element_type);
  if (!status.ok()) return status;
  const size_t r = data.shape.size();
  const size_t q = indices.shape.size();
  if (r == 0) return InvalidArgument("%s: data rank is 0, expected >= 1", op);
  if (q == 0) return InvalidArgument("%s: indices rank is 0, expected >= 1", op);
  const int64_t max_batch = static_cast<int64_t>(std::min(r, q)) - 1;
  if (batch_dims < 0 || batch_dims > max_batch) {
    return InvalidArgument("%s: batch_dims is %" PRId64 ", expected in [0, %" PRId64
                           "] (below min(data rank %zu, indices rank %zu))", op, batch_dims,
                           max_batch, r, q);
  }
  const size_t b_dims = static_cast<size_t>(batch_dims);
  const int64_t t = indices.shape[q - 1];
  if (t < 1 || t > static_cast<int64_t>(r - b_dims)) {
    return InvalidArgument("%s: indices.shape[%zu] is %" PRId64 ", expected in [1, %zu] (data "
                           "rank %zu - batch_dims %zu)", op, q - 1, t, r - b_dims, r, b_dims);
  }
  for (size_t d = 0; d < b_dims; ++d) {
    if (indices.shape[d] != data.shape[d]) {
      return InvalidArgument("%s: indices.shape[%zu] is %" PRId64 ", expected %" PRId64
                             " (data.shape[%zu], a batch dimension)", op, d, indices.shape[d],
                             data.shape[d], d);
    }
  }
  std::vector<int64_t> output(indices.shape.begin(), indices.shape.end() - 1);
  output.insert(output.end(), data.shape.begin() + b_dims + t, data.shape.end());
  if (output.size() > kMaxRank) {
    return Unsupported("%s: output rank is %zu, expected <= %u (DirectML's DimensionCount "
                       "limit)", op, output.size(), kMaxRank);
  }
  const bool empty = HasZero(output);
  if (!empty) {
    for (size_t d = b_dims; d < b_dims + static_cast<size_t>(t); ++d) {
      if (data.shape[d] == 0) {
        return InvalidArgument("%s: data.shape[%zu] is 0, expected >= 1 (addressed by non-empty "
                               "indices)", op, d);
      }
    }
  }

  Builder b(op, 2);
  const uint32_t n = empty ? 0 : static_cast<uint32_t>(std::max({r, q, output.size()}));
  b.s().dimension_count = n;
  b.s().output_is_empty = empty;
  b.s().output_shape = output;
  b.SetTensor(kData, data.element_type, data.shape);
  b.SetTensor(kIndices, indices.element_type, indices.shape);
  b.SetTensor(2, data.element_type, output);
  if (!empty) {
    b.s().op_desc.Type = DML_OPERATOR_GATHER_ND1;
    b.s().gather_nd1.InputDimensionCount = static_cast<uint32_t>(r);
    b.s().gather_nd1.IndicesDimensionCount = static_cast<uint32_t>(q);
    b.s().gather_nd1.BatchDimensionCount = static_cast<uint32_t>(b_dims);
  }
  return b.Finish();
}

StatusOr<OperatorDesc> Slice(const TensorType& data, const SliceParams& params) {
  const char* op = "Slice";
  Status status = CheckShape(op, "data", data.shape);
  if (status.ok()) status = CheckDataType(op, data.element_type);
  if (!status.ok()) return status;
  const size_t r = data.shape.size();
  const size_t k = params.starts.size();
  if (params.ends.size() != k) {
    return InvalidArgument("%s: ends has %zu values, expected %zu (as many as starts)", op,
                           params.ends.size(), k);
  }
  if (!params.axes.empty() && params.axes.size() != k) {
    return InvalidArgument("%s: axes has %zu values, expected %zu (as many as starts)", op,
                           params.axes.size(), k);
  }
  if (!params.steps.empty() && params.steps.size() != k) {
    return InvalidArgument("%s: steps has %zu values, expected %zu (as many as starts)", op,
                           params.steps.size(), k);
  }
  if (params.axes.empty() && k > r) {
    return InvalidArgument("%s: starts has %zu values, expected <= %zu (data rank; axes is "
                           "omitted)", op, k, r);
  }

  // Per ONNX dimension: first element, output count, step (defaults: the whole dimension).
  std::vector<int64_t> first(r, 0), step(r, 1), output(data.shape);
  std::vector<int64_t> axis_source(r, -1);  // which entry of axes set the dimension
  for (size_t i = 0; i < k; ++i) {
    uint32_t a = static_cast<uint32_t>(i);
    if (!params.axes.empty()) {
      const std::string name = StrFormat("axes[%zu]", i);
      status = NormalizeAxis(op, name.c_str(), params.axes[i], r, &a);
      if (!status.ok()) return status;
      if (axis_source[a] >= 0) {
        return InvalidArgument("%s: axes[%zu] is %" PRId64 ", expected no repeated axis (axes[%"
                               PRId64 "] is %" PRId64 ", the same axis %u)", op, i,
                               params.axes[i], axis_source[a], params.axes[axis_source[a]], a);
      }
    }
    axis_source[a] = static_cast<int64_t>(i);
    const int64_t s = params.steps.empty() ? 1 : params.steps[i];
    if (s == 0) return InvalidArgument("%s: steps[%zu] is 0, expected non-zero", op, i);
    const int64_t dim = data.shape[a];
    // Negative values count from the end (dim <= 2^32 - 1: no overflow), then clamp.
    int64_t start = params.starts[i] < 0 ? params.starts[i] + dim : params.starts[i];
    int64_t end = params.ends[i] < 0 ? params.ends[i] + dim : params.ends[i];
    uint64_t count = 0;
    const uint64_t magnitude = s > 0 ? static_cast<uint64_t>(s) : 0 - static_cast<uint64_t>(s);
    if (dim == 0) {
      start = 0;
    } else if (s > 0) {
      start = std::min(std::max(start, int64_t{0}), dim);
      end = std::min(std::max(end, int64_t{0}), dim);
      if (end > start) count = static_cast<uint64_t>(end - start - 1) / magnitude + 1;
    } else {
      start = std::min(std::max(start, int64_t{0}), dim - 1);
      end = std::min(std::max(end, int64_t{-1}), dim - 1);
      if (start > end) count = static_cast<uint64_t>(start - end - 1) / magnitude + 1;
    }
    if (count > 1 && magnitude > INT32_MAX) {
      return Unsupported("%s: steps[%zu] is %" PRId64 ", expected |steps[%zu]| <= %d when more "
                         "than one element is taken (DirectML's INT window strides)", op, i, s,
                         i, INT32_MAX);
    }
    first[a] = start;
    step[a] = count > 1 ? s : 1;
    output[a] = static_cast<int64_t>(count);
  }
  const bool empty = HasZero(output);

  Builder b(op, 1);
  const uint32_t n = empty ? 0 : static_cast<uint32_t>(std::max<size_t>(r, 1));
  b.s().dimension_count = n;
  b.s().output_is_empty = empty;
  b.s().output_shape = output;
  b.SetTensor(kData, data.element_type, data.shape);
  b.SetTensor(1, data.element_type, output);
  if (!empty) {
    b.s().op_desc.Type = DML_OPERATOR_SLICE1;
    const uint32_t offset = n - static_cast<uint32_t>(r);
    for (uint32_t d = 0; d < n; ++d) {
      if (d < offset) {  // padding dimension
        b.s().window_offsets[d] = 0;
        b.s().window_sizes[d] = 1;
        b.s().window_strides[d] = 1;
        continue;
      }
      const size_t a = d - offset;
      const uint64_t reach = static_cast<uint64_t>(output[a] - 1) *
                             static_cast<uint64_t>(step[a] > 0 ? step[a] : -step[a]);
      // A negative step walks the window [first - reach, first] backwards.
      b.s().window_offsets[d] = static_cast<uint32_t>(step[a] > 0 ? first[a] : first[a] - reach);
      b.s().window_sizes[d] = static_cast<uint32_t>(reach + 1);
      b.s().window_strides[d] = static_cast<int32_t>(step[a]);
    }
  }
  return b.Finish();
}

}  // namespace onnx
}  // namespace dmlcpu
