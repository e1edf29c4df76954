// SPDX-License-Identifier: Apache-2.0
// The copy kernels, compiled once per SIMD target (kernels.cc): copy_bytes, copy_strided and
// their stream variants. Contracts are those of kernels.h; every vector load or store is
// bounds-checked against the exact extent of its operand, and tails are scalar loops.
//
// Paths (vector paths only on targets with vectors, i.e. not HWY_SCALAR):
// - copy_bytes: memcpy, but a vector loop for 512 B-256 KiB (glibc's `rep movsb` range).
// - copy_bytes_stream: head up to a 64-byte dst boundary by memcpy, then unaligned loads +
//   non-temporal Stream stores of whole vectors (up to 4 pages side by side, then one stream),
//   tail by memcpy, then FlushStream.
// - copy_strided: dst stride -width is turned into +width by walking both operands backwards.
//   With a contiguous dst: src stride width (memcpy), 0 (Set + store), -width (load + Reverse +
//   store), 2/3/4 x width (LoadInterleaved2/3/4, keep channel 0; 4-byte elements x 3 on AVX3:
//   two two-table permutes), -2/-3/-4 x width (the same from the lowest element, then Reverse).
//   Anything else: scalar loop with 8 loads in flight.
// - copy_strided_stream: as copy_strided, but a contiguous dst of a plain copy or a forward
//   de-interleave (StreamsDirectly) is written from its first 64-byte boundary on by Stream
//   stores of whole vectors (head and tail by the scalar loop); no fence.
// StoreFence, which ends a batch of the unfenced stream copies, is one function for all targets
// and the portable build (scalar_kernels.cc).

// Per-target include guard (toggled by foreach_target.h).
#if defined(DMLCPU_KERNELS_COPY_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DMLCPU_KERNELS_COPY_INL_H_
#undef DMLCPU_KERNELS_COPY_INL_H_
#else
#define DMLCPU_KERNELS_COPY_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "kernels/helpers-inl.h"
#include "kernels/kernels.h"

