// SPDX-License-Identifier: Apache-2.0
// Fluent operator testers (XNNPACK style) for dmlcpu's end-to-end tests.
//
//   GatherTester()
//       .InputSizes({5, 7}).InputStrides({9, 1})
//       .IndicesSizes({1, 3}).IndexType(DML_TENSOR_DATA_TYPE_INT64)
//       .Axis(1).IndexDimensions(1)
//       .DataType(DML_TENSOR_DATA_TYPE_FLOAT16)
//       .Test(device);
//
// A tester builds owning descriptors (every array lives as long as the case), allocates each
// buffer with guard bytes before and after it, fills inputs with random bytes (stride gaps
// included) and indices with random values of the requested kind, pre-fills every output's whole
// binding range and its guards with a position-dependent sentinel, runs Compile + Execute through
// the library and the naive reference (reference/reference.h), and compares the WHOLE region of
// every output byte for byte: elements, stride gaps (must keep the sentinel), the tail up to the
// binding size and both guards. Input buffers must come back unchanged. Under
// IndexPolicy::kStrict with an out-of-range index, Execute must fail with kOutOfRange and leave
// every output untouched.
//
// Failures are reported with ADD_FAILURE and a one-line description of the case (operator,
// attributes, every tensor's type/sizes/strides/total bytes, policy and seed) so that any
// failing random case can be rebuilt by hand.
#ifndef DMLCPU_TESTS_SUPPORT_TESTER_H_
#define DMLCPU_TESTS_SUPPORT_TESTER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/dmlcpu.h"
#include "reference/reference.h"

namespace dmlcpu_test {

std::string IntsToString(const std::vector<int32_t>& values);
const char* IndexPolicyName(dmlcpu::IndexPolicy policy);

// An owning DML_TENSOR_DESC: the sizes/strides arrays and both structs live here. Neither
// copyable nor movable, because the structs point into it.
class TensorDescHolder {
 public:
  // `strides` empty = Strides null (packed). TotalTensorSizeInBytes = the section 2.2 minimum
  // plus `extra_total_bytes`.
  TensorDescHolder(DML_TENSOR_DATA_TYPE data_type, std::vector<uint32_t> sizes,
                   std::vector<uint32_t> strides, uint64_t extra_total_bytes = 0,
                   uint32_t guaranteed_alignment = 0);
  TensorDescHolder(const TensorDescHolder&) = delete;
  TensorDescHolder& operator=(const TensorDescHolder&) = delete;

  const DML_TENSOR_DESC* desc() const { return &tensor_desc_; }
  const DML_BUFFER_TENSOR_DESC& buffer_desc() const { return buffer_desc_; }
  DML_TENSOR_DATA_TYPE data_type() const { return buffer_desc_.DataType; }
  uint32_t element_bytes() const { return DataTypeSizeBytes(buffer_desc_.DataType); }
  uint64_t total_bytes() const { return buffer_desc_.TotalTensorSizeInBytes; }
  const std::vector<uint32_t>& sizes() const { return sizes_; }
  // The element strides in effect (packed when the desc has none).
  const std::vector<uint32_t>& effective_strides() const { return effective_strides_; }
  uint64_t ElementCount() const;
  // Byte offset of the element at `coord` (one entry per dimension).
  uint64_t ByteOffset(const std::vector<uint64_t>& coord) const;
  // "FLOAT32{2,3}s{3,1}t24a0": type, sizes, strides (or "null"), total bytes, alignment.
  std::string ToString() const;
  // Overwrites the arrays and structs with garbage (for the deep-copy tests).
  void Scribble();

