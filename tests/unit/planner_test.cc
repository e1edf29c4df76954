// SPDX-License-Identifier: Apache-2.0
// Planner unit tests: each transform with worked examples (docs/design.md#canonical-form), and
// the plan invariants, checked on every plan the tests build.
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "planner/planner.h"
#include "unit/plan_test_util.h"

namespace dmlcpu {
namespace internal {
namespace {

using plan_test::AxisZeroGatherElementsPlan;
using plan_test::CompilePlan;
using plan_test::CompileSlice1;
using plan_test::Tensor;

TEST(CollapseTest, KvCacheWindowBecomes512RunsOf256KiB) {
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT16, {8, 64, 2048, 128});
  Tensor out(DML_TENSOR_DATA_TYPE_FLOAT16, {8, 64, 1024, 128});
  const Plan plan = CompileSlice1(in, out, {0, 0, 512, 0}, {8, 64, 1024, 128}, {1, 1, 1, 1});
  ASSERT_EQ(plan.loop_count, 2u);
  EXPECT_EQ(plan.loops[0].size, 512);
  EXPECT_EQ(plan.loops[0].out_stride_bytes, 256 << 10);
  EXPECT_EQ(plan.loops[0].in_stride_bytes, 512 << 10);
  EXPECT_EQ(plan.loops[1].size * 2, 256 << 10);
  EXPECT_EQ(plan.in_base_bytes, 512 * 128 * 2);
  EXPECT_EQ(plan.shape, KernelShape::kRowsOfRuns);
}

TEST(CollapseTest, FullExtentSliceIsOneRun) {
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {3, 5, 7, 11});
  Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {3, 5, 7, 11});
  const Plan plan = CompileSlice1(in, out, {0, 0, 0, 0}, {3, 5, 7, 11}, {1, 1, 1, 1});
  ASSERT_EQ(plan.loop_count, 1u);
  EXPECT_EQ(plan.loops[0].size, 3 * 5 * 7 * 11);
  EXPECT_EQ(plan.shape, KernelShape::kOneRun);
}

TEST(CollapseTest, StepTwoOnBothAxesGivesStridedInner) {
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {4096, 4096});
  Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {2048, 2048});
  const Plan plan = CompileSlice1(in, out, {0, 0}, {4096, 4096}, {2, 2});
  ASSERT_EQ(plan.loop_count, 2u);
  EXPECT_EQ(plan.loops[0].size, 2048);
  EXPECT_EQ(plan.loops[0].in_stride_bytes, 2 * 4096 * 4);
  EXPECT_EQ(plan.loops[1].size, 2048);
  EXPECT_EQ(plan.loops[1].in_stride_bytes, 8);
  EXPECT_EQ(plan.loops[1].out_stride_bytes, 4);
  EXPECT_EQ(plan.shape, KernelShape::kStridedInner);
}

TEST(CollapseTest, NegativeStrideFoldsIntoBaseOffset) {
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {16, 32});
  Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {16, 32});
  const Plan plan = CompileSlice1(in, out, {0, 0}, {16, 32}, {1, -1});
  ASSERT_EQ(plan.loop_count, 2u);
  EXPECT_EQ(plan.loops[1].in_stride_bytes, -4);
  // The rows read downwards, so they are walked from the last (OrientForInputStream): the
  // input is one descending stream, the output's rows are written from the last.
  EXPECT_EQ(plan.in_base_bytes, 15 * 32 * 4 + 31 * 4);
  EXPECT_EQ(plan.loops[0].in_stride_bytes, -32 * 4);
  EXPECT_EQ(plan.loops[0].out_stride_bytes, -32 * 4);
  // Flipping the outer axis keeps whole rows contiguous: rows of runs, read in address order
  // and written from the last output row.
  const Plan flip_rows = CompileSlice1(in, out, {0, 0}, {16, 32}, {-1, 1});
  ASSERT_EQ(flip_rows.loop_count, 2u);
  EXPECT_EQ(flip_rows.in_base_bytes, 0);
  EXPECT_EQ(flip_rows.loops[0].in_stride_bytes, 32 * 4);
  EXPECT_EQ(flip_rows.loops[0].out_stride_bytes, -32 * 4);
  EXPECT_EQ(flip_rows.shape, KernelShape::kRowsOfRuns);
}

