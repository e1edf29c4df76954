// SPDX-License-Identifier: Apache-2.0
// The gather kernels, compiled once per SIMD target (kernels.cc): gather, gather_blocks and
// gather_row. Contracts are those of kernels.h; every vector load or store is bounds-checked
// against the exact extent of its operand, and tails are scalar loops.
//
// Paths (vector paths only on targets with vectors, i.e. not HWY_SCALAR):
// - gather: scalar loop with 8 loads in flight over a resolved offsets array (SIMD gathers were
//   no faster there). SIMD gathers are used only in gather_row, where the offsets come straight
//   from the clamped indices in registers.
// - gather_blocks: blocks up to Tuning::kInlineBlockBytes by inline vector moves (an
//   overlapping last vector), smaller than a vector by two overlapping fixed-size moves; larger
//   blocks and merged runs by copy_large.
// - gather_row: one pass of clamp, scale and load per element (contiguous dst and indices):
//   4- and 8-byte elements by GatherOffset of whole vectors, two at a time and software-
//   pipelined (streamed in the _stream variant); other widths (and offsets too wide for 32-bit
//   gathers) by vectors of clamped offsets staged on the stack and scalar loads; leftovers
//   scalar. Prefetches the index stream and the next row as it goes. Many rows per call
//   (packed strips), the geometry checks once per call.

// Per-target include guard (toggled by foreach_target.h).
#if defined(DMLCPU_KERNELS_GATHER_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DMLCPU_KERNELS_GATHER_INL_H_
#undef DMLCPU_KERNELS_GATHER_INL_H_
#else
#define DMLCPU_KERNELS_GATHER_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/tuning.h"
#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "kernels/helpers-inl.h"
#include "kernels/kernels.h"
#include "kernels/prefetch.h"

