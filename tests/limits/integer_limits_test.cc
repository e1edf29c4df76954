// SPDX-License-Identifier: Apache-2.0
// Integer limits (issue 5): element counts beyond 2^31 and 2^32 through broadcast (0) strides,
// index values near 2^32 and 2^64, byte spans that overflow 64 bits and TotalTensorSizeInBytes
// near 2^64. Every case either plans and runs correctly (checked against the naive reference) or
// is refused with a message naming the tensor; nothing wraps around. Byte offsets beyond 4 GiB
// are covered by HugeOffsetTest.ByteOffsetsBeyondFourGiB (operators_test).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/dmlcpu.h"
#include "gtest/gtest.h"
#include "reference/reference.h"

namespace {

using dmlcpu::IndexPolicy;
using dmlcpu::StatusCode;

struct Tensor {
  Tensor(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> s, std::vector<uint32_t> st = {})
      : sizes(std::move(s)), strides(std::move(st)) {
    buffer.DataType = type;
    buffer.DimensionCount = static_cast<uint32_t>(sizes.size());
    buffer.Sizes = sizes.data();
    buffer.Strides = strides.empty() ? nullptr : strides.data();
    buffer.TotalTensorSizeInBytes = dmlcpu_test::MinimumTensorSizeBytes(
        type, buffer.DimensionCount, sizes.data(), buffer.Strides);
    desc = {DML_TENSOR_TYPE_BUFFER, &buffer};
  }
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  uint64_t total_bytes() const { return buffer.TotalTensorSizeInBytes; }

  std::vector<uint32_t> sizes;
  std::vector<uint32_t> strides;
  DML_BUFFER_TENSOR_DESC buffer{};
  DML_TENSOR_DESC desc{};
};

// GATHER from a FLOAT32 {65536, 65536} input whose rows all alias one row (strides {0, 1}):
// 2^32 logical elements (16 GiB as packed data) in 256 KiB. Axis 1 selects columns.
TEST(IntegerLimitsTest, GatherFromFourGigaElementBroadcastInput) {
  Tensor input(DML_TENSOR_DATA_TYPE_FLOAT32, {65536, 65536}, {0, 1});
  ASSERT_EQ(input.total_bytes(), 65536u * 4);
  for (uint32_t axis : {0u, 1u}) {
    SCOPED_TRACE(axis);
    // Axis 0: output {5, 65536}; axis 1: output {65536, 5} (1.25 MiB each).
    Tensor indices(DML_TENSOR_DATA_TYPE_INT64, {1, 5});
    Tensor output(DML_TENSOR_DATA_TYPE_FLOAT32,
                  axis == 0 ? std::vector<uint32_t>{5, 65536} : std::vector<uint32_t>{65536, 5});
    DML_GATHER_OPERATOR_DESC gather{&input.desc, &indices.desc, &output.desc, axis, 1};
    const DML_OPERATOR_DESC desc{DML_OPERATOR_GATHER, &gather};
    std::vector<float> in(65536);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
    // In range, the last element, and values that would land in range if truncated to 32 bits.
    const std::vector<int64_t> idx = {0, 65535, int64_t{1} << 32, (int64_t{1} << 32) + 7, -1};
    for (IndexPolicy policy : {IndexPolicy::kClamp, IndexPolicy::kStrict}) {
      dmlcpu::Device device;
      auto op = device.Compile(desc, {policy});
      ASSERT_TRUE(op.ok()) << op.status().message();
      std::vector<float> out(output.total_bytes() / 4, -1.0f), want(out.size(), -1.0f);
      const dmlcpu::Status s = op->Execute({{in.data(), input.total_bytes()},
                                            {idx.data(), indices.total_bytes()}},
                                           {{out.data(), output.total_bytes()}});
      const void* ptrs[2] = {in.data(), idx.data()};
      void* const want_ptrs[1] = {want.data()};
      const dmlcpu_test::ReferenceResult ref = dmlcpu_test::RunReference(desc, ptrs, want_ptrs);
      ASSERT_TRUE(ref.ok) << ref.error;
      ASSERT_TRUE(ref.index_out_of_range);
      if (policy == IndexPolicy::kStrict) {
        EXPECT_EQ(s.code(), StatusCode::kOutOfRange) << s.message();
        EXPECT_NE(s.message().find("4294967296"), std::string::npos) << s.message();
        EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](float v) { return v == -1.0f; }));
      } else {
        ASSERT_TRUE(s.ok()) << s.message();
        EXPECT_EQ(out, want);
        // 2^32 clamps to 65535, never wraps to 0.
        EXPECT_EQ(axis == 0 ? out[2 * 65536 + 3] : out[3 * 5 + 2], axis == 0 ? 3.0f : 65535.0f);
      }
    }
  }
}

