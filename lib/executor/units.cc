// SPDX-License-Identifier: Apache-2.0
// The unit engine: runs units [begin, end) of one step's plan on the calling thread, switching
// once on the plan's strategy. Single-threaded and allocation-free; the splitters
// (tbb_executor.cc, serial_executor.cc) call it per task.
#if defined(_WIN32)
// winnt.h defines StoreFence as a macro (_mm_sfence), which would rename kernels::StoreFence:
// include it first (anything including it later finds its include guard) and drop the macro.
#include <windows.h>
#undef StoreFence
#endif

#include <algorithm>
#include <cstdint>

#include "core/check.h"
#include "core/portability.h"
#include "core/tuning.h"
#include "executor/executor.h"
#include "executor/odometer.h"
#include "executor/row_ops.h"
#include "executor/scratch_pool.h"
#include "executor/stream_prefetch.h"

namespace dmlcpu {
namespace internal {
namespace {

// Processes `count` items of one row starting at the given byte offsets, as strategy S
// does it (pf: null, or the input-stream prefetcher, never for element rows; next_row_in:
// element rows only, the input span of the next row to prefetch while gathering this one, or
// null).
template <Strategy S, typename Pf>
inline void ProcessRow(const Plan& plan, const ExecArgs& args, int64_t out_off, int64_t in_off,
                       int64_t idx_off, uint64_t count, Pf* pf, const uint8_t* next_row_in) {
  const Loop& row = plan.loops[plan.loop_count - 1];
  uint8_t* out = args.output + out_off;
  if constexpr (S == Strategy::kContiguousRun || S == Strategy::kRowsOfRuns) {
    CopyRun(plan, out, args.input + in_off, count * plan.elem_bytes, pf);
  } else if constexpr (S == Strategy::kStridedRows) {
    CopyStridedRow(plan, out, row.out_stride_bytes, args.input + in_off, row.in_stride_bytes,
                   count, pf);
  } else if constexpr (S == Strategy::kBlockRows) {
    const uint8_t* in = args.input + in_off + ResolveTuple(plan, args.indices + idx_off);
    if (row.out_stride_bytes == plan.elem_bytes && row.in_stride_bytes == plan.elem_bytes) {
      CopyRun(plan, out, in, count * plan.elem_bytes, pf);
    } else {
      CopyStridedRow(plan, out, row.out_stride_bytes, in, row.in_stride_bytes, count, pf);
    }
  } else if constexpr (S == Strategy::kFusedRowGather) {  // one pass; the kernel prefetches
    const IndexComponent& comp = plan.components[0];
    kernels::RowPrefetch prefetch;
    prefetch.next = next_row_in;
    prefetch.next_bytes = next_row_in != nullptr ? plan.prefetch.next_row_span_bytes : 0;
    prefetch.indices_ahead = plan.prefetch.index_stream;
    plan.gather_row(out, 0, args.input + in_off, 0, args.indices + idx_off + comp.idx_offset_bytes,
                    0, 1, count, comp.dim_size, comp.pitch_bytes, &prefetch);
  } else {
    static_assert(S == Strategy::kElementRows, "a strategy of the row loop");
    const uint8_t* in = args.input + in_off;
    const uint8_t* idx = args.indices + idx_off;
    int64_t offsets_bytes[Tuning::kChunkItems];
    SpreadPrefetch spread(next_row_in, plan.prefetch.next_row_span_bytes, count);
    SpreadPrefetch* spread_ptr = next_row_in != nullptr ? &spread : nullptr;
    for (uint64_t done = 0; done < count;) {
      const uint64_t n = std::min(Tuning::kChunkItems, count - done);
      if (plan.prefetch.index_stream) {  // two chunks ahead (past the tensor: never faults)
        const uint64_t chunk_bytes = n * static_cast<uint64_t>(row.idx_stride_bytes);
        const uintptr_t ahead = reinterpret_cast<uintptr_t>(idx) + 2 * chunk_bytes;
        for (uint64_t off = 0; off < chunk_bytes; off += 64) {
          PrefetchRead(reinterpret_cast<const void*>(ahead + off));
        }
      }
      ResolveChunk(plan, idx, row.idx_stride_bytes, n, offsets_bytes);
      GatherChunk(plan, out, row.out_stride_bytes, in, row.in_stride_bytes, offsets_bytes, n,
                  spread_ptr, done);
      done += n;
      if (done < count) {
        out += static_cast<int64_t>(n) * row.out_stride_bytes;
        in += static_cast<int64_t>(n) * row.in_stride_bytes;
        idx += static_cast<int64_t>(n) * row.idx_stride_bytes;
      }
    }
    spread.Upto(count);
  }
}

// The input spans of RunRows' units [begin, end), in order (plan.prefetch.input_stream).
class RowSpans {
 public:
  RowSpans(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end)
      : plan_(plan),
        args_(args),
        rows_(plan, plan.loop_count - 1, begin / plan.partition.pieces_per_row),
        piece_(begin % plan.partition.pieces_per_row),
        unit_(begin),
        end_(end) {}

