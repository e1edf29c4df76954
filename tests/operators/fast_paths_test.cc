// SPDX-License-Identifier: Apache-2.0
// The planner's fast paths, each forced by shape and checked byte for byte against the naive
// reference (with guard bytes and output gaps), on 1, 2 and 8 threads:
//  - transposed views (2-D transpose tiles) and other tiled strided reads, permuted copies
//    (NCHW -> NHWC, DepthToSpace's narrow transposes, middle-axis permutes in stream tiles),
//  - GATHER_ELEMENTS along an outer axis (strip-mined for the cache; few rows of it with each
//    next row's items prefetched),
//  - block gathers with sorted, run-heavy and repeated ids (run merging, replication),
//  - shared-index rows (GATHER on the innermost axis),
//  - the software prefetch along the input stream (descending reads, block gathers), whose
//    rows are copied in steps of a few hundred bytes, and small blocks in groups of ~1 KiB.
// Most outputs past the non-temporal thresholds are checked in streamed_output_test.cc.
#include <cstdint>
#include <string>
#include <vector>

#include "dmlcpu/dmlcpu.h"
#include "gtest/gtest.h"
#include "support/devices.h"
#include "support/tester.h"

namespace dmlcpu_test {
namespace {

using dmlcpu::Device;
using dmlcpu::DeviceOptions;

// The serial device's plan of GATHER_ELEMENTS along axis 0 of a {rows, cols} input of `type`
// into out_rows output rows (a row pitch of out_pitch elements; 0: packed), with ids of
// `index_type`, as Describe prints it.
std::string AxisZeroDescription(DML_TENSOR_DATA_TYPE type, DML_TENSOR_DATA_TYPE index_type,
                                uint32_t rows, uint32_t cols, uint32_t out_rows,
                                uint32_t out_pitch) {
  const TensorDescHolder in(type, {rows, cols}, {});
  const TensorDescHolder idx(index_type, {out_rows, cols}, {});
  const TensorDescHolder out(type, {out_rows, cols},
                             out_pitch == 0 ? std::vector<uint32_t>{}
                                            : std::vector<uint32_t>{out_pitch, 1});
  DML_GATHER_ELEMENTS_OPERATOR_DESC ge = {in.desc(), idx.desc(), out.desc(), 0};
  return DescriptionOn(*ThreadedDevices()[0], {DML_OPERATOR_GATHER_ELEMENTS, &ge});
}

// GATHER_ELEMENTS of fp32 along the middle axis of a {2, axis_size, cols} input into
// {2, out_rows, cols}, with ids of `index_type`: the odometer carries across the outer loop.
GatherElementsTester MiddleAxisTester(uint32_t axis_size, uint32_t out_rows, uint32_t cols,
                                      DML_TENSOR_DATA_TYPE index_type) {
  GatherElementsTester tester;
  tester.ElementBytes(4)
      .InputSizes({2, axis_size, cols})
      .IndicesSizes({2, out_rows, cols})
      .OutputSizes({2, out_rows, cols})
      .Axis(1)
      .IndexType(index_type);
  return tester;
}

// A rows x cols window read from a cols x rows buffer through transposed strides.
TEST(TransposedViewTest, EveryWidthAndTileShape) {
  const std::vector<std::vector<uint32_t>> shapes = {
      {64, 64}, {128, 96}, {96, 200}, {64, 320}, {256, 40}, {24, 72}, {1000, 17}};
  for (uint32_t width : {1u, 2u, 4u, 8u}) {
    for (const auto& shape : shapes) {
      const uint32_t rows = shape[0], cols = shape[1];
      for (int32_t flip : {1, -1}) {
        Slice1Tester tester;
        tester.ElementBytes(width)
            .InputSizes({rows, cols})
            .InputStrides({1, rows})  // element (r, c) lives at c * rows + r
            .WindowOffsets({0, 0})
            .WindowSizes({rows, cols})
            .WindowStrides({1, flip})
            .Seed(rows * 131 + cols + width);
        EXPECT_TRUE(tester.Test(ThreadedDevices()))
            << "width " << width << " rows " << rows << " cols " << cols << " flip " << flip;
      }
    }
  }
}

TEST(TransposedViewTest, BatchedAndPaddedLayouts) {
  // {3, 64, 128} whose last two dims are transposed in memory, with padding between batches.
  EXPECT_TRUE(Slice1Tester()
                  .ElementBytes(4)
                  .InputSizes({3, 64, 128})
                  .InputStrides({64 * 128 + 16, 1, 64})
                  .WindowOffsets({0, 0, 0})
                  .WindowSizes({3, 64, 128})
                  .Test(ThreadedDevices()));
  // Transposed view written into a strided (padded) output.
  EXPECT_TRUE(Slice1Tester()
                  .ElementBytes(2)
                  .InputSizes({128, 128})
                  .InputStrides({1, 128})
                  .OutputStrides({136, 1})
                  .WindowOffsets({0, 0})
                  .WindowSizes({128, 128})
                  .Test(ThreadedDevices()));
  // Input walked with a 2-element step along the contiguous axis: tiled, not transposed.
  EXPECT_TRUE(Slice1Tester()
                  .ElementBytes(4)
                  .InputSizes({128, 256})
                  .InputStrides({2, 256})
                  .WindowOffsets({0, 0})
                  .WindowSizes({128, 256})
                  .Test(ThreadedDevices()));
}

// Permuted copies as full SLICE1 windows of strided views (IDENTITY's and DEPTH_TO_SPACE's
// plans): NCHW -> NHWC (64 x 64 transpose tiles), DepthToSpace in DCR and CRD order (narrow
// transpose tiles: an interleave of 2 or 4 src rows into one output run), and a permute of a
// middle axis (rows of runs in stream tiles), every width.
TEST(PermutedCopyTest, NhwcDepthToSpaceAndHeads) {
  for (uint32_t width : {1u, 2u, 4u, 8u}) {
    // NCHW {2, 64, 8, 16} viewed as {N, H, W, C}; and {2, 64, 9, 14}, whose H*W of 126 has
    // no tile that divides it (strided rows).
    EXPECT_TRUE(Slice1Tester()
                    .ElementBytes(width)
                    .InputSizes({2, 8, 16, 64})
                    .InputStrides({64 * 128, 16, 1, 128})
                    .WindowOffsets({0, 0, 0, 0})
                    .WindowSizes({2, 8, 16, 64})
                    .Seed(width)
                    .Test(ThreadedDevices()))
        << "NHWC width " << width;
    EXPECT_TRUE(Slice1Tester()
                    .ElementBytes(width)
                    .InputSizes({2, 9, 14, 64})
                    .InputStrides({64 * 126, 14, 1, 126})
                    .WindowOffsets({0, 0, 0, 0})
                    .WindowSizes({2, 9, 14, 64})
                    .Seed(width)
                    .Test(ThreadedDevices()))
        << "NHWC width " << width;
    for (uint32_t block : {2u, 4u}) {
      // DepthToSpace of {1, C = block^2 * 3, 5, 40}: the 6-D view {n, c, h, i, w, j}.
      const uint32_t c_out = 3, h = 5, w = 40, hw = h * w;
      const uint32_t c_in = block * block * c_out;
      for (bool dcr : {true, false}) {
        const uint32_t c_stride = dcr ? hw : block * block * hw;
        const uint32_t i_stride = dcr ? block * c_out * hw : block * hw;
        const uint32_t j_stride = dcr ? c_out * hw : hw;
        EXPECT_TRUE(Slice1Tester()
                        .ElementBytes(width)
                        .InputSizes({1, c_out, h, block, w, block})
                        .InputStrides({c_in * hw, c_stride, w, i_stride, 1, j_stride})
                        .WindowOffsets({0, 0, 0, 0, 0, 0})
                        .WindowSizes({1, c_out, h, block, w, block})
                        .Seed(width * 7 + block)
                        .Test(ThreadedDevices()))
            << "DepthToSpace width " << width << " block " << block << (dcr ? " DCR" : " CRD");
      }
    }
    // Heads {1, 16, 2048, 24} with perm {0, 2, 1, 3}: 16 streams, runs of 24 elements, the
    // sequence in 2 to 8 stream tiles (run_tile_read_bytes).
    EXPECT_TRUE(Slice1Tester()
                    .ElementBytes(width)
                    .InputSizes({1, 2048, 16, 24})
                    .InputStrides({16 * 2048 * 24, 24, 2048 * 24, 1})
                    .WindowOffsets({0, 0, 0, 0})
                    .WindowSizes({1, 2048, 16, 24})
                    .Seed(width * 3)
                    .Test(ThreadedDevices()))
        << "heads width " << width;
  }
  // The plans those shapes were meant to get, on the serial device.
  const TensorDescHolder view(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 3, 5, 2, 40, 2},
                              {2400, 200, 40, 1200, 1, 600});
  const TensorDescHolder out(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 3, 5, 2, 40, 2}, {});
  const std::vector<uint32_t> zeros(6, 0), sizes = {1, 3, 5, 2, 40, 2};
  const std::vector<int32_t> ones(6, 1);
  DML_SLICE1_OPERATOR_DESC d2s = {view.desc(), out.desc(), 6, zeros.data(), sizes.data(),
                                  ones.data()};
  const std::string text = DescriptionOn(*ThreadedDevices()[0], {DML_OPERATOR_SLICE1, &d2s});
  EXPECT_NE(text.find("2-D transpose tiles"), std::string::npos) << text;
  const TensorDescHolder heads(DML_TENSOR_DATA_TYPE_FLOAT16, {1, 96, 16, 24},
                               {16 * 96 * 24, 24, 96 * 24, 1});
  const TensorDescHolder seq(DML_TENSOR_DATA_TYPE_FLOAT16, {1, 96, 16, 24}, {});
  const std::vector<uint32_t> heads_sizes = {1, 96, 16, 24}, zeros4(4, 0);
  const std::vector<int32_t> ones4(4, 1);
  DML_SLICE1_OPERATOR_DESC heads_desc = {heads.desc(), seq.desc(), 4, zeros4.data(),
                                         heads_sizes.data(), ones4.data()};
  const std::string heads_text =
      DescriptionOn(*ThreadedDevices()[0], {DML_OPERATOR_SLICE1, &heads_desc});
  EXPECT_NE(heads_text.find("rows of runs in stream tiles"), std::string::npos) << heads_text;
}

