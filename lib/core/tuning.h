// SPDX-License-Identifier: Apache-2.0
// The machine-tuned constants of dmlcpu, in one place. Each says what it trades; the
// measurements behind today's values (machine, commit, command) are in docs/performance.md.
// The planner takes a Tuning by argument (kDefaultTuning from Compile); the executor and the
// kernels read the static constexpr members at compile time (they size stack buffers and loops). Plain C++, no dependencies.
#ifndef DMLCPU_CORE_TUNING_H_
#define DMLCPU_CORE_TUNING_H_

#include <cstddef>
#include <cstdint>

namespace dmlcpu {
namespace internal {

struct Tuning {
  // ---- Store policy (planner; measured on a 2-core Zen 4 VM with a 32 MiB L3) ----
  // Outputs of at least this size use non-temporal stores: they cannot stay in the last-level
  // cache anyway; smaller ones keep regular stores, which win on repeated calls.
  uint64_t stream_threshold_bytes = uint64_t{32} << 20;
  // Element gathers stream from a quarter of it (set on its own): they write far below the
  // non-temporal ceiling even warm, so a cold destination's read-for-ownership is pure loss.
  uint64_t element_stream_bytes = uint64_t{8} << 20;
  // ...but only rows of at least this many bytes (shorter staged rows stream few whole lines).
  uint64_t min_element_stream_row_bytes = 256;
  // Copy rows with gaps between them stream only from this length: shorter ones write their
  // partial first and last lines one by one, slower than the read-for-ownership saved.
  uint64_t min_gapped_stream_row_bytes = 1024;

  // ---- Work partition (planner; Zen 4) ----
  // Below this many bytes moved Execute runs inline and never touches the thread pool.
  uint64_t serial_cutoff_bytes = uint64_t{64} << 10;
  // The same for scatter steps: every slice reads every index, and the handoff to a second
  // thread cost more than it saved for the in-place KV-cache write (about 200 KB moved; AMD EPYC).
  uint64_t scatter_serial_cutoff_bytes = uint64_t{1} << 20;
  // Rows moving more than this are split into pieces of about this size (load balance).
  uint64_t piece_bytes = uint64_t{256} << 10;
  // A parallel task moves at least this much (task overhead against balance).
  uint64_t grain_bytes = uint64_t{32} << 10;

  // ---- Fills (planner; AMD EPYC VM, docs/performance.md session 34) ----
  // SLICE_GRAD zeroes only the slabs around a dense window of at least this many bytes (up to
  // two fill steps per dimension); a smaller window is zeroed with the rest of the output and
  // then written, since there the steps' own cost outweighs writing the window twice.
  uint64_t min_fill_around_bytes = uint64_t{64} << 10;

  // ---- Transpose tiles (planner) ----
  // Transposes of fewer than 8 output columns write up to this much per tile (the whole walk
  // where it fits): the per-tile cost against the src rows read at once.
  uint64_t narrow_transpose_tile_bytes = uint64_t{4} << 10;
  // Transposes whose output rows are longer than a line but at most this long are tiled one
  // output line wide: 16 fp32 src rows read at a time instead of all of them, the tiles' line
  // pieces still close together in the output (NCHW -> NHWC; docs/performance.md, session 30).
  uint64_t line_tile_max_row_bytes = 256;
  // Rows of runs shorter than half of this whose next row jumps at least this far in the input
  // are tiled (see TileRuns in lib/planner/tile.cc)...
  uint64_t run_tile_bytes = uint64_t{4} << 10;
  // ...reading each input stream up to this much at a time: longer reads per stream against
  // more output lines open at once (docs/performance.md, session 28).
  uint64_t run_tile_read_bytes = uint64_t{64} << 10;
  // ...and this many streams side by side, where their runs are adjacent in the output: each
  // output row then gets that many runs back to back (docs/performance.md, session 30).
  int64_t run_tile_streams = 4;

  // ---- Cache tiling of element gathers along an outer axis (planner; Zen 4, 1 MiB L2) ----
  // Strip-mine only when the gathered footprint (axis extent x row bytes) exceeds this.
  uint64_t strip_min_footprint_bytes = uint64_t{4} << 20;
  // A one-line strip is packed into scratch when it fits this (L2 with room to spare).
  uint64_t max_pack_bytes = uint64_t{512} << 10;
  // Packed strips widen to 2-4 lines while they fit this (the whole L2).
  uint64_t max_wide_pack_bytes = uint64_t{1} << 20;
  int64_t max_pack_lines = 4;
  // Scratch one compiled operator may hold (one packed-strip slot per thread, two more).
  uint64_t max_scratch_bytes = uint64_t{16} << 20;

  // ---- Fast-path limits (planner; Zen 4) ----
  // Fused clamp+gather rows while the row's span fits L2; beyond it, resolved loads 8 at a
  // time keep more misses in flight than vector gathers.
  uint64_t max_fused_span_bytes = uint64_t{512} << 10;
  // A K4 row prefetches the next row's span when that span is at most this (64 KiB).
  uint64_t max_row_prefetch_bytes = uint64_t{64} << 10;
  // Short K4 rows over a span above this prefetch each next-row item into L2 (below it the
  // lines more likely sit in the cache, where the prefetches only cost).
  uint64_t item_prefetch_span_bytes = uint64_t{4} << 20;

