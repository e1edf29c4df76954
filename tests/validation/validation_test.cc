// SPDX-License-Identifier: Apache-2.0
// Validation tests: one test per rule of docs/semantics.md#validation (plus the Execute checks and
// the strict index policy). Each test builds a valid descriptor, breaks exactly one thing, and
// checks the StatusCode and that the message names the operator, the field (with its dimension
// where there is one) and the offending value. Messages follow
//   "<OP>: <Field path> is <value>, expected <constraint>"
// and the assertions only look for stable fragments of that form.
//
// The descriptor builders are local to this file (see OpCase / CompileCase): tests mutate a
// plain description of the operator and the builder turns it into DirectML structs right before
// Compile, so every test also exercises the "descriptor may die after Compile" contract.
//
// tests/README.md lists every bad input class tried here with its expected status and message.
#include <algorithm>
#include <climits>
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
namespace {

constexpr uint32_t kHuge = 0xFFFFFFFFu;
constexpr uint8_t kSentinel = 0xCD;

constexpr DML_TENSOR_DATA_TYPE kF16 = DML_TENSOR_DATA_TYPE_FLOAT16;
constexpr DML_TENSOR_DATA_TYPE kF32 = DML_TENSOR_DATA_TYPE_FLOAT32;
constexpr DML_TENSOR_DATA_TYPE kU8 = DML_TENSOR_DATA_TYPE_UINT8;
constexpr DML_TENSOR_DATA_TYPE kI32 = DML_TENSOR_DATA_TYPE_INT32;
constexpr DML_TENSOR_DATA_TYPE kU32 = DML_TENSOR_DATA_TYPE_UINT32;
constexpr DML_TENSOR_DATA_TYPE kI64 = DML_TENSOR_DATA_TYPE_INT64;
constexpr DML_TENSOR_DATA_TYPE kU64 = DML_TENSOR_DATA_TYPE_UINT64;

// ------------------------------------------------------------------------------------------------
// Data types and DirectML's size arithmetic (written independently of the library).

uint32_t ElementBits(DML_TENSOR_DATA_TYPE type) {
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

const char* DataTypeName(DML_TENSOR_DATA_TYPE type) {
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
uint64_t RequiredBytes(DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t>& sizes,
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

std::vector<uint32_t> PackedStrides(const std::vector<uint32_t>& sizes) {
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

TensorArgs Tensor(DML_TENSOR_DATA_TYPE data_type, std::vector<uint32_t> sizes,
                  std::vector<int64_t> values = {}) {
  TensorArgs t;
  t.data_type = data_type;
  t.sizes = std::move(sizes);
  t.values = std::move(values);
  return t;
}

enum class Slot { kInput, kIndices, kOutput };

const char* SlotName(Slot slot) {
  switch (slot) {
    case Slot::kInput: return "InputTensor";
    case Slot::kIndices: return "IndicesTensor";
    case Slot::kOutput: return "OutputTensor";
  }
  return "?";
}

bool HasIndices(DML_OPERATOR_TYPE type) {
  return type != DML_OPERATOR_SLICE && type != DML_OPERATOR_SLICE1;
}

std::string OpName(DML_OPERATOR_TYPE type) {
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
std::string Op(DML_OPERATOR_TYPE type) { return OpName(type) + ": "; }

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

const Device& DefaultDevice() {
  static const Device* device = new Device(DeviceOptions());
  return *device;
}

// Writes `bits` into a 32-bit enum field without forming an enum value.
template <typename Enum>
void StoreRaw(Enum* field, uint32_t bits) {
  static_assert(sizeof(Enum) == sizeof(uint32_t), "DirectML enums are 32-bit");
  std::memcpy(field, &bits, sizeof(bits));
}

// Builds the DirectML structs on the stack, compiles, and lets them die.
StatusOr<CompiledOperator> CompileCase(const OpCase& c, const CompileOptions& options = {},
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
  const UINT* offsets = c.null_offsets ? nullptr : c.offsets.data();
  const UINT* window_sizes = c.null_window_sizes ? nullptr : c.window_sizes.data();

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

Status CompileStatus(const OpCase& c, const CompileOptions& options = {}) {
  return CompileCase(c, options).status();
}

// ------------------------------------------------------------------------------------------------
// Status assertions. A fragment may list alternatives separated by '|'.

::testing::AssertionResult IsError(const Status& status, StatusCode code,
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

::testing::AssertionResult IsOk(const Status& status) {
  if (status.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << StatusCodeName(status.code()) << ": "
                                       << status.message();
}

#define EXPECT_ERROR(status, code, ...) EXPECT_TRUE(IsError((status), (code), {__VA_ARGS__}))
#define EXPECT_OK(status) EXPECT_TRUE(IsOk(status))
#define ASSERT_OK(status) ASSERT_TRUE(IsOk(status))

// "<slot>.DataType is INT32" in either spelling (name or number).
std::string DataTypeIs(const std::string& field, DML_TENSOR_DATA_TYPE type) {
  const std::string prefix = field + ".DataType is ";
  return prefix + std::to_string(static_cast<uint32_t>(type)) + "|" + prefix +
         DataTypeName(type);
}

std::string FlagsIs(const std::string& field, uint32_t flags) {
  char hex[16];
  snprintf(hex, sizeof(hex), "0x%x", flags);
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

void StoreElement(DML_TENSOR_DATA_TYPE type, int64_t value, uint8_t* dst) {
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

int64_t LoadElement(DML_TENSOR_DATA_TYPE type, const uint8_t* src) {
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
uint64_t ByteOffset(const TensorArgs& t, uint64_t flat) {
  const std::vector<uint32_t> strides = t.strides.empty() ? PackedStrides(t.sizes) : t.strides;
  uint64_t offset_elems = 0;
  for (size_t i = t.sizes.size(); i-- > 0;) {
    offset_elems += (flat % t.sizes[i]) * strides[i];
    flat /= t.sizes[i];
  }
  return offset_elems * (ElementBits(t.data_type) / 8);
}

AlignedBuffer MakeInputBuffer(const TensorArgs& t) {
  AlignedBuffer buffer(t.TotalBytes(), 0);
  for (uint64_t i = 0; i < t.values.size(); ++i) {
    StoreElement(t.data_type, t.values[i], buffer.data() + ByteOffset(t, i));
  }
  return buffer;
}

std::vector<int64_t> ReadOutput(const TensorArgs& t, const AlignedBuffer& buffer) {
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

Status ExecuteCase(const CompiledOperator& op, CaseBuffers& buffers) {
  const std::vector<Binding> inputs = buffers.InputBindings();
  const OutputBinding output = buffers.OutputBindingFor();
  return op.Execute(inputs.data(), inputs.size(), &output, 1);
}

// Compiles and runs `c` and compares the output with c.output.values.
void ExpectRunsAndMatches(const OpCase& c, const Device& device = DefaultDevice()) {
  auto op = CompileCase(c, {}, device);
  ASSERT_OK(op.status());
  CaseBuffers buffers(c);
  ASSERT_OK(ExecuteCase(*op, buffers));
  EXPECT_EQ(ReadOutput(c.output, buffers.output), c.output.values);
}

// ------------------------------------------------------------------------------------------------
// Valid base cases: the worked examples of docs/semantics.md#worked-examples.

OpCase GatherCase() {  // G3: Axis 1, k 1.
  OpCase c;
  c.type = DML_OPERATOR_GATHER;
  c.input = Tensor(kF32, {3, 2}, {1, 2, 3, 4, 5, 6});
  c.indices = Tensor(kU32, {1, 2}, {1, 0});
  c.output = Tensor(kF32, {3, 2}, {2, 1, 4, 3, 6, 5});
  c.axis = 1;
  c.index_dimensions = 1;
  return c;
}

OpCase GatherElementsCase() {  // GE1: Axis 0.
  OpCase c;
  c.type = DML_OPERATOR_GATHER_ELEMENTS;
  c.input = Tensor(kF32, {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  c.indices = Tensor(kU32, {2, 3}, {1, 2, 0, 2, 0, 0});
  c.output = Tensor(kF32, {2, 3}, {4, 8, 3, 7, 2, 3});
  c.axis = 0;
  return c;
}

OpCase GatherNdCase(DML_OPERATOR_TYPE type) {  // ND-1: r 2, q 2 (b 0 for GATHER_ND1).
  OpCase c;
  c.type = type;
  c.input = Tensor(kF32, {2, 2}, {0, 1, 2, 3});
  c.indices = Tensor(kU32, {2, 1}, {1, 0});
  c.output = Tensor(kF32, {2, 2}, {2, 3, 0, 1});
  c.input_dimension_count = 2;
  c.indices_dimension_count = 2;
  return c;
}

OpCase GatherNd1BatchCase() {  // ND1-2: r 3, q 3, b 1.
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

std::vector<int64_t> Iota(int64_t first, int64_t count) {
  std::vector<int64_t> values(count);
  for (int64_t i = 0; i < count; ++i) values[i] = first + i;
  return values;
}

OpCase SliceCase() {  // SL-1.
  OpCase c;
  c.type = DML_OPERATOR_SLICE;
  c.input = Tensor(kF32, {1, 1, 4, 4}, Iota(1, 16));
  c.output = Tensor(kF32, {1, 1, 3, 2}, {7, 8, 11, 12, 15, 16});
  c.offsets = {0, 0, 1, 2};
  c.window_sizes = {1, 1, 3, 2};
  c.slice_strides = {1, 1, 1, 1};
  return c;
}

OpCase Slice1Case() {  // S1-2: a negative stride.
  OpCase c;
  c.type = DML_OPERATOR_SLICE1;
  c.input = Tensor(kF32, {1, 1, 4, 4}, Iota(1, 16));
  c.output = Tensor(kF32, {1, 1, 2, 2}, {14, 16, 6, 8});
  c.offsets = {0, 0, 0, 1};
  c.window_sizes = {1, 1, 4, 3};
  c.window_strides = {1, 1, -2, 2};
  return c;
}

OpCase BaseCase(DML_OPERATOR_TYPE type) {
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
OpCase SmallestCase(DML_OPERATOR_TYPE type) {
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
OpCase PadToRank(OpCase c, uint32_t rank) {
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

const DML_OPERATOR_TYPE kAllOperators[] = {
    DML_OPERATOR_GATHER,    DML_OPERATOR_GATHER_ELEMENTS, DML_OPERATOR_GATHER_ND,
    DML_OPERATOR_GATHER_ND1, DML_OPERATOR_SLICE,          DML_OPERATOR_SLICE1};
const DML_OPERATOR_TYPE kGatherOperators[] = {DML_OPERATOR_GATHER, DML_OPERATOR_GATHER_ELEMENTS,
                                              DML_OPERATOR_GATHER_ND, DML_OPERATOR_GATHER_ND1};

std::string OperatorTestName(const ::testing::TestParamInfo<DML_OPERATOR_TYPE>& info) {
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

// ================================================================================================
// Positive checks.

class ValidDescriptorTest : public ::testing::TestWithParam<DML_OPERATOR_TYPE> {};

TEST_P(ValidDescriptorTest, SpecExampleCompilesAndRuns) {
  ExpectRunsAndMatches(BaseCase(GetParam()));
}

TEST_P(ValidDescriptorTest, SmallestDescriptorCompilesAndRuns) {
  ExpectRunsAndMatches(SmallestCase(GetParam()));
}

TEST_P(ValidDescriptorTest, RankEightRightAlignedCompilesAndRuns) {
  ExpectRunsAndMatches(PadToRank(BaseCase(GetParam()), 8));
}

TEST_P(ValidDescriptorTest, TotalTensorSizeLargerThanRequiredIsAccepted) {
  OpCase c = BaseCase(GetParam());
  for (Slot slot : c.Slots()) {
    c.tensor(slot).total_bytes = c.tensor(slot).TotalBytes() + 1000;
  }
  ExpectRunsAndMatches(c);
}

TEST_P(ValidDescriptorTest, ExplicitPackedStridesMatchNullStrides) {
  OpCase c = BaseCase(GetParam());
  ExpectRunsAndMatches(c);  // Strides == nullptr everywhere.
  for (Slot slot : c.Slots()) c.tensor(slot).strides = PackedStrides(c.tensor(slot).sizes);
  ExpectRunsAndMatches(c);
}

TEST_P(ValidDescriptorTest, PaddedStridedLayoutsAreAccepted) {
  OpCase c = BaseCase(GetParam());
  for (Slot slot : c.Slots()) {
    std::vector<uint32_t> strides = PackedStrides(c.tensor(slot).sizes);
    for (uint32_t& stride : strides) stride *= 3;  // two elements of padding after each element
    c.tensor(slot).strides = strides;
  }
  auto op = CompileCase(c);
  ASSERT_OK(op.status());
  CaseBuffers buffers(c);
  ASSERT_OK(ExecuteCase(*op, buffers));
  EXPECT_EQ(ReadOutput(c.output, buffers.output), c.output.values);
}

TEST_P(ValidDescriptorTest, AlignmentPowerOfTwoAtLeastElementSizeIsAccepted) {
  for (uint32_t alignment : {4u, 16u, 256u}) {
    OpCase c = BaseCase(GetParam());
    for (Slot slot : c.Slots()) c.tensor(slot).alignment_bytes = alignment;
    SCOPED_TRACE(alignment);
    ExpectRunsAndMatches(c);
  }
}

TEST_P(ValidDescriptorTest, DescriptorMayBeFreedRightAfterCompile) {
  OpCase c = BaseCase(GetParam());
  const OpCase original = c;
  auto op = CompileCase(c);
  ASSERT_OK(op.status());
  // Scribble over every array the descriptor pointed at; the plan must not look at them again.
  for (Slot slot : c.Slots()) {
    std::fill(c.tensor(slot).sizes.begin(), c.tensor(slot).sizes.end(), 0u);
  }
  std::fill(c.offsets.begin(), c.offsets.end(), kHuge);
  std::fill(c.window_sizes.begin(), c.window_sizes.end(), 0u);
  std::fill(c.slice_strides.begin(), c.slice_strides.end(), 0u);
  std::fill(c.window_strides.begin(), c.window_strides.end(), 0);
  CaseBuffers buffers(original);
  ASSERT_OK(ExecuteCase(*op, buffers));
  EXPECT_EQ(ReadOutput(original.output, buffers.output), original.output.values);
}

INSTANTIATE_TEST_SUITE_P(AllOperators, ValidDescriptorTest, ::testing::ValuesIn(kAllOperators),
                         OperatorTestName);

TEST(CalcBufferTensorSizeTest, MatchesSpecWorkedNumbers) {
  const uint32_t nchw[] = {1, 1, 3, 5};
  EXPECT_EQ(CalcBufferTensorSize(kF16, 4, nchw, nullptr), 32u);
  const uint32_t sizes_2x3[] = {2, 3};
  const uint32_t broadcast_rows[] = {0, 1};
  EXPECT_EQ(CalcBufferTensorSize(kF32, 2, sizes_2x3, broadcast_rows), 12u);
  const uint32_t five[] = {5};
  EXPECT_EQ(CalcBufferTensorSize(DML_TENSOR_DATA_TYPE_UINT4, 1, five, nullptr), 4u);
  EXPECT_EQ(CalcBufferTensorSize(kU8, 1, five, nullptr), 8u);
  EXPECT_EQ(CalcBufferTensorSize(DML_TENSOR_DATA_TYPE_UNKNOWN, 1, five, nullptr), 0u);
  const uint32_t huge_sizes[] = {kHuge, kHuge, kHuge};
  const uint32_t huge_strides[] = {kHuge, kHuge, kHuge};
  EXPECT_EQ(CalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT64, 3, huge_sizes, huge_strides), 0u)
      << "overflow must give 0";
  // 64-bit arithmetic: 2^32 UINT8 elements need 2^32 bytes (a 32-bit helper would wrap to 0).
  const uint32_t big[] = {65536, 65536};
  EXPECT_EQ(CalcBufferTensorSize(kU8, 2, big, nullptr), uint64_t{1} << 32);
}

// ================================================================================================
// Generic tensor rules (docs/semantics.md#tensor-descriptions, #validation), for every operator and
// every tensor slot.

class TensorRulesTest : public ::testing::TestWithParam<DML_OPERATOR_TYPE> {
 protected:
  OpCase Base() const { return BaseCase(GetParam()); }
  std::string op() const { return Op(GetParam()); }
};

TEST_P(TensorRulesTest, NullTensorPointerIsRejected) {
  for (Slot slot : Base().Slots()) {
    OpCase c = Base();
    c.tensor(slot).absent = true;
    SCOPED_TRACE(SlotName(slot));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument,
                 op() + SlotName(slot) + " is null");
  }
}

TEST_P(TensorRulesTest, TensorTypeNotBufferIsRejected) {
  for (Slot slot : Base().Slots()) {
    for (uint32_t type : {0u, 2u, 0xFFFFFFFFu}) {
      OpCase c = Base();
      c.tensor(slot).tensor_type = type;
      SCOPED_TRACE(std::string(SlotName(slot)) + " Type " + std::to_string(type));
      EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                   std::string(SlotName(slot)) + ".Type is " + std::to_string(type));
    }
  }
}

TEST_P(TensorRulesTest, NullBufferTensorDescIsRejected) {
  for (Slot slot : Base().Slots()) {
    OpCase c = Base();
    c.tensor(slot).null_buffer_desc = true;
    SCOPED_TRACE(SlotName(slot));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                 std::string(SlotName(slot)) + ".Desc is null");
  }
}

TEST_P(TensorRulesTest, UnknownDataTypeIsRejected) {
  for (Slot slot : Base().Slots()) {
    for (uint32_t type : {0u, 14u, 99u}) {
      OpCase c = Base();
      c.tensor(slot).raw_data_type = type;
      SCOPED_TRACE(std::string(SlotName(slot)) + " DataType " + std::to_string(type));
      EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                   std::string(SlotName(slot)) + ".DataType is " + std::to_string(type));
    }
  }
}

TEST_P(TensorRulesTest, FourBitDataTypeIsUnsupported) {
  for (DML_TENSOR_DATA_TYPE type : {DML_TENSOR_DATA_TYPE_UINT4, DML_TENSOR_DATA_TYPE_INT4}) {
    OpCase c = Base();
    c.input.data_type = type;
    c.output.data_type = type;
    SCOPED_TRACE(DataTypeName(type));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kUnsupported, op(),
                 DataTypeIs("InputTensor", type));
  }
}

TEST_P(TensorRulesTest, OwnedByDmlOnInputIsUnsupported) {
  for (Slot slot : Base().InputSlots()) {
    OpCase c = Base();
    c.tensor(slot).flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    SCOPED_TRACE(SlotName(slot));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kUnsupported, op(), FlagsIs(SlotName(slot), 1));
  }
}

TEST_P(TensorRulesTest, OwnedByDmlOnOutputIsRejected) {
  OpCase c = Base();
  c.output.flags = DML_TENSOR_FLAG_OWNED_BY_DML;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), FlagsIs("OutputTensor", 1));
}

TEST_P(TensorRulesTest, UnknownFlagBitsAreRejected) {
  for (Slot slot : Base().Slots()) {
    for (uint32_t flags : {0x2u, 0x3u, 0x80000000u}) {
      OpCase c = Base();
      c.tensor(slot).flags = flags;
      SCOPED_TRACE(std::string(SlotName(slot)) + " Flags " + std::to_string(flags));
      EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                   FlagsIs(SlotName(slot), flags));
    }
  }
}

TEST_P(TensorRulesTest, DimensionCountZeroIsRejected) {
  for (Slot slot : Base().Slots()) {
    OpCase c = Base();
    c.tensor(slot).dimension_count = 0;  // Sizes still points at a real array.
    SCOPED_TRACE(SlotName(slot));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                 std::string(SlotName(slot)) + ".DimensionCount is 0");
  }
}

TEST_P(TensorRulesTest, DimensionCountNineIsRejected) {
  for (Slot slot : Base().Slots()) {
    OpCase c = Base();
    TensorArgs& t = c.tensor(slot);
    t.sizes.insert(t.sizes.begin(), 9 - t.sizes.size(), 1);
    SCOPED_TRACE(SlotName(slot));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                 std::string(SlotName(slot)) + ".DimensionCount is 9");
  }
}

TEST_P(TensorRulesTest, NullSizesIsRejected) {
  for (Slot slot : Base().Slots()) {
    OpCase c = Base();
    c.tensor(slot).null_sizes = true;
    SCOPED_TRACE(SlotName(slot));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                 std::string(SlotName(slot)) + ".Sizes is null");
  }
}

TEST_P(TensorRulesTest, ZeroSizeIsRejected) {
  for (Slot slot : Base().Slots()) {
    for (size_t d = 0; d < Base().tensor(slot).sizes.size(); ++d) {
      OpCase c = Base();
      c.tensor(slot).sizes[d] = 0;
      const std::string field =
          std::string(SlotName(slot)) + ".Sizes[" + std::to_string(d) + "] is 0";
      SCOPED_TRACE(field);
      EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), field);
    }
  }
}

TEST_P(TensorRulesTest, TotalTensorSizeBelowRequiredIsRejected) {
  for (Slot slot : Base().Slots()) {
    const uint64_t required = Base().tensor(slot).TotalBytes();
    for (uint64_t total : {required - 1, required - 4, uint64_t{0}}) {
      OpCase c = Base();
      c.tensor(slot).total_bytes = total;
      const std::string field = std::string(SlotName(slot)) + ".TotalTensorSizeInBytes is " +
                                std::to_string(total);
      SCOPED_TRACE(field);
      EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), field,
                   "expected >= " + std::to_string(required));
    }
  }
}

TEST_P(TensorRulesTest, AlignmentNotPowerOfTwoIsRejected) {
  for (Slot slot : Base().Slots()) {
    for (uint32_t alignment : {3u, 12u, 24u, 0x80000001u}) {
      OpCase c = Base();
      c.tensor(slot).alignment_bytes = alignment;
      const std::string field = std::string(SlotName(slot)) +
                                ".GuaranteedBaseOffsetAlignment is " + std::to_string(alignment);
      SCOPED_TRACE(field);
      EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), field);
    }
  }
}

TEST_P(TensorRulesTest, AlignmentBelowElementSizeIsRejected) {
  for (Slot slot : Base().Slots()) {
    for (uint32_t alignment : {1u, 2u}) {  // every base tensor has 4-byte elements
      OpCase c = Base();
      c.tensor(slot).alignment_bytes = alignment;
      const std::string field = std::string(SlotName(slot)) +
                                ".GuaranteedBaseOffsetAlignment is " + std::to_string(alignment);
      SCOPED_TRACE(field);
      EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), field);
    }
  }
}

