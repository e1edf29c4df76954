// SPDX-License-Identifier: Apache-2.0
#include "support/tester.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace dmlcpu_test {
namespace {

std::string HexBytes(const uint8_t* bytes, uint64_t count) {
  std::string text;
  char buffer[4];
  // Little-endian element: print the most significant byte first.
  for (uint64_t i = count; i-- > 0;) {
    std::snprintf(buffer, sizeof(buffer), "%02x", bytes[i]);
    text += buffer;
  }
  return text;
}

std::string CoordToString(const std::vector<uint64_t>& coord) {
  std::string text = "[";
  for (size_t i = 0; i < coord.size(); ++i) {
    if (i != 0) text += ",";
    text += std::to_string(coord[i]);
  }
  return text + "]";
}

bool NextCoord(const std::vector<uint32_t>& sizes, std::vector<uint64_t>* coord) {
  for (size_t d = sizes.size(); d-- > 0;) {
    if (++(*coord)[d] < sizes[d]) return true;
    (*coord)[d] = 0;
  }
  return false;
}

uint64_t SplitMix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

uint64_t UniformU64(std::mt19937_64& rng, uint64_t lo, uint64_t hi) {
  return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
}

int64_t UniformI64(std::mt19937_64& rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

// An index value outside the valid range of a dimension of size `dim`, as the raw 64-bit pattern
// of the index type (32-bit types use the low half). Includes the values that catch common
// mistakes: just past either end, the type's extremes, and 64-bit values whose low 32 bits are in
// range (must not be truncated).
uint64_t OutOfRangeIndexBits(std::mt19937_64& rng, DML_TENSOR_DATA_TYPE index_type, uint64_t dim) {
  const int64_t d = static_cast<int64_t>(dim);
  switch (index_type) {
    case DML_TENSOR_DATA_TYPE_INT32: {
      const int64_t choices[] = {
          d + UniformI64(rng, 0, 3),           -d - 1 - UniformI64(rng, 0, 3),
          std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min(),
          -2 * d - UniformI64(rng, 1, 9),      d + UniformI64(rng, 4, 1000)};
      return static_cast<uint64_t>(choices[UniformU64(rng, 0, 5)]);
    }
    case DML_TENSOR_DATA_TYPE_INT64: {
      const int64_t choices[] = {d + UniformI64(rng, 0, 3),
                                 -d - 1 - UniformI64(rng, 0, 3),
                                 std::numeric_limits<int64_t>::max(),
                                 std::numeric_limits<int64_t>::min(),
                                 (int64_t{1} << 32) + UniformI64(rng, 0, d - 1),
                                 -(int64_t{1} << 32) + UniformI64(rng, 0, d - 1),
                                 (int64_t{1} << 31) + UniformI64(rng, 0, 3),
                                 -2 * d - UniformI64(rng, 1, 9)};
      return static_cast<uint64_t>(choices[UniformU64(rng, 0, 7)]);
    }
    case DML_TENSOR_DATA_TYPE_UINT32: {
      const uint64_t choices[] = {dim + UniformU64(rng, 0, 3), 0xFFFFFFFFu - UniformU64(rng, 0, 3),
                                  0x80000000u, dim + UniformU64(rng, 4, 1000)};
      return choices[UniformU64(rng, 0, 3)];
    }
    default: {  // UINT64
      const uint64_t choices[] = {dim + UniformU64(rng, 0, 3),
                                  std::numeric_limits<uint64_t>::max() - UniformU64(rng, 0, 3),
                                  (uint64_t{1} << 32) + UniformU64(rng, 0, dim - 1),
                                  uint64_t{1} << 63, dim + UniformU64(rng, 4, 1000)};
      return choices[UniformU64(rng, 0, 4)];
    }
  }
}

// kSortedRuns: the next value after `*previous` (the state of one tuple element).
uint64_t SortedRunIndex(std::mt19937_64& rng, uint64_t dim, uint64_t* previous) {
  const uint64_t pick = UniformU64(rng, 0, 99);
  uint64_t next;
  if (pick < 70) {
    next = *previous + 1;  // run of consecutive ids
  } else if (pick < 90) {
    next = *previous;  // repeated id
  } else {
    next = *previous + UniformU64(rng, 2, dim + 1);  // jump
  }
  *previous = next % dim;
  return *previous;
}

uint64_t IndexBits(std::mt19937_64& rng, DML_TENSOR_DATA_TYPE index_type, uint64_t dim,
                   IndexValues values, double out_of_range_fraction, uint64_t* run_state) {
  if (values == IndexValues::kSortedRuns) return SortedRunIndex(rng, dim, run_state);
  if (values == IndexValues::kOutOfRange &&
      std::uniform_real_distribution<double>(0.0, 1.0)(rng) < out_of_range_fraction) {
    return OutOfRangeIndexBits(rng, index_type, dim);
  }
  const int64_t d = static_cast<int64_t>(dim);
  if (values != IndexValues::kNonNegative && IsSignedIndexDataType(index_type)) {
    return static_cast<uint64_t>(UniformI64(rng, -d, d - 1));
  }
  return UniformU64(rng, 0, dim - 1);
}

void WriteIndex(uint8_t* at, DML_TENSOR_DATA_TYPE index_type, uint64_t bits) {
  if (DataTypeSizeBytes(index_type) == 4) {
    const uint32_t low = static_cast<uint32_t>(bits);
    std::memcpy(at, &low, sizeof(low));
  } else {
    std::memcpy(at, &bits, sizeof(bits));
  }
}

// The value of the first out-of-range index in index order (row-major over the indices tensor's
// coordinates), in decimal as its type reads; empty when every index is in range.
std::string FirstOutOfRangeIndexText(const OperatorCase& op_case, const uint8_t* indices_data) {
  const TensorDescHolder& indices = *op_case.inputs[1];
  const DML_TENSOR_DATA_TYPE index_type = indices.data_type();
  std::vector<uint64_t> coord(indices.sizes().size(), 0);
  do {
    const uint64_t dim = op_case.index_dim_sizes.size() == 1
                             ? op_case.index_dim_sizes[0]
                             : op_case.index_dim_sizes[coord.back()];
    const uint8_t* raw = indices_data + indices.ByteOffset(coord);
    bool out_of_range = false;
    NormalizeIndex(index_type, raw, dim, &out_of_range);
    if (out_of_range) {
      switch (index_type) {
        case DML_TENSOR_DATA_TYPE_INT32: {
          int32_t v;
          std::memcpy(&v, raw, sizeof(v));
          return std::to_string(v);
        }
        case DML_TENSOR_DATA_TYPE_UINT32: {
          uint32_t v;
          std::memcpy(&v, raw, sizeof(v));
          return std::to_string(v);
        }
        case DML_TENSOR_DATA_TYPE_INT64: {
          int64_t v;
          std::memcpy(&v, raw, sizeof(v));
          return std::to_string(v);
        }
        default: {
          uint64_t v;
          std::memcpy(&v, raw, sizeof(v));
          return std::to_string(v);
        }
      }
    }
  } while (NextCoord(indices.sizes(), &coord));
  return std::string();
}

std::string StatusText(const dmlcpu::Status& status) {
  return std::string(dmlcpu::StatusCodeName(status.code())) + ": " + status.message();
}

}  // namespace

std::string IntsToString(const std::vector<int32_t>& values) {
  std::string text = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i != 0) text += ",";
    text += std::to_string(values[i]);
  }
  return text + "}";
}

