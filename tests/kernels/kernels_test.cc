// SPDX-License-Identifier: Apache-2.0
// Per-target copy kernels against the scalar set (harness: kernel_harness.h): copy_bytes with and
// without streaming stores, copy_strided and copy_strided_stream, and the dispatch of kernel sets.
// The index kernels are in index_kernels_test.cc, the block and row kernels' tests against plain
// loops in row_kernels_test.cc (all in the same binary).

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "hwy/targets.h"
#include "kernels/kernel_harness.h"
#include "kernels/kernels.h"

namespace dmlcpu {
namespace kernels {
namespace kernel_test {
namespace {

class CopyKernelsTest : public KernelHarness {
 protected:
  // ---------------------------------------------------------------------------- copy_bytes

  bool RunCopyBytes(bool stream, size_t bytes, size_t src_offset, size_t dst_offset,
                    Placement::Kind kind = Placement::Kind::kOffset) {
    const Placement src_place{kind, src_offset};
    const Placement dst_place{kind, dst_offset};
    const uint8_t* src = PlaceLowest(src_, bytes, src_place);
    uint8_t* dst = PlaceLowest(dst_, bytes, dst_place);
    const DstWindow w = FillDstWindow(dst_, dst, bytes);
    MarkAddressed(w, dst, 0, bytes == 0 ? 0 : 1, bytes);
    SnapshotExpected(w);
    (stream ? scalar_.copy_bytes_stream : scalar_.copy_bytes)(ExpectedAt(w, dst), src, bytes);
    if (stream && unfenced_) {
      set_.copy_bytes_stream_unfenced(dst, src, bytes);
      StoreFence();
    } else {
      (stream ? set_.copy_bytes_stream : set_.copy_bytes)(dst, src, bytes);
    }
    const auto result = CheckDst(w);
    if (!result) {
      ADD_FAILURE() << set_.name << (stream ? " copy_bytes_stream" : " copy_bytes") << " bytes "
                    << bytes << " src " << src_place.ToString() << " dst "
                    << dst_place.ToString() << ": " << result.message();
      return false;
    }
    return true;
  }

  void CopyBytesSuite(bool stream) {
    // Every size up to a few groups of the widest target's unrolled loop, with the src and dst
    // misalignments rotating; the sizes around vector multiples get every combination.
    for (size_t bytes = 0; bytes <= 1100; ++bytes) {
      const bool special = bytes % 64 <= 1 || bytes % 64 == 63;
      for (size_t s = 0; s < 8; ++s) {
        for (size_t d = 0; d < 8; ++d) {
          if (!special && (s != bytes % 8 || d != (bytes * 3 + s) % 8)) continue;
          if (!RunCopyBytes(stream, bytes, s, d)) return;
        }
      }
      for (const auto kind : {Placement::Kind::kFlushStart, Placement::Kind::kFlushEnd}) {
        if (!RunCopyBytes(stream, bytes, 0, 0, kind)) return;
      }
    }
    // copy_bytes' vector loop covers 512 B-256 KiB: sizes at its upper end too. The streamed
    // copy goes 2, 3 or 4 pages side by side while 8 KiB of whole lines are left after dst's
    // head, then one stream for the rest (a whole page of it from 20 KiB, line-aligned).
    for (const size_t bytes : {size_t{4096}, size_t{6400}, size_t{8192 - 1}, size_t{8192},
                               size_t{8192 + 64 + 3}, size_t{12288 + 4095}, size_t{16384},
                               size_t{20480 + 5}, size_t{16384 + 8192 + 100}, size_t{65536 + 7},
                               size_t{(256 << 10) - 1}, size_t{256 << 10}, size_t{(256 << 10) + 1},
                               size_t{(1 << 20) + 13}, size_t{(7 << 20) + 5}}) {
      for (size_t s = 0; s < 8; s += 3) {
        if (!RunCopyBytes(stream, bytes, s, 7 - s)) return;
      }
      for (const auto kind : {Placement::Kind::kFlushStart, Placement::Kind::kFlushEnd}) {
        if (!RunCopyBytes(stream, bytes, 0, 0, kind)) return;
      }
    }
  }

  // -------------------------------------------------------------------------- copy_strided

