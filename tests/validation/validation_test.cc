// SPDX-License-Identifier: Apache-2.0
// Validation of the tensor descriptors every operator shares: one test per rule of
// docs/semantics.md#validation, for each of the six gather and slice operators. Each test builds
// a valid descriptor (validation_cases.h), breaks exactly one thing, and checks the StatusCode
// and that the message names the operator, the field (with its dimension where there is one)
// and the offending value. tests/README.md lists every bad input class tried here.
#include <cstdint>
#include <string>
#include <vector>

#include "validation/validation_cases.h"

namespace dmlcpu {
namespace validation_test {
namespace {

// ================================================================================================
// Positive checks.

class ValidDescriptorTest : public ::testing::TestWithParam<DML_OPERATOR_TYPE> {};

TEST_P(ValidDescriptorTest, SpecExampleCompilesAndRuns) {
  ExpectRunsAndMatches(BaseCase(GetParam()));
}

TEST_P(ValidDescriptorTest, SmallestDescriptorCompilesAndRuns) {
  ExpectRunsAndMatches(SmallestCase(GetParam()));
}

TEST_P(ValidDescriptorTest, RankEightRightAlignedCompilesAndRuns) {
  ExpectRunsAndMatches(PadToRank(BaseCase(GetParam()), 8));
}

TEST_P(ValidDescriptorTest, TotalTensorSizeLargerThanRequiredIsAccepted) {
  OpCase c = BaseCase(GetParam());
  for (Slot slot : c.Slots()) {
    c.tensor(slot).total_bytes = c.tensor(slot).TotalBytes() + 1000;
  }
  ExpectRunsAndMatches(c);
}

TEST_P(ValidDescriptorTest, ExplicitPackedStridesMatchNullStrides) {
  OpCase c = BaseCase(GetParam());
  ExpectRunsAndMatches(c);  // Strides == nullptr everywhere.
  for (Slot slot : c.Slots()) c.tensor(slot).strides = PackedStrides(c.tensor(slot).sizes);
  ExpectRunsAndMatches(c);
}

TEST_P(ValidDescriptorTest, PaddedStridedLayoutsAreAccepted) {
  OpCase c = BaseCase(GetParam());
  for (Slot slot : c.Slots()) {
    std::vector<uint32_t> strides = PackedStrides(c.tensor(slot).sizes);
    for (uint32_t& stride : strides) stride *= 3;  // two elements of padding after each element
    c.tensor(slot).strides = strides;
  }
  auto op = CompileCase(c);
  ASSERT_OK(op.status());
  CaseBuffers buffers(c);
  ASSERT_OK(ExecuteCase(*op, buffers));
  EXPECT_EQ(ReadOutput(c.output, buffers.output), c.output.values);
}

TEST_P(ValidDescriptorTest, AlignmentPowerOfTwoAtLeastElementSizeIsAccepted) {
  for (uint32_t alignment : {4u, 16u, 256u}) {
    OpCase c = BaseCase(GetParam());
    for (Slot slot : c.Slots()) c.tensor(slot).alignment_bytes = alignment;
    SCOPED_TRACE(alignment);
    ExpectRunsAndMatches(c);
  }
}

TEST_P(ValidDescriptorTest, DescriptorMayBeFreedRightAfterCompile) {
  OpCase c = BaseCase(GetParam());
  const OpCase original = c;
  auto op = CompileCase(c);
  ASSERT_OK(op.status());
  // Scribble over every array the descriptor pointed at; the plan must not look at them again.
  for (Slot slot : c.Slots()) {
    std::fill(c.tensor(slot).sizes.begin(), c.tensor(slot).sizes.end(), 0u);
  }
  std::fill(c.offsets.begin(), c.offsets.end(), kHuge);
  std::fill(c.window_sizes.begin(), c.window_sizes.end(), 0u);
  std::fill(c.slice_strides.begin(), c.slice_strides.end(), 0u);
  std::fill(c.window_strides.begin(), c.window_strides.end(), 0);
  CaseBuffers buffers(original);
  ASSERT_OK(ExecuteCase(*op, buffers));
  EXPECT_EQ(ReadOutput(original.output, buffers.output), original.output.values);
}

INSTANTIATE_TEST_SUITE_P(AllOperators, ValidDescriptorTest, ::testing::ValuesIn(kAllOperators),
                         OperatorTestName);

TEST(CalcBufferTensorSizeTest, MatchesSpecWorkedNumbers) {
  const uint32_t nchw[] = {1, 1, 3, 5};
  EXPECT_EQ(CalcBufferTensorSize(kF16, 4, nchw, nullptr), 32u);
  const uint32_t sizes_2x3[] = {2, 3};
  const uint32_t broadcast_rows[] = {0, 1};
  EXPECT_EQ(CalcBufferTensorSize(kF32, 2, sizes_2x3, broadcast_rows), 12u);
  const uint32_t five[] = {5};
  EXPECT_EQ(CalcBufferTensorSize(DML_TENSOR_DATA_TYPE_UINT4, 1, five, nullptr), 4u);
  EXPECT_EQ(CalcBufferTensorSize(kU8, 1, five, nullptr), 8u);
  EXPECT_EQ(CalcBufferTensorSize(DML_TENSOR_DATA_TYPE_UNKNOWN, 1, five, nullptr), 0u);
  const uint32_t huge_sizes[] = {kHuge, kHuge, kHuge};
  const uint32_t huge_strides[] = {kHuge, kHuge, kHuge};
  EXPECT_EQ(CalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT64, 3, huge_sizes, huge_strides), 0u)
      << "overflow must give 0";
  // 64-bit arithmetic: 2^32 UINT8 elements need 2^32 bytes (a 32-bit helper would wrap to 0).
  const uint32_t big[] = {65536, 65536};
  EXPECT_EQ(CalcBufferTensorSize(kU8, 2, big, nullptr), uint64_t{1} << 32);
}

// ================================================================================================
// Generic tensor rules (docs/semantics.md#tensor-descriptions, #validation), for every operator and
// every tensor slot.

class TensorRulesTest : public ::testing::TestWithParam<DML_OPERATOR_TYPE> {
 protected:
  OpCase Base() const { return BaseCase(GetParam()); }
  std::string op() const { return Op(GetParam()); }
};

TEST_P(TensorRulesTest, NullTensorPointerIsRejected) {
  for (Slot slot : Base().Slots()) {
    OpCase c = Base();
    c.tensor(slot).absent = true;
    SCOPED_TRACE(SlotName(slot));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument,
                 op() + SlotName(slot) + " is null");
  }
}

TEST_P(TensorRulesTest, TensorTypeNotBufferIsRejected) {
  for (Slot slot : Base().Slots()) {
    for (uint32_t type : {0u, 2u, 0xFFFFFFFFu}) {
      OpCase c = Base();
      c.tensor(slot).tensor_type = type;
      SCOPED_TRACE(std::string(SlotName(slot)) + " Type " + std::to_string(type));
      EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                   std::string(SlotName(slot)) + ".Type is " + std::to_string(type));
    }
  }
}

