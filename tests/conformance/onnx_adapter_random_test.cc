// SPDX-License-Identifier: Apache-2.0
// Randomised tests of the ONNX adapter (dmlcpu/onnx.h) through dmlcpu, against models of the
// ONNX operators written here independently of the adapter: no windows, no rank padding, just
// the ONNX definitions walked element by element.
//
//   Slice           ranks 1-6, steps -3..3 (not 0), starts/ends far out of range and at the
//                   INT32/INT64 extremes, negative axes, axes subsets in any order, omitted
//                   axes/steps, empty results.
//   Gather          negative axes, indices of rank 0-3 (scalars), negative indices.
//   GatherElements  negative axes, indices extents below data's off the axis.
//   GatherND        batch_dims, tuple lengths 1..r-b.
// Every case runs packed or, for about half of them, with random padded strides on every input
// and the output. Plus the adapter's contracts: error messages, rank limits, type mapping,
// copies and moves of OperatorDesc. Needs only GoogleTest (not the ONNX packages).
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <numeric>
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

using dmlcpu::StatusCode;
using dmlcpu::onnx::ElementType;
using dmlcpu::onnx::OperatorDesc;
using dmlcpu::onnx::SliceParams;
using dmlcpu::onnx::TensorType;
using dmlcpu_test::ForEachCoord;
using dmlcpu_test::HostTensor;
using dmlcpu_test::IndexTensor;
using dmlcpu_test::IndexValue;
using dmlcpu_test::kOnnxDataTypes;
using dmlcpu_test::Linear;
using dmlcpu_test::ShapeToString;
using dmlcpu_test::Uniform;

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

HostTensor RandomTensor(std::mt19937_64& rng, ElementType type, std::vector<int64_t> shape) {
  HostTensor t;
  t.type = type;
  t.shape = std::move(shape);
  t.bytes.resize(t.Elems() * dmlcpu::onnx::ElementSizeBytes(type));
  for (uint8_t& b : t.bytes) b = static_cast<uint8_t>(rng());
  return t;
}

// Copies element `from` of `src` to element `to` of `dst` (same element type).
void CopyElement(const HostTensor& src, uint64_t from, HostTensor* dst, uint64_t to) {
  const uint32_t bytes = dmlcpu::onnx::ElementSizeBytes(src.type);
  std::copy_n(src.bytes.begin() + from * bytes, bytes, dst->bytes.begin() + to * bytes);
}

// Runs an adapted node and compares with the model's output (shape and bytes). `strided` lays
// every binding out with random padding.
void ExpectMatchesModel(std::mt19937_64& rng, OperatorDesc desc,
                        const std::vector<const HostTensor*>& inputs, const HostTensor& expected,
                        bool strided, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(desc.output_shape(), expected.shape);
  ASSERT_EQ(desc.output_element_type(), expected.type);
  if (expected.Elems() == 0) {
    EXPECT_TRUE(desc.output_is_empty());
    EXPECT_EQ(desc.desc().Type, DML_OPERATOR_INVALID);
    EXPECT_EQ(desc.output_bytes(), 0u);
    return;
  }
  ASSERT_FALSE(desc.output_is_empty());
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

// ---- Slice ------------------------------------------------------------------------------------

// The input positions ONNX Slice-13 takes along one axis of size `dim`, in output order. The
// effective start/end follow the operator text (negative values += dim, then start clamped to
// [0, dim] / [0, dim-1] and end to [0, dim] / [-1, dim-1] for positive / negative steps), then
// NumPy's walk: i = start; while (step > 0 ? i < end : i > end) take i, i += step.
std::vector<int64_t> SliceAxisModel(int64_t dim, int64_t start, int64_t end, int64_t step) {
  std::vector<int64_t> positions;
  if (dim == 0) return positions;
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
  } else {
    start = std::clamp<int64_t>(start, 0, dim - 1);
    end = std::clamp<int64_t>(end, -1, dim - 1);
  }
  for (int64_t i = start; step > 0 ? i < end : i > end; i += step) {
    positions.push_back(i);
    if ((step > 0 && i > kInt64Max - step) || (step < 0 && i < kInt64Min - step)) break;
  }
  return positions;
}

// The whole Slice: per-axis positions, then the cartesian product.
HostTensor SliceModel(const HostTensor& data, const SliceParams& p) {
  const size_t r = data.shape.size();
  std::vector<std::vector<int64_t>> positions(r);
  for (size_t d = 0; d < r; ++d) {
    positions[d].resize(data.shape[d]);
    std::iota(positions[d].begin(), positions[d].end(), 0);
  }
  for (size_t i = 0; i < p.starts.size(); ++i) {
    int64_t axis = p.axes.empty() ? static_cast<int64_t>(i) : p.axes[i];
    if (axis < 0) axis += static_cast<int64_t>(r);
    const int64_t step = p.steps.empty() ? 1 : p.steps[i];
    positions[axis] = SliceAxisModel(data.shape[axis], p.starts[i], p.ends[i], step);
  }
  HostTensor out;
  out.type = data.type;
  for (const auto& axis_positions : positions) {
    out.shape.push_back(static_cast<int64_t>(axis_positions.size()));
  }
  out.bytes.resize(out.Elems() * dmlcpu::onnx::ElementSizeBytes(data.type));
  ForEachCoord(out.shape, [&](const std::vector<int64_t>& o) {
    std::vector<int64_t> in(r);
    for (size_t d = 0; d < r; ++d) in[d] = positions[d][o[d]];
    CopyElement(data, Linear(data.shape, in), &out, Linear(out.shape, o));
  });
  return out;
}

