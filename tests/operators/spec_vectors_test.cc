// SPDX-License-Identifier: Apache-2.0
// Every worked example of docs/semantics.md#worked-examples (with the resolutions of
// docs/semantics.md#errata), the out-of-range example of
// docs/semantics.md#observed-directml-behaviour, and the size numbers of
// docs/semantics.md#buffer-size. The expected outputs are the documented ones; they check the
// library directly, and the naive reference is run on the same vectors to show that it reproduces
// them too.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/dmlcpu.h"
#include "reference/reference.h"
#include "support/tester.h"

namespace dmlcpu_test {
namespace {

constexpr DML_TENSOR_DATA_TYPE kFloat32 = DML_TENSOR_DATA_TYPE_FLOAT32;
constexpr DML_TENSOR_DATA_TYPE kInt32 = DML_TENSOR_DATA_TYPE_INT32;
constexpr DML_TENSOR_DATA_TYPE kUint32 = DML_TENSOR_DATA_TYPE_UINT32;

const dmlcpu::Device& SerialDevice() {
  static const dmlcpu::Device device(dmlcpu::DeviceOptions{1, nullptr});
  return device;
}

const dmlcpu::Device& ParallelDevice() {
  static const dmlcpu::Device device(dmlcpu::DeviceOptions{8, nullptr});
  return device;
}

template <typename T>
std::vector<uint8_t> ToBytes(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::unique_ptr<TensorDescHolder> Packed(DML_TENSOR_DATA_TYPE data_type,
                                         std::vector<uint32_t> sizes) {
  return std::make_unique<TensorDescHolder>(data_type, std::move(sizes), std::vector<uint32_t>{});
}

// Guarded copies of the given input bytes (binding size = TotalTensorSizeInBytes).
std::vector<GuardedBuffer> MakeInputs(const std::vector<const TensorDescHolder*>& descs,
                                      const std::vector<std::vector<uint8_t>>& data) {
  std::vector<GuardedBuffer> buffers;
  for (size_t i = 0; i < descs.size(); ++i) {
    GuardedBuffer buffer(descs[i]->total_bytes(), 0);
    buffer.FillSentinel();
    std::memcpy(buffer.data(), data[i].data(), data[i].size());
    buffers.push_back(std::move(buffer));
  }
  return buffers;
}

// Runs a packed worked example on the library (serial and 8-thread devices) and on the reference,
// and checks both produce exactly `expected` in the output elements and leave the rest of the
// output binding (the 4-byte rounding tail) and the guards untouched.
template <typename T>
void ExpectSpecOutput(const DML_OPERATOR_DESC& op_desc,
                      const std::vector<const TensorDescHolder*>& input_descs,
                      const std::vector<std::vector<uint8_t>>& input_data,
                      const TensorDescHolder& output_desc, const std::vector<T>& expected) {
  ASSERT_EQ(output_desc.ElementCount(), expected.size()) << "test bug: expected element count";
  std::vector<GuardedBuffer> inputs = MakeInputs(input_descs, input_data);
  const uint64_t output_bytes = output_desc.total_bytes();

  GuardedBuffer want(output_bytes, 0);
  want.FillSentinel();
  std::memcpy(want.data(), expected.data(), expected.size() * sizeof(T));

  std::vector<dmlcpu::Binding> bindings;
  std::vector<const void*> input_pointers;
  for (size_t i = 0; i < inputs.size(); ++i) {
    bindings.push_back({inputs[i].data(), input_descs[i]->total_bytes()});
    input_pointers.push_back(inputs[i].data());
  }

  for (const dmlcpu::Device* device : {&SerialDevice(), &ParallelDevice()}) {
    dmlcpu::StatusOr<dmlcpu::CompiledOperator> compiled = device->Compile(op_desc);
    ASSERT_TRUE(compiled.ok()) << compiled.status().message();
    GuardedBuffer got(output_bytes, 0);
    got.FillSentinel();
    const dmlcpu::OutputBinding output_binding{got.data(), output_bytes};
    const dmlcpu::Status status =
        compiled->Execute(bindings.data(), bindings.size(), &output_binding, 1);
    ASSERT_TRUE(status.ok()) << status.message();
    std::vector<T> values(expected.size());
    std::memcpy(values.data(), got.data(), values.size() * sizeof(T));
    EXPECT_EQ(values, expected) << "library, max_concurrency " << device->max_concurrency();
    EXPECT_TRUE(std::memcmp(got.region(), want.region(), want.region_bytes()) == 0)
        << "library wrote outside the output elements";
  }

  GuardedBuffer reference(output_bytes, 0);
  reference.FillSentinel();
  void* const reference_data[] = {reference.data()};
  const ReferenceResult result = RunReference(op_desc, input_pointers.data(), reference_data);
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_EQ(result.elements_written, expected.size());
  std::vector<T> values(expected.size());
  std::memcpy(values.data(), reference.data(), values.size() * sizeof(T));
  EXPECT_EQ(values, expected) << "reference";
  EXPECT_TRUE(std::memcmp(reference.region(), want.region(), want.region_bytes()) == 0)
      << "reference wrote outside the output elements";
}

// ---- GATHER (section 5.1), FLOAT32 data ----

struct GatherVector {
  uint32_t axis;
  uint32_t index_dimensions;
  std::vector<uint32_t> input_sizes;
  std::vector<float> input;
  DML_TENSOR_DATA_TYPE index_type;
  std::vector<uint32_t> indices_sizes;
  std::vector<int32_t> indices;  // bit pattern written as 32-bit
  std::vector<uint32_t> output_sizes;
  std::vector<float> expected;
};

void RunGatherVector(const GatherVector& v) {
  auto input = Packed(kFloat32, v.input_sizes);
  auto indices = Packed(v.index_type, v.indices_sizes);
  auto output = Packed(kFloat32, v.output_sizes);
  // The output shape is the section 5.1 rule's.
  std::vector<uint32_t> rule_sizes;
  ASSERT_TRUE(
      GatherOutputSizes(v.input_sizes, v.indices_sizes, v.axis, v.index_dimensions, &rule_sizes));
  EXPECT_EQ(rule_sizes, v.output_sizes);
  DML_GATHER_OPERATOR_DESC desc{input->desc(), indices->desc(), output->desc(), v.axis,
                                v.index_dimensions};
  ExpectSpecOutput<float>({DML_OPERATOR_GATHER, &desc}, {input.get(), indices.get()},
                          {ToBytes(v.input), ToBytes(v.indices)}, *output, v.expected);
}

TEST(GatherSpecVectorTest, G1Rank1) {
  RunGatherVector(
      {0, 1, {4}, {11, 12, 13, 14}, kUint32, {5}, {3, 1, 3, 0, 2}, {5}, {14, 12, 14, 11, 13}});
}

TEST(GatherSpecVectorTest, G2Axis0) {
  RunGatherVector({0,
                   1,
                   {3, 2},
                   {1, 2, 3, 4, 5, 6},
                   kUint32,
                   {1, 4},
                   {0, 1, 1, 2},
                   {4, 2},
                   {1, 2, 3, 4, 3, 4, 5, 6}});
}

// The doc prints IndexDimensions 2; only 1 reproduces its output (DOC-ERRATUM 1).
TEST(GatherSpecVectorTest, G3Axis1IndexDimensionsOne) {
  RunGatherVector(
      {1, 1, {3, 2}, {1, 2, 3, 4, 5, 6}, kUint32, {1, 2}, {1, 0}, {3, 2}, {2, 1, 4, 3, 6, 5}});
}

// With the doc's k = 2 the rule's full shape is {3,1,2}: its dropped leading entry is 3, not 1,
// so the printed output {3,2} is not a valid GATHER.
TEST(GatherSpecVectorTest, G3DocIndexDimensionsTwoIsRejected) {
  std::vector<uint32_t> rule_sizes;
  EXPECT_FALSE(GatherOutputSizes({3, 2}, {1, 2}, 1, 2, &rule_sizes));
  auto input = Packed(kFloat32, {3, 2});
  auto indices = Packed(kUint32, {1, 2});
  auto output = Packed(kFloat32, {3, 2});
  DML_GATHER_OPERATOR_DESC desc{input->desc(), indices->desc(), output->desc(), 1, 2};
  dmlcpu::StatusOr<dmlcpu::CompiledOperator> compiled =
      SerialDevice().Compile({DML_OPERATOR_GATHER, &desc});
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.status().code(), dmlcpu::StatusCode::kInvalidArgument)
      << compiled.status().message();
}

TEST(GatherSpecVectorTest, G4Axis2IndexDimensionsTwo) {
  RunGatherVector({2,
                   2,
                   {1, 3, 3},
                   {1, 2, 3, 4, 5, 6, 7, 8, 9},
                   kUint32,
                   {1, 1, 2},
                   {0, 2},
                   {3, 1, 2},
                   {1, 3, 4, 6, 7, 9}});
}

TEST(GatherSpecVectorTest, G5Axis1IndexDimensionsTwo) {
  RunGatherVector({1,
                   2,
                   {1, 3, 2},
                   {1, 2, 3, 4, 5, 6},
                   kUint32,
                   {1, 2, 2},
                   {0, 1, 1, 2},
                   {2, 2, 2},
                   {1, 2, 3, 4, 3, 4, 5, 6}});
}

TEST(GatherSpecVectorTest, G6NegativeIndices) {
  RunGatherVector(
      {0, 1, {4}, {11, 12, 13, 14}, kInt32, {5}, {-1, -4, 0, 3, -2}, {5}, {14, 11, 11, 14, 13}});
}

TEST(GatherSpecVectorTest, G7ScalarIndex) {
  RunGatherVector({1, 0, {1, 3, 2}, {1, 2, 3, 4, 5, 6}, kInt32, {1, 1, 1}, {2}, {1, 1, 2}, {5, 6}});
}

// Section 12, the first DirectML bug (N + k - 1 > 8 and k - 1 > Axis): documented result
// [3,4,5, 0,1,2] (DirectML itself gives [3,0,4,0,5,1]).
TEST(GatherSpecVectorTest, Section12RankEightIndexDimensionsTwo) {
  RunGatherVector({0,
                   2,
                   {2, 1, 1, 1, 1, 1, 1, 3},
                   {0, 1, 2, 3, 4, 5},
                   kUint32,
                   {1, 1, 1, 1, 1, 1, 1, 2},
                   {1, 0},
                   {2, 1, 1, 1, 1, 1, 1, 3},
                   {3, 4, 5, 0, 1, 2}});
}

// Section 12: GATHER on {3,4} holding 100..111, axis 1, INT32 index -5. Under kClamp, -5 + 4 = -1
// is still negative, read as unsigned it is huge and clamps to 3: 103, 107, 111.
TEST(GatherSpecVectorTest, Section12ClampExample) {
  auto input = Packed(kInt32, {3, 4});
  auto indices = Packed(kInt32, {1, 1});
  auto output = Packed(kInt32, {3, 1});
  std::vector<int32_t> data;
  for (int32_t v = 100; v <= 111; ++v) data.push_back(v);
  DML_GATHER_OPERATOR_DESC desc{input->desc(), indices->desc(), output->desc(), 1, 1};
  ExpectSpecOutput<int32_t>({DML_OPERATOR_GATHER, &desc}, {input.get(), indices.get()},
                            {ToBytes(data), ToBytes(std::vector<int32_t>{-5})}, *output,
                            {103, 107, 111});
}

// The same example under kStrict: Execute fails with kOutOfRange and writes nothing.
TEST(GatherSpecVectorTest, Section12StrictExample) {
  auto input = Packed(kInt32, {3, 4});
  auto indices = Packed(kInt32, {1, 1});
  auto output = Packed(kInt32, {3, 1});
  std::vector<int32_t> data;
  for (int32_t v = 100; v <= 111; ++v) data.push_back(v);
  std::vector<GuardedBuffer> inputs =
      MakeInputs({input.get(), indices.get()}, {ToBytes(data), ToBytes(std::vector<int32_t>{-5})});
  DML_GATHER_OPERATOR_DESC desc{input->desc(), indices->desc(), output->desc(), 1, 1};
  dmlcpu::CompileOptions options;
  options.index_policy = dmlcpu::IndexPolicy::kStrict;
  for (const dmlcpu::Device* device : {&SerialDevice(), &ParallelDevice()}) {
    dmlcpu::StatusOr<dmlcpu::CompiledOperator> compiled =
        device->Compile({DML_OPERATOR_GATHER, &desc}, options);
    ASSERT_TRUE(compiled.ok()) << compiled.status().message();
    GuardedBuffer got(output->total_bytes(), 0);
    got.FillSentinel();
    const std::vector<uint8_t> before = got.RegionCopy();
    const dmlcpu::OutputBinding output_binding{got.data(), output->total_bytes()};
    const dmlcpu::Status status = compiled->Execute(
        {{inputs[0].data(), input->total_bytes()}, {inputs[1].data(), indices->total_bytes()}},
        {output_binding});
    EXPECT_EQ(status.code(), dmlcpu::StatusCode::kOutOfRange) << status.message();
    EXPECT_EQ(got.RegionCopy(), before) << "kStrict failure wrote to the output";
  }
  // The reference flags the index as out of range.
  GuardedBuffer reference(output->total_bytes(), 0);
  const void* pointers[] = {inputs[0].data(), inputs[1].data()};
  void* const reference_data[] = {reference.data()};
  const ReferenceResult result =
      RunReference({DML_OPERATOR_GATHER, &desc}, pointers, reference_data);
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_TRUE(result.index_out_of_range);
}

// ---- GATHER_ELEMENTS (section 5.2) ----

TEST(GatherElementsSpecVectorTest, GE1Axis0) {
  auto input = Packed(kFloat32, {3, 3});
  auto indices = Packed(kUint32, {2, 3});
  auto output = Packed(kFloat32, {2, 3});  // FLOAT32, not the doc's UINT32 (DOC-ERRATUM 5)
  DML_GATHER_ELEMENTS_OPERATOR_DESC desc{input->desc(), indices->desc(), output->desc(), 0};
  ExpectSpecOutput<float>({DML_OPERATOR_GATHER_ELEMENTS, &desc}, {input.get(), indices.get()},
                          {ToBytes(std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9}),
                           ToBytes(std::vector<uint32_t>{1, 2, 0, 2, 0, 0})},
                          *output, std::vector<float>{4, 8, 3, 7, 2, 3});
}

TEST(GatherElementsSpecVectorTest, GE2Axis1Negative) {
  auto input = Packed(kFloat32, {2, 3});
  auto indices = Packed(kInt32, {2, 2});
  auto output = Packed(kFloat32, {2, 2});
  DML_GATHER_ELEMENTS_OPERATOR_DESC desc{input->desc(), indices->desc(), output->desc(), 1};
  ExpectSpecOutput<float>(
      {DML_OPERATOR_GATHER_ELEMENTS, &desc}, {input.get(), indices.get()},
      {ToBytes(std::vector<float>{1, 2, 3, 4, 5, 6}), ToBytes(std::vector<int32_t>{-1, 0, 1, -3})},
      *output, std::vector<float>{3, 1, 5, 4});
}

// ---- GATHER_ND / GATHER_ND1 (section 5.3) ----

TEST(GatherNdSpecVectorTest, ND1) {
  auto input = Packed(kFloat32, {2, 2});
  auto indices = Packed(kUint32, {2, 1});
  auto output = Packed(kFloat32, {2, 2});
  DML_GATHER_ND_OPERATOR_DESC desc{input->desc(), indices->desc(), output->desc(), 2, 2};
  ExpectSpecOutput<float>(
      {DML_OPERATOR_GATHER_ND, &desc}, {input.get(), indices.get()},
      {ToBytes(std::vector<float>{0, 1, 2, 3}), ToBytes(std::vector<uint32_t>{1, 0})}, *output,
      std::vector<float>{2, 3, 0, 1});
}

TEST(GatherNdSpecVectorTest, ND1ViaGatherNd1BatchZero) {
  auto input = Packed(kFloat32, {2, 2});
  auto indices = Packed(kUint32, {2, 1});
  auto output = Packed(kFloat32, {2, 2});
  DML_GATHER_ND1_OPERATOR_DESC desc{input->desc(), indices->desc(), output->desc(), 2, 2, 0};
  ExpectSpecOutput<float>(
      {DML_OPERATOR_GATHER_ND1, &desc}, {input.get(), indices.get()},
      {ToBytes(std::vector<float>{0, 1, 2, 3}), ToBytes(std::vector<uint32_t>{1, 0})}, *output,
      std::vector<float>{2, 3, 0, 1});
}

TEST(GatherNdSpecVectorTest, ND2) {
  auto input = Packed(kFloat32, {1, 2, 2, 2});
  auto indices = Packed(kUint32, {1, 1, 2, 2});
  auto output = Packed(kFloat32, {1, 1, 2, 2});
  DML_GATHER_ND_OPERATOR_DESC desc{input->desc(), indices->desc(), output->desc(), 3, 2};
  ExpectSpecOutput<float>({DML_OPERATOR_GATHER_ND, &desc}, {input.get(), indices.get()},
                          {ToBytes(std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}),
                           ToBytes(std::vector<uint32_t>{0, 1, 1, 0})},
                          *output, std::vector<float>{2, 3, 4, 5});
}