TEST(CollapseTest, DropsSizeOneDimsAndKeepsUnmergeable) {
  Loop loops[4];
  loops[0] = {1, 0, 0, 0};
  loops[1] = {4, 40, 80, 0};  // padded input rows: not mergeable with the inner loop
  loops[2] = {1, 4, 4, 0};
  loops[3] = {10, 4, 4, 0};
  ASSERT_EQ(CollapseLoops(loops, 4, 4), 2u);
  EXPECT_EQ(loops[0].size, 4);
  EXPECT_EQ(loops[1].size, 10);
}

TEST(CollapseTest, MergesIndexStridesToo) {
  Loop loops[2] = {{3, 24, 24, 48}, {6, 4, 4, 8}};
  ASSERT_EQ(CollapseLoops(loops, 2, 4), 1u);
  EXPECT_EQ(loops[0].size, 18);
  EXPECT_EQ(loops[0].idx_stride_bytes, 8);
}

TEST(CollapseTest, AllOnesIsOneElement) {
  Loop loops[3] = {{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
  ASSERT_EQ(CollapseLoops(loops, 3, 8), 1u);
  EXPECT_EQ(loops[0].size, 1);
  EXPECT_EQ(loops[0].out_stride_bytes, 8);
}

TEST(CanonicalTest, EmbeddingLookupIsBlockGatherOfRows) {
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {32000, 4096});
  Tensor idx(DML_TENSOR_DATA_TYPE_INT64, {1, 512});
  Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {512, 4096});
  DML_GATHER_OPERATOR_DESC gather = {&in.desc, &idx.desc, &out.desc, 0, 1};
  Plan plan;
  ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER, &gather}, false, &plan).ok());
  ASSERT_EQ(plan.loop_count, 2u);
  EXPECT_EQ(plan.loops[0].size, 512);
  EXPECT_EQ(plan.loops[0].idx_stride_bytes, 8);
  EXPECT_EQ(plan.loops[0].in_stride_bytes, 0);
  EXPECT_EQ(plan.loops[1].size, 4096);
  ASSERT_EQ(plan.component_count, 1u);
  EXPECT_EQ(plan.components[0].dim_size, 32000u);
  EXPECT_EQ(plan.components[0].pitch_bytes, 4096 * 4);
  EXPECT_EQ(plan.shape, KernelShape::kBlockGather);
  EXPECT_TRUE(plan.partition.parallel);
}

TEST(CanonicalTest, GatherElementsLastAxisIsElementGather) {
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {64, 100});
  Tensor idx(DML_TENSOR_DATA_TYPE_INT32, {64, 7});
  Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {64, 7});
  DML_GATHER_ELEMENTS_OPERATOR_DESC ge = {&in.desc, &idx.desc, &out.desc, 1};
  Plan plan;
  ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER_ELEMENTS, &ge}, false, &plan).ok());
  ASSERT_EQ(plan.loop_count, 2u);
  EXPECT_EQ(plan.loops[1].in_stride_bytes, 0);
  EXPECT_EQ(plan.loops[1].idx_stride_bytes, 4);
  EXPECT_EQ(plan.loops[0].in_stride_bytes, 400);
  EXPECT_EQ(plan.shape, KernelShape::kElementGather);
}

TEST(CanonicalTest, GatherNdTuplesBecomeComponents) {
  // Input {1,2,2,2}, r = 3, indices {1,1,2,2}, q = 2 (example ND-2): out[y,x] = in[i0, i1, x].
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 2, 2, 2});
  Tensor idx(DML_TENSOR_DATA_TYPE_UINT32, {1, 1, 2, 2});
  Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 1, 2, 2});
  DML_GATHER_ND_OPERATOR_DESC nd = {&in.desc, &idx.desc, &out.desc, 3, 2};
  Plan plan;
  Program program;
  ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER_ND, &nd}, true, &plan, 0, &program).ok());
  ASSERT_EQ(plan.component_count, 2u);
  EXPECT_EQ(plan.components[0].pitch_bytes, 16);
  EXPECT_EQ(plan.components[1].pitch_bytes, 8);
  EXPECT_EQ(plan.components[1].idx_offset_bytes, 4);
  EXPECT_EQ(plan.shape, KernelShape::kBlockGather);
  // Strict scans: one per tuple element, over the 2 tuples.
  EXPECT_EQ(program.index_scans.scan_count, 2u);
  EXPECT_EQ(program.index_scans.tuple_size, 2u);
  EXPECT_EQ(program.index_scans.scans[1].offset_bytes, 4);
}

