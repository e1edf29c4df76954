// SPDX-License-Identifier: Apache-2.0
// Validation of each gather and slice operator's own fields: one test per rule of
// docs/semantics.md#gather, #gather_elements, #gather_nd, #gather_nd1, #slice and #slice1.
#include <cstdint>
#include <string>
#include <vector>

#include "validation/validation_cases.h"

namespace dmlcpu {
namespace validation_test {
namespace {

// ================================================================================================
// GATHER (docs/semantics.md#gather).

TEST(GatherRulesTest, AxisNotBelowRankIsRejected) {
  for (uint32_t axis : {2u, 7u, kHuge}) {
    OpCase c = GatherCase();
    c.axis = axis;
    SCOPED_TRACE(axis);
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER: ",
                 "Axis is " + std::to_string(axis), "< 2");
  }
}

TEST(GatherRulesTest, IndexDimensionsAboveRankIsRejected) {
  for (uint32_t k : {3u, kHuge}) {
    OpCase c = GatherCase();
    c.index_dimensions = k;
    SCOPED_TRACE(k);
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER: ",
                 "IndexDimensions is " + std::to_string(k), "expected <= 2");
  }
}

TEST(GatherRulesTest, WrongOutputSizeIsRejected) {
  OpCase c = GatherCase();
  c.output.sizes = {3, 3};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER: ",
               "OutputTensor.Sizes[1] is 3", "expected 2");
}

TEST(GatherRulesTest, FirstMismatchingOutputSizeIsNamed) {
  OpCase c = GatherCase();
  c.output.sizes = {2, 3};  // both differ; [0] is reported
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER: ",
               "OutputTensor.Sizes[0] is 2", "expected 3");
}

TEST(GatherRulesTest, ScalarIndexOutputKeepingAxisIsRejected) {
  // G7 (k 0) drops the axis: Out {1,1,2}. Keeping it ({1,3,2}) is wrong.
  OpCase c;
  c.type = DML_OPERATOR_GATHER;
  c.input = Tensor(kF32, {1, 3, 2}, {1, 2, 3, 4, 5, 6});
  c.indices = Tensor(kI32, {1, 1, 1}, {2});
  c.output = Tensor(kF32, {1, 3, 2});
  c.axis = 1;
  c.index_dimensions = 0;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER: ",
               "OutputTensor.Sizes[1] is 3", "expected 1");
}

TEST(GatherRulesTest, DroppedInputDimensionNotOneIsRejected) {
  // Input {2,4}, Axis 1, k 2, Indices {3,2}: In[0] would be dropped from Out and must be 1.
  OpCase c;
  c.type = DML_OPERATOR_GATHER;
  c.input = Tensor(kF32, {2, 4});
  c.indices = Tensor(kU32, {3, 2});
  c.output = Tensor(kF32, {3, 2});
  c.axis = 1;
  c.index_dimensions = 2;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER: ",
               "InputTensor.Sizes[0] is 2", "expected 1");
  c.input.sizes = {1, 4};
  EXPECT_OK(CompileStatus(c));
}

TEST(GatherRulesTest, IndexPaddingDimensionNotOneIsRejected) {
  // docs/semantics.md#observed-directml-behaviour: DirectML rejects Indices {2,3} with
  // IndexDimensions 1.
  OpCase c = GatherCase();
  c.indices = Tensor(kU32, {2, 3});
  c.output.sizes = {3, 3};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER: ",
               "IndicesTensor.Sizes[0] is 2", "expected 1");
}

TEST(GatherRulesTest, ScalarIndexIsAccepted) {  // G7.
  OpCase c;
  c.type = DML_OPERATOR_GATHER;
  c.input = Tensor(kF32, {1, 3, 2}, {1, 2, 3, 4, 5, 6});
  c.indices = Tensor(kI32, {1, 1, 1}, {2});
  c.output = Tensor(kF32, {1, 1, 2}, {5, 6});
  c.axis = 1;
  c.index_dimensions = 0;
  ExpectRunsAndMatches(c);
}

