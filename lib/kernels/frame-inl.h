// SPDX-License-Identifier: Apache-2.0
// The frame kernel, compiled once per SIMD target (kernels.cc): frame_rows, rows between
// pattern borders written into a staging window. Contract in kernels.h; every vector load is
// bounds-checked against its row, every store against the window and its spill bytes.
//
// Path: per row, pattern vectors for the borders and vector moves for the interior, each store
// free to spill into bytes written later (or the window's spill bytes); rows narrower than a
// vector, borders wider than 32 bytes, and targets without 16-byte vectors by memcpy and a
// repeated pattern.

// Per-target include guard (toggled by foreach_target.h).
#if defined(DMLCPU_KERNELS_FRAME_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DMLCPU_KERNELS_FRAME_INL_H_
#undef DMLCPU_KERNELS_FRAME_INL_H_
#else
#define DMLCPU_KERNELS_FRAME_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "hwy/highway.h"
#include "kernels/helpers-inl.h"
#include "kernels/kernels.h"

HWY_BEFORE_NAMESPACE();
namespace dmlcpu {
namespace kernels {
namespace HWY_NAMESPACE {

// ------------------------------ frame_rows

// dst[0, bytes) = the 64-byte pattern repeated.
HWY_INLINE void FillRepeating(uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT pattern,
                              size_t bytes) {
  for (size_t k = 0; k < bytes; k += 64) {
    std::memcpy(dst + k, pattern, std::min<size_t>(64, bytes - k));
  }
}

#if DMLCPU_KERNELS_HAVE_VECTORS
// frame_rows of rows of at least a vector with borders of at most 32 bytes; kVectors > 0: the
// rows' whole vectors (a fixed count, unrolled), else counted per row. Per row: the left border
// as one or two pattern vectors (spilling into the interior), the interior by whole vectors and
// one overlapping last vector, then the right border (spilling into the next row, whose own
// writes come later; after the last row at most 31 bytes).
template <size_t kVectors, class D>
HWY_INLINE void FrameVectorRows(D d, uint8_t* to, const uint8_t* from, int64_t src_stride_bytes,
                                size_t rows, size_t row_bytes, size_t left_bytes,
                                size_t right_bytes, const uint8_t* pattern) {
  const size_t n = hn::Lanes(d);
  const size_t whole_bytes = kVectors != 0 ? kVectors * n : row_bytes / n * n;
  const auto fill = hn::LoadU(d, pattern);
  for (size_t r = 0; r < rows; ++r) {
    const uint8_t* row = from + static_cast<int64_t>(r) * src_stride_bytes;
    if (left_bytes != 0) {
      hn::StoreU(fill, d, to);
      if (left_bytes > n) hn::StoreU(fill, d, to + n);
    }
    to += left_bytes;
    if constexpr (kVectors != 0) {
      for (size_t k = 0; k < kVectors; ++k) hn::StoreU(hn::LoadU(d, row + k * n), d, to + k * n);
    } else {
      for (size_t i = 0; i < whole_bytes; i += n) hn::StoreU(hn::LoadU(d, row + i), d, to + i);
    }
    if (whole_bytes != row_bytes) {
      hn::StoreU(hn::LoadU(d, row + row_bytes - n), d, to + row_bytes - n);
    }
    to += row_bytes;
    if (right_bytes != 0) {
      hn::StoreU(fill, d, to);
      if (right_bytes > n) hn::StoreU(fill, d, to + n);
    }
    to += right_bytes;
  }
}
#endif

// Vector rows by FrameVectorRows (unrolled up to 8 whole vectors); anything else exactly.
void FrameRows(void* dst, const void* src, int64_t src_stride_bytes, size_t rows,
               size_t row_bytes, size_t left_bytes, size_t right_bytes,
               const uint8_t* pattern) {
  auto* to = static_cast<uint8_t*>(dst);
  const auto* from = static_cast<const uint8_t*>(src);
#if DMLCPU_KERNELS_HAVE_VECTORS
  const hn::CappedTag<uint8_t, 32> d;
  const size_t n = hn::Lanes(d);
  if (n >= 16 && row_bytes >= n && left_bytes <= 32 && right_bytes <= 32) {
#define DMLCPU_FRAME_ROWS(k)                                                          \
  return FrameVectorRows<k>(d, to, from, src_stride_bytes, rows, row_bytes, left_bytes, \
                            right_bytes, pattern)
    switch (row_bytes / n) {
      case 1: DMLCPU_FRAME_ROWS(1);
      case 2: DMLCPU_FRAME_ROWS(2);
      case 3: DMLCPU_FRAME_ROWS(3);
      case 4: DMLCPU_FRAME_ROWS(4);
      case 5: DMLCPU_FRAME_ROWS(5);
      case 6: DMLCPU_FRAME_ROWS(6);
      case 7: DMLCPU_FRAME_ROWS(7);
      case 8: DMLCPU_FRAME_ROWS(8);
      default: DMLCPU_FRAME_ROWS(0);
    }
#undef DMLCPU_FRAME_ROWS
  }
#endif
  for (size_t r = 0; r < rows; ++r) {
    FillRepeating(to, pattern, left_bytes);
    to += left_bytes;
    if (row_bytes != 0) {
      std::memcpy(to, from + static_cast<int64_t>(r) * src_stride_bytes, row_bytes);
    }
    to += row_bytes;
    FillRepeating(to, pattern, right_bytes);
    to += right_bytes;
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace dmlcpu
HWY_AFTER_NAMESPACE();

#endif  // DMLCPU_KERNELS_FRAME_INL_H_
