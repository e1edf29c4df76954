// SPDX-License-Identifier: Apache-2.0
// Randomised tests of the ONNX adapter's scatters (ScatterND, ScatterElements, Scatter) through
// dmlcpu, against models of the ONNX operators written here from the operator text: the output
// starts as data, then every update is applied in row-major index order (for ScatterND: tuple
// by tuple, each tuple's slice in row-major order) as out = f(out, update), f = take the update
// (none: the last duplicate wins), add, mul, max or min. The arithmetic is independent of the
// kernels: integers wrap in uint64, FLOAT and DOUBLE compute in their own type, FLOAT16 and
// BFLOAT16 compute in double and round by searching every finite value of the format.
//
// Heavy duplicates (indices drawn from a few values), negative indices, INT32/INT64 indices,
// ranks 1-5, every element type; half of the cases lay every binding out with random padded
// strides (gaps never written, inputs never changed). Plus the adapter's descriptors, the
// opset rules of `reduction` and every error message.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "conformance/adapter_runner.h"
#include "conformance/onnx_model_util.h"
#include "dmlcpu/dmlcpu.h"
#include "dmlcpu/onnx.h"
#include "gtest/gtest.h"

namespace {

using dmlcpu::ScatterReduction;
using dmlcpu::StatusCode;
using dmlcpu::onnx::ElementType;
using dmlcpu::onnx::OperatorDesc;
using dmlcpu::onnx::TensorType;
using dmlcpu_test::ForEachCoord;
using dmlcpu_test::HostTensor;
using dmlcpu_test::IndexTensor;
using dmlcpu_test::IndexValue;
using dmlcpu_test::kOnnxDataTypes;
using dmlcpu_test::Linear;
using dmlcpu_test::ShapeToString;
using dmlcpu_test::Uniform;

const char* const kReductionNames[] = {"none", "add", "mul", "max", "min"};

uint64_t Elems(const std::vector<int64_t>& shape) {
  uint64_t elems = 1;
  for (int64_t d : shape) elems *= static_cast<uint64_t>(d);
  return elems;
}

// Random element bits (FLOAT and DOUBLE mostly small multiples of 1/2, BOOL 0 or 1).
void FillRandom(std::mt19937_64& rng, HostTensor* t) {
  t->bytes.resize(Elems(t->shape) * dmlcpu::onnx::ElementSizeBytes(t->type));
  for (uint8_t& b : t->bytes) b = static_cast<uint8_t>(rng());
  if (t->type == ElementType::kBool) {
    for (uint8_t& b : t->bytes) b &= 1;
  } else if (t->type == ElementType::kFloat || t->type == ElementType::kDouble) {
    // Mostly small integers and halves (ties, duplicates of one value, signed zeros), some
    // arbitrary bits (NaNs, infinities, subnormals).
    const uint32_t bytes = dmlcpu::onnx::ElementSizeBytes(t->type);
    for (size_t i = 0; i < t->bytes.size(); i += bytes) {
      if (Uniform(rng, 0, 4) == 0) continue;
      const double v = static_cast<double>(Uniform(rng, -16, 16)) / 2 *
                       (Uniform(rng, 0, 1) ? 1.0 : -1.0);
      if (bytes == 4) {
        const float f = static_cast<float>(v);
        std::memcpy(&t->bytes[i], &f, 4);
      } else {
        std::memcpy(&t->bytes[i], &v, 8);
      }
    }
  }
}

HostTensor RandomTensor(std::mt19937_64& rng, ElementType type, std::vector<int64_t> shape) {
  HostTensor t;
  t.type = type;
  t.shape = std::move(shape);
  FillRandom(rng, &t);
  return t;
}

// ---- The reduction model -------------------------------------------------------------------

// Every finite value of a 16-bit float format (FLOAT16: 5 exponent bits, BFLOAT16: 8), sorted,
// with its bits: rounding a double to the format is a search for the nearest (ties: the even
// significand), beyond the largest finite value plus half its ulp an infinity.
struct Format16 {
  std::vector<std::pair<double, uint16_t>> values;
  double max_finite = 0, overflow = 0;
  int exponent_bits = 0;

