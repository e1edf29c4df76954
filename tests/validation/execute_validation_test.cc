// SPDX-License-Identifier: Apache-2.0
// Validation at Execute (O(1), before any write): binding counts, null and short bindings,
// overlapping outputs and misaligned pointers (docs/semantics.md#execute-checks).
#include <cstdint>
#include <string>
#include <vector>

#include "validation/validation_cases.h"

namespace dmlcpu {
namespace validation_test {
namespace {

// ================================================================================================
// Execute checks (O(1), before any write).

class ExecuteRulesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    c_ = GatherCase();
    auto op = CompileCase(c_);
    ASSERT_OK(op.status());
    op_ = *op;
  }
  OpCase c_;
  CompiledOperator op_;
};

TEST_F(ExecuteRulesTest, WrongInputCountIsRejected) {
  CaseBuffers buffers(c_);
  std::vector<Binding> inputs = buffers.InputBindings();
  const OutputBinding output = buffers.OutputBindingFor();
  EXPECT_EQ(op_.input_count(), 2u);
  EXPECT_ERROR(op_.Execute(inputs.data(), 1, &output, 1), StatusCode::kInvalidArgument,
               "GATHER: ", "input_count is 1", "expected 2");
  inputs.push_back(inputs[0]);
  EXPECT_ERROR(op_.Execute(inputs.data(), 3, &output, 1), StatusCode::kInvalidArgument,
               "GATHER: ", "input_count is 3", "expected 2");
  EXPECT_ERROR(op_.Execute(inputs.data(), 0, &output, 1), StatusCode::kInvalidArgument,
               "GATHER: ", "input_count is 0", "expected 2");
  EXPECT_TRUE(buffers.output.AllEqual(kSentinel));
}

TEST_F(ExecuteRulesTest, WrongOutputCountIsRejected) {
  CaseBuffers buffers(c_);
  const std::vector<Binding> inputs = buffers.InputBindings();
  const OutputBinding outputs[2] = {buffers.OutputBindingFor(), buffers.OutputBindingFor()};
  EXPECT_EQ(op_.output_count(), 1u);
  EXPECT_ERROR(op_.Execute(inputs.data(), 2, outputs, 0), StatusCode::kInvalidArgument,
               "GATHER: ", "output_count is 0", "expected 1");
  EXPECT_ERROR(op_.Execute(inputs.data(), 2, outputs, 2), StatusCode::kInvalidArgument,
               "GATHER: ", "output_count is 2", "expected 1");
  EXPECT_TRUE(buffers.output.AllEqual(kSentinel));
}

TEST_F(ExecuteRulesTest, NullInputDataIsRejected) {
  for (size_t i = 0; i < 2; ++i) {
    CaseBuffers buffers(c_);
    std::vector<Binding> inputs = buffers.InputBindings();
    inputs[i].data = nullptr;
    const OutputBinding output = buffers.OutputBindingFor();
    SCOPED_TRACE(i);
    EXPECT_ERROR(op_.Execute(inputs.data(), 2, &output, 1), StatusCode::kInvalidArgument,
                 "GATHER: ", "inputs[" + std::to_string(i) + "]", "null");
    EXPECT_TRUE(buffers.output.AllEqual(kSentinel));
  }
  CaseBuffers buffers(c_);
  const OutputBinding output = buffers.OutputBindingFor();
  EXPECT_ERROR(op_.Execute(nullptr, 2, &output, 1), StatusCode::kInvalidArgument, "GATHER: ",
               "null");
  EXPECT_TRUE(buffers.output.AllEqual(kSentinel));
}

TEST_F(ExecuteRulesTest, NullOutputDataIsRejected) {
  CaseBuffers buffers(c_);
  const std::vector<Binding> inputs = buffers.InputBindings();
  const OutputBinding output = {nullptr, buffers.output.size_bytes()};
  EXPECT_ERROR(op_.Execute(inputs.data(), 2, &output, 1), StatusCode::kInvalidArgument,
               "GATHER: ", "outputs[0]", "null");
  EXPECT_ERROR(op_.Execute(inputs.data(), 2, nullptr, 1), StatusCode::kInvalidArgument,
               "GATHER: ", "null");
}

TEST_F(ExecuteRulesTest, InputSizeBelowTotalTensorSizeIsRejected) {
  // InputTensor needs 24 bytes, IndicesTensor 8.
  const uint64_t required[2] = {24, 8};
  for (size_t i = 0; i < 2; ++i) {
    CaseBuffers buffers(c_);
    std::vector<Binding> inputs = buffers.InputBindings();
    ASSERT_EQ(inputs[i].size_bytes, required[i]);
    inputs[i].size_bytes = required[i] - 4;
    const OutputBinding output = buffers.OutputBindingFor();
    SCOPED_TRACE(i);
    EXPECT_ERROR(op_.Execute(inputs.data(), 2, &output, 1), StatusCode::kInvalidArgument,
                 "GATHER: ",
                 "inputs[" + std::to_string(i) + "].size_bytes is " +
                     std::to_string(required[i] - 4),
                 "expected >= " + std::to_string(required[i]));
    EXPECT_TRUE(buffers.output.AllEqual(kSentinel));
  }
}

TEST_F(ExecuteRulesTest, OutputSizeBelowTotalTensorSizeIsRejected) {
  CaseBuffers buffers(c_);
  const std::vector<Binding> inputs = buffers.InputBindings();
  const OutputBinding output = {buffers.output.data(), 20};  // needs 24
  EXPECT_ERROR(op_.Execute(inputs.data(), 2, &output, 1), StatusCode::kInvalidArgument,
               "GATHER: ", "outputs[0].size_bytes is 20", "expected >= 24");
  EXPECT_TRUE(buffers.output.AllEqual(kSentinel));
}

TEST_F(ExecuteRulesTest, LargerBindingsThanRequiredAreAccepted) {
  CaseBuffers buffers(c_);
  AlignedBuffer big_output(1024, kSentinel);
  std::vector<Binding> inputs = buffers.InputBindings();
  const OutputBinding output = {big_output.data(), big_output.size_bytes()};
  ASSERT_OK(op_.Execute(inputs.data(), 2, &output, 1));
  EXPECT_EQ(ReadOutput(c_.output, big_output), c_.output.values);
}

// One shared arena: input at [0, 24), indices at [64, 72), output wherever the test puts it.
class OverlapTest : public ExecuteRulesTest {
 protected:
  Status ExecuteWithOutputAt(uint64_t offset_bytes, uint64_t size_bytes = 24) {
    std::memset(arena_.data(), 0, arena_.size_bytes());
    StoreElement(kF32, 1, arena_.data());
    StoreElement(kU32, 1, arena_.data() + 64);
    std::memset(arena_.data() + offset_bytes, kSentinel, size_bytes);
    snapshot_.assign(arena_.data(), arena_.data() + arena_.size_bytes());
    const Binding inputs[2] = {{arena_.data(), 24}, {arena_.data() + 64, 8}};
    const OutputBinding output = {arena_.data() + offset_bytes, size_bytes};
    return op_.Execute(inputs, 2, &output, 1);
  }
  bool ArenaUnchanged() const {
    return std::memcmp(snapshot_.data(), arena_.data(), arena_.size_bytes()) == 0;
  }
  AlignedBuffer arena_{256};
  std::vector<uint8_t> snapshot_;
};

TEST_F(OverlapTest, OutputIdenticalToInputRangeIsRejected) {
  EXPECT_ERROR(ExecuteWithOutputAt(0), StatusCode::kInvalidArgument, "GATHER: ", "outputs[0]",
               "inputs[0]");
  EXPECT_TRUE(ArenaUnchanged());
  EXPECT_ERROR(ExecuteWithOutputAt(64, 24), StatusCode::kInvalidArgument, "GATHER: ",
               "outputs[0]", "inputs[1]");
  EXPECT_TRUE(ArenaUnchanged());
}

TEST_F(OverlapTest, OutputPartiallyOverlappingInputIsRejected) {
  // Output [20, 44) overlaps the input's tail; [48, 72) overlaps the indices' head.
  EXPECT_ERROR(ExecuteWithOutputAt(20), StatusCode::kInvalidArgument, "GATHER: ", "outputs[0]",
               "inputs[0]");
  EXPECT_TRUE(ArenaUnchanged());
  EXPECT_ERROR(ExecuteWithOutputAt(48), StatusCode::kInvalidArgument, "GATHER: ", "outputs[0]",
               "inputs[1]");
  EXPECT_TRUE(ArenaUnchanged());
  // Output larger than needed, swallowing the whole indices range: [60, 128).
  EXPECT_ERROR(ExecuteWithOutputAt(60, 68), StatusCode::kInvalidArgument, "GATHER: ",
               "outputs[0]", "inputs[1]");
  EXPECT_TRUE(ArenaUnchanged());
}

TEST_F(OverlapTest, AdjacentRangesAreAccepted) {
  EXPECT_OK(ExecuteWithOutputAt(24));  // right after the input, right before the indices' gap
  EXPECT_OK(ExecuteWithOutputAt(72));  // right after the indices
  EXPECT_OK(ExecuteWithOutputAt(40));  // [40, 64) ends where the indices begin
}

class AlignmentTest : public ::testing::Test {
 protected:
  // GATHER whose InputTensor promises 16-byte and OutputTensor 32-byte base alignment.
  void SetUp() override {
    c_ = GatherCase();
    c_.input.alignment_bytes = 16;
    c_.output.alignment_bytes = 32;
    auto op = CompileCase(c_);
    ASSERT_OK(op.status());
    op_ = *op;
  }
  OpCase c_;
  CompiledOperator op_;
};

TEST_F(AlignmentTest, MisalignedInputPointerIsRejected) {
  for (size_t misalignment : {4u, 8u, 12u}) {
    AlignedBuffer input(24, 0, misalignment);
    AlignedBuffer indices(8);
    AlignedBuffer output(24, kSentinel);
    const Binding inputs[2] = {{input.data(), 24}, {indices.data(), 8}};
    const OutputBinding out = {output.data(), 24};
    SCOPED_TRACE(misalignment);
    EXPECT_ERROR(op_.Execute(inputs, 2, &out, 1), StatusCode::kInvalidArgument, "GATHER: ",
                 "inputs[0]", "16");
    EXPECT_TRUE(output.AllEqual(kSentinel));
  }
}

TEST_F(AlignmentTest, MisalignedOutputPointerIsRejected) {
  AlignedBuffer input(24);
  AlignedBuffer indices(8);
  AlignedBuffer output(24, kSentinel, 16);  // 16- but not 32-byte aligned
  const Binding inputs[2] = {{input.data(), 24}, {indices.data(), 8}};
  const OutputBinding out = {output.data(), 24};
  EXPECT_ERROR(op_.Execute(inputs, 2, &out, 1), StatusCode::kInvalidArgument, "GATHER: ",
               "outputs[0]", "32");
  EXPECT_TRUE(output.AllEqual(kSentinel));
}

TEST_F(AlignmentTest, AlignedPointersAreAccepted) {
  CaseBuffers buffers(c_);  // 256-byte aligned
  ASSERT_OK(ExecuteCase(op_, buffers));
  EXPECT_EQ(ReadOutput(c_.output, buffers.output), c_.output.values);
  // The indices tensor promises nothing: any element-aligned pointer is fine.
  AlignedBuffer indices(8, 0, 4);
  StoreElement(kU32, 1, indices.data());
  const Binding inputs[2] = {{buffers.inputs[0].data(), 24}, {indices.data(), 8}};
  const OutputBinding out = buffers.OutputBindingFor();
  EXPECT_OK(op_.Execute(inputs, 2, &out, 1));
}

TEST(ExecuteSliceTest, SingleInputOperatorRejectsTwoInputs) {
  OpCase c = Slice1Case();
  auto op = CompileCase(c);
  ASSERT_OK(op.status());
  EXPECT_EQ(op->input_count(), 1u);
  CaseBuffers buffers(c);
  const Binding inputs[2] = {{buffers.inputs[0].data(), buffers.inputs[0].size_bytes()},
                             {buffers.inputs[0].data(), buffers.inputs[0].size_bytes()}};
  const OutputBinding output = buffers.OutputBindingFor();
  EXPECT_ERROR(op->Execute(inputs, 2, &output, 1), StatusCode::kInvalidArgument, "SLICE1: ",
               "input_count is 2", "expected 1");
  EXPECT_TRUE(buffers.output.AllEqual(kSentinel));
}

TEST(ExecuteSliceTest, DefaultConstructedOperatorFailsCleanly) {
  CompiledOperator op;
  EXPECT_FALSE(op.valid());
  AlignedBuffer buffer(64);
  const Binding input = {buffer.data(), 64};
  const OutputBinding output = {buffer.data(), 64};
  const Status status = op.Execute(&input, 1, &output, 1);
  EXPECT_FALSE(status.ok());
}

}  // namespace
}  // namespace validation_test
}  // namespace dmlcpu