TEST(PartitionTest, SmallWorkStaysSerial) {
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {4, 16});
  Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {2, 8});
  const Plan plan = CompileSlice1(in, out, {1, 2}, {2, 8}, {1, 1});
  EXPECT_FALSE(plan.partition.parallel);
  EXPECT_EQ(plan.partition.unit_count, 2u);
}

TEST(PartitionTest, HugeSingleRunIsSplitOn64ByteBoundaries) {
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {1 << 22});
  Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {1 << 22});
  const Plan plan = CompileSlice1(in, out, {0}, {1 << 22}, {1});
  const Partition& p = plan.partition;
  EXPECT_TRUE(p.parallel);
  EXPECT_EQ(p.rows, 1u);
  EXPECT_GT(p.pieces_per_row, 1u);
  EXPECT_EQ((p.piece_items * 4) % 64, 0u);
  EXPECT_GE(p.piece_items * p.pieces_per_row, p.row_items);
  EXPECT_LT((p.pieces_per_row - 1) * p.piece_items, p.row_items);
}

TEST(PartitionTest, ManySmallRowsGetAGrain) {
  // Rows of the padded input cannot merge: 65536 rows of 16 strided elements.
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {65536, 33});
  Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {65536, 16});
  const Plan plan = CompileSlice1(in, out, {0, 0}, {65536, 32}, {1, 2});
  ASSERT_EQ(plan.loop_count, 2u);
  EXPECT_EQ(plan.partition.rows, 65536u);
  EXPECT_TRUE(plan.partition.parallel);
  EXPECT_EQ(plan.partition.pieces_per_row, 1u);
  EXPECT_GT(plan.partition.grain_units, 1u);
}