  explicit Format16(int exp_bits) : exponent_bits(exp_bits) {
    for (uint32_t bits = 0; bits < 0x10000; ++bits) {
      const double v = Decode(static_cast<uint16_t>(bits));
      if (std::isfinite(v)) values.push_back({v, static_cast<uint16_t>(bits)});
    }
    std::sort(values.begin(), values.end());
    max_finite = values.back().first;
    const double ulp = max_finite - std::prev(values.end(), 2)->first;
    overflow = max_finite + ulp / 2;
  }
  double Decode(uint16_t bits) const {
    const int mant_bits = 15 - exponent_bits;
    const int bias = (1 << (exponent_bits - 1)) - 1;
    const int e = (bits >> mant_bits) & ((1 << exponent_bits) - 1);
    const int m = bits & ((1 << mant_bits) - 1);
    const double sign = (bits & 0x8000) ? -1.0 : 1.0;
    if (e == (1 << exponent_bits) - 1) {
      return m == 0 ? sign * std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::quiet_NaN();
    }
    if (e == 0) return sign * std::ldexp(m, 1 - bias - mant_bits);
    return sign * std::ldexp(m + (1 << mant_bits), e - bias - mant_bits);
  }
  uint16_t Encode(double x) const {
    const uint16_t inf = static_cast<uint16_t>(((1 << exponent_bits) - 1) << (15 - exponent_bits));
    if (x >= overflow) return inf;
    if (x <= -overflow) return static_cast<uint16_t>(inf | 0x8000);
    auto it = std::lower_bound(values.begin(), values.end(), std::make_pair(x, uint16_t{0}));
    if (it != values.end() && it->first == x) return x == 0 ? Zero(x) : it->second;
    const auto hi = *it;
    const auto lo = *std::prev(it);
    const double d_lo = x - lo.first, d_hi = hi.first - x;
    // Nearest; a tie takes the even significand. A result of 0 keeps x's sign.
    const auto& pick = d_lo != d_hi ? (d_lo < d_hi ? lo : hi) : ((lo.second & 1) == 0 ? lo : hi);
    return pick.first == 0 ? Zero(x) : pick.second;
  }
  static uint16_t Zero(double x) { return std::signbit(x) ? 0x8000 : 0; }
};

const Format16& Half() {
  static const Format16* const f = new Format16(5);
  return *f;
}
const Format16& Bfloat() {
  static const Format16* const f = new Format16(8);
  return *f;
}

bool IsNaN16(const Format16& f, uint16_t bits) { return std::isnan(f.Decode(bits)); }

// IEEE maximum / minimum of two non-NaN values: max(-0, +0) = +0, min(-0, +0) = -0.
template <typename T>
T MaxMin(T a, T b, bool max) {
  if (a == b) return (std::signbit(a) == max) ? b : a;
  return (a > b) == max ? a : b;
}

// A float step with the NaN rule: the destination's NaN if it is one, else the update's, quiet.
template <typename T, typename Bits>
T FloatStep(ScatterReduction r, T dst, T upd) {
  if (std::isnan(dst) || std::isnan(upd)) {
    Bits bits;
    std::memcpy(&bits, std::isnan(dst) ? &dst : &upd, sizeof(T));
    bits |= Bits{1} << (std::numeric_limits<T>::digits - 2);
    T out;
    std::memcpy(&out, &bits, sizeof(T));
    return out;
  }
  switch (r) {
    case ScatterReduction::kAdd: return dst + upd;
    case ScatterReduction::kMul: return dst * upd;
    case ScatterReduction::kMax: return MaxMin(dst, upd, true);
    default: return MaxMin(dst, upd, false);
  }
}

uint16_t Float16Step(const Format16& f, ScatterReduction r, uint16_t dst, uint16_t upd) {
  const uint16_t quiet = static_cast<uint16_t>(1 << (14 - f.exponent_bits));
  if (IsNaN16(f, dst)) return dst | quiet;
  if (IsNaN16(f, upd)) return upd | quiet;
  const double a = f.Decode(dst), b = f.Decode(upd);
  switch (r) {
    case ScatterReduction::kAdd: return f.Encode(a + b);
    case ScatterReduction::kMul: return f.Encode(a * b);
    default: {
      const double m = MaxMin(a, b, r == ScatterReduction::kMax);
      return m == a && std::signbit(m) == std::signbit(a) ? dst : upd;
    }
  }
}

// Integers: add and mul wrap (in uint64, truncated); max and min compare as signed or unsigned.
uint64_t IntegerStep(ScatterReduction r, uint64_t dst, uint64_t upd, uint32_t bytes,
                     bool is_signed) {
  const uint64_t mask = bytes == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1;
  auto widen = [&](uint64_t v) -> int64_t {
    if (bytes == 8) return static_cast<int64_t>(v);
    const uint64_t sign = uint64_t{1} << (8 * bytes - 1);
    return static_cast<int64_t>((v ^ sign) - sign);
  };
  switch (r) {
    case ScatterReduction::kAdd: return (dst + upd) & mask;
    case ScatterReduction::kMul: return (dst * upd) & mask;
    default: {
      const bool max = r == ScatterReduction::kMax;
      const bool dst_larger = is_signed ? widen(dst) > widen(upd) : dst > upd;
      return dst_larger == max ? dst : upd;
    }
  }
}

// out[o] = f(out[o], src[s]) for one element.
void ApplyUpdate(ScatterReduction r, const HostTensor& src, uint64_t s, HostTensor* out,
                 uint64_t o) {
  const uint32_t bytes = dmlcpu::onnx::ElementSizeBytes(out->type);
  uint8_t* dst = out->bytes.data() + o * bytes;
  const uint8_t* upd = src.bytes.data() + s * bytes;
  if (r == ScatterReduction::kNone) {
    std::memcpy(dst, upd, bytes);
    return;
  }
  switch (out->type) {
    case ElementType::kFloat: {
      float a, b;
      std::memcpy(&a, dst, 4);
      std::memcpy(&b, upd, 4);
      const float c = FloatStep<float, uint32_t>(r, a, b);
      std::memcpy(dst, &c, 4);
      return;
    }
    case ElementType::kDouble: {
      double a, b;
      std::memcpy(&a, dst, 8);
      std::memcpy(&b, upd, 8);
      const double c = FloatStep<double, uint64_t>(r, a, b);
      std::memcpy(dst, &c, 8);
      return;
    }
    case ElementType::kFloat16:
    case ElementType::kBfloat16: {
      uint16_t a, b;
      std::memcpy(&a, dst, 2);
      std::memcpy(&b, upd, 2);
      const uint16_t c =
          Float16Step(out->type == ElementType::kFloat16 ? Half() : Bfloat(), r, a, b);
      std::memcpy(dst, &c, 2);
      return;
    }
    default: {
      uint64_t a = 0, b = 0;
      std::memcpy(&a, dst, bytes);
      std::memcpy(&b, upd, bytes);
      const bool is_signed = out->type == ElementType::kInt8 ||
                             out->type == ElementType::kInt16 ||
                             out->type == ElementType::kInt32 || out->type == ElementType::kInt64;
      const uint64_t c = IntegerStep(r, a, b, bytes, is_signed);
      std::memcpy(dst, &c, bytes);
      return;
    }
  }
}

// ONNX ScatterElements: for every coordinate c of indices (row-major), o = c with
// o[axis] = indices[c] (negative: + data.shape[axis]); out[o] = f(out[o], updates[c]).
HostTensor ScatterElementsModel(const HostTensor& data, const HostTensor& indices,
                                const HostTensor& updates, int64_t axis, ScatterReduction r) {
  const size_t a = static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(data.shape.size())
                                                : axis);
  HostTensor out = data;
  ForEachCoord(indices.shape, [&](const std::vector<int64_t>& c) {
    const uint64_t i = Linear(indices.shape, c);
    std::vector<int64_t> o = c;
    int64_t v = IndexValue(indices, i);
    if (v < 0) v += data.shape[a];
    o[a] = v;
    ApplyUpdate(r, updates, i, &out, Linear(data.shape, o));
  });
  return out;
}

