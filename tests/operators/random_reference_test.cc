// SPDX-License-Identifier: Apache-2.0
// Randomised end-to-end tests: the library against the naive reference, byte for byte.
//
// Every case is drawn from a seeded generator (reproducible): ranks 1-8, every element width
// (all 11 byte-sized data types), every index type, negative and out-of-range indices (kClamp
// must follow the reference's rule; kStrict must return kOutOfRange and leave the output alone),
// random strides on every tensor (padded, permuted, 0-stride broadcast on inputs and indices;
// outputs padded/permuted but never 0-stride or overlapping), right-aligned leading-1 dimensions,
// extra TotalTensorSizeInBytes, larger bindings, GuaranteedBaseOffsetAlignment, data starts
// 16/32/48 bytes past a 64-byte boundary. Each case runs on devices with max_threads 1, 2 and 8
// (oneTBB) and on one whose parallel_for is an engine-owned pool of plain threads (4 tasks);
// all must equal the reference, hence each other. The first few cases per operator are large
// (> 1 MiB of output) so that the parallel paths run.
//
// Environment:
//   DMLCPU_TEST_CASES  cases per operator (default kDefaultCasesPerOperator)
//   DMLCPU_TEST_SEED   base seed (default kDefaultSeed)
//   DMLCPU_TEST_ONLY_CASE  run only this case number (a failure prints the line to rerun it)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/dmlcpu.h"
#include "reference/reference.h"
#include "support/devices.h"
#include "support/tester.h"

