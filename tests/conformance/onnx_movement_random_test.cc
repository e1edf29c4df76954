// SPDX-License-Identifier: Apache-2.0
// Random Transpose, Expand, Concat, Split, Tile, Reshape, Flatten, Squeeze, Unsqueeze and
// Identity nodes (ranks 0-6, empty dimensions and parts, negative axes, opset 18 num_outputs)
// through the ONNX adapter and dmlcpu, against an independent element-by-element model, packed
// and with padded strided bindings; plus the adapter's error messages.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "conformance/onnx_model_util.h"
#include "conformance/onnx_movement_runner.h"
#include "dmlcpu/onnx.h"
#include "gtest/gtest.h"

namespace dmlcpu_test {
namespace {

using dmlcpu::onnx::ElementType;
using Shape = std::vector<int64_t>;

uint64_t Count(const Shape& s) {
  uint64_t n = 1;
  for (int64_t d : s) n *= static_cast<uint64_t>(d);
  return n;
}

HostTensor Random(std::mt19937_64& rng, ElementType type, Shape shape) {
  HostTensor t{type, std::move(shape), {}};
  t.bytes.resize(Count(t.shape) * dmlcpu::onnx::ElementSizeBytes(type));
  for (uint8_t& b : t.bytes) b = static_cast<uint8_t>(rng());
  return t;
}

// out[c] = in[source(c)] for every output coordinate.
template <typename Source>
HostTensor Map(const HostTensor& in, const Shape& out_shape, Source source) {
  const uint32_t w = dmlcpu::onnx::ElementSizeBytes(in.type);
  HostTensor out{in.type, out_shape, std::vector<uint8_t>(Count(out_shape) * w)};
  for (uint64_t i = 0; i < Count(out_shape); ++i) {
    const uint64_t j = Linear(in.shape, source(Coord(out_shape, i)));
    std::memcpy(out.bytes.data() + i * w, in.bytes.data() + j * w, w);
  }
  return out;
}

Shape RandomShape(std::mt19937_64& rng, size_t rank, int64_t max_dim, bool allow_zero) {
  Shape s(rank);
  for (int64_t& d : s) d = (allow_zero && rng() % 12 == 0) ? 0 : 1 + rng() % max_dim;
  return s;
}

ElementType RandomType(std::mt19937_64& rng) {
  static const ElementType kTypes[] = {ElementType::kUint8, ElementType::kFloat16,
                                       ElementType::kFloat, ElementType::kInt64,
                                       ElementType::kBool, ElementType::kDouble};
  return kTypes[rng() % 6];
}

void Check(const dmlcpu::StatusOr<dmlcpu::onnx::OperatorDesc>& desc,
           const std::vector<const HostTensor*>& inputs, const std::vector<HostTensor>& want) {
  ASSERT_TRUE(desc.ok()) << desc.status().message();
  RunMovementCase(desc.value(), inputs, want, /*strided=*/false);
  RunMovementCase(desc.value(), inputs, want, /*strided=*/true);
}

TEST(OnnxMovementRandomTest, TransposeExpandTile) {
  for (uint64_t seed = 0; seed < 300; ++seed) {
    std::mt19937_64 rng(seed);
    SCOPED_TRACE("seed " + std::to_string(seed));
    const size_t rank = rng() % 6;
    const HostTensor in = Random(rng, RandomType(rng), RandomShape(rng, rank, 4, true));
    switch (seed % 3) {
      case 0: {
        std::vector<int64_t> perm(rank);
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), rng);
        if (rng() % 4 == 0) perm.clear();  // default: reversed
        Shape out(rank);
        for (size_t d = 0; d < rank; ++d) out[d] = in.shape[perm.empty() ? rank - 1 - d : perm[d]];
        const HostTensor want = Map(in, out, [&](const Shape& c) {
          Shape src(rank);
          for (size_t d = 0; d < rank; ++d) src[perm.empty() ? rank - 1 - d : perm[d]] = c[d];
          return src;
        });
        Check(dmlcpu::onnx::Transpose(in.Type(), perm), {&in}, {want});
        break;
      }
      case 1: {
        // A target shape that broadcasts with the input both ways.
        const size_t out_rank = rank + rng() % 3;
        Shape shape(out_rank - rng() % (out_rank + 1));
        for (size_t i = 0; i < shape.size(); ++i) {
          const size_t from_end = shape.size() - 1 - i;
          const int64_t a = from_end < rank ? in.shape[rank - 1 - from_end] : 1;
          shape[i] = a == 1 ? 1 + rng() % 3 : (rng() % 2 ? a : 1);
        }
        const size_t big = std::max(rank, shape.size());
        Shape out(big);
        for (size_t i = 0; i < big; ++i) {
          const int64_t a = i < rank ? in.shape[rank - 1 - i] : 1;
          const int64_t b = i < shape.size() ? shape[shape.size() - 1 - i] : 1;
          out[big - 1 - i] = a == 1 ? b : a;
        }
        const HostTensor want = Map(in, out, [&](const Shape& c) {
          Shape src(rank);
          for (size_t d = 0; d < rank; ++d) src[d] = in.shape[d] == 1 ? 0 : c[d + big - rank];
          return src;
        });
        Check(dmlcpu::onnx::Expand(in.Type(), shape), {&in}, {want});
        break;
      }
      default: {
        std::vector<int64_t> repeats(rank);
        Shape out(rank);
        for (size_t d = 0; d < rank; ++d) {
          repeats[d] = rng() % 10 == 0 ? 0 : 1 + rng() % 3;
          out[d] = in.shape[d] * repeats[d];
        }
        const HostTensor want = Map(in, out, [&](const Shape& c) {
          Shape src(rank);
          for (size_t d = 0; d < rank; ++d) src[d] = c[d] % in.shape[d];
          return src;
        });
        Check(dmlcpu::onnx::Tile(in.Type(), repeats), {&in}, {want});
        break;
      }
    }
    if (HasFatalFailure()) return;
  }
}

