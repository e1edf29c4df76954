// SPDX-License-Identifier: Apache-2.0
// SCATTER and SCATTER_ND through the public API: the documentation's worked examples,
// duplicates (the same bytes for 1, 2 and 8 threads and the last update winning), in place,
// kStrict / kClamp, reductions (exact FLOAT16, NaN, signed zeros), gather∘scatter round trips,
// Execute's overlap rule, and validation messages.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "dmlcpu/dmlcpu.h"
#include "reference/reference_scatter.h"

namespace {

using dmlcpu::CompileOptions;
using dmlcpu::Device;
using dmlcpu::DeviceOptions;
using dmlcpu::ScatterReduction;
using dmlcpu::StatusCode;

struct Tensor {
  std::vector<uint32_t> sizes, strides;
  DML_BUFFER_TENSOR_DESC buffer = {};
  DML_TENSOR_DESC desc = {};
  Tensor(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> s, std::vector<uint32_t> st = {})
      : sizes(std::move(s)), strides(std::move(st)) {
    buffer.DataType = type;
    buffer.DimensionCount = static_cast<uint32_t>(sizes.size());
    buffer.Sizes = sizes.data();
    buffer.Strides = strides.empty() ? nullptr : strides.data();
    buffer.TotalTensorSizeInBytes = dmlcpu::CalcBufferTensorSize(
        type, buffer.DimensionCount, sizes.data(), buffer.Strides);
    desc = {DML_TENSOR_TYPE_BUFFER, &buffer};
  }
  Tensor(const Tensor&) = delete;
  uint64_t bytes() const { return buffer.TotalTensorSizeInBytes; }
};

struct Scatter {
  Tensor input, indices, updates, output;
  DML_SCATTER_OPERATOR_DESC elements = {};
  DML_SCATTER_ND_OPERATOR_DESC nd = {};
  DML_OPERATOR_DESC desc = {};
  Scatter(DML_TENSOR_DATA_TYPE type, DML_TENSOR_DATA_TYPE index_type, std::vector<uint32_t> in,
          std::vector<uint32_t> idx, std::vector<uint32_t> upd, uint32_t axis)
      : input(type, in), indices(index_type, idx), updates(type, upd), output(type, in) {
    elements = {&input.desc, &indices.desc, &updates.desc, &output.desc, axis};
    desc = {DML_OPERATOR_SCATTER, &elements};
  }
  Scatter(DML_TENSOR_DATA_TYPE type, DML_TENSOR_DATA_TYPE index_type, std::vector<uint32_t> in,
          std::vector<uint32_t> idx, std::vector<uint32_t> upd, uint32_t r, uint32_t q)
      : input(type, in), indices(index_type, idx), updates(type, upd), output(type, in) {
    nd = {&input.desc, &indices.desc, &updates.desc, &output.desc, r, q};
    desc = {DML_OPERATOR_SCATTER_ND, &nd};
  }
};

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  b.resize((b.size() + 3) & ~size_t{3});
  return b;
}
template <typename T>
std::vector<T> Values(const std::vector<uint8_t>& b, size_t n) {
  std::vector<T> v(n);
  std::memcpy(v.data(), b.data(), n * sizeof(T));
  return v;
}

dmlcpu::Status RunScatter(const Device& device, const Scatter& op, const std::vector<uint8_t>& input,
                   const std::vector<uint8_t>& indices, const std::vector<uint8_t>& updates,
                   std::vector<uint8_t>* output, CompileOptions options = CompileOptions()) {
  auto compiled = device.Compile(op.desc, options);
  if (!compiled.ok()) return compiled.status();
  output->resize(op.output.bytes());
  return compiled->Execute({{input.data(), input.size()}, {indices.data(), indices.size()},
                            {updates.data(), updates.size()}},
                           {{output->data(), output->size()}});
}

TEST(Scatter, WorkedExampleSc1DuplicateLastWins) {
  Device device;
  Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {5}, {4}, {4}, 0);
  std::vector<uint8_t> out;
  ASSERT_TRUE(RunScatter(device, op, Bytes<float>({0, 1, 2, 3, 4}), Bytes<uint32_t>({3, 1, 3, 0}),
                  Bytes<float>({5, 6, 7, 8}), &out)
                  .ok());
  // Index 3 twice: DirectML may give 5 or 7; dmlcpu: the later update (7).
  EXPECT_EQ(Values<float>(out, 5), (std::vector<float>{8, 6, 2, 7, 4}));
}

