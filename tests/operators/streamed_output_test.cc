// SPDX-License-Identifier: Apache-2.0
// Outputs beyond the non-temporal thresholds (32 MiB; 8 MiB for element gathers; footprints
// above 16 MiB on one thread), where strided and gathered rows are staged in L1 and streamed,
// or (de-interleaves) streamed by the kernel itself: byte for byte against the naive reference
// (guard bytes, output gaps) on 1, 2 and 8 threads, and Describe names the stores.
#include <cstdint>
#include <string>

#include "dmlcpu/dmlcpu.h"
#include "gtest/gtest.h"
#include "support/devices.h"
#include "support/tester.h"

namespace dmlcpu_test {
namespace {

// A single-thread device streams plain-copy rows whose footprint exceeds half the cache (a
// 16 MB lookup of 1 KiB rows from an 8 MiB table); devices with more threads keep regular
// stores for it. Same results either way, and Describe says which.
TEST(StreamedOutputTest, SingleThreadDevicesStreamLargeFootprints) {
  EXPECT_TRUE(GatherTester()
                  .ElementBytes(4)
                  .InputSizes({8192, 256})
                  .IndicesSizes({1, 16000})
                  .Axis(0)
                  .IndexDimensions(1)
                  .Indices(IndexValues::kOutOfRange)
                  .Test(ThreadedDevices()));
  const TensorDescHolder in(DML_TENSOR_DATA_TYPE_FLOAT32, {8192, 256}, {});
  const TensorDescHolder idx(DML_TENSOR_DATA_TYPE_INT64, {1, 16000}, {});
  const TensorDescHolder out(DML_TENSOR_DATA_TYPE_FLOAT32, {16000, 256}, {});
  DML_GATHER_OPERATOR_DESC gather = {in.desc(), idx.desc(), out.desc(), 0, 1};
  for (const dmlcpu::Device* device : ThreadedDevices()) {
    const std::string text = DescriptionOn(*device, {DML_OPERATOR_GATHER, &gather});
    EXPECT_EQ(text.find("non-temporal stores") != std::string::npos,
              device->max_concurrency() == 1)
        << device->max_concurrency() << "\n" << text;
  }
}

// Element gathers stream from 8 MiB of output on: rows sharing their ids (resolved once), staged
// and streamed, rows below 8 KiB of input (every case but the 8-byte one) prefetched two rows
// ahead. Rows of 520 items (not a whole
// number of lines, so every row starts at another alignment), 2-, 4- and 8-byte elements,
// every index type with negative and out-of-range ids (clamped), and a padded output (streamed
// too: each row is contiguous; the gaps between rows stay untouched).
TEST(StreamedOutputTest, ElementGathersFromAQuarterOfTheCache) {
  const struct {
    uint32_t width;
    uint32_t rows;
    DML_TENSOR_DATA_TYPE index_type;
  } cases[] = {{2, 8192, DML_TENSOR_DATA_TYPE_INT32},
               {4, 4096, DML_TENSOR_DATA_TYPE_INT64},
               {4, 4096, DML_TENSOR_DATA_TYPE_UINT32},
               {8, 2048, DML_TENSOR_DATA_TYPE_UINT64}};
  for (const auto& c : cases) {
    EXPECT_TRUE(GatherTester()
                    .ElementBytes(c.width)
                    .InputSizes({c.rows, 1030})
                    .IndicesSizes({1, 520})
                    .IndexType(c.index_type)
                    .Axis(1)
                    .IndexDimensions(1)
                    .Indices(IndexValues::kOutOfRange)
                    .Test(ThreadedDevices()))
        << c.width;
  }
  EXPECT_TRUE(GatherTester()
                  .ElementBytes(4)
                  .InputSizes({4096, 1030})
                  .IndicesSizes({1, 520})
                  .OutputStrides({530, 1})
                  .Axis(1)
                  .IndexDimensions(1)
                  .Indices(IndexValues::kInRange)
                  .Test(ThreadedDevices()));
}

// Outputs of 32 MiB and more take the non-temporal paths: K1 runs, K2 staged strided rows
// (flip), K3 streamed blocks, K4 staged gathers.
TEST(StreamedOutputTest, LargeOutputsOfEveryShape) {
  EXPECT_TRUE(Slice1Tester()
                  .ElementBytes(4)
                  .InputSizes({4096, 4097})
                  .WindowOffsets({0, 1})
                  .WindowSizes({4096, 4096})
                  .WindowStrides({-1, 1})
                  .Test(ThreadedDevices()));
  EXPECT_TRUE(Slice1Tester()
                  .ElementBytes(4)
                  .InputSizes({4096, 4096})
                  .WindowOffsets({0, 0})
                  .WindowSizes({4096, 4096})
                  .WindowStrides({1, -1})
                  .Test(ThreadedDevices()));
  EXPECT_TRUE(GatherTester()
                  .ElementBytes(4)
                  .InputSizes({700, 16384})
                  .IndicesSizes({1, 1024})
                  .Axis(0)
                  .IndexDimensions(1)
                  .Indices(IndexValues::kSortedRuns)
                  .Test(ThreadedDevices()));
  // Transposed views stream each whole, line-aligned dst line of a block: fp32, and fp16 into
  // padded dst rows of every alignment (lines there are streamed only where they are aligned).
  EXPECT_TRUE(Slice1Tester()
                  .ElementBytes(4)
                  .InputSizes({4096, 2112})
                  .InputStrides({1, 4096})
                  .WindowOffsets({0, 0})
                  .WindowSizes({4096, 2112})
                  .Test(ThreadedDevices()));
  EXPECT_TRUE(Slice1Tester()
                  .ElementBytes(2)
                  .InputSizes({4160, 4160})
                  .InputStrides({1, 4160})
                  .OutputStrides({4165, 1})
                  .WindowOffsets({0, 0})
                  .WindowSizes({4160, 4160})
                  .Test(ThreadedDevices()));
  // Streamed with the prefetcher, rows and blocks starting at every alignment: descending
  // rows of 4099 elements, a flipped row of 16447 bytes, blocks of 33333 bytes.
  EXPECT_TRUE(Slice1Tester()
                  .ElementBytes(4)
                  .InputSizes({2049, 4099})
                  .WindowOffsets({0, 0})
                  .WindowSizes({2049, 4099})
                  .WindowStrides({-1, 1})
                  .Test(ThreadedDevices()));
  EXPECT_TRUE(Slice1Tester()
                  .ElementBytes(1)
                  .InputSizes({2048, 16447})
                  .WindowOffsets({0, 0})
                  .WindowSizes({2048, 16447})
                  .WindowStrides({1, -1})
                  .Test(ThreadedDevices()));
  EXPECT_TRUE(GatherTester()
                  .ElementBytes(1)
                  .InputSizes({1500, 33333})
                  .IndicesSizes({1, 1100})
                  .Axis(0)
                  .IndexDimensions(1)
                  .Indices(IndexValues::kSortedRuns)
                  .Test(ThreadedDevices()));
  // Streamed blocks of 300 bytes (in groups of three) and 600 bytes (one by one).
  for (uint32_t block_elems : {75u, 150u}) {
    EXPECT_TRUE(GatherTester()
                    .ElementBytes(4)
                    .InputSizes({5000, block_elems})
                    .IndicesSizes({1, 8600000 / block_elems})  // 34.4 MB out
                    .Axis(0)
                    .IndexDimensions(1)
                    .IndexType(DML_TENSOR_DATA_TYPE_UINT32)
                    .Test(ThreadedDevices()))
        << "block " << block_elems * 4 << " bytes";
  }
  EXPECT_TRUE(GatherElementsTester()
                  .ElementBytes(4)
                  .InputSizes({2048, 8192})
                  .IndicesSizes({2048, 8192})
                  .Axis(1)
                  .IndexType(DML_TENSOR_DATA_TYPE_INT32)
                  .Test(ThreadedDevices()));
}

// De-interleaves with non-temporal stores, written by the strided kernel itself (no staging):
// every third fp32 of 64 MiB (output below 32 MiB, streamed for its footprint), every other
// fp16 into padded output rows of every alignment, every third byte, every other fp64; and
// with rows in descending order (the stream prefetcher's steps: staged instead).
TEST(StreamedOutputTest, DeinterleavedRowsStreamDirectly) {
  EXPECT_TRUE(Slice1Tester()
                  .ElementBytes(4)
                  .InputSizes({4096, 4096})
                  .WindowOffsets({0, 1})
                  .WindowSizes({4096, 4095})
                  .WindowStrides({1, 3})
                  .Test(ThreadedDevices()));
  EXPECT_TRUE(Slice1Tester()
                  .ElementBytes(2)
                  .InputSizes({4096, 8200})
                  .OutputStrides({4101, 1})
                  .WindowOffsets({0, 0})
                  .WindowSizes({4096, 8200})
                  .WindowStrides({1, 2})
                  .Test(ThreadedDevices()));
  EXPECT_TRUE(Slice1Tester()
                  .ElementBytes(1)
                  .InputSizes({4096, 12360})
                  .WindowOffsets({0, 2})
                  .WindowSizes({4096, 12358})
                  .WindowStrides({1, 3})
                  .Test(ThreadedDevices()));
  EXPECT_TRUE(Slice1Tester()
                  .ElementBytes(8)
                  .InputSizes({2100, 4000})
                  .WindowOffsets({0, 0})
                  .WindowSizes({2100, 4000})
                  .WindowStrides({1, 2})
                  .Test(ThreadedDevices()));
  EXPECT_TRUE(Slice1Tester()
                  .ElementBytes(4)
                  .InputSizes({4096, 4096})
                  .WindowOffsets({0, 1})
                  .WindowSizes({4096, 4095})
                  .WindowStrides({-1, 3})
                  .Test(ThreadedDevices()));
}

}  // namespace
}  // namespace dmlcpu_test
