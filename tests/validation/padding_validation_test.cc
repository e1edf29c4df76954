// SPDX-License-Identifier: Apache-2.0
// Validation of PADDING / PADDING1, the depth/space operators and SLICE_GRAD: one test per rule
// of docs/semantics.md#padding, #depth_to_space and #slice_grad (the bad-input catalogue in
// tests/README.md lists them). Each builds its descriptor on the stack and checks the status
// code and the message's operator, field, value and bound.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/dmlcpu.h"

namespace {

// A packed buffer tensor desc that owns its sizes and strides.
struct Tensor {
  Tensor(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> s, std::vector<uint32_t> st = {})
      : sizes(std::move(s)), strides(std::move(st)) {
    buffer.DataType = type;
    buffer.DimensionCount = static_cast<uint32_t>(sizes.size());
    buffer.Sizes = sizes.data();
    buffer.Strides = strides.empty() ? nullptr : strides.data();
    buffer.TotalTensorSizeInBytes = dmlcpu::CalcBufferTensorSize(
        type, buffer.DimensionCount, sizes.data(), buffer.Strides);
    desc = {DML_TENSOR_TYPE_BUFFER, &buffer};
  }
  Tensor(const Tensor&) = delete;
  std::vector<uint32_t> sizes, strides;
  DML_BUFFER_TENSOR_DESC buffer{};
  DML_TENSOR_DESC desc{};
};

constexpr DML_TENSOR_DATA_TYPE kF32 = DML_TENSOR_DATA_TYPE_FLOAT32;
constexpr DML_TENSOR_DATA_TYPE kI32 = DML_TENSOR_DATA_TYPE_INT32;

// Compiles and expects `code` with every fragment in the message.
void ExpectRejected(DML_OPERATOR_TYPE type, const void* desc, dmlcpu::StatusCode code,
                    const std::vector<std::string>& fragments) {
  const dmlcpu::Device device(dmlcpu::DeviceOptions{1, nullptr});
  const dmlcpu::StatusOr<dmlcpu::CompiledOperator> op = device.Compile({type, desc});
  ASSERT_FALSE(op.ok());
  EXPECT_EQ(op.status().code(), code) << op.status().message();
  for (const std::string& f : fragments) {
    EXPECT_NE(op.status().message().find(f), std::string::npos)
        << "message \"" << op.status().message() << "\" lacks \"" << f << "\"";
  }
}

void ExpectAccepted(DML_OPERATOR_TYPE type, const void* desc) {
  const dmlcpu::Device device(dmlcpu::DeviceOptions{1, nullptr});
  const dmlcpu::StatusOr<dmlcpu::CompiledOperator> op = device.Compile({type, desc});
  EXPECT_TRUE(op.ok()) << op.status().message();
}

constexpr auto kInvalid = dmlcpu::StatusCode::kInvalidArgument;

struct PaddingFixture {
  Tensor in{kF32, {1, 1, 4, 4}};
  Tensor out{kF32, {1, 1, 6, 7}};
  uint32_t start[4] = {0, 0, 1, 2};
  uint32_t end[4] = {0, 0, 1, 1};
  DML_PADDING_OPERATOR_DESC desc{&in.desc, &out.desc, DML_PADDING_MODE_REFLECTION, 0.0f, 4,
                                 start, end};
};

TEST(PaddingRulesTest, ValidDescriptorIsAccepted) {
  PaddingFixture f;
  ExpectAccepted(DML_OPERATOR_PADDING, &f.desc);
  for (uint32_t mode = 0; mode <= 4; ++mode) {
    f.desc.PaddingMode = static_cast<DML_PADDING_MODE>(mode);
    ExpectAccepted(DML_OPERATOR_PADDING, &f.desc);
  }
}

TEST(PaddingRulesTest, UnknownModeIsRejected) {
  PaddingFixture f;
  f.desc.PaddingMode = static_cast<DML_PADDING_MODE>(5);
  ExpectRejected(DML_OPERATOR_PADDING, &f.desc, kInvalid,
                 {"PADDING: PaddingMode is 5", "WRAP (4)"});
}

TEST(PaddingRulesTest, DimensionCountMismatchIsRejected) {
  PaddingFixture f;
  f.desc.DimensionCount = 3;
  ExpectRejected(DML_OPERATOR_PADDING, &f.desc, kInvalid,
                 {"PADDING: DimensionCount is 3, expected 4"});
}

TEST(PaddingRulesTest, NullPaddingArraysAreRejected) {
  PaddingFixture f;
  f.desc.StartPadding = nullptr;
  ExpectRejected(DML_OPERATOR_PADDING, &f.desc, kInvalid, {"PADDING: StartPadding is null"});
  f.desc.StartPadding = f.start;
  f.desc.EndPadding = nullptr;
  ExpectRejected(DML_OPERATOR_PADDING, &f.desc, kInvalid, {"PADDING: EndPadding is null"});
}

TEST(PaddingRulesTest, WrongOutputSizeIsRejected) {
  PaddingFixture f;
  f.end[3] = 2;
  ExpectRejected(DML_OPERATOR_PADDING, &f.desc, kInvalid,
                 {"PADDING: OutputTensor.Sizes[3] is 7, expected 8",
                  "InputTensor.Sizes[3] 4 + StartPadding[3] 2 + EndPadding[3] 2"});
}

TEST(PaddingRulesTest, OutputSizeBeyond32BitsIsRejected) {
  PaddingFixture f;
  f.start[2] = 0xFFFFFFF0u;
  f.end[2] = 0x20;
  ExpectRejected(DML_OPERATOR_PADDING, &f.desc, kInvalid,
                 {"InputTensor.Sizes[2] + StartPadding[2] + EndPadding[2] is 4294967316",
                  "expected <= 4294967295"});
}

TEST(PaddingRulesTest, DataTypeAndRankMismatchAreRejected) {
  PaddingFixture f;
  Tensor int_out(kI32, {1, 1, 6, 7});
  f.desc.OutputTensor = &int_out.desc;
  ExpectRejected(DML_OPERATOR_PADDING, &f.desc, kInvalid,
                 {"PADDING: OutputTensor.DataType is 6 (INT32), expected 1 (FLOAT32"});
  Tensor rank3(kF32, {1, 6, 7});
  f.desc.OutputTensor = &rank3.desc;
  ExpectRejected(DML_OPERATOR_PADDING, &f.desc, kInvalid,
                 {"PADDING: OutputTensor.DimensionCount is 3, expected 4"});
}

TEST(PaddingRulesTest, BroadcastOutputIsRejected) {
  PaddingFixture f;
  Tensor broadcast(kF32, {1, 1, 6, 7}, {0, 0, 0, 1});
  f.desc.OutputTensor = &broadcast.desc;
  ExpectRejected(DML_OPERATOR_PADDING, &f.desc, kInvalid, {"PADDING: OutputTensor"});
}

TEST(PaddingRulesTest, NullTensorIsRejected) {
  PaddingFixture f;
  f.desc.InputTensor = nullptr;
  ExpectRejected(DML_OPERATOR_PADDING, &f.desc, kInvalid, {"PADDING: InputTensor is null"});
}

TEST(Padding1RulesTest, ValueTypeMustBeTheTensorType) {
  Tensor in(kF32, {2, 2}), out(kF32, {3, 3});
  uint32_t start[2] = {1, 1}, end[2] = {0, 0};
  DML_PADDING1_OPERATOR_DESC desc{};
  desc.InputTensor = &in.desc;
  desc.OutputTensor = &out.desc;
  desc.PaddingMode = DML_PADDING_MODE_CONSTANT;
  desc.PaddingValueDataType = kF32;
  desc.DimensionCount = 2;
  desc.StartPadding = start;
  desc.EndPadding = end;
  ExpectAccepted(DML_OPERATOR_PADDING1, &desc);
  desc.PaddingValueDataType = kI32;
  ExpectRejected(DML_OPERATOR_PADDING1, &desc, kInvalid,
                 {"PADDING1: PaddingValueDataType is 6 (INT32), expected 1 (FLOAT32, the "
                  "InputTensor.DataType)"});
  desc.PaddingValueDataType = DML_TENSOR_DATA_TYPE_FLOAT64;
  ExpectRejected(DML_OPERATOR_PADDING1, &desc, kInvalid, {"PaddingValueDataType is 9"});
  desc.PaddingValueDataType = static_cast<DML_TENSOR_DATA_TYPE>(99);
  ExpectRejected(DML_OPERATOR_PADDING1, &desc, kInvalid, {"PaddingValueDataType is 99"});
}

TEST(DepthSpaceRulesTest, RankMustBeFour) {
  Tensor in(kF32, {8, 2, 2}), out(kF32, {2, 4, 4});
  DML_DEPTH_TO_SPACE1_OPERATOR_DESC desc{&in.desc, &out.desc, 2,
                                         DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW};
  ExpectRejected(DML_OPERATOR_DEPTH_TO_SPACE1, &desc, kInvalid,
                 {"DEPTH_TO_SPACE1: InputTensor.DimensionCount is 3, expected 4"});
}

TEST(DepthSpaceRulesTest, BlockSizeAndOrder) {
  Tensor in(kF32, {1, 8, 2, 2}), out(kF32, {1, 2, 4, 4});
  DML_DEPTH_TO_SPACE1_OPERATOR_DESC desc{&in.desc, &out.desc, 0,
                                         DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW};
  ExpectRejected(DML_OPERATOR_DEPTH_TO_SPACE1, &desc, kInvalid,
                 {"DEPTH_TO_SPACE1: BlockSize is 0, expected >= 1"});
  desc.BlockSize = 2;
  desc.Order = static_cast<DML_DEPTH_SPACE_ORDER>(2);
  ExpectRejected(DML_OPERATOR_DEPTH_TO_SPACE1, &desc, kInvalid,
                 {"DEPTH_TO_SPACE1: Order is 2", "COLUMN_ROW_DEPTH (1)"});
  desc.Order = DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH;
  ExpectAccepted(DML_OPERATOR_DEPTH_TO_SPACE1, &desc);
  // A huge block (DirectML 1.15.2 divides by zero on 0x10000) is rejected, never divided by.
  desc.BlockSize = 0x10000;
  ExpectRejected(DML_OPERATOR_DEPTH_TO_SPACE1, &desc, kInvalid,
                 {"InputTensor.Sizes[1] is 8, expected a multiple of 4294967296"});
}

TEST(DepthSpaceRulesTest, DivisibilityAndOutputSizes) {
  Tensor in(kF32, {1, 6, 2, 2}), out(kF32, {1, 2, 4, 4});
  DML_DEPTH_TO_SPACE_OPERATOR_DESC d2s{&in.desc, &out.desc, 2};
  ExpectRejected(DML_OPERATOR_DEPTH_TO_SPACE, &d2s, kInvalid,
                 {"DEPTH_TO_SPACE: InputTensor.Sizes[1] is 6, expected a multiple of 4"});
  Tensor space(kF32, {1, 2, 5, 4}), depth(kF32, {1, 8, 2, 2});
  DML_SPACE_TO_DEPTH_OPERATOR_DESC s2d{&space.desc, &depth.desc, 2};
  ExpectRejected(DML_OPERATOR_SPACE_TO_DEPTH, &s2d, kInvalid,
                 {"SPACE_TO_DEPTH: InputTensor.Sizes[2] is 5, expected a multiple of 2"});
  Tensor space_ok(kF32, {1, 2, 4, 4}), depth_bad(kF32, {1, 8, 2, 3});
  DML_SPACE_TO_DEPTH1_OPERATOR_DESC s2d1{&space_ok.desc, &depth_bad.desc, 2,
                                         DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW};
  ExpectRejected(DML_OPERATOR_SPACE_TO_DEPTH1, &s2d1, kInvalid,
                 {"SPACE_TO_DEPTH1: OutputTensor.Sizes[3] is 3, expected 2"});
  Tensor s2d_huge(kF32, {1, 2, 65536, 65536}, {0, 0, 0, 0}), depth_any(kF32, {1, 8, 1, 1});
  DML_SPACE_TO_DEPTH1_OPERATOR_DESC huge{&s2d_huge.desc, &depth_any.desc, 65536,
                                         DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW};
  ExpectRejected(DML_OPERATOR_SPACE_TO_DEPTH1, &huge, kInvalid,
                 {"InputTensor.Sizes[1] * BlockSize^2 is 8589934592", "expected <= 4294967295"});
}

struct SliceGradFixture {
  Tensor grad{kF32, {1, 1, 2, 2}};
  Tensor out{kF32, {1, 1, 4, 4}};
  uint32_t offsets[4] = {0, 0, 0, 1};
  uint32_t sizes[4] = {1, 1, 4, 3};
  int32_t strides[4] = {1, 1, -2, 2};
  DML_SLICE_GRAD_OPERATOR_DESC desc{&grad.desc, &out.desc, 4, offsets, sizes, strides};
};

TEST(SliceGradRulesTest, Rules) {
  SliceGradFixture f;
  ExpectAccepted(DML_OPERATOR_SLICE_GRAD, &f.desc);
  f.desc.DimensionCount = 3;
  ExpectRejected(DML_OPERATOR_SLICE_GRAD, &f.desc, kInvalid,
                 {"SLICE_GRAD: DimensionCount is 3, expected 4"});
  f.desc.DimensionCount = 4;
  f.desc.InputWindowStrides = nullptr;
  ExpectRejected(DML_OPERATOR_SLICE_GRAD, &f.desc, kInvalid,
                 {"SLICE_GRAD: InputWindowStrides is null"});
  f.desc.InputWindowStrides = f.strides;
  f.sizes[1] = 0;
  ExpectRejected(DML_OPERATOR_SLICE_GRAD, &f.desc, kInvalid,
                 {"SLICE_GRAD: InputWindowSizes[1] is 0, expected >= 1"});
  f.sizes[1] = 1;
  f.offsets[3] = 2;
  ExpectRejected(DML_OPERATOR_SLICE_GRAD, &f.desc, kInvalid,
                 {"SLICE_GRAD: InputWindowOffsets[3] + InputWindowSizes[3] is 5 (2 + 3)",
                  "expected <= 4 (OutputGradientTensor.Sizes[3])"});
  f.offsets[3] = 1;
  f.strides[2] = 0;
  ExpectRejected(DML_OPERATOR_SLICE_GRAD, &f.desc, kInvalid,
                 {"SLICE_GRAD: InputWindowStrides[2] is 0, expected non-zero"});
  f.strides[2] = -4;
  ExpectRejected(DML_OPERATOR_SLICE_GRAD, &f.desc, kInvalid,
                 {"SLICE_GRAD: InputGradientTensor.Sizes[2] is 2, expected in [1, 1]"});
  f.strides[2] = -2;
  Tensor int_out(kI32, {1, 1, 4, 4});
  f.desc.OutputGradientTensor = &int_out.desc;
  ExpectRejected(DML_OPERATOR_SLICE_GRAD, &f.desc, kInvalid,
                 {"SLICE_GRAD: OutputGradientTensor.DataType is 6 (INT32)"});
}

}  // namespace