TEST(Scatter, WorkedExampleSc2) {
  Device device;
  Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {3, 3}, {2, 3}, {2, 3},
             0);
  std::vector<uint8_t> out;
  ASSERT_TRUE(RunScatter(device, op, Bytes<float>(std::vector<float>(9, 0)),
                  Bytes<uint32_t>({1, 0, 2, 0, 2, 1}), Bytes<float>({10, 11, 12, 20, 21, 22}),
                  &out)
                  .ok());
  EXPECT_EQ(Values<float>(out, 9), (std::vector<float>{20, 11, 0, 10, 0, 22, 0, 21, 12}));
}

TEST(Scatter, WorkedExampleScatterNd) {
  Device device;
  Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {1, 8}, {4, 1}, {1, 4},
             1u, 2u);
  std::vector<uint8_t> out;
  ASSERT_TRUE(RunScatter(device, op, Bytes<float>({1, 2, 3, 4, 5, 6, 7, 8}),
                  Bytes<uint32_t>({4, 3, 1, 7}), Bytes<float>({9, 10, 11, 12}), &out)
                  .ok());
  EXPECT_EQ(Values<float>(out, 8), (std::vector<float>{1, 11, 3, 10, 9, 6, 7, 12}));
}

// An engine pool: one std::thread per task.
void ThreadPerTask(void* context, uint32_t task_count, dmlcpu::TaskFn function, void* argument) {
  (void)context;
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < task_count; ++t) threads.emplace_back(function, argument, t);
  for (std::thread& thread : threads) thread.join();
}

// Large scatters with heavy duplicates: the bytes of 1, 2 and 8 threads are identical and equal
// the reference (the last update in index order wins; reductions in index order).
TEST(Scatter, DuplicatesGiveTheSameBytesForEveryThreadCount) {
  std::mt19937_64 rng(99);
  Device one(DeviceOptions{1}), two(DeviceOptions{2}), many(DeviceOptions{8});
  DeviceOptions pool_options;
  pool_options.max_threads = 3;
  pool_options.parallel_for = &ThreadPerTask;
  Device pool(pool_options);
  for (int reduction = 0; reduction < 5; ++reduction) {
    for (int variant = 0; variant < 5; ++variant) {
      std::unique_ptr<Scatter> op;
      if (variant == 0) {  // rank 1 into few bins: key ranges
        op = std::make_unique<Scatter>(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT64,
                                       std::vector<uint32_t>{97}, std::vector<uint32_t>{50000},
                                       std::vector<uint32_t>{50000}, 0u);
      } else if (variant == 1) {  // axis 0 of a matrix: split along columns
        op = std::make_unique<Scatter>(DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT32,
                                       std::vector<uint32_t>{7, 300},
                                       std::vector<uint32_t>{200, 300},
                                       std::vector<uint32_t>{200, 300}, 0u);
      } else if (variant == 2) {  // SCATTER_ND rows
        op = std::make_unique<Scatter>(DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT32,
                                       std::vector<uint32_t>{16, 64},
                                       std::vector<uint32_t>{3000, 1},
                                       std::vector<uint32_t>{3000, 64}, 2u, 2u);
      } else if (variant == 4) {  // axis 0 over 2.5 MiB of destinations: strips of 816 + 208
        op = std::make_unique<Scatter>(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT64,
                                       std::vector<uint32_t>{640, 1024},
                                       std::vector<uint32_t>{600, 1024},
                                       std::vector<uint32_t>{600, 1024}, 0u);
      } else {  // SCATTER_ND rows of 2 KiB (streamed when there is no reduction)
        op = std::make_unique<Scatter>(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT64,
                                       std::vector<uint32_t>{16, 512},
                                       std::vector<uint32_t>{300, 1},
                                       std::vector<uint32_t>{300, 512}, 2u, 2u);
      }
      std::vector<uint8_t> input(op->input.bytes()), indices(op->indices.bytes()),
          updates(op->updates.bytes());
      for (auto& b : input) b = static_cast<uint8_t>(rng() % 7);  // finite halves/floats
      for (auto& b : updates) b = static_cast<uint8_t>(rng() % 7);
      const uint32_t width = op->indices.buffer.DataType == DML_TENSOR_DATA_TYPE_INT64 ? 8 : 4;
      const uint32_t dim = op->input.sizes[0];
      for (size_t e = 0; e < indices.size() / width; ++e) {
        const uint64_t v = rng() % dim;
        std::memcpy(indices.data() + e * width, &v, width);
      }
      CompileOptions options;
      options.scatter_reduction = static_cast<ScatterReduction>(reduction);
      std::vector<uint8_t> a, b, c, d;
      ASSERT_TRUE(RunScatter(one, *op, input, indices, updates, &a, options).ok());
      ASSERT_TRUE(RunScatter(two, *op, input, indices, updates, &b, options).ok());
      ASSERT_TRUE(RunScatter(many, *op, input, indices, updates, &c, options).ok());
      ASSERT_TRUE(RunScatter(pool, *op, input, indices, updates, &d, options).ok());
      EXPECT_EQ(a, d) << "engine pool, reduction " << reduction << " variant " << variant;
      EXPECT_EQ(a, b) << "reduction " << reduction << " variant " << variant;
      EXPECT_EQ(a, c) << "reduction " << reduction << " variant " << variant;
      std::vector<uint8_t> expected(op->output.bytes());
      dmlcpu_test::RefScatterOptions ref;
      ref.reduction = static_cast<dmlcpu_test::RefReduction>(reduction);
      const dmlcpu_test::ReferenceResult r =
          op->desc.Type == DML_OPERATOR_SCATTER
              ? dmlcpu_test::ReferenceScatter(op->elements, input.data(), indices.data(),
                                              updates.data(), expected.data(), ref)
              : dmlcpu_test::ReferenceScatterNd(op->nd, input.data(), indices.data(),
                                                updates.data(), expected.data(), ref);
      ASSERT_TRUE(r.ok) << r.error;
      EXPECT_EQ(a, expected) << "reduction " << reduction << " variant " << variant;
    }
  }
}

