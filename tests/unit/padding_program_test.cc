// SPDX-License-Identifier: Apache-2.0
// The programs the padding family compiles to (docs/design.md#programs-of-future-operators):
// step kinds, sources, counts and border rows of the worked examples, one permuted copy for
// depth/space, a fill and a copy for SLICE_GRAD (fills around a dense window), and a
// logarithmic step count for pads far past the input.
#include <cstdint>
#include <vector>

#include "dmlcpu/dml_compat.h"
#include "gtest/gtest.h"
#include "planner/planner.h"

namespace dmlcpu {
namespace internal {
namespace {

struct Tensor {
  Tensor(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> s) : sizes(std::move(s)) {
    buffer.DataType = type;
    buffer.DimensionCount = static_cast<uint32_t>(sizes.size());
    buffer.Sizes = sizes.data();
    uint64_t count = 1;
    for (uint32_t v : sizes) count *= v;
    buffer.TotalTensorSizeInBytes =
        (count * (type == DML_TENSOR_DATA_TYPE_FLOAT32 ? 4 : 1) + 3) & ~3ull;
    desc = {DML_TENSOR_TYPE_BUFFER, &buffer};
  }
  std::vector<uint32_t> sizes;
  DML_BUFFER_TENSOR_DESC buffer{};
  DML_TENSOR_DESC desc{};
};

Program Compile(DML_OPERATOR_TYPE type, const void* desc) {
  Program program;
  const Status s = CompileProgram({type, desc}, PlanSettings{}, &program);
  EXPECT_TRUE(s.ok()) << s.message();
  return program;
}

Program CompilePadding(std::vector<uint32_t> in_sizes, std::vector<uint32_t> start,
                       std::vector<uint32_t> end, DML_PADDING_MODE mode) {
  std::vector<uint32_t> out_sizes(in_sizes.size());
  for (size_t d = 0; d < in_sizes.size(); ++d) out_sizes[d] = in_sizes[d] + start[d] + end[d];
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, in_sizes), out(DML_TENSOR_DATA_TYPE_FLOAT32, out_sizes);
  DML_PADDING_OPERATOR_DESC desc{
      &in.desc,     &out.desc, mode, 0.0f, static_cast<uint32_t>(in_sizes.size()),
      start.data(), end.data()};
  return Compile(DML_OPERATOR_PADDING, &desc);
}

TEST(PaddingProgramTest, ConstantIsOneFramedCopy) {
  // The left and right columns are written with each interior row, the top and bottom rows with
  // each plane's first and last row (RowBorders), not by steps of their own that would traverse
  // the output again.
  const Program p =
      CompilePadding({1, 64, 56, 56}, {0, 0, 1, 1}, {0, 0, 1, 1}, DML_PADDING_MODE_CONSTANT);
  ASSERT_EQ(p.steps.size(), 1u);
  EXPECT_EQ(p.steps[0].kind, StepKind::kAffineCopy);
  EXPECT_EQ(p.steps[0].out_base_bytes, 236);  // row 1, column 1
  const RowBorders& b = p.steps[0].plan.borders;
  EXPECT_EQ(b.left_items, 1u);
  EXPECT_EQ(b.right_items, 1u);
  EXPECT_EQ(b.top_rows, 1u);
  EXPECT_EQ(b.bottom_rows, 1u);
  EXPECT_TRUE(b.fill);
  // Any number of filled rows; the channel padding is a fill step of its own.
  const Program wide =
      CompilePadding({2, 3, 5, 6}, {0, 1, 12, 2}, {0, 0, 9, 0}, DML_PADDING_MODE_CONSTANT);
  ASSERT_EQ(wide.steps.size(), 2u);
  EXPECT_EQ(wide.steps[0].plan.borders.top_rows, 12u);
  EXPECT_EQ(wide.steps[0].plan.borders.bottom_rows, 9u);
  EXPECT_EQ(wide.steps[1].kind, StepKind::kFill);
}

TEST(PaddingProgramTest, LargeFramedRowsAreStagedLines) {
  // Output and input beyond half the last-level cache: the rows with their borders (232 bytes,
  // adjacent along each plane), filled or copied, go through staged lines; a small pad keeps
  // regular stores.
  const Program large =
      CompilePadding({32, 64, 56, 56}, {0, 0, 1, 1}, {0, 0, 1, 1}, DML_PADDING_MODE_CONSTANT);
  ASSERT_EQ(large.steps.size(), 1u);
  EXPECT_TRUE(large.steps[0].plan.store.staged_lines);
  EXPECT_FALSE(large.steps[0].plan.store.non_temporal);
  const Program reflect =
      CompilePadding({32, 64, 56, 56}, {0, 0, 1, 1}, {0, 0, 1, 1}, DML_PADDING_MODE_REFLECTION);
  ASSERT_EQ(reflect.steps.size(), 1u);
  EXPECT_TRUE(reflect.steps[0].plan.store.staged_lines);
  const Program small =
      CompilePadding({1, 64, 56, 56}, {0, 0, 1, 1}, {0, 0, 1, 1}, DML_PADDING_MODE_CONSTANT);
  ASSERT_EQ(small.steps.size(), 1u);
  EXPECT_FALSE(small.steps[0].plan.store.staged_lines);
  // Rows of more than Tuning::kMaxStagedPieceBytes with their borders: not staged.
  const Program wide =
      CompilePadding({4, 1024, 1022}, {0, 1, 1}, {0, 1, 1}, DML_PADDING_MODE_CONSTANT);
  for (const Step& step : wide.steps) EXPECT_FALSE(step.plan.store.staged_lines);
}

TEST(PaddingProgramTest, ReflectRowsAndColumnsFromTheInputRow) {
  const Program p =
      CompilePadding({1, 1, 4, 4}, {0, 0, 2, 2}, {0, 0, 2, 2}, DML_PADDING_MODE_REFLECTION);
  ASSERT_EQ(p.steps.size(), 1u);
  EXPECT_EQ(p.steps[0].kind, StepKind::kAffineCopy);
  EXPECT_EQ(p.steps[0].source, StepSource::kInput);
  EXPECT_EQ(p.steps[0].out_base_bytes, 72);  // row 2, column 2
  // Columns -2, -1 read input columns 2, 1; columns 4, 5 read 2, 1 (4-byte elements); rows
  // -2, -1 read input rows 2, 1 and rows 4, 5 read 2, 1 (16-byte rows).
  const RowBorders& b = p.steps[0].plan.borders;
  ASSERT_EQ(b.left_items, 2u);
  ASSERT_EQ(b.right_items, 2u);
  ASSERT_EQ(b.top_rows, 2u);
  ASSERT_EQ(b.bottom_rows, 2u);
  EXPECT_FALSE(b.fill);
  EXPECT_EQ(b.left_src_bytes[0], 8);
  EXPECT_EQ(b.left_src_bytes[1], 4);
  EXPECT_EQ(b.right_src_bytes[0], 8);
  EXPECT_EQ(b.right_src_bytes[1], 4);
  EXPECT_EQ(b.top_src_bytes[0], 32);
  EXPECT_EQ(b.top_src_bytes[1], 16);
  EXPECT_EQ(b.bottom_src_bytes[0], 32);
  EXPECT_EQ(b.bottom_src_bytes[1], 16);
}

TEST(PaddingProgramTest, RowsBeyondTheCopiedLimitAreStepsOfTheirOwn) {
  // More than RowBorders::kMaxCopiedRows rows to copy, or lines of one row (collapsed away):
  // rows with their columns, and the rows' steps apart.
  for (DML_PADDING_MODE mode : {DML_PADDING_MODE_EDGE, DML_PADDING_MODE_WRAP}) {
    const Program p = CompilePadding({2, 12, 5}, {0, 9, 1}, {0, 3, 1}, mode);
    ASSERT_GE(p.steps.size(), 3u) << "mode " << mode;
    for (const Step& step : p.steps) {
      EXPECT_EQ(step.plan.borders.top_rows + step.plan.borders.bottom_rows, 0u);
      EXPECT_EQ(step.plan.borders.left_items, 1u);
    }
  }
  const Program one_row =
      CompilePadding({5, 1, 6}, {0, 2, 1}, {0, 1, 1}, DML_PADDING_MODE_CONSTANT);
  ASSERT_EQ(one_row.steps.size(), 3u);
  EXPECT_EQ(one_row.steps[0].plan.borders.top_rows, 0u);
  EXPECT_EQ(one_row.steps[0].plan.borders.left_items, 1u);
}

TEST(PaddingProgramTest, WideCopiedColumnsAreStepsOfTheirOwn) {
  // More than RowBorders::kMaxCopiedItems columns to copy: rows from the input, then the
  // columns from the output.
  const Program p =
      CompilePadding({1, 1, 4, 4}, {0, 0, 2, 9}, {0, 0, 2, 0}, DML_PADDING_MODE_REFLECTION);
  ASSERT_GE(p.steps.size(), 4u);
  for (const Step& step : p.steps) {
    EXPECT_EQ(step.plan.borders.left_items + step.plan.borders.right_items, 0u);
  }
  EXPECT_EQ(p.steps.back().source, StepSource::kOutput);
}

TEST(PaddingProgramTest, PadsFarPastTheInputTakeLogarithmicallyManySteps) {
  for (DML_PADDING_MODE mode :
       {DML_PADDING_MODE_REFLECTION, DML_PADDING_MODE_SYMMETRIC, DML_PADDING_MODE_WRAP}) {
    const Program p = CompilePadding({2, 3}, {1000, 0}, {0, 100000}, mode);
    EXPECT_LE(p.steps.size(), 60u) << "mode " << mode;
  }
  // EDGE and one-element dimensions read one element: one step per side.
  EXPECT_EQ(CompilePadding({1, 5}, {7, 1000000}, {9, 3}, DML_PADDING_MODE_EDGE).steps.size(), 5u);
  EXPECT_EQ(CompilePadding({1, 5}, {7, 0}, {9, 0}, DML_PADDING_MODE_REFLECTION).steps.size(), 3u);
}

TEST(DepthSpaceProgramTest, OnePermutedCopy) {
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 8, 3, 3}),
      out(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 2, 6, 6});
  for (DML_DEPTH_SPACE_ORDER order :
       {DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW, DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH}) {
    DML_DEPTH_TO_SPACE1_OPERATOR_DESC desc{&in.desc, &out.desc, 2, order};
    const Program p = Compile(DML_OPERATOR_DEPTH_TO_SPACE1, &desc);
    ASSERT_EQ(p.steps.size(), 1u);
    EXPECT_EQ(p.steps[0].kind, StepKind::kAffineCopy);
  }
}