// Streamed stream tiles with 4 streams side by side (RunStreamGroupRows): heads {1, 36, 3000,
// 24} fp32 with perm {0, 2, 1, 3}, 10 MB out (20 with the input: streamed), runs of 96 bytes
// (partial lines); 108000 rows in grains of 171, so that the 2- and 8-thread ranges start and
// end inside a group of 4 heads. Fp16 runs of 48 bytes take the whole-row loop instead.
TEST(PermutedCopyTest, StreamedHeadsInGroups) {
  for (uint32_t width : {2u, 4u}) {
    const uint32_t heads = 36, seq = 3000, dim = 24;
    EXPECT_TRUE(Slice1Tester()
                    .ElementBytes(width)
                    .InputSizes({1, seq, heads, dim})
                    .InputStrides({heads * seq * dim, dim, seq * dim, 1})
                    .WindowOffsets({0, 0, 0, 0})
                    .WindowSizes({1, seq, heads, dim})
                    .Seed(width * 11)
                    .Test(ThreadedDevices()))
        << "heads width " << width;
  }
  const TensorDescHolder view(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 3000, 36, 24},
                              {36 * 3000 * 24, 24, 3000 * 24, 1});
  const TensorDescHolder out(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 3000, 36, 24}, {});
  const std::vector<uint32_t> sizes = {1, 3000, 36, 24}, zeros(4, 0);
  const std::vector<int32_t> ones(4, 1);
  DML_SLICE1_OPERATOR_DESC desc = {view.desc(), out.desc(), 4, zeros.data(), sizes.data(),
                                   ones.data()};
  const std::string text = DescriptionOn(*ThreadedDevices()[1], {DML_OPERATOR_SLICE1, &desc});
  EXPECT_NE(text.find("rows of runs in stream tiles"), std::string::npos) << text;
  EXPECT_NE(text.find("non-temporal stores"), std::string::npos) << text;
  EXPECT_NE(text.find("[3] 4: 96 / 288000"), std::string::npos) << text;
  EXPECT_NE(text.find("grain 171 units"), std::string::npos) << text;
}