const char* IndexPolicyName(dmlcpu::IndexPolicy policy) {
  return policy == dmlcpu::IndexPolicy::kStrict ? "kStrict" : "kClamp";
}

const char* IndexValuesName(IndexValues values) {
  switch (values) {
    case IndexValues::kNonNegative:
      return "non-negative";
    case IndexValues::kInRange:
      return "in-range";
    case IndexValues::kOutOfRange:
      return "out-of-range";
    case IndexValues::kSortedRuns:
      return "sorted-runs";
  }
  return "?";
}

// ---- TensorDescHolder ----

TensorDescHolder::TensorDescHolder(DML_TENSOR_DATA_TYPE data_type, std::vector<uint32_t> sizes,
                                   std::vector<uint32_t> strides, uint64_t extra_total_bytes,
                                   uint32_t guaranteed_alignment)
    : sizes_(std::move(sizes)), strides_(std::move(strides)) {
  if (!strides_.empty() && strides_.size() != sizes_.size()) {
    ADD_FAILURE() << "tester bug: strides " << SizesToString(strides_) << " do not match sizes "
                  << SizesToString(sizes_);
    strides_.clear();
  }
  effective_strides_ = strides_.empty() ? PackedStrides(sizes_) : strides_;
  buffer_desc_.DataType = data_type;
  buffer_desc_.Flags = DML_TENSOR_FLAG_NONE;
  buffer_desc_.DimensionCount = static_cast<UINT>(sizes_.size());
  buffer_desc_.Sizes = sizes_.data();
  buffer_desc_.Strides = strides_.empty() ? nullptr : strides_.data();
  buffer_desc_.TotalTensorSizeInBytes =
      MinimumTensorSizeBytes(data_type, buffer_desc_.DimensionCount, buffer_desc_.Sizes,
                             buffer_desc_.Strides) +
      extra_total_bytes;
  buffer_desc_.GuaranteedBaseOffsetAlignment = guaranteed_alignment;
  tensor_desc_.Type = DML_TENSOR_TYPE_BUFFER;
  tensor_desc_.Desc = &buffer_desc_;
}

