// SPDX-License-Identifier: Apache-2.0
// The fuzz harnesses' generated case (internal to tests/fuzz): the byte reader, tensor and
// operator descriptions that fuzz_generate.cc and the fuzz_ops_<family>.cc files fill and
// fuzz_harness.cc drives.
#ifndef DMLCPU_TESTS_FUZZ_FUZZ_CASE_H_
#define DMLCPU_TESTS_FUZZ_FUZZ_CASE_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "dmlcpu/dml_compat.h"
#include "reference/reference.h"

namespace dmlcpu_fuzz {

// Arrays handed to the library never hold more entries than this, whatever DimensionCount says.
inline constexpr uint32_t kMaxArrayElems = 16;
// SPLIT: at most 1 + kMaxMoreOutputs outputs.
inline constexpr uint32_t kMaxMoreOutputs = 2;

// Reads the fuzz bytes front to back; an exhausted input reads as zeros.
class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size_bytes) : data_(data), size_bytes_(size_bytes) {}
  uint8_t U8() { return pos_ < size_bytes_ ? data_[pos_++] : 0; }
  uint32_t U32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t{U8()} << (8 * i);
    return v;
  }
  uint64_t U64() { return uint64_t{U32()} | (uint64_t{U32()} << 32); }

 private:
  const uint8_t* data_;
  size_t size_bytes_;
  size_t pos_ = 0;
};

inline constexpr uint32_t kSpecialU32[] = {0, 1, 2, 3, 65535, 65536, 0x7FFFFFFFu, 0x80000000u,
                                    0xFFFFFFFFu, 0xFFFFFFFEu, 255, 256, 4096, 0x10001u,
                                    0x40000000u, 7};

// A dimension size: mostly 1..4, sometimes a special value (0, 2^16, 2^31, 2^32 - 1, ...) or raw.
inline uint32_t Dim(FuzzInput& in) {
  const uint8_t b = in.U8();
  switch (b & 7) {
    case 6:
      return kSpecialU32[(b >> 3) & 15];
    case 7:
      return in.U32();
    default:
      return 1 + ((b >> 3) & 3);
  }
}

// `count` dimension sizes, each by Dim.
inline std::vector<uint32_t> Dims(FuzzInput& in, uint32_t count) {
  std::vector<uint32_t> v(count);
  for (uint32_t& d : v) d = Dim(in);
  return v;
}

// Rank: mostly 1..5, sometimes 0..10.
inline uint32_t Rank(FuzzInput& in) {
  const uint8_t b = in.U8();
  return (b & 3) != 0 ? 1 + (b >> 2) % 5 : (b >> 2) % 11;
}

inline DML_TENSOR_DATA_TYPE DataType(FuzzInput& in) {
  const uint8_t b = in.U8();
  if (b < 240) return static_cast<DML_TENSOR_DATA_TYPE>(1 + b % 11);
  return static_cast<DML_TENSOR_DATA_TYPE>(b - 240);  // 0..15: UNKNOWN, 4-bit, unknown values
}

inline DML_TENSOR_DATA_TYPE IndexType(FuzzInput& in) {
  static constexpr DML_TENSOR_DATA_TYPE kTypes[] = {
      DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_UINT32,
      DML_TENSOR_DATA_TYPE_UINT64};
  const uint8_t b = in.U8();
  if (b < 248) return kTypes[b & 3];
  return static_cast<DML_TENSOR_DATA_TYPE>(b - 240);  // mismatched types
}

// An owning tensor description; Build() points the DML structs into it.
struct TensorSpec {
  bool present = true;
  bool buffer_desc_null = false;
  bool sizes_null = false;
  bool has_strides = false;
  uint32_t type = DML_TENSOR_TYPE_BUFFER;
  uint32_t flags = DML_TENSOR_FLAG_NONE;
  DML_TENSOR_DATA_TYPE data_type = DML_TENSOR_DATA_TYPE_FLOAT32;
  uint32_t dimension_count = 0;
  std::vector<uint32_t> sizes;    // min(dimension_count, kMaxArrayElems) entries
  std::vector<uint32_t> strides;  // same, when has_strides
  uint64_t total_bytes = 0;
  uint32_t alignment = 0;