TEST(GatherElementsStripTest, OuterAxisOfLargeInputs) {
  // Footprint axis extent x row bytes >= 4 MiB: the plan strip-mines the rows.
  for (uint32_t width : {1u, 2u, 4u, 8u}) {
    const uint32_t cols = 8192 / width * 4;  // 32 KiB rows
    for (uint32_t axis_size : {256u, 300u}) {
      GatherElementsTester tester;
      tester.ElementBytes(width)
          .InputSizes({axis_size, cols})
          .IndicesSizes({64, cols})
          .OutputSizes({64, cols})
          .Axis(0)
          .IndexType(width == 8 ? DML_TENSOR_DATA_TYPE_INT64 : DML_TENSOR_DATA_TYPE_INT32)
          .Indices(IndexValues::kOutOfRange)
          .Seed(width * 7 + axis_size);
      EXPECT_TRUE(tester.Test(ThreadedDevices()))
          << "width " << width << " axis size " << axis_size;
    }
  }
  // Rank 3 with the gathered axis in the middle.
  EXPECT_TRUE(MiddleAxisTester(512, 40, 2048, DML_TENSOR_DATA_TYPE_UINT64).Test(ThreadedDevices()));
}

// Few output rows of GATHER_ELEMENTS along an outer axis of an input over 4 MiB: strip rows too
// few to pack, whose items' lines the executor prefetches a row ahead (their ids resolved twice).
TEST(RowItemPrefetchTest, FewOutputRowsOfLargeInputs) {
  const DML_TENSOR_DATA_TYPE index_types[] = {
      DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_INT64,
      DML_TENSOR_DATA_TYPE_UINT64};
  for (uint32_t width : {1u, 2u, 4u, 8u}) {
    const uint32_t cols = 4096 / width;  // 1200 rows x 4 KiB: 4.7 MiB
    for (DML_TENSOR_DATA_TYPE index_type : index_types) {
      for (uint32_t out_rows : {2u, 9u}) {
        EXPECT_TRUE(GatherElementsTester()
                        .ElementBytes(width)
                        .InputSizes({1200, cols})
                        .IndicesSizes({out_rows, cols})
                        .OutputStrides({cols + 3, 1})
                        .Axis(0)
                        .IndexType(index_type)
                        .Indices(IndexValues::kOutOfRange)
                        .Seed(width * 100 + out_rows * 10 + static_cast<uint32_t>(index_type))
                        .Test(ThreadedDevices()))
            << "width " << width << " index type " << index_type << " rows " << out_rows;
      }
    }
  }
  const DML_TENSOR_DATA_TYPE types[] = {DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_FLOAT16,
                                        DML_TENSOR_DATA_TYPE_FLOAT32,
                                        DML_TENSOR_DATA_TYPE_FLOAT64};
  for (uint32_t slot = 0; slot < 4; ++slot) {
    const uint32_t cols = 4096 >> slot;
    for (uint32_t out_rows : {2u, 9u}) {
      const std::string text = AxisZeroDescription(types[slot], DML_TENSOR_DATA_TYPE_INT64, 1200,
                                                   cols, out_rows, cols + 3);
      EXPECT_NE(text.find("prefetch: the next row's items into L2"), std::string::npos) << text;
    }
    // 1024 rows of 4 KiB: a span just under 4 MiB, the same unpacked strips left to the loads.
    const std::string small =
        AxisZeroDescription(types[slot], DML_TENSOR_DATA_TYPE_INT64, 1024, cols, 9, cols + 3);
    EXPECT_EQ(small.find("next row's items"), std::string::npos) << small;
    EXPECT_EQ(small.find("packing:"), std::string::npos) << small;
    EXPECT_NE(small.find("K4 element gather"), std::string::npos) << small;
  }
  // One output row collapses to a single loop: no next row to prefetch.
  const std::string one_row = AxisZeroDescription(DML_TENSOR_DATA_TYPE_FLOAT32,
                                                  DML_TENSOR_DATA_TYPE_INT64, 1200, 1024, 1, 0);
  EXPECT_EQ(one_row.find("next row's items"), std::string::npos) << one_row;
  // Rank 3 with the gathered axis in the middle, rows of several strips.
  EXPECT_TRUE(MiddleAxisTester(1200, 5, 1024, DML_TENSOR_DATA_TYPE_INT64)
                  .Indices(IndexValues::kOutOfRange)
                  .Test(ThreadedDevices()));
}

