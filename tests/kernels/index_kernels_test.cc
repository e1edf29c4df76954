// SPDX-License-Identifier: Apache-2.0
// Per-target index kernels against the scalar set (harness: kernel_harness.h): gather, resolve
// (the clamp rule and negative indices, every index type) and find_out_of_range.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/kernel_harness.h"
#include "kernels/kernels.h"

namespace dmlcpu {
namespace kernels {
namespace kernel_test {
namespace {

class IndexKernelsTest : public KernelHarness {
 protected:
  // ---------------------------------------------------------------------------------- gather

  bool RunGather(int slot, int64_t dst_stride_bytes, int64_t src_stride_bytes, size_t count,
                 size_t table_bytes, const Placement& place) {
    const size_t width = size_t{1} << slot;
    // Element i reads table byte t_i; the first two hit both ends of the table so that the
    // addressed extent is exactly the table.
    uint8_t* table = PlaceLowest(src_, table_bytes, place);
    uint8_t* offsets_lowest = PlaceLowest(aux_, count * 8, Aligned(place, 8));
    auto* offsets = reinterpret_cast<int64_t*>(offsets_lowest);
    std::uniform_int_distribution<size_t> pick(0, table_bytes - width);
    for (size_t i = 0; i < count; ++i) {
      const size_t t = i == 0 ? 0 : i == 1 ? table_bytes - width : pick(rng_);
      offsets[i] = static_cast<int64_t>(t) - static_cast<int64_t>(i) * src_stride_bytes;
    }
    const Extent de = StridedExtent(count, dst_stride_bytes, width);
    const Placement dst_place = DstPlacementFor(place);
    uint8_t* dst_lowest = PlaceLowest(dst_, de.span(), dst_place);
    uint8_t* dst = dst_lowest - de.lowest;
    const DstWindow w = FillDstWindow(dst_, dst_lowest, de.span());
    MarkAddressed(w, dst, dst_stride_bytes, count, width);
    SnapshotExpected(w);
    scalar_.gather[slot](ExpectedAt(w, dst), dst_stride_bytes, table, src_stride_bytes, offsets,
                         count);
    set_.gather[slot](dst, dst_stride_bytes, table, src_stride_bytes, offsets, count);
    const auto result = CheckDst(w);
    if (!result) {
      ADD_FAILURE() << set_.name << " gather width " << width << " dst_stride_bytes "
                    << dst_stride_bytes << " src_stride_bytes " << src_stride_bytes << " count "
                    << count << " table_bytes " << table_bytes << " " << place.ToString()
                    << ": " << result.message();
      return false;
    }
    return true;
  }

  // ---------------------------------------------------------------------------- index data

  // Signed: [-dim, dim - 1]; unsigned: [0, dim - 1]; clipped to I's range.
  template <typename I>
  I RandomInRange(uint64_t dim_size) {
    using Limits = std::numeric_limits<I>;
    if constexpr (std::is_signed_v<I>) {
      const int64_t dim = static_cast<int64_t>(dim_size);
      const int64_t lo = std::max<int64_t>(-dim, Limits::min());
      const int64_t hi = std::min<int64_t>(dim - 1, Limits::max());
      return static_cast<I>(std::uniform_int_distribution<int64_t>(lo, hi)(rng_));
    } else {
      const uint64_t hi = std::min<uint64_t>(dim_size - 1, Limits::max());
      return static_cast<I>(std::uniform_int_distribution<uint64_t>(0, hi)(rng_));
    }
  }

  // Edge values for `dim_size`, in and out of range, as I (64-bit values truncate).
  template <typename I>
  static std::vector<I> SpecialIndices(uint64_t dim_size) {
    const int64_t dim = static_cast<int64_t>(dim_size);
    const std::vector<uint64_t> raw = {
        0,
        1,
        dim_size - 1,
        dim_size,
        dim_size + 1,
        2 * dim_size,
        static_cast<uint64_t>(int64_t{-1}),
        static_cast<uint64_t>(-dim),
        static_cast<uint64_t>(-dim + 1),
        static_cast<uint64_t>(-dim - 1),
        static_cast<uint64_t>(-2 * dim),
        static_cast<uint64_t>(std::numeric_limits<int64_t>::min()),
        static_cast<uint64_t>(std::numeric_limits<int64_t>::max()),
        std::numeric_limits<uint64_t>::max(),
        static_cast<uint64_t>(int64_t{std::numeric_limits<int32_t>::min()}),
        uint64_t{std::numeric_limits<int32_t>::max()},
        uint64_t{std::numeric_limits<uint32_t>::max()},
        uint64_t{1} << 32,
        uint64_t{1} << 31,
    };
    std::vector<I> values;
    for (const uint64_t v : raw) values.push_back(static_cast<I>(v));
    return values;
  }