TEST(DescribeTest, NamesKernelAndLoops) {
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT16, {8, 64, 2048, 128});
  Tensor out(DML_TENSOR_DATA_TYPE_FLOAT16, {8, 64, 1024, 128});
  const std::vector<uint32_t> offsets = {0, 0, 512, 0}, sizes = {8, 64, 1024, 128};
  const std::vector<int32_t> strides = {1, 1, 1, 1};
  DML_SLICE1_OPERATOR_DESC slice = {&in.desc, &out.desc, 4, offsets.data(), sizes.data(),
                                    strides.data()};
  Plan plan;
  Program program;
  ASSERT_TRUE(CompilePlan({DML_OPERATOR_SLICE1, &slice}, false, &plan, 0, &program).ok());
  const std::string text = DescribeProgram(program);
  EXPECT_NE(text.find("K1 rows of contiguous runs"), std::string::npos) << text;
  EXPECT_NE(text.find("step 0: affine copy inputs[0] (InputTensor) -> outputs[0]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("strategy: rows of runs"), std::string::npos) << text;
  EXPECT_NE(text.find("[0] 512:"), std::string::npos) << text;
  EXPECT_NE(text.find("SLICE1"), std::string::npos) << text;
}

// Permuted copies spelled as a full SLICE1 of a strided view (what IDENTITY and DEPTH_TO_SPACE
// compile to): which strategy, tiles and store policy each gets.
TEST(PermutedCopyTest, TransposesGetTransposeTiles) {
  // NCHW -> NHWC of {32, 64, 56, 56} fp32: {N, H*W, C} with C read 3136 elements apart. The
  // output rows (C) are 256 bytes: tiles one output line wide (line_tile_max_row_bytes), 64 x 16
  // tiles of (H*W) x C, the 4 channel blocks outside the sweep along H*W; streamed (input and
  // output together exceed the cache).
  Tensor nchw(DML_TENSOR_DATA_TYPE_FLOAT32, {32, 56, 56, 64}, {200704, 56, 1, 3136});
  Tensor nhwc(DML_TENSOR_DATA_TYPE_FLOAT32, {32, 56, 56, 64});
  const Plan to_nhwc = CompileSlice1(nchw, nhwc, {0, 0, 0, 0}, {32, 56, 56, 64}, {1, 1, 1, 1});
  EXPECT_EQ(to_nhwc.strategy, Strategy::kTransposeTiles);
  ASSERT_EQ(to_nhwc.loop_count, 5u);
  EXPECT_EQ(to_nhwc.loops[1].size, 4);  // channel blocks of one output line
  EXPECT_EQ(to_nhwc.loops[1].in_stride_bytes, 16 * 3136 * 4);
  EXPECT_EQ(to_nhwc.loops[1].out_stride_bytes, 64);
  EXPECT_EQ(to_nhwc.loops[2].size, 49);  // 3136 / 64 tiles along H*W
  EXPECT_EQ(to_nhwc.loops[3].size, 64);
  EXPECT_EQ(to_nhwc.loops[3].in_stride_bytes, 4);
  EXPECT_EQ(to_nhwc.loops[4].size, 16);
  EXPECT_EQ(to_nhwc.loops[4].in_stride_bytes, 3136 * 4);
  EXPECT_TRUE(to_nhwc.store.non_temporal);
  EXPECT_EQ(to_nhwc.partition.unit_count, 32u * 4u * 49u);
  // Output rows of 512 bytes (128 channels) keep tiles of 64 channels.
  Tensor wide(DML_TENSOR_DATA_TYPE_FLOAT32, {8, 56, 56, 128}, {401408, 56, 1, 3136});
  Tensor wide_out(DML_TENSOR_DATA_TYPE_FLOAT32, {8, 56, 56, 128});
  const Plan wide_plan =
      CompileSlice1(wide, wide_out, {0, 0, 0, 0}, {8, 56, 56, 128}, {1, 1, 1, 1});
  EXPECT_EQ(wide_plan.strategy, Strategy::kTransposeTiles);
  EXPECT_EQ(wide_plan.loops[wide_plan.loop_count - 1].size, 64);

  // DepthToSpace {1, 256, 128, 128} fp32, block 2, DCR: the 6-D view {n, c, h, i, w, j}. The
  // row is the 2-element j loop (channels 64 apart): a narrow transpose whose tile is the
  // whole w loop, 128 x 2 (1 KiB written per tile).
  Tensor dcr(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 64, 128, 2, 128, 2},
             {4194304, 16384, 128, 2097152, 1, 1048576});
  Tensor space(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 64, 128, 2, 128, 2});
  const std::vector<uint32_t> zeros(6, 0), whole = {1, 64, 128, 2, 128, 2};
  const std::vector<int32_t> ones(6, 1);
  const Plan d2s = CompileSlice1(dcr, space, zeros, whole, ones);
  EXPECT_EQ(d2s.strategy, Strategy::kTransposeTiles);
  const Loop& tile_rows = d2s.loops[d2s.loop_count - 2];
  const Loop& tile_cols = d2s.loops[d2s.loop_count - 1];
  EXPECT_EQ(tile_rows.size, 128);
  EXPECT_EQ(tile_rows.out_stride_bytes, 8);
  EXPECT_EQ(tile_cols.size, 2);
  EXPECT_EQ(tile_cols.in_stride_bytes, 1048576 * 4);
  // 16 MiB out, 32 MiB with the input: permuted copies stream from half the cache on any
  // thread count (a plain copy's rows would keep regular stores on two threads).
  EXPECT_TRUE(d2s.store.non_temporal);
  // CRD: channel c*4 + i*2 + j, the pair 1 channel apart; the same tiles.
  Tensor crd(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 64, 128, 2, 128, 2},
             {4194304, 65536, 128, 32768, 1, 16384});
  const Plan d2s_crd = CompileSlice1(crd, space, zeros, whole, ones);
  EXPECT_EQ(d2s_crd.strategy, Strategy::kTransposeTiles);
  EXPECT_EQ(d2s_crd.loops[d2s_crd.loop_count - 2].size, 128);
  EXPECT_EQ(d2s_crd.loops[d2s_crd.loop_count - 1].size, 2);

  // A narrow transpose along a long walk: tiles of 4 KiB written (512 x 2 fp32).
  Tensor pairs(DML_TENSOR_DATA_TYPE_FLOAT32, {4096, 2}, {1, 4096});
  Tensor packed_pairs(DML_TENSOR_DATA_TYPE_FLOAT32, {4096, 2});
  const Plan long_walk = CompileSlice1(pairs, packed_pairs, {0, 0}, {4096, 2}, {1, 1});
  EXPECT_EQ(long_walk.strategy, Strategy::kTransposeTiles);
  EXPECT_EQ(long_walk.loops[long_walk.loop_count - 2].size, 512);
}