 private:
  std::vector<uint32_t> sizes_;
  std::vector<uint32_t> strides_;  // empty when null
  std::vector<uint32_t> effective_strides_;
  DML_BUFFER_TENSOR_DESC buffer_desc_{};
  DML_TENSOR_DESC tensor_desc_{};
};

// How index values are drawn.
enum class IndexValues {
  kNonNegative,  // uniform in [0, D - 1]
  kInRange,      // uniform in [-D, D - 1] for signed types, [0, D - 1] for unsigned
  kOutOfRange,   // kInRange mixed with out-of-range values (edge values, 2^32 aliases, ...)
  kSortedRuns,   // embedding-style sorted ids: runs of consecutive values (k, k+1, ...), runs
                 // of repeats (k, k, ...) and occasional jumps, in index order
};
const char* IndexValuesName(IndexValues values);

// One fully described operator: descriptors plus how its test buffers are laid out. Neither
// copyable nor movable (the descriptors point into it); hold it in a unique_ptr.
struct OperatorCase {
  OperatorCase() = default;
  OperatorCase(const OperatorCase&) = delete;
  OperatorCase& operator=(const OperatorCase&) = delete;

  DML_OPERATOR_DESC op_desc{};
  std::vector<std::unique_ptr<TensorDescHolder>> inputs;   // binding order
  std::vector<std::unique_ptr<TensorDescHolder>> outputs;  // binding order

  // The operator struct op_desc.Desc points at (one of these is used) and its arrays. A new
  // operator adds its struct and arrays in one hunk (and to Scribble()).
  DML_GATHER_OPERATOR_DESC gather{};
  DML_GATHER_ELEMENTS_OPERATOR_DESC gather_elements{};
  DML_GATHER_ND_OPERATOR_DESC gather_nd{};
  DML_GATHER_ND1_OPERATOR_DESC gather_nd1{};
  DML_SLICE_OPERATOR_DESC slice{};
  DML_SLICE1_OPERATOR_DESC slice1{};
  std::vector<uint32_t> window_offsets;
  std::vector<uint32_t> window_sizes;
  std::vector<uint32_t> window_strides;        // SLICE
  std::vector<int32_t> window_strides_signed;  // SLICE1, SLICE_GRAD
  // Padding family (support/tester_padding.h).
  DML_PADDING_OPERATOR_DESC padding{};
  DML_PADDING1_OPERATOR_DESC padding1{};
  DML_DEPTH_TO_SPACE_OPERATOR_DESC depth_to_space{};
  DML_SPACE_TO_DEPTH_OPERATOR_DESC space_to_depth{};
  DML_DEPTH_TO_SPACE1_OPERATOR_DESC depth_to_space1{};
  DML_SPACE_TO_DEPTH1_OPERATOR_DESC space_to_depth1{};
  DML_SLICE_GRAD_OPERATOR_DESC slice_grad{};
  std::vector<uint32_t> start_padding, end_padding;
  // Tensor-desc arrays of array fields (JOIN's InputTensors, SPLIT's OutputTensors, ...):
  // filled from inputs/outputs in binding order.
  std::vector<DML_TENSOR_DESC> input_descs;
  std::vector<DML_TENSOR_DESC> output_descs;

  // Buffer layout: binding sizes (>= TotalTensorSizeInBytes) and the start address modulo 64,
  // one entry per binding.
  std::vector<uint64_t> input_binding_bytes;
  std::vector<uint32_t> input_misalign_bytes;
  std::vector<uint64_t> output_binding_bytes;
  std::vector<uint32_t> output_misalign_bytes;

  // Index generation (inputs[1] of the gathers): the dimension size D each index element
  // addresses, by its coordinate along the last indices dimension (one entry = the same D for
  // every element).
  std::vector<uint64_t> index_dim_sizes;
  IndexValues index_values = IndexValues::kInRange;
  double out_of_range_fraction = 0.0;

  std::string description;

  bool has_indices() const { return !index_dim_sizes.empty(); }
  // Scribbles over every descriptor array and struct (deep-copy tests).
  void Scribble();
};

// A byte buffer with kGuardBytes of guard before and after its data. The data starts at an
// address that is `misalign_bytes` past a multiple of 64. Move-only: a copy could not keep the
// data's alignment.
class GuardedBuffer {
 public:
  static constexpr uint64_t kGuardBytes = 64;

