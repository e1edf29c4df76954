// SPDX-License-Identifier: Apache-2.0
// Per-target kernel tests: every KernelSet from AllSupportedKernels() must match ScalarKernels()
// byte for byte, and must touch nothing outside the addressed elements. The block and row
// kernels' tests against plain loops are in row_kernels_test.cc (the same binary).
//
// How "nothing outside" is checked:
// - Every operand lives in a GuardedRegion: memory with an inaccessible page on each side. Read
//   operands are placed flush against either guard page (so a read one byte past either end of
//   the exact extent faults) or at offsets 0..7 from a 64-byte boundary (misaligned pointers).
// - Written operands get kGuardBytes of a position-dependent sentinel on each side (where the
//   placement leaves room) and in every gap of a strided dst. After each call every byte that no
//   element covers must still hold the sentinel (checked against a per-byte map of the
//   elements, not against the reference), and the whole window must equal the same window
//   written by the scalar reference.
// - A kernel that reads past an exact extent crashes the test binary (with the kernel in the
//   stack) rather than failing an assertion.

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "gtest/gtest.h"
#include "hwy/targets.h"
#include "kernels/kernels.h"
#include "support/guarded_region.h"

namespace dmlcpu {
namespace kernels {
namespace {

using dmlcpu_test::GuardedRegion;

constexpr size_t kGuardBytes = 64;
constexpr uint64_t kSeed = 0x5eed'd31c'0de5'1a7eull;

// Counts 0..kSweepCount are all tested: a few vector lengths of the widest target (64 bytes).
constexpr size_t kSweepCount = 300;

// ------------------------------------------------------------------------------------------
// Memory

// Where an operand's lowest addressed byte goes inside its region.
struct Placement {
  enum class Kind { kOffset, kFlushStart, kFlushEnd };
  Kind kind;
  size_t offset_bytes;  // kOffset only: lowest byte at begin + kGuardBytes + offset_bytes

  std::string ToString() const {
    switch (kind) {
      case Kind::kFlushStart:
        return "flush-start";
      case Kind::kFlushEnd:
        return "flush-end";
      case Kind::kOffset:
        break;
    }
    return "offset " + std::to_string(offset_bytes);
  }
};

// Offsets 0..7, then flush against each guard page.
constexpr int kPlacementCount = 10;
Placement PlacementAt(int i) {
  if (i < 8) return {Placement::Kind::kOffset, static_cast<size_t>(i)};
  return {i == 8 ? Placement::Kind::kFlushStart : Placement::Kind::kFlushEnd, 0};
}

// The dst of a call goes somewhere else than its src: same kind, different misalignment.
Placement DstPlacementFor(const Placement& src) {
  if (src.kind != Placement::Kind::kOffset) return src;
  return {Placement::Kind::kOffset, (src.offset_bytes * 5 + 3) % 8};
}

// Same kind, misalignment rounded to `align` (for int64_t arrays).
Placement Aligned(const Placement& p, size_t align) {
  return {p.kind, p.offset_bytes / align * align};
}

// Bytes [lowest, end) relative to element 0 that `count` elements of `width` at `stride` cover.
struct Extent {
  int64_t lowest = 0;
  int64_t end = 0;
  size_t span() const { return static_cast<size_t>(end - lowest); }
};

Extent StridedExtent(size_t count, int64_t stride_bytes, size_t width) {
  if (count == 0) return {};
  const int64_t last = static_cast<int64_t>(count - 1) * stride_bytes;
  return {std::min<int64_t>(0, last), std::max<int64_t>(0, last) + static_cast<int64_t>(width)};
}

uint8_t* PlaceLowest(const GuardedRegion& region, size_t span_bytes, const Placement& p) {
  if (span_bytes + 2 * kGuardBytes + 8 > region.size_bytes()) std::abort();
  switch (p.kind) {
    case Placement::Kind::kFlushStart:
      return region.begin();
    case Placement::Kind::kFlushEnd:
      return region.end() - span_bytes;
    case Placement::Kind::kOffset:
      break;
  }
  return region.begin() + kGuardBytes + p.offset_bytes;
}

uint8_t Sentinel(size_t position) { return static_cast<uint8_t>(position * 131 + 71); }

// A written operand: [lowest, lowest + span) may be written, kGuardBytes around it may not.
struct DstWindow {
  uint8_t* begin;
  uint8_t* end;
  uint8_t* lowest;
  size_t span_bytes;
};

// ------------------------------------------------------------------------------------------
// Fixture

// Counts that get every placement (the others get one each, rotating).
bool IsSpecialCount(size_t count) {
  if (count <= 9) return true;
  const size_t m = count % 16;
  return m == 0 || m == 1 || m == 15;
}

class KernelsTest : public ::testing::TestWithParam<const KernelSet*> {
 protected:
  KernelsTest()
      : set_(*GetParam()),
        scalar_(ScalarKernels()),
        rng_(kSeed),
        src_(8 << 20),
        dst_(8 << 20),
        aux_(2 << 20) {
    // Read-only data: random bytes.
    FillRandom(src_.begin(), src_.size_bytes());
    FillRandom(aux_.begin(), aux_.size_bytes());
  }