  // dst goes to DstPlacementFor(place), or to *dst_place_override.
  bool RunCopyStrided(int slot, int64_t dst_stride_bytes, int64_t src_stride_bytes, size_t count,
                      const Placement& place, const Placement* dst_place_override = nullptr) {
    const size_t width = size_t{1} << slot;
    const Extent se = StridedExtent(count, src_stride_bytes, width);
    const Extent de = StridedExtent(count, dst_stride_bytes, width);
    const Placement dst_place =
        dst_place_override != nullptr ? *dst_place_override : DstPlacementFor(place);
    const uint8_t* src = PlaceLowest(src_, se.span(), place) - se.lowest;
    uint8_t* dst_lowest = PlaceLowest(dst_, de.span(), dst_place);
    uint8_t* dst = dst_lowest - de.lowest;
    const DstWindow w = FillDstWindow(dst_, dst_lowest, de.span());
    MarkAddressed(w, dst, dst_stride_bytes, count, width);
    SnapshotExpected(w);
    scalar_.copy_strided[slot](ExpectedAt(w, dst), dst_stride_bytes, src, src_stride_bytes,
                               count);
    if (strided_stream_) {
      set_.copy_strided_stream[slot](dst, dst_stride_bytes, src, src_stride_bytes, count);
      StoreFence();
    } else {
      set_.copy_strided[slot](dst, dst_stride_bytes, src, src_stride_bytes, count);
    }
    const auto result = CheckDst(w);
    if (!result) {
      ADD_FAILURE() << set_.name << (strided_stream_ ? " copy_strided_stream" : " copy_strided")
                    << " width " << width << " dst_stride_bytes "
                    << dst_stride_bytes << " src_stride_bytes " << src_stride_bytes << " count "
                    << count << " src " << place.ToString() << " dst " << dst_place.ToString()
                    << ": " << result.message();
      return false;
    }
    return true;
  }

  // Every source stride against every dst stride and placement, counts up to kSweepCount.
  void CopyStridedSuite() {
    for (int slot = 0; slot < 4; ++slot) {
      const int64_t w = int64_t{1} << slot;
      // The fast paths (0, +-1..4 widths), negative, zero, and not multiples of the width.
      const std::vector<int64_t> src_strides = {w,     0,      -w,     2 * w,  3 * w,
                                                4 * w, -2 * w, -3 * w, -4 * w, 5 * w,
                                                1,     -w - 1, w + 3,  64 * w, -7};
      const std::vector<int64_t> dst_strides = {w, -w, 2 * w, 3 * w + 1, -2 * w - 5, 0, 1};
      for (const int64_t ds : dst_strides) {
        for (const int64_t ss : src_strides) {
          const bool contiguous_dst = ds == w || ds == -w;
          for (size_t count = 0; count <= kSweepCount; ++count) {
            const bool special = IsSpecialCount(count);
            if (!contiguous_dst && !special && count % 7 != 0) continue;
            for (int p = 0; p < kPlacementCount; ++p) {
              if (!special && p != static_cast<int>(count % kPlacementCount)) continue;
              if (!RunCopyStrided(slot, ds, ss, count, PlacementAt(p))) return;
            }
          }
        }
      }
    }
  }

  // Counts of thousands, where the vector loops run long.
  void CopyStridedLargeSuite() {
    for (int slot = 0; slot < 4; ++slot) {
      const int64_t w = int64_t{1} << slot;
      for (const int64_t ss : {w, int64_t{0}, -w, 2 * w, 3 * w, 4 * w, -2 * w, -3 * w, -4 * w,
                               5 * w + 1}) {
        for (const int64_t ds : {w, -w, 2 * w}) {
          for (const size_t count : {size_t{1000}, size_t{4096 + 3}, size_t{(1 << 16) + 5}}) {
            for (const int p : {3, 8, 9}) {
              if (!RunCopyStrided(slot, ds, ss, count, PlacementAt(p))) return;
            }
          }
        }
      }
    }
  }

