// SPDX-License-Identifier: Apache-2.0
// The transpose kernel, compiled once per SIMD target (kernels.cc): transpose_tile and its
// stream variant. Contracts are those of kernels.h.
//
// Path: blocks of 64 x 64 bytes through a local block, each dst line stored whole (streamed
// when line-aligned in the _stream variant); leftovers element by element.

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

// out[r][c] = in[c][r] for a block of one 64-byte line by one line (kSide = 64 / sizeof(T)).
// Plain loops: the compiler's vectorisation of them measured faster than 16-byte sub-block
// transposes by lane interleaving.
template <typename T>
HWY_INLINE void TransposeBlock(const T (*in)[64 / sizeof(T)], T (*out)[64 / sizeof(T)]) {
  constexpr size_t kSide = 64 / sizeof(T);
  for (size_t r = 0; r < kSide; ++r) {
    for (size_t c = 0; c < kSide; ++c) out[r][c] = in[c][r];
  }
}

// Square blocks of one 64-byte line by one line: kSide = 64 / sizeof(T) src rows are each read
// as one line into a local block (so lines of rows a power-of-two stride apart, which share a
// cache set, are each loaded once), then every dst row of the block is assembled from it and
// stored as one line. Leftover rows and columns of the tile go element by element.
template <typename T, bool kStream>
void TransposeTile(void* dst, int64_t dst_row_stride_bytes, const void* src,
                   int64_t src_row_stride_bytes, size_t rows, size_t cols) {
  constexpr size_t kSide = 64 / sizeof(T);
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  const auto dst_at = [&](size_t r, size_t c) {
    return d + static_cast<int64_t>(r) * dst_row_stride_bytes + c * sizeof(T);
  };
  const auto src_at = [&](size_t r, size_t c) {  // src row c, element r
    return s + static_cast<int64_t>(c) * src_row_stride_bytes + r * sizeof(T);
  };
  size_t c0 = 0;
  for (; c0 + kSide <= cols; c0 += kSide) {
    size_t r0 = 0;
    for (; r0 + kSide <= rows; r0 += kSide) {
      alignas(64) T block[kSide][kSide];
      for (size_t c = 0; c < kSide; ++c) std::memcpy(block[c], src_at(r0, c0 + c), 64);
      alignas(64) T lines[kSide][kSide];
      TransposeBlock<T>(block, lines);
      for (size_t r = 0; r < kSide; ++r) {
        StoreLine<kStream>(dst_at(r0 + r, c0), reinterpret_cast<const uint8_t*>(lines[r]));
      }
    }
    for (; r0 < rows; ++r0) {  // leftover dst rows of this column block
      for (size_t c = c0; c < c0 + kSide; ++c) std::memcpy(dst_at(r0, c), src_at(r0, c), sizeof(T));
    }
  }
  for (; c0 < cols; ++c0) {  // leftover dst columns
    for (size_t r = 0; r < rows; ++r) std::memcpy(dst_at(r, c0), src_at(r, c0), sizeof(T));
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace dmlcpu
HWY_AFTER_NAMESPACE();

#endif  // DMLCPU_KERNELS_TRANSPOSE_INL_H_