// ONNX ScatterND: for every tuple position p of indices.shape[:-1] (row-major), the tuple's t
// values (negative: + the dimension) name data[tuple, ...]; each element s of that slice takes
// updates[p, s].
HostTensor ScatterNdModel(const HostTensor& data, const HostTensor& indices,
                          const HostTensor& updates, ScatterReduction r) {
  const size_t q = indices.shape.size();
  const int64_t t = indices.shape[q - 1];
  const std::vector<int64_t> positions(indices.shape.begin(), indices.shape.end() - 1);
  const std::vector<int64_t> slice(data.shape.begin() + t, data.shape.end());
  HostTensor out = data;
  ForEachCoord(positions, [&](const std::vector<int64_t>& p) {
    const uint64_t tuple = Linear(positions, p);
    std::vector<int64_t> base(static_cast<size_t>(t));
    for (int64_t j = 0; j < t; ++j) {
      int64_t v = IndexValue(indices, tuple * static_cast<uint64_t>(t) + j);
      if (v < 0) v += data.shape[j];
      base[j] = v;
    }
    ForEachCoord(slice, [&](const std::vector<int64_t>& s) {
      std::vector<int64_t> o = base, u = p;
      o.insert(o.end(), s.begin(), s.end());
      u.insert(u.end(), s.begin(), s.end());
      ApplyUpdate(r, updates, Linear(updates.shape, u), &out, Linear(data.shape, o));
    });
  });
  return out;
}

// Runs an adapted node (compiled with its compile_options, kStrict) and compares with the model.
void ExpectMatchesModel(std::mt19937_64& rng, OperatorDesc desc,
                        const std::vector<const HostTensor*>& inputs, const HostTensor& expected,
                        bool strided, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(desc.output_shape(), expected.shape);
  ASSERT_EQ(desc.output_element_type(), expected.type);
  std::vector<std::vector<uint32_t>> input_strides(inputs.size());
  std::vector<uint32_t> output_strides;
  if (strided) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      input_strides[i] = dmlcpu::onnx::PaddedStridesElems(
          inputs[i]->shape, static_cast<uint32_t>(Uniform(rng, 0, 2)),
          static_cast<uint32_t>(Uniform(rng, 1, 3)));
      ASSERT_TRUE(desc.SetInputStrides(i, input_strides[i]).ok());
    }
    output_strides = dmlcpu::onnx::PaddedStridesElems(
        expected.shape, static_cast<uint32_t>(Uniform(rng, 0, 2)),
        static_cast<uint32_t>(Uniform(rng, 1, 3)));
    ASSERT_TRUE(desc.SetOutputStrides(output_strides).ok());
  }
  static const dmlcpu::Device* const device = new dmlcpu::Device();
  std::vector<uint8_t> output;
  ASSERT_TRUE(dmlcpu_test::ExecuteAdapted(*device, desc, inputs, input_strides, output_strides,
                                          dmlcpu::IndexPolicy::kStrict, &output));
  EXPECT_EQ(output, expected.bytes) << desc.ToString();
}

// A reduction valid for `type` (BOOL has no add).
ScatterReduction RandomReduction(std::mt19937_64& rng, ElementType type) {
  while (true) {
    const auto r = static_cast<ScatterReduction>(Uniform(rng, 0, 4));
    if (!(type == ElementType::kBool && r == ScatterReduction::kAdd)) return r;
  }
}

// Index values in [-dim, dim-1]; with `few` only from 2 values, so duplicates are heavy.
std::vector<int64_t> RandomIndexValues(std::mt19937_64& rng, uint64_t count, int64_t dim,
                                       bool few) {
  const int64_t pool[2] = {Uniform(rng, -dim, dim - 1), Uniform(rng, -dim, dim - 1)};
  std::vector<int64_t> values(count);
  for (int64_t& v : values) v = few ? pool[Uniform(rng, 0, 1)] : Uniform(rng, -dim, dim - 1);
  return values;
}