  template <typename I>
  static bool InRangeRef(I v, uint64_t dim_size) {
    if constexpr (std::is_signed_v<I>) {
      const int64_t w = static_cast<int64_t>(v);
      return w >= -static_cast<int64_t>(dim_size) && w < static_cast<int64_t>(dim_size);
    } else {
      return static_cast<uint64_t>(v) < dim_size;
    }
  }

  // Writes values[i] at indices + i * stride (i ascending, so with overlapping elements the
  // later ones win; both kernels read the same bytes either way).
  template <typename I>
  static void WriteIndices(uint8_t* indices, int64_t idx_stride_bytes, const std::vector<I>& v) {
    for (size_t i = 0; i < v.size(); ++i) {
      std::memcpy(indices + static_cast<int64_t>(i) * idx_stride_bytes, &v[i], sizeof(I));
    }
  }

  // Mostly in range, with a `special_percent` share of edge values.
  template <typename I>
  std::vector<I> MixedIndices(size_t count, uint64_t dim_size, int special_percent) {
    const std::vector<I> specials = SpecialIndices<I>(dim_size);
    std::uniform_int_distribution<int> percent(0, 99);
    std::uniform_int_distribution<size_t> pick(0, specials.size() - 1);
    std::vector<I> values(count);
    for (auto& v : values) {
      v = percent(rng_) < special_percent ? specials[pick(rng_)] : RandomInRange<I>(dim_size);
    }
    return values;
  }

  // --------------------------------------------------------------------------------- resolve

  template <typename I>
  bool RunResolve(int slot, const std::vector<I>& values, int64_t idx_stride_bytes,
                  uint64_t dim_size, int64_t pitch_bytes, bool accumulate,
                  const Placement& place) {
    const size_t count = values.size();
    const Extent ie = StridedExtent(count, idx_stride_bytes, sizeof(I));
    uint8_t* indices = PlaceLowest(src_, ie.span(), place) - ie.lowest;
    WriteIndices(indices, idx_stride_bytes, values);
    uint8_t* out_lowest = PlaceLowest(dst_, count * 8, Aligned(DstPlacementFor(place), 8));
    const DstWindow w = FillDstWindow(dst_, out_lowest, count * 8);
    MarkAddressed(w, out_lowest, 8, count, 8);
    auto* out = reinterpret_cast<int64_t*>(out_lowest);
    if (accumulate) {
      std::uniform_int_distribution<int64_t> prior(-(int64_t{1} << 60), int64_t{1} << 60);
      for (size_t i = 0; i < count; ++i) out[i] = prior(rng_);
    }
    SnapshotExpected(w);
    scalar_.resolve[slot](indices, idx_stride_bytes, count, dim_size, pitch_bytes,
                          reinterpret_cast<int64_t*>(ExpectedAt(w, out_lowest)), accumulate);
    set_.resolve[slot](indices, idx_stride_bytes, count, dim_size, pitch_bytes, out, accumulate);
    const auto result = CheckDst(w);
    if (!result) {
      ADD_FAILURE() << set_.name << " resolve index type " << slot << " idx_stride_bytes "
                    << idx_stride_bytes << " count " << count << " dim_size " << dim_size
                    << " pitch_bytes " << pitch_bytes << " accumulate " << accumulate << " "
                    << place.ToString() << ": " << result.message();
      return false;
    }
    return true;
  }