  GuardedBuffer() = default;
  GuardedBuffer(uint64_t size_bytes, uint32_t misalign_bytes);
  GuardedBuffer(GuardedBuffer&&) = default;
  GuardedBuffer& operator=(GuardedBuffer&&) = default;
  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;

  uint8_t* data() { return storage_.data() + data_offset_; }
  const uint8_t* data() const { return storage_.data() + data_offset_; }
  uint64_t size_bytes() const { return size_bytes_; }
  // Guard before + data + guard after.
  const uint8_t* region() const { return data() - kGuardBytes; }
  uint64_t region_bytes() const { return size_bytes_ + 2 * kGuardBytes; }

  // Fills the whole region with a position-dependent sentinel (same bytes for equal sizes and
  // salts). Output `i` of a case uses salt i, so no two outputs share a sentinel.
  void FillSentinel();
  void set_sentinel_salt(uint64_t salt) { sentinel_salt_ = salt; }
  // Fills the data (not the guards) with random bytes.
  void FillRandom(std::mt19937_64& rng);
  // Whether the region still equals a RegionCopy() taken earlier.
  bool RegionEquals(const std::vector<uint8_t>& snapshot) const;
  std::vector<uint8_t> RegionCopy() const {
    return std::vector<uint8_t>(region(), region() + region_bytes());
  }

 private:
  std::vector<uint8_t> storage_;
  size_t data_offset_ = 0;
  uint64_t size_bytes_ = 0;
  uint64_t sentinel_salt_ = 0;
};

// The buffers of one case, filled deterministically from a seed, and the reference's outputs.
struct CaseBuffers {
  std::vector<GuardedBuffer> inputs;
  std::vector<std::vector<uint8_t>> input_snapshots;  // regions right after filling
  std::vector<GuardedBuffer> expected;                // per output: sentinel + reference output
  ReferenceResult reference;
};

CaseBuffers PrepareBuffers(const OperatorCase& op_case, uint64_t seed);
// Sentinel-filled output buffers laid out as the case says: output `i`, or all in binding order.
GuardedBuffer MakeOutputBuffer(const OperatorCase& op_case, size_t i);
std::vector<GuardedBuffer> MakeOutputBuffers(const OperatorCase& op_case);
// Re-fills every buffer (regions and guards) with the sentinel.
void FillSentinels(std::vector<GuardedBuffer>* buffers);
std::vector<dmlcpu::Binding> InputBindings(const OperatorCase& op_case, const CaseBuffers& buffers);
// One binding per output (binding sizes of the case), pointing into `outputs`.
std::vector<dmlcpu::OutputBinding> OutputBindings(const OperatorCase& op_case,
                                                  std::vector<GuardedBuffer>* outputs);
// Output `i`: empty when `actual` equals `expected` over the whole region; otherwise where they
// first differ (guard / element coordinate / stride gap), expected and actual bytes, and the
// mismatch count.
std::string DiffOutput(const OperatorCase& op_case, size_t i, const GuardedBuffer& expected,
                       const GuardedBuffer& actual);
// Every output (DiffOutput of each, prefixed "output <i>: "); empty when all match.
std::string DiffOutputs(const OperatorCase& op_case, const std::vector<GuardedBuffer>& expected,
                        const std::vector<GuardedBuffer>& actual);

// Compiles the case on every device with `policy`, executes it and checks the result as
// described at the top of this file. Returns true when everything matched.
bool RunCase(const OperatorCase& op_case, const std::vector<const dmlcpu::Device*>& devices,
             dmlcpu::IndexPolicy policy, uint64_t seed);

// Settings shared by every tester. Setters return the derived tester.
template <typename Derived>
class TesterBase {
 public:
  Derived& DataType(DML_TENSOR_DATA_TYPE data_type) {
    data_type_ = data_type;
    return self();
  }
  // Element width only: picks an integer data type of that width (1, 2, 4 or 8).
  Derived& ElementBytes(uint32_t element_bytes);
  Derived& InputSizes(std::vector<uint32_t> sizes) {
    input_sizes_ = std::move(sizes);
    return self();
  }
  Derived& InputStrides(std::vector<uint32_t> strides) {
    input_strides_ = std::move(strides);
    return self();
  }
  Derived& OutputStrides(std::vector<uint32_t> strides) {
    output_strides_ = std::move(strides);
    return self();
  }
  // Explicit output sizes (default: the operator's shape rule).
  Derived& OutputSizes(std::vector<uint32_t> sizes) {
    output_sizes_ = std::move(sizes);
    return self();
  }
  // TotalTensorSizeInBytes beyond the section 2.2 minimum (keep multiples of 4).
  Derived& InputExtraBytes(uint64_t bytes) {
    input_extra_bytes_ = bytes;
    return self();
  }
  Derived& OutputExtraBytes(uint64_t bytes) {
    output_extra_bytes_ = bytes;
    return self();
  }
  // GuaranteedBaseOffsetAlignment of every tensor (0 or a power of two >= element size).
  Derived& Alignment(uint32_t alignment) {
    alignment_ = alignment;
    return self();
  }
  // Binding sizes beyond TotalTensorSizeInBytes, for every binding.
  Derived& BindingExtraBytes(uint64_t bytes) {
    binding_extra_bytes_ = bytes;
    return self();
  }
  // Data start address modulo 64 for every buffer (a multiple of 16, and of Alignment()).
  Derived& Misalignment(uint32_t bytes) {
    misalign_bytes_ = bytes;
    return self();
  }
  Derived& Policy(dmlcpu::IndexPolicy policy) {
    policy_ = policy;
    return self();
  }
  Derived& Seed(uint64_t seed) {
    seed_ = seed;
    return self();
  }