TEST(GatherNdSpecVectorTest, ND1Batch) {
  auto input = Packed(kFloat32, {1, 3, 2, 2});
  auto indices = Packed(kUint32, {1, 3, 2, 2});
  auto output = Packed(kFloat32, {1, 1, 3, 2});
  DML_GATHER_ND1_OPERATOR_DESC desc{input->desc(), indices->desc(), output->desc(), 3, 3, 1};
  ExpectSpecOutput<float>({DML_OPERATOR_GATHER_ND1, &desc}, {input.get(), indices.get()},
                          {ToBytes(std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}),
                           ToBytes(std::vector<uint32_t>{0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0})},
                          *output, std::vector<float>{0, 3, 7, 4, 9, 10});
}

// The doc's size example: Input {3,4,5,6,7} r=5, Indices {1,1,1,2,3} q=3 -> Out {1,1,2,6,7}
// (DOC-ERRATUM 3: the trailing input part is In[N-r+b+t..N), not In[N-t..N)). Compile must accept
// exactly that output shape; random data against the reference.
TEST(GatherNdSpecVectorTest, DocSizeExample) {
  std::vector<uint32_t> rule_sizes;
  ASSERT_TRUE(GatherNdOutputSizes({3, 4, 5, 6, 7}, {1, 1, 1, 2, 3}, 5, 3, 0, &rule_sizes));
  EXPECT_EQ(rule_sizes, (std::vector<uint32_t>{1, 1, 2, 6, 7}));
  for (bool use_nd1 : {false, true}) {
    for (DML_TENSOR_DATA_TYPE index_type :
         {DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_INT64}) {
      EXPECT_TRUE(GatherNdTester()
                      .InputSizes({3, 4, 5, 6, 7})
                      .InputDimensionCount(5)
                      .IndicesSizes({1, 1, 1, 2, 3})
                      .IndicesDimensionCount(3)
                      .UseGatherNd1(use_nd1)
                      .OutputSizes({1, 1, 2, 6, 7})
                      .IndexType(index_type)
                      .Seed(7)
                      .Test({&SerialDevice(), &ParallelDevice()}));
    }
  }
}

