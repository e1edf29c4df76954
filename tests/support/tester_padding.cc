// SPDX-License-Identifier: Apache-2.0
#include "support/tester_padding.h"

#include <cstring>
#include <string>

#include <gtest/gtest.h>

namespace dmlcpu_test {

std::unique_ptr<OperatorCase> PaddingTester::BuildCase() const {
  const size_t n = input_sizes_.size();
  const std::vector<uint32_t> start = start_.empty() ? std::vector<uint32_t>(n, 0) : start_;
  const std::vector<uint32_t> end = end_.empty() ? std::vector<uint32_t>(n, 0) : end_;
  if (start.size() != n || end.size() != n) {
    ADD_FAILURE() << "PaddingTester: padding arrays must have " << n << " entries";
    return nullptr;
  }
  std::vector<uint32_t> output_sizes = output_sizes_;
  if (output_sizes.empty()) {
    for (size_t d = 0; d < n; ++d) output_sizes.push_back(input_sizes_[d] + start[d] + end[d]);
  }
  auto op_case = std::make_unique<OperatorCase>();
  op_case->inputs.push_back(std::make_unique<TensorDescHolder>(
      data_type_, input_sizes_, input_strides_, input_extra_bytes_, alignment_));
  op_case->outputs.push_back(std::make_unique<TensorDescHolder>(
      data_type_, output_sizes, output_strides_, output_extra_bytes_, alignment_));
  op_case->start_padding = start;
  op_case->end_padding = end;
  static const char* const kModes[] = {"CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC", "WRAP"};
  const char* mode = static_cast<uint32_t>(mode_) < 5 ? kModes[mode_] : "?";
  char value[64];
  if (typed_) {
    DML_PADDING1_OPERATOR_DESC& desc = op_case->padding1;
    desc.InputTensor = op_case->inputs[0]->desc();
    desc.OutputTensor = op_case->outputs[0]->desc();
    desc.PaddingMode = mode_;
    desc.PaddingValueDataType = data_type_;
    std::memcpy(desc.PaddingValue.Bytes, &bits_, 8);
    desc.DimensionCount = static_cast<UINT>(n);
    desc.StartPadding = op_case->start_padding.data();
    desc.EndPadding = op_case->end_padding.data();
    op_case->op_desc = {DML_OPERATOR_PADDING1, &desc};
    std::snprintf(value, sizeof(value), "0x%llx", static_cast<unsigned long long>(bits_));
  } else {
    DML_PADDING_OPERATOR_DESC& desc = op_case->padding;
    desc.InputTensor = op_case->inputs[0]->desc();
    desc.OutputTensor = op_case->outputs[0]->desc();
    desc.PaddingMode = mode_;
    desc.PaddingValue = value_;
    desc.DimensionCount = static_cast<UINT>(n);
    desc.StartPadding = op_case->start_padding.data();
    desc.EndPadding = op_case->end_padding.data();
    op_case->op_desc = {DML_OPERATOR_PADDING, &desc};
    std::snprintf(value, sizeof(value), "%.9g", value_);
  }
  op_case->description = std::string(typed_ ? "PADDING1" : "PADDING") + " Mode=" + mode +
                         " Value=" + value + " Start=" + SizesToString(start) +
                         " End=" + SizesToString(end);
  FinishCase(op_case.get());
  return op_case;
}

std::unique_ptr<OperatorCase> DepthSpaceTester::BuildCase() const {
  const bool to_space =
      type_ == DML_OPERATOR_DEPTH_TO_SPACE || type_ == DML_OPERATOR_DEPTH_TO_SPACE1;
  std::vector<uint32_t> output_sizes = output_sizes_;
  if (output_sizes.empty() && input_sizes_.size() == 4) {
    const uint32_t b = block_ == 0 ? 1 : block_;
    output_sizes = input_sizes_;
    if (to_space) {
      output_sizes[1] /= b * b;
      output_sizes[2] *= b;
      output_sizes[3] *= b;
    } else {
      output_sizes[1] *= b * b;
      output_sizes[2] /= b;
      output_sizes[3] /= b;
    }
  }
  auto op_case = std::make_unique<OperatorCase>();
  op_case->inputs.push_back(std::make_unique<TensorDescHolder>(
      data_type_, input_sizes_, input_strides_, input_extra_bytes_, alignment_));
  op_case->outputs.push_back(std::make_unique<TensorDescHolder>(
      data_type_, output_sizes, output_strides_, output_extra_bytes_, alignment_));
  const DML_TENSOR_DESC* in = op_case->inputs[0]->desc();
  const DML_TENSOR_DESC* out = op_case->outputs[0]->desc();
  const char* name = "";
  switch (type_) {
    case DML_OPERATOR_DEPTH_TO_SPACE:
      op_case->depth_to_space = {in, out, block_};
      op_case->op_desc = {type_, &op_case->depth_to_space};
      name = "DEPTH_TO_SPACE";
      break;
    case DML_OPERATOR_SPACE_TO_DEPTH:
      op_case->space_to_depth = {in, out, block_};
      op_case->op_desc = {type_, &op_case->space_to_depth};
      name = "SPACE_TO_DEPTH";
      break;
    case DML_OPERATOR_DEPTH_TO_SPACE1:
      op_case->depth_to_space1 = {in, out, block_, order_};
      op_case->op_desc = {type_, &op_case->depth_to_space1};
      name = "DEPTH_TO_SPACE1";
      break;
    default:
      op_case->space_to_depth1 = {in, out, block_, order_};
      op_case->op_desc = {DML_OPERATOR_SPACE_TO_DEPTH1, &op_case->space_to_depth1};
      name = "SPACE_TO_DEPTH1";
      break;
  }
  op_case->description = std::string(name) + " BlockSize=" + std::to_string(block_) +
                         " Order=" + (order_ == DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW ? "DCR"
                                                                                       : "CRD");
  FinishCase(op_case.get());
  return op_case;
}

std::unique_ptr<OperatorCase> SliceGradTester::BuildCase() const {
  const size_t n = output_sizes_.size();
  std::vector<uint32_t> offsets = offsets_.empty() ? std::vector<uint32_t>(n, 0) : offsets_;
  std::vector<uint32_t> sizes = sizes_.empty() ? output_sizes_ : sizes_;
  std::vector<int32_t> strides = strides_.empty() ? std::vector<int32_t>(n, 1) : strides_;
  if (sizes.size() != n || offsets.size() != n || strides.size() != n) {
    ADD_FAILURE() << "SliceGradTester: attribute arrays must have " << n << " entries";
    return nullptr;
  }
  std::vector<uint32_t> input_sizes = input_sizes_;
  if (input_sizes.empty()) {
    for (size_t d = 0; d < n; ++d) {
      const uint32_t step =
          static_cast<uint32_t>(strides[d] < 0 ? -int64_t{strides[d]} : strides[d]);
      input_sizes.push_back(step == 0 || sizes[d] == 0 ? 1 : 1 + (sizes[d] - 1) / step);
    }
  }
  auto op_case = std::make_unique<OperatorCase>();
  op_case->inputs.push_back(std::make_unique<TensorDescHolder>(
      data_type_, input_sizes, input_strides_, input_extra_bytes_, alignment_));
  op_case->outputs.push_back(std::make_unique<TensorDescHolder>(
      data_type_, output_sizes_, output_strides_, output_extra_bytes_, alignment_));
  op_case->window_offsets = offsets;
  op_case->window_sizes = sizes;
  op_case->window_strides_signed = strides;
  DML_SLICE_GRAD_OPERATOR_DESC& desc = op_case->slice_grad;
  desc.InputGradientTensor = op_case->inputs[0]->desc();
  desc.OutputGradientTensor = op_case->outputs[0]->desc();
  desc.DimensionCount = static_cast<UINT>(n);
  desc.InputWindowOffsets = op_case->window_offsets.data();
  desc.InputWindowSizes = op_case->window_sizes.data();
  desc.InputWindowStrides = op_case->window_strides_signed.data();
  op_case->op_desc = {DML_OPERATOR_SLICE_GRAD, &desc};
  op_case->description = "SLICE_GRAD Offsets=" + SizesToString(offsets) +
                         " Sizes=" + SizesToString(sizes) + " Strides=" + IntsToString(strides);
  FinishCase(op_case.get());
  return op_case;
}

}  // namespace dmlcpu_test