namespace dmlcpu_test {
namespace {

using Rng = std::mt19937_64;

constexpr uint32_t kDefaultCasesPerOperator = 8000;
constexpr uint64_t kDefaultSeed = 0x5EEDC0DEu;
constexpr uint32_t kLargeCasesPerOperator = 5;
constexpr int kMaxFailingCasesPerOperator = 3;

uint32_t CasesPerOperator() {
  const char* text = std::getenv("DMLCPU_TEST_CASES");
  if (text != nullptr && *text != '\0')
    return static_cast<uint32_t>(std::strtoul(text, nullptr, 10));
  return kDefaultCasesPerOperator;
}

uint64_t BaseSeed() {
  const char* text = std::getenv("DMLCPU_TEST_SEED");
  if (text != nullptr && *text != '\0') return std::strtoull(text, nullptr, 0);
  return kDefaultSeed;
}

// -1 = every case.
int64_t OnlyCase() {
  const char* text = std::getenv("DMLCPU_TEST_ONLY_CASE");
  if (text != nullptr && *text != '\0') return std::strtoll(text, nullptr, 10);
  return -1;
}

uint64_t SplitMix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// ---- random helpers ----

uint32_t Uniform(Rng& rng, uint32_t lo, uint32_t hi) {
  return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
}

bool Chance(Rng& rng, double p) {
  return std::uniform_real_distribution<double>(0.0, 1.0)(rng) < p;
}

// In [1, hi], log-uniform: mostly small, sometimes large.
uint32_t LogUniform(Rng& rng, uint32_t hi) {
  const double x = std::exp(std::uniform_real_distribution<double>(0.0, std::log(hi + 1.0))(rng));
  return std::min(hi, std::max(1u, static_cast<uint32_t>(x)));
}

constexpr DML_TENSOR_DATA_TYPE kDataTypes[] = {
    DML_TENSOR_DATA_TYPE_UINT8,  DML_TENSOR_DATA_TYPE_INT8,  DML_TENSOR_DATA_TYPE_FLOAT16,
    DML_TENSOR_DATA_TYPE_UINT16, DML_TENSOR_DATA_TYPE_INT16, DML_TENSOR_DATA_TYPE_FLOAT32,
    DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_FLOAT64,
    DML_TENSOR_DATA_TYPE_UINT64, DML_TENSOR_DATA_TYPE_INT64};
constexpr DML_TENSOR_DATA_TYPE kIndexTypes[] = {
    DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_UINT32,
    DML_TENSOR_DATA_TYPE_UINT64};

uint64_t Product(const std::vector<uint32_t>& sizes) {
  uint64_t product = 1;
  for (uint32_t size : sizes) product *= size;
  return product;
}

// How big a case's tensors are: tiny (log-uniform sizes, edge cases), medium (uniform sizes, up
// to 512 KiB of output), large (> 1 MiB of output, parallel paths).
enum class Scale { kTiny, kMedium, kLarge };

// What the driver decides for a case before the generator draws the shapes.
struct CaseChoice {
  Scale scale = Scale::kTiny;
  bool large() const { return scale == Scale::kLarge; }
  DML_TENSOR_DATA_TYPE data_type = DML_TENSOR_DATA_TYPE_FLOAT32;
  DML_TENSOR_DATA_TYPE index_type = DML_TENSOR_DATA_TYPE_INT32;
  IndexValues index_values = IndexValues::kInRange;
  double out_of_range_fraction = 0.0;
};

// A generated tester plus what the coverage summary counts.
template <typename Tester>
struct Generated {
  Tester tester;
  uint32_t rank = 0;
  uint64_t output_bytes = 0;
};

uint32_t RandomRank(Rng& rng, const CaseChoice& choice) {
  return choice.large() ? Uniform(rng, 1, 5) : Uniform(rng, 1, 8);
}

// Largest size of one dimension of a tensor of `rank` dimensions.
uint32_t DimCap(uint32_t rank, const CaseChoice& choice) {
  static constexpr uint32_t kTiny[] = {0, 300, 48, 16, 10, 5, 4, 3, 3};
  static constexpr uint32_t kMedium[] = {0, 8192, 160, 40, 16, 9, 6, 5, 4};
  static constexpr uint32_t kLarge[] = {0, 1u << 21, 2048, 160, 48, 20, 12, 8, 6};
  switch (choice.scale) {
    case Scale::kTiny:
      return kTiny[rank];
    case Scale::kMedium:
      return kMedium[rank];
    case Scale::kLarge:
      return kLarge[rank];
  }
  return 1;
}

// Element budget of a data tensor (or, with `indices`, of an index grid).
uint64_t ElementBudget(const CaseChoice& choice, bool indices) {
  switch (choice.scale) {
    case Scale::kTiny:
      return indices ? 64 : 4096;
    case Scale::kMedium:
      return indices ? 4096 : (1u << 17);
    case Scale::kLarge:
      return indices ? (1u << 20) : (8u << 20);
  }
  return 1;
}

// Sizes of `rank` dims with product <= the budget, each log-uniform (tiny) or uniform in
// [1, cap * cap_multiplier]; sometimes right-aligned (leading 1s).
std::vector<uint32_t> RandomSizes(Rng& rng, uint32_t rank, bool indices, const CaseChoice& choice,
                                  uint32_t cap_multiplier = 1) {
  const uint64_t max_elems = ElementBudget(choice, indices);
  const uint32_t dim_cap = DimCap(rank, choice) * (choice.large() ? 1 : cap_multiplier);
  const bool uniform = choice.scale != Scale::kTiny;
  std::vector<uint32_t> sizes(rank, 1);
  std::vector<uint32_t> order(rank);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin(), order.end(), rng);
  uint64_t remaining = std::max<uint64_t>(1, max_elems);
  for (uint32_t d : order) {
    const uint32_t cap = static_cast<uint32_t>(std::min<uint64_t>(dim_cap, remaining));
    sizes[d] = uniform ? Uniform(rng, 1, cap) : LogUniform(rng, cap);
    remaining /= sizes[d];
  }
  if (rank > 1 && Chance(rng, 0.25)) {
    const uint32_t leading = Uniform(rng, 1, rank - 1);
    for (uint32_t d = 0; d < leading; ++d) sizes[d] = 1;
  }
  return sizes;
}

// Element strides for a tensor of `sizes`: empty (null, packed) or explicit packed, or a padded
// and possibly permuted layout (mixed radix, so never overlapping). Inputs may also broadcast
// (0 strides), give size-1 dims arbitrary strides, or use arbitrary overlapping strides (sliding
// windows: a read-only tensor may alias itself); outputs never get a 0 stride or overlap.
std::vector<uint32_t> RandomStrides(Rng& rng, const std::vector<uint32_t>& sizes,
                                    bool allow_broadcast, bool large) {
  const double kind = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  if (kind < 0.35) return {};
  if (kind < 0.45) return PackedStrides(sizes);
  const size_t n = sizes.size();
  if (allow_broadcast && kind > 0.92) {
    std::vector<uint32_t> strides(n);
    uint64_t span_elems = 1;
    for (size_t d = 0; d < n; ++d) {
      strides[d] = Uniform(rng, 0, 9);
      span_elems += uint64_t{sizes[d] - 1} * strides[d];
    }
    // Keep the buffer within a few times the logical size.
    if (span_elems <= 4 * Product(sizes) + 64) return strides;
  }
  std::vector<size_t> order(n);  // order[n-1] is the innermost dimension
  std::iota(order.begin(), order.end(), size_t{0});
  if (Chance(rng, 0.5)) std::shuffle(order.begin(), order.end(), rng);
  const double pad_chance = large ? 0.1 : 0.3;
  const uint32_t pad_max = large ? 1 : 5;
  uint64_t running = Chance(rng, large ? 0.05 : 0.15) ? Uniform(rng, 2, 3) : 1;
  std::vector<uint32_t> strides(n, 1);
  for (size_t i = n; i-- > 0;) {
    const size_t d = order[i];
    strides[d] = static_cast<uint32_t>(running);
    running = running * sizes[d] + (Chance(rng, pad_chance) ? Uniform(rng, 1, pad_max) : 0);
  }
  for (size_t d = 0; d < n; ++d) {
    if (allow_broadcast && Chance(rng, 0.12)) strides[d] = 0;
    if (sizes[d] == 1 && Chance(rng, 0.3))
      strides[d] = allow_broadcast ? Uniform(rng, 0, 9) : Uniform(rng, 1, 9);
  }
  return strides;
}

// Data type, strides, sizes-in-bytes slack, alignment and misalignment shared by all operators.
template <typename Tester>
void ApplyCommon(Rng& rng, const CaseChoice& choice, const std::vector<uint32_t>& input_sizes,
                 const std::vector<uint32_t>& output_sizes, Tester* tester) {
  tester->DataType(choice.data_type);
  tester->InputSizes(input_sizes);
  tester->InputStrides(RandomStrides(rng, input_sizes, /*allow_broadcast=*/true, choice.large()));
  tester->OutputStrides(
      RandomStrides(rng, output_sizes, /*allow_broadcast=*/false, choice.large()));
  if (Chance(rng, 0.2)) tester->InputExtraBytes(4 * Uniform(rng, 1, 16));
  if (Chance(rng, 0.2)) tester->OutputExtraBytes(4 * Uniform(rng, 1, 16));
  if (Chance(rng, 0.15)) tester->BindingExtraBytes(Uniform(rng, 1, 40));
  uint32_t alignment = 0;
  if (Chance(rng, 0.3)) alignment = 8u << Uniform(rng, 0, 3);  // 8, 16, 32, 64
  tester->Alignment(alignment);
  const uint32_t misalign_step = std::max(16u, alignment);
  tester->Misalignment(misalign_step * Uniform(rng, 0, 64 / misalign_step - 1));
}

template <typename Tester>
void ApplyIndices(Rng& rng, const CaseChoice& choice, const std::vector<uint32_t>& indices_sizes,
                  Tester* tester) {
  tester->IndicesSizes(indices_sizes);
  tester->IndicesStrides(
      RandomStrides(rng, indices_sizes, /*allow_broadcast=*/true, choice.large()));
  tester->IndexType(choice.index_type);
  tester->Indices(choice.index_values);
  tester->OutOfRangeFraction(choice.out_of_range_fraction);
  if (Chance(rng, 0.2)) tester->IndicesExtraBytes(4 * Uniform(rng, 1, 16));
}

// Accepts a drawn shape when its output (and input) sizes suit the case's scale.
bool AcceptSizes(const CaseChoice& choice, uint64_t input_elems, uint64_t output_elems) {
  const uint64_t element_bytes = DataTypeSizeBytes(choice.data_type);
  const uint64_t output_bytes = output_elems * element_bytes;
  const uint64_t input_bytes = input_elems * element_bytes;
  switch (choice.scale) {
    case Scale::kTiny:
      return output_bytes <= (64u << 10) && input_bytes <= (256u << 10);
    case Scale::kMedium:
      return output_bytes <= (512u << 10) && input_bytes <= (2u << 20);
    case Scale::kLarge:
      return output_bytes >= (1u << 20) + (1u << 16) && output_bytes <= (4u << 20) &&
             input_bytes <= (16u << 20);
  }
  return false;
}

Generated<GatherTester> RandomGather(Rng& rng, const CaseChoice& choice) {
  for (;;) {
    const uint32_t n = RandomRank(rng, choice);
    const uint32_t axis = Uniform(rng, 0, n - 1);
    // k in [0, N]; favour small k, always allow k = 0 (scalar index) and k = N.
    const uint32_t k = Chance(rng, 0.7) ? Uniform(rng, 0, std::min(n, 2u)) : Uniform(rng, 0, n);
    std::vector<uint32_t> input_sizes = RandomSizes(rng, n, /*indices=*/false, choice);
    std::vector<uint32_t> indices_sizes(n, 1);
    if (k > 0) {
      const std::vector<uint32_t> real = RandomSizes(rng, k, /*indices=*/true, choice);
      std::copy(real.begin(), real.end(), indices_sizes.begin() + (n - k));
    }
    // The first k-1 entries of full = In[0..Axis) ++ Idx[N-k..N) ++ In[Axis+1..N) are dropped
    // and must be 1.
    for (uint32_t i = 0; i + 1 < k; ++i) {
      if (i < axis) {
        input_sizes[i] = 1;
      } else {
        indices_sizes[n - k + (i - axis)] = 1;
      }
    }
    std::vector<uint32_t> output_sizes;
    if (!GatherOutputSizes(input_sizes, indices_sizes, axis, k, &output_sizes)) {
      ADD_FAILURE() << "generator bug: GATHER shapes";
      continue;
    }
    if (!AcceptSizes(choice, Product(input_sizes) + Product(indices_sizes),
                     Product(output_sizes))) {
      continue;
    }
    Generated<GatherTester> generated;
    generated.tester.Axis(axis).IndexDimensions(k);
    ApplyCommon(rng, choice, input_sizes, output_sizes, &generated.tester);
    ApplyIndices(rng, choice, indices_sizes, &generated.tester);
    generated.rank = n;
    generated.output_bytes = Product(output_sizes) * DataTypeSizeBytes(choice.data_type);
    return generated;
  }
}

Generated<GatherElementsTester> RandomGatherElements(Rng& rng, const CaseChoice& choice) {
  for (;;) {
    const uint32_t n = RandomRank(rng, choice);
    const uint32_t axis = Uniform(rng, 0, n - 1);
    const uint32_t cap = DimCap(n, choice);
    const std::vector<uint32_t> input_sizes = RandomSizes(rng, n, /*indices=*/false, choice);
    std::vector<uint32_t> indices_sizes = input_sizes;
    indices_sizes[axis] =
        choice.scale != Scale::kTiny ? Uniform(rng, 1, cap) : LogUniform(rng, std::max(cap, 8u));
    if (!AcceptSizes(choice, Product(input_sizes) + Product(indices_sizes),
                     Product(indices_sizes))) {
      continue;
    }
    Generated<GatherElementsTester> generated;
    generated.tester.Axis(axis);
    ApplyCommon(rng, choice, input_sizes, indices_sizes, &generated.tester);
    ApplyIndices(rng, choice, indices_sizes, &generated.tester);
    generated.rank = n;
    generated.output_bytes = Product(indices_sizes) * DataTypeSizeBytes(choice.data_type);
    return generated;
  }
}

Generated<GatherNdTester> RandomGatherNd(Rng& rng, const CaseChoice& choice, bool use_nd1) {
  for (;;) {
    const uint32_t n = RandomRank(rng, choice);
    const uint32_t r = Uniform(rng, 1, n);
    const uint32_t q = Uniform(rng, 1, n);
    uint32_t b = 0;
    if (use_nd1 && Chance(rng, 0.75)) b = Uniform(rng, 0, std::min(r, q) - 1);
    const uint32_t t = Uniform(rng, 1, r - b);
    const uint32_t m = (q - 1) + (r - b - t);
    if (m > n) continue;
    std::vector<uint32_t> input_sizes(n, 1);
    const std::vector<uint32_t> real = RandomSizes(rng, r, /*indices=*/false, choice);
    std::copy(real.begin(), real.end(), input_sizes.begin() + (n - r));
    std::vector<uint32_t> indices_sizes(n, 1);
    if (q > 1) {
      const std::vector<uint32_t> grid = RandomSizes(rng, q - 1, /*indices=*/true, choice);
      std::copy(grid.begin(), grid.end(), indices_sizes.begin() + (n - q));
    }
    for (uint32_t i = 0; i < b; ++i) indices_sizes[n - q + i] = input_sizes[n - r + i];
    indices_sizes[n - 1] = t;
    std::vector<uint32_t> output_sizes;
    if (!GatherNdOutputSizes(input_sizes, indices_sizes, r, q, b, &output_sizes)) {
      ADD_FAILURE() << "generator bug: GATHER_ND shapes";
      continue;
    }
    if (!AcceptSizes(choice, Product(input_sizes) + Product(indices_sizes),
                     Product(output_sizes))) {
      continue;
    }
    Generated<GatherNdTester> generated;
    generated.tester.InputDimensionCount(r).IndicesDimensionCount(q);
    if (use_nd1) generated.tester.BatchDimensionCount(b);
    ApplyCommon(rng, choice, input_sizes, output_sizes, &generated.tester);
    ApplyIndices(rng, choice, indices_sizes, &generated.tester);
    generated.rank = n;
    generated.output_bytes = Product(output_sizes) * DataTypeSizeBytes(choice.data_type);
    return generated;
  }
}

Generated<SliceTester> RandomSlice(Rng& rng, const CaseChoice& choice) {
  for (;;) {
    const uint32_t n = RandomRank(rng, choice);
    // Slices shrink their input: draw it wider than the gathers' inputs.
    const std::vector<uint32_t> input_sizes =
        RandomSizes(rng, n, /*indices=*/false, choice, /*cap_multiplier=*/3);
    std::vector<uint32_t> offsets(n), sizes(n), strides(n);
    for (uint32_t d = 0; d < n; ++d) {
      strides[d] = Chance(rng, 0.5) ? 1 : Uniform(rng, 2, 5);
      const uint32_t max_size = (input_sizes[d] - 1) / strides[d] + 1;
      const bool wide = choice.large() || (choice.scale == Scale::kMedium && Chance(rng, 0.6));
      sizes[d] = wide ? Uniform(rng, std::max(1u, max_size / 2), max_size)
                 : choice.scale == Scale::kMedium ? Uniform(rng, 1, max_size)
                                                  : LogUniform(rng, max_size);
      offsets[d] = Uniform(rng, 0, input_sizes[d] - 1 - strides[d] * (sizes[d] - 1));
    }
    if (!AcceptSizes(choice, Product(input_sizes), Product(sizes))) continue;
    Generated<SliceTester> generated;
    generated.tester.Offsets(offsets).Sizes(sizes).Strides(strides);
    ApplyCommon(rng, choice, input_sizes, sizes, &generated.tester);
    generated.rank = n;
    generated.output_bytes = Product(sizes) * DataTypeSizeBytes(choice.data_type);
    return generated;
  }
}

Generated<Slice1Tester> RandomSlice1(Rng& rng, const CaseChoice& choice) {
  for (;;) {
    const uint32_t n = RandomRank(rng, choice);
    const std::vector<uint32_t> input_sizes =
        RandomSizes(rng, n, /*indices=*/false, choice, /*cap_multiplier=*/3);
    std::vector<uint32_t> offsets(n), sizes(n), output_sizes(n);
    std::vector<int32_t> strides(n);
    for (uint32_t d = 0; d < n; ++d) {
      const bool wide = choice.large() || (choice.scale == Scale::kMedium && Chance(rng, 0.6));
      sizes[d] = wide ? Uniform(rng, std::max(1u, input_sizes[d] / 2), input_sizes[d])
                      : Uniform(rng, 1, input_sizes[d]);
      offsets[d] = Uniform(rng, 0, input_sizes[d] - sizes[d]);
      const int32_t step = Chance(rng, 0.4) ? 1 : static_cast<int32_t>(Uniform(rng, 2, 5));
      strides[d] = Chance(rng, 0.5) ? -step : step;
      const uint32_t max_output = 1 + (sizes[d] - 1) / static_cast<uint32_t>(step);
      // Mostly the maximum count; sometimes fewer (allowed, and a DirectML bug case).
      output_sizes[d] = Chance(rng, 0.6) ? max_output : Uniform(rng, 1, max_output);
    }
    if (!AcceptSizes(choice, Product(input_sizes), Product(output_sizes))) continue;
    Generated<Slice1Tester> generated;
    generated.tester.WindowOffsets(offsets).WindowSizes(sizes).WindowStrides(strides);
    generated.tester.OutputSizes(output_sizes);
    ApplyCommon(rng, choice, input_sizes, output_sizes, &generated.tester);
    generated.rank = n;
    generated.output_bytes = Product(output_sizes) * DataTypeSizeBytes(choice.data_type);
    return generated;
  }
}

// What the random cases of one operator covered (checked at the end so that a generator change
// cannot silently stop testing something).
struct Coverage {
  std::set<uint32_t> ranks;
  std::set<uint32_t> element_bytes;
  std::set<int> index_types;
  uint32_t negative_index_cases = 0;
  uint32_t out_of_range_cases = 0;
  uint32_t strict_cases = 0;
  uint32_t large_cases = 0;
  uint32_t cases = 0;
  uint64_t output_bytes = 0;      // summed over all cases
  uint32_t cases_over_4_kib = 0;  // output larger than 4 KiB
};

// Runs the random cases of one operator. `generate(rng, choice)` draws a Generated<Tester>.
template <typename Generate>
void RunRandomCases(const char* name, uint64_t salt, bool has_indices, Generate generate) {
  const uint32_t case_count = CasesPerOperator();
  const uint64_t base_seed = BaseSeed();
  const int64_t only_case = OnlyCase();
  Coverage coverage;
  int failing_cases = 0;
  for (uint32_t i = 0; i < case_count && failing_cases < kMaxFailingCasesPerOperator; ++i) {
    if (only_case >= 0 && i != only_case) continue;
    const uint64_t seed = SplitMix64(base_seed ^ SplitMix64((salt << 32) + i));
    Rng rng(seed);
    CaseChoice choice;
    choice.scale = i < kLargeCasesPerOperator ? Scale::kLarge
                   : Chance(rng, 0.45)        ? Scale::kMedium
                                              : Scale::kTiny;
    choice.data_type = kDataTypes[Uniform(rng, 0, 10)];
    choice.index_type = kIndexTypes[Uniform(rng, 0, 3)];
    const double values = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
    choice.index_values = values < 0.2    ? IndexValues::kNonNegative
                          : values < 0.75 ? IndexValues::kInRange
                                          : IndexValues::kOutOfRange;
    // A single bad index among many, or many.
    choice.out_of_range_fraction = Chance(rng, 0.3) ? 0.002 : 0.15;
    auto generated = generate(rng, choice);
    auto& tester = generated.tester;
    tester.Seed(seed);

    SCOPED_TRACE(std::string(name) + " case " + std::to_string(i) + "; rerun just it with " +
                 "DMLCPU_TEST_SEED=" + std::to_string(base_seed) + " DMLCPU_TEST_ONLY_CASE=" +
                 std::to_string(i) + " DMLCPU_TEST_CASES=" + std::to_string(case_count));
    bool passed = true;
    const bool out_of_range = has_indices && choice.index_values == IndexValues::kOutOfRange;
    if (out_of_range) {
      // Both policies: kClamp must follow the rule, kStrict must refuse (when a bad index landed).
      passed = tester.Policy(dmlcpu::IndexPolicy::kClamp).Test(DevicesWithEnginePool());
      if (passed) {
        passed = tester.Policy(dmlcpu::IndexPolicy::kStrict).Test(DevicesWithEnginePool());
      }
      ++coverage.strict_cases;
    } else {
      const bool strict = Chance(rng, 0.25);
      coverage.strict_cases += strict ? 1 : 0;
      passed = tester.Policy(strict ? dmlcpu::IndexPolicy::kStrict : dmlcpu::IndexPolicy::kClamp)
                   .Test(DevicesWithEnginePool());
    }
    if (!passed) ++failing_cases;

    ++coverage.cases;
    coverage.output_bytes += generated.output_bytes;
    coverage.cases_over_4_kib += generated.output_bytes > 4096 ? 1 : 0;
    coverage.ranks.insert(generated.rank);
    coverage.element_bytes.insert(DataTypeSizeBytes(choice.data_type));
    if (has_indices) {
      coverage.index_types.insert(static_cast<int>(choice.index_type));
      coverage.out_of_range_cases += out_of_range ? 1 : 0;
      coverage.negative_index_cases += choice.index_values != IndexValues::kNonNegative &&
                                       IsSignedIndexDataType(choice.index_type);
    }
    if (choice.large()) {
      ++coverage.large_cases;
      EXPECT_GT(generated.output_bytes, uint64_t{1} << 20) << "large case is not large";
    }
  }
  if (failing_cases >= kMaxFailingCasesPerOperator) {
    ADD_FAILURE() << name << ": stopped after " << failing_cases << " failing cases";
  }
  std::printf(
      "[   INFO   ] %s: %u cases (%u large, %u over 4 KiB, %.1f MiB of output; %u with "
      "out-of-range indices, %u under kStrict), ranks %zu, element widths %zu, index "
      "types %zu\n",
      name, coverage.cases, coverage.large_cases, coverage.cases_over_4_kib,
      coverage.output_bytes / 1048576.0, coverage.out_of_range_cases, coverage.strict_cases,
      coverage.ranks.size(), coverage.element_bytes.size(), coverage.index_types.size());
  if (failing_cases == 0 && case_count >= 300 && only_case < 0) {
    EXPECT_EQ(coverage.ranks.size(), 8u) << "not every rank 1-8 was drawn";
    EXPECT_EQ(coverage.element_bytes.size(), 4u) << "not every element width was drawn";
    if (has_indices) {
      EXPECT_EQ(coverage.index_types.size(), 4u) << "not every index type was drawn";
      EXPECT_GT(coverage.out_of_range_cases, 0u);
      EXPECT_GT(coverage.negative_index_cases, 0u);
    }
  }
}

TEST(GatherTest, RandomAgainstReference) {
  RunRandomCases("GATHER", 1, true,
                 [](Rng& rng, const CaseChoice& choice) { return RandomGather(rng, choice); });
}

TEST(GatherElementsTest, RandomAgainstReference) {
  RunRandomCases("GATHER_ELEMENTS", 2, true, [](Rng& rng, const CaseChoice& choice) {
    return RandomGatherElements(rng, choice);
  });
}

TEST(GatherNdTest, RandomAgainstReference) {
  RunRandomCases("GATHER_ND", 3, true, [](Rng& rng, const CaseChoice& choice) {
    return RandomGatherNd(rng, choice, /*use_nd1=*/false);
  });
}

TEST(GatherNd1Test, RandomAgainstReference) {
  RunRandomCases("GATHER_ND1", 4, true, [](Rng& rng, const CaseChoice& choice) {
    return RandomGatherNd(rng, choice, /*use_nd1=*/true);
  });
}

TEST(SliceTest, RandomAgainstReference) {
  RunRandomCases("SLICE", 5, false,
                 [](Rng& rng, const CaseChoice& choice) { return RandomSlice(rng, choice); });
}

TEST(Slice1Test, RandomAgainstReference) {
  RunRandomCases("SLICE1", 6, false,
                 [](Rng& rng, const CaseChoice& choice) { return RandomSlice1(rng, choice); });
}

// ---- every data type x index type, deterministic (independent of the case count) ----

TEST(GatherTest, EveryDataTypeAndIndexType) {
  uint64_t seed = 100;
  for (DML_TENSOR_DATA_TYPE data_type : kDataTypes) {
    for (DML_TENSOR_DATA_TYPE index_type : kIndexTypes) {
      for (IndexValues values : {IndexValues::kInRange, IndexValues::kOutOfRange}) {
        for (dmlcpu::IndexPolicy policy :
             {dmlcpu::IndexPolicy::kClamp, dmlcpu::IndexPolicy::kStrict}) {
          EXPECT_TRUE(GatherTester()
                          .DataType(data_type)
                          .InputSizes({1, 5, 6, 7})
                          .InputStrides({999, 60, 1, 8})
                          .Axis(2)
                          .IndicesSizes({1, 1, 3, 4})
                          .IndexDimensions(2)
                          .IndexType(index_type)
                          .Indices(values)
                          .OutOfRangeFraction(0.2)
                          .OutputStrides({200, 40, 10, 1})
                          .Policy(policy)
                          .Seed(++seed)
                          .Test(DevicesWithEnginePool()));
        }
      }
    }
  }
}

TEST(GatherElementsTest, EveryDataTypeAndIndexType) {
  uint64_t seed = 200;
  for (DML_TENSOR_DATA_TYPE data_type : kDataTypes) {
    for (DML_TENSOR_DATA_TYPE index_type : kIndexTypes) {
      for (uint32_t axis : {0u, 1u, 2u}) {
        EXPECT_TRUE(GatherElementsTester()
                        .DataType(data_type)
                        .InputSizes({4, 5, 6})
                        .IndicesSizes(axis == 0   ? std::vector<uint32_t>{7, 5, 6}
                                      : axis == 1 ? std::vector<uint32_t>{4, 3, 6}
                                                  : std::vector<uint32_t>{4, 5, 9})
                        .IndicesStrides(axis == 2 ? std::vector<uint32_t>{0, 9, 1}
                                                  : std::vector<uint32_t>{})
                        .Axis(axis)
                        .IndexType(index_type)
                        .Indices(IndexValues::kOutOfRange)
                        .OutOfRangeFraction(0.1)
                        .Seed(++seed)
                        .Test(DevicesWithEnginePool()));
      }
    }
  }
}

TEST(GatherNd1Test, EveryDataTypeAndIndexType) {
  uint64_t seed = 300;
  for (DML_TENSOR_DATA_TYPE data_type : kDataTypes) {
    for (DML_TENSOR_DATA_TYPE index_type : kIndexTypes) {
      for (uint32_t b : {0u, 1u}) {
        EXPECT_TRUE(GatherNdTester()
                        .DataType(data_type)
                        .InputSizes({1, 3, 4, 5, 6})
                        .InputDimensionCount(4)
                        .IndicesSizes({1, 1, 3, 7, 2})
                        .IndicesDimensionCount(3)
                        .BatchDimensionCount(b)
                        .IndexType(index_type)
                        .Indices(IndexValues::kOutOfRange)
                        .OutOfRangeFraction(0.1)
                        .Seed(++seed)
                        .Test(DevicesWithEnginePool()));
      }
    }
  }
}

TEST(Slice1Test, EveryDataTypeNegativeStrides) {
  uint64_t seed = 400;
  for (DML_TENSOR_DATA_TYPE data_type : kDataTypes) {
    EXPECT_TRUE(Slice1Tester()
                    .DataType(data_type)
                    .InputSizes({3, 17, 33})
                    .WindowOffsets({1, 2, 0})
                    .WindowSizes({2, 15, 33})
                    .WindowStrides({-1, 2, -1})
                    .OutputStrides({300, 35, 1})
                    .Seed(++seed)
                    .Test(DevicesWithEnginePool()));
  }
}

}  // namespace
}  // namespace dmlcpu_test