// ---- SLICE / SLICE1 (sections 5.6, 5.7): Input {1,1,4,4} FLOAT32 [1..16] ----

std::vector<float> OneToSixteen() {
  std::vector<float> values;
  for (int i = 1; i <= 16; ++i) values.push_back(static_cast<float>(i));
  return values;
}

void RunSliceVector(std::vector<uint32_t> offsets, std::vector<uint32_t> sizes,
                    std::vector<uint32_t> strides, const std::vector<float>& expected) {
  auto input = Packed(kFloat32, {1, 1, 4, 4});
  auto output = Packed(kFloat32, sizes);
  DML_SLICE_OPERATOR_DESC desc{input->desc(),  output->desc(), 4,
                               offsets.data(), sizes.data(),   strides.data()};
  ExpectSpecOutput<float>({DML_OPERATOR_SLICE, &desc}, {input.get()}, {ToBytes(OneToSixteen())},
                          *output, expected);
}

void RunSlice1Vector(std::vector<uint32_t> offsets, std::vector<uint32_t> sizes,
                     std::vector<int32_t> strides, std::vector<uint32_t> output_sizes,
                     const std::vector<float>& expected) {
  auto input = Packed(kFloat32, {1, 1, 4, 4});
  auto output = Packed(kFloat32, output_sizes);
  DML_SLICE1_OPERATOR_DESC desc{input->desc(),  output->desc(), 4,
                                offsets.data(), sizes.data(),   strides.data()};
  ExpectSpecOutput<float>({DML_OPERATOR_SLICE1, &desc}, {input.get()}, {ToBytes(OneToSixteen())},
                          *output, expected);
}