uint64_t TensorDescHolder::ElementCount() const {
  uint64_t count = 1;
  for (uint32_t size : sizes_) count *= size;
  return count;
}

uint64_t TensorDescHolder::ByteOffset(const std::vector<uint64_t>& coord) const {
  uint64_t offset_elems = 0;
  for (size_t d = 0; d < sizes_.size(); ++d) offset_elems += coord[d] * effective_strides_[d];
  return offset_elems * element_bytes();
}

std::string TensorDescHolder::ToString() const {
  std::string text = DataTypeName(buffer_desc_.DataType);
  text += SizesToString(sizes_);
  text += strides_.empty() ? "s=null" : "s=" + SizesToString(strides_);
  text += " total=" + std::to_string(buffer_desc_.TotalTensorSizeInBytes);
  if (buffer_desc_.GuaranteedBaseOffsetAlignment != 0) {
    text += " align=" + std::to_string(buffer_desc_.GuaranteedBaseOffsetAlignment);
  }
  return text;
}

void TensorDescHolder::Scribble() {
  std::fill(sizes_.begin(), sizes_.end(), 0xDEADBEEFu);
  std::fill(strides_.begin(), strides_.end(), 0xCAFEF00Du);
  std::memset(&buffer_desc_, 0xCD, sizeof(buffer_desc_));
  std::memset(&tensor_desc_, 0xCD, sizeof(tensor_desc_));
}

void OperatorCase::Scribble() {
  for (auto& input : inputs) input->Scribble();
  for (auto& output : outputs) output->Scribble();
  // Byte-fill, not memset: an empty vector's data() may be null, which memset must not see.
  auto scribble_descs = [](std::vector<DML_TENSOR_DESC>& descs) {
    for (DML_TENSOR_DESC& desc : descs) std::memset(&desc, 0xCD, sizeof(desc));
  };
  scribble_descs(input_descs);
  scribble_descs(output_descs);
  std::memset(&gather, 0xAB, sizeof(gather));
  std::memset(&gather_elements, 0xAB, sizeof(gather_elements));
  std::memset(&gather_nd, 0xAB, sizeof(gather_nd));
  std::memset(&gather_nd1, 0xAB, sizeof(gather_nd1));
  std::memset(&slice, 0xAB, sizeof(slice));
  std::memset(&slice1, 0xAB, sizeof(slice1));
  std::memset(&padding, 0xAB, sizeof(padding));
  std::memset(&padding1, 0xAB, sizeof(padding1));
  std::memset(&depth_to_space, 0xAB, sizeof(depth_to_space));
  std::memset(&space_to_depth, 0xAB, sizeof(space_to_depth));
  std::memset(&depth_to_space1, 0xAB, sizeof(depth_to_space1));
  std::memset(&space_to_depth1, 0xAB, sizeof(space_to_depth1));
  std::memset(&slice_grad, 0xAB, sizeof(slice_grad));
  std::fill(start_padding.begin(), start_padding.end(), 0xFFFFFFF0u);
  std::fill(end_padding.begin(), end_padding.end(), 0xFFFFFFF0u);
  std::fill(window_offsets.begin(), window_offsets.end(), 0xFFFFFFF0u);
  std::fill(window_sizes.begin(), window_sizes.end(), 0xFFFFFFF0u);
  std::fill(window_strides.begin(), window_strides.end(), 0xFFFFFFF0u);
  std::fill(window_strides_signed.begin(), window_strides_signed.end(), 0);
  std::memset(&op_desc, 0xAB, sizeof(op_desc));
}

// ---- GuardedBuffer ----

GuardedBuffer::GuardedBuffer(uint64_t size_bytes, uint32_t misalign_bytes)
    : storage_(size_bytes + 2 * kGuardBytes + 64), size_bytes_(size_bytes) {
  const uintptr_t first = reinterpret_cast<uintptr_t>(storage_.data()) + kGuardBytes;
  const uintptr_t delta = (misalign_bytes % 64 + 64 - first % 64) % 64;
  data_offset_ = kGuardBytes + delta;
}

void GuardedBuffer::FillSentinel() {
  // One 64-bit hash per 8 bytes of the region: position-dependent, identical for equal sizes.
  uint8_t* begin = data() - kGuardBytes;
  const uint64_t bytes = region_bytes();
  for (uint64_t p = 0; p < bytes; p += 8) {
    const uint64_t word = SplitMix64((p ^ 0x5EA7135E57175EA7ull) + (sentinel_salt_ << 40));
    std::memcpy(begin + p, &word, std::min<uint64_t>(8, bytes - p));
  }
}

void GuardedBuffer::FillRandom(std::mt19937_64& rng) {
  uint8_t* bytes = data();
  uint64_t state = rng();
  for (uint64_t p = 0; p < size_bytes_; p += 8) {
    const uint64_t word = SplitMix64(state += 0x9E3779B97F4A7C15ull);
    std::memcpy(bytes + p, &word, std::min<uint64_t>(8, size_bytes_ - p));
  }
}

