// SPDX-License-Identifier: Apache-2.0
// ONNX Gather, GatherElements and GatherND -> DirectML GATHER, GATHER_ELEMENTS and GATHER_ND1 (include/dmlcpu/onnx.h).
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

  Builder b(op);
  const uint32_t n = empty ? 0 : static_cast<uint32_t>(std::max(r, output.size()));
  b.SetDimensionCount(n);
  b.SetNothingToExecute(empty);
  b.AddInput("data", "InputTensor", data.element_type, data.shape);
  b.AddInput("indices", "IndicesTensor", indices.element_type, indices.shape);
  b.AddOutput("output", "OutputTensor", data.element_type, output);
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

  Builder b(op);
  const uint32_t n = empty ? 0 : static_cast<uint32_t>(r);
  b.SetDimensionCount(n);
  b.SetNothingToExecute(empty);
  b.AddInput("data", "InputTensor", data.element_type, data.shape, &view);
  b.AddInput("indices", "IndicesTensor", indices.element_type, indices.shape);
  b.AddOutput("output", "OutputTensor", data.element_type, indices.shape);
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

  Builder b(op);
  const uint32_t n = empty ? 0 : static_cast<uint32_t>(std::max({r, q, output.size()}));
  b.SetDimensionCount(n);
  b.SetNothingToExecute(empty);
  b.AddInput("data", "InputTensor", data.element_type, data.shape);
  b.AddInput("indices", "IndicesTensor", indices.element_type, indices.shape);
  b.AddOutput("output", "OutputTensor", data.element_type, output);
  if (!empty) {
    b.s().op_desc.Type = DML_OPERATOR_GATHER_ND1;
    b.s().gather_nd1.InputDimensionCount = static_cast<uint32_t>(r);
    b.s().gather_nd1.IndicesDimensionCount = static_cast<uint32_t>(q);
    b.s().gather_nd1.BatchDimensionCount = static_cast<uint32_t>(b_dims);
  }
  return b.Finish();
}

}  // namespace onnx
}  // namespace dmlcpu
