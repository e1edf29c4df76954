#include "executor/executor.h"

#include "core/check.h"

#include <algorithm>
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

// Prefetches [p, p + bytes) into the cache, one request per line.
inline void PrefetchSpan(const uint8_t* p, uint64_t bytes) {
  for (uint64_t off = 0; off < bytes; off += 64) __builtin_prefetch(p + off);
}

// Prefetches the input lines of `n` elements starting at `in` (stride may be negative).
inline void PrefetchStrided(const uint8_t* in, int64_t in_stride_bytes, uint64_t n,
                            uint32_t elem_bytes) {
  const int64_t extent = static_cast<int64_t>(n - 1) * in_stride_bytes;
  const uint8_t* lo = extent < 0 ? in + extent : in;
  PrefetchSpan(lo, static_cast<uint64_t>(extent < 0 ? -extent : extent) + elem_bytes);
}

// out[i] = in[i * in_stride_bytes] for `count` elements. Long rows with dense strides (up to a
// cache line per element) go chunk by chunk with a software prefetch two chunks ahead: the
// hardware prefetchers miss descending and strided streams. With stream_stores (contiguous
// output) each chunk is assembled in an L1 buffer and streamed out, so the output lines are
// never read for ownership.
inline void CopyStridedRow(const Plan& plan, uint8_t* out, int64_t out_stride_bytes,
                           const uint8_t* in, int64_t in_stride_bytes, uint64_t count) {
  const uint64_t chunk_items = kStageBytes / plan.elem_bytes;
  const bool dense = in_stride_bytes >= -64 && in_stride_bytes <= 64;
  if (!plan.stream_stores && (!dense || count <= 2 * chunk_items)) {
    plan.copy_strided(out, out_stride_bytes, in, in_stride_bytes, count);
    return;
  }
  alignas(64) uint8_t stage[kStageBytes];
  const int64_t chunk_in_bytes = static_cast<int64_t>(chunk_items) * in_stride_bytes;
  for (uint64_t done = 0; done < count;) {
    const uint64_t n = std::min(chunk_items, count - done);
    if (dense && done + 2 * chunk_items < count) {
      PrefetchStrided(in + 2 * chunk_in_bytes,
                      in_stride_bytes, std::min(chunk_items, count - done - 2 * chunk_items),
                      plan.elem_bytes);
    }
    if (plan.stream_stores) {
      plan.copy_strided(stage, plan.elem_bytes, in, in_stride_bytes, n);
      plan.copy_run(out, stage, n * plan.elem_bytes);
    } else {
      plan.copy_strided(out, out_stride_bytes, in, in_stride_bytes, n);
    }
    done += n;
    if (done < count) {
      out += static_cast<int64_t>(n) * out_stride_bytes;
      in += chunk_in_bytes;
    }
  }
}

