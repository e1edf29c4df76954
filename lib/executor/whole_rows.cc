// SPDX-License-Identifier: Apache-2.0
// The unit engine's loops for steps of whole rows with regular stores and no prefetch (the small
// steps of JOIN, SPLIT, PADDING, TILE and fills; also streamed rows of runs), and for co-run
// groups of such steps row by row: the row's copy and border width chosen once per unit range,
// the rows of a line walked by pointer bumps. Single-threaded, allocation-free.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

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
      if (k + 1 == n) break;  // no pointer past the last row: it may lie before the buffer
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

// RunBorderedRows with each line's border rows (RowBorders::top_rows / bottom_rows) written
// just before the line's first row and just after its last, in output order.
template <Strategy S, typename T, bool kFill>
void RunFramedRows(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  const RowBorders& b = plan.borders;
  const Loop& row = plan.loops[plan.loop_count - 1];
  // Loop invariants in locals: the row's stores may alias the plan as far as the compiler knows.
  const int64_t line_out_stride_bytes = plan.loops[plan.loop_count - 2].out_stride_bytes;
  const int64_t line_in_stride_bytes = plan.loops[plan.loop_count - 2].in_stride_bytes;
  const uint64_t line_rows = static_cast<uint64_t>(plan.loops[plan.loop_count - 2].size);
  const uint64_t row_items = plan.partition.row_items;
  const uint64_t row_bytes = row_items * sizeof(T);
  const uint32_t left_items = b.left_items, right_items = b.right_items;
  const uint32_t top_rows = b.top_rows, bottom_rows = b.bottom_rows;
  const int64_t left_bytes = int64_t{left_items} * static_cast<int64_t>(sizeof(T));
  const uint64_t right_bytes = uint64_t{right_items} * sizeof(T);
  const uint64_t framed_bytes = static_cast<uint64_t>(left_bytes) + row_bytes + right_bytes;
  alignas(32) uint8_t pattern[64];  // the fill element repeated
  if constexpr (kFill) MakeFillPattern<T>(b.fill_bits, pattern);
  const auto row_op = [&](uint8_t* out, const uint8_t* in) {
    if constexpr (kFill) {
      FillFromPattern(out - left_bytes, pattern, static_cast<uint64_t>(left_bytes));
    } else {
      CopyBorderItems<T>(out - left_bytes, 0, in, 0, 1, b.left_src_bytes, left_items);
    }
    if constexpr (S == Strategy::kStridedRows) {
      plan.copy_strided(out, row.out_stride_bytes, in, row.in_stride_bytes, row_items);
    } else {
      CopySmallRun(plan, out, in, row_bytes);
    }
    if constexpr (kFill) {
      FillFromPattern(out + row_bytes, pattern, right_bytes);
    } else {
      CopyBorderItems<T>(out + row_bytes, 0, in, 0, 1, b.right_src_bytes, right_items);
    }
  };
  // Border rows: `count` rows from out on, row k from line_in + src_bytes[k].
  const auto border_rows = [&](uint8_t* out, const uint8_t* line_in, const int64_t* src_bytes,
                               uint32_t count) {
    for (uint32_t k = 0; k < count; ++k, out += line_out_stride_bytes) {
      if constexpr (kFill) {
        FillFromPattern(out - left_bytes, pattern, framed_bytes);
      } else {
        row_op(out, line_in + src_bytes[k]);
      }
    }
  };
  // Lines are walked by an odometer over the loops above them; rows by pointer bumps.
  uint64_t line_index = 0, first_row = 0;
  if (begin != 0) {
    line_index = begin / line_rows;
    first_row = begin % line_rows;
  }
  Odometer lines(plan, plan.loop_count - 2, line_index);
  for (uint64_t unit = begin; unit < end;) {
    uint8_t* out = args.output + lines.offsets().out_off;
    const uint8_t* in = args.input + lines.offsets().in_off;
    if (first_row == 0) {
      border_rows(out - int64_t{top_rows} * line_out_stride_bytes, in, b.top_src_bytes, top_rows);
    }
    const uint64_t last_row = std::min(line_rows, first_row + (end - unit));
    out += static_cast<int64_t>(first_row) * line_out_stride_bytes;
    const uint8_t* row_in = in + static_cast<int64_t>(first_row) * line_in_stride_bytes;
    for (uint64_t r = first_row; r < last_row; ++r) {
      row_op(out, row_in);
      out += line_out_stride_bytes;
      row_in += line_in_stride_bytes;
    }
    if (last_row == line_rows) border_rows(out, in, b.bottom_src_bytes, bottom_rows);
    unit += last_row - first_row;
    first_row = 0;
    if (unit < end) lines.Step();
  }
}