HWY_BEFORE_NAMESPACE();
namespace dmlcpu {
namespace kernels {
namespace HWY_NAMESPACE {

// dst[i * dst_stride_bytes] = src[i * src_stride_bytes] with 8 loads in flight. Stores stay in
// order, so overlapping dst elements (|dst_stride_bytes| < sizeof(T)) end as in the plain loop.
template <typename T>
HWY_INLINE void CopyStridedLoop(uint8_t* HWY_RESTRICT dst, int64_t dst_stride_bytes,
                                const uint8_t* HWY_RESTRICT src, int64_t src_stride_bytes,
                                size_t count) {
  const int64_t ds = dst_stride_bytes;
  const int64_t ss = src_stride_bytes;
  size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const T v0 = LoadElem<T>(src);
    const T v1 = LoadElem<T>(src + ss);
    const T v2 = LoadElem<T>(src + 2 * ss);
    const T v3 = LoadElem<T>(src + 3 * ss);
    const T v4 = LoadElem<T>(src + 4 * ss);
    const T v5 = LoadElem<T>(src + 5 * ss);
    const T v6 = LoadElem<T>(src + 6 * ss);
    const T v7 = LoadElem<T>(src + 7 * ss);
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
    StoreElem<T>(dst, LoadElem<T>(src));
    src += ss;
    dst += ds;
  }
}

#if DMLCPU_KERNELS_HAVE_VECTORS

// Reverses the lane order; 1.0.3 has no Reverse for 8-bit lanes, so reverse 16-bit pairs and
// swap the bytes inside each pair.
template <class D, class V>
HWY_INLINE V ReverseLanes(D d, V v) {
  if constexpr (sizeof(hn::TFromD<D>) == 1) {
    const hn::Repartition<uint16_t, D> d16;
    const auto pairs = hn::Reverse(d16, hn::BitCast(d16, v));
    return hn::BitCast(d, hn::Or(hn::ShiftLeft<8>(pairs), hn::ShiftRight<8>(pairs)));
  } else {
    return hn::Reverse(d, v);
  }
}

// dst[i] = src[-i] for i in [0, count): src points at element 0, the highest address.
template <typename T>
HWY_INLINE void CopyFlipped(uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT src,
                            size_t count) {
  const hn::ScalableTag<T> d;
  const size_t n = hn::Lanes(d);
  const int64_t w = static_cast<int64_t>(sizeof(T));
  size_t i = 0;
  // Elements i .. i+n-1 occupy the n lanes ending at src - i*w, lowest address first.
  for (; i + 2 * n <= count; i += 2 * n) {
    const auto v0 = hn::LoadU(d, AsLanes<T>(src - static_cast<int64_t>(i + n - 1) * w));
    const auto v1 = hn::LoadU(d, AsLanes<T>(src - static_cast<int64_t>(i + 2 * n - 1) * w));
    hn::StoreU(ReverseLanes(d, v0), d, AsLanes<T>(dst + i * sizeof(T)));
    hn::StoreU(ReverseLanes(d, v1), d, AsLanes<T>(dst + (i + n) * sizeof(T)));
  }
  for (; i + n <= count; i += n) {
    const auto v = hn::LoadU(d, AsLanes<T>(src - static_cast<int64_t>(i + n - 1) * w));
    hn::StoreU(ReverseLanes(d, v), d, AsLanes<T>(dst + i * sizeof(T)));
  }
  CopyStridedLoop<T>(dst + i * sizeof(T), w, src - static_cast<int64_t>(i) * w, -w, count - i);
}

// Lanes from[kChannel], from[kChannel + K], ... of the K = kChannels-way interleaved lanes at
// `from` (LoadInterleavedK, which reads K vectors of lanes); kChannel is 0 or K - 1.
template <int kChannels, int kChannel, class D>
HWY_INLINE hn::Vec<D> LoadChannel(D d, const hn::TFromD<D>* HWY_RESTRICT from) {
  static_assert(kChannel == 0 || kChannel == kChannels - 1, "the first or the last channel");
  hn::Vec<D> v0, v1, v2, v3;
  if constexpr (kChannels == 2) {
    hn::LoadInterleaved2(d, from, v0, v1);
    return kChannel == 0 ? v0 : v1;
  } else if constexpr (kChannels == 3) {
    hn::LoadInterleaved3(d, from, v0, v1, v2);
    return kChannel == 0 ? v0 : v2;
  } else {
    hn::LoadInterleaved4(d, from, v0, v1, v2, v3);
    return kChannel == 0 ? v0 : v3;
  }
}

// Vectors of CopyDeinterleaved from element i while i + n <= end; returns the next i.
template <typename T, int kChannels, bool kStream>
HWY_INLINE size_t DeinterleaveVectors(uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT src,
                                      size_t i, size_t end) {
  const hn::ScalableTag<T> d;
  const size_t n = hn::Lanes(d);
  for (; i + n <= end; i += n) {
    StoreLanes<kStream>(d, LoadChannel<kChannels, 0>(d, AsLanes<T>(src) + i * kChannels),
                        AsLanes<T>(dst + i * sizeof(T)));
  }
  return i;
}

// dst[i] = src[i * kChannels] (lane units) for i in [0, count). kStream: see
// CopyStridedStream.
template <typename T, int kChannels, bool kStream = false>
HWY_INLINE void CopyDeinterleaved(uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT src,
                                  size_t count) {
  size_t i = 0;
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  // 32-bit lanes, every third: two two-table permutes per 16 lanes. Highway 1.0.3's
  // LoadInterleaved3 builds all three channels from byte shuffles within 128-bit blocks, which
  // made a stride-3 fp32 de-interleave compute-bound.
  // Reads lanes 3i .. 3i + 47, which must not pass lane 3 (count - 1): i + 16 < count.
  if constexpr (sizeof(T) == 4 && kChannels == 3) {
    const hn::ScalableTag<T> d;
    const __m512i lo_index =  // lanes 0, 3, ..., 30 of (a, b) into lanes 0..10
        _mm512_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 0, 0, 0, 0, 0);
    const __m512i hi_index =  // lanes 0..10 kept, lanes 1, 4, ..., 13 of c into 11..15
        _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 17, 20, 23, 26, 29);
    for (; i + 16 < count; i += 16) {
      const T* from = AsLanes<T>(src) + i * 3;
      const __m512i a = hn::LoadU(d, from).raw;
      const __m512i b = hn::LoadU(d, from + 16).raw;
      const __m512i c = hn::LoadU(d, from + 32).raw;
      const __m512i ab = _mm512_permutex2var_epi32(a, lo_index, b);
      StoreLanes<kStream>(d, hn::Vec<decltype(d)>{_mm512_permutex2var_epi32(ab, hi_index, c)},
                          AsLanes<T>(dst + i * sizeof(T)));
    }
  }
#endif
  // LoadInterleavedK reads K*n lanes starting at lane i*K; the last one, (i+n)*K - 1, must not
  // pass the last addressed lane (count-1)*K, i.e. i + n <= count - 1. A row of whole vectors
  // ends with one loaded K-1 lanes earlier (channel K-1), which stays in bounds. Otherwise
  // streamed vectors stop at the last whole line (dst is line-aligned): a line that also took
  // regular stores from the tail would leave a partial write-combining buffer to flush per row.
  if (count == 0) return;
  const hn::ScalableTag<T> d;
  const size_t n = hn::Lanes(d);
  const bool whole_vectors = count % n == 0 && count > n;
  if constexpr (kStream) {
    constexpr size_t kLineLanes = 64 / sizeof(T);
    const size_t stream_end = whole_vectors ? count - 1 : (count - 1) / kLineLanes * kLineLanes;
    i = DeinterleaveVectors<T, kChannels, true>(dst, src, i, stream_end);
  }
  i = DeinterleaveVectors<T, kChannels, false>(dst, src, i, count - 1);
  if (whole_vectors && i + n == count) {
    const T* from = AsLanes<T>(src) + i * kChannels - (kChannels - 1);
    StoreLanes<kStream>(d, LoadChannel<kChannels, kChannels - 1>(d, from),
                        AsLanes<T>(dst + i * sizeof(T)));
    return;
  }
  const int64_t src_stride_bytes = static_cast<int64_t>(kChannels * sizeof(T));
  CopyStridedLoop<T>(dst + i * sizeof(T), static_cast<int64_t>(sizeof(T)),
                     src + static_cast<int64_t>(i) * src_stride_bytes, src_stride_bytes,
                     count - i);
}

