// SPDX-License-Identifier: Apache-2.0
// Checks shared by every operator's validation (validate.cc for the gathers and slices,
// op_<family>.cc for the others). Messages follow one format:
// "<OP>: <field> is <value>, expected <constraint>".
#ifndef DMLCPU_PLANNER_VALIDATE_UTIL_H_
#define DMLCPU_PLANNER_VALIDATE_UTIL_H_

#include <initializer_list>
#include <string>

#include "dmlcpu/status.h"
#include "planner/geometry.h"

namespace dmlcpu {
namespace internal {

struct NamedArray {
  const char* field;
  const void* data;
};

// Every array pointer of the descriptor is non-null (the first null one is reported).
Status RequireArrays(const char* op, std::initializer_list<NamedArray> arrays);

// t.rank == ref.rank: "<OP>: <field>.DimensionCount is 3, expected 4 (<ref_field>.DimensionCount)".
Status CheckSameRank(const char* op, const char* field, const TensorInfo& t, const char* ref_field,
                     const TensorInfo& ref);
// The same against InputTensor.
Status CheckSameRank(const char* op, const char* field, const TensorInfo& t,
                     const TensorInfo& input);

// t.data_type == ref.data_type.
Status CheckSameType(const char* op, const char* field, const TensorInfo& t, const char* ref_field,
                     const TensorInfo& ref);
// OutputTensor against InputTensor.
Status CheckSameType(const char* op, const TensorInfo& output, const TensorInfo& input);

// INT32, UINT32, INT64 or UINT64 (the IndicesTensor field).
Status CheckIndexType(const char* op, const TensorInfo& indices, kernels::IndexType* type);

// One expected output dimension and where its value comes from (for messages).
struct ExpectedDim {
  uint32_t size;
  std::string source;
};

// field.Sizes[i] == expected[i].size for every dimension of `t`.
Status CheckOutputSizes(const char* op, const char* field, const TensorInfo& t,
                        const ExpectedDim* expected);
// The same for OutputTensor.
Status CheckOutputSizes(const char* op, const TensorInfo& output, const ExpectedDim* expected);

// The dimensions of `t` before its last `real_dims` are 1 (right-aligned ranks):
// "<OP>: <field>.Sizes[0] is 3, expected 1: only the last <count_field> (2) dimensions are real".
Status CheckLeadingOnes(const char* op, const char* field, const TensorInfo& t, uint32_t real_dims,
                        const char* count_field);

// The shape of GATHER_ND(1)'s OutputTensor and SCATTER_ND's UpdatesTensor, right-aligned in
// `rank` dimensions: leading 1s, IndicesTensor's real dimensions but the last (its last
// indices_dims - 1), then InputTensor's last input_dims - batch_dims - tuple_size. Returns the
// real dimensions' count m (the caller checks m <= rank before it reads `expected`).
uint32_t ExpectNdResult(const TensorInfo& input, const TensorInfo& indices, uint32_t rank,
                        uint32_t input_dims, uint32_t indices_dims, uint32_t batch_dims,
                        uint32_t tuple_size, ExpectedDim* expected);

// GATHER_ELEMENTS / SCATTER: Axis < the input's rank, and IndicesTensor matches InputTensor in
// every other dimension.
Status CheckElementsAxis(const char* op, uint32_t axis, const TensorInfo& input,
                         const TensorInfo& indices);

// "InputTensor.Sizes[2]".
std::string Source(const char* field, uint32_t dim);

// "InputTensors[3]": the field name of element i of an array field.
std::string ArrayField(const char* field, uint32_t i);

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_PLANNER_VALIDATE_UTIL_H_
