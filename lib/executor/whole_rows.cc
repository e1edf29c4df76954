// SPDX-License-Identifier: Apache-2.0
// The unit engine's loop for steps of whole rows with regular stores and no prefetch (the small
// steps of JOIN, SPLIT, PADDING, TILE and fills; also streamed rows of runs): the row's copy and
// border width chosen once per unit range, the rows of a line walked by pointer bumps.
// Single-threaded, allocation-free.
#include <algorithm>
#include <cstdint>

#include "core/check.h"
#include "executor/executor.h"
#include "executor/odometer.h"
#include "executor/row_ops.h"

namespace dmlcpu {
namespace internal {
namespace {

// Calls row_op(out, in) for the whole rows of units [begin, end), in order. The rows along the
// loop above the row are walked by pointer bumps; the odometer moves once per such line.
template <typename RowOp>
void WalkWholeRows(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end,
                   const RowOp& row_op) {
  if (plan.loop_count == 1) {  // one row (a whole-tensor copy): no odometer
    if (begin < end) row_op(args.output, args.input + plan.in_base_bytes);
    return;
  }
  const uint32_t outer_count = plan.loop_count - 1;
  static constexpr Loop kNoLoop{};
  const Loop& line = outer_count > 0 ? plan.loops[outer_count - 1] : kNoLoop;
  Odometer rows(plan, outer_count, begin);
  for (uint64_t unit = begin; unit < end;) {
    const uint64_t n = outer_count > 0 ? std::min(end - unit, rows.RowsLeftInLoop()) : 1;
    uint8_t* out = args.output + rows.offsets().out_off;
    const uint8_t* in = args.input + rows.offsets().in_off;
    for (uint64_t k = 0; k < n; ++k) {
      row_op(out, in);
      out += line.out_stride_bytes;
      in += line.in_stride_bytes;
    }
    unit += n;
    rows.Advance(n);
  }
}

// Whole rows with borders of T-wide elements: left border, row, right border in one pass.
template <Strategy S, typename T>
void RunBorderedRows(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  const RowBorders& b = plan.borders;
  const Loop& row = plan.loops[plan.loop_count - 1];
  const uint64_t row_items = plan.partition.row_items;
  const uint64_t row_bytes = row_items * sizeof(T);
  const int64_t left_bytes = int64_t{b.left_items} * static_cast<int64_t>(sizeof(T));
  WalkWholeRows(plan, args, begin, end, [&](uint8_t* out, const uint8_t* in) {
    WriteBorderItems<T>(out - left_bytes, b, in, b.left_src_bytes, b.left_items);
    if constexpr (S == Strategy::kStridedRows) {
      plan.copy_strided(out, row.out_stride_bytes, in, row.in_stride_bytes, row_items);
    } else {
      CopySmallRun(plan, out, in, row_bytes);
    }
    WriteBorderItems<T>(out + row_bytes, b, in, b.right_src_bytes, b.right_items);
  });
}

// Whole rows (one piece each) of runs or strided rows with regular stores, no prefetch and no
// indices: the small steps (JOIN's and PADDING's rows, TILE's, fills). The row's copy (and
// border element width) is chosen once per unit range, not per row.
template <Strategy S>
void RunWholeRowsOf(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  if (plan.borders.left_items + plan.borders.right_items != 0) {
    switch (plan.elem_bytes) {
      case 1: return RunBorderedRows<S, uint8_t>(plan, args, begin, end);
      case 2: return RunBorderedRows<S, uint16_t>(plan, args, begin, end);
      case 4: return RunBorderedRows<S, uint32_t>(plan, args, begin, end);
      default: return RunBorderedRows<S, uint64_t>(plan, args, begin, end);
    }
  }
  const Loop& row = plan.loops[plan.loop_count - 1];
  const uint64_t row_items = plan.partition.row_items;
  if constexpr (S == Strategy::kStridedRows) {
    WalkWholeRows(plan, args, begin, end, [&](uint8_t* out, const uint8_t* in) {
      plan.copy_strided(out, row.out_stride_bytes, in, row.in_stride_bytes, row_items);
    });
  } else {
    const uint64_t bytes = row_items * plan.elem_bytes;
    const auto walk = [&](auto copy) { WalkWholeRows(plan, args, begin, end, copy); };
    if (bytes > 64) {
      walk([&](uint8_t* out, const uint8_t* in) { plan.copy_run(out, in, bytes); });
    } else if (bytes >= 32) {
      walk([&](uint8_t* out, const uint8_t* in) { CopyOverlapping<32>(out, in, bytes); });
    } else if (bytes >= 16) {
      walk([&](uint8_t* out, const uint8_t* in) { CopyOverlapping<16>(out, in, bytes); });
    } else {
      walk([&](uint8_t* out, const uint8_t* in) { CopySmallRun(plan, out, in, bytes); });
    }
  }
}

}  // namespace

void RunWholeRows(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  switch (plan.strategy) {
    case Strategy::kContiguousRun:
      return RunWholeRowsOf<Strategy::kContiguousRun>(plan, args, begin, end);
    case Strategy::kRowsOfRuns:
      return RunWholeRowsOf<Strategy::kRowsOfRuns>(plan, args, begin, end);
    default:
      DMLCPU_DCHECK(plan.strategy == Strategy::kStridedRows);
      return RunWholeRowsOf<Strategy::kStridedRows>(plan, args, begin, end);
  }
}

}  // namespace internal
}  // namespace dmlcpu
