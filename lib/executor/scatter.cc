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
#include <cstring>

#include "core/portability.h"
#include "executor/executor.h"
#include "executor/row_ops.h"
#include "executor/scatter_rows.h"
#include "executor/scratch_pool.h"
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
// Streamed rows of kMinTouchAheadRowBytes and more instead touch the first line of the row this
// many rows ahead (a non-temporal read hint): its page walk and first line then overlap the rows
// before it. Shorter rows measured slower with the touch at every distance (docs/performance.md,
// session 38).
constexpr size_t kTouchAheadRows = 16;
constexpr size_t kMinTouchAheadRowBytes = 512;
// A row along the indexed axis prefetches the next row's destinations up to this span.
constexpr uint64_t kPrefetchRowSpanBytes = uint64_t{64} << 10;

// ScatterPlan::owner_slots: a slice's view of the owner table. Keys it does not own are
// dropped right after they are resolved.
struct OwnerFilter {
  const uint8_t* table;
  uint32_t shift;
  uint64_t key_span_bytes;
  uint8_t slice;

  void Drop(int64_t* keys, size_t n) const {
    for (size_t i = 0; i < n; ++i) {
      const auto key = static_cast<uint64_t>(keys[i]);
      if (key >= key_span_bytes || table[key >> shift] != slice) {
        keys[i] = kernels::kDroppedOffset;
      }
    }
  }
};

// The keys of rows [i0, i0 + n) of one line of plan.tuple_per_row (n <= kChunkItems): each
// row's output offset plus its resolved tuple; dropped rows get kernels::kDroppedOffset.
void ResolveLineKeys(const ScatterPlan& plan, const ScatterArgs& args, const ScatterLoop& line,
                     int64_t out_off, int64_t idx_off, int64_t i0, size_t n, int64_t* keys) {
  int64_t o = out_off + i0 * line.out_stride_bytes;
  for (size_t i = 0; i < n; ++i, o += line.out_stride_bytes) keys[i] = o;
  const uint8_t* idx = args.indices + idx_off + i0 * line.idx_stride_bytes;
  for (uint32_t j = 0; j < plan.component_count; ++j) {
    const ScatterComponent& c = plan.components[j];
    plan.resolve(idx + c.idx_offset_bytes, line.idx_stride_bytes, n, c.dim_size, c.pitch_bytes,
                 keys);
  }
}

// Applies the rows of one line of plan.tuple_per_row (`line`: the loop above the row, or a
// single row), keys resolved up to kChunkItems rows per resolve call, rows in order:
// apply_row(destination, update row) for the rows whose key is in range. prefetch_bytes: the
// bytes at the start of each row of a batch prefetched for writing before the batch is written.
// touch_ahead (streamed rows, prefetch_bytes 0): each row touches the row kTouchAheadRows
// ahead instead. `owner`: null, or only the rows it owns are applied.
template <typename ApplyRow>
void ApplyTupleLine(const ScatterPlan& plan, const ScatterArgs& args, const ScatterLoop& line,
                    int64_t out_off, int64_t upd_off, int64_t idx_off, uint64_t key_begin,
                    uint64_t key_span, int64_t prefetch_bytes, bool touch_ahead,
                    const OwnerFilter* owner, const ApplyRow& apply_row) {
  int64_t keys[kChunkItems];
  for (int64_t i0 = 0; i0 < line.size; i0 += static_cast<int64_t>(kChunkItems)) {
    const size_t n = static_cast<size_t>(
        std::min<int64_t>(static_cast<int64_t>(kChunkItems), line.size - i0));
    ResolveLineKeys(plan, args, line, out_off, idx_off, i0, n, keys);
    if (owner != nullptr) owner->Drop(keys, n);
    const uint8_t* upd = args.updates + upd_off + i0 * line.upd_stride_bytes;
    if (touch_ahead && n > kTouchAheadRows) {
      const auto touch = [&](size_t i) {
        if (static_cast<uint64_t>(keys[i]) - key_begin < key_span) {
          PrefetchRead<0>(args.output + keys[i]);
        }
      };
      for (size_t i = 0; i < kTouchAheadRows; ++i) touch(i);
      for (size_t i = 0; i < n; ++i, upd += line.upd_stride_bytes) {
        if (i + kTouchAheadRows < n) touch(i + kTouchAheadRows);
        if (static_cast<uint64_t>(keys[i]) - key_begin < key_span) {
          apply_row(args.output + keys[i], upd);
        }
      }
      continue;
    }
    // Lines of fewer rows than a batch (tiny scatters) skip the prefetch: too few rows overlap.
    const bool prefetch = prefetch_bytes > 0 && n > kRowBatch;
    for (size_t b0 = 0; b0 < n; b0 += kRowBatch) {
      // The batch's destinations prefetched before any is written: the page walks and line
      // fetches of scattered rows overlap.
      const size_t b_end = std::min(n, b0 + kRowBatch);
      if (prefetch) {
        for (size_t i = b0; i < b_end; ++i) {
          if (static_cast<uint64_t>(keys[i]) - key_begin >= key_span) continue;
          const uint8_t* dst = args.output + keys[i];
          for (int64_t at = 0; at < prefetch_bytes; at += kLineBytes) PrefetchWrite(dst + at);
        }
      }
      for (size_t i = b0; i < b_end; ++i, upd += line.upd_stride_bytes) {
        if (static_cast<uint64_t>(keys[i]) - key_begin < key_span) {
          apply_row(args.output + keys[i], upd);
        }
      }
    }
  }
}