  bool unfenced_ = false;  // copy_bytes_stream_unfenced + StoreFence instead of copy_bytes_stream
  bool strided_stream_ = false;  // copy_strided_stream + StoreFence instead of copy_strided
};

TEST_P(CopyKernelsTest, KernelSetIsComplete) {
  const KernelSet& set = *GetParam();
  ASSERT_NE(set.name, nullptr);
  EXPECT_NE(set.copy_bytes, nullptr);
  EXPECT_NE(set.copy_bytes_stream, nullptr);
  EXPECT_NE(set.copy_bytes_stream_unfenced, nullptr);
  for (int slot = 0; slot < 4; ++slot) {
    EXPECT_NE(set.copy_strided[slot], nullptr);
    EXPECT_NE(set.copy_strided_stream[slot], nullptr);
    EXPECT_NE(set.gather[slot], nullptr);
  }
  for (int t = 0; t < kIndexTypeCount; ++t) {
    EXPECT_NE(set.resolve[t], nullptr);
    EXPECT_NE(set.find_out_of_range[t], nullptr);
  }
  EXPECT_NE(set.gather_blocks, nullptr);
  EXPECT_NE(set.frame_rows, nullptr);
}

TEST_P(CopyKernelsTest, CopyBytesMatchesScalar) { CopyBytesSuite(/*stream=*/false); }

TEST_P(CopyKernelsTest, CopyBytesStreamMatchesScalar) { CopyBytesSuite(/*stream=*/true); }

TEST_P(CopyKernelsTest, CopyBytesStreamUnfencedMatchesScalar) {
  unfenced_ = true;
  CopyBytesSuite(/*stream=*/true);
}

TEST_P(CopyKernelsTest, CopyStridedMatchesScalar) { CopyStridedSuite(); }

TEST_P(CopyKernelsTest, CopyStridedLargeCounts) { CopyStridedLargeSuite(); }

TEST_P(CopyKernelsTest, CopyStridedStreamMatchesScalar) {
  strided_stream_ = true;
  CopyStridedSuite();
}

TEST_P(CopyKernelsTest, CopyStridedStreamLargeCounts) {
  strided_stream_ = true;
  CopyStridedLargeSuite();
}

// The streamed body starts at dst's first 64-byte boundary: every head length, including dst
// not aligned to its elements (then nothing is streamed).
TEST_P(CopyKernelsTest, CopyStridedStreamEveryDstOffset) {
  strided_stream_ = true;
  for (int slot = 0; slot < 4; ++slot) {
    const int64_t w = int64_t{1} << slot;
    for (const int64_t ss : {w, 2 * w, 3 * w, 4 * w}) {
      for (const size_t count : {1, 15, 16, 17, 33, 64, 65, 130, 1000}) {
        for (size_t offset = 0; offset < 64; ++offset) {
          if (offset % w != 0 && offset > 8) continue;
          const Placement dst_place{Placement::Kind::kOffset, offset};
          if (!RunCopyStrided(slot, w, ss, count, PlacementAt(static_cast<int>(offset % 8)),
                              &dst_place)) {
            return;
          }
        }
      }
    }
  }
}

TEST_P(CopyKernelsTest, CopyStridedFlipAndDeinterleave) {
  const KernelSet& set = *GetParam();
  std::vector<uint16_t> src(1000);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint16_t>(i);
  std::vector<uint16_t> dst(300, 0);
  // Flip: dst[i] = src[999 - i].
  set.copy_strided[1](dst.data(), 2, src.data() + 999, -2, dst.size());
  for (size_t i = 0; i < dst.size(); ++i) ASSERT_EQ(dst[i], 999 - i) << i;
  // Every third element.
  set.copy_strided[1](dst.data(), 2, src.data() + 1, 6, dst.size());
  for (size_t i = 0; i < dst.size(); ++i) ASSERT_EQ(dst[i], 1 + 3 * i) << i;
}

INSTANTIATE_TEST_SUITE_P(AllTargets, CopyKernelsTest, ::testing::ValuesIn(AllSupportedKernels()),
                         SetName);

// ------------------------------------------------------------------------------------------
// Dispatch

TEST(KernelDispatchTest, AllSupportedKernelsListsEachCompiledTargetBestFirst) {
  const std::vector<const KernelSet*> sets = AllSupportedKernels();
  ASSERT_FALSE(sets.empty());
  EXPECT_EQ(sets.front(), &BestKernels());
  // Under DMLCPU_HWY_TARGETS the dispatched set is one of the named targets.
  if (const char* forced = std::getenv("DMLCPU_HWY_TARGETS"); forced != nullptr && *forced) {
    const std::string names = std::string(",") + forced + ",";
    EXPECT_NE(names.find(std::string(",") + BestKernels().name + ","), std::string::npos)
        << "dispatched " << BestKernels().name << " under DMLCPU_HWY_TARGETS=" << forced;
  }
  // kernels.cc and this test are compiled with the same target list.
  const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
  ASSERT_EQ(sets.size(), targets.size());
  for (size_t i = 0; i < sets.size(); ++i) {
    EXPECT_STREQ(sets[i]->name, hwy::TargetName(targets[i])) << i;
    for (size_t j = 0; j < i; ++j) EXPECT_NE(sets[i], sets[j]);
  }
}

TEST(KernelDispatchTest, BestKernelsIsTheSameFromEveryThread) {
  constexpr int kThreads = 8;
  std::vector<const KernelSet*> seen(kThreads);
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < kThreads) {
      }
      seen[t] = &BestKernels();
    });
  }
  for (auto& thread : threads) thread.join();
  for (const KernelSet* set : seen) EXPECT_EQ(set, &BestKernels());
}

TEST(KernelDispatchTest, ScalarKernelsAreNamedScalar) {
  EXPECT_STREQ(ScalarKernels().name, "scalar");
}

}  // namespace
}  // namespace kernel_test
}  // namespace kernels
}  // namespace dmlcpu