TEST_P(TensorRulesTest, DimensionCountMismatchIsRejected) {
  const uint32_t rank = static_cast<uint32_t>(Base().input.sizes.size());
  for (Slot slot : Base().Slots()) {
    if (slot == Slot::kInput) continue;  // the input's rank is the reference
    OpCase c = Base();
    TensorArgs& t = c.tensor(slot);
    t.sizes.insert(t.sizes.begin(), 1);
    SCOPED_TRACE(SlotName(slot));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                 std::string(SlotName(slot)) + ".DimensionCount is " + std::to_string(rank + 1),
                 "expected " + std::to_string(rank));
  }
}

TEST_P(TensorRulesTest, OutputDataTypeDifferentFromInputIsRejected) {
  for (DML_TENSOR_DATA_TYPE type : {kI32, kU8, DML_TENSOR_DATA_TYPE_FLOAT64}) {
    OpCase c = Base();
    c.output.data_type = type;
    SCOPED_TRACE(DataTypeName(type));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
                 DataTypeIs("OutputTensor", type));
  }
}

TEST_P(TensorRulesTest, ElementSpanBeyondFourGigaElementsIsRejected) {
  // Strides of 2^32 - 1 on two or more dims of size >= 2: the last element lies beyond 2^32 - 1.
  OpCase c = Base();
  c.input.strides.clear();
  for (uint32_t size : c.input.sizes) c.input.strides.push_back(size > 1 ? kHuge : 1);
  uint64_t last = 0;
  for (size_t i = 0; i < c.input.sizes.size(); ++i) {
    last += uint64_t{c.input.sizes[i] - 1} * c.input.strides[i];
  }
  ASSERT_GT(last + 1, uint64_t{kHuge});
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), "InputTensor",
               std::to_string(last + 1) + "|4294967295");
}

