// SPDX-License-Identifier: Apache-2.0
// The planner's fast-path choices, each with the shape that decides it: block-gather prefetch,
// stream stores against the output and footprint, element gathers, fused row gathers and the
// packed strips of axis-0 GATHER_ELEMENTS.
#include <algorithm>
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

// Who prefetches index-chosen blocks (regular stores: outputs below 32 MiB): the executor's
// stream prefetcher below kernels::kMinPrefetchBlockBytes, the block kernel from there on.
TEST(FastPathTest, BlockGatherPrefetchDependsOnBlockSize) {
  for (uint32_t block_elems : {16u, 31u, 32u, 64u, 256u}) {
    Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {4096, block_elems});
    Tensor idx(DML_TENSOR_DATA_TYPE_INT32, {1, 2048});
    Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {2048, block_elems});
    DML_GATHER_OPERATOR_DESC gather = {&in.desc, &idx.desc, &out.desc, 0, 1};
    Plan plan;
    ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER, &gather}, false, &plan).ok());
    ASSERT_TRUE((plan.strategy == Strategy::kIndexedBlocks)) << block_elems;
    EXPECT_FALSE(plan.store.non_temporal) << block_elems;
    EXPECT_EQ(plan.prefetch.input_stream, block_elems * 4 < kernels::kMinPrefetchBlockBytes)
        << block_elems;
  }
}

// Non-temporal stores: outputs of 32 MiB and more; plain-copy and forward de-interleaved rows
// also when their footprint (output + input lines read: at most the output again, k times that
// for every k-th element) exceeds 32 MiB; other strided rows not.
// Which source strides copy_strided_stream writes itself: forward, 1 to 4 whole elements.
static_assert(dmlcpu::kernels::StreamsDirectly(4, 4) && dmlcpu::kernels::StreamsDirectly(16, 4));
static_assert(dmlcpu::kernels::StreamsDirectly(2, 1) && dmlcpu::kernels::StreamsDirectly(32, 8));
static_assert(!dmlcpu::kernels::StreamsDirectly(0, 4) && !dmlcpu::kernels::StreamsDirectly(-4, 4));
static_assert(!dmlcpu::kernels::StreamsDirectly(-8, 4) && !dmlcpu::kernels::StreamsDirectly(2, 4));
static_assert(!dmlcpu::kernels::StreamsDirectly(20, 4) && !dmlcpu::kernels::StreamsDirectly(6, 4));

