// SPDX-License-Identifier: Apache-2.0
// GuardedRegion: test memory with an inaccessible page on each side, so that a kernel reading or
// writing one byte past an operand placed flush against either end faults.
#ifndef DMLCPU_TESTS_SUPPORT_GUARDED_REGION_H_
#define DMLCPU_TESTS_SUPPORT_GUARDED_REGION_H_

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "support/virtual_memory.h"

namespace dmlcpu_test {

// `bytes` of read-write memory with a PROT_NONE page directly before and after it.
class GuardedRegion {
 public:
  explicit GuardedRegion(size_t bytes) {
    page_bytes_ = PageBytes();
    size_bytes_ = (bytes + page_bytes_ - 1) / page_bytes_ * page_bytes_;
    mapping_ = MapZeroed(size_bytes_ + 2 * page_bytes_);
    if (mapping_ == nullptr) std::abort();
    if (!ProtectNone(mapping_, page_bytes_) ||
        !ProtectNone(mapping_ + page_bytes_ + size_bytes_, page_bytes_)) {
      std::abort();
    }
  }
  ~GuardedRegion() { Unmap(mapping_, size_bytes_ + 2 * page_bytes_); }
  GuardedRegion(const GuardedRegion&) = delete;
  GuardedRegion& operator=(const GuardedRegion&) = delete;

  uint8_t* begin() const { return mapping_ + page_bytes_; }
  uint8_t* end() const { return begin() + size_bytes_; }
  size_t size_bytes() const { return size_bytes_; }

 private:
  uint8_t* mapping_ = nullptr;
  size_t page_bytes_ = 0;
  size_t size_bytes_ = 0;
};

}  // namespace dmlcpu_test

#endif  // DMLCPU_TESTS_SUPPORT_GUARDED_REGION_H_
