// SPDX-License-Identifier: Apache-2.0
// dmlcpu kernels: single-threaded, stateless building blocks the executor calls per row.
// This header is plain C++ (no Highway, no plan types); implementations live in
// scalar_kernels.cc (portable reference) and kernels.cc (Highway, per-target dispatch), which
// compiles the families copy-inl.h, frame-inl.h, gather-inl.h, index-inl.h and transpose-inl.h
// per target.
//
// Contract common to every kernel:
// - Data pointers are host addresses with no alignment promise; `offsets_bytes` arrays are
//   int64_t arrays (8-byte aligned). Strides are in bytes, may be negative or zero (zero only
//   where stated), and address exactly `count` elements: a kernel never touches a byte outside
//   [first element, last element] of each operand (frame_rows' scratch dst: see its spill).
// - dst never overlaps src or indices, and dst elements never overlap each other (the planner
//   rejects self-overlapping outputs). `offsets_bytes` may alias nothing else.
// - dim_size is in [1, 2^32 - 1] (a tensor spans at most 2^32 - 1 elements), and the planner
//   guarantees |index * pitch| and the sum of a tuple's offsets fit in int64.
#ifndef DMLCPU_KERNELS_KERNELS_H_
#define DMLCPU_KERNELS_KERNELS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/tuning.h"
#include "kernels/prefetch.h"