TEST(SliceGradProgramTest, ZeroFillThenTheWindow) {
  // SG-2: the window's row loop runs backwards in the input relative to the output; the copy
  // reads the gradient forwards and writes the window's rows from the last
  // (OrientForInputStream).
  Tensor grad(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 1, 2, 2}),
      out(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 1, 4, 4});
  const uint32_t offsets[4] = {0, 0, 0, 1}, sizes[4] = {1, 1, 4, 3};
  const int32_t strides[4] = {1, 1, -2, 2};
  DML_SLICE_GRAD_OPERATOR_DESC desc{&grad.desc, &out.desc, 4, offsets, sizes, strides};
  const Program p = Compile(DML_OPERATOR_SLICE_GRAD, &desc);
  ASSERT_EQ(p.steps.size(), 2u);
  EXPECT_EQ(p.steps[0].kind, StepKind::kFill);
  EXPECT_EQ(p.steps[0].fill_bits, 0u);
  EXPECT_EQ(p.steps[1].kind, StepKind::kAffineCopy);
  EXPECT_EQ(p.steps[1].out_base_bytes, 52);     // row 3, column 1
  EXPECT_EQ(p.steps[1].plan.in_base_bytes, 0);  // gradient row 0
  EXPECT_EQ(p.steps[1].plan.loops[0].out_stride_bytes, -2 * 4 * 4);  // two output rows up
}

