// SPDX-License-Identifier: Apache-2.0
// What the validation tests share: DirectML's size arithmetic written independently of the
// library, a plain mutable description of one operator (OpCase) that CompileCase turns into
// DirectML structs right before Compile (so every test also exercises the "descriptor may die
// after Compile" contract), host buffers, status assertions, and each operator's worked example.
// Messages follow "<OP>: <Field path> is <value>, expected <constraint>"; the assertions look
// for stable fragments of that form.
#ifndef DMLCPU_TESTS_VALIDATION_VALIDATION_CASES_H_
#define DMLCPU_TESTS_VALIDATION_VALIDATION_CASES_H_

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dmlcpu/dmlcpu.h"
#include "gtest/gtest.h"

namespace dmlcpu {
namespace validation_test {

inline constexpr uint32_t kHuge = 0xFFFFFFFFu;
inline constexpr uint8_t kSentinel = 0xCD;

inline constexpr DML_TENSOR_DATA_TYPE kF16 = DML_TENSOR_DATA_TYPE_FLOAT16;
inline constexpr DML_TENSOR_DATA_TYPE kF32 = DML_TENSOR_DATA_TYPE_FLOAT32;
inline constexpr DML_TENSOR_DATA_TYPE kU8 = DML_TENSOR_DATA_TYPE_UINT8;
inline constexpr DML_TENSOR_DATA_TYPE kI32 = DML_TENSOR_DATA_TYPE_INT32;
inline constexpr DML_TENSOR_DATA_TYPE kU32 = DML_TENSOR_DATA_TYPE_UINT32;
inline constexpr DML_TENSOR_DATA_TYPE kI64 = DML_TENSOR_DATA_TYPE_INT64;
inline constexpr DML_TENSOR_DATA_TYPE kU64 = DML_TENSOR_DATA_TYPE_UINT64;

// ------------------------------------------------------------------------------------------------
// Data types and DirectML's size arithmetic (written independently of the library).

inline uint32_t ElementBits(DML_TENSOR_DATA_TYPE type) {
  switch (type) {
    case DML_TENSOR_DATA_TYPE_UINT8:
    case DML_TENSOR_DATA_TYPE_INT8:
      return 8;
    case DML_TENSOR_DATA_TYPE_FLOAT16:
    case DML_TENSOR_DATA_TYPE_UINT16:
    case DML_TENSOR_DATA_TYPE_INT16:
      return 16;
    case DML_TENSOR_DATA_TYPE_FLOAT32:
    case DML_TENSOR_DATA_TYPE_UINT32:
    case DML_TENSOR_DATA_TYPE_INT32:
      return 32;
    case DML_TENSOR_DATA_TYPE_FLOAT64:
    case DML_TENSOR_DATA_TYPE_UINT64:
    case DML_TENSOR_DATA_TYPE_INT64:
      return 64;
    case DML_TENSOR_DATA_TYPE_UINT4:
    case DML_TENSOR_DATA_TYPE_INT4:
      return 4;
    default:
      return 0;
  }
}

inline const char* DataTypeName(DML_TENSOR_DATA_TYPE type) {
  switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: return "FLOAT32";
    case DML_TENSOR_DATA_TYPE_FLOAT16: return "FLOAT16";
    case DML_TENSOR_DATA_TYPE_UINT32: return "UINT32";
    case DML_TENSOR_DATA_TYPE_UINT16: return "UINT16";
    case DML_TENSOR_DATA_TYPE_UINT8: return "UINT8";
    case DML_TENSOR_DATA_TYPE_INT32: return "INT32";
    case DML_TENSOR_DATA_TYPE_INT16: return "INT16";
    case DML_TENSOR_DATA_TYPE_INT8: return "INT8";
    case DML_TENSOR_DATA_TYPE_FLOAT64: return "FLOAT64";
    case DML_TENSOR_DATA_TYPE_UINT64: return "UINT64";
    case DML_TENSOR_DATA_TYPE_INT64: return "INT64";
    case DML_TENSOR_DATA_TYPE_UINT4: return "UINT4";
    case DML_TENSOR_DATA_TYPE_INT4: return "INT4";
    default: return "UNKNOWN";
  }
}

// DMLCalcBufferTensorSize (docs/semantics.md#buffer-size) in 128-bit arithmetic, saturated to
// UINT64_MAX. A size of 0 counts as 1 so that tests breaking a size keep a plausible byte count.
inline uint64_t RequiredBytes(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes,
                              const std::vector<uint32_t>& strides) {
  using U128 = unsigned __int128;
  U128 span_elems = 1;
  if (strides.empty()) {
    for (uint32_t size : sizes) span_elems *= std::max<uint32_t>(size, 1);
  } else {
    U128 last = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
      last += U128(std::max<uint32_t>(sizes[i], 1) - 1) * strides[i];
    }
    span_elems = last + 1;
  }
  const U128 bits = span_elems * ElementBits(type);
  U128 bytes = (bits + 7) / 8;
  bytes = (bytes + 3) & ~U128(3);
  return bytes > std::numeric_limits<uint64_t>::max() ? std::numeric_limits<uint64_t>::max()
                                                      : static_cast<uint64_t>(bytes);
}