  bool Next(InputSpan* span) {
    if (unit_ >= end_) return false;
    const Partition& p = plan_.partition;
    const Loop& row = plan_.loops[plan_.loop_count - 1];
    const uint64_t first = piece_ * p.piece_items;
    const uint64_t count = std::min(p.piece_items, p.row_items - first);
    const uint8_t* in = args_.input + rows_.offsets().in_off +
                        static_cast<int64_t>(first) * row.in_stride_bytes;
    if (plan_.shape == KernelShape::kBlockGather) {  // one tuple per row
      in += ResolveTuple(plan_, args_.indices + rows_.offsets().idx_off);
    }
    *span = RowSpan(in, row.in_stride_bytes, count, plan_.elem_bytes);
    ++unit_;
    if (++piece_ == p.pieces_per_row) {
      piece_ = 0;
      rows_.Step();
    }
    return true;
  }

 private:
  const Plan& plan_;
  const ExecArgs& args_;
  Odometer rows_;
  uint64_t piece_;
  uint64_t unit_;
  const uint64_t end_;
};

// The input blocks of RunIndexedBlocks' units [begin, end), in order: indices resolved ahead of
// the copy in chunks of their own (plan.prefetch.input_stream).
class BlockSpans {
 public:
  BlockSpans(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end)
      : plan_(plan), args_(args), unit_(begin), end_(end) {}

  bool Next(InputSpan* span) {
    if (used_ == resolved_ && !Refill()) return false;
    span->first = reinterpret_cast<uintptr_t>(in_ + offsets_bytes_[used_++]);
    span->bytes = static_cast<uint64_t>(plan_.loops[plan_.loop_count - 1].size) * plan_.elem_bytes;
    span->descending = false;
    return true;
  }

 private:
  static constexpr uint64_t kSpanChunkItems = 64;

  bool Refill() {
    if (unit_ >= end_) return false;
    const uint32_t line_loop = plan_.loop_count - 2;
    const Loop& walk = plan_.loops[line_loop];
    const uint64_t line_items = static_cast<uint64_t>(walk.size);
    const uint64_t pos = unit_ % line_items;
    const uint64_t n = std::min({kSpanChunkItems, end_ - unit_, line_items - pos});
    const RowOffsets r = LocateRow(plan_, line_loop, unit_ / line_items);
    in_ = args_.input + r.in_off;
    const uint8_t* idx =
        args_.indices + r.idx_off + static_cast<int64_t>(pos) * walk.idx_stride_bytes;
    ResolveChunk(plan_, idx, walk.idx_stride_bytes, n, offsets_bytes_);
    resolved_ = n;
    used_ = 0;
    unit_ += n;
    return true;
  }