std::string SliceToString(const HostTensor& data, const SliceParams& p) {
  return "Slice data " + ShapeToString(data.shape) + " starts " + ShapeToString(p.starts) +
         " ends " + ShapeToString(p.ends) + " axes " + ShapeToString(p.axes) + " steps " +
         ShapeToString(p.steps);
}

int64_t RandomBound(std::mt19937_64& rng, int64_t dim) {
  static const int64_t kExtremes[] = {kInt64Min, kInt64Max, kInt64Min + 1, kInt64Max - 1,
                                      kInt32Min, kInt32Max, 0, -1};
  switch (Uniform(rng, 0, 7)) {
    case 0: return kExtremes[Uniform(rng, 0, 7)];
    case 1: return Uniform(rng, 0, 1) ? dim : -dim;
    case 2:
    case 3: return Uniform(rng, -2 * dim - 3, 2 * dim + 3);  // mostly out of range
    default: return Uniform(rng, -dim, dim);
  }
}

TEST(OnnxSliceRandomTest, MatchesNumPyStyleModel) {
  std::mt19937_64 rng(20240601);
  int empty_cases = 0, executed_cases = 0;
  for (int iteration = 0; iteration < 4000; ++iteration) {
    const size_t r = static_cast<size_t>(Uniform(rng, 1, 6));
    std::vector<int64_t> shape(r);
    for (int64_t& d : shape) d = Uniform(rng, 0, 40) == 0 ? 0 : Uniform(rng, 1, 6);
    const ElementType type = kOnnxDataTypes[Uniform(rng, 0, std::size(kOnnxDataTypes) - 1)];
    const HostTensor data = RandomTensor(rng, type, shape);

    SliceParams p;
    std::vector<int64_t> axes(r);
    std::iota(axes.begin(), axes.end(), 0);
    size_t k;
    if (Uniform(rng, 0, 3) == 0) {  // axes omitted: the first k axes
      k = static_cast<size_t>(Uniform(rng, 0, r));
    } else {                        // a subset in random order, some negative
      std::shuffle(axes.begin(), axes.end(), rng);
      k = static_cast<size_t>(Uniform(rng, 0, r));
      for (size_t i = 0; i < k; ++i) {
        p.axes.push_back(Uniform(rng, 0, 1) ? axes[i] - static_cast<int64_t>(r) : axes[i]);
      }
      if (k == 0) p.axes.clear();
    }
    const bool steps_omitted = Uniform(rng, 0, 4) == 0;
    for (size_t i = 0; i < k; ++i) {
      const int64_t dim = shape[p.axes.empty() ? i : axes[i]];
      p.starts.push_back(RandomBound(rng, dim));
      p.ends.push_back(RandomBound(rng, dim));
      if (!steps_omitted) {
        int64_t step = Uniform(rng, -3, 2);
        p.steps.push_back(step >= 0 ? step + 1 : step);
      }
    }
    const std::string what = SliceToString(data, p) + " type " +
                             dmlcpu::onnx::ElementTypeName(type) + " iteration " +
                             std::to_string(iteration);
    auto desc = dmlcpu::onnx::Slice(data.Type(), p);
    ASSERT_TRUE(desc.ok()) << what << ": " << desc.status().message();
    const HostTensor expected = SliceModel(data, p);
    (expected.Elems() == 0 ? empty_cases : executed_cases)++;
    ExpectMatchesModel(rng, std::move(desc.value()), {&data}, expected, iteration % 2 == 1, what);
    if (HasFatalFailure() || HasFailure()) return;
  }
  EXPECT_GT(empty_cases, 800);  // both outcomes are well covered (seeded: 2553 / 1447)
  EXPECT_GT(executed_cases, 1200);
}

TEST(OnnxSliceRandomTest, HugeStepsTakeOneElement) {
  std::mt19937_64 rng(7);
  const HostTensor data = RandomTensor(rng, ElementType::kInt16, {5, 7});
  for (int64_t step : {kInt64Max, kInt64Min, kInt64Min + 1, kInt32Max + 1, -kInt32Max - 2}) {
    SliceParams p{{step > 0 ? 1 : 5}, {step > 0 ? kInt64Max : kInt64Min}, {-1}, {step}};
    auto desc = dmlcpu::onnx::Slice(data.Type(), p);
    ASSERT_TRUE(desc.ok()) << desc.status().message();
    ExpectMatchesModel(rng, desc.value(), {&data}, SliceModel(data, p), false,
                       SliceToString(data, p));
  }
}

TEST(OnnxSliceRandomTest, ScalarDataWithNoAxesIsACopy) {
  std::mt19937_64 rng(8);
  const HostTensor data = RandomTensor(rng, ElementType::kDouble, {});
  auto desc = dmlcpu::onnx::Slice(data.Type(), SliceParams{});
  ASSERT_TRUE(desc.ok()) << desc.status().message();
  EXPECT_EQ(desc->dimension_count(), 1u);
  ExpectMatchesModel(rng, desc.value(), {&data}, data, false, "scalar");
}