// dst[i] = src[-i * kChannels] (lane units) for i in [0, count): src points at element 0, the
// highest address.
template <typename T, int kChannels>
HWY_INLINE void CopyDeinterleavedReversed(uint8_t* HWY_RESTRICT dst,
                                          const uint8_t* HWY_RESTRICT src, size_t count) {
  const hn::ScalableTag<T> d;
  const size_t n = hn::Lanes(d);
  const T* lane0 = AsLanes<T>(src);
  // Element 0 alone: a group holding it would read the kChannels - 1 lanes above it.
  StoreElem<T>(dst, LoadElem<T>(src));
  size_t i = 1;
  // Elements i .. i+n-1, read from the lowest (element i+n-1, lane -(i+n-1)*K) up to lane
  // -(i-1)*K - 1, which stays below element 0; the lowest must not pass element count-1.
  for (; i + n <= count; i += n) {
    const T* from = lane0 - static_cast<ptrdiff_t>((i + n - 1) * kChannels);
    hn::StoreU(ReverseLanes(d, LoadChannel<kChannels, 0>(d, from)), d,
               AsLanes<T>(dst + i * sizeof(T)));
  }
  const int64_t src_stride_bytes = -static_cast<int64_t>(kChannels * sizeof(T));
  CopyStridedLoop<T>(dst + i * sizeof(T), static_cast<int64_t>(sizeof(T)),
                     src + static_cast<int64_t>(i) * src_stride_bytes, src_stride_bytes,
                     count - i);
}