  const Plan& plan_;
  const ExecArgs& args_;
  uint64_t unit_;
  const uint64_t end_;
  const uint8_t* in_ = nullptr;
  uint64_t resolved_ = 0, used_ = 0;
  int64_t offsets_bytes_[kSpanChunkItems];
};

// Strategy::kIndexedBlocks: units are blocks; loops[L-2] walks the indices. Per segment of
// consecutive units on one line of loops[L-2], indices are resolved in chunks and the blocks
// copied with run merging. With an input-stream prefetch the prefetcher is advanced before each
// group of blocks of at most Tuning::kBlockGroupBytes (blocks up to half of it), or before each
// Tuning::kRunStepBytes step of a larger block; those are copied one by one (merging adjacent
// blocks gains little there).
template <typename Pf>
void RunIndexedBlocksWith(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end,
                          Pf* pf) {
  const uint32_t line_loop = plan.loop_count - 2;
  const Loop& walk = plan.loops[line_loop];
  const uint64_t line_items = static_cast<uint64_t>(walk.size);
  const size_t block_bytes =
      static_cast<size_t>(plan.loops[plan.loop_count - 1].size) * plan.elem_bytes;
  const uint64_t group =
      block_bytes >= Tuning::kBlockGroupBytes ? 1 : Tuning::kBlockGroupBytes / block_bytes;
  int64_t offsets_bytes[Tuning::kChunkItems];
  for (uint64_t unit = begin; unit < end;) {
    const uint64_t line = unit / line_items;
    const uint64_t pos = unit % line_items;
    const uint64_t segment = std::min(end - unit, line_items - pos);
    const RowOffsets r = LocateRow(plan, line_loop, line);
    const int64_t first = static_cast<int64_t>(pos);
    uint8_t* out = args.output + r.out_off + first * walk.out_stride_bytes;
    const uint8_t* idx = args.indices + r.idx_off + first * walk.idx_stride_bytes;
    const uint8_t* in = args.input + r.in_off;
    for (uint64_t done = 0; done < segment;) {
      const uint64_t n = std::min(Tuning::kChunkItems, segment - done);
      ResolveChunk(plan, idx, walk.idx_stride_bytes, n, offsets_bytes);
      if (pf == nullptr) {
        plan.gather_blocks(out, walk.out_stride_bytes, in, offsets_bytes, n, block_bytes,
                           plan.copy_run, plan.merge_runs, /*prefetch_blocks=*/true);
      } else if (group == 1) {
        for (uint64_t i = 0; i < n; ++i) {
          CopyRun(plan, out + static_cast<int64_t>(i) * walk.out_stride_bytes,
                  in + offsets_bytes[i], block_bytes, pf);
        }
      } else {
        for (uint64_t g = 0; g < n; g += group) {
          const uint64_t k = std::min(group, n - g);
          pf->Advance(k * block_bytes);
          plan.gather_blocks(out + static_cast<int64_t>(g) * walk.out_stride_bytes,
                             walk.out_stride_bytes, in, offsets_bytes + g, k, block_bytes,
                             plan.copy_run, plan.merge_runs, /*prefetch_blocks=*/false);
        }
      }
      done += n;
      if (done < segment) {
        out += static_cast<int64_t>(n) * walk.out_stride_bytes;
        idx += static_cast<int64_t>(n) * walk.idx_stride_bytes;
      }
    }
    unit += segment;
  }
}

// Calls run(pf) with the stream prefetcher over Source(begin, end), or with a null one (of the
// same type) when the plan has no input-stream prefetch: then nothing is set up at all.
template <typename Source, typename Run>
void WithStreamPrefetch(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end,
                        const Run& run) {
  using Prefetcher = StreamPrefetcher<Source>;
  if (!plan.prefetch.input_stream) {
    run(static_cast<Prefetcher*>(nullptr));
    return;
  }
  Source spans(plan, args, begin, end);
  Prefetcher prefetcher(&spans);
  run(&prefetcher);
}

void RunIndexedBlocks(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  WithStreamPrefetch<BlockSpans>(plan, args, begin, end, [&](auto* pf) {
    RunIndexedBlocksWith(plan, args, begin, end, pf);
  });
}

// Strategy::kSharedIndexRows, every row reading the same indices: the row's indices are
// resolved once (all of them, or chunk by chunk for long rows) and reused for every row of the
// unit range, prefetching the input span of a row ahead (the next, or for short rows the one
// after it) while gathering the current one.
void RunSharedIndexRows(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  const uint32_t outer_count = plan.loop_count - 1;
  const Loop& row = plan.loops[outer_count];
  const uint64_t row_items = static_cast<uint64_t>(row.size);
  const uint64_t chunk_items =
      row_items <= Tuning::kMaxSharedItems ? row_items : Tuning::kChunkItems;
  // Two rows ahead only along a loop of rows the same stride apart (a wrap of the odometer in
  // between would make that a wasted prefetch only: addresses, never dereferenced).
  const uint64_t span_bytes = plan.prefetch.next_row_span_bytes;
  const uint64_t rows_ahead =
      span_bytes != 0 && span_bytes < Tuning::kShortRowPrefetchBytes ? 2 : 1;
  const int64_t outer_in_stride_bytes =
      outer_count > 0 ? plan.loops[outer_count - 1].in_stride_bytes : 0;
  int64_t offsets_bytes[Tuning::kMaxSharedItems];
  for (uint64_t done = 0; done < row_items;) {
    const uint64_t n = std::min(chunk_items, row_items - done);
    const int64_t first = static_cast<int64_t>(done);
    for (uint64_t k = 0; k < n; k += Tuning::kChunkItems) {
      ResolveChunk(plan, args.indices + (first + static_cast<int64_t>(k)) * row.idx_stride_bytes,
                   row.idx_stride_bytes, std::min(Tuning::kChunkItems, n - k), offsets_bytes + k);
    }
    Odometer rows(plan, outer_count, begin);
    for (uint64_t unit = begin; unit < end; ++unit) {
      uint8_t* out = args.output + rows.offsets().out_off + first * row.out_stride_bytes;
      const uint8_t* in = args.input + rows.offsets().in_off + first * row.in_stride_bytes;
      rows.Step();
      const uintptr_t next_row =
          reinterpret_cast<uintptr_t>(args.input) + static_cast<uintptr_t>(rows.offsets().in_off);
      if (rows_ahead == 2 && unit == begin && unit + 1 < end) {
        // Nothing before this range prefetched its second row: all of it now.
        SpreadPrefetch(reinterpret_cast<const void*>(next_row), span_bytes, 1).Upto(1);
      }
      const bool prefetch_ahead = plan.prefetch.next_row_span_bytes != 0 && unit + rows_ahead < end;
      const uintptr_t ahead_row =
          next_row + static_cast<uintptr_t>(static_cast<int64_t>(rows_ahead - 1) *
                                            outer_in_stride_bytes);
      SpreadPrefetch spread(prefetch_ahead ? reinterpret_cast<const void*>(ahead_row) : nullptr,
                            plan.prefetch.next_row_span_bytes, n);
      for (uint64_t k = 0; k < n; k += Tuning::kChunkItems) {
        const int64_t kk = static_cast<int64_t>(k);
        GatherChunk(plan, out + kk * row.out_stride_bytes, row.out_stride_bytes,
                    in + kk * row.in_stride_bytes, row.in_stride_bytes, offsets_bytes + k,
                    std::min(Tuning::kChunkItems, n - k), prefetch_ahead ? &spread : nullptr, k);
      }
      spread.Upto(n);
    }
    done += n;
  }
}

// Transposed copies: each unit is one 2-D tile made of the last two loops, walked by an
// odometer over the loops above them (no divisions per tile).
void RunTransposeTiles(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  const uint32_t outer_count = plan.loop_count - 2;
  const Loop& dst_rows = plan.loops[outer_count];
  const Loop& dst_cols = plan.loops[outer_count + 1];
  Odometer tiles(plan, outer_count, begin);
  for (uint64_t unit = begin; unit < end; ++unit) {
    const RowOffsets& r = tiles.offsets();
    plan.transpose_tile(args.output + r.out_off, dst_rows.out_stride_bytes, args.input + r.in_off,
                        dst_cols.in_stride_bytes, static_cast<size_t>(dst_rows.size),
                        static_cast<size_t>(dst_cols.size));
    tiles.Step();
  }
}

// plan.prefetch.next_row_items: resolves the row at `ahead` (whole rows per unit) and prefetches
// the line of each of its items into L2 (locality 1: into L1 they gained nothing).
inline void PrefetchRowItems(const Plan& plan, const ExecArgs& args, const RowOffsets& ahead) {
  const Loop& row = plan.loops[plan.loop_count - 1];
  const auto n = static_cast<uint64_t>(row.size);
  int64_t offsets_bytes[Tuning::kMaxItemPrefetchRowItems];
  ResolveChunk(plan, args.indices + ahead.idx_off, row.idx_stride_bytes, n, offsets_bytes);
  const uint8_t* in = args.input + ahead.in_off;
  for (uint64_t i = 0; i < n; ++i) {
    const int64_t item_off_bytes = static_cast<int64_t>(i) * row.in_stride_bytes;
    PrefetchRead<1>(in + item_off_bytes + offsets_bytes[i]);
  }
}

// The general case: an odometer over the outer loops, one kernel call per unit (row piece).
// pf: null, or the prefetcher over RowSpans(begin, end).
template <Strategy S, typename Pf>
void RunRowsWith(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end, Pf* pf) {
  const Partition& p = plan.partition;
  const uint32_t outer_count = plan.loop_count - 1;
  const Loop& row = plan.loops[outer_count];

  Odometer rows(plan, outer_count, begin / p.pieces_per_row);
  uint64_t piece = begin % p.pieces_per_row;
  // With a next-row item prefetch (whole rows per unit), the row after the current one; else an
  // odometer over no loops, which costs nothing to set up (unlike a copy of `rows`).
  const bool prefetch_items = plan.prefetch.next_row_items && begin + 1 < end;
  Odometer ahead(plan, prefetch_items ? outer_count : 0, prefetch_items ? begin + 1 : 0);
  const bool borders = plan.borders.left_items + plan.borders.right_items != 0;

  for (uint64_t unit = begin; unit < end; ++unit) {
    if (prefetch_items && unit + 1 < end) {
      PrefetchRowItems(plan, args, ahead.offsets());
      ahead.Step();
    }
    const uint64_t first = piece * p.piece_items;
    const uint64_t count = std::min(p.piece_items, p.row_items - first);
    const int64_t first_items = static_cast<int64_t>(first);
    const RowOffsets& r = rows.offsets();
    // K4: the next row's span (unless the odometer wraps), prefetched while this one is
    // gathered: its random reads are then on their way.
    // An address only (past the input where the odometer wraps: a wasted prefetch, no access).
    const uint8_t* next_row_in =
        plan.prefetch.next_row_span_bytes != 0 && outer_count > 0 && unit + 1 < end
            ? reinterpret_cast<const uint8_t*>(
                  reinterpret_cast<uintptr_t>(args.input) +
                  static_cast<uintptr_t>(r.in_off + plan.loops[outer_count - 1].in_stride_bytes))
            : nullptr;
    if (borders && first == 0) {
      WriteRowBorder(plan, args.output + r.out_off, args.input + r.in_off, p.row_items, true);
    }
    ProcessRow<S>(plan, args, r.out_off + first_items * row.out_stride_bytes,
               r.in_off + first_items * row.in_stride_bytes,
               r.idx_off + first_items * row.idx_stride_bytes, count, pf, next_row_in);
    if (borders && first + count == p.row_items) {
      WriteRowBorder(plan, args.output + r.out_off, args.input + r.in_off, p.row_items, false);
    }
    if (++piece < p.pieces_per_row) continue;
    piece = 0;
    rows.Step();
  }
}

template <Strategy S>
void RunRows(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  // Streamed rows of runs without prefetch or borders: the whole-row loop too (copy_run
  // streams each run; RunUnits fences). For runs of a few lines (attention heads' 256-byte
  // rows) RunRowsWith's per-row work cost as much as the copy.
  if constexpr (S == Strategy::kRowsOfRuns) {
    if (!plan.prefetch.input_stream && plan.partition.pieces_per_row == 1 &&
        plan.borders.left_items + plan.borders.right_items == 0) {
      if (plan.tiling == Tiling::kRunTiles && plan.loop_count >= 3 &&
          plan.partition.row_items * plan.elem_bytes > 64) {
        RunStreamGroupRows(plan, args, begin, end);
        return;
      }
      RunWholeRows(plan, args, begin, end);
      return;
    }
  }
  WithStreamPrefetch<RowSpans>(plan, args, begin, end, [&](auto* pf) {
    RunRowsWith<S>(plan, args, begin, end, pf);
  });
}

// RunUnits of one step, without the fence.
void RunStepUnits(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  if (begin >= end) return;
  DMLCPU_DCHECK(end <= plan.partition.unit_count);
  // Compile sized the pool's slots for this plan (CheckPlanInvariants holds the other rules).
  DMLCPU_DCHECK(plan.pack_bytes == 0 || args.scratch == nullptr ||
                args.scratch->slot_bytes() >= plan.pack_bytes);
  if (plan.store.staged_lines) {
    RunStagedRows(plan, args, begin, end);
    return;
  }
  if (RunsWholeRows(plan)) {
    RunWholeRows(plan, args, begin, end);
    return;
  }
  switch (plan.strategy) {
    case Strategy::kContiguousRun:
      RunRows<Strategy::kContiguousRun>(plan, args, begin, end);
      break;
    case Strategy::kRowsOfRuns:
      RunRows<Strategy::kRowsOfRuns>(plan, args, begin, end);
      break;
    case Strategy::kStridedRows:
      RunRows<Strategy::kStridedRows>(plan, args, begin, end);
      break;
    case Strategy::kTransposeTiles:
      RunTransposeTiles(plan, args, begin, end);
      break;
    case Strategy::kBlockRows:
      RunRows<Strategy::kBlockRows>(plan, args, begin, end);
      break;
    case Strategy::kIndexedBlocks:
      RunIndexedBlocks(plan, args, begin, end);
      break;
    case Strategy::kElementRows:
      RunRows<Strategy::kElementRows>(plan, args, begin, end);
      break;
    case Strategy::kFusedRowGather:
      RunRows<Strategy::kFusedRowGather>(plan, args, begin, end);
      break;
    case Strategy::kSharedIndexRows:
      RunSharedIndexRows(plan, args, begin, end);
      break;
    case Strategy::kPackedStrips: {
      // Without a free scratch slot the strips are gathered straight from the input.
      uint8_t* const slot = args.scratch != nullptr ? args.scratch->Acquire() : nullptr;
      if (slot != nullptr) {
        RunPackedStrips(plan, args, begin, end, slot);
        args.scratch->Release(slot);
      } else {
        RunRows<Strategy::kElementRows>(plan, args, begin, end);
      }
      break;
    }
  }
}

}  // namespace

void RunUnits(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  // Whether a step's stores leave unfenced non-temporal writes behind.
  const auto streams = [](const Plan& p) { return p.store.non_temporal || p.store.staged_lines; };
  bool streamed = streams(plan);
  if (args.co_run == nullptr) {
    RunStepUnits(plan, args, begin, end);
  } else {
    // A co-run group (all steps have the same unit count): row by row where the planner said so
    // (Plan::co_run_by_row), else one grain of each step in turn, so that their reads and
    // writes advance together.
    for (const CoRunStep* next = args.co_run; next != nullptr; next = next->args.co_run) {
      streamed = streamed || streams(*next->plan);
    }
    if (plan.co_run_by_row) {
      RunCoRunRows(plan, args, begin, end);
    } else {
      const uint64_t chunk_units = std::max<uint64_t>(1, plan.partition.grain_units);
      for (uint64_t first = begin; first < end; first += chunk_units) {
        const uint64_t last = std::min(end, first + chunk_units);
        RunStepUnits(plan, args, first, last);
        for (const CoRunStep* next = args.co_run; next != nullptr; next = next->args.co_run) {
          RunStepUnits(*next->plan, next->args, first, last);
        }
      }
    }
  }
  // Streamed rows skip their own fences: one per unit range, before the task completes.
  if (streamed) kernels::StoreFence();
}

}  // namespace internal
}  // namespace dmlcpu