// Where ONNX's Slice text and NumPy differ (step < 0 and start < -dim): ONNX clamps the start to
// 0, so x[-10:-10:-1] on 5 elements keeps x[0]; NumPy (start -> -1) keeps nothing. The adapter
// follows ONNX's text, as ONNX Runtime does.
TEST(OnnxSliceRandomTest, NegativeStepStartBelowRangeClampsToZero) {
  const TensorType data{ElementType::kFloat, {5}};
  auto desc = dmlcpu::onnx::Slice(data, SliceParams{{-10}, {-10}, {}, {-1}});
  ASSERT_TRUE(desc.ok()) << desc.status().message();
  EXPECT_EQ(desc->output_shape(), std::vector<int64_t>{1});
  // And INT64_MAX as the end of a backward slice clamps to dim - 1: nothing (ONNX Runtime reads
  // INT64_MAX there as "to the beginning"; the ONNX text and NumPy do not).
  auto backward = dmlcpu::onnx::Slice(data, SliceParams{{4}, {kInt64Max}, {}, {-1}});
  ASSERT_TRUE(backward.ok()) << backward.status().message();
  EXPECT_TRUE(backward->output_is_empty());
  EXPECT_EQ(backward->output_shape(), std::vector<int64_t>{0});
}

TEST(OnnxSliceRandomTest, DescriptorIsTheDirectMLWindow) {
  // x[1:, ::-2] of {4, 5} -> SLICE1 offsets {1, 0}, sizes {3, 5}, strides {1, -2}.
  auto desc = dmlcpu::onnx::Slice(TensorType{ElementType::kFloat, {4, 5}},
                                  SliceParams{{1, kInt64Max}, {kInt64Max, kInt64Min}, {}, {1, -2}});
  ASSERT_TRUE(desc.ok()) << desc.status().message();
  ASSERT_EQ(desc->type(), DML_OPERATOR_SLICE1);
  const auto& slice = *static_cast<const DML_SLICE1_OPERATOR_DESC*>(desc->desc().Desc);
  ASSERT_EQ(slice.DimensionCount, 2u);
  EXPECT_EQ(slice.InputWindowOffsets[0], 1u);
  EXPECT_EQ(slice.InputWindowOffsets[1], 0u);
  EXPECT_EQ(slice.InputWindowSizes[0], 3u);
  EXPECT_EQ(slice.InputWindowSizes[1], 5u);
  EXPECT_EQ(slice.InputWindowStrides[0], 1);
  EXPECT_EQ(slice.InputWindowStrides[1], -2);
  EXPECT_EQ(desc->output_shape(), (std::vector<int64_t>{3, 3}));
  EXPECT_EQ(desc->input_bytes(0), 80u);
  EXPECT_EQ(desc->output_bytes(), 36u);
}

// ---- Gather -----------------------------------------------------------------------------------

HostTensor GatherModel(const HostTensor& data, const HostTensor& indices, int64_t axis) {
  const size_t r = data.shape.size();
  const size_t q = indices.shape.size();
  const size_t a = static_cast<size_t>(axis < 0 ? axis + r : axis);
  HostTensor out;
  out.type = data.type;
  out.shape.assign(data.shape.begin(), data.shape.begin() + a);
  out.shape.insert(out.shape.end(), indices.shape.begin(), indices.shape.end());
  out.shape.insert(out.shape.end(), data.shape.begin() + a + 1, data.shape.end());
  out.bytes.resize(out.Elems() * dmlcpu::onnx::ElementSizeBytes(data.type));
  ForEachCoord(out.shape, [&](const std::vector<int64_t>& o) {
    const std::vector<int64_t> idx_coord(o.begin() + a, o.begin() + a + q);
    int64_t v = IndexValue(indices, Linear(indices.shape, idx_coord));
    if (v < 0) v += data.shape[a];
    std::vector<int64_t> in(o.begin(), o.begin() + a);
    in.push_back(v);
    in.insert(in.end(), o.begin() + a + q, o.end());
    CopyElement(data, Linear(data.shape, in), &out, Linear(out.shape, o));
  });
  return out;
}

// Random indices in [-dim, dim - 1] for each element of `shape`.
HostTensor RandomIndices(std::mt19937_64& rng, std::vector<int64_t> shape, int64_t dim) {
  HostTensor shape_only;
  shape_only.shape = shape;
  std::vector<int64_t> values(shape_only.Elems());
  for (int64_t& v : values) v = Uniform(rng, -dim, dim - 1);
  return IndexTensor(Uniform(rng, 0, 1) ? ElementType::kInt64 : ElementType::kInt32,
                     std::move(shape), values);
}

TEST(OnnxGatherRandomTest, MatchesModel) {
  std::mt19937_64 rng(1234);
  int scalar_cases = 0;
  for (int iteration = 0; iteration < 1500; ++iteration) {
    const size_t r = static_cast<size_t>(Uniform(rng, 1, 4));
    const size_t q = static_cast<size_t>(Uniform(rng, 0, 3));
    std::vector<int64_t> shape(r), idx_shape(q);
    for (int64_t& d : shape) d = Uniform(rng, 1, 5);
    for (int64_t& d : idx_shape) d = Uniform(rng, 0, 30) == 0 ? 0 : Uniform(rng, 1, 4);
    const int64_t axis = Uniform(rng, -static_cast<int64_t>(r), r - 1);
    const int64_t dim = shape[axis < 0 ? axis + r : axis];
    const ElementType type = kOnnxDataTypes[Uniform(rng, 0, std::size(kOnnxDataTypes) - 1)];
    const HostTensor data = RandomTensor(rng, type, shape);
    const HostTensor indices = RandomIndices(rng, idx_shape, dim);
    scalar_cases += q == 0;
    const std::string what = "Gather data " + ShapeToString(shape) + " indices " +
                             ShapeToString(idx_shape) + " axis " + std::to_string(axis);
    auto desc = dmlcpu::onnx::Gather(data.Type(), indices.Type(), axis);
    ASSERT_TRUE(desc.ok()) << what << ": " << desc.status().message();
    ExpectMatchesModel(rng, std::move(desc.value()), {&data, &indices},
                       GatherModel(data, indices, axis), iteration % 2 == 1, what);
    if (HasFailure()) return;
  }
  EXPECT_GT(scalar_cases, 200);
}