// SLICE1 over a broadcast {65536, 65536, 2} input (2^33 logical elements) with a reversed window.
TEST(IntegerLimitsTest, SliceOfEightGigaElementBroadcastInput) {
  Tensor input(DML_TENSOR_DATA_TYPE_UINT8, {65536, 65536, 2}, {0, 0, 1});
  Tensor output(DML_TENSOR_DATA_TYPE_UINT8, {3, 2, 2});
  const uint32_t offsets[3] = {65533, 0, 0};
  const uint32_t sizes[3] = {3, 65536, 2};
  const int32_t strides[3] = {-1, 32768, 1};
  DML_SLICE1_OPERATOR_DESC slice{&input.desc, &output.desc, 3, offsets, sizes, strides};
  const DML_OPERATOR_DESC desc{DML_OPERATOR_SLICE1, &slice};
  dmlcpu::Device device;
  auto op = device.Compile(desc);
  ASSERT_TRUE(op.ok()) << op.status().message();
  const uint8_t in[4] = {7, 9, 0, 0};
  std::vector<uint8_t> out(output.total_bytes(), 0xEE), want(out.size(), 0xEE);
  ASSERT_TRUE(op->Execute({{in, input.total_bytes()}}, {{out.data(), out.size()}}).ok());
  const void* ptrs[1] = {in};
  void* const want_ptrs[1] = {want.data()};
  ASSERT_TRUE(dmlcpu_test::RunReference(desc, ptrs, want_ptrs).ok);
  EXPECT_EQ(out, want);
}

// Index values that only look in range after truncation to 32 bits, per index type.
TEST(IntegerLimitsTest, IndexValuesNeverTruncateToThirtyTwoBits) {
  Tensor input(DML_TENSOR_DATA_TYPE_INT32, {1, 8});
  const int32_t in[8] = {10, 11, 12, 13, 14, 15, 16, 17};
  struct Case {
    DML_TENSOR_DATA_TYPE type;
    uint64_t value;
    int32_t clamped;
  };
  const Case cases[] = {
      {DML_TENSOR_DATA_TYPE_INT64, (uint64_t{1} << 32) + 2, 17},
      {DML_TENSOR_DATA_TYPE_INT64, static_cast<uint64_t>(-(int64_t{1} << 32) + 2), 17},
      {DML_TENSOR_DATA_TYPE_UINT64, (uint64_t{1} << 63) + 1, 17},
      {DML_TENSOR_DATA_TYPE_UINT64, ~uint64_t{0}, 17},
      {DML_TENSOR_DATA_TYPE_UINT32, 0xFFFFFFFFu, 17},  // unsigned: not -1
      {DML_TENSOR_DATA_TYPE_INT32, 0x80000000u, 17},   // INT32_MIN + 8 is still < -8
      {DML_TENSOR_DATA_TYPE_INT64, static_cast<uint64_t>(std::numeric_limits<int64_t>::min()), 17},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(dmlcpu_test::DataTypeName(c.type) + std::string(" ") + std::to_string(c.value));
    Tensor indices(c.type, {1, 1});
    Tensor output(DML_TENSOR_DATA_TYPE_INT32, {1, 1});
    DML_GATHER_OPERATOR_DESC gather{&input.desc, &indices.desc, &output.desc, 1, 1};
    const DML_OPERATOR_DESC desc{DML_OPERATOR_GATHER, &gather};
    uint64_t idx[1] = {c.value};
    for (IndexPolicy policy : {IndexPolicy::kClamp, IndexPolicy::kStrict}) {
      dmlcpu::Device device(dmlcpu::DeviceOptions{1, nullptr});
      auto op = device.Compile(desc, {policy});
      ASSERT_TRUE(op.ok()) << op.status().message();
      int32_t out[1] = {-1};
      const dmlcpu::Status s =
          op->Execute({{in, input.total_bytes()}, {idx, sizeof(idx)}}, {{out, sizeof(out)}});
      if (policy == IndexPolicy::kStrict) {
        EXPECT_EQ(s.code(), StatusCode::kOutOfRange) << s.message();
        EXPECT_EQ(out[0], -1);
      } else {
        ASSERT_TRUE(s.ok()) << s.message();
        EXPECT_EQ(out[0], c.clamped);
      }
    }
  }
}

