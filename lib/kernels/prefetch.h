// SPDX-License-Identifier: Apache-2.0
// Software prefetch helpers shared by the executor, the gather_row kernel and the scatter
// kernels. Plain C++ (no Highway): kernels.h includes this header, so its users see these as
// kernels::.
#ifndef DMLCPU_KERNELS_PREFETCH_H_
#define DMLCPU_KERNELS_PREFETCH_H_

#include <cstddef>
#include <cstdint>

#include "core/portability.h"

namespace dmlcpu {
namespace kernels {

// Prefetches a span a slice at a time as work advances: after `done` of `total` items, the same
// fraction of the span has been requested, rather than one burst of hundreds of prefetches at
// the start (which stalls the loads behind it). Used for the next row's input while a row is
// gathered (executor and gather_row). Addresses are integers: the span may lie past the end of
// a buffer (a prefetch never faults).
class SpreadPrefetch {
 public:
  // span: null for none; span_bytes <= 64 KiB and total in [1, 2^32).
  SpreadPrefetch(const void* span, uint64_t span_bytes, uint64_t total)
      : first_line_(reinterpret_cast<uintptr_t>(span) & ~uintptr_t{63}),
        lines_bytes_(span == nullptr ? 0
                                     : (reinterpret_cast<uintptr_t>(span) & 63) + span_bytes),
        bytes_per_item_q32_(lines_bytes_ == 0 ? 0 : ((lines_bytes_ << 32) + total - 1) / total) {}
  // `done` (<= total) of the items are about to be done. No division here: Upto runs once per
  // pair of gathers in gather_row. Rounding the per-item bytes up keeps the fixed-point target
  // within a byte above lines_bytes_ * done / total and never above lines_bytes_ (total < 2^32),
  // and makes it exactly lines_bytes_ at done == total.
  void Upto(uint64_t done) {
    const uint64_t target_bytes = TargetBytes(done);
    for (; issued_bytes_ < target_bytes; issued_bytes_ += 64) {
      PrefetchRead(reinterpret_cast<const void*>(first_line_ + issued_bytes_));
    }
  }
  // Upto(done) requests every line of the span that starts below this many bytes from the
  // span's first line.
  uint64_t TargetBytes(uint64_t done) const { return (done * bytes_per_item_q32_) >> 32; }
  uint64_t lines_bytes() const { return lines_bytes_; }

 private:
  uintptr_t first_line_;  // the span's first byte rounded down to its cache line
  uint64_t lines_bytes_;  // from first_line_ to the span's end; 0: nothing to prefetch
  uint64_t bytes_per_item_q32_;  // lines_bytes_ / total in 32.32 fixed point, rounded up
  uint64_t issued_bytes_ = 0;
};

// Prefetches the lines of [first, first + bytes) into L2 (locality 1: into L1 they crowd out
// the gathers' own misses), first and last line first, then any between (address order measured
// slower): for rows of indices a whole pitch apart, where no hardware prefetcher follows.
// bytes >= 1. An address only: it may lie past the end of a buffer (a prefetch never faults).
inline void PrefetchRowToL2(uintptr_t first, size_t bytes) {
  PrefetchRead<1>(reinterpret_cast<const void*>(first));
  PrefetchRead<1>(reinterpret_cast<const void*>(first + bytes - 1));
  for (size_t off = 64; off + 64 < bytes; off += 64) {
    PrefetchRead<1>(reinterpret_cast<const void*>(first + off));
  }
}

// Streams read item by item: the lines of items [i, i + kItemPrefetchGroupItems) of a contiguous
// array of item_bytes-wide items, kItemPrefetchAheadItems ahead of item i. Called once per
// group, it keeps the loads of a scatter's index and update streams from waiting on memory.
// Keep it this small: GCC takes a function of prefetches alone for one without effects and
// drops any call to it that it does not inline (a two-array wrapper measured so: no prefetch).
constexpr size_t kItemPrefetchAheadItems = 256;
constexpr size_t kItemPrefetchGroupItems = 16;  // a multiple of the scatter loops' unroll of 4
inline void PrefetchItemsAhead(const void* items, size_t item_bytes, size_t i) {
  // An integer, not a pointer: the lines may lie past the array's end (a prefetch never faults).
  const uintptr_t at =
      reinterpret_cast<uintptr_t>(items) + (i + kItemPrefetchAheadItems) * item_bytes;
  for (size_t off_bytes = 0; off_bytes < kItemPrefetchGroupItems * item_bytes; off_bytes += 64) {
    PrefetchRead(reinterpret_cast<const void*>(at + off_bytes));
  }
}

}  // namespace kernels
}  // namespace dmlcpu

#endif  // DMLCPU_KERNELS_PREFETCH_H_
