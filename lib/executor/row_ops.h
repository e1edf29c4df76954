// SPDX-License-Identifier: Apache-2.0
// The per-row operations of the unit engine: one contiguous run, one strided row, one chunk
// of an element gather, index resolution. Each may stage through L1 (non-temporal stores) or
// advance a stream prefetcher; none allocates.
#ifndef DMLCPU_EXECUTOR_ROW_OPS_H_
#define DMLCPU_EXECUTOR_ROW_OPS_H_

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/tuning.h"
#include "kernels/kernels.h"
#include "planner/plan.h"

namespace dmlcpu {
namespace internal {

// Staging buffer for rows written with non-temporal stores: holds a chunk of 8-byte elements.
constexpr uint64_t kStageBytes = Tuning::kChunkItems * 8;

using kernels::SpreadPrefetch;

// Copies one contiguous run; with a prefetcher, in steps that end on Tuning::kRunStepBytes
// boundaries of the output (so streamed steps stay line-aligned), advancing it before each.
template <typename Pf>
inline void CopyRun(const Plan& plan, uint8_t* out, const uint8_t* in, uint64_t bytes, Pf* pf) {
  if (pf == nullptr) {
    plan.copy_run(out, in, bytes);
    return;
  }
  while (bytes != 0) {
    const uint64_t to_boundary_bytes =
        Tuning::kRunStepBytes - (reinterpret_cast<uintptr_t>(out) & (Tuning::kRunStepBytes - 1));
    const uint64_t n = std::min(bytes, to_boundary_bytes);
    pf->Advance(n);
    plan.copy_run(out, in, n);
    out += n;
    in += n;
    bytes -= n;
  }
}

// out[0, bytes) = in[0, bytes) for bytes in [kMoveBytes, 2 * kMoveBytes]: two overlapping moves.
template <size_t kMoveBytes>
inline void CopyOverlapping(uint8_t* out, const uint8_t* in, uint64_t bytes) {
  uint8_t head[kMoveBytes], tail[kMoveBytes];
  std::memcpy(head, in, kMoveBytes);
  std::memcpy(tail, in + bytes - kMoveBytes, kMoveBytes);
  std::memcpy(out, head, kMoveBytes);
  std::memcpy(out + bytes - kMoveBytes, tail, kMoveBytes);
}

// pattern[0, 64) = the element whose bits are the low sizeof(T) bytes of fill_bits
// (little-endian), repeated: the source of FillFromPattern.
template <typename T>
inline void MakeFillPattern(uint64_t fill_bits, uint8_t* pattern) {
  T fill_value;
  std::memcpy(&fill_value, &fill_bits, sizeof(T));
  for (size_t k = 0; k < 64; k += sizeof(T)) std::memcpy(pattern + k, &fill_value, sizeof(T));
}

// out[0, bytes) = the repeating pattern (64 bytes of one element repeated; bytes a multiple of
// the element's width): 32-byte moves, the last one overlapping.
inline void FillFromPattern(uint8_t* out, const uint8_t* pattern, uint64_t bytes) {
  if (bytes < 32) {
    if (bytes >= 16) return CopyOverlapping<16>(out, pattern, bytes);
    if (bytes >= 8) return CopyOverlapping<8>(out, pattern, bytes);
    if (bytes >= 4) return CopyOverlapping<4>(out, pattern, bytes);
    for (uint64_t i = 0; i < bytes; ++i) out[i] = pattern[i];
    return;
  }
  uint64_t done = 0;
  for (; done + 32 <= bytes; done += 32) std::memcpy(out + done, pattern, 32);
  if (done < bytes) std::memcpy(out + bytes - 32, pattern, 32);
}

// CopyRun without a prefetcher for plans with regular stores (plan.copy_run then copies as
// memcpy does): runs of at most 64 bytes inline, no kernel call.
inline void CopySmallRun(const Plan& plan, uint8_t* out, const uint8_t* in, uint64_t bytes) {
  if (bytes > 64) {
    plan.copy_run(out, in, bytes);
  } else if (bytes >= 32) {
    CopyOverlapping<32>(out, in, bytes);
  } else if (bytes >= 16) {
    CopyOverlapping<16>(out, in, bytes);
  } else if (bytes >= 8) {
    CopyOverlapping<8>(out, in, bytes);
  } else if (bytes >= 4) {
    CopyOverlapping<4>(out, in, bytes);
  } else {
    for (uint64_t i = 0; i < bytes; ++i) out[i] = in[i];
  }
}

// out[i] = in[i * in_stride_bytes] for `count` elements. With a prefetcher (dense strides, at
// most a cache line per element) the row goes in steps of about Tuning::kStridedStepBytes of input.
// With non-temporal stores (contiguous output) the output lines are never read for ownership: rows
// that plan.copy_strided_stream streams itself go to it directly, others are assembled step by
// step in an L1 buffer and streamed out from there; steps then end on 64-byte boundaries of the
// output.
template <typename Pf>
inline void CopyStridedRow(const Plan& plan, uint8_t* out, int64_t out_stride_bytes,
                           const uint8_t* in, int64_t in_stride_bytes, uint64_t count, Pf* pf) {
  const bool staged = plan.store.non_temporal && plan.copy_strided_stream == nullptr;
  const kernels::CopyStridedFn copy =
      plan.copy_strided_stream != nullptr ? plan.copy_strided_stream : plan.copy_strided;
  if (pf == nullptr && !staged) {
    copy(out, out_stride_bytes, in, in_stride_bytes, count);
    return;
  }
  const uint64_t elem_bytes = plan.elem_bytes;
  const uint64_t stage_items = kStageBytes / elem_bytes;
  const uint64_t abs_stride_bytes = static_cast<uint64_t>(
      in_stride_bytes < 0 ? -in_stride_bytes : in_stride_bytes);
  const uint64_t line_items = 64 / elem_bytes;
  // Streamed steps cover at least two output lines: copy_run streams nothing shorter.
  const uint64_t min_step_items = plan.store.non_temporal ? 2 * line_items : line_items;
  uint64_t step_items = stage_items;
  if (pf != nullptr && abs_stride_bytes != 0) {
    step_items = std::min(stage_items,
                          std::max(min_step_items, Tuning::kStridedStepBytes / abs_stride_bytes /
                                                       line_items * line_items));
  }
  alignas(64) uint8_t stage[kStageBytes];
  // The first step ends on a line boundary of a contiguous output.
  const uint64_t misaligned_items =
      (reinterpret_cast<uintptr_t>(out) & 63) % elem_bytes == 0
          ? (reinterpret_cast<uintptr_t>(out) & 63) / elem_bytes
          : 0;
  uint64_t n = std::min(count, step_items - misaligned_items);
  for (uint64_t done = 0; done < count;) {
    // The row's span is (count - 1) strides and one element: the last step ends there.
    if (pf != nullptr) {
      pf->Advance(done + n < count ? n * abs_stride_bytes
                                   : (n - 1) * abs_stride_bytes + elem_bytes);
    }
    if (staged) {
      plan.copy_strided(stage, plan.elem_bytes, in, in_stride_bytes, n);
      plan.copy_run(out, stage, n * elem_bytes);
    } else {
      copy(out, out_stride_bytes, in, in_stride_bytes, n);
    }
    done += n;
    if (done < count) {
      out += static_cast<int64_t>(n) * out_stride_bytes;
      in += static_cast<int64_t>(n) * in_stride_bytes;
    }
    n = std::min(step_items, count - done);
  }
}

// out[i] = in[i * in_stride_bytes + offsets_bytes[i]] for n <= Tuning::kChunkItems items,
// staged like CopyStridedRow when the plan streams its output. `first_item` is the row position
// of item 0, for the spread prefetch of the next row (null: none).
inline void GatherChunk(const Plan& plan, uint8_t* out, int64_t out_stride_bytes,
                        const uint8_t* in, int64_t in_stride_bytes, const int64_t* offsets_bytes,
                        uint64_t n, SpreadPrefetch* spread, uint64_t first_item) {
  alignas(64) uint8_t stage[kStageBytes];
  uint8_t* to = plan.store.non_temporal ? stage : out;
  const int64_t to_stride_bytes = plan.store.non_temporal ? plan.elem_bytes : out_stride_bytes;
  if (spread == nullptr) {
    plan.gather(to, to_stride_bytes, in, in_stride_bytes, offsets_bytes, n);
  } else {
    for (uint64_t k = 0; k < n; k += Tuning::kSpreadStepItems) {
      spread->Upto(first_item + k);
      const int64_t kk = static_cast<int64_t>(k);
      plan.gather(to + kk * to_stride_bytes, to_stride_bytes, in + kk * in_stride_bytes,
                  in_stride_bytes, offsets_bytes + k, std::min(Tuning::kSpreadStepItems, n - k));
    }
  }
  if (plan.store.non_temporal) plan.copy_run(out, stage, n * plan.elem_bytes);
}

// Copied border items (RowBorders) of n rows: item j of row k, at out + k * out_pitch_bytes +
// j * sizeof(T), is the element at src_bytes[j] from src + k * src_stride_bytes. Item by item,
// the rows in the inner loop.
template <typename T>
inline void CopyBorderItems(uint8_t* out, uint64_t out_pitch_bytes, const uint8_t* src,
                            int64_t src_stride_bytes, uint64_t n, const int64_t* src_bytes,
                            uint32_t items) {
  for (uint32_t j = 0; j < items; ++j) {
    uint8_t* to = out + j * sizeof(T);
    const uint8_t* from = src + src_bytes[j];
    for (uint64_t k = 0; k < n; ++k) {
      std::memcpy(to + k * out_pitch_bytes, from + static_cast<int64_t>(k) * src_stride_bytes,
                  sizeof(T));
    }
  }
}

// Writes `items` border elements of width sizeof(T) from `out` on: the plan's fill element, or
// src_row[src_bytes[k]] (RowBorders).
template <typename T>
inline void WriteBorderItems(uint8_t* out, const RowBorders& b, const uint8_t* src_row,
                             const int64_t* src_bytes, uint32_t items) {
  if (b.fill) {
    T v;
    std::memcpy(&v, &b.fill_bits, sizeof(T));  // the low bytes (little-endian)
    for (uint32_t k = 0; k < items; ++k) std::memcpy(out + k * sizeof(T), &v, sizeof(T));
  } else {
    CopyBorderItems<T>(out, 0, src_row, 0, 1, src_bytes, items);
  }
}

// The left (left == true) or right border of the row whose output starts at out_row and whose
// source starts at src_row (row_items elements: the right border follows them).
inline void WriteRowBorder(const Plan& plan, uint8_t* out_row, const uint8_t* src_row,
                           uint64_t row_items, bool left) {
  const RowBorders& b = plan.borders;
  const uint32_t items = left ? b.left_items : b.right_items;
  if (items == 0) return;
  const int64_t* src_bytes = left ? b.left_src_bytes : b.right_src_bytes;
  const int64_t elem = plan.elem_bytes;
  uint8_t* out = left ? out_row - int64_t{items} * elem
                      : out_row + static_cast<int64_t>(row_items) * elem;
  switch (plan.elem_bytes) {
    case 1: WriteBorderItems<uint8_t>(out, b, src_row, src_bytes, items); break;
    case 2: WriteBorderItems<uint16_t>(out, b, src_row, src_bytes, items); break;
    case 4: WriteBorderItems<uint32_t>(out, b, src_row, src_bytes, items); break;
    default: WriteBorderItems<uint64_t>(out, b, src_row, src_bytes, items); break;
  }
}

// Resolves n index tuples (every component) starting at `idx` into byte offsets.
inline void ResolveChunk(const Plan& plan, const uint8_t* idx, int64_t idx_stride_bytes, uint64_t n,
                         int64_t* offsets_bytes) {
  for (uint32_t c = 0; c < plan.component_count; ++c) {
    const IndexComponent& comp = plan.components[c];
    plan.resolve(idx + comp.idx_offset_bytes, idx_stride_bytes, n, comp.dim_size,
                 comp.pitch_bytes, offsets_bytes, c > 0);
  }
}

// Byte offset of one index tuple's input element (all components).
inline int64_t ResolveTuple(const Plan& plan, const uint8_t* tuple) {
  int64_t offset_bytes;
  ResolveChunk(plan, tuple, 0, 1, &offset_bytes);
  return offset_bytes;
}

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_EXECUTOR_ROW_OPS_H_