ElementType RandomIndexType(std::mt19937_64& rng) {
  return Uniform(rng, 0, 1) ? ElementType::kInt64 : ElementType::kInt32;
}

// ---- ScatterElements / Scatter -------------------------------------------------------------

TEST(OnnxScatterElementsRandomTest, MatchesModel) {
  std::mt19937_64 rng(20261126);
  int duplicate_cases = 0, reduced_cases = 0;
  for (int iteration = 0; iteration < 3000; ++iteration) {
    const size_t r = static_cast<size_t>(Uniform(rng, 1, 5));
    std::vector<int64_t> shape(r);
    for (int64_t& d : shape) d = Uniform(rng, 1, 5);
    const int64_t axis = Uniform(rng, -static_cast<int64_t>(r), r - 1);
    const size_t a = static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(r) : axis);
    std::vector<int64_t> idx_shape = shape;
    idx_shape[a] = Uniform(rng, 1, 2 * shape[a] + 1);  // more updates than positions: duplicates
    const ElementType type = kOnnxDataTypes[Uniform(rng, 0, std::size(kOnnxDataTypes) - 1)];
    const ScatterReduction reduction = RandomReduction(rng, type);
    const bool few = Uniform(rng, 0, 2) == 0;
    const HostTensor data = RandomTensor(rng, type, shape);
    const HostTensor indices = IndexTensor(RandomIndexType(rng), idx_shape,
                                           RandomIndexValues(rng, Elems(idx_shape), shape[a], few));
    const HostTensor updates = RandomTensor(rng, type, idx_shape);
    duplicate_cases += few || idx_shape[a] > shape[a];
    reduced_cases += reduction != ScatterReduction::kNone;
    const bool deprecated = reduction == ScatterReduction::kNone && Uniform(rng, 0, 3) == 0;
    const std::string what = std::string(deprecated ? "Scatter" : "ScatterElements") + " data " +
                             ShapeToString(shape) + " " + dmlcpu::onnx::ElementTypeName(type) +
                             " indices " + ShapeToString(idx_shape) + " axis " +
                             std::to_string(axis) + " reduction " +
                             kReductionNames[static_cast<int>(reduction)] + " iteration " +
                             std::to_string(iteration);
    auto desc = deprecated
                    ? dmlcpu::onnx::Scatter(data.Type(), indices.Type(), updates.Type(), axis, 9)
                    : dmlcpu::onnx::ScatterElements(
                          data.Type(), indices.Type(), updates.Type(), axis,
                          kReductionNames[static_cast<int>(reduction)], 18);
    ASSERT_TRUE(desc.ok()) << what << ": " << desc.status().message();
    ASSERT_EQ(desc->type(), DML_OPERATOR_SCATTER) << what;
    ASSERT_EQ(desc->scatter_reduction(), reduction) << what;
    ExpectMatchesModel(rng, std::move(desc.value()), {&data, &indices, &updates},
                       ScatterElementsModel(data, indices, updates, axis, reduction),
                       iteration % 2 == 1, what);
    if (HasFailure()) return;
  }
  EXPECT_GT(duplicate_cases, 1500);  // seeded: most cases have duplicates
  EXPECT_GT(reduced_cases, 2000);
}

// ---- ScatterND -----------------------------------------------------------------------------

TEST(OnnxScatterNdRandomTest, MatchesModel) {
  std::mt19937_64 rng(1126);
  int duplicate_cases = 0, reduced_cases = 0;
  for (int iteration = 0; iteration < 3000; ++iteration) {
    const size_t r = static_cast<size_t>(Uniform(rng, 1, 5));
    std::vector<int64_t> shape(r);
    for (int64_t& d : shape) d = Uniform(rng, 1, 4);
    const int64_t t = Uniform(rng, 1, static_cast<int64_t>(r));
    const size_t q = static_cast<size_t>(Uniform(rng, 1, 3));  // updates rank <= 6
    std::vector<int64_t> idx_shape(q);
    for (size_t d = 0; d + 1 < q; ++d) idx_shape[d] = Uniform(rng, 1, 4);
    idx_shape[q - 1] = t;
    std::vector<int64_t> upd_shape(idx_shape.begin(), idx_shape.end() - 1);
    upd_shape.insert(upd_shape.end(), shape.begin() + t, shape.end());
    const ElementType type = kOnnxDataTypes[Uniform(rng, 0, std::size(kOnnxDataTypes) - 1)];
    const ScatterReduction reduction = RandomReduction(rng, type);
    const bool few = Uniform(rng, 0, 2) == 0;
    std::vector<int64_t> values;
    const uint64_t tuples = Elems(idx_shape) / static_cast<uint64_t>(t);
    for (uint64_t k = 0; k < tuples; ++k) {
      for (int64_t j = 0; j < t; ++j) {
        values.push_back(RandomIndexValues(rng, 1, few ? std::min<int64_t>(shape[j], 2)
                                                       : shape[j], false)[0]);
      }
    }
    const HostTensor data = RandomTensor(rng, type, shape);
    const HostTensor indices = IndexTensor(RandomIndexType(rng), idx_shape, values);
    const HostTensor updates = RandomTensor(rng, type, upd_shape);
    duplicate_cases += few;
    reduced_cases += reduction != ScatterReduction::kNone;
    const std::string what = "ScatterND data " + ShapeToString(shape) + " " +
                             dmlcpu::onnx::ElementTypeName(type) + " indices " +
                             ShapeToString(idx_shape) + " reduction " +
                             kReductionNames[static_cast<int>(reduction)] + " iteration " +
                             std::to_string(iteration);
    auto desc = dmlcpu::onnx::ScatterNd(data.Type(), indices.Type(), updates.Type(),
                                        kReductionNames[static_cast<int>(reduction)], 18);
    ASSERT_TRUE(desc.ok()) << what << ": " << desc.status().message();
    ASSERT_EQ(desc->type(), DML_OPERATOR_SCATTER_ND) << what;
    ExpectMatchesModel(rng, std::move(desc.value()), {&data, &indices, &updates},
                       ScatterNdModel(data, indices, updates, reduction), iteration % 2 == 1,
                       what);
    if (HasFailure()) return;
  }
  EXPECT_GT(duplicate_cases, 700);
  EXPECT_GT(reduced_cases, 2000);
}

