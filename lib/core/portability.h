// SPDX-License-Identifier: Apache-2.0
// Compiler portability: the GNU builtins and attributes dmlcpu uses (GCC, clang, clang-cl), with
// MSVC equivalents or plain C++, so that no other source spells a compiler-specific builtin.
#ifndef DMLCPU_CORE_PORTABILITY_H_
#define DMLCPU_CORE_PORTABILITY_H_

#include <cstdint>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

#if defined(__GNUC__) || defined(__clang__)
#define DMLCPU_GNU_BUILTINS 1
#else
#define DMLCPU_GNU_BUILTINS 0
#endif

// Checks a printf-style function's arguments against its format (1-based parameter positions).
#if DMLCPU_GNU_BUILTINS
#define DMLCPU_PRINTF_FORMAT(format_index, first_arg_index) \
  __attribute__((format(printf, format_index, first_arg_index)))
#else
#define DMLCPU_PRINTF_FORMAT(format_index, first_arg_index)
#endif

// Keeps a function out of line (a cold path that should not crowd its caller's registers).
#if DMLCPU_GNU_BUILTINS
#define DMLCPU_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define DMLCPU_NOINLINE __declspec(noinline)
#else
#define DMLCPU_NOINLINE
#endif

namespace dmlcpu {

// A hint to load the cache line holding `address` for reading; never faults, so the address
// may lie outside any buffer. kLocality: 3 = every cache level, 2 = L2, 1 = L3, 0 = non-temporal.
template <int kLocality = 3>
inline void PrefetchRead(const void* address) {
  static_assert(kLocality >= 0 && kLocality <= 3, "locality is 0..3");
#if DMLCPU_GNU_BUILTINS
  __builtin_prefetch(address, 0, kLocality);
#elif defined(_M_X64) || defined(_M_IX86)
  _mm_prefetch(static_cast<const char*>(address), kLocality == 3   ? _MM_HINT_T0
                                                  : kLocality == 2 ? _MM_HINT_T1
                                                  : kLocality == 1 ? _MM_HINT_T2
                                                                   : _MM_HINT_NTA);
#else
  (void)address;
#endif
}

// A hint to load the cache line holding `address` for writing (prefetchw where the CPU has it);
// never faults. Starts the page walk and the read for ownership of a line about to be stored.
inline void PrefetchWrite(const void* address) {
#if DMLCPU_GNU_BUILTINS
  __builtin_prefetch(address, 1, 3);
#elif defined(_M_X64) || defined(_M_IX86)
  _mm_prefetch(static_cast<const char*>(address), _MM_HINT_T0);
#else
  (void)address;
#endif
}

// The index of the lowest set bit of `bits` (!= 0).
inline int CountTrailingZeros64(uint64_t bits) {
#if DMLCPU_GNU_BUILTINS
  return __builtin_ctzll(bits);
#elif defined(_M_X64)
  unsigned long index;
  _BitScanForward64(&index, bits);
  return static_cast<int>(index);
#else
  int index = 0;
  for (; (bits & 1) == 0; bits >>= 1) ++index;
  return index;
#endif
}

// Overflow-checked arithmetic: false on overflow (*out unspecified then).
template <typename T>
inline bool MulOverflows(T a, T b, T* out) {
#if DMLCPU_GNU_BUILTINS
  return __builtin_mul_overflow(a, b, out);
#else
  static_assert(sizeof(T) == 8, "64-bit operands");
  if constexpr (static_cast<T>(-1) > 0) {  // unsigned
    *out = a * b;
    return a != 0 && *out / a != b;
  } else {
    if (a == 0 || b == 0) {
      *out = 0;
      return false;
    }
    const T lo = INT64_MIN, hi = INT64_MAX;
    const bool overflow = (a > 0) ? (b > 0 ? a > hi / b : b < lo / a)
                                  : (b > 0 ? a < lo / b : a < hi / b);
    *out = overflow ? 0 : a * b;
    return overflow;
  }
#endif
}
template <typename T>
inline bool AddOverflows(T a, T b, T* out) {
#if DMLCPU_GNU_BUILTINS
  return __builtin_add_overflow(a, b, out);
#else
  static_assert(sizeof(T) == 8, "64-bit operands");
  if constexpr (static_cast<T>(-1) > 0) {
    *out = a + b;
    return *out < a;
  } else {
    const bool overflow = (b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b);
    *out = overflow ? 0 : a + b;
    return overflow;
  }
#endif
}

}  // namespace dmlcpu

#endif  // DMLCPU_CORE_PORTABILITY_H_