  // ---- Executor (compile-time; Zen 4) ----
  // Indices resolved per kernel call of an element gather (256 offsets = 2 KiB, stays in L1).
  static constexpr uint64_t kChunkItems = 256;
  // Rows of at most this many items can prefetch their successor's items (one chunk).
  static constexpr int64_t kMaxItemPrefetchRowItems = 256;
  // Software stream prefetch: distance ahead of the reads, and the step lengths for runs and
  // for strided rows (short steps keep the fill buffers evenly busy; very short ones cost calls).
  static constexpr uint64_t kPrefetchAheadBytes = uint64_t{8} << 10;
  static constexpr uint64_t kRunStepBytes = 256;
  static constexpr uint64_t kStridedStepBytes = 512;
  // Staged lines (StorePolicy::staged_lines; the window is LineStager's page): the largest
  // piece (a row with its borders) it takes, how far ahead the rows' input is prefetched, and
  // how many rows are framed per prefetch step (short steps spread the prefetches between the
  // copies; 32 rows' prefetches in one burst measured slower).
  static constexpr uint64_t kMaxStagedPieceBytes = uint64_t{2} << 10;
  static constexpr uint64_t kStagedPrefetchBytes = uint64_t{2} << 10;
  static constexpr uint64_t kStagedBatchRows = 4;
  // Co-run groups of whole rows (a SPLIT's or JOIN's steps) run row by row, every step's row in
  // turn, so that a SPLIT reads its input front to back; rows under kCoRunRowByRowBytes go
  // kCoRunBatchBytes of each step at a time, spreading the per-row cost (longer rows read that
  // way, in several passes over a window, lose the prefetchers). docs/performance.md, session 34.
  static constexpr uint64_t kCoRunRowByRowBytes = 128;
  static constexpr uint64_t kCoRunBatchBytes = 512;
  // Index-chosen blocks below this are copied (and prefetched for) in groups of about this.
  static constexpr uint64_t kBlockGroupBytes = uint64_t{1} << 10;
  // Items gathered between two slices of a spread next-row prefetch.
  static constexpr uint64_t kSpreadStepItems = 64;
  // Rows sharing indices resolve them once, all of them when they fit this stack buffer.
  static constexpr uint64_t kMaxSharedItems = 4096;
  // Rows sharing indices with input spans below this prefetch two rows ahead instead of one
  // (a short row is gathered in about the time a DRAM miss takes).
  static constexpr uint64_t kShortRowPrefetchBytes = uint64_t{8} << 10;
  // Packing a strip prefetches its rows (a pitch apart) this many rows ahead.
  static constexpr uint64_t kPackAheadRows = 32;
  // Packed strips: rows of indices prefetched this many rows ahead along the loop above.
  static constexpr int64_t kPackedIndexAheadRows = 16;

  // ---- Kernels (compile-time) ----
  // gather_blocks merges runs of adjacent blocks from this size on: a compare per block
  // against one copy call per run (Zen 4 VM, bench/run_merging_bench.cc).
  static constexpr size_t kMinMergeBlockBytes = 64;
  // gather_blocks prefetches later blocks itself from this size on; below it the executor's
  // stream prefetch, further ahead, wins cold (Zen 4 VM).
  static constexpr size_t kMinPrefetchBlockBytes = 128;
  // gather_blocks copies blocks up to this size by inline vector moves, larger ones by
  // copy_large: code size and branches against a call per block (Zen 4 VM).
  static constexpr size_t kInlineBlockBytes = 256;
  // gather_blocks' own prefetch: how many bytes of blocks ahead of the one copied (at least 2
  // blocks), how much of each block, and from which block size only the next block: lead time
  // against lines evicted before use (Zen 4 VM).
  static constexpr size_t kBlockPrefetchAheadBytes = 4096;
  static constexpr size_t kMaxBlockPrefetchBytes = 4096;
  static constexpr size_t kBlockPrefetchNextBytes = 1024;
  // gather_row prefetches its index stream this far ahead: latency covered against lines
  // evicted before use (Zen 4 VM, 1 MiB L2).
  static constexpr size_t kRowIndexAheadBytes = 4096;
  // gather_row's staged path: offsets clamped and scaled per pass of scalar loads (a stack
  // buffer that stays in L1 against more passes; Zen 4 VM).
  static constexpr size_t kRowStageItems = 64;
  // gather_row's item-by-item tail issues its prefetch slice every this many items (prefetch
  // calls against slices too coarse to spread; Zen 4 VM).
  static constexpr size_t kRowStepItems = 16;
};

// Today's values.
inline constexpr Tuning kDefaultTuning{};

static_assert(Tuning::kMaxItemPrefetchRowItems <= static_cast<int64_t>(Tuning::kChunkItems),
              "a row whose items are prefetched is resolved in one chunk");

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_CORE_TUNING_H_
