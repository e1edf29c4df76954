// SPDX-License-Identifier: Apache-2.0
// The harness of the per-target kernel tests (kernels_test.cc, index_kernels_test.cc): every
// KernelSet from AllSupportedKernels() must match ScalarKernels() byte for byte and touch nothing
// outside the addressed elements.
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

#ifndef DMLCPU_TESTS_KERNELS_KERNEL_HARNESS_H_
#define DMLCPU_TESTS_KERNELS_KERNEL_HARNESS_H_

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/kernels.h"
#include "support/guarded_region.h"

namespace dmlcpu {
namespace kernels {
namespace kernel_test {

using dmlcpu_test::GuardedRegion;

inline constexpr size_t kGuardBytes = 64;
inline constexpr uint64_t kSeed = 0x5eed'd31c'0de5'1a7eull;

// Counts 0..kSweepCount are all tested: a few vector lengths of the widest target (64 bytes).
inline constexpr size_t kSweepCount = 300;

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
inline constexpr int kPlacementCount = 10;
inline Placement PlacementAt(int i) {
  if (i < 8) return {Placement::Kind::kOffset, static_cast<size_t>(i)};
  return {i == 8 ? Placement::Kind::kFlushStart : Placement::Kind::kFlushEnd, 0};
}

// The dst of a call goes somewhere else than its src: same kind, different misalignment.
inline Placement DstPlacementFor(const Placement& src) {
  if (src.kind != Placement::Kind::kOffset) return src;
  return {Placement::Kind::kOffset, (src.offset_bytes * 5 + 3) % 8};
}

// Same kind, misalignment rounded to `align` (for int64_t arrays).
inline Placement Aligned(const Placement& p, size_t align) {
  return {p.kind, p.offset_bytes / align * align};
}

// Bytes [lowest, end) relative to element 0 that `count` elements of `width` at `stride` cover.
struct Extent {
  int64_t lowest = 0;
  int64_t end = 0;
  size_t span() const { return static_cast<size_t>(end - lowest); }
};

inline Extent StridedExtent(size_t count, int64_t stride_bytes, size_t width) {
  if (count == 0) return {};
  const int64_t last = static_cast<int64_t>(count - 1) * stride_bytes;
  return {std::min<int64_t>(0, last), std::max<int64_t>(0, last) + static_cast<int64_t>(width)};
}

inline uint8_t* PlaceLowest(const GuardedRegion& region, size_t span_bytes, const Placement& p) {
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

inline uint8_t Sentinel(size_t position) { return static_cast<uint8_t>(position * 131 + 71); }

// A written operand: [lowest, lowest + span) may be written, kGuardBytes around it may not.
struct DstWindow {
  uint8_t* begin;
  uint8_t* end;
  uint8_t* lowest;
  size_t span_bytes;
};

// Counts that get every placement (the others get one each, rotating).
inline bool IsSpecialCount(size_t count) {
  if (count <= 9) return true;
  const size_t m = count % 16;
  return m == 0 || m == 1 || m == 15;
}

// A test per KernelSet (the parameter), with its operands' regions and the window checks.
class KernelHarness : public ::testing::TestWithParam<const KernelSet*> {
 protected:
  KernelHarness()
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


  const KernelSet& set_;
  const KernelSet& scalar_;
  std::mt19937_64 rng_;
  GuardedRegion src_;  // read operands
  GuardedRegion dst_;  // written operands
  GuardedRegion aux_;  // gather offsets
  std::vector<uint8_t> expected_;   // the dst window as the scalar kernels left it
  std::vector<uint8_t> addressed_;  // per window byte: 1 where some element lies
};

// The KernelSet's name as a test-name suffix.
inline std::string SetName(const ::testing::TestParamInfo<const KernelSet*>& info) {
  std::string name = info.param->name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

}  // namespace kernel_test
}  // namespace kernels
}  // namespace dmlcpu

#endif  // DMLCPU_TESTS_KERNELS_KERNEL_HARNESS_H_