  DML_TENSOR_DATA_TYPE data_type() const { return data_type_; }
  dmlcpu::IndexPolicy policy() const { return policy_; }
  uint64_t seed() const { return seed_; }

  // Builds the case and runs it (RunCase). Returns true when it passed.
  bool Test(const dmlcpu::Device& device) const { return Test({&device}); }
  bool Test(const std::vector<const dmlcpu::Device*>& devices) const;

 protected:
  Derived& self() { return static_cast<Derived&>(*this); }
  // Fills the layout fields every case shares and the description's common tail.
  void FinishCase(OperatorCase* op_case) const;

  DML_TENSOR_DATA_TYPE data_type_ = DML_TENSOR_DATA_TYPE_FLOAT32;
  std::vector<uint32_t> input_sizes_;
  std::vector<uint32_t> input_strides_;
  std::vector<uint32_t> output_strides_;
  std::vector<uint32_t> output_sizes_;
  uint64_t input_extra_bytes_ = 0;
  uint64_t output_extra_bytes_ = 0;
  uint32_t alignment_ = 0;
  uint64_t binding_extra_bytes_ = 0;
  uint32_t misalign_bytes_ = 0;
  dmlcpu::IndexPolicy policy_ = dmlcpu::IndexPolicy::kClamp;
  uint64_t seed_ = 1;
};

// Settings of the index-driven operators.
template <typename Derived>
class IndexedTesterBase : public TesterBase<Derived> {
 public:
  Derived& IndicesSizes(std::vector<uint32_t> sizes) {
    indices_sizes_ = std::move(sizes);
    return this->self();
  }
  Derived& IndicesStrides(std::vector<uint32_t> strides) {
    indices_strides_ = std::move(strides);
    return this->self();
  }
  Derived& IndexType(DML_TENSOR_DATA_TYPE index_type) {
    index_type_ = index_type;
    return this->self();
  }
  Derived& IndicesExtraBytes(uint64_t bytes) {
    indices_extra_bytes_ = bytes;
    return this->self();
  }
  Derived& Indices(IndexValues values) {
    index_values_ = values;
    return this->self();
  }
  // Probability of an out-of-range value per index under IndexValues::kOutOfRange.
  Derived& OutOfRangeFraction(double fraction) {
    out_of_range_fraction_ = fraction;
    return this->self();
  }

