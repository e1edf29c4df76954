// SPDX-License-Identifier: Apache-2.0
// Cache tiling: loop reorders for rows that would otherwise miss the cache on every element.
// Loop order never changes results (every output element is computed independently). The
// measurements behind the tile sizes are in docs/performance.md#planner.
#include <algorithm>
#include <cstdlib>

#include "planner/planner.h"

namespace dmlcpu {
namespace internal {
namespace {

// Transposes with fewer columns (output row elements) than this are narrow (see TileTranspose).
constexpr int64_t kNarrowTransposeCols = 8;
// Rows of runs are tiled only where the jumping loop reads at least this many streams (fewer
// share a cache set's ways without evicting each other).
constexpr int64_t kMinRunTileStreams = 8;

int64_t FloorPow2(int64_t v) {
  int64_t p = 1;
  while (p <= v / 2) p *= 2;
  return p;
}

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
// become {64, 64, 64, 64} (64 x 64 tiles: 64 input rows of 256 bytes, each line read whole).
void TileTranspose(Plan* plan, const Tuning& tuning) {
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
  // Transposes of a few columns (DEPTH_TO_SPACE's block pairs) take longer tiles along the walk,
  // up to tuning.narrow_transpose_tile_bytes written per tile: the whole walk where it fits.
  int64_t walk_tile = 0;
  if (transpose && row.size < kNarrowTransposeCols) {
    const int64_t tile_bytes = static_cast<int64_t>(tuning.narrow_transpose_tile_bytes);
    const int64_t max_items = std::max<int64_t>(64, tile_bytes / (row.size * elem));
    walk_tile = walk.size <= max_items ? walk.size : PickTile(walk.size, FloorPow2(max_items), 8);
  } else if (transpose) {
    walk_tile = PickTile(walk.size, 64, 8);
  } else {
    walk_tile =
        PickTile(walk.size, std::max<int64_t>(1, 64 / std::abs(walk.in_stride_bytes)), 4);
  }
  if (walk_tile == 0) return;
  // Short output rows (NCHW -> NHWC's 64 channels): tiles one output line wide, so that each
  // reads a line's worth of src rows (16 fp32) rather than all of them at once.
  const int64_t line_items = 64 / elem;
  const bool line_tiles = transpose && 64 % elem == 0 && row.size > line_items &&
                          row.size % line_items == 0 &&
                          static_cast<uint64_t>(row.size * elem) <= tuning.line_tile_max_row_bytes;
  const int64_t row_tile = line_tiles                          ? line_items
                           : row.size <= (transpose ? 64 : 256) ? row.size
                                                                : PickTile(row.size, 64, 16);
  if (row_tile == 0) return;
  Loop loops[kMaxRank];
  uint32_t count = 0;
  for (uint32_t i = 0; i < last; ++i) {
    if (static_cast<int>(i) != b) loops[count++] = plan->loops[i];
  }
  // Tiles sweep along the walk loop innermost: consecutive tiles then share their input lines'
  // pages, and only the output rows change pages.
  if (row_tile != row.size) loops[count++] = Scaled(row, row_tile);
  if (walk_tile != walk.size) loops[count++] = Scaled(walk, walk_tile);
  loops[count++] = Tile(walk, walk_tile);
  loops[count++] = Tile(row, row_tile);
  for (uint32_t i = 0; i < count; ++i) plan->loops[i] = loops[i];
  plan->loop_count = count;
  plan->tiling = transpose ? Tiling::kTransposeTiles : Tiling::kStridedTiles;
}

// K1 rows of short runs whose next row jumps far in the input while an outer loop continues each
// run contiguously (a permute that moves a middle axis: attention heads {0,2,1,3}). Untiled,
// consecutive rows read from as many far-apart streams as the jumping loop is long; a
// power-of-two apart, those share cache sets, whose lines (prefetched ones too) evict each other
// before use. Tile the continuing loop under the jumping one, so that each stream is read
// tuning.run_tile_read_bytes at a time. Where the jumping loop's runs are adjacent in the
// output, it is split too, and tuning.run_tile_streams streams are read side by side, their runs
// written back to back: {2048 seq, 32 heads, run of 256 bytes} becomes
// {8, 8, 256, 4, 256 bytes} (without the split {8, 32, 256, 256 bytes}).
void TileRuns(Plan* plan, const Tuning& tuning) {
  const uint32_t last = plan->loop_count - 1;
  if (plan->component_count != 0 || last < 2 || plan->loop_count + 1 > kMaxRank) return;
  const Loop row = plan->loops[last];
  const Loop jump = plan->loops[last - 1];
  const int64_t run_bytes = row.size * plan->elem_bytes;
  const auto tile_bytes = static_cast<int64_t>(tuning.run_tile_bytes);
  if (run_bytes * 2 > tile_bytes || jump.size < kMinRunTileStreams ||
      std::abs(jump.in_stride_bytes) < tile_bytes) {
    return;
  }
  int b = -1;  // the outer loop that continues the run in the input
  for (uint32_t i = 0; i + 1 < last; ++i) {
    if (plan->loops[i].in_stride_bytes == run_bytes) b = static_cast<int>(i);
  }
  if (b < 0) return;
  const Loop walk = plan->loops[b];
  const int64_t max_items =
      FloorPow2(static_cast<int64_t>(tuning.run_tile_read_bytes) / run_bytes);
  const int64_t walk_tile = walk.size <= max_items ? walk.size : PickTile(walk.size, max_items, 2);
  if (walk_tile == 0) return;
  // Streams side by side: a divisor of the jumping loop, its runs adjacent in the output.
  const int64_t streams = tuning.run_tile_streams;
  const bool group = streams > 1 && jump.out_stride_bytes == run_bytes &&
                     jump.size % streams == 0 && jump.size > streams &&
                     plan->loop_count + 2 <= kMaxRank;
  Loop loops[kMaxRank];
  uint32_t count = 0;
  for (uint32_t i = 0; i < last; ++i) {
    if (static_cast<int>(i) == b) {
      if (walk_tile != walk.size) loops[count++] = Scaled(walk, walk_tile);
    } else if (i + 1 == last && group) {
      loops[count++] = Scaled(jump, streams);
    } else {
      loops[count++] = plan->loops[i];
    }
  }
  loops[count++] = Tile(walk, walk_tile);
  if (group) loops[count++] = Tile(jump, streams);
  loops[count++] = row;
  for (uint32_t i = 0; i < count; ++i) plan->loops[i] = loops[i];
  plan->loop_count = count;
  plan->tiling = Tiling::kRunTiles;
}

// K4 rows whose gathered axis is an outer loop (GATHER_ELEMENTS along axis 0 of a large tensor)
// read a random input row per element. Strip-mine the row into strips of up to 256 bytes and
// walk the strips outermost: one strip of the input (axis extent x strip width) stays in L2
// while every output row takes its slice of it. {4096,4096} fp32, axis 0: loops
// {4096 rows, 4096 cols} become {64 strips, 4096 rows, 64 cols}, each strip packed (1 MiB).
void TileGatherStrips(Plan* plan, uint32_t concurrency, const Tuning& tuning) {
  const uint32_t last = plan->loop_count - 1;
  if (plan->component_count != 1 || last == 0 || plan->loop_count + 1 > kMaxRank) return;
  const Loop row = plan->loops[last];
  const IndexComponent& comp = plan->components[0];
  const int64_t elem = plan->elem_bytes;
  if (row.in_stride_bytes != elem || comp.pitch_bytes < row.size * elem ||
      comp.dim_size * static_cast<uint64_t>(row.size * elem) < tuning.strip_min_footprint_bytes) {
    return;
  }
  // Strips are packed when a packed strip of one cache line fits L2 well: every output row then
  // gathers from a contiguous copy, whatever the row pitch (unpacked, a power-of-two pitch maps
  // a strip to a few cache sets). Packing reads the whole strip, so only where enough
  // consecutive rows gather from one strip: at least a sixteenth of the axis. (The loops above
  // the row keep their order when tiled, so those rows can be counted before tiling.)
  const int64_t line_items = std::max<int64_t>(1, 64 / elem);
  const uint64_t run_units = PackedRunUnits(*plan);
  const bool pack = comp.pitch_bytes > 0 && row.size % line_items == 0 &&
                    comp.dim_size * static_cast<uint64_t>(line_items * elem) <=
                        tuning.max_pack_bytes &&
                    run_units >= std::max<uint64_t>(1, comp.dim_size / 16);
  // Packed strips of 2- to 8-byte elements widen to 2 or 4 lines while the strip fits L2 (longer
  // runs of ids and output per row), each thread's slot fits the scratch budget, and there are
  // still at least 4 strips per thread.
  const uint64_t threads = concurrency == 0 ? 2 : concurrency;
  uint64_t strip_sets = 1;  // strip-sized blocks per strip column: the loops above, less shared
  for (uint32_t i = 0; i < last; ++i) strip_sets *= static_cast<uint64_t>(plan->loops[i].size);
  strip_sets /= std::max<uint64_t>(1, run_units);
  int64_t pack_lines = 1;
  while (pack && elem >= 2 && pack_lines < tuning.max_pack_lines) {
    const int64_t wider_items = 2 * pack_lines * line_items;
    const uint64_t wider_bytes = comp.dim_size * static_cast<uint64_t>(wider_items * elem);
    if (row.size % wider_items != 0 || wider_bytes > tuning.max_wide_pack_bytes ||
        (threads + 2) * wider_bytes > tuning.max_scratch_bytes ||
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
  plan->tiling = pack ? Tiling::kPackedStrips : Tiling::kStrips;
  plan->pack_bytes = pack ? comp.dim_size * static_cast<uint64_t>(strip * elem) : 0;
}

}  // namespace

void TileForLocality(Plan* plan, uint32_t concurrency, const Tuning& tuning) {
  plan->tiling = Tiling::kNone;
  plan->pack_bytes = 0;
  if (plan->shape == KernelShape::kRowsOfRuns) TileRuns(plan, tuning);
  if (plan->shape == KernelShape::kStridedInner) TileTranspose(plan, tuning);
  if (plan->shape == KernelShape::kElementGather) TileGatherStrips(plan, concurrency, tuning);
}

}  // namespace internal
}  // namespace dmlcpu