  void FillRandom(uint8_t* p, size_t bytes) {
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
      const uint64_t v = rng_();
      std::memcpy(p + i, &v, 8);
    }
    for (; i < bytes; ++i) p[i] = static_cast<uint8_t>(rng_());
  }

  // Fills the window around [lowest, lowest + span) in `region` with the sentinel.
  DstWindow FillDstWindow(const GuardedRegion& region, uint8_t* lowest, size_t span_bytes) {
    DstWindow w;
    w.lowest = lowest;
    w.span_bytes = span_bytes;
    w.begin = lowest - std::min<size_t>(kGuardBytes, static_cast<size_t>(lowest - region.begin()));
    w.end = lowest + span_bytes +
            std::min<size_t>(kGuardBytes, static_cast<size_t>(region.end() - lowest - span_bytes));
    for (uint8_t* p = w.begin; p < w.end; ++p) *p = Sentinel(static_cast<size_t>(p - w.begin));
    addressed_.assign(static_cast<size_t>(w.end - w.begin), 0);
    return w;
  }

  // Marks `count` elements of `width` bytes at first + i * stride_bytes as writable; every other
  // byte of the window (guards, and gaps between strided elements) must keep its sentinel.
  void MarkAddressed(const DstWindow& w, const uint8_t* first, int64_t stride_bytes,
                     size_t count, size_t width) {
    for (size_t i = 0; i < count; ++i) {
      const uint8_t* e = first + static_cast<int64_t>(i) * stride_bytes;
      std::memset(addressed_.data() + (e - w.begin), 1, width);
    }
  }

  // Copies the window (as it is now) to expected_; returns where `p` lands in the copy.
  void SnapshotExpected(const DstWindow& w) { expected_.assign(w.begin, w.end); }
  uint8_t* ExpectedAt(const DstWindow& w, uint8_t* p) {
    return expected_.data() + (p - w.begin);
  }

