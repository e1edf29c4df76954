// SPDX-License-Identifier: Apache-2.0
// Naive reference of SCATTER (= SCATTER_ELEMENTS) and SCATTER_ND, straight from
// docs/semantics.md#scatter-and-scatter_nd: Output = Input element by element, then every update in row-major
// order of the updates (so the last duplicate wins, and reductions run in index order). An
// update whose index is out of range (outside [-D, D-1] signed, [0, D-1] unsigned) is dropped.
// Like reference.cc it includes no lib/ header: its arithmetic (integers wrap; FLOAT16 and
// BFLOAT16 computed exactly, rounded once to nearest even; NaN: the destination's if it is one,
// else the update's, quieted; max/min with -0 < +0) is its own.
#ifndef DMLCPU_TESTS_REFERENCE_REFERENCE_SCATTER_H_
#define DMLCPU_TESTS_REFERENCE_REFERENCE_SCATTER_H_

#include <cstdint>

#include "reference/reference.h"

namespace dmlcpu_test {

enum class RefReduction : uint32_t { kNone = 0, kAdd = 1, kMul = 2, kMax = 3, kMin = 4 };

struct RefScatterOptions {
  RefReduction reduction = RefReduction::kNone;
  bool uint16_as_bfloat16 = false;
};

// `output` may equal `input` (in place, same layout). index_out_of_range reports dropped updates.
ReferenceResult ReferenceScatter(const DML_SCATTER_OPERATOR_DESC& desc, const void* input,
                                 const void* indices, const void* updates, void* output,
                                 const RefScatterOptions& options = RefScatterOptions());
ReferenceResult ReferenceScatterNd(const DML_SCATTER_ND_OPERATOR_DESC& desc, const void* input,
                                   const void* indices, const void* updates, void* output,
                                   const RefScatterOptions& options = RefScatterOptions());

// One reduction step on raw element bytes of `data_type` (the reference's own arithmetic).
void RefReduce(DML_TENSOR_DATA_TYPE data_type, bool uint16_as_bfloat16, RefReduction reduction,
               uint8_t* dst, const uint8_t* src);

}  // namespace dmlcpu_test

#endif  // DMLCPU_TESTS_REFERENCE_REFERENCE_SCATTER_H_