  template <typename I>
  void ResolveSuite(int slot) {
    const int64_t s = sizeof(I);
    const std::vector<int64_t> strides = {s, 0, 2 * s, -s, s + 1, -3 * s - 1};
    const std::vector<uint64_t> dims = {1,          2,          3,          7,
                                        1000,       65536,      (1u << 31) - 1,
                                        1u << 31,   0xFFFFFFFFu};
    // |pitch| * dim stays below 2^63: the reference multiplies in int64_t.
    const std::vector<int64_t> pitches = {0, 1, 4, -12, 1 << 20, -(int64_t{1} << 30) + 3};
    // Every count, with the parameters rotating.
    for (size_t count = 0; count <= kSweepCount; ++count) {
      const uint64_t dim = dims[count % dims.size()];
      const int64_t pitch = pitches[(count / dims.size()) % pitches.size()];
      const auto values = MixedIndices<I>(count, dim, 30);
      if (!RunResolve<I>(slot, values, s, dim, pitch, count % 2 == 1,
                         PlacementAt(static_cast<int>(count % kPlacementCount)))) {
        return;
      }
    }
    // Every parameter combination at a few counts.
    for (const int64_t stride : strides) {
      for (const uint64_t dim : dims) {
        for (const int64_t pitch : pitches) {
          for (const bool accumulate : {false, true}) {
            for (const size_t count : {size_t{1}, size_t{7}, size_t{33}, size_t{131}}) {
              const auto values = MixedIndices<I>(count, dim, 40);
              const Placement place = PlacementAt(static_cast<int>(rng_() % kPlacementCount));
              if (!RunResolve<I>(slot, values, stride, dim, pitch, accumulate, place)) return;
            }
          }
        }
      }
    }
    // Every special value alone, in a vector body and in a tail.
    for (const uint64_t dim : dims) {
      for (const I v : SpecialIndices<I>(dim)) {
        for (const size_t count : {size_t{1}, size_t{64 + 3}}) {
          const std::vector<I> values(count, v);
          if (!RunResolve<I>(slot, values, s, dim, 8, false, PlacementAt(0))) return;
        }
      }
    }
    // Large counts.
    for (const size_t count : {size_t{4096 + 5}, size_t{100003}}) {
      for (const int p : {3, 8, 9}) {
        const auto values = MixedIndices<I>(count, 1000, 10);
        if (!RunResolve<I>(slot, values, s, 1000, 24, p == 9, PlacementAt(p))) return;
      }
    }
  }

  // ----------------------------------------------------------------------- find_out_of_range

  template <typename I>
  bool RunFind(int slot, const std::vector<I>& values, int64_t idx_stride_bytes,
               uint64_t dim_size, const Placement& place, size_t expected_position) {
    const size_t count = values.size();
    const Extent ie = StridedExtent(count, idx_stride_bytes, sizeof(I));
    uint8_t* indices = PlaceLowest(src_, ie.span(), place) - ie.lowest;
    WriteIndices(indices, idx_stride_bytes, values);
    const size_t want =
        scalar_.find_out_of_range[slot](indices, idx_stride_bytes, count, dim_size);
    const size_t got = set_.find_out_of_range[slot](indices, idx_stride_bytes, count, dim_size);
    // With overlapping elements the written values are not what is read: trust the reference.
    const bool overlapping = idx_stride_bytes != 0 &&
                             std::abs(idx_stride_bytes) < static_cast<int64_t>(sizeof(I));
    if (got != want || (!overlapping && idx_stride_bytes != 0 && want != expected_position)) {
      ADD_FAILURE() << set_.name << " find_out_of_range index type " << slot
                    << " idx_stride_bytes " << idx_stride_bytes << " count " << count
                    << " dim_size " << dim_size << " " << place.ToString() << ": returned "
                    << got << ", the scalar kernels " << want << ", expected "
                    << expected_position;
      return false;
    }
    return true;
  }

  // In-range values with out-of-range ones at `bad_positions` (ascending); returns the values
  // and the first bad position (count when none).
  template <typename I>
  std::vector<I> IndicesWithBad(size_t count, uint64_t dim_size,
                                const std::vector<size_t>& bad_positions,
                                const std::vector<I>& bad_values) {
    std::vector<I> values(count);
    for (auto& v : values) v = RandomInRange<I>(dim_size);
    std::uniform_int_distribution<size_t> pick(0, bad_values.size() - 1);
    for (const size_t p : bad_positions) values[p] = bad_values[pick(rng_)];
    return values;
  }

