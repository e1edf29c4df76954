// SPDX-License-Identifier: Apache-2.0
// Validation of index tensors (types, the strict policy's first bad index, clamp never failing)
// and of the operator type itself (docs/semantics.md#index-tensors, #out-of-range-indices and
// #operator-descriptions).
#include <cstdint>
#include <string>
#include <vector>

#include "validation/validation_cases.h"

namespace dmlcpu {
namespace validation_test {
namespace {

// ================================================================================================
// Index tensors (docs/semantics.md#index-tensors) and the strict index policy.

class IndexRulesTest : public ::testing::TestWithParam<DML_OPERATOR_TYPE> {
 protected:
  OpCase Base() const { return BaseCase(GetParam()); }
  std::string op() const { return Op(GetParam()); }
};

TEST_P(IndexRulesTest, NonIndexDataTypeIsRejected) {
  for (DML_TENSOR_DATA_TYPE type :
       {kF32, kF16, DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_INT16,
        DML_TENSOR_DATA_TYPE_UINT16, DML_TENSOR_DATA_TYPE_INT8, kU8}) {
    OpCase c = Base();
    c.indices.data_type = type;
    SCOPED_TRACE(DataTypeName(type));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                 DataTypeIs("IndicesTensor", type));
  }
}

TEST_P(IndexRulesTest, EveryIndexDataTypeIsAccepted) {
  for (DML_TENSOR_DATA_TYPE type : {kI32, kI64, kU32, kU64}) {
    OpCase c = Base();
    c.indices.data_type = type;
    SCOPED_TRACE(DataTypeName(type));
    ExpectRunsAndMatches(c);
  }
}

// A base case whose index at flat position `position` is replaced by `value`, plus the message
// fragments strict mode must produce for it.
struct BadIndexCase {
  OpCase c;
  std::string position;     // "IndicesTensor element 5"
  std::string coordinates;  // "{0,5}"
  std::string range;        // "[-4, 3]"
};

// Size D of the dimension the replaced index (see MakeBadIndexCase) addresses.
int64_t BadIndexDimension(DML_OPERATOR_TYPE type) {
  return type == DML_OPERATOR_GATHER_ELEMENTS ? 3 : 2;
}

BadIndexCase MakeBadIndexCase(DML_OPERATOR_TYPE type, DML_TENSOR_DATA_TYPE index_type,
                              int64_t value) {
  BadIndexCase bad;
  bad.c = BaseCase(type);
  bad.c.indices.data_type = index_type;
  const bool is_signed = index_type == kI32 || index_type == kI64;
  uint64_t position = 0;
  const int64_t dimension = BadIndexDimension(type);
  switch (type) {
    case DML_OPERATOR_GATHER:  // Indices {1,2}, Input[Axis 1] = 2.
      position = 1;
      bad.coordinates = "{0,1}";
      break;
    case DML_OPERATOR_GATHER_ELEMENTS:  // Indices {2,3}, Input[Axis 0] = 3.
      position = 4;
      bad.coordinates = "{1,1}";
      break;
    case DML_OPERATOR_GATHER_ND:  // Indices {2,1}: element 1 addresses Input dim 0 (2).
      position = 1;
      bad.coordinates = "{1,0}";
      break;
    default:  // GATHER_ND1 ND1-2: element 5 is tuple component 1, addressing Input dim 3 (2).
      position = 5;
      bad.coordinates = "{0,1,0,1}";
      break;
  }
  bad.c.indices.values[position] = value;
  bad.position = "IndicesTensor element " + std::to_string(position);
  bad.range = "[" + std::to_string(is_signed ? -dimension : 0) + ", " +
              std::to_string(dimension - 1) + "]";
  return bad;
}

TEST_P(IndexRulesTest, StrictOutOfRangeIndexIsReported) {
  struct Probe {
    DML_TENSOR_DATA_TYPE type;
    int64_t value;
    std::string printed;
  };
  const int64_t d = BadIndexDimension(GetParam());
  const Probe probes[] = {
      {kI32, d, std::to_string(d)},                // one past the end
      {kI32, -d - 1, std::to_string(-d - 1)},      // one before -D
      {kI32, INT32_MIN, "-2147483648"},
      {kI64, INT64_MIN, "-9223372036854775808"},
      {kI64, 1000000000000, "1000000000000"},
      {kU32, d, std::to_string(d)},
      {kU32, 0xFFFFFFFF, "4294967295"},
      {kU64, INT64_MIN, "9223372036854775808"},  // 2^63 read as unsigned
  };
  CompileOptions strict;
  strict.index_policy = IndexPolicy::kStrict;
  for (const Probe& p : probes) {
    BadIndexCase bad = MakeBadIndexCase(GetParam(), p.type, p.value);
    SCOPED_TRACE(std::string(DataTypeName(p.type)) + " " + p.printed);
    auto op = CompileCase(bad.c, strict);
    ASSERT_OK(op.status());
    CaseBuffers buffers(bad.c);
    EXPECT_ERROR(ExecuteCase(*op, buffers), StatusCode::kOutOfRange, this->op(), bad.position,
                 bad.coordinates, "is " + p.printed, bad.range);
    EXPECT_TRUE(buffers.output.AllEqual(kSentinel)) << "output written despite the error";
  }
}

TEST_P(IndexRulesTest, StrictInRangeNegativeIndexIsAccepted) {
  // -D .. -1 are valid for signed index types: the strict result equals the clamp result.
  OpCase c = Base();
  c.indices.data_type = kI64;
  const std::vector<int64_t> original = c.indices.values;
  int64_t dimension = 0;
  switch (GetParam()) {
    case DML_OPERATOR_GATHER: dimension = 2; break;
    case DML_OPERATOR_GATHER_ELEMENTS: dimension = 3; break;
    default: dimension = 2; break;  // every tuple component addresses a dimension of 2
  }
  for (int64_t& v : c.indices.values) v -= dimension;
  CompileOptions strict;
  strict.index_policy = IndexPolicy::kStrict;
  auto op = CompileCase(c, strict);
  ASSERT_OK(op.status());
  CaseBuffers buffers(c);
  ASSERT_OK(ExecuteCase(*op, buffers));
  EXPECT_EQ(ReadOutput(c.output, buffers.output), c.output.values);
}

TEST_P(IndexRulesTest, ClampPolicyNeverFailsOnOutOfRangeIndex) {
  for (int64_t value : {int64_t{7}, int64_t{-7}, int64_t{INT32_MAX}, int64_t{INT32_MIN}}) {
    BadIndexCase bad = MakeBadIndexCase(GetParam(), kI32, value);
    SCOPED_TRACE(value);
    auto op = CompileCase(bad.c);
    ASSERT_OK(op.status());
    CaseBuffers buffers(bad.c);
    EXPECT_OK(ExecuteCase(*op, buffers));
    EXPECT_FALSE(buffers.output.AllEqual(kSentinel)) << "clamp mode wrote nothing";
  }
}

// A large operator (megabytes moved, so the executor splits it) with `count` INT32 indices, all
// valid; position p of the indices tensor has coordinates coordinates(p).
struct LargeCase {
  OpCase c;
  uint64_t count = 0;
  int64_t dimension = 0;
  std::string (*coordinates)(uint64_t) = nullptr;
};

LargeCase MakeLargeCase(DML_OPERATOR_TYPE type) {
  LargeCase large;
  OpCase& c = large.c;
  c.type = type;
  switch (type) {
    case DML_OPERATOR_GATHER: {  // Axis 0 of {1000,64}: Out {16384,64}.
      large.count = 16384;
      large.dimension = 1000;
      c.input = Tensor(kF32, {1000, 64}, Iota(0, 64000));
      c.indices = Tensor(kI32, {1, 16384});
      c.output = Tensor(kF32, {16384, 64});
      c.axis = 0;
      c.index_dimensions = 1;
      large.coordinates = [](uint64_t p) { return "{0," + std::to_string(p) + "}"; };
      break;
    }
    case DML_OPERATOR_GATHER_ELEMENTS: {  // Axis 1 of {512,512}.
      large.count = 512 * 512;
      large.dimension = 512;
      c.input = Tensor(kF32, {512, 512}, Iota(0, 512 * 512));
      c.indices = Tensor(kI32, {512, 512});
      c.output = Tensor(kF32, {512, 512});
      c.axis = 1;
      large.coordinates = [](uint64_t p) {
        return "{" + std::to_string(p / 512) + "," + std::to_string(p % 512) + "}";
      };
      break;
    }
    case DML_OPERATOR_GATHER_ND: {  // r 2, q 2, t 1: Out {16384,64}.
      large.count = 16384;
      large.dimension = 1000;
      c.input = Tensor(kF32, {1000, 64}, Iota(0, 64000));
      c.indices = Tensor(kI32, {16384, 1});
      c.output = Tensor(kF32, {16384, 64});
      c.input_dimension_count = 2;
      c.indices_dimension_count = 2;
      large.coordinates = [](uint64_t p) { return "{" + std::to_string(p) + ",0}"; };
      break;
    }
    default: {  // GATHER_ND1, r 3, q 3, b 1, t 1: Out {4,4096,64}.
      large.count = 4 * 4096;
      large.dimension = 250;
      c.input = Tensor(kF32, {4, 250, 64}, Iota(0, 64000));
      c.indices = Tensor(kI32, {4, 4096, 1});
      c.output = Tensor(kF32, {4, 4096, 64});
      c.input_dimension_count = 3;
      c.indices_dimension_count = 3;
      c.batch_dimension_count = 1;
      large.coordinates = [](uint64_t p) {
        return "{" + std::to_string(p / 4096) + "," + std::to_string(p % 4096) + ",0}";
      };
      break;
    }
  }
  c.indices.values.resize(large.count);
  for (uint64_t i = 0; i < large.count; ++i) {
    c.indices.values[i] = static_cast<int64_t>((i * 7919) % large.dimension);
  }
  return large;
}

TEST_P(IndexRulesTest, StrictFirstBadIndexIsTheSameForEveryThreadCount) {
  const LargeCase base = MakeLargeCase(GetParam());
  const uint64_t n = base.count;
  // Sets of bad positions; the reported one must be the lowest. The later ones sit in what
  // would be other threads' chunks.
  const std::vector<std::vector<uint64_t>> bad_sets = {
      {0}, {n / 2}, {n - 1}, {n - 1, n / 2 + 1}, {n * 3 / 4, n / 4}, {n - 1, n / 3, 1}};
  CompileOptions strict;
  strict.index_policy = IndexPolicy::kStrict;
  std::vector<std::unique_ptr<Device>> devices;
  for (uint32_t threads : {1u, 2u, 8u}) {
    DeviceOptions options;
    options.max_threads = threads;
    devices.push_back(std::make_unique<Device>(options));
  }
  for (const std::vector<uint64_t>& bad_positions : bad_sets) {
    OpCase c = base.c;
    for (size_t k = 0; k < bad_positions.size(); ++k) {
      // Alternate too-large and too-negative values.
      c.indices.values[bad_positions[k]] =
          k % 2 == 0 ? base.dimension + static_cast<int64_t>(k) : -base.dimension - 1;
    }
    const uint64_t first = *std::min_element(bad_positions.begin(), bad_positions.end());
    const int64_t first_value = c.indices.values[first];
    std::string first_message;
    for (size_t t = 0; t < devices.size(); ++t) {
      SCOPED_TRACE("first bad position " + std::to_string(first) + ", device " +
                   std::to_string(t));
      auto op = CompileCase(c, strict, *devices[t]);
      ASSERT_OK(op.status());
      CaseBuffers buffers(c);
      const Status status = ExecuteCase(*op, buffers);
      EXPECT_ERROR(status, StatusCode::kOutOfRange, this->op(),
                   "IndicesTensor element " + std::to_string(first) + " ",
                   base.coordinates(first), "is " + std::to_string(first_value));
      EXPECT_TRUE(buffers.output.AllEqual(kSentinel)) << "output written despite the error";
      if (t == 0) {
        first_message = status.message();
      } else {
        EXPECT_EQ(status.message(), first_message);
      }
    }
  }
}

TEST_P(IndexRulesTest, StrictValidLargeOperatorMatchesClamp) {
  // The strict checks must not change results when every index is valid.
  const LargeCase large = MakeLargeCase(GetParam());
  CompileOptions strict;
  strict.index_policy = IndexPolicy::kStrict;
  auto strict_op = CompileCase(large.c, strict);
  auto clamp_op = CompileCase(large.c);
  ASSERT_OK(strict_op.status());
  ASSERT_OK(clamp_op.status());
  CaseBuffers strict_buffers(large.c);
  CaseBuffers clamp_buffers(large.c);
  ASSERT_OK(ExecuteCase(*strict_op, strict_buffers));
  ASSERT_OK(ExecuteCase(*clamp_op, clamp_buffers));
  EXPECT_EQ(std::memcmp(strict_buffers.output.data(), clamp_buffers.output.data(),
                        strict_buffers.output.size_bytes()),
            0);
  EXPECT_FALSE(strict_buffers.output.AllEqual(kSentinel));
}

INSTANTIATE_TEST_SUITE_P(GatherOperators, IndexRulesTest, ::testing::ValuesIn(kGatherOperators),
                         OperatorTestName);

// ================================================================================================
// Operator types.

TEST(OperatorTypeTest, UnknownOperatorTypeIsRejected) {
  for (uint32_t type : {9999u, 178u, 0xFFFFFFFFu}) {
    OpCase c = GatherCase();
    c.raw_type = type;
    SCOPED_TRACE(type);
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument,
                 "Type is " + std::to_string(type));
  }
}

TEST(OperatorTypeTest, InvalidOperatorTypeIsRejected) {
  OpCase c = GatherCase();
  c.raw_type = DML_OPERATOR_INVALID;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "Type is 0");
}

TEST(OperatorTypeTest, UnimplementedDirectMLOperatorIsUnsupported) {
  struct Probe {
    DML_OPERATOR_TYPE type;
    const char* name;
  };
  // Valid DirectML operator types dmlcpu does not implement; the desc is never looked at.
  const Probe probes[] = {{DML_OPERATOR_ELEMENT_WISE_ABS, "ELEMENT_WISE_ABS"},
                          {DML_OPERATOR_CONVOLUTION, "CONVOLUTION"},
                          {DML_OPERATOR_GEMM, "GEMM"},
                          {DML_OPERATOR_UNFOLD, "UNFOLD"}};
  for (const Probe& p : probes) {
    OpCase c = GatherCase();
    c.raw_type = p.type;
    SCOPED_TRACE(p.name);
    EXPECT_ERROR(CompileStatus(c), StatusCode::kUnsupported,
                 "Type is " + std::to_string(p.type));
  }
}

}  // namespace
}  // namespace validation_test
}  // namespace dmlcpu