inline std::vector<uint32_t> PackedStrides(const std::vector<uint32_t>& sizes) {
  std::vector<uint32_t> strides(sizes.size());
  uint32_t stride = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= sizes[i];
  }
  return strides;
}

// ------------------------------------------------------------------------------------------------
// A plain, mutable description of one operator; CompileCase turns it into DirectML structs.

// Enum fields a test sets to arbitrary values (DataType 99, Flags 0x2, Type 2, operator type 9999)
// are kept as integers and stored into the structs as raw bits, the way a C caller writes them:
// converting such a value to the C++ enum type would itself be undefined behaviour.
struct TensorArgs {
  DML_TENSOR_DATA_TYPE data_type = kF32;
  std::optional<uint32_t> raw_data_type;  // overrides data_type in the descriptor only
  uint32_t flags = 0;
  std::vector<uint32_t> sizes;
  std::vector<uint32_t> strides;            // empty: Strides = nullptr
  std::optional<uint64_t> total_bytes;      // default: RequiredBytes()
  uint32_t alignment_bytes = 0;             // GuaranteedBaseOffsetAlignment
  std::optional<uint32_t> dimension_count;  // default: sizes.size()
  uint32_t tensor_type = DML_TENSOR_TYPE_BUFFER;
  bool null_sizes = false;
  bool null_buffer_desc = false;  // DML_TENSOR_DESC.Desc = nullptr
  bool absent = false;            // the operator struct's tensor pointer is nullptr
  std::vector<int64_t> values;    // logical row-major contents (inputs) or expected output

  uint64_t TotalBytes() const {
    return total_bytes ? *total_bytes : RequiredBytes(data_type, sizes, strides);
  }
  uint64_t ElementCount() const {
    uint64_t count = 1;
    for (uint32_t size : sizes) count *= size;
    return count;
  }
};

inline TensorArgs Tensor(DML_TENSOR_DATA_TYPE data_type, std::vector<uint32_t> sizes,
                         std::vector<int64_t> values = {}) {
  TensorArgs t;
  t.data_type = data_type;
  t.sizes = std::move(sizes);
  t.values = std::move(values);
  return t;
}

enum class Slot { kInput, kIndices, kOutput };

inline const char* SlotName(Slot slot) {
  switch (slot) {
    case Slot::kInput: return "InputTensor";
    case Slot::kIndices: return "IndicesTensor";
    case Slot::kOutput: return "OutputTensor";
  }
  return "?";
}

inline bool HasIndices(DML_OPERATOR_TYPE type) {
  return type != DML_OPERATOR_SLICE && type != DML_OPERATOR_SLICE1;
}

inline std::string OpName(DML_OPERATOR_TYPE type) {
  switch (type) {
    case DML_OPERATOR_GATHER: return "GATHER";
    case DML_OPERATOR_GATHER_ELEMENTS: return "GATHER_ELEMENTS";
    case DML_OPERATOR_GATHER_ND: return "GATHER_ND";
    case DML_OPERATOR_GATHER_ND1: return "GATHER_ND1";
    case DML_OPERATOR_SLICE: return "SLICE";
    case DML_OPERATOR_SLICE1: return "SLICE1";
    default: return "?";
  }
}

// "GATHER: " — the prefix every message of that operator starts with.
inline std::string Op(DML_OPERATOR_TYPE type) { return OpName(type) + ": "; }