// SCATTER with the input copied in by the scatter step (strip by strip; along axis 0 through a
// scratch block): out of place into a strided output whose gaps keep their guard bytes, and in
// place, on 1, 2 and 3 threads and the engine pool, heavy duplicates, against the reference.
TEST(Scatter, FusedCopyKeepsGapsAndMatchesForEveryThreadCount) {
  std::mt19937_64 rng(2911);
  Device one(DeviceOptions{1}), two(DeviceOptions{2}), three(DeviceOptions{3});
  DeviceOptions pool_options;
  pool_options.max_threads = 3;
  pool_options.parallel_for = &ThreadPerTask;
  Device pool(pool_options);
  for (uint32_t axis : {0u, 1u}) {
    for (int reduction : {0, 1}) {
      // {700, 900} with a 3-element gap after every row; updates along the axis 650 or 900.
      const std::vector<uint32_t> sizes = {700, 900}, strides = {903, 1};
      std::vector<uint32_t> idx_sizes = sizes;
      idx_sizes[axis] = axis == 0 ? 650 : 900;
      Tensor input(DML_TENSOR_DATA_TYPE_FLOAT32, sizes, strides),
          output(DML_TENSOR_DATA_TYPE_FLOAT32, sizes, strides),
          indices(DML_TENSOR_DATA_TYPE_INT64, idx_sizes),
          updates(DML_TENSOR_DATA_TYPE_FLOAT32, idx_sizes);
      const DML_SCATTER_OPERATOR_DESC desc = {&input.desc, &indices.desc, &updates.desc,
                                              &output.desc, axis};
      const DML_OPERATOR_DESC op_desc = {DML_OPERATOR_SCATTER, &desc};
      std::vector<uint8_t> in(input.bytes()), upd(updates.bytes()), idx(indices.bytes());
      for (auto& b : in) b = static_cast<uint8_t>(rng() % 7);  // finite floats
      for (auto& b : upd) b = static_cast<uint8_t>(rng() % 7);
      for (size_t e = 0; e < idx.size() / 8; ++e) {
        const int64_t v = static_cast<int64_t>(rng() % 40) - (e % 3 == 0 ? 40 : 0);  // dups
        std::memcpy(idx.data() + e * 8, &v, 8);
      }
      CompileOptions options;
      options.scatter_reduction = static_cast<ScatterReduction>(reduction);
      std::vector<uint8_t> expected(output.bytes(), 0xEE);
      dmlcpu_test::RefScatterOptions ref;
      ref.reduction = static_cast<dmlcpu_test::RefReduction>(reduction);
      ASSERT_TRUE(dmlcpu_test::ReferenceScatter(desc, in.data(), idx.data(), upd.data(),
                                                expected.data(), ref)
                      .ok);
      for (const Device* device : {&one, &two, &three, &pool}) {
        auto compiled = device->Compile(op_desc, options);
        ASSERT_TRUE(compiled.ok()) << compiled.status().message();
        const std::string text = compiled->Describe();
        EXPECT_NE(text.find("the input copied in one strip at a time"), std::string::npos)
            << text;
        EXPECT_EQ(text.find("scratch block") != std::string::npos, axis == 0 && reduction == 0)
            << text;
        std::vector<uint8_t> out(output.bytes(), 0xEE);  // guard bytes in the gaps
        ASSERT_TRUE(compiled
                        ->Execute({{in.data(), in.size()}, {idx.data(), idx.size()},
                                   {upd.data(), upd.size()}},
                                  {{out.data(), out.size()}})
                        .ok());
        EXPECT_EQ(out, expected) << "axis " << axis << " reduction " << reduction;
        // In place: the output bound to the input buffer (its gaps hold the input's bytes).
        std::vector<uint8_t> buffer = in;
        ASSERT_TRUE(compiled
                        ->Execute({{buffer.data(), buffer.size()}, {idx.data(), idx.size()},
                                   {upd.data(), upd.size()}},
                                  {{buffer.data(), buffer.size()}})
                        .ok());
        std::vector<uint8_t> want = in;
        ASSERT_TRUE(dmlcpu_test::ReferenceScatter(desc, in.data(), idx.data(), upd.data(),
                                                  want.data(), ref)
                        .ok);
        EXPECT_EQ(buffer, want) << "in place, axis " << axis << " reduction " << reduction;
      }
    }
  }
}