TEST_P(TensorRulesTest, NullBufferTensorDescIsRejected) {
  for (Slot slot : Base().Slots()) {
    OpCase c = Base();
    c.tensor(slot).null_buffer_desc = true;
    SCOPED_TRACE(SlotName(slot));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                 std::string(SlotName(slot)) + ".Desc is null");
  }
}

TEST_P(TensorRulesTest, UnknownDataTypeIsRejected) {
  for (Slot slot : Base().Slots()) {
    for (uint32_t type : {0u, 14u, 99u}) {
      OpCase c = Base();
      c.tensor(slot).raw_data_type = type;
      SCOPED_TRACE(std::string(SlotName(slot)) + " DataType " + std::to_string(type));
      EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                   std::string(SlotName(slot)) + ".DataType is " + std::to_string(type));
    }
  }
}

TEST_P(TensorRulesTest, FourBitDataTypeIsUnsupported) {
  for (DML_TENSOR_DATA_TYPE type : {DML_TENSOR_DATA_TYPE_UINT4, DML_TENSOR_DATA_TYPE_INT4}) {
    OpCase c = Base();
    c.input.data_type = type;
    c.output.data_type = type;
    SCOPED_TRACE(DataTypeName(type));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kUnsupported, op(),
                 DataTypeIs("InputTensor", type));
  }
}

