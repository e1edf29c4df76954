// SPDX-License-Identifier: Apache-2.0
// LineStager: output bytes written in ascending order, in stretches of adjacent bytes, are
// assembled in an L1 window and leave as whole 64-byte lines with non-temporal stores (no read
// for ownership of the output). A line a stretch does not cover completely (its first and last)
// gets regular stores of the stretch's bytes only: no byte outside the stretches is written,
// and no line gets both kinds of store from one thread (several times slower on Zen 3).
#ifndef DMLCPU_EXECUTOR_LINE_STAGER_H_
#define DMLCPU_EXECUTOR_LINE_STAGER_H_

#include <cstdint>
#include <cstring>

#include "core/check.h"
#include "core/tuning.h"
#include "kernels/kernels.h"

namespace dmlcpu {
namespace internal {

// The writer keeps its position `to` (a pointer into the window): Seek gives the position for
// an output address, the writer writes at most Room(to) bytes there (and may spill up to
// kSpillBytes further: never written out), advances `to` past what it wrote, calls Commit, and
// so on; Finish writes what is pending.
class LineStager {
 public:
  static constexpr uint64_t kLineBytes = 64;
  static constexpr uint64_t kMaxPieceBytes = Tuning::kMaxStagedPieceBytes;
  static constexpr uint64_t kSpillBytes = 32;
  static_assert(kSpillBytes >= kernels::kFrameSpillBytes, "frame_rows writes into the window");
  // The window is one 4 KiB page of storage_: pieces that straddled a page boundary of the
  // window slowed the whole step down on Zen 3 by how far the stack happened to put it
  // (docs/performance.md, session 35). It drains once kDrainBytes are pending, so that a
  // piece and its spill always fit in the page.
  static constexpr uint64_t kPageBytes = 4096;
  static_assert(kMaxPieceBytes + kSpillBytes + 16 * kLineBytes <= kPageBytes,
                "a piece and its spill fit in the page, and a drain streams at least 16 lines");
  static constexpr uint64_t kDrainBytes = kPageBytes - kSpillBytes - kMaxPieceBytes;

  // stream: writes whole lines (aligned destination and source) with non-temporal stores and
  // no fence; the caller fences once after Finish.
  explicit LineStager(kernels::CopyBytesFn stream)
      : stream_(stream),
        buffer_(reinterpret_cast<uint8_t*>(
            (reinterpret_cast<uintptr_t>(storage_) + kPageBytes - 1) & ~(kPageBytes - 1))) {}
  LineStager(const LineStager&) = delete;
  LineStager& operator=(const LineStager&) = delete;

  // The position for output address `out`: `to` itself when `out` continues the stretch that
  // ends there; otherwise that stretch is finished (to != null) and a new one begins.
  uint8_t* Seek(uint8_t* out, uint8_t* to) {
    if (to != nullptr) {
      if (base_ + (to - buffer_) == out) return to;
      Finish(to);
    }
    base_ = reinterpret_cast<uint8_t*>(reinterpret_cast<uintptr_t>(out) & ~(kLineBytes - 1));
    owned_from_ = static_cast<uint64_t>(out - base_);
    return buffer_ + owned_from_;
  }

  // How many bytes the writer may write at `to` before the next Commit (kMaxPieceBytes at least
  // after a Seek or Commit).
  uint64_t Room(const uint8_t* to) const {
    return static_cast<uint64_t>(buffer_ + kDrainBytes + kMaxPieceBytes - to);
  }

  // After each piece (or run of pieces up to Room): once kDrainBytes are pending, writes the
  // window's whole lines; returns the position.
  uint8_t* Commit(uint8_t* to) {
    DMLCPU_DCHECK(to <= buffer_ + kDrainBytes + kMaxPieceBytes);
    if (to < buffer_ + kDrainBytes) return to;
    return buffer_ + Drain(static_cast<uint64_t>(to - buffer_));
  }

  // Writes the stretch that ends at `to`.
  void Finish(uint8_t* to) {
    const uint64_t fill_bytes = Drain(static_cast<uint64_t>(to - buffer_));
    if (fill_bytes > owned_from_) {
      std::memcpy(base_ + owned_from_, buffer_ + owned_from_, fill_bytes - owned_from_);
    }
  }

 private:
  // Writes the window's whole lines (buffer_[0, fill_bytes) pending) and moves the partial
  // last one to the front; returns the bytes left.
  uint64_t Drain(uint64_t fill_bytes) {
    const uint64_t whole_bytes = fill_bytes & ~(kLineBytes - 1);
    if (whole_bytes == 0) return fill_bytes;
    uint64_t first_bytes = 0;
    if (owned_from_ != 0) {  // the stretch began inside this line
      std::memcpy(base_ + owned_from_, buffer_ + owned_from_, kLineBytes - owned_from_);
      first_bytes = kLineBytes;
      owned_from_ = 0;
    }
    if (whole_bytes > first_bytes) {
      stream_(base_ + first_bytes, buffer_ + first_bytes, whole_bytes - first_bytes);
    }
    std::memcpy(buffer_, buffer_ + whole_bytes, fill_bytes - whole_bytes);  // < 1 line, disjoint
    base_ += whole_bytes;
    return fill_bytes - whole_bytes;
  }

  kernels::CopyBytesFn stream_;
  uint8_t* base_ = nullptr;  // the output address of buffer_[0] (line-aligned)
  uint64_t owned_from_ = 0;  // the stretch's first byte in buffer_ (inside the first line)
  alignas(64) uint8_t storage_[2 * kPageBytes];
  uint8_t* const buffer_;  // the page-aligned window in storage_
};

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_EXECUTOR_LINE_STAGER_H_