TEST(SliceSpecVectorTest, SL1) {
  RunSliceVector({0, 0, 1, 2}, {1, 1, 3, 2}, {1, 1, 1, 1}, {7, 8, 11, 12, 15, 16});
}

TEST(SliceSpecVectorTest, SL2) {
  RunSliceVector({0, 0, 1, 0}, {1, 1, 2, 2}, {1, 1, 2, 3}, {5, 8, 13, 16});
}

TEST(Slice1SpecVectorTest, S1Positive) {
  RunSlice1Vector({0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, 2, 2}, {1, 1, 2, 2}, {2, 4, 10, 12});
}

// start {0,0,3,1} (DOC-ERRATUM 8: InputWindowSizes[2], not [0]).
TEST(Slice1SpecVectorTest, S1NegativeStride) {
  RunSlice1Vector({0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2}, {1, 1, 2, 2}, {14, 16, 6, 8});
}

// Section 12, the second DirectML bug: a whole-dimension window at stride +1 with an output that
// keeps fewer elements. Documented [0,1, 3,4] (DirectML itself gives [0,1,2,3]).
TEST(Slice1SpecVectorTest, Section12OutputSmallerThanWindow) {
  auto input = Packed(kFloat32, {2, 3});
  auto output = Packed(kFloat32, {2, 2});
  std::vector<uint32_t> offsets = {0, 0}, sizes = {2, 3};
  std::vector<int32_t> strides = {1, 1};
  DML_SLICE1_OPERATOR_DESC desc{input->desc(),  output->desc(), 2,
                                offsets.data(), sizes.data(),   strides.data()};
  ExpectSpecOutput<float>({DML_OPERATOR_SLICE1, &desc}, {input.get()},
                          {ToBytes(std::vector<float>{0, 1, 2, 3, 4, 5})}, *output,
                          std::vector<float>{0, 1, 3, 4});
}

// ---- DMLCalcBufferTensorSize worked numbers (section 2.2) ----

TEST(BufferTensorSizeSpecTest, WorkedNumbers) {
  const uint32_t half_sizes[] = {1, 1, 3, 5};
  const uint32_t float_sizes[] = {2, 3};
  const uint32_t float_strides[] = {0, 1};
  const uint32_t nibble_sizes[] = {5};
  EXPECT_EQ(dmlcpu::CalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT16, 4, half_sizes, nullptr),
            32u);
  EXPECT_EQ(dmlcpu::CalcBufferTensorSize(kFloat32, 2, float_sizes, float_strides), 12u);
  EXPECT_EQ(dmlcpu::CalcBufferTensorSize(DML_TENSOR_DATA_TYPE_UINT4, 1, nibble_sizes, nullptr), 4u);
  EXPECT_EQ(MinimumTensorSizeBytes(DML_TENSOR_DATA_TYPE_FLOAT16, 4, half_sizes, nullptr), 32u);
  EXPECT_EQ(MinimumTensorSizeBytes(kFloat32, 2, float_sizes, float_strides), 12u);
}

}  // namespace
}  // namespace dmlcpu_test
