// SPDX-License-Identifier: Apache-2.0
// Fluent testers of PADDING / PADDING1, the depth/space operators and SLICE_GRAD (the shared
// machinery, buffers and checks: support/tester.h).
#ifndef DMLCPU_TESTS_SUPPORT_TESTER_PADDING_H_
#define DMLCPU_TESTS_SUPPORT_TESTER_PADDING_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "support/tester.h"

namespace dmlcpu_test {

// PADDING (a FLOAT value) or, with TypedValue(), PADDING1. Output sizes: input + start + end.
class PaddingTester : public TesterBase<PaddingTester> {
 public:
  PaddingTester& Mode(DML_PADDING_MODE mode) {
    mode_ = mode;
    return *this;
  }
  PaddingTester& StartPadding(std::vector<uint32_t> start) {
    start_ = std::move(start);
    return *this;
  }
  PaddingTester& EndPadding(std::vector<uint32_t> end) {
    end_ = std::move(end);
    return *this;
  }
  // PADDING's FLOAT value.
  PaddingTester& Value(float value) {
    value_ = value;
    typed_ = false;
    return *this;
  }
  // PADDING1 with PaddingValueDataType = the tensor's type and these union bytes.
  PaddingTester& TypedValue(uint64_t bits) {
    bits_ = bits;
    typed_ = true;
    return *this;
  }
  std::unique_ptr<OperatorCase> BuildCase() const;

 private:
  DML_PADDING_MODE mode_ = DML_PADDING_MODE_CONSTANT;
  std::vector<uint32_t> start_, end_;
  float value_ = 0.0f;
  uint64_t bits_ = 0;
  bool typed_ = false;
};

// DEPTH_TO_SPACE(1) / SPACE_TO_DEPTH(1), picked by Operator(); output sizes from the rule.
class DepthSpaceTester : public TesterBase<DepthSpaceTester> {
 public:
  DepthSpaceTester& Operator(DML_OPERATOR_TYPE type) {
    type_ = type;
    return *this;
  }
  DepthSpaceTester& BlockSize(uint32_t block) {
    block_ = block;
    return *this;
  }
  DepthSpaceTester& Order(DML_DEPTH_SPACE_ORDER order) {
    order_ = order;
    return *this;
  }
  std::unique_ptr<OperatorCase> BuildCase() const;

 private:
  DML_OPERATOR_TYPE type_ = DML_OPERATOR_DEPTH_TO_SPACE1;
  uint32_t block_ = 2;
  DML_DEPTH_SPACE_ORDER order_ = DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW;
};

// SLICE_GRAD: InputSizes() is the input gradient (default: the most the window reaches),
// OutputSizes() the output gradient (required).
class SliceGradTester : public TesterBase<SliceGradTester> {
 public:
  SliceGradTester& WindowOffsets(std::vector<uint32_t> offsets) {
    offsets_ = std::move(offsets);
    return *this;
  }
  SliceGradTester& WindowSizes(std::vector<uint32_t> sizes) {
    sizes_ = std::move(sizes);
    return *this;
  }
  SliceGradTester& WindowStrides(std::vector<int32_t> strides) {
    strides_ = std::move(strides);
    return *this;
  }
  std::unique_ptr<OperatorCase> BuildCase() const;

 private:
  std::vector<uint32_t> offsets_, sizes_;
  std::vector<int32_t> strides_;
};

}  // namespace dmlcpu_test

#endif  // DMLCPU_TESTS_SUPPORT_TESTER_PADDING_H_