TEST(FastPathTest, StreamStoresFollowOutputAndFootprint) {
  struct Case {
    std::vector<uint32_t> table;  // GATHER axis 0 of a {rows, cols} fp32 table
    uint32_t ids;
    bool stream;
  };
  // {table rows, row elements}, ids -> output ids x row: 20 MiB out of a large table (40 MiB
  // footprint), 16 MiB out (32 MiB, fits), 8 MiB out (16 MiB), 20 MiB out of an 8 MiB table
  // (28 MiB), 32 MiB out.
  const Case cases[] = {{{65536, 512}, 10240, true},
                        {{128256, 2048}, 2048, false},
                        {{32000, 4096}, 512, false},
                        {{2048, 1024}, 5120, false},
                        {{1024, 1024}, 8192, true}};
  for (const Case& c : cases) {
    Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, c.table);
    Tensor idx(DML_TENSOR_DATA_TYPE_INT32, {1, c.ids});
    Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {c.ids, c.table[1]});
    DML_GATHER_OPERATOR_DESC gather = {&in.desc, &idx.desc, &out.desc, 0, 1};
    Plan plan;
    ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER, &gather}, false, &plan).ok());
    EXPECT_EQ(plan.store.non_temporal, c.stream)
        << c.table[0] << " x " << c.table[1] << ", " << c.ids;
  }
  // De-interleaves are streamed by the strided kernel itself on the footprint rule, of
  // {4096, 4096} fp32: [::2, ::2] (16 MiB out, 48 MiB footprint: every other row read whole),
  // [:, 1::3] (22 MB out, 86 MB). Every third element backwards (22 MB out) is staged to
  // stream, so it keeps to the output-size rule: regular stores. A last-axis flip (64 MiB out)
  // streams through the staging buffer; descending rows of thirds use the stream prefetcher,
  // whose steps the kernel would end with regular stores: staged too.
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {4096, 4096});
  Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {2048, 2048});
  const Plan halves_plan = CompileSlice1(in, out, {0, 0}, {4096, 4096}, {2, 2});
  EXPECT_TRUE(halves_plan.store.non_temporal);
  EXPECT_NE(halves_plan.copy_strided_stream, nullptr);
  Tensor thirds(DML_TENSOR_DATA_TYPE_FLOAT32, {4096, 1365});
  const Plan thirds_plan = CompileSlice1(in, thirds, {0, 1}, {4096, 4095}, {1, 3});
  EXPECT_TRUE(thirds_plan.store.non_temporal);
  EXPECT_NE(thirds_plan.copy_strided_stream, nullptr);
  EXPECT_FALSE(CompileSlice1(in, thirds, {0, 1}, {4096, 4095}, {1, -3}).store.non_temporal);
  Tensor flipped(DML_TENSOR_DATA_TYPE_FLOAT32, {4096, 4096});
  const Plan flip_plan = CompileSlice1(in, flipped, {0, 0}, {4096, 4096}, {1, -1});
  EXPECT_TRUE(flip_plan.store.non_temporal);
  EXPECT_EQ(flip_plan.copy_strided_stream, nullptr);
  const Plan descending_plan = CompileSlice1(in, thirds, {0, 1}, {4096, 4095}, {-1, 3});
  EXPECT_TRUE(descending_plan.store.non_temporal);
  EXPECT_TRUE(descending_plan.prefetch.input_stream);
  EXPECT_EQ(descending_plan.copy_strided_stream, nullptr);
  // The operator tests' other de-interleaves: every other fp16 (33.6 MB out), every third byte
  // (16.9 MB out, 67 MB footprint), every other fp64 (33.6 MB out).
  Tensor in16(DML_TENSOR_DATA_TYPE_FLOAT16, {4096, 8200});
  Tensor out16(DML_TENSOR_DATA_TYPE_FLOAT16, {4096, 4100}, {4101, 1});
  EXPECT_NE(CompileSlice1(in16, out16, {0, 0}, {4096, 8200}, {1, 2}).copy_strided_stream,
            nullptr);
  Tensor in8(DML_TENSOR_DATA_TYPE_UINT8, {4096, 12360});
  Tensor out8(DML_TENSOR_DATA_TYPE_UINT8, {4096, 4120});
  EXPECT_NE(CompileSlice1(in8, out8, {0, 2}, {4096, 12358}, {1, 3}).copy_strided_stream,
            nullptr);
  Tensor in64(DML_TENSOR_DATA_TYPE_FLOAT64, {2100, 4000});
  Tensor out64(DML_TENSOR_DATA_TYPE_FLOAT64, {2100, 2000});
  EXPECT_NE(CompileSlice1(in64, out64, {0, 0}, {2100, 4000}, {1, 2}).copy_strided_stream,
            nullptr);
  // Contiguous slices from 64 MiB: 20 MiB out (40 MiB footprint) streamed, 16 MiB (32) not.
  Tensor part(DML_TENSOR_DATA_TYPE_FLOAT32, {4096, 1280});
  EXPECT_TRUE(CompileSlice1(in, part, {0, 1024}, {4096, 1280}, {1, 1}).store.non_temporal);
  Tensor quarter(DML_TENSOR_DATA_TYPE_FLOAT32, {4096, 1024});
  EXPECT_FALSE(CompileSlice1(in, quarter, {0, 1024}, {4096, 1024}, {1, 1}).store.non_temporal);
}

