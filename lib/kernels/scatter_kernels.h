// SPDX-License-Identifier: Apache-2.0
// The scatter kernels (SCATTER, SCATTER_ND): resolve index tuples to destination offsets under
// the scatter's drop rule, and apply updates to destinations in order with one of five
// reductions. Plain C++ (no Highway, no plan types), single-threaded; scalar_scatter.cc.
//
// Contract: every kernel applies its items strictly in order i = 0, 1, ..., so that where two
// items hit one destination the later one wins (kNone) or is reduced in after the earlier one.
// Arithmetic is that of docs/semantics.md#scatter-reductions: integers wrap; FLOAT16 and
// BFLOAT16 are computed exactly and rounded once (to nearest even) per item; a NaN operand gives
// the destination's NaN if it is one, else the update's, quieted; max/min order -0 below +0.
#ifndef DMLCPU_KERNELS_SCATTER_KERNELS_H_
#define DMLCPU_KERNELS_SCATTER_KERNELS_H_

#include <cstddef>
#include <cstdint>

#include "kernels/kernels.h"

namespace dmlcpu {
namespace kernels {

enum class ScatterReduction : uint8_t { kNone = 0, kAdd = 1, kMul = 2, kMax = 3, kMin = 4 };
constexpr int kScatterReductionCount = 5;

// The element type a reduction computes in. kNone works on bits of any type (its table row
// is the element width's kBits* entry).
enum class ScatterType : uint8_t {
  kBits8, kBits16, kBits32, kBits64,
  kInt8, kUint8, kInt16, kUint16, kInt32, kUint32, kInt64, kUint64,
  kFloat16, kBfloat16, kFloat32, kFloat64,
};
constexpr int kScatterTypeCount = 16;

// The offset a dropped item carries: negative, and stays negative when any tuple's offsets
// (< 2^40 in all) are added to it, so every key-range test rejects it.
constexpr int64_t kDroppedOffset = INT64_MIN / 2;

// For i in [0, count): v = indices[i * idx_stride_bytes] (the slot's index type). A signed
// v < 0 becomes v + dim_size (once); if the result is not in [0, dim_size) the item is dropped
// (offsets_bytes[i] = kDroppedOffset), else offsets_bytes[i] += v * pitch_bytes. Items already
// dropped stay dropped. idx_stride_bytes may be 0.
using ScatterResolveFn = void (*)(const void* indices, int64_t idx_stride_bytes, size_t count,
                                  uint64_t dim_size, int64_t pitch_bytes, int64_t* offsets_bytes);

// For i in [0, count) in order: off = offsets_bytes[i]; when off is in [key_begin, key_end)
// (both in [0, 2^62]): dst[off] = op(dst[off], src[i * src_stride_bytes]). Items outside the
// range (dropped ones included) are skipped without a branch per item.
using ScatterElemsFn = void (*)(uint8_t* dst, const int64_t* offsets_bytes, size_t count,
                                const uint8_t* src, int64_t src_stride_bytes, uint64_t key_begin,
                                uint64_t key_end);

// For i in [0, count) in order: dst[i * dst_stride_bytes] = op(dst[...], src[i *
// src_stride_bytes]). dst_stride_bytes may be 0 (every item hits one element) and src's 0.
using ScatterRunFn = void (*)(uint8_t* dst, int64_t dst_stride_bytes, const uint8_t* src,
                              int64_t src_stride_bytes, size_t count);

// Replacement (kNone) along one index per item, resolved and applied in one pass: for i in
// [0, count) in order, v = indices[i * idx_stride_bytes] is wrapped and checked as
// ScatterResolveFn does (a dropped item writes nothing), then
// dst[i * dst_stride_bytes + v * pitch_bytes] = src[i * src_stride_bytes] (the table slot's
// width; where items share a destination the last one wins). idx_stride_bytes, dst_stride_bytes
// and src_stride_bytes may be 0.
using ScatterIndexedFn = void (*)(uint8_t* dst, int64_t dst_stride_bytes, const uint8_t* src,
                                  int64_t src_stride_bytes, const void* indices,
                                  int64_t idx_stride_bytes, size_t count, uint64_t dim_size,
                                  int64_t pitch_bytes);

// A reduction along one index per item, resolved and applied in one pass (scatter_reduce.cc):
// for i in [0, count) in order, v = indices[i * idx_stride_bytes] is wrapped and checked as
// ScatterResolveFn does (a dropped item changes nothing); key = base_bytes + i *
// dst_stride_bytes + v * pitch_bytes; when key is in [key_begin, key_end) (both in [0, 2^62]):
// dst[key] = op(dst[key], src[i * src_stride_bytes]). No branch per item on the index.
using ScatterIndexedReduceFn = void (*)(uint8_t* dst, int64_t base_bytes, int64_t dst_stride_bytes,
                                        const uint8_t* src, int64_t src_stride_bytes,
                                        const void* indices, int64_t idx_stride_bytes,
                                        size_t count, uint64_t dim_size, int64_t pitch_bytes,
                                        uint64_t key_begin, uint64_t key_end);

// The one-pass reduction for (index type, element type, reduction), or null where it is not
// specialised (kNone, and the 8/16-bit types: their resolve + elems path serves them).
ScatterIndexedReduceFn GetScatterIndexedReduce(IndexType index_type, ScatterType type,
                                               ScatterReduction reduction);

struct ScatterKernels {
  ScatterResolveFn resolve[kIndexTypeCount];
  ScatterIndexedFn indexed[kIndexTypeCount][4];  // by IndexType, WidthSlot
  ScatterElemsFn elems[kScatterTypeCount][kScatterReductionCount];  // null: not supported
  ScatterRunFn run[kScatterTypeCount][kScatterReductionCount];
};

const ScatterKernels& GetScatterKernels();

// One application of `reduction` to a single element (the references and tests use it).
void ScatterApplyOne(ScatterType type, ScatterReduction reduction, uint8_t* dst,
                     const uint8_t* src);

// Half-precision helpers with round-to-nearest-even from double (exact for every value a
// FLOAT16 or BFLOAT16 sum or product of two operands can take after one rounding to double).
double HalfToDouble(uint16_t bits);
uint16_t DoubleToHalf(double value);
double Bfloat16ToDouble(uint16_t bits);
uint16_t DoubleToBfloat16(double value);

}  // namespace kernels
}  // namespace dmlcpu

#endif  // DMLCPU_KERNELS_SCATTER_KERNELS_H_