bool GuardedBuffer::RegionEquals(const std::vector<uint8_t>& snapshot) const {
  return snapshot.size() == region_bytes() &&
         std::memcmp(region(), snapshot.data(), snapshot.size()) == 0;
}

// ---- buffers and comparison ----

GuardedBuffer MakeOutputBuffer(const OperatorCase& op_case, size_t i) {
  GuardedBuffer buffer(op_case.output_binding_bytes[i], op_case.output_misalign_bytes[i]);
  buffer.set_sentinel_salt(i);
  buffer.FillSentinel();
  return buffer;
}

std::vector<GuardedBuffer> MakeOutputBuffers(const OperatorCase& op_case) {
  std::vector<GuardedBuffer> buffers;
  for (size_t i = 0; i < op_case.outputs.size(); ++i) {
    buffers.push_back(MakeOutputBuffer(op_case, i));
  }
  return buffers;
}

void FillSentinels(std::vector<GuardedBuffer>* buffers) {
  for (GuardedBuffer& buffer : *buffers) buffer.FillSentinel();
}

CaseBuffers PrepareBuffers(const OperatorCase& op_case, uint64_t seed) {
  std::mt19937_64 rng(seed);
  CaseBuffers buffers;
  for (size_t i = 0; i < op_case.inputs.size(); ++i) {
    GuardedBuffer buffer(op_case.input_binding_bytes[i], op_case.input_misalign_bytes[i]);
    buffer.FillSentinel();
    buffer.FillRandom(rng);  // stride gaps and padding get random garbage too
    buffers.inputs.push_back(std::move(buffer));
  }
  if (op_case.has_indices()) {
    const TensorDescHolder& indices = *op_case.inputs[1];
    const std::vector<uint32_t>& sizes = indices.sizes();
    std::vector<uint64_t> coord(sizes.size(), 0);
    std::vector<uint64_t> run_state(sizes.back(), 0);  // kSortedRuns: one per tuple element
    uint8_t* base = buffers.inputs[1].data();
    do {
      const uint64_t dim = op_case.index_dim_sizes.size() == 1
                               ? op_case.index_dim_sizes[0]
                               : op_case.index_dim_sizes[coord.back()];
      // 0-stride aliases get the last value written; the reference reads what is there.
      WriteIndex(base + indices.ByteOffset(coord), indices.data_type(),
                 IndexBits(rng, indices.data_type(), dim, op_case.index_values,
                           op_case.out_of_range_fraction,
                           &run_state[op_case.index_dim_sizes.size() == 1 ? 0 : coord.back()]));
    } while (NextCoord(sizes, &coord));
  }
  for (const GuardedBuffer& buffer : buffers.inputs) {
    buffers.input_snapshots.push_back(buffer.RegionCopy());
  }
  buffers.expected = MakeOutputBuffers(op_case);
  std::vector<const void*> input_data;
  for (const GuardedBuffer& buffer : buffers.inputs) input_data.push_back(buffer.data());
  std::vector<void*> output_data;
  for (GuardedBuffer& buffer : buffers.expected) output_data.push_back(buffer.data());
  if (InputTensorsOf(op_case.op_desc).size() != input_data.size() ||
      OutputTensorsOf(op_case.op_desc).size() != output_data.size()) {
    buffers.reference.ok = false;
    buffers.reference.error =
        "the case's binding counts differ from the descriptor's tensors "
        "(tester bug, or InputTensorsOf/OutputTensorsOf lack the type)";
    return buffers;
  }
  buffers.reference = RunReference(op_case.op_desc, input_data.data(), output_data.data());
  return buffers;
}

std::vector<dmlcpu::Binding> InputBindings(const OperatorCase& op_case,
                                           const CaseBuffers& buffers) {
  std::vector<dmlcpu::Binding> bindings;
  for (size_t i = 0; i < buffers.inputs.size(); ++i) {
    bindings.push_back({buffers.inputs[i].data(), op_case.input_binding_bytes[i]});
  }
  return bindings;
}

std::vector<dmlcpu::OutputBinding> OutputBindings(const OperatorCase& op_case,
                                                  std::vector<GuardedBuffer>* outputs) {
  std::vector<dmlcpu::OutputBinding> bindings;
  for (size_t i = 0; i < outputs->size(); ++i) {
    bindings.push_back({(*outputs)[i].data(), op_case.output_binding_bytes[i]});
  }
  return bindings;
}