HWY_BEFORE_NAMESPACE();
namespace dmlcpu {
namespace kernels {
namespace HWY_NAMESPACE {

// ------------------------------ gather

// An empty asm statement that claims to change `v` in a general-purpose register. It emits
// nothing, but stops GCC 12 at -O3 from turning the 8-byte loop of GatherLoop (source stride a
// constant 0) into a slower emulated vector gather. Used on 8-byte elements only, where it won.
template <typename V>
HWY_INLINE void KeepInRegister(V& v) {
#if defined(__GNUC__)
  asm("" : "+r"(v));
#else
  (void)v;
#endif
}

// dst[i * ds] = src[i * ss + offsets_bytes[i]] with 8 loads in flight. kSameSrc: every item
// reads from `src` itself (src_stride_bytes 0, the common case: the offsets hold the whole
// address); with the stride a compile-time 0 the loop keeps no stride multiples in registers.
template <typename T, bool kDstContiguous, bool kSameSrc>
HWY_INLINE void GatherLoop(uint8_t* HWY_RESTRICT dst, int64_t dst_stride_bytes,
                           const uint8_t* HWY_RESTRICT src, int64_t src_stride_bytes,
                           const int64_t* offsets_bytes, size_t count) {
  const int64_t ds = kDstContiguous ? static_cast<int64_t>(sizeof(T)) : dst_stride_bytes;
  const int64_t ss = kSameSrc ? 0 : src_stride_bytes;
  size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    int64_t o0 = offsets_bytes[i], o1 = offsets_bytes[i + 1], o2 = offsets_bytes[i + 2],
            o3 = offsets_bytes[i + 3], o4 = offsets_bytes[i + 4], o5 = offsets_bytes[i + 5],
            o6 = offsets_bytes[i + 6], o7 = offsets_bytes[i + 7];
    if constexpr (kSameSrc && sizeof(T) == 8) {
      KeepInRegister(o0);
      KeepInRegister(o1);
      KeepInRegister(o2);
      KeepInRegister(o3);
      KeepInRegister(o4);
      KeepInRegister(o5);
      KeepInRegister(o6);
      KeepInRegister(o7);
    }
    const T v0 = LoadElem<T>(src + o0);
    const T v1 = LoadElem<T>(src + ss + o1);
    const T v2 = LoadElem<T>(src + 2 * ss + o2);
    const T v3 = LoadElem<T>(src + 3 * ss + o3);
    const T v4 = LoadElem<T>(src + 4 * ss + o4);
    const T v5 = LoadElem<T>(src + 5 * ss + o5);
    const T v6 = LoadElem<T>(src + 6 * ss + o6);
    const T v7 = LoadElem<T>(src + 7 * ss + o7);
    StoreElem<T>(dst, v0);
    StoreElem<T>(dst + ds, v1);
    StoreElem<T>(dst + 2 * ds, v2);
    StoreElem<T>(dst + 3 * ds, v3);
    StoreElem<T>(dst + 4 * ds, v4);
    StoreElem<T>(dst + 5 * ds, v5);
    StoreElem<T>(dst + 6 * ds, v6);
    StoreElem<T>(dst + 7 * ds, v7);
    src += 8 * ss;
    dst += 8 * ds;
  }
  for (; i < count; ++i) {
    StoreElem<T>(dst, LoadElem<T>(src + offsets_bytes[i]));
    src += ss;
    dst += ds;
  }
}

template <typename T>
void Gather(void* dst, int64_t dst_stride_bytes, const void* src, int64_t src_stride_bytes,
            const int64_t* offsets_bytes, size_t count) {
  auto* to = static_cast<uint8_t*>(dst);
  const auto* from = static_cast<const uint8_t*>(src);
  if (dst_stride_bytes == static_cast<int64_t>(sizeof(T)) && src_stride_bytes == 0) {
    GatherLoop<T, true, true>(to, dst_stride_bytes, from, 0, offsets_bytes, count);
  } else if (dst_stride_bytes == static_cast<int64_t>(sizeof(T))) {
    GatherLoop<T, true, false>(to, dst_stride_bytes, from, src_stride_bytes, offsets_bytes,
                               count);
  } else {
    GatherLoop<T, false, false>(to, dst_stride_bytes, from, src_stride_bytes, offsets_bytes,
                                count);
  }
}

// ------------------------------ gather_blocks

// Copies 0 < n <= 64 bytes with two overlapping fixed-size moves (one vector move each where
// the target has 32- or 16-byte vectors), or byte by byte below 4.
HWY_INLINE void CopySmallBlock(uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT src,
                               size_t n) {
  if (n >= 32) {
    std::memcpy(dst, src, 32);
    std::memcpy(dst + n - 32, src + n - 32, 32);
  } else if (n >= 16) {
    std::memcpy(dst, src, 16);
    std::memcpy(dst + n - 16, src + n - 16, 16);
  } else if (n >= 8) {
    std::memcpy(dst, src, 8);
    std::memcpy(dst + n - 8, src + n - 8, 8);
  } else if (n >= 4) {
    std::memcpy(dst, src, 4);
    std::memcpy(dst + n - 4, src + n - 4, 4);
  } else {
    for (size_t i = 0; i < n; ++i) dst[i] = src[i];
  }
}

// Copies 0 < n bytes inline: whole vectors and one overlapping last vector when n is at least
// a vector, else fixed-size moves. Meant for blocks of at most a few vectors.
HWY_INLINE void CopyBlockInline(uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT src,
                                size_t n) {
#if DMLCPU_KERNELS_HAVE_VECTORS
  const hn::ScalableTag<uint8_t> d;
  const size_t lanes = hn::Lanes(d);
  if (n >= lanes) {
    for (size_t i = 0; i + lanes < n; i += lanes) {
      hn::StoreU(hn::LoadU(d, src + i), d, dst + i);
    }
    hn::StoreU(hn::LoadU(d, src + n - lanes), d, dst + n - lanes);
    return;
  }
#endif
  if (n <= 64) return CopySmallBlock(dst, src, n);
  size_t i = 0;
  for (; i + 32 < n; i += 32) std::memcpy(dst + i, src + i, 32);
  std::memcpy(dst + n - 32, src + n - 32, 32);
}

void GatherBlocks(void* dst, int64_t dst_stride_bytes, const void* src,
                  const int64_t* offsets_bytes, size_t count, size_t block_bytes,
                  CopyBytesFn copy_large, bool merge_runs, bool prefetch_blocks) {
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  const auto block = static_cast<int64_t>(block_bytes);
  // Blocks come from random rows, where the hardware prefetcher only ramps up inside a block:
  // while copying one, start a later one on its way (up to kMaxBlockPrefetchBytes of it), at
  // least 2 blocks and about kBlockPrefetchAheadBytes ahead for blocks below
  // kBlockPrefetchNextBytes, else the next one (further ahead measured faster than 2 blocks).
  using internal::Tuning;
  const bool prefetch = prefetch_blocks && block_bytes >= Tuning::kMinPrefetchBlockBytes;
  // size_t{}: a prvalue arm, so GCC emits the same cmov as for a literal (an lvalue arm does not).
  const size_t prefetch_bytes = block_bytes < Tuning::kMaxBlockPrefetchBytes
                                    ? block_bytes
                                    : size_t{Tuning::kMaxBlockPrefetchBytes};
  const size_t ahead = block_bytes < Tuning::kBlockPrefetchNextBytes
                           ? std::max<size_t>(2, Tuning::kBlockPrefetchAheadBytes / block_bytes)
                           : 1;
  // Repeated sources need no special case: the block just copied is in L1 for the next copy.
  const bool merge = merge_runs && dst_stride_bytes == block;
  for (size_t i = 0; i < count;) {
    const int64_t first = offsets_bytes[i];
    if (prefetch && i + ahead < count) {
      for (size_t off = 0; off < prefetch_bytes; off += 64) {
        hwy::Prefetch(s + offsets_bytes[i + ahead] + off);
      }
    }
    uint8_t* to = d + static_cast<int64_t>(i) * dst_stride_bytes;
    if (merge && i + 1 < count && offsets_bytes[i + 1] == first + block) {
      size_t end = i + 2;
      while (end < count && offsets_bytes[end] == offsets_bytes[end - 1] + block) ++end;
      copy_large(to, s + first, (end - i) * block_bytes);
      i = end;
      continue;
    }
    if (block_bytes <= Tuning::kInlineBlockBytes) {
      CopyBlockInline(to, s + first, block_bytes);
    } else {
      copy_large(to, s + first, block_bytes);
    }
    ++i;
  }
}

// ------------------------------ gather_row

// Item i of GatherRow, one scalar load.
template <typename T, typename I>
HWY_INLINE void GatherRowItem(uint8_t* HWY_RESTRICT d, const uint8_t* HWY_RESTRICT s,
                              int64_t src_stride_bytes, const uint8_t* HWY_RESTRICT ix, size_t i,
                              uint64_t dim_size, int64_t pitch_bytes) {
  const uint64_t c = ClampIndex<I>(LoadElem<I>(ix + i * sizeof(I)), dim_size);
  const int64_t at = static_cast<int64_t>(i) * src_stride_bytes + OffsetBytes(c, pitch_bytes);
  StoreElem<T>(d + i * sizeof(T), LoadElem<T>(s + at));
}

// The prefetches of GatherRow (RowPrefetch), issued a little at a time as the row advances:
// the index stream Tuning::kRowIndexAheadBytes ahead, and the next row's span spread over the
// row.
template <typename I>
class GatherRowPrefetch {
 public:
  GatherRowPrefetch(const uint8_t* indices, size_t count, const RowPrefetch* hint)
      : indices_(hint != nullptr && hint->indices_ahead ? reinterpret_cast<uintptr_t>(indices)
                                                        : 0),
        next_(hint != nullptr ? hint->next : nullptr, hint != nullptr ? hint->next_bytes : 0,
              count) {}
  // Items [first, first + n) are about to be gathered. Addresses are integers: prefetching past
  // the end of the indices never faults.
  HWY_INLINE void Upto(size_t first, size_t n) {
    if (indices_ != 0) {
      const uintptr_t from = indices_ + first * sizeof(I) + internal::Tuning::kRowIndexAheadBytes;
      for (uintptr_t line = from & ~uintptr_t{63}; line < from + n * sizeof(I); line += 64) {
        hwy::Prefetch(reinterpret_cast<const uint8_t*>(line));
      }
    }
    next_.Upto(first + n);
  }