TEST(OnnxGatherRandomTest, ScalarIndexOnVectorGivesScalar) {
  std::mt19937_64 rng(5);
  const HostTensor data = RandomTensor(rng, ElementType::kFloat, {6});
  const HostTensor index = IndexTensor(ElementType::kInt64, {}, {-2});
  auto desc = dmlcpu::onnx::Gather(data.Type(), index.Type(), -1);
  ASSERT_TRUE(desc.ok()) << desc.status().message();
  EXPECT_TRUE(desc->output_shape().empty());
  const auto& gather = *static_cast<const DML_GATHER_OPERATOR_DESC*>(desc->desc().Desc);
  EXPECT_EQ(gather.Axis, 0u);
  EXPECT_EQ(gather.IndexDimensions, 0u);
  ExpectMatchesModel(rng, desc.value(), {&data, &index}, GatherModel(data, index, -1), false,
                     "scalar");
}

TEST(OnnxGatherRandomTest, PadsToTheLargestRankAndShiftsTheAxis) {
  // data {3, 4} axis -1, indices {2, 1, 2}: output {3, 2, 1, 2}, N = 4, Axis = 1 + 2.
  auto desc = dmlcpu::onnx::Gather(TensorType{ElementType::kFloat16, {3, 4}},
                                   TensorType{ElementType::kInt32, {2, 1, 2}}, -1);
  ASSERT_TRUE(desc.ok()) << desc.status().message();
  EXPECT_EQ(desc->dimension_count(), 4u);
  EXPECT_EQ(desc->output_shape(), (std::vector<int64_t>{3, 2, 1, 2}));
  const auto& gather = *static_cast<const DML_GATHER_OPERATOR_DESC*>(desc->desc().Desc);
  EXPECT_EQ(gather.Axis, 3u);
  EXPECT_EQ(gather.IndexDimensions, 3u);
  const auto& input = *static_cast<const DML_BUFFER_TENSOR_DESC*>(gather.InputTensor->Desc);
  EXPECT_EQ(input.DataType, DML_TENSOR_DATA_TYPE_FLOAT16);
  EXPECT_EQ(input.Sizes[0], 1u);
  EXPECT_EQ(input.Sizes[1], 1u);
  EXPECT_EQ(input.Sizes[2], 3u);
  EXPECT_EQ(input.Sizes[3], 4u);
  EXPECT_EQ(input.Strides, nullptr);
  EXPECT_EQ(input.TotalTensorSizeInBytes, 24u);
  EXPECT_EQ(desc->input_bytes(1), 16u);
  EXPECT_EQ(desc->output_bytes(), 24u);
}

// ---- GatherElements ---------------------------------------------------------------------------

HostTensor GatherElementsModel(const HostTensor& data, const HostTensor& indices, int64_t axis) {
  const size_t a = static_cast<size_t>(axis < 0 ? axis + data.shape.size() : axis);
  HostTensor out;
  out.type = data.type;
  out.shape = indices.shape;
  out.bytes.resize(out.Elems() * dmlcpu::onnx::ElementSizeBytes(data.type));
  ForEachCoord(out.shape, [&](const std::vector<int64_t>& o) {
    int64_t v = IndexValue(indices, Linear(indices.shape, o));
    if (v < 0) v += data.shape[a];
    std::vector<int64_t> in = o;
    in[a] = v;
    CopyElement(data, Linear(data.shape, in), &out, Linear(out.shape, o));
  });
  return out;
}

TEST(OnnxGatherElementsRandomTest, MatchesModel) {
  std::mt19937_64 rng(99);
  int smaller_cases = 0;
  for (int iteration = 0; iteration < 1000; ++iteration) {
    const size_t r = static_cast<size_t>(Uniform(rng, 1, 4));
    std::vector<int64_t> shape(r), idx_shape(r);
    for (int64_t& d : shape) d = Uniform(rng, 1, 5);
    const int64_t axis = Uniform(rng, -static_cast<int64_t>(r), r - 1);
    const size_t a = static_cast<size_t>(axis < 0 ? axis + r : axis);
    bool smaller = false;
    for (size_t d = 0; d < r; ++d) {
      idx_shape[d] = d == a ? Uniform(rng, 1, 5) : Uniform(rng, 1, shape[d]);
      smaller |= d != a && idx_shape[d] < shape[d];
    }
    smaller_cases += smaller;
    const ElementType type = kOnnxDataTypes[Uniform(rng, 0, std::size(kOnnxDataTypes) - 1)];
    const HostTensor data = RandomTensor(rng, type, shape);
    const HostTensor indices = RandomIndices(rng, idx_shape, shape[a]);
    const std::string what = "GatherElements data " + ShapeToString(shape) + " indices " +
                             ShapeToString(idx_shape) + " axis " + std::to_string(axis);
    auto desc = dmlcpu::onnx::GatherElements(data.Type(), indices.Type(), axis);
    ASSERT_TRUE(desc.ok()) << what << ": " << desc.status().message();
    ExpectMatchesModel(rng, std::move(desc.value()), {&data, &indices},
                       GatherElementsModel(data, indices, axis), iteration % 2 == 1, what);
    if (HasFailure()) return;
  }
  EXPECT_GT(smaller_cases, 200);
}