TEST(PermutedCopyTest, AttentionHeadsAreRowsOfRunsInStreamTiles) {
  // {1, 32, 2048, 128} fp16 with perm {0, 2, 1, 3}: rows of 256-byte runs (K1), not a
  // transpose; the heads loop jumps 512 KiB in the input, so the sequence loop is tiled under
  // it: 256 rows (64 KiB, run_tile_read_bytes) of 4 heads (run_tile_streams) at a time, the
  // 4 heads' runs of each sequence row written back to back.
  Tensor heads(DML_TENSOR_DATA_TYPE_FLOAT16, {1, 2048, 32, 128}, {8388608, 128, 262144, 1});
  Tensor seq(DML_TENSOR_DATA_TYPE_FLOAT16, {1, 2048, 32, 128});
  const Plan plan = CompileSlice1(heads, seq, {0, 0, 0, 0}, {1, 2048, 32, 128}, {1, 1, 1, 1});
  EXPECT_EQ(plan.shape, KernelShape::kRowsOfRuns);
  EXPECT_EQ(plan.strategy, Strategy::kRowsOfRuns);
  EXPECT_EQ(plan.tiling, Tiling::kRunTiles);
  ASSERT_EQ(plan.loop_count, 5u);
  EXPECT_EQ(plan.loops[0].size, 8);
  EXPECT_EQ(plan.loops[0].in_stride_bytes, 65536);
  EXPECT_EQ(plan.loops[1].size, 8);
  EXPECT_EQ(plan.loops[1].in_stride_bytes, 4 * 524288);
  EXPECT_EQ(plan.loops[1].out_stride_bytes, 1024);
  EXPECT_EQ(plan.loops[2].size, 256);
  EXPECT_EQ(plan.loops[2].in_stride_bytes, 256);
  EXPECT_EQ(plan.loops[2].out_stride_bytes, 8192);
  EXPECT_EQ(plan.loops[3].size, 4);
  EXPECT_EQ(plan.loops[3].in_stride_bytes, 524288);
  EXPECT_EQ(plan.loops[3].out_stride_bytes, 256);
  EXPECT_EQ(plan.loops[4].size, 128);
  EXPECT_TRUE(plan.store.non_temporal);  // 16 MiB out: half the cache with the input
  // Heads whose runs are not adjacent in the output (a head-major output, every other run
  // written): tiled by streams one at a time, as the split needs adjacent runs.
  Tensor gapped(DML_TENSOR_DATA_TYPE_FLOAT16, {1, 2048, 32, 128}, {8388608, 8192, 256, 1});
  const Plan one_stream =
      CompileSlice1(heads, gapped, {0, 0, 0, 0}, {1, 2048, 32, 128}, {1, 1, 1, 1});
  EXPECT_EQ(one_stream.tiling, Tiling::kRunTiles);
  ASSERT_EQ(one_stream.loop_count, 4u);
  EXPECT_EQ(one_stream.loops[1].size, 32);
  EXPECT_EQ(one_stream.loops[2].size, 256);
  // Four heads are too few streams to tile; long runs need no tiles either.
  Tensor few(DML_TENSOR_DATA_TYPE_FLOAT16, {1, 2048, 4, 128}, {1048576, 128, 262144, 1});
  Tensor few_out(DML_TENSOR_DATA_TYPE_FLOAT16, {1, 2048, 4, 128});
  EXPECT_EQ(CompileSlice1(few, few_out, {0, 0, 0, 0}, {1, 2048, 4, 128}, {1, 1, 1, 1}).tiling,
            Tiling::kNone);
  Tensor long_runs(DML_TENSOR_DATA_TYPE_FLOAT16, {64, 32, 4096}, {4096, 262144, 1});
  Tensor long_out(DML_TENSOR_DATA_TYPE_FLOAT16, {64, 32, 4096});
  EXPECT_EQ(CompileSlice1(long_runs, long_out, {0, 0, 0}, {64, 32, 4096}, {1, 1, 1}).tiling,
            Tiling::kNone);
}