// dst[i] = value for i in [0, count).
template <typename T>
HWY_INLINE void Broadcast(uint8_t* HWY_RESTRICT dst, T value, size_t count) {
  const hn::ScalableTag<T> d;
  const size_t n = hn::Lanes(d);
  const auto v = hn::Set(d, value);
  size_t i = 0;
  for (; i + 2 * n <= count; i += 2 * n) {
    hn::StoreU(v, d, AsLanes<T>(dst + i * sizeof(T)));
    hn::StoreU(v, d, AsLanes<T>(dst + (i + n) * sizeof(T)));
  }
  for (; i + n <= count; i += n) hn::StoreU(v, d, AsLanes<T>(dst + i * sizeof(T)));
  for (; i < count; ++i) StoreElem<T>(dst + i * sizeof(T), value);
}

#endif  // DMLCPU_KERNELS_HAVE_VECTORS

// ------------------------------ copy_bytes

#if DMLCPU_KERNELS_HAVE_VECTORS
// Copies the whole vectors of [0, limit) from `from` to `to`, four at a time, then one at a
// time; non-temporal stores if kStream. Returns the bytes copied (limit rounded down to whole
// vectors); the caller copies the rest.
template <bool kStream>
HWY_INLINE size_t CopyWholeVectors(uint8_t* to, const uint8_t* from, size_t limit) {
  const hn::ScalableTag<uint8_t> d;
  const size_t n = hn::Lanes(d);
  const auto store = [&](auto v, size_t at) {
    if constexpr (kStream) {
      hn::Stream(v, d, to + at);
    } else {
      hn::StoreU(v, d, to + at);
    }
  };
  size_t i = 0;
  for (; i + 4 * n <= limit; i += 4 * n) {
    const auto v0 = hn::LoadU(d, from + i);
    const auto v1 = hn::LoadU(d, from + i + n);
    const auto v2 = hn::LoadU(d, from + i + 2 * n);
    const auto v3 = hn::LoadU(d, from + i + 3 * n);
    store(v0, i);
    store(v1, i + n);
    store(v2, i + 2 * n);
    store(v3, i + 3 * n);
  }
  for (; i + n <= limit; i += n) store(hn::LoadU(d, from + i), i);
  return i;
}
#endif

// Cached copies of this many bytes and more, up to kMaxVectorCopyBytes, go through a vector
// loop: glibc's memcpy hands them to `rep movsb`, about 30 % slower for 4-6 KiB on Zen 3
// (docs/performance.md, session 29). Shorter ones: memcpy's overlapping moves.
constexpr size_t kMinVectorCopyBytes = 512;
constexpr size_t kMaxVectorCopyBytes = size_t{256} << 10;

// bytes == 0 may come with null pointers, which memcpy does not allow.
void CopyBytes(void* dst, const void* src, size_t bytes) {
#if DMLCPU_KERNELS_HAVE_VECTORS
  if (bytes >= kMinVectorCopyBytes && bytes <= kMaxVectorCopyBytes) {
    const hn::ScalableTag<uint8_t> d;
    const size_t n = hn::Lanes(d);
    auto* to = static_cast<uint8_t*>(dst);
    const auto* from = static_cast<const uint8_t*>(src);
    const size_t i = CopyWholeVectors</*kStream=*/false>(to, from, bytes);
    // The last vector ends at `bytes` and overlaps bytes already copied (bytes >= n here).
    if (i != bytes) hn::StoreU(hn::LoadU(d, from + bytes - n), d, to + bytes - n);
    return;
  }
#endif
  if (bytes != 0) std::memcpy(dst, src, bytes);
}

// Streamed copies of at least two pages go kPageStreams pages at a time, kPageStepBytes of each
// page in turn: the hardware prefetchers follow each page's reads at once, where one stream
// stops at every page boundary (docs/performance.md, session 42).
constexpr size_t kPageBytes = 4096;
constexpr size_t kPageStreams = 4;
constexpr size_t kPageStepBytes = 256;
static_assert(kPageStepBytes % 64 == 0, "a step is whole lines");