// ---- Fixed cases -----------------------------------------------------------------------------

TEST(OnnxScatterTest, DuplicatesTakeTheLastUpdateOrReduceInIndexOrder) {
  // data {4} FLOAT [1,2,3,4]; indices [2,-2,0,2] (element 2 three times), updates [10,20,30,40].
  std::mt19937_64 rng(3);
  const HostTensor data{ElementType::kFloat, {4}, {}};
  HostTensor d = data, u = data;
  d.bytes.resize(16);
  const float dv[4] = {1, 2, 3, 4}, uv[4] = {10, 20, 30, 40};
  std::memcpy(d.bytes.data(), dv, 16);
  u.bytes.resize(16);
  std::memcpy(u.bytes.data(), uv, 16);
  const HostTensor indices = IndexTensor(ElementType::kInt64, {4}, {2, -2, 0, 2});
  const struct {
    const char* reduction;
    float expected[4];
  } kCases[] = {
      {"none", {30, 2, 40, 4}},
      {"add", {31, 2, 73, 4}},
      {"mul", {30, 2, 24000, 4}},
      {"max", {30, 2, 40, 4}},
      {"min", {1, 2, 3, 4}},
  };
  for (const auto& c : kCases) {
    auto desc = dmlcpu::onnx::ScatterElements(d.Type(), indices.Type(), u.Type(), 0, c.reduction);
    ASSERT_TRUE(desc.ok()) << desc.status().message();
    HostTensor expected = d;
    std::memcpy(expected.bytes.data(), c.expected, 16);
    ExpectMatchesModel(rng, desc.value(), {&d, &indices, &u}, expected, false, c.reduction);
    // The model agrees with the hand-computed values.
    EXPECT_EQ(ScatterElementsModel(d, indices, u, 0, desc->scatter_reduction()).bytes,
              expected.bytes)
        << c.reduction;
  }
}

TEST(OnnxScatterTest, DescriptorsPadRanksAndCarryTheReduction) {
  // ScatterND data {4,5,6}, indices {2,3,2}, updates {2,3,6}: N = 3, r = 3, q = 3.
  auto nd = dmlcpu::onnx::ScatterNd(TensorType{ElementType::kFloat16, {4, 5, 6}},
                                    TensorType{ElementType::kInt32, {2, 3, 2}},
                                    TensorType{ElementType::kFloat16, {2, 3, 6}}, "mul", 16);
  ASSERT_TRUE(nd.ok()) << nd.status().message();
  ASSERT_EQ(nd->type(), DML_OPERATOR_SCATTER_ND);
  const auto& s = *static_cast<const DML_SCATTER_ND_OPERATOR_DESC*>(nd->desc().Desc);
  EXPECT_EQ(s.InputDimensionCount, 3u);
  EXPECT_EQ(s.IndicesDimensionCount, 3u);
  EXPECT_EQ(nd->dimension_count(), 3u);
  EXPECT_EQ(nd->input_count(), 3u);
  EXPECT_EQ(nd->output_shape(), (std::vector<int64_t>{4, 5, 6}));
  EXPECT_EQ(nd->scatter_reduction(), ScatterReduction::kMul);
  const dmlcpu::CompileOptions options = nd->compile_options(dmlcpu::IndexPolicy::kStrict);
  EXPECT_EQ(options.index_policy, dmlcpu::IndexPolicy::kStrict);
  EXPECT_EQ(options.scatter_reduction, ScatterReduction::kMul);
  EXPECT_FALSE(options.scatter_bfloat16);
  EXPECT_NE(nd->ToString().find("scatter_reduction=mul"), std::string::npos) << nd->ToString();

  // Indices of rank 4 > data rank 2: everything padded to N = 4 (updates {2,2,1,3}).
  auto padded = dmlcpu::onnx::ScatterNd(TensorType{ElementType::kInt8, {3, 3}},
                                        TensorType{ElementType::kInt64, {2, 2, 1, 1}},
                                        TensorType{ElementType::kInt8, {2, 2, 1, 3}});
  ASSERT_TRUE(padded.ok()) << padded.status().message();
  EXPECT_EQ(padded->dimension_count(), 4u);
  EXPECT_EQ(padded->scatter_reduction(), ScatterReduction::kNone);

  // BFLOAT16 with a reduction sets scatter_bfloat16; without one it does not.
  const TensorType bf{ElementType::kBfloat16, {4, 2}};
  const TensorType bf_idx{ElementType::kInt64, {1, 2}};
  const TensorType bf_upd{ElementType::kBfloat16, {1, 2}};
  auto bf_max = dmlcpu::onnx::ScatterElements(bf, bf_idx, bf_upd, -2, "max", 18);
  ASSERT_TRUE(bf_max.ok()) << bf_max.status().message();
  EXPECT_TRUE(bf_max->compile_options(dmlcpu::IndexPolicy::kClamp).scatter_bfloat16);
  const auto& e = *static_cast<const DML_SCATTER_OPERATOR_DESC*>(bf_max->desc().Desc);
  EXPECT_EQ(e.Axis, 0u);
  auto bf_none = dmlcpu::onnx::ScatterElements(bf, bf_idx, bf_upd, 0);
  ASSERT_TRUE(bf_none.ok());
  EXPECT_FALSE(bf_none->compile_options(dmlcpu::IndexPolicy::kClamp).scatter_bfloat16);

  // Every other node compiles without a reduction.
  auto gather = dmlcpu::onnx::Gather(TensorType{ElementType::kFloat, {3}},
                                     TensorType{ElementType::kInt64, {}}, 0);
  ASSERT_TRUE(gather.ok());
  EXPECT_EQ(gather->compile_options(dmlcpu::IndexPolicy::kStrict).scatter_reduction,
            ScatterReduction::kNone);
}