TEST(GatherRulesTest, IndexDimensionsEqualToRankIsAccepted) {  // G1 (k = N = 1) and G5 (k 2).
  OpCase c;
  c.type = DML_OPERATOR_GATHER;
  c.input = Tensor(kF32, {4}, {11, 12, 13, 14});
  c.indices = Tensor(kU32, {5}, {3, 1, 3, 0, 2});
  c.output = Tensor(kF32, {5}, {14, 12, 14, 11, 13});
  c.axis = 0;
  c.index_dimensions = 1;
  ExpectRunsAndMatches(c);

  OpCase g5;
  g5.type = DML_OPERATOR_GATHER;
  g5.input = Tensor(kF32, {1, 3, 2}, {1, 2, 3, 4, 5, 6});
  g5.indices = Tensor(kU32, {1, 2, 2}, {0, 1, 1, 2});
  g5.output = Tensor(kF32, {2, 2, 2}, {1, 2, 3, 4, 3, 4, 5, 6});
  g5.axis = 1;
  g5.index_dimensions = 2;
  ExpectRunsAndMatches(g5);
  // k = N = 3: full = {1} ++ {1,2,2} ++ {2}; the two dropped leading entries are 1, so the
  // output is still {2,2,2} with the same values.
  g5.index_dimensions = 3;
  ExpectRunsAndMatches(g5);
}

// ================================================================================================
// GATHER_ELEMENTS (docs/semantics.md#gather_elements).

TEST(GatherElementsRulesTest, AxisNotBelowRankIsRejected) {
  for (uint32_t axis : {2u, kHuge}) {
    OpCase c = GatherElementsCase();
    c.axis = axis;
    SCOPED_TRACE(axis);
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER_ELEMENTS: ",
                 "Axis is " + std::to_string(axis), "< 2");
  }
}

TEST(GatherElementsRulesTest, IndicesSizeOffAxisDifferentFromInputIsRejected) {
  OpCase c = GatherElementsCase();
  c.indices.sizes = {2, 2};
  c.indices.values.resize(4);
  c.output.sizes = {2, 2};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER_ELEMENTS: ",
               "IndicesTensor.Sizes[1] is 2", "expected 3");
}

TEST(GatherElementsRulesTest, OutputSizesDifferentFromIndicesIsRejected) {
  OpCase c = GatherElementsCase();
  c.output.sizes = {3, 3};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER_ELEMENTS: ",
               "OutputTensor.Sizes[0] is 3", "expected 2");
}

TEST(GatherElementsRulesTest, IndicesLargerThanInputOnAxisIsAccepted) {
  OpCase c = GatherElementsCase();
  c.indices = Tensor(kU32, {4, 3}, {0, 1, 2, 2, 1, 0, 1, 1, 1, 0, 0, 0});
  c.output = Tensor(kF32, {4, 3}, {1, 5, 9, 7, 5, 3, 4, 5, 6, 1, 2, 3});
  ExpectRunsAndMatches(c);
}

// ================================================================================================
// GATHER_ND / GATHER_ND1 (docs/semantics.md#gather_nd1). Rules shared by both run on ND-1 (b = 0).

class GatherNdRulesTest : public ::testing::TestWithParam<DML_OPERATOR_TYPE> {
 protected:
  OpCase Base() const { return GatherNdCase(GetParam()); }
  std::string op() const { return Op(GetParam()); }
};

TEST_P(GatherNdRulesTest, InputDimensionCountZeroIsRejected) {
  OpCase c = Base();
  c.input_dimension_count = 0;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), "InputDimensionCount is 0");
}

TEST_P(GatherNdRulesTest, InputDimensionCountAboveRankIsRejected) {
  OpCase c = Base();
  c.input_dimension_count = 3;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), "InputDimensionCount is 3",
               "2");
}

TEST_P(GatherNdRulesTest, IndicesDimensionCountZeroIsRejected) {
  OpCase c = Base();
  c.indices_dimension_count = 0;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
               "IndicesDimensionCount is 0");
}

TEST_P(GatherNdRulesTest, IndicesDimensionCountAboveRankIsRejected) {
  OpCase c = Base();
  c.indices_dimension_count = 3;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
               "IndicesDimensionCount is 3", "2");
}

TEST_P(GatherNdRulesTest, TupleSizeZeroIsRejected) {
  OpCase c = Base();
  c.indices.sizes = {2, 0};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
               "IndicesTensor.Sizes[1] is 0");
}

TEST_P(GatherNdRulesTest, TupleSizeAboveInputDimensionCountIsRejected) {
  // t = Idx[N-1] = 3 > r = 2.
  OpCase c = Base();
  c.indices.sizes = {2, 3};
  c.output.sizes = {1, 2};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), "IndicesTensor.Sizes[1]",
               "is 3", "2");
}