TEST_P(TensorRulesTest, OwnedByDmlOnInputIsUnsupported) {
  for (Slot slot : Base().InputSlots()) {
    OpCase c = Base();
    c.tensor(slot).flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    SCOPED_TRACE(SlotName(slot));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kUnsupported, op(), FlagsIs(SlotName(slot), 1));
  }
}

TEST_P(TensorRulesTest, OwnedByDmlOnOutputIsRejected) {
  OpCase c = Base();
  c.output.flags = DML_TENSOR_FLAG_OWNED_BY_DML;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), FlagsIs("OutputTensor", 1));
}

TEST_P(TensorRulesTest, UnknownFlagBitsAreRejected) {
  for (Slot slot : Base().Slots()) {
    for (uint32_t flags : {0x2u, 0x3u, 0x80000000u}) {
      OpCase c = Base();
      c.tensor(slot).flags = flags;
      SCOPED_TRACE(std::string(SlotName(slot)) + " Flags " + std::to_string(flags));
      EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                   FlagsIs(SlotName(slot), flags));
    }
  }
}

TEST_P(TensorRulesTest, DimensionCountZeroIsRejected) {
  for (Slot slot : Base().Slots()) {
    OpCase c = Base();
    c.tensor(slot).dimension_count = 0;  // Sizes still points at a real array.
    SCOPED_TRACE(SlotName(slot));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                 std::string(SlotName(slot)) + ".DimensionCount is 0");
  }
}

TEST_P(TensorRulesTest, DimensionCountNineIsRejected) {
  for (Slot slot : Base().Slots()) {
    OpCase c = Base();
    TensorArgs& t = c.tensor(slot);
    t.sizes.insert(t.sizes.begin(), 9 - t.sizes.size(), 1);
    SCOPED_TRACE(SlotName(slot));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                 std::string(SlotName(slot)) + ".DimensionCount is 9");
  }
}

TEST_P(TensorRulesTest, NullSizesIsRejected) {
  for (Slot slot : Base().Slots()) {
    OpCase c = Base();
    c.tensor(slot).null_sizes = true;
    SCOPED_TRACE(SlotName(slot));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                 std::string(SlotName(slot)) + ".Sizes is null");
  }
}

TEST_P(TensorRulesTest, ZeroSizeIsRejected) {
  for (Slot slot : Base().Slots()) {
    for (size_t d = 0; d < Base().tensor(slot).sizes.size(); ++d) {
      OpCase c = Base();
      c.tensor(slot).sizes[d] = 0;
      const std::string field =
          std::string(SlotName(slot)) + ".Sizes[" + std::to_string(d) + "] is 0";
      SCOPED_TRACE(field);
      EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), field);
    }
  }
}

TEST_P(TensorRulesTest, TotalTensorSizeBelowRequiredIsRejected) {
  for (Slot slot : Base().Slots()) {
    const uint64_t required = Base().tensor(slot).TotalBytes();
    for (uint64_t total : {required - 1, required - 4, uint64_t{0}}) {
      OpCase c = Base();
      c.tensor(slot).total_bytes = total;
      const std::string field = std::string(SlotName(slot)) + ".TotalTensorSizeInBytes is " +
                                std::to_string(total);
      SCOPED_TRACE(field);
      EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), field,
                   "expected >= " + std::to_string(required));
    }
  }
}

TEST_P(TensorRulesTest, AlignmentNotPowerOfTwoIsRejected) {
  for (Slot slot : Base().Slots()) {
    for (uint32_t alignment : {3u, 12u, 24u, 0x80000001u}) {
      OpCase c = Base();
      c.tensor(slot).alignment_bytes = alignment;
      const std::string field = std::string(SlotName(slot)) +
                                ".GuaranteedBaseOffsetAlignment is " + std::to_string(alignment);
      SCOPED_TRACE(field);
      EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), field);
    }
  }
}

TEST_P(TensorRulesTest, AlignmentBelowElementSizeIsRejected) {
  for (Slot slot : Base().Slots()) {
    for (uint32_t alignment : {1u, 2u}) {  // every base tensor has 4-byte elements
      OpCase c = Base();
      c.tensor(slot).alignment_bytes = alignment;
      const std::string field = std::string(SlotName(slot)) +
                                ".GuaranteedBaseOffsetAlignment is " + std::to_string(alignment);
      SCOPED_TRACE(field);
      EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), field);
    }
  }
}