// Runs a node whose only binding is data (the updates are empty) and returns the output.
std::vector<uint8_t> RunCopy(const OperatorDesc& desc, const HostTensor& data) {
  dmlcpu::Device device;
  auto op = device.Compile(desc.desc(), desc.compile_options(dmlcpu::IndexPolicy::kStrict));
  EXPECT_TRUE(op.ok()) << op.status().message();
  if (!op.ok()) return {};
  EXPECT_EQ(op->input_count(), 1u);
  std::vector<uint8_t> output(desc.output_bytes(), 0xEE);
  const dmlcpu::Binding input{data.bytes.data(), data.bytes.size()};
  dmlcpu::OutputBinding out{output.data(), output.size()};
  EXPECT_TRUE(op->Execute(&input, 1, &out, 1).ok());
  output.resize(data.bytes.size());
  return output;
}

TEST(OnnxScatterTest, EmptyUpdatesCopyTheDataAndEmptyDataRunsNothing) {
  std::mt19937_64 rng(4);
  // ScatterND with 0 tuples, ScatterElements with 0 updates: the output is data, one copy;
  // indices and updates are not bindings.
  const HostTensor data = RandomTensor(rng, ElementType::kInt16, {3, 4});
  auto nd = dmlcpu::onnx::ScatterNd(data.Type(), TensorType{ElementType::kInt64, {0, 1}},
                                    TensorType{ElementType::kInt16, {0, 4}}, "add", 18);
  ASSERT_TRUE(nd.ok()) << nd.status().message();
  EXPECT_EQ(nd->type(), DML_OPERATOR_ELEMENT_WISE_IDENTITY);
  EXPECT_FALSE(nd->output_is_empty());
  EXPECT_TRUE(nd->input_is_empty(1) && nd->input_is_empty(2));
  EXPECT_EQ(nd->input_bytes(1), 0u);
  EXPECT_EQ(nd->input_bytes(2), 0u);
  EXPECT_EQ(nd->scatter_reduction(), ScatterReduction::kNone);  // nothing to reduce
  EXPECT_EQ(RunCopy(nd.value(), data), data.bytes);

  // Indices of higher rank than data: the copy still has data's shape.
  auto high = dmlcpu::onnx::ScatterNd(data.Type(), TensorType{ElementType::kInt32, {2, 0, 1, 2}},
                                      TensorType{ElementType::kInt16, {2, 0, 1}});
  ASSERT_TRUE(high.ok()) << high.status().message();
  EXPECT_EQ(RunCopy(high.value(), data), data.bytes);

  auto el = dmlcpu::onnx::ScatterElements(data.Type(), TensorType{ElementType::kInt32, {3, 0}},
                                          TensorType{ElementType::kInt16, {3, 0}}, 1, "mul");
  ASSERT_TRUE(el.ok()) << el.status().message();
  EXPECT_EQ(el->type(), DML_OPERATOR_ELEMENT_WISE_IDENTITY);
  EXPECT_EQ(RunCopy(el.value(), data), data.bytes);

  // Empty data: an empty output, nothing to execute.
  auto empty = dmlcpu::onnx::ScatterElements(TensorType{ElementType::kFloat, {0, 3}},
                                             TensorType{ElementType::kInt64, {0, 3}},
                                             TensorType{ElementType::kFloat, {0, 3}}, 0);
  ASSERT_TRUE(empty.ok()) << empty.status().message();
  EXPECT_TRUE(empty->output_is_empty());
  EXPECT_EQ(empty->desc().Type, DML_OPERATOR_INVALID);
  EXPECT_EQ(empty->output_shape(), (std::vector<int64_t>{0, 3}));
}