// In place: the output bound to the input buffer; only the updates change; equal to out of
// place. A KV-cache style SCATTER_ND writing one token.
TEST(Scatter, InPlaceWritesOnlyTheUpdates) {
  Device device(DeviceOptions{4});
  Scatter op(DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT64, {2, 4, 64, 8},
             {2, 4, 1, 3}, {2, 4, 1, 8}, 4u, 4u);
  std::vector<uint8_t> cache(op.input.bytes());
  for (size_t i = 0; i < cache.size(); ++i) cache[i] = static_cast<uint8_t>(i * 7);
  std::vector<int64_t> idx;
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t h = 0; h < 4; ++h) idx.insert(idx.end(), {b, h, 37});
  const std::vector<uint8_t> indices = Bytes(idx);
  std::vector<uint8_t> updates(op.updates.bytes(), 0xAB);
  std::vector<uint8_t> expected;
  ASSERT_TRUE(RunScatter(device, op, cache, indices, updates, &expected).ok());
  auto compiled = device.Compile(op.desc);
  ASSERT_TRUE(compiled.ok());
  EXPECT_NE(compiled->Describe().find("skipped when run in place"), std::string::npos);
  ASSERT_TRUE(compiled->Execute({{cache.data(), cache.size()}, {indices.data(), indices.size()},
                                 {updates.data(), updates.size()}},
                                {{cache.data(), cache.size()}})
                  .ok());
  EXPECT_EQ(cache, expected);
}

