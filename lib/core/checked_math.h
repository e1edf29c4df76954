// SPDX-License-Identifier: Apache-2.0
// Overflow-checked 64-bit arithmetic. Each returns false on overflow (result unspecified).
#ifndef DMLCPU_CORE_CHECKED_MATH_H_
#define DMLCPU_CORE_CHECKED_MATH_H_

#include <cstdint>

#include "core/portability.h"

namespace dmlcpu {

inline bool CheckedMul(uint64_t a, uint64_t b, uint64_t* out) {
  return !MulOverflows(a, b, out);
}
inline bool CheckedAdd(uint64_t a, uint64_t b, uint64_t* out) {
  return !AddOverflows(a, b, out);
}
inline bool CheckedMul(int64_t a, int64_t b, int64_t* out) {
  return !MulOverflows(a, b, out);
}
inline bool CheckedAdd(int64_t a, int64_t b, int64_t* out) {
  return !AddOverflows(a, b, out);
}

}  // namespace dmlcpu

#endif  // DMLCPU_CORE_CHECKED_MATH_H_