// A dense window (unit strides; one of them reversed) of Tuning::min_fill_around_bytes: zero
// fills of the slabs around the window only, two per dimension where the window leaves room on
// both sides, then the copy. One byte less: one fill of the whole output, then the copy.
TEST(SliceGradProgramTest, DenseWindowFillsOnlyAroundIt) {
  const uint32_t window_cols = static_cast<uint32_t>(kDefaultTuning.min_fill_around_bytes / 4 / 2);
  Tensor grad(DML_TENSOR_DATA_TYPE_FLOAT32, {2, window_cols}),
      out(DML_TENSOR_DATA_TYPE_FLOAT32, {4, window_cols + 3});
  const uint32_t offsets[2] = {1, 2}, sizes[2] = {2, window_cols};
  const int32_t strides[2] = {1, -1};
  DML_SLICE_GRAD_OPERATOR_DESC desc{&grad.desc, &out.desc, 2, offsets, sizes, strides};
  const Program p = Compile(DML_OPERATOR_SLICE_GRAD, &desc);
  ASSERT_EQ(p.steps.size(), 5u);
  uint64_t filled_elems = 0;
  for (size_t k = 0; k < 4; ++k) {
    ASSERT_EQ(p.steps[k].kind, StepKind::kFill) << k;
    uint64_t elems = 1;
    for (uint32_t j = 0; j < p.steps[k].plan.loop_count; ++j) {
      elems *= static_cast<uint64_t>(p.steps[k].plan.loops[j].size);
    }
    filled_elems += elems;
  }
  const uint64_t out_elems = 4 * (uint64_t{window_cols} + 3);
  EXPECT_EQ(filled_elems, out_elems - 2 * window_cols);  // every element outside, once
  EXPECT_EQ(p.steps[4].kind, StepKind::kAffineCopy);
  // Rows read downwards (stride -1) are walked from the last: row 2, column 2.
  EXPECT_EQ(p.steps[4].out_base_bytes, (2 * (window_cols + 3) + 2) * 4);

  Tensor small_grad(DML_TENSOR_DATA_TYPE_FLOAT32, {2, window_cols - 1});
  const uint32_t small_sizes[2] = {2, window_cols - 1};
  DML_SLICE_GRAD_OPERATOR_DESC small{&small_grad.desc, &out.desc, 2, offsets, small_sizes,
                                     strides};
  const Program q = Compile(DML_OPERATOR_SLICE_GRAD, &small);
  ASSERT_EQ(q.steps.size(), 2u);
  EXPECT_EQ(q.steps[0].kind, StepKind::kFill);
  EXPECT_EQ(q.steps[1].kind, StepKind::kAffineCopy);
}

}  // namespace
}  // namespace internal
}  // namespace dmlcpu
