// SPDX-License-Identifier: Apache-2.0
// PADDING / PADDING1, DEPTH_TO_SPACE(1) / SPACE_TO_DEPTH(1) and SLICE_GRAD: the worked examples
// of docs/semantics.md (PD-1, PD-2, DS-1, SG-1, SG-2, the fill-value table) on the library and
// the reference, and seeded random cases against the naive reference (ranks 1-8 where allowed,
// every element width, strided / broadcast / permuted inputs, strided outputs with gaps, extra
// bytes, alignment, misaligned bindings, 1, 2 and 8 threads). DMLCPU_TEST_CASES and
// DMLCPU_TEST_SEED as in random_reference_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
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
#include "support/tester_padding.h"

namespace dmlcpu_test {
namespace {

using Rng = std::mt19937_64;

// ---- worked examples -------------------------------------------------------------------------

// Runs `op_case` with the given packed input values on every device and the reference; both
// must give exactly `expected` (and leave everything else of the output binding alone).
template <typename T>
void ExpectOutput(const OperatorCase& op_case, const std::vector<T>& input,
                  const std::vector<T>& expected) {
  const TensorDescHolder& in_desc = *op_case.inputs[0];
  const TensorDescHolder& out_desc = *op_case.outputs[0];
  ASSERT_EQ(out_desc.ElementCount(), expected.size()) << "test bug: expected element count";
  ASSERT_EQ(in_desc.ElementCount(), input.size()) << "test bug: input element count";
  GuardedBuffer in(in_desc.total_bytes(), 0);
  in.FillSentinel();
  std::memcpy(in.data(), input.data(), input.size() * sizeof(T));
  GuardedBuffer want(out_desc.total_bytes(), 0);
  want.FillSentinel();
  std::memcpy(want.data(), expected.data(), expected.size() * sizeof(T));
  const dmlcpu::Binding binding{in.data(), in_desc.total_bytes()};
  for (const dmlcpu::Device* device : ThreadedDevices()) {
    dmlcpu::StatusOr<dmlcpu::CompiledOperator> compiled = device->Compile(op_case.op_desc);
    ASSERT_TRUE(compiled.ok()) << compiled.status().message();
    GuardedBuffer got(out_desc.total_bytes(), 0);
    got.FillSentinel();
    const dmlcpu::OutputBinding output{got.data(), out_desc.total_bytes()};
    const dmlcpu::Status status = compiled->Execute(&binding, 1, &output, 1);
    ASSERT_TRUE(status.ok()) << status.message();
    std::vector<T> values(expected.size());
    std::memcpy(values.data(), got.data(), values.size() * sizeof(T));
    EXPECT_EQ(values, expected) << op_case.description << " (library)";
    EXPECT_EQ(std::memcmp(got.region(), want.region(), want.region_bytes()), 0)
        << "library wrote outside the output elements";
  }
  GuardedBuffer reference(out_desc.total_bytes(), 0);
  reference.FillSentinel();
  const void* const inputs[] = {in.data()};
  void* const outputs[] = {reference.data()};
  const ReferenceResult result = RunReference(op_case.op_desc, inputs, outputs);
  ASSERT_TRUE(result.ok) << result.error;
  std::vector<T> values(expected.size());
  std::memcpy(values.data(), reference.data(), values.size() * sizeof(T));
  EXPECT_EQ(values, expected) << op_case.description << " (reference)";
}

std::vector<float> Pd1Input() { return {1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8}; }

std::vector<float> Rows(const std::vector<std::vector<float>>& rows,
                        const std::vector<int>& order) {
  std::vector<float> out;
  for (int r : order) out.insert(out.end(), rows[r].begin(), rows[r].end());
  return out;
}

std::unique_ptr<OperatorCase> Pd1Case(DML_PADDING_MODE mode) {
  return PaddingTester()
      .InputSizes({1, 1, 4, 4})
      .StartPadding({0, 0, 1, 2})
      .EndPadding({0, 0, 3, 4})
      .Mode(mode)
      .Value(9.0f)
      .BuildCase();
}

TEST(PaddingSpecTest, Pd1Constant) {
  std::vector<float> expected;
  const std::vector<float> nines(10, 9.0f);
  const std::vector<float> in = Pd1Input();
  expected.insert(expected.end(), nines.begin(), nines.end());
  for (int r = 0; r < 4; ++r) {
    expected.insert(expected.end(), {9, 9});
    expected.insert(expected.end(), in.begin() + 4 * r, in.begin() + 4 * r + 4);
    expected.insert(expected.end(), {9, 9, 9, 9});
  }
  for (int r = 0; r < 3; ++r) expected.insert(expected.end(), nines.begin(), nines.end());
  ExpectOutput(*Pd1Case(DML_PADDING_MODE_CONSTANT), Pd1Input(), expected);
}

TEST(PaddingSpecTest, Pd1Edge) {
  const std::vector<std::vector<float>> rows = {{1, 1, 1, 2, 3, 4, 4, 4, 4, 4},
                                                {5, 5, 5, 6, 7, 8, 8, 8, 8, 8}};
  ExpectOutput(*Pd1Case(DML_PADDING_MODE_EDGE), Pd1Input(), Rows(rows, {0, 0, 1, 0, 1, 1, 1, 1}));
}

TEST(PaddingSpecTest, Pd1Reflection) {
  const std::vector<std::vector<float>> rows = {{7, 6, 5, 6, 7, 8, 7, 6, 5, 6},
                                                {3, 2, 1, 2, 3, 4, 3, 2, 1, 2}};
  ExpectOutput(*Pd1Case(DML_PADDING_MODE_REFLECTION), Pd1Input(),
               Rows(rows, {0, 1, 0, 1, 0, 1, 0, 1}));
}

TEST(PaddingSpecTest, Pd1Symmetric) {
  const std::vector<std::vector<float>> rows = {{2, 1, 1, 2, 3, 4, 4, 3, 2, 1},
                                                {6, 5, 5, 6, 7, 8, 8, 7, 6, 5}};
  ExpectOutput(*Pd1Case(DML_PADDING_MODE_SYMMETRIC), Pd1Input(),
               Rows(rows, {0, 0, 1, 0, 1, 1, 0, 1}));
}

// PD-2: pads larger than the input, as real DirectML computes them.
TEST(PaddingSpecTest, Pd2LargePads) {
  struct Vector {
    DML_PADDING_MODE mode;
    std::vector<int32_t> expected;
  };
  const Vector vectors[] = {
      {DML_PADDING_MODE_REFLECTION, {2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2}},
      {DML_PADDING_MODE_SYMMETRIC, {2, 3, 3, 2, 1, 1, 2, 3, 3, 2, 1, 1, 2, 3, 3}},
      {DML_PADDING_MODE_WRAP, {2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1}},
      {DML_PADDING_MODE_EDGE, {1, 1, 1, 1, 1, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3}},
  };
  for (const Vector& v : vectors) {
    auto op_case = PaddingTester()
                       .DataType(DML_TENSOR_DATA_TYPE_INT32)
                       .InputSizes({3})
                       .StartPadding({5})
                       .EndPadding({7})
                       .Mode(v.mode)
                       .BuildCase();
    ExpectOutput<int32_t>(*op_case, {1, 2, 3}, v.expected);
  }
  // A one-element dimension repeats its element in every mode.
  for (DML_PADDING_MODE mode : {DML_PADDING_MODE_REFLECTION, DML_PADDING_MODE_SYMMETRIC,
                                DML_PADDING_MODE_WRAP, DML_PADDING_MODE_EDGE}) {
    auto op_case = PaddingTester()
                       .DataType(DML_TENSOR_DATA_TYPE_INT32)
                       .InputSizes({1, 1})
                       .StartPadding({2, 3})
                       .EndPadding({1, 4})
                       .Mode(mode)
                       .BuildCase();
    ExpectOutput<int32_t>(*op_case, {7}, std::vector<int32_t>(4 * 8, 7));
  }
}

// The measured conversions of PADDING's FLOAT (docs/semantics.md#padding).
template <typename T>
void ExpectFill(DML_TENSOR_DATA_TYPE type, float value, T expected) {
  auto op_case =
      PaddingTester().DataType(type).InputSizes({1}).EndPadding({1}).Value(value).BuildCase();
  const T one = static_cast<T>(1);
  ExpectOutput<T>(*op_case, {one}, {one, expected});
}

template <typename T>
T FromBits(uint64_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

TEST(PaddingSpecTest, FloatValueConversions) {
  const float nan = FromBits<float>(0x7FC00123u);
  const float snan = FromBits<float>(0x7F800001u);
  ExpectFill<int32_t>(DML_TENSOR_DATA_TYPE_INT32, 10.6f, 10);
  ExpectFill<int32_t>(DML_TENSOR_DATA_TYPE_INT32, -10.6f, -10);
  ExpectFill<int32_t>(DML_TENSOR_DATA_TYPE_INT32, 1e10f, std::numeric_limits<int32_t>::min());
  ExpectFill<int32_t>(DML_TENSOR_DATA_TYPE_INT32, nan, std::numeric_limits<int32_t>::min());
  ExpectFill<uint32_t>(DML_TENSOR_DATA_TYPE_UINT32, -10.6f, 4294967286u);
  ExpectFill<uint32_t>(DML_TENSOR_DATA_TYPE_UINT32, 1e10f, 1410065408u);
  ExpectFill<uint32_t>(DML_TENSOR_DATA_TYPE_UINT32, -1e10f, 2884901888u);
  ExpectFill<uint32_t>(DML_TENSOR_DATA_TYPE_UINT32, 4294967040.0f, 4294967040u);
  ExpectFill<uint32_t>(DML_TENSOR_DATA_TYPE_UINT32, nan, 0u);
  ExpectFill<int16_t>(DML_TENSOR_DATA_TYPE_INT16, 70000.5f, 4464);
  ExpectFill<uint16_t>(DML_TENSOR_DATA_TYPE_UINT16, -10.6f, 65526);
  ExpectFill<uint16_t>(DML_TENSOR_DATA_TYPE_UINT16, 4294967040.0f, 0);
  ExpectFill<int8_t>(DML_TENSOR_DATA_TYPE_INT8, 300.7f, 44);
  ExpectFill<int8_t>(DML_TENSOR_DATA_TYPE_INT8, -300.7f, -44);
  ExpectFill<uint8_t>(DML_TENSOR_DATA_TYPE_UINT8, -10.6f, 246);
  ExpectFill<uint8_t>(DML_TENSOR_DATA_TYPE_UINT8, 70000.5f, 112);
  ExpectFill<int64_t>(DML_TENSOR_DATA_TYPE_INT64, -1e10f, -10000000000LL);
  ExpectFill<int64_t>(DML_TENSOR_DATA_TYPE_INT64, 1e19f, std::numeric_limits<int64_t>::min());
  ExpectFill<uint64_t>(DML_TENSOR_DATA_TYPE_UINT64, 1e19f, 9999999980506447872ull);
  ExpectFill<uint64_t>(DML_TENSOR_DATA_TYPE_UINT64, -2.5f, 18446744073709551614ull);
  ExpectFill<uint64_t>(DML_TENSOR_DATA_TYPE_UINT64, 18446744073709551616.0f,
                       9223372036854775808ull);
  ExpectFill<uint64_t>(DML_TENSOR_DATA_TYPE_UINT64, nan, 9223372036854775808ull);
  ExpectFill<uint32_t>(DML_TENSOR_DATA_TYPE_FLOAT32, snan, 0x7F800001u);
  ExpectFill<uint32_t>(DML_TENSOR_DATA_TYPE_FLOAT32, -0.0f, 0x80000000u);
  ExpectFill<uint64_t>(DML_TENSOR_DATA_TYPE_FLOAT64, snan, 0x7FF8000020000000ull);
  ExpectFill<uint64_t>(DML_TENSOR_DATA_TYPE_FLOAT64, nan, 0x7FF8002460000000ull);
  ExpectFill<uint64_t>(DML_TENSOR_DATA_TYPE_FLOAT64, 10.6f, 0x4025333340000000ull);
  ExpectFill<uint16_t>(DML_TENSOR_DATA_TYPE_FLOAT16, 1.0f, 0x3C00);
  ExpectFill<uint16_t>(DML_TENSOR_DATA_TYPE_FLOAT16, 65520.0f, 0x7C00);        // ties to inf
  ExpectFill<uint16_t>(DML_TENSOR_DATA_TYPE_FLOAT16, 2049.0f, 0x6800);         // ties to even
  ExpectFill<uint16_t>(DML_TENSOR_DATA_TYPE_FLOAT16, 5.96046448e-8f, 0x0001);  // 2^-24
  ExpectFill<uint16_t>(DML_TENSOR_DATA_TYPE_FLOAT16, -0.0f, 0x8000);
}

// PADDING1 writes the typed value's bits (-0.0, NaN payloads, 64-bit integers exact).
TEST(PaddingSpecTest, TypedValueBits) {
  const uint64_t values[] = {0x80000000u, 0x7FC00123u, 0xFFA00001u};
  for (uint64_t bits : values) {
    auto op_case = PaddingTester()
                       .DataType(DML_TENSOR_DATA_TYPE_FLOAT32)
                       .InputSizes({1})
                       .StartPadding({1})
                       .TypedValue(bits)
                       .BuildCase();
    ExpectOutput<uint32_t>(*op_case, {5}, {static_cast<uint32_t>(bits), 5});
  }
  for (uint64_t bits : {0x7FF0000000000123ull, 0x923456789ABCDEF1ull}) {
    for (DML_TENSOR_DATA_TYPE type :
         {DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_UINT64}) {
      auto op_case = PaddingTester()
                         .DataType(type)
                         .InputSizes({2})
                         .EndPadding({2})
                         .TypedValue(bits)
                         .BuildCase();
      ExpectOutput<uint64_t>(*op_case, {5, 6}, {5, 6, bits, bits});
    }
  }
  // Narrow types: the union's low 32-bit word, all-ones when it does not fit (measured).
  struct Narrow {
    DML_TENSOR_DATA_TYPE type;
    uint64_t bits;
    uint16_t expected;
  };
  const Narrow narrow[] = {
      {DML_TENSOR_DATA_TYPE_INT8, 0x85, 0x85},       {DML_TENSOR_DATA_TYPE_INT8, 0xFFFFFF85u, 0xFF},
      {DML_TENSOR_DATA_TYPE_INT8, 0x105, 0xFF},      {DML_TENSOR_DATA_TYPE_INT8, 0x100000005ull, 5},
      {DML_TENSOR_DATA_TYPE_UINT8, 0x1C8, 0xFF},     {DML_TENSOR_DATA_TYPE_INT16, 0xFFFE, 0xFFFE},
      {DML_TENSOR_DATA_TYPE_INT16, 0x12345, 0xFFFF}, {DML_TENSOR_DATA_TYPE_UINT16, 0xEA60, 0xEA60},
      {DML_TENSOR_DATA_TYPE_UINT16, 0x1EA60, 0xFFFF}};
  for (const Narrow& n : narrow) {
    auto op_case = PaddingTester()
                       .DataType(n.type)
                       .InputSizes({1})
                       .EndPadding({1})
                       .TypedValue(n.bits)
                       .BuildCase();
    if (DataTypeSizeBytes(n.type) == 1) {
      ExpectOutput<uint8_t>(*op_case, {1}, {1, static_cast<uint8_t>(n.expected)});
    } else {
      ExpectOutput<uint16_t>(*op_case, {1}, {1, n.expected});
    }
  }
  auto int32_case = PaddingTester()
                        .DataType(DML_TENSOR_DATA_TYPE_INT32)
                        .InputSizes({1})
                        .EndPadding({1})
                        .TypedValue(0xAAAAAAAA00000005ull)  // the upper word is ignored
                        .BuildCase();
  ExpectOutput<int32_t>(*int32_case, {1}, {1, 5});
}

std::vector<int32_t> Iota(int32_t count) {
  std::vector<int32_t> v(count);
  std::iota(v.begin(), v.end(), 1);
  return v;
}

TEST(DepthSpaceSpecTest, Ds1) {
  const std::vector<int32_t> dcr = {1, 9,  2, 10, 17, 25, 18, 26, 3, 11, 4, 12, 19, 27, 20, 28,
                                    5, 13, 6, 14, 21, 29, 22, 30, 7, 15, 8, 16, 23, 31, 24, 32};
  const std::vector<int32_t> crd = {1,  5,  2,  6,  9,  13, 10, 14, 3,  7,  4,  8,  11, 15, 12, 16,
                                    17, 21, 18, 22, 25, 29, 26, 30, 19, 23, 20, 24, 27, 31, 28, 32};
  const std::vector<int32_t> s2d_dcr = {1, 3, 9,  11, 17, 19, 25, 27, 2, 4, 10, 12, 18, 20, 26, 28,
                                        5, 7, 13, 15, 21, 23, 29, 31, 6, 8, 14, 16, 22, 24, 30, 32};
  const std::vector<int32_t> s2d_crd = {1,  3,  9,  11, 2,  4,  10, 12, 5,  7,  13,
                                        15, 6,  8,  14, 16, 17, 19, 25, 27, 18, 20,
                                        26, 28, 21, 23, 29, 31, 22, 24, 30, 32};
  struct Vector {
    DML_OPERATOR_TYPE type;
    DML_DEPTH_SPACE_ORDER order;
    std::vector<uint32_t> input_sizes;
    const std::vector<int32_t>* expected;
  };
  const auto kDcr = DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW;
  const auto kCrd = DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH;
  const Vector vectors[] = {
      {DML_OPERATOR_DEPTH_TO_SPACE, kDcr, {1, 8, 2, 2}, &dcr},
      {DML_OPERATOR_DEPTH_TO_SPACE1, kDcr, {1, 8, 2, 2}, &dcr},
      {DML_OPERATOR_DEPTH_TO_SPACE1, kCrd, {1, 8, 2, 2}, &crd},
      {DML_OPERATOR_SPACE_TO_DEPTH, kDcr, {1, 2, 4, 4}, &s2d_dcr},
      {DML_OPERATOR_SPACE_TO_DEPTH1, kDcr, {1, 2, 4, 4}, &s2d_dcr},
      {DML_OPERATOR_SPACE_TO_DEPTH1, kCrd, {1, 2, 4, 4}, &s2d_crd},
  };
  for (const Vector& v : vectors) {
    auto op_case = DepthSpaceTester()
                       .DataType(DML_TENSOR_DATA_TYPE_INT32)
                       .Operator(v.type)
                       .Order(v.order)
                       .BlockSize(2)
                       .InputSizes(v.input_sizes)
                       .BuildCase();
    ExpectOutput<int32_t>(*op_case, Iota(32), *v.expected);
  }
}

TEST(SliceGradSpecTest, Sg1AndSg2) {
  auto sg1 = SliceGradTester()
                 .OutputSizes({1, 1, 4, 4})
                 .WindowOffsets({0, 0, 0, 0})
                 .WindowSizes({1, 1, 4, 4})
                 .WindowStrides({1, 1, 2, 2})
                 .BuildCase();
  ExpectOutput<float>(*sg1, {1, 3, 9, 11}, {1, 0, 3, 0, 0, 0, 0, 0, 9, 0, 11, 0, 0, 0, 0, 0});
  auto sg2 = SliceGradTester()
                 .OutputSizes({1, 1, 4, 4})
                 .WindowOffsets({0, 0, 0, 1})
                 .WindowSizes({1, 1, 4, 3})
                 .WindowStrides({1, 1, -2, 2})
                 .BuildCase();
  ExpectOutput<float>(*sg2, {14, 16, 6, 8}, {0, 0, 0, 0, 0, 6, 0, 8, 0, 0, 0, 0, 0, 14, 0, 16});
}

// ---- random cases ----------------------------------------------------------------------------

uint32_t CaseCount() {
  const char* text = std::getenv("DMLCPU_TEST_CASES");
  return text != nullptr && *text != '\0' ? static_cast<uint32_t>(std::strtoul(text, nullptr, 10))
                                          : 3000;
}

uint64_t BaseSeed() {
  const char* text = std::getenv("DMLCPU_TEST_SEED");
  return text != nullptr && *text != '\0' ? std::strtoull(text, nullptr, 0) : 0x9ADD1u;
}

uint32_t Uniform(Rng& rng, uint32_t lo, uint32_t hi) {
  return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
}

bool Chance(Rng& rng, double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }

constexpr DML_TENSOR_DATA_TYPE kDataTypes[] = {
    DML_TENSOR_DATA_TYPE_UINT8,  DML_TENSOR_DATA_TYPE_INT8,  DML_TENSOR_DATA_TYPE_FLOAT16,
    DML_TENSOR_DATA_TYPE_UINT16, DML_TENSOR_DATA_TYPE_INT16, DML_TENSOR_DATA_TYPE_FLOAT32,
    DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_FLOAT64,
    DML_TENSOR_DATA_TYPE_UINT64, DML_TENSOR_DATA_TYPE_INT64};

uint64_t Product(const std::vector<uint32_t>& sizes) {
  uint64_t p = 1;
  for (uint32_t s : sizes) p *= s;
  return p;
}

// Sizes of `rank` dimensions with at most `budget` elements (mostly small dimensions).
std::vector<uint32_t> RandomSizes(Rng& rng, uint32_t rank, uint64_t budget) {
  static constexpr uint32_t kSmall[] = {0, 300, 40, 14, 8, 5, 4, 3, 3};
  static constexpr uint32_t kLarge[] = {0, 1u << 18, 512, 64, 22, 12, 8, 6, 5};
  const uint32_t* kCap = budget > 65536 ? kLarge : kSmall;
  std::vector<uint32_t> sizes(rank, 1);
  uint64_t remaining = budget;
  for (uint32_t d = 0; d < rank; ++d) {
    const uint32_t cap = static_cast<uint32_t>(std::min<uint64_t>(kCap[rank], remaining));
    sizes[d] = Uniform(rng, 1, std::max(1u, cap));
    remaining = std::max<uint64_t>(1, remaining / sizes[d]);
  }
  return sizes;
}

// Null, packed, padded and maybe permuted strides; inputs may also broadcast (stride 0).
std::vector<uint32_t> RandomStrides(Rng& rng, const std::vector<uint32_t>& sizes, bool input) {
  const double kind = std::uniform_real_distribution<double>(0, 1)(rng);
  if (kind < 0.35) return {};
  if (kind < 0.45) return PackedStrides(sizes);
  const size_t n = sizes.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  if (Chance(rng, 0.5)) std::shuffle(order.begin(), order.end(), rng);
  uint64_t running = Chance(rng, 0.15) ? Uniform(rng, 2, 3) : 1;
  std::vector<uint32_t> strides(n, 1);
  for (size_t i = n; i-- > 0;) {
    const size_t d = order[i];
    strides[d] = static_cast<uint32_t>(running);
    running = running * sizes[d] + (Chance(rng, 0.3) ? Uniform(rng, 1, 5) : 0);
  }
  for (size_t d = 0; d < n; ++d) {
    if (input && Chance(rng, 0.1)) strides[d] = 0;
  }
  return strides;
}

template <typename Tester>
void ApplyLayout(Rng& rng, const std::vector<uint32_t>& input_sizes,
                 const std::vector<uint32_t>& output_sizes, Tester* tester) {
  tester->InputSizes(input_sizes);
  tester->InputStrides(RandomStrides(rng, input_sizes, true));
  tester->OutputStrides(RandomStrides(rng, output_sizes, false));
  if (Chance(rng, 0.2)) tester->InputExtraBytes(4 * Uniform(rng, 1, 16));
  if (Chance(rng, 0.2)) tester->OutputExtraBytes(4 * Uniform(rng, 1, 16));
  if (Chance(rng, 0.15)) tester->BindingExtraBytes(Uniform(rng, 1, 40));
  uint32_t alignment = Chance(rng, 0.3) ? 8u << Uniform(rng, 0, 3) : 0;
  tester->Alignment(alignment);
  const uint32_t step = std::max(16u, alignment);
  tester->Misalignment(step * Uniform(rng, 0, 64 / step - 1));
}

float RandomValue(Rng& rng) {
  static const uint32_t kBits[] = {0x00000000u, 0x80000000u, 0x41299999u, 0xC1299999u,
                                   0x43965999u, 0x501502F9u, 0x7FC00123u, 0x7F800001u,
                                   0xFF800000u, 0x5F0AC723u, 0x4F800000u, 0x3F000000u};
  uint32_t bits = Chance(rng, 0.7) ? kBits[Uniform(rng, 0, 11)] : static_cast<uint32_t>(rng());
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

struct Coverage {
  std::set<uint32_t> ranks, widths, modes;
  uint32_t large = 0;
};

// Draws and runs `count` cases; `draw(rng, large, &coverage)` returns a built case (or null to
// redraw).
template <typename Draw>
void RunRandom(const char* name, uint64_t salt, bool all_ranks, Draw draw) {
  const uint32_t count = CaseCount();
  Coverage coverage;
  int failures = 0;
  for (uint32_t i = 0; i < count && failures < 3; ++i) {
    const uint64_t seed = BaseSeed() * 0x9E3779B97F4A7C15ull + (salt << 32) + i;
    Rng rng(seed);
    const bool large = i < 3;
    std::unique_ptr<OperatorCase> op_case = draw(rng, large, &coverage);
    if (op_case == nullptr) continue;
    SCOPED_TRACE(std::string(name) + " case " + std::to_string(i) + ": " + op_case->description);
    if (!RunCase(*op_case, ThreadedDevices(), dmlcpu::IndexPolicy::kClamp, seed)) ++failures;
    coverage.ranks.insert(op_case->inputs[0]->buffer_desc().DimensionCount);
    coverage.widths.insert(op_case->inputs[0]->element_bytes());
    coverage.large += large ? 1 : 0;
  }
  EXPECT_LT(failures, 3) << name << ": stopped after 3 failing cases";
  std::printf("[   INFO   ] %s: %u cases, ranks %zu, widths %zu, modes %zu\n", name, count,
              coverage.ranks.size(), coverage.widths.size(), coverage.modes.size());
  if (count >= 300 && failures == 0) {
    EXPECT_EQ(coverage.ranks.size(), all_ranks ? 8u : 1u);
    EXPECT_EQ(coverage.widths.size(), 4u);
  }
}

// Borders along the innermost dimension are written with each row (RowBorders): rows long
// enough to be split into pieces on several threads (the first piece writes the left border,
// the last the right), every element width, every mode, packed and row-strided outputs whose
// gaps must stay untouched, bindings starting off a cache line.
TEST(PaddingTest, BordersWrittenWithLongRows) {
  const DML_TENSOR_DATA_TYPE types[] = {DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_FLOAT16,
                                        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT64};
  const std::vector<uint32_t> in = {2, 140001};
  const std::vector<uint32_t> start = {1, 3}, end = {0, 8};
  const uint32_t out_w = in[1] + start[1] + end[1];
  uint64_t seed = 0xB0DE5;
  for (DML_TENSOR_DATA_TYPE type : types) {
    for (uint32_t mode = 0; mode < 5; ++mode) {
      for (bool gaps : {false, true}) {
        PaddingTester tester;
        tester.DataType(type).Mode(static_cast<DML_PADDING_MODE>(mode)).InputSizes(in);
        tester.StartPadding(start).EndPadding(end).Value(-7.0f);
        if (gaps) tester.OutputStrides({out_w + 5, 1});
        tester.Misalignment(gaps ? 48 : 16);
        std::unique_ptr<OperatorCase> op_case = tester.BuildCase();
        ASSERT_NE(op_case, nullptr);
        SCOPED_TRACE(op_case->description);
        EXPECT_TRUE(RunCase(*op_case, ThreadedDevices(), dmlcpu::IndexPolicy::kClamp, ++seed));
      }
    }
  }
}

// The border rows of the next dimension out written with each line (RowBorders::top_rows /
// bottom_rows): every mode and width, pads up to and past the copied-row limit, packed and
// gapped outputs, steps large enough to be split mid-line across 2 and 3 threads, outer
// dimensions padded too (their steps carry the border rows as well).
TEST(PaddingTest, BorderRowsOfEveryLine) {
  const DML_TENSOR_DATA_TYPE types[] = {DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_FLOAT16,
                                        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT64};
  struct Shape {
    std::vector<uint32_t> in, start, end;
  };
  const Shape shapes[] = {
      {{4, 16}, {1, 1}, {1, 1}},                     // TinyPad
      {{3, 2, 5, 7}, {0, 0, 1, 1}, {0, 0, 1, 1}},    // a convolution's input, small
      {{2, 3, 97, 61}, {0, 0, 2, 1}, {0, 0, 1, 3}},  // parallel: unit ranges start mid-line
      {{2, 9, 11}, {1, 8, 2}, {2, 8, 0}},            // 8 rows: the copied-row limit
      {{2, 12, 5}, {0, 9, 1}, {1, 3, 1}},            // 9 rows: copied modes take border steps
      {{5, 1, 6}, {0, 2, 1}, {0, 1, 1}},             // one-row lines
  };
  static const dmlcpu::Device serial(dmlcpu::DeviceOptions{1, nullptr});
  static const dmlcpu::Device two_threads(dmlcpu::DeviceOptions{2, nullptr});
  static const dmlcpu::Device three_threads(dmlcpu::DeviceOptions{3, nullptr});
  const std::vector<const dmlcpu::Device*> devices = {&serial, &two_threads, &three_threads};
  uint64_t seed = 0xF8A3E;
  for (const Shape& shape : shapes) {
    const uint32_t n = static_cast<uint32_t>(shape.in.size());
    std::vector<uint32_t> out(n), gapped(n);
    for (uint32_t d = 0; d < n; ++d) out[d] = shape.in[d] + shape.start[d] + shape.end[d];
    // Gaps after each row and each line: strides of a larger packed box.
    uint32_t stride = 1;
    for (uint32_t d = n; d-- > 0;) {
      gapped[d] = stride;
      stride *= out[d] + (d + 2 >= n ? 3 : 0);
    }
    for (DML_TENSOR_DATA_TYPE type : types) {
      for (uint32_t mode = 0; mode < 5; ++mode) {
        for (bool gaps : {false, true}) {
          PaddingTester tester;
          tester.DataType(type).Mode(static_cast<DML_PADDING_MODE>(mode)).InputSizes(shape.in);
          tester.StartPadding(shape.start).EndPadding(shape.end).Value(-3.0f);
          if (gaps) tester.OutputStrides(gapped);
          tester.Misalignment(gaps ? 24 : 0);
          std::unique_ptr<OperatorCase> op_case = tester.BuildCase();
          ASSERT_NE(op_case, nullptr);
          SCOPED_TRACE(op_case->description);
          EXPECT_TRUE(RunCase(*op_case, devices, dmlcpu::IndexPolicy::kClamp, ++seed));
        }
      }
    }
  }
}

// Large outputs of rows shorter than 1 KiB (longer ones stream from the row kernel) with
// borders that tile their lines go through staged lines (whole lines streamed from an L1
// window, StorePolicy::staged_lines): every width, filled and copied borders (every mode),
// rows whose pieces start at every alignment and rows shorter than a border's 32-byte move,
// unit ranges starting mid-line on 2 and 8 threads, rows without border rows (the innermost
// dimension padded only), strided and far-apart source rows, bindings off a cache line. A
// gapped output keeps regular stores (Describe says which) and the gaps untouched.
TEST(PaddingTest, StagedLinesOfLargeOutputs) {
  struct Case {
    DML_TENSOR_DATA_TYPE type;
    DML_PADDING_MODE mode;
    std::vector<uint32_t> in, start, end;
    bool transposed_input;
    uint32_t in_row_gap = 0;  // elements between input rows
  };
  const Case cases[] = {
      {DML_TENSOR_DATA_TYPE_FLOAT32, DML_PADDING_MODE_CONSTANT, {12, 64, 56, 56},
       {0, 0, 1, 1}, {0, 0, 1, 1}, false},  // ConvInputPadConstant's rows
      {DML_TENSOR_DATA_TYPE_FLOAT16, DML_PADDING_MODE_CONSTANT, {1400, 61, 67},
       {0, 2, 1}, {0, 1, 3}, false},
      {DML_TENSOR_DATA_TYPE_UINT8, DML_PADDING_MODE_CONSTANT, {20000, 601}, {0, 3}, {0, 2}, false},
      {DML_TENSOR_DATA_TYPE_INT64, DML_PADDING_MODE_CONSTANT, {400, 30, 97},
       {0, 1, 2}, {0, 2, 1}, false},
      {DML_TENSOR_DATA_TYPE_INT64, DML_PADDING_MODE_CONSTANT, {500, 30, 70},
       {0, 1, 5}, {0, 2, 9}, false},  // borders longer than one 32-byte move
      {DML_TENSOR_DATA_TYPE_FLOAT32, DML_PADDING_MODE_CONSTANT, {800, 97, 61},
       {0, 1, 2}, {0, 1, 1}, true},
      // Rows shorter than a filled border's 32-byte move; source rows far apart.
      {DML_TENSOR_DATA_TYPE_UINT8, DML_PADDING_MODE_CONSTANT, {1300000, 13}, {0, 2}, {0, 3}, false},
      {DML_TENSOR_DATA_TYPE_FLOAT16, DML_PADDING_MODE_CONSTANT, {200, 40, 500}, {0, 2, 1},
       {0, 1, 2}, false, 300},
      // Copied borders and border rows: ConvInputPadReflect's rows, borders longer than a
      // vector move, rows shorter than a vector, strided source rows.
      {DML_TENSOR_DATA_TYPE_FLOAT32, DML_PADDING_MODE_REFLECTION, {12, 64, 56, 56},
       {0, 0, 1, 1}, {0, 0, 1, 1}, false},
      {DML_TENSOR_DATA_TYPE_INT64, DML_PADDING_MODE_EDGE, {500, 30, 70}, {0, 1, 5}, {0, 2, 8},
       false},
      {DML_TENSOR_DATA_TYPE_FLOAT16, DML_PADDING_MODE_SYMMETRIC, {1400, 61, 67}, {0, 2, 1},
       {0, 1, 3}, false},
      {DML_TENSOR_DATA_TYPE_UINT8, DML_PADDING_MODE_WRAP, {1300000, 13}, {0, 2}, {0, 3}, false},
      {DML_TENSOR_DATA_TYPE_FLOAT32, DML_PADDING_MODE_REFLECTION, {800, 97, 61},
       {0, 1, 2}, {0, 1, 1}, true},
  };
  uint64_t seed = 0x57A6ED;
  for (const Case& c : cases) {
    // Gaps: none, after every row (regular stores), between outermost slices (staged lines
    // in stretches that end at each gap).
    for (int gaps : {0, 1, 2}) {
      const uint32_t n = static_cast<uint32_t>(c.in.size());
      if (gaps == 2 && n < 3) continue;
      PaddingTester tester;
      tester.DataType(c.type).Mode(c.mode).InputSizes(c.in).StartPadding(c.start);
      tester.EndPadding(c.end).Value(-5.0f).Misalignment(gaps != 0 ? 40 : 8);
      if (c.in_row_gap != 0) {
        std::vector<uint32_t> strides(n, 1);
        strides[n - 2] = c.in[n - 1] + c.in_row_gap;
        for (uint32_t d = n - 2; d-- > 0;) strides[d] = strides[d + 1] * c.in[d + 1];
        tester.InputStrides(strides);
      }
      if (c.transposed_input) {  // the last two dimensions swapped in memory
        std::vector<uint32_t> strides(n, 1);
        strides[n - 1] = c.in[n - 2];
        uint32_t block = c.in[n - 1] * c.in[n - 2];
        for (uint32_t d = n - 2; d-- > 0;) {
          strides[d] = block;
          block *= c.in[d];
        }
        tester.InputStrides(strides);
      }
      std::vector<uint32_t> out(n);
      for (uint32_t d = 0; d < n; ++d) out[d] = c.in[d] + c.start[d] + c.end[d];
      if (gaps != 0) {
        std::vector<uint32_t> strides(n, 1);
        strides[n - 2] = out[n - 1] + (gaps == 1 ? 3 : 0);
        for (uint32_t d = n - 2; d-- > 0;) strides[d] = strides[d + 1] * out[d + 1];
        if (gaps == 2) strides[0] += 21;
        tester.OutputStrides(strides);
      }
      std::unique_ptr<OperatorCase> op_case = tester.BuildCase();
      ASSERT_NE(op_case, nullptr);
      SCOPED_TRACE(op_case->description);
      EXPECT_TRUE(RunCase(*op_case, ThreadedDevices(), dmlcpu::IndexPolicy::kClamp, ++seed));
      auto compiled = ThreadedDevices()[0]->Compile(op_case->op_desc);
      ASSERT_TRUE(compiled.ok()) << compiled.status().message();
      const std::string text = compiled.value().Describe();
      EXPECT_EQ(text.find("staged-line") != std::string::npos, gaps != 1) << text;
    }
  }
}

TEST(PaddingTest, RandomAgainstReference) {
  RunRandom("PADDING", 1, true, [](Rng& rng, bool large, Coverage* coverage) {
    const uint32_t n = large ? Uniform(rng, 2, 4) : Uniform(rng, 1, 8);
    const DML_TENSOR_DATA_TYPE type = kDataTypes[Uniform(rng, 0, 10)];
    const uint32_t mode = Uniform(rng, 0, 4);
    std::vector<uint32_t> in = RandomSizes(rng, n, large ? (1u << 18) : 2048);
    if (large) in[n - 1] = std::max(in[n - 1], 64u);
    std::vector<uint32_t> start(n), end(n), out(n);
    for (uint32_t d = 0; d < n; ++d) {
      const uint32_t big = mode == 0 ? 4 : 3 * in[d] + 2;  // past the input: periodic
      start[d] = Chance(rng, 0.4) ? 0 : Uniform(rng, 1, Chance(rng, 0.2) ? big : 2);
      end[d] = Chance(rng, 0.4) ? 0 : Uniform(rng, 1, Chance(rng, 0.2) ? big : 2);
      out[d] = in[d] + start[d] + end[d];
    }
    if (Product(out) > (large ? (1u << 20) : 8192u)) return std::unique_ptr<OperatorCase>();
    PaddingTester tester;
    tester.DataType(type).Mode(static_cast<DML_PADDING_MODE>(mode)).StartPadding(start);
    tester.EndPadding(end);
    if (Chance(rng, 0.5)) {
      tester.Value(RandomValue(rng));
    } else {
      tester.TypedValue(rng());
    }
    ApplyLayout(rng, in, out, &tester);
    coverage->modes.insert(mode);
    return tester.BuildCase();
  });
}

TEST(DepthSpaceTest, RandomAgainstReference) {
  RunRandom("DEPTH_SPACE", 2, false, [](Rng& rng, bool large, Coverage* coverage) {
    static const DML_OPERATOR_TYPE kTypes[] = {
        DML_OPERATOR_DEPTH_TO_SPACE, DML_OPERATOR_SPACE_TO_DEPTH, DML_OPERATOR_DEPTH_TO_SPACE1,
        DML_OPERATOR_SPACE_TO_DEPTH1};
    const DML_OPERATOR_TYPE type = kTypes[Uniform(rng, 0, 3)];
    const uint32_t b = Chance(rng, 0.1) ? 1 : Uniform(rng, 2, 4);
    const uint32_t c = Uniform(rng, 1, large ? 16 : 4);
    const uint32_t h = Uniform(rng, 1, large ? 64 : 6), w = Uniform(rng, 1, large ? 64 : 6);
    const uint32_t batch = Uniform(rng, 1, 3);
    const bool to_space =
        type == DML_OPERATOR_DEPTH_TO_SPACE || type == DML_OPERATOR_DEPTH_TO_SPACE1;
    const std::vector<uint32_t> depth = {batch, c * b * b, h, w};
    const std::vector<uint32_t> space = {batch, c, h * b, w * b};
    const DML_TENSOR_DATA_TYPE data_type = kDataTypes[Uniform(rng, 0, 10)];
    DepthSpaceTester tester;
    tester.DataType(data_type).Operator(type).BlockSize(b);
    tester.Order(Chance(rng, 0.5) ? DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW
                                  : DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH);
    ApplyLayout(rng, to_space ? depth : space, to_space ? space : depth, &tester);
    coverage->modes.insert(static_cast<uint32_t>(type));
    return tester.BuildCase();
  });
}

TEST(SliceGradTest, RandomAgainstReference) {
  RunRandom("SLICE_GRAD", 3, true, [](Rng& rng, bool large, Coverage* coverage) {
    const uint32_t n = large ? Uniform(rng, 2, 4) : Uniform(rng, 1, 8);
    const std::vector<uint32_t> out = RandomSizes(rng, n, large ? (1u << 18) : 4096);
    if (large && Product(out) < (1u << 17)) return std::unique_ptr<OperatorCase>();
    std::vector<uint32_t> offsets(n), sizes(n), grad(n);
    std::vector<int32_t> strides(n);
    const bool dense = Chance(rng, 0.3);  // unit strides: fills around the window only
    for (uint32_t d = 0; d < n; ++d) {
      sizes[d] = Uniform(rng, 1, out[d]);
      offsets[d] = Uniform(rng, 0, out[d] - sizes[d]);
      const int32_t step =
          dense || Chance(rng, 0.4) ? 1 : static_cast<int32_t>(Uniform(rng, 2, 5));
      strides[d] = Chance(rng, 0.5) ? -step : step;
      const uint32_t reach = 1 + (sizes[d] - 1) / static_cast<uint32_t>(step);
      grad[d] = Chance(rng, 0.7) ? reach : Uniform(rng, 1, reach);
    }
    SliceGradTester tester;
    tester.DataType(kDataTypes[Uniform(rng, 0, 10)]);
    tester.WindowOffsets(offsets).WindowSizes(sizes).WindowStrides(strides);
    tester.OutputSizes(out);
    ApplyLayout(rng, grad, out, &tester);
    coverage->modes.insert(0);
    return tester.BuildCase();
  });
}

// Dense windows (strides of +1 and -1) of at least 65536 gradient elements, so at least
// Tuning::min_fill_around_bytes: only the slabs around the written box are zeroed. Every rank,
// element widths 1-8 (a gradient one short of the window along a dimension from 2 bytes on, so
// the window's own tail is zeroed too), random layouts with gaps.
TEST(SliceGradTest, LargeDenseWindowsAgainstReference) {
  static constexpr DML_TENSOR_DATA_TYPE kTypes[] = {
      DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32,
      DML_TENSOR_DATA_TYPE_INT64};
  int failures = 0;
  for (uint32_t n = 1; n <= 8; ++n) {
    // The window: ceil(2^(16/n)) per dimension (at least 2^16 elements); one more in the output.
    const auto side = static_cast<uint32_t>(std::ceil(std::pow(2.0, 16.0 / n) - 1e-9));
    for (uint32_t t = 0; t < 4 && failures < 3; ++t) {
      const uint64_t seed = BaseSeed() * 0x9E3779B97F4A7C15ull + (uint64_t{7} << 32) + n * 4 + t;
      Rng rng(seed);
      std::vector<uint32_t> out(n, side + 1), offsets(n), sizes(n, side), grad(n, side);
      std::vector<int32_t> strides(n);
      for (uint32_t d = 0; d < n; ++d) {
        offsets[d] = Uniform(rng, 0, 1);
        strides[d] = Chance(rng, 0.5) ? -1 : 1;
      }
      if (t > 0) grad[Uniform(rng, 0, n - 1)] = side - 1;
      SliceGradTester tester;
      tester.DataType(kTypes[t]);
      tester.WindowOffsets(offsets).WindowSizes(sizes).WindowStrides(strides);
      tester.OutputSizes(out);
      ApplyLayout(rng, grad, out, &tester);
      std::unique_ptr<OperatorCase> op_case = tester.BuildCase();
      SCOPED_TRACE("rank " + std::to_string(n) + ": " + op_case->description);
      if (!RunCase(*op_case, ThreadedDevices(), dmlcpu::IndexPolicy::kClamp, seed)) ++failures;
    }
  }
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace dmlcpu_test
