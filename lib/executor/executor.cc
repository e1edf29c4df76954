#include "executor/executor.h"
#include "executor/scratch_pool.h"

#include "core/check.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>

namespace dmlcpu {
namespace internal {
namespace {

// Indices resolved per kernel call of an element gather: 256 offsets = 2 KiB, stays in L1.
constexpr uint64_t kChunkItems = 256;
// Staging buffer for rows written with non-temporal stores: holds a chunk of 8-byte elements.
constexpr uint64_t kStageBytes = kChunkItems * 8;

// A later row's input span (plan.row_prefetch_bytes: the next row's, or for short rows sharing
// indices the one after it) is prefetched a slice at a time while a row is gathered
// (kernels::SpreadPrefetch), not in one burst at the start of the row (GATHER_ELEMENTS along
// the last axis of {4096,4096} fp32, 1 thread, cold: 0.135 -> 0.150 of the best copy).
using kernels::SpreadPrefetch;

// Items gathered between two slices of SpreadPrefetch.
constexpr uint64_t kSpreadStepItems = 64;

// ---- Software prefetch along the input stream (plan.stream_prefetch) ----
//
// The hardware prefetchers follow a forward stream inside a page, but lose it wherever the reads
// jump: rows read in descending order, descending reads inside a row, the next row of a strided
// read, randomly placed blocks of a gather. Each jump then starts with a full DRAM latency. The
// executor instead knows the whole sequence of input spans it is going to read, and keeps
// software prefetches a fixed distance ahead along it.
//
// Distance and steps were measured on the development machine (cold cache, non-temporal
// stores). Distance: 4096 rows of 16 KiB read in descending row order, 1 thread: 8 KiB ahead ran
// at 1.04x a forward non-temporal copy of the same bytes; no prefetch 0.62x; 16 KiB ahead 0.93x.
// Steps: prefetches issued in short bursts keep the fill buffers evenly busy; long bursts stall
// the copy behind them, very short steps cost more in calls than they gain (ratio to the best
// copy, 1 thread, median of 3-4 runs):
//  - contiguous runs: {4096,4096} fp32 flipped on the first axis 0.85 (1 KiB steps) -> 0.93
//    (256 B); 2048 random 8 KiB embedding rows 0.65 -> 0.83; 10000 random 2 KiB GATHER_ND
//    blocks 0.65 -> 0.80 (repeated calls, their input then in the cache, 81 -> 65 GB/s: more
//    calls per byte); 128 B and 64 B steps lose (VerticalFlip 0.86 and 0.49).
//  - strided rows (staged): {4096,4096} fp32 flipped on the last axis 0.87 (1 KiB of input per
//    step) -> 0.93 (512 B); 256 B 0.83, 2 KiB 0.78.
constexpr uint64_t kPrefetchAheadBytes = 8 << 10;
constexpr uint64_t kRunStepBytes = 256;
constexpr uint64_t kStridedStepBytes = 512;
// Blocks below kBlockGroupBytes are copied (and prefetched for) in groups of about that size.
constexpr uint64_t kBlockGroupBytes = 1 << 10;

// A piece of input the reader will touch, in reading order: `bytes` bytes upwards from address
// `first`, or (descending) downwards from `first`, then its highest byte.
struct InputSpan {
  uintptr_t first = 0;
  uint64_t bytes = 0;
  bool descending = false;
};

// The span of `count` elements read from `in` with a stride of at most a cache line.
inline InputSpan RowSpan(const uint8_t* in, int64_t in_stride_bytes, uint64_t count,
                         uint32_t elem_bytes) {
  const uint64_t abs_stride_bytes = static_cast<uint64_t>(
      in_stride_bytes < 0 ? -in_stride_bytes : in_stride_bytes);
  InputSpan span;
  span.first = reinterpret_cast<uintptr_t>(in);
  span.bytes = (count - 1) * abs_stride_bytes + elem_bytes;
  span.descending = in_stride_bytes < 0;
  if (span.descending) span.first += elem_bytes - 1;
  return span;
}

// Issues prefetches kPrefetchAheadBytes ahead of the reader along the concatenation of the spans
// `Source::Next(InputSpan*)` yields (false when there are no more).
template <typename Source>
class StreamPrefetcher {
 public:
  explicit StreamPrefetcher(Source* source) : source_(source) { Issue(kPrefetchAheadBytes); }
  // The reader has moved `bytes` further along the stream.
  void Advance(uint64_t bytes) { Issue(bytes); }

 private:
  void Issue(uint64_t bytes) {
    while (bytes != 0 && !done_) {
      if (span_.bytes == 0 && !source_->Next(&span_)) {
        done_ = true;
        return;
      }
      const uint64_t n = std::min(bytes, span_.bytes);
      // Every line holding one of the n bytes (a line shared with the previous piece is
      // requested again, which costs nothing).
      if (span_.descending) {
        const uintptr_t lowest_line = (span_.first - (n - 1)) & ~uintptr_t{63};
        for (uintptr_t line = span_.first & ~uintptr_t{63}; line >= lowest_line; line -= 64) {
          __builtin_prefetch(reinterpret_cast<const void*>(line));
          if (line == lowest_line) break;
        }
        span_.first -= n;
      } else {
        const uintptr_t end = span_.first + n;
        for (uintptr_t line = span_.first & ~uintptr_t{63}; line < end; line += 64) {
          __builtin_prefetch(reinterpret_cast<const void*>(line));
        }
        span_.first += n;
      }
      span_.bytes -= n;
      bytes -= n;
    }
  }