std::string DiffOutputs(const OperatorCase& op_case, const std::vector<GuardedBuffer>& expected,
                        const std::vector<GuardedBuffer>& actual) {
  if (expected.size() != op_case.outputs.size() || actual.size() != op_case.outputs.size()) {
    return "output buffer counts differ (tester bug)";
  }
  std::string text;
  for (size_t i = 0; i < expected.size(); ++i) {
    const std::string diff = DiffOutput(op_case, i, expected[i], actual[i]);
    if (diff.empty()) continue;
    if (!text.empty()) text += "\n  ";
    text += "output " + std::to_string(i) + ": " + diff;
  }
  return text;
}

std::string DiffOutput(const OperatorCase& op_case, size_t i, const GuardedBuffer& expected,
                       const GuardedBuffer& actual) {
  if (expected.region_bytes() != actual.region_bytes()) return "buffer sizes differ (tester bug)";
  const uint8_t* want = expected.region();
  const uint8_t* got = actual.region();
  if (std::memcmp(want, got, expected.region_bytes()) == 0) return std::string();

  uint64_t first = 0, mismatched_bytes = 0;
  bool found = false;
  for (uint64_t p = 0; p < expected.region_bytes(); ++p) {
    if (want[p] != got[p]) {
      if (!found) first = p;
      found = true;
      ++mismatched_bytes;
    }
  }
  const TensorDescHolder& out = *op_case.outputs[i];
  const uint64_t element_bytes = out.element_bytes();
  const int64_t rel =
      static_cast<int64_t>(first) - static_cast<int64_t>(GuardedBuffer::kGuardBytes);
  std::string text = std::to_string(mismatched_bytes) + " byte(s) differ; first at ";
  if (rel < 0) {
    text += "guard byte " + std::to_string(rel) + " before the output";
  } else if (static_cast<uint64_t>(rel) >= actual.size_bytes()) {
    text += "guard byte +" + std::to_string(rel - static_cast<int64_t>(actual.size_bytes())) +
            " after the output binding";
  } else {
    text += "output byte " + std::to_string(rel);
    bool is_element = false;
    std::vector<uint64_t> coord(out.sizes().size(), 0);
    do {
      const uint64_t offset = out.ByteOffset(coord);
      if (static_cast<uint64_t>(rel) >= offset &&
          static_cast<uint64_t>(rel) < offset + element_bytes) {
        is_element = true;
        break;
      }
    } while (NextCoord(out.sizes(), &coord));
    text += is_element ? " (element " + CoordToString(coord) + ")"
                       : " (not an element: stride gap / padding / binding tail, must keep the "
                         "sentinel)";
  }
  text += "; expected byte " + HexBytes(want + first, 1) + " got " + HexBytes(got + first, 1);
  // The first few wrong elements.
  std::vector<uint64_t> coord(out.sizes().size(), 0);
  int listed = 0;
  uint64_t wrong_elements = 0;
  do {
    const uint64_t offset = GuardedBuffer::kGuardBytes + out.ByteOffset(coord);
    if (std::memcmp(want + offset, got + offset, element_bytes) != 0) {
      ++wrong_elements;
      if (listed < 6) {
        text += "\n    element " + CoordToString(coord) + ": expected 0x" +
                HexBytes(want + offset, element_bytes) + " got 0x" +
                HexBytes(got + offset, element_bytes);
        ++listed;
      }
    }
  } while (NextCoord(out.sizes(), &coord));
  text += "\n    " + std::to_string(wrong_elements) + " of " + std::to_string(out.ElementCount()) +
          " elements wrong";
  return text;
}

