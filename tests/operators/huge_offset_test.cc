// SPDX-License-Identifier: Apache-2.0
// Byte offsets beyond 4 GiB: tensors whose huge strides span 6-19 GiB with few elements, in
// lazily backed mappings, against the naive reference on every test device (32-bit offset
// arithmetic anywhere would show).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/dmlcpu.h"
#include "reference/reference.h"
#include "support/devices.h"
#include "support/tester.h"
#include "support/virtual_memory.h"

namespace dmlcpu_test {
namespace {

using Rng = std::mt19937_64;

// A lazily backed anonymous mapping: only the touched pages cost memory, untouched ones read 0.
class SparseBuffer {
 public:
  explicit SparseBuffer(uint64_t size_bytes) : size_bytes_(size_bytes) {
    data_ = dmlcpu_test::MapZeroed(size_bytes);
  }
  ~SparseBuffer() {
    if (data_ != nullptr) dmlcpu_test::Unmap(data_, size_bytes_);
  }
  SparseBuffer(const SparseBuffer&) = delete;
  SparseBuffer& operator=(const SparseBuffer&) = delete;
  uint8_t* data() const { return data_; }

 private:
  uint8_t* data_ = nullptr;
  uint64_t size_bytes_ = 0;
};

bool NextCoordinate(const std::vector<uint32_t>& sizes, std::vector<uint64_t>* coord) {
  for (size_t d = sizes.size(); d-- > 0;) {
    if (++(*coord)[d] < sizes[d]) return true;
    (*coord)[d] = 0;
  }
  return false;
}

// Runs a case whose tensors span several GiB (huge strides, few elements) in sparse buffers:
// random data in the elements only, in-range indices, and compares every output element with
// the reference. Catches 32-bit offset arithmetic.
void ExpectHugeSpanCaseMatches(const OperatorCase& op_case, uint64_t seed) {
  SCOPED_TRACE(op_case.description);
  Rng rng(seed);
  std::vector<std::unique_ptr<SparseBuffer>> inputs;
  std::vector<const void*> input_data;
  std::vector<dmlcpu::Binding> bindings;
  for (size_t i = 0; i < op_case.inputs.size(); ++i) {
    const TensorDescHolder& tensor = *op_case.inputs[i];
    inputs.push_back(std::make_unique<SparseBuffer>(op_case.input_binding_bytes[i]));
    uint8_t* base = inputs.back()->data();
    ASSERT_NE(base, nullptr) << "mmap of " << op_case.input_binding_bytes[i] << " bytes failed";
    std::vector<uint64_t> coord(tensor.sizes().size(), 0);
    do {
      uint64_t value = rng();
      if (i == 1) {  // an in-range index for the dimension this element addresses
        const uint64_t dim = op_case.index_dim_sizes.size() == 1
                                 ? op_case.index_dim_sizes[0]
                                 : op_case.index_dim_sizes[coord.back()];
        const int64_t d = static_cast<int64_t>(dim);
        value = IsSignedIndexDataType(tensor.data_type())
                    ? static_cast<uint64_t>(std::uniform_int_distribution<int64_t>(-d, d - 1)(rng))
                    : std::uniform_int_distribution<uint64_t>(0, dim - 1)(rng);
      }
      std::memcpy(base + tensor.ByteOffset(coord), &value, tensor.element_bytes());
    } while (NextCoordinate(tensor.sizes(), &coord));
    input_data.push_back(base);
    bindings.push_back({base, op_case.input_binding_bytes[i]});
  }
  ASSERT_EQ(op_case.outputs.size(), 1u) << "test bug: one output expected";
  const TensorDescHolder& out = *op_case.outputs[0];
  ASSERT_GT(out.total_bytes(), uint64_t{1} << 32) << "test bug: the output span is not huge";
  SparseBuffer expected(op_case.output_binding_bytes[0]);
  ASSERT_NE(expected.data(), nullptr);
  void* const expected_data[] = {expected.data()};
  const ReferenceResult reference = RunReference(op_case.op_desc, input_data.data(), expected_data);
  ASSERT_TRUE(reference.ok) << reference.error;
  for (const dmlcpu::Device* device : DevicesWithEnginePool()) {
    dmlcpu::StatusOr<dmlcpu::CompiledOperator> compiled = device->Compile(op_case.op_desc);
    ASSERT_TRUE(compiled.ok()) << compiled.status().message();
    SparseBuffer got(op_case.output_binding_bytes[0]);
    ASSERT_NE(got.data(), nullptr);
    const dmlcpu::OutputBinding output_binding{got.data(), op_case.output_binding_bytes[0]};
    const dmlcpu::Status status =
        compiled->Execute(bindings.data(), bindings.size(), &output_binding, 1);
    ASSERT_TRUE(status.ok()) << status.message();
    std::vector<uint64_t> coord(out.sizes().size(), 0);
    uint64_t wrong_elements = 0;
    do {
      const uint64_t offset = out.ByteOffset(coord);
      if (std::memcmp(got.data() + offset, expected.data() + offset, out.element_bytes()) != 0) {
        ++wrong_elements;
      }
    } while (NextCoordinate(out.sizes(), &coord));
    EXPECT_EQ(wrong_elements, 0u) << "of " << out.ElementCount() << ", max_concurrency "
                                  << device->max_concurrency();
  }
}

TEST(HugeOffsetTest, ByteOffsetsBeyondFourGiB) {
  if (sizeof(void*) < 8) GTEST_SKIP() << "needs a 64-bit address space";
  std::vector<std::unique_ptr<OperatorCase>> cases;
  // Element spans stay below 2^32 elements; byte spans reach 6-19 GiB.
  cases.push_back(GatherTester()
                      .DataType(DML_TENSOR_DATA_TYPE_FLOAT64)
                      .InputSizes({3, 5})
                      .InputStrides({1u << 29, (1u << 28) + 3})
                      .Axis(1)
                      .IndicesSizes({1, 4})
                      .IndicesStrides({0, 1u << 29})
                      .IndexType(DML_TENSOR_DATA_TYPE_INT64)
                      .IndexDimensions(1)
                      .OutputStrides({1u << 30, 1u << 27})
                      .BuildCase());
  cases.push_back(GatherElementsTester()
                      .DataType(DML_TENSOR_DATA_TYPE_UINT16)
                      .InputSizes({3, 4})
                      .InputStrides({1u << 30, 1u << 28})
                      .Axis(1)
                      .IndicesSizes({3, 6})
                      .IndicesStrides({1u << 30, 1})
                      .IndexType(DML_TENSOR_DATA_TYPE_INT32)
                      .OutputStrides({1u << 30, 1u << 27})
                      .BuildCase());
  cases.push_back(GatherNdTester()
                      .DataType(DML_TENSOR_DATA_TYPE_INT32)
                      .InputSizes({2, 3, 4})
                      .InputStrides({1u << 30, 1u << 28, 1})
                      .InputDimensionCount(3)
                      .IndicesSizes({1, 5, 2})
                      .IndicesDimensionCount(2)
                      .IndexType(DML_TENSOR_DATA_TYPE_UINT32)
                      .OutputStrides({1u << 31, 1u << 29, 1})
                      .BuildCase());
  cases.push_back(SliceTester()
                      .DataType(DML_TENSOR_DATA_TYPE_FLOAT32)
                      .InputSizes({4, 3})
                      .InputStrides({1u << 30, 5})
                      .Offsets({1, 0})
                      .Sizes({2, 2})
                      .Strides({2, 2})
                      .OutputStrides({1u << 30, 1})
                      .BuildCase());
  cases.push_back(Slice1Tester()
                      .DataType(DML_TENSOR_DATA_TYPE_UINT16)
                      .InputSizes({4, 3})
                      .InputStrides({1u << 30, 7})
                      .WindowStrides({-1, -2})
                      .OutputStrides({1u << 30, 1})
                      .BuildCase());
  uint64_t seed = 500;
  for (const auto& op_case : cases) {
    ASSERT_NE(op_case, nullptr);
    ExpectHugeSpanCaseMatches(*op_case, ++seed);
  }
}

}  // namespace
}  // namespace dmlcpu_test