 protected:
  // Adds the indices tensor and index settings to a case whose input tensor is already built.
  void AddIndices(OperatorCase* op_case, std::vector<uint64_t> index_dim_sizes) const;

  std::vector<uint32_t> indices_sizes_;
  std::vector<uint32_t> indices_strides_;
  DML_TENSOR_DATA_TYPE index_type_ = DML_TENSOR_DATA_TYPE_INT32;
  uint64_t indices_extra_bytes_ = 0;
  IndexValues index_values_ = IndexValues::kInRange;
  double out_of_range_fraction_ = 0.1;
};

class GatherTester : public IndexedTesterBase<GatherTester> {
 public:
  GatherTester& Axis(uint32_t axis) {
    axis_ = axis;
    return *this;
  }
  GatherTester& IndexDimensions(uint32_t index_dimensions) {
    index_dimensions_ = index_dimensions;
    return *this;
  }
  // nullptr (after ADD_FAILURE) when the shapes break the GATHER rules.
  std::unique_ptr<OperatorCase> BuildCase() const;

 private:
  uint32_t axis_ = 0;
  uint32_t index_dimensions_ = 1;
};

class GatherElementsTester : public IndexedTesterBase<GatherElementsTester> {
 public:
  GatherElementsTester& Axis(uint32_t axis) {
    axis_ = axis;
    return *this;
  }
  std::unique_ptr<OperatorCase> BuildCase() const;

 private:
  uint32_t axis_ = 0;
};

// GATHER_ND, or GATHER_ND1 when BatchDimensionCount is set or UseGatherNd1(true).
class GatherNdTester : public IndexedTesterBase<GatherNdTester> {
 public:
  GatherNdTester& InputDimensionCount(uint32_t r) {
    input_dims_ = r;
    return *this;
  }
  GatherNdTester& IndicesDimensionCount(uint32_t q) {
    indices_dims_ = q;
    return *this;
  }
  GatherNdTester& BatchDimensionCount(uint32_t b) {
    batch_dims_ = b;
    use_nd1_ = true;
    return *this;
  }
  GatherNdTester& UseGatherNd1(bool use_nd1) {
    use_nd1_ = use_nd1;
    return *this;
  }
  std::unique_ptr<OperatorCase> BuildCase() const;

 private:
  uint32_t input_dims_ = 1;
  uint32_t indices_dims_ = 1;
  uint32_t batch_dims_ = 0;
  bool use_nd1_ = false;
};

// SLICE: Output sizes = Sizes.
class SliceTester : public TesterBase<SliceTester> {
 public:
  SliceTester& Offsets(std::vector<uint32_t> offsets) {
    offsets_ = std::move(offsets);
    return *this;
  }
  SliceTester& Sizes(std::vector<uint32_t> sizes) {
    sizes_ = std::move(sizes);
    return *this;
  }
  SliceTester& Strides(std::vector<uint32_t> strides) {
    strides_ = std::move(strides);
    return *this;
  }
  std::unique_ptr<OperatorCase> BuildCase() const;

 private:
  std::vector<uint32_t> offsets_;
  std::vector<uint32_t> sizes_;
  std::vector<uint32_t> strides_;  // empty = all 1
};

// SLICE1: output sizes default to the maximum 1 + (size - 1) / |stride| per dimension.
class Slice1Tester : public TesterBase<Slice1Tester> {
 public:
  Slice1Tester& WindowOffsets(std::vector<uint32_t> offsets) {
    offsets_ = std::move(offsets);
    return *this;
  }
  Slice1Tester& WindowSizes(std::vector<uint32_t> sizes) {
    sizes_ = std::move(sizes);
    return *this;
  }
  Slice1Tester& WindowStrides(std::vector<int32_t> strides) {
    strides_ = std::move(strides);
    return *this;
  }
  std::unique_ptr<OperatorCase> BuildCase() const;