// On one thread, plain-copy rows stream where their footprint exceeds half the cache: GATHER
// axis 0 of 1 KiB rows, 16000 ids from an 8 MiB table (16 MB out, 25 MB footprint) streams for
// a single-thread plan only; a 512-id lookup of 16 KiB rows (8 MiB out, 16 MiB footprint:
// half, not more) for none. concurrency 0 (unknown) plans as for several threads.
TEST(FastPathTest, SingleThreadPlansStreamFootprintsAboveHalfTheCache) {
  struct Case {
    std::vector<uint32_t> table;
    uint32_t ids;
    bool single_thread_streams;
  };
  const Case cases[] = {{{8192, 256}, 16000, true}, {{32000, 4096}, 512, false}};
  for (const Case& c : cases) {
    Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, c.table);
    Tensor idx(DML_TENSOR_DATA_TYPE_INT64, {1, c.ids});
    Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {c.ids, c.table[1]});
    DML_GATHER_OPERATOR_DESC gather = {&in.desc, &idx.desc, &out.desc, 0, 1};
    for (uint32_t concurrency : {0u, 1u, 2u, 8u}) {
      Plan plan;
      ASSERT_TRUE(
          CompilePlan({DML_OPERATOR_GATHER, &gather}, false, &plan, concurrency).ok());
      EXPECT_EQ(plan.store.non_temporal, c.single_thread_streams && concurrency == 1)
          << c.table[1] << " x " << c.ids << ", concurrency " << concurrency;
    }
  }
}

// Element gathers with rows of 256 bytes or more stream from 8 MiB of output on (a quarter of
// the 32 MiB rule of plain copies): GATHER along axis 1 of {rows, 1024} fp32 with 512 shared
// ids writes rows x 2 KiB.
TEST(FastPathTest, ElementGathersStreamFromAQuarterOfTheCache) {
  for (uint32_t rows : {4095u, 4096u, 16384u}) {
    Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {rows, 1024});
    Tensor idx(DML_TENSOR_DATA_TYPE_INT64, {1, 512});
    Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {rows, 512});
    DML_GATHER_OPERATOR_DESC gather = {&in.desc, &idx.desc, &out.desc, 1, 1};
    Plan plan;
    ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER, &gather}, false, &plan).ok());
    ASSERT_EQ(plan.shape, KernelShape::kElementGather) << rows;
    EXPECT_TRUE((plan.strategy == Strategy::kSharedIndexRows)) << rows;
    EXPECT_EQ(plan.store.non_temporal, rows >= 4096) << rows;
  }
  // Rows below 256 bytes keep regular stores under this rule: 8 MiB of 32-id rows (128 bytes)
  // does not stream, of 64-id rows (256 bytes) does.
  for (uint32_t ids : {32u, 64u}) {
    const uint32_t rows = (8u << 20) / (ids * 4);
    Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {rows, 1024});
    Tensor idx(DML_TENSOR_DATA_TYPE_INT64, {1, ids});
    Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {rows, ids});
    DML_GATHER_OPERATOR_DESC gather = {&in.desc, &idx.desc, &out.desc, 1, 1};
    Plan plan;
    ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER, &gather}, false, &plan).ok());
    ASSERT_EQ(plan.shape, KernelShape::kElementGather) << ids;
    EXPECT_EQ(plan.store.non_temporal, ids == 64) << ids;
  }
  // The same byte count of GATHER_ELEMENTS along the last axis: 2048 x 1024 fp32 (8 MiB).
  for (uint32_t rows : {2047u, 2048u}) {
    Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {rows, 1024});
    Tensor idx(DML_TENSOR_DATA_TYPE_INT64, {rows, 1024});
    Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {rows, 1024});
    DML_GATHER_ELEMENTS_OPERATOR_DESC ge = {&in.desc, &idx.desc, &out.desc, 1};
    Plan plan;
    ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER_ELEMENTS, &ge}, false, &plan).ok());
    EXPECT_TRUE((plan.strategy == Strategy::kFusedRowGather)) << rows;
    EXPECT_EQ(plan.store.non_temporal, rows == 2048) << rows;
  }
}

