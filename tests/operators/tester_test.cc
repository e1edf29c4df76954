// SPDX-License-Identifier: Apache-2.0
// The multi-output test support itself: each output gets its own sentinel and DiffOutputs finds
// a change in any output's elements, stride gaps, tail or guards, naming the output.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "reference/reference.h"
#include "support/tester.h"

namespace dmlcpu_test {
namespace {

// Two outputs of the same layout (FLOAT32 {2, 3} with strides {4, 1}: a 1-element gap per row).
std::unique_ptr<OperatorCase> TwoOutputCase() {
  auto op_case = std::make_unique<OperatorCase>();
  for (int i = 0; i < 2; ++i) {
    op_case->outputs.push_back(std::make_unique<TensorDescHolder>(
        DML_TENSOR_DATA_TYPE_FLOAT32, std::vector<uint32_t>{2, 3}, std::vector<uint32_t>{4, 1}));
    op_case->output_binding_bytes.push_back(op_case->outputs.back()->total_bytes() + 8);
    op_case->output_misalign_bytes.push_back(16);
  }
  return op_case;
}

TEST(TesterTest, OutputsOfEqualLayoutGetDifferentSentinels) {
  const std::unique_ptr<OperatorCase> op_case = TwoOutputCase();
  const std::vector<GuardedBuffer> buffers = MakeOutputBuffers(*op_case);
  ASSERT_EQ(buffers.size(), 2u);
  EXPECT_EQ(buffers[0].size_bytes(), buffers[1].size_bytes());
  EXPECT_NE(buffers[0].RegionCopy(), buffers[1].RegionCopy());
  // Re-filling restores each output's own sentinel.
  std::vector<GuardedBuffer> again = MakeOutputBuffers(*op_case);
  again[1].data()[0] ^= 1;
  FillSentinels(&again);
  EXPECT_TRUE(DiffOutputs(*op_case, buffers, again).empty());
}

TEST(TesterTest, DiffOutputsFindsAChangeInAnyOutput) {
  const std::unique_ptr<OperatorCase> op_case = TwoOutputCase();
  const std::vector<GuardedBuffer> expected = MakeOutputBuffers(*op_case);
  const TensorDescHolder& out = *op_case->outputs[1];
  // An element, a stride gap (element 3 of row 0), the binding tail and both guards of output 1.
  const int64_t offsets[] = {static_cast<int64_t>(out.ByteOffset({1, 2})), 12,
                             static_cast<int64_t>(out.total_bytes()) + 4, -1,
                             static_cast<int64_t>(op_case->output_binding_bytes[1]) + 3};
  for (int64_t offset : offsets) {
    SCOPED_TRACE(offset);
    std::vector<GuardedBuffer> actual = MakeOutputBuffers(*op_case);
    actual[1].data()[offset] ^= 0x40;
    const std::string diff = DiffOutputs(*op_case, expected, actual);
    EXPECT_NE(diff.find("output 1: "), std::string::npos) << diff;
    EXPECT_EQ(diff.find("output 0: "), std::string::npos) << diff;
  }
  // Output 0 written with output 1's sentinel: caught although the layouts are equal.
  std::vector<GuardedBuffer> swapped = MakeOutputBuffers(*op_case);
  swapped[0].set_sentinel_salt(1);
  swapped[0].FillSentinel();
  EXPECT_NE(DiffOutputs(*op_case, expected, swapped).find("output 0: "), std::string::npos);
}

TEST(TesterTest, ReferenceEnumeratesBindings) {
  auto op_case = GatherTester().InputSizes({3, 4}).IndicesSizes({1, 2}).Axis(1).BuildCase();
  ASSERT_NE(op_case, nullptr);
  const std::vector<const DML_TENSOR_DESC*> inputs = InputTensorsOf(op_case->op_desc);
  const std::vector<const DML_TENSOR_DESC*> outputs = OutputTensorsOf(op_case->op_desc);
  ASSERT_EQ(inputs.size(), 2u);
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(inputs[0], op_case->inputs[0]->desc());
  EXPECT_EQ(inputs[1], op_case->inputs[1]->desc());
  EXPECT_EQ(outputs[0], op_case->outputs[0]->desc());
  EXPECT_TRUE(InputTensorsOf(DML_OPERATOR_DESC{DML_OPERATOR_INVALID, nullptr}).empty());
}

}  // namespace
}  // namespace dmlcpu_test