// Whole rows (one piece each) of runs or strided rows with regular stores, no prefetch and no
// indices: the small steps (JOIN's and PADDING's rows, TILE's, fills). The row's copy (and
// border element width) is chosen once per unit range, not per row.
template <Strategy S>
void RunWholeRowsOf(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  if (plan.borders.top_rows + plan.borders.bottom_rows != 0) {
    const auto run = [&](auto fill) {
      switch (plan.elem_bytes) {
        case 1: return RunFramedRows<S, uint8_t, fill()>(plan, args, begin, end);
        case 2: return RunFramedRows<S, uint16_t, fill()>(plan, args, begin, end);
        case 4: return RunFramedRows<S, uint32_t, fill()>(plan, args, begin, end);
        default: return RunFramedRows<S, uint64_t, fill()>(plan, args, begin, end);
      }
    };
    return plan.borders.fill ? run(std::true_type()) : run(std::false_type());
  }
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

// One member of a co-run group in RunCoRunRows: its current row's pointers and the loop
// invariants, in locals.
struct CoRunMember {
  const Plan* plan;
  const ExecArgs* args;
  uint8_t* out;
  const uint8_t* in;
  int64_t out_stride_bytes;
  int64_t in_stride_bytes;
  uint64_t row_bytes;
  uint64_t line_rows;
  kernels::CopyBytesFn copy_run;
  // The row's copy: copy_run (rows above a line, and streamed whole lines), one copy of exactly
  // 32, 16, 8 or 4 bytes, two overlapping copies of 32, 16, 8 or 4 bytes, or bytes one by one.
  // Rows of exactly one copy's size get one copy, not two identical ones (measured slower).
  enum class Copy : uint8_t {
    kRun, kMove32, kMove16, kMove8, kMove4, kMoves32, kMoves16, kMoves8, kMoves4, kBytes
  } copy;
};

CoRunMember::Copy CoRunCopyOf(uint64_t row_bytes, bool non_temporal) {
  using Copy = CoRunMember::Copy;
  if (row_bytes > 64 || (row_bytes == 64 && non_temporal)) return Copy::kRun;
  switch (row_bytes) {
    case 32: return Copy::kMove32;
    case 16: return Copy::kMove16;
    case 8: return Copy::kMove8;
    case 4: return Copy::kMove4;
    default: break;
  }
  if (row_bytes >= 32) return Copy::kMoves32;
  if (row_bytes >= 16) return Copy::kMoves16;
  if (row_bytes >= 8) return Copy::kMoves8;
  return row_bytes >= 4 ? Copy::kMoves4 : Copy::kBytes;
}

// `rows` rows of member m from its current row on, by `copy`.
template <typename CopyRow>
inline void CopyMemberRows(CoRunMember& m, uint64_t rows, const CopyRow& copy) {
  uint8_t* out = m.out;
  const uint8_t* in = m.in;
  for (uint64_t i = 0; i < rows; ++i, out += m.out_stride_bytes, in += m.in_stride_bytes) {
    copy(out, in);
  }
  m.out = out;
  m.in = in;
}

// `rows` rows of member m by one copy of kMoveBytes each (kExact) or two overlapping ones.
template <size_t kMoveBytes, bool kExact>
void MoveMemberRows(CoRunMember& m, uint64_t rows) {
  if constexpr (kExact) {
    CopyMemberRows(m, rows, [](uint8_t* o, const uint8_t* i) { std::memcpy(o, i, kMoveBytes); });
  } else {
    const uint64_t n = m.row_bytes;
    CopyMemberRows(m, rows,
                   [n](uint8_t* o, const uint8_t* i) { CopyOverlapping<kMoveBytes>(o, i, n); });
  }
}

// `rows` rows of every member, `batch` rows of each member in turn.
void CopyCoRunRows(CoRunMember* members, uint32_t count, uint64_t rows, uint64_t batch) {
  using Copy = CoRunMember::Copy;
  for (uint64_t done = 0; done < rows; done += batch) {
    const uint64_t b = std::min(batch, rows - done);
    for (uint32_t k = 0; k < count; ++k) {
      CoRunMember& m = members[k];
      const uint64_t n = m.row_bytes;
      switch (m.copy) {
        case Copy::kRun:
          CopyMemberRows(m, b, [&](uint8_t* o, const uint8_t* i) { m.copy_run(o, i, n); });
          break;
        case Copy::kMove32: MoveMemberRows<32, true>(m, b); break;
        case Copy::kMove16: MoveMemberRows<16, true>(m, b); break;
        case Copy::kMove8: MoveMemberRows<8, true>(m, b); break;
        case Copy::kMove4: MoveMemberRows<4, true>(m, b); break;
        case Copy::kMoves32: MoveMemberRows<32, false>(m, b); break;
        case Copy::kMoves16: MoveMemberRows<16, false>(m, b); break;
        case Copy::kMoves8: MoveMemberRows<8, false>(m, b); break;
        case Copy::kMoves4: MoveMemberRows<4, false>(m, b); break;
        case Copy::kBytes:
          CopyMemberRows(m, b, [n](uint8_t* o, const uint8_t* i) {
            for (uint64_t j = 0; j < n; ++j) o[j] = i[j];
          });
          break;
      }
    }
  }
}

}  // namespace

