// SPDX-License-Identifier: Apache-2.0
// The scatter kernels (scatter_kernels.h). Scalar on purpose: every item is a read-modify-write
// of an element chosen by an index, applied in order; the loops are branch-free per item.
#include <cmath>
#include <cstring>
#include <type_traits>

#include "kernels/prefetch.h"
#include "kernels/scatter_arith.h"
#include "kernels/scatter_kernels.h"

namespace dmlcpu {
namespace kernels {
namespace {

using scatter_arith::Apply;
using scatter_arith::BitsType;
using scatter_arith::Bfloat16Ops;
using scatter_arith::Float16Ops;
using scatter_arith::Float32Ops;
using scatter_arith::Float64Ops;
using scatter_arith::FloatType;
using scatter_arith::IntType;
using scatter_arith::LoadAt;
using scatter_arith::StoreAt;
using scatter_arith::Wrapped;

// ------------------------------------------------------------------ kernels

template <class Type, ScatterReduction kR>
void ScatterElems(uint8_t* dst, const int64_t* offsets_bytes, size_t count, const uint8_t* src,
                  int64_t src_stride_bytes, uint64_t key_begin, uint64_t key_end) {
  using S = typename Type::Storage;
  const uint64_t key_span = key_end - key_begin;
  S sink{};  // items outside the key range are applied here instead: no branch per item
  auto* sink_bytes = reinterpret_cast<uint8_t*>(&sink);
  for (size_t i = 0; i < count; ++i) {
    const int64_t off = offsets_bytes[i];
    const bool mine = static_cast<uint64_t>(off) - key_begin < key_span;
    uint8_t* p = mine ? dst + off : sink_bytes;
    const S b = LoadAt<S>(src + static_cast<int64_t>(i) * src_stride_bytes);
    if constexpr (kR == ScatterReduction::kNone) {
      StoreAt<S>(p, b);
    } else {
      StoreAt<S>(p, Apply<Type, kR>::Do(LoadAt<S>(p), b));
    }
  }
}

template <class Type, ScatterReduction kR>
void ScatterRun(uint8_t* dst, int64_t dst_stride_bytes, const uint8_t* src,
                int64_t src_stride_bytes, size_t count) {
  using S = typename Type::Storage;
  if constexpr (kR == ScatterReduction::kNone) {
    if (dst_stride_bytes == static_cast<int64_t>(sizeof(S)) &&
        src_stride_bytes == static_cast<int64_t>(sizeof(S))) {
      std::memcpy(dst, src, count * sizeof(S));
      return;
    }
    if (dst_stride_bytes == 0 && count > 0) {  // every item hits one element: the last wins
      StoreAt<S>(dst, LoadAt<S>(src + static_cast<int64_t>(count - 1) * src_stride_bytes));
      return;
    }
  }
  for (size_t i = 0; i < count; ++i) {
    const auto k = static_cast<int64_t>(i);
    uint8_t* p = dst + k * dst_stride_bytes;
    const S b = LoadAt<S>(src + k * src_stride_bytes);
    StoreAt<S>(p, Apply<Type, kR>::Do(LoadAt<S>(p), b));
  }
}

template <typename I>
void ResolveDrop(const void* indices, int64_t idx_stride_bytes, size_t count, uint64_t dim_size,
                 int64_t pitch_bytes, int64_t* offsets_bytes) {
  const auto* p = static_cast<const uint8_t*>(indices);
  for (size_t i = 0; i < count; ++i) {
    const I v = LoadAt<I>(p + static_cast<int64_t>(i) * idx_stride_bytes);
    uint64_t u;
    if constexpr (std::is_signed_v<I>) {
      const auto w = static_cast<int64_t>(v);
      u = static_cast<uint64_t>(w < 0 ? w + static_cast<int64_t>(dim_size) : w);
    } else {
      u = static_cast<uint64_t>(v);
    }
    // The product only for an index in range: a huge one would overflow int64_t (UB).
    offsets_bytes[i] = (u < dim_size && offsets_bytes[i] >= 0)
                           ? offsets_bytes[i] + static_cast<int64_t>(u) * pitch_bytes
                           : kDroppedOffset;
  }
}

// ScatterIndexed along one dimension of contiguous elements (a SCATTER along the innermost
// axis): indices and src contiguous, every item into the same row. Unrolled by four, in order.
template <typename I, typename S>
void ScatterIndexedRow(uint8_t* dst, const uint8_t* src, const uint8_t* idx, size_t count,
                       uint64_t dim_size) {
  constexpr size_t kI = sizeof(I), kS = sizeof(S);
  size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    if (i % kItemPrefetchGroupItems == 0) {
      PrefetchItemsAhead(idx, kI, i);
      PrefetchItemsAhead(src, kS, i);
    }
    const uint64_t u0 = Wrapped(LoadAt<I>(idx + i * kI), dim_size);
    const uint64_t u1 = Wrapped(LoadAt<I>(idx + (i + 1) * kI), dim_size);
    const uint64_t u2 = Wrapped(LoadAt<I>(idx + (i + 2) * kI), dim_size);
    const uint64_t u3 = Wrapped(LoadAt<I>(idx + (i + 3) * kI), dim_size);
    const S s0 = LoadAt<S>(src + i * kS), s1 = LoadAt<S>(src + (i + 1) * kS);
    const S s2 = LoadAt<S>(src + (i + 2) * kS), s3 = LoadAt<S>(src + (i + 3) * kS);
    if ((u0 | u1 | u2 | u3) < dim_size) {  // all four in range (the usual case)
      StoreAt<S>(dst + u0 * kS, s0);
      StoreAt<S>(dst + u1 * kS, s1);
      StoreAt<S>(dst + u2 * kS, s2);
      StoreAt<S>(dst + u3 * kS, s3);
    } else {
      if (u0 < dim_size) StoreAt<S>(dst + u0 * kS, s0);
      if (u1 < dim_size) StoreAt<S>(dst + u1 * kS, s1);
      if (u2 < dim_size) StoreAt<S>(dst + u2 * kS, s2);
      if (u3 < dim_size) StoreAt<S>(dst + u3 * kS, s3);
    }
  }
  for (; i < count; ++i) {
    const uint64_t u = Wrapped(LoadAt<I>(idx + i * kI), dim_size);
    if (u < dim_size) StoreAt<S>(dst + u * kS, LoadAt<S>(src + i * kS));
  }
}

template <typename I, typename S>
void ScatterIndexed(uint8_t* dst, int64_t dst_stride_bytes, const uint8_t* src,
                    int64_t src_stride_bytes, const void* indices, int64_t idx_stride_bytes,
                    size_t count, uint64_t dim_size, int64_t pitch_bytes) {
  const auto* idx = static_cast<const uint8_t*>(indices);
  if (dst_stride_bytes == 0 && pitch_bytes == static_cast<int64_t>(sizeof(S)) &&
      src_stride_bytes == static_cast<int64_t>(sizeof(S)) &&
      idx_stride_bytes == static_cast<int64_t>(sizeof(I))) {
    ScatterIndexedRow<I, S>(dst, src, idx, count, dim_size);
    return;
  }
  int64_t idx_off = 0, src_off = 0, dst_off = 0;  // bumped: no multiply per operand
  for (size_t i = 0; i < count; ++i) {
    const I v = LoadAt<I>(idx + idx_off);
    uint64_t u;
    if constexpr (std::is_signed_v<I>) {
      const auto w = static_cast<int64_t>(v);
      u = static_cast<uint64_t>(w < 0 ? w + static_cast<int64_t>(dim_size) : w);
    } else {
      u = static_cast<uint64_t>(v);
    }
    if (u < dim_size) {
      StoreAt<S>(dst + dst_off + static_cast<int64_t>(u) * pitch_bytes, LoadAt<S>(src + src_off));
    }
    idx_off += idx_stride_bytes;
    src_off += src_stride_bytes;
    dst_off += dst_stride_bytes;
  }
}

template <typename I>
void FillIndexed(ScatterKernels* k, IndexType type) {
  const int t = static_cast<int>(type);
  k->indexed[t][0] = ScatterIndexed<I, uint8_t>;
  k->indexed[t][1] = ScatterIndexed<I, uint16_t>;
  k->indexed[t][2] = ScatterIndexed<I, uint32_t>;
  k->indexed[t][3] = ScatterIndexed<I, uint64_t>;
}

template <class Type>
void FillRow(ScatterKernels* k, ScatterType type, bool arithmetic) {
  const int t = static_cast<int>(type);
  k->elems[t][0] = ScatterElems<Type, ScatterReduction::kNone>;
  k->run[t][0] = ScatterRun<Type, ScatterReduction::kNone>;
  if constexpr (!std::is_same_v<Type, BitsType<typename Type::Storage>>) {
    if (arithmetic) {
      k->elems[t][1] = ScatterElems<Type, ScatterReduction::kAdd>;
      k->elems[t][2] = ScatterElems<Type, ScatterReduction::kMul>;
      k->elems[t][3] = ScatterElems<Type, ScatterReduction::kMax>;
      k->elems[t][4] = ScatterElems<Type, ScatterReduction::kMin>;
      k->run[t][1] = ScatterRun<Type, ScatterReduction::kAdd>;
      k->run[t][2] = ScatterRun<Type, ScatterReduction::kMul>;
      k->run[t][3] = ScatterRun<Type, ScatterReduction::kMax>;
      k->run[t][4] = ScatterRun<Type, ScatterReduction::kMin>;
    }
  }
}

ScatterKernels MakeKernels() {
  ScatterKernels k = {};
  k.resolve[static_cast<int>(IndexType::kInt32)] = ResolveDrop<int32_t>;
  k.resolve[static_cast<int>(IndexType::kUint32)] = ResolveDrop<uint32_t>;
  k.resolve[static_cast<int>(IndexType::kInt64)] = ResolveDrop<int64_t>;
  k.resolve[static_cast<int>(IndexType::kUint64)] = ResolveDrop<uint64_t>;
  FillIndexed<int32_t>(&k, IndexType::kInt32);
  FillIndexed<uint32_t>(&k, IndexType::kUint32);
  FillIndexed<int64_t>(&k, IndexType::kInt64);
  FillIndexed<uint64_t>(&k, IndexType::kUint64);
  FillRow<BitsType<uint8_t>>(&k, ScatterType::kBits8, false);
  FillRow<BitsType<uint16_t>>(&k, ScatterType::kBits16, false);
  FillRow<BitsType<uint32_t>>(&k, ScatterType::kBits32, false);
  FillRow<BitsType<uint64_t>>(&k, ScatterType::kBits64, false);
  FillRow<IntType<int8_t>>(&k, ScatterType::kInt8, true);
  FillRow<IntType<uint8_t>>(&k, ScatterType::kUint8, true);
  FillRow<IntType<int16_t>>(&k, ScatterType::kInt16, true);
  FillRow<IntType<uint16_t>>(&k, ScatterType::kUint16, true);
  FillRow<IntType<int32_t>>(&k, ScatterType::kInt32, true);
  FillRow<IntType<uint32_t>>(&k, ScatterType::kUint32, true);
  FillRow<IntType<int64_t>>(&k, ScatterType::kInt64, true);
  FillRow<IntType<uint64_t>>(&k, ScatterType::kUint64, true);
  FillRow<FloatType<Float16Ops>>(&k, ScatterType::kFloat16, true);
  FillRow<FloatType<Bfloat16Ops>>(&k, ScatterType::kBfloat16, true);
  FillRow<FloatType<Float32Ops>>(&k, ScatterType::kFloat32, true);
  FillRow<FloatType<Float64Ops>>(&k, ScatterType::kFloat64, true);
  return k;
}

// value = q * 2^(e - mantissa_bits) rounded to nearest even at the target's precision:
// normal when e >= min_exp, else on the subnormal grid. Exponent and mantissa fields are
// contiguous, so a mantissa that rounds up to 2^(bits+1) carries into the exponent (and the
// largest finite value into infinity).
uint16_t DoubleToSmall(double value, int mantissa_bits, int exp_bias, uint16_t inf_bits,
                       uint16_t quiet_bit) {
  uint64_t bits;
  std::memcpy(&bits, &value, 8);
  const auto sign = static_cast<uint16_t>((bits >> 48) & 0x8000);
  if (std::isnan(value)) {
    const auto payload = static_cast<uint16_t>((bits >> (52 - mantissa_bits)) &
                                               ((1u << mantissa_bits) - 1));
    return static_cast<uint16_t>(sign | inf_bits | quiet_bit | payload);
  }
  const double a = std::fabs(value);
  if (std::isinf(a)) return static_cast<uint16_t>(sign | inf_bits);
  if (a == 0) return sign;
  const int min_exp = 1 - exp_bias;  // exponent of the smallest normal
  int e;
  (void)std::frexp(a, &e);
  e -= 1;  // a in [2^e, 2^(e+1))
  const int max_exp = exp_bias;  // exponent of the largest finite
  if (e > max_exp) return static_cast<uint16_t>(sign | inf_bits);
  if (e < min_exp) {  // subnormal grid: steps of 2^(min_exp - mantissa_bits)
    const double q = std::nearbyint(std::ldexp(a, mantissa_bits - min_exp));
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(q));
  }
  const double q = std::nearbyint(std::ldexp(a, mantissa_bits - e));  // in [2^m, 2^(m+1)]
  const uint32_t field = (static_cast<uint32_t>(e + exp_bias) << mantissa_bits) +
                         (static_cast<uint32_t>(q) - (1u << mantissa_bits));
  return static_cast<uint16_t>(sign | field);
}

double SmallToDouble(uint16_t b, int mantissa_bits, int exp_bits, int exp_bias) {
  const bool negative = (b & 0x8000) != 0;
  const uint32_t exp_field = (b >> mantissa_bits) & ((1u << exp_bits) - 1);
  const uint32_t mant = b & ((1u << mantissa_bits) - 1);
  double v;
  if (exp_field == (1u << exp_bits) - 1) {
    v = mant == 0 ? HUGE_VAL : std::nan("");
  } else if (exp_field == 0) {
    v = std::ldexp(static_cast<double>(mant), 1 - exp_bias - mantissa_bits);
  } else {
    v = std::ldexp(static_cast<double>(mant + (1u << mantissa_bits)),
                   static_cast<int>(exp_field) - exp_bias - mantissa_bits);
  }
  return negative ? -v : v;
}

}  // namespace

double HalfToDouble(uint16_t bits) { return SmallToDouble(bits, 10, 5, 15); }
uint16_t DoubleToHalf(double value) { return DoubleToSmall(value, 10, 15, 0x7C00, 0x0200); }
double Bfloat16ToDouble(uint16_t bits) { return SmallToDouble(bits, 7, 8, 127); }
uint16_t DoubleToBfloat16(double value) { return DoubleToSmall(value, 7, 127, 0x7F80, 0x0040); }

const ScatterKernels& GetScatterKernels() {
  static const ScatterKernels kKernels = MakeKernels();
  return kKernels;
}

void ScatterApplyOne(ScatterType type, ScatterReduction reduction, uint8_t* dst,
                     const uint8_t* src) {
  const ScatterRunFn fn =
      GetScatterKernels().run[static_cast<int>(type)][static_cast<int>(reduction)];
  if (fn != nullptr) fn(dst, 0, src, 0, 1);
}

}  // namespace kernels
}  // namespace dmlcpu
