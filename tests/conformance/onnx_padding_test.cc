// SPDX-License-Identifier: Apache-2.0
// ONNX Pad, DepthToSpace and SpaceToDepth through the adapter and dmlcpu, packed and strided,
// against an independent NumPy-style model (np.pad's constant/edge/reflect/wrap after cropping
// negative pads; DepthToSpace's reshape-transpose-reshape), plus the adapter's messages.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "conformance/adapter_runner.h"
#include "conformance/onnx_model_util.h"
#include "dmlcpu/dmlcpu.h"
#include "dmlcpu/onnx.h"

namespace {

using dmlcpu::onnx::ElementType;
using dmlcpu_test::Coord;
using dmlcpu_test::HostTensor;
using dmlcpu_test::Linear;

HostTensor Iota(ElementType type, std::vector<int64_t> shape) {
  HostTensor t{type, std::move(shape), {}};
  const uint32_t width = dmlcpu::onnx::ElementSizeBytes(type);
  t.bytes.resize(t.Elems() * width);
  for (uint64_t i = 0; i < t.Elems(); ++i) {
    const uint64_t v = 0x0101010101010101ull * ((i % 200) + 1) + i;
    std::memcpy(t.bytes.data() + i * width, &v, width);
  }
  return t;
}

// np.pad semantics (after cropping the negative pads): -1 means "the constant".
int64_t Source(const std::string& mode, int64_t s, int64_t n) {
  if (s >= 0 && s < n) return s;
  if (mode == "constant") return -1;
  if (mode == "edge") return s < 0 ? 0 : n - 1;
  if (mode == "wrap") return ((s % n) + n) % n;
  // reflect: bounce between 0 and n - 1 until inside.
  if (n == 1) return 0;
  while (s < 0 || s >= n) s = s < 0 ? -s : 2 * (n - 1) - s;
  return s;
}

HostTensor ModelPad(const HostTensor& x, const dmlcpu::onnx::PadParams& p) {
  const size_t r = x.shape.size();
  std::vector<int64_t> before(r, 0), after(r, 0);
  const size_t k = p.axes.empty() ? r : p.axes.size();
  for (size_t i = 0; i < k; ++i) {
    const size_t a = p.axes.empty() ? i : static_cast<size_t>((p.axes[i] + r) % r);
    before[a] = p.pads[i];
    after[a] = p.pads[i + k];
  }
  HostTensor out{x.type, {}, {}};
  for (size_t d = 0; d < r; ++d) out.shape.push_back(x.shape[d] + before[d] + after[d]);
  const uint32_t width = dmlcpu::onnx::ElementSizeBytes(x.type);
  out.bytes.resize(out.Elems() * width);
  for (uint64_t i = 0; i < out.Elems(); ++i) {
    std::vector<int64_t> c = Coord(out.shape, i);
    bool constant = false;
    for (size_t d = 0; d < r; ++d) {
      // Crop first: the kept part starts at -min(before, 0) of the data.
      const int64_t crop = before[d] < 0 ? -before[d] : 0;
      const int64_t kept =
          x.shape[d] + (before[d] < 0 ? before[d] : 0) + (after[d] < 0 ? after[d] : 0);
      const int64_t s = Source(p.mode, c[d] - (before[d] > 0 ? before[d] : 0), kept);
      if (s < 0) constant = true;
      c[d] = s + crop;
    }
    if (constant) {
      if (!p.constant_value.empty())
        std::memcpy(&out.bytes[i * width], p.constant_value.data(), width);
    } else {
      std::memcpy(&out.bytes[i * width], &x.bytes[Linear(x.shape, c) * width], width);
    }
  }
  return out;
}

void ExpectRuns(const dmlcpu::onnx::OperatorDesc& node, const HostTensor& x,
                const HostTensor& expected) {
  EXPECT_EQ(node.output_shape(), expected.shape);
  for (int layout = 0; layout < 2; ++layout) {
    dmlcpu::onnx::OperatorDesc desc = node;
    std::vector<std::vector<uint32_t>> in_strides(1);
    std::vector<uint32_t> out_strides;
    if (layout == 1) {
      in_strides[0] = dmlcpu::onnx::PaddedStridesElems(x.shape, 2, 1);
      ASSERT_TRUE(desc.SetInputStrides(0, in_strides[0]).ok());
      out_strides = dmlcpu::onnx::PaddedStridesElems(expected.shape, 3, 2);
      ASSERT_TRUE(desc.SetOutputStrides(out_strides).ok());
    }
    dmlcpu::Device device;
    std::vector<uint8_t> output;
    ASSERT_TRUE(dmlcpu_test::ExecuteAdapted(device, desc, {&x}, in_strides, out_strides,
                                            dmlcpu::IndexPolicy::kStrict, &output))
        << desc.ToString();
    EXPECT_EQ(output, expected.bytes) << (layout ? "strided " : "packed ") << desc.ToString();
  }
}

TEST(OnnxPadTest, ModesCropsAxesAndValues) {
  struct Case {
    std::vector<int64_t> shape;
    dmlcpu::onnx::PadParams params;
  };
  const ElementType kInt16 = ElementType::kInt16;
  std::vector<Case> cases = {
      {{3, 4}, {"constant", {1, 2, 0, 1}, {}, {}}},
      {{3, 4}, {"constant", {-1, 2, 1, -2}, {}, {0x34, 0x12}}},  // crop and pad together
      {{3, 4}, {"edge", {2, -1, -1, 3}, {}, {}}},
      {{3, 4}, {"reflect", {2, 3, 2, 3}, {}, {}}},
      {{3, 4}, {"reflect", {5, 9, 4, 7}, {}, {}}},  // pads past the data
      {{3, 4}, {"wrap", {4, -2, 7, 5}, {}, {}}},
      {{2, 3, 4}, {"edge", {1, -1, 2, 1}, {-1, 0}, {}}},      // axes (opset 18)
      {{2, 3, 4}, {"constant", {-1, 1}, {0}, {0x01, 0x80}}},  // crop one end, pad the other
      {{5}, {"reflect", {-2, -1}, {}, {}}},                   // crop only
  };
  for (const Case& c : cases) {
    const HostTensor x = Iota(kInt16, c.shape);
    SCOPED_TRACE(c.params.mode);
    auto node = dmlcpu::onnx::Pad(x.Type(), c.params);
    ASSERT_TRUE(node.ok()) << node.status().message();
    ExpectRuns(*node, x, ModelPad(x, c.params));
  }
}

TEST(OnnxPadTest, CropLeavesAViewInsideTheData) {
  const HostTensor x = Iota(ElementType::kFloat, {4, 6});
  dmlcpu::onnx::PadParams p{"constant", {-1, -2, 0, 1}, {}, {}};
  auto node = dmlcpu::onnx::Pad(x.Type(), p);
  ASSERT_TRUE(node.ok()) << node.status().message();
  EXPECT_EQ(node->input_offset_bytes(0), (1 * 6 + 2) * 4u);
  EXPECT_EQ(node->desc().Type, DML_OPERATOR_PADDING1);
  ExpectRuns(*node, x, ModelPad(x, p));
}

TEST(OnnxPadTest, EmptyOutputAndErrors) {
  const HostTensor x = Iota(ElementType::kFloat, {2, 3});
  auto empty = dmlcpu::onnx::Pad(x.Type(), {"constant", {-2, 0, 0, 0}, {}, {}});
  ASSERT_TRUE(empty.ok()) << empty.status().message();
  EXPECT_TRUE(empty->output_is_empty());
  EXPECT_EQ(empty->output_shape(), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(dmlcpu::onnx::Pad(x.Type(), {"mirror", {0, 0, 0, 0}, {}, {}}).status().message(),
            "Pad: mode is \"mirror\", expected \"constant\", \"reflect\", \"edge\" or \"wrap\"");
  EXPECT_EQ(dmlcpu::onnx::Pad(x.Type(), {"constant", {1, 1}, {}, {}}).status().message(),
            "Pad: pads has 2 values, expected 4 (2 * data rank)");
  EXPECT_EQ(dmlcpu::onnx::Pad(x.Type(), {"constant", {-3, 0, 0, 0}, {}, {}}).status().message(),
            "Pad: pads crop 3 + 0 elements of dimension 0, expected at most its size 2");
  EXPECT_EQ(dmlcpu::onnx::Pad(x.Type(), {"edge", {-2, 0, 1, 0}, {}, {}}).status().code(),
            dmlcpu::StatusCode::kInvalidArgument);
  EXPECT_EQ(dmlcpu::onnx::Pad(x.Type(), {"constant", {0, 0, 0, 0}, {}, {1, 2}}).status().message(),
            "Pad: constant_value has 2 bytes, expected 4 (one FLOAT element)");
  EXPECT_EQ(dmlcpu::onnx::Pad(x.Type(), {"constant", {0, 0, 0, 0}, {1, -1}, {}}).status().message(),
            "Pad: axes[1] is -1, expected no repeated axis (axes[0] is the same axis 1)");
}

HostTensor ModelDepthToSpace(const HostTensor& x, int64_t b, bool crd) {
  const int64_t n = x.shape[0], c = x.shape[1] / (b * b), h = x.shape[2], w = x.shape[3];
  HostTensor out{x.type, {n, c, h * b, w * b}, {}};
  const uint32_t width = dmlcpu::onnx::ElementSizeBytes(x.type);
  out.bytes.resize(out.Elems() * width);
  for (uint64_t i = 0; i < out.Elems(); ++i) {
    const std::vector<int64_t> o = Coord(out.shape, i);
    const int64_t bi = o[2] % b, bj = o[3] % b;
    const int64_t ch = crd ? o[1] * b * b + bi * b + bj : (bi * b + bj) * c + o[1];
    const std::vector<int64_t> s = {o[0], ch, o[2] / b, o[3] / b};
    std::memcpy(&out.bytes[i * width], &x.bytes[Linear(x.shape, s) * width], width);
  }
  return out;
}

TEST(OnnxDepthSpaceTest, DepthToSpaceAndBack) {
  for (bool crd : {false, true}) {
    const HostTensor x = Iota(ElementType::kUint8, {2, 12, 3, 2});
    auto node = dmlcpu::onnx::DepthToSpace(x.Type(), 2, crd ? "CRD" : "DCR");
    ASSERT_TRUE(node.ok()) << node.status().message();
    const HostTensor y = ModelDepthToSpace(x, 2, crd);
    ExpectRuns(*node, x, y);
    if (!crd) {  // SpaceToDepth is DCR's inverse
      auto back = dmlcpu::onnx::SpaceToDepth(y.Type(), 2);
      ASSERT_TRUE(back.ok()) << back.status().message();
      ExpectRuns(*back, y, x);
    }
  }
  const dmlcpu::onnx::TensorType bad{ElementType::kFloat, {1, 6, 2, 2}};
  EXPECT_EQ(dmlcpu::onnx::DepthToSpace(bad, 2, "DCR").status().message(),
            "DepthToSpace: input.shape[1] is 6, expected a multiple of 4 (blocksize squared)");
  EXPECT_EQ(dmlcpu::onnx::DepthToSpace(bad, 1, "XYZ").status().message(),
            "DepthToSpace: mode is \"XYZ\", expected \"DCR\" or \"CRD\"");
  EXPECT_EQ(dmlcpu::onnx::SpaceToDepth({ElementType::kFloat, {1, 6, 3}}, 1).status().message(),
            "SpaceToDepth: input rank is 3, expected 4");
  EXPECT_EQ(dmlcpu::onnx::SpaceToDepth(bad, 0).status().message(),
            "SpaceToDepth: blocksize is 0, expected in [1, 65535]");
}

}  // namespace