// Sizes and strides whose Σ (size-1)·stride overflows 64 bits.
OpCase OverflowingInputCase(DML_OPERATOR_TYPE type) {
  OpCase c;
  c.type = type;
  c.input = Tensor(kU8, {kHuge, kHuge});
  c.input.strides = {kHuge, kHuge};
  c.input.total_bytes = std::numeric_limits<uint64_t>::max();
  switch (type) {
    case DML_OPERATOR_GATHER:  // Axis 0: Out = Idx[1..] ++ In[1..] = {1, kHuge}.
      c.indices = Tensor(kU32, {1, 1});
      c.output = Tensor(kU8, {1, kHuge});
      c.axis = 0;
      c.index_dimensions = 1;
      break;
    case DML_OPERATOR_GATHER_ELEMENTS:
      c.indices = Tensor(kU32, {kHuge, 1});
      c.output = Tensor(kU8, {kHuge, 1});
      c.axis = 1;
      break;
    case DML_OPERATOR_GATHER_ND:
    case DML_OPERATOR_GATHER_ND1:  // t 2 = r: Out = {1, 1}.
      c.indices = Tensor(kU32, {1, 2});
      c.output = Tensor(kU8, {1, 1});
      c.input_dimension_count = 2;
      c.indices_dimension_count = 2;
      break;
    default:
      c.output = Tensor(kU8, {1, 1});
      c.offsets = {0, 0};
      c.window_sizes = {1, 1};
      c.slice_strides = {1, 1};
      c.window_strides = {1, 1};
      break;
  }
  return c;
}