TEST(Scatter, OverlapOtherThanExactInPlaceIsRejected) {
  Device device;
  Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {8}, {2}, {2}, 0);
  std::vector<uint8_t> buffer(64, 0), indices = Bytes<uint32_t>({1, 2});
  auto compiled = device.Compile(op.desc);
  ASSERT_TRUE(compiled.ok());
  // Output shifted by 4 bytes into the input: overlap, not in place.
  dmlcpu::Status s = compiled->Execute(
      {{buffer.data(), 32}, {indices.data(), indices.size()}, {buffer.data() + 40, 8}},
      {{buffer.data() + 4, 32}});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("overlaps inputs[0] (InputTensor"), std::string::npos) << s.message();
  // Output on the updates.
  s = compiled->Execute({{buffer.data(), 32}, {indices.data(), indices.size()},
                         {buffer.data() + 32, 8}},
                        {{buffer.data() + 32, 32}});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("UpdatesTensor"), std::string::npos) << s.message();

  // Same pointer but another layout: strided output over a packed input is not in place.
  Scatter strided(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {2, 2}, {1, 2},
                  {1, 2}, 0);
  strided.output.strides = {1, 2};
  strided.output.buffer.Strides = strided.output.strides.data();
  auto c2 = device.Compile(strided.desc);
  ASSERT_TRUE(c2.ok()) << c2.status().message();
  s = c2->Execute({{buffer.data(), 16}, {indices.data(), 8}, {buffer.data() + 48, 8}},
                  {{buffer.data(), 16}});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
}

TEST(Scatter, StrictNamesTheFirstBadIndexAndWritesNothing) {
  Device device(DeviceOptions{2});
  Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT32, {4, 3}, {2, 3}, {2, 3},
             0);
  std::vector<uint8_t> out(op.output.bytes(), 0xEE);
  CompileOptions strict;
  strict.index_policy = dmlcpu::IndexPolicy::kStrict;
  auto compiled = device.Compile(op.desc, strict);
  ASSERT_TRUE(compiled.ok());
  const std::vector<uint8_t> input(op.input.bytes(), 1), updates(op.updates.bytes(), 2);
  const std::vector<uint8_t> indices = Bytes<int32_t>({0, -4, 3, 1, 9, -5});
  dmlcpu::Status s = compiled->Execute(
      {{input.data(), input.size()}, {indices.data(), indices.size()},
       {updates.data(), updates.size()}},
      {{out.data(), out.size()}});
  EXPECT_EQ(s.code(), StatusCode::kOutOfRange);
  EXPECT_EQ(s.message(),
            "SCATTER_ELEMENTS: IndicesTensor element 4 (coordinates {1,1}) is 9, expected in "
            "[-4, 3] (InputTensor.Sizes[0])");
  EXPECT_EQ(out, std::vector<uint8_t>(op.output.bytes(), 0xEE));

  Scatter nd(DML_TENSOR_DATA_TYPE_INT8, DML_TENSOR_DATA_TYPE_UINT64, {3, 4}, {2, 2}, {1, 2}, 2u,
             2u);
  auto c2 = device.Compile(nd.desc, strict);
  ASSERT_TRUE(c2.ok()) << c2.status().message();
  const std::vector<uint8_t> nd_indices = Bytes<uint64_t>({2, 3, 1, 4});
  std::vector<uint8_t> nd_out(nd.output.bytes(), 0xEE);
  s = c2->Execute({{input.data(), 12}, {nd_indices.data(), nd_indices.size()},
                   {updates.data(), 4}},
                  {{nd_out.data(), nd_out.size()}});
  EXPECT_EQ(s.message(),
            "SCATTER_ND: IndicesTensor element 3 (coordinates {1,1}) is 4, expected in [0, 3] "
            "(InputTensor.Sizes[1])");
}

TEST(Scatter, ClampDropsOutOfRangeUpdates) {
  Device device;
  Scatter op(DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_INT64, {4}, {5}, {5}, 0);
  std::vector<uint8_t> out;
  ASSERT_TRUE(RunScatter(device, op, Bytes<int32_t>({10, 11, 12, 13}),
                  Bytes<int64_t>({9, -1, -5, 4, 0}), Bytes<int32_t>({1, 2, 3, 4, 5}), &out)
                  .ok());
  // 9, -5 and 4 are out of range: dropped; -1 is the last element.
  EXPECT_EQ(Values<int32_t>(out, 4), (std::vector<int32_t>{5, 11, 12, 2}));
}