TEST(BlockGatherRunsTest, SortedRunHeavyAndRepeatedIds) {
  // Embedding-style lookups of every block width from 1 to 129 elements, with sorted ids in
  // runs (merged copies) and repeats (replicated blocks).
  for (uint32_t width : {1u, 2u, 4u, 8u}) {
    for (uint32_t block = 1; block <= 129; block += (block < 8 ? 1 : 11)) {
      for (IndexValues values : {IndexValues::kSortedRuns, IndexValues::kInRange}) {
        GatherTester tester;
        tester.ElementBytes(width)
            .InputSizes({97, block})
            .IndicesSizes({1, 300})
            .Axis(0)
            .IndexDimensions(1)
            .IndexType(DML_TENSOR_DATA_TYPE_INT64)
            .Indices(values)
            .Seed(block * 17 + width);
        EXPECT_TRUE(tester.Test(ThreadedDevices()))
            << "width " << width << " block " << block << " " << IndexValuesName(values);
      }
    }
  }
  // GATHER_ND tuples selecting sorted rows of a matrix (two components, merged runs).
  EXPECT_TRUE(GatherNdTester()
                  .ElementBytes(4)
                  .InputSizes({8, 64, 48})
                  .IndicesSizes({1, 500, 2})
                  .InputDimensionCount(3)
                  .IndicesDimensionCount(2)
                  .IndexType(DML_TENSOR_DATA_TYPE_UINT32)
                  .Indices(IndexValues::kSortedRuns)
                  .Test(ThreadedDevices()));
}