TEST_P(TensorRulesTest, SizeTimesStrideOverflowingSixtyFourBitsIsRejected) {
  EXPECT_ERROR(CompileStatus(OverflowingInputCase(GetParam())), StatusCode::kInvalidArgument,
               op(), "InputTensor");
}

TEST_P(TensorRulesTest, OutputZeroStrideIsRejected) {
  OpCase c = Base();
  c.output.strides = PackedStrides(c.output.sizes);
  size_t d = 0;
  while (c.output.sizes[d] == 1) ++d;  // the first dimension an output could broadcast
  c.output.strides[d] = 0;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
               "OutputTensor.Strides[" + std::to_string(d) + "] is 0");
}

TEST_P(TensorRulesTest, OverlappingOutputLayoutIsRejected) {
  OpCase c = Base();
  c.output.strides.assign(c.output.sizes.size(), 1);  // every dimension steps one element
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), "OutputTensor.Strides");
}

// dmlcpu's output-layout rule is conservative: it accepts a layout only when each stride exceeds
// the extent of the smaller ones. {3,2} with strides {2,3} has distinct offsets 0,3,2,5,4,7 but
// interleaves its dimensions, so it is refused, and the message says which rule refused it.
TEST(TensorRulesTest, InterleavedOutputLayoutIsRefusedByTheConservativeRule) {
  UINT in_sizes[] = {3, 2}, out_strides[] = {2, 3}, offsets[] = {0, 0}, steps[] = {1, 1};
  DML_BUFFER_TENSOR_DESC in = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, in_sizes,
                               nullptr, 24, 0};
  DML_BUFFER_TENSOR_DESC out = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, in_sizes,
                                out_strides, 32, 0};
  DML_TENSOR_DESC in_desc = {DML_TENSOR_TYPE_BUFFER, &in},
                  out_desc = {DML_TENSOR_TYPE_BUFFER, &out};
  DML_SLICE_OPERATOR_DESC slice = {&in_desc, &out_desc, 2, offsets, in_sizes, steps};
  dmlcpu::Device device(dmlcpu::DeviceOptions{1, nullptr});
  auto op = device.Compile({DML_OPERATOR_SLICE, &slice});
  ASSERT_FALSE(op.ok());
  EXPECT_EQ(op.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(op.status().message().find("SLICE: OutputTensor.Strides[1] is 3, expected > 4"),
            std::string::npos) << op.status().message();
  EXPECT_NE(op.status().message().find("each stride exceeds the extent of the smaller ones"),
            std::string::npos) << op.status().message();
}

TEST_P(TensorRulesTest, NullOperatorDescIsRejected) {
  OpCase c = Base();
  c.null_op_desc = true;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, OpName(GetParam()), "null");
}

INSTANTIATE_TEST_SUITE_P(AllOperators, TensorRulesTest, ::testing::ValuesIn(kAllOperators),
                         OperatorTestName);

TEST(TensorRulesTest, RequiredSizeIsRoundedToFourBytes) {
  // SLICE1 copying the whole input; only the input's TotalTensorSizeInBytes is broken.
  struct Probe {
    DML_TENSOR_DATA_TYPE type;
    std::vector<uint32_t> sizes;
    std::vector<uint32_t> strides;
    uint64_t total;
    uint64_t required;
  };
  const Probe probes[] = {
      {kF16, {3, 5}, {}, 30, 32},     // 30 bytes, rounded to 32
      {kU8, {5}, {}, 5, 8},           // 5 bytes, rounded to 8
      {kU8, {5}, {}, 7, 8},
      {kF32, {2, 3}, {0, 1}, 8, 12},  // broadcast rows: 3 elements
  };
  for (const Probe& p : probes) {
    OpCase c;
    c.type = DML_OPERATOR_SLICE1;
    c.input = Tensor(p.type, p.sizes);
    c.input.strides = p.strides;
    c.input.total_bytes = p.total;
    c.output = Tensor(p.type, p.sizes);
    c.offsets.assign(p.sizes.size(), 0);
    c.window_sizes = p.sizes;
    c.window_strides.assign(p.sizes.size(), 1);
    SCOPED_TRACE(p.total);
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE1: ",
                 "InputTensor.TotalTensorSizeInBytes is " + std::to_string(p.total),
                 "expected >= " + std::to_string(p.required));
    c.input.total_bytes = p.required;
    EXPECT_OK(CompileStatus(c));
  }
}

TEST(TensorRulesTest, PackedElementCountAtFourGigaElementsIsRejected) {
  // 65536 x 65536 UINT8 = 2^32 elements; 65535 x 65537 = 2^32 - 1 is the largest allowed.
  OpCase c;
  c.type = DML_OPERATOR_SLICE1;
  c.input = Tensor(kU8, {65536, 65536});
  c.output = Tensor(kU8, {1, 1});
  c.offsets = {0, 0};
  c.window_sizes = {1, 1};
  c.window_strides = {1, 1};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE1: ", "InputTensor",
               "4294967296|4294967295");
  c.input.sizes = {65535, 65537};
  EXPECT_OK(CompileStatus(c));
}

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

// ================================================================================================
// GATHER (docs/semantics.md#gather).

TEST(GatherRulesTest, AxisNotBelowRankIsRejected) {
  for (uint32_t axis : {2u, 7u, kHuge}) {
    OpCase c = GatherCase();
    c.axis = axis;
    SCOPED_TRACE(axis);
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER: ",
                 "Axis is " + std::to_string(axis), "< 2");
  }
}

TEST(GatherRulesTest, IndexDimensionsAboveRankIsRejected) {
  for (uint32_t k : {3u, kHuge}) {
    OpCase c = GatherCase();
    c.index_dimensions = k;
    SCOPED_TRACE(k);
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER: ",
                 "IndexDimensions is " + std::to_string(k), "expected <= 2");
  }
}

TEST(GatherRulesTest, WrongOutputSizeIsRejected) {
  OpCase c = GatherCase();
  c.output.sizes = {3, 3};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER: ",
               "OutputTensor.Sizes[1] is 3", "expected 2");
}

TEST(GatherRulesTest, FirstMismatchingOutputSizeIsNamed) {
  OpCase c = GatherCase();
  c.output.sizes = {2, 3};  // both differ; [0] is reported
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER: ",
               "OutputTensor.Sizes[0] is 2", "expected 3");
}

TEST(GatherRulesTest, ScalarIndexOutputKeepingAxisIsRejected) {
  // G7 (k 0) drops the axis: Out {1,1,2}. Keeping it ({1,3,2}) is wrong.
  OpCase c;
  c.type = DML_OPERATOR_GATHER;
  c.input = Tensor(kF32, {1, 3, 2}, {1, 2, 3, 4, 5, 6});
  c.indices = Tensor(kI32, {1, 1, 1}, {2});
  c.output = Tensor(kF32, {1, 3, 2});
  c.axis = 1;
  c.index_dimensions = 0;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER: ",
               "OutputTensor.Sizes[1] is 3", "expected 1");
}