TEST(OnnxMovementRandomTest, ConcatAndSplit) {
  for (uint64_t seed = 0; seed < 300; ++seed) {
    std::mt19937_64 rng(seed);
    SCOPED_TRACE("seed " + std::to_string(seed));
    const size_t rank = 1 + rng() % 5;
    const ElementType type = RandomType(rng);
    const Shape base = RandomShape(rng, rank, 4, rng() % 6 == 0);
    const size_t axis = rng() % rank;
    const int64_t onnx_axis = rng() % 2 ? static_cast<int64_t>(axis)
                                        : static_cast<int64_t>(axis) - static_cast<int64_t>(rank);
    const size_t parts = 1 + rng() % 4;
    std::vector<HostTensor> pieces;
    for (size_t k = 0; k < parts; ++k) {
      Shape s = base;
      s[axis] = rng() % 5 == 0 ? 0 : 1 + rng() % 3;
      pieces.push_back(Random(rng, type, s));
    }
    Shape whole_shape = base;
    whole_shape[axis] = 0;
    for (const HostTensor& p : pieces) whole_shape[axis] += p.shape[axis];
    // The concatenation, element by element.
    const uint32_t w = dmlcpu::onnx::ElementSizeBytes(type);
    HostTensor whole{type, whole_shape, std::vector<uint8_t>(Count(whole_shape) * w)};
    for (uint64_t i = 0; i < Count(whole_shape); ++i) {
      Shape c = Coord(whole_shape, i);
      size_t k = 0;
      while (c[axis] >= pieces[k].shape[axis]) c[axis] -= pieces[k++].shape[axis];
      std::memcpy(whole.bytes.data() + i * w,
                  pieces[k].bytes.data() + Linear(pieces[k].shape, c) * w, w);
    }
    if (seed % 2 == 0) {
      std::vector<dmlcpu::onnx::TensorType> types;
      std::vector<const HostTensor*> ins;
      for (const HostTensor& p : pieces) {
        types.push_back(p.Type());
        ins.push_back(&p);
      }
      Check(dmlcpu::onnx::Concat(types, onnx_axis), ins, {whole});
    } else {
      dmlcpu::onnx::SplitParams params;
      for (const HostTensor& p : pieces) params.split.push_back(p.shape[axis]);
      params.output_count = parts;
      Check(dmlcpu::onnx::Split(whole.Type(), onnx_axis, params), {&whole}, pieces);
    }
    if (HasFatalFailure()) return;
  }
}