// One descriptor per strategy: ChooseStrategy picks each of them somewhere.
TEST(StrategyTest, EachStrategyHasItsCase) {
  auto slice_strategy = [](const Tensor& in, const Tensor& out, std::vector<uint32_t> offsets,
                           std::vector<uint32_t> sizes, std::vector<int32_t> strides) {
    return CompileSlice1(in, out, std::move(offsets), std::move(sizes), std::move(strides))
        .strategy;
  };
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {64, 64});
  Tensor whole(DML_TENSOR_DATA_TYPE_FLOAT32, {64, 64});
  Tensor half(DML_TENSOR_DATA_TYPE_FLOAT32, {64, 32});
  EXPECT_EQ(slice_strategy(in, whole, {0, 0}, {64, 64}, {1, 1}), Strategy::kContiguousRun);
  EXPECT_EQ(slice_strategy(in, half, {0, 0}, {64, 32}, {1, 1}), Strategy::kRowsOfRuns);
  EXPECT_EQ(slice_strategy(in, half, {0, 0}, {64, 64}, {1, 2}), Strategy::kStridedRows);
  // A transposed view of {256, 256}: the input walked with strides {1, 256}.
  Tensor view(DML_TENSOR_DATA_TYPE_FLOAT32, {256, 256}, {1, 256});
  Tensor copy(DML_TENSOR_DATA_TYPE_FLOAT32, {256, 256});
  EXPECT_EQ(slice_strategy(view, copy, {0, 0}, {256, 256}, {1, 1}), Strategy::kTransposeTiles);

  Tensor table(DML_TENSOR_DATA_TYPE_FLOAT32, {1000, 64});
  Tensor ids(DML_TENSOR_DATA_TYPE_INT32, {1, 300});
  Tensor rows(DML_TENSOR_DATA_TYPE_FLOAT32, {300, 64});
  DML_GATHER_OPERATOR_DESC lookup = {&table.desc, &ids.desc, &rows.desc, 0, 1};
  Plan plan;
  ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER, &lookup}, false, &plan).ok());
  EXPECT_EQ(plan.strategy, Strategy::kIndexedBlocks);
  // One index per row, each row a strided block (every other element of a padded table).
  Tensor strided_table(DML_TENSOR_DATA_TYPE_FLOAT32, {1000, 64}, {128, 2});
  DML_GATHER_OPERATOR_DESC strided_lookup = {&strided_table.desc, &ids.desc, &rows.desc, 0, 1};
  ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER, &strided_lookup}, false, &plan).ok());
  EXPECT_EQ(plan.strategy, Strategy::kBlockRows);
  // GATHER_ND of element pairs: two index components, an index tuple per element.
  Tensor nd_in(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 1, 64, 64});
  Tensor tuples(DML_TENSOR_DATA_TYPE_INT32, {1, 1, 8, 2});
  Tensor picked(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 1, 1, 8});
  DML_GATHER_ND_OPERATOR_DESC elements = {&nd_in.desc, &tuples.desc, &picked.desc, 2, 2};
  ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER_ND, &elements}, false, &plan).ok());
  EXPECT_EQ(plan.strategy, Strategy::kElementRows);

  Tensor ge_idx(DML_TENSOR_DATA_TYPE_INT64, {64, 7});
  Tensor ge_out(DML_TENSOR_DATA_TYPE_FLOAT32, {64, 7});
  DML_GATHER_ELEMENTS_OPERATOR_DESC last_axis = {&in.desc, &ge_idx.desc, &ge_out.desc, 1};
  ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER_ELEMENTS, &last_axis}, false, &plan).ok());
  EXPECT_EQ(plan.strategy, Strategy::kFusedRowGather);
  Tensor inner_ids(DML_TENSOR_DATA_TYPE_INT32, {1, 7});
  DML_GATHER_OPERATOR_DESC inner = {&in.desc, &inner_ids.desc, &ge_out.desc, 1, 1};
  ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER, &inner}, false, &plan).ok());
  EXPECT_EQ(plan.strategy, Strategy::kSharedIndexRows);
  plan = AxisZeroGatherElementsPlan(DML_TENSOR_DATA_TYPE_FLOAT32, 4096, 4096, 4096);
  EXPECT_EQ(plan.strategy, Strategy::kPackedStrips);
}

