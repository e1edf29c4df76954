// SPDX-License-Identifier: Apache-2.0
// ONNX ScatterND, ScatterElements and the deprecated Scatter -> DirectML SCATTER_ND and SCATTER,
// with ONNX's `reduction` carried as a dmlcpu compile option (include/dmlcpu/onnx.h).
#include <algorithm>
#include <cinttypes>
#include <string>
#include <utility>
#include <vector>

#include "core/format.h"
#include "dmlcpu/onnx.h"
#include "onnx/onnx_internal.h"

namespace dmlcpu {
namespace onnx {
namespace {

// Types and shapes every scatter checks: data and updates of one moved type, INT32/INT64
// indices, ranks and dimensions DirectML can hold.
Status CheckScatterTensors(const char* op, const TensorType& data, const TensorType& indices,
                           const TensorType& updates) {
  Status status = CheckShape(op, "data", data.shape);
  if (status.ok()) status = CheckShape(op, "indices", indices.shape);
  if (status.ok()) status = CheckShape(op, "updates", updates.shape);
  if (status.ok()) status = CheckDataType(op, data.element_type);
  if (status.ok()) status = CheckIndexType(op, indices.element_type);
  if (!status.ok()) return status;
  if (updates.element_type != data.element_type) {
    return InvalidArgument("%s: updates element type is %s, expected %s (data)", op,
                           ElementTypeName(updates.element_type),
                           ElementTypeName(data.element_type));
  }
  if (data.shape.empty()) return InvalidArgument("%s: data rank is 0, expected >= 1", op);
  return Status::Ok();
}

// ONNX's `reduction` attribute at `opset` (attribute from version 16, max/min from 18).
Status ParseReduction(const char* op, const std::string& reduction, int64_t opset,
                      const TensorType& data, ScatterReduction* out) {
  static const char* const kNames[] = {"none", "add", "mul", "max", "min"};
  size_t k = 0;
  while (k < 5 && reduction != kNames[k]) ++k;
  if (k == 5) {
    return InvalidArgument("%s: reduction is \"%s\", expected \"none\", \"add\", \"mul\", "
                           "\"max\" or \"min\"", op, reduction.c_str());
  }
  if (k != 0 && opset < 16) {
    return InvalidArgument("%s: reduction is \"%s\" at opset %" PRId64 ", expected \"none\" "
                           "(the attribute is from %s-16)", op, reduction.c_str(), opset, op);
  }
  if (k >= 3 && opset < 18) {
    return InvalidArgument("%s: reduction is \"%s\" at opset %" PRId64 ", expected \"none\", "
                           "\"add\" or \"mul\" (max and min are from %s-18)", op,
                           reduction.c_str(), opset, op);
  }
  // BOOL travels as UINT8: mul, max and min agree with logical and/or, add would leave a 2.
  if (k == 1 && data.element_type == ElementType::kBool) {
    return Unsupported("%s: reduction is \"add\" on BOOL data, expected \"none\", \"mul\", "
                       "\"max\" or \"min\" (BOOL is moved as UINT8, where 1 + 1 is 2)", op);
  }
  *out = static_cast<ScatterReduction>(k);
  return Status::Ok();
}

Status CheckOpset(const char* op, int64_t opset, int64_t first) {
  if (opset < first) {
    return InvalidArgument("%s: opset is %" PRId64 ", expected >= %" PRId64 " (%s-%" PRId64
                           " is its first version)", op, opset, first, op, first);
  }
  return Status::Ok();
}

// A scatter without updates (indices with a 0-size dimension): the output is data's copy, one
// ELEMENT_WISE_IDENTITY; indices and updates are not bindings (input_is_empty).
StatusOr<OperatorDesc> CopyOfData(const char* op, const TensorType& data,
                                  const TensorType& indices, const TensorType& updates) {
  Builder b(op);
  b.AddInput("data", "InputTensor", data.element_type, data.shape);
  b.AddInput("indices", "(empty)", indices.element_type, indices.shape);
  b.AddInput("updates", "(empty)", updates.element_type, updates.shape);
  b.AddOutput("output", "OutputTensor", data.element_type, data.shape);
  const bool empty = HasZero(data.shape);
  b.SetNothingToExecute(empty);
  if (!empty) {
    b.SetDimensionCount(static_cast<uint32_t>(
        std::max({data.shape.size(), indices.shape.size(), updates.shape.size()})));
    b.s().op_desc.Type = DML_OPERATOR_ELEMENT_WISE_IDENTITY;
  }
  return b.Finish();
}

// The shared body of ScatterElements and Scatter.
StatusOr<OperatorDesc> ScatterAlongAxis(const char* op, const TensorType& data,
                                        const TensorType& indices, const TensorType& updates,
                                        int64_t axis, ScatterReduction reduction) {
  const size_t r = data.shape.size();
  if (indices.shape.size() != r) {
    return InvalidArgument("%s: indices rank is %zu, expected %zu (data rank)", op,
                           indices.shape.size(), r);
  }
  if (updates.shape != indices.shape) {
    return InvalidArgument("%s: updates.shape is %s, expected %s (indices.shape)", op,
                           ShapeString(updates.shape).c_str(),
                           ShapeString(indices.shape).c_str());
  }
  uint32_t a = 0;
  Status status = NormalizeAxis(op, "axis", axis, r, &a);
  if (!status.ok()) return status;
  for (size_t d = 0; d < r; ++d) {
    if (d != a && indices.shape[d] > data.shape[d]) {
      return InvalidArgument("%s: indices.shape[%zu] is %" PRId64 ", expected <= %" PRId64
                             " (data.shape[%zu]; axis is %u)", op, d, indices.shape[d],
                             data.shape[d], d, a);
    }
  }
  if (HasZero(indices.shape)) return CopyOfData(op, data, indices, updates);
  if (data.shape[a] == 0) {
    return InvalidArgument("%s: data.shape[%u] is 0, expected >= 1 (the scattered axis of "
                           "non-empty indices)", op, a);
  }
  // SCATTER copies the whole input and indexes every row of it: a smaller index block would
  // need a copy of the rest that the one operator cannot express.
  for (size_t d = 0; d < r; ++d) {
    if (d != a && indices.shape[d] != data.shape[d]) {
      return Unsupported("%s: indices.shape[%zu] is %" PRId64 ", expected %" PRId64
                         " (data.shape[%zu]; axis is %u): DirectML's SCATTER takes indices "
                         "of data's extent off the axis", op, d, indices.shape[d],
                         data.shape[d], d, a);
    }
  }

  Builder b(op);
  b.SetDimensionCount(static_cast<uint32_t>(r));
  b.AddInput("data", "InputTensor", data.element_type, data.shape);
  b.AddInput("indices", "IndicesTensor", indices.element_type, indices.shape);
  b.AddInput("updates", "UpdatesTensor", updates.element_type, updates.shape);
  b.AddOutput("output", "OutputTensor", data.element_type, data.shape);
  b.s().op_desc.Type = DML_OPERATOR_SCATTER;
  b.s().scatter.Axis = a;
  b.s().scatter_reduction = reduction;
  return b.Finish();
}

}  // namespace

StatusOr<OperatorDesc> ScatterNd(const TensorType& data, const TensorType& indices,
                                 const TensorType& updates, const std::string& reduction,
                                 int64_t opset) {
  const char* op = "ScatterND";
  Status status = CheckOpset(op, opset, 11);
  if (status.ok()) status = CheckScatterTensors(op, data, indices, updates);
  ScatterReduction mode = ScatterReduction::kNone;
  if (status.ok()) status = ParseReduction(op, reduction, opset, data, &mode);
  if (!status.ok()) return status;
  const size_t r = data.shape.size();
  const size_t q = indices.shape.size();
  if (q == 0) return InvalidArgument("%s: indices rank is 0, expected >= 1", op);
  const int64_t t = indices.shape[q - 1];
  if (t > static_cast<int64_t>(r)) {
    return InvalidArgument("%s: indices.shape[%zu] is %" PRId64 ", expected in [1, %zu] (data "
                           "rank)", op, q - 1, t, r);
  }
  if (t == 0) {
    return Unsupported("%s: indices.shape[%zu] is 0, expected in [1, %zu]: DirectML's "
                       "SCATTER_ND takes at least one index per tuple", op, q - 1, r);
  }
  std::vector<int64_t> expected(indices.shape.begin(), indices.shape.end() - 1);
  expected.insert(expected.end(), data.shape.begin() + t, data.shape.end());
  if (updates.shape != expected) {
    return InvalidArgument("%s: updates.shape is %s, expected %s (indices.shape[:-1] + "
                           "data.shape[%" PRId64 ":])", op, ShapeString(updates.shape).c_str(),
                           ShapeString(expected).c_str(), t);
  }
  if (HasZero(updates.shape)) return CopyOfData(op, data, indices, updates);
  for (size_t d = 0; d < static_cast<size_t>(t); ++d) {
    if (data.shape[d] == 0) {
      return InvalidArgument("%s: data.shape[%zu] is 0, expected >= 1 (addressed by non-empty "
                             "indices)", op, d);
    }
  }

  Builder b(op);
  b.SetDimensionCount(static_cast<uint32_t>(std::max({r, q, updates.shape.size()})));
  b.AddInput("data", "InputTensor", data.element_type, data.shape);
  b.AddInput("indices", "IndicesTensor", indices.element_type, indices.shape);
  b.AddInput("updates", "UpdatesTensor", updates.element_type, updates.shape);
  b.AddOutput("output", "OutputTensor", data.element_type, data.shape);
  b.s().op_desc.Type = DML_OPERATOR_SCATTER_ND;
  b.s().scatter_nd.InputDimensionCount = static_cast<uint32_t>(r);
  b.s().scatter_nd.IndicesDimensionCount = static_cast<uint32_t>(q);
  b.s().scatter_reduction = mode;
  return b.Finish();
}

StatusOr<OperatorDesc> ScatterElements(const TensorType& data, const TensorType& indices,
                                       const TensorType& updates, int64_t axis,
                                       const std::string& reduction, int64_t opset) {
  const char* op = "ScatterElements";
  Status status = CheckOpset(op, opset, 11);
  if (status.ok()) status = CheckScatterTensors(op, data, indices, updates);
  ScatterReduction mode = ScatterReduction::kNone;
  if (status.ok()) status = ParseReduction(op, reduction, opset, data, &mode);
  if (!status.ok()) return status;
  return ScatterAlongAxis(op, data, indices, updates, axis, mode);
}

StatusOr<OperatorDesc> Scatter(const TensorType& data, const TensorType& indices,
                               const TensorType& updates, int64_t axis, int64_t opset) {
  const char* op = "Scatter";
  Status status = CheckOpset(op, opset, 9);
  if (status.ok()) status = CheckScatterTensors(op, data, indices, updates);
  if (!status.ok()) return status;
  return ScatterAlongAxis(op, data, indices, updates, axis, ScatterReduction::kNone);
}

}  // namespace onnx
}  // namespace dmlcpu
