/* SPDX-License-Identifier: Apache-2.0 */
/* The checks of the C99 test programs of the C ABI: each counts into g_passed / g_failed, and
 * the program prints both and fails on any failure. Include once per program. */
#ifndef DMLCPU_TESTS_C_API_C_CHECK_H_
#define DMLCPU_TESTS_C_API_C_CHECK_H_

#include <stdio.h>
#include <string.h>

#include "dmlcpu/dmlcpu_c.h"

static int g_passed = 0;
static int g_failed = 0;

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (cond) {                                                                  \
      ++g_passed;                                                                \
    } else {                                                                     \
      ++g_failed;                                                                \
      fprintf(stderr, "FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond);          \
    }                                                                            \
  } while (0)

/* Checks that the last error message contains `fragment`. */
#define CHECK_MESSAGE(fragment)                                                     \
  do {                                                                              \
    const char* message_ = dmlcpu_last_error_message();                            \
    if (message_ != NULL && strstr(message_, (fragment)) != NULL) {                \
      ++g_passed;                                                                   \
    } else {                                                                        \
      ++g_failed;                                                                   \
      fprintf(stderr, "FAILED %s:%d: message \"%s\" lacks \"%s\"\n", __FILE__,     \
              __LINE__, message_ ? message_ : "(null)", (fragment));                \
    }                                                                               \
  } while (0)

#endif /* DMLCPU_TESTS_C_API_C_CHECK_H_ */