#if DMLCPU_KERNELS_HAVE_VECTORS
// Streams the leading pages of [0, limit_bytes) from `from` to `to` (vector-aligned), up to
// kPageStreams side by side while two or more are left. Returns their bytes (whole pages); the
// caller copies the rest, under two pages.
HWY_INLINE size_t StreamPages(uint8_t* to, const uint8_t* from, size_t limit_bytes) {
  HWY_DASSERT(kPageStepBytes % hn::Lanes(hn::ScalableTag<uint8_t>()) == 0);
  size_t done_bytes = 0;
  while (limit_bytes - done_bytes >= 2 * kPageBytes) {
    const size_t pages = std::min(kPageStreams, (limit_bytes - done_bytes) / kPageBytes);
    const size_t page_end = done_bytes + kPageBytes;
    for (size_t step = done_bytes; step < page_end; step += kPageStepBytes) {
      for (size_t p = 0; p < pages; ++p) {
        const size_t first = step + p * kPageBytes;
        CopyWholeVectors</*kStream=*/true>(to + first, from + first, kPageStepBytes);
      }
    }
    done_bytes += pages * kPageBytes;
  }
  return done_bytes;
}
#endif

template <bool kFence>
void CopyBytesStreamImpl(void* dst, const void* src, size_t bytes) {
#if DMLCPU_KERNELS_HAVE_VECTORS
  constexpr size_t kLineBytes = 64;  // a whole number of vectors on every target
  auto* to = static_cast<uint8_t*>(dst);
  const auto* from = static_cast<const uint8_t*>(src);
  // Head: up to the next cache-line boundary of dst, so that Stream sees aligned addresses and
  // the write-combining buffers see whole lines. Without a whole line after it there is nothing
  // to stream. (The executor streams rows in steps of a few lines that start on line
  // boundaries: those must stream too.)
  const size_t head_bytes = (0 - reinterpret_cast<uintptr_t>(to)) & (kLineBytes - 1);
  if (bytes < head_bytes + kLineBytes) return CopyBytes(dst, src, bytes);
  if (head_bytes != 0) {
    std::memcpy(to, from, head_bytes);
    to += head_bytes;
    from += head_bytes;
    bytes -= head_bytes;
  }
  // Streamed: whole lines only. A line written partly by non-temporal and partly by regular
  // stores from one thread costs several times either (Zen 3); the tail goes by memcpy.
  const size_t whole_bytes = bytes & ~(kLineBytes - 1);
  const size_t paged = StreamPages(to, from, whole_bytes);
  const size_t i =
      paged + CopyWholeVectors</*kStream=*/true>(to + paged, from + paged, whole_bytes - paged);
  if (i != bytes) std::memcpy(to + i, from + i, bytes - i);
  // Non-temporal stores are weakly ordered: make them visible before returning (or leave it to
  // the caller's StoreFence after a batch).
  if (kFence) hwy::FlushStream();
#else
  CopyBytes(dst, src, bytes);
#endif
}

void CopyBytesStream(void* dst, const void* src, size_t bytes) {
  CopyBytesStreamImpl<true>(dst, src, bytes);
}

void CopyBytesStreamUnfenced(void* dst, const void* src, size_t bytes) {
  CopyBytesStreamImpl<false>(dst, src, bytes);
}

// ------------------------------ copy_strided

