// SPDX-License-Identifier: Apache-2.0
// ELEMENT_WISE_IDENTITY, JOIN, SPLIT and TILE end to end: the worked examples of
// docs/semantics.md#element_wise_identity-join-split-tile, the planner's choices that the
// performance targets rely on (Describe), and seeded random cases against the naive reference
// (ranks 1-8, widths 1/2/4/8, packed / padded / permuted / broadcast inputs, padded and permuted
// outputs whose gaps must keep their sentinel, misaligned buffers, 1, 2 and 8 threads).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/dmlcpu.h"
#include "reference/reference.h"
#include "support/tester.h"

namespace dmlcpu_test {
namespace {

constexpr DML_TENSOR_DATA_TYPE kFloat32 = DML_TENSOR_DATA_TYPE_FLOAT32;

const std::vector<const dmlcpu::Device*>& Devices() {
  static const dmlcpu::Device serial(dmlcpu::DeviceOptions{1, nullptr});
  static const dmlcpu::Device two(dmlcpu::DeviceOptions{2, nullptr});
  static const dmlcpu::Device many(dmlcpu::DeviceOptions{8, nullptr});
  static const std::vector<const dmlcpu::Device*> devices{&serial, &two, &many};
  return devices;
}

using Holder = std::unique_ptr<TensorDescHolder>;

Holder Make(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> sizes,
            std::vector<uint32_t> strides = {}) {
  return std::make_unique<TensorDescHolder>(type, std::move(sizes), std::move(strides));
}

// One operator with its tensors: inputs and outputs in binding order, each with its misalignment.
struct Case {
  DML_OPERATOR_DESC op{};
  std::vector<const TensorDescHolder*> inputs;
  std::vector<const TensorDescHolder*> outputs;
  uint32_t misalign_bytes = 0;
  uint64_t binding_extra_bytes = 0;
  std::string description;
};

// Runs `c` on every device and on the reference from the same random inputs: every output binding
// must equal the reference's over its whole region (elements, gaps, tail and guards, all
// pre-filled with the sentinel), and the inputs must come back unchanged.
void RunAndCompare(const Case& c, uint64_t seed) {
  SCOPED_TRACE(c.description + " seed=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::vector<GuardedBuffer> inputs;
  std::vector<std::vector<uint8_t>> snapshots;
  std::vector<const void*> input_ptrs;
  std::vector<dmlcpu::Binding> bindings;
  for (const TensorDescHolder* t : c.inputs) {
    inputs.emplace_back(t->total_bytes() + c.binding_extra_bytes, c.misalign_bytes);
    inputs.back().FillSentinel();
    inputs.back().FillRandom(rng);
    snapshots.push_back(inputs.back().RegionCopy());
  }
  for (GuardedBuffer& b : inputs) {
    input_ptrs.push_back(b.data());
    bindings.push_back({b.data(), b.size_bytes()});
  }
  std::vector<GuardedBuffer> expected;
  std::vector<void*> expected_ptrs;
  for (const TensorDescHolder* t : c.outputs) {
    expected.emplace_back(t->total_bytes() + c.binding_extra_bytes, c.misalign_bytes);
    expected.back().FillSentinel();
  }
  for (GuardedBuffer& b : expected) expected_ptrs.push_back(b.data());
  const ReferenceResult ref = RunReference(c.op, input_ptrs.data(), expected_ptrs.data());
  ASSERT_TRUE(ref.ok) << ref.error;

  for (const dmlcpu::Device* device : Devices()) {
    dmlcpu::StatusOr<dmlcpu::CompiledOperator> op = device->Compile(c.op);
    ASSERT_TRUE(op.ok()) << op.status().message();
    std::vector<GuardedBuffer> got;
    std::vector<dmlcpu::OutputBinding> out_bindings;
    for (const TensorDescHolder* t : c.outputs) {
      got.emplace_back(t->total_bytes() + c.binding_extra_bytes, c.misalign_bytes);
      got.back().FillSentinel();
    }
    for (GuardedBuffer& b : got) out_bindings.push_back({b.data(), b.size_bytes()});
    const dmlcpu::Status s =
        op->Execute(bindings.data(), bindings.size(), out_bindings.data(), out_bindings.size());
    ASSERT_TRUE(s.ok()) << s.message();
    for (size_t k = 0; k < got.size(); ++k) {
      ASSERT_TRUE(got[k].RegionEquals(expected[k].RegionCopy()))
          << "output " << k << " differs from the reference, threads "
          << device->max_concurrency() << "\n"
          << op->Describe();
    }
    for (size_t k = 0; k < inputs.size(); ++k) {
      ASSERT_TRUE(inputs[k].RegionEquals(snapshots[k])) << "input " << k << " was modified";
    }
  }
}

// Packed FLOAT32 example: inputs' values in, expected values per output.
void ExpectExample(const Case& c, const std::vector<std::vector<float>>& in,
                   const std::vector<std::vector<float>>& want) {
  std::vector<GuardedBuffer> inputs;
  std::vector<dmlcpu::Binding> bindings;
  std::vector<const void*> input_ptrs;
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    inputs.emplace_back(c.inputs[k]->total_bytes(), 0);
    inputs.back().FillSentinel();
    std::memcpy(inputs.back().data(), in[k].data(), in[k].size() * sizeof(float));
  }
  for (GuardedBuffer& b : inputs) {
    bindings.push_back({b.data(), b.size_bytes()});
    input_ptrs.push_back(b.data());
  }
  for (const dmlcpu::Device* device : Devices()) {
    dmlcpu::StatusOr<dmlcpu::CompiledOperator> op = device->Compile(c.op);
    ASSERT_TRUE(op.ok()) << op.status().message();
    std::vector<GuardedBuffer> got;
    std::vector<dmlcpu::OutputBinding> outs;
    for (const TensorDescHolder* t : c.outputs) {
      got.emplace_back(t->total_bytes(), 0);
      got.back().FillSentinel();
    }
    for (GuardedBuffer& b : got) outs.push_back({b.data(), b.size_bytes()});
    const dmlcpu::Status s =
        op->Execute(bindings.data(), bindings.size(), outs.data(), outs.size());
    ASSERT_TRUE(s.ok()) << s.message();
    for (size_t k = 0; k < got.size(); ++k) {
      std::vector<float> values(want[k].size());
      std::memcpy(values.data(), got[k].data(), values.size() * sizeof(float));
      EXPECT_EQ(values, want[k]) << "output " << k;
    }
  }
  std::vector<GuardedBuffer> ref;
  std::vector<void*> ref_ptrs;
  for (const TensorDescHolder* t : c.outputs) ref.emplace_back(t->total_bytes(), 0);
  for (GuardedBuffer& b : ref) ref_ptrs.push_back(b.data());
  const ReferenceResult r = RunReference(c.op, input_ptrs.data(), ref_ptrs.data());
  ASSERT_TRUE(r.ok) << r.error;
  for (size_t k = 0; k < ref.size(); ++k) {
    std::vector<float> values(want[k].size());
    std::memcpy(values.data(), ref[k].data(), values.size() * sizeof(float));
    EXPECT_EQ(values, want[k]) << "reference output " << k;
  }
}

std::vector<float> Iota(int n, float first = 1) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = first + static_cast<float>(i);
  return v;
}

// ---- Worked examples ----

TEST(CopyOpsSpecTest, Id1Transpose) {
  Holder in = Make(kFloat32, {2, 3}, {1, 2});
  Holder out = Make(kFloat32, {2, 3});
  DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC d{in->desc(), out->desc(), nullptr};
  ExpectExample({{DML_OPERATOR_ELEMENT_WISE_IDENTITY, &d}, {in.get()}, {out.get()}},
                {Iota(6)}, {{1, 3, 5, 2, 4, 6}});
}

TEST(CopyOpsSpecTest, Id2Expand) {
  Holder in = Make(kFloat32, {2, 3}, {0, 1});
  Holder out = Make(kFloat32, {2, 3});
  DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC d{in->desc(), out->desc(), nullptr};
  ExpectExample({{DML_OPERATOR_ELEMENT_WISE_IDENTITY, &d}, {in.get()}, {out.get()}},
                {Iota(3)}, {{1, 2, 3, 1, 2, 3}});
}

TEST(CopyOpsSpecTest, J1JoinAxis3) {
  Holder a = Make(kFloat32, {1, 1, 2, 3});
  Holder b = Make(kFloat32, {1, 1, 2, 4});
  Holder out = Make(kFloat32, {1, 1, 2, 7});
  const DML_TENSOR_DESC ins[2] = {*a->desc(), *b->desc()};
  DML_JOIN_OPERATOR_DESC d{2, ins, out->desc(), 3};
  ExpectExample({{DML_OPERATOR_JOIN, &d}, {a.get(), b.get()}, {out.get()}},
                {Iota(6), Iota(8, 7)}, {{1, 2, 3, 7, 8, 9, 10, 4, 5, 6, 11, 12, 13, 14}});
}

TEST(CopyOpsSpecTest, Sp1SplitAxis2) {
  Holder in = Make(kFloat32, {1, 1, 6, 2});
  Holder o0 = Make(kFloat32, {1, 1, 2, 2});
  Holder o1 = Make(kFloat32, {1, 1, 1, 2});
  Holder o2 = Make(kFloat32, {1, 1, 3, 2});
  const DML_TENSOR_DESC outs[3] = {*o0->desc(), *o1->desc(), *o2->desc()};
  DML_SPLIT_OPERATOR_DESC d{in->desc(), 3, outs, 2};
  ExpectExample({{DML_OPERATOR_SPLIT, &d}, {in.get()}, {o0.get(), o1.get(), o2.get()}},
                {Iota(12)}, {{1, 2, 3, 4}, {5, 6}, {7, 8, 9, 10, 11, 12}});
}

TEST(CopyOpsSpecTest, T1Tile) {
  Holder in = Make(kFloat32, {1, 1, 2, 3});
  Holder out = Make(kFloat32, {1, 1, 6, 9});
  const uint32_t repeats[4] = {1, 1, 3, 3};
  DML_TILE_OPERATOR_DESC d{in->desc(), out->desc(), 4, repeats};
  std::vector<float> want;
  for (int r = 0; r < 6; ++r) {
    for (int k = 0; k < 3; ++k) {
      for (int j = 0; j < 3; ++j) want.push_back(static_cast<float>((r % 2) * 3 + j + 1));
    }
  }
  ExpectExample({{DML_OPERATOR_TILE, &d}, {in.get()}, {out.get()}}, {Iota(6)}, {want});
}

// ---- Validation: code and the message's field, value and bound ----

void ExpectError(const DML_OPERATOR_DESC& op, dmlcpu::StatusCode code, const std::string& text) {
  dmlcpu::StatusOr<dmlcpu::CompiledOperator> c = Devices()[0]->Compile(op);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), code) << c.status().message();
  EXPECT_NE(c.status().message().find(text), std::string::npos) << c.status().message();
}