// The output bound to data's own buffer (same pointer, both packed): only the updates are
// written, and the result equals the model's (the KV-cache update of docs/onnx.md).
TEST(OnnxScatterTest, InPlaceOnDataMatchesModel) {
  std::mt19937_64 rng(5);
  for (const char* reduction : {"none", "add", "max"}) {
    const HostTensor data = RandomTensor(rng, ElementType::kFloat16, {4, 3, 8});
    const HostTensor indices = IndexTensor(ElementType::kInt64, {3, 2}, {3, 1, -4, 2, 3, 1});
    const HostTensor updates = RandomTensor(rng, ElementType::kFloat16, {3, 8});
    auto desc = dmlcpu::onnx::ScatterNd(data.Type(), indices.Type(), updates.Type(), reduction);
    ASSERT_TRUE(desc.ok()) << desc.status().message();
    dmlcpu::Device device;
    auto op = device.Compile(desc->desc(), desc->compile_options(dmlcpu::IndexPolicy::kStrict));
    ASSERT_TRUE(op.ok()) << op.status().message();
    std::vector<uint8_t> buffer = data.bytes;
    const dmlcpu::Binding inputs[3] = {{buffer.data(), buffer.size()},
                                       {indices.bytes.data(), indices.bytes.size()},
                                       {updates.bytes.data(), updates.bytes.size()}};
    const dmlcpu::OutputBinding out{buffer.data(), buffer.size()};
    ASSERT_TRUE(op->Execute(inputs, 3, &out, 1).ok()) << reduction;
    EXPECT_EQ(buffer, ScatterNdModel(data, indices, updates, desc->scatter_reduction()).bytes)
        << reduction;
  }
}

// ---- Errors ----------------------------------------------------------------------------------

void ExpectError(const dmlcpu::StatusOr<OperatorDesc>& result, StatusCode code,
                 const std::string& message) {
  ASSERT_FALSE(result.ok()) << "expected: " << message;
  EXPECT_EQ(result.status().code(), code) << result.status().message();
  EXPECT_EQ(result.status().message(), message);
}

TEST(OnnxScatterErrorTest, ReductionAndOpsetRules) {
  const TensorType data{ElementType::kFloat, {4, 3}};
  const TensorType idx{ElementType::kInt64, {2, 1}};
  const TensorType upd{ElementType::kFloat, {2, 3}};
  ExpectError(dmlcpu::onnx::ScatterNd(data, idx, upd, "none", 10), StatusCode::kInvalidArgument,
              "ScatterND: opset is 10, expected >= 11 (ScatterND-11 is its first version)");
  ExpectError(dmlcpu::onnx::ScatterNd(data, idx, upd, "sum", 18), StatusCode::kInvalidArgument,
              "ScatterND: reduction is \"sum\", expected \"none\", \"add\", \"mul\", \"max\" "
              "or \"min\"");
  ExpectError(dmlcpu::onnx::ScatterNd(data, idx, upd, "add", 13), StatusCode::kInvalidArgument,
              "ScatterND: reduction is \"add\" at opset 13, expected \"none\" (the attribute "
              "is from ScatterND-16)");
  ExpectError(dmlcpu::onnx::ScatterNd(data, idx, upd, "min", 17), StatusCode::kInvalidArgument,
              "ScatterND: reduction is \"min\" at opset 17, expected \"none\", \"add\" or "
              "\"mul\" (max and min are from ScatterND-18)");
  EXPECT_TRUE(dmlcpu::onnx::ScatterNd(data, idx, upd, "mul", 16).ok());
  EXPECT_TRUE(dmlcpu::onnx::ScatterNd(data, idx, upd, "max", 18).ok());
  EXPECT_TRUE(dmlcpu::onnx::ScatterNd(data, idx, upd, "none", 11).ok());
  EXPECT_TRUE(dmlcpu::onnx::ScatterNd(data, idx, upd, "min", 21).ok());  // still ScatterND-18

  const TensorType el_idx{ElementType::kInt32, {1, 3}};
  const TensorType el_upd{ElementType::kFloat, {1, 3}};
  ExpectError(dmlcpu::onnx::ScatterElements(data, el_idx, el_upd, 0, "max", 16),
              StatusCode::kInvalidArgument,
              "ScatterElements: reduction is \"max\" at opset 16, expected \"none\", \"add\" or "
              "\"mul\" (max and min are from ScatterElements-18)");
  ExpectError(dmlcpu::onnx::ScatterElements(data, el_idx, el_upd, 0, "mul", 11),
              StatusCode::kInvalidArgument,
              "ScatterElements: reduction is \"mul\" at opset 11, expected \"none\" (the "
              "attribute is from ScatterElements-16)");
  ExpectError(dmlcpu::onnx::ScatterElements(data, el_idx, el_upd, 0, "none", 9),
              StatusCode::kInvalidArgument,
              "ScatterElements: opset is 9, expected >= 11 (ScatterElements-11 is its first "
              "version)");
  ExpectError(dmlcpu::onnx::Scatter(data, el_idx, el_upd, 0, 8), StatusCode::kInvalidArgument,
              "Scatter: opset is 8, expected >= 9 (Scatter-9 is its first version)");
  const TensorType flags{ElementType::kBool, {4, 3}};
  const TensorType flag_upd{ElementType::kBool, {1, 3}};
  ExpectError(dmlcpu::onnx::ScatterElements(flags, el_idx, flag_upd, 0, "add", 18),
              StatusCode::kUnsupported,
              "ScatterElements: reduction is \"add\" on BOOL data, expected \"none\", \"mul\", "
              "\"max\" or \"min\" (BOOL is moved as UINT8, where 1 + 1 is 2)");
  EXPECT_TRUE(dmlcpu::onnx::ScatterElements(flags, el_idx, flag_upd, 0, "max", 18).ok());
}

