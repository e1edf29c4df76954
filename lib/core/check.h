// SPDX-License-Identifier: Apache-2.0
// Internal invariants. DMLCPU_DCHECK is active in debug and sanitizer builds only.
#ifndef DMLCPU_CORE_CHECK_H_
#define DMLCPU_CORE_CHECK_H_

#include <cstdio>
#include <cstdlib>

#if !defined(NDEBUG) || defined(__SANITIZE_ADDRESS__)
#define DMLCPU_DCHECK_IS_ON 1
#define DMLCPU_DCHECK(cond)                                                          \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      std::fprintf(stderr, "%s:%d: DMLCPU_DCHECK failed: %s\n", __FILE__, __LINE__, \
                   #cond);                                                           \
      std::abort();                                                                  \
    }                                                                                \
  } while (0)
#else
#define DMLCPU_DCHECK_IS_ON 0
#define DMLCPU_DCHECK(cond) \
  do {                      \
  } while (0)
#endif

#endif  // DMLCPU_CORE_CHECK_H_
