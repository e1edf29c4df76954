// SPDX-License-Identifier: Apache-2.0
// The kernels that copy whole blocks and rows (gather_blocks, frame_rows, gather_row,
// transpose_tile) and SpreadPrefetch's schedule, on every KernelSet from AllSupportedKernels()
// and the scalar one, against plain loops: byte for byte, with sentinel bytes or guard pages
// around every written and read span. The per-call kernels' suite is kernels_test.cc.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/kernels.h"
#include "support/guarded_region.h"

namespace dmlcpu {
namespace kernels {
namespace {

using dmlcpu_test::GuardedRegion;

constexpr size_t kGuardBytes = 64;

// Every SIMD set this CPU supports, then the scalar one.
std::vector<const KernelSet*> EverySet() {
  std::vector<const KernelSet*> sets = AllSupportedKernels();
  sets.push_back(&ScalarKernels());
  return sets;
}

// gather_blocks of every set (the scalar one included) against a plain per-block loop for every
// block size up to 300 bytes, adjacent and strided destinations,
// runs of consecutive sources (merged copies, with and without merge_runs), repeated sources,
// with guard bytes around the destination and in its gaps.
TEST(GatherBlocksTest, MatchesPlainLoopForEveryBlockSize) {
  std::mt19937_64 rng(0x6b10c5);
  constexpr size_t kGuardBytes = 64;
  constexpr uint8_t kSentinel = 0xA5;
  for (size_t block_bytes = 1; block_bytes <= 300; ++block_bytes) {
    for (int layout = 0; layout < 2; ++layout) {
      const size_t count = 1 + rng() % 40;
      const int64_t dst_stride = layout == 0 ? static_cast<int64_t>(block_bytes)
                                             : static_cast<int64_t>(block_bytes + 1 + rng() % 9);
      const size_t src_blocks = 24;
      std::vector<uint8_t> src(src_blocks * block_bytes);
      for (auto& b : src) b = static_cast<uint8_t>(rng());
      // Offsets: a mix of runs (k, k+1, ...), repeats (k, k, ...) and random blocks.
      std::vector<int64_t> offsets(count);
      for (size_t i = 0; i < count; ++i) {
        const int kind = static_cast<int>(rng() % 3);
        int64_t block = static_cast<int64_t>(rng() % src_blocks);
        if (i > 0 && kind == 0 && offsets[i - 1] / static_cast<int64_t>(block_bytes) + 1 <
                                      static_cast<int64_t>(src_blocks)) {
          block = offsets[i - 1] / static_cast<int64_t>(block_bytes) + 1;
        } else if (i > 0 && kind == 1) {
          block = offsets[i - 1] / static_cast<int64_t>(block_bytes);
        }
        offsets[i] = block * static_cast<int64_t>(block_bytes);
      }
      const size_t span = (count - 1) * static_cast<size_t>(dst_stride) + block_bytes;
      std::vector<uint8_t> got(span + 2 * kGuardBytes, kSentinel), want = got;
      for (size_t i = 0; i < count; ++i) {
        std::memcpy(want.data() + kGuardBytes + i * dst_stride, src.data() + offsets[i],
                    block_bytes);
      }
      const std::vector<const KernelSet*> sets = EverySet();
      for (const KernelSet* set : sets) {
        std::fill(got.begin(), got.end(), kSentinel);
        set->gather_blocks(got.data() + kGuardBytes, dst_stride, src.data(), offsets.data(),
                           count, block_bytes, set->copy_bytes, /*merge_runs=*/true,
                           /*prefetch_blocks=*/count % 2 == 0);
        ASSERT_EQ(got, want) << "block_bytes " << block_bytes << " count " << count
                             << " dst_stride " << dst_stride << " copy from " << set->name;
        std::fill(got.begin(), got.end(), kSentinel);
        set->gather_blocks(got.data() + kGuardBytes, dst_stride, src.data(), offsets.data(),
                           count, block_bytes, set->copy_bytes_stream, /*merge_runs=*/false,
                           /*prefetch_blocks=*/true);
        ASSERT_EQ(got, want) << "streamed, block_bytes " << block_bytes << " on " << set->name;
      }
    }
  }
}

// frame_rows of every set (the scalar one included) against a plain loop: every row width up
// to 300 bytes for elements of 1, 2, 4 and 8 bytes; borders of 0 to 48 bytes (past the vector
// path's 32), every border width around the 16- and 32-byte moves for rows up to 64 bytes;
// contiguous, gapped and reversed source rows whose first or last byte lies against a guard
// page. Before the framed rows nothing changes; after them only the kFrameSpillBytes may.
TEST(FrameRowsTest, MatchesPlainLoop) {
  std::mt19937_64 rng(0xf4a3e5);
  constexpr uint8_t kSentinel = 0xA5;
  const std::vector<const KernelSet*> sets = EverySet();
  const auto check = [&](size_t width, size_t row_bytes, size_t rows, size_t left_bytes,
                         size_t right_bytes, int layout) {
    const size_t framed_bytes = left_bytes + row_bytes + right_bytes;
    // layout 0: contiguous, 1: gaps between rows, 2: reversed (and gapped)
    const int64_t pitch_bytes =
        static_cast<int64_t>(row_bytes + (layout == 0 ? 0 : rng() % 70));
    const int64_t src_stride_bytes = layout == 2 ? -pitch_bytes : pitch_bytes;
    const size_t span_bytes = (rows - 1) * static_cast<size_t>(pitch_bytes) + row_bytes;
    GuardedRegion region(span_bytes);
    const bool flush_end = rng() % 2 == 0;
    uint8_t* lowest = flush_end ? region.end() - span_bytes : region.begin();
    for (size_t k = 0; k < span_bytes; ++k) lowest[k] = static_cast<uint8_t>(rng());
    const uint8_t* src = layout == 2 ? lowest + (rows - 1) * pitch_bytes : lowest;
    uint8_t pattern[64];
    for (size_t k = 0; k < width; ++k) pattern[k] = static_cast<uint8_t>(rng());
    for (size_t k = width; k < 64; ++k) pattern[k] = pattern[k - width];

    const size_t body_bytes = rows * framed_bytes;
    std::vector<uint8_t> want(kGuardBytes + body_bytes + kFrameSpillBytes + kGuardBytes,
                              kSentinel);
    for (size_t r = 0; r < rows; ++r) {
      uint8_t* to = want.data() + kGuardBytes + r * framed_bytes;
      for (size_t k = 0; k < left_bytes; ++k) to[k] = pattern[k % width];
      std::memcpy(to + left_bytes, src + static_cast<int64_t>(r) * src_stride_bytes, row_bytes);
      for (size_t k = 0; k < right_bytes; ++k) to[left_bytes + row_bytes + k] = pattern[k % width];
    }
    for (const KernelSet* set : sets) {
      std::vector<uint8_t> got(want.size(), kSentinel);
      set->frame_rows(got.data() + kGuardBytes, src, src_stride_bytes, rows, row_bytes,
                      left_bytes, right_bytes, pattern);
      const auto spill = got.begin() + static_cast<ptrdiff_t>(kGuardBytes + body_bytes);
      ASSERT_TRUE(std::equal(got.begin(), spill, want.begin()) &&
                  std::equal(spill + kFrameSpillBytes, got.end(),
                             want.begin() + (spill + kFrameSpillBytes - got.begin())))
          << set->name << ": width " << width << " row_bytes " << row_bytes << " rows " << rows
          << " borders " << left_bytes << "/" << right_bytes << " stride " << src_stride_bytes;
    }
  };
  for (size_t width : {1, 2, 4, 8}) {
    for (size_t row_bytes = width; row_bytes <= 300; row_bytes += width) {
      if (row_bytes <= 64) {
        std::vector<size_t> borders;
        for (size_t b : {size_t{0}, width, 16 - width, size_t{16}, 16 + width, 32 - width,
                         size_t{32}, 32 + width, size_t{48}}) {
          if (b % width == 0) borders.push_back(b);
        }
        for (size_t left_bytes : borders) {
          for (size_t right_bytes : borders) {
            check(width, row_bytes, 3, left_bytes, right_bytes, static_cast<int>(rng() % 3));
          }
        }
      } else {
        check(width, row_bytes, 1 + rng() % 9, rng() % (48 / width + 1) * width,
              rng() % (48 / width + 1) * width, static_cast<int>(rng() % 3));
      }
    }
  }
}

// A buffer whose data() is 64-byte aligned (so that offsets from it fix a destination's
// alignment to cache lines), `bytes` usable bytes.
class LineAlignedBuffer {
 public:
  explicit LineAlignedBuffer(size_t bytes) : store_(bytes / 8 + 16) {}
  uint8_t* data() {
    return reinterpret_cast<uint8_t*>(
        (reinterpret_cast<uintptr_t>(store_.data()) + 63) & ~uintptr_t{63});
  }