TEST(OnnxMovementRandomTest, SplitNumOutputsOpset18) {
  std::mt19937_64 rng(5);
  // 7 into 3: chunks of ceil(7/3) = 3, the last one smaller: {3, 3, 1}.
  const HostTensor in = Random(rng, ElementType::kFloat, {2, 7});
  dmlcpu::onnx::SplitParams params;
  params.num_outputs = 3;
  std::vector<HostTensor> want;
  int64_t begin = 0;
  for (int64_t chunk : {3, 3, 1}) {
    want.push_back(Map(in, {2, chunk}, [&](const Shape& c) { return Shape{c[0], c[1] + begin}; }));
    begin += chunk;
  }
  Check(dmlcpu::onnx::Split(in.Type(), -1, params), {&in}, want);
  // Equal parts without split or num_outputs, from the output count.
  params = {};
  params.output_count = 7;
  auto desc = dmlcpu::onnx::Split(in.Type(), 1, params);
  ASSERT_TRUE(desc.ok()) << desc.status().message();
  EXPECT_EQ(desc->output_count(), 7u);
  params.output_count = 3;
  desc = dmlcpu::onnx::Split(in.Type(), 1, params);
  ASSERT_FALSE(desc.ok());
  EXPECT_EQ(desc.status().message(),
            "Split: input shape[1] is 7, expected a multiple of 3 (the number of outputs; split "
            "omitted)");
}

TEST(OnnxMovementRandomTest, ShapeOnlyNodes) {
  for (uint64_t seed = 0; seed < 200; ++seed) {
    std::mt19937_64 rng(seed);
    SCOPED_TRACE("seed " + std::to_string(seed));
    const size_t rank = rng() % 5;
    const HostTensor in = Random(rng, RandomType(rng), RandomShape(rng, rank, 4, rng() % 8 == 0));
    dmlcpu::StatusOr<dmlcpu::onnx::OperatorDesc> desc = dmlcpu::Status::Ok();
    Shape out;
    switch (seed % 5) {
      case 0:
        desc = dmlcpu::onnx::Identity(in.Type());
        out = in.shape;
        break;
      case 1: {
        const int64_t axis = static_cast<int64_t>(rng() % (rank + 1));
        desc = dmlcpu::onnx::Flatten(in.Type(), axis);
        int64_t a = 1, b = 1;
        for (size_t d = 0; d < rank; ++d) (static_cast<int64_t>(d) < axis ? a : b) *= in.shape[d];
        out = {a, b};
        break;
      }
      case 2: {
        std::vector<int64_t> axes;
        for (size_t d = 0; d < rank; ++d) {
          if (in.shape[d] == 1 && rng() % 2) axes.push_back(static_cast<int64_t>(d));
        }
        desc = dmlcpu::onnx::Squeeze(in.Type(), axes);
        for (size_t d = 0; d < rank; ++d) {
          const int64_t axis = static_cast<int64_t>(d);
          const bool drop = axes.empty() ? in.shape[d] == 1
                                         : std::count(axes.begin(), axes.end(), axis) != 0;
          if (!drop) out.push_back(in.shape[d]);
        }
        break;
      }
      case 3: {
        const std::vector<int64_t> axes = {-1, 0};
        desc = dmlcpu::onnx::Unsqueeze(in.Type(), axes);
        out = in.shape;
        out.insert(out.begin(), 1);
        out.push_back(1);
        break;
      }
      default: {
        // Reshape to the reversed shape with one dimension inferred (-1) and a copied one (0).
        out = Shape(in.shape.rbegin(), in.shape.rend());
        std::vector<int64_t> spec = out;
        if (!spec.empty() && Count(in.shape) != 0) spec[rng() % spec.size()] = -1;
        if (spec.size() > 1 && spec[0] != -1 && out[0] == in.shape[0]) spec[0] = 0;
        desc = dmlcpu::onnx::Reshape(in.Type(), spec);
        break;
      }
    }
    HostTensor want = in;
    want.shape = out;
    Check(desc, {&in}, {want});
    if (HasFatalFailure()) return;
  }
}