bool RunCase(const OperatorCase& op_case, const std::vector<const dmlcpu::Device*>& devices,
             dmlcpu::IndexPolicy policy, uint64_t seed) {
  const std::string context =
      op_case.description + " policy=" + IndexPolicyName(policy) + " seed=" + std::to_string(seed);
  CaseBuffers buffers = PrepareBuffers(op_case, seed);
  if (!buffers.reference.ok) {
    ADD_FAILURE() << "reference rejected the case: " << buffers.reference.error
                  << "\n  case: " << context;
    return false;
  }
  bool passed = true;

  // The library's DMLCalcBufferTensorSize agrees with section 2.2 for every tensor of the case.
  std::vector<const TensorDescHolder*> tensors;
  for (const auto& input : op_case.inputs) tensors.push_back(input.get());
  for (const auto& output : op_case.outputs) tensors.push_back(output.get());
  for (const TensorDescHolder* tensor : tensors) {
    const DML_BUFFER_TENSOR_DESC& desc = tensor->buffer_desc();
    const uint64_t library_bytes =
        dmlcpu::CalcBufferTensorSize(desc.DataType, desc.DimensionCount, desc.Sizes, desc.Strides);
    const uint64_t expected_bytes =
        MinimumTensorSizeBytes(desc.DataType, desc.DimensionCount, desc.Sizes, desc.Strides);
    if (library_bytes != expected_bytes) {
      ADD_FAILURE() << "CalcBufferTensorSize(" << tensor->ToString() << ") = " << library_bytes
                    << ", expected " << expected_bytes;
      passed = false;
    }
  }

  const bool expect_out_of_range =
      policy == dmlcpu::IndexPolicy::kStrict && buffers.reference.index_out_of_range;
  dmlcpu::CompileOptions options;
  options.index_policy = policy;
  std::string first_strict_message;
  std::vector<GuardedBuffer> outputs = MakeOutputBuffers(op_case);
  std::vector<GuardedBuffer> pristine;
  if (expect_out_of_range) pristine = MakeOutputBuffers(op_case);
  for (size_t device_index = 0; device_index < devices.size(); ++device_index) {
    const dmlcpu::Device& device = *devices[device_index];
    const std::string where =
        "\n  device: max_concurrency=" + std::to_string(device.max_concurrency()) +
        "\n  case: " + context;
    dmlcpu::StatusOr<dmlcpu::CompiledOperator> compiled = device.Compile(op_case.op_desc, options);
    if (!compiled.ok()) {
      ADD_FAILURE() << "Compile failed: " << StatusText(compiled.status()) << where;
      return false;
    }
    if (compiled->type() != op_case.op_desc.Type ||
        compiled->input_count() != op_case.inputs.size() ||
        compiled->output_count() != op_case.outputs.size()) {
      ADD_FAILURE() << "CompiledOperator reports type " << compiled->type() << ", "
                    << compiled->input_count() << " input(s), " << compiled->output_count()
                    << " output(s)" << where;
      passed = false;
    }
    if (compiled->Describe().empty()) {
      ADD_FAILURE() << "Describe() is empty" << where;
      passed = false;
    }

    if (device_index != 0) FillSentinels(&outputs);
    const std::vector<dmlcpu::Binding> inputs = InputBindings(op_case, buffers);
    const std::vector<dmlcpu::OutputBinding> output_bindings = OutputBindings(op_case, &outputs);
    const dmlcpu::Status status = compiled->Execute(inputs.data(), inputs.size(),
                                                    output_bindings.data(), output_bindings.size());

    if (expect_out_of_range) {
      if (status.code() != dmlcpu::StatusCode::kOutOfRange) {
        ADD_FAILURE() << "kStrict with an out-of-range index: Execute returned "
                      << StatusText(status) << ", expected OUT_OF_RANGE" << where;
        passed = false;
      }
      const std::string diff = DiffOutputs(op_case, pristine, outputs);
      if (!diff.empty()) {
        ADD_FAILURE() << "kStrict failure wrote to the output: " << diff << where;
        passed = false;
      }
      // The error names the first bad index in index order, whatever the thread count.
      const std::string first_bad = FirstOutOfRangeIndexText(op_case, buffers.inputs[1].data());
      if (status.message().find(" " + first_bad) == std::string::npos) {
        ADD_FAILURE() << "kStrict error does not name the first out-of-range index (" << first_bad
                      << "): \"" << status.message() << "\"" << where;
        passed = false;
      }
      if (device_index == 0) {
        first_strict_message = status.message();
      } else if (status.message() != first_strict_message) {
        ADD_FAILURE() << "kStrict error differs between thread counts:\n    \""
                      << first_strict_message << "\"\n    \"" << status.message() << "\"" << where;
        passed = false;
      }
    } else {
      if (!status.ok()) {
        ADD_FAILURE() << "Execute failed: " << StatusText(status) << where;
        passed = false;
      } else {
        const std::string diff = DiffOutputs(op_case, buffers.expected, outputs);
        if (!diff.empty()) {
          ADD_FAILURE() << "output differs from the reference: " << diff << where;
          passed = false;
        }
      }
    }
    for (size_t i = 0; i < buffers.inputs.size(); ++i) {
      if (!buffers.inputs[i].RegionEquals(buffers.input_snapshots[i])) {
        ADD_FAILURE() << "input " << i << " (or its guards) was modified" << where;
        passed = false;
      }
    }
    if (!passed) return false;
  }
  return passed;
}

// ---- testers ----