struct OpCase {
  DML_OPERATOR_TYPE type = DML_OPERATOR_GATHER;
  std::optional<uint32_t> raw_type;  // overrides DML_OPERATOR_DESC.Type
  bool null_op_desc = false;         // DML_OPERATOR_DESC.Desc = nullptr
  TensorArgs input, indices, output;
  // GATHER / GATHER_ELEMENTS.
  uint32_t axis = 0;
  uint32_t index_dimensions = 0;
  // GATHER_ND / GATHER_ND1.
  uint32_t input_dimension_count = 0;
  uint32_t indices_dimension_count = 0;
  uint32_t batch_dimension_count = 0;
  // SLICE (offsets, window_sizes, slice_strides) / SLICE1 (offsets, window_sizes, window_strides).
  std::optional<uint32_t> dimension_count;  // default: input.sizes.size()
  std::vector<uint32_t> offsets;
  std::vector<uint32_t> window_sizes;
  std::vector<uint32_t> slice_strides;
  std::vector<int32_t> window_strides;
  bool null_offsets = false;
  bool null_window_sizes = false;
  bool null_strides = false;

  TensorArgs& tensor(Slot slot) {
    return slot == Slot::kInput ? input : slot == Slot::kIndices ? indices : output;
  }
  const TensorArgs& tensor(Slot slot) const {
    return slot == Slot::kInput ? input : slot == Slot::kIndices ? indices : output;
  }
  std::vector<Slot> Slots() const {
    if (HasIndices(type)) return {Slot::kInput, Slot::kIndices, Slot::kOutput};
    return {Slot::kInput, Slot::kOutput};
  }
  std::vector<Slot> InputSlots() const {
    if (HasIndices(type)) return {Slot::kInput, Slot::kIndices};
    return {Slot::kInput};
  }
};

inline const Device& DefaultDevice() {
  static const Device* device = new Device(DeviceOptions());
  return *device;
}

// Writes `bits` into a 32-bit enum field without forming an enum value.
template <typename Enum>
inline void StoreRaw(Enum* field, uint32_t bits) {
  static_assert(sizeof(Enum) == sizeof(uint32_t), "DirectML enums are 32-bit");
  std::memcpy(field, &bits, sizeof(bits));
}

// Builds the DirectML structs on the stack, compiles, and lets them die.
inline StatusOr<CompiledOperator> CompileCase(const OpCase& c, const CompileOptions& options = {},
                                              const Device& device = DefaultDevice()) {
  DML_BUFFER_TENSOR_DESC buffers[3] = {};
  DML_TENSOR_DESC tensors[3] = {};
  const DML_TENSOR_DESC* pointers[3] = {};
  const TensorArgs* args[3] = {&c.input, &c.indices, &c.output};
  for (int i = 0; i < 3; ++i) {
    const TensorArgs& t = *args[i];
    const uint32_t data_type_bits =
        t.raw_data_type ? *t.raw_data_type : static_cast<uint32_t>(t.data_type);
    StoreRaw(&buffers[i].DataType, data_type_bits);
    StoreRaw(&buffers[i].Flags, t.flags);
    buffers[i].DimensionCount =
        t.dimension_count ? *t.dimension_count : static_cast<uint32_t>(t.sizes.size());
    buffers[i].Sizes = t.null_sizes ? nullptr : t.sizes.data();
    buffers[i].Strides = t.strides.empty() ? nullptr : t.strides.data();
    buffers[i].TotalTensorSizeInBytes = t.TotalBytes();
    buffers[i].GuaranteedBaseOffsetAlignment = t.alignment_bytes;
    StoreRaw(&tensors[i].Type, t.tensor_type);
    tensors[i].Desc = t.null_buffer_desc ? nullptr : &buffers[i];
    pointers[i] = t.absent ? nullptr : &tensors[i];
  }
  const uint32_t dimension_count =
      c.dimension_count ? *c.dimension_count : static_cast<uint32_t>(c.input.sizes.size());
  const uint32_t* offsets = c.null_offsets ? nullptr : c.offsets.data();
  const uint32_t* window_sizes = c.null_window_sizes ? nullptr : c.window_sizes.data();

  DML_GATHER_OPERATOR_DESC gather = {pointers[0], pointers[1], pointers[2], c.axis,
                                     c.index_dimensions};
  DML_GATHER_ELEMENTS_OPERATOR_DESC gather_elements = {pointers[0], pointers[1], pointers[2],
                                                       c.axis};
  DML_GATHER_ND_OPERATOR_DESC gather_nd = {pointers[0], pointers[1], pointers[2],
                                           c.input_dimension_count, c.indices_dimension_count};
  DML_GATHER_ND1_OPERATOR_DESC gather_nd1 = {pointers[0], pointers[1], pointers[2],
                                             c.input_dimension_count, c.indices_dimension_count,
                                             c.batch_dimension_count};
  DML_SLICE_OPERATOR_DESC slice = {pointers[0], pointers[2], dimension_count, offsets,
                                   window_sizes,
                                   c.null_strides ? nullptr : c.slice_strides.data()};
  DML_SLICE1_OPERATOR_DESC slice1 = {pointers[0], pointers[2], dimension_count, offsets,
                                     window_sizes,
                                     c.null_strides ? nullptr : c.window_strides.data()};
  DML_OPERATOR_DESC desc = {c.type, nullptr};
  switch (c.type) {
    case DML_OPERATOR_GATHER: desc.Desc = &gather; break;
    case DML_OPERATOR_GATHER_ELEMENTS: desc.Desc = &gather_elements; break;
    case DML_OPERATOR_GATHER_ND: desc.Desc = &gather_nd; break;
    case DML_OPERATOR_GATHER_ND1: desc.Desc = &gather_nd1; break;
    case DML_OPERATOR_SLICE: desc.Desc = &slice; break;
    case DML_OPERATOR_SLICE1: desc.Desc = &slice1; break;
    default: break;
  }
  if (c.null_op_desc) desc.Desc = nullptr;
  if (c.raw_type) StoreRaw(&desc.Type, *c.raw_type);
  return device.Compile(desc, options);
}