// out[i] = in[i * in_stride_bytes + offsets_bytes[i]] for n <= kChunkItems items, staged like
// CopyStridedRow when the plan streams its output.
inline void GatherChunk(const Plan& plan, uint8_t* out, int64_t out_stride_bytes,
                        const uint8_t* in, int64_t in_stride_bytes, const int64_t* offsets_bytes,
                        uint64_t n) {
  if (!plan.stream_stores) {
    plan.gather(out, out_stride_bytes, in, in_stride_bytes, offsets_bytes, n);
    return;
  }
  alignas(64) uint8_t stage[kStageBytes];
  plan.gather(stage, plan.elem_bytes, in, in_stride_bytes, offsets_bytes, n);
  plan.copy_run(out, stage, n * plan.elem_bytes);
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

// Processes `count` items of one row starting at the given byte offsets.
inline void ProcessRow(const Plan& plan, const ExecArgs& args, int64_t out_off, int64_t in_off,
                       int64_t idx_off, uint64_t count) {
  const Loop& row = plan.loops[plan.loop_count - 1];
  uint8_t* out = args.output + out_off;
  switch (plan.shape) {
    case KernelShape::kOneRun:
    case KernelShape::kRowsOfRuns:
      plan.copy_run(out, args.input + in_off, count * plan.elem_bytes);
      return;
    case KernelShape::kStridedInner:
      CopyStridedRow(plan, out, row.out_stride_bytes, args.input + in_off, row.in_stride_bytes,
                     count);
      return;
    case KernelShape::kBlockGather: {
      const uint8_t* in = args.input + in_off + ResolveTuple(plan, args.indices + idx_off);
      if (row.out_stride_bytes == plan.elem_bytes && row.in_stride_bytes == plan.elem_bytes) {
        plan.copy_run(out, in, count * plan.elem_bytes);
      } else {
        CopyStridedRow(plan, out, row.out_stride_bytes, in, row.in_stride_bytes, count);
      }
      return;
    }
    case KernelShape::kElementGather: {
      int64_t offsets_bytes[kChunkItems];
      const uint8_t* in = args.input + in_off;
      const uint8_t* idx = args.indices + idx_off;
      for (uint64_t done = 0; done < count;) {
        const uint64_t n = std::min(kChunkItems, count - done);
        ResolveChunk(plan, idx, row.idx_stride_bytes, n, offsets_bytes);
        GatherChunk(plan, out, row.out_stride_bytes, in, row.in_stride_bytes, offsets_bytes, n);
        done += n;
        if (done < count) {
          out += static_cast<int64_t>(n) * row.out_stride_bytes;
          in += static_cast<int64_t>(n) * row.in_stride_bytes;
          idx += static_cast<int64_t>(n) * row.idx_stride_bytes;
        }
      }
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

// K3 fast path: units are blocks; loops[L-2] walks the indices. Per segment of consecutive
// units on one line of loops[L-2], indices are resolved in chunks and the blocks copied with
// run merging.
void RunIndexedBlocks(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  const uint32_t line_loop = plan.loop_count - 2;
  const Loop& walk = plan.loops[line_loop];
  const uint64_t line_items = static_cast<uint64_t>(walk.size);
  const size_t block_bytes =
      static_cast<size_t>(plan.loops[plan.loop_count - 1].size) * plan.elem_bytes;
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
      kernels::GatherBlocks(out, walk.out_stride_bytes, in, offsets_bytes, n, block_bytes,
                            plan.copy_run, plan.merge_runs);
      done += n;
      if (done < segment) {
        out += static_cast<int64_t>(n) * walk.out_stride_bytes;
        idx += static_cast<int64_t>(n) * walk.idx_stride_bytes;
      }
    }
    unit += segment;
  }
}

// Rows sharing indices resolve them once: all of them when they fit this stack buffer.
constexpr uint64_t kMaxSharedItems = 4096;

// K4 fast path when every row reads the same indices: the row's indices are resolved once
// (all of them, or chunk by chunk for long rows) and reused for every row of the unit range,
// prefetching the next row's input span while gathering the current one.
void RunSharedIndexRows(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  const uint32_t outer_count = plan.loop_count - 1;
  const Loop& row = plan.loops[outer_count];
  const uint64_t row_items = static_cast<uint64_t>(row.size);
  const uint64_t chunk_items = row_items <= kMaxSharedItems ? row_items : kChunkItems;
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
      if (plan.row_prefetch_bytes != 0 && unit + 1 < end) {
        PrefetchSpan(args.input + rows.offsets().in_off, plan.row_prefetch_bytes);
      }
      for (uint64_t k = 0; k < n; k += kChunkItems) {
        const int64_t kk = static_cast<int64_t>(k);
        GatherChunk(plan, out + kk * row.out_stride_bytes, row.out_stride_bytes,
                    in + kk * row.in_stride_bytes, row.in_stride_bytes, offsets_bytes + k,
                    std::min(kChunkItems, n - k));
      }
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

// The general case: an odometer over the outer loops, one kernel call per unit (row piece).
void RunRows(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  const Partition& p = plan.partition;
  const uint32_t outer_count = plan.loop_count - 1;
  const Loop& row = plan.loops[outer_count];

  Odometer rows(plan, outer_count, begin / p.pieces_per_row);
  uint64_t piece = begin % p.pieces_per_row;

  for (uint64_t unit = begin; unit < end; ++unit) {
    const uint64_t first = piece * p.piece_items;
    const uint64_t count = std::min(p.piece_items, p.row_items - first);
    const int64_t first_items = static_cast<int64_t>(first);
    const RowOffsets& r = rows.offsets();
    if (plan.row_prefetch_bytes != 0 && outer_count > 0 && unit + 1 < end) {
      // The next row (unless the odometer wraps): its random reads start on their way now.
      PrefetchSpan(args.input + r.in_off + plan.loops[outer_count - 1].in_stride_bytes,
                   plan.row_prefetch_bytes);
    }
    ProcessRow(plan, args, r.out_off + first_items * row.out_stride_bytes,
               r.in_off + first_items * row.in_stride_bytes,
               r.idx_off + first_items * row.idx_stride_bytes, count);
    if (++piece < p.pieces_per_row) continue;
    piece = 0;
    rows.Step();
  }
}

}  // namespace

void RunUnits(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  if (begin >= end) return;
  DMLCPU_DCHECK(end <= plan.partition.unit_count);
  // The fast paths' invariants, guaranteed by the planner.
  DMLCPU_DCHECK(!plan.indexed_blocks || (plan.loop_count >= 2 && plan.partition.pieces_per_row == 1));
  DMLCPU_DCHECK(!plan.rows_share_indices || plan.partition.pieces_per_row == 1);
  DMLCPU_DCHECK(!plan.transpose_tiles || plan.loop_count >= 2);
  DMLCPU_DCHECK(!plan.stream_stores ||
                plan.loops[plan.loop_count - 1].out_stride_bytes == plan.elem_bytes);
  if (plan.transpose_tiles) {
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
}

Executor::~Executor() = default;

void Executor::Run(const Plan& plan, const ExecArgs& args) const {
  const Partition& p = plan.partition;
  if (threads_ <= 1 || arena_ == nullptr || !p.parallel || p.unit_count <= p.grain_units) {
    RunUnits(plan, args, 0, p.unit_count);
    return;
  }
  arena_->execute([&] {
    tbb::this_task_arena::isolate([&] {
      if (threads_ >= static_cast<uint32_t>(arena_->max_concurrency())) {
        tbb::parallel_for(tbb::blocked_range<uint64_t>(0, p.unit_count, p.grain_units),
                          [&](const tbb::blocked_range<uint64_t>& r) {
                            RunUnits(plan, args, r.begin(), r.end());
                          });
        return;
      }
      // A borrowed arena wider than max_threads: exactly threads_ contiguous slices, so no
      // more than threads_ of the arena's threads take part.
      const uint64_t slices = std::min<uint64_t>(threads_, p.unit_count);
      tbb::parallel_for(
          tbb::blocked_range<uint64_t>(0, slices, 1),
          [&](const tbb::blocked_range<uint64_t>& r) {
            for (uint64_t slice = r.begin(); slice < r.end(); ++slice) {
              RunUnits(plan, args, p.unit_count * slice / slices,
                       p.unit_count * (slice + 1) / slices);
            }
          },
          tbb::static_partitioner());
    });
  });
}

}  // namespace internal
}  // namespace dmlcpu