// Spans whose element or byte count overflows 64 bits are refused at Compile, never wrapped.
TEST(IntegerLimitsTest, SixtyFourBitOverflowingSpansAreRefused) {
  struct Case {
    const char* name;
    DML_TENSOR_DATA_TYPE type;
    std::vector<uint32_t> sizes;
    std::vector<uint32_t> strides;
  };
  const Case cases[] = {
      // Packed element count 2^128.
      {"packed 65536^8", DML_TENSOR_DATA_TYPE_FLOAT32, std::vector<uint32_t>(8, 65536), {}},
      // Σ(size−1)·stride = 2^61 elements: 2^64 bytes for 8-byte elements.
      {"bytes 2^64", DML_TENSOR_DATA_TYPE_FLOAT64, {(1u << 30) + 1}, {1u << 31}},
      // Σ over 8 dims of (2^32−1)^2 overflows 64 bits in elements.
      {"sum of products", DML_TENSOR_DATA_TYPE_UINT8, std::vector<uint32_t>(8, 0xFFFFFFFFu),
       std::vector<uint32_t>(8, 0xFFFFFFFFu)},
      // Packed 2^32 × 2^32 − ... element count beyond 2^63 in two dims of 2^32 − 1.
      {"2 x (2^32-1)", DML_TENSOR_DATA_TYPE_FLOAT64, {0xFFFFFFFFu, 0xFFFFFFFFu}, {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<uint32_t> out_sizes(c.sizes.size(), 1);
    const uint32_t n = static_cast<uint32_t>(c.sizes.size());
    DML_BUFFER_TENSOR_DESC in_b{c.type, DML_TENSOR_FLAG_NONE, n, c.sizes.data(),
                                c.strides.empty() ? nullptr : c.strides.data(),
                                ~uint64_t{0} - 3, 0};
    Tensor output(c.type, out_sizes);
    const DML_TENSOR_DESC in_t{DML_TENSOR_TYPE_BUFFER, &in_b};
    std::vector<uint32_t> offsets(n, 0), windows(n, 1);
    std::vector<int32_t> strides(n, 1);
    DML_SLICE1_OPERATOR_DESC slice{&in_t, &output.desc, n, offsets.data(), windows.data(),
                                   strides.data()};
    dmlcpu::Device device;
    auto op = device.Compile({DML_OPERATOR_SLICE1, &slice});
    ASSERT_FALSE(op.ok());
    EXPECT_EQ(op.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(op.status().message().find("SLICE1: "), std::string::npos) << op.status().message();
    EXPECT_NE(op.status().message().find("InputTensor"), std::string::npos)
        << op.status().message();
    EXPECT_EQ(dmlcpu::CalcBufferTensorSize(c.type, n, c.sizes.data(),
                                           c.strides.empty() ? nullptr : c.strides.data()),
              0u);
  }
}

// A TotalTensorSizeInBytes near 2^64 either is refused at Compile or, at Execute, an output
// placed inside the claimed input range is refused: the range end must not wrap past 2^64.
// DISABLED until the library fix: Execute computes in_begin + TotalTensorSizeInBytes without an
// overflow check (lib/api/device.cc, the overlap loop), so a total of 2^64 - 4 wraps the input
// range end below its start and an output inside the claimed input range is accepted.
TEST(IntegerLimitsTest, TotalTensorSizeNearTwoToSixtyFourNeverWrapsTheOverlapCheck) {
  for (uint64_t total : {uint64_t{1} << 63, ~uint64_t{0} - 3}) {
    SCOPED_TRACE(total);
    Tensor input(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 4});
    input.buffer.TotalTensorSizeInBytes = total;
    Tensor output(DML_TENSOR_DATA_TYPE_FLOAT32, {1, 4});
    const uint32_t offsets[2] = {0, 0}, sizes[2] = {1, 4};
    const int32_t strides[2] = {1, 1};
    DML_SLICE1_OPERATOR_DESC slice{&input.desc, &output.desc, 2, offsets, sizes, strides};
    dmlcpu::Device device;
    auto op = device.Compile({DML_OPERATOR_SLICE1, &slice});
    if (!op.ok()) {
      EXPECT_NE(op.status().message().find("InputTensor.TotalTensorSizeInBytes"),
                std::string::npos) << op.status().message();
      continue;
    }
    alignas(16) float buffer[16] = {1, 2, 3, 4};
    float* out = buffer + 8;  // inside the input's claimed [buffer, buffer + total) range
    const dmlcpu::Status s = op->Execute({{buffer, ~uint64_t{0}}}, {{out, 16}});
    EXPECT_FALSE(s.ok()) << "output inside the claimed input range was accepted";
    EXPECT_EQ(out[0], 0.0f);
  }
}

}  // namespace