inline Status CompileStatus(const OpCase& c, const CompileOptions& options = {}) {
  return CompileCase(c, options).status();
}

// ------------------------------------------------------------------------------------------------
// Status assertions. A fragment may list alternatives separated by '|'.

inline ::testing::AssertionResult IsError(const Status& status, StatusCode code,
                                          std::initializer_list<std::string> fragments) {
  if (status.code() != code) {
    return ::testing::AssertionFailure()
           << "status is " << StatusCodeName(status.code()) << " (\"" << status.message()
           << "\"), expected " << StatusCodeName(code);
  }
  for (const std::string& fragment : fragments) {
    bool found = false;
    size_t begin = 0;
    while (!found) {
      const size_t end = fragment.find('|', begin);
      const std::string alternative = fragment.substr(begin, end - begin);
      found = status.message().find(alternative) != std::string::npos;
      if (end == std::string::npos) break;
      begin = end + 1;
    }
    if (!found) {
      return ::testing::AssertionFailure()
             << "message \"" << status.message() << "\" lacks \"" << fragment << "\"";
    }
  }
  return ::testing::AssertionSuccess() << status.message();
}

inline ::testing::AssertionResult IsOk(const Status& status) {
  if (status.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << StatusCodeName(status.code()) << ": "
                                       << status.message();
}

// Usable from any namespace: the helpers are named in full.
#define EXPECT_ERROR(status, code, ...) \
  EXPECT_TRUE(::dmlcpu::validation_test::IsError((status), (code), {__VA_ARGS__}))
#define EXPECT_OK(status) EXPECT_TRUE(::dmlcpu::validation_test::IsOk(status))
#define ASSERT_OK(status) ASSERT_TRUE(::dmlcpu::validation_test::IsOk(status))

// "<slot>.DataType is INT32" in either spelling (name or number).
inline std::string DataTypeIs(const std::string& field, DML_TENSOR_DATA_TYPE type) {
  const std::string prefix = field + ".DataType is ";
  return prefix + std::to_string(static_cast<uint32_t>(type)) + "|" + prefix +
         DataTypeName(type);
}

inline std::string FlagsIs(const std::string& field, uint32_t flags) {
  char hex[16];
  std::snprintf(hex, sizeof(hex), "0x%x", flags);
  const std::string prefix = field + ".Flags is ";
  return prefix + hex + "|" + prefix + std::to_string(flags);
}

// ------------------------------------------------------------------------------------------------
// Host buffers and element access.

class AlignedBuffer {
 public:
  static constexpr uintptr_t kAlignmentBytes = 256;  // the largest alignment the tests promise

  // `offset_bytes` shifts the start away from a 256-byte boundary (for alignment tests).
  explicit AlignedBuffer(uint64_t size_bytes, uint8_t fill = 0, size_t offset_bytes = 0)
      : storage_(new uint8_t[size_bytes + offset_bytes + kAlignmentBytes]),
        size_bytes_(size_bytes) {
    uintptr_t base = reinterpret_cast<uintptr_t>(storage_.get());
    base = (base + kAlignmentBytes - 1) & ~(kAlignmentBytes - 1);
    data_ = reinterpret_cast<uint8_t*>(base) + offset_bytes;
    std::memset(data_, fill, size_bytes);
  }
  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  uint64_t size_bytes() const { return size_bytes_; }
  bool AllEqual(uint8_t value) const {
    for (uint64_t i = 0; i < size_bytes_; ++i) {
      if (data_[i] != value) return false;
    }
    return true;
  }

 private:
  std::unique_ptr<uint8_t[]> storage_;
  uint8_t* data_;
  uint64_t size_bytes_;
};

inline void StoreElement(DML_TENSOR_DATA_TYPE type, int64_t value, uint8_t* dst) {
  switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: {
      const float f = static_cast<float>(value);
      std::memcpy(dst, &f, 4);
      return;
    }
    case DML_TENSOR_DATA_TYPE_FLOAT64: {
      const double d = static_cast<double>(value);
      std::memcpy(dst, &d, 8);
      return;
    }
    default:
      break;
  }
  const uint64_t bits = static_cast<uint64_t>(value);
  switch (ElementBits(type)) {
    case 8: { const uint8_t v = static_cast<uint8_t>(bits); std::memcpy(dst, &v, 1); return; }
    case 16: { const uint16_t v = static_cast<uint16_t>(bits); std::memcpy(dst, &v, 2); return; }
    case 32: { const uint32_t v = static_cast<uint32_t>(bits); std::memcpy(dst, &v, 4); return; }
    case 64: std::memcpy(dst, &bits, 8); return;
    default: return;
  }
}