 private:
  std::vector<uint64_t> store_;
};

// The kClamp rule, written out independently of the kernels.
template <typename I>
uint64_t ClampForTest(I v, uint64_t dim) {
  uint64_t u = static_cast<uint64_t>(v);
  if (std::is_signed<I>::value && static_cast<int64_t>(v) < 0) {
    u = static_cast<uint64_t>(static_cast<int64_t>(v)) + dim;
  }
  return u < dim ? u : dim - 1;
}

// The KernelSet index slot of index type I (INT32, UINT32, INT64, UINT64 order).
template <typename I>
constexpr int IndexSlotForTest() {
  return std::is_same<I, int32_t>::value    ? 0
         : std::is_same<I, uint32_t>::value ? 1
         : std::is_same<I, int64_t>::value  ? 2
                                            : 3;
}

// The set's gather_row kernel for `width`-byte elements and index slot `slot_i`; `stream`: the
// non-temporal-store variant.
GatherRowFn GatherRowOf(const KernelSet& set, bool stream, uint32_t width, int slot_i) {
  return stream ? set.gather_row_stream[WidthSlot(width)][slot_i]
                : set.gather_row[WidthSlot(width)][slot_i];
}

template <typename I>
void GatherRowSuite(const std::vector<const KernelSet*>& sets, std::mt19937_64& rng) {
  constexpr uint8_t kSentinel = 0xC3;
  const int slot_i = IndexSlotForTest<I>();
  struct Shape {
    uint64_t dim;
    uint64_t pitch_elems;
    bool small_ids;  // ids in [0, 16) only (the src holds just those)
  };
  for (uint32_t width : {1u, 2u, 4u, 8u}) {
    // In-row gathers, strided pitches, one-element dims, and offsets too wide for 32 bits.
    const Shape shapes[] = {
        {300, 1, false}, {7, 3, false}, {1, 1, false}, {uint64_t{1} << 21, 1024, true}};
    for (const Shape& shape : shapes) {
      const int64_t pitch = static_cast<int64_t>(shape.pitch_elems * width);
      const uint64_t rows_held = shape.small_ids ? 16 : shape.dim;
      for (size_t count : {size_t{0}, size_t{1}, size_t{5}, size_t{15}, size_t{16}, size_t{17},
                           size_t{33}, size_t{64}, size_t{100}, size_t{257}}) {
        // src stride per item: 0 (a row's own elements), one element (packed strips), three.
        for (int64_t src_stride : {int64_t{0}, int64_t{width}, int64_t{3 * width}}) {
          std::vector<uint8_t> src(rows_held * static_cast<uint64_t>(pitch) + width +
                                   count * static_cast<uint64_t>(src_stride));
          for (auto& b : src) b = static_cast<uint8_t>(rng());
          std::vector<I> idx(count);
          for (auto& v : idx) {
            if (shape.small_ids) {
              v = static_cast<I>(rng() % 16);
              continue;
            }
            switch (rng() % 4) {
              case 0:  // in range
                v = static_cast<I>(rng() % shape.dim);
                break;
              case 1:  // negative, wrapping into range (signed types)
                v = static_cast<I>(-static_cast<int64_t>(1 + rng() % shape.dim));
                break;
              case 2:  // too big
                v = static_cast<I>(shape.dim + rng() % 50);
                break;
              default:  // anything
                v = static_cast<I>(rng());
                break;
            }
          }
          for (size_t misalign : {size_t{0}, size_t{width}, size_t{4}, size_t{1}}) {
            const size_t guard = 64;
            const size_t total = 2 * guard + misalign + count * width;
            LineAlignedBuffer want_store(total), got_store(total);
            uint8_t* want_base = want_store.data();
            uint8_t* got_base = got_store.data();
            std::memset(want_base, kSentinel, total);
            for (size_t i = 0; i < count; ++i) {
              const uint64_t c = ClampForTest<I>(idx[i], shape.dim);
              std::memcpy(want_base + guard + misalign + i * width,
                          src.data() + i * src_stride + c * static_cast<uint64_t>(pitch), width);
            }
            for (const KernelSet* set : sets) {
              for (int stream = 0; stream < 2; ++stream) {
                std::memset(got_base, kSentinel, total);
                const GatherRowFn fn = GatherRowOf(*set, stream != 0, width, slot_i);
                RowPrefetch prefetch;
                prefetch.next = src.data();
                prefetch.next_bytes = std::min<size_t>(src.size(), 64 << 10);
                prefetch.indices_ahead = count % 3 == 0;
                fn(got_base + guard + misalign, 0, src.data(), src_stride, idx.data(), 0, 1,
                   count, shape.dim, pitch, count % 2 == 0 ? &prefetch : nullptr);
                StoreFence();
                ASSERT_EQ(0, std::memcmp(got_base, want_base, total))
                    << set->name << (stream ? " stream" : "") << " width " << width
                    << " index bytes " << sizeof(I) << " dim " << shape.dim << " pitch " << pitch
                    << " count " << count << " misalign " << misalign << " src stride "
                    << src_stride;
              }
            }
          }
        }
      }
    }
  }
}

// gather_row and gather_row_stream of every set (the scalar one included) against a plain loop
// of the clamp rule: every width and index type, in-range, negative, too large and arbitrary
// ids, strided pitches, per-item src strides, offsets too wide for 32-bit gathers, dst at every
// misalignment (streamed from the first aligned vector on), guard bytes around dst.
TEST(GatherRowTest, MatchesPlainLoop) {
  std::mt19937_64 rng(0x9a7e5);
  const std::vector<const KernelSet*> sets = EverySet();
  GatherRowSuite<int32_t>(sets, rng);
  GatherRowSuite<uint32_t>(sets, rng);
  GatherRowSuite<int64_t>(sets, rng);
  GatherRowSuite<uint64_t>(sets, rng);
}

// SpreadPrefetch's fixed-point schedule against exact arithmetic: after `done` of `total` items
// it has requested the lines below the same fraction of the span (rounded up by at most one
// byte), never a line past the span, and every line by done == total; over spans of 1 byte to
// 64 KiB, each at a random offset within its first line, and totals from 1 to 2^32 - 1.
TEST(SpreadPrefetchTest, TargetIsTheFractionDone) {
  std::mt19937_64 rng(0x5b7e4d);
  for (uint64_t span_bytes : {uint64_t{1}, uint64_t{63}, uint64_t{64}, uint64_t{65},
                              uint64_t{16384}, uint64_t{40000}, uint64_t{65536}}) {
    for (uint64_t total : {uint64_t{1}, uint64_t{3}, uint64_t{7}, uint64_t{2048}, uint64_t{4096},
                           uint64_t{100003}, (uint64_t{1} << 32) - 1}) {
      const uintptr_t span = 0x100000 + rng() % 64;
      const SpreadPrefetch spread(reinterpret_cast<const void*>(span), span_bytes, total);
      const uint64_t lines_bytes = span % 64 + span_bytes;
      ASSERT_EQ(spread.lines_bytes(), lines_bytes);
      EXPECT_EQ(spread.TargetBytes(0), 0u);
      EXPECT_EQ(spread.TargetBytes(total), lines_bytes) << span_bytes << " " << total;
      uint64_t previous = 0;
      for (int k = 0; k < 200; ++k) {
        const uint64_t done = k < 100 ? std::min<uint64_t>(k, total) : rng() % (total + 1);
        const auto exact_times_total = static_cast<unsigned __int128>(lines_bytes) * done;
        const auto floor_bytes = static_cast<uint64_t>(exact_times_total / total);
        const uint64_t target = spread.TargetBytes(done);
        ASSERT_GE(target, floor_bytes) << span_bytes << " " << total << " " << done;
        ASSERT_LE(target, floor_bytes + 1) << span_bytes << " " << total << " " << done;
        ASSERT_LE(target, lines_bytes) << span_bytes << " " << total << " " << done;
        if (k < 100) {
          ASSERT_GE(target, previous) << span_bytes << " " << total << " " << done;
          previous = target;
        }
      }
    }
  }
  const SpreadPrefetch none(nullptr, 4096, 100);
  EXPECT_EQ(none.TargetBytes(100), 0u);
}

template <typename I>
void GatherRowsSuite(const std::vector<const KernelSet*>& sets, std::mt19937_64& rng) {
  constexpr uint8_t kSentinel = 0x3C;
  const int slot_i = IndexSlotForTest<I>();
  for (uint32_t width : {1u, 2u, 4u, 8u}) {
    const uint64_t dim = 97;
    for (size_t count : {size_t{1}, size_t{16}, size_t{19}, size_t{40}}) {
      // One packed-strip layout: item i of a row reads column i of the table's rows.
      const auto src_stride = static_cast<int64_t>(width);
      const auto pitch = static_cast<int64_t>(count * width);
      std::vector<uint8_t> src(dim * static_cast<uint64_t>(pitch));
      for (auto& b : src) b = static_cast<uint8_t>(rng());
      for (size_t rows : {size_t{2}, size_t{3}, size_t{9}}) {
        // dst rows back to back, with element-sized gaps, and a pitch that is not a multiple of
        // the width (every other row misaligned); index rows with a gap of 0, 1 or 5 ids.
        for (int layout = 0; layout < 3; ++layout) {
          const size_t dst_pitch = count * width + (layout == 0 ? 0 : layout == 1 ? width : 1);
          const size_t idx_pitch_ids = count + (layout == 0 ? 0 : layout == 1 ? 1 : 5);
          std::vector<I> idx(rows * idx_pitch_ids);
          for (auto& v : idx) {
            v = rng() % 3 == 0 ? static_cast<I>(rng()) : static_cast<I>(rng() % dim);
          }
          const size_t guard = 64;
          const size_t total = 2 * guard + rows * dst_pitch;
          LineAlignedBuffer want_store(total), got_store(total);
          uint8_t* want_base = want_store.data();
          uint8_t* got_base = got_store.data();
          std::memset(want_base, kSentinel, total);
          for (size_t r = 0; r < rows; ++r) {
            for (size_t i = 0; i < count; ++i) {
              const uint64_t c = ClampForTest<I>(idx[r * idx_pitch_ids + i], dim);
              std::memcpy(want_base + guard + r * dst_pitch + i * width,
                          src.data() + i * width + c * static_cast<uint64_t>(pitch), width);
            }
          }
          for (const KernelSet* set : sets) {
            for (int stream = 0; stream < 2; ++stream) {
              std::memset(got_base, kSentinel, total);
              const GatherRowFn fn = GatherRowOf(*set, stream != 0, width, slot_i);
              RowPrefetch prefetch;
              prefetch.index_row_ahead_bytes =
                  static_cast<int64_t>(16 * idx_pitch_ids * sizeof(I));
              fn(got_base + guard, static_cast<int64_t>(dst_pitch), src.data(), src_stride,
                 idx.data(), static_cast<int64_t>(idx_pitch_ids * sizeof(I)), rows, count, dim,
                 pitch, layout == 1 ? nullptr : &prefetch);
              StoreFence();
              ASSERT_EQ(0, std::memcmp(got_base, want_base, total))
                  << set->name << (stream ? " stream" : "") << " width " << width
                  << " index bytes " << sizeof(I) << " count " << count << " rows " << rows
                  << " layout " << layout;
            }
          }
        }
      }
    }
  }
}

// One gather_row call for many rows (packed strips): each row at its own dst and index pitch,
// every width and index type, rows whose dst alignment differs from the first row's, the
// index-row prefetch on and off, sentinels around and between the dst rows.
TEST(GatherRowTest, ManyRowsPerCall) {
  std::mt19937_64 rng(0x40e5);
  const std::vector<const KernelSet*> sets = EverySet();
  GatherRowsSuite<int32_t>(sets, rng);
  GatherRowsSuite<uint32_t>(sets, rng);
  GatherRowsSuite<int64_t>(sets, rng);
  GatherRowsSuite<uint64_t>(sets, rng);
}

// transpose_tile and transpose_tile_stream of every set (the scalar one included) against a
// plain element loop: every width, tiles from 1 x 1 to past two 64-byte blocks each way (so
// whole blocks, leftover rows and leftover columns of less and more than a vector all occur),
// 2 to 16 columns into a contiguous dst (the interleave path), padded, power-of-two and negative
// src row pitches, dst rows at every 4-byte misalignment and line-aligned (where the stream
// variant streams), with sentinels around the destination and in the gaps between its rows.
TEST(TransposeTileTest, MatchesPlainLoop) {
  std::mt19937_64 rng(0x7a05e);
  constexpr uint8_t kSentinel = 0x5C;
  const std::vector<const KernelSet*> sets = EverySet();
  for (uint32_t width : {1u, 2u, 4u, 8u}) {
    const size_t side = 64 / width;  // elements per block side
    const std::vector<size_t> extents = {1,        2,        4,        8,        16,
                                         side - 1, side,     side + 3, side + side / 2 + 1,
                                         2 * side + 5};
    for (size_t rows : extents) {
      for (size_t cols : extents) {
        for (int variant = 0; variant < 5; ++variant) {
          // src: cols rows of `rows` elements; dst: rows rows of `cols` elements. Variants 0, 3
          // and 4 write one contiguous dst run (line-aligned in 0; misaligned in 3, whose src
          // rows go backwards, and in 4).
          const bool packed_dst = variant == 0 || variant >= 3;
          const size_t src_pitch = variant == 2 ? 4096 : rows * width + (variant == 1 ? 24 : 0);
          const size_t dst_pitch = cols * width + (packed_dst ? 0 : 8 * (1 + rng() % 9));
          const size_t misalign = variant == 0 ? 0 : 4 * (rng() % 16);
          const bool backwards = variant == 3;
          std::vector<uint8_t> src((cols - 1) * src_pitch + rows * width);
          for (auto& b : src) b = static_cast<uint8_t>(rng());
          const size_t guard = 64;
          const size_t dst_span = (rows - 1) * dst_pitch + cols * width;
          // Misalign 0 puts dst rows on line boundaries.
          const size_t total = guard + misalign + dst_span + guard;
          LineAlignedBuffer want_store(total), got_store(total);
          uint8_t* want_base = want_store.data();
          uint8_t* got_base = got_store.data();
          std::memset(want_base, kSentinel, total);
          uint8_t* want = want_base + guard + misalign;
          for (size_t r = 0; r < rows; ++r) {
            for (size_t c = 0; c < cols; ++c) {
              std::memcpy(want + r * dst_pitch + c * width, src.data() + c * src_pitch + r * width,
                          width);
            }
          }
          for (const KernelSet* set : sets) {
            for (int stream = 0; stream < 2; ++stream) {
              std::memset(got_base, kSentinel, total);
              const TransposeTileFn fn = stream ? set->transpose_tile_stream[WidthSlot(width)]
                                                : set->transpose_tile[WidthSlot(width)];
              // Backwards: src row c is passed as row cols - 1 - c of a negative pitch.
              if (backwards) {
                std::vector<uint8_t> reversed(src.size());
                for (size_t c = 0; c < cols; ++c) {
                  std::memcpy(reversed.data() + (cols - 1 - c) * src_pitch,
                              src.data() + c * src_pitch, rows * width);
                }
                fn(got_base + guard + misalign, static_cast<int64_t>(dst_pitch),
                   reversed.data() + (cols - 1) * src_pitch, -static_cast<int64_t>(src_pitch),
                   rows, cols);
              } else {
                fn(got_base + guard + misalign, static_cast<int64_t>(dst_pitch), src.data(),
                   static_cast<int64_t>(src_pitch), rows, cols);
              }
              StoreFence();
              ASSERT_EQ(0, std::memcmp(got_base, want_base, total))
                  << set->name << (stream ? " stream" : "") << " width " << width << " rows "
                  << rows << " cols " << cols << " variant " << variant;
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace kernels
}  // namespace dmlcpu
