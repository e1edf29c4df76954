// Transposed copies (portable, the same for every target).
#include <cstring>

#include "kernels/kernels.h"

namespace dmlcpu {
namespace kernels {
namespace {

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

}  // namespace kernels
}  // namespace dmlcpu