TEST_P(TensorRulesTest, DimensionCountMismatchIsRejected) {
  const uint32_t rank = static_cast<uint32_t>(Base().input.sizes.size());
  for (Slot slot : Base().Slots()) {
    if (slot == Slot::kInput) continue;  // the input's rank is the reference
    OpCase c = Base();
    TensorArgs& t = c.tensor(slot);
    t.sizes.insert(t.sizes.begin(), 1);
    SCOPED_TRACE(SlotName(slot));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                 std::string(SlotName(slot)) + ".DimensionCount is " + std::to_string(rank + 1),
                 "expected " + std::to_string(rank));
  }
}

TEST_P(TensorRulesTest, OutputDataTypeDifferentFromInputIsRejected) {
  for (DML_TENSOR_DATA_TYPE type : {kI32, kU8, DML_TENSOR_DATA_TYPE_FLOAT64}) {
    OpCase c = Base();
    c.output.data_type = type;
    SCOPED_TRACE(DataTypeName(type));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                 DataTypeIs("OutputTensor", type));
  }
}

TEST_P(TensorRulesTest, ElementSpanBeyondFourGigaElementsIsRejected) {
  // Strides of 2^32 - 1 on two or more dims of size >= 2: the last element lies beyond 2^32 - 1.
  OpCase c = Base();
  c.input.strides.clear();
  for (uint32_t size : c.input.sizes) c.input.strides.push_back(size > 1 ? kHuge : 1);
  uint64_t last = 0;
  for (size_t i = 0; i < c.input.sizes.size(); ++i) {
    last += uint64_t{c.input.sizes[i] - 1} * c.input.strides[i];
  }
  ASSERT_GT(last + 1, uint64_t{kHuge});
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), "InputTensor",
               std::to_string(last + 1) + "|4294967295");
}

// Sizes and strides whose Σ (size-1)·stride overflows 64 bits.
OpCase OverflowingInputCase(DML_OPERATOR_TYPE type) {
  OpCase c;
  c.type = type;
  c.input = Tensor(kU8, {kHuge, kHuge});
  c.input.strides = {kHuge, kHuge};
  c.input.total_bytes = std::numeric_limits<uint64_t>::max();
  switch (type) {
    case DML_OPERATOR_GATHER:  // Axis 0: Out = Idx[1..] ++ In[1..] = {1, kHuge}.
      c.indices = Tensor(kU32, {1, 1});
      c.output = Tensor(kU8, {1, kHuge});
      c.axis = 0;
      c.index_dimensions = 1;
      break;
    case DML_OPERATOR_GATHER_ELEMENTS:
      c.indices = Tensor(kU32, {kHuge, 1});
      c.output = Tensor(kU8, {kHuge, 1});
      c.axis = 1;
      break;
    case DML_OPERATOR_GATHER_ND:
    case DML_OPERATOR_GATHER_ND1:  // t 2 = r: Out = {1, 1}.
      c.indices = Tensor(kU32, {1, 2});
      c.output = Tensor(kU8, {1, 1});
      c.input_dimension_count = 2;
      c.indices_dimension_count = 2;
      break;
    default:
      c.output = Tensor(kU8, {1, 1});
      c.offsets = {0, 0};
      c.window_sizes = {1, 1};
      c.slice_strides = {1, 1};
      c.window_strides = {1, 1};
      break;
  }
  return c;
}

TEST_P(TensorRulesTest, SizeTimesStrideOverflowingSixtyFourBitsIsRejected) {
  EXPECT_ERROR(CompileStatus(OverflowingInputCase(GetParam())), StatusCode::kInvalidArgument,
               op(), "InputTensor");
}

TEST_P(TensorRulesTest, OutputZeroStrideIsRejected) {
  OpCase c = Base();
  c.output.strides = PackedStrides(c.output.sizes);
  size_t d = 0;
  while (c.output.sizes[d] == 1) ++d;  // the first dimension an output could broadcast
  c.output.strides[d] = 0;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
               "OutputTensor.Strides[" + std::to_string(d) + "] is 0");
}

TEST_P(TensorRulesTest, OverlappingOutputLayoutIsRejected) {
  OpCase c = Base();
  c.output.strides.assign(c.output.sizes.size(), 1);  // every dimension steps one element
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), "OutputTensor.Strides");
}

