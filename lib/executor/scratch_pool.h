// SPDX-License-Identifier: Apache-2.0
// Scratch buffers for Execute, allocated once at Compile: a fixed set of equally sized,
// 64-byte aligned slots handed to whichever thread asks first. Acquire and Release never
// allocate, lock or wait, so Execute stays allocation-free and callable from many threads at
// once; a thread that finds every slot taken gets none and works without (the executor then
// takes its path that needs no scratch). No TBB, no Highway.
#ifndef DMLCPU_EXECUTOR_SCRATCH_POOL_H_
#define DMLCPU_EXECUTOR_SCRATCH_POOL_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/portability.h"

namespace dmlcpu {
namespace internal {

class ScratchPool {
 public:
  static constexpr uint32_t kMaxSlots = 64;  // one bit each in free_

  // slot_count in [1, kMaxSlots]; slot_bytes >= 1. Throws std::bad_alloc like new.
  ScratchPool(size_t slot_bytes, uint32_t slot_count)
      : slot_bytes_((slot_bytes + 63) & ~size_t{63}),
        storage_(new uint8_t[slot_bytes_ * slot_count + 63]),
        free_(slot_count >= kMaxSlots ? ~uint64_t{0} : (uint64_t{1} << slot_count) - 1) {
    const auto at = reinterpret_cast<uintptr_t>(storage_.get());
    base_ = storage_.get() + (((at + 63) & ~uintptr_t{63}) - at);
  }
  ScratchPool(const ScratchPool&) = delete;
  ScratchPool& operator=(const ScratchPool&) = delete;

  // A free slot of at least slot_bytes() bytes, or null when all are in use. Thread-safe.
  uint8_t* Acquire() {
    uint64_t free = free_.load(std::memory_order_relaxed);
    while (free != 0) {
      const uint64_t bit = free & (0 - free);  // lowest free slot
      if (free_.compare_exchange_weak(free, free & ~bit, std::memory_order_acquire,
                                      std::memory_order_relaxed)) {
        return base_ + slot_bytes_ * static_cast<size_t>(CountTrailingZeros64(bit));
      }
    }
    return nullptr;
  }

  // Returns a slot from Acquire. Thread-safe.
  void Release(uint8_t* slot) {
    const auto index = static_cast<uint32_t>(static_cast<size_t>(slot - base_) / slot_bytes_);
    free_.fetch_or(uint64_t{1} << index, std::memory_order_release);
  }

  size_t slot_bytes() const { return slot_bytes_; }

 private:
  size_t slot_bytes_;
  std::unique_ptr<uint8_t[]> storage_;
  uint8_t* base_ = nullptr;
  std::atomic<uint64_t> free_;
};

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_EXECUTOR_SCRATCH_POOL_H_