// Huge indices (their byte offsets overflow int64_t) are dropped without computing that offset
// (UBSan builds flag the overflow; compile_fuzzer found it).
TEST(Scatter, ClampDropsHugeIndices) {
  Device device;
  {
    Scatter op(DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT64, {4}, {3}, {3}, 0);
    std::vector<uint8_t> out;
    ASSERT_TRUE(RunScatter(device, op, Bytes<int32_t>({10, 11, 12, 13}),
                           Bytes<uint64_t>({0xD0FE9CE5F6DA5ED6ull, 1, 0x4000000000000000ull}),
                           Bytes<int32_t>({1, 2, 3}), &out)
                    .ok());
    EXPECT_EQ(Values<int32_t>(out, 4), (std::vector<int32_t>{10, 2, 12, 13}));
  }
  {
    // SCATTER_ND, one tuple (2^62, -1): dropped as a whole.
    Scatter op(DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_INT64, {2, 3}, {1, 2}, {1, 1},
               2u, 2u);
    std::vector<uint8_t> out;
    ASSERT_TRUE(RunScatter(device, op, Bytes<int32_t>({10, 11, 12, 13, 14, 15}),
                           Bytes<int64_t>({0x4000000000000000ll, -1}), Bytes<int32_t>({1}), &out)
                    .ok());
    EXPECT_EQ(Values<int32_t>(out, 6), (std::vector<int32_t>{10, 11, 12, 13, 14, 15}));
  }
}

uint16_t Half(float f) {  // exact conversions for the values used below
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7FFFFFFF) == 0) return static_cast<uint16_t>(x >> 16);
  return static_cast<uint16_t>(((x >> 16) & 0x8000) | ((((x >> 23) & 0xFF) - 112) << 10) |
                               ((x >> 13) & 0x3FF));
}

TEST(Scatter, ReductionsRoundOnceNanAndSignedZeros) {
  Device device;
  // FLOAT16 add: 2048 + 1 + 1: each step rounds (2049 -> 2048 ties to even), so 2048 twice.
  Scatter op(DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_UINT32, {4}, {6}, {6}, 0);
  CompileOptions add;
  add.scatter_reduction = ScatterReduction::kAdd;
  std::vector<uint8_t> out;
  const uint16_t nan = 0x7D00;  // a signalling NaN: comes back quieted (0x7F00)
  ASSERT_TRUE(RunScatter(device, op,
                  Bytes<uint16_t>({Half(2048), Half(-0.0f), Half(1), Half(-0.0f)}),
                  Bytes<uint32_t>({0, 0, 1, 2, 3, 2}),
                  Bytes<uint16_t>({Half(1), Half(1), Half(-0.0f), nan, Half(0.0f), Half(5)}),
                  &out, add)
                  .ok());
  EXPECT_EQ(Values<uint16_t>(out, 4),
            (std::vector<uint16_t>{Half(2048), Half(-0.0f), 0x7F00, Half(0.0f)}));
  CompileOptions max;
  max.scatter_reduction = ScatterReduction::kMax;
  ASSERT_TRUE(RunScatter(device, op, Bytes<uint16_t>({Half(-0.0f), Half(1), Half(0.0f), Half(3)}),
                  Bytes<uint32_t>({0, 1, 1, 2, 3, 3}),
                  Bytes<uint16_t>({Half(0.0f), nan, Half(7), Half(-0.0f), Half(2), Half(4)}),
                  &out, max)
                  .ok());
  EXPECT_EQ(Values<uint16_t>(out, 4),
            (std::vector<uint16_t>{Half(0.0f), 0x7F00, Half(0.0f), Half(4)}));
  // Integers wrap.
  Scatter ints(DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_UINT32, {4}, {3}, {3}, 0);
  CompileOptions mul;
  mul.scatter_reduction = ScatterReduction::kMul;
  ASSERT_TRUE(RunScatter(device, ints, Bytes<uint8_t>({16, 3, 0, 0}), Bytes<uint32_t>({0, 0, 1}),
                  Bytes<uint8_t>({16, 2, 200}), &out, mul)
                  .ok());
  EXPECT_EQ(Values<uint8_t>(out, 4), (std::vector<uint8_t>{0, 88, 0, 0}));  // 512, 600 mod 256
}