std::unique_ptr<OperatorCase> GatherTester::BuildCase() const {
  std::vector<uint32_t> output_sizes = output_sizes_;
  if (axis_ >= input_sizes_.size() ||
      (output_sizes.empty() &&
       !GatherOutputSizes(input_sizes_, indices_sizes_, axis_, index_dimensions_, &output_sizes))) {
    ADD_FAILURE() << "GatherTester: shapes break the GATHER rules: in="
                  << SizesToString(input_sizes_) << " idx=" << SizesToString(indices_sizes_)
                  << " axis=" << axis_ << " k=" << index_dimensions_;
    return nullptr;
  }
  auto op_case = std::make_unique<OperatorCase>();
  op_case->inputs.push_back(std::make_unique<TensorDescHolder>(
      data_type_, input_sizes_, input_strides_, input_extra_bytes_, alignment_));
  AddIndices(op_case.get(), {input_sizes_[axis_]});
  op_case->outputs.push_back(std::make_unique<TensorDescHolder>(
      data_type_, output_sizes, output_strides_, output_extra_bytes_, alignment_));
  op_case->gather.InputTensor = op_case->inputs[0]->desc();
  op_case->gather.IndicesTensor = op_case->inputs[1]->desc();
  op_case->gather.OutputTensor = op_case->outputs[0]->desc();
  op_case->gather.Axis = axis_;
  op_case->gather.IndexDimensions = index_dimensions_;
  op_case->op_desc = {DML_OPERATOR_GATHER, &op_case->gather};
  op_case->description = "GATHER Axis=" + std::to_string(axis_) +
                         " IndexDimensions=" + std::to_string(index_dimensions_);
  FinishCase(op_case.get());
  return op_case;
}

std::unique_ptr<OperatorCase> GatherElementsTester::BuildCase() const {
  if (axis_ >= input_sizes_.size()) {
    ADD_FAILURE() << "GatherElementsTester: axis " << axis_ << " out of range";
    return nullptr;
  }
  auto op_case = std::make_unique<OperatorCase>();
  op_case->inputs.push_back(std::make_unique<TensorDescHolder>(
      data_type_, input_sizes_, input_strides_, input_extra_bytes_, alignment_));
  AddIndices(op_case.get(), {input_sizes_[axis_]});
  op_case->outputs.push_back(std::make_unique<TensorDescHolder>(
      data_type_, output_sizes_.empty() ? indices_sizes_ : output_sizes_, output_strides_,
      output_extra_bytes_, alignment_));
  op_case->gather_elements.InputTensor = op_case->inputs[0]->desc();
  op_case->gather_elements.IndicesTensor = op_case->inputs[1]->desc();
  op_case->gather_elements.OutputTensor = op_case->outputs[0]->desc();
  op_case->gather_elements.Axis = axis_;
  op_case->op_desc = {DML_OPERATOR_GATHER_ELEMENTS, &op_case->gather_elements};
  op_case->description = "GATHER_ELEMENTS Axis=" + std::to_string(axis_);
  FinishCase(op_case.get());
  return op_case;
}

std::unique_ptr<OperatorCase> GatherNdTester::BuildCase() const {
  std::vector<uint32_t> output_sizes = output_sizes_;
  std::vector<uint32_t> computed;
  if (!GatherNdOutputSizes(input_sizes_, indices_sizes_, input_dims_, indices_dims_, batch_dims_,
                           &computed)) {
    ADD_FAILURE() << "GatherNdTester: shapes break the GATHER_ND rules: in="
                  << SizesToString(input_sizes_) << " idx=" << SizesToString(indices_sizes_)
                  << " r=" << input_dims_ << " q=" << indices_dims_ << " b=" << batch_dims_;
    return nullptr;
  }
  if (output_sizes.empty()) output_sizes = computed;
  const uint32_t n = static_cast<uint32_t>(input_sizes_.size());
  const uint32_t t = indices_sizes_.back();
  std::vector<uint64_t> index_dim_sizes;
  for (uint32_t j = 0; j < t; ++j) {
    index_dim_sizes.push_back(input_sizes_[n - input_dims_ + batch_dims_ + j]);
  }
  auto op_case = std::make_unique<OperatorCase>();
  op_case->inputs.push_back(std::make_unique<TensorDescHolder>(
      data_type_, input_sizes_, input_strides_, input_extra_bytes_, alignment_));
  AddIndices(op_case.get(), std::move(index_dim_sizes));
  op_case->outputs.push_back(std::make_unique<TensorDescHolder>(
      data_type_, output_sizes, output_strides_, output_extra_bytes_, alignment_));
  if (use_nd1_) {
    DML_GATHER_ND1_OPERATOR_DESC& desc = op_case->gather_nd1;
    desc.InputTensor = op_case->inputs[0]->desc();
    desc.IndicesTensor = op_case->inputs[1]->desc();
    desc.OutputTensor = op_case->outputs[0]->desc();
    desc.InputDimensionCount = input_dims_;
    desc.IndicesDimensionCount = indices_dims_;
    desc.BatchDimensionCount = batch_dims_;
    op_case->op_desc = {DML_OPERATOR_GATHER_ND1, &desc};
    op_case->description = "GATHER_ND1 b=" + std::to_string(batch_dims_);
  } else {
    DML_GATHER_ND_OPERATOR_DESC& desc = op_case->gather_nd;
    desc.InputTensor = op_case->inputs[0]->desc();
    desc.IndicesTensor = op_case->inputs[1]->desc();
    desc.OutputTensor = op_case->outputs[0]->desc();
    desc.InputDimensionCount = input_dims_;
    desc.IndicesDimensionCount = indices_dims_;
    op_case->op_desc = {DML_OPERATOR_GATHER_ND, &desc};
    op_case->description = "GATHER_ND";
  }
  op_case->description +=
      " r=" + std::to_string(input_dims_) + " q=" + std::to_string(indices_dims_);
  FinishCase(op_case.get());
  return op_case;
}

