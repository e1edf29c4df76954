// SPDX-License-Identifier: Apache-2.0
// Shape classification and ChooseStrategy: the one place where a step's execution strategy,
// store policy, prefetch policy and kernels are decided; and the walk's orientation, once the
// program's steps are final. The measurements behind each rule are in
// docs/performance.md#planner.
#include <algorithm>

#include "planner/planner.h"

namespace dmlcpu {
namespace internal {
namespace {

// K4: the bytes one row can read from its row base (an element, plus the reach of the row's own
// input stride and of every index component); *forward: whether all of those run forward.
uint64_t RowSpanBytes(const Plan& plan, bool* forward) {
  const Loop& row = plan.loops[plan.loop_count - 1];
  *forward = row.in_stride_bytes >= 0;
  uint64_t span = static_cast<uint64_t>(plan.elem_bytes) +
                  static_cast<uint64_t>(row.size - 1) *
                      static_cast<uint64_t>(std::max<int64_t>(0, row.in_stride_bytes));
  for (uint32_t c = 0; c < plan.component_count; ++c) {
    *forward = *forward && plan.components[c].pitch_bytes >= 0;
    span += (plan.components[c].dim_size - 1) *
            static_cast<uint64_t>(std::max<int64_t>(0, plan.components[c].pitch_bytes));
  }
  return span;
}

// Non-temporal stores skip the read-for-ownership of each output line but leave the output in
// DRAM, and a warm destination is written faster with regular stores: a step streams where its
// output could not stay in the last-level cache anyway.
bool ChooseNonTemporal(const Plan& plan, uint64_t out_bytes, uint64_t in_bytes,
                       uint32_t concurrency, const Tuning& tuning) {
  const Loop& row = plan.loops[plan.loop_count - 1];
  if (row.out_stride_bytes != plan.elem_bytes) return false;
  const bool element_rows = plan.shape == KernelShape::kElementGather;
  // Short rows with gaps between them (a padded interior, a strided output) that start or end
  // inside a line: non-temporal stores would write those partial lines one by one. Rows of
  // whole lines (tiled permuted copies) still stream.
  if (plan.loop_count >= 2 && !element_rows) {
    const int64_t row_bytes = row.size * static_cast<int64_t>(plan.elem_bytes);
    const int64_t next_row_bytes = plan.loops[plan.loop_count - 2].out_stride_bytes;
    const bool partial_lines = row_bytes % 64 != 0 || next_row_bytes % 64 != 0;
    if (next_row_bytes != row_bytes && partial_lines &&
        static_cast<uint64_t>(row_bytes) < tuning.min_gapped_stream_row_bytes) {
      return false;
    }
  }
  if (out_bytes >= tuning.stream_threshold_bytes) return true;
  // Plain-copy and directly streamed strided rows: also when their footprint (the output and
  // the input lines they read) exceeds the cache, or half of it on one thread (one core's
  // regular stores wait for a DRAM read of nearly every line there).
  // Permuted copies tiled for the cache too (transpose tiles, rows of runs in stream tiles):
  // they read as many bytes as they write, and write out of order, so they stream from half
  // the cache on any thread count.
  const bool permuted =
      plan.tiling == Tiling::kTransposeTiles || plan.tiling == Tiling::kRunTiles;
  const bool footprint_rows =
      permuted ||
      (!element_rows && kernels::StreamsDirectly(row.in_stride_bytes, plan.elem_bytes));
  if (footprint_rows) {
    const uint64_t read_per_out = permuted ? 1 : row.in_stride_bytes / plan.elem_bytes;
    const uint64_t footprint_bytes = out_bytes + std::min(in_bytes, read_per_out * out_bytes);
    const uint64_t limit_bytes = concurrency == 1 || permuted ? tuning.stream_threshold_bytes / 2
                                                              : tuning.stream_threshold_bytes;
    if (footprint_bytes > limit_bytes) return true;
  }
  // Element gathers load element by element, far below the non-temporal ceiling even warm.
  return element_rows && out_bytes >= tuning.element_stream_bytes &&
         static_cast<uint64_t>(row.size) * plan.elem_bytes >=
             tuning.min_element_stream_row_bytes;
}

Strategy RowStrategy(KernelShape shape, bool fused) {
  switch (shape) {
    case KernelShape::kOneRun: return Strategy::kContiguousRun;
    case KernelShape::kRowsOfRuns: return Strategy::kRowsOfRuns;
    case KernelShape::kStridedInner: return Strategy::kStridedRows;
    case KernelShape::kBlockGather: return Strategy::kBlockRows;
    case KernelShape::kElementGather:
      return fused ? Strategy::kFusedRowGather : Strategy::kElementRows;
  }
  return Strategy::kElementRows;
}

void ResolveKernels(Plan* plan) {
  const kernels::KernelSet& set = kernels::BestKernels();
  const int slot = kernels::WidthSlot(plan->elem_bytes);
  const int index_slot = static_cast<int>(plan->index_type);
  const bool stream = plan->store.non_temporal;
  const Loop& row = plan->loops[plan->loop_count - 1];
  plan->kernel_set = &set;
  plan->copy_run = stream ? set.copy_bytes_stream_unfenced : set.copy_bytes;
  plan->copy_strided = set.copy_strided[slot];
  // Not with the input-stream prefetcher: its steps would leave each step's last vector to the
  // kernel's scalar tail (it must not read past the step), regular stores to DRAM lines.
  plan->copy_strided_stream =
      stream && !plan->prefetch.input_stream &&
              kernels::StreamsDirectly(row.in_stride_bytes, plan->elem_bytes)
          ? set.copy_strided_stream[slot]
          : nullptr;
  plan->gather = set.gather[slot];
  plan->gather_blocks = set.gather_blocks;
  plan->resolve = set.resolve[index_slot];
  plan->transpose_tile = stream ? set.transpose_tile_stream[slot] : set.transpose_tile[slot];
  const bool packed_rows = plan->strategy == Strategy::kPackedStrips &&
                           row.out_stride_bytes == plan->elem_bytes &&
                           row.idx_stride_bytes == IndexBytes(plan->index_type);
  plan->gather_row = plan->strategy != Strategy::kFusedRowGather && !packed_rows ? nullptr
                     : stream ? set.gather_row_stream[slot][index_slot]
                              : set.gather_row[slot][index_slot];
}

}  // namespace

KernelShape Classify(const Plan& plan) {
  const Loop& row = plan.loops[plan.loop_count - 1];
  if (plan.component_count > 0) {
    return row.idx_stride_bytes != 0 ? KernelShape::kElementGather : KernelShape::kBlockGather;
  }
  const bool contiguous =
      row.out_stride_bytes == plan.elem_bytes && row.in_stride_bytes == plan.elem_bytes;
  if (!contiguous) return KernelShape::kStridedInner;
  return plan.loop_count == 1 ? KernelShape::kOneRun : KernelShape::kRowsOfRuns;
}

void ChooseStrategy(Plan* plan, uint64_t output_bytes, uint64_t input_bytes,
                    uint32_t concurrency, const Tuning& tuning) {
  plan->store.non_temporal =
      ChooseNonTemporal(*plan, output_bytes, input_bytes, concurrency, tuning);
  PrefetchPolicy& prefetch = plan->prefetch;
  prefetch = PrefetchPolicy();
  plan->merge_runs = false;

  const uint32_t last = plan->loop_count - 1;
  const Loop& row = plan->loops[last];
  const int64_t elem = plan->elem_bytes;
  const bool tiled = plan->tiling != Tiling::kNone;
  const bool element_rows = plan->shape == KernelShape::kElementGather;
  const bool large = plan->partition.bytes_moved >= tuning.serial_cutoff_bytes;

  // The input stream where hardware prefetchers lose it: reads that go down or jump to
  // index-chosen blocks. Contiguous rows only when streamed (with regular stores a row stays one
  // library copy, which writes whole lines without reading them); never for tiled plans, which
  // revisit their lines, nor for small ones, which run from the caches.
  bool descending = false;
  for (uint32_t i = 0; i <= last; ++i) {
    descending = descending || plan->loops[i].in_stride_bytes < 0;
  }
  const bool contiguous_row = row.in_stride_bytes == elem && row.out_stride_bytes == elem;
  const bool dense_row = row.in_stride_bytes >= -64 && row.in_stride_bytes <= 64;
  prefetch.input_stream = large && !tiled && dense_row &&
                          (descending || plan->shape == KernelShape::kBlockGather) &&
                          !element_rows && (plan->store.non_temporal || !contiguous_row);
  // K4: a dense forward index stream, which the hardware prefetchers fall behind. Strip rows'
  // indices do not run on into the next row's.
  prefetch.index_stream =
      element_rows && !tiled && row.idx_stride_bytes > 0 && row.idx_stride_bytes <= 64;

  // Rows whose outer loops all keep the same ids (index stride 0) share them.
  bool shared = last >= 1;
  for (uint32_t i = 0; i < last; ++i) shared = shared && plan->loops[i].idx_stride_bytes == 0;
  // One fused pass per row where each element is one clamped index into the row's base, while
  // the row's span stays in L2 (beyond it, loads resolved 8 at a time keep more misses in flight).
  bool forward = false;
  const uint64_t span_bytes = RowSpanBytes(*plan, &forward);
  const bool fused = element_rows && !shared && !tiled && plan->component_count == 1 &&
                     row.in_stride_bytes == 0 && row.out_stride_bytes == elem &&
                     row.idx_stride_bytes == IndexBytes(plan->index_type) &&
                     span_bytes <= tuning.max_fused_span_bytes;
  bool indexed_blocks = false, shared_rows = false;
  const bool whole_rows = plan->partition.pieces_per_row == 1;
  if (whole_rows && plan->shape == KernelShape::kBlockGather && last >= 1 &&
      plan->loops[last - 1].in_stride_bytes == 0 && plan->loops[last - 1].idx_stride_bytes != 0 &&
      contiguous_row) {
    indexed_blocks = true;
    const int64_t block_bytes = row.size * elem;
    plan->merge_runs = plan->loops[last - 1].out_stride_bytes == block_bytes &&
                       static_cast<uint64_t>(block_bytes) >= kernels::kMinMergeBlockBytes;
    // Blocks below a line: a prefetch per block costs as much as the copy. From
    // kMinPrefetchBlockBytes on the block kernel prefetches itself (cheaper); streamed blocks
    // take the stream prefetcher at every size (they are copied in steps of a few lines).
    prefetch.input_stream =
        large && block_bytes >= 64 &&
        (plan->store.non_temporal ||
         static_cast<uint64_t>(block_bytes) < kernels::kMinPrefetchBlockBytes);
  }
  if (whole_rows && element_rows && last >= 1) {
    shared_rows = shared;
    // Random reads within a row wait a DRAM miss each: the next row's compact forward span is
    // prefetched while this one is gathered.
    prefetch.next_row_span_bytes =
        forward && span_bytes <= tuning.max_row_prefetch_bytes ? span_bytes : 0;
    // Short rows of random reads over a span no span prefetch covers: each next-row item's line.
    prefetch.next_row_items = !shared && !fused && plan->pack_bytes == 0 &&
                              row.size <= Tuning::kMaxItemPrefetchRowItems &&
                              span_bytes > tuning.item_prefetch_span_bytes;
  }

  if (plan->tiling == Tiling::kTransposeTiles) {
    plan->strategy = Strategy::kTransposeTiles;
  } else if (plan->tiling == Tiling::kPackedStrips) {
    plan->strategy = Strategy::kPackedStrips;
  } else if (indexed_blocks) {
    plan->strategy = Strategy::kIndexedBlocks;
  } else if (shared_rows) {
    plan->strategy = Strategy::kSharedIndexRows;
  } else {
    plan->strategy = RowStrategy(plan->shape, fused);
  }
  ResolveKernels(plan);
}

namespace {

// One step of OrientForInputStream; in_co_run_group: the step runs beside another step's rows.
void OrientStep(Step* step, bool in_co_run_group) {
  Plan& plan = step->plan;
  const RowBorders& b = plan.borders;
  const bool rows = plan.strategy == Strategy::kRowsOfRuns ||
                    plan.strategy == Strategy::kStridedRows;
  if (step->kind != StepKind::kAffineCopy || step->source != StepSource::kInput || !rows ||
      in_co_run_group || plan.tiling != Tiling::kNone || plan.component_count != 0 ||
      plan.store.staged_lines || b.left_items + b.right_items + b.top_rows + b.bottom_rows != 0) {
    return;
  }
  const uint32_t last = plan.loop_count - 1;
  const int64_t row_in_stride_bytes = plan.loops[last].in_stride_bytes;
  if (row_in_stride_bytes == 0) return;
  // The prefetch policy chosen for the unturned walk stays: the stream prefetcher follows the
  // new order (docs/performance.md, session 37).
  for (uint32_t i = 0; i < last; ++i) {
    Loop& loop = plan.loops[i];
    const bool against = row_in_stride_bytes > 0 ? loop.in_stride_bytes < 0
                                                 : loop.in_stride_bytes > 0;
    if (!against || loop.size < 2) continue;
    step->out_base_bytes += (loop.size - 1) * loop.out_stride_bytes;
    plan.in_base_bytes += (loop.size - 1) * loop.in_stride_bytes;
    loop.out_stride_bytes = -loop.out_stride_bytes;
    loop.in_stride_bytes = -loop.in_stride_bytes;
  }
}

}  // namespace

void OrientForInputStream(Program* program) {
  bool after_co_run = false;  // the previous step runs beside this one
  for (Step& step : program->steps) {
    OrientStep(&step, after_co_run || step.co_run_with_next);
    after_co_run = step.co_run_with_next;
  }
}

bool CanStageLines(const Plan& plan) {
  const Strategy s = plan.strategy;
  const RowBorders& b = plan.borders;
  if ((s != Strategy::kContiguousRun && s != Strategy::kRowsOfRuns &&
       s != Strategy::kStridedRows) ||
      plan.tiling != Tiling::kNone || plan.partition.pieces_per_row != 1 ||
      plan.prefetch.input_stream || plan.store.non_temporal || plan.loop_count < 2 ||
      b.left_items + b.right_items == 0) {
    return false;
  }
  const Loop& row = plan.loops[plan.loop_count - 1];
  const Loop& line = plan.loops[plan.loop_count - 2];
  const uint64_t framed_bytes =
      (uint64_t{b.left_items} + static_cast<uint64_t>(row.size) + b.right_items) *
      plan.elem_bytes;
  return row.out_stride_bytes == plan.elem_bytes &&
         framed_bytes <= Tuning::kMaxStagedPieceBytes &&
         line.out_stride_bytes == static_cast<int64_t>(framed_bytes);
}

// Bordered rows are short and start inside lines, so the row kernels keep regular stores;
// assembled in output order they form whole lines again, which stream once the output and the
// input they read exceed half the cache (as permuted copies do).
void ChooseStagedLines(Plan* plan, uint64_t output_bytes, uint64_t input_bytes,
                       const Tuning& tuning) {
  plan->store.staged_lines = CanStageLines(*plan) &&
                             output_bytes + input_bytes > tuning.stream_threshold_bytes / 2;
}

}  // namespace internal
}  // namespace dmlcpu