// plan.tuple_per_row: WalkUpdates a line (the loop above the row) at a time, lines in row-major
// order of the loops above it.
template <typename ApplyRow>
void WalkTupleLines(const ScatterPlan& plan, const ScatterArgs& args, const ScatterLoop* loops,
                    int64_t out_off, int64_t upd_off, int64_t idx_off, uint64_t key_begin,
                    uint64_t key_end, int64_t prefetch_bytes, bool touch_ahead,
                    const OwnerFilter* owner, const ApplyRow& apply_row) {
  const uint32_t count = plan.loop_count;
  const uint64_t key_span = key_end - key_begin;
  if (count <= 2) {
    const ScatterLoop line = count == 2 ? loops[0] : ScatterLoop{};
    ApplyTupleLine(plan, args, line, out_off, upd_off, idx_off, key_begin, key_span,
                   prefetch_bytes, touch_ahead, owner, apply_row);
    return;
  }
  const uint32_t outer_count = count - 2;
  const ScatterLoop& line = loops[count - 2];
  uint64_t lines = 1;
  for (uint32_t d = 0; d < outer_count; ++d) lines *= static_cast<uint64_t>(loops[d].size);
  int64_t coord[kMaxRank] = {};
  for (uint64_t l = 0; l < lines; ++l) {
    ApplyTupleLine(plan, args, line, out_off, upd_off, idx_off, key_begin, key_span,
                   prefetch_bytes, touch_ahead, owner, apply_row);
    // Next line: odometer over loops[0, outer_count).
    for (uint32_t d = outer_count; d-- > 0;) {
      const ScatterLoop& k = loops[d];
      out_off += k.out_stride_bytes;
      upd_off += k.upd_stride_bytes;
      idx_off += k.idx_stride_bytes;
      if (++coord[d] < k.size) break;
      coord[d] = 0;
      out_off -= k.size * k.out_stride_bytes;
      upd_off -= k.size * k.upd_stride_bytes;
      idx_off -= k.size * k.idx_stride_bytes;
    }
  }
}

// WalkTupleLines with the row's application chosen once: replaced rows contiguous on both
// sides and kept in the cache are copied inline (as apply_run would), others go to stream_row
// or apply_run.
void WalkTupleRows(const ScatterPlan& plan, const ScatterArgs& args, const ScatterLoop* loops,
                   int64_t out_off, int64_t upd_off, int64_t idx_off, uint64_t key_begin,
                   uint64_t key_end, const OwnerFilter* owner = nullptr) {
  const ScatterLoop& row = loops[plan.loop_count - 1];
  const auto row_items = static_cast<size_t>(row.size);
  const size_t row_bytes = row_items * plan.elem_bytes;
  const auto elem = static_cast<int64_t>(plan.elem_bytes);
  const bool copy_rows = plan.reduction == kernels::ScatterReduction::kNone &&
                         plan.stream_row == nullptr && row.out_stride_bytes == elem &&
                         row.upd_stride_bytes == elem;
  // The lines of a row's first items, prefetched for writing (rows of regular stores only:
  // reading a line that is then written non-temporally measured slower).
  const int64_t prefetch_bytes =
      std::min((plan.stream_row != nullptr ? 0 : kPrefetchLinesPerRow) * kLineBytes,
               (row.size - 1) * row.out_stride_bytes + 1);
  const auto walk = [&](const auto& apply_row) {
    WalkTupleLines(plan, args, loops, out_off, upd_off, idx_off, key_begin, key_end,
                   prefetch_bytes, /*touch_ahead=*/false, owner, apply_row);
  };
  if (copy_rows && row_bytes >= 32 && row_bytes <= 64) {
    walk([&](uint8_t* dst, const uint8_t* src) { CopyOverlapping<32>(dst, src, row_bytes); });
  } else if (copy_rows && row_bytes >= 16 && row_bytes < 32) {
    walk([&](uint8_t* dst, const uint8_t* src) { CopyOverlapping<16>(dst, src, row_bytes); });
  } else if (copy_rows) {
    walk([&](uint8_t* dst, const uint8_t* src) { std::memcpy(dst, src, row_bytes); });
  } else if (plan.stream_row != nullptr) {
    WalkTupleLines(plan, args, loops, out_off, upd_off, idx_off, key_begin, key_end, 0,
                   row_bytes >= kMinTouchAheadRowBytes, owner,
                   [&](uint8_t* dst, const uint8_t* src) { plan.stream_row(dst, src, row_bytes); });
  } else {
    walk([&](uint8_t* dst, const uint8_t* src) {
      plan.apply_run(dst, row.out_stride_bytes, src, row.upd_stride_bytes, row_items);
    });
  }
}