template <typename T>
void CopyStrided(void* dst, int64_t dst_stride_bytes, const void* src, int64_t src_stride_bytes,
                 size_t count) {
  if (count == 0) return;
  auto* to = static_cast<uint8_t*>(dst);
  const auto* from = static_cast<const uint8_t*>(src);
  constexpr int64_t kWidth = static_cast<int64_t>(sizeof(T));
  // A reversed contiguous dst is a contiguous dst walked from its other end (the elements do not
  // overlap, so the order of the writes does not matter).
  if (dst_stride_bytes == -kWidth && count > 1) {
    const int64_t last = static_cast<int64_t>(count - 1);
    to += last * dst_stride_bytes;
    from += last * src_stride_bytes;
    dst_stride_bytes = kWidth;
    src_stride_bytes = 0 - src_stride_bytes;
  }
  if (dst_stride_bytes == kWidth) {
    if (src_stride_bytes == kWidth) {
      std::memcpy(to, from, count * sizeof(T));
      return;
    }
#if DMLCPU_KERNELS_HAVE_VECTORS
    if (src_stride_bytes == 0) return Broadcast<T>(to, LoadElem<T>(from), count);
    if (src_stride_bytes == -kWidth) return CopyFlipped<T>(to, from, count);
    if (src_stride_bytes == 2 * kWidth) return CopyDeinterleaved<T, 2>(to, from, count);
    if (src_stride_bytes == 3 * kWidth) return CopyDeinterleaved<T, 3>(to, from, count);
    if (src_stride_bytes == 4 * kWidth) return CopyDeinterleaved<T, 4>(to, from, count);
    if (src_stride_bytes == -2 * kWidth) return CopyDeinterleavedReversed<T, 2>(to, from, count);
    if (src_stride_bytes == -3 * kWidth) return CopyDeinterleavedReversed<T, 3>(to, from, count);
    if (src_stride_bytes == -4 * kWidth) return CopyDeinterleavedReversed<T, 4>(to, from, count);
#endif
  }
  CopyStridedLoop<T>(to, dst_stride_bytes, from, src_stride_bytes, count);
}

// copy_strided_stream: CopyStrided, with the vector body of a contiguous, element-aligned dst
// written by non-temporal stores where StreamsDirectly (a plain copy, or a de-interleave); the
// elements before dst's first 64-byte boundary go through the scalar loop (so that the
// write-combining buffers see whole lines). Other rows, and dst not element-aligned, copy with
// regular stores. No fence.
template <typename T>
void CopyStridedStream(void* dst, int64_t dst_stride_bytes, const void* src,
                       int64_t src_stride_bytes, size_t count) {
  constexpr int64_t kWidth = static_cast<int64_t>(sizeof(T));
  auto* to = static_cast<uint8_t*>(dst);
  const auto* from = static_cast<const uint8_t*>(src);
  if (dst_stride_bytes != kWidth || reinterpret_cast<uintptr_t>(to) % sizeof(T) != 0 ||
      !StreamsDirectly(src_stride_bytes, kWidth)) {
    return CopyStrided<T>(dst, dst_stride_bytes, src, src_stride_bytes, count);
  }
  if (src_stride_bytes == kWidth) return CopyBytesStreamImpl<false>(to, from, count * sizeof(T));
#if DMLCPU_KERNELS_HAVE_VECTORS
  const hn::ScalableTag<T> d;
  // A line boundary is a vector boundary too (x86 vectors are at most a line).
  const size_t align_bytes = std::max<size_t>(64, hn::Lanes(d) * sizeof(T));
  const size_t head = std::min<size_t>(
      count,
      (align_bytes - reinterpret_cast<uintptr_t>(to) % align_bytes) % align_bytes / sizeof(T));
  CopyStridedLoop<T>(to, kWidth, from, src_stride_bytes, head);
  to += head * sizeof(T);
  from += static_cast<int64_t>(head) * src_stride_bytes;
  count -= head;
  switch (src_stride_bytes / kWidth) {
    case 2: return CopyDeinterleaved<T, 2, true>(to, from, count);
    case 3: return CopyDeinterleaved<T, 3, true>(to, from, count);
    default: return CopyDeinterleaved<T, 4, true>(to, from, count);
  }
#else
  CopyStrided<T>(to, kWidth, from, src_stride_bytes, count);
#endif
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace dmlcpu
HWY_AFTER_NAMESPACE();

#endif  // DMLCPU_KERNELS_COPY_INL_H_