// CheckPlanInvariants rejects each illegal combination, naming the rule.
TEST(InvariantTest, RejectsIllegalCombinations) {
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {64, 100});
  Tensor idx(DML_TENSOR_DATA_TYPE_INT64, {64, 7});
  Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {64, 7});
  DML_GATHER_ELEMENTS_OPERATOR_DESC ge = {&in.desc, &idx.desc, &out.desc, 1};
  Plan fused;
  ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER_ELEMENTS, &ge}, false, &fused).ok());
  ASSERT_EQ(fused.strategy, Strategy::kFusedRowGather);
  ASSERT_TRUE(CheckPlanInvariants(fused).ok());
  auto rejects = [](const Plan& plan, const char* rule) {
    const Status s = CheckPlanInvariants(plan);
    EXPECT_EQ(s.code(), StatusCode::kInternal) << rule;
    EXPECT_NE(s.message().find(rule), std::string::npos) << s.message();
  };
  Plan bad = fused;
  bad.strategy = Strategy::kIndexedBlocks;  // a block strategy on element rows
  rejects(bad, "needs shape K3 block gather");
  bad = fused;
  bad.gather_row = nullptr;
  rejects(bad, "fused row gather without gather_row");
  bad = fused;
  bad.merge_runs = true;
  rejects(bad, "merge_runs with strategy fused row gather");
  bad = fused;
  bad.prefetch.input_stream = true;  // element gathers take no input-stream prefetch
  rejects(bad, "input-stream prefetch with strategy fused row gather");
  bad = fused;
  bad.prefetch.next_row_items = true;
  rejects(bad, "next-row item prefetch with strategy fused row gather");
  bad = fused;
  bad.pack_bytes = 4096;
  rejects(bad, "pack_bytes 4096 with strategy fused row gather");

  Tensor slice_in(DML_TENSOR_DATA_TYPE_FLOAT32, {64, 64});
  Tensor slice_out(DML_TENSOR_DATA_TYPE_FLOAT32, {64, 32});
  Plan rows = CompileSlice1(slice_in, slice_out, {0, 0}, {64, 32}, {1, 1});
  ASSERT_EQ(rows.strategy, Strategy::kRowsOfRuns);
  bad = rows;
  bad.shape = KernelShape::kStridedInner;  // the loops still classify as rows of runs
  rejects(bad, "shape K2 strided inner dimension, but the loops classify as K1");
  bad = rows;
  bad.tiling = Tiling::kTransposeTiles;
  rejects(bad, "tiling 2-D transpose tiles with strategy rows of runs");
  Plan strided = CompileSlice1(slice_in, slice_out, {0, 0}, {64, 64}, {1, 2});
  ASSERT_EQ(strided.strategy, Strategy::kStridedRows);
  bad = strided;
  bad.loops[bad.loop_count - 1].out_stride_bytes = 8;  // a strided output row...
  bad.store.non_temporal = true;                       // ...cannot stream
  rejects(bad, "non-temporal stores need a contiguous output row");
  bad = rows;
  bad.partition.align_units = 3;  // 64 rows do not split in blocks of 3
  rejects(bad, "must be whole multiples of the alignment");
}

TEST(BufferSizeTest, WorkedNumbersFromTheSpec) {
  const uint32_t a[] = {1, 1, 3, 5};
  EXPECT_EQ(CalcTensorBytes(DML_TENSOR_DATA_TYPE_FLOAT16, 4, a, nullptr), 32u);
  const uint32_t b[] = {2, 3}, b_strides[] = {0, 1};
  EXPECT_EQ(CalcTensorBytes(DML_TENSOR_DATA_TYPE_FLOAT32, 2, b, b_strides), 12u);
  const uint32_t c[] = {5};
  EXPECT_EQ(CalcTensorBytes(DML_TENSOR_DATA_TYPE_UINT4, 1, c, nullptr), 4u);
  // 64-bit arithmetic: the last element offset 0xFFFF * 0x10001 + 0x10000 = 0x10000FFFF would
  // wrap the 32-bit accumulator of the reference helper.
  const uint32_t d[] = {0x10000, 0x10001}, d_strides[] = {0x10001, 1};
  EXPECT_EQ(CalcTensorBytes(DML_TENSOR_DATA_TYPE_UINT8, 2, d, d_strides), 0x100010000ull);
  // Overflow of 64 bits is reported as 0, never wrapped.
  const uint32_t e[] = {0xFFFFFFFFu, 0xFFFFFFFFu}, e_strides[] = {0xFFFFFFFFu, 0xFFFFFFFFu};
  EXPECT_EQ(CalcTensorBytes(DML_TENSOR_DATA_TYPE_UINT64, 2, e, e_strides), 0u);
  EXPECT_EQ(CalcTensorBytes(DML_TENSOR_DATA_TYPE_UNKNOWN, 1, c, nullptr), 0u);
}

}  // namespace
}  // namespace internal
}  // namespace dmlcpu