// dmlcpu's output-layout rule is conservative: it accepts a layout only when each stride exceeds
// the extent of the smaller ones. {3,2} with strides {2,3} has distinct offsets 0,3,2,5,4,7 but
// interleaves its dimensions, so it is refused, and the message says which rule refused it.
TEST(TensorRulesTest, InterleavedOutputLayoutIsRefusedByTheConservativeRule) {
  UINT in_sizes[] = {3, 2}, out_strides[] = {2, 3}, offsets[] = {0, 0}, steps[] = {1, 1};
  DML_BUFFER_TENSOR_DESC in = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, in_sizes,
                               nullptr, 24, 0};
  DML_BUFFER_TENSOR_DESC out = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, in_sizes,
                                out_strides, 32, 0};
  DML_TENSOR_DESC in_desc = {DML_TENSOR_TYPE_BUFFER, &in},
                  out_desc = {DML_TENSOR_TYPE_BUFFER, &out};
  DML_SLICE_OPERATOR_DESC slice = {&in_desc, &out_desc, 2, offsets, in_sizes, steps};
  dmlcpu::Device device(dmlcpu::DeviceOptions{1, nullptr});
  auto op = device.Compile({DML_OPERATOR_SLICE, &slice});
  ASSERT_FALSE(op.ok());
  EXPECT_EQ(op.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(op.status().message().find("SLICE: OutputTensor.Strides[1] is 3, expected > 4"),
            std::string::npos) << op.status().message();
  EXPECT_NE(op.status().message().find("each stride exceeds the extent of the smaller ones"),
            std::string::npos) << op.status().message();
}

TEST_P(TensorRulesTest, NullOperatorDescIsRejected) {
  OpCase c = Base();
  c.null_op_desc = true;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, OpName(GetParam()), "null");
}

INSTANTIATE_TEST_SUITE_P(AllOperators, TensorRulesTest, ::testing::ValuesIn(kAllOperators),
                         OperatorTestName);

TEST(TensorRulesTest, RequiredSizeIsRoundedToFourBytes) {
  // SLICE1 copying the whole input; only the input's TotalTensorSizeInBytes is broken.
  struct Probe {
    DML_TENSOR_DATA_TYPE type;
    std::vector<uint32_t> sizes;
    std::vector<uint32_t> strides;
    uint64_t total;
    uint64_t required;
  };
  const Probe probes[] = {
      {kF16, {3, 5}, {}, 30, 32},     // 30 bytes, rounded to 32
      {kU8, {5}, {}, 5, 8},           // 5 bytes, rounded to 8
      {kU8, {5}, {}, 7, 8},
      {kF32, {2, 3}, {0, 1}, 8, 12},  // broadcast rows: 3 elements
  };
  for (const Probe& p : probes) {
    OpCase c;
    c.type = DML_OPERATOR_SLICE1;
    c.input = Tensor(p.type, p.sizes);
    c.input.strides = p.strides;
    c.input.total_bytes = p.total;
    c.output = Tensor(p.type, p.sizes);
    c.offsets.assign(p.sizes.size(), 0);
    c.window_sizes = p.sizes;
    c.window_strides.assign(p.sizes.size(), 1);
    SCOPED_TRACE(p.total);
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE1: ",
                 "InputTensor.TotalTensorSizeInBytes is " + std::to_string(p.total),
                 "expected >= " + std::to_string(p.required));
    c.input.total_bytes = p.required;
    EXPECT_OK(CompileStatus(c));
  }
}

TEST(TensorRulesTest, PackedElementCountAtFourGigaElementsIsRejected) {
  // 65536 x 65536 UINT8 = 2^32 elements; 65535 x 65537 = 2^32 - 1 is the largest allowed.
  OpCase c;
  c.type = DML_OPERATOR_SLICE1;
  c.input = Tensor(kU8, {65536, 65536});
  c.output = Tensor(kU8, {1, 1});
  c.offsets = {0, 0};
  c.window_sizes = {1, 1};
  c.window_strides = {1, 1};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE1: ", "InputTensor",
               "4294967296|4294967295");
  c.input.sizes = {65535, 65537};
  EXPECT_OK(CompileStatus(c));
}

}  // namespace
}  // namespace validation_test
}  // namespace dmlcpu