TEST_P(GatherNdRulesTest, MeaningfulOutputRankAboveRankIsRejected) {
  // N 3, r 3, q 3, t 1: m = (q-1) + (r-t) = 4 > 3.
  OpCase c;
  c.type = GetParam();
  c.input = Tensor(kF32, {2, 3, 4});
  c.indices = Tensor(kU32, {2, 2, 1});
  c.output = Tensor(kF32, {2, 3, 4});
  c.input_dimension_count = 3;
  c.indices_dimension_count = 3;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
               "IndicesDimensionCount|InputDimensionCount|IndicesTensor.Sizes|OutputTensor");
  c.indices.sizes = {1, 2, 1};  // q 2: m = 1 + 2 = 3, Out {2,3,4}
  c.indices_dimension_count = 2;
  EXPECT_OK(CompileStatus(c));
}

TEST_P(GatherNdRulesTest, WrongOutputSizeIsRejected) {
  OpCase c = Base();
  c.output.sizes = {2, 3};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
               "OutputTensor.Sizes[1] is 3", "expected 2");
}

TEST_P(GatherNdRulesTest, InputPaddingDimensionNotOneIsRejected) {
  // Input {2,2,2} with r 2: In[0] is padding and must be 1.
  OpCase c;
  c.type = GetParam();
  c.input = Tensor(kF32, {2, 2, 2});
  c.indices = Tensor(kU32, {1, 2, 1});
  c.output = Tensor(kF32, {1, 2, 2});
  c.input_dimension_count = 2;
  c.indices_dimension_count = 2;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
               "InputTensor.Sizes[0] is 2", "expected 1");
  c.input.sizes = {1, 2, 2};
  EXPECT_OK(CompileStatus(c));
}

TEST_P(GatherNdRulesTest, IndicesPaddingDimensionNotOneIsRejected) {
  // Indices {2,2,1} with q 2: Idx[0] is padding and must be 1.
  OpCase c;
  c.type = GetParam();
  c.input = Tensor(kF32, {1, 2, 2});
  c.indices = Tensor(kU32, {2, 2, 1});
  c.output = Tensor(kF32, {1, 2, 2});
  c.input_dimension_count = 2;
  c.indices_dimension_count = 2;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
               "IndicesTensor.Sizes[0] is 2", "expected 1");
  c.indices.sizes = {1, 2, 1};
  EXPECT_OK(CompileStatus(c));
}

TEST_P(GatherNdRulesTest, SpecExampleTwoCompilesAndRuns) {  // ND-2 (r 3, q 2, t 2).
  OpCase c;
  c.type = GetParam();
  c.input = Tensor(kF32, {1, 2, 2, 2}, Iota(0, 8));
  c.indices = Tensor(kU32, {1, 1, 2, 2}, {0, 1, 1, 0});
  c.output = Tensor(kF32, {1, 1, 2, 2}, {2, 3, 4, 5});
  c.input_dimension_count = 3;
  c.indices_dimension_count = 2;
  ExpectRunsAndMatches(c);
}

INSTANTIATE_TEST_SUITE_P(GatherNdOperators, GatherNdRulesTest,
                         ::testing::Values(DML_OPERATOR_GATHER_ND, DML_OPERATOR_GATHER_ND1),
                         OperatorTestName);

TEST(GatherNd1RulesTest, BatchDimensionCountNotBelowInputDimensionCountIsRejected) {
  // r 2, q 3, b 2: b < q holds, b < r does not.
  OpCase c;
  c.type = DML_OPERATOR_GATHER_ND1;
  c.input = Tensor(kF32, {1, 2, 3});
  c.indices = Tensor(kU32, {2, 3, 1});
  c.output = Tensor(kF32, {1, 2, 3});
  c.input_dimension_count = 2;
  c.indices_dimension_count = 3;
  c.batch_dimension_count = 2;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER_ND1: ",
               "BatchDimensionCount is 2", "2");
}

TEST(GatherNd1RulesTest, BatchDimensionCountNotBelowIndicesDimensionCountIsRejected) {
  // r 3, q 2, b 2: b < r holds, b < q does not.
  OpCase c;
  c.type = DML_OPERATOR_GATHER_ND1;
  c.input = Tensor(kF32, {2, 3, 4});
  c.indices = Tensor(kU32, {1, 2, 1});
  c.output = Tensor(kF32, {1, 2, 4});
  c.input_dimension_count = 3;
  c.indices_dimension_count = 2;
  c.batch_dimension_count = 2;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER_ND1: ",
               "BatchDimensionCount is 2", "2");
}

TEST(GatherNd1RulesTest, BatchDimensionCountAboveRankIsRejected) {
  OpCase c = GatherNd1BatchCase();
  c.batch_dimension_count = kHuge;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER_ND1: ",
               "BatchDimensionCount is 4294967295");
}