TEST(SharedIndexRowsTest, InnermostAxisGather) {
  for (uint32_t width : {1u, 2u, 4u, 8u}) {
    EXPECT_TRUE(GatherTester()
                    .ElementBytes(width)
                    .InputSizes({300, 1000})
                    .IndicesSizes({1, 700})
                    .Axis(1)
                    .IndexDimensions(1)
                    .IndexType(DML_TENSOR_DATA_TYPE_INT32)
                    .Indices(IndexValues::kOutOfRange)
                    .Test(ThreadedDevices()))
        << "width " << width;
  }
  // More ids than one resolved batch holds (4096): resolved chunk by chunk.
  EXPECT_TRUE(GatherTester()
                  .ElementBytes(2)
                  .InputSizes({40, 3000})
                  .IndicesSizes({1, 5000})
                  .Axis(1)
                  .IndexDimensions(1)
                  .IndexType(DML_TENSOR_DATA_TYPE_UINT64)
                  .Indices(IndexValues::kOutOfRange)
                  .Test(ThreadedDevices()));
}

// Descending reads and block gathers of more than 64 KiB are copied in steps with a software
// prefetch running ahead (PrefetchPolicy::input_stream): steps must join up exactly whatever the
// row length, element width and output alignment.
TEST(StreamPrefetchTest, StepsCoverEveryRowAndBlock) {
  for (uint32_t width : {1u, 2u, 4u, 8u}) {
    // K2 rows read backwards (strides -1, -2, -3 elements), rows of odd length, so that the
    // output rows start at every alignment.
    for (int32_t step : {-1, -2, -3}) {
      EXPECT_TRUE(Slice1Tester()
                      .ElementBytes(width)
                      .InputSizes({40, 3 * 1031})
                      .WindowOffsets({0, 0})
                      .WindowSizes({40, 3 * 1031})
                      .WindowStrides({1, step})
                      .Test(ThreadedDevices()))
          << "width " << width << " step " << step;
    }
    // K3 blocks below 128 bytes (stream prefetcher, copied in groups of about 1 KiB) and up to
    // just under 1 KiB (the block kernel's prefetch, several blocks ahead).
    for (uint32_t block_bytes : {64u, 120u, 200u, 1000u}) {
      EXPECT_TRUE(GatherTester()
                      .ElementBytes(width)
                      .InputSizes({3000, block_bytes / width})
                      .IndicesSizes({1, 2000})
                      .Axis(0)
                      .IndexDimensions(1)
                      .IndexType(DML_TENSOR_DATA_TYPE_INT64)
                      .Indices(IndexValues::kOutOfRange)
                      .Seed(block_bytes + width)
                      .Test(ThreadedDevices()))
          << "width " << width << " block " << block_bytes;
    }
  }
  // K3 rows whose block is strided (padded input rows): one tuple per row, strided copy.
  EXPECT_TRUE(GatherTester()
                  .ElementBytes(2)
                  .InputSizes({500, 700})
                  .InputStrides({1500, 2})
                  .IndicesSizes({1, 300})
                  .Axis(0)
                  .IndexDimensions(1)
                  .Test(ThreadedDevices()));
}