// GATHER_ELEMENTS along the last axis fuses clamp and gather per row; along axis 0 (tiled
// strips, input stride along the row) and for rows sharing ids it does not.
TEST(FastPathTest, FusedRowGatherForLastAxisGatherElements) {
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {64, 100});
  Tensor idx(DML_TENSOR_DATA_TYPE_INT64, {64, 7});
  Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {64, 7});
  DML_GATHER_ELEMENTS_OPERATOR_DESC last = {&in.desc, &idx.desc, &out.desc, 1};
  Plan plan;
  ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER_ELEMENTS, &last}, false, &plan).ok());
  EXPECT_TRUE((plan.strategy == Strategy::kFusedRowGather));
  EXPECT_NE(plan.gather_row, nullptr);
  EXPECT_NE(DescribePlan(plan).find("clamped and gathered in one pass"), std::string::npos)
      << DescribePlan(plan);
  Tensor idx0(DML_TENSOR_DATA_TYPE_INT64, {7, 100});
  Tensor out0(DML_TENSOR_DATA_TYPE_FLOAT32, {7, 100});
  DML_GATHER_ELEMENTS_OPERATOR_DESC first = {&in.desc, &idx0.desc, &out0.desc, 0};
  ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER_ELEMENTS, &first}, false, &plan).ok());
  EXPECT_FALSE((plan.strategy == Strategy::kFusedRowGather));
  EXPECT_EQ(plan.gather_row, nullptr);
  // GATHER of the innermost axis: every row uses the same ids.
  Tensor ids(DML_TENSOR_DATA_TYPE_INT32, {1, 7});
  DML_GATHER_OPERATOR_DESC inner = {&in.desc, &ids.desc, &out.desc, 1, 1};
  ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER, &inner}, false, &plan).ok());
  EXPECT_TRUE((plan.strategy == Strategy::kSharedIndexRows));
  EXPECT_FALSE((plan.strategy == Strategy::kFusedRowGather));
}

// The fused pass also takes rows split into pieces and the single row of a 1-D GATHER, while the
// row reads from at most 512 KiB; beyond that, rows are resolved and loaded 8 at a time.
TEST(FastPathTest, FusedRowGatherUpToHalfAMegabyteOfSpan) {
  // 40000 fp32 ids per row: 640,000 bytes moved per row, split into pieces.
  for (uint32_t cols : {131072u, 131073u}) {  // spans of 512 KiB and 512 KiB + 4 bytes
    Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {2, cols});
    Tensor idx(DML_TENSOR_DATA_TYPE_INT64, {2, 40000});
    Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {2, 40000});
    DML_GATHER_ELEMENTS_OPERATOR_DESC ge = {&in.desc, &idx.desc, &out.desc, 1};
    Plan plan;
    ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER_ELEMENTS, &ge}, false, &plan).ok());
    ASSERT_GT(plan.partition.pieces_per_row, 1u);
    EXPECT_EQ((plan.strategy == Strategy::kFusedRowGather), cols == 131072u) << cols;
    EXPECT_EQ(plan.gather_row != nullptr, cols == 131072u) << cols;
  }
  for (uint32_t table : {1000u, 131073u}) {
    Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {table});
    Tensor idx(DML_TENSOR_DATA_TYPE_INT32, {5000});
    Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {5000});
    DML_GATHER_OPERATOR_DESC gather = {&in.desc, &idx.desc, &out.desc, 0, 1};
    Plan plan;
    ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER, &gather}, false, &plan).ok());
    ASSERT_EQ(plan.loop_count, 1u);
    EXPECT_EQ((plan.strategy == Strategy::kFusedRowGather), table == 1000u) << table;
  }
}