TEST(GatherNd1RulesTest, TupleSizeAboveNonBatchInputDimensionsIsRejected) {
  // ND1-2 with t 3 > r - b = 2.
  OpCase c = GatherNd1BatchCase();
  c.indices = Tensor(kU32, {1, 3, 2, 3});
  c.output.sizes = {1, 1, 3, 2};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER_ND1: ",
               "IndicesTensor.Sizes[3]", "is 3", "2");
}

TEST(GatherNd1RulesTest, BatchSizeMismatchIsRejected) {
  // ND1-2 with 2 index batches against 3 input batches.
  OpCase c = GatherNd1BatchCase();
  c.indices = Tensor(kU32, {1, 2, 2, 2});
  c.output.sizes = {1, 1, 2, 2};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER_ND1: ",
               "IndicesTensor.Sizes[1] is 2|InputTensor.Sizes[1] is 3", "expected 3|expected 2");
}

TEST(GatherNd1RulesTest, WrongOutputSizeWithBatchIsRejected) {
  OpCase c = GatherNd1BatchCase();
  c.output.sizes = {1, 1, 3, 3};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER_ND1: ",
               "OutputTensor.Sizes[3] is 3", "expected 2");
}

// ================================================================================================
// SLICE (docs/semantics.md#slice).

TEST(SliceRulesTest, NullOffsetsIsRejected) {
  OpCase c = SliceCase();
  c.null_offsets = true;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE: Offsets is null");
}

TEST(SliceRulesTest, NullSizesIsRejected) {
  OpCase c = SliceCase();
  c.null_window_sizes = true;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE: Sizes is null");
}

TEST(SliceRulesTest, NullStridesIsRejected) {
  OpCase c = SliceCase();
  c.null_strides = true;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE: Strides is null");
}

TEST(SliceRulesTest, DimensionCountDifferentFromRankIsRejected) {
  for (uint32_t count : {3u, 5u, 0u}) {
    OpCase c = SliceCase();
    c.offsets.resize(5, 0);
    c.window_sizes.resize(5, 1);
    c.slice_strides.resize(5, 1);
    c.dimension_count = count;
    SCOPED_TRACE(count);
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument,
                 "SLICE: DimensionCount is " + std::to_string(count), "4");
  }
}

TEST(SliceRulesTest, SizesDifferentFromOutputSizesIsRejected) {
  OpCase c = SliceCase();
  c.window_sizes = {1, 1, 3, 1};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE: ",
               "Sizes[3] is 1|OutputTensor.Sizes[3] is 2", "expected 2|expected 1");
}

TEST(SliceRulesTest, ZeroStrideIsRejected) {
  // docs/semantics.md#observed-directml-behaviour: real DirectML rejects a SLICE stride of 0.
  OpCase c = SliceCase();
  c.slice_strides = {1, 1, 0, 1};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE: Strides[2] is 0");
}

TEST(SliceRulesTest, WindowBeyondInputIsRejected) {
  // Offsets[i] + Strides[i] * (Sizes[i] - 1) must stay below In[i] = 4.
  // The message names the fields of the bound, its value and the input size.
  struct Probe {
    uint32_t offset, stride;
  };
  for (const Probe& p : {Probe{2, 1}, Probe{0, 2}, Probe{4, 1}, Probe{kHuge, 1}}) {
    OpCase c = SliceCase();
    c.offsets[2] = p.offset;
    c.slice_strides[2] = p.stride;
    const uint64_t last = uint64_t{p.offset} + uint64_t{p.stride} * 2;
    SCOPED_TRACE("offset " + std::to_string(p.offset) + " stride " + std::to_string(p.stride));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE: ", "Offsets[2]",
                 "Strides[2]", "is " + std::to_string(last), "4");
  }
}

TEST(SliceRulesTest, WindowWrappingThirtyTwoBitsIsRejected) {
  // 1 + 0x80000000 * 2 = 2^32 + 1 and 0xFFFFFFFF + 1 * 1 = 2^32 wrap to 1 and 0 in 32 bits.
  OpCase c = SliceCase();
  c.offsets[2] = 1;
  c.slice_strides[2] = 0x80000000u;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE: ", "Offsets[2]",
               "Strides[2]", "is 4294967297");
  c = SliceCase();
  c.offsets[3] = kHuge;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE: ", "Offsets[3]",
               "Strides[3]", "is 4294967296");
}

TEST(SliceRulesTest, WindowEndingAtLastElementIsAccepted) {  // SL-2: 1 + 2*1 = 3, 0 + 3*1 = 3.
  OpCase c = SliceCase();
  c.offsets = {0, 0, 1, 0};
  c.window_sizes = {1, 1, 2, 2};
  c.slice_strides = {1, 1, 2, 3};
  c.output = Tensor(kF32, {1, 1, 2, 2}, {5, 8, 13, 16});
  ExpectRunsAndMatches(c);
}