  Source* source_;
  InputSpan span_;
  bool done_ = false;
};

// Copies one contiguous run; with a prefetcher, in steps that end on kRunStepBytes
// boundaries of the output (so streamed steps stay line-aligned), advancing it before each.
template <typename Pf>
inline void CopyRun(const Plan& plan, uint8_t* out, const uint8_t* in, uint64_t bytes, Pf* pf) {
  if (pf == nullptr) {
    plan.copy_run(out, in, bytes);
    return;
  }
  while (bytes != 0) {
    const uint64_t to_boundary_bytes =
        kRunStepBytes - (reinterpret_cast<uintptr_t>(out) & (kRunStepBytes - 1));
    const uint64_t n = std::min(bytes, to_boundary_bytes);
    pf->Advance(n);
    plan.copy_run(out, in, n);
    out += n;
    in += n;
    bytes -= n;
  }
}

// out[i] = in[i * in_stride_bytes] for `count` elements. With a prefetcher (dense strides, at
// most a cache line per element) the row goes in steps of about kStridedStepBytes of input.
// With stream_stores (contiguous output) the output lines are never read for ownership: rows
// that plan.copy_strided_stream streams itself go to it directly, others are assembled step by
// step in an L1 buffer and streamed out from there; steps then end on 64-byte boundaries of the
// output.
template <typename Pf>
inline void CopyStridedRow(const Plan& plan, uint8_t* out, int64_t out_stride_bytes,
                           const uint8_t* in, int64_t in_stride_bytes, uint64_t count, Pf* pf) {
  const bool staged = plan.stream_stores && plan.copy_strided_stream == nullptr;
  const kernels::CopyStridedFn copy =
      plan.copy_strided_stream != nullptr ? plan.copy_strided_stream : plan.copy_strided;
  if (pf == nullptr && !staged) {
    copy(out, out_stride_bytes, in, in_stride_bytes, count);
    return;
  }
  const uint64_t elem_bytes = plan.elem_bytes;
  const uint64_t stage_items = kStageBytes / elem_bytes;
  const uint64_t abs_stride_bytes = static_cast<uint64_t>(
      in_stride_bytes < 0 ? -in_stride_bytes : in_stride_bytes);
  const uint64_t line_items = 64 / elem_bytes;
  // Streamed steps cover at least two output lines: copy_run streams nothing shorter.
  const uint64_t min_step_items = plan.stream_stores ? 2 * line_items : line_items;
  uint64_t step_items = stage_items;
  if (pf != nullptr && abs_stride_bytes != 0) {
    step_items = std::min(stage_items,
                          std::max(min_step_items, kStridedStepBytes / abs_stride_bytes /
                                                       line_items * line_items));
  }
  alignas(64) uint8_t stage[kStageBytes];
  // The first step ends on a line boundary of a contiguous output.
  const uint64_t misaligned_items =
      (reinterpret_cast<uintptr_t>(out) & 63) % elem_bytes == 0
          ? (reinterpret_cast<uintptr_t>(out) & 63) / elem_bytes
          : 0;
  uint64_t n = std::min(count, step_items - misaligned_items);
  for (uint64_t done = 0; done < count;) {
    // The row's span is (count - 1) strides and one element: the last step ends there.
    if (pf != nullptr) {
      pf->Advance(done + n < count ? n * abs_stride_bytes
                                   : (n - 1) * abs_stride_bytes + elem_bytes);
    }
    if (staged) {
      plan.copy_strided(stage, plan.elem_bytes, in, in_stride_bytes, n);
      plan.copy_run(out, stage, n * elem_bytes);
    } else {
      copy(out, out_stride_bytes, in, in_stride_bytes, n);
    }
    done += n;
    if (done < count) {
      out += static_cast<int64_t>(n) * out_stride_bytes;
      in += static_cast<int64_t>(n) * in_stride_bytes;
    }
    n = std::min(step_items, count - done);
  }
}

// out[i] = in[i * in_stride_bytes + offsets_bytes[i]] for n <= kChunkItems items, staged like
// CopyStridedRow when the plan streams its output. `first_item` is the row position of item 0,
// for the spread prefetch of the next row (null: none).
inline void GatherChunk(const Plan& plan, uint8_t* out, int64_t out_stride_bytes,
                        const uint8_t* in, int64_t in_stride_bytes, const int64_t* offsets_bytes,
                        uint64_t n, SpreadPrefetch* spread, uint64_t first_item) {
  alignas(64) uint8_t stage[kStageBytes];
  uint8_t* to = plan.stream_stores ? stage : out;
  const int64_t to_stride_bytes = plan.stream_stores ? plan.elem_bytes : out_stride_bytes;
  if (spread == nullptr) {
    plan.gather(to, to_stride_bytes, in, in_stride_bytes, offsets_bytes, n);
  } else {
    for (uint64_t k = 0; k < n; k += kSpreadStepItems) {
      spread->Upto(first_item + k);
      const int64_t kk = static_cast<int64_t>(k);
      plan.gather(to + kk * to_stride_bytes, to_stride_bytes, in + kk * in_stride_bytes,
                  in_stride_bytes, offsets_bytes + k, std::min(kSpreadStepItems, n - k));
    }
  }
  if (plan.stream_stores) plan.copy_run(out, stage, n * plan.elem_bytes);
}

// Resolves n index tuples (every component) starting at `idx` into byte offsets.
inline void ResolveChunk(const Plan& plan, const uint8_t* idx, int64_t idx_stride_bytes, uint64_t n,
                         int64_t* offsets_bytes) {
  for (uint32_t c = 0; c < plan.component_count; ++c) {
    const IndexComponent& comp = plan.components[c];
    plan.resolve(idx + comp.idx_offset_bytes, idx_stride_bytes, n, comp.dim_size,
                 comp.pitch_bytes, offsets_bytes, c > 0);
  }
}

// Byte offset of one index tuple's input element (all components).
inline int64_t ResolveTuple(const Plan& plan, const uint8_t* tuple) {
  int64_t offset_bytes;
  ResolveChunk(plan, tuple, 0, 1, &offset_bytes);
  return offset_bytes;
}

// Processes `count` items of one row starting at the given byte offsets (pf: null, or the
// prefetcher of a plan with stream_prefetch, which is never K4; next_row_in: K4 only, the input
// span of the next row to prefetch while gathering this one, or null).
template <typename Pf>
inline void ProcessRow(const Plan& plan, const ExecArgs& args, int64_t out_off, int64_t in_off,
                       int64_t idx_off, uint64_t count, Pf* pf, const uint8_t* next_row_in) {
  const Loop& row = plan.loops[plan.loop_count - 1];
  uint8_t* out = args.output + out_off;
  switch (plan.shape) {
    case KernelShape::kOneRun:
    case KernelShape::kRowsOfRuns:
      CopyRun(plan, out, args.input + in_off, count * plan.elem_bytes, pf);
      return;
    case KernelShape::kStridedInner:
      CopyStridedRow(plan, out, row.out_stride_bytes, args.input + in_off, row.in_stride_bytes,
                     count, pf);
      return;
    case KernelShape::kBlockGather: {
      const uint8_t* in = args.input + in_off + ResolveTuple(plan, args.indices + idx_off);
      if (row.out_stride_bytes == plan.elem_bytes && row.in_stride_bytes == plan.elem_bytes) {
        CopyRun(plan, out, in, count * plan.elem_bytes, pf);
      } else {
        CopyStridedRow(plan, out, row.out_stride_bytes, in, row.in_stride_bytes, count, pf);
      }
      return;
    }
    case KernelShape::kElementGather: {
      const uint8_t* in = args.input + in_off;
      const uint8_t* idx = args.indices + idx_off;
      if (plan.fused_row_gather) {  // one pass; the kernel does the prefetching
        const IndexComponent& comp = plan.components[0];
        kernels::RowPrefetch prefetch;
        prefetch.next = next_row_in;
        prefetch.next_bytes = next_row_in != nullptr ? plan.row_prefetch_bytes : 0;
        prefetch.indices_ahead = plan.index_stream_prefetch;
        plan.gather_row(out, 0, in, 0, idx + comp.idx_offset_bytes, 0, 1, count, comp.dim_size,
                        comp.pitch_bytes, &prefetch);
        return;
      }
      int64_t offsets_bytes[kChunkItems];
      SpreadPrefetch spread(next_row_in, plan.row_prefetch_bytes, count);
      SpreadPrefetch* spread_ptr = next_row_in != nullptr ? &spread : nullptr;
      for (uint64_t done = 0; done < count;) {
        const uint64_t n = std::min(kChunkItems, count - done);
        if (plan.index_stream_prefetch) {  // two chunks ahead (past the tensor: never faults)
          const uint64_t chunk_bytes = n * static_cast<uint64_t>(row.idx_stride_bytes);
          const uintptr_t ahead = reinterpret_cast<uintptr_t>(idx) + 2 * chunk_bytes;
          for (uint64_t off = 0; off < chunk_bytes; off += 64) {
            __builtin_prefetch(reinterpret_cast<const void*>(ahead + off));
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
      return;
    }
  }
}

// Byte offsets of the first element of a row: a position over loops[0, count).
struct RowOffsets {
  int64_t out_off, in_off, idx_off;
};

// Walks the rows of loops[0, count) in row-major order from a given row.
class Odometer {
 public:
  Odometer(const Plan& plan, uint32_t count, uint64_t row_index)
      : plan_(plan), count_(count), offsets_{0, plan.in_base_bytes, 0} {
    for (uint32_t d = count; d-- > 0;) {
      const Loop& loop = plan.loops[d];
      const auto size = static_cast<uint64_t>(loop.size);
      coord_[d] = static_cast<int64_t>(row_index % size);
      row_index /= size;
      offsets_.out_off += coord_[d] * loop.out_stride_bytes;
      offsets_.in_off += coord_[d] * loop.in_stride_bytes;
      offsets_.idx_off += coord_[d] * loop.idx_stride_bytes;
    }
  }
  const RowOffsets& offsets() const { return offsets_; }
  // Rows from this one to the end of the innermost of the counted loops, this one included
  // (count >= 1).
  uint64_t RowsLeftInLoop() const {
    return static_cast<uint64_t>(plan_.loops[count_ - 1].size - coord_[count_ - 1]);
  }
  // Moves n rows on, n >= 1 and (n > 1 only where count >= 1) n <= RowsLeftInLoop().
  void Advance(uint64_t n) {
    if (n > 1) {
      const Loop& loop = plan_.loops[count_ - 1];
      const auto k = static_cast<int64_t>(n - 1);
      coord_[count_ - 1] += k;
      offsets_.out_off += k * loop.out_stride_bytes;
      offsets_.in_off += k * loop.in_stride_bytes;
      offsets_.idx_off += k * loop.idx_stride_bytes;
    }
    Step();
  }
  // Moves to the next row (back to row 0 after the last).
  void Step() {
    for (uint32_t d = count_; d-- > 0;) {
      const Loop& loop = plan_.loops[d];
      offsets_.out_off += loop.out_stride_bytes;
      offsets_.in_off += loop.in_stride_bytes;
      offsets_.idx_off += loop.idx_stride_bytes;
      if (++coord_[d] < loop.size) return;
      coord_[d] = 0;
      offsets_.out_off -= loop.size * loop.out_stride_bytes;
      offsets_.in_off -= loop.size * loop.in_stride_bytes;
      offsets_.idx_off -= loop.size * loop.idx_stride_bytes;
    }
  }

 private:
  const Plan& plan_;
  const uint32_t count_;
  int64_t coord_[kMaxRank] = {};
  RowOffsets offsets_;
};

inline RowOffsets LocateRow(const Plan& plan, uint32_t count, uint64_t row_index) {
  return Odometer(plan, count, row_index).offsets();
}

// The input spans of RunRows' units [begin, end), in order (plan.stream_prefetch).
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
    if (plan_.shape == KernelShape::kBlockGather) {
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
// the copy in chunks of their own (plan.stream_prefetch).
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

// K3 fast path: units are blocks; loops[L-2] walks the indices. Per segment of consecutive
// units on one line of loops[L-2], indices are resolved in chunks and the blocks copied with
// run merging. With stream_prefetch the prefetcher is advanced before each group of blocks of
// at most kBlockGroupBytes (blocks up to half of it), or before each kRunStepBytes step
// of a larger block; those are copied one by one (merging adjacent blocks gains little there).
template <typename Pf>
void RunIndexedBlocksWith(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end,
                          Pf* pf) {
  const uint32_t line_loop = plan.loop_count - 2;
  const Loop& walk = plan.loops[line_loop];
  const uint64_t line_items = static_cast<uint64_t>(walk.size);
  const size_t block_bytes =
      static_cast<size_t>(plan.loops[plan.loop_count - 1].size) * plan.elem_bytes;
  const uint64_t group =
      block_bytes >= kBlockGroupBytes ? 1 : kBlockGroupBytes / block_bytes;
  int64_t offsets_bytes[kChunkItems];
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
      const uint64_t n = std::min(kChunkItems, segment - done);
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
// same type) when the plan has no stream_prefetch: then nothing is set up at all.
template <typename Source, typename Run>
void WithStreamPrefetch(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end,
                        const Run& run) {
  using Prefetcher = StreamPrefetcher<Source>;
  if (!plan.stream_prefetch) {
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

// Rows sharing indices resolve them once: all of them when they fit this stack buffer.
constexpr uint64_t kMaxSharedItems = 4096;

// Rows sharing indices whose input spans are shorter than this are prefetched two rows ahead
// instead of one: one short row is gathered in about the time a DRAM miss takes. Measured on
// GATHER of 512 ids along axis 1 of {4096,1024} fp32 (4 KiB rows), cold, median of 3 runs:
// 0.27 -> 0.32 of the best copy on 1 thread, 0.43 -> 0.45 on 2; three rows ahead about the
// same as two, four worse.
constexpr uint64_t kShortRowPrefetchBytes = 8 << 10;

// K4 fast path when every row reads the same indices: the row's indices are resolved once
// (all of them, or chunk by chunk for long rows) and reused for every row of the unit range,
// prefetching the input span of a row ahead (the next, or for short rows the one after it)
// while gathering the current one.
void RunSharedIndexRows(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  const uint32_t outer_count = plan.loop_count - 1;
  const Loop& row = plan.loops[outer_count];
  const uint64_t row_items = static_cast<uint64_t>(row.size);
  const uint64_t chunk_items = row_items <= kMaxSharedItems ? row_items : kChunkItems;
  // Two rows ahead only along a loop of rows the same stride apart (a wrap of the odometer in
  // between would make that a wasted prefetch only: addresses, never dereferenced).
  const uint64_t rows_ahead =
      plan.row_prefetch_bytes != 0 && plan.row_prefetch_bytes < kShortRowPrefetchBytes ? 2 : 1;
  const int64_t outer_in_stride_bytes =
      outer_count > 0 ? plan.loops[outer_count - 1].in_stride_bytes : 0;
  int64_t offsets_bytes[kMaxSharedItems];
  for (uint64_t done = 0; done < row_items;) {
    const uint64_t n = std::min(chunk_items, row_items - done);
    const int64_t first = static_cast<int64_t>(done);
    for (uint64_t k = 0; k < n; k += kChunkItems) {
      ResolveChunk(plan, args.indices + (first + static_cast<int64_t>(k)) * row.idx_stride_bytes,
                   row.idx_stride_bytes, std::min(kChunkItems, n - k), offsets_bytes + k);
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
        SpreadPrefetch(reinterpret_cast<const void*>(next_row), plan.row_prefetch_bytes, 1)
            .Upto(1);
      }
      const bool prefetch_ahead = plan.row_prefetch_bytes != 0 && unit + rows_ahead < end;
      const uintptr_t ahead_row =
          next_row + static_cast<uintptr_t>(static_cast<int64_t>(rows_ahead - 1) *
                                            outer_in_stride_bytes);
      SpreadPrefetch spread(prefetch_ahead ? reinterpret_cast<const void*>(ahead_row) : nullptr,
                            plan.row_prefetch_bytes, n);
      for (uint64_t k = 0; k < n; k += kChunkItems) {
        const int64_t kk = static_cast<int64_t>(k);
        GatherChunk(plan, out + kk * row.out_stride_bytes, row.out_stride_bytes,
                    in + kk * row.in_stride_bytes, row.in_stride_bytes, offsets_bytes + k,
                    std::min(kChunkItems, n - k), prefetch_ahead ? &spread : nullptr, k);
      }
      spread.Upto(n);
    }
    done += n;
  }
}

// Transposed copies: each unit is one 2-D tile made of the last two loops.
void RunTransposeTiles(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  const uint32_t outer_count = plan.loop_count - 2;
  const Loop& dst_rows = plan.loops[outer_count];
  const Loop& dst_cols = plan.loops[outer_count + 1];
  for (uint64_t unit = begin; unit < end; ++unit) {
    const RowOffsets r = LocateRow(plan, outer_count, unit);
    plan.transpose_tile(args.output + r.out_off, dst_rows.out_stride_bytes, args.input + r.in_off,
                        dst_cols.in_stride_bytes, static_cast<size_t>(dst_rows.size),
                        static_cast<size_t>(dst_cols.size));
  }
}

// The packed path's prefetches (strip rows while packing, index rows while gathering) are a
// whole pitch apart, one to eight lines each, and go to L2 (locality 1, prefetcht2): into L1
// they crowd out the gathers' own misses. {4096,4096} fp32 axis 0, int64 ids, 1 thread:
// 11.0-11.5 GB/s, 9.2 with prefetches into L1. The index lines are prefetched first and last
// line first: the same two prefetches issued by a loop measured 6.1 GB/s (not understood).
// Index rows go through kernels::PrefetchRowToL2, here and in gather_row
// (RowPrefetch::index_row_ahead_bytes).
constexpr int kPackPrefetchLocality = 1;

// Copies the strip starting at `src` (plan.components[0].dim_size rows of strip_bytes,
// pitch_bytes apart) into `packed`, contiguous, prefetching a few dozen rows ahead: the rows
// are a whole pitch apart, where no hardware prefetcher follows.
void PackStrip(const Plan& plan, uint8_t* packed, const uint8_t* src, int64_t pitch_bytes,
               uint64_t rows, uint64_t strip_bytes) {
  constexpr uint64_t kGroupRows = 16, kAheadRows = 32;
  int64_t offsets_bytes[kGroupRows];
  for (uint64_t r = 0; r < rows; r += kGroupRows) {
    const uint64_t n = std::min(kGroupRows, rows - r);
    for (uint64_t k = 0; k < n; ++k) {
      offsets_bytes[k] = static_cast<int64_t>(r + k) * pitch_bytes;
      // Rows past the end are never read (a prefetch never faults).
      const uintptr_t ahead = reinterpret_cast<uintptr_t>(src) +
                              static_cast<uintptr_t>(offsets_bytes[k] + kAheadRows * pitch_bytes);
      for (uint64_t off = 0; off < strip_bytes; off += 64) {
        __builtin_prefetch(reinterpret_cast<const void*>(ahead + off), 0, kPackPrefetchLocality);
      }
    }
    plan.gather_blocks(packed + r * strip_bytes, static_cast<int64_t>(strip_bytes), src,
                       offsets_bytes, n, strip_bytes, plan.kernel_set->copy_bytes,
                       /*merge_runs=*/false, /*prefetch_blocks=*/false);
  }
}

// K4 strips gathered from a packed copy (plan.pack_bytes): the strip is packed into `scratch`
// whenever a row's input base differs from the packed one, and each row gathers from it with
// the packed row size as the pitch. Where gather_row applies, the rows of one strip along the
// loop above the row go to it in one call.
void RunPackedStrips(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end,
                     uint8_t* scratch) {
  const uint32_t outer_count = plan.loop_count - 1;
  const Loop& row = plan.loops[outer_count];
  const IndexComponent& comp = plan.components[0];
  const uint64_t strip_bytes = static_cast<uint64_t>(row.size) * plan.elem_bytes;
  const auto packed_pitch_bytes = static_cast<int64_t>(strip_bytes);
  // Each row's indices are a whole index row pitch from the last: prefetch them some rows
  // ahead along the loop above the row (past a strip's end that is a wasted prefetch only).
  constexpr int64_t kIndexAheadRows = 16;
  const Loop* above = outer_count > 0 ? &plan.loops[outer_count - 1] : nullptr;
  kernels::RowPrefetch prefetch;
  prefetch.index_row_ahead_bytes =
      above != nullptr && row.idx_stride_bytes > 0 ? kIndexAheadRows * above->idx_stride_bytes
                                                   : 0;
  // Rows along `above` share the packed strip when it does not move the input.
  const bool batch_rows =
      plan.gather_row != nullptr && above != nullptr && above->in_stride_bytes == 0;
  Odometer rows(plan, outer_count, begin);
  bool packed = false;
  int64_t packed_in_off = 0;
  int64_t offsets_bytes[kChunkItems];
  for (uint64_t unit = begin; unit < end;) {
    const RowOffsets& r = rows.offsets();
    if (!packed || r.in_off != packed_in_off) {
      PackStrip(plan, scratch, args.input + r.in_off, comp.pitch_bytes, comp.dim_size,
                strip_bytes);
      packed = true;
      packed_in_off = r.in_off;
    }
    uint8_t* out = args.output + r.out_off;
    const uint8_t* idx = args.indices + r.idx_off + comp.idx_offset_bytes;
    if (plan.gather_row != nullptr) {  // contiguous rows of indices and output
      const uint64_t n = batch_rows ? std::min(end - unit, rows.RowsLeftInLoop()) : 1;
      plan.gather_row(out, above != nullptr ? above->out_stride_bytes : 0, scratch,
                      row.in_stride_bytes, idx, above != nullptr ? above->idx_stride_bytes : 0,
                      static_cast<size_t>(n), static_cast<size_t>(row.size), comp.dim_size,
                      packed_pitch_bytes, &prefetch);
      unit += n;
      rows.Advance(n);
      continue;
    }
    if (prefetch.index_row_ahead_bytes != 0) {  // as gather_row does
      kernels::PrefetchRowToL2(
          reinterpret_cast<uintptr_t>(idx) + static_cast<uintptr_t>(prefetch.index_row_ahead_bytes),
          static_cast<size_t>(row.size) * static_cast<size_t>(row.idx_stride_bytes));
    }
    const uint8_t* in = scratch;
    for (uint64_t done = 0; done < static_cast<uint64_t>(row.size);) {
      const uint64_t n = std::min(kChunkItems, static_cast<uint64_t>(row.size) - done);
      plan.resolve(idx, row.idx_stride_bytes, n, comp.dim_size, packed_pitch_bytes,
                   offsets_bytes, false);
      GatherChunk(plan, out, row.out_stride_bytes, in, row.in_stride_bytes, offsets_bytes, n,
                  nullptr, done);
      done += n;
      const auto nn = static_cast<int64_t>(n);
      out += nn * row.out_stride_bytes;
      in += nn * row.in_stride_bytes;
      idx += nn * row.idx_stride_bytes;
    }
    ++unit;
    rows.Step();
  }
}

static_assert(kMaxItemPrefetchRowItems <= static_cast<int64_t>(kChunkItems),
              "a prefetched row is resolved in one chunk");

// plan.prefetch_next_row_items: resolves the row at `ahead` (whole rows per unit) and prefetches
// the line of each of its items into L2 (locality 1: into L1 they gained nothing).
inline void PrefetchRowItems(const Plan& plan, const ExecArgs& args, const RowOffsets& ahead) {
  const Loop& row = plan.loops[plan.loop_count - 1];
  const auto n = static_cast<uint64_t>(row.size);
  int64_t offsets_bytes[kMaxItemPrefetchRowItems];
  ResolveChunk(plan, args.indices + ahead.idx_off, row.idx_stride_bytes, n, offsets_bytes);
  const uint8_t* in = args.input + ahead.in_off;
  for (uint64_t i = 0; i < n; ++i) {
    const int64_t item_off_bytes = static_cast<int64_t>(i) * row.in_stride_bytes;
    __builtin_prefetch(in + item_off_bytes + offsets_bytes[i], 0, 1);
  }
}

// The general case: an odometer over the outer loops, one kernel call per unit (row piece).
// pf: null, or the prefetcher over RowSpans(begin, end).
template <typename Pf>
void RunRowsWith(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end, Pf* pf) {
  const Partition& p = plan.partition;
  const uint32_t outer_count = plan.loop_count - 1;
  const Loop& row = plan.loops[outer_count];

  Odometer rows(plan, outer_count, begin / p.pieces_per_row);
  uint64_t piece = begin % p.pieces_per_row;
  // With prefetch_next_row_items (whole rows per unit), the row after the current one; else an
  // odometer over no loops, which costs nothing to set up (a copy of `rows`, stepped, measured
  // 8 ns more per Execute of a {4,16} slice, 25-27 -> 32-35 ns).
  const bool prefetch_items = plan.prefetch_next_row_items && begin + 1 < end;
  Odometer ahead(plan, prefetch_items ? outer_count : 0, prefetch_items ? begin + 1 : 0);

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
        plan.row_prefetch_bytes != 0 && outer_count > 0 && unit + 1 < end
            ? reinterpret_cast<const uint8_t*>(
                  reinterpret_cast<uintptr_t>(args.input) +
                  static_cast<uintptr_t>(r.in_off + plan.loops[outer_count - 1].in_stride_bytes))
            : nullptr;
    ProcessRow(plan, args, r.out_off + first_items * row.out_stride_bytes,
               r.in_off + first_items * row.in_stride_bytes,
               r.idx_off + first_items * row.idx_stride_bytes, count, pf, next_row_in);
    if (++piece < p.pieces_per_row) continue;
    piece = 0;
    rows.Step();
  }
}

void RunRows(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  WithStreamPrefetch<RowSpans>(plan, args, begin, end, [&](auto* pf) {
    RunRowsWith(plan, args, begin, end, pf);
  });
}

}  // namespace

void RunUnits(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  if (begin >= end) return;
  DMLCPU_DCHECK(end <= plan.partition.unit_count);
  // The fast paths' invariants, guaranteed by the planner.
  DMLCPU_DCHECK(!plan.indexed_blocks ||
                (plan.loop_count >= 2 && plan.partition.pieces_per_row == 1));
  DMLCPU_DCHECK(!plan.rows_share_indices || plan.partition.pieces_per_row == 1);
  DMLCPU_DCHECK(plan.pack_bytes == 0 ||
                (plan.shape == KernelShape::kElementGather && plan.component_count == 1 &&
                 plan.partition.pieces_per_row == 1 && !plan.fused_row_gather));
  DMLCPU_DCHECK(!plan.fused_row_gather ||
                (plan.component_count == 1 && plan.gather_row != nullptr &&
                 plan.loops[plan.loop_count - 1].in_stride_bytes == 0));
  DMLCPU_DCHECK(plan.gather_row == nullptr || plan.fused_row_gather || plan.pack_bytes != 0);
  DMLCPU_DCHECK(!plan.transpose_tiles || plan.loop_count >= 2);
  DMLCPU_DCHECK(!plan.prefetch_next_row_items ||
                (plan.shape == KernelShape::kElementGather && plan.loop_count >= 2 &&
                 plan.partition.pieces_per_row == 1 && !plan.rows_share_indices &&
                 plan.loops[plan.loop_count - 1].size <= kMaxItemPrefetchRowItems));
  DMLCPU_DCHECK(!plan.stream_prefetch ||
                (plan.shape != KernelShape::kElementGather && !plan.transpose_tiles));
  DMLCPU_DCHECK(!plan.stream_stores ||
                plan.loops[plan.loop_count - 1].out_stride_bytes == plan.elem_bytes);
  // Compile sized the pool's slots for this plan.
  DMLCPU_DCHECK(plan.pack_bytes == 0 || args.scratch == nullptr ||
                args.scratch->slot_bytes() >= plan.pack_bytes);
  uint8_t* const slot =
      plan.pack_bytes != 0 && args.scratch != nullptr ? args.scratch->Acquire() : nullptr;
  if (slot != nullptr) {
    RunPackedStrips(plan, args, begin, end, slot);
    args.scratch->Release(slot);
  } else if (plan.transpose_tiles) {
    RunTransposeTiles(plan, args, begin, end);
  } else if (plan.indexed_blocks) {
    RunIndexedBlocks(plan, args, begin, end);
  } else if (plan.rows_share_indices) {
    RunSharedIndexRows(plan, args, begin, end);
  } else {
    RunRows(plan, args, begin, end);
  }
  // Streamed rows skip their own fences: one per unit range, before the task completes.
  if (plan.stream_stores) kernels::StoreFence();
}

bool ScanIndices(const Plan& plan, const uint8_t* indices, BadIndex* bad) {
  bool found = false;
  for (uint32_t s = 0; s < plan.scan_count; ++s) {
    const IndexScan& scan = plan.scans[s];
    const uint32_t outer_count = scan.loop_count - 1;
    const int64_t row_size = scan.sizes[outer_count];
    const int64_t row_stride = scan.strides_bytes[outer_count];
    uint64_t rows = 1;
    for (uint32_t d = 0; d < outer_count; ++d) rows *= static_cast<uint64_t>(scan.sizes[d]);
    int64_t coord[kMaxRank] = {};
    int64_t off = scan.offset_bytes;
    for (uint64_t r = 0; r < rows; ++r) {
      const size_t i = plan.find_out_of_range(indices + off, row_stride,
                                              static_cast<size_t>(row_size), scan.dim_size);
      if (i < static_cast<size_t>(row_size)) {
        const uint64_t tuple_position = r * static_cast<uint64_t>(row_size) + i;
        const uint64_t flat = tuple_position * plan.tuple_size + scan.component;
        if (!found || flat < bad->flat_position) {
          bad->flat_position = flat;
          bad->component = scan.component;
        }
        found = true;
        break;  // later rows of this component come after this one
      }
      for (uint32_t d = outer_count; d-- > 0;) {
        off += scan.strides_bytes[d];
        if (++coord[d] < scan.sizes[d]) break;
        coord[d] = 0;
        off -= scan.sizes[d] * scan.strides_bytes[d];
      }
    }
  }
  return !found;
}

Executor::Executor(uint32_t max_threads, tbb::task_arena* borrowed) : arena_(borrowed) {
#if defined(DMLCPU_EXECUTOR_SERIAL)
  // The serial stand-ins run every unit on the calling thread: say so (the plans then follow
  // the single-thread store policy, and scratch pools hold 3 slots, not cores + 2).
  (void)max_threads;
  threads_ = 1;
  arena_ = nullptr;
#else
  const uint32_t cores = std::max(1u, std::thread::hardware_concurrency());
  if (borrowed != nullptr) {
    const uint32_t arena_threads = static_cast<uint32_t>(std::max(1, borrowed->max_concurrency()));
    threads_ = max_threads == 0 ? arena_threads : std::min(max_threads, arena_threads);
  } else {
    threads_ = max_threads == 0 ? cores : max_threads;
    if (threads_ > 1) {
      owned_ = std::make_unique<tbb::task_arena>(static_cast<int>(threads_));
      arena_ = owned_.get();
    }
  }
#endif
}

Executor::~Executor() = default;

void Executor::Run(const Plan& plan, const ExecArgs& args) const {
  const Partition& p = plan.partition;
  if (threads_ <= 1 || arena_ == nullptr || !p.parallel || p.unit_count <= p.grain_units) {
    RunUnits(plan, args, 0, p.unit_count);
    return;
  }
  // TBB orders the caller's writes before its tasks and the tasks' work before parallel_for
  // returns, but inside its own code, which ThreadSanitizer does not see (the system libtbb is
  // not instrumented). The same order, stated once more with one atomic TSan does see: the
  // caller releases it before the tasks start, each task acquires it first and releases its
  // work into it last, the caller acquires it after the join. (Without it a TSan run of the
  // random suites reported, now and then, the output read after Execute against a worker's
  // write whose stack had left TSan's history, where the libtbb suppression cannot match.)
  std::atomic<uint64_t> handoff{0};
  handoff.store(0, std::memory_order_release);
  const auto run_task = [&](uint64_t begin, uint64_t end) {
    (void)handoff.load(std::memory_order_acquire);
    RunUnits(plan, args, begin, end);
    handoff.fetch_add(1, std::memory_order_release);
  };
  arena_->execute([&] {
    tbb::this_task_arena::isolate([&] {
      // Tasks split the units in blocks of align_units (whole packed strips).
      const uint64_t align = p.align_units;
      const uint64_t blocks = p.unit_count / align;
      if (threads_ >= static_cast<uint32_t>(arena_->max_concurrency())) {
        tbb::parallel_for(tbb::blocked_range<uint64_t>(0, blocks, p.grain_units / align),
                          [&](const tbb::blocked_range<uint64_t>& r) {
                            run_task(r.begin() * align, r.end() * align);
                          });
        return;
      }
      // A borrowed arena wider than max_threads: exactly threads_ contiguous slices, so no
      // more than threads_ of the arena's threads take part.
      const uint64_t slices = std::min<uint64_t>(threads_, blocks);
      tbb::parallel_for(
          tbb::blocked_range<uint64_t>(0, slices, 1),
          [&](const tbb::blocked_range<uint64_t>& r) {
            for (uint64_t slice = r.begin(); slice < r.end(); ++slice) {
              run_task(blocks * slice / slices * align, blocks * (slice + 1) / slices * align);
            }
          },
          tbb::static_partitioner());
    });
  });
  (void)handoff.load(std::memory_order_acquire);
}

}  // namespace internal
}  // namespace dmlcpu
