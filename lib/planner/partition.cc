// Classification into kernel shapes, the work partition, and the strict-mode index scans.
#include <algorithm>
#include <cstdlib>

#include "planner/plan.h"

namespace dmlcpu {
namespace internal {
namespace {

// Below this many bytes moved, Execute runs inline and never touches TBB.
constexpr uint64_t kSerialCutoffBytes = 64 << 10;
// Rows moving more than this are split into pieces of about this size.
constexpr uint64_t kPieceBytes = 256 << 10;
// A parallel task moves at least this much.
constexpr uint64_t kGrainBytes = 32 << 10;

uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Consecutive units (rows of a strip-tiled K4 plan) that read the same strip: the product of
// the innermost outer loops with input stride 0 (their rows differ only in indices and output).
uint64_t PackedRunUnits(const Plan& plan) {
  uint64_t units = 1;
  for (uint32_t i = plan.loop_count - 1; i-- > 0;) {
    if (plan.loops[i].in_stride_bytes != 0) break;
    units *= static_cast<uint64_t>(plan.loops[i].size);
  }
  return units;
}

}  // namespace

uint32_t IndexBytes(kernels::IndexType type) {
  return type == kernels::IndexType::kInt32 || type == kernels::IndexType::kUint32 ? 4 : 8;
}

const char* KernelShapeName(KernelShape shape) {
  switch (shape) {
    case KernelShape::kOneRun: return "K0 one contiguous run";
    case KernelShape::kRowsOfRuns: return "K1 rows of contiguous runs";
    case KernelShape::kStridedInner: return "K2 strided inner dimension";
    case KernelShape::kBlockGather: return "K3 block gather";
    case KernelShape::kElementGather: return "K4 element gather";
  }
  return "?";
}

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

Partition MakePartition(const Plan& plan) {
  Partition p;
  if (plan.transpose_tiles) {  // one unit = one 2-D tile of the last two loops
    const uint32_t tile_loops = 2;
    for (uint32_t i = 0; i + tile_loops < plan.loop_count; ++i) {
      p.rows *= static_cast<uint64_t>(plan.loops[i].size);
    }
    const uint64_t tile_bytes = static_cast<uint64_t>(plan.loops[plan.loop_count - 2].size) *
                                static_cast<uint64_t>(plan.loops[plan.loop_count - 1].size) *
                                2 * plan.elem_bytes;
    p.row_items = 1;
    p.piece_items = 1;
    p.unit_count = p.rows;
    p.bytes_moved = p.rows * tile_bytes;
    p.parallel = p.bytes_moved >= kSerialCutoffBytes;
    p.grain_units = tile_bytes >= kGrainBytes ? 1 : CeilDiv(kGrainBytes, tile_bytes);
    return p;
  }
  const Loop& row = plan.loops[plan.loop_count - 1];
  p.row_items = static_cast<uint64_t>(row.size);
  p.rows = 1;
  for (uint32_t i = 0; i + 1 < plan.loop_count; ++i) {
    p.rows *= static_cast<uint64_t>(plan.loops[i].size);
  }

  const uint64_t index_bytes = plan.component_count ? IndexBytes(plan.index_type) : 0;
  uint64_t item_bytes = 2 * uint64_t{plan.elem_bytes};
  uint64_t row_overhead_bytes = 0;
  if (plan.shape == KernelShape::kElementGather) {
    item_bytes += plan.component_count * index_bytes;
  } else {
    row_overhead_bytes = plan.component_count * index_bytes;
  }
  const uint64_t row_bytes = p.row_items * item_bytes + row_overhead_bytes;
  p.bytes_moved = p.rows * row_bytes;
  p.parallel = p.bytes_moved >= kSerialCutoffBytes;

  // Split long rows; pieces start on multiples of 64 bytes of a contiguous output.
  const uint64_t align_items = plan.elem_bytes >= 64 ? 1 : 64 / plan.elem_bytes;
  if (p.parallel && row_bytes > kPieceBytes && p.row_items > align_items) {
    uint64_t pieces = CeilDiv(row_bytes, kPieceBytes);
    uint64_t items = CeilDiv(p.row_items, pieces);
    items = CeilDiv(items, align_items) * align_items;
    p.piece_items = items;
    p.pieces_per_row = CeilDiv(p.row_items, items);
  } else {
    p.piece_items = p.row_items;
    p.pieces_per_row = 1;
  }
  p.unit_count = p.rows * p.pieces_per_row;
  const uint64_t unit_bytes = p.piece_items * item_bytes + row_overhead_bytes;
  p.grain_units = unit_bytes >= kGrainBytes ? 1 : CeilDiv(kGrainBytes, unit_bytes);
  if (plan.pack_bytes != 0) {
    // Every range of units packs the strips it starts in: ranges of whole strips only.
    p.align_units = PackedRunUnits(plan);
    p.grain_units = CeilDiv(std::max(p.grain_units, p.align_units), p.align_units) * p.align_units;
  }
  return p;
}

namespace {

// Largest tile in {max_items, max_items/2, ..., min_items} that divides `size` at least twice.
int64_t PickTile(int64_t size, int64_t max_items, int64_t min_items) {
  for (int64_t t = max_items; t >= min_items && t >= 1; t /= 2) {
    if (size % t == 0 && size >= 2 * t) return t;
  }
  return 0;
}

Loop Scaled(const Loop& loop, int64_t tile) {
  return {loop.size / tile, tile * loop.out_stride_bytes, tile * loop.in_stride_bytes,
          tile * loop.idx_stride_bytes};
}

Loop Tile(const Loop& loop, int64_t tile) {
  return {tile, loop.out_stride_bytes, loop.in_stride_bytes, loop.idx_stride_bytes};
}

// K2 rows whose input elements each sit on a different cache line (a transposed view): tile
// the row with the outer loop that walks the input contiguously, so each input line is used
// whole while it is in L1. {4096,4096} fp32 read with strides {1,4096}: loops {4096 x 4096}
// become {256, 64, 16, 64} (16 rows of 64 elements per tile: 64 input lines, each read whole).
void TileTranspose(Plan* plan) {
  const uint32_t last = plan->loop_count - 1;
  if (plan->component_count != 0 || last == 0 || plan->loop_count + 2 > kMaxRank) return;
  const Loop row = plan->loops[last];
  const int64_t elem = plan->elem_bytes;
  if (std::abs(row.in_stride_bytes) < 64) return;
  int b = -1;  // the outer loop with the smallest non-zero input stride below a cache line
  for (uint32_t i = 0; i < last; ++i) {
    const int64_t stride = std::abs(plan->loops[i].in_stride_bytes);
    if (stride != 0 && stride < 64 &&
        (b < 0 || stride < std::abs(plan->loops[b].in_stride_bytes))) {
      b = static_cast<int>(i);
    }
  }
  if (b < 0) return;
  const Loop walk = plan->loops[b];
  // A true transpose (input contiguous along `walk`, output contiguous along the row) is
  // copied tile by tile with a line-blocked kernel: 64 x 64 tiles. Otherwise the strided
  // rows are only reordered: tiles of one input cache line along `walk` by 64 row elements.
  const bool transpose = walk.in_stride_bytes == elem && row.out_stride_bytes == elem;
  const int64_t walk_tile =
      transpose ? PickTile(walk.size, 64, 8)
                : PickTile(walk.size, std::max<int64_t>(1, 64 / std::abs(walk.in_stride_bytes)), 4);
  if (walk_tile == 0) return;
  const int64_t row_tile =
      row.size <= (transpose ? 64 : 256) ? row.size : PickTile(row.size, 64, 16);
  if (row_tile == 0) return;
  Loop loops[kMaxRank];
  uint32_t count = 0;
  for (uint32_t i = 0; i < last; ++i) {
    if (static_cast<int>(i) != b) loops[count++] = plan->loops[i];
  }
  // Tiles sweep along the walk loop innermost: consecutive tiles then share their input lines'
  // pages, and only the output rows change pages.
  if (row_tile != row.size) loops[count++] = Scaled(row, row_tile);
  loops[count++] = Scaled(walk, walk_tile);
  loops[count++] = Tile(walk, walk_tile);
  loops[count++] = Tile(row, row_tile);
  for (uint32_t i = 0; i < count; ++i) plan->loops[i] = loops[i];
  plan->loop_count = count;
  plan->tiled = true;
  plan->transpose_tiles = transpose;
}

// K4 rows whose gathered axis is an outer loop (GATHER_ELEMENTS along axis 0 of a large tensor)
// read a random input row per element. Strip-mine the row into strips of up to 256 bytes and
// walk the strips outermost: one strip of the input (axis extent x strip width) stays in L2
// while every output row takes its slice of it. {4096,4096} fp32, axis 0: loops
// {4096 rows, 4096 cols} become {64 strips, 4096 rows, 64 cols}, each strip packed (1 MiB).
void TileGatherStrips(Plan* plan, uint32_t concurrency) {
  constexpr uint64_t kTileMinFootprintBytes = 4 << 20;
  const uint32_t last = plan->loop_count - 1;
  if (plan->component_count != 1 || last == 0 || plan->loop_count + 1 > kMaxRank) return;
  const Loop row = plan->loops[last];
  const IndexComponent& comp = plan->components[0];
  const int64_t elem = plan->elem_bytes;
  if (row.in_stride_bytes != elem || comp.pitch_bytes < row.size * elem ||
      comp.dim_size * static_cast<uint64_t>(row.size * elem) < kTileMinFootprintBytes) {
    return;
  }
  // Strips are packed (plan.pack_bytes) when a packed strip of one cache line fits L2 well:
  // then every output row gathers from a contiguous copy in L2, whatever the row pitch. Unpacked,
  // a strip whose rows are a power-of-two pitch apart maps to a few cache sets only and misses
  // even L3 ({4096,4096} fp32 axis 0, int64 ids, 1 thread: 62 ms unpacked in 256-byte strips; a
  // prototype of packed 64-byte strips 25 ms).
  constexpr uint64_t kMaxPackBytes = 512 << 10;
  const int64_t line_items = std::max<int64_t>(1, 64 / elem);
  // Packing reads the whole strip (dim_size lines): only worth it when enough consecutive rows
  // gather from one packed strip, at least a sixteenth of the axis. With an input-moving loop
  // inside the strip loop, or few output rows along the axis, the strip would be packed for a
  // handful of rows; such plans take the unpacked strips. Measured, repeated calls, GB/s, 1
  // thread / 2 threads, int64 ids, unpacked -> packed: {4096,4096} fp32 with 512 output rows
  // 2.3 / 4.7 -> 6.0 / 11.5, 256 rows 2.3 / 4.5 -> 3.6 / 6.5, 128 rows about even (2.1-2.5 /
  // 3.9-5.3 -> 1.9-2.2 / 3.5-3.6), 64 rows 2.0-4.2 / 3.8-9.6 -> 1.0 / 1.9; {4096,8192} fp16, 256
  // rows 1.6 / 3.3 -> 2.8 / 5.5; {8192,2048} fp32, 512 rows 2.3 / 4.4 -> 3.0 / 5.5; {4096,2048}
  // fp64, 256 rows 2.4 / 3.8 -> 3.1 / 4.1. (The loops above the row keep their order when
  // tiled, so the rows that share a strip can be counted before tiling.)
  const uint64_t run_units = PackedRunUnits(*plan);
  const bool pack = comp.pitch_bytes > 0 && row.size % line_items == 0 &&
                    comp.dim_size * static_cast<uint64_t>(line_items * elem) <= kMaxPackBytes &&
                    run_units >= std::max<uint64_t>(1, comp.dim_size / 16);
  // Packed strips of 2-, 4- and 8-byte elements are 2 or 4 lines wide where the packed strip
  // still fits the 1 MiB L2: each output row then reads its ids and writes its items in runs 2-4
  // times as long, and pays for DRAM pages and row changes once per run. Repeated calls, GB/s,
  // 1 thread / 2 threads, int64 ids unless noted, 1 line -> 4: {4096,4096} fp32 13.5 / 22.7 ->
  // 18.0 / 35.1 (int32 ids 9.0 / 16.6 -> 13.3 / 25.5; 2 lines 16.5 / 32.5, 8 lines (2 MiB)
  // 16.0 / 30.3), {1024,16384} fp32 11.9 / 23.6 -> 19.8 / 38.8, {4096,2048} fp64 10.1 / 19.5 ->
  // 19.4 / 37.7; {8192,2048} fp32 1 -> 2 lines (1 MiB) 12.2 / 24.0 -> 15.4 / 30.0. fp16 (since
  // gather_row stages its offsets for them): {4096,8192} 12.8 / 22.4 -> 14.8 / 28.9, {4096,4096}
  // int32 ids 8.8 / 18.0 -> 11.5 / 22.1, {8192,4096} 2 lines 12.5 / 24.6 -> 15.0 / 27.9. uint8
  // loses: {4096,16384}, int32 ids, 8.7 / 17.3 -> 8.2 / 15.8 with 2 lines.
  // A device with many threads keeps narrower strips: each thread's scratch slot must fit
  // kMaxScratchBytes (one slot per thread and two more), and the strips, which are the tasks'
  // units of work, must number at least 4 per thread (a 16-thread device gets 2-line strips of
  // {4096,4096} fp32, 32 threads one line; not measured beyond 2 cores).
  constexpr uint64_t kMaxWidePackBytes = 1 << 20;
  constexpr int64_t kMaxPackLines = 4;
  const uint64_t threads = concurrency == 0 ? 2 : concurrency;
  uint64_t strip_sets = 1;  // strip-sized blocks per strip column: the loops above, less shared
  for (uint32_t i = 0; i < last; ++i) strip_sets *= static_cast<uint64_t>(plan->loops[i].size);
  strip_sets /= std::max<uint64_t>(1, run_units);
  int64_t pack_lines = 1;
  while (pack && elem >= 2 && pack_lines < kMaxPackLines) {
    const int64_t wider_items = 2 * pack_lines * line_items;
    const uint64_t wider_bytes = comp.dim_size * static_cast<uint64_t>(wider_items * elem);
    if (row.size % wider_items != 0 || wider_bytes > kMaxWidePackBytes ||
        (threads + 2) * wider_bytes > kMaxScratchBytes ||
        static_cast<uint64_t>(row.size / wider_items) * strip_sets < 4 * threads) {
      break;
    }
    pack_lines *= 2;
  }
  const int64_t strip = pack ? pack_lines * line_items
                             : PickTile(row.size, std::max<int64_t>(1, 256 / elem),
                                        std::max<int64_t>(1, 64 / elem));
  if (strip == 0) return;
  Loop loops[kMaxRank];
  uint32_t count = 0;
  loops[count++] = Scaled(row, strip);
  for (uint32_t i = 0; i < last; ++i) loops[count++] = plan->loops[i];
  loops[count++] = Tile(row, strip);
  for (uint32_t i = 0; i < count; ++i) plan->loops[i] = loops[i];
  plan->loop_count = count;
  plan->tiled = true;
  plan->pack_bytes = pack ? comp.dim_size * static_cast<uint64_t>(strip * elem) : 0;
}

}  // namespace

void TileForLocality(Plan* plan, uint32_t concurrency) {
  if (plan->shape == KernelShape::kStridedInner) TileTranspose(plan);
  if (plan->shape == KernelShape::kElementGather) TileGatherStrips(plan, concurrency);
}

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

}  // namespace

void ChooseFastPaths(Plan* plan) {
  plan->indexed_blocks = false;
  plan->merge_runs = false;
  plan->rows_share_indices = false;
  plan->fused_row_gather = false;
  plan->index_stream_prefetch = false;
  plan->stream_prefetch = false;
  plan->prefetch_next_row_items = false;
  const uint32_t last = plan->loop_count - 1;
  const Loop& row = plan->loops[last];
  const int64_t elem = plan->elem_bytes;
  // Software prefetch along the input stream where the hardware prefetchers lose it: reads that
  // go down (a negative input stride on any loop) or jump to index-chosen blocks (K3). An
  // ascending stream they follow by themselves, and there the extra steps only cost (measured,
  // 1 thread, cold: {4096,4096} fp32 flipped on the last axis 0.34 -> 0.80 of the best copy,
  // on the first axis 0.60 -> 0.76; the KV-cache window 0.92 -> 0.87 and [::2, ::2]
  // 0.42 -> 0.31, so not there). Contiguous rows only with non-temporal stores, which the
  // executor then streams in steps of a few lines; with regular stores a row stays one memcpy:
  // glibc's large copies write whole lines without reading them first, which short pieces
  // would lose (16 KiB rows: 46 GB/s whole, 33 GB/s in prefetched 1 KiB pieces). Small
  // operators run from the caches, where prefetching would only add instructions; tiled plans
  // revisit their lines.
  bool descending = false;
  for (uint32_t i = 0; i <= last; ++i) {
    descending = descending || plan->loops[i].in_stride_bytes < 0;
  }
  const bool contiguous_row = row.in_stride_bytes == elem && row.out_stride_bytes == elem;
  const bool dense_row = row.in_stride_bytes >= -64 && row.in_stride_bytes <= 64;
  plan->stream_prefetch = plan->partition.bytes_moved >= kSerialCutoffBytes &&
                          !plan->tiled && dense_row &&
                          (descending || plan->shape == KernelShape::kBlockGather) &&
                          plan->shape != KernelShape::kElementGather &&
                          (plan->stream_stores || !contiguous_row);
  // K4: a dense forward index stream, which the hardware prefetchers fall behind
  // (GATHER_ELEMENTS along the last axis of {4096,4096} fp32 with int64 indices, 1 thread,
  // cold: 15.0 ms without a software prefetch, 9.1 ms 4 KiB ahead). Tiled rows are strips, whose
  // indices do not run on into the next row's.
  plan->index_stream_prefetch = plan->shape == KernelShape::kElementGather && !plan->tiled &&
                                row.idx_stride_bytes > 0 && row.idx_stride_bytes <= 64;
  // Rows with outer loops that all keep the same ids (index stride 0) share them.
  bool shared = last >= 1;
  for (uint32_t i = 0; i < last; ++i) shared = shared && plan->loops[i].idx_stride_bytes == 0;
  // One fused pass per row (or piece of a row) where each element is one clamped index into
  // the row's base (GATHER_ELEMENTS along the last axis, a GATHER of single elements from a
  // 1-D table, and any element gather of that form), while the row's span stays in L2:
  // {4096,4096} fp32 GATHER_ELEMENTS along axis 1, int64 ids, cold: 10.5 -> 7.8 ms on 1 thread
  // (0.26 -> 0.29 of the best copy), 0.36-0.38 -> 0.46-0.47 on 2; rows of 32768 (split into
  // pieces) 40 -> 44 GB/s on 1 thread, 56-66 -> 69-87 on 2. Over a wider span the reads come
  // from L3 or DRAM, where resolving and loading 8 at a time keeps more of them in flight than
  // vector gathers: 1,048,576 ids into 4 MiB of fp32, 1 thread, 46 GB/s resolved, 39 fused
  // (rows of 200000 fp32 with 4096 ids each: even).
  constexpr uint64_t kMaxFusedSpanBytes = 512 << 10;
  bool forward = false;
  const uint64_t span_bytes = RowSpanBytes(*plan, &forward);
  plan->fused_row_gather = plan->shape == KernelShape::kElementGather && !shared &&
                           !plan->tiled && plan->component_count == 1 &&
                           row.in_stride_bytes == 0 && row.out_stride_bytes == elem &&
                           row.idx_stride_bytes == IndexBytes(plan->index_type) &&
                           span_bytes <= kMaxFusedSpanBytes;
  if (plan->partition.pieces_per_row != 1) return;
  if (plan->shape == KernelShape::kBlockGather && last >= 1 &&
      plan->loops[last - 1].in_stride_bytes == 0 && plan->loops[last - 1].idx_stride_bytes != 0 &&
      row.in_stride_bytes == elem && row.out_stride_bytes == elem) {
    plan->indexed_blocks = true;
    const int64_t block_bytes = row.size * elem;
    plan->merge_runs = plan->loops[last - 1].out_stride_bytes == block_bytes &&
                       static_cast<uint64_t>(block_bytes) >= kernels::kMinMergeBlockBytes;
    // Blocks below a cache line: one prefetch per block would cost as much as the copy. Blocks
    // from kMinPrefetchBlockBytes on prefetch inside the block gather kernel with regular
    // stores (cheaper per block, and as fast cold: 256-byte blocks, 1 thread, 0.42 of the best
    // copy vs 0.39 with the stream prefetcher, 105 vs 77 GB/s warm); smaller ones need the
    // stream prefetcher's distance across index chunks. Streamed blocks use it at every size
    // (they are copied in steps of a few lines anyway).
    plan->stream_prefetch =
        plan->partition.bytes_moved >= kSerialCutoffBytes && block_bytes >= 64 &&
        (plan->stream_stores ||
         static_cast<uint64_t>(block_bytes) < kernels::kMinPrefetchBlockBytes);
  }
  if (plan->shape == KernelShape::kElementGather && last >= 1) {
    plan->rows_share_indices = shared;
    // Random reads within a row come from DRAM at the latency of a miss each; prefetching the
    // next row's whole span keeps many misses in flight. Only for forward, compact spans.
    constexpr uint64_t kMaxPrefetchBytes = 64 << 10;
    plan->row_prefetch_bytes = forward && span_bytes <= kMaxPrefetchBytes ? span_bytes : 0;
    // Short rows of random reads over more than 4 MiB, which no span prefetch covers: each item's
    // line is prefetched into L2 one row ahead. GATHER_ELEMENTS along axis 0 with 16 output rows
    // (strip-tiled into 64-item rows, too few to pack), int64 ids, GB/s cold, 1 thread: {4096,4096}
    // fp32 (64 MiB) 1.9 -> 3.9-4.1, fp16 1.0 -> 2.4-2.6, fp64 (int32 ids) 1.4 -> 3.4, 2 threads
    // 1.9-3.4 -> 3.8-6.3; 128 rows 2.1 -> 3.6; {2048,2048} fp32 (16 MiB) 2.2 -> 4.0, fp16 (8 MiB)
    // 1.3 -> 2.6. Prefetching into L1 instead gained nothing (2.0); two rows ahead measured the
    // same, four or more less. Where the lines sit in the cache the prefetches only cost: called
    // repeatedly (the touched lines stay cached), {2048,2048} fp32 11.6 -> 9.3 GB/s and fp16 7.1 ->
    // 6.9, {4096,4096} fp32 6.0 -> 5.0 and fp16 5.8-6.3 -> 4.1-4.3; {1024,2048} fp32 (8 MiB)
    // 7.8-8.0 -> 7.3-9.7 (cold 1.7-2.2 -> 2.7-4.0); and {1024,1024} fp32 (4 MiB) 13.5 -> 10.9
    // repeated, cold 2.3 -> 4.7: left out, as such a tensor more likely sits in the cache. Other
    // short K4 rows over such spans (GATHER_ELEMENTS along the last axis with at most 256 ids per
    // row, GATHER_ND element tuples) take the rule too, unmeasured.
    constexpr uint64_t kItemPrefetchSpanBytes = uint64_t{4} << 20;
    plan->prefetch_next_row_items = !shared && !plan->fused_row_gather && plan->pack_bytes == 0 &&
                                    row.size <= kMaxItemPrefetchRowItems &&
                                    span_bytes > kItemPrefetchSpanBytes;
  }
}

void BuildIndexScans(Plan* plan) {
  const OpGeometry& g = plan->geometry;
  const TensorInfo& idx = g.indices;
  const bool tuples =
      g.type == DML_OPERATOR_GATHER_ND || g.type == DML_OPERATOR_GATHER_ND1;
  // Tuple dimension excluded for GATHER_ND(1): each tuple element gets its own scan.
  const uint32_t dims = tuples ? idx.rank - 1 : idx.rank;
  plan->tuple_size = tuples ? idx.sizes[idx.rank - 1] : 1;
  plan->scan_count = plan->component_count;
  for (uint32_t c = 0; c < plan->component_count; ++c) {
    IndexScan& scan = plan->scans[c];
    scan = IndexScan();
    scan.component = c;
    scan.dim_size = plan->components[c].dim_size;
    scan.offset_bytes = plan->components[c].idx_offset_bytes;
    // Collapse like the main loops: row-major order (and so flat positions) is preserved.
    uint32_t count = 0;
    for (uint32_t d = 0; d < dims; ++d) {
      if (idx.sizes[d] == 1) continue;
      const int64_t size = idx.sizes[d];
      const int64_t stride = static_cast<int64_t>(idx.strides_elems[d]) * idx.elem_bytes;
      if (count > 0 && scan.strides_bytes[count - 1] == size * stride) {
        scan.sizes[count - 1] *= size;
        scan.strides_bytes[count - 1] = stride;
      } else {
        scan.sizes[count] = size;
        scan.strides_bytes[count] = stride;
        ++count;
      }
    }
    if (count == 0) {
      scan.sizes[0] = 1;
      scan.strides_bytes[0] = idx.elem_bytes;
      count = 1;
    }
    scan.loop_count = count;
  }
}

}  // namespace internal
}  // namespace dmlcpu