TEST(GatherRulesTest, DroppedInputDimensionNotOneIsRejected) {
  // Input {2,4}, Axis 1, k 2, Indices {3,2}: In[0] would be dropped from Out and must be 1.
  OpCase c;
  c.type = DML_OPERATOR_GATHER;
  c.input = Tensor(kF32, {2, 4});
  c.indices = Tensor(kU32, {3, 2});
  c.output = Tensor(kF32, {3, 2});
  c.axis = 1;
  c.index_dimensions = 2;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER: ",
               "InputTensor.Sizes[0] is 2", "expected 1");
  c.input.sizes = {1, 4};
  EXPECT_OK(CompileStatus(c));
}

TEST(GatherRulesTest, IndexPaddingDimensionNotOneIsRejected) {
  // docs/semantics.md#observed-directml-behaviour: DirectML rejects Indices {2,3} with
  // IndexDimensions 1.
  OpCase c = GatherCase();
  c.indices = Tensor(kU32, {2, 3});
  c.output.sizes = {3, 3};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER: ",
               "IndicesTensor.Sizes[0] is 2", "expected 1");
}

TEST(GatherRulesTest, ScalarIndexIsAccepted) {  // G7.
  OpCase c;
  c.type = DML_OPERATOR_GATHER;
  c.input = Tensor(kF32, {1, 3, 2}, {1, 2, 3, 4, 5, 6});
  c.indices = Tensor(kI32, {1, 1, 1}, {2});
  c.output = Tensor(kF32, {1, 1, 2}, {5, 6});
  c.axis = 1;
  c.index_dimensions = 0;
  ExpectRunsAndMatches(c);
}

TEST(GatherRulesTest, IndexDimensionsEqualToRankIsAccepted) {  // G1 (k = N = 1) and G5 (k 2).
  OpCase c;
  c.type = DML_OPERATOR_GATHER;
  c.input = Tensor(kF32, {4}, {11, 12, 13, 14});
  c.indices = Tensor(kU32, {5}, {3, 1, 3, 0, 2});
  c.output = Tensor(kF32, {5}, {14, 12, 14, 11, 13});
  c.axis = 0;
  c.index_dimensions = 1;
  ExpectRunsAndMatches(c);

  OpCase g5;
  g5.type = DML_OPERATOR_GATHER;
  g5.input = Tensor(kF32, {1, 3, 2}, {1, 2, 3, 4, 5, 6});
  g5.indices = Tensor(kU32, {1, 2, 2}, {0, 1, 1, 2});
  g5.output = Tensor(kF32, {2, 2, 2}, {1, 2, 3, 4, 3, 4, 5, 6});
  g5.axis = 1;
  g5.index_dimensions = 2;
  ExpectRunsAndMatches(g5);
  // k = N = 3: full = {1} ++ {1,2,2} ++ {2}; the two dropped leading entries are 1, so the
  // output is still {2,2,2} with the same values.
  g5.index_dimensions = 3;
  ExpectRunsAndMatches(g5);
}

// ================================================================================================
// GATHER_ELEMENTS (docs/semantics.md#gather_elements).

TEST(GatherElementsRulesTest, AxisNotBelowRankIsRejected) {
  for (uint32_t axis : {2u, kHuge}) {
    OpCase c = GatherElementsCase();
    c.axis = axis;
    SCOPED_TRACE(axis);
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER_ELEMENTS: ",
                 "Axis is " + std::to_string(axis), "< 2");
  }
}

TEST(GatherElementsRulesTest, IndicesSizeOffAxisDifferentFromInputIsRejected) {
  OpCase c = GatherElementsCase();
  c.indices.sizes = {2, 2};
  c.indices.values.resize(4);
  c.output.sizes = {2, 2};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER_ELEMENTS: ",
               "IndicesTensor.Sizes[1] is 2", "expected 3");
}

TEST(GatherElementsRulesTest, OutputSizesDifferentFromIndicesIsRejected) {
  OpCase c = GatherElementsCase();
  c.output.sizes = {3, 3};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER_ELEMENTS: ",
               "OutputTensor.Sizes[0] is 3", "expected 2");
}

TEST(GatherElementsRulesTest, IndicesLargerThanInputOnAxisIsAccepted) {
  OpCase c = GatherElementsCase();
  c.indices = Tensor(kU32, {4, 3}, {0, 1, 2, 2, 1, 0, 1, 1, 1, 0, 0, 0});
  c.output = Tensor(kF32, {4, 3}, {1, 5, 9, 7, 5, 3, 4, 5, 6, 1, 2, 3});
  ExpectRunsAndMatches(c);
}

// ================================================================================================
// GATHER_ND / GATHER_ND1 (docs/semantics.md#gather_nd1). Rules shared by both run on ND-1 (b = 0).

class GatherNdRulesTest : public ::testing::TestWithParam<DML_OPERATOR_TYPE> {
 protected:
  OpCase Base() const { return GatherNdCase(GetParam()); }
  std::string op() const { return Op(GetParam()); }
};

TEST_P(GatherNdRulesTest, InputDimensionCountZeroIsRejected) {
  OpCase c = Base();
  c.input_dimension_count = 0;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), "InputDimensionCount is 0");
}

TEST_P(GatherNdRulesTest, InputDimensionCountAboveRankIsRejected) {
  OpCase c = Base();
  c.input_dimension_count = 3;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), "InputDimensionCount is 3",
               "2");
}

TEST_P(GatherNdRulesTest, IndicesDimensionCountZeroIsRejected) {
  OpCase c = Base();
  c.indices_dimension_count = 0;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
               "IndicesDimensionCount is 0");
}

TEST_P(GatherNdRulesTest, IndicesDimensionCountAboveRankIsRejected) {
  OpCase c = Base();
  c.indices_dimension_count = 3;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
               "IndicesDimensionCount is 3", "2");
}

TEST_P(GatherNdRulesTest, TupleSizeZeroIsRejected) {
  OpCase c = Base();
  c.indices.sizes = {2, 0};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
               "IndicesTensor.Sizes[1] is 0");
}

TEST_P(GatherNdRulesTest, TupleSizeAboveInputDimensionCountIsRejected) {
  // t = Idx[N-1] = 3 > r = 2.
  OpCase c = Base();
  c.indices.sizes = {2, 3};
  c.output.sizes = {1, 2};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(), "IndicesTensor.Sizes[1]",
               "is 3", "2");
}

TEST_P(GatherNdRulesTest, MeaningfulOutputRankAboveRankIsRejected) {
  // N 3, r 3, q 3, t 1: m = (q-1) + (r-t) = 4 > 3.
  OpCase c;
  c.type = GetParam();
  c.input = Tensor(kF32, {2, 3, 4});
  c.indices = Tensor(kU32, {2, 2, 1});
  c.output = Tensor(kF32, {2, 3, 4});
  c.input_dimension_count = 3;
  c.indices_dimension_count = 3;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
               "IndicesDimensionCount|InputDimensionCount|IndicesTensor.Sizes|OutputTensor");
  c.indices.sizes = {1, 2, 1};  // q 2: m = 1 + 2 = 3, Out {2,3,4}
  c.indices_dimension_count = 2;
  EXPECT_OK(CompileStatus(c));
}

TEST_P(GatherNdRulesTest, WrongOutputSizeIsRejected) {
  OpCase c = Base();
  c.output.sizes = {2, 3};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
               "OutputTensor.Sizes[1] is 3", "expected 2");
}

TEST_P(GatherNdRulesTest, InputPaddingDimensionNotOneIsRejected) {
  // Input {2,2,2} with r 2: In[0] is padding and must be 1.
  OpCase c;
  c.type = GetParam();
  c.input = Tensor(kF32, {2, 2, 2});
  c.indices = Tensor(kU32, {1, 2, 1});
  c.output = Tensor(kF32, {1, 2, 2});
  c.input_dimension_count = 2;
  c.indices_dimension_count = 2;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
               "InputTensor.Sizes[0] is 2", "expected 1");
  c.input.sizes = {1, 2, 2};
  EXPECT_OK(CompileStatus(c));
}

