// SPDX-License-Identifier: Apache-2.0
// The unit engine's loop for steps with staged lines (StorePolicy::staged_lines): PADDING's rows
// with their borders (filled or copied from the row), and each line's border rows, written in
// output order into a LineStager, whose whole lines leave with non-temporal stores.
// Single-threaded, allocation-free.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/check.h"
#include "core/portability.h"
#include "executor/executor.h"
#include "executor/line_stager.h"
#include "executor/odometer.h"
#include "executor/row_ops.h"

namespace dmlcpu {
namespace internal {
namespace {

// The rows of each line are adjacent in the output (CanStageLines), so a line, with its border
// rows, is one stretch of the stager; lines continue one stretch where they are adjacent too.
template <Strategy S, typename T, bool kFill>
void RunStagedRowsOf(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  const RowBorders& b = plan.borders;
  const Loop& row = plan.loops[plan.loop_count - 1];
  const Loop& line = plan.loops[plan.loop_count - 2];
  const int64_t line_in_stride_bytes = line.in_stride_bytes;
  const uint64_t line_rows = static_cast<uint64_t>(line.size);
  const uint64_t row_items = plan.partition.row_items;
  const uint64_t row_bytes = row_items * sizeof(T);
  const uint32_t left_items = b.left_items, right_items = b.right_items;
  const uint32_t top_rows = b.top_rows, bottom_rows = b.bottom_rows;
  const uint64_t left_bytes = uint64_t{left_items} * sizeof(T);
  const uint64_t right_bytes = uint64_t{right_items} * sizeof(T);
  const uint64_t framed_bytes = left_bytes + row_bytes + right_bytes;
  DMLCPU_DCHECK(line.out_stride_bytes == static_cast<int64_t>(framed_bytes) &&
                framed_bytes <= LineStager::kMaxPieceBytes);
  DMLCPU_DCHECK(b.fill == kFill);
  // The fill element repeated; with copied borders, what frame_rows puts there first.
  alignas(32) uint8_t pattern[64] = {};
  if constexpr (kFill) MakeFillPattern<T>(b.fill_bits, pattern);
  constexpr bool kContiguous = S != Strategy::kStridedRows;
  const uint64_t ahead_bytes = Tuning::kStagedPrefetchBytes;
  // Contiguous source rows, forward and without wide gaps (the gaps' lines would be fetched
  // too), are prefetched ahead_bytes ahead along each line.
  const bool prefetch = kContiguous && line_in_stride_bytes > 0 &&
                        static_cast<uint64_t>(line_in_stride_bytes) <= row_bytes + 64;
  // `n` framed rows at `at`, row k's interior from src + k * src_stride_bytes. Filled borders
  // are written before the interiors (their moves may spill into them), copied ones after.
  const kernels::FrameRowsFn frame_rows = plan.kernel_set->frame_rows;
  const auto frame = [&](uint8_t* at, const uint8_t* src, int64_t src_stride_bytes,
                         uint64_t n) {
    if constexpr (kContiguous) {
      frame_rows(at, src, src_stride_bytes, n, row_bytes, left_bytes, right_bytes, pattern);
    } else {
      for (uint64_t k = 0; k < n; ++k) {
        uint8_t* to = at + k * framed_bytes;
        if constexpr (kFill) {
          FillFromPattern(to, pattern, left_bytes);
          FillFromPattern(to + left_bytes + row_bytes, pattern, right_bytes);
        }
        plan.copy_strided(to + left_bytes, static_cast<int64_t>(sizeof(T)),
                          src + static_cast<int64_t>(k) * src_stride_bytes, row.in_stride_bytes,
                          row_items);
      }
    }
    if constexpr (!kFill) {
      CopyBorderItems<T>(at, framed_bytes, src, src_stride_bytes, n, b.left_src_bytes,
                         left_items);
      CopyBorderItems<T>(at + left_bytes + row_bytes, framed_bytes, src, src_stride_bytes, n,
                         b.right_src_bytes, right_items);
    }
  };
  LineStager stager(plan.kernel_set->copy_bytes_stream_unfenced);
  uint8_t* to = nullptr;
  // `count` border rows of the line whose first source row is line_in: filled, or row k a copy
  // of the source row at line_in + src_bytes[k].
  const auto border_rows = [&](const uint8_t* line_in, const int64_t* src_bytes,
                               uint32_t count) {
    for (uint32_t k = 0; k < count; ++k) {
      if constexpr (kFill) {
        FillFromPattern(to, pattern, framed_bytes);
      } else {
        frame(to, line_in + src_bytes[k], 0, 1);
      }
      to = stager.Commit(to + framed_bytes);
    }
  };
  uint64_t first_row = begin % line_rows;
  Odometer lines(plan, plan.loop_count - 2, begin / line_rows);
  for (uint64_t unit = begin; unit < end;) {
    // The line's first row's piece in the output, then the rows before it in this range.
    uint8_t* line_out = args.output + lines.offsets().out_off - left_bytes;
    const uint8_t* in = args.input + lines.offsets().in_off;
    const uint64_t last_row = std::min(line_rows, first_row + (end - unit));
    const uint8_t* row_in = in + static_cast<int64_t>(first_row) * line_in_stride_bytes;
    // Prefetched up to here (the lines of the rows ahead, within this line and range).
    uintptr_t prefetched = reinterpret_cast<uintptr_t>(row_in) & ~uintptr_t{63};
    const uintptr_t range_in_end =
        reinterpret_cast<uintptr_t>(row_in) +
        static_cast<uint64_t>(static_cast<int64_t>(last_row - first_row - 1) *
                              line_in_stride_bytes) + row_bytes;
    const auto prefetch_upto = [&](uintptr_t target) {
      target = std::min(target, range_in_end);
      for (; prefetched < target; prefetched += 64) {
        PrefetchRead(reinterpret_cast<const void*>(prefetched));
      }
    };
    if (prefetch) prefetch_upto(reinterpret_cast<uintptr_t>(row_in) + ahead_bytes);
    if (first_row == 0) {
      to = stager.Seek(line_out - uint64_t{top_rows} * framed_bytes, to);
      border_rows(in, b.top_src_bytes, top_rows);
    } else {
      to = stager.Seek(line_out + first_row * framed_bytes, to);
    }
    for (uint64_t r = first_row; r < last_row;) {
      const uint64_t n = std::min({last_row - r, stager.Room(to) / framed_bytes,
                                 Tuning::kStagedBatchRows});
      const int64_t n_in_bytes = static_cast<int64_t>(n) * line_in_stride_bytes;
      if (prefetch) prefetch_upto(reinterpret_cast<uintptr_t>(row_in + n_in_bytes) + ahead_bytes);
      frame(to, row_in, line_in_stride_bytes, n);
      to = stager.Commit(to + n * framed_bytes);
      row_in += n_in_bytes;
      r += n;
    }
    if (last_row == line_rows) border_rows(in, b.bottom_src_bytes, bottom_rows);
    unit += last_row - first_row;
    first_row = 0;
    if (unit < end) lines.Step();
  }
  if (to != nullptr) stager.Finish(to);
}

template <Strategy S, bool kFill>
void RunStagedRowsWith(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  switch (plan.elem_bytes) {
    case 1: return RunStagedRowsOf<S, uint8_t, kFill>(plan, args, begin, end);
    case 2: return RunStagedRowsOf<S, uint16_t, kFill>(plan, args, begin, end);
    case 4: return RunStagedRowsOf<S, uint32_t, kFill>(plan, args, begin, end);
    default: return RunStagedRowsOf<S, uint64_t, kFill>(plan, args, begin, end);
  }
}

template <Strategy S>
void RunStagedRowsOfStrategy(const Plan& plan, const ExecArgs& args, uint64_t begin,
                             uint64_t end) {
  if (plan.borders.fill) return RunStagedRowsWith<S, true>(plan, args, begin, end);
  return RunStagedRowsWith<S, false>(plan, args, begin, end);
}

}  // namespace

void RunStagedRows(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  if (plan.strategy == Strategy::kStridedRows) {
    return RunStagedRowsOfStrategy<Strategy::kStridedRows>(plan, args, begin, end);
  }
  return RunStagedRowsOfStrategy<Strategy::kRowsOfRuns>(plan, args, begin, end);
}

}  // namespace internal
}  // namespace dmlcpu