 private:
  std::vector<uint32_t> offsets_;
  std::vector<uint32_t> sizes_;
  std::vector<int32_t> strides_;  // empty = all 1
};

// ---- template members ----

template <typename Derived>
Derived& TesterBase<Derived>::ElementBytes(uint32_t element_bytes) {
  switch (element_bytes) {
    case 1:
      data_type_ = DML_TENSOR_DATA_TYPE_UINT8;
      break;
    case 2:
      data_type_ = DML_TENSOR_DATA_TYPE_UINT16;
      break;
    case 4:
      data_type_ = DML_TENSOR_DATA_TYPE_UINT32;
      break;
    default:
      data_type_ = DML_TENSOR_DATA_TYPE_UINT64;
      break;
  }
  return self();
}

template <typename Derived>
bool TesterBase<Derived>::Test(const std::vector<const dmlcpu::Device*>& devices) const {
  std::unique_ptr<OperatorCase> op_case = static_cast<const Derived&>(*this).BuildCase();
  if (op_case == nullptr) return false;
  return RunCase(*op_case, devices, policy_, seed_);
}

template <typename Derived>
void TesterBase<Derived>::FinishCase(OperatorCase* op_case) const {
  for (const auto& input : op_case->inputs) {
    op_case->input_binding_bytes.push_back(input->total_bytes() + binding_extra_bytes_);
    op_case->input_misalign_bytes.push_back(misalign_bytes_);
  }
  for (const auto& output : op_case->outputs) {
    op_case->output_binding_bytes.push_back(output->total_bytes() + binding_extra_bytes_);
    op_case->output_misalign_bytes.push_back(misalign_bytes_);
  }
  std::string& text = op_case->description;
  for (size_t i = 0; i < op_case->inputs.size(); ++i) {
    if (i == 0 && op_case->inputs.size() == 1) {
      text += " in=";
    } else if (op_case->has_indices()) {
      text += i == 0 ? " in=" : " idx=";
    } else {
      text += " in" + std::to_string(i) + "=";
    }
    text += op_case->inputs[i]->ToString();
  }
  for (size_t i = 0; i < op_case->outputs.size(); ++i) {
    text += op_case->outputs.size() == 1 ? " out=" : " out" + std::to_string(i) + "=";
    text += op_case->outputs[i]->ToString();
  }
  if (binding_extra_bytes_ != 0) text += " binding_extra=" + std::to_string(binding_extra_bytes_);
  if (misalign_bytes_ != 0) text += " misalign=" + std::to_string(misalign_bytes_);
  if (op_case->has_indices()) {
    text += std::string(" indices=") + IndexValuesName(op_case->index_values);
    if (op_case->index_values == IndexValues::kOutOfRange) {
      text += "(" + std::to_string(op_case->out_of_range_fraction) + ")";
    }
  }
}

template <typename Derived>
void IndexedTesterBase<Derived>::AddIndices(OperatorCase* op_case,
                                            std::vector<uint64_t> index_dim_sizes) const {
  op_case->inputs.push_back(std::make_unique<TensorDescHolder>(
      index_type_, indices_sizes_, indices_strides_, indices_extra_bytes_, this->alignment_));
  op_case->index_dim_sizes = std::move(index_dim_sizes);
  op_case->index_values = index_values_;
  op_case->out_of_range_fraction = out_of_range_fraction_;
}

}  // namespace dmlcpu_test

#endif  // DMLCPU_TESTS_SUPPORT_TESTER_H_