TEST_P(GatherNdRulesTest, IndicesPaddingDimensionNotOneIsRejected) {
  // Indices {2,2,1} with q 2: Idx[0] is padding and must be 1.
  OpCase c;
  c.type = GetParam();
  c.input = Tensor(kF32, {1, 2, 2});
  c.indices = Tensor(kU32, {2, 2, 1});
  c.output = Tensor(kF32, {1, 2, 2});
  c.input_dimension_count = 2;
  c.indices_dimension_count = 2;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, op(),
               "IndicesTensor.Sizes[0] is 2", "expected 1");
  c.indices.sizes = {1, 2, 1};
  EXPECT_OK(CompileStatus(c));
}

TEST_P(GatherNdRulesTest, SpecExampleTwoCompilesAndRuns) {  // ND-2 (r 3, q 2, t 2).
  OpCase c;
  c.type = GetParam();
  c.input = Tensor(kF32, {1, 2, 2, 2}, Iota(0, 8));
  c.indices = Tensor(kU32, {1, 1, 2, 2}, {0, 1, 1, 0});
  c.output = Tensor(kF32, {1, 1, 2, 2}, {2, 3, 4, 5});
  c.input_dimension_count = 3;
  c.indices_dimension_count = 2;
  ExpectRunsAndMatches(c);
}

INSTANTIATE_TEST_SUITE_P(GatherNdOperators, GatherNdRulesTest,
                         ::testing::Values(DML_OPERATOR_GATHER_ND, DML_OPERATOR_GATHER_ND1),
                         OperatorTestName);

TEST(GatherNd1RulesTest, BatchDimensionCountNotBelowInputDimensionCountIsRejected) {
  // r 2, q 3, b 2: b < q holds, b < r does not.
  OpCase c;
  c.type = DML_OPERATOR_GATHER_ND1;
  c.input = Tensor(kF32, {1, 2, 3});
  c.indices = Tensor(kU32, {2, 3, 1});
  c.output = Tensor(kF32, {1, 2, 3});
  c.input_dimension_count = 2;
  c.indices_dimension_count = 3;
  c.batch_dimension_count = 2;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER_ND1: ",
               "BatchDimensionCount is 2", "2");
}

TEST(GatherNd1RulesTest, BatchDimensionCountNotBelowIndicesDimensionCountIsRejected) {
  // r 3, q 2, b 2: b < r holds, b < q does not.
  OpCase c;
  c.type = DML_OPERATOR_GATHER_ND1;
  c.input = Tensor(kF32, {2, 3, 4});
  c.indices = Tensor(kU32, {1, 2, 1});
  c.output = Tensor(kF32, {1, 2, 4});
  c.input_dimension_count = 3;
  c.indices_dimension_count = 2;
  c.batch_dimension_count = 2;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER_ND1: ",
               "BatchDimensionCount is 2", "2");
}

TEST(GatherNd1RulesTest, BatchDimensionCountAboveRankIsRejected) {
  OpCase c = GatherNd1BatchCase();
  c.batch_dimension_count = kHuge;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER_ND1: ",
               "BatchDimensionCount is 4294967295");
}

TEST(GatherNd1RulesTest, TupleSizeAboveNonBatchInputDimensionsIsRejected) {
  // ND1-2 with t 3 > r - b = 2.
  OpCase c = GatherNd1BatchCase();
  c.indices = Tensor(kU32, {1, 3, 2, 3});
  c.output.sizes = {1, 1, 3, 2};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER_ND1: ",
               "IndicesTensor.Sizes[3]", "is 3", "2");
}

TEST(GatherNd1RulesTest, BatchSizeMismatchIsRejected) {
  // ND1-2 with 2 index batches against 3 input batches.
  OpCase c = GatherNd1BatchCase();
  c.indices = Tensor(kU32, {1, 2, 2, 2});
  c.output.sizes = {1, 1, 2, 2};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER_ND1: ",
               "IndicesTensor.Sizes[1] is 2|InputTensor.Sizes[1] is 3", "expected 3|expected 2");
}

TEST(GatherNd1RulesTest, WrongOutputSizeWithBatchIsRejected) {
  OpCase c = GatherNd1BatchCase();
  c.output.sizes = {1, 1, 3, 3};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "GATHER_ND1: ",
               "OutputTensor.Sizes[3] is 3", "expected 2");
}

// ================================================================================================
// SLICE (docs/semantics.md#slice).

TEST(SliceRulesTest, NullOffsetsIsRejected) {
  OpCase c = SliceCase();
  c.null_offsets = true;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE: Offsets is null");
}

TEST(SliceRulesTest, NullSizesIsRejected) {
  OpCase c = SliceCase();
  c.null_window_sizes = true;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE: Sizes is null");
}

TEST(SliceRulesTest, NullStridesIsRejected) {
  OpCase c = SliceCase();
  c.null_strides = true;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE: Strides is null");
}

TEST(SliceRulesTest, DimensionCountDifferentFromRankIsRejected) {
  for (uint32_t count : {3u, 5u, 0u}) {
    OpCase c = SliceCase();
    c.offsets.resize(5, 0);
    c.window_sizes.resize(5, 1);
    c.slice_strides.resize(5, 1);
    c.dimension_count = count;
    SCOPED_TRACE(count);
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument,
                 "SLICE: DimensionCount is " + std::to_string(count), "4");
  }
}

TEST(SliceRulesTest, SizesDifferentFromOutputSizesIsRejected) {
  OpCase c = SliceCase();
  c.window_sizes = {1, 1, 3, 1};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE: ",
               "Sizes[3] is 1|OutputTensor.Sizes[3] is 2", "expected 2|expected 1");
}

TEST(SliceRulesTest, ZeroStrideIsRejected) {
  // docs/semantics.md#observed-directml-behaviour: real DirectML rejects a SLICE stride of 0.
  OpCase c = SliceCase();
  c.slice_strides = {1, 1, 0, 1};
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE: Strides[2] is 0");
}

TEST(SliceRulesTest, WindowBeyondInputIsRejected) {
  // Offsets[i] + Strides[i] * (Sizes[i] - 1) must stay below In[i] = 4.
  // The message names the fields of the bound, its value and the input size.
  struct Probe {
    uint32_t offset, stride;
  };
  for (const Probe& p : {Probe{2, 1}, Probe{0, 2}, Probe{4, 1}, Probe{kHuge, 1}}) {
    OpCase c = SliceCase();
    c.offsets[2] = p.offset;
    c.slice_strides[2] = p.stride;
    const uint64_t last = uint64_t{p.offset} + uint64_t{p.stride} * 2;
    SCOPED_TRACE("offset " + std::to_string(p.offset) + " stride " + std::to_string(p.stride));
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE: ", "Offsets[2]",
                 "Strides[2]", "is " + std::to_string(last), "4");
  }
}

TEST(SliceRulesTest, WindowWrappingThirtyTwoBitsIsRejected) {
  // 1 + 0x80000000 * 2 = 2^32 + 1 and 0xFFFFFFFF + 1 * 1 = 2^32 wrap to 1 and 0 in 32 bits.
  OpCase c = SliceCase();
  c.offsets[2] = 1;
  c.slice_strides[2] = 0x80000000u;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE: ", "Offsets[2]",
               "Strides[2]", "is 4294967297");
  c = SliceCase();
  c.offsets[3] = kHuge;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE: ", "Offsets[3]",
               "Strides[3]", "is 4294967296");
}

TEST(SliceRulesTest, WindowEndingAtLastElementIsAccepted) {  // SL-2: 1 + 2*1 = 3, 0 + 3*1 = 3.
  OpCase c = SliceCase();
  c.offsets = {0, 0, 1, 0};
  c.window_sizes = {1, 1, 2, 2};
  c.slice_strides = {1, 1, 2, 3};
  c.output = Tensor(kF32, {1, 1, 2, 2}, {5, 8, 13, 16});
  ExpectRunsAndMatches(c);
}

// ================================================================================================
// SLICE1 (docs/semantics.md#slice1).

TEST(Slice1RulesTest, NullInputWindowOffsetsIsRejected) {
  OpCase c = Slice1Case();
  c.null_offsets = true;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument,
               "SLICE1: InputWindowOffsets is null");
}

TEST(Slice1RulesTest, NullInputWindowSizesIsRejected) {
  OpCase c = Slice1Case();
  c.null_window_sizes = true;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument,
               "SLICE1: InputWindowSizes is null");
}

