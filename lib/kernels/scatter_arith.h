// SPDX-License-Identifier: Apache-2.0
// The scatter kernels' element arithmetic (scatter_kernels.h states the rules), shared by
// scalar_scatter.cc and scatter_reduce.cc. Internal to the kernels; plain C++.
#ifndef DMLCPU_KERNELS_SCATTER_ARITH_H_
#define DMLCPU_KERNELS_SCATTER_ARITH_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/scatter_kernels.h"

namespace dmlcpu {
namespace kernels {
namespace scatter_arith {

template <typename T>
inline T LoadAt(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
inline void StoreAt(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

// ------------------------------------------------------------------ element arithmetic

// kNone: the update's bits.
template <typename Bits>
struct BitsType {
  using Storage = Bits;
};

template <typename T>
struct IntType {
  using Storage = T;
  using U = std::make_unsigned_t<T>;
  static T Add(T a, T b) { return static_cast<T>(static_cast<U>(a) + static_cast<U>(b)); }
  static T Mul(T a, T b) {
    // Promote through unsigned int at least, so that 16-bit operands cannot overflow an int.
    using W = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
    return static_cast<T>(static_cast<W>(static_cast<U>(a)) * static_cast<W>(static_cast<U>(b)));
  }
  static T Max(T a, T b) { return a < b ? b : a; }
  static T Min(T a, T b) { return b < a ? b : a; }
};

// IEEE types computed in `Wide` (exact per operation, then rounded once to the storage type).
// Storage is the bit pattern; ToWide/FromWide convert.
template <typename StorageT, int kMantissaBits>
struct FloatBitsCommon {
  using Storage = StorageT;
  static constexpr StorageT kQuiet = StorageT{1} << (kMantissaBits - 1);
  static constexpr StorageT kSignBit = StorageT{1} << (sizeof(StorageT) * 8 - 1);
};

struct Float16Ops : FloatBitsCommon<uint16_t, 10> {
  static double ToWide(uint16_t b) { return HalfToDouble(b); }
  static uint16_t FromWide(double v) { return DoubleToHalf(v); }
  static bool IsNan(uint16_t b) { return (b & 0x7C00) == 0x7C00 && (b & 0x03FF) != 0; }
};
struct Bfloat16Ops : FloatBitsCommon<uint16_t, 7> {
  static double ToWide(uint16_t b) { return Bfloat16ToDouble(b); }
  static uint16_t FromWide(double v) { return DoubleToBfloat16(v); }
  static bool IsNan(uint16_t b) { return (b & 0x7F80) == 0x7F80 && (b & 0x007F) != 0; }
};
struct Float32Ops : FloatBitsCommon<uint32_t, 23> {
  static float ToWide(uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return f;
  }
  static uint32_t FromWide(float v) {
    uint32_t b;
    std::memcpy(&b, &v, 4);
    return b;
  }
  static bool IsNan(uint32_t b) { return (b & 0x7FFFFFFFu) > 0x7F800000u; }
};
struct Float64Ops : FloatBitsCommon<uint64_t, 52> {
  static double ToWide(uint64_t b) {
    double f;
    std::memcpy(&f, &b, 8);
    return f;
  }
  static uint64_t FromWide(double v) {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    return b;
  }
  static bool IsNan(uint64_t b) { return (b & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull; }
};

template <class F>
struct FloatType {
  using Storage = typename F::Storage;
  using S = Storage;
  // NaN rule: the destination's NaN if it is one, else the update's; quieted.
  static bool NanResult(S a, S b, S* r) {
    if (F::IsNan(a)) {
      *r = static_cast<S>(a | F::kQuiet);
      return true;
    }
    if (F::IsNan(b)) {
      *r = static_cast<S>(b | F::kQuiet);
      return true;
    }
    return false;
  }
  static S Add(S a, S b) {
    S r;
    if (NanResult(a, b, &r)) return r;
    return F::FromWide(F::ToWide(a) + F::ToWide(b));
  }
  static S Mul(S a, S b) {
    S r;
    if (NanResult(a, b, &r)) return r;
    return F::FromWide(F::ToWide(a) * F::ToWide(b));
  }
  // IEEE 754-2019 maximum/minimum: NaN propagates, -0 < +0.
  static S Max(S a, S b) {
    S r;
    if (NanResult(a, b, &r)) return r;
    const auto x = F::ToWide(a), y = F::ToWide(b);
    if (x == y) return (a & F::kSignBit) ? b : a;  // equal: only zeros differ in bits
    return x < y ? b : a;
  }
  static S Min(S a, S b) {
    S r;
    if (NanResult(a, b, &r)) return r;
    const auto x = F::ToWide(a), y = F::ToWide(b);
    if (x == y) return (a & F::kSignBit) ? a : b;
    return y < x ? b : a;
  }
};

template <class Type, ScatterReduction kR>
struct Apply {
  using S = typename Type::Storage;
  static S Do(S a, S b) {
    if constexpr (kR == ScatterReduction::kNone) {
      (void)a;
      return b;
    } else if constexpr (kR == ScatterReduction::kAdd) {
      return Type::Add(a, b);
    } else if constexpr (kR == ScatterReduction::kMul) {
      return Type::Mul(a, b);
    } else if constexpr (kR == ScatterReduction::kMax) {
      return Type::Max(a, b);
    } else {
      return Type::Min(a, b);
    }
  }
};

// The index wrapped once (signed types) as an unsigned value; out of range when >= dim_size.
template <typename I>
inline uint64_t Wrapped(I v, uint64_t dim_size) {
  if constexpr (std::is_signed_v<I>) {
    const auto w = static_cast<int64_t>(v);
    return static_cast<uint64_t>(w < 0 ? w + static_cast<int64_t>(dim_size) : w);
  } else {
    return static_cast<uint64_t>(v);
  }
}

}  // namespace scatter_arith
}  // namespace kernels
}  // namespace dmlcpu

#endif  // DMLCPU_KERNELS_SCATTER_ARITH_H_
