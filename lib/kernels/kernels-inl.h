// Highway kernels, compiled once per SIMD target: kernels.cc re-includes this header through
// hwy/foreach_target.h (HWY_TARGET_INCLUDE), so every target gets its own namespace
// dmlcpu::kernels::N_<TARGET> with a GetKernelSet() that kernels.cc exports with HWY_EXPORT.
//
// Contracts are those of kernels.h. In particular no kernel touches a byte outside
// [first addressed element, last addressed element] of any operand: every vector load or store
// below is bounds-checked against the exact extent, and tails are scalar loops.
//
// Paths per kernel (vector paths only on targets with vectors, i.e. not HWY_SCALAR):
// - copy_bytes: memcpy (glibc's is the fastest cached copy there is).
// - copy_bytes_stream: head up to a 64-byte dst boundary by memcpy, then unaligned loads +
//   non-temporal Stream stores of whole vectors, tail by memcpy, then FlushStream.
// - copy_strided: dst stride -width is turned into +width by walking both operands backwards.
//   With a contiguous dst: src stride width (memcpy), 0 (Set + store), -width (load + Reverse +
//   store), 2/3/4 x width (LoadInterleaved2/3/4, keep channel 0; 4-byte elements x 3 on AVX3:
//   two two-table permutes), -2/-3/-4 x width (the same from the lowest element, then Reverse).
//   Anything else: scalar loop with 8 loads in flight.
// - copy_strided_stream: as copy_strided, but a contiguous dst of a plain copy or a forward
//   de-interleave (StreamsDirectly) is written from its first 64-byte boundary on by Stream
//   stores of whole vectors (head and tail by the scalar loop); no fence.
// - gather_blocks: blocks up to 256 bytes by inline vector moves (an overlapping last vector),
//   smaller than a vector by two overlapping fixed-size moves; larger blocks and merged runs by
//   copy_large.
// - transpose_tile: blocks of 64 x 64 bytes through a local block, each dst line stored whole
//   (streamed when line-aligned in the _stream variant); leftovers element by element.
// - gather_row: one pass of clamp, scale and load per element (contiguous dst and indices):
//   4- and 8-byte elements by GatherOffset of whole vectors, two at a time and software-
//   pipelined (streamed in the _stream variant); other widths (and offsets too wide for 32-bit
//   gathers) by vectors of clamped offsets staged on the stack and scalar loads; leftovers
//   scalar. Prefetches the index stream and the next row as it goes. Many rows per call
//   (packed strips), the geometry checks once per call.
// - gather: scalar loop with 8 loads in flight over a resolved offsets array (SIMD gathers
//   were no faster there on the target machine).
//   The one place SIMD gathers are used is gather_row, where the offsets come straight from the
//   clamped indices in registers: there they measured faster (GatherRow's comment).
// - resolve: contiguous indices: widen to 64-bit, wrap negatives, unsigned Min with
//   dim_size - 1, 64-bit multiply by the pitch (emulated by Highway below AVX3). Else scalar.
// - find_out_of_range: contiguous indices: running Min/Max over 4 vectors checked against the
//   allowed interval, then a scalar scan of the failing chunk. Else scalar.

// Per-target include guard (toggled by foreach_target.h).
#if defined(DMLCPU_KERNELS_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DMLCPU_KERNELS_KERNELS_INL_H_
#undef DMLCPU_KERNELS_KERNELS_INL_H_
#else
#define DMLCPU_KERNELS_KERNELS_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "kernels/kernels.h"

