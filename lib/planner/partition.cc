// SPDX-License-Identifier: Apache-2.0
// The work partition of a step: units (row pieces, or 2-D tiles), the grain of a parallel
// task, the serial cutoff, and the alignment that keeps packed strips within one task.
#include <algorithm>

#include "planner/planner.h"

namespace dmlcpu {
namespace internal {
namespace {

uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

}  // namespace

uint32_t IndexBytes(kernels::IndexType type) {
  return type == kernels::IndexType::kInt32 || type == kernels::IndexType::kUint32 ? 4 : 8;
}

uint64_t PackedRunUnits(const Plan& plan) {
  uint64_t units = 1;
  for (uint32_t i = plan.loop_count - 1; i-- > 0;) {
    if (plan.loops[i].in_stride_bytes != 0) break;
    units *= static_cast<uint64_t>(plan.loops[i].size);
  }
  return units;
}

Partition MakePartition(const Plan& plan, const Tuning& tuning) {
  Partition p;
  if (plan.tiling == Tiling::kTransposeTiles) {  // one unit = one 2-D tile of the last two loops
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
    p.parallel = p.bytes_moved >= tuning.serial_cutoff_bytes;
    p.grain_units = tile_bytes >= tuning.grain_bytes ? 1 : CeilDiv(tuning.grain_bytes, tile_bytes);
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
  p.parallel = p.bytes_moved >= tuning.serial_cutoff_bytes;

  // Split long rows; pieces start on multiples of 64 bytes of a contiguous output.
  const uint64_t align_items = plan.elem_bytes >= 64 ? 1 : 64 / plan.elem_bytes;
  if (p.parallel && row_bytes > tuning.piece_bytes && p.row_items > align_items) {
    uint64_t pieces = CeilDiv(row_bytes, tuning.piece_bytes);
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
  p.grain_units = unit_bytes >= tuning.grain_bytes ? 1 : CeilDiv(tuning.grain_bytes, unit_bytes);
  if (plan.pack_bytes != 0) {
    // Every range of units packs the strips it starts in: ranges of whole strips only.
    p.align_units = PackedRunUnits(plan);
    p.grain_units = CeilDiv(std::max(p.grain_units, p.align_units), p.align_units) * p.align_units;
  }
  return p;
}

}  // namespace internal
}  // namespace dmlcpu
