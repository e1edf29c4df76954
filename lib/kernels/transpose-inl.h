// SPDX-License-Identifier: Apache-2.0
// The transpose kernel, compiled once per SIMD target (kernels.cc): transpose_tile and its
// stream variant. Contracts are those of kernels.h.
//
// Paths, in order:
// - tiles of 2, 4 or 8 columns (16 for 1-byte elements) whose dst is one contiguous run: an
//   interleave of that many src rows, vector by vector (DEPTH_TO_SPACE's inner pairs);
// - blocks of one 64-byte dst line by one line: src lines transposed in registers as square
//   sub-blocks of one vector (at most 32 bytes) per row; where two vectors make a line (4- and
//   8-byte elements) two sub-blocks side by side give whole dst lines straight from registers,
//   else they are assembled in an L1 buffer; stored line by line either way (streamed when
//   line-aligned in the _stream variant). On AVX-512, 4- and 8-byte elements load each src line
//   as one vector, transpose the square in registers and store each dst line as one vector;
// - what is left: single sub-blocks stored directly, then element by element.

// Per-target include guard (toggled by foreach_target.h).
#if defined(DMLCPU_KERNELS_TRANSPOSE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DMLCPU_KERNELS_TRANSPOSE_INL_H_
#undef DMLCPU_KERNELS_TRANSPOSE_INL_H_
#else
#define DMLCPU_KERNELS_TRANSPOSE_INL_H_
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "hwy/highway.h"
#include "kernels/helpers-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dmlcpu {
namespace kernels {
namespace HWY_NAMESPACE {

// ------------------------------ transpose_tile

// Stores one 64-byte line: with kStream and a line-aligned destination by non-temporal vector
// stores (a whole line each, so the write-combining buffer goes out full), else memcpy.
template <bool kStream>
HWY_INLINE void StoreLine(uint8_t* HWY_RESTRICT to, const uint8_t* HWY_RESTRICT line) {
#if DMLCPU_KERNELS_HAVE_VECTORS
  if constexpr (kStream) {
    const hn::ScalableTag<uint8_t> d;
    const size_t lanes = hn::Lanes(d);
    if (lanes <= 64 && 64 % lanes == 0 && (reinterpret_cast<uintptr_t>(to) & 63) == 0) {
      for (size_t i = 0; i < 64; i += lanes) hn::Stream(hn::LoadU(d, line + i), d, to + i);
      return;
    }
  }
#endif
  std::memcpy(to, line, 64);
}

// Element (r, c) of a tile: dst row r, column c, and its source, src row c, element r.
template <typename T>
struct TileAt {
  uint8_t* dst;
  int64_t dst_row_stride_bytes;
  const uint8_t* src;
  int64_t src_row_stride_bytes;