// ---- GatherND ---------------------------------------------------------------------------------

HostTensor GatherNdModel(const HostTensor& data, const HostTensor& indices, size_t b) {
  const size_t q = indices.shape.size();
  const size_t t = static_cast<size_t>(indices.shape[q - 1]);
  HostTensor out;
  out.type = data.type;
  out.shape.assign(indices.shape.begin(), indices.shape.end() - 1);
  out.shape.insert(out.shape.end(), data.shape.begin() + b + t, data.shape.end());
  out.bytes.resize(out.Elems() * dmlcpu::onnx::ElementSizeBytes(data.type));
  ForEachCoord(out.shape, [&](const std::vector<int64_t>& o) {
    std::vector<int64_t> tuple_coord(o.begin(), o.begin() + (q - 1));
    std::vector<int64_t> in(o.begin(), o.begin() + b);  // batch coordinates
    for (size_t j = 0; j < t; ++j) {
      tuple_coord.push_back(static_cast<int64_t>(j));
      int64_t v = IndexValue(indices, Linear(indices.shape, tuple_coord));
      tuple_coord.pop_back();
      if (v < 0) v += data.shape[b + j];
      in.push_back(v);
    }
    in.insert(in.end(), o.begin() + (q - 1), o.end());
    CopyElement(data, Linear(data.shape, in), &out, Linear(out.shape, o));
  });
  return out;
}

TEST(OnnxGatherNdRandomTest, MatchesModel) {
  std::mt19937_64 rng(4321);
  for (int iteration = 0; iteration < 1000; ++iteration) {
    const size_t r = static_cast<size_t>(Uniform(rng, 1, 4));
    const size_t q = static_cast<size_t>(Uniform(rng, 1, 3));
    const size_t b = static_cast<size_t>(Uniform(rng, 0, std::min(r, q) - 1));
    const size_t t = static_cast<size_t>(Uniform(rng, 1, r - b));
    std::vector<int64_t> shape(r), idx_shape(q);
    for (int64_t& d : shape) d = Uniform(rng, 1, 4);
    for (size_t d = 0; d + 1 < q; ++d) idx_shape[d] = d < b ? shape[d] : Uniform(rng, 1, 3);
    idx_shape[q - 1] = static_cast<int64_t>(t);
    const ElementType type = kOnnxDataTypes[Uniform(rng, 0, std::size(kOnnxDataTypes) - 1)];
    const HostTensor data = RandomTensor(rng, type, shape);
    // Component j of every tuple indexes data dim b + j.
    HostTensor shape_only;
    shape_only.shape = idx_shape;
    std::vector<int64_t> values(shape_only.Elems());
    for (size_t i = 0; i < values.size(); ++i) {
      const int64_t dim = shape[b + i % t];
      values[i] = Uniform(rng, -dim, dim - 1);
    }
    const HostTensor indices = IndexTensor(
        Uniform(rng, 0, 1) ? ElementType::kInt64 : ElementType::kInt32, idx_shape, values);
    const std::string what = "GatherND data " + ShapeToString(shape) + " indices " +
                             ShapeToString(idx_shape) + " batch_dims " + std::to_string(b);
    auto desc = dmlcpu::onnx::GatherNd(data.Type(), indices.Type(), static_cast<int64_t>(b));
    ASSERT_TRUE(desc.ok()) << what << ": " << desc.status().message();
    ExpectMatchesModel(rng, std::move(desc.value()), {&data, &indices},
                       GatherNdModel(data, indices, b), iteration % 2 == 1, what);
    if (HasFailure()) return;
  }
}

// ---- Contracts --------------------------------------------------------------------------------

void ExpectError(const dmlcpu::StatusOr<OperatorDesc>& result, StatusCode code,
                 const std::string& message) {
  ASSERT_FALSE(result.ok()) << "expected: " << message;
  EXPECT_EQ(result.status().code(), code) << result.status().message();
  EXPECT_EQ(result.status().message(), message);
}