// GATHER_ELEMENTS along the last axis runs one fused clamp-and-gather pass per row
// (Strategy::kFusedRowGather): every width and index type, out-of-range ids under kClamp,
// misaligned and padded output rows, rows of 1 to past two vectors. (Offsets too wide for
// 32-bit gathers: kernels_test.)
TEST(FusedRowGatherTest, EveryWidthIndexTypeAndLayout) {
  const DML_TENSOR_DATA_TYPE index_types[] = {
      DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_INT64,
      DML_TENSOR_DATA_TYPE_UINT64};
  for (uint32_t width : {1u, 2u, 4u, 8u}) {
    for (DML_TENSOR_DATA_TYPE index_type : index_types) {
      for (uint32_t cols : {1u, 7u, 33u, 200u}) {
        EXPECT_TRUE(GatherElementsTester()
                        .ElementBytes(width)
                        .InputSizes({300, cols + 5})
                        .IndicesSizes({300, cols})
                        .OutputStrides({cols + 3, 1})
                        .Axis(1)
                        .IndexType(index_type)
                        .Indices(IndexValues::kOutOfRange)
                        .Misalignment(width == 1 ? 1 : 4)
                        .Seed(width * 1000 + cols)
                        .Test(ThreadedDevices()))
            << "width " << width << " cols " << cols << " index type " << index_type;
      }
    }
  }
}

// The fused pass also runs on pieces of rows too long for one task (GATHER_ELEMENTS along the
// last axis, 50000 ids per row) and on the one row of a GATHER of single elements from a 1-D
// table (70001 ids): every width, 32- and 64-bit ids out of range, padded output rows. Each
// plan is checked to be fused and split into pieces.
TEST(FusedRowGatherTest, RowPiecesAndOneDimensionalTables) {
  for (uint32_t width : {1u, 2u, 4u, 8u}) {
    for (DML_TENSOR_DATA_TYPE index_type :
         {DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT64}) {
      EXPECT_TRUE(GatherElementsTester()
                      .ElementBytes(width)
                      .InputSizes({3, 50005})
                      .IndicesSizes({3, 50000})
                      .OutputStrides({50003, 1})
                      .Axis(1)
                      .IndexType(index_type)
                      .Indices(IndexValues::kOutOfRange)
                      .Seed(width * 10 + 1)
                      .Test(ThreadedDevices()))
          << "width " << width << " index type " << index_type;
      EXPECT_TRUE(GatherTester()
                      .ElementBytes(width)
                      .InputSizes({1000})
                      .IndicesSizes({70001})
                      .Axis(0)
                      .IndexDimensions(1)
                      .IndexType(index_type)
                      .Indices(IndexValues::kOutOfRange)
                      .Seed(width * 10 + 2)
                      .Test(ThreadedDevices()))
          << "width " << width << " index type " << index_type;

      const DML_TENSOR_DATA_TYPE type = width == 1   ? DML_TENSOR_DATA_TYPE_UINT8
                                        : width == 2 ? DML_TENSOR_DATA_TYPE_FLOAT16
                                        : width == 4 ? DML_TENSOR_DATA_TYPE_FLOAT32
                                                     : DML_TENSOR_DATA_TYPE_FLOAT64;
      const TensorDescHolder in(type, {3, 50005}, {});
      const TensorDescHolder idx(index_type, {3, 50000}, {});
      const TensorDescHolder out(type, {3, 50000}, {50003, 1});
      DML_GATHER_ELEMENTS_OPERATOR_DESC ge = {in.desc(), idx.desc(), out.desc(), 1};
      const TensorDescHolder table(type, {1000}, {});
      const TensorDescHolder ids(index_type, {70001}, {});
      const TensorDescHolder picked(type, {70001}, {});
      DML_GATHER_OPERATOR_DESC gather = {table.desc(), ids.desc(), picked.desc(), 0, 1};
      for (const std::string& text :
           {DescriptionOn(*ThreadedDevices()[1], {DML_OPERATOR_GATHER_ELEMENTS, &ge}),
            DescriptionOn(*ThreadedDevices()[1], {DML_OPERATOR_GATHER, &gather})}) {
        EXPECT_NE(text.find("clamped and gathered in one pass"), std::string::npos) << text;
        EXPECT_EQ(text.find(" x 1 piece(s)"), std::string::npos) << text;
      }
    }
  }
}

