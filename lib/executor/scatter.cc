// SPDX-License-Identifier: Apache-2.0
// The scatter step's unit engine (scatter_plan.h): one slice of the destinations, walked in
// the updates' row-major order on the calling thread. Allocation-free; no TBB, no Highway.
#include <algorithm>

#include "executor/executor.h"

namespace dmlcpu {
namespace internal {
namespace {

constexpr size_t kChunkItems = 256;  // offsets resolved per kernel call, kept in L1
constexpr uint64_t kAllKeys = uint64_t{1} << 62;

}  // namespace

namespace {

// Walks every update of `loops` (the plan's, maybe narrowed to a range of one loop) from the
// given base offsets, in row-major order, applying those whose key is in [key_begin, key_end).
void WalkUpdates(const ScatterPlan& plan, const ScatterArgs& args, const ScatterLoop* loops,
                 int64_t out_off, int64_t upd_off, int64_t idx_off, uint64_t key_begin,
                 uint64_t key_end) {
  const uint32_t count = plan.loop_count;
  const ScatterLoop row = loops[count - 1];
  const auto row_items = static_cast<size_t>(row.size);
  uint64_t rows = 1;
  for (uint32_t d = 0; d + 1 < count; ++d) rows *= static_cast<uint64_t>(loops[d].size);
  int64_t coord[kMaxRank] = {};
  int64_t offsets[kChunkItems];
  const uint64_t key_span = key_end - key_begin;
  for (uint64_t r = 0; r < rows; ++r) {
    if (plan.tuple_per_row) {
      offsets[0] = out_off;
      for (uint32_t j = 0; j < plan.component_count; ++j) {
        const ScatterComponent& c = plan.components[j];
        plan.resolve(args.indices + idx_off + c.idx_offset_bytes, 0, 1, c.dim_size,
                     c.pitch_bytes, offsets);
      }
      const int64_t key = offsets[0];
      if (static_cast<uint64_t>(key) - key_begin < key_span) {
        if (plan.stream_row != nullptr) {
          plan.stream_row(args.output + key, args.updates + upd_off, row_items * plan.elem_bytes);
        } else {
          plan.apply_run(args.output + key, row.out_stride_bytes, args.updates + upd_off,
                         row.upd_stride_bytes, row_items);
        }
      }
    } else if (plan.apply_indexed != nullptr && key_begin == 0 && key_end == kAllKeys) {
      const ScatterComponent& c = plan.components[0];
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
    // Next row: odometer over loops[0, count - 1).
    for (uint32_t d = count - 1; d-- > 0;) {
      const ScatterLoop& l = loops[d];
      out_off += l.out_stride_bytes;
      upd_off += l.upd_stride_bytes;
      idx_off += l.idx_stride_bytes;
      if (++coord[d] < l.size) break;
      coord[d] = 0;
      out_off -= l.size * l.out_stride_bytes;
      upd_off -= l.size * l.upd_stride_bytes;
      idx_off -= l.size * l.idx_stride_bytes;
    }
  }
}

}  // namespace

void RunScatterSlice(const ScatterPlan& plan, const ScatterArgs& args, uint64_t slice,
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

}  // namespace internal
}  // namespace dmlcpu