  // Bytes no element covers must still hold the sentinel, and the whole window must equal
  // expected_ (what the scalar kernels wrote).
  ::testing::AssertionResult CheckDst(const DstWindow& w) const {
    const size_t n = static_cast<size_t>(w.end - w.begin);
    for (size_t i = 0; i < n; ++i) {
      const uint8_t* p = w.begin + i;
      const bool in_extent = p >= w.lowest && p < w.lowest + w.span_bytes;
      if (!addressed_[i] && *p != Sentinel(i)) {
        return ::testing::AssertionFailure()
               << "byte at " << (p - w.lowest) << " from the lowest element belongs to no element"
               << (in_extent ? " (a gap between elements)" : " (a guard)")
               << " but was written";
      }
      if (*p != expected_[i]) {
        return ::testing::AssertionFailure()
               << "byte at " << (p - w.lowest) << " from the lowest element is "
               << int{*p} << ", the scalar kernels wrote " << int{expected_[i]}
               << (in_extent ? "" : " (outside the extent)");
      }
    }
    return ::testing::AssertionSuccess();
  }

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
    // copy_bytes' vector loop covers 512 B-256 KiB: sizes at its upper end too.
    for (const size_t bytes : {size_t{4096}, size_t{6400}, size_t{65536 + 7},
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

  const KernelSet& set_;
  const KernelSet& scalar_;
  bool unfenced_ = false;  // copy_bytes_stream_unfenced + StoreFence instead of copy_bytes_stream
  bool strided_stream_ = false;  // copy_strided_stream + StoreFence instead of copy_strided
  std::mt19937_64 rng_;
  GuardedRegion src_;  // read operands
  GuardedRegion dst_;  // written operands
  GuardedRegion aux_;  // gather offsets
  std::vector<uint8_t> expected_;   // the dst window as the scalar kernels left it
  std::vector<uint8_t> addressed_;  // per window byte: 1 where some element lies
};

// ------------------------------------------------------------------------------------------
// Tests

TEST_P(KernelsTest, KernelSetIsComplete) {
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

TEST_P(KernelsTest, CopyBytesMatchesScalar) { CopyBytesSuite(/*stream=*/false); }

TEST_P(KernelsTest, CopyBytesStreamMatchesScalar) { CopyBytesSuite(/*stream=*/true); }

TEST_P(KernelsTest, CopyBytesStreamUnfencedMatchesScalar) {
  unfenced_ = true;
  CopyBytesSuite(/*stream=*/true);
}

TEST_P(KernelsTest, CopyStridedMatchesScalar) { CopyStridedSuite(); }

TEST_P(KernelsTest, CopyStridedLargeCounts) { CopyStridedLargeSuite(); }

TEST_P(KernelsTest, CopyStridedStreamMatchesScalar) {
  strided_stream_ = true;
  CopyStridedSuite();
}

TEST_P(KernelsTest, CopyStridedStreamLargeCounts) {
  strided_stream_ = true;
  CopyStridedLargeSuite();
}

// The streamed body starts at dst's first 64-byte boundary: every head length, including dst
// not aligned to its elements (then nothing is streamed).
TEST_P(KernelsTest, CopyStridedStreamEveryDstOffset) {
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

TEST_P(KernelsTest, GatherMatchesScalar) {
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

TEST_P(KernelsTest, ResolveMatchesScalar) {
  ResolveSuite<int32_t>(static_cast<int>(IndexType::kInt32));
  ResolveSuite<uint32_t>(static_cast<int>(IndexType::kUint32));
  ResolveSuite<int64_t>(static_cast<int>(IndexType::kInt64));
  ResolveSuite<uint64_t>(static_cast<int>(IndexType::kUint64));
}

TEST_P(KernelsTest, FindOutOfRangeMatchesScalar) {
  FindSuite<int32_t>(static_cast<int>(IndexType::kInt32));
  FindSuite<uint32_t>(static_cast<int>(IndexType::kUint32));
  FindSuite<int64_t>(static_cast<int>(IndexType::kInt64));
  FindSuite<uint64_t>(static_cast<int>(IndexType::kUint64));
}

// The clamp rule of kernels.h on hand-checked values, independent of the scalar reference.
TEST_P(KernelsTest, ResolveFollowsClampRule) {
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

TEST_P(KernelsTest, FindOutOfRangeReportsFirstBadIndex) {
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

TEST_P(KernelsTest, CopyStridedFlipAndDeinterleave) {
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

std::string SetName(const ::testing::TestParamInfo<const KernelSet*>& info) {
  std::string name = info.param->name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllTargets, KernelsTest, ::testing::ValuesIn(AllSupportedKernels()),
                         SetName);

// ------------------------------------------------------------------------------------------
// Dispatch

TEST(KernelDispatchTest, AllSupportedKernelsListsEachCompiledTargetBestFirst) {
  const std::vector<const KernelSet*> sets = AllSupportedKernels();
  ASSERT_FALSE(sets.empty());
  EXPECT_EQ(sets.front(), &BestKernels());
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
}  // namespace kernels
}  // namespace dmlcpu
