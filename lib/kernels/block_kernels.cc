// Block gathers: the copy half of K3 (one index tuple selects a contiguous block). Blocks of
// up to 256 bytes are copied inline (no library call per block); larger ones and merged runs
// go through copy_large.
#include <cstring>

#include "kernels/kernels.h"

namespace dmlcpu {
namespace kernels {
namespace {

// Copies n <= 64 bytes with at most two overlapping fixed-size moves (compiled to plain loads
// and stores, no library call).
inline void CopySmall(uint8_t* dst, const uint8_t* src, size_t n) {
  if (n >= 32) {
    uint8_t head[32], tail[32];
    std::memcpy(head, src, 32);
    std::memcpy(tail, src + n - 32, 32);
    std::memcpy(dst, head, 32);
    std::memcpy(dst + n - 32, tail, 32);
  } else if (n >= 16) {
    uint8_t head[16], tail[16];
    std::memcpy(head, src, 16);
    std::memcpy(tail, src + n - 16, 16);
    std::memcpy(dst, head, 16);
    std::memcpy(dst + n - 16, tail, 16);
  } else if (n >= 8) {
    uint64_t head, tail;
    std::memcpy(&head, src, 8);
    std::memcpy(&tail, src + n - 8, 8);
    std::memcpy(dst, &head, 8);
    std::memcpy(dst + n - 8, &tail, 8);
  } else if (n >= 4) {
    uint32_t head, tail;
    std::memcpy(&head, src, 4);
    std::memcpy(&tail, src + n - 4, 4);
    std::memcpy(dst, &head, 4);
    std::memcpy(dst + n - 4, &tail, 4);
  } else {
    for (size_t i = 0; i < n; ++i) dst[i] = src[i];
  }
}

// Copies 64 < n <= 256 bytes: 32-byte moves and one overlapping tail move.
inline void CopyMedium(uint8_t* dst, const uint8_t* src, size_t n) {
  uint8_t chunk[32];
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    std::memcpy(chunk, src + i, 32);
    std::memcpy(dst + i, chunk, 32);
  }
  if (i < n) {
    std::memcpy(chunk, src + n - 32, 32);
    std::memcpy(dst + n - 32, chunk, 32);
  }
}

inline void CopyBlock(uint8_t* dst, const uint8_t* src, size_t n, CopyBytesFn copy_large) {
  if (n <= 64) {
    CopySmall(dst, src, n);
  } else if (n <= 256) {
    CopyMedium(dst, src, n);
  } else {
    copy_large(dst, src, n);
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

TransposeTileFn TransposeTileKernel(uint32_t elem_bytes) {
  switch (elem_bytes) {
    case 1: return &TransposeTileImpl<uint8_t>;
    case 2: return &TransposeTileImpl<uint16_t>;
    case 4: return &TransposeTileImpl<uint32_t>;
    default: return &TransposeTileImpl<uint64_t>;
  }
}

void GatherBlocks(void* dst, int64_t dst_stride_bytes, const void* src,
                  const int64_t* offsets_bytes, size_t count, size_t block_bytes,
                  CopyBytesFn copy_large, bool merge_runs, bool prefetch_blocks) {
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  const int64_t block = static_cast<int64_t>(block_bytes);
  // Large blocks come from random rows: start the next block's first lines on their way while
  // the current one is copied (the hardware prefetcher only ramps up inside a block).
  const bool prefetch = prefetch_blocks && block_bytes >= 256;
  const size_t prefetch_bytes = block_bytes < 4096 ? block_bytes : 4096;
  const size_t ahead = block_bytes < 1024 ? 2 : 1;  // blocks to look ahead
  // Repeated sources need no special case: the block just copied is in L1 for the next copy.
  const bool merge = merge_runs && dst_stride_bytes == block;
  for (size_t i = 0; i < count;) {
    const int64_t first = offsets_bytes[i];
    if (prefetch && i + ahead < count) {
      for (size_t off = 0; off < prefetch_bytes; off += 64) {
        __builtin_prefetch(s + offsets_bytes[i + ahead] + off);
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
    CopyBlock(to, s + first, block_bytes, copy_large);
    ++i;
  }
}

}  // namespace kernels
}  // namespace dmlcpu
