// SPDX-License-Identifier: Apache-2.0
// Per-target helpers shared by the kernel families (copy-inl.h, frame-inl.h, gather-inl.h,
// index-inl.h, transpose-inl.h): unaligned element access, the kClamp rule in scalar and vector
// form, and streamed or regular whole-vector stores. Also defines DMLCPU_KERNELS_HAVE_VECTORS,
// which kernels.cc undefines at the end of each target's pass.

// Per-target include guard (toggled by foreach_target.h).
#if defined(DMLCPU_KERNELS_HELPERS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef DMLCPU_KERNELS_HELPERS_INL_H_
#undef DMLCPU_KERNELS_HELPERS_INL_H_
#else
#define DMLCPU_KERNELS_HELPERS_INL_H_
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace dmlcpu {
namespace kernels {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

// Whether this target has real vectors; HWY_SCALAR runs the scalar loops only.
#define DMLCPU_KERNELS_HAVE_VECTORS (HWY_TARGET != HWY_SCALAR)

// ------------------------------ Scalar helpers

// Unaligned element access; compiles to a single move.
template <typename T>
HWY_INLINE T LoadElem(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
HWY_INLINE void StoreElem(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

// Typed view of a byte pointer for Highway loads/stores (which never dereference it as T).
template <typename T>
HWY_INLINE const T* AsLanes(const uint8_t* p) {
  return reinterpret_cast<const T*>(p);
}

template <typename T>
HWY_INLINE T* AsLanes(uint8_t* p) {
  return reinterpret_cast<T*>(p);
}

// The kClamp rule of kernels.h for one index value.
template <typename I>
HWY_INLINE uint64_t ClampIndex(I v, uint64_t dim_size) {
  uint64_t u;
  if constexpr (std::is_signed_v<I>) {
    const uint64_t w = static_cast<uint64_t>(static_cast<int64_t>(v));
    // Two's-complement wrap: same bits as the signed sum, without signed overflow.
    u = static_cast<int64_t>(v) < 0 ? w + dim_size : w;
  } else {
    u = static_cast<uint64_t>(v);
  }
  return u < dim_size ? u : dim_size - 1;
}

// c * pitch modulo 2^64, the bits of the signed product.
HWY_INLINE int64_t OffsetBytes(uint64_t c, int64_t pitch_bytes) {
  return static_cast<int64_t>(c * static_cast<uint64_t>(pitch_bytes));
}

#if DMLCPU_KERNELS_HAVE_VECTORS

// ------------------------------ Vector helpers

// Stores all lanes of v at p: with kStream a non-temporal store (p must be aligned to the vector
// size), else an unaligned store.
template <bool kStream, class D, class V>
HWY_INLINE void StoreLanes(D d, V v, hn::TFromD<D>* HWY_RESTRICT p) {
  if constexpr (kStream) {
    hn::Stream(v, d, p);
  } else {
    hn::StoreU(v, d, p);
  }
}

// The kClamp rule for Lanes(du64) contiguous indices of type I, one per 64-bit lane.
template <typename I, class DU64>
HWY_INLINE hn::Vec<DU64> ClampIndexLanes(DU64 du64, const I* indices, uint64_t dim_size) {
  const hn::RebindToSigned<DU64> di64;
  const hn::Rebind<I, DU64> d_idx;
  const auto raw = hn::LoadU(d_idx, indices);
  hn::Vec<DU64> u;
  if constexpr (std::is_signed_v<I>) {
    hn::Vec<decltype(di64)> w;
    if constexpr (sizeof(I) == 8) {
      w = raw;
    } else {
      w = hn::PromoteTo(di64, raw);
    }
    const auto dim = hn::Set(di64, static_cast<int64_t>(dim_size));
    w = hn::Add(w, hn::IfThenElseZero(hn::Lt(w, hn::Zero(di64)), dim));
    u = hn::BitCast(du64, w);
  } else {
    if constexpr (sizeof(I) == 8) {
      u = raw;
    } else {
      u = hn::PromoteTo(du64, raw);
    }
  }
  return hn::Min(u, hn::Set(du64, dim_size - 1));
}

#endif  // DMLCPU_KERNELS_HAVE_VECTORS

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace dmlcpu
HWY_AFTER_NAMESPACE();

#endif  // DMLCPU_KERNELS_HELPERS_INL_H_