 private:
  uintptr_t indices_;  // 0: no index prefetch
  SpreadPrefetch next_;
};

#if DMLCPU_KERNELS_HAVE_VECTORS

// Whether GatherRowVectors may gather rows of this geometry: forward strides and pitch, at least
// one whole vector, and for 4-byte elements every offset of a vector within 32 bits. Holds for
// every row of a gather_row call (the divisions run once per call, not per row).
template <typename T>
HWY_INLINE bool GatherRowVectorsFit(int64_t src_stride_bytes, size_t count, uint64_t dim_size,
                                    int64_t pitch_bytes) {
  const hn::ScalableTag<hwy::MakeUnsigned<T>> dt;
  const size_t step = hn::Lanes(dt);
  if (pitch_bytes < 0 || src_stride_bytes < 0 || count < step) return false;
  const auto pitch = static_cast<uint64_t>(pitch_bytes);
  const auto stride = static_cast<uint64_t>(src_stride_bytes);
  constexpr uint64_t kMaxOffset32 = 0x7FFFFFFF;
  return sizeof(T) != 4 ||
         !((pitch != 0 && dim_size - 1 > kMaxOffset32 / pitch) ||
           (stride != 0 &&
            step - 1 > (kMaxOffset32 - (dim_size - 1) * pitch) / stride));
}

// Byte offsets of the Lanes(du64) items from j on, from a base the caller picks: clamped index x
// pitch plus `lanes`, which holds each lane's item position from that base x src stride.
template <typename I, class DU64>
HWY_INLINE hn::Vec<DU64> RowOffsets(DU64 du64, const uint8_t* HWY_RESTRICT ix, size_t j,
                                    uint64_t dim_size, hn::Vec<DU64> pitch_v,
                                    hn::Vec<DU64> lanes) {
  return hn::Add(hn::Mul(ClampIndexLanes<I>(du64, AsLanes<I>(ix + j * sizeof(I)), dim_size),
                         pitch_v),
                 lanes);
}

// The vector part of one GatherRow row for 4- and 8-byte elements, where GatherRowVectorsFit:
// whole vectors of clamped indices, scaled to byte offsets (plus each lane's src stride) and
// gathered (4-byte elements with 32-bit offsets), stored (streamed: from the first
// vector-aligned dst element on). Returns how many leading items it did (none where dst is not
// element-aligned); the caller does the rest.
//
// Software-pipelined, two gathers at a time: the offsets of the next two gathers are computed
// before this pair is issued, so no gather waits on the load, clamp and multiply of its own
// offsets (gathers are microcoded on Zen 4, and the core does not overlap that chain itself).
template <typename T, typename I, bool kStream>
HWY_INLINE size_t GatherRowVectors(uint8_t* HWY_RESTRICT d, const uint8_t* HWY_RESTRICT s,
                                   int64_t src_stride_bytes, const uint8_t* HWY_RESTRICT ix,
                                   size_t count, uint64_t dim_size, int64_t pitch_bytes,
                                   GatherRowPrefetch<I>& pf) {
  using TU = hwy::MakeUnsigned<T>;
  const hn::ScalableTag<TU> dt;
  const hn::RebindToSigned<decltype(dt)> dti;
  const hn::ScalableTag<uint64_t> du64;
  const size_t step = hn::Lanes(dt);  // items per data vector
  const size_t vec_bytes = step * sizeof(T);
  if (reinterpret_cast<uintptr_t>(d) % sizeof(T) != 0) return 0;
  const auto stride = static_cast<uint64_t>(src_stride_bytes);
  const auto pitch_v = hn::Set(du64, static_cast<uint64_t>(pitch_bytes));
  const size_t half = hn::Lanes(du64);  // 4-byte elements: offsets of a vector in two halves
  const auto lanes_lo = hn::Mul(hn::Iota(du64, 0), hn::Set(du64, stride));
  const auto lanes_hi = hn::Mul(hn::Iota(du64, half), hn::Set(du64, stride));
  size_t i = 0;
  if (kStream) {  // Stream needs vector-aligned addresses
    const size_t head = ((0 - reinterpret_cast<uintptr_t>(d)) & (vec_bytes - 1)) / sizeof(T);
    for (; i < head; ++i) GatherRowItem<T, I>(d, s, src_stride_bytes, ix, i, dim_size, pitch_bytes);
  }
  // Each iteration gathers `group` items from two vectors of `half` offsets: one data vector of
  // 4-byte elements (two gathers on AVX3, one of the narrowed offsets elsewhere), two data
  // vectors of 8-byte elements.
  const size_t group = 2 * half;
  if (i + group <= count) {
    auto lo = RowOffsets<I>(du64, ix, i, dim_size, pitch_v, lanes_lo);
    auto hi = RowOffsets<I>(du64, ix, i + half, dim_size, pitch_v, lanes_hi);
    for (; i + group <= count; i += group) {
      pf.Upto(i, group);
      const auto* row = AsLanes<TU>(s + i * stride);
      // The next group's offsets first (reading no index past `count`).
      auto next_lo = lo;
      auto next_hi = hi;
      if (i + 2 * group <= count) {
        next_lo = RowOffsets<I>(du64, ix, i + group, dim_size, pitch_v, lanes_lo);
        next_hi = RowOffsets<I>(du64, ix, i + group + half, dim_size, pitch_v, lanes_hi);
      }
      if constexpr (sizeof(T) == 8) {
        const auto v_lo = hn::GatherOffset(dt, row, hn::BitCast(dti, lo));
        const auto v_hi = hn::GatherOffset(dt, row, hn::BitCast(dti, hi));
        StoreLanes<kStream>(dt, v_lo, AsLanes<TU>(d + i * sizeof(T)));
        StoreLanes<kStream>(dt, v_hi, AsLanes<TU>(d + (i + half) * sizeof(T)));
      } else {
        hn::Vec<decltype(dt)> v;
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
        // Two 8-lane gathers on the 64-bit offsets: faster on Zen 4 than narrowing them for one
        // 16-lane gather.
        const __m256i g_lo = _mm512_i64gather_epi32(lo.raw, row, 1);
        const __m256i g_hi = _mm512_i64gather_epi32(hi.raw, row, 1);
        v = hn::Vec<decltype(dt)>{_mm512_inserti64x4(_mm512_castsi256_si512(g_lo), g_hi, 1)};
#else
        const hn::Half<decltype(dt)> dh;
        v = hn::GatherOffset(
            dt, row,
            hn::BitCast(dti, hn::Combine(dt, hn::TruncateTo(dh, hi), hn::TruncateTo(dh, lo))));
#endif
        StoreLanes<kStream>(dt, v, AsLanes<TU>(d + i * sizeof(T)));
      }
      lo = next_lo;
      hi = next_hi;
    }
  }
  if constexpr (sizeof(T) == 8) {  // one vector more (step == half), not pipelined
    if (i + step <= count) {
      pf.Upto(i, step);
      const auto* row = AsLanes<TU>(s + i * stride);
      const auto v = hn::GatherOffset(
          dt, row, hn::BitCast(dti, RowOffsets<I>(du64, ix, i, dim_size, pitch_v, lanes_lo)));
      StoreLanes<kStream>(dt, v, AsLanes<TU>(d + i * sizeof(T)));
      i += step;
    }
  }
  return i;
}

// GatherRow rows that GatherRowVectors does not take (1- and 2-byte elements, 4-byte ones whose
// offsets do not fit 32 bits, a dst not aligned to the element), with forward strides and pitch:
// up to Tuning::kRowStageItems clamped indices at a time scaled by vectors into 64-bit byte
// offsets on the stack, then loaded by the scalar loop of `gather` (8 loads in flight). Returns
// how many leading items it did (whole vectors of indices); the caller does the rest. Faster
// than clamping, scaling and loading one item at a time.
template <typename T, typename I>
HWY_INLINE size_t GatherRowStaged(uint8_t* HWY_RESTRICT d, const uint8_t* HWY_RESTRICT s,
                                  int64_t src_stride_bytes, const uint8_t* HWY_RESTRICT ix,
                                  size_t count, uint64_t dim_size, int64_t pitch_bytes,
                                  GatherRowPrefetch<I>& pf) {
  const hn::ScalableTag<uint64_t> du64;
  const size_t half = hn::Lanes(du64);
  constexpr size_t kStageItems = internal::Tuning::kRowStageItems;
  static_assert(kStageItems % (HWY_MAX_BYTES / 8) == 0, "whole vectors of offsets");
  const auto stride = static_cast<uint64_t>(src_stride_bytes);
  const auto pitch_v = hn::Set(du64, static_cast<uint64_t>(pitch_bytes));
  const auto lanes_step = hn::Set(du64, half * stride);
  auto lanes = hn::Mul(hn::Iota(du64, 0), hn::Set(du64, stride));  // item x stride, from s
  alignas(64) uint64_t offsets_bytes[kStageItems];
  size_t i = 0;
  while (count - i >= half) {
    const size_t n = std::min(kStageItems, (count - i) / half * half);
    pf.Upto(i, n);
    for (size_t k = 0; k < n; k += half) {
      hn::Store(RowOffsets<I>(du64, ix, i + k, dim_size, pitch_v, lanes), du64,
                offsets_bytes + k);
      lanes = hn::Add(lanes, lanes_step);
    }
    GatherLoop<T, true, true>(d + i * sizeof(T), sizeof(T), s, 0,
                              reinterpret_cast<const int64_t*>(offsets_bytes), n);
    i += n;
  }
  return i;
}

#endif  // DMLCPU_KERNELS_HAVE_VECTORS

// Rows of dst[i] = src[i * src_stride_bytes + clamp(indices[i]) * pitch_bytes] with contiguous
// dst and indices: the index is clamped and scaled in the same pass as the load (no offsets
// array in between). One call for many rows spares the per-row call and checks (packed strips:
// rows of 8 to 64 items). 4- and 8-byte elements go by vector gathers (faster than resolving
// into an offsets array and a scalar gather); the stream variant streams those vectors (no
// fence). Other widths: GatherRowStaged (regular stores); leftovers item by item. Prefetches
// what `prefetch` names as it goes.
template <typename T, typename I, bool kStream>
void GatherRow(void* dst, int64_t dst_row_pitch_bytes, const void* src, int64_t src_stride_bytes,
               const void* indices, int64_t idx_row_pitch_bytes, size_t rows, size_t count,
               uint64_t dim_size, int64_t pitch_bytes, const RowPrefetch* prefetch) {
  const auto* s = static_cast<const uint8_t*>(src);
  if (count == 0) return;
  const int64_t index_ahead_bytes = prefetch != nullptr ? prefetch->index_row_ahead_bytes : 0;
  const size_t row_index_bytes = count * sizeof(I);
#if DMLCPU_KERNELS_HAVE_VECTORS
  constexpr bool kVectors = sizeof(T) == 4 || sizeof(T) == 8;
  const bool vectors =
      kVectors && GatherRowVectorsFit<T>(src_stride_bytes, count, dim_size, pitch_bytes);
  const bool staged = src_stride_bytes >= 0 && pitch_bytes >= 0;
#endif
  for (size_t r = 0; r < rows; ++r) {
    const auto rr = static_cast<int64_t>(r);
    auto* d = static_cast<uint8_t*>(dst) + rr * dst_row_pitch_bytes;
    const auto* ix = static_cast<const uint8_t*>(indices) + rr * idx_row_pitch_bytes;
    if (index_ahead_bytes != 0) {
      PrefetchRowToL2(reinterpret_cast<uintptr_t>(ix) + static_cast<uintptr_t>(index_ahead_bytes),
                      row_index_bytes);
    }
    GatherRowPrefetch<I> pf(ix, count, prefetch);
    size_t i = 0;
#if DMLCPU_KERNELS_HAVE_VECTORS
    if constexpr (kVectors) {
      if (vectors) {
        i = GatherRowVectors<T, I, kStream>(d, s, src_stride_bytes, ix, count, dim_size,
                                            pitch_bytes, pf);
      }
    }
    if (i == 0 && staged) {  // not taken by the vectors (nor a dst they cannot align)
      i = GatherRowStaged<T, I>(d, s, src_stride_bytes, ix, count, dim_size, pitch_bytes, pf);
    }
#endif
    constexpr size_t kStepItems = internal::Tuning::kRowStepItems;
    for (; i < count; ++i) {
      if (i % kStepItems == 0) pf.Upto(i, std::min(kStepItems, count - i));
      GatherRowItem<T, I>(d, s, src_stride_bytes, ix, i, dim_size, pitch_bytes);
    }
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace dmlcpu
HWY_AFTER_NAMESPACE();

#endif  // DMLCPU_KERNELS_GATHER_INL_H_