std::unique_ptr<OperatorCase> SliceTester::BuildCase() const {
  const size_t n = input_sizes_.size();
  std::vector<uint32_t> sizes = sizes_.empty() ? output_sizes_ : sizes_;
  std::vector<uint32_t> offsets = offsets_.empty() ? std::vector<uint32_t>(n, 0) : offsets_;
  std::vector<uint32_t> strides = strides_.empty() ? std::vector<uint32_t>(n, 1) : strides_;
  if (sizes.size() != n || offsets.size() != n || strides.size() != n) {
    ADD_FAILURE() << "SliceTester: attribute arrays must have " << n << " entries";
    return nullptr;
  }
  auto op_case = std::make_unique<OperatorCase>();
  op_case->inputs.push_back(std::make_unique<TensorDescHolder>(
      data_type_, input_sizes_, input_strides_, input_extra_bytes_, alignment_));
  op_case->outputs.push_back(
      std::make_unique<TensorDescHolder>(data_type_, output_sizes_.empty() ? sizes : output_sizes_,
                                         output_strides_, output_extra_bytes_, alignment_));
  op_case->window_offsets = offsets;
  op_case->window_sizes = sizes;
  op_case->window_strides = strides;
  DML_SLICE_OPERATOR_DESC& desc = op_case->slice;
  desc.InputTensor = op_case->inputs[0]->desc();
  desc.OutputTensor = op_case->outputs[0]->desc();
  desc.DimensionCount = static_cast<UINT>(n);
  desc.Offsets = op_case->window_offsets.data();
  desc.Sizes = op_case->window_sizes.data();
  desc.Strides = op_case->window_strides.data();
  op_case->op_desc = {DML_OPERATOR_SLICE, &desc};
  op_case->description = "SLICE Offsets=" + SizesToString(offsets) +
                         " Sizes=" + SizesToString(sizes) + " Strides=" + SizesToString(strides);
  FinishCase(op_case.get());
  return op_case;
}

std::unique_ptr<OperatorCase> Slice1Tester::BuildCase() const {
  const size_t n = input_sizes_.size();
  std::vector<uint32_t> offsets = offsets_.empty() ? std::vector<uint32_t>(n, 0) : offsets_;
  std::vector<uint32_t> sizes = sizes_.empty() ? input_sizes_ : sizes_;
  std::vector<int32_t> strides = strides_.empty() ? std::vector<int32_t>(n, 1) : strides_;
  if (sizes.size() != n || offsets.size() != n || strides.size() != n) {
    ADD_FAILURE() << "Slice1Tester: attribute arrays must have " << n << " entries";
    return nullptr;
  }
  std::vector<uint32_t> output_sizes = output_sizes_;
  if (output_sizes.empty()) {
    for (size_t d = 0; d < n; ++d) {
      const uint32_t step =
          static_cast<uint32_t>(strides[d] < 0 ? -int64_t{strides[d]} : strides[d]);
      output_sizes.push_back(step == 0 || sizes[d] == 0 ? 1 : 1 + (sizes[d] - 1) / step);
    }
  }
  auto op_case = std::make_unique<OperatorCase>();
  op_case->inputs.push_back(std::make_unique<TensorDescHolder>(
      data_type_, input_sizes_, input_strides_, input_extra_bytes_, alignment_));
  op_case->outputs.push_back(std::make_unique<TensorDescHolder>(
      data_type_, output_sizes, output_strides_, output_extra_bytes_, alignment_));
  op_case->window_offsets = offsets;
  op_case->window_sizes = sizes;
  op_case->window_strides_signed = strides;
  DML_SLICE1_OPERATOR_DESC& desc = op_case->slice1;
  desc.InputTensor = op_case->inputs[0]->desc();
  desc.OutputTensor = op_case->outputs[0]->desc();
  desc.DimensionCount = static_cast<UINT>(n);
  desc.InputWindowOffsets = op_case->window_offsets.data();
  desc.InputWindowSizes = op_case->window_sizes.data();
  desc.InputWindowStrides = op_case->window_strides_signed.data();
  op_case->op_desc = {DML_OPERATOR_SLICE1, &desc};
  op_case->description = "SLICE1 Offsets=" + SizesToString(offsets) +
                         " Sizes=" + SizesToString(sizes) + " Strides=" + IntsToString(strides);
  FinishCase(op_case.get());
  return op_case;
}

}  // namespace dmlcpu_test