inline int64_t LoadElement(DML_TENSOR_DATA_TYPE type, const uint8_t* src) {
  switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: {
      float f;
      std::memcpy(&f, src, 4);
      return static_cast<int64_t>(f);
    }
    case DML_TENSOR_DATA_TYPE_FLOAT64: {
      double d;
      std::memcpy(&d, src, 8);
      return static_cast<int64_t>(d);
    }
    case DML_TENSOR_DATA_TYPE_INT8: { int8_t v; std::memcpy(&v, src, 1); return v; }
    case DML_TENSOR_DATA_TYPE_INT16: { int16_t v; std::memcpy(&v, src, 2); return v; }
    case DML_TENSOR_DATA_TYPE_INT32: { int32_t v; std::memcpy(&v, src, 4); return v; }
    case DML_TENSOR_DATA_TYPE_INT64: { int64_t v; std::memcpy(&v, src, 8); return v; }
    default: break;
  }
  switch (ElementBits(type)) {
    case 8: { uint8_t v; std::memcpy(&v, src, 1); return v; }
    case 16: { uint16_t v; std::memcpy(&v, src, 2); return v; }
    case 32: { uint32_t v; std::memcpy(&v, src, 4); return v; }
    case 64: { uint64_t v; std::memcpy(&v, src, 8); return static_cast<int64_t>(v); }
    default: return 0;
  }
}

// Byte offset of logical (row-major) element `flat` of `t`, honouring its strides.
inline uint64_t ByteOffset(const TensorArgs& t, uint64_t flat) {
  const std::vector<uint32_t> strides = t.strides.empty() ? PackedStrides(t.sizes) : t.strides;
  uint64_t offset_elems = 0;
  for (size_t i = t.sizes.size(); i-- > 0;) {
    offset_elems += (flat % t.sizes[i]) * strides[i];
    flat /= t.sizes[i];
  }
  return offset_elems * (ElementBits(t.data_type) / 8);
}

inline AlignedBuffer MakeInputBuffer(const TensorArgs& t) {
  AlignedBuffer buffer(t.TotalBytes(), 0);
  for (uint64_t i = 0; i < t.values.size(); ++i) {
    StoreElement(t.data_type, t.values[i], buffer.data() + ByteOffset(t, i));
  }
  return buffer;
}

inline std::vector<int64_t> ReadOutput(const TensorArgs& t, const AlignedBuffer& buffer) {
  std::vector<int64_t> values(t.ElementCount());
  for (uint64_t i = 0; i < values.size(); ++i) {
    values[i] = LoadElement(t.data_type, buffer.data() + ByteOffset(t, i));
  }
  return values;
}