// GATHER_ELEMENTS along axis 0 of a large input packs each strip of the input (1 line, or up to
// 4 for 2-, 4- and 8-byte elements) into a scratch slot and gathers from there (pack_bytes):
// every width and index type, strips of 4, 2 and 1 lines of 4-byte elements, ids out of range,
// a batch dimension (the strip is packed again for each batch), padded output rows, and ids
// read through a transposed view, which take the packed path without the fused row kernel.
TEST(PackedStripsTest, EveryWidthIndexTypeAndLayout) {
  const DML_TENSOR_DATA_TYPE index_types[] = {
      DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_INT64,
      DML_TENSOR_DATA_TYPE_UINT64};
  for (uint32_t width : {1u, 2u, 4u, 8u}) {
    const uint32_t cols = 2560 / width;  // 2048 rows x 2560 bytes: a 5 MiB input
    for (DML_TENSOR_DATA_TYPE index_type : index_types) {
      EXPECT_TRUE(GatherElementsTester()
                      .ElementBytes(width)
                      .InputSizes({2048, cols})
                      .IndicesSizes({600, cols})
                      .OutputStrides({cols + 8, 1})
                      .Axis(0)
                      .IndexType(index_type)
                      .Indices(IndexValues::kOutOfRange)
                      .Seed(width * 10 + static_cast<uint32_t>(index_type))
                      .Test(ThreadedDevices()))
          << "width " << width << " index type " << index_type;
    }
  }
  {  // The 2-byte case above is packed in strips of 4 lines (2048 rows x 256 bytes).
    const std::string text = AxisZeroDescription(
        DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT32, 2048, 1280, 600, 1288);
    EXPECT_NE(text.find("each strip (524288 bytes)"), std::string::npos) << text;
  }
  // 4-byte strips of 2 lines (1056 = 33 x 32 columns) and of 1 (1040 = 65 x 16), where the row
  // does not divide into wider ones.
  for (uint32_t cols : {1056u, 1040u}) {
    EXPECT_TRUE(GatherElementsTester()
                    .ElementBytes(4)
                    .InputSizes({1024, cols})
                    .IndicesSizes({300, cols})
                    .OutputStrides({cols + 3, 1})
                    .Axis(0)
                    .IndexType(DML_TENSOR_DATA_TYPE_INT64)
                    .Indices(IndexValues::kOutOfRange)
                    .Seed(cols)
                    .Test(ThreadedDevices()))
        << "cols " << cols;
    // Packed, in strips of 2 lines (1024 rows x 128 bytes) and of 1 (x 64 bytes).
    const std::string text = AxisZeroDescription(
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT64, 1024, cols, 300, cols + 3);
    const std::string strip =
        cols == 1056 ? "each strip (131072 bytes)" : "each strip (65536 bytes)";
    EXPECT_NE(text.find(strip), std::string::npos) << text;
  }
  // A tenth of the axis (200 output rows along 2048) is enough rows to pack for.
  EXPECT_TRUE(GatherElementsTester()
                  .ElementBytes(8)
                  .InputSizes({2048, 640})
                  .IndicesSizes({200, 640})
                  .Axis(0)
                  .IndexType(DML_TENSOR_DATA_TYPE_UINT32)
                  .Indices(IndexValues::kOutOfRange)
                  .Test(ThreadedDevices()));
  {
    const std::string text = AxisZeroDescription(
        DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_UINT32, 2048, 640, 200, 0);
    EXPECT_NE(text.find("packing:"), std::string::npos) << text;
  }
  EXPECT_TRUE(GatherElementsTester()
                  .ElementBytes(4)
                  .InputSizes({3, 2048, 640})
                  .IndicesSizes({3, 600, 640})
                  .Axis(1)
                  .IndexType(DML_TENSOR_DATA_TYPE_INT64)
                  .Test(ThreadedDevices()));
  EXPECT_TRUE(GatherElementsTester()
                  .ElementBytes(2)
                  .InputSizes({2048, 1280})
                  .IndicesSizes({600, 1280})
                  .IndicesStrides({1, 200})
                  .Axis(0)
                  .Test(ThreadedDevices()));
  // A short gathered axis (4) with a dimension between it and the row that moves the input
  // (padded output rows keep it from merging into the row): each strip is packed again for
  // each of its rows, which the strip's rows must not share.
  EXPECT_TRUE(GatherElementsTester()
                  .ElementBytes(4)
                  .InputSizes({4, 2, 262144})
                  .IndicesSizes({4, 2, 262144})
                  .OutputStrides({2 * 262160, 262160, 1})
                  .Axis(0)
                  .Indices(IndexValues::kOutOfRange)
                  .Test(ThreadedDevices()));
}