TEST(Slice1RulesTest, NullInputWindowStridesIsRejected) {
  OpCase c = Slice1Case();
  c.null_strides = true;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument,
               "SLICE1: InputWindowStrides is null");
}

TEST(Slice1RulesTest, DimensionCountDifferentFromRankIsRejected) {
  for (uint32_t count : {3u, 5u, 0u, 9u}) {
    OpCase c = Slice1Case();
    c.offsets.resize(9, 0);
    c.window_sizes.resize(9, 1);
    c.window_strides.resize(9, 1);
    c.dimension_count = count;
    SCOPED_TRACE(count);
    EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument,
                 "SLICE1: DimensionCount is " + std::to_string(count), "4");
  }
}

TEST(Slice1RulesTest, WindowSizeZeroIsRejected) {
  OpCase c = Slice1Case();
  c.window_sizes[1] = 0;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument,
               "SLICE1: InputWindowSizes[1] is 0");
}

TEST(Slice1RulesTest, WindowBeyondInputIsRejected) {
  // Offsets[3] + Sizes[3] = 2 + 3 = 5 > In[3] = 4.
  OpCase c = Slice1Case();
  c.offsets[3] = 2;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE1: ",
               "InputWindowOffsets[3]", "InputWindowSizes[3]", "is 5", "4");
  c.offsets[3] = 1;  // 1 + 3 = 4: the window ends exactly at the input's end
  EXPECT_OK(CompileStatus(c));
}

TEST(Slice1RulesTest, WindowWrappingThirtyTwoBitsIsRejected) {
  // 0xFFFFFFFF + 2 wraps to 1 <= 4 in 32 bits.
  OpCase c = Slice1Case();
  c.offsets[3] = kHuge;
  c.window_sizes[3] = 2;
  c.output.sizes[3] = 1;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE1: ",
               "InputWindowOffsets[3]", "InputWindowSizes[3]", "is 4294967297");
}

TEST(Slice1RulesTest, ZeroStrideIsRejected) {
  OpCase c = Slice1Case();
  c.window_strides[2] = 0;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument,
               "SLICE1: InputWindowStrides[2] is 0", "non-zero");
}

TEST(Slice1RulesTest, IntMinStrideAllowsOnlyOneOutputElement) {
  // |INT_MIN| = 2^31 > window size - 1, so exactly one element is reachable: Out[2] <= 1.
  OpCase c = Slice1Case();
  c.window_strides[2] = INT32_MIN;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE1: ",
               "OutputTensor.Sizes[2] is 2", "1");
  // With Out[2] = 1 it is valid: a negative stride starts at the window's end (row 3).
  c.output = Tensor(kF32, {1, 1, 1, 2}, {14, 16});
  ExpectRunsAndMatches(c);
}

TEST(Slice1RulesTest, OutputSizeZeroIsRejected) {
  OpCase c = Slice1Case();
  c.output.sizes[3] = 0;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE1: ",
               "OutputTensor.Sizes[3] is 0");
}

TEST(Slice1RulesTest, OutputSizeAboveReachableIsRejected) {
  // Window 4 with stride -2: 1 + 3/2 = 2 elements reachable.
  OpCase c = Slice1Case();
  c.output.sizes[2] = 3;
  EXPECT_ERROR(CompileStatus(c), StatusCode::kInvalidArgument, "SLICE1: ",
               "OutputTensor.Sizes[2] is 3", "2");
}

TEST(Slice1RulesTest, OutputSmallerThanReachableIsAccepted) {
  // docs/semantics.md#observed-directml-behaviour: In {2,3}, window {2,3}, strides {1,1}, Out {2,2}
  // -> [0,1, 3,4].
  OpCase c;
  c.type = DML_OPERATOR_SLICE1;
  c.input = Tensor(kF32, {2, 3}, Iota(0, 6));
  c.output = Tensor(kF32, {2, 2}, {0, 1, 3, 4});
  c.offsets = {0, 0};
  c.window_sizes = {2, 3};
  c.window_strides = {1, 1};
  ExpectRunsAndMatches(c);
}

// ================================================================================================
// Execute checks (O(1), before any write).

class ExecuteRulesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    c_ = GatherCase();
    auto op = CompileCase(c_);
    ASSERT_OK(op.status());
    op_ = *op;
  }
  OpCase c_;
  CompiledOperator op_;
};

TEST_F(ExecuteRulesTest, WrongInputCountIsRejected) {
  CaseBuffers buffers(c_);
  std::vector<Binding> inputs = buffers.InputBindings();
  const OutputBinding output = buffers.OutputBindingFor();
  EXPECT_EQ(op_.input_count(), 2u);
  EXPECT_ERROR(op_.Execute(inputs.data(), 1, &output, 1), StatusCode::kInvalidArgument,
               "GATHER: ", "input_count is 1", "expected 2");
  inputs.push_back(inputs[0]);
  EXPECT_ERROR(op_.Execute(inputs.data(), 3, &output, 1), StatusCode::kInvalidArgument,
               "GATHER: ", "input_count is 3", "expected 2");
  EXPECT_ERROR(op_.Execute(inputs.data(), 0, &output, 1), StatusCode::kInvalidArgument,
               "GATHER: ", "input_count is 0", "expected 2");
  EXPECT_TRUE(buffers.output.AllEqual(kSentinel));
}

TEST_F(ExecuteRulesTest, WrongOutputCountIsRejected) {
  CaseBuffers buffers(c_);
  const std::vector<Binding> inputs = buffers.InputBindings();
  const OutputBinding outputs[2] = {buffers.OutputBindingFor(), buffers.OutputBindingFor()};
  EXPECT_EQ(op_.output_count(), 1u);
  EXPECT_ERROR(op_.Execute(inputs.data(), 2, outputs, 0), StatusCode::kInvalidArgument,
               "GATHER: ", "output_count is 0", "expected 1");
  EXPECT_ERROR(op_.Execute(inputs.data(), 2, outputs, 2), StatusCode::kInvalidArgument,
               "GATHER: ", "output_count is 2", "expected 1");
  EXPECT_TRUE(buffers.output.AllEqual(kSentinel));
}

TEST_F(ExecuteRulesTest, NullInputDataIsRejected) {
  for (size_t i = 0; i < 2; ++i) {
    CaseBuffers buffers(c_);
    std::vector<Binding> inputs = buffers.InputBindings();
    inputs[i].data = nullptr;
    const OutputBinding output = buffers.OutputBindingFor();
    SCOPED_TRACE(i);
    EXPECT_ERROR(op_.Execute(inputs.data(), 2, &output, 1), StatusCode::kInvalidArgument,
                 "GATHER: ", "inputs[" + std::to_string(i) + "]", "null");
    EXPECT_TRUE(buffers.output.AllEqual(kSentinel));
  }
  CaseBuffers buffers(c_);
  const OutputBinding output = buffers.OutputBindingFor();
  EXPECT_ERROR(op_.Execute(nullptr, 2, &output, 1), StatusCode::kInvalidArgument, "GATHER: ",
               "null");
  EXPECT_TRUE(buffers.output.AllEqual(kSentinel));
}

TEST_F(ExecuteRulesTest, NullOutputDataIsRejected) {
  CaseBuffers buffers(c_);
  const std::vector<Binding> inputs = buffers.InputBindings();
  const OutputBinding output = {nullptr, buffers.output.size_bytes()};
  EXPECT_ERROR(op_.Execute(inputs.data(), 2, &output, 1), StatusCode::kInvalidArgument,
               "GATHER: ", "outputs[0]", "null");
  EXPECT_ERROR(op_.Execute(inputs.data(), 2, nullptr, 1), StatusCode::kInvalidArgument,
               "GATHER: ", "null");
}

TEST_F(ExecuteRulesTest, InputSizeBelowTotalTensorSizeIsRejected) {
  // InputTensor needs 24 bytes, IndicesTensor 8.
  const uint64_t required[2] = {24, 8};
  for (size_t i = 0; i < 2; ++i) {
    CaseBuffers buffers(c_);
    std::vector<Binding> inputs = buffers.InputBindings();
    ASSERT_EQ(inputs[i].size_bytes, required[i]);
    inputs[i].size_bytes = required[i] - 4;
    const OutputBinding output = buffers.OutputBindingFor();
    SCOPED_TRACE(i);
    EXPECT_ERROR(op_.Execute(inputs.data(), 2, &output, 1), StatusCode::kInvalidArgument,
                 "GATHER: ",
                 "inputs[" + std::to_string(i) + "].size_bytes is " +
                     std::to_string(required[i] - 4),
                 "expected >= " + std::to_string(required[i]));
    EXPECT_TRUE(buffers.output.AllEqual(kSentinel));
  }
}