TEST(OnnxMovementErrorTest, Messages) {
  const dmlcpu::onnx::TensorType t{ElementType::kFloat, {2, 3}};
  auto expect = [](const dmlcpu::StatusOr<dmlcpu::onnx::OperatorDesc>& d, const char* text) {
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.status().message(), text);
  };
  expect(dmlcpu::onnx::Transpose(t, {0, 0}),
         "Transpose: perm[1] is 0, expected a permutation (repeated value)");
  expect(dmlcpu::onnx::Transpose(t, {0}), "Transpose: perm has 1 values, expected 2 (data rank)");
  expect(dmlcpu::onnx::Expand(t, {4, 3}),
         "Expand: input shape {2,3} and shape {4,3} do not broadcast: dimension 1 from the end is "
         "2 and 4, expected equal or one of them 1");
  expect(dmlcpu::onnx::Reshape(t, {4, -1}),
         "Reshape: shape {4,-1} cannot hold the 6 elements of input shape {2,3} (the -1 has no "
         "integer value)");
  expect(dmlcpu::onnx::Reshape(t, {-1, -1}),
         "Reshape: shape[1] is -1, expected at most one -1 (shape[0] is -1 too)");
  expect(dmlcpu::onnx::Squeeze(t, {0}), "Squeeze: input shape[0] is 2 (axes[0]), expected 1");
  expect(dmlcpu::onnx::Unsqueeze(t, {3}), "Unsqueeze: axes[0] is 3, expected in [-3, 2]");
  expect(dmlcpu::onnx::Flatten(t, 3), "Flatten: axis is 3, expected in [-2, 2]");
  expect(dmlcpu::onnx::Concat({t, {ElementType::kFloat, {3, 3}}}, 1),
         "Concat: inputs[1].shape[0] is 3, expected 2 (inputs[0].shape[0]; only axis 1 may "
         "differ)");
  expect(dmlcpu::onnx::Concat({t, {ElementType::kInt32, {2, 3}}}, 1),
         "Concat: inputs[1] element type is INT32, expected FLOAT (inputs[0])");
  expect(dmlcpu::onnx::Tile(t, {1, -1}), "Tile: repeats[1] is -1, expected >= 0");
  expect(dmlcpu::onnx::Tile(t, {1}), "Tile: repeats has 1 values, expected 2 (input rank)");
  dmlcpu::onnx::SplitParams params;
  params.split = {1, 1};
  expect(dmlcpu::onnx::Split(t, 1, params),
         "Split: split sums to 2, expected 3 (input shape[1])");
}

// Shape-only nodes alias while packed; a strided input turns them into one IDENTITY copy, and
// packed strides make them an alias again.
TEST(OnnxMovementAliasTest, ReshapeIsAnAliasUntilStrided) {
  auto desc = dmlcpu::onnx::Reshape({ElementType::kFloat, {2, 3}}, {3, 2});
  ASSERT_TRUE(desc.ok());
  EXPECT_TRUE(desc->is_alias());
  EXPECT_EQ(desc->desc().Type, DML_OPERATOR_INVALID);
  EXPECT_FALSE(desc->output_is_empty());
  ASSERT_TRUE(desc->SetInputStrides(0, {4, 1}).ok());
  EXPECT_FALSE(desc->is_alias());
  EXPECT_EQ(desc->desc().Type, DML_OPERATOR_ELEMENT_WISE_IDENTITY);
  ASSERT_TRUE(desc->SetInputStrides(0, {3, 1}).ok());  // packed strides, spelled out
  EXPECT_TRUE(desc->is_alias());
}

}  // namespace
}  // namespace dmlcpu_test