HWY_BEFORE_NAMESPACE();
namespace dmlcpu {
namespace kernels {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

// Whether this target has real vectors; HWY_SCALAR runs the scalar loops only.
#define DMLCPU_KERNELS_HAVE_VECTORS (HWY_TARGET != HWY_SCALAR)

// ------------------------------ Scalar helpers

// Unaligned element access; compiles to a single move.
template <typename T>
HWY_INLINE T LoadElem(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
HWY_INLINE void StoreElem(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

// Typed view of a byte pointer for Highway loads/stores (which never dereference it as T).
template <typename T>
HWY_INLINE const T* AsLanes(const uint8_t* p) {
  return reinterpret_cast<const T*>(p);
}

template <typename T>
HWY_INLINE T* AsLanes(uint8_t* p) {
  return reinterpret_cast<T*>(p);
}

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

// The kClamp rule of kernels.h for one index value.
template <typename I>
HWY_INLINE uint64_t ClampIndex(I v, uint64_t dim_size) {
  uint64_t u;
  if constexpr (std::is_signed_v<I>) {
    const uint64_t w = static_cast<uint64_t>(static_cast<int64_t>(v));
    // Two's-complement wrap: same bits as the signed sum, without signed overflow.
    u = static_cast<int64_t>(v) < 0 ? w + dim_size : w;
  } else {
    u = static_cast<uint64_t>(v);
  }
  return u < dim_size ? u : dim_size - 1;
}

// c * pitch modulo 2^64, the bits of the signed product.
HWY_INLINE int64_t OffsetBytes(uint64_t c, int64_t pitch_bytes) {
  return static_cast<int64_t>(c * static_cast<uint64_t>(pitch_bytes));
}

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

// ------------------------------ Vector helpers

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

// Stores all lanes of v at p: with kStream a non-temporal store (p must be aligned to the vector
// size), else an unaligned store.
template <bool kStream, class D, class V>
HWY_INLINE void StoreLanes(D d, V v, hn::TFromD<D>* HWY_RESTRICT p) {
  if constexpr (kStream) {
    hn::Stream(v, d, p);
  } else {
    hn::StoreU(v, d, p);
  }
}

// dst[i] = src[i * kChannels] (lane units) for i in [0, count). kStream: see
// CopyStridedStream.
template <typename T, int kChannels, bool kStream = false>
HWY_INLINE void CopyDeinterleaved(uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT src,
                                  size_t count) {
  const hn::ScalableTag<T> d;
  const size_t n = hn::Lanes(d);
  using V = hn::Vec<decltype(d)>;
  V v0, v1, v2, v3;
  size_t i = 0;
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  // 32-bit lanes, every third: two two-table permutes per 16 lanes. Highway 1.0.3's
  // LoadInterleaved3 builds all three channels from byte shuffles within 128-bit blocks, which
  // made [:, 1::3] of {4096,4096} fp32 compute-bound (0.27 -> 0.30 of the best copy, 1 thread).
  // Reads lanes 3i .. 3i + 47, which must not pass lane 3 (count - 1): i + 16 < count.
  if constexpr (sizeof(T) == 4 && kChannels == 3) {
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
      StoreLanes<kStream>(d, V{_mm512_permutex2var_epi32(ab, hi_index, c)},
                          AsLanes<T>(dst + i * sizeof(T)));
    }
  }
#endif
  // LoadInterleavedK reads K*n lanes starting at lane i*K; the last one, (i+n)*K - 1, must not
  // pass the last addressed lane (count-1)*K, i.e. i + n <= count - 1.
  for (; i + n < count; i += n) {
    const T* from = AsLanes<T>(src) + i * kChannels;
    if constexpr (kChannels == 2) {
      hn::LoadInterleaved2(d, from, v0, v1);
    } else if constexpr (kChannels == 3) {
      hn::LoadInterleaved3(d, from, v0, v1, v2);
    } else {
      hn::LoadInterleaved4(d, from, v0, v1, v2, v3);
    }
    StoreLanes<kStream>(d, v0, AsLanes<T>(dst + i * sizeof(T)));
  }
  (void)v1;
  (void)v2;
  (void)v3;
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
  using V = hn::Vec<decltype(d)>;
  V v0, v1, v2, v3;
  const T* lane0 = AsLanes<T>(src);
  // Element 0 alone: a group holding it would read the kChannels - 1 lanes above it.
  StoreElem<T>(dst, LoadElem<T>(src));
  size_t i = 1;
  // Elements i .. i+n-1, read from the lowest (element i+n-1, lane -(i+n-1)*K) up to lane
  // -(i-1)*K - 1, which stays below element 0; the lowest must not pass element count-1.
  for (; i + n <= count; i += n) {
    const T* from = lane0 - static_cast<ptrdiff_t>((i + n - 1) * kChannels);
    if constexpr (kChannels == 2) {
      hn::LoadInterleaved2(d, from, v0, v1);
    } else if constexpr (kChannels == 3) {
      hn::LoadInterleaved3(d, from, v0, v1, v2);
    } else {
      hn::LoadInterleaved4(d, from, v0, v1, v2, v3);
    }
    hn::StoreU(ReverseLanes(d, v0), d, AsLanes<T>(dst + i * sizeof(T)));
  }
  (void)v1;
  (void)v2;
  (void)v3;
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

// bytes == 0 may come with null pointers, which memcpy does not allow.
void CopyBytes(void* dst, const void* src, size_t bytes) {
  if (bytes != 0) std::memcpy(dst, src, bytes);
}

template <bool kFence>
void CopyBytesStreamImpl(void* dst, const void* src, size_t bytes) {
#if DMLCPU_KERNELS_HAVE_VECTORS
  const hn::ScalableTag<uint8_t> d;
  const size_t n = hn::Lanes(d);
  constexpr size_t kLineBytes = 64;
  const size_t group_bytes = 4 * n;  // >= one cache line on every x86 target
  auto* to = static_cast<uint8_t*>(dst);
  const auto* from = static_cast<const uint8_t*>(src);
  // Head: up to the next cache-line boundary of dst, so that Stream sees aligned addresses and
  // the write-combining buffers see whole lines. Without a whole line after it there is nothing
  // to stream. (The executor streams rows in steps of a few lines that start on line
  // boundaries: those must stream too.)
  const size_t head_bytes = (0 - reinterpret_cast<uintptr_t>(to)) & (kLineBytes - 1);
  if (bytes < head_bytes + kLineBytes) return CopyBytes(dst, src, bytes);
  std::memcpy(to, from, head_bytes);
  to += head_bytes;
  from += head_bytes;
  bytes -= head_bytes;
  size_t i = 0;
  for (; i + group_bytes <= bytes; i += group_bytes) {
    const auto v0 = hn::LoadU(d, from + i);
    const auto v1 = hn::LoadU(d, from + i + n);
    const auto v2 = hn::LoadU(d, from + i + 2 * n);
    const auto v3 = hn::LoadU(d, from + i + 3 * n);
    hn::Stream(v0, d, to + i);
    hn::Stream(v1, d, to + i + n);
    hn::Stream(v2, d, to + i + 2 * n);
    hn::Stream(v3, d, to + i + 3 * n);
  }
  for (; i + n <= bytes; i += n) hn::Stream(hn::LoadU(d, from + i), d, to + i);
  std::memcpy(to + i, from + i, bytes - i);
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
  constexpr size_t kInlineBytes = 256;  // larger blocks go to copy_large
  // Blocks come from random rows, where the hardware prefetcher only ramps up inside a block:
  // while copying one, start a later one on its way (up to 4 KiB of it), about 4 KiB ahead for
  // blocks below 1 KiB, else the next one. Measured (1 thread, cold, 256-byte blocks): 0.42 of
  // the best copy, vs 0.37 with 2 blocks ahead.
  const bool prefetch = prefetch_blocks && block_bytes >= kMinPrefetchBlockBytes;
  const size_t prefetch_bytes = block_bytes < 4096 ? block_bytes : 4096;
  const size_t ahead = block_bytes < 1024 ? std::max<size_t>(2, 4096 / block_bytes) : 1;
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
    if (block_bytes <= kInlineBytes) {
      CopyBlockInline(to, s + first, block_bytes);
    } else {
      copy_large(to, s + first, block_bytes);
    }
    ++i;
  }
}

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
// Plain loops: the compiler's vectorisation of them measured faster here than 16-byte
// sub-block transposes by lane interleaving (23 vs 15 GB/s, {4096,4096} fp32, 1 thread).
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
// the index stream kIndexAheadBytes ahead, and the next row's span spread over the row.
template <typename I>
class GatherRowPrefetch {
 public:
  static constexpr size_t kIndexAheadBytes = 4096;
  GatherRowPrefetch(const uint8_t* indices, size_t count, const RowPrefetch* hint)
      : indices_(hint != nullptr && hint->indices_ahead ? reinterpret_cast<uintptr_t>(indices)
                                                        : 0),
        next_(hint != nullptr ? hint->next : nullptr, hint != nullptr ? hint->next_bytes : 0,
              count) {}
  // Items [first, first + n) are about to be gathered. Addresses are integers: prefetching past
  // the end of the indices never faults.
  HWY_INLINE void Upto(size_t first, size_t n) {
    if (indices_ != 0) {
      const uintptr_t from = indices_ + first * sizeof(I) + kIndexAheadBytes;
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

// The kClamp rule for Lanes(du64) contiguous indices of type I, one per 64-bit lane.
template <typename I, class DU64>
HWY_INLINE hn::Vec<DU64> ClampIndexLanes(DU64 du64, const I* indices, uint64_t dim_size) {
  const hn::RebindToSigned<DU64> di64;
  const hn::Rebind<I, DU64> d_idx;
  const auto raw = hn::LoadU(d_idx, indices);
  hn::Vec<DU64> u;
  if constexpr (std::is_signed_v<I>) {
    hn::Vec<decltype(di64)> w;
    if constexpr (sizeof(I) == 8) {
      w = raw;
    } else {
      w = hn::PromoteTo(di64, raw);
    }
    const auto dim = hn::Set(di64, static_cast<int64_t>(dim_size));
    w = hn::Add(w, hn::IfThenElseZero(hn::Lt(w, hn::Zero(di64)), dim));
    u = hn::BitCast(du64, w);
  } else {
    if constexpr (sizeof(I) == 8) {
      u = raw;
    } else {
      u = hn::PromoteTo(du64, raw);
    }
  }
  return hn::Min(u, hn::Set(du64, dim_size - 1));
}

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
// offsets. Gathers are microcoded on the target machine (AMD Zen 4), and the core does not run
// ahead of them far enough to overlap that chain by itself. A 16 KiB row in L1, int64 ids,
// cycles per item: fp32 1.24 -> 0.83, fp64 1.34 -> 0.90 (fp64 pipelined one gather at a time:
// 1.30).
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
        // Two 8-lane gathers on the 64-bit offsets: faster on the target machine than narrowing
        // them for one 16-lane gather (GATHER_ELEMENTS along the last axis of {4096,4096} fp32,
        // int64 ids, 1 thread: 37 instead of 33 GB/s).
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

// The scalar loop of `gather` (defined with it below).
template <typename T, bool kDstContiguous, bool kSameSrc>
HWY_INLINE void GatherLoop(uint8_t* HWY_RESTRICT dst, int64_t dst_stride_bytes,
                           const uint8_t* HWY_RESTRICT src, int64_t src_stride_bytes,
                           const int64_t* offsets_bytes, size_t count);

// GatherRow rows that GatherRowVectors does not take (1- and 2-byte elements, 4-byte ones whose
// offsets do not fit 32 bits, a dst not aligned to the element), with forward strides and pitch:
// up to kStageItems clamped indices at a time scaled by vectors into 64-bit byte offsets on the
// stack, then loaded by the scalar loop of `gather` (8 loads in flight). Returns how many
// leading items it did (whole vectors of indices); the caller does the rest. Measured against
// clamping, scaling and loading one item at a time: GATHER_ELEMENTS along the last axis of
// {4096,4096}, 1 thread, GB/s, fp16 with int32 ids 9 -> 17-22, with int64 ids 14.5 -> 32, uint8
// with int64 ids 12 -> 24-25.
template <typename T, typename I>
HWY_INLINE size_t GatherRowStaged(uint8_t* HWY_RESTRICT d, const uint8_t* HWY_RESTRICT s,
                                  int64_t src_stride_bytes, const uint8_t* HWY_RESTRICT ix,
                                  size_t count, uint64_t dim_size, int64_t pitch_bytes,
                                  GatherRowPrefetch<I>& pf) {
  const hn::ScalableTag<uint64_t> du64;
  const size_t half = hn::Lanes(du64);
  constexpr size_t kStageItems = 64;
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
// rows of 8 to 64 items). 4- and 8-byte elements go by vector gathers (measured on the target
// machine, GATHER_ELEMENTS along the last axis of {4096,4096} fp32 with int64 ids, 1 thread, cold,
// streamed: 6.5 ms, against 9 ms for resolving into an offsets array and a scalar gather); the
// stream variant streams those vectors (no fence). Other widths: GatherRowStaged (regular
// stores); leftovers item by item. Prefetches what `prefetch` names as it goes.
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
    constexpr size_t kStepItems = 16;
    for (; i < count; ++i) {
      if (i % kStepItems == 0) pf.Upto(i, std::min(kStepItems, count - i));
      GatherRowItem<T, I>(d, s, src_stride_bytes, ix, i, dim_size, pitch_bytes);
    }
  }
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

// ------------------------------ gather

// An empty asm statement that claims to change `v` in a general-purpose register. It emits
// nothing, but the loop around it can no longer be turned into an emulated vector gather
// (offsets extracted from a vector one by one, values inserted into one), which GCC 12 does at
// -O3 to the 8-byte loop below once its source stride is a constant 0: 0.28 ns per item from L1
// there, 0.21 with scalar loads (1- to 4-byte elements measured 0.19-0.20 without the asm and
// 0.20-0.21 with it, so they go without). Clang, which also defines __GNUC__, gets the same asm
// (it builds the fuzzers; not measured there).
template <typename V>
HWY_INLINE void KeepInRegister(V& v) {
#if defined(__GNUC__)
  asm("" : "+r"(v));
#else
  (void)v;
#endif
}

// kSameSrc: every item reads from `src` itself (src_stride_bytes 0, the common case: the offsets
// hold the whole address). With the stride a compile-time 0, the loop has no stride multiples
// to keep, which took registers it then spilled. ns per item from L1, 64-item calls, best of
// runs: 1-byte 0.31 -> 0.20, 2-byte 0.24 -> 0.19, 4-byte 0.24 -> 0.20, 8-byte 0.42 -> 0.21
// (with KeepInRegister). GATHER of 512 shared ids along axis 1 of {4096,1024} fp32, cold, A/B
// medians: 0.36 -> 0.42 of the best copy on 1 thread, 0.48 -> 0.56 on 2.
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

// ------------------------------ The set for this target

// One GatherRow per index type, in IndexType order.
#define DMLCPU_GATHER_ROWS(T, kStream)                                           \
  {                                                                              \
    &GatherRow<T, int32_t, kStream>, &GatherRow<T, uint32_t, kStream>,           \
        &GatherRow<T, int64_t, kStream>, &GatherRow<T, uint64_t, kStream>        \
  }

const KernelSet* GetKernelSet() {
  static const KernelSet kSet = {
      hwy::TargetName(HWY_TARGET),
      &CopyBytes,
      &CopyBytesStream,
      &CopyBytesStreamUnfenced,
      {&CopyStrided<uint8_t>, &CopyStrided<uint16_t>, &CopyStrided<uint32_t>,
       &CopyStrided<uint64_t>},
      {&CopyStridedStream<uint8_t>, &CopyStridedStream<uint16_t>, &CopyStridedStream<uint32_t>,
       &CopyStridedStream<uint64_t>},
      {&Gather<uint8_t>, &Gather<uint16_t>, &Gather<uint32_t>, &Gather<uint64_t>},
      {&Resolve<int32_t>, &Resolve<uint32_t>, &Resolve<int64_t>, &Resolve<uint64_t>},
      {&FindOutOfRange<int32_t>, &FindOutOfRange<uint32_t>, &FindOutOfRange<int64_t>,
       &FindOutOfRange<uint64_t>},
      &GatherBlocks,
      {&TransposeTile<uint8_t, false>, &TransposeTile<uint16_t, false>,
       &TransposeTile<uint32_t, false>, &TransposeTile<uint64_t, false>},
      {&TransposeTile<uint8_t, true>, &TransposeTile<uint16_t, true>,
       &TransposeTile<uint32_t, true>, &TransposeTile<uint64_t, true>},
      {DMLCPU_GATHER_ROWS(uint8_t, false), DMLCPU_GATHER_ROWS(uint16_t, false),
       DMLCPU_GATHER_ROWS(uint32_t, false), DMLCPU_GATHER_ROWS(uint64_t, false)},
      {DMLCPU_GATHER_ROWS(uint8_t, true), DMLCPU_GATHER_ROWS(uint16_t, true),
       DMLCPU_GATHER_ROWS(uint32_t, true), DMLCPU_GATHER_ROWS(uint64_t, true)},
  };
  return &kSet;
}

#undef DMLCPU_GATHER_ROWS
#undef DMLCPU_KERNELS_HAVE_VECTORS

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace dmlcpu
HWY_AFTER_NAMESPACE();

#endif  // DMLCPU_KERNELS_KERNELS_INL_H_