// A size-1 output dimension may carry any step (it is never taken): planning it must not
// compute step * stride (which overflows int64 here; UBSan aborts the asan preset on it).
TEST(SliceEdgeTest, HugeStepOnSizeOneDimension) {
  EXPECT_TRUE(SliceTester()
                  .ElementBytes(8)
                  .InputSizes({2, 1})
                  .InputStrides({1, 0xFFFFFFFFu})
                  .Offsets({1, 0})
                  .Sizes({1, 1})
                  .Strides({1, 0xFFFFFFFFu})
                  .Test(ThreadedDevices()));
  EXPECT_TRUE(Slice1Tester()
                  .ElementBytes(8)
                  .InputSizes({2, 1})
                  .InputStrides({1, 0xFFFFFFFFu})
                  .WindowOffsets({0, 0})
                  .WindowSizes({2, 1})
                  .WindowStrides({1, -2147483647 - 1})
                  .Test(ThreadedDevices()));
}

TEST(DescribeTest, NamesTheFastPaths) {
  UINT in_sizes[] = {4096, 4096}, in_strides[] = {1, 4096};
  DML_BUFFER_TENSOR_DESC in = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, in_sizes,
                               in_strides, 4096ull * 4096 * 4, 0};
  DML_BUFFER_TENSOR_DESC out = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, in_sizes,
                                nullptr, 4096ull * 4096 * 4, 0};
  DML_TENSOR_DESC in_desc = {DML_TENSOR_TYPE_BUFFER, &in},
                  out_desc = {DML_TENSOR_TYPE_BUFFER, &out};
  UINT offsets[] = {0, 0};
  INT strides[] = {1, 1};
  DML_SLICE1_OPERATOR_DESC slice = {&in_desc, &out_desc, 2, offsets, in_sizes, strides};
  Device device(DeviceOptions{1, nullptr});
  auto op = device.Compile({DML_OPERATOR_SLICE1, &slice});
  ASSERT_TRUE(op.ok()) << op.status().message();
  const std::string text = op->Describe();
  EXPECT_NE(text.find("tiled for the cache"), std::string::npos) << text;
  EXPECT_NE(text.find("2-D transpose tiles"), std::string::npos) << text;
}

// The prefetch is planned for descending slices only: ascending streams, even strided ones,
// are left to the hardware prefetchers.
TEST(DescribeTest, NamesTheStreamPrefetchForDescendingSlicesOnly) {
  UINT in_sizes[] = {1024, 1024}, out_sizes[] = {1024, 512};
  DML_BUFFER_TENSOR_DESC in = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, in_sizes,
                               nullptr, 1024ull * 1024 * 4, 0};
  DML_BUFFER_TENSOR_DESC out = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, out_sizes,
                                nullptr, 1024ull * 512 * 4, 0};
  DML_TENSOR_DESC in_desc = {DML_TENSOR_TYPE_BUFFER, &in};
  DML_TENSOR_DESC out_desc = {DML_TENSOR_TYPE_BUFFER, &out};
  UINT offsets[] = {0, 0};
  Device device(DeviceOptions{1, nullptr});
  for (int32_t step : {-2, 2}) {  // [:, ::-2] and [:, ::2]: strided rows either way
    INT strides[] = {1, step};
    DML_SLICE1_OPERATOR_DESC slice = {&in_desc, &out_desc, 2, offsets, in_sizes, strides};
    auto op = device.Compile({DML_OPERATOR_SLICE1, &slice});
    ASSERT_TRUE(op.ok()) << op.status().message();
    const std::string text = op->Describe();
    EXPECT_NE(text.find("K2 strided inner dimension"), std::string::npos) << text;
    EXPECT_EQ(text.find("prefetch along the input stream") != std::string::npos, step < 0)
        << text;
  }
}

}  // namespace
}  // namespace dmlcpu_test
