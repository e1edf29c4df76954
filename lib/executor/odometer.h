// SPDX-License-Identifier: Apache-2.0
// Row positions of a plan's loop nest: byte offsets of a row's first element in every operand,
// and an odometer that walks rows in row-major order without divisions.
#ifndef DMLCPU_EXECUTOR_ODOMETER_H_
#define DMLCPU_EXECUTOR_ODOMETER_H_

#include <cstdint>

#include "planner/plan.h"

namespace dmlcpu {
namespace internal {

// Byte offsets of the first element of a row: a position over loops[0, count).
struct RowOffsets {
  int64_t out_off, in_off, idx_off;
};

// Walks the rows of loops[0, count) in row-major order from a given row.
class Odometer {
 public:
  Odometer(const Plan& plan, uint32_t count, uint64_t row_index)
      : plan_(plan), count_(count), offsets_{0, plan.in_base_bytes, 0} {
    if (row_index == 0) return;  // the common start of a unit range: no divisions
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

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_EXECUTOR_ODOMETER_H_