// Buffers for every binding of a case: inputs hold `values`, the output holds kSentinel.
struct CaseBuffers {
  explicit CaseBuffers(const OpCase& c) : output(c.output.TotalBytes(), kSentinel) {
    for (Slot slot : c.InputSlots()) {
      inputs.push_back(MakeInputBuffer(c.tensor(slot)));
    }
  }
  std::vector<Binding> InputBindings() const {
    std::vector<Binding> bindings;
    for (const AlignedBuffer& b : inputs) bindings.push_back({b.data(), b.size_bytes()});
    return bindings;
  }
  OutputBinding OutputBindingFor() { return {output.data(), output.size_bytes()}; }

  std::vector<AlignedBuffer> inputs;
  AlignedBuffer output;
};

inline Status ExecuteCase(const CompiledOperator& op, CaseBuffers& buffers) {
  const std::vector<Binding> inputs = buffers.InputBindings();
  const OutputBinding output = buffers.OutputBindingFor();
  return op.Execute(inputs.data(), inputs.size(), &output, 1);
}

// Compiles and runs `c` and compares the output with c.output.values.
inline void ExpectRunsAndMatches(const OpCase& c, const Device& device = DefaultDevice()) {
  auto op = CompileCase(c, {}, device);
  ASSERT_OK(op.status());
  CaseBuffers buffers(c);
  ASSERT_OK(ExecuteCase(*op, buffers));
  EXPECT_EQ(ReadOutput(c.output, buffers.output), c.output.values);
}

// ------------------------------------------------------------------------------------------------
// Valid base cases: the worked examples of docs/semantics.md#worked-examples.

inline OpCase GatherCase() {  // G3: Axis 1, k 1.
  OpCase c;
  c.type = DML_OPERATOR_GATHER;
  c.input = Tensor(kF32, {3, 2}, {1, 2, 3, 4, 5, 6});
  c.indices = Tensor(kU32, {1, 2}, {1, 0});
  c.output = Tensor(kF32, {3, 2}, {2, 1, 4, 3, 6, 5});
  c.axis = 1;
  c.index_dimensions = 1;
  return c;
}