TEST(OnnxAdapterErrorTest, MessagesNameTheAttributeValueAndConstraint) {
  const TensorType f23{ElementType::kFloat, {2, 3}};
  const TensorType i2{ElementType::kInt64, {2}};
  ExpectError(dmlcpu::onnx::Slice(f23, SliceParams{{0, 0}, {1, 1}, {}, {1, 0}}),
              StatusCode::kInvalidArgument, "Slice: steps[1] is 0, expected non-zero");
  ExpectError(dmlcpu::onnx::Slice(f23, SliceParams{{0, 0}, {1, 1}, {1, -1}, {}}),
              StatusCode::kInvalidArgument,
              "Slice: axes[1] is -1, expected no repeated axis (axes[0] is 1, the same axis 1)");
  ExpectError(dmlcpu::onnx::Slice(f23, SliceParams{{0}, {1}, {2}, {}}),
              StatusCode::kInvalidArgument,
              "Slice: axes[0] is 2, expected in [-2, 1] (data rank 2)");
  ExpectError(dmlcpu::onnx::Slice(f23, SliceParams{{0}, {1, 2}, {}, {}}),
              StatusCode::kInvalidArgument,
              "Slice: ends has 2 values, expected 1 (as many as starts)");
  ExpectError(dmlcpu::onnx::Slice(f23, SliceParams{{0, 0, 0}, {1, 1, 1}, {}, {}}),
              StatusCode::kInvalidArgument,
              "Slice: starts has 3 values, expected <= 2 (data rank; axes is omitted)");
  ExpectError(dmlcpu::onnx::Gather(f23, i2, 2), StatusCode::kInvalidArgument,
              "Gather: axis is 2, expected in [-2, 1] (data rank 2)");
  ExpectError(dmlcpu::onnx::Gather(f23, TensorType{ElementType::kFloat, {2}}, 0),
              StatusCode::kInvalidArgument,
              "Gather: indices element type is FLOAT (1), expected INT32 or INT64");
  ExpectError(dmlcpu::onnx::Gather(TensorType{ElementType::kString, {2}}, i2, 0),
              StatusCode::kUnsupported,
              "Gather: data element type is STRING (8), expected a fixed-size type (FLOAT, "
              "FLOAT16, BFLOAT16, DOUBLE, BOOL, [U]INT8/16/32/64)");
  ExpectError(dmlcpu::onnx::Gather(TensorType{ElementType::kFloat, {}}, i2, 0),
              StatusCode::kInvalidArgument, "Gather: data rank is 0, expected >= 1");
  ExpectError(dmlcpu::onnx::Gather(TensorType{ElementType::kFloat, {0, 3}}, i2, 0),
              StatusCode::kInvalidArgument,
              "Gather: data.shape[0] is 0, expected >= 1 (the gathered axis of non-empty "
              "indices)");
  ExpectError(dmlcpu::onnx::Gather(TensorType{ElementType::kFloat, {-1}}, i2, 0),
              StatusCode::kInvalidArgument,
              "Gather: data.shape[0] is -1, expected in [0, 4294967295]");
  ExpectError(dmlcpu::onnx::GatherElements(f23, TensorType{ElementType::kInt32, {2, 4}}, 0),
              StatusCode::kInvalidArgument,
              "GatherElements: indices.shape[1] is 4, expected <= 3 (data.shape[1]; axis is 0)");
  ExpectError(dmlcpu::onnx::GatherElements(f23, i2, 0), StatusCode::kInvalidArgument,
              "GatherElements: indices rank is 1, expected 2 (data rank)");
  ExpectError(dmlcpu::onnx::GatherNd(f23, TensorType{ElementType::kInt64, {2, 3}}, 0),
              StatusCode::kInvalidArgument,
              "GatherND: indices.shape[1] is 3, expected in [1, 2] (data rank 2 - batch_dims 0)");
  ExpectError(dmlcpu::onnx::GatherNd(f23, TensorType{ElementType::kInt64, {2, 1}}, 2),
              StatusCode::kInvalidArgument,
              "GatherND: batch_dims is 2, expected in [0, 1] (below min(data rank 2, indices "
              "rank 2))");
  ExpectError(dmlcpu::onnx::GatherNd(f23, TensorType{ElementType::kInt64, {3, 1}}, 1),
              StatusCode::kInvalidArgument,
              "GatherND: indices.shape[0] is 3, expected 2 (data.shape[0], a batch dimension)");
}

TEST(OnnxAdapterErrorTest, RanksAboveEightAreRefused) {
  const TensorType rank9{ElementType::kFloat, std::vector<int64_t>(9, 1)};
  ExpectError(dmlcpu::onnx::Slice(rank9, SliceParams{}), StatusCode::kUnsupported,
              "Slice: data rank is 9, expected <= 8 (DirectML's DimensionCount limit)");
  // Data rank 5 + indices rank 5 - 1 = 9.
  ExpectError(dmlcpu::onnx::Gather(TensorType{ElementType::kFloat, {2, 2, 2, 2, 2}},
                                   TensorType{ElementType::kInt64, {1, 1, 1, 1, 2}}, 0),
              StatusCode::kUnsupported,
              "Gather: output rank is 9 (data rank 5 + indices rank 5 - 1), expected <= 8 "
              "(DirectML's DimensionCount limit)");
  // Rank 8 exactly is fine: data rank 4 + indices rank 5 - 1.
  auto rank8 = dmlcpu::onnx::Gather(TensorType{ElementType::kFloat, {2, 2, 2, 2}},
                                    TensorType{ElementType::kInt64, {1, 1, 1, 1, 2}}, 3);
  ASSERT_TRUE(rank8.ok()) << rank8.status().message();
  EXPECT_EQ(rank8->dimension_count(), 8u);
  dmlcpu::Device device;
  EXPECT_TRUE(device.Compile(rank8->desc()).ok());
}

