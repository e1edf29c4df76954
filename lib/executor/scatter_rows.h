// SPDX-License-Identifier: Apache-2.0
// What the scatter step's walks (scatter.cc) share with its scratch blocks (scatter_blocks.cc):
// the line size, the row odometer over a plan's loops and the strip helpers. No TBB, no Highway.
#ifndef DMLCPU_EXECUTOR_SCATTER_ROWS_H_
#define DMLCPU_EXECUTOR_SCATTER_ROWS_H_

#include <cstdint>

#include "executor/executor.h"

namespace dmlcpu {
namespace internal {

constexpr int64_t kLineBytes = 64;

// Bumps the row odometer over loops[0, count - 1) by one row.
inline void NextRow(const ScatterLoop* loops, uint32_t count, int64_t* coord, int64_t* out_off,
                    int64_t* upd_off, int64_t* idx_off) {
  for (uint32_t d = count - 1; d-- > 0;) {
    const ScatterLoop& l = loops[d];
    *out_off += l.out_stride_bytes;
    *upd_off += l.upd_stride_bytes;
    *idx_off += l.idx_stride_bytes;
    if (++coord[d] < l.size) return;
    coord[d] = 0;
    *out_off -= l.size * l.out_stride_bytes;
    *upd_off -= l.size * l.upd_stride_bytes;
    *idx_off -= l.size * l.idx_stride_bytes;
  }
}

// Fused copy (ScatterPlan::fused_copy): copies the region of one strip (`loops`, the plan's
// narrowed to the strip, from output offset out_off) from args.input, the axis loop widened to
// the whole axis. The input has the output's layout: one offset serves both.
void CopyStripRegion(const ScatterPlan& plan, const ScatterArgs& args, const ScatterLoop* loops,
                     int64_t out_off);

// ScatterPlan::block_bytes: columns [first, first + count) of every axis element assembled in
// `block` (one row of count elements per axis element), the updates applied there in order,
// the rows written back.
void ApplyStripInBlock(const ScatterPlan& plan, const ScatterArgs& args, uint8_t* block,
                       int64_t first, int64_t count);

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_EXECUTOR_SCATTER_ROWS_H_