  DML_BUFFER_TENSOR_DESC buffer{};
  DML_TENSOR_DESC tensor{};

  void SetSizes(std::vector<uint32_t> new_sizes) {
    sizes = std::move(new_sizes);
    dimension_count = static_cast<uint32_t>(sizes.size());
    strides.clear();
    has_strides = false;
  }
  void ResizeArrays(FuzzInput& in) {
    const uint32_t n = std::min(dimension_count, kMaxArrayElems);
    while (sizes.size() < n) sizes.push_back(Dim(in));
    sizes.resize(n);
    if (has_strides) {
      while (strides.size() < n) strides.push_back(Dim(in));
      strides.resize(n);
    }
  }
  uint64_t MinimumBytes() const {
    if (dimension_count != sizes.size()) return 0;
    return dmlcpu_test::MinimumTensorSizeBytes(data_type, dimension_count, sizes.data(),
                                  has_strides ? strides.data() : nullptr);
  }
  const DML_TENSOR_DESC* Build() {
    buffer.DataType = data_type;
    buffer.Flags = static_cast<DML_TENSOR_FLAGS>(flags);
    buffer.DimensionCount = dimension_count;
    buffer.Sizes = sizes_null ? nullptr : sizes.data();
    buffer.Strides = has_strides ? strides.data() : nullptr;
    buffer.TotalTensorSizeInBytes = total_bytes;
    buffer.GuaranteedBaseOffsetAlignment = alignment;
    tensor.Type = static_cast<DML_TENSOR_TYPE>(type);
    tensor.Desc = buffer_desc_null ? nullptr : &buffer;
    return present ? &tensor : nullptr;
  }
  std::string ToString() const {
    if (!present) return "null";
    std::string s = "type=" + std::to_string(type) + (buffer_desc_null ? " desc=null" : "") +
                    " dt=" + std::to_string(data_type) + " flags=" + std::to_string(flags) +
                    " dims=" + std::to_string(dimension_count) + " sizes=";
    s += sizes_null ? "null" : dmlcpu_test::SizesToString(sizes);
    s += " strides=";
    s += has_strides ? dmlcpu_test::SizesToString(strides) : "null";
    s += " total=" + std::to_string(total_bytes) + " align=" + std::to_string(alignment);
    return s;
  }
};

// Operators whose inputs[1] holds index values (filled by FillIndices).
bool HasIndices(uint32_t type);

// One generated operator descriptor. Not copyable: the DML structs point into it.
struct FuzzCase {
  FuzzCase() = default;
  FuzzCase(const FuzzCase&) = delete;
  FuzzCase& operator=(const FuzzCase&) = delete;

  uint32_t type = DML_OPERATOR_GATHER;  // the generated operator (the struct layout)
  uint32_t type_value = DML_OPERATOR_GATHER;  // the value stored in DML_OPERATOR_DESC::Type
  bool op_desc_null = false;
  TensorSpec input, indices, output;
  TensorSpec updates;  // SCATTER, SCATTER_ND: the third input
  // SPLIT: outputs 1.. (`output` is output 0); more_output_count of them are used.
  TensorSpec more_outputs[kMaxMoreOutputs];
  uint32_t more_output_count = 0;
  uint32_t attr[3] = {0, 0, 0};  // Axis/IndexDimensions or r/q/b
  uint32_t slice_dimension_count = 0;
  bool offsets_null = false, window_sizes_null = false, window_strides_null = false;
  std::vector<uint32_t> offsets, window_sizes, window_strides;
  std::vector<int32_t> window_strides_signed;