TEST(CopyOpsValidationTest, IdentityScaleBiasIsUnsupported) {
  Holder in = Make(kFloat32, {2, 3});
  Holder out = Make(kFloat32, {2, 3});
  const DML_SCALE_BIAS scale_bias{2.0f, 0.0f};
  DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC d{in->desc(), out->desc(), &scale_bias};
  ExpectError({DML_OPERATOR_ELEMENT_WISE_IDENTITY, &d}, dmlcpu::StatusCode::kUnsupported,
              "ELEMENT_WISE_IDENTITY: ScaleBias is non-null (Scale 2, Bias 0), expected null: a "
              "scale and bias is arithmetic");
}

TEST(CopyOpsValidationTest, IdentityShapeAndType) {
  Holder in = Make(kFloat32, {2, 3});
  Holder out = Make(kFloat32, {3, 2});
  DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC d{in->desc(), out->desc(), nullptr};
  ExpectError({DML_OPERATOR_ELEMENT_WISE_IDENTITY, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "OutputTensor.Sizes[0] is 3, expected 2 (InputTensor.Sizes[0])");
  Holder out16 = Make(DML_TENSOR_DATA_TYPE_FLOAT16, {2, 3});
  d.OutputTensor = out16->desc();
  ExpectError({DML_OPERATOR_ELEMENT_WISE_IDENTITY, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "OutputTensor.DataType is 2 (FLOAT16), expected 1 (FLOAT32");
  Holder out_rank = Make(kFloat32, {1, 2, 3});
  d.OutputTensor = out_rank->desc();
  ExpectError({DML_OPERATOR_ELEMENT_WISE_IDENTITY, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "OutputTensor.DimensionCount is 3, expected 2");
  Holder out_bcast = Make(kFloat32, {2, 3}, {0, 1});
  d.OutputTensor = out_bcast->desc();
  ExpectError({DML_OPERATOR_ELEMENT_WISE_IDENTITY, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "OutputTensor.Strides[0] is 0");
}

TEST(CopyOpsValidationTest, JoinRules) {
  Holder a = Make(kFloat32, {2, 3});
  Holder b = Make(kFloat32, {3, 4});
  Holder out = Make(kFloat32, {2, 7});
  DML_TENSOR_DESC ins[2] = {*a->desc(), *b->desc()};
  DML_JOIN_OPERATOR_DESC d{2, ins, out->desc(), 1};
  ExpectError({DML_OPERATOR_JOIN, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "JOIN: InputTensors[1].Sizes[0] is 3, expected 2 (OutputTensor.Sizes[0]; only the "
              "Axis dimension 1 may differ)");
  Holder b2 = Make(kFloat32, {2, 3});
  ins[1] = *b2->desc();
  ExpectError({DML_OPERATOR_JOIN, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "JOIN: OutputTensor.Sizes[1] is 7, expected 6 (the sum of InputTensors[*].Sizes[1])");
  d.Axis = 2;
  ExpectError({DML_OPERATOR_JOIN, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "JOIN: Axis is 2, expected < 2 (OutputTensor.DimensionCount)");
  d.Axis = 1;
  d.InputCount = 0;
  ExpectError({DML_OPERATOR_JOIN, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "JOIN: InputCount is 0, expected >= 1");
  d.InputCount = 2;
  d.InputTensors = nullptr;
  ExpectError({DML_OPERATOR_JOIN, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "JOIN: InputTensors is null");
  Holder b16 = Make(DML_TENSOR_DATA_TYPE_INT16, {2, 4});
  ins[1] = *b16->desc();
  d.InputTensors = ins;
  ExpectError({DML_OPERATOR_JOIN, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "JOIN: InputTensors[1].DataType is 7 (INT16), expected 1 (FLOAT32, the "
              "OutputTensor.DataType)");
  Holder b_rank = Make(kFloat32, {1, 2, 4});
  ins[1] = *b_rank->desc();
  ExpectError({DML_OPERATOR_JOIN, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "JOIN: InputTensors[1].DimensionCount is 3, expected 2");
}

TEST(CopyOpsValidationTest, SplitRules) {
  Holder in = Make(kFloat32, {4, 6});
  Holder o0 = Make(kFloat32, {4, 2});
  Holder o1 = Make(kFloat32, {4, 3});
  DML_TENSOR_DESC outs[2] = {*o0->desc(), *o1->desc()};
  DML_SPLIT_OPERATOR_DESC d{in->desc(), 2, outs, 1};
  ExpectError({DML_OPERATOR_SPLIT, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "SPLIT: InputTensor.Sizes[1] is 6, expected 5 (the sum of "
              "OutputTensors[*].Sizes[1])");
  d.OutputCount = 0;
  ExpectError({DML_OPERATOR_SPLIT, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "SPLIT: OutputCount is 0, expected >= 1");
  Holder bad = Make(kFloat32, {3, 4});
  outs[1] = *bad->desc();
  d.OutputCount = 2;
  ExpectError({DML_OPERATOR_SPLIT, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "SPLIT: OutputTensors[1].Sizes[0] is 3, expected 4 (InputTensor.Sizes[0]");
  Holder bcast = Make(kFloat32, {4, 4}, {0, 1});
  outs[1] = *bcast->desc();
  ExpectError({DML_OPERATOR_SPLIT, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "SPLIT: OutputTensors[1].Strides[0] is 0");
}

TEST(CopyOpsValidationTest, TileRules) {
  Holder in = Make(kFloat32, {2, 3});
  Holder out = Make(kFloat32, {4, 6});
  uint32_t repeats[2] = {2, 2};
  DML_TILE_OPERATOR_DESC d{in->desc(), out->desc(), 1, repeats};
  ExpectError({DML_OPERATOR_TILE, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "TILE: RepeatsCount is 1, expected 2 (InputTensor.DimensionCount)");
  d.RepeatsCount = 2;
  d.Repeats = nullptr;
  ExpectError({DML_OPERATOR_TILE, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "TILE: Repeats is null");
  d.Repeats = repeats;
  repeats[1] = 0;
  ExpectError({DML_OPERATOR_TILE, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "TILE: Repeats[1] is 0, expected >= 1");
  repeats[1] = 3;
  ExpectError({DML_OPERATOR_TILE, &d}, dmlcpu::StatusCode::kInvalidArgument,
              "TILE: OutputTensor.Sizes[1] is 6, expected 9 (InputTensor.Sizes[1] 3 * "
              "Repeats[1] 3)");
  // The product is checked in 64 bits: 2 * 2147483650 is not 4 modulo 2^32.
  Holder small = Make(kFloat32, {1, 2});
  Holder wrapped = Make(kFloat32, {1, 4});
  uint32_t huge[2] = {1, 2147483650u};
  DML_TILE_OPERATOR_DESC w{small->desc(), wrapped->desc(), 2, huge};
  ExpectError({DML_OPERATOR_TILE, &w}, dmlcpu::StatusCode::kInvalidArgument,
              "TILE: OutputTensor.Sizes[1] is 4, expected 4294967300 (InputTensor.Sizes[1] 2 * "
              "Repeats[1] 2147483650)");
}

// JOIN's inputs may share one buffer; SPLIT's outputs may not overlap.
TEST(CopyOpsValidationTest, Aliasing) {
  Holder a = Make(kFloat32, {2, 3});
  Holder out = Make(kFloat32, {2, 6});
  const DML_TENSOR_DESC ins[2] = {*a->desc(), *a->desc()};
  DML_JOIN_OPERATOR_DESC join{2, ins, out->desc(), 1};
  dmlcpu::StatusOr<dmlcpu::CompiledOperator> op = Devices()[0]->Compile({DML_OPERATOR_JOIN, &join});
  ASSERT_TRUE(op.ok()) << op.status().message();
  std::vector<float> in = Iota(6), got(12, 0);
  const dmlcpu::Binding bindings[2] = {{in.data(), 24}, {in.data(), 24}};
  const dmlcpu::OutputBinding output{got.data(), 48};
  ASSERT_TRUE(op->Execute(bindings, 2, &output, 1).ok());
  EXPECT_EQ(got, (std::vector<float>{1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6}));

  Holder o = Make(kFloat32, {2, 3});
  const DML_TENSOR_DESC outs[2] = {*o->desc(), *o->desc()};
  DML_SPLIT_OPERATOR_DESC split{out->desc(), 2, outs, 1};
  op = Devices()[0]->Compile({DML_OPERATOR_SPLIT, &split});
  ASSERT_TRUE(op.ok()) << op.status().message();
  std::vector<float> whole(12, 1), parts(12, 0);
  const dmlcpu::Binding input{whole.data(), 48};
  const dmlcpu::OutputBinding same[2] = {{parts.data(), 24}, {parts.data() + 3, 24}};
  const dmlcpu::Status s = op->Execute(&input, 1, same, 2);
  EXPECT_EQ(s.code(), dmlcpu::StatusCode::kInvalidArgument) << s.message();
  EXPECT_EQ(parts, std::vector<float>(12, 0)) << "nothing may be written on failure";
}

// ---- Random cases ----

// Element strides for `sizes`: empty (packed), padded, permuted (optionally padded), and, for
// inputs, broadcast dimensions (stride 0).
std::vector<uint32_t> RandomStrides(const std::vector<uint32_t>& sizes, bool input,
                                    std::mt19937_64& rng) {
  const int kind = static_cast<int>(rng() % (input ? 5 : 4));
  if (kind == 0) return {};
  const size_t n = sizes.size();
  std::vector<size_t> order(n);  // order[0] is the outermost in memory
  for (size_t i = 0; i < n; ++i) order[i] = i;
  if (kind >= 2) std::shuffle(order.begin(), order.end(), rng);
  std::vector<uint32_t> strides(n);
  uint64_t stride = 1 + (kind == 3 ? rng() % 3 : 0);
  for (size_t k = n; k-- > 0;) {
    const size_t d = order[k];
    strides[d] = static_cast<uint32_t>(stride);
    stride = stride * sizes[d] + (kind == 1 || kind == 3 ? rng() % 3 : 0);
  }
  if (kind == 4) {  // broadcast some dimensions of an input
    for (size_t d = 0; d < n; ++d) {
      if (rng() % 3 == 0) strides[d] = 0;
    }
  }
  return strides;
}

DML_TENSOR_DATA_TYPE RandomType(std::mt19937_64& rng) {
  static const DML_TENSOR_DATA_TYPE kTypes[] = {
      DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT32,
      DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_FLOAT64};
  return kTypes[rng() % 6];
}

// Sizes of rank 1-8 with about `budget` elements at most.
std::vector<uint32_t> RandomSizes(std::mt19937_64& rng, uint32_t rank, uint64_t budget) {
  std::vector<uint32_t> sizes(rank, 1);
  uint64_t count = 1;
  for (uint32_t d = 0; d < rank; ++d) {
    const uint64_t room = std::max<uint64_t>(1, budget / count);
    const uint64_t cap = std::min<uint64_t>(room, rank <= 2 ? 700 : 9);
    sizes[d] = static_cast<uint32_t>(1 + rng() % cap);
    count *= sizes[d];
  }
  return sizes;
}

uint64_t Budget(std::mt19937_64& rng) { return rng() % 8 == 0 ? 120000 : 3000; }

std::string Describe(const char* op, const std::vector<const TensorDescHolder*>& ins,
                     const std::vector<const TensorDescHolder*>& outs, const std::string& extra) {
  std::string s = std::string(op) + " " + extra;
  for (const TensorDescHolder* t : ins) s += " in=" + t->ToString();
  for (const TensorDescHolder* t : outs) s += " out=" + t->ToString();
  return s;
}

uint32_t RandomMisalign(std::mt19937_64& rng) { return rng() % 4 == 0 ? 16 * (rng() % 4) : 0; }

TEST(CopyOpsRandomTest, Identity) {
  for (uint64_t seed = 1; seed <= 120; ++seed) {
    std::mt19937_64 rng(seed);
    const uint32_t rank = 1 + seed % 8;
    const DML_TENSOR_DATA_TYPE type = RandomType(rng);
    const std::vector<uint32_t> sizes = RandomSizes(rng, rank, Budget(rng));
    Holder in = Make(type, sizes, RandomStrides(sizes, true, rng));
    Holder out = Make(type, sizes, RandomStrides(sizes, false, rng));
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC d{in->desc(), out->desc(), nullptr};
    Case c{{DML_OPERATOR_ELEMENT_WISE_IDENTITY, &d}, {in.get()}, {out.get()},
           RandomMisalign(rng), rng() % 2 * 12, ""};
    c.description = Describe("IDENTITY", c.inputs, c.outputs, "");
    RunAndCompare(c, seed);
    if (HasFatalFailure()) return;
  }
}

TEST(CopyOpsRandomTest, JoinAndSplit) {
  for (uint64_t seed = 1; seed <= 160; ++seed) {
    std::mt19937_64 rng(seed * 7919);
    const uint32_t rank = 1 + seed % 8;
    const DML_TENSOR_DATA_TYPE type = RandomType(rng);
    const std::vector<uint32_t> whole_sizes = RandomSizes(rng, rank, Budget(rng));
    const uint32_t axis = static_cast<uint32_t>(rng() % rank);
    // Cut whole_sizes[axis] into 1-5 parts.
    std::vector<uint32_t> cuts;
    uint32_t left = whole_sizes[axis];
    const uint32_t max_parts = 1 + rng() % 5;
    while (left > 0) {
      const uint32_t part = cuts.size() + 1 == max_parts ? left : 1 + rng() % left;
      cuts.push_back(part);
      left -= part;
    }
    std::vector<Holder> parts;
    std::vector<DML_TENSOR_DESC> part_descs;
    const bool join = seed % 2 == 0;
    for (uint32_t cut : cuts) {
      std::vector<uint32_t> sizes = whole_sizes;
      sizes[axis] = cut;
      parts.push_back(Make(type, sizes, RandomStrides(sizes, join, rng)));
      part_descs.push_back(*parts.back()->desc());
    }
    Holder whole = Make(type, whole_sizes, RandomStrides(whole_sizes, !join, rng));
    std::vector<const TensorDescHolder*> part_ptrs;
    for (const Holder& p : parts) part_ptrs.push_back(p.get());
    DML_JOIN_OPERATOR_DESC jd{static_cast<uint32_t>(parts.size()), part_descs.data(),
                              whole->desc(), axis};
    DML_SPLIT_OPERATOR_DESC sd{whole->desc(), static_cast<uint32_t>(parts.size()),
                               part_descs.data(), axis};
    Case c;
    if (join) {
      c = Case{{DML_OPERATOR_JOIN, &jd}, part_ptrs, {whole.get()}, RandomMisalign(rng), 0, ""};
    } else {
      c = Case{{DML_OPERATOR_SPLIT, &sd}, {whole.get()}, part_ptrs, RandomMisalign(rng), 0, ""};
    }
    c.description = Describe(join ? "JOIN" : "SPLIT", c.inputs, c.outputs,
                             "axis=" + std::to_string(axis));
    RunAndCompare(c, seed);
    if (HasFatalFailure()) return;
  }
}

// JOIN and SPLIT of three equal parts with rows of 1-64 bytes, in place of the random shapes
// above. Rows of two items or more co-run row by row (asserted), through every inline row copy
// (one copy of exactly 4, 8, 16 or 32 bytes, two overlapping copies, bytes one by one); rows
// of one item are strided elements.
TEST(CopyOpsRandomTest, JoinAndSplitOfShortEqualRows) {
  uint64_t seed = 0;
  for (DML_TENSOR_DATA_TYPE type : {DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_FLOAT16,
                                    DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT64}) {
    const uint32_t width = Make(type, {1})->element_bytes();
    for (uint32_t row_bytes : {1u, 2u, 3u, 4u, 6u, 8u, 12u, 16u, 24u, 32u, 40u, 48u, 64u}) {
      if (row_bytes % width != 0) continue;
      const uint32_t items = row_bytes / width;
      for (const bool join : {false, true}) {
        ++seed;
        const auto misalign_bytes = static_cast<uint32_t>(16 * (seed % 4));
        std::vector<Holder> parts;
        std::vector<DML_TENSOR_DESC> part_descs;
        std::vector<const TensorDescHolder*> part_ptrs;
        for (int k = 0; k < 3; ++k) {
          parts.push_back(Make(type, {1, 3, 700, items}));
          part_descs.push_back(*parts.back()->desc());
          part_ptrs.push_back(parts.back().get());
        }
        Holder whole = Make(type, {1, 3, 700, 3 * items});
        DML_JOIN_OPERATOR_DESC jd{3, part_descs.data(), whole->desc(), 3};
        DML_SPLIT_OPERATOR_DESC sd{whole->desc(), 3, part_descs.data(), 3};
        Case c;
        if (join) {
          c = Case{{DML_OPERATOR_JOIN, &jd}, part_ptrs, {whole.get()}, misalign_bytes, 0, ""};
        } else {
          c = Case{{DML_OPERATOR_SPLIT, &sd}, {whole.get()}, part_ptrs, misalign_bytes, 0, ""};
        }
        c.description = Describe(join ? "JOIN" : "SPLIT", c.inputs, c.outputs, "axis=3");
        if (items >= 2) {
          dmlcpu::StatusOr<dmlcpu::CompiledOperator> op = Devices()[0]->Compile(c.op);
          ASSERT_TRUE(op.ok()) << op.status().message();
          EXPECT_NE(op->Describe().find("row by row"), std::string::npos)
              << c.description << "\n" << op->Describe();
        }
        RunAndCompare(c, seed);
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST(CopyOpsRandomTest, Tile) {
  for (uint64_t seed = 1; seed <= 160; ++seed) {
    std::mt19937_64 rng(seed * 104729);
    const uint32_t rank = 1 + seed % 8;
    const DML_TENSOR_DATA_TYPE type = RandomType(rng);
    const uint64_t budget = Budget(rng);
    std::vector<uint32_t> in_sizes = RandomSizes(rng, rank, std::max<uint64_t>(1, budget / 16));
    // Every third case of rank >= 5: sizes and repeats of 2-3 in every dimension, so that more
    // than 8 loops remain and the doubling program runs.
    const bool dense = rank >= 5 && seed % 3 == 0;
    if (dense) {
      for (uint32_t& s : in_sizes) s = 2 + rng() % 2;
    }
    std::vector<uint32_t> repeats(rank), out_sizes(rank);
    uint64_t out_count = 1;
    for (uint32_t d = 0; d < rank; ++d) out_count *= in_sizes[d];
    for (uint32_t d = 0; d < rank; ++d) {
      const uint64_t room = std::max<uint64_t>(1, budget / out_count);
      const uint64_t cap = dense ? 2 : std::min<uint64_t>(room, rank <= 2 ? 300 : 4);
      repeats[d] = static_cast<uint32_t>((dense ? 2 : 1) + rng() % cap);
      out_sizes[d] = in_sizes[d] * repeats[d];
      out_count *= repeats[d];
    }
    Holder in = Make(type, in_sizes, RandomStrides(in_sizes, true, rng));
    Holder out = Make(type, out_sizes, RandomStrides(out_sizes, false, rng));
    DML_TILE_OPERATOR_DESC d{in->desc(), out->desc(), rank, repeats.data()};
    Case c{{DML_OPERATOR_TILE, &d}, {in.get()}, {out.get()}, RandomMisalign(rng), 0, ""};
    c.description = Describe("TILE", c.inputs, c.outputs, "repeats=" + SizesToString(repeats));
    RunAndCompare(c, seed);
    if (HasFatalFailure()) return;
  }
}

// Both TILE programs (docs/design.md#programs-of-future-operators): the repeat nest (one step)
// and the doubling copies (a copy of the input, then output -> output steps), each checked
// against the reference, packed and with a gap after every output element.
TEST(CopyOpsRandomTest, TilePrograms) {
  struct Shape {
    std::vector<uint32_t> in;
    std::vector<uint32_t> repeats;
    bool doubling;
  };
  const Shape shapes[] = {
      {{1, 1, 4096}, {1, 64, 1}, false},   // the write-bound nest: 16 KiB rows
      {{4096, 1}, {1, 128}, false},        // broadcast rows of 512 bytes
      {{4096, 3}, {1, 100}, true},         // 12-byte rows: doubling saves 90% of the rows
      {{16384, 15}, {1, 8}, false},        // 60-byte rows, few repeats: the nest
      {{2, 3, 2, 3, 2, 3, 2, 3}, {2, 2, 2, 2, 2, 2, 2, 2}, true},  // 16 loops: doubling
      {{3, 5, 7}, {5, 3, 40}, false},      // small output: the nest
  };
  uint64_t seed = 1;
  for (const Shape& shape : shapes) {
    for (bool strided : {false, true}) {
      std::vector<uint32_t> out_sizes(shape.in.size());
      for (size_t d = 0; d < out_sizes.size(); ++d) out_sizes[d] = shape.in[d] * shape.repeats[d];
      std::vector<uint32_t> out_strides;
      if (strided) {
        out_strides = PackedStrides(out_sizes);
        for (uint32_t& s : out_strides) s = s * 2;  // a gap after every element
      }
      Holder in = Make(DML_TENSOR_DATA_TYPE_FLOAT32, shape.in);
      Holder out = Make(DML_TENSOR_DATA_TYPE_FLOAT32, out_sizes, out_strides);
      DML_TILE_OPERATOR_DESC d{in->desc(), out->desc(), static_cast<uint32_t>(shape.in.size()),
                               shape.repeats.data()};
      Case c{{DML_OPERATOR_TILE, &d}, {in.get()}, {out.get()}, 0, 0, ""};
      c.description = Describe("TILE", c.inputs, c.outputs, "");
      if (!strided) {
        dmlcpu::StatusOr<dmlcpu::CompiledOperator> op = Devices()[0]->Compile(c.op);
        ASSERT_TRUE(op.ok()) << op.status().message();
        const bool one_step = op->Describe().find("program: 1 step(s)") != std::string::npos;
        EXPECT_EQ(one_step, !shape.doubling) << c.description << "\n" << op->Describe();
      }
      RunAndCompare(c, seed++);
      if (HasFatalFailure()) return;
    }
  }
}

}  // namespace
}  // namespace dmlcpu_test
