// SPDX-License-Identifier: Apache-2.0
// ONNX Pad, DepthToSpace and SpaceToDepth -> DirectML PADDING1, DEPTH_TO_SPACE1 and
// SPACE_TO_DEPTH1 (include/dmlcpu/onnx.h). Negative pads crop: the data binding becomes a view
// that starts inside the caller's buffer (input_offset_bytes), so the crop and the pad are one
// PADDING1 and need nothing beyond DirectML (a DML_BUFFER_BINDING has an Offset).
#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/format.h"
#include "dmlcpu/onnx.h"
#include "onnx/onnx_internal.h"

namespace dmlcpu {
namespace onnx {

StatusOr<OperatorDesc> Pad(const TensorType& data, const PadParams& params) {
  const char* op = "Pad";
  Status status = CheckShape(op, "data", data.shape);
  if (status.ok()) status = CheckDataType(op, data.element_type);
  if (!status.ok()) return status;
  const size_t r = data.shape.size();
  DML_PADDING_MODE mode;
  if (params.mode == "constant") {
    mode = DML_PADDING_MODE_CONSTANT;
  } else if (params.mode == "edge") {
    mode = DML_PADDING_MODE_EDGE;
  } else if (params.mode == "reflect") {
    mode = DML_PADDING_MODE_REFLECTION;
  } else if (params.mode == "wrap") {
    mode = DML_PADDING_MODE_WRAP;
  } else {
    return InvalidArgument("%s: mode is \"%s\", expected \"constant\", \"reflect\", \"edge\" or "
                           "\"wrap\"", op, params.mode.c_str());
  }
  const size_t k = params.axes.empty() ? r : params.axes.size();
  if (params.pads.size() != 2 * k) {
    return InvalidArgument("%s: pads has %zu values, expected %zu (2 * %s)", op,
                           params.pads.size(), 2 * k,
                           params.axes.empty() ? "data rank" : "the number of axes");
  }
  const uint32_t element_bytes = ElementSizeBytes(data.element_type);
  if (!params.constant_value.empty() && params.constant_value.size() != element_bytes) {
    return InvalidArgument("%s: constant_value has %zu bytes, expected %u (one %s element)", op,
                           params.constant_value.size(), element_bytes,
                           ElementTypeName(data.element_type));
  }
  // Per ONNX dimension: pad before and after (negative = crop).
  std::vector<int64_t> before(r, 0), after(r, 0);
  std::vector<int64_t> axis_source(r, -1);
  for (size_t i = 0; i < k; ++i) {
    uint32_t a = static_cast<uint32_t>(i);
    if (!params.axes.empty()) {
      const std::string name = StrFormat("axes[%zu]", i);
      status = NormalizeAxis(op, name.c_str(), params.axes[i], r, &a);
      if (!status.ok()) return status;
      if (axis_source[a] >= 0) {
        return InvalidArgument("%s: axes[%zu] is %" PRId64 ", expected no repeated axis (axes[%"
                               PRId64 "] is the same axis %u)", op, i, params.axes[i],
                               axis_source[a], a);
      }
    }
    axis_source[a] = static_cast<int64_t>(i);
    before[a] = params.pads[i];
    after[a] = params.pads[i + k];
  }
  // The kept part of the data (the view) and the output.
  std::vector<int64_t> output(r), view(r), view_start(r);
  for (size_t d = 0; d < r; ++d) {
    const int64_t dim = data.shape[d];
    const int64_t lo = std::min<int64_t>(before[d], 0), hi = std::min<int64_t>(after[d], 0);
    // |pads| up to 2^63: compare without overflow (dim <= 2^32 - 1).
    if (lo < -dim || hi < -dim || dim + lo + hi < 0) {
      return InvalidArgument("%s: pads crop %" PRId64 " + %" PRId64 " elements of dimension %zu, "
                             "expected at most its size %" PRId64, op, -lo, -hi, d, dim);
    }
    view[d] = dim + lo + hi;
    view_start[d] = -lo;
    const int64_t grow = std::max<int64_t>(before[d], 0) + std::max<int64_t>(after[d], 0);
    if (grow > kMaxDim - view[d]) {
      return InvalidArgument("%s: output dimension %zu is %" PRId64 " + %" PRId64 ", expected <= "
                             "%" PRId64, op, d, view[d], grow, kMaxDim);
    }
    output[d] = view[d] + grow;
  }
  const bool empty = HasZero(output);
  if (!empty && HasZero(view)) {
    if (mode != DML_PADDING_MODE_CONSTANT) {
      return InvalidArgument("%s: mode \"%s\" pads a dimension of size 0 (after the crop), "
                             "expected a non-empty input", op, params.mode.c_str());
    }
    return Unsupported("%s: the input is empty after the crop and the output is not: the output "
                       "is only the constant (DirectML's PADDING1 needs a non-empty input)", op);
  }

  Builder b(op);
  const uint32_t n = empty ? 0 : static_cast<uint32_t>(std::max<size_t>(r, 1));
  b.SetDimensionCount(n);
  b.SetNothingToExecute(empty);
  b.AddInput("data", "InputTensor", data.element_type, data.shape, &view);
  b.SetInputViewStart(0, view_start);
  b.AddOutput("output", "OutputTensor", data.element_type, output);
  if (!empty) {
    DML_PADDING1_OPERATOR_DESC& p = b.s().padding1;
    b.s().op_desc.Type = DML_OPERATOR_PADDING1;
    p.PaddingMode = mode;
    p.PaddingValueDataType = ToDmlDataType(data.element_type).value();
    std::memset(p.PaddingValue.Bytes, 0, sizeof(p.PaddingValue.Bytes));
    if (!params.constant_value.empty()) {
      std::memcpy(p.PaddingValue.Bytes, params.constant_value.data(), element_bytes);
    }
    const uint32_t offset = n - static_cast<uint32_t>(r);
    for (uint32_t d = 0; d < n; ++d) {
      const bool padding_dim = d < offset;
      b.s().pad_start[d] =
          padding_dim ? 0 : static_cast<uint32_t>(std::max<int64_t>(before[d - offset], 0));
      b.s().pad_end[d] =
          padding_dim ? 0 : static_cast<uint32_t>(std::max<int64_t>(after[d - offset], 0));
    }
  }
  return b.Finish();
}

namespace {

StatusOr<OperatorDesc> DepthSpace(const char* op, const TensorType& input, int64_t blocksize,
                                  DML_DEPTH_SPACE_ORDER order, bool to_space) {
  Status status = CheckShape(op, "input", input.shape);
  if (status.ok()) status = CheckDataType(op, input.element_type, "input");
  if (!status.ok()) return status;
  if (input.shape.size() != 4) {
    return InvalidArgument("%s: input rank is %zu, expected 4", op, input.shape.size());
  }
  if (blocksize < 1 || blocksize > 0xFFFF) {
    return InvalidArgument("%s: blocksize is %" PRId64 ", expected in [1, 65535]", op, blocksize);
  }
  const int64_t b = blocksize, bb = blocksize * blocksize;
  const std::vector<int64_t>& x = input.shape;
  std::vector<int64_t> output;
  if (to_space) {
    if (x[1] % bb != 0) {
      return InvalidArgument("%s: input.shape[1] is %" PRId64 ", expected a multiple of %" PRId64
                             " (blocksize squared)", op, x[1], bb);
    }
    output = {x[0], x[1] / bb, x[2] * b, x[3] * b};
  } else {
    for (int d = 2; d < 4; ++d) {
      if (x[d] % b != 0) {
        return InvalidArgument("%s: input.shape[%d] is %" PRId64 ", expected a multiple of %"
                               PRId64 " (blocksize)", op, d, x[d], b);
      }
    }
    output = {x[0], x[1] * bb, x[2] / b, x[3] / b};
  }
  for (size_t d = 0; d < 4; ++d) {
    if (output[d] > kMaxDim) {
      return InvalidArgument("%s: output.shape[%zu] is %" PRId64 ", expected <= %" PRId64, op, d,
                             output[d], kMaxDim);
    }
  }
  const bool empty = HasZero(output) || HasZero(x);
  Builder builder(op);
  builder.SetDimensionCount(empty ? 0 : 4);
  builder.SetNothingToExecute(empty);
  builder.AddInput("input", "InputTensor", input.element_type, input.shape);
  builder.AddOutput("output", "OutputTensor", input.element_type, output);
  if (!empty) {
    if (to_space) {
      builder.s().op_desc.Type = DML_OPERATOR_DEPTH_TO_SPACE1;
      builder.s().depth_to_space1.BlockSize = static_cast<uint32_t>(b);
      builder.s().depth_to_space1.Order = order;
    } else {
      builder.s().op_desc.Type = DML_OPERATOR_SPACE_TO_DEPTH1;
      builder.s().space_to_depth1.BlockSize = static_cast<uint32_t>(b);
      builder.s().space_to_depth1.Order = order;
    }
  }
  return builder.Finish();
}

}  // namespace

StatusOr<OperatorDesc> DepthToSpace(const TensorType& input, int64_t blocksize,
                                    const std::string& mode) {
  DML_DEPTH_SPACE_ORDER order;
  if (mode == "DCR") {
    order = DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW;
  } else if (mode == "CRD") {
    order = DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH;
  } else {
    return InvalidArgument("DepthToSpace: mode is \"%s\", expected \"DCR\" or \"CRD\"",
                           mode.c_str());
  }
  return DepthSpace("DepthToSpace", input, blocksize, order, true);
}

StatusOr<OperatorDesc> SpaceToDepth(const TensorType& input, int64_t blocksize) {
  return DepthSpace("SpaceToDepth", input, blocksize, DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW,
                    false);
}

}  // namespace onnx
}  // namespace dmlcpu