  uint8_t* Dst(size_t r, size_t c) const {
    return dst + static_cast<int64_t>(r) * dst_row_stride_bytes + c * sizeof(T);
  }
  const uint8_t* Src(size_t r, size_t c) const {
    return src + static_cast<int64_t>(c) * src_row_stride_bytes + r * sizeof(T);
  }
};

// Element by element over dst rows [r0, r1) x columns [c0, c1), reading src rows in order.
template <typename T>
HWY_INLINE void TransposeScalar(const TileAt<T>& at, size_t r0, size_t r1, size_t c0,
                                size_t c1) {
  for (size_t c = c0; c < c1; ++c) {
    for (size_t r = r0; r < r1; ++r) std::memcpy(at.Dst(r, c), at.Src(r, c), sizeof(T));
  }
}

#if DMLCPU_KERNELS_HAVE_VECTORS

// Vectors of the transpose paths: 16 bytes for 1-byte lanes (a 16 x 16 sub-block fills 16
// registers), else up to 32 bytes, i.e. one or two 128-bit blocks.
template <typename T>
using TransposeTag = hn::CappedTag<T, (sizeof(T) == 1 ? 16 : 32) / sizeof(T)>;

// An M-way interleave inside each 128-bit block: log2(M) rounds, each pairing v[i] with
// v[i + M/2] (lower halves to v[2i], upper to v[2i + 1]). Afterwards v[k] holds, per block, the
// k-th block-sized segment of v0[0] v1[0] ... v(M-1)[0] v0[1] ... over that block's lanes; with
// M = lanes per block that is the block's transpose (v[k] = column k).
template <size_t M, class D, class V>
HWY_INLINE void InterleaveRounds(D d, V* v) {
  for (size_t round = 1; round < M; round *= 2) {
    V t[M];
    for (size_t i = 0; i < M / 2; ++i) {
      t[2 * i] = hn::InterleaveLower(d, v[i], v[i + M / 2]);
      t[2 * i + 1] = hn::InterleaveUpper(d, v[i], v[i + M / 2]);
    }
    for (size_t i = 0; i < M; ++i) v[i] = t[i];
  }
}

// Square transpose of one vector per row: v[i] = src row i on entry, dst row i on exit. Each
// group of block-many rows is first transposed per block; with two blocks per vector the blocks
// are then swapped, with four (AVX-512) each set of four vectors is transposed block-wise.
template <class D, class V>
HWY_INLINE void TransposeSquare(D d, V* v) {
  constexpr size_t kN = hn::MaxLanes(D());
  constexpr size_t kK = 16 / sizeof(hn::TFromD<D>);  // lanes per 128-bit block
  static_assert(kN == kK || kN == 2 * kK || kN == 4 * kK, "one, two or four blocks per vector");
  for (size_t g = 0; g < kN; g += kK) InterleaveRounds<kK>(d, v + g);
  if constexpr (kN == 2 * kK) {
    for (size_t j = 0; j < kK; ++j) {
      const V lo = hn::ConcatLowerLower(d, v[kK + j], v[j]);
      v[kK + j] = hn::ConcatUpperUpper(d, v[kK + j], v[j]);
      v[j] = lo;
    }
  } else if constexpr (kN == 4 * kK) {
    // Block b of v[g * kK + k] holds element b * kK + k of src rows g * kK .. g * kK + kK - 1:
    // dst row b * kK + k is block b of v[k], v[kK + k], v[2kK + k], v[3kK + k], in that order.
    for (size_t k = 0; k < kK; ++k) {
      V* x = v + k;
      const V p0 = hn::ConcatLowerLower(d, x[2 * kK], x[0]);  // blocks x0 x1 z0 z1
      const V p1 = hn::ConcatUpperUpper(d, x[2 * kK], x[0]);  // x2 x3 z2 z3
      const V q0 = hn::ConcatLowerLower(d, x[3 * kK], x[kK]);  // y0 y1 w0 w1
      const V q1 = hn::ConcatUpperUpper(d, x[3 * kK], x[kK]);  // y2 y3 w2 w3
      x[0] = hn::OddEvenBlocks(hn::SwapAdjacentBlocks(q0), p0);
      x[kK] = hn::OddEvenBlocks(q0, hn::SwapAdjacentBlocks(p0));
      x[2 * kK] = hn::OddEvenBlocks(hn::SwapAdjacentBlocks(q1), p1);
      x[3 * kK] = hn::OddEvenBlocks(q1, hn::SwapAdjacentBlocks(p1));
    }
  }
}

// Dst rows [r0, r0 + N) x columns [c0, c0 + N) (N = lanes), stored to `to` rows of
// to_stride_bytes: the dst itself or a line buffer.
template <class D>
HWY_INLINE void TransposeSubBlock(D d, const TileAt<hn::TFromD<D>>& at, size_t r0, size_t c0,
                                  uint8_t* to, int64_t to_stride_bytes) {
  using T = hn::TFromD<D>;
  constexpr size_t kN = hn::MaxLanes(D());
  hn::Vec<D> v[kN];
  for (size_t i = 0; i < kN; ++i) v[i] = hn::LoadU(d, AsLanes<T>(at.Src(r0, c0 + i)));
  TransposeSquare(d, v);
  for (size_t j = 0; j < kN; ++j) {
    hn::StoreU(v[j], d, AsLanes<T>(to + static_cast<int64_t>(j) * to_stride_bytes));
  }
}

// dst rows [r0, r0 + N) x columns [c0, c0 + 2N) (N = lanes, 2N elements = one 64-byte line): two
// sub-blocks side by side transposed in registers, then each dst row's line stored whole, its
// two vectors back to back (streamed where the line is aligned, in the _stream variant).
template <bool kStream, class D>
HWY_INLINE void TransposeLinePair(D d, const TileAt<hn::TFromD<D>>& at, size_t r0, size_t c0) {
  using T = hn::TFromD<D>;
  constexpr size_t kN = hn::MaxLanes(D());
  static_assert(2 * kN * sizeof(T) == 64, "two vectors per line");
  hn::Vec<D> v[kN], w[kN];
  for (size_t i = 0; i < kN; ++i) {
    v[i] = hn::LoadU(d, AsLanes<T>(at.Src(r0, c0 + i)));
    w[i] = hn::LoadU(d, AsLanes<T>(at.Src(r0, c0 + kN + i)));
  }
  TransposeSquare(d, v);
  TransposeSquare(d, w);
  uint8_t* row = at.Dst(r0, c0);
  for (size_t j = 0; j < kN; ++j, row += at.dst_row_stride_bytes) {
    T* to = AsLanes<T>(row);
    if (kStream && (reinterpret_cast<uintptr_t>(to) & 63) == 0) {
      hn::Stream(v[j], d, to);
      hn::Stream(w[j], d, to + kN);
    } else {
      hn::StoreU(v[j], d, to);
      hn::StoreU(w[j], d, to + kN);
    }
  }
}

// Prefetches into L2 the src lines of the tile after [r0, r0 + L) x [c0, c0 + L) (L = one 64-byte
// line of elements), ahead_bytes further along the same src rows: where tiles sweep along the src
// rows. A prefetch never faults, so past the end of the src it costs only the instruction.
template <typename T>
HWY_INLINE void PrefetchNextTile(const TileAt<T>& at, size_t r0, size_t c0, size_t ahead_bytes) {
  for (size_t c = 0; c < 64 / sizeof(T); ++c) {
    const uintptr_t ahead = reinterpret_cast<uintptr_t>(at.Src(r0, c0 + c)) + ahead_bytes;
    __builtin_prefetch(reinterpret_cast<const void*>(ahead), 0, 1);
  }
}

// One vector per 64-byte line (AVX-512), for elements of 4 and 8 bytes: TransposeLineSquare
// instead of TransposeLines.
template <typename T>
using LineTag = hn::CappedTag<T, 64 / sizeof(T)>;
template <typename T>
constexpr bool kLineVectors = (HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL) &&
                              sizeof(T) >= 4;

// dst rows [r0, r0 + L) x columns [c0, c0 + L), L = one 64-byte line of elements: the L src
// lines loaded whole, transposed in registers and stored as whole dst lines (streamed where
// aligned, in the _stream variant).
template <bool kStream, class D>
HWY_INLINE void TransposeLineSquare(D d, const TileAt<hn::TFromD<D>>& at, size_t r0, size_t c0,
                                    size_t ahead_bytes) {
  using T = hn::TFromD<D>;
  constexpr size_t kL = hn::MaxLanes(D());
  static_assert(kL * sizeof(T) == 64, "one vector per line");
  PrefetchNextTile(at, r0, c0, ahead_bytes);
  hn::Vec<D> v[kL];
  for (size_t c = 0; c < kL; ++c) v[c] = hn::LoadU(d, AsLanes<T>(at.Src(r0, c0 + c)));
  TransposeSquare(d, v);
  uint8_t* row = at.Dst(r0, c0);
  for (size_t r = 0; r < kL; ++r, row += at.dst_row_stride_bytes) {
    T* to = AsLanes<T>(row);
    if (kStream && (reinterpret_cast<uintptr_t>(to) & 63) == 0) {
      hn::Stream(v[r], d, to);
    } else {
      hn::StoreU(v[r], d, to);
    }
  }
}

// dst rows [r0, r0 + L) x columns [c0, c0 + L), L = one 64-byte line of elements: sub-blocks
// in src-row order (each src line is read while it is in L1, even where a power-of-two row
// stride maps every src row to one cache set), into a line buffer, then one line per dst row.
template <bool kStream, class D>
HWY_INLINE void TransposeLines(D d, const TileAt<hn::TFromD<D>>& at, size_t r0, size_t c0,
                               size_t ahead_bytes) {
  using T = hn::TFromD<D>;
  constexpr size_t kN = hn::MaxLanes(D());
  constexpr size_t kL = 64 / sizeof(T);
  PrefetchNextTile(at, r0, c0, ahead_bytes);
  if constexpr (2 * kN * sizeof(T) == 64 && sizeof(T) >= 4) {
    for (size_t a = 0; a < kL; a += kN) TransposeLinePair<kStream>(d, at, r0 + a, c0);
    return;
  }
  alignas(64) uint8_t lines[kL][64];
  for (size_t b = 0; b < kL; b += kN) {
    for (size_t a = 0; a < kL; a += kN) {
      TransposeSubBlock(d, at, r0 + a, c0 + b, &lines[a][b * sizeof(T)], 64);
    }
  }
  for (size_t r = 0; r < kL; ++r) StoreLine<kStream>(at.Dst(r0 + r, c0), lines[r]);
}

// dst rows [r0, r1) x columns [c0, c1) by sub-blocks stored directly, edges element by element.
template <class D>
HWY_INLINE void TransposeRegion(D d, const TileAt<hn::TFromD<D>>& at, size_t r0, size_t r1,
                                size_t c0, size_t c1) {
  constexpr size_t kN = hn::MaxLanes(D());
  size_t c = c0;
  for (; c + kN <= c1; c += kN) {
    size_t r = r0;
    for (; r + kN <= r1; r += kN) {
      TransposeSubBlock(d, at, r, c, at.Dst(r, c), at.dst_row_stride_bytes);
    }
    TransposeScalar(at, r, r1, c, c + kN);
  }
  TransposeScalar(at, r0, r1, c, c1);
}

// A tile of M columns whose dst is one contiguous run (dst row stride M elements): the M src
// rows interleaved, N (lanes) dst rows per step; leftover rows element by element.
template <size_t M, bool kStream, class D>
HWY_INLINE void InterleaveRows(D d, const TileAt<hn::TFromD<D>>& at, size_t rows) {
  using T = hn::TFromD<D>;
  constexpr size_t kN = hn::MaxLanes(D());
  constexpr size_t kK = 16 / sizeof(T);
  static_assert(M >= 2 && M <= kN && (kN == kK || kN == 2 * kK), "M src rows, 1-2 blocks");
  T* out = AsLanes<T>(at.dst);
  // Streamed from a line-aligned dst, but only the lines the vector steps write whole: a step of
  // 16-byte vectors may write half a line whose rest goes to the scalar tail, and a line written
  // partly by non-temporal and partly by regular stores costs several times either (Zen 3).
  const bool aligned = kStream && (reinterpret_cast<uintptr_t>(out) & 63) == 0;
  const size_t stream_end = aligned ? rows / kN * kN * M * sizeof(T) / 64 * 64 / sizeof(T) : 0;
  size_t r = 0;
  for (; r + kN <= rows; r += kN) {
    const bool stream = (r + kN) * M <= stream_end;
    hn::Vec<D> v[M];
    for (size_t c = 0; c < M; ++c) v[c] = hn::LoadU(d, AsLanes<T>(at.Src(r, c)));
    InterleaveRounds<M>(d, v);
    T* to = out + r * M;
    if constexpr (kN == 2 * kK) {  // v[k] holds segments k (lower block) and M + k (upper)
      for (size_t t = 0; t < M / 2; ++t) {
        const auto lo = hn::ConcatLowerLower(d, v[2 * t + 1], v[2 * t]);
        const auto hi = hn::ConcatUpperUpper(d, v[2 * t + 1], v[2 * t]);
        if (stream) {
          hn::Stream(lo, d, to + t * kN);
          hn::Stream(hi, d, to + (M / 2 + t) * kN);
        } else {
          hn::StoreU(lo, d, to + t * kN);
          hn::StoreU(hi, d, to + (M / 2 + t) * kN);
        }
      }
    } else {
      for (size_t k = 0; k < M; ++k) {
        if (stream) {
          hn::Stream(v[k], d, to + k * kN);
        } else {
          hn::StoreU(v[k], d, to + k * kN);
        }
      }
    }
  }
  TransposeScalar(at, r, rows, 0, M);
}

// Whether InterleaveRows took the tile (M = cols of 2, 4, 8, or 16 for 1-byte elements).
template <bool kStream, class D>
HWY_INLINE bool TryInterleave(D d, const TileAt<hn::TFromD<D>>& at, size_t rows, size_t cols) {
  using T = hn::TFromD<D>;
  constexpr size_t kN = hn::MaxLanes(D());
  if (at.dst_row_stride_bytes != static_cast<int64_t>(cols * sizeof(T)) || rows < kN) {
    return false;
  }
  switch (cols) {
    case 2: InterleaveRows<2, kStream>(d, at, rows); return true;
    case 4:
      if constexpr (kN >= 4) {
        InterleaveRows<4, kStream>(d, at, rows);
        return true;
      }
      return false;
    case 8:
      if constexpr (kN >= 8) {
        InterleaveRows<8, kStream>(d, at, rows);
        return true;
      }
      return false;
    case 16:
      if constexpr (kN >= 16) {
        InterleaveRows<16, kStream>(d, at, rows);
        return true;
      }
      return false;
    default: return false;
  }
}

#endif  // DMLCPU_KERNELS_HAVE_VECTORS

template <typename T, bool kStream>
void TransposeTile(void* dst, int64_t dst_row_stride_bytes, const void* src,
                   int64_t src_row_stride_bytes, size_t rows, size_t cols) {
  const TileAt<T> at{static_cast<uint8_t*>(dst), dst_row_stride_bytes,
                     static_cast<const uint8_t*>(src), src_row_stride_bytes};
#if DMLCPU_KERNELS_HAVE_VECTORS
  const TransposeTag<T> d;
  if (TryInterleave<kStream>(d, at, rows, cols)) return;
  constexpr size_t kL = 64 / sizeof(T);
  const size_t rows_lines = rows / kL * kL, cols_lines = cols / kL * kL;
  for (size_t c0 = 0; c0 < cols_lines; c0 += kL) {
    for (size_t r0 = 0; r0 < rows_lines; r0 += kL) {
      if constexpr (kLineVectors<T>) {
        TransposeLineSquare<kStream>(LineTag<T>(), at, r0, c0, rows * sizeof(T));
      } else {
        TransposeLines<kStream>(d, at, r0, c0, rows * sizeof(T));
      }
    }
  }
  TransposeRegion(d, at, rows_lines, rows, 0, cols_lines);  // leftover dst rows
  TransposeRegion(d, at, 0, rows, cols_lines, cols);        // leftover dst columns
#else
  // Lines of kL x kL through a local block, as the vector path (one load per src line).
  constexpr size_t kL = 64 / sizeof(T);
  size_t c0 = 0;
  for (; c0 + kL <= cols; c0 += kL) {
    size_t r0 = 0;
    for (; r0 + kL <= rows; r0 += kL) {
      alignas(64) T block[kL][kL];
      for (size_t c = 0; c < kL; ++c) std::memcpy(block[c], at.Src(r0, c0 + c), 64);
      alignas(64) T lines[kL][kL];
      for (size_t r = 0; r < kL; ++r) {
        for (size_t c = 0; c < kL; ++c) lines[r][c] = block[c][r];
      }
      for (size_t r = 0; r < kL; ++r) {
        StoreLine<kStream>(at.Dst(r0 + r, c0), reinterpret_cast<const uint8_t*>(lines[r]));
      }
    }
    TransposeScalar(at, r0, rows, c0, c0 + kL);
  }
  TransposeScalar(at, 0, rows, c0, cols);
#endif
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace dmlcpu
HWY_AFTER_NAMESPACE();

#endif  // DMLCPU_KERNELS_TRANSPOSE_INL_H_