// GATHER_ELEMENTS along axis 0 of {4096,4096} fp32: strips of four 64-byte lines, packed (4096
// rows x 256 bytes), tasks of whole strips; not packed where few rows share a strip, nor where a
// strip would not fit 512 KiB packed (that one keeps the unpacked 256-byte strips).
TEST(FastPathTest, AxisZeroGatherElementsPacksLineStrips) {
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {4096, 4096});
  Tensor idx(DML_TENSOR_DATA_TYPE_INT64, {4096, 4096});
  Tensor out(DML_TENSOR_DATA_TYPE_FLOAT32, {4096, 4096});
  DML_GATHER_ELEMENTS_OPERATOR_DESC ge = {&in.desc, &idx.desc, &out.desc, 0};
  Plan plan;
  ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER_ELEMENTS, &ge}, false, &plan).ok());
  ASSERT_TRUE((plan.tiling != Tiling::kNone));
  EXPECT_EQ(plan.pack_bytes, 4096u * 256u);
  EXPECT_EQ(plan.loops[plan.loop_count - 1].size, 64);
  EXPECT_GE(plan.partition.grain_units, 4096u);
  EXPECT_NE(plan.gather_row, nullptr);
  EXPECT_NE(DescribePlan(plan).find("packing:"), std::string::npos) << DescribePlan(plan);

  EXPECT_EQ(plan.partition.align_units, 4096u);
  EXPECT_EQ(plan.partition.unit_count % plan.partition.align_units, 0u);
  EXPECT_EQ(plan.partition.grain_units % plan.partition.align_units, 0u);

  // Not packed where few rows would gather from a packed strip: an input-moving loop inside
  // the strip loop ({4096,4,512} with ids broadcast over dimension 1), or 2 output rows along
  // an axis of 8192.
  Tensor in3(DML_TENSOR_DATA_TYPE_FLOAT32, {4096, 4, 512});
  Tensor idx3(DML_TENSOR_DATA_TYPE_INT64, {4096, 4, 512}, {512, 0, 1});
  Tensor out3(DML_TENSOR_DATA_TYPE_FLOAT32, {4096, 4, 512});
  DML_GATHER_ELEMENTS_OPERATOR_DESC ge3 = {&in3.desc, &idx3.desc, &out3.desc, 0};
  ASSERT_TRUE(CompilePlan({DML_OPERATOR_GATHER_ELEMENTS, &ge3}, false, &plan).ok());
  EXPECT_EQ(plan.pack_bytes, 0u);
  EXPECT_EQ(plan.partition.align_units, 1u);
  plan = AxisZeroGatherElementsPlan(DML_TENSOR_DATA_TYPE_FLOAT32, 8192, 1024, 2);
  EXPECT_EQ(plan.pack_bytes, 0u);
  // Packed from a sixteenth of the axis on: 256 output rows along 4096, not 255.
  for (uint32_t rows : {256u, 255u}) {
    plan = AxisZeroGatherElementsPlan(DML_TENSOR_DATA_TYPE_FLOAT32, 4096, 4096, rows);
    EXPECT_EQ(plan.pack_bytes != 0, rows == 256) << rows;
  }
  // Unpacked, they take the unpacked plans' 256-byte strips, not a packed strip's width: 128
  // fp16 items rather than one line of 32.
  plan = AxisZeroGatherElementsPlan(DML_TENSOR_DATA_TYPE_FLOAT16, 8192, 1024, 2);
  EXPECT_TRUE((plan.tiling != Tiling::kNone));
  EXPECT_EQ(plan.pack_bytes, 0u);
  EXPECT_EQ(plan.loops[plan.loop_count - 1].size, 128);

  plan = AxisZeroGatherElementsPlan(DML_TENSOR_DATA_TYPE_FLOAT32, 16384, 1024, 64);
  EXPECT_TRUE((plan.tiling != Tiling::kNone));
  EXPECT_EQ(plan.pack_bytes, 0u);
  EXPECT_EQ(plan.loops[plan.loop_count - 1].size, 64);
}

