// SPDX-License-Identifier: Apache-2.0
// ONNX Slice -> DirectML SLICE1 (include/dmlcpu/onnx.h).
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

  Builder b(op);
  const uint32_t n = empty ? 0 : static_cast<uint32_t>(std::max<size_t>(r, 1));
  b.SetDimensionCount(n);
  b.SetNothingToExecute(empty);
  b.AddInput("data", "InputTensor", data.element_type, data.shape);
  b.AddOutput("output", "OutputTensor", data.element_type, output);
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