// ================================================================================================
// SLICE1 (docs/semantics.md#slice1).

TEST(Slice1RulesTest, NullInputWindowOffsetsIsRejected) {
  OpCase c = Slice1Case();
  c.null_offsets = true;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument,
               "SLICE1: InputWindowOffsets is null");
}

TEST(Slice1RulesTest, NullInputWindowSizesIsRejected) {
  OpCase c = Slice1Case();
  c.null_window_sizes = true;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument,
               "SLICE1: InputWindowSizes is null");
}

TEST(Slice1RulesTest, NullInputWindowStridesIsRejected) {
  OpCase c = Slice1Case();
  c.null_strides = true;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument,
               "SLICE1: InputWindowStrides is null");
}

TEST(Slice1RulesTest, DimensionCountDifferentFromRankIsRejected) {
  for (uint32_t count : {3u, 5u, 0u, 9u}) {
    OpCase c = Slice1Case();
    c.offsets.resize(9, 0);
    c.window_sizes.resize(9, 1);
    c.window_strides.resize(9, 1);
    c.dimension_count = count;
    SCOPED_TRACE(count);
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument,
                 "SLICE1: DimensionCount is " + std::to_string(count), "4");
  }
}

TEST(Slice1RulesTest, WindowSizeZeroIsRejected) {
  OpCase c = Slice1Case();
  c.window_sizes[1] = 0;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument,
               "SLICE1: InputWindowSizes[1] is 0");
}

TEST(Slice1RulesTest, WindowBeyondInputIsRejected) {
  // Offsets[3] + Sizes[3] = 2 + 3 = 5 > In[3] = 4.
  OpCase c = Slice1Case();
  c.offsets[3] = 2;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE1: ",
               "InputWindowOffsets[3]", "InputWindowSizes[3]", "is 5", "4");
  c.offsets[3] = 1;  // 1 + 3 = 4: the window ends exactly at the input's end
  EXPECT_OK(CompileStatus(c));
}

TEST(Slice1RulesTest, WindowWrappingThirtyTwoBitsIsRejected) {
  // 0xFFFFFFFF + 2 wraps to 1 <= 4 in 32 bits.
  OpCase c = Slice1Case();
  c.offsets[3] = kHuge;
  c.window_sizes[3] = 2;
  c.output.sizes[3] = 1;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE1: ",
               "InputWindowOffsets[3]", "InputWindowSizes[3]", "is 4294967297");
}

TEST(Slice1RulesTest, ZeroStrideIsRejected) {
  OpCase c = Slice1Case();
  c.window_strides[2] = 0;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument,
               "SLICE1: InputWindowStrides[2] is 0", "non-zero");
}

TEST(Slice1RulesTest, IntMinStrideAllowsOnlyOneOutputElement) {
  // |INT_MIN| = 2^31 > window size - 1, so exactly one element is reachable: Out[2] <= 1.
  OpCase c = Slice1Case();
  c.window_strides[2] = INT32_MIN;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE1: ",
               "OutputTensor.Sizes[2] is 2", "1");
  // With Out[2] = 1 it is valid: a negative stride starts at the window's end (row 3).
  c.output = Tensor(kF32, {1, 1, 1, 2}, {14, 16});
  ExpectRunsAndMatches(c);
}

TEST(Slice1RulesTest, OutputSizeZeroIsRejected) {
  OpCase c = Slice1Case();
  c.output.sizes[3] = 0;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE1: ",
               "OutputTensor.Sizes[3] is 0");
}

TEST(Slice1RulesTest, OutputSizeAboveReachableIsRejected) {
  // Window 4 with stride -2: 1 + 3/2 = 2 elements reachable.
  OpCase c = Slice1Case();
  c.output.sizes[2] = 3;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE1: ",
               "OutputTensor.Sizes[2] is 3", "2");
}

TEST(Slice1RulesTest, OutputSmallerThanReachableIsAccepted) {
  // docs/semantics.md#observed-directml-behaviour: In {2,3}, window {2,3}, strides {1,1}, Out {2,2}
  // -> [0,1, 3,4].
  OpCase c;
  c.type = DML_OPERATOR_SLICE1;
  c.input = Tensor(kF32, {2, 3}, Iota(0, 6));
  c.output = Tensor(kF32, {2, 2}, {0, 1, 3, 4});
  c.offsets = {0, 0};
  c.window_sizes = {2, 3};
  c.window_strides = {1, 1};
  ExpectRunsAndMatches(c);
}

}  // namespace
}  // namespace validation_test
}  // namespace dmlcpu