TEST(OnnxAdapterTest, ElementTypesMapToSameWidthDirectMLTypes) {
  struct Row {
    ElementType onnx;
    DML_TENSOR_DATA_TYPE dml;
    uint32_t bytes;
  };
  const Row rows[] = {
      {ElementType::kFloat, DML_TENSOR_DATA_TYPE_FLOAT32, 4},
      {ElementType::kUint8, DML_TENSOR_DATA_TYPE_UINT8, 1},
      {ElementType::kInt8, DML_TENSOR_DATA_TYPE_INT8, 1},
      {ElementType::kUint16, DML_TENSOR_DATA_TYPE_UINT16, 2},
      {ElementType::kInt16, DML_TENSOR_DATA_TYPE_INT16, 2},
      {ElementType::kInt32, DML_TENSOR_DATA_TYPE_INT32, 4},
      {ElementType::kInt64, DML_TENSOR_DATA_TYPE_INT64, 8},
      {ElementType::kBool, DML_TENSOR_DATA_TYPE_UINT8, 1},
      {ElementType::kFloat16, DML_TENSOR_DATA_TYPE_FLOAT16, 2},
      {ElementType::kDouble, DML_TENSOR_DATA_TYPE_FLOAT64, 8},
      {ElementType::kUint32, DML_TENSOR_DATA_TYPE_UINT32, 4},
      {ElementType::kUint64, DML_TENSOR_DATA_TYPE_UINT64, 8},
      {ElementType::kBfloat16, DML_TENSOR_DATA_TYPE_UINT16, 2},
  };
  for (const Row& row : rows) {
    auto dml = dmlcpu::onnx::ToDmlDataType(row.onnx);
    ASSERT_TRUE(dml.ok()) << dmlcpu::onnx::ElementTypeName(row.onnx);
    EXPECT_EQ(dml.value(), row.dml) << dmlcpu::onnx::ElementTypeName(row.onnx);
    EXPECT_EQ(dmlcpu::onnx::ElementSizeBytes(row.onnx), row.bytes);
  }
  for (ElementType bad : {ElementType::kUndefined, ElementType::kString, ElementType::kComplex64,
                          ElementType::kComplex128, static_cast<ElementType>(17)}) {
    auto dml = dmlcpu::onnx::ToDmlDataType(bad);
    ASSERT_FALSE(dml.ok());
    EXPECT_EQ(dml.status().code(), StatusCode::kUnsupported);
    EXPECT_EQ(dmlcpu::onnx::ElementSizeBytes(bad), 0u);
  }
}

TEST(OnnxAdapterTest, PaddedStridesElems) {
  EXPECT_EQ(dmlcpu::onnx::PaddedStridesElems({2, 3, 4}, 0), (std::vector<uint32_t>{12, 4, 1}));
  EXPECT_EQ(dmlcpu::onnx::PaddedStridesElems({2, 3, 4}, 1, 2),
            (std::vector<uint32_t>{40, 10, 2}));
  EXPECT_TRUE(dmlcpu::onnx::PaddedStridesElems({}, 1, 2).empty());
}

TEST(OnnxAdapterTest, CopiesAndMovesOwnTheirArrays) {
  std::mt19937_64 rng(11);
  const HostTensor data = RandomTensor(rng, ElementType::kInt32, {4, 6});
  const SliceParams p{{3, 1}, {kInt64Min, 6}, {}, {-1, 2}};
  const HostTensor expected = SliceModel(data, p);
  std::vector<OperatorDesc> descs;
  {
    auto original = dmlcpu::onnx::Slice(data.Type(), p);
    ASSERT_TRUE(original.ok());
    OperatorDesc copy = original.value();                 // copy
    OperatorDesc assigned;
    assigned = copy;                                      // copy assignment
    OperatorDesc moved = std::move(original.value());     // move
    descs.push_back(copy);
    descs.push_back(assigned);
    descs.push_back(std::move(moved));
    descs.reserve(100);                                   // relocates the elements
  }  // every source is gone
  for (const OperatorDesc& desc : descs) {
    const auto& slice = *static_cast<const DML_SLICE1_OPERATOR_DESC*>(desc.desc().Desc);
    EXPECT_GE(reinterpret_cast<const char*>(slice.InputWindowOffsets),
              reinterpret_cast<const char*>(&desc));
    EXPECT_LT(reinterpret_cast<const char*>(slice.InputWindowOffsets),
              reinterpret_cast<const char*>(&desc + 1));
    ExpectMatchesModel(rng, desc, {&data}, expected, false, "copy");
  }
}

// A two-input node: every tensor pointer of the copy's descriptor points at the copy's own
// tensors (not the source's), and the copies still run after every source is gone.
TEST(OnnxAdapterTest, CopiesOfMultiInputNodesOwnTheirTensors) {
  std::mt19937_64 rng(12);
  const HostTensor data = RandomTensor(rng, ElementType::kFloat16, {3, 5});
  const HostTensor indices = RandomIndices(rng, {2, 2}, 5);
  const HostTensor expected = GatherModel(data, indices, 1);
  std::vector<OperatorDesc> descs;
  {
    auto original = dmlcpu::onnx::Gather(data.Type(), indices.Type(), 1);
    ASSERT_TRUE(original.ok()) << original.status().message();
    ASSERT_TRUE(original->SetInputStrides(1, {3, 1}).ok());  // a non-default layout to carry
    OperatorDesc copy = original.value();
    OperatorDesc assigned;
    assigned = copy;
    const auto* source = static_cast<const DML_GATHER_OPERATOR_DESC*>(original->desc().Desc);
    for (const OperatorDesc* desc : {&copy, &assigned}) {
      const auto* gather = static_cast<const DML_GATHER_OPERATOR_DESC*>(desc->desc().Desc);
      ASSERT_NE(gather, source);
      EXPECT_NE(gather->InputTensor, source->InputTensor);
      EXPECT_NE(gather->IndicesTensor, source->IndicesTensor);
      EXPECT_NE(gather->OutputTensor, source->OutputTensor);
      EXPECT_NE(gather->IndicesTensor->Desc, source->IndicesTensor->Desc);
      const auto* idx = static_cast<const DML_BUFFER_TENSOR_DESC*>(gather->IndicesTensor->Desc);
      const auto* src_idx = static_cast<const DML_BUFFER_TENSOR_DESC*>(source->IndicesTensor->Desc);
      EXPECT_NE(idx->Sizes, src_idx->Sizes);
      ASSERT_NE(idx->Strides, nullptr);
      EXPECT_NE(idx->Strides, src_idx->Strides);
    }
    descs.push_back(copy);
    descs.push_back(assigned);
    descs.push_back(std::move(original.value()));
    descs.reserve(100);  // relocates the elements
  }                      // every source is gone
  for (OperatorDesc& desc : descs) {
    EXPECT_EQ(desc.input_count(), 2u);
    EXPECT_EQ(desc.input_bytes(1),  // strides {3, 1} over {2, 2}: a span of 5 elements
              5u * dmlcpu::onnx::ElementSizeBytes(indices.Type().element_type));
    ASSERT_TRUE(desc.SetInputStrides(1, {}).ok());
    ExpectMatchesModel(rng, desc, {&data, &indices}, expected, false, "gather copy");
  }
}

