// SPDX-License-Identifier: Apache-2.0
// Portable reference kernels: obviously correct loops. The SIMD set (kernels.cc) must match
// them byte for byte; kernels_test checks that for every target.
#include <atomic>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
#include <xmmintrin.h>  // _mm_sfence
#endif

#include "kernels/kernels.h"

namespace dmlcpu {
namespace kernels {
namespace {

template <typename T>
T LoadAt(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
void StoreAt(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

void CopyBytesScalar(void* dst, const void* src, size_t bytes) { std::memcpy(dst, src, bytes); }

template <typename T>
void CopyStridedScalar(void* dst, int64_t dst_stride_bytes, const void* src,
                       int64_t src_stride_bytes, size_t count) {
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  for (size_t i = 0; i < count; ++i) {
    const auto k = static_cast<int64_t>(i);  // address element i only: no pointer past the ends
    StoreAt<T>(d + k * dst_stride_bytes, LoadAt<T>(s + k * src_stride_bytes));
  }
}

template <typename I>
uint64_t ClampIndex(I v, uint64_t dim_size) {
  uint64_t u;
  if constexpr (static_cast<I>(-1) < 0) {
    const int64_t w = static_cast<int64_t>(v);
    u = static_cast<uint64_t>(w < 0 ? w + static_cast<int64_t>(dim_size) : w);
  } else {
    u = static_cast<uint64_t>(v);
  }
  return u < dim_size ? u : dim_size - 1;
}

template <typename I>
void ResolveScalar(const void* indices, int64_t idx_stride_bytes, size_t count, uint64_t dim_size,
                   int64_t pitch_bytes, int64_t* offsets_bytes, bool accumulate) {
  const auto* p = static_cast<const uint8_t*>(indices);
  for (size_t i = 0; i < count; ++i) {
    const I v = LoadAt<I>(p + static_cast<int64_t>(i) * idx_stride_bytes);
    const int64_t off = static_cast<int64_t>(ClampIndex<I>(v, dim_size)) * pitch_bytes;
    offsets_bytes[i] = accumulate ? offsets_bytes[i] + off : off;
  }
}

template <typename T>
void GatherScalar(void* dst, int64_t dst_stride_bytes, const void* src, int64_t src_stride_bytes,
                  const int64_t* offsets_bytes, size_t count) {
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  for (size_t i = 0; i < count; ++i) {
    const auto k = static_cast<int64_t>(i);
    StoreAt<T>(d + k * dst_stride_bytes, LoadAt<T>(s + k * src_stride_bytes + offsets_bytes[i]));
  }
}

template <typename I>
size_t FindOutOfRangeScalar(const void* indices, int64_t idx_stride_bytes, size_t count,
                            uint64_t dim_size) {
  const auto* p = static_cast<const uint8_t*>(indices);
  for (size_t i = 0; i < count; ++i) {
    const I v = LoadAt<I>(p + static_cast<int64_t>(i) * idx_stride_bytes);
    bool ok;
    if constexpr (static_cast<I>(-1) < 0) {
      const int64_t w = static_cast<int64_t>(v);
      // dim_size <= 2^32 - 1, so the negation cannot overflow.
      ok = w >= -static_cast<int64_t>(dim_size) && w < static_cast<int64_t>(dim_size);
    } else {
      ok = static_cast<uint64_t>(v) < dim_size;
    }
    if (!ok) return i;
  }
  return count;
}

template <typename T, typename I>
void GatherRowScalar(void* dst, int64_t dst_row_pitch_bytes, const void* src,
                     int64_t src_stride_bytes, const void* indices, int64_t idx_row_pitch_bytes,
                     size_t rows, size_t count, uint64_t dim_size, int64_t pitch_bytes,
                     const RowPrefetch* /*prefetch*/) {
  const auto* s = static_cast<const uint8_t*>(src);
  for (size_t r = 0; r < rows; ++r) {
    auto* d = static_cast<uint8_t*>(dst) + static_cast<int64_t>(r) * dst_row_pitch_bytes;
    const auto* ix =
        static_cast<const uint8_t*>(indices) + static_cast<int64_t>(r) * idx_row_pitch_bytes;
    for (size_t i = 0; i < count; ++i) {
      const uint64_t c = ClampIndex<I>(LoadAt<I>(ix + i * sizeof(I)), dim_size);
      const int64_t at = static_cast<int64_t>(i) * src_stride_bytes +
                         static_cast<int64_t>(c) * pitch_bytes;
      StoreAt<T>(d + i * sizeof(T), LoadAt<T>(s + at));
    }
  }
}

// Each framed row byte by byte from its source (the row or the pattern); writes no spill.
void FrameRowsScalar(void* dst, const void* src, int64_t src_stride_bytes, size_t rows,
                     size_t row_bytes, size_t left_bytes, size_t right_bytes,
                     const uint8_t* pattern) {
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  for (size_t r = 0; r < rows; ++r) {
    const uint8_t* row = s + static_cast<int64_t>(r) * src_stride_bytes;
    for (size_t k = 0; k < left_bytes; ++k) *d++ = pattern[k % 64];
    for (size_t k = 0; k < row_bytes; ++k) *d++ = row[k];
    for (size_t k = 0; k < right_bytes; ++k) *d++ = pattern[k % 64];
  }
}

// Plain per-block copies; runs of adjacent sources go to copy_large in one call, as the SIMD
// sets do, so that merge_runs means the same everywhere. No prefetching.
void GatherBlocksScalar(void* dst, int64_t dst_stride_bytes, const void* src,
                        const int64_t* offsets_bytes, size_t count, size_t block_bytes,
                        CopyBytesFn copy_large, bool merge_runs, bool /*prefetch_blocks*/) {
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  const auto block = static_cast<int64_t>(block_bytes);
  const bool merge = merge_runs && dst_stride_bytes == block;
  for (size_t i = 0; i < count;) {
    size_t end = i + 1;
    if (merge) {
      while (end < count && offsets_bytes[end] == offsets_bytes[end - 1] + block) ++end;
    }
    uint8_t* to = d + static_cast<int64_t>(i) * dst_stride_bytes;
    if (end - i > 1 || block_bytes > 256) {
      copy_large(to, s + offsets_bytes[i], (end - i) * block_bytes);
    } else {
      std::memcpy(to, s + offsets_bytes[i], block_bytes);
    }
    i = end;
  }
}

// Transposes one tile in blocks of kBlockRows (dst rows) x kBlockCols (dst columns): the block
// is read as kBlockCols src rows of kBlockRows contiguous elements, and written as kBlockRows
// dst rows of kBlockCols contiguous elements (a full 64-byte line for 4-byte elements).
template <typename T>
void TransposeTileImpl(void* dst, int64_t dst_row_stride_bytes, const void* src,
                       int64_t src_row_stride_bytes, size_t rows, size_t cols) {
  constexpr size_t kBlockRows = 16, kBlockCols = 16;
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  size_t c0 = 0;
  for (; c0 + kBlockCols <= cols; c0 += kBlockCols) {
    size_t r0 = 0;
    for (; r0 + kBlockRows <= rows; r0 += kBlockRows) {
      T block[kBlockCols][kBlockRows];
      for (size_t c = 0; c < kBlockCols; ++c) {
        std::memcpy(block[c], s + static_cast<int64_t>(c0 + c) * src_row_stride_bytes +
                                  r0 * sizeof(T), sizeof(block[c]));
      }
      for (size_t r = 0; r < kBlockRows; ++r) {
        T line[kBlockCols];
        for (size_t c = 0; c < kBlockCols; ++c) line[c] = block[c][r];
        std::memcpy(d + static_cast<int64_t>(r0 + r) * dst_row_stride_bytes + c0 * sizeof(T), line,
                    sizeof(line));
      }
    }
    for (; r0 < rows; ++r0) {  // leftover dst rows of this column block
      for (size_t c = c0; c < c0 + kBlockCols; ++c) {
        std::memcpy(d + static_cast<int64_t>(r0) * dst_row_stride_bytes + c * sizeof(T),
                    s + static_cast<int64_t>(c) * src_row_stride_bytes + r0 * sizeof(T), sizeof(T));
      }
    }
  }
  for (; c0 < cols; ++c0) {  // leftover dst columns
    for (size_t r = 0; r < rows; ++r) {
      std::memcpy(d + static_cast<int64_t>(r) * dst_row_stride_bytes + c0 * sizeof(T),
                  s + static_cast<int64_t>(c0) * src_row_stride_bytes + r * sizeof(T), sizeof(T));
    }
  }
}

}  // namespace

void StoreFence() {
#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
  _mm_sfence();
#else
  std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
}

// One GatherRowScalar per index type, in IndexType order.
#define DMLCPU_GATHER_ROWS(T)                                                       \
  {                                                                                 \
    &GatherRowScalar<T, int32_t>, &GatherRowScalar<T, uint32_t>,                    \
        &GatherRowScalar<T, int64_t>, &GatherRowScalar<T, uint64_t>                 \
  }

const KernelSet& ScalarKernels() {
  static const KernelSet kSet = {
      "scalar",
      &CopyBytesScalar,
      &CopyBytesScalar,
      &CopyBytesScalar,
      {&CopyStridedScalar<uint8_t>, &CopyStridedScalar<uint16_t>, &CopyStridedScalar<uint32_t>,
       &CopyStridedScalar<uint64_t>},
      {&CopyStridedScalar<uint8_t>, &CopyStridedScalar<uint16_t>, &CopyStridedScalar<uint32_t>,
       &CopyStridedScalar<uint64_t>},
      {&GatherScalar<uint8_t>, &GatherScalar<uint16_t>, &GatherScalar<uint32_t>,
       &GatherScalar<uint64_t>},
      {&ResolveScalar<int32_t>, &ResolveScalar<uint32_t>, &ResolveScalar<int64_t>,
       &ResolveScalar<uint64_t>},
      {&FindOutOfRangeScalar<int32_t>, &FindOutOfRangeScalar<uint32_t>,
       &FindOutOfRangeScalar<int64_t>, &FindOutOfRangeScalar<uint64_t>},
      &GatherBlocksScalar,
      &FrameRowsScalar,
      {&TransposeTileImpl<uint8_t>, &TransposeTileImpl<uint16_t>, &TransposeTileImpl<uint32_t>,
       &TransposeTileImpl<uint64_t>},
      {&TransposeTileImpl<uint8_t>, &TransposeTileImpl<uint16_t>, &TransposeTileImpl<uint32_t>,
       &TransposeTileImpl<uint64_t>},
      {DMLCPU_GATHER_ROWS(uint8_t), DMLCPU_GATHER_ROWS(uint16_t), DMLCPU_GATHER_ROWS(uint32_t),
       DMLCPU_GATHER_ROWS(uint64_t)},
      {DMLCPU_GATHER_ROWS(uint8_t), DMLCPU_GATHER_ROWS(uint16_t), DMLCPU_GATHER_ROWS(uint32_t),
       DMLCPU_GATHER_ROWS(uint64_t)},
  };
  return kSet;
}

#undef DMLCPU_GATHER_ROWS

}  // namespace kernels
}  // namespace dmlcpu
