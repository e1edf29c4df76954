// SPDX-License-Identifier: Apache-2.0
// A descriptor after validation: every tensor with explicit strides and the operator's
// attributes, deep-copied. The planner builds programs from it; nothing here points back into
// the caller's descriptor. Pure data: no Highway, no TBB.
#ifndef DMLCPU_PLANNER_GEOMETRY_H_
#define DMLCPU_PLANNER_GEOMETRY_H_

#include <cstdint>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/status.h"
#include "kernels/kernels.h"

namespace dmlcpu {
namespace internal {

constexpr uint32_t kMaxRank = 8;

// One validated tensor, explicit strides even when the descriptor had none.
struct TensorInfo {
  DML_TENSOR_DATA_TYPE data_type = DML_TENSOR_DATA_TYPE_UNKNOWN;
  uint32_t elem_bytes = 0;
  uint32_t rank = 0;
  uint32_t sizes[kMaxRank] = {};
  uint64_t strides_elems[kMaxRank] = {};
  bool packed = true;           // the descriptor's Strides was null
  uint64_t total_bytes = 0;     // TotalTensorSizeInBytes as declared
  uint64_t required_bytes = 0;  // DMLCalcBufferTensorSize (64-bit)
  uint32_t alignment_bytes = 0;  // GuaranteedBaseOffsetAlignment
};

struct OpGeometry {
  DML_OPERATOR_TYPE type = DML_OPERATOR_INVALID;
  const char* name = "";  // "GATHER", "SLICE1", ...
  TensorInfo input, indices, output;
  bool has_indices = false;
  kernels::IndexType index_type = kernels::IndexType::kUint32;  // when has_indices
  uint32_t axis = 0;             // GATHER, GATHER_ELEMENTS
  uint32_t index_dimensions = 0;  // GATHER (k)
  uint32_t input_dims = 0, indices_dims = 0, batch_dims = 0;  // GATHER_ND(1): r, q, b
  int64_t slice_start[kMaxRank] = {};  // SLICE(1): input coordinate of output coordinate 0
  int64_t slice_step[kMaxRank] = {};   // SLICE(1): signed input step per output step
};

// Reads and validates one tensor desc. `field` is the struct field name ("InputTensor").
// is_output enables output-only rules (no OWNED_BY_DML, no 0-stride or overlapping layout).
Status ReadTensor(const char* op_name, const char* field, const DML_TENSOR_DESC* desc,
                  bool is_output, TensorInfo* info);

// Validates every documented constraint of `desc` (docs/semantics.md) and fills `geometry`.
Status ValidateOperator(const DML_OPERATOR_DESC& desc, OpGeometry* geometry);

// DMLCalcBufferTensorSize in 64-bit; 0 on unknown type or overflow.
uint64_t CalcTensorBytes(DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t* sizes,
                         const uint32_t* strides);
// Element width in bytes (0 for unknown and for 4-bit types).
uint32_t ElementBytes(DML_TENSOR_DATA_TYPE type);
// 4 for 32-bit index types, 8 for 64-bit ones.
uint32_t IndexBytes(kernels::IndexType type);

// Names (names.cc).
const char* DataTypeName(DML_TENSOR_DATA_TYPE type);
const char* OperatorName(DML_OPERATOR_TYPE type);
// The name of any 32-bit operator type value ("DML_OPERATOR" past the known ones).
const char* OperatorNameForValue(uint32_t value);
const char* IndexTypeName(kernels::IndexType type);

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_PLANNER_GEOMETRY_H_