TEST_F(ExecuteRulesTest, OutputSizeBelowTotalTensorSizeIsRejected) {
  CaseBuffers buffers(c_);
  const std::vector<Binding> inputs = buffers.InputBindings();
  const OutputBinding output = {buffers.output.data(), 20};  // needs 24
  EXPECT_ERROR(op_.Execute(inputs.data(), 2, &output, 1), StatusCode::kInvalidArgument,
               "GATHER: ", "outputs[0].size_bytes is 20", "expected >= 24");
  EXPECT_TRUE(buffers.output.AllEqual(kSentinel));
}

TEST_F(ExecuteRulesTest, LargerBindingsThanRequiredAreAccepted) {
  CaseBuffers buffers(c_);
  AlignedBuffer big_output(1024, kSentinel);
  std::vector<Binding> inputs = buffers.InputBindings();
  const OutputBinding output = {big_output.data(), big_output.size_bytes()};
  ASSERT_OK(op_.Execute(inputs.data(), 2, &output, 1));
  EXPECT_EQ(ReadOutput(c_.output, big_output), c_.output.values);
}

// One shared arena: input at [0, 24), indices at [64, 72), output wherever the test puts it.
class OverlapTest : public ExecuteRulesTest {
 protected:
  Status ExecuteWithOutputAt(uint64_t offset_bytes, uint64_t size_bytes = 24) {
    std::memset(arena_.data(), 0, arena_.size_bytes());
    StoreElement(kF32, 1, arena_.data());
    StoreElement(kU32, 1, arena_.data() + 64);
    std::memset(arena_.data() + offset_bytes, kSentinel, size_bytes);
    snapshot_.assign(arena_.data(), arena_.data() + arena_.size_bytes());
    const Binding inputs[2] = {{arena_.data(), 24}, {arena_.data() + 64, 8}};
    const OutputBinding output = {arena_.data() + offset_bytes, size_bytes};
    return op_.Execute(inputs, 2, &output, 1);
  }
  bool ArenaUnchanged() const {
    return std::memcmp(snapshot_.data(), arena_.data(), arena_.size_bytes()) == 0;
  }
  AlignedBuffer arena_{256};
  std::vector<uint8_t> snapshot_;
};

TEST_F(OverlapTest, OutputIdenticalToInputRangeIsRejected) {
  EXPECT_ERROR(ExecuteWithOutputAt(0), StatusCode::kInvalidArgument, "GATHER: ", "outputs[0]",
               "inputs[0]");
  EXPECT_TRUE(ArenaUnchanged());
  EXPECT_ERROR(ExecuteWithOutputAt(64, 24), StatusCode::kInvalidArgument, "GATHER: ",
               "outputs[0]", "inputs[1]");
  EXPECT_TRUE(ArenaUnchanged());
}

TEST_F(OverlapTest, OutputPartiallyOverlappingInputIsRejected) {
  // Output [20, 44) overlaps the input's tail; [48, 72) overlaps the indices' head.
  EXPECT_ERROR(ExecuteWithOutputAt(20), StatusCode::kInvalidArgument, "GATHER: ", "outputs[0]",
               "inputs[0]");
  EXPECT_TRUE(ArenaUnchanged());
  EXPECT_ERROR(ExecuteWithOutputAt(48), StatusCode::kInvalidArgument, "GATHER: ", "outputs[0]",
               "inputs[1]");
  EXPECT_TRUE(ArenaUnchanged());
  // Output larger than needed, swallowing the whole indices range: [60, 128).
  EXPECT_ERROR(ExecuteWithOutputAt(60, 68), StatusCode::kInvalidArgument, "GATHER: ",
               "outputs[0]", "inputs[1]");
  EXPECT_TRUE(ArenaUnchanged());
}

TEST_F(OverlapTest, AdjacentRangesAreAccepted) {
  EXPECT_OK(ExecuteWithOutputAt(24));  // right after the input, right before the indices' gap
  EXPECT_OK(ExecuteWithOutputAt(72));  // right after the indices
  EXPECT_OK(ExecuteWithOutputAt(40));  // [40, 64) ends where the indices begin
}

class AlignmentTest : public ::testing::Test {
 protected:
  // GATHER whose InputTensor promises 16-byte and OutputTensor 32-byte base alignment.
  void SetUp() override {
    c_ = GatherCase();
    c_.input.alignment_bytes = 16;
    c_.output.alignment_bytes = 32;
    auto op = CompileCase(c_);
    ASSERT_OK(op.status());
    op_ = *op;
  }
  OpCase c_;
  CompiledOperator op_;
};

TEST_F(AlignmentTest, MisalignedInputPointerIsRejected) {
  for (size_t misalignment : {4u, 8u, 12u}) {
    AlignedBuffer input(24, 0, misalignment);
    AlignedBuffer indices(8);
    AlignedBuffer output(24, kSentinel);
    const Binding inputs[2] = {{input.data(), 24}, {indices.data(), 8}};
    const OutputBinding out = {output.data(), 24};
    SCOPED_TRACE(misalignment);
    EXPECT_ERROR(op_.Execute(inputs, 2, &out, 1), StatusCode::kInvalidArgument, "GATHER: ",
                 "inputs[0]", "16");
    EXPECT_TRUE(output.AllEqual(kSentinel));
  }
}

TEST_F(AlignmentTest, MisalignedOutputPointerIsRejected) {
  AlignedBuffer input(24);
  AlignedBuffer indices(8);
  AlignedBuffer output(24, kSentinel, 16);  // 16- but not 32-byte aligned
  const Binding inputs[2] = {{input.data(), 24}, {indices.data(), 8}};
  const OutputBinding out = {output.data(), 24};
  EXPECT_ERROR(op_.Execute(inputs, 2, &out, 1), StatusCode::kInvalidArgument, "GATHER: ",
               "outputs[0]", "32");
  EXPECT_TRUE(output.AllEqual(kSentinel));
}

TEST_F(AlignmentTest, AlignedPointersAreAccepted) {
  CaseBuffers buffers(c_);  // 256-byte aligned
  ASSERT_OK(ExecuteCase(op_, buffers));
  EXPECT_EQ(ReadOutput(c_.output, buffers.output), c_.output.values);
  // The indices tensor promises nothing: any element-aligned pointer is fine.
  AlignedBuffer indices(8, 0, 4);
  StoreElement(kU32, 1, indices.data());
  const Binding inputs[2] = {{buffers.inputs[0].data(), 24}, {indices.data(), 8}};
  const OutputBinding out = buffers.OutputBindingFor();
  EXPECT_OK(op_.Execute(inputs, 2, &out, 1));
}

TEST(ExecuteSliceTest, SingleInputOperatorRejectsTwoInputs) {
  OpCase c = Slice1Case();
  auto op = CompileCase(c);
  ASSERT_OK(op.status());
  EXPECT_EQ(op->input_count(), 1u);
  CaseBuffers buffers(c);
  const Binding inputs[2] = {{buffers.inputs[0].data(), buffers.inputs[0].size_bytes()},
                             {buffers.inputs[0].data(), buffers.inputs[0].size_bytes()}};
  const OutputBinding output = buffers.OutputBindingFor();
  EXPECT_ERROR(op->Execute(inputs, 2, &output, 1), StatusCode::kInvalidArgument, "SLICE1: ",
               "input_count is 2", "expected 1");
  EXPECT_TRUE(buffers.output.AllEqual(kSentinel));
}

TEST(ExecuteSliceTest, DefaultConstructedOperatorFailsCleanly) {
  CompiledOperator op;
  EXPECT_FALSE(op.valid());
  AlignedBuffer buffer(64);
  const Binding input = {buffer.data(), 64};
  const OutputBinding output = {buffer.data(), 64};
  const Status status = op.Execute(&input, 1, &output, 1);
  EXPECT_FALSE(status.ok());
}

}  // namespace
}  // namespace dmlcpu