// The per-output queries agree with the output-0 forms; indices past the last output fail.
TEST(OnnxAdapterTest, PerOutputQueriesMatchTheSingleOutputForms) {
  auto desc = dmlcpu::onnx::GatherNd(TensorType{ElementType::kInt16, {2, 3, 4}},
                                     TensorType{ElementType::kInt64, {2, 1}}, 1);
  ASSERT_TRUE(desc.ok()) << desc.status().message();
  EXPECT_EQ(desc->input_count(), 2u);
  EXPECT_EQ(desc->output_count(), 1u);
  EXPECT_EQ(desc->output_shape(0), desc->output_shape());
  EXPECT_EQ(desc->output_shape(0), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(desc->output_element_type(0), ElementType::kInt16);
  EXPECT_EQ(desc->input_element_type(1), ElementType::kInt64);
  EXPECT_EQ(desc->output_bytes(0), desc->output_bytes());
  EXPECT_EQ(desc->output_bytes(0), 16u);
  EXPECT_EQ(desc->output_elems(0), 8u);
  EXPECT_FALSE(desc->output_is_empty(0));
  ASSERT_TRUE(desc->SetOutputStrides(0, {6, 1}).ok());
  EXPECT_EQ(desc->output_bytes(), 2u * (6 + 3 + 1));  // 10 elements, rounded up to 4 bytes
  const dmlcpu::Status status = desc->SetOutputStrides(1, {});
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "GatherND: output 1 is not a binding, expected < 1");
}

TEST(OnnxAdapterTest, EmptyOutputsAreReportedNotCompiled) {
  auto slice = dmlcpu::onnx::Slice(TensorType{ElementType::kFloat, {20, 10, 5}},
                                   SliceParams{{1000}, {1000}, {1}, {1}});
  ASSERT_TRUE(slice.ok()) << slice.status().message();
  EXPECT_TRUE(slice->output_is_empty());
  EXPECT_TRUE(slice->output_is_empty(0));
  EXPECT_EQ(slice->output_count(), 1u);
  EXPECT_EQ(slice->output_shape(), (std::vector<int64_t>{20, 0, 5}));
  EXPECT_EQ(slice->output_bytes(), 0u);
  EXPECT_EQ(slice->input_bytes(0), 4000u);
  EXPECT_EQ(slice->desc().Type, DML_OPERATOR_INVALID);
  EXPECT_EQ(slice->desc().Desc, nullptr);
  dmlcpu::Device device;
  EXPECT_FALSE(device.Compile(slice->desc()).ok());

  auto gather = dmlcpu::onnx::Gather(TensorType{ElementType::kFloat, {3, 4}},
                                     TensorType{ElementType::kInt64, {2, 0}}, 1);
  ASSERT_TRUE(gather.ok()) << gather.status().message();
  EXPECT_TRUE(gather->output_is_empty());
  EXPECT_EQ(gather->output_shape(), (std::vector<int64_t>{3, 2, 0}));
  EXPECT_EQ(gather->input_bytes(1), 0u);

  // Empty data with an empty gather: still just an empty output.
  auto empty_data = dmlcpu::onnx::Gather(TensorType{ElementType::kFloat, {0, 4}},
                                         TensorType{ElementType::kInt64, {0}}, 0);
  ASSERT_TRUE(empty_data.ok()) << empty_data.status().message();
  EXPECT_EQ(empty_data->output_shape(), (std::vector<int64_t>{0, 4}));
}

TEST(OnnxAdapterTest, StridesRejectTheWrongCount) {
  auto desc = dmlcpu::onnx::Gather(TensorType{ElementType::kFloat, {3, 4}},
                                   TensorType{ElementType::kInt64, {2}}, 1);
  ASSERT_TRUE(desc.ok());
  dmlcpu::Status status = desc->SetInputStrides(0, {4});
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "Gather: strides of data have 1 values, expected 2 (its rank)");
  EXPECT_EQ(desc->SetInputStrides(2, {}).code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(desc->SetInputStrides(0, {8, 2}).ok());
  EXPECT_EQ(desc->input_bytes(0), 4u * (2 * 8 + 3 * 2 + 1));
  ASSERT_TRUE(desc->SetInputStrides(0, {}).ok());  // packed again
  EXPECT_EQ(desc->input_bytes(0), 48u);
}

}  // namespace