void RunCoRunRows(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  CoRunMember members[kMaxCoRunSteps];
  uint32_t count = 0;
  const auto add = [&](const Plan* p, const ExecArgs* a) {
    DMLCPU_DCHECK(count < kMaxCoRunSteps && CoRunsByRow(*p));
    const Loop& line = p->loops[p->loop_count - 2];
    const uint64_t row_bytes = p->partition.row_items * p->elem_bytes;
    members[count++] = {p,
                        a,
                        nullptr,
                        nullptr,
                        line.out_stride_bytes,
                        line.in_stride_bytes,
                        row_bytes,
                        static_cast<uint64_t>(line.size),
                        p->copy_run,
                        CoRunCopyOf(row_bytes, p->store.non_temporal)};
  };
  add(&plan, &args);
  for (const CoRunStep* next = args.co_run; next != nullptr; next = next->args.co_run) {
    add(next->plan, &next->args);
  }
  // Rows under Tuning::kCoRunRowByRowBytes go Tuning::kCoRunBatchBytes of each member at a time.
  uint64_t min_row_bytes = members[0].row_bytes;
  for (uint32_t k = 1; k < count; ++k) {
    min_row_bytes = std::min(min_row_bytes, members[k].row_bytes);
  }
  const uint64_t batch = min_row_bytes < Tuning::kCoRunRowByRowBytes
                             ? std::max<uint64_t>(1, Tuning::kCoRunBatchBytes / min_row_bytes)
                             : 1;
  for (uint64_t unit = begin; unit < end;) {
    // Up to the end of the shortest line left among the members: pointer bumps until then.
    uint64_t n = end - unit;
    for (uint32_t k = 0; k < count; ++k) {
      CoRunMember& m = members[k];
      const RowOffsets r = LocateRow(*m.plan, m.plan->loop_count - 1, unit);
      m.out = m.args->output + r.out_off;
      m.in = m.args->input + r.in_off;
      n = std::min(n, m.line_rows - unit % m.line_rows);
    }
    CopyCoRunRows(members, count, n, batch);
    unit += n;
  }
}

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
