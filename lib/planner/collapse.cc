// SPDX-License-Identifier: Apache-2.0
// Rank collapsing: drop size-1 loops, merge loops that are contiguous in every operand.
#include "planner/planner.h"

namespace dmlcpu {
namespace internal {

uint32_t CollapseLoops(Loop* loops, uint32_t loop_count, uint32_t elem_bytes) {
  // 1. Drop size-1 loops (they contribute nothing to any offset).
  uint32_t kept = 0;
  for (uint32_t i = 0; i < loop_count; ++i) {
    if (loops[i].size != 1) loops[kept++] = loops[i];
  }
  if (kept == 0) {
    // A single element: one loop of size 1, written as a contiguous run of one element.
    loops[0] = Loop();
    loops[0].size = 1;
    loops[0].out_stride_bytes = elem_bytes;
    loops[0].in_stride_bytes = elem_bytes;
    return 1;
  }
  // 2. Merge outer loop i into inner loop i+1 when stride[i] == size[i+1] * stride[i+1] for
  //    every operand (also right for negative and zero strides). Output order is preserved.
  uint32_t count = 1;
  for (uint32_t i = 1; i < kept; ++i) {
    Loop& outer = loops[count - 1];
    const Loop& inner = loops[i];
    const bool mergeable = outer.out_stride_bytes == inner.size * inner.out_stride_bytes &&
                           outer.in_stride_bytes == inner.size * inner.in_stride_bytes &&
                           outer.idx_stride_bytes == inner.size * inner.idx_stride_bytes;
    if (mergeable) {
      Loop merged = inner;
      merged.size = outer.size * inner.size;
      outer = merged;
    } else {
      loops[count++] = inner;
    }
  }
  return count;
}

}  // namespace internal
}  // namespace dmlcpu
