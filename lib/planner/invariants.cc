// SPDX-License-Identifier: Apache-2.0
// CheckPlanInvariants: the one statement of which combinations of shape, tiling, strategy,
// policies and kernels a plan may hold. The executor relies on every rule here.
#include "core/format.h"
#include "planner/planner.h"

namespace dmlcpu {
namespace internal {
namespace {

// The strategies that run through the generic row loop (one kernel call per row piece).
bool RowLoopStrategy(Strategy s) {
  return s == Strategy::kContiguousRun || s == Strategy::kRowsOfRuns ||
         s == Strategy::kStridedRows || s == Strategy::kBlockRows ||
         s == Strategy::kElementRows || s == Strategy::kFusedRowGather;
}

// The shape each strategy requires.
KernelShape RequiredShape(Strategy s) {
  switch (s) {
    case Strategy::kContiguousRun: return KernelShape::kOneRun;
    case Strategy::kRowsOfRuns: return KernelShape::kRowsOfRuns;
    case Strategy::kStridedRows:
    case Strategy::kTransposeTiles: return KernelShape::kStridedInner;
    case Strategy::kBlockRows:
    case Strategy::kIndexedBlocks: return KernelShape::kBlockGather;
    case Strategy::kElementRows:
    case Strategy::kFusedRowGather:
    case Strategy::kSharedIndexRows:
    case Strategy::kPackedStrips: return KernelShape::kElementGather;
  }
  return KernelShape::kOneRun;
}

}  // namespace

#define DMLCPU_REQUIRE(cond, ...) \
  do {                            \
    if (!(cond)) return Status(StatusCode::kInternal, StrFormat(__VA_ARGS__)); \
  } while (0)

Status CheckPlanInvariants(const Plan& plan) {
  const Strategy s = plan.strategy;
  const char* name = StrategyName(s);
  DMLCPU_REQUIRE(plan.loop_count >= 1 && plan.loop_count <= kMaxRank,
                 "loop_count is %u, expected in [1, %u]", plan.loop_count, kMaxRank);
  DMLCPU_REQUIRE(plan.elem_bytes == 1 || plan.elem_bytes == 2 || plan.elem_bytes == 4 ||
                     plan.elem_bytes == 8,
                 "elem_bytes is %u, expected 1, 2, 4 or 8", plan.elem_bytes);
  for (uint32_t i = 0; i < plan.loop_count; ++i) {
    DMLCPU_REQUIRE(plan.loops[i].size >= 1, "loops[%u].size is %lld, expected >= 1", i,
                   static_cast<long long>(plan.loops[i].size));
  }
  const uint32_t last = plan.loop_count - 1;
  const Loop& row = plan.loops[last];
  const Partition& p = plan.partition;
  const bool whole_rows = p.pieces_per_row == 1;

  DMLCPU_REQUIRE(plan.shape == Classify(plan), "shape %s, but the loops classify as %s",
                 KernelShapeName(plan.shape), KernelShapeName(Classify(plan)));
  DMLCPU_REQUIRE(plan.shape == RequiredShape(s), "strategy %s needs shape %s, got %s", name,
                 KernelShapeName(RequiredShape(s)), KernelShapeName(plan.shape));
  DMLCPU_REQUIRE((plan.component_count > 0) == (plan.shape == KernelShape::kBlockGather ||
                                                plan.shape == KernelShape::kElementGather),
                 "%u index components with shape %s", plan.component_count,
                 KernelShapeName(plan.shape));
  DMLCPU_REQUIRE(p.unit_count >= 1 && p.align_units >= 1 && p.unit_count % p.align_units == 0 &&
                     p.grain_units % p.align_units == 0,
                 "partition of %llu units, grain %llu, aligned to %llu: units and grain must be "
                 "whole multiples of the alignment",
                 static_cast<unsigned long long>(p.unit_count),
                 static_cast<unsigned long long>(p.grain_units),
                 static_cast<unsigned long long>(p.align_units));

  // Tiling and the strategies that depend on it.
  DMLCPU_REQUIRE((plan.tiling == Tiling::kTransposeTiles) == (s == Strategy::kTransposeTiles),
                 "tiling %s with strategy %s", TilingName(plan.tiling), name);
  DMLCPU_REQUIRE((plan.tiling == Tiling::kPackedStrips) == (s == Strategy::kPackedStrips),
                 "tiling %s with strategy %s", TilingName(plan.tiling), name);
  DMLCPU_REQUIRE((plan.pack_bytes != 0) == (s == Strategy::kPackedStrips),
                 "pack_bytes %llu with strategy %s",
                 static_cast<unsigned long long>(plan.pack_bytes), name);
  DMLCPU_REQUIRE(s != Strategy::kTransposeTiles || (plan.loop_count >= 2 && p.row_items == 1),
                 "%s needs two tile loops as one unit", name);
  DMLCPU_REQUIRE(s != Strategy::kPackedStrips ||
                     (plan.component_count == 1 && whole_rows && plan.loop_count >= 2 &&
                      p.align_units == PackedRunUnits(plan)),
                 "%s needs one component, whole rows and tasks of whole strips", name);

  // Strategies over whole rows and their loop forms.
  DMLCPU_REQUIRE(s != Strategy::kIndexedBlocks ||
                     (whole_rows && plan.loop_count >= 2 &&
                      plan.loops[last - 1].in_stride_bytes == 0 &&
                      plan.loops[last - 1].idx_stride_bytes != 0 &&
                      row.in_stride_bytes == plan.elem_bytes &&
                      row.out_stride_bytes == plan.elem_bytes),
                 "%s needs whole contiguous rows and loops[L-2] walking the indices", name);
  DMLCPU_REQUIRE(!plan.merge_runs || s == Strategy::kIndexedBlocks,
                 "merge_runs with strategy %s", name);
  if (s == Strategy::kSharedIndexRows) {
    DMLCPU_REQUIRE(whole_rows && plan.loop_count >= 2, "%s needs whole rows under outer loops",
                   name);
    for (uint32_t i = 0; i < last; ++i) {
      DMLCPU_REQUIRE(plan.loops[i].idx_stride_bytes == 0,
                     "%s: loops[%u].idx_stride_bytes is %lld, expected 0", name, i,
                     static_cast<long long>(plan.loops[i].idx_stride_bytes));
    }
  }
  DMLCPU_REQUIRE(s != Strategy::kFusedRowGather ||
                     (plan.component_count == 1 && plan.tiling == Tiling::kNone &&
                      row.in_stride_bytes == 0 && row.out_stride_bytes == plan.elem_bytes &&
                      row.idx_stride_bytes == IndexBytes(plan.index_type)),
                 "%s needs one component read from the row base, contiguous ids and output",
                 name);
  DMLCPU_REQUIRE(s == Strategy::kFusedRowGather || s == Strategy::kPackedStrips ||
                     plan.gather_row == nullptr,
                 "gather_row set for strategy %s", name);
  DMLCPU_REQUIRE(s != Strategy::kFusedRowGather || plan.gather_row != nullptr,
                 "%s without gather_row", name);

  const RowBorders& b = plan.borders;
  DMLCPU_REQUIRE(b.left_items + b.right_items == 0 ||
                     ((s == Strategy::kContiguousRun || s == Strategy::kRowsOfRuns ||
                       s == Strategy::kStridedRows) &&
                      row.out_stride_bytes == plan.elem_bytes &&
                      (b.fill || (b.left_items <= RowBorders::kMaxCopiedItems &&
                                  b.right_items <= RowBorders::kMaxCopiedItems))),
                 "row borders (%u + %u items) with strategy %s: need a row loop over contiguous "
                 "output rows and at most %u copied items per side",
                 b.left_items, b.right_items, name, RowBorders::kMaxCopiedItems);
  DMLCPU_REQUIRE(b.top_rows + b.bottom_rows == 0 ||
                     (b.left_items + b.right_items != 0 && plan.loop_count >= 2 &&
                      plan.tiling == Tiling::kNone && whole_rows && !plan.store.non_temporal &&
                      !plan.prefetch.input_stream &&
                      (b.fill || (b.top_rows <= RowBorders::kMaxCopiedRows &&
                                  b.bottom_rows <= RowBorders::kMaxCopiedRows))),
                 "border rows (%u + %u) with strategy %s: need row borders, a line loop, whole "
                 "rows with regular stores and no prefetch, at most %u copied rows per side",
                 b.top_rows, b.bottom_rows, name, RowBorders::kMaxCopiedRows);

  // Policies.
  DMLCPU_REQUIRE(!plan.store.staged_lines || CanStageLines(plan),
                 "staged lines with strategy %s: need whole rows with borders, of at most "
                 "%llu bytes, adjacent along their line, regular stores and no prefetch",
                 name, static_cast<unsigned long long>(Tuning::kMaxStagedPieceBytes));
  const PrefetchPolicy& f = plan.prefetch;
  DMLCPU_REQUIRE(!plan.store.non_temporal || row.out_stride_bytes == plan.elem_bytes,
                 "non-temporal stores need a contiguous output row (stride %lld bytes)",
                 static_cast<long long>(row.out_stride_bytes));
  DMLCPU_REQUIRE(plan.copy_strided_stream == nullptr ||
                     (plan.store.non_temporal && !f.input_stream),
                 "copy_strided_stream needs non-temporal stores and no input-stream prefetch");
  DMLCPU_REQUIRE(!f.input_stream || (plan.shape != KernelShape::kElementGather &&
                                     s != Strategy::kTransposeTiles &&
                                     plan.tiling == Tiling::kNone),
                 "input-stream prefetch with strategy %s (element gathers and tiles revisit "
                 "their lines)",
                 name);
  DMLCPU_REQUIRE(!f.index_stream || (plan.shape == KernelShape::kElementGather &&
                                     plan.tiling == Tiling::kNone),
                 "index-stream prefetch with shape %s", KernelShapeName(plan.shape));
  DMLCPU_REQUIRE(f.next_row_span_bytes == 0 ||
                     (plan.shape == KernelShape::kElementGather && whole_rows),
                 "next-row span prefetch with strategy %s over %llu pieces per row", name,
                 static_cast<unsigned long long>(p.pieces_per_row));
  DMLCPU_REQUIRE(!f.next_row_items ||
                     (s == Strategy::kElementRows && plan.loop_count >= 2 && whole_rows &&
                      row.size <= Tuning::kMaxItemPrefetchRowItems),
                 "next-row item prefetch with strategy %s and rows of %lld items", name,
                 static_cast<long long>(row.size));

  // Kernels every strategy may reach (packed strips fall back to the row loop).
  DMLCPU_REQUIRE(plan.kernel_set != nullptr && plan.copy_run != nullptr &&
                     plan.copy_strided != nullptr && plan.gather != nullptr &&
                     plan.gather_blocks != nullptr && plan.resolve != nullptr &&
                     plan.transpose_tile != nullptr,
                 "kernels not resolved");
  DMLCPU_REQUIRE(RowLoopStrategy(s) || s == Strategy::kTransposeTiles ||
                     s == Strategy::kIndexedBlocks || s == Strategy::kSharedIndexRows ||
                     s == Strategy::kPackedStrips,
                 "unknown strategy %u", static_cast<unsigned>(s));
  return Status::Ok();
}

#undef DMLCPU_REQUIRE

}  // namespace internal
}  // namespace dmlcpu
