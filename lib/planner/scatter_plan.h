// SPDX-License-Identifier: Apache-2.0
// The plan of a scatter step (StepKind::kScatter: SCATTER, SCATTER_ND). Pure data: no Highway,
// no TBB.
//
// For every update coordinate u over loops[0..loop_count), in row-major order:
//   idx_off = sum_d u[d] * loops[d].idx_stride_bytes
//   dest    = sum_d u[d] * loops[d].out_stride_bytes
//           + sum_j Resolve(indices[idx_off + components[j].idx_offset_bytes]) * pitch_j
//   output[dest] = op(output[dest], updates[sum_d u[d] * loops[d].upd_stride_bytes])
// where Resolve wraps a negative index once and drops the whole update when the result is not
// in [0, dim_size) (kClamp; kStrict has scanned every index first). Updates are applied in that
// order per destination, so the last one wins (kNone) or reductions run in index order.
//
// Parallel work is partitioned by destination, so two threads never touch one element and the
// bytes are the same for every thread count:
// - split loop: a loop with out_stride_bytes != 0 (a "destination loop": updates that differ in
//   its coordinate never share a destination, because the output layout does not overlap) is cut
//   into contiguous coordinate ranges, one per slice; each slice walks every other loop in order.
// - key ranges (no destination loop, e.g. a rank-1 scatter-add; or many short rows of one tuple
//   each, see kMinSplitRowBytes): each slice walks every update
//   and applies only those whose destination key (the offset of the item's first element) falls
//   in its share of [0, key_span_bytes). Items are whole rows where a row shares one tuple, and
//   distinct keys then never overlap.
// - owners (owner_slots > 0; kNone rows of one tuple that would take key ranges): each slice
//   walks a range of the line loop (loops[loop_count - 2]) and writes a row only where the
//   table, filled first in update order, names it the slice of the destination's last update.
//   Each update row is then read by one slice only (key ranges read the rows around every
//   row a slice writes, through the hardware prefetchers).
#ifndef DMLCPU_PLANNER_SCATTER_PLAN_H_
#define DMLCPU_PLANNER_SCATTER_PLAN_H_

#include <cstdint>

#include "kernels/scatter_kernels.h"
#include "planner/geometry.h"

