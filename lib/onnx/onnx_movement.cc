// SPDX-License-Identifier: Apache-2.0
// ONNX Transpose, Expand, Identity, Reshape, Flatten, Squeeze, Unsqueeze, Concat, Split and Tile
// -> ELEMENT_WISE_IDENTITY, JOIN, SPLIT, TILE (include/dmlcpu/onnx.h). The shape rules are in
// onnx_movement_shapes.cc; this file lays the tensors out for DirectML.
#include <algorithm>
#include <cinttypes>
#include <string>
#include <utility>
#include <vector>

#include "core/format.h"
#include "dmlcpu/onnx.h"
#include "onnx/onnx_internal.h"
#include "onnx/onnx_movement_shapes.h"

namespace dmlcpu {
namespace onnx {
namespace {

using internal::Shape;

Status CheckTensor(const char* op, const char* name, const TensorType& t) {
  Status status = CheckShape(op, name, t.shape);
  if (status.ok()) status = CheckDataType(op, t.element_type, name);
  return status;
}

// DirectML's DimensionCount for a node whose tensors have rank `rank` (at least 1).
uint32_t DimsFor(size_t rank) { return static_cast<uint32_t>(std::max<size_t>(rank, 1)); }

// An ELEMENT_WISE_IDENTITY whose input is `in` seen as `view` (view dimension d reads buffer
// dimension view_dims[d], -1 broadcasts): Transpose and Expand.
StatusOr<OperatorDesc> ViewCopy(const char* op, const char* in_name, const TensorType& in,
                                const Shape& view, std::vector<int32_t> view_dims,
                                const char* out_name) {
  Builder b(op);
  const size_t input =
      b.AddInput(in_name, "InputTensor", in.element_type, in.shape, &view);
  b.s().tensors[input].is_view = true;
  b.s().tensors[input].view_dims = std::move(view_dims);
  b.AddOutput(out_name, "OutputTensor", in.element_type, view);
  const bool empty = HasZero(view);
  b.SetNothingToExecute(empty);
  if (!empty) {
    b.SetDimensionCount(DimsFor(view.size()));
    b.s().op_desc.Type = DML_OPERATOR_ELEMENT_WISE_IDENTITY;
  }
  return b.Finish();
}

// A node whose output is its input under another shape: an alias while both are packed, else
// one ELEMENT_WISE_IDENTITY (OperatorDesc::RelayoutShapeOnly).
StatusOr<OperatorDesc> ShapeOnly(const char* op, const TensorType& in, Shape out) {
  Builder b(op);
  b.AddInput("data", "InputTensor", in.element_type, in.shape);
  const bool empty = HasZero(out);
  b.AddOutput("output", "OutputTensor", in.element_type, std::move(out));
  b.SetNothingToExecute(empty);
  b.s().shape_only = !empty;
  return b.Finish();
}

// Whether `strides` (ONNX element strides, empty = packed) lay `shape` out packed.
bool IsPacked(const std::vector<uint32_t>& strides, const Shape& shape) {
  uint64_t packed = 1;
  for (size_t d = strides.size(); d-- > 0;) {
    if (shape[d] != 1 && strides[d] != packed) return false;
    packed *= static_cast<uint64_t>(shape[d]);
  }
  return true;
}

}  // namespace

// ---- OperatorDesc and Builder hooks ------------------------------------------------------------

Status OperatorDesc::RelayoutShapeOnly() {
  Tensor& in = s_.tensors[0];
  Tensor& out = s_.tensors[1];
  const bool in_strided = !IsPacked(in.layout_strides, in.buffer_shape);
  const bool out_strided = !IsPacked(out.layout_strides, out.buffer_shape);
  if (!in_strided && !out_strided) {
    s_.alias = true;
    s_.op_desc.Type = DML_OPERATOR_INVALID;
    s_.dimension_count = 0;
    Relink();
    return Status::Ok();
  }
  if (in_strided && out_strided && in.buffer_shape != out.buffer_shape) {
    const std::string in_shape = ShapeString(in.buffer_shape);
    const std::string out_shape = ShapeString(out.buffer_shape);
    Status reset = SetStrides(1, {});  // leaves a consistent node: the output packed again
    (void)reset;
    return Unsupported("%s: input %s and output %s are both strided, expected at least one of "
                       "them packed: a strided tensor re-shaped into a strided tensor of "
                       "another shape is not one copy (the output was re-laid packed)",
                       s_.onnx_op, in_shape.c_str(), out_shape.c_str());
  }
  // One copy in the strided tensor's shape; the packed one is read or written in that shape,
  // which addresses the same bytes.
  s_.alias = false;
  s_.op_desc.Type = DML_OPERATOR_ELEMENT_WISE_IDENTITY;
  const std::vector<int64_t> shape = in_strided ? in.buffer_shape : out.buffer_shape;
  const uint32_t n = DimsFor(shape.size());
  for (Tensor* t : {&in, &out}) {
    t->rank_offset = n - static_cast<uint32_t>(shape.size());
    t->has_strides = t->buffer_shape == shape && !t->layout_strides.empty();
    for (uint32_t d = 0; d < n; ++d) {
      const bool pad = d < t->rank_offset;
      t->sizes[d] = pad ? 1u : static_cast<uint32_t>(shape[d - t->rank_offset]);
      t->strides_elems[d] = pad || !t->has_strides ? 1u : t->layout_strides[d - t->rank_offset];
    }
  }
  s_.dimension_count = n;
  Relink();
  return Status::Ok();
}

void Builder::LinkMovement(OperatorDesc::State* s) {
  const DML_TENSOR_DESC* in = s->input_descs.data();
  const DML_TENSOR_DESC* out = s->output_descs.data();
  switch (s->op_desc.Type) {
    case DML_OPERATOR_ELEMENT_WISE_IDENTITY:
      s->identity = {&in[0], &out[0], nullptr};
      s->op_desc.Desc = &s->identity;
      break;
    case DML_OPERATOR_JOIN:  // the non-empty inputs, in order
      s->part_descs.clear();
      for (size_t i = 0; i < s->input_count; ++i) {
        if (!HasZero(s->tensors[i].buffer_shape)) s->part_descs.push_back(in[i]);
      }
      s->join.InputCount = static_cast<uint32_t>(s->part_descs.size());
      s->join.InputTensors = s->part_descs.data();
      s->join.OutputTensor = &out[0];
      s->op_desc.Desc = &s->join;
      break;
    case DML_OPERATOR_SPLIT:  // the non-empty outputs, in order
      s->part_descs.clear();
      for (size_t i = 0; i < s->output_descs.size(); ++i) {
        if (!HasZero(s->tensors[s->input_count + i].buffer_shape)) {
          s->part_descs.push_back(out[i]);
        }
      }
      s->split.InputTensor = &in[0];
      s->split.OutputCount = static_cast<uint32_t>(s->part_descs.size());
      s->split.OutputTensors = s->part_descs.data();
      s->op_desc.Desc = &s->split;
      break;
    case DML_OPERATOR_TILE:
      s->tile.InputTensor = &in[0];
      s->tile.OutputTensor = &out[0];
      s->tile.RepeatsCount = s->dimension_count;
      s->tile.Repeats = s->repeats;
      s->op_desc.Desc = &s->tile;
      break;
    default:
      s->op_desc.Desc = nullptr;
      break;
  }
}

std::string Builder::MovementAttributes(const OperatorDesc::State& s) {
  switch (s.op_desc.Type) {
    case DML_OPERATOR_JOIN:
      return StrFormat("JOIN Axis=%u InputCount=%u", s.join.Axis, s.join.InputCount);
    case DML_OPERATOR_SPLIT:
      return StrFormat("SPLIT Axis=%u OutputCount=%u", s.split.Axis, s.split.OutputCount);
    case DML_OPERATOR_TILE:
      return "TILE Repeats=" + FormatList(s.repeats, s.dimension_count);
    default:
      return "ELEMENT_WISE_IDENTITY";
  }
}

// ---- Operators ---------------------------------------------------------------------------------

StatusOr<OperatorDesc> Transpose(const TensorType& data, const std::vector<int64_t>& perm) {
  const char* op = "Transpose";
  Status status = CheckTensor(op, "data", data);
  if (!status.ok()) return status;
  std::vector<uint32_t> p;
  Shape out;
  status = internal::TransposeShape(data.shape, perm, &p, &out);
  if (!status.ok()) return status;
  return ViewCopy(op, "data", data, out, std::vector<int32_t>(p.begin(), p.end()), "transposed");
}

StatusOr<OperatorDesc> Expand(const TensorType& input, const std::vector<int64_t>& shape) {
  const char* op = "Expand";
  Status status = CheckTensor(op, "input", input);
  if (!status.ok()) return status;
  Shape out;
  status = internal::ExpandShape(input.shape, shape, &out);
  if (status.ok()) status = CheckShape(op, "output", out);
  if (!status.ok()) return status;
  // Right-aligned: output dimension j is input dimension j - (R - r); a size-1 input dimension
  // under a larger output one broadcasts.
  const size_t r = input.shape.size(), big_r = out.size();
  std::vector<int32_t> view_dims(big_r, -1);
  for (size_t j = big_r - r; j < big_r; ++j) {
    const size_t k = j - (big_r - r);
    if (input.shape[k] == out[j]) view_dims[j] = static_cast<int32_t>(k);
  }
  return ViewCopy(op, "input", input, out, std::move(view_dims), "output");
}

StatusOr<OperatorDesc> Identity(const TensorType& input) {
  Status status = CheckTensor("Identity", "input", input);
  if (!status.ok()) return status;
  return ShapeOnly("Identity", input, input.shape);
}

StatusOr<OperatorDesc> Reshape(const TensorType& data, const std::vector<int64_t>& shape,
                               bool allowzero) {
  Status status = CheckTensor("Reshape", "data", data);
  Shape out;
  if (status.ok()) status = internal::ReshapeShape(data.shape, shape, allowzero, &out);
  if (status.ok()) status = CheckShape("Reshape", "output", out);
  if (!status.ok()) return status;
  return ShapeOnly("Reshape", data, std::move(out));
}

StatusOr<OperatorDesc> Flatten(const TensorType& input, int64_t axis) {
  Status status = CheckTensor("Flatten", "input", input);
  Shape out;
  if (status.ok()) status = internal::FlattenShape(input.shape, axis, &out);
  if (!status.ok()) return status;
  return ShapeOnly("Flatten", input, std::move(out));
}

StatusOr<OperatorDesc> Squeeze(const TensorType& data, const std::vector<int64_t>& axes) {
  Status status = CheckTensor("Squeeze", "data", data);
  Shape out;
  if (status.ok()) status = internal::SqueezeShape(data.shape, axes, &out);
  if (!status.ok()) return status;
  return ShapeOnly("Squeeze", data, std::move(out));
}

StatusOr<OperatorDesc> Unsqueeze(const TensorType& data, const std::vector<int64_t>& axes) {
  Status status = CheckTensor("Unsqueeze", "data", data);
  Shape out;
  if (status.ok()) status = internal::UnsqueezeShape(data.shape, axes, &out);
  if (status.ok()) status = CheckShape("Unsqueeze", "output", out);
  if (!status.ok()) return status;
  return ShapeOnly("Unsqueeze", data, std::move(out));
}

StatusOr<OperatorDesc> Concat(const std::vector<TensorType>& inputs, int64_t axis) {
  const char* op = "Concat";
  std::vector<Shape> shapes;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const std::string name = StrFormat("inputs[%zu]", k);
    Status status = CheckTensor(op, name.c_str(), inputs[k]);
    if (!status.ok()) return status;
    if (inputs[k].element_type != inputs[0].element_type) {
      return InvalidArgument("%s: inputs[%zu] element type is %s, expected %s (inputs[0])", op,
                             k, ElementTypeName(inputs[k].element_type),
                             ElementTypeName(inputs[0].element_type));
    }
    shapes.push_back(inputs[k].shape);
  }
  uint32_t a = 0;
  Shape out;
  Status status = internal::ConcatShape(shapes, axis, &a, &out);
  if (!status.ok()) return status;
  Builder b(op);
  uint32_t binding = 0;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const bool empty = HasZero(inputs[k].shape);
    const std::string name = StrFormat("inputs[%zu]", k);
    b.AddInput(name.c_str(), empty ? "(empty)" : StrFormat("InputTensors[%u]", binding++),
               inputs[k].element_type, inputs[k].shape);
  }
  b.AddOutput("concat_result", "OutputTensor", inputs[0].element_type, out);
  const bool empty = HasZero(out);
  b.SetNothingToExecute(empty);
  if (!empty) {
    b.SetDimensionCount(DimsFor(out.size()));
    b.s().op_desc.Type = DML_OPERATOR_JOIN;
    b.s().join.Axis = a;
  }
  return b.Finish();
}

