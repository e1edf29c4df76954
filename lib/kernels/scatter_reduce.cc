// SPDX-License-Identifier: Apache-2.0
// The one-pass scatter reductions (ScatterIndexedReduceFn, scatter_kernels.h): index resolve,
// key-range test and read-modify-write fused per item, specialised per (index type, element
// type, reduction) so that nothing is dispatched per item. Scalar: items apply in order.
#include <cstdint>
#include <cstring>

#include "core/portability.h"
#include "kernels/prefetch.h"
#include "kernels/scatter_arith.h"
#include "kernels/scatter_kernels.h"

// x86 itself, not only its intrinsics (ARM64EC and Emscripten offer those, not its NaN rule).
#if (defined(__x86_64__) || (defined(__i386__) && defined(__SSE2__)) || \
     defined(_M_X64)) && !defined(_M_ARM64EC) && !defined(__EMSCRIPTEN__)
#include <emmintrin.h>
#define DMLCPU_SCATTER_SSE2 1
#endif

namespace dmlcpu {
namespace kernels {
namespace {

using scatter_arith::Apply;
using scatter_arith::Float32Ops;
using scatter_arith::Float64Ops;
using scatter_arith::FloatType;
using scatter_arith::IntType;
using scatter_arith::LoadAt;
using scatter_arith::StoreAt;
using scatter_arith::Wrapped;

// Apply<Type, kR> on the element's native type (N: float, double, or the integer). The IEEE
// add and multiply run straight in hardware: a result that is not NaN had no NaN operand, so
// only NaN results take the full rule (the same bits either way).
template <class Type, ScatterReduction kR>
struct FastApply {
  using N = typename Type::Storage;
  static N Do(N a, N b) { return Apply<Type, kR>::Do(a, b); }
};

template <class F, ScatterReduction kR>
struct FloatFastApply {
  using S = typename F::Storage;
  using N = decltype(F::ToWide(S{}));
  static constexpr bool kHardware = kR == ScatterReduction::kAdd || kR == ScatterReduction::kMul;
  static N Full(N a, N b) {
    return F::ToWide(Apply<FloatType<F>, kR>::Do(F::FromWide(a), F::FromWide(b)));
  }
  static N Do(N a, N b) {
    if constexpr (kHardware) {
      N r = kR == ScatterReduction::kAdd ? a + b : a * b;
      if (r != r) r = Full(a, b);
      return r;
    } else {
      return Full(a, b);
    }
  }
};
template <ScatterReduction kR>
struct FastApply<FloatType<Float32Ops>, kR> : FloatFastApply<Float32Ops, kR> {};
template <ScatterReduction kR>
struct FastApply<FloatType<Float64Ops>, kR> : FloatFastApply<Float64Ops, kR> {};

template <class Type, ScatterReduction kR>
constexpr bool kHardwareFloat = false;
template <ScatterReduction kR>
constexpr bool kHardwareFloat<FloatType<Float32Ops>, kR> =
    FloatFastApply<Float32Ops, kR>::kHardware;
template <ScatterReduction kR>
constexpr bool kHardwareFloat<FloatType<Float64Ops>, kR> =
    FloatFastApply<Float64Ops, kR>::kHardware;

constexpr size_t kSinkSlots = 8;  // a power of two

// A NaN result of a hardware add or multiply: the full rule, from the destination's bits (not
// yet written). Out of line, so that the hot loop keeps its operands in vector registers.
template <class Type, ScatterReduction kR>
DMLCPU_NOINLINE void ReduceNanAt(uint8_t* p, typename FastApply<Type, kR>::N b) {
  using N = typename FastApply<Type, kR>::N;
  StoreAt<N>(p, FastApply<Type, kR>::Full(LoadAt<N>(p), b));
}

// The hardware add or multiply alone, for an update known not to be a NaN: x86's result then
// is the rule's (a NaN destination comes back quieted, whichever operand order the compiler
// picks; docs/semantics.md#scatter-reductions).
template <class Type, ScatterReduction kR>
inline void ReduceNumberAt(uintptr_t at, typename FastApply<Type, kR>::N b) {
  using N = typename FastApply<Type, kR>::N;
  auto* p = reinterpret_cast<uint8_t*>(at);
  const N a = LoadAt<N>(p);
  StoreAt<N>(p, kR == ScatterReduction::kAdd ? a + b : a * b);
}

// Whether four updates may skip the per-item NaN test: x86 (SSE2 compares, and the NaN
// propagation ReduceNumberAt relies on) and none of the four a NaN.
template <typename N>
inline bool NoNan4(const uint8_t* src) {
#if defined(DMLCPU_SCATTER_SSE2)
  if constexpr (sizeof(N) == 4) {
    const __m128 v = _mm_loadu_ps(reinterpret_cast<const float*>(src));
    return _mm_movemask_ps(_mm_cmpunord_ps(v, v)) == 0;
  } else {
    const __m128d lo = _mm_loadu_pd(reinterpret_cast<const double*>(src));
    const __m128d hi = _mm_loadu_pd(reinterpret_cast<const double*>(src + 16));
    return _mm_movemask_pd(_mm_or_pd(_mm_cmpunord_pd(lo, lo), _mm_cmpunord_pd(hi, hi))) == 0;
  }
#else
  (void)src;
  return false;
#endif
}

template <class Type, ScatterReduction kR>
inline void ReduceAt(uintptr_t at, typename FastApply<Type, kR>::N b) {
  using N = typename FastApply<Type, kR>::N;
  auto* p = reinterpret_cast<uint8_t*>(at);
  if constexpr (kHardwareFloat<Type, kR>) {
    const N a = LoadAt<N>(p);
    const N r = kR == ScatterReduction::kAdd ? a + b : a * b;
    if (r != r) {
      ReduceNanAt<Type, kR>(p, b);
      return;
    }
    StoreAt<N>(p, r);
  } else {
    StoreAt<N>(p, FastApply<Type, kR>::Do(LoadAt<N>(p), b));
  }
}

// kKeyed: test the key range; kPacked: indices and src contiguous, every item into one row of
// contiguous elements (dst_stride_bytes 0, pitch sizeof(N)). Items that are dropped or outside
// the range are applied to a sink slot instead, chosen by a mask (no branch to mispredict),
// round robin over kSinkSlots slots so that they form no chain of dependent read-modify-writes.
template <typename I, class Type, ScatterReduction kR, bool kKeyed, bool kPacked>
void ReduceLoop(uint8_t* dst, int64_t base_bytes, int64_t dst_stride_bytes, const uint8_t* src,
                int64_t src_stride_bytes, const uint8_t* idx, int64_t idx_stride_bytes,
                size_t count, uint64_t dim_size, int64_t pitch_bytes, uint64_t key_begin,
                uint64_t key_span) {
  using N = typename FastApply<Type, kR>::N;
  N sink[kSinkSlots] = {};
  const auto sink_at = reinterpret_cast<uintptr_t>(sink);
  // Unsigned arithmetic throughout: a dropped item's key may wrap; it is never used.
  const uintptr_t dst_at = reinterpret_cast<uintptr_t>(dst);
  const auto pitch = static_cast<uint64_t>(kPacked ? static_cast<int64_t>(sizeof(N)) : pitch_bytes);
  uint64_t row_key = static_cast<uint64_t>(base_bytes);  // the item's key before its index
  const auto item = [&](size_t i, uint64_t u, N b) {
    const uint64_t key = row_key + u * pitch;
    bool mine = u < dim_size;
    if constexpr (kKeyed) mine = mine & (key - key_begin < key_span);
    const uintptr_t slot = sink_at + (i % kSinkSlots) * sizeof(N);
    const uintptr_t mask = uintptr_t{0} - static_cast<uintptr_t>(mine);
    ReduceAt<Type, kR>(slot + ((dst_at + key - slot) & mask), b);
    if constexpr (!kPacked) row_key += static_cast<uint64_t>(dst_stride_bytes);
  };
  size_t i = 0;
  if constexpr (kPacked && !kKeyed) {
    // Four at a time: where all four are in range (the usual case), no select at all.
    const uintptr_t row_at = dst_at + row_key;
    for (; i + 4 <= count; i += 4) {
      if (i % kItemPrefetchGroupItems == 0) {  // the hardware prefetcher alone leaves loads waiting
        PrefetchItemsAhead(idx, sizeof(I), i);
        PrefetchItemsAhead(src, sizeof(N), i);
      }
      // Four indices already in [0, dim_size) (a negative one fails as unsigned), the usual
      // case: no wrap and no select.
      const auto v0 = static_cast<uint64_t>(LoadAt<I>(idx + i * sizeof(I)));
      const auto v1 = static_cast<uint64_t>(LoadAt<I>(idx + (i + 1) * sizeof(I)));
      const auto v2 = static_cast<uint64_t>(LoadAt<I>(idx + (i + 2) * sizeof(I)));
      const auto v3 = static_cast<uint64_t>(LoadAt<I>(idx + (i + 3) * sizeof(I)));
      const N b0 = LoadAt<N>(src + i * sizeof(N)), b1 = LoadAt<N>(src + (i + 1) * sizeof(N));
      const N b2 = LoadAt<N>(src + (i + 2) * sizeof(N)), b3 = LoadAt<N>(src + (i + 3) * sizeof(N));
      const bool in_range = (v0 | v1 | v2 | v3) < dim_size;
      if constexpr (kHardwareFloat<Type, kR>) {
        if (in_range && NoNan4<N>(src + i * sizeof(N))) {
          ReduceNumberAt<Type, kR>(row_at + v0 * sizeof(N), b0);
          ReduceNumberAt<Type, kR>(row_at + v1 * sizeof(N), b1);
          ReduceNumberAt<Type, kR>(row_at + v2 * sizeof(N), b2);
          ReduceNumberAt<Type, kR>(row_at + v3 * sizeof(N), b3);
          continue;
        }
      }
      if (in_range) {
        ReduceAt<Type, kR>(row_at + v0 * sizeof(N), b0);
        ReduceAt<Type, kR>(row_at + v1 * sizeof(N), b1);
        ReduceAt<Type, kR>(row_at + v2 * sizeof(N), b2);
        ReduceAt<Type, kR>(row_at + v3 * sizeof(N), b3);
      } else {
        item(i, Wrapped(static_cast<I>(v0), dim_size), b0);
        item(i + 1, Wrapped(static_cast<I>(v1), dim_size), b1);
        item(i + 2, Wrapped(static_cast<I>(v2), dim_size), b2);
        item(i + 3, Wrapped(static_cast<I>(v3), dim_size), b3);
      }
    }
  }
  for (; i < count; ++i) {
    const I v = kPacked ? LoadAt<I>(idx + i * sizeof(I))
                        : LoadAt<I>(idx + static_cast<int64_t>(i) * idx_stride_bytes);
    const N b = kPacked ? LoadAt<N>(src + i * sizeof(N))
                        : LoadAt<N>(src + static_cast<int64_t>(i) * src_stride_bytes);
    item(i, Wrapped(v, dim_size), b);
  }
}

template <typename I, class Type, ScatterReduction kR>
void IndexedReduce(uint8_t* dst, int64_t base_bytes, int64_t dst_stride_bytes, const uint8_t* src,
                   int64_t src_stride_bytes, const void* indices, int64_t idx_stride_bytes,
                   size_t count, uint64_t dim_size, int64_t pitch_bytes, uint64_t key_begin,
                   uint64_t key_end) {
  using S = typename Type::Storage;
  const auto* idx = static_cast<const uint8_t*>(indices);
  static_assert(sizeof(S) == sizeof(typename FastApply<Type, kR>::N), "native width");
  const bool packed = dst_stride_bytes == 0 && pitch_bytes == static_cast<int64_t>(sizeof(S)) &&
                      src_stride_bytes == static_cast<int64_t>(sizeof(S)) &&
                      idx_stride_bytes == static_cast<int64_t>(sizeof(I));
  // Every key below 2^62 (kernel contract): [0, 2^62) needs no test.
  const bool keyed = key_begin != 0 || key_end < (uint64_t{1} << 62);
  const uint64_t span = key_end - key_begin;
  const auto run = [&](auto loop) {
    loop(dst, base_bytes, dst_stride_bytes, src, src_stride_bytes, idx, idx_stride_bytes, count,
         dim_size, pitch_bytes, key_begin, span);
  };
  if (packed && keyed) {
    run(ReduceLoop<I, Type, kR, true, true>);
  } else if (packed) {
    run(ReduceLoop<I, Type, kR, false, true>);
  } else if (keyed) {
    run(ReduceLoop<I, Type, kR, true, false>);
  } else {
    run(ReduceLoop<I, Type, kR, false, false>);
  }
}

// kScatterTypeCount x reductions per index type; only the types listed in Fill are filled.
struct ReduceTable {
  ScatterIndexedReduceFn fn[kIndexTypeCount][kScatterTypeCount][kScatterReductionCount];
};

template <typename I, class Type>
void FillType(ReduceTable* t, IndexType index_type, ScatterType type) {
  auto* row = t->fn[static_cast<int>(index_type)][static_cast<int>(type)];
  row[static_cast<int>(ScatterReduction::kAdd)] = IndexedReduce<I, Type, ScatterReduction::kAdd>;
  row[static_cast<int>(ScatterReduction::kMul)] = IndexedReduce<I, Type, ScatterReduction::kMul>;
  row[static_cast<int>(ScatterReduction::kMax)] = IndexedReduce<I, Type, ScatterReduction::kMax>;
  row[static_cast<int>(ScatterReduction::kMin)] = IndexedReduce<I, Type, ScatterReduction::kMin>;
}

template <typename I>
void FillIndex(ReduceTable* t, IndexType index_type) {
  FillType<I, FloatType<Float32Ops>>(t, index_type, ScatterType::kFloat32);
  FillType<I, FloatType<Float64Ops>>(t, index_type, ScatterType::kFloat64);
  FillType<I, IntType<int32_t>>(t, index_type, ScatterType::kInt32);
  FillType<I, IntType<uint32_t>>(t, index_type, ScatterType::kUint32);
  FillType<I, IntType<int64_t>>(t, index_type, ScatterType::kInt64);
  FillType<I, IntType<uint64_t>>(t, index_type, ScatterType::kUint64);
}

ReduceTable MakeTable() {
  ReduceTable t = {};
  FillIndex<int32_t>(&t, IndexType::kInt32);
  FillIndex<uint32_t>(&t, IndexType::kUint32);
  FillIndex<int64_t>(&t, IndexType::kInt64);
  FillIndex<uint64_t>(&t, IndexType::kUint64);
  return t;
}

}  // namespace

ScatterIndexedReduceFn GetScatterIndexedReduce(IndexType index_type, ScatterType type,
                                               ScatterReduction reduction) {
  static const ReduceTable kTable = MakeTable();
  return kTable.fn[static_cast<int>(index_type)][static_cast<int>(type)]
                  [static_cast<int>(reduction)];
}

}  // namespace kernels
}  // namespace dmlcpu