// WalkUpdates for plans with an index per item (not plan.tuple_per_row).
void WalkElementRows(const ScatterPlan& plan, const ScatterArgs& args, const ScatterLoop* loops,
                     int64_t out_off, int64_t upd_off, int64_t idx_off, uint64_t key_begin,
                     uint64_t key_end) {
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

// WalkUpdates for plan.apply_indexed_reduce: one kernel call per row, rows in row-major order.
void WalkReducedRows(const ScatterPlan& plan, const ScatterArgs& args, const ScatterLoop* loops,
                     int64_t out_off, int64_t upd_off, int64_t idx_off, uint64_t key_begin,
                     uint64_t key_end) {
  const uint32_t count = plan.loop_count;
  const ScatterLoop& row = loops[count - 1];
  const ScatterComponent& c = plan.components[0];
  uint64_t rows = 1;
  for (uint32_t d = 0; d + 1 < count; ++d) rows *= static_cast<uint64_t>(loops[d].size);
  int64_t coord[kMaxRank] = {};
  for (uint64_t r = 0; r < rows; ++r) {
    plan.apply_indexed_reduce(args.output, out_off, row.out_stride_bytes, args.updates + upd_off,
                              row.upd_stride_bytes, args.indices + idx_off + c.idx_offset_bytes,
                              row.idx_stride_bytes, static_cast<size_t>(row.size), c.dim_size,
                              c.pitch_bytes, key_begin, key_end);
    NextRow(loops, count, coord, &out_off, &upd_off, &idx_off);
  }
}

// Walks every update of `loops` (the plan's, maybe narrowed to a range of one loop) from the
// given base offsets, in row-major order, applying those whose key is in [key_begin, key_end).
void WalkUpdates(const ScatterPlan& plan, const ScatterArgs& args, const ScatterLoop* loops,
                 int64_t out_off, int64_t upd_off, int64_t idx_off, uint64_t key_begin,
                 uint64_t key_end) {
  if (plan.apply_indexed_reduce != nullptr) {
    WalkReducedRows(plan, args, loops, out_off, upd_off, idx_off, key_begin, key_end);
  } else if (plan.tuple_per_row) {
    WalkTupleRows(plan, args, loops, out_off, upd_off, idx_off, key_begin, key_end);
  } else {
    WalkElementRows(plan, args, loops, out_off, upd_off, idx_off, key_begin, key_end);
  }
}

void RunScatterSliceUnfenced(const ScatterPlan& plan, const ScatterArgs& args, uint64_t slice,
                             uint64_t slices) {
  const bool copy = plan.fused_copy && args.input != nullptr;  // never with key ranges
  // One slice that walks everything at once (the inline case): the plan's own loops.
  if (slices == 1 && (plan.split_loop == kNoSplitLoop || plan.strip_items == 0 ||
                      plan.strip_items >= static_cast<uint64_t>(plan.loops[plan.split_loop].size))) {
    if (copy) CopyStripRegion(plan, args, plan.loops, 0);
    WalkUpdates(plan, args, plan.loops, 0, 0, 0, 0, kAllKeys);
    return;
  }
  ScatterLoop loops[kMaxRank];
  std::copy(plan.loops, plan.loops + plan.loop_count, loops);
  if (args.owners != nullptr && slices > 1) {
    // A range of the line loop; of its rows, those the table says this slice writes last.
    ScatterLoop& line = loops[plan.loop_count - 2];
    const auto size = static_cast<uint64_t>(line.size);
    const auto begin = static_cast<int64_t>(size * slice / slices);
    line.size = static_cast<int64_t>(size * (slice + 1) / slices) - begin;
    if (line.size == 0) return;
    const OwnerFilter owner = {args.owners, plan.owner_shift, plan.key_span_bytes,
                               static_cast<uint8_t>(slice)};
    WalkTupleRows(plan, args, loops, begin * line.out_stride_bytes,
                  begin * line.upd_stride_bytes, begin * line.idx_stride_bytes, 0, kAllKeys,
                  &owner);
    return;
  }
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
  const uint64_t begin = slices == 1 ? 0 : size * slice / slices;
  const uint64_t end = slices == 1 ? size : size * (slice + 1) / slices;
  // The fused block serves only a copy; in place the strips update the output directly.
  uint8_t* block = plan.block_bytes != 0 && args.scratch != nullptr &&
                           (!plan.fused_block || copy)
                       ? args.scratch->Acquire()
                       : nullptr;
  uint64_t strip = plan.strip_items == 0 ? end - begin : plan.strip_items;
  if (block != nullptr && plan.fused_block) strip = plan.block_items;
  if (block != nullptr && !plan.fused_block) {
    for (uint64_t b = begin; b < end; b += strip) {
      ApplyStripInBlock(plan, args, block, static_cast<int64_t>(b),
                        static_cast<int64_t>(std::min(strip, end - b)));
    }
    args.scratch->Release(block);
    return;
  }
  for (uint64_t b = begin; b < end; b += strip) {
    const auto first = static_cast<int64_t>(b);
    l.size = static_cast<int64_t>(std::min(strip, end - b));
    const int64_t out_off = first * l.out_stride_bytes;
    if (block != nullptr) {
      // plan.fused_block: the strip's span copied into the block, updated there (the block
      // stands for the output from out_off on), then streamed out.
      const auto span_bytes = static_cast<size_t>(l.size * l.out_stride_bytes);
      std::memcpy(block, args.input + out_off, span_bytes);
      ScatterArgs in_block = args;
      in_block.output = block;
      WalkUpdates(plan, in_block, loops, 0, first * l.upd_stride_bytes,
                  first * l.idx_stride_bytes, 0, kAllKeys);
      plan.stream_block(args.output + out_off, block, span_bytes);
      continue;
    }
    if (copy) CopyStripRegion(plan, args, loops, out_off);
    WalkUpdates(plan, args, loops, out_off, first * l.upd_stride_bytes,
                first * l.idx_stride_bytes, 0, kAllKeys);
  }
  if (block != nullptr) args.scratch->Release(block);
}

}  // namespace