TEST(Scatter, ReductionRejectedOutsideTheScatters) {
  Device device;
  Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {4}), idx(DML_TENSOR_DATA_TYPE_UINT32, {4}),
      out(DML_TENSOR_DATA_TYPE_FLOAT32, {4});
  DML_GATHER_ELEMENTS_OPERATOR_DESC g = {&in.desc, &idx.desc, &out.desc, 0};
  CompileOptions add;
  add.scatter_reduction = ScatterReduction::kAdd;
  auto c = device.Compile({DML_OPERATOR_GATHER_ELEMENTS, &g}, add);
  EXPECT_EQ(c.status().code(), StatusCode::kUnsupported);
  CompileOptions bad;
  uint32_t seven = 7;
  std::memcpy(&bad.scatter_reduction, &seven, 4);
  Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {4}, {2}, {2}, 0);
  c = device.Compile(op.desc, bad);
  EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument);
}

// gather∘scatter: scattering distinct rows then gathering them back gives the updates; scatter
// of gathered values at the same indices leaves the input unchanged.
TEST(Scatter, GatherScatterRoundTrips) {
  std::mt19937_64 rng(5);
  Device device(DeviceOptions{3});
  for (int iteration = 0; iteration < 20; ++iteration) {
    const uint32_t rows = 50 + rng() % 50, cols = 1 + rng() % 40, k = 1 + rng() % rows;
    std::vector<uint32_t> perm(rows);
    for (uint32_t i = 0; i < rows; ++i) perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    perm.resize(k);
    std::vector<float> base(rows * cols), upd(k * cols);
    for (auto& v : base) v = static_cast<float>(rng() % 1000);
    for (auto& v : upd) v = static_cast<float>(rng() % 1000) + 0.5f;
    Scatter sc(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {rows, cols}, {k, 1},
               {k, cols}, 2u, 2u);
    std::vector<uint8_t> scattered;
    const std::vector<uint8_t> indices = Bytes(perm);
    ASSERT_TRUE(RunScatter(device, sc, Bytes(base), indices, Bytes(upd), &scattered).ok());
    // GATHER_ND of the same rows.
    Tensor in(DML_TENSOR_DATA_TYPE_FLOAT32, {rows, cols}), idx(DML_TENSOR_DATA_TYPE_UINT32, {k, 1}),
        out(DML_TENSOR_DATA_TYPE_FLOAT32, {k, cols});
    DML_GATHER_ND_OPERATOR_DESC g = {&in.desc, &idx.desc, &out.desc, 2, 2};
    auto gather = device.Compile({DML_OPERATOR_GATHER_ND, &g});
    ASSERT_TRUE(gather.ok());
    std::vector<uint8_t> gathered(out.bytes());
    ASSERT_TRUE(gather->Execute({{scattered.data(), scattered.size()}, {indices.data(), indices.size()}},
                                {{gathered.data(), gathered.size()}})
                    .ok());
    EXPECT_EQ(Values<float>(gathered, k * cols), upd);
    // scatter(base, idx, gather(base, idx)) == base.
    std::vector<uint8_t> base_bytes = Bytes(base), gathered_base(out.bytes()), restored;
    ASSERT_TRUE(gather->Execute({{base_bytes.data(), base_bytes.size()}, {indices.data(), indices.size()}},
                                {{gathered_base.data(), gathered_base.size()}})
                    .ok());
    ASSERT_TRUE(RunScatter(device, sc, base_bytes, indices, gathered_base, &restored).ok());
    EXPECT_EQ(restored, base_bytes);
  }
}

struct BadCase {
  const char* name;
  std::string expected;
};

