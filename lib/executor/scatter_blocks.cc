// SPDX-License-Identifier: Apache-2.0
// The scatter step's strips assembled outside the walks (scatter_rows.h): a fused copy's region
// copied from the input, and a strip of columns gathered into a scratch block, updated there
// and written back. Allocation-free; no TBB, no Highway.
#include <algorithm>
#include <cstring>

#include "core/portability.h"
#include "executor/scatter_rows.h"

namespace dmlcpu {
namespace internal {
namespace {

// Rows of a scratch-block strip (ScatterPlan::block_bytes) prefetched ahead of the one copied.
constexpr int64_t kBlockAhead = 8;

}  // namespace

void CopyStripRegion(const ScatterPlan& plan, const ScatterArgs& args, const ScatterLoop* loops,
                     int64_t out_off) {
  const uint32_t count = plan.loop_count;
  ScatterLoop region[kMaxRank];
  std::copy(loops, loops + count, region);
  const ScatterComponent& axis = plan.components[0];
  region[plan.fused_axis_loop] = {static_cast<int64_t>(axis.dim_size), axis.pitch_bytes, 0, 0};
  const ScatterLoop& row = region[count - 1];
  const auto elem = static_cast<int64_t>(plan.elem_bytes);
  const bool contiguous = row.out_stride_bytes == elem;
  const size_t run_bytes = static_cast<size_t>(row.size) * plan.elem_bytes;
  uint64_t rows = 1;
  for (uint32_t d = 0; d + 1 < count; ++d) rows *= static_cast<uint64_t>(region[d].size);
  int64_t coord[kMaxRank] = {};
  int64_t unused_upd = 0, unused_idx = 0;
  for (uint64_t r = 0; r < rows; ++r) {
    if (contiguous) {
      std::memcpy(args.output + out_off, args.input + out_off, run_bytes);
    } else {
      plan.copy_region_row(args.output + out_off, row.out_stride_bytes, args.input + out_off,
                           row.out_stride_bytes, static_cast<size_t>(row.size));
    }
    NextRow(region, count, coord, &out_off, &unused_upd, &unused_idx);
  }
}

void ApplyStripInBlock(const ScatterPlan& plan, const ScatterArgs& args, uint8_t* block,
                       int64_t first, int64_t count) {
  const ScatterLoop& outer = plan.loops[0];
  const ScatterLoop& row = plan.loops[1];
  const ScatterComponent& axis = plan.components[0];
  const auto dim = static_cast<int64_t>(axis.dim_size);
  const auto block_pitch_bytes = count * static_cast<int64_t>(plan.elem_bytes);
  const size_t strip_bytes = static_cast<size_t>(block_pitch_bytes);
  const uint8_t* from = (args.input != nullptr ? args.input : args.output) +
                        first * row.out_stride_bytes;
  // Every row of a strip lies on its own page, too far apart for the hardware prefetchers: the
  // rows kBlockAhead ahead are prefetched.
  const auto prefetch_rows = [&](const uint8_t* p, int64_t bytes, bool write) {
    for (int64_t at = 0; at < bytes; at += kLineBytes) {
      if (write) {
        PrefetchWrite(p + at);
      } else {
        PrefetchRead(p + at);
      }
    }
  };
  for (int64_t a = 0; a < dim; ++a) {
    if (a + kBlockAhead < dim) {
      prefetch_rows(from + (a + kBlockAhead) * axis.pitch_bytes, block_pitch_bytes, false);
    }
    std::memcpy(block + a * block_pitch_bytes, from + a * axis.pitch_bytes, strip_bytes);
  }
  const uint8_t* upd = args.updates + first * row.upd_stride_bytes;
  const uint8_t* idx = args.indices + first * row.idx_stride_bytes;
  const int64_t idx_bytes = count * row.idx_stride_bytes;
  for (int64_t r = 0; r < outer.size; ++r) {
    if (r + kBlockAhead < outer.size) {
      prefetch_rows(upd + (r + kBlockAhead) * outer.upd_stride_bytes,
                    count * row.upd_stride_bytes, false);
      prefetch_rows(idx + (r + kBlockAhead) * outer.idx_stride_bytes, idx_bytes, false);
    }
    plan.apply_indexed(block, row.out_stride_bytes, upd + r * outer.upd_stride_bytes,
                       row.upd_stride_bytes, idx + r * outer.idx_stride_bytes,
                       row.idx_stride_bytes, static_cast<size_t>(count), axis.dim_size,
                       block_pitch_bytes);
  }
  uint8_t* to = args.output + first * row.out_stride_bytes;
  // Whole lines are streamed (no read for ownership; RunScatterSlice fences); others stored.
  const bool whole_lines = plan.stream_block != nullptr &&
                           ((reinterpret_cast<uintptr_t>(to) |
                             static_cast<uint64_t>(axis.pitch_bytes) | strip_bytes) &
                            (kLineBytes - 1)) == 0;
  for (int64_t a = 0; a < dim; ++a) {
    if (whole_lines) {
      plan.stream_block(to + a * axis.pitch_bytes, block + a * block_pitch_bytes, strip_bytes);
      continue;
    }
    if (a + kBlockAhead < dim) {
      prefetch_rows(to + (a + kBlockAhead) * axis.pitch_bytes, block_pitch_bytes, true);
    }
    std::memcpy(to + a * axis.pitch_bytes, block + a * block_pitch_bytes, strip_bytes);
  }
}

}  // namespace internal
}  // namespace dmlcpu
