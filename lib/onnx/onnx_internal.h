// SPDX-License-Identifier: Apache-2.0
// Shared by the ONNX adapter's files (lib/onnx/onnx_<family>.cc): the Builder that fills an
// OperatorDesc and the checks every op uses. Messages: "<ONNX op>: <attribute/input> is
// <value>, expected <constraint>".
#ifndef DMLCPU_LIB_ONNX_ONNX_INTERNAL_H_
#define DMLCPU_LIB_ONNX_ONNX_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dmlcpu/onnx.h"

namespace dmlcpu {
namespace onnx {

inline constexpr int64_t kMaxDim = 0xFFFFFFFFll;  // DirectML sizes are UINT

// "{2,3,4}".
std::string ShapeString(const std::vector<int64_t>& shape);
// Every dimension of `shape` fits a DirectML size (or is 0) and the rank is at most 8.
Status CheckShape(const char* op, const char* name, const std::vector<int64_t>& shape);
// INT32 or INT64 (ONNX index inputs).
Status CheckIndexType(const char* op, ElementType type);
// A type with a DirectML equivalent (ElementSizeBytes != 0); `name` defaults to "data".
Status CheckDataType(const char* op, ElementType type, const char* name = "data");
// Normalises an axis attribute in [-rank, rank - 1] into [0, rank).
Status NormalizeAxis(const char* op, const char* name, int64_t axis, size_t rank,
                     uint32_t* normalized);
bool HasZero(const std::vector<int64_t>& shape);

// Fills an OperatorDesc's state (friend of OperatorDesc). Usage: declare the bindings (inputs in
// the operator struct's field order, outputs likewise), set the DimensionCount (0 = nothing to
// execute), the operator type and the attributes in s(), then Finish().
class Builder {
 public:
  explicit Builder(const char* onnx_op) { s().onnx_op = onnx_op; }

  OperatorDesc::State& s() { return desc_.s_; }

  // Declares the next input binding: its ONNX name (messages), DirectML field (ToString), ONNX
  // element type and buffer shape, and for a view the same-rank shape DirectML sees. Returns
  // the input's index. Inputs may be added after outputs (they go before them).
  size_t AddInput(const char* onnx_name, std::string dml_field, ElementType type,
                  std::vector<int64_t> buffer_shape,
                  const std::vector<int64_t>* view_shape = nullptr);
  // Makes input `i` (a view) start at `start` (one entry per ONNX dimension) inside its buffer.
  void SetInputViewStart(size_t i, std::vector<int64_t> start) {
    s().tensors[i].view_start = std::move(start);
  }
  // Declares the next output binding; returns the output's index.
  size_t AddOutput(const char* onnx_name, std::string dml_field, ElementType type,
                   std::vector<int64_t> shape);

  // DirectML's DimensionCount for every tensor; 0 (the default) with nothing_to_execute.
  void SetDimensionCount(uint32_t n) { s().dimension_count = n; }
  // No DirectML operator: desc().Type stays DML_OPERATOR_INVALID (empty outputs).
  void SetNothingToExecute(bool nothing) { s().nothing_to_execute = nothing; }

  // Finishes: DirectML sizes (right-aligned to DimensionCount), packed layouts, byte sizes,
  // pointers. Fails if a packed span does not fit 64 bits.
  StatusOr<OperatorDesc> Finish();

  // The copy-shaped ops' cases of OperatorDesc::Relink and ToString (onnx_movement.cc).
  static void LinkMovement(OperatorDesc::State* s);
  static std::string MovementAttributes(const OperatorDesc::State& s);

 private:
  OperatorDesc desc_;
};

}  // namespace onnx
}  // namespace dmlcpu

#endif  // DMLCPU_LIB_ONNX_ONNX_INTERNAL_H_
