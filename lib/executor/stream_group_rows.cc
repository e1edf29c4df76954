// SPDX-License-Identifier: Apache-2.0
// The unit engine's loop for streamed rows of runs in stream tiles (Tiling::kRunTiles): the two
// loops above the row walked by pointer bumps. Single-threaded, allocation-free.
#include <algorithm>
#include <cstdint>

#include "executor/executor.h"
#include "executor/odometer.h"

namespace dmlcpu {
namespace internal {

// Rows of runs in stream tiles whose loop above the row reads a few streams side by side
// (TileRuns' split): that loop and the one above it walked by pointer bumps, the odometer
// moving once per line of the outer one (per 4 rows, Odometer::Advance cost as much as a
// 256-byte copy).
void RunStreamGroupRows(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end) {
  const uint32_t outer_count = plan.loop_count - 1;
  const Loop& group = plan.loops[outer_count - 1];
  const Loop& line = plan.loops[outer_count - 2];
  const auto group_rows = static_cast<uint64_t>(group.size);
  const uint64_t run_bytes = plan.partition.row_items * plan.elem_bytes;
  Odometer lines(plan, outer_count - 1, begin / group_rows);
  uint64_t first = begin % group_rows;  // row within the group to start from
  for (uint64_t unit = begin; unit < end;) {
    const uint64_t line_rows = lines.RowsLeftInLoop();
    uint8_t* out = args.output + lines.offsets().out_off;
    const uint8_t* in = args.input + lines.offsets().in_off;
    uint64_t done = 0;
    for (; done < line_rows && unit < end; ++done) {
      const uint64_t last = std::min(group_rows, first + (end - unit));
      for (uint64_t k = first; k < last; ++k) {
        const auto kk = static_cast<int64_t>(k);
        plan.copy_run(out + kk * group.out_stride_bytes, in + kk * group.in_stride_bytes,
                      run_bytes);
      }
      unit += last - first;
      first = 0;
      out += line.out_stride_bytes;
      in += line.in_stride_bytes;
    }
    if (unit < end) lines.Advance(done);
  }
}

}  // namespace internal
}  // namespace dmlcpu
