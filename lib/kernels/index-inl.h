// SPDX-License-Identifier: Apache-2.0
// The index kernels, compiled once per SIMD target (kernels.cc): resolve (indices to byte
// offsets under the kClamp rule) and find_out_of_range. Contracts are those of kernels.h.
//
// Paths (vector paths only on targets with vectors, i.e. not HWY_SCALAR):
// - resolve: contiguous indices: widen to 64-bit, wrap negatives, unsigned Min with
//   dim_size - 1, 64-bit multiply by the pitch (emulated by Highway below AVX3). Else scalar.
// - find_out_of_range: contiguous indices: running Min/Max over 4 vectors checked against the
//   allowed interval, then a scalar scan of the failing chunk. Else scalar.

// Per-target include guard (toggled by foreach_target.h).
#if defined(DMLCPU_KERNELS_INDEX_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DMLCPU_KERNELS_INDEX_INL_H_
#undef DMLCPU_KERNELS_INDEX_INL_H_
#else
#define DMLCPU_KERNELS_INDEX_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "hwy/highway.h"
#include "kernels/helpers-inl.h"

HWY_BEFORE_NAMESPACE();
namespace dmlcpu {
namespace kernels {
namespace HWY_NAMESPACE {

template <typename I>
HWY_INLINE bool InRange(I v, uint64_t dim_size) {
  if constexpr (std::is_signed_v<I>) {
    const int64_t w = static_cast<int64_t>(v);
    const int64_t dim = static_cast<int64_t>(dim_size);
    // Written as in the reference: for dim_size <= 2^63 this is w in [-dim_size, dim_size).
    return w >= static_cast<int64_t>(0 - static_cast<uint64_t>(dim)) && w < dim;
  } else {
    return static_cast<uint64_t>(v) < dim_size;
  }
}

template <typename I>
HWY_INLINE size_t FindOutOfRangeLoop(const uint8_t* p, int64_t idx_stride_bytes, size_t begin,
                                     size_t count, uint64_t dim_size) {
  p += static_cast<int64_t>(begin) * idx_stride_bytes;
  for (size_t i = begin; i < count; ++i, p += idx_stride_bytes) {
    if (!InRange<I>(LoadElem<I>(p), dim_size)) return i;
  }
  return count;
}

// ------------------------------ resolve

// Contiguous indices: returns how many leading indices were resolved (a multiple of the
// vector length); the caller finishes the rest.
template <typename I, bool kAccumulate>
HWY_INLINE size_t ResolveContiguous(const I* indices, size_t count, uint64_t dim_size,
                                    int64_t pitch_bytes, int64_t* offsets_bytes) {
#if DMLCPU_KERNELS_HAVE_VECTORS
  const hn::ScalableTag<uint64_t> du64;
  const size_t n = hn::Lanes(du64);
  const auto pitch = hn::Set(du64, static_cast<uint64_t>(pitch_bytes));
  auto* out = reinterpret_cast<uint64_t*>(offsets_bytes);
  size_t i = 0;
  for (; i + n <= count; i += n) {
    auto off = hn::Mul(ClampIndexLanes<I>(du64, indices + i, dim_size), pitch);
    if constexpr (kAccumulate) off = hn::Add(off, hn::LoadU(du64, out + i));
    hn::StoreU(off, du64, out + i);
  }
  return i;
#else
  (void)indices;
  (void)count;
  (void)dim_size;
  (void)pitch_bytes;
  (void)offsets_bytes;
  return 0;
#endif
}

template <typename I, bool kAccumulate>
HWY_INLINE void ResolveImpl(const uint8_t* p, int64_t idx_stride_bytes, size_t count,
                            uint64_t dim_size, int64_t pitch_bytes, int64_t* offsets_bytes) {
  size_t i = 0;
  if (idx_stride_bytes == static_cast<int64_t>(sizeof(I))) {
    i = ResolveContiguous<I, kAccumulate>(AsLanes<I>(p), count, dim_size, pitch_bytes,
                                          offsets_bytes);
  } else if (idx_stride_bytes == 0 && count != 0) {
    const int64_t off = OffsetBytes(ClampIndex<I>(LoadElem<I>(p), dim_size), pitch_bytes);
    for (; i < count; ++i) {
      offsets_bytes[i] = kAccumulate ? static_cast<int64_t>(static_cast<uint64_t>(
                                           offsets_bytes[i]) + static_cast<uint64_t>(off))
                                     : off;
    }
    return;
  }
  p += static_cast<int64_t>(i) * idx_stride_bytes;
  for (; i < count; ++i, p += idx_stride_bytes) {
    const int64_t off = OffsetBytes(ClampIndex<I>(LoadElem<I>(p), dim_size), pitch_bytes);
    offsets_bytes[i] = kAccumulate ? static_cast<int64_t>(static_cast<uint64_t>(
                                         offsets_bytes[i]) + static_cast<uint64_t>(off))
                                   : off;
  }
}

template <typename I>
void Resolve(const void* indices, int64_t idx_stride_bytes, size_t count, uint64_t dim_size,
             int64_t pitch_bytes, int64_t* offsets_bytes, bool accumulate) {
  const auto* p = static_cast<const uint8_t*>(indices);
  if (accumulate) {
    ResolveImpl<I, true>(p, idx_stride_bytes, count, dim_size, pitch_bytes, offsets_bytes);
  } else {
    ResolveImpl<I, false>(p, idx_stride_bytes, count, dim_size, pitch_bytes, offsets_bytes);
  }
}

// ------------------------------ find_out_of_range

#if DMLCPU_KERNELS_HAVE_VECTORS

// Returns the start of the first chunk that may hold an out-of-range index (or where the
// vector loop stopped); every index before it is in [lo, hi].
template <typename I>
HWY_INLINE size_t SkipInRange(const I* indices, size_t count, I lo, I hi) {
  const hn::ScalableTag<I> d;
  const size_t n = hn::Lanes(d);
  const auto lo_v = hn::Set(d, lo);
  const auto hi_v = hn::Set(d, hi);
  size_t i = 0;
  for (; i + 4 * n <= count; i += 4 * n) {
    const auto v0 = hn::LoadU(d, indices + i);
    const auto v1 = hn::LoadU(d, indices + i + n);
    const auto v2 = hn::LoadU(d, indices + i + 2 * n);
    const auto v3 = hn::LoadU(d, indices + i + 3 * n);
    const auto v_min = hn::Min(hn::Min(v0, v1), hn::Min(v2, v3));
    const auto v_max = hn::Max(hn::Max(v0, v1), hn::Max(v2, v3));
    if (!hn::AllFalse(d, hn::Or(hn::Lt(v_min, lo_v), hn::Gt(v_max, hi_v)))) return i;
  }
  for (; i + n <= count; i += n) {
    const auto v = hn::LoadU(d, indices + i);
    if (!hn::AllFalse(d, hn::Or(hn::Lt(v, lo_v), hn::Gt(v, hi_v)))) return i;
  }
  return i;
}

#endif  // DMLCPU_KERNELS_HAVE_VECTORS

template <typename I>
size_t FindOutOfRange(const void* indices, int64_t idx_stride_bytes, size_t count,
                      uint64_t dim_size) {
  const auto* p = static_cast<const uint8_t*>(indices);
  size_t begin = 0;
#if DMLCPU_KERNELS_HAVE_VECTORS
  // The vector path needs the allowed range as an interval [lo, hi] of I; dim_size outside
  // [1, 2^62] (never produced by the planner) takes the scalar path.
  constexpr uint64_t kMaxVectorDim = uint64_t{1} << 62;
  if (idx_stride_bytes == static_cast<int64_t>(sizeof(I)) && dim_size >= 1 &&
      dim_size <= kMaxVectorDim) {
    using Limits = std::numeric_limits<I>;
    const int64_t dim = static_cast<int64_t>(dim_size);
    // The allowed interval in 64-bit, then clipped to I's range.
    const int64_t lo64 = std::is_signed_v<I> ? -dim : 0;
    const int64_t hi64 = dim - 1;
    I lo;
    I hi;
    if constexpr (sizeof(I) == 4) {
      const int64_t lo_clipped = std::max<int64_t>(lo64, Limits::min());
      const int64_t hi_clipped = std::min<int64_t>(hi64, Limits::max());
      // Every value of I is in range.
      if (lo_clipped == Limits::min() && hi_clipped == Limits::max()) return count;
      lo = static_cast<I>(lo_clipped);
      hi = static_cast<I>(hi_clipped);
    } else {
      lo = static_cast<I>(lo64);
      hi = static_cast<I>(hi64);
    }
    begin = SkipInRange<I>(AsLanes<I>(p), count, lo, hi);
  }
#endif
  return FindOutOfRangeLoop<I>(p, idx_stride_bytes, begin, count, dim_size);
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace dmlcpu
HWY_AFTER_NAMESPACE();

#endif  // DMLCPU_KERNELS_INDEX_INL_H_
