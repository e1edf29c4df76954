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

void RunScatterSlice(const ScatterPlan& plan, const ScatterArgs& args, uint64_t slice,
                     uint64_t slices) {
  ScatterLoop loops[kMaxRank];
  const uint32_t count = plan.loop_count;
  std::copy(plan.loops, plan.loops + count, loops);
  int64_t out_off = 0, upd_off = 0, idx_off = 0;
  uint64_t key_begin = 0, key_end = kAllKeys;
  if (slices > 1) {
    if (plan.split_loop != kNoSplitLoop) {  // a range of one destination loop's coordinates
      ScatterLoop& l = loops[plan.split_loop];
      const auto size = static_cast<uint64_t>(l.size);
      const auto begin = static_cast<int64_t>(size * slice / slices);
      const auto end = static_cast<int64_t>(size * (slice + 1) / slices);
      if (begin == end) return;
      out_off += begin * l.out_stride_bytes;
      upd_off += begin * l.upd_stride_bytes;
      idx_off += begin * l.idx_stride_bytes;
      l.size = end - begin;
    } else {  // a range of destination keys; every slice walks every update
      key_begin = plan.key_span_bytes * slice / slices;
      key_end = plan.key_span_bytes * (slice + 1) / slices;
      if (key_begin == key_end) return;
    }
  }
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

}  // namespace internal
}  // namespace dmlcpu