TEST(OnnxScatterErrorTest, TypesAndShapes) {
  const TensorType data{ElementType::kFloat, {4, 3}};
  const TensorType idx{ElementType::kInt64, {2, 1}};
  const TensorType upd{ElementType::kFloat, {2, 3}};
  const auto nd = [](const TensorType& d, const TensorType& i, const TensorType& u) {
    return dmlcpu::onnx::ScatterNd(d, i, u);
  };
  ExpectError(nd(data, idx, TensorType{ElementType::kInt32, {2, 3}}), StatusCode::kInvalidArgument,
              "ScatterND: updates element type is INT32, expected FLOAT (data)");
  ExpectError(nd(data, TensorType{ElementType::kFloat, {2, 1}}, upd), StatusCode::kInvalidArgument,
              "ScatterND: indices element type is FLOAT (1), expected INT32 or INT64");
  ExpectError(nd(TensorType{ElementType::kString, {4, 3}}, idx,
                 TensorType{ElementType::kString, {2, 3}}),
              StatusCode::kUnsupported,
              "ScatterND: data element type is STRING (8), expected a fixed-size type (FLOAT, "
              "FLOAT16, BFLOAT16, DOUBLE, BOOL, [U]INT8/16/32/64)");
  ExpectError(nd(TensorType{ElementType::kFloat, {}}, idx, upd), StatusCode::kInvalidArgument,
              "ScatterND: data rank is 0, expected >= 1");
  ExpectError(nd(data, TensorType{ElementType::kInt64, {}}, upd), StatusCode::kInvalidArgument,
              "ScatterND: indices rank is 0, expected >= 1");
  ExpectError(nd(data, TensorType{ElementType::kInt64, {2, 3}}, upd),
              StatusCode::kInvalidArgument,
              "ScatterND: indices.shape[1] is 3, expected in [1, 2] (data rank)");
  ExpectError(nd(data, TensorType{ElementType::kInt64, {2, 0}}, TensorType{ElementType::kFloat,
                                                                          {2, 4, 3}}),
              StatusCode::kUnsupported,
              "ScatterND: indices.shape[1] is 0, expected in [1, 2]: DirectML's SCATTER_ND takes "
              "at least one index per tuple");
  ExpectError(nd(data, idx, TensorType{ElementType::kFloat, {2, 4}}),
              StatusCode::kInvalidArgument,
              "ScatterND: updates.shape is {2,4}, expected {2,3} (indices.shape[:-1] + "
              "data.shape[1:])");
  ExpectError(nd(TensorType{ElementType::kFloat, {0, 3}}, idx, upd),
              StatusCode::kInvalidArgument,
              "ScatterND: data.shape[0] is 0, expected >= 1 (addressed by non-empty indices)");
  ExpectError(nd(TensorType{ElementType::kFloat, {1, 1, 1, 1, 1, 1, 1, 1, 1}}, idx, upd),
              StatusCode::kUnsupported,
              "ScatterND: data rank is 9, expected <= 8 (DirectML's DimensionCount limit)");
  ExpectError(nd(data, idx, TensorType{ElementType::kFloat, {2, -3}}),
              StatusCode::kInvalidArgument,
              "ScatterND: updates.shape[1] is -3, expected in [0, 4294967295]");

  const auto el = [](const TensorType& d, const TensorType& i, const TensorType& u, int64_t a) {
    return dmlcpu::onnx::ScatterElements(d, i, u, a);
  };
  const TensorType el_idx{ElementType::kInt32, {5, 3}};
  const TensorType el_upd{ElementType::kFloat, {5, 3}};
  ExpectError(el(data, TensorType{ElementType::kInt32, {15}}, el_upd, 0),
              StatusCode::kInvalidArgument,
              "ScatterElements: indices rank is 1, expected 2 (data rank)");
  ExpectError(el(data, el_idx, TensorType{ElementType::kFloat, {5, 2}}, 0),
              StatusCode::kInvalidArgument,
              "ScatterElements: updates.shape is {5,2}, expected {5,3} (indices.shape)");
  ExpectError(el(data, el_idx, el_upd, 2), StatusCode::kInvalidArgument,
              "ScatterElements: axis is 2, expected in [-2, 1] (data rank 2)");
  ExpectError(el(data, el_idx, el_upd, 1), StatusCode::kInvalidArgument,
              "ScatterElements: indices.shape[0] is 5, expected <= 4 (data.shape[0]; axis is 1)");
  ExpectError(el(data, TensorType{ElementType::kInt32, {5, 2}},
                 TensorType{ElementType::kFloat, {5, 2}}, -2),
              StatusCode::kUnsupported,
              "ScatterElements: indices.shape[1] is 2, expected 3 (data.shape[1]; axis is 0): "
              "DirectML's SCATTER takes indices of data's extent off the axis");
  ExpectError(el(TensorType{ElementType::kFloat, {0, 3}}, el_idx, el_upd, 0),
              StatusCode::kInvalidArgument,
              "ScatterElements: data.shape[0] is 0, expected >= 1 (the scattered axis of "
              "non-empty indices)");
  ExpectError(dmlcpu::onnx::Scatter(data, el_idx, el_upd, -3), StatusCode::kInvalidArgument,
              "Scatter: axis is -3, expected in [-2, 1] (data rank 2)");
}

}  // namespace
