// SPDX-License-Identifier: Apache-2.0
// Aligned heap blocks for tests on every platform: std::aligned_alloc where the C library has it,
// _aligned_malloc on Windows (msvcrt and the MSVC runtime have no aligned_alloc).
#ifndef DMLCPU_TESTS_SUPPORT_ALIGNED_MEMORY_H_
#define DMLCPU_TESTS_SUPPORT_ALIGNED_MEMORY_H_

#include <cstddef>
#include <cstdlib>

#if defined(_WIN32)
#include <malloc.h>
#endif

namespace dmlcpu_test {

// `bytes` (a multiple of `alignment`, a power of two) aligned to `alignment`; null on failure.
inline void* AlignedAlloc(size_t alignment, size_t bytes) {
#if defined(_WIN32)
  return _aligned_malloc(bytes, alignment);
#else
  return std::aligned_alloc(alignment, bytes);
#endif
}

// Frees an AlignedAlloc block (null is fine).
inline void AlignedFree(void* p) {
#if defined(_WIN32)
  _aligned_free(p);
#else
  std::free(p);
#endif
}

}  // namespace dmlcpu_test

#endif  // DMLCPU_TESTS_SUPPORT_ALIGNED_MEMORY_H_