  template <typename I>
  void FindSuite(int slot) {
    const int64_t s = sizeof(I);
    const std::vector<int64_t> strides = {s, 0, 2 * s, -s, s + 3, -5};
    const std::vector<uint64_t> dims = {1,    2,     5,          1000,     (1u << 31) - 1,
                                        1u << 31, 0xFFFFFFFFu};
    for (const uint64_t dim : dims) {
      std::vector<I> bad_values;
      for (const I v : SpecialIndices<I>(dim)) {
        if (!InRangeRef<I>(v, dim)) bad_values.push_back(v);
      }
      for (const I v : SpecialIndices<I>(dim)) {
        // Every special value alone at the last position of a vector body and of a tail.
        for (const size_t count : {size_t{64}, size_t{64 + 3}}) {
          std::vector<I> values = IndicesWithBad<I>(count, dim, {}, bad_values);
          values[count - 1] = v;
          if (!RunFind<I>(slot, values, s, dim, PlacementAt(1),
                          InRangeRef<I>(v, dim) ? count : count - 1)) {
            return;
          }
        }
      }
      for (const int64_t stride : strides) {
        // Counts 0..kSweepCount: all in range, or one or two bad values.
        const size_t counts = stride == s ? kSweepCount : 70;
        for (size_t count = 0; count <= counts; ++count) {
          const Placement place = PlacementAt(static_cast<int>(count % kPlacementCount));
          if (!RunFind<I>(slot, IndicesWithBad<I>(count, dim, {}, bad_values), stride, dim,
                          place, count)) {
            return;
          }
          if (count == 0 || bad_values.empty()) continue;
          const size_t p = std::uniform_int_distribution<size_t>(0, count - 1)(rng_);
          std::vector<size_t> bad = {p};
          if (p + 1 < count) {
            bad.push_back(std::uniform_int_distribution<size_t>(p + 1, count - 1)(rng_));
          }
          if (!RunFind<I>(slot, IndicesWithBad<I>(count, dim, {p}, bad_values), stride, dim,
                          place, p) ||
              !RunFind<I>(slot, IndicesWithBad<I>(count, dim, bad, bad_values), stride, dim,
                          place, p)) {
            return;
          }
        }
      }
      // Every position of one bad value in a contiguous run of kSweepCount.
      if (!bad_values.empty()) {
        for (size_t p = 0; p < kSweepCount; ++p) {
          if (!RunFind<I>(slot, IndicesWithBad<I>(kSweepCount, dim, {p}, bad_values), s, dim,
                          PlacementAt(static_cast<int>(p % kPlacementCount)), p)) {
            return;
          }
        }
      }
    }
    // Large counts: the bad value near the end, or none.
    for (const size_t count : {size_t{4096 + 5}, size_t{100003}}) {
      const uint64_t dim = 1000;
      const std::vector<I> bad_values = {
          static_cast<I>(1000),
          std::is_signed_v<I> ? static_cast<I>(-1001) : static_cast<I>(~uint64_t{0})};
      for (const int p : {8, 9, 5}) {
        if (!RunFind<I>(slot, IndicesWithBad<I>(count, dim, {count - 2}, bad_values), s, dim,
                        PlacementAt(p), count - 2) ||
            !RunFind<I>(slot, IndicesWithBad<I>(count, dim, {}, bad_values), s, dim,
                        PlacementAt(p), count)) {
          return;
        }
      }
    }
  }
};

TEST_P(IndexKernelsTest, GatherMatchesScalar) {
  for (int slot = 0; slot < 4; ++slot) {
    const int64_t w = int64_t{1} << slot;
    for (const int64_t ds : {w, -w, 2 * w + 1, int64_t{0}}) {
      for (const int64_t ss : {int64_t{0}, w, -w, int64_t{3}, int64_t{256}}) {
        for (size_t count = 0; count <= kSweepCount; ++count) {
          const bool special = IsSpecialCount(count);
          if (ds != w && !special && count % 5 != 0) continue;
          const size_t table_bytes = 1 + static_cast<size_t>(w) + count * 13 % 4099;
          for (int p = 0; p < kPlacementCount; ++p) {
            if (!special && p != static_cast<int>(count % kPlacementCount)) continue;
            if (!RunGather(slot, ds, ss, count, table_bytes, PlacementAt(p))) return;
          }
        }
        for (const int p : {2, 8, 9}) {
          if (!RunGather(slot, ds, ss, 50001, (1 << 20) + 3, PlacementAt(p))) return;
        }
      }
    }
  }
}

TEST_P(IndexKernelsTest, ResolveMatchesScalar) {
  ResolveSuite<int32_t>(static_cast<int>(IndexType::kInt32));
  ResolveSuite<uint32_t>(static_cast<int>(IndexType::kUint32));
  ResolveSuite<int64_t>(static_cast<int>(IndexType::kInt64));
  ResolveSuite<uint64_t>(static_cast<int>(IndexType::kUint64));
}

TEST_P(IndexKernelsTest, FindOutOfRangeMatchesScalar) {
  FindSuite<int32_t>(static_cast<int>(IndexType::kInt32));
  FindSuite<uint32_t>(static_cast<int>(IndexType::kUint32));
  FindSuite<int64_t>(static_cast<int>(IndexType::kInt64));
  FindSuite<uint64_t>(static_cast<int>(IndexType::kUint64));
}

// The clamp rule of kernels.h on hand-checked values, independent of the scalar reference.
TEST_P(IndexKernelsTest, ResolveFollowsClampRule) {
  const KernelSet& set = *GetParam();
  // dim 5, pitch 10: -1 -> 4, -5 -> 0, -6 -> (wraps to -1, read as huge) 4, 7 -> 4.
  const std::vector<int32_t> idx = {0, 4, 5, -1, -5, -6, 7, std::numeric_limits<int32_t>::min(),
                                    std::numeric_limits<int32_t>::max(), 2, 3, 1, -2, -3, -4, 6,
                                    100};
  const std::vector<int64_t> want = {0, 40, 40, 40, 0, 40, 40, 40, 40, 20, 30, 10, 30, 20, 10,
                                     40, 40};
  std::vector<int64_t> out(idx.size(), -1);
  set.resolve[0](idx.data(), 4, idx.size(), 5, 10, out.data(), false);
  EXPECT_EQ(out, want);
  std::vector<int64_t> acc(idx.size(), 1);
  set.resolve[0](idx.data(), 4, idx.size(), 5, 10, acc.data(), true);
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(acc[i], want[i] + 1) << i;

  const std::vector<uint64_t> uidx = {0, 4, 5, ~uint64_t{0}, uint64_t{1} << 63, 3, 2, 1, 9};
  const std::vector<int64_t> uwant = {0, -28, -28, -28, -28, -21, -14, -7, -28};
  std::vector<int64_t> uout(uidx.size());
  set.resolve[3](uidx.data(), 8, uidx.size(), 5, -7, uout.data(), false);
  EXPECT_EQ(uout, uwant);
}

TEST_P(IndexKernelsTest, FindOutOfRangeReportsFirstBadIndex) {
  const KernelSet& set = *GetParam();
  std::vector<int32_t> idx(100, 0);
  idx[70] = -6;
  idx[90] = 5;
  EXPECT_EQ(set.find_out_of_range[0](idx.data(), 4, idx.size(), 5), 70u);
  idx[70] = -5;
  EXPECT_EQ(set.find_out_of_range[0](idx.data(), 4, idx.size(), 5), 90u);
  idx[90] = 4;
  EXPECT_EQ(set.find_out_of_range[0](idx.data(), 4, idx.size(), 5), idx.size());
  // Unsigned: -1 is UINT32_MAX, out of range; everything is in range of dim 2^32 - 1 except it.
  std::vector<uint32_t> uidx(100, 0xFFFFFFFEu);
  EXPECT_EQ(set.find_out_of_range[1](uidx.data(), 4, uidx.size(), 0xFFFFFFFFu), uidx.size());
  uidx[33] = 0xFFFFFFFFu;
  EXPECT_EQ(set.find_out_of_range[1](uidx.data(), 4, uidx.size(), 0xFFFFFFFFu), 33u);
  // 64-bit extremes.
  std::vector<int64_t> widx(100, -1);
  widx[64] = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(set.find_out_of_range[2](widx.data(), 8, widx.size(), 1), 64u);
  std::vector<uint64_t> uwidx(100, 0);
  uwidx[99] = ~uint64_t{0};
  EXPECT_EQ(set.find_out_of_range[3](uwidx.data(), 8, uwidx.size(), 1), 99u);
}

INSTANTIATE_TEST_SUITE_P(AllTargets, IndexKernelsTest, ::testing::ValuesIn(AllSupportedKernels()),
                         SetName);

}  // namespace
}  // namespace kernel_test
}  // namespace kernels
}  // namespace dmlcpu