namespace dmlcpu {
namespace internal {

struct ScatterLoop {
  int64_t size = 1;
  int64_t out_stride_bytes = 0;  // >= 0
  int64_t upd_stride_bytes = 0;
  int64_t idx_stride_bytes = 0;
};

struct ScatterComponent {
  uint64_t dim_size = 1;         // size of the output dimension this tuple element addresses
  int64_t pitch_bytes = 0;       // that dimension's output byte stride
  int64_t idx_offset_bytes = 0;  // position of this element in the tuple
  uint32_t output_dim = 0;       // which OutputTensor dimension (for messages)
};

constexpr uint32_t kNoSplitLoop = ~uint32_t{0};

struct ScatterPlan {
  uint32_t elem_bytes = 0;
  kernels::ScatterType type = kernels::ScatterType::kBits8;
  kernels::ScatterReduction reduction = kernels::ScatterReduction::kNone;
  kernels::IndexType index_type = kernels::IndexType::kUint32;
  uint32_t loop_count = 1;
  ScatterLoop loops[kMaxRank];  // collapsed, row-major update order; loops[loop_count-1] = row
  uint32_t component_count = 0;
  ScatterComponent components[kMaxRank];
  // The row (innermost loop) reads one index tuple (idx_stride_bytes 0): it is resolved once and
  // the row applied as one run. Otherwise every item of a row has its own tuple.
  bool tuple_per_row = false;
  uint32_t split_loop = kNoSplitLoop;  // the destination loop slices split, or key ranges
  uint64_t key_span_bytes = 0;         // key ranges: every destination key is below this
  uint64_t item_count = 0;             // updates applied (product of the loop sizes)
  uint64_t bytes_moved = 0;            // updates + their destinations (read and written) + indices
  uint64_t max_slices = 1;             // 1: run inline, never touch the thread pool
  // > 0: each slice walks its share of the split loop in strips of this many items, every other
  // loop in full per strip, so that one strip's destinations stay in the cache: the row along
  // an outer axis (kScatterStripBytes), or any split loop of a fused copy (kFusedStripBytes;
  // a fused block run with a scratch slot walks block_items instead).
  // Per destination the order of updates is unchanged.
  uint64_t strip_items = 0;
  // Fused copy (SCATTER only, op_scatter.cc CanFuseScatterCopy): the step itself copies
  // InputTensor (binding fused_input_binding, the output's layout; ScatterArgs::input) into the
  // output, one strip at a time right before that strip's updates, instead of a separate copy
  // step before it; skipped in place. A strip's region is the plan's loops narrowed to the strip
  // with the axis loop (fused_axis_loop, out_stride_bytes 0) widened to the whole axis: every
  // destination its updates can reach and no other strip's. The regions tile the output because
  // the updates span every output coordinate off the axis (checked at Compile).
  bool fused_copy = false;
  uint32_t fused_axis_loop = 0;
  uint32_t fused_input_binding = ~uint32_t{0};  // set by the program builder
  // fused_copy: copies a region's strided rows (copy_strided of the element's width).
  kernels::CopyStridedFn copy_region_row = nullptr;
  // > 0: a SCATTER along the outer axis of two loops (axis loop 0, row 1 contiguous and split,
  // kNone, apply_indexed) assembles each strip of strip_items columns in a scratch block of
  // dim_size rows of strip_items elements (this many bytes): filled from the input (fused copy)
  // or the output, updated there (its few pages stay in the TLB, its lines in L2), written back.
  // Without a free scratch slot a slice updates the output directly.
  // With fused_block instead: a SCATTER along the innermost of two loops whose strips' regions
  // are each one contiguous span of the packed output (rows of the split loop), the output at
  // least ScatterSettings::stream_threshold_bytes: a strip's span is copied from the input into
  // a scratch block, updated there and streamed to the output, so the output's lines are
  // written without being read first (block_bytes: the largest span).
  uint64_t block_bytes = 0;
  bool fused_block = false;
  // fused_block, run with a scratch slot: the split loop walked in strips of this many rows
  // instead of strip_items (block_bytes = block_items rows), so that the block stays in L1.
  uint64_t block_items = 0;
  // block_bytes: writes a block's rows of whole lines back with non-temporal stores (unfenced).
  kernels::CopyBytesFn stream_block = nullptr;
  kernels::ScatterResolveFn resolve = nullptr;
  kernels::ScatterElemsFn apply_elems = nullptr;
  kernels::ScatterRunFn apply_run = nullptr;
  // kNone with one index per item (one component): resolved and applied in one pass per row
  // where a slice owns every key; else null.
  kernels::ScatterIndexedFn apply_indexed = nullptr;
  // Reductions with one index per item (one component): resolved and applied in one pass per
  // row, the slice's key range tested per item; else null (resolve + apply_elems).
  kernels::ScatterIndexedReduceFn apply_indexed_reduce = nullptr;
  // kNone rows of one tuple that are contiguous runs of at least kMinStreamRowBytes in output
  // and updates (or kMinSpreadStreamRowBytes in a large output): copied with non-temporal
  // stores (unfenced; one StoreFence per slice), so that a row landing in a cold part of a large
  // output is written without reading it first; else null.
  kernels::CopyBytesFn stream_row = nullptr;
  // > 0: slices own destinations through a table of this many one-byte slots (scratch, filled
  // by RecordScatterOwners), slot = key >> owner_shift: every key is a multiple of 2^owner_shift.
  uint64_t owner_slots = 0;
  uint32_t owner_shift = 0;
};

constexpr uint64_t kMinStreamRowBytes = 1024;
// Shorter rows, down to kMinSpreadStreamRowBytes, are streamed too where the output spans at
// least kMinSpreadStreamSpanBytes (far beyond an L2: a scattered row there is almost surely
// cold, as one token's rows in a KV cache are).
constexpr uint64_t kMinSpreadStreamRowBytes = 256;
constexpr uint64_t kMinSpreadStreamSpanBytes = uint64_t{4} << 20;
// One tuple per row: the row itself is split only where each slice's piece of it is at least
// kMinSplitRowBytes or there are fewer than kMinKeyRangeRowsPerSlice rows per slice; else key
// ranges.
constexpr uint64_t kMinSplitRowBytes = uint64_t{64} << 10;
constexpr uint64_t kMinKeyRangeRowsPerSlice = 4;
// The largest owner table (ScatterPlan::owner_slots): larger key spans keep key ranges. Within
// a copy step's largest packed strip (Tuning::max_pack_bytes), so the pool keeps its slots.
constexpr uint64_t kMaxScatterOwnerSlots = uint64_t{256} << 10;
constexpr uint64_t kScatterStripBytes = uint64_t{2} << 20;  // destinations one strip may touch
// A strip of a fused copy: the output it copies and then updates, at most this, narrowed so
// that the operator's scratch pool (a slot per thread and two more, at most kMaxScratchSlots)
// fits Tuning::max_scratch_bytes, down to kMinFusedStripBytes. Wider strips read longer runs of
// each strided row (docs/performance.md#wider-fused-strips).
constexpr uint64_t kFusedStripBytes = uint64_t{1} << 20;
constexpr uint64_t kMinFusedStripBytes = uint64_t{256} << 10;
constexpr uint64_t kMaxScratchSlots = 64;  // ScratchPool::kMaxSlots (device.cc sizes the pool)
// A fused block's span (ScatterPlan::block_items): as many whole rows as fit this many bytes,
// or one longer row, so that its random stores hit L1 (docs/performance.md, session 43).
constexpr uint64_t kFusedBlockBytes = uint64_t{16} << 10;
// The largest scratch block (ScatterPlan::block_bytes): one line of columns per axis element.
constexpr uint64_t kMaxScatterBlockBytes = uint64_t{1} << 20;

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_PLANNER_SCATTER_PLAN_H_
