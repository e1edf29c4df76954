// SPDX-License-Identifier: Apache-2.0
// ELEMENT_WISE_IDENTITY, JOIN, SPLIT and TILE end to end: the worked examples of
// docs/semantics.md#element_wise_identity-join-split-tile and the validation messages (the
// seeded random cases are in copy_ops_random_test.cc).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/dmlcpu.h"
#include "operators/copy_ops_cases.h"
#include "reference/reference.h"
#include "support/devices.h"
#include "support/tester.h"

namespace dmlcpu_test {
namespace {

constexpr DML_TENSOR_DATA_TYPE kFloat32 = DML_TENSOR_DATA_TYPE_FLOAT32;

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
  for (const dmlcpu::Device* device : ThreadedDevices()) {
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
  dmlcpu::StatusOr<dmlcpu::CompiledOperator> c = ThreadedDevices()[0]->Compile(op);
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
  dmlcpu::StatusOr<dmlcpu::CompiledOperator> op =
      ThreadedDevices()[0]->Compile({DML_OPERATOR_JOIN, &join});
  ASSERT_TRUE(op.ok()) << op.status().message();
  std::vector<float> in = Iota(6), got(12, 0);
  const dmlcpu::Binding bindings[2] = {{in.data(), 24}, {in.data(), 24}};
  const dmlcpu::OutputBinding output{got.data(), 48};
  ASSERT_TRUE(op->Execute(bindings, 2, &output, 1).ok());
  EXPECT_EQ(got, (std::vector<float>{1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6}));

  Holder o = Make(kFloat32, {2, 3});
  const DML_TENSOR_DESC outs[2] = {*o->desc(), *o->desc()};
  DML_SPLIT_OPERATOR_DESC split{out->desc(), 2, outs, 1};
  op = ThreadedDevices()[0]->Compile({DML_OPERATOR_SPLIT, &split});
  ASSERT_TRUE(op.ok()) << op.status().message();
  std::vector<float> whole(12, 1), parts(12, 0);
  const dmlcpu::Binding input{whole.data(), 48};
  const dmlcpu::OutputBinding same[2] = {{parts.data(), 24}, {parts.data() + 3, 24}};
  const dmlcpu::Status s = op->Execute(&input, 1, same, 2);
  EXPECT_EQ(s.code(), dmlcpu::StatusCode::kInvalidArgument) << s.message();
  EXPECT_NE(s.message().find("outputs[1] (OutputTensors[1]"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("overlaps outputs[0] (OutputTensors[0]"), std::string::npos)
      << s.message();
  EXPECT_EQ(parts, std::vector<float>(12, 0)) << "nothing may be written on failure";
}

}  // namespace
}  // namespace dmlcpu_test
