// Block gathers: the copy half of K3 (one index tuple selects a contiguous block).
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

inline void CopyBlock(uint8_t* dst, const uint8_t* src, size_t n, CopyBytesFn copy_large) {
  if (n <= 64) {
    CopySmall(dst, src, n);
  } else {
    copy_large(dst, src, n);
  }
}

}  // namespace

void GatherBlocks(void* dst, int64_t dst_stride_bytes, const void* src,
                  const int64_t* offsets_bytes, size_t count, size_t block_bytes,
                  CopyBytesFn copy_large) {
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  const bool adjacent = dst_stride_bytes == static_cast<int64_t>(block_bytes);
  if (!adjacent) {
    for (size_t i = 0; i < count; ++i) {
      CopyBlock(d + static_cast<int64_t>(i) * dst_stride_bytes, s + offsets_bytes[i], block_bytes,
                copy_large);
    }
    return;
  }
  const int64_t block = static_cast<int64_t>(block_bytes);
  size_t i = 0;
  while (i < count) {
    const int64_t first = offsets_bytes[i];
    size_t run = 1;
    while (i + run < count && offsets_bytes[i + run] == first + static_cast<int64_t>(run) * block) {
      ++run;
    }
    if (run > 1) {
      copy_large(d + i * block_bytes, s + first, run * block_bytes);
      i += run;
      continue;
    }
    CopyBlock(d + i * block_bytes, s + first, block_bytes, copy_large);
    // Repeated index: replicate the block just written instead of re-reading the input.
    size_t repeat = 1;
    while (i + repeat < count && offsets_bytes[i + repeat] == first) {
      CopyBlock(d + (i + repeat) * block_bytes, d + i * block_bytes, block_bytes, copy_large);
      ++repeat;
    }
    i += repeat;
  }
}

}  // namespace kernels
}  // namespace dmlcpu
