// SPDX-License-Identifier: Apache-2.0
// The scatter step's unit engine (scatter_plan.h): one slice of the destinations, walked in
// the updates' row-major order on the calling thread. Allocation-free; no TBB, no Highway.
#if defined(_WIN32)
// winnt.h defines StoreFence as a macro (_mm_sfence), which would rename kernels::StoreFence:
// include it first and drop the macro (as units.cc does).
#include <windows.h>
#undef StoreFence
#endif

#include <algorithm>

#include "core/portability.h"
#include "executor/executor.h"
#include "kernels/kernels.h"

namespace dmlcpu {
namespace internal {
namespace {

constexpr size_t kChunkItems = 256;  // offsets resolved per kernel call, kept in L1
constexpr uint64_t kAllKeys = uint64_t{1} << 62;

// Rows of one tuple each are resolved this many at a time and their destinations prefetched
// before any is written, so that the page walks and line fetches of scattered rows overlap.
constexpr size_t kRowBatch = 16;
// Lines prefetched per row of regular stores (read for ownership anyway). Streamed rows get
// none: reading a line that is then written non-temporally measured slower.
constexpr int64_t kPrefetchLinesPerRow = 8;
constexpr int64_t kLineBytes = 64;
// A row along the indexed axis prefetches the next row's destinations up to this span.
constexpr uint64_t kPrefetchRowSpanBytes = uint64_t{64} << 10;

// Bumps the row odometer over loops[0, count - 1) by one row.
inline void NextRow(const ScatterLoop* loops, uint32_t count, int64_t* coord, int64_t* out_off,
                    int64_t* upd_off, int64_t* idx_off) {
  for (uint32_t d = count - 1; d-- > 0;) {
    const ScatterLoop& l = loops[d];
    *out_off += l.out_stride_bytes;
    *upd_off += l.upd_stride_bytes;
    *idx_off += l.idx_stride_bytes;
    if (++coord[d] < l.size) return;
    coord[d] = 0;
    *out_off -= l.size * l.out_stride_bytes;
    *upd_off -= l.size * l.upd_stride_bytes;
    *idx_off -= l.size * l.idx_stride_bytes;
  }
}

// WalkUpdates for plans with one tuple per row: batches of kRowBatch rows, each batch resolved
// (and its destinations in [key_begin, key_end) prefetched) before it is applied in order.
void WalkTupleRows(const ScatterPlan& plan, const ScatterArgs& args, const ScatterLoop* loops,
                   int64_t out_off, int64_t upd_off, int64_t idx_off, uint64_t key_begin,
                   uint64_t key_end) {
  const uint32_t count = plan.loop_count;
  const ScatterLoop row = loops[count - 1];
  const auto row_items = static_cast<size_t>(row.size);
  // The lines of a row's first items (out_stride_bytes >= 0: rows are walked forwards).
  const int64_t prefetch_bytes = std::min(
      (plan.stream_row != nullptr ? 0 : kPrefetchLinesPerRow) * kLineBytes,
      (row.size - 1) * row.out_stride_bytes + 1);
  uint64_t rows = 1;
  for (uint32_t d = 0; d + 1 < count; ++d) rows *= static_cast<uint64_t>(loops[d].size);
  int64_t coord[kMaxRank] = {};
  int64_t keys[kRowBatch];
  int64_t upd_offs[kRowBatch];
  const uint64_t key_span = key_end - key_begin;
  for (uint64_t r = 0; r < rows;) {
    const auto n = static_cast<size_t>(std::min<uint64_t>(kRowBatch, rows - r));
    for (size_t b = 0; b < n; ++b) {
      int64_t key = out_off;
      for (uint32_t j = 0; j < plan.component_count; ++j) {
        const ScatterComponent& c = plan.components[j];
        plan.resolve(args.indices + idx_off + c.idx_offset_bytes, 0, 1, c.dim_size,
                     c.pitch_bytes, &key);
      }
      if (static_cast<uint64_t>(key) - key_begin < key_span) {
        const uint8_t* dst = args.output + key;
        for (int64_t o = 0; o < prefetch_bytes; o += kLineBytes) PrefetchWrite(dst + o);
      } else {
        key = kernels::kDroppedOffset;
      }
      keys[b] = key;
      upd_offs[b] = upd_off;
      NextRow(loops, count, coord, &out_off, &upd_off, &idx_off);
    }
    for (size_t b = 0; b < n; ++b) {
      if (keys[b] < 0) continue;
      if (plan.stream_row != nullptr) {
        plan.stream_row(args.output + keys[b], args.updates + upd_offs[b],
                        row_items * plan.elem_bytes);
      } else {
        plan.apply_run(args.output + keys[b], row.out_stride_bytes, args.updates + upd_offs[b],
                       row.upd_stride_bytes, row_items);
      }
    }
    r += n;
  }
}

// Walks every update of `loops` (the plan's, maybe narrowed to a range of one loop) from the
// given base offsets, in row-major order, applying those whose key is in [key_begin, key_end).
void WalkUpdates(const ScatterPlan& plan, const ScatterArgs& args, const ScatterLoop* loops,
                 int64_t out_off, int64_t upd_off, int64_t idx_off, uint64_t key_begin,
                 uint64_t key_end) {
  if (plan.tuple_per_row) {
    WalkTupleRows(plan, args, loops, out_off, upd_off, idx_off, key_begin, key_end);
    return;
  }
  const uint32_t count = plan.loop_count;
  const ScatterLoop row = loops[count - 1];
  const auto row_items = static_cast<size_t>(row.size);
  uint64_t rows = 1;
  for (uint32_t d = 0; d + 1 < count; ++d) rows *= static_cast<uint64_t>(loops[d].size);
  int64_t coord[kMaxRank] = {};
  int64_t offsets[kChunkItems];
  // A row that walks the indexed axis (out_stride_bytes 0) writes in random order anywhere in
  // one span of the output: the next row's span is prefetched while this one is written.
  const ScatterComponent& axis = plan.components[0];
  const int64_t next_span_bytes =
      row.out_stride_bytes == 0 && plan.component_count == 1 && axis.pitch_bytes > 0 &&
              static_cast<uint64_t>(axis.pitch_bytes) * axis.dim_size <= kPrefetchRowSpanBytes
          ? static_cast<int64_t>(axis.dim_size - 1) * axis.pitch_bytes + 1
          : 0;
  for (uint64_t r = 0; r < rows; ++r) {
    if (plan.apply_indexed != nullptr && key_begin == 0 && key_end == kAllKeys) {
      const ScatterComponent& c = plan.components[0];
      if (next_span_bytes > 0 && r + 1 < rows) {
        int64_t next_coord[kMaxRank], next_out = out_off, next_upd = upd_off, next_idx = idx_off;
        std::copy(coord, coord + kMaxRank, next_coord);
        NextRow(loops, count, next_coord, &next_out, &next_upd, &next_idx);
        const uint8_t* next = args.output + next_out;
        for (int64_t o = 0; o < next_span_bytes; o += kLineBytes) PrefetchWrite(next + o);
      }
      plan.apply_indexed(args.output + out_off, row.out_stride_bytes, args.updates + upd_off,
                         row.upd_stride_bytes, args.indices + idx_off + c.idx_offset_bytes,
                         row.idx_stride_bytes, row_items, c.dim_size, c.pitch_bytes);
    } else {
      for (size_t i0 = 0; i0 < row_items; i0 += kChunkItems) {
        const size_t n = std::min(kChunkItems, row_items - i0);
        const auto k0 = static_cast<int64_t>(i0);
        int64_t o = out_off + k0 * row.out_stride_bytes;
        for (size_t i = 0; i < n; ++i, o += row.out_stride_bytes) offsets[i] = o;
        const uint8_t* idx = args.indices + idx_off + k0 * row.idx_stride_bytes;
        for (uint32_t j = 0; j < plan.component_count; ++j) {
          const ScatterComponent& c = plan.components[j];
          plan.resolve(idx + c.idx_offset_bytes, row.idx_stride_bytes, n, c.dim_size,
                       c.pitch_bytes, offsets);
        }
        plan.apply_elems(args.output, offsets, n, args.updates + upd_off + k0 * row.upd_stride_bytes,
                         row.upd_stride_bytes, key_begin, key_end);
      }
    }
    NextRow(loops, count, coord, &out_off, &upd_off, &idx_off);
  }
}

void RunScatterSliceUnfenced(const ScatterPlan& plan, const ScatterArgs& args, uint64_t slice,
                             uint64_t slices) {
  ScatterLoop loops[kMaxRank];
  std::copy(plan.loops, plan.loops + plan.loop_count, loops);
  if (plan.split_loop == kNoSplitLoop) {
    // One slice: everything. Several: a range of destination keys each; every slice walks
    // every update.
    const uint64_t key_begin = slices > 1 ? plan.key_span_bytes * slice / slices : 0;
    const uint64_t key_end = slices > 1 ? plan.key_span_bytes * (slice + 1) / slices : kAllKeys;
    if (key_begin < key_end) WalkUpdates(plan, args, loops, 0, 0, 0, key_begin, key_end);
    return;
  }
  // A range of one destination loop's coordinates, maybe walked in strips.
  ScatterLoop& l = loops[plan.split_loop];
  const auto size = static_cast<uint64_t>(l.size);
  const uint64_t begin = size * slice / slices, end = size * (slice + 1) / slices;
  const uint64_t strip = plan.strip_items == 0 ? end - begin : plan.strip_items;
  for (uint64_t b = begin; b < end; b += strip) {
    const auto first = static_cast<int64_t>(b);
    l.size = static_cast<int64_t>(std::min(strip, end - b));
    WalkUpdates(plan, args, loops, first * l.out_stride_bytes, first * l.upd_stride_bytes,
                first * l.idx_stride_bytes, 0, kAllKeys);
  }
}

}  // namespace

void RunScatterSlice(const ScatterPlan& plan, const ScatterArgs& args, uint64_t slice,
                     uint64_t slices) {
  RunScatterSliceUnfenced(plan, args, slice, slices);
  // Streamed rows skip their own fences: one per slice, before the task completes.
  if (plan.stream_row != nullptr) kernels::StoreFence();
}

}  // namespace internal
}  // namespace dmlcpu
