// SPDX-License-Identifier: Apache-2.0
// The scatter kernels' one-pass forms (scatter_kernels.h: resolve and apply in one loop, with
// and without a reduction) against the two-pass resolve-then-apply they replace, byte for byte.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels/scatter_kernels.h"

namespace dmlcpu {
namespace internal {
namespace {

// The one-pass replacement kernel against resolve-then-apply (scatter_kernels.h): every index
// type and width, negative, out-of-range (dropped) and duplicate indices, zero and non-zero
// destination, update and index strides; the whole destination buffer must match.
TEST(ScatterKernelsTest, IndexedKernelMatchesResolveThenApply) {
  const kernels::ScatterKernels& k = kernels::GetScatterKernels();
  const kernels::ScatterType bits[4] = {kernels::ScatterType::kBits8, kernels::ScatterType::kBits16,
                                        kernels::ScatterType::kBits32,
                                        kernels::ScatterType::kBits64};
  const uint32_t index_bytes[kernels::kIndexTypeCount] = {4, 4, 8, 8};
  std::mt19937_64 rng(0x5CA77E2);
  for (int it = 0; it < kernels::kIndexTypeCount; ++it) {
    for (int slot = 0; slot < 4; ++slot) {
      for (int variant = 0; variant < 5; ++variant) {
        const int64_t w = int64_t{1} << slot;
        const size_t count = 301;  // not a multiple of the dense row's unroll
        const uint64_t dim_size = 37;
        // Variant 4: the dense row (one row along a contiguous axis, contiguous updates and
        // indices); else dimension elements 3 apart.
        const bool dense = variant == 4;
        const int64_t pitch_bytes = dense ? w : 3 * w;
        const int64_t dst_stride_bytes = dense || variant & 1 ? 0 : dim_size * pitch_bytes;
        const int64_t src_stride_bytes = dense ? w : variant & 2 ? 0 : 2 * w;
        const int64_t idx_stride_bytes = variant == 3 ? 0 : index_bytes[it];
        std::vector<uint8_t> indices(count * index_bytes[it]), src(count * 2 * w);
        for (auto& b : src) b = static_cast<uint8_t>(rng());
        const bool is_signed = it == 0 || it == 2;
        for (size_t i = 0; i < count; ++i) {
          int64_t v = static_cast<int64_t>(rng() % (dim_size + 6)) - 3;  // -3 .. D+2
          if (!is_signed && v < 0) v = static_cast<int64_t>(dim_size) + 1000;  // dropped
          if (is_signed && rng() % 4 == 0) v -= static_cast<int64_t>(dim_size);  // wraps
          if (index_bytes[it] == 4) {
            const auto v32 = static_cast<uint32_t>(v);
            std::memcpy(indices.data() + i * 4, &v32, 4);
          } else {
            std::memcpy(indices.data() + i * 8, &v, 8);
          }
        }
        const size_t dst_bytes =
            static_cast<size_t>(dst_stride_bytes * (count - 1) + dim_size * pitch_bytes + 16);
        std::vector<uint8_t> want(dst_bytes), got(dst_bytes);
        for (auto& b : want) b = static_cast<uint8_t>(rng());
        got = want;
        std::vector<int64_t> offsets(count);
        for (size_t i = 0; i < count; ++i) offsets[i] = static_cast<int64_t>(i) * dst_stride_bytes;
        k.resolve[it](indices.data(), idx_stride_bytes, count, dim_size, pitch_bytes,
                      offsets.data());
        k.elems[static_cast<int>(bits[slot])][0](want.data(), offsets.data(), count, src.data(),
                                                 src_stride_bytes, 0, uint64_t{1} << 62);
        k.indexed[it][slot](got.data(), dst_stride_bytes, src.data(), src_stride_bytes,
                            indices.data(), idx_stride_bytes, count, dim_size, pitch_bytes);
        EXPECT_EQ(got, want) << "index type " << it << " width " << w << " variant " << variant;
      }
    }
  }
}

// The one-pass reduction kernels against resolve-then-apply (scatter_kernels.h): every
// specialised (index type, element type, reduction), negative, dropped and duplicate indices
// (a quarter of the items into one bin), groups of four with and without a dropped item, NaN,
// signed zeros and infinities, strided and dense rows, and key ranges: the whole range, and a
// split exactly at the duplicate-heavy bin applied range by range, must match bytewise.
TEST(ScatterKernelsTest, IndexedReduceKernelMatchesResolveThenApply) {
  const kernels::ScatterKernels& k = kernels::GetScatterKernels();
  struct TypeCase {
    kernels::ScatterType type;
    uint32_t bytes;
    bool is_float;
  };
  const TypeCase types[] = {{kernels::ScatterType::kFloat32, 4, true},
                            {kernels::ScatterType::kFloat64, 8, true},
                            {kernels::ScatterType::kInt32, 4, false},
                            {kernels::ScatterType::kUint32, 4, false},
                            {kernels::ScatterType::kInt64, 8, false},
                            {kernels::ScatterType::kUint64, 8, false}};
  const uint32_t index_bytes[kernels::kIndexTypeCount] = {4, 4, 8, 8};
  const float special32[] = {0.0f, -0.0f, 1.5f, -2.25f, 1e30f, -1e30f, 3.0f};
  const double special64[] = {0.0, -0.0, 1.5, -2.25, 1e300, -1e300, 3.0};
  const uint32_t nan32[] = {0x7FC00001u, 0xFF800002u, 0x7F800000u, 0xFF800000u};
  const uint64_t nan64[] = {0x7FF8000000000001ull, 0xFFF0000000000002ull, 0x7FF0000000000000ull,
                            0xFFF0000000000000ull};
  std::mt19937_64 rng(0x5CA77E3);
  int checked = 0;
  for (int it = 0; it < kernels::kIndexTypeCount; ++it) {
    for (const TypeCase& tc : types) {
      for (int r = 1; r < kernels::kScatterReductionCount; ++r) {
        const auto reduction = static_cast<kernels::ScatterReduction>(r);
        const kernels::ScatterIndexedReduceFn fn =
            kernels::GetScatterIndexedReduce(static_cast<kernels::IndexType>(it), tc.type,
                                             reduction);
        ASSERT_NE(fn, nullptr) << "index type " << it << " type " << static_cast<int>(tc.type);
        for (int variant = 0; variant < 3; ++variant) {
          const int64_t w = tc.bytes;
          const size_t count = 1021;  // not a multiple of the unroll
          const uint64_t dim_size = 37, heavy = 17;
          // Variant 0: the dense row; 1: elements 3 apart, rows apart; 2: strided updates and
          // indices into one row.
          const bool dense = variant == 0;
          const int64_t pitch_bytes = dense ? w : 3 * w;
          const int64_t dst_stride_bytes = variant == 1 ? 5 * w : 0;
          const int64_t src_stride_bytes = dense ? w : 2 * w;
          const int64_t idx_stride_bytes = dense ? index_bytes[it] : 2 * index_bytes[it];
          const int64_t base_bytes = 2 * w;
          std::vector<uint8_t> indices(count * 2 * index_bytes[it]), src(count * 2 * w);
          for (size_t i = 0; i < count * 2; ++i) {
            uint8_t* p = src.data() + i * w;
            const uint64_t pick = rng() % 16;
            if (tc.is_float && w == 4 && pick < 7) {
              std::memcpy(p, &special32[pick], 4);
            } else if (tc.is_float && w == 4 && pick < 8) {
              std::memcpy(p, &nan32[rng() % 4], 4);
            } else if (tc.is_float && pick < 7) {
              std::memcpy(p, &special64[pick], 8);
            } else if (tc.is_float && pick < 8) {
              std::memcpy(p, &nan64[rng() % 4], 8);
            } else if (tc.is_float && w == 4) {
              const float f = static_cast<float>(static_cast<int64_t>(rng() % 2001) - 1000) / 8;
              std::memcpy(p, &f, 4);
            } else if (tc.is_float) {
              const double f = static_cast<double>(static_cast<int64_t>(rng() % 2001) - 1000) / 8;
              std::memcpy(p, &f, 8);
            } else {
              const uint64_t v = rng();
              std::memcpy(p, &v, static_cast<size_t>(w));
            }
          }
          const bool is_signed = it == 0 || it == 2;
          for (size_t i = 0; i < count * 2; ++i) {
            // Mostly in range; a quarter into the heavy bin; now and then dropped or wrapped.
            int64_t v = rng() % 4 == 0 ? static_cast<int64_t>(heavy)
                                       : static_cast<int64_t>(rng() % dim_size);
            if (rng() % 64 == 0) v = static_cast<int64_t>(dim_size + rng() % 3);  // dropped
            if (is_signed && rng() % 8 == 0) v -= static_cast<int64_t>(dim_size);  // wraps
            if (is_signed && rng() % 128 == 0) v = -static_cast<int64_t>(dim_size) - 1;  // drop
            if (index_bytes[it] == 4) {
              const auto v32 = static_cast<uint32_t>(v);
              std::memcpy(indices.data() + i * 4, &v32, 4);
            } else {
              std::memcpy(indices.data() + i * 8, &v, 8);
            }
          }
          const size_t dst_bytes = static_cast<size_t>(
              base_bytes + dst_stride_bytes * (count - 1) + dim_size * pitch_bytes + 16);
          std::vector<uint8_t> want(dst_bytes);
          for (size_t i = 0; i + w <= dst_bytes; i += w) {
            // Some destinations start as quiet or signalling NaNs (payloads kept, then quieted).
            const uint64_t pick = rng() % 8;
            if (tc.is_float && w == 4 && pick < 6) {
              std::memcpy(want.data() + i, &special32[pick], 4);
            } else if (tc.is_float && w == 4 && pick == 6) {
              std::memcpy(want.data() + i, &nan32[rng() % 2], 4);
            } else if (tc.is_float && pick < 6) {
              std::memcpy(want.data() + i, &special64[pick], 8);
            } else if (tc.is_float && pick == 6) {
              std::memcpy(want.data() + i, &nan64[rng() % 2], 8);
            } else {
              const uint64_t v = rng();
              std::memcpy(want.data() + i, &v, static_cast<size_t>(w));
            }
          }
          const std::vector<uint8_t> initial = want;
          std::vector<int64_t> offsets(count);
          for (size_t i = 0; i < count; ++i) {
            offsets[i] = base_bytes + static_cast<int64_t>(i) * dst_stride_bytes;
          }
          k.resolve[it](indices.data(), idx_stride_bytes, count, dim_size, pitch_bytes,
                        offsets.data());
          k.elems[static_cast<int>(tc.type)][r](want.data(), offsets.data(), count, src.data(),
                                                src_stride_bytes, 0, uint64_t{1} << 62);
          const std::string what = "index type " + std::to_string(it) + " type " +
                                   std::to_string(static_cast<int>(tc.type)) + " reduction " +
                                   std::to_string(r) + " variant " + std::to_string(variant);
          std::vector<uint8_t> got = initial;
          fn(got.data(), base_bytes, dst_stride_bytes, src.data(), src_stride_bytes,
             indices.data(), idx_stride_bytes, count, dim_size, pitch_bytes, 0,
             uint64_t{1} << 62);
          EXPECT_EQ(got, want) << what << ", every key";
          // Key ranges split at the heavy bin's key (its first byte opens the second range)
          // and one byte after it, and at a random key.
          const uint64_t heavy_key = static_cast<uint64_t>(base_bytes) + heavy * pitch_bytes;
          const uint64_t splits[] = {heavy_key, heavy_key + 1, rng() % dst_bytes};
          for (uint64_t split : splits) {
            got = initial;
            const uint64_t bounds[] = {0, split, split + 7, uint64_t{1} << 62};
            for (int b = 0; b < 3; ++b) {
              fn(got.data(), base_bytes, dst_stride_bytes, src.data(), src_stride_bytes,
                 indices.data(), idx_stride_bytes, count, dim_size, pitch_bytes, bounds[b],
                 bounds[b + 1]);
            }
            EXPECT_EQ(got, want) << what << ", ranges split at " << split;
          }
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, kernels::kIndexTypeCount * 6 * 4 * 3);
}

}  // namespace
}  // namespace internal
}  // namespace dmlcpu