namespace dmlcpu {
namespace kernels {

// Index element types, in the order used to index KernelSet tables.
enum class IndexType : uint8_t { kInt32 = 0, kUint32 = 1, kInt64 = 2, kUint64 = 3 };
constexpr int kIndexTypeCount = 4;

// Element widths 1/2/4/8 bytes map to table slot 0/1/2/3.
constexpr int WidthSlot(uint32_t elem_bytes) {
  return elem_bytes == 1 ? 0 : elem_bytes == 2 ? 1 : elem_bytes == 4 ? 2 : 3;
}

// Copies `bytes` contiguous bytes. The non-temporal variant ends with a store fence, so its
// writes are visible to other threads when it returns.
using CopyBytesFn = void (*)(void* dst, const void* src, size_t bytes);

// dst[i * dst_stride_bytes] = src[i * src_stride_bytes] for i in [0, count), elements of the
// table slot's width. Either stride may be anything (negative, not a multiple of the width);
// src_stride_bytes may be 0 (broadcast).
using CopyStridedFn = void (*)(void* dst, int64_t dst_stride_bytes, const void* src,
                               int64_t src_stride_bytes, size_t count);

// For i in [0, count): v = indices[i * idx_stride_bytes] (the table slot's index type);
// c = clamp(v) per dmlcpu's kClamp rule: signed v < 0 becomes v + dim_size (once); the result
// is read as unsigned 64-bit and clamped to dim_size - 1. Then
//   offsets_bytes[i] = c * pitch_bytes            (accumulate == false)
//   offsets_bytes[i] += c * pitch_bytes           (accumulate == true)
// dim_size >= 1. idx_stride_bytes may be 0.
using ResolveIndicesFn = void (*)(const void* indices, int64_t idx_stride_bytes, size_t count,
                                  uint64_t dim_size, int64_t pitch_bytes, int64_t* offsets_bytes,
                                  bool accumulate);

// dst[i * dst_stride_bytes] = src[i * src_stride_bytes + offsets_bytes[i]] for i in [0, count),
// elements of the table slot's width. src_stride_bytes may be 0.
using GatherFn = void (*)(void* dst, int64_t dst_stride_bytes, const void* src,
                          int64_t src_stride_bytes, const int64_t* offsets_bytes, size_t count);

// Returns the smallest i in [0, count) whose index is outside [-dim_size, dim_size - 1]
// (signed types) or [0, dim_size - 1] (unsigned types); returns count when all are in range.
using FindOutOfRangeFn = size_t (*)(const void* indices, int64_t idx_stride_bytes, size_t count,
                                    uint64_t dim_size);

// Block gather: for i in [0, count), copies block_bytes bytes from src + offsets_bytes[i] to
// dst + i * dst_stride_bytes. Blocks of at most 256 bytes are copied with inline vector moves,
// never a library call per block; larger ones with copy_large. With merge_runs (requires
// dst_stride_bytes == block_bytes), a run of blocks whose sources are adjacent too
// (offsets[i + 1] == offsets[i] + block_bytes) is copied with one call of copy_large. With
// prefetch_blocks, blocks of kMinPrefetchBlockBytes and more start a later block on its way while
// copying one (for callers that do not prefetch themselves).
using GatherBlocksFn = void (*)(void* dst, int64_t dst_stride_bytes, const void* src,
                                const int64_t* offsets_bytes, size_t count, size_t block_bytes,
                                CopyBytesFn copy_large, bool merge_runs, bool prefetch_blocks);

// Framed rows for a staging window: row r in [0, rows) occupies dst + r * framed_bytes, with
// framed_bytes = left_bytes + row_bytes + right_bytes: left_bytes and right_bytes of the
// pattern (64 bytes of one element repeated; the borders and row_bytes whole elements) around
// the row_bytes at src + r * src_stride_bytes. dst is scratch: the kernel may also write the
// kFrameSpillBytes after the last row (any values).
using FrameRowsFn = void (*)(void* dst, const void* src, int64_t src_stride_bytes, size_t rows,
                             size_t row_bytes, size_t left_bytes, size_t right_bytes,
                             const uint8_t* pattern);
inline constexpr size_t kFrameSpillBytes = 32;

// 2-D transpose of one tile: for r in [0, rows), c in [0, cols):
//   dst[r * dst_row_stride_bytes + c * elem_bytes] = src[c * src_row_stride_bytes + r * elem_bytes]
// i.e. dst rows are contiguous along c, src rows contiguous along r. src_row_stride_bytes may
// be negative. Works in blocks of one 64-byte line by one line, so each src line and each dst
// line is touched whole once per block even when the row strides are large powers of two
// (which map every row to the same cache set); tiles of 2 to 8 columns (16 for 1-byte
// elements) whose dst is one run (dst_row_stride_bytes == cols * elem_bytes) interleave their
// src rows instead. The _stream variant writes whole line-aligned dst lines (and such a run
// from a line-aligned start) with non-temporal stores and does not fence (the caller issues
// StoreFence() before anyone reads the data).
using TransposeTileFn = void (*)(void* dst, int64_t dst_row_stride_bytes, const void* src,
                                 int64_t src_row_stride_bytes, size_t rows, size_t cols);

// What gather_row prefetches while it runs.
struct RowPrefetch {
  const void* next = nullptr;  // a span read next (the next row's input), spread over the row
  size_t next_bytes = 0;
  bool indices_ahead = false;  // the index stream continues past `count`: run a few KiB ahead
  // Nonzero: as each row starts, the index row this many bytes further on is prefetched into
  // L2 (rows of indices a whole pitch apart, where no hardware prefetcher follows). Addresses
  // past the end of the indices are fine (a prefetch never faults).
  int64_t index_row_ahead_bytes = 0;
};

// Row r in [0, rows), item i in [0, count): dst_r[i] = src[i * src_stride_bytes + c_ri *
// pitch_bytes], with dst_r = dst + r * dst_row_pitch_bytes, c_ri = clamp(indices_r[i]) per the
// kClamp rule of ResolveIndicesFn and indices_r = indices + r * idx_row_pitch_bytes. Each row's
// dst elements (the table slot's width) and indices (the index type) are contiguous; every row
// gathers from the same src. dim_size >= 1. prefetch: null for none; its `next` span is spread
// over each row. The _stream variant writes dst with non-temporal stores where it can and does
// not fence (the caller issues StoreFence()).
using GatherRowFn = void (*)(void* dst, int64_t dst_row_pitch_bytes, const void* src,
                             int64_t src_stride_bytes, const void* indices,
                             int64_t idx_row_pitch_bytes, size_t rows, size_t count,
                             uint64_t dim_size, int64_t pitch_bytes, const RowPrefetch* prefetch);

// Whether copy_strided_stream writes a row whose source stride is src_stride_bytes (elements of
// elem_bytes, dst contiguous) with non-temporal stores itself: plain copies and forward
// de-interleaves of 2 to 4 elements. Other rows are staged by the executor (reversals measured
// faster that way).
constexpr bool StreamsDirectly(int64_t src_stride_bytes, int64_t elem_bytes) {
  return src_stride_bytes % elem_bytes == 0 && src_stride_bytes >= elem_bytes &&
         src_stride_bytes <= 4 * elem_bytes;
}

struct KernelSet {
  const char* name;               // "scalar", or Highway's target name ("AVX2", "AVX3", ...)
  CopyBytesFn copy_bytes;         // regular stores
  CopyBytesFn copy_bytes_stream;  // non-temporal stores, for large outputs
  // copy_bytes_stream without the final fence: the caller issues StoreFence() once after a
  // batch of streamed copies, before anyone reads the data.
  CopyBytesFn copy_bytes_stream_unfenced;
  CopyStridedFn copy_strided[4];  // by WidthSlot
  // copy_strided with non-temporal stores where the row streams directly (StreamsDirectly);
  // no fence. The scalar set's is copy_strided.
  CopyStridedFn copy_strided_stream[4];  // by WidthSlot
  GatherFn gather[4];                    // by WidthSlot
  ResolveIndicesFn resolve[kIndexTypeCount];
  FindOutOfRangeFn find_out_of_range[kIndexTypeCount];
  GatherBlocksFn gather_blocks;
  FrameRowsFn frame_rows;
  TransposeTileFn transpose_tile[4];         // by WidthSlot
  TransposeTileFn transpose_tile_stream[4];  // by WidthSlot
  GatherRowFn gather_row[4][kIndexTypeCount];         // by WidthSlot, IndexType
  GatherRowFn gather_row_stream[4][kIndexTypeCount];  // by WidthSlot, IndexType
};

// Orders all earlier non-temporal stores of this thread before later stores (sfence on x86).
void StoreFence();

// Portable reference implementation (plain loops). Always available.
const KernelSet& ScalarKernels();

// The set for the best SIMD target this CPU supports; resolved once, thread-safe.
const KernelSet& BestKernels();

// One set per SIMD target compiled in *and* supported by this CPU, best first, for per-target
// tests and benchmarks. Never empty.
std::vector<const KernelSet*> AllSupportedKernels();

// The planner's view of gather_blocks' thresholds (internal::Tuning holds the values): runs of
// adjacent blocks are merged from kMinMergeBlockBytes on, and the kernel prefetches blocks of
// kMinPrefetchBlockBytes and more itself (with prefetch_blocks).
inline constexpr size_t kMinMergeBlockBytes = internal::Tuning::kMinMergeBlockBytes;
inline constexpr size_t kMinPrefetchBlockBytes = internal::Tuning::kMinPrefetchBlockBytes;

}  // namespace kernels
}  // namespace dmlcpu

#endif  // DMLCPU_KERNELS_KERNELS_H_