// Packed strips widen to 2 or 4 lines for 2-, 4- and 8-byte elements, as far as the row divides
// into them and the packed strip stays within 1 MiB; 1-byte elements keep one line.
TEST(FastPathTest, AxisZeroPackedStripWidths) {
  const struct {
    DML_TENSOR_DATA_TYPE type;
    uint32_t rows, cols;
    int64_t strip_items;
  } cases[] = {
      {DML_TENSOR_DATA_TYPE_FLOAT32, 4096, 4096, 64},  // 4 lines: 1 MiB packed
      {DML_TENSOR_DATA_TYPE_FLOAT32, 8192, 2048, 32},  // 2 lines: 4 would be 2 MiB
      {DML_TENSOR_DATA_TYPE_FLOAT32, 2048, 4128, 32},  // 4128 = 129 x 32: not 64
      {DML_TENSOR_DATA_TYPE_FLOAT32, 2048, 4112, 16},  // 4112 = 257 x 16: not 32
      {DML_TENSOR_DATA_TYPE_FLOAT64, 4096, 2048, 32},  // 4 lines of 8 items
      {DML_TENSOR_DATA_TYPE_FLOAT16, 4096, 8192, 128},  // 4 lines of 32 items: 1 MiB
      {DML_TENSOR_DATA_TYPE_FLOAT16, 8192, 4096, 64},   // 2 lines: 4 would be 2 MiB
      {DML_TENSOR_DATA_TYPE_UINT8, 4096, 16384, 64},    // one line
  };
  for (const auto& c : cases) {
    const Plan plan = AxisZeroGatherElementsPlan(c.type, c.rows, c.cols, c.rows);
    const uint64_t elem_bytes = plan.elem_bytes;
    EXPECT_EQ(plan.loops[plan.loop_count - 1].size, c.strip_items) << c.rows << " x " << c.cols;
    EXPECT_EQ(plan.pack_bytes, c.rows * elem_bytes * static_cast<uint64_t>(c.strip_items))
        << c.rows << " x " << c.cols;
    EXPECT_EQ(plan.partition.align_units, c.rows) << c.rows << " x " << c.cols;
  }
}

// Devices with many threads keep narrower strips: every thread's 1 MiB slot must fit the
// scratch budget, and each thread must get 4 strips or more. {4096,4096} fp32: 4 lines up to
// 14 threads (16 slots of 1 MiB), 2 lines up to 30 (32 of 512 KiB), then 1; {4096,1024} fp32
// (16 strips of 4 lines) 4 lines up to 4 threads, 2 lines up to 8.
TEST(FastPathTest, AxisZeroPackedStripsNarrowForManyThreads) {
  const struct {
    uint32_t cols, concurrency;
    int64_t strip_items;
  } cases[] = {{4096, 0, 64},  {4096, 1, 64},  {4096, 14, 64}, {4096, 15, 32}, {4096, 30, 32},
               {4096, 31, 16}, {4096, 64, 16}, {1024, 4, 64},  {1024, 5, 32},  {1024, 8, 32},
               {1024, 9, 16}};
  for (const auto& c : cases) {
    const Plan plan =
        AxisZeroGatherElementsPlan(DML_TENSOR_DATA_TYPE_FLOAT32, 4096, c.cols, 4096, c.concurrency);
    EXPECT_EQ(plan.loops[plan.loop_count - 1].size, c.strip_items)
        << c.cols << " columns, concurrency " << c.concurrency;
    // (One-line strips are the narrowest: 64 threads' 66 slots of 256 KiB exceed it.)
    if (c.strip_items > 16) {
      EXPECT_LE((std::max<uint64_t>(c.concurrency, 2) + 2) * plan.pack_bytes,
                kDefaultTuning.max_scratch_bytes);
    }
  }
}

}  // namespace
}  // namespace internal
}  // namespace dmlcpu