TEST(Scatter, ValidationMessages) {
  Device device;
  {
    Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {4, 3}, {2, 3}, {2, 3},
               2);
    EXPECT_EQ(device.Compile(op.desc).status().message(),
              "SCATTER_ELEMENTS: Axis is 2, expected < 2 (InputTensor.DimensionCount)");
  }
  {
    Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {4, 3}, {2, 2}, {2, 2},
               0);
    EXPECT_EQ(device.Compile(op.desc).status().message(),
              "SCATTER_ELEMENTS: IndicesTensor.Sizes[1] is 2, expected 3 (InputTensor.Sizes[1]; "
              "only the Axis dimension may differ)");
  }
  {
    Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {4, 3}, {2, 3}, {2, 2},
               0);
    EXPECT_NE(device.Compile(op.desc).status().message().find(
                  "SCATTER_ELEMENTS: UpdatesTensor.Sizes[1] is 2, expected 3 "
                  "(IndicesTensor.Sizes[1])"),
              std::string::npos)
        << device.Compile(op.desc).status().message();
  }
  {
    Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT32, {4}, {2}, {2}, 0);
    EXPECT_NE(device.Compile(op.desc).status().message().find(
                  "IndicesTensor.DataType is 1 (FLOAT32), expected INT32"),
              std::string::npos);
  }
  {
    Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {4, 3}, {2, 3}, {2, 3},
               0);
    op.updates.buffer.DataType = DML_TENSOR_DATA_TYPE_INT32;
    EXPECT_NE(device.Compile(op.desc).status().message().find(
                  "SCATTER_ELEMENTS: UpdatesTensor.DataType is 6 (INT32), expected 1 (FLOAT32"),
              std::string::npos)
        << device.Compile(op.desc).status().message();
  }
  {  // tuple longer than InputDimensionCount (takes DirectML 1.15.2 down)
    Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {1, 4}, {1, 2}, {1, 1},
               1u, 2u);
    EXPECT_EQ(device.Compile(op.desc).status().message(),
              "SCATTER_ND: IndicesTensor.Sizes[1] (the index tuple size) is 2, expected in [1, 1] "
              "(InputDimensionCount)");
  }
  {
    Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {3, 4}, {2, 1}, {2, 3},
               2u, 2u);
    EXPECT_NE(device.Compile(op.desc).status().message().find(
                  "SCATTER_ND: UpdatesTensor.Sizes[1] is 3, expected 4 (InputTensor.Sizes[1])"),
              std::string::npos)
        << device.Compile(op.desc).status().message();
  }
  {
    Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {3, 4}, {2, 1}, {2, 4},
               0u, 2u);
    EXPECT_EQ(device.Compile(op.desc).status().message(),
              "SCATTER_ND: InputDimensionCount is 0, expected in [1, 2] "
              "(InputTensor.DimensionCount)");
  }
  {
    Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {3, 4}, {2, 1}, {2, 4},
               2u, 2u);
    op.output.sizes = {3, 5};
    op.output.buffer.TotalTensorSizeInBytes = 60;
    EXPECT_NE(device.Compile(op.desc).status().message().find(
                  "OutputTensor.Sizes[1] is 5, expected 4 (InputTensor.Sizes[1])"),
              std::string::npos);
  }
  {
    Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {3, 4}, {2, 1}, {2, 4},
               2u, 2u);
    op.nd.UpdatesTensor = nullptr;
    EXPECT_EQ(device.Compile(op.desc).status().message(),
              "SCATTER_ND: UpdatesTensor is null, expected a non-null pointer");
  }
  {
    Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {3, 4}, {2, 1}, {2, 4},
               2u, 3u);
    EXPECT_EQ(device.Compile(op.desc).status().message(),
              "SCATTER_ND: IndicesDimensionCount is 3, expected in [1, 2] "
              "(IndicesTensor.DimensionCount)");
  }
  {  // r = 1: the leading input dimension must be 1
    Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {3, 4}, {2, 1}, {1, 2},
               1u, 2u);
    EXPECT_EQ(device.Compile(op.desc).status().message(),
              "SCATTER_ND: InputTensor.Sizes[0] is 3, expected 1: only the last "
              "InputDimensionCount (1) dimensions are real");
  }
  {  // q = r = N = 3, t = 1: the updates would need (q - 1) + (r - t) = 4 dimensions
    Scatter op(DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT32, {2, 3, 4}, {2, 2, 1},
               {2, 2, 3}, 3u, 3u);
    EXPECT_EQ(device.Compile(op.desc).status().message(),
              "SCATTER_ND: the updates need 4 dimensions ((IndicesDimensionCount - 1) + "
              "(InputDimensionCount - tuple size 1)), expected <= 3 "
              "(UpdatesTensor.DimensionCount)");
  }
}

}  // namespace