inline OpCase GatherElementsCase() {  // GE1: Axis 0.
  OpCase c;
  c.type = DML_OPERATOR_GATHER_ELEMENTS;
  c.input = Tensor(kF32, {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  c.indices = Tensor(kU32, {2, 3}, {1, 2, 0, 2, 0, 0});
  c.output = Tensor(kF32, {2, 3}, {4, 8, 3, 7, 2, 3});
  c.axis = 0;
  return c;
}

inline OpCase GatherNdCase(DML_OPERATOR_TYPE type) {  // ND-1: r 2, q 2 (b 0 for GATHER_ND1).
  OpCase c;
  c.type = type;
  c.input = Tensor(kF32, {2, 2}, {0, 1, 2, 3});
  c.indices = Tensor(kU32, {2, 1}, {1, 0});
  c.output = Tensor(kF32, {2, 2}, {2, 3, 0, 1});
  c.input_dimension_count = 2;
  c.indices_dimension_count = 2;
  return c;
}

inline OpCase GatherNd1BatchCase() {  // ND1-2: r 3, q 3, b 1.
  OpCase c;
  c.type = DML_OPERATOR_GATHER_ND1;
  c.input = Tensor(kF32, {1, 3, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  c.indices = Tensor(kU32, {1, 3, 2, 2}, {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0});
  c.output = Tensor(kF32, {1, 1, 3, 2}, {0, 3, 7, 4, 9, 10});
  c.input_dimension_count = 3;
  c.indices_dimension_count = 3;
  c.batch_dimension_count = 1;
  return c;
}

inline std::vector<int64_t> Iota(int64_t first, int64_t count) {
  std::vector<int64_t> values(count);
  for (int64_t i = 0; i < count; ++i) values[i] = first + i;
  return values;
}

inline OpCase SliceCase() {  // SL-1.
  OpCase c;
  c.type = DML_OPERATOR_SLICE;
  c.input = Tensor(kF32, {1, 1, 4, 4}, Iota(1, 16));
  c.output = Tensor(kF32, {1, 1, 3, 2}, {7, 8, 11, 12, 15, 16});
  c.offsets = {0, 0, 1, 2};
  c.window_sizes = {1, 1, 3, 2};
  c.slice_strides = {1, 1, 1, 1};
  return c;
}

inline OpCase Slice1Case() {  // S1-2: a negative stride.
  OpCase c;
  c.type = DML_OPERATOR_SLICE1;
  c.input = Tensor(kF32, {1, 1, 4, 4}, Iota(1, 16));
  c.output = Tensor(kF32, {1, 1, 2, 2}, {14, 16, 6, 8});
  c.offsets = {0, 0, 0, 1};
  c.window_sizes = {1, 1, 4, 3};
  c.window_strides = {1, 1, -2, 2};
  return c;
}

inline OpCase BaseCase(DML_OPERATOR_TYPE type) {
  switch (type) {
    case DML_OPERATOR_GATHER: return GatherCase();
    case DML_OPERATOR_GATHER_ELEMENTS: return GatherElementsCase();
    case DML_OPERATOR_GATHER_ND: return GatherNdCase(DML_OPERATOR_GATHER_ND);
    case DML_OPERATOR_GATHER_ND1: return GatherNd1BatchCase();
    case DML_OPERATOR_SLICE: return SliceCase();
    default: return Slice1Case();
  }
}

// The smallest valid descriptor: rank 1, one element everywhere.
inline OpCase SmallestCase(DML_OPERATOR_TYPE type) {
  OpCase c;
  c.type = type;
  c.input = Tensor(kF32, {1}, {42});
  c.output = Tensor(kF32, {1}, {42});
  if (HasIndices(type)) c.indices = Tensor(kU32, {1}, {0});
  c.index_dimensions = 1;
  c.input_dimension_count = 1;
  c.indices_dimension_count = 1;
  c.offsets = {0};
  c.window_sizes = {1};
  c.slice_strides = {1};
  c.window_strides = {1};
  return c;
}

// Right-aligns every tensor of `c` to `rank` by prepending size-1 dimensions
// (docs/semantics.md#right-alignment).
inline OpCase PadToRank(OpCase c, uint32_t rank) {
  const uint32_t pad = rank - static_cast<uint32_t>(c.input.sizes.size());
  for (TensorArgs* t : {&c.input, &c.indices, &c.output}) {
    if (t->sizes.empty()) continue;
    t->sizes.insert(t->sizes.begin(), pad, 1);
    if (!t->strides.empty()) t->strides.insert(t->strides.begin(), pad, 1);
  }
  c.axis += pad;
  if (c.type == DML_OPERATOR_SLICE || c.type == DML_OPERATOR_SLICE1) {
    c.offsets.insert(c.offsets.begin(), pad, 0);
    c.window_sizes.insert(c.window_sizes.begin(), pad, 1);
    c.slice_strides.insert(c.slice_strides.begin(), pad, 1);
    c.window_strides.insert(c.window_strides.begin(), pad, 1);
  }
  return c;
}

inline constexpr DML_OPERATOR_TYPE kAllOperators[] = {
    DML_OPERATOR_GATHER,    DML_OPERATOR_GATHER_ELEMENTS, DML_OPERATOR_GATHER_ND,
    DML_OPERATOR_GATHER_ND1, DML_OPERATOR_SLICE,          DML_OPERATOR_SLICE1};
inline constexpr DML_OPERATOR_TYPE kGatherOperators[] = {
    DML_OPERATOR_GATHER, DML_OPERATOR_GATHER_ELEMENTS, DML_OPERATOR_GATHER_ND,
    DML_OPERATOR_GATHER_ND1};

inline std::string OperatorTestName(const ::testing::TestParamInfo<DML_OPERATOR_TYPE>& info) {
  switch (info.param) {
    case DML_OPERATOR_GATHER: return "Gather";
    case DML_OPERATOR_GATHER_ELEMENTS: return "GatherElements";
    case DML_OPERATOR_GATHER_ND: return "GatherNd";
    case DML_OPERATOR_GATHER_ND1: return "GatherNd1";
    case DML_OPERATOR_SLICE: return "Slice";
    case DML_OPERATOR_SLICE1: return "Slice1";
    default: return "Unknown";
  }
}

}  // namespace validation_test
}  // namespace dmlcpu

#endif  // DMLCPU_TESTS_VALIDATION_VALIDATION_CASES_H_