void RecordScatterOwners(const ScatterPlan& plan, const ScatterArgs& args, uint64_t slices,
                         uint8_t* owners) {
  const uint32_t count = plan.loop_count;
  const ScatterLoop& line = plan.loops[count - 2];
  const auto size = static_cast<uint64_t>(line.size);
  uint64_t lines = 1;
  for (uint32_t d = 0; d + 2 < count; ++d) lines *= static_cast<uint64_t>(plan.loops[d].size);
  int64_t coord[kMaxRank] = {};
  int64_t out_off = 0, upd_off = 0, idx_off = 0;
  int64_t keys[kChunkItems];
  for (uint64_t l = 0; l < lines; ++l) {
    uint8_t slice = 0;
    uint64_t slice_end = size / slices;  // the first coordinate past slice 0's range
    for (uint64_t i0 = 0; i0 < size; i0 += kChunkItems) {
      const size_t n = static_cast<size_t>(std::min<uint64_t>(kChunkItems, size - i0));
      ResolveLineKeys(plan, args, line, out_off, idx_off, static_cast<int64_t>(i0), n, keys);
      for (size_t i = 0; i < n;) {
        while (i0 + i >= slice_end) slice_end = size * (++slice + uint64_t{1}) / slices;
        const size_t run_end = static_cast<size_t>(std::min<uint64_t>(n, slice_end - i0));
        for (; i < run_end; ++i) {  // rows of one slice
          const auto key = static_cast<uint64_t>(keys[i]);
          if (key < plan.key_span_bytes) owners[key >> plan.owner_shift] = slice;
        }
      }
    }
    // The next line: odometer over the loops above the line loop (the row loop never moves).
    if (count > 2) NextRow(plan.loops, count - 1, coord, &out_off, &upd_off, &idx_off);
  }
}

void RunScatterSlice(const ScatterPlan& plan, const ScatterArgs& args, uint64_t slice,
                     uint64_t slices) {
  RunScatterSliceUnfenced(plan, args, slice, slices);
  // Streamed rows skip their own fences: one per slice, before the task completes.
  if (plan.stream_row != nullptr || plan.stream_block != nullptr) kernels::StoreFence();
}

}  // namespace internal
}  // namespace dmlcpu
