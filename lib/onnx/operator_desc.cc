// SPDX-License-Identifier: Apache-2.0
// The owning OperatorDesc of the ONNX adapter (include/dmlcpu/onnx.h): copies that re-point the
// DirectML structs at their own storage (Relink), stride overrides checked against each
// tensor's buffer, and the one-line description.
#include "dmlcpu/onnx.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/format.h"
#include "onnx/onnx_internal.h"
#include "planner/geometry.h"

namespace dmlcpu {
namespace onnx {

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

bool OperatorDesc::output_is_empty(size_t i) const { return HasZero(output_shape(i)); }

bool OperatorDesc::input_is_empty(size_t i) const {
  return HasZero(s_.tensors[i].buffer_shape);
}

CompileOptions OperatorDesc::compile_options(IndexPolicy policy) const {
  CompileOptions options;
  options.index_policy = policy;
  options.scatter_reduction = s_.scatter_reduction;
  options.scatter_bfloat16 = s_.scatter_reduction != ScatterReduction::kNone &&
                             !s_.tensors.empty() &&
                             s_.tensors[0].element_type == ElementType::kBfloat16;
  return options;
}

uint64_t OperatorDesc::output_elems(size_t i) const {
  uint64_t elems = 1;
  for (int64_t d : output_shape(i)) elems *= static_cast<uint64_t>(d);
  return elems;
}

void OperatorDesc::Relink() {
  for (Tensor& t : s_.tensors) {
    t.buffer.DimensionCount = s_.dimension_count;
    t.buffer.Sizes = t.sizes;
    t.buffer.Strides = t.has_strides ? t.strides_elems : nullptr;
    t.buffer.TotalTensorSizeInBytes = t.view_start.empty() ? t.total_bytes : t.view_bytes;
  }
  // Finish sizes the desc arrays; a default-constructed object has no tensors.
  for (size_t i = 0; i < s_.input_descs.size(); ++i) {
    s_.input_descs[i] = {DML_TENSOR_TYPE_BUFFER, &s_.tensors[i].buffer};
  }
  for (size_t i = 0; i < s_.output_descs.size(); ++i) {
    s_.output_descs[i] = {DML_TENSOR_TYPE_BUFFER, &s_.tensors[s_.input_count + i].buffer};
  }
  const DML_TENSOR_DESC* in = s_.input_descs.data();
  const DML_TENSOR_DESC* out = s_.output_descs.data();
  switch (s_.op_desc.Type) {
    case DML_OPERATOR_GATHER:
      s_.gather.InputTensor = &in[0];
      s_.gather.IndicesTensor = &in[1];
      s_.gather.OutputTensor = &out[0];
      s_.op_desc.Desc = &s_.gather;
      break;
    case DML_OPERATOR_GATHER_ELEMENTS:
      s_.gather_elements.InputTensor = &in[0];
      s_.gather_elements.IndicesTensor = &in[1];
      s_.gather_elements.OutputTensor = &out[0];
      s_.op_desc.Desc = &s_.gather_elements;
      break;
    case DML_OPERATOR_GATHER_ND1:
      s_.gather_nd1.InputTensor = &in[0];
      s_.gather_nd1.IndicesTensor = &in[1];
      s_.gather_nd1.OutputTensor = &out[0];
      s_.op_desc.Desc = &s_.gather_nd1;
      break;
    case DML_OPERATOR_SLICE1:
      s_.slice1.InputTensor = &in[0];
      s_.slice1.OutputTensor = &out[0];
      s_.slice1.DimensionCount = s_.dimension_count;
      s_.slice1.InputWindowOffsets = s_.window_offsets;
      s_.slice1.InputWindowSizes = s_.window_sizes;
      s_.slice1.InputWindowStrides = s_.window_strides;
      s_.op_desc.Desc = &s_.slice1;
      break;
    case DML_OPERATOR_PADDING1:
      s_.padding1.InputTensor = &in[0];
      s_.padding1.OutputTensor = &out[0];
      s_.padding1.DimensionCount = s_.dimension_count;
      s_.padding1.StartPadding = s_.pad_start;
      s_.padding1.EndPadding = s_.pad_end;
      s_.op_desc.Desc = &s_.padding1;
      break;
    case DML_OPERATOR_DEPTH_TO_SPACE1:
      s_.depth_to_space1.InputTensor = &in[0];
      s_.depth_to_space1.OutputTensor = &out[0];
      s_.op_desc.Desc = &s_.depth_to_space1;
      break;
    case DML_OPERATOR_SPACE_TO_DEPTH1:
      s_.space_to_depth1.InputTensor = &in[0];
      s_.space_to_depth1.OutputTensor = &out[0];
      s_.op_desc.Desc = &s_.space_to_depth1;
      break;
    case DML_OPERATOR_SCATTER:
      s_.scatter.InputTensor = &in[0];
      s_.scatter.IndicesTensor = &in[1];
      s_.scatter.UpdatesTensor = &in[2];
      s_.scatter.OutputTensor = &out[0];
      s_.op_desc.Desc = &s_.scatter;
      break;
    case DML_OPERATOR_SCATTER_ND:
      s_.scatter_nd.InputTensor = &in[0];
      s_.scatter_nd.IndicesTensor = &in[1];
      s_.scatter_nd.UpdatesTensor = &in[2];
      s_.scatter_nd.OutputTensor = &out[0];
      s_.op_desc.Desc = &s_.scatter_nd;
      break;
    case DML_OPERATOR_ELEMENT_WISE_IDENTITY:
    case DML_OPERATOR_JOIN:
    case DML_OPERATOR_SPLIT:
    case DML_OPERATOR_TILE:
      Builder::LinkMovement(&s_);
      break;
    // New operators: one case each here.
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

Status OperatorDesc::SetOutputStrides(size_t i, const std::vector<uint32_t>& strides_elems) {
  if (i >= output_count()) {
    return InvalidArgument("%s: output %zu is not a binding, expected < %zu", s_.onnx_op, i,
                           output_count());
  }
  return SetStrides(s_.input_count + i, strides_elems);
}

Status OperatorDesc::SetStrides(size_t slot, const std::vector<uint32_t>& strides_elems) {
  Tensor& t = s_.tensors[slot];
  const char* name = t.onnx_name.c_str();
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
  const uint64_t element_bytes = ElementSizeBytes(t.element_type);
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
  if (!t.view_start.empty() && span_elems != 0) {
    // A view inside the buffer (Pad's crop): its first element and own span, within the
    // buffer's span checked above.
    uint64_t offset_elems = 0, view_span_elems = 1;
    for (size_t d = 0; d < rank; ++d) {
      offset_elems += static_cast<uint64_t>(t.view_start[d]) * strides[d];
      if (t.view_shape[d] > 0) {
        view_span_elems += static_cast<uint64_t>(t.view_shape[d] - 1) * strides[d];
      }
    }
    t.offset_bytes = offset_elems * element_bytes;
    t.view_bytes = (view_span_elems * element_bytes + 3) & ~uint64_t{3};
    t.total_bytes = std::max(t.total_bytes, t.offset_bytes + t.view_bytes);
  }
  t.layout_strides = strides_elems;
  // Shape-only nodes lay both tensors out in one shape of their own (onnx_movement.cc).
  if (s_.shape_only) return RelayoutShapeOnly();

  // DirectML strides: explicit for a caller layout or a view, else null (packed).
  t.has_strides = !strides_elems.empty() || t.is_view;
  if (t.has_strides && s_.dimension_count != 0) {
    for (uint32_t d = 0; d < s_.dimension_count; ++d) {
      if (d < t.rank_offset) {
        t.strides_elems[d] = 1;  // a padding dimension of size 1: any stride addresses the same
        continue;
      }
      const size_t v = d - t.rank_offset;
      const int32_t source = t.view_dims.empty() ? static_cast<int32_t>(v) : t.view_dims[v];
      const uint64_t stride = source < 0 ? 0 : strides[static_cast<size_t>(source)];
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
    case DML_OPERATOR_PADDING1: {
      static const char* const kModes[] = {"CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC", "WRAP"};
      uint64_t bits = 0;
      std::memcpy(&bits, s_.padding1.PaddingValue.Bytes, 8);
      s = StrFormat("PADDING1 PaddingMode=%s PaddingValue=0x%" PRIx64 " StartPadding=%s "
                    "EndPadding=%s", kModes[s_.padding1.PaddingMode % 5], bits,
                    FormatList(s_.pad_start, s_.dimension_count).c_str(),
                    FormatList(s_.pad_end, s_.dimension_count).c_str());
      break;
    }
    case DML_OPERATOR_DEPTH_TO_SPACE1:
    case DML_OPERATOR_SPACE_TO_DEPTH1: {
      const bool to_space = s_.op_desc.Type == DML_OPERATOR_DEPTH_TO_SPACE1;
      const uint32_t block =
          to_space ? s_.depth_to_space1.BlockSize : s_.space_to_depth1.BlockSize;
      const DML_DEPTH_SPACE_ORDER order =
          to_space ? s_.depth_to_space1.Order : s_.space_to_depth1.Order;
      s = StrFormat("%s BlockSize=%u Order=%s", to_space ? "DEPTH_TO_SPACE1" : "SPACE_TO_DEPTH1",
                    block, order == DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW ? "DCR" : "CRD");
      break;
    }
    case DML_OPERATOR_SCATTER:
      s = StrFormat("SCATTER Axis=%u", s_.scatter.Axis);
      break;
    case DML_OPERATOR_SCATTER_ND:
      s = StrFormat("SCATTER_ND InputDimensionCount=%u IndicesDimensionCount=%u",
                    s_.scatter_nd.InputDimensionCount, s_.scatter_nd.IndicesDimensionCount);
      break;
    case DML_OPERATOR_ELEMENT_WISE_IDENTITY:
    case DML_OPERATOR_JOIN:
    case DML_OPERATOR_SPLIT:
    case DML_OPERATOR_TILE:
      s = Builder::MovementAttributes(s_);
      break;
    // New operators: one case each here.
    default: {
      if (s_.alias) {
        return StrFormat("%s: the output is the input's bytes (both packed): nothing to execute",
                         s_.onnx_op);
      }
      std::string shapes;
      for (size_t i = 0; i < output_count(); ++i) {
        shapes += (i == 0 ? "" : ", ") + ShapeString(output_shape(i));
      }
      return StrFormat("%s with an empty output %s: nothing to execute", s_.onnx_op,
                       shapes.c_str());
    }
  }
  if (s_.scatter_reduction != ScatterReduction::kNone) {
    static const char* const kReductions[] = {"none", "add", "mul", "max", "min"};
    s += StrFormat(" (compile option scatter_reduction=%s)",
                   kReductions[static_cast<uint32_t>(s_.scatter_reduction) % 5]);
  }
  for (const Tensor& t : s_.tensors) {
    s += StrFormat(" %s=%s%s", t.dml_field.c_str(), internal::DataTypeName(t.buffer.DataType),
                   FormatList(t.sizes, s_.dimension_count).c_str());
    if (t.has_strides) s += "s" + FormatList(t.strides_elems, s_.dimension_count);
    s += StrFormat("t%" PRIu64, t.total_bytes);
  }
  return s;
}

}  // namespace onnx
}  // namespace dmlcpu
