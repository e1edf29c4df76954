// SPDX-License-Identifier: Apache-2.0
// The one-pass scatter reductions (ScatterIndexedReduceFn, scatter_kernels.h): index resolve,
// key-range test and read-modify-write fused per item, specialised per (index type, element
// type, reduction) so that nothing is dispatched per item. Scalar: items apply in order.
#include <cstdint>
#include <cstring>

#include "kernels/scatter_arith.h"
#include "kernels/scatter_kernels.h"

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
  static N Full(N a, N b) {
    return F::ToWide(Apply<FloatType<F>, kR>::Do(F::FromWide(a), F::FromWide(b)));
  }
  static N Do(N a, N b) {
    if constexpr (kR == ScatterReduction::kAdd || kR == ScatterReduction::kMul) {
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

constexpr size_t kSinkSlots = 8;  // a power of two

template <class Type, ScatterReduction kR>
inline void ReduceAt(uintptr_t at, typename FastApply<Type, kR>::N b) {
  using N = typename FastApply<Type, kR>::N;
  auto* p = reinterpret_cast<uint8_t*>(at);
  StoreAt<N>(p, FastApply<Type, kR>::Do(LoadAt<N>(p), b));
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
      const uint64_t u0 = Wrapped(LoadAt<I>(idx + i * sizeof(I)), dim_size);
      const uint64_t u1 = Wrapped(LoadAt<I>(idx + (i + 1) * sizeof(I)), dim_size);
      const uint64_t u2 = Wrapped(LoadAt<I>(idx + (i + 2) * sizeof(I)), dim_size);
      const uint64_t u3 = Wrapped(LoadAt<I>(idx + (i + 3) * sizeof(I)), dim_size);
      const N b0 = LoadAt<N>(src + i * sizeof(N)), b1 = LoadAt<N>(src + (i + 1) * sizeof(N));
      const N b2 = LoadAt<N>(src + (i + 2) * sizeof(N)), b3 = LoadAt<N>(src + (i + 3) * sizeof(N));
      if ((u0 | u1 | u2 | u3) < dim_size) {
        ReduceAt<Type, kR>(row_at + u0 * sizeof(N), b0);
        ReduceAt<Type, kR>(row_at + u1 * sizeof(N), b1);
        ReduceAt<Type, kR>(row_at + u2 * sizeof(N), b2);
        ReduceAt<Type, kR>(row_at + u3 * sizeof(N), b3);
      } else {
        item(i, u0, b0);
        item(i + 1, u1, b1);
        item(i + 2, u2, b2);
        item(i + 3, u3, b3);
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