  // Every operator struct, padded: a Type value is only ever one of the six for the struct it
  // was generated for, or a value outside them.
  DML_GATHER_OPERATOR_DESC gather{};
  DML_GATHER_ELEMENTS_OPERATOR_DESC gather_elements{};
  DML_GATHER_ND_OPERATOR_DESC gather_nd{};
  DML_GATHER_ND1_OPERATOR_DESC gather_nd1{};
  DML_SLICE_OPERATOR_DESC slice{};
  DML_SLICE1_OPERATOR_DESC slice1{};
  DML_PADDING_OPERATOR_DESC padding{};
  DML_PADDING1_OPERATOR_DESC padding1{};
  DML_DEPTH_TO_SPACE_OPERATOR_DESC depth_to_space{};
  DML_SPACE_TO_DEPTH_OPERATOR_DESC space_to_depth{};
  DML_DEPTH_TO_SPACE1_OPERATOR_DESC depth_to_space1{};
  DML_SPACE_TO_DEPTH1_OPERATOR_DESC space_to_depth1{};
  DML_SLICE_GRAD_OPERATOR_DESC slice_grad{};
  DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity{};
  DML_SCALE_BIAS scale_bias{2.0f, 1.0f};
  DML_TILE_OPERATOR_DESC tile{};
  uint32_t repeats[kMaxArrayElems] = {};  // TILE: RepeatsCount (attr[1]) is at most 16 here
  DML_JOIN_OPERATOR_DESC join{};
  DML_TENSOR_DESC join_inputs[2] = {};
  DML_SCATTER_OPERATOR_DESC scatter{};
  DML_SCATTER_ND_OPERATOR_DESC scatter_nd{};
  DML_SPLIT_OPERATOR_DESC split{};
  DML_TENSOR_DESC split_outputs[1 + kMaxMoreOutputs] = {};
  DML_OPERATOR_DESC op_desc{};

  void ResizeSliceArrays(FuzzInput& in) {
    const uint32_t n = std::min(slice_dimension_count, kMaxArrayElems);
    while (offsets.size() < n) offsets.push_back(in.U8() % 3);
    while (window_sizes.size() < n) window_sizes.push_back(1 + in.U8() % 4);
    while (window_strides.size() < n) window_strides.push_back(1 + in.U8() % 3);
    while (window_strides_signed.size() < n) window_strides_signed.push_back(1 + in.U8() % 3);
    offsets.resize(n);
    window_sizes.resize(n);
    window_strides.resize(n);
    window_strides_signed.resize(n);
  }

  // Points the DML structs into this case (fuzz_harness.cc).
  const DML_OPERATOR_DESC& Build();
  // The bound tensors in binding order.
  std::vector<TensorSpec*> Inputs();
  std::vector<TensorSpec*> Outputs();
  std::string ToString() const;
};

// A shape-consistent descriptor of one operator of kOps (fuzz_generate.cc: the output follows
// the operator's shape rule where the reference can compute it), then, when `hostile`, a few
// fields overwritten with bad values.
void Generate(FuzzInput& in, bool hostile, FuzzCase* c);

// ---- Families in their own files ----

// SCATTER, SCATTER_ND, SPLIT (fuzz_ops_multi.cc: three inputs or several outputs). Generate:
// shape-consistent sizes for rank `n` (the input's, the indices', the output's, and the case's
// `updates` / `more_outputs` and attributes). BuildDesc: the operator struct, built from the
// tensor descs (null when absent).
bool IsMultiOp(uint32_t type);
void GenerateMultiOp(FuzzInput& in, uint32_t n, FuzzCase* c, std::vector<uint32_t>* in_sizes,
                     std::vector<uint32_t>* idx_sizes, std::vector<uint32_t>* out_sizes);
const void* BuildMultiOpDesc(FuzzCase* c, const DML_TENSOR_DESC* in_t,
                             const DML_TENSOR_DESC* idx_t, const DML_TENSOR_DESC* out_t);

}  // namespace dmlcpu_fuzz

#endif  // DMLCPU_TESTS_FUZZ_FUZZ_CASE_H_