StatusOr<OperatorDesc> Split(const TensorType& input, int64_t axis, const SplitParams& params) {
  const char* op = "Split";
  Status status = CheckTensor(op, "input", input);
  if (!status.ok()) return status;
  uint32_t a = 0;
  std::vector<int64_t> chunks;
  status = internal::SplitSizes(input.shape, axis, params.split, params.num_outputs,
                                params.output_count, &a, &chunks);
  if (!status.ok()) return status;
  Builder b(op);
  b.AddInput("input", "InputTensor", input.element_type, input.shape);
  uint32_t binding = 0;
  bool all_empty = true;
  for (size_t k = 0; k < chunks.size(); ++k) {
    Shape shape = input.shape;
    shape[a] = chunks[k];
    const bool empty = HasZero(shape);
    all_empty = all_empty && empty;
    const std::string name = StrFormat("outputs[%zu]", k);
    b.AddOutput(name.c_str(), empty ? "(empty)" : StrFormat("OutputTensors[%u]", binding++),
                input.element_type, std::move(shape));
  }
  b.SetNothingToExecute(all_empty);
  if (!all_empty) {
    b.SetDimensionCount(DimsFor(input.shape.size()));
    b.s().op_desc.Type = DML_OPERATOR_SPLIT;
    b.s().split.Axis = a;
  }
  return b.Finish();
}

StatusOr<OperatorDesc> Tile(const TensorType& input, const std::vector<int64_t>& repeats) {
  const char* op = "Tile";
  Status status = CheckTensor(op, "input", input);
  Shape out;
  if (status.ok()) status = internal::TileShape(input.shape, repeats, &out);
  if (!status.ok()) return status;
  Builder b(op);
  b.AddInput("input", "InputTensor", input.element_type, input.shape);
  b.AddOutput("output", "OutputTensor", input.element_type, out);
  const bool empty = HasZero(out);
  b.SetNothingToExecute(empty);
  if (!empty) {
    const uint32_t n = DimsFor(out.size());
    b.SetDimensionCount(n);
    b.s().op_desc.Type = DML_OPERATOR_TILE;
    const uint32_t offset = n - static_cast<uint32_t>(out.size());
    for (uint32_t d = 0; d < n; ++d) {
      b.s().repeats[d] = d < offset ? 1u : static_cast<uint32_t>(repeats[d - offset]);
    }
  }
  return b.Finish();
}

}  // namespace onnx
}  // namespace dmlcpu
