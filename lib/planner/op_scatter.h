// SPDX-License-Identifier: Apache-2.0
// SCATTER (= SCATTER_ELEMENTS) and SCATTER_ND: the scatter step's plan (scatter_plan.h) and its
// strict-mode index scans (op_scatter.cc), and the descriptors' validation
// (docs/semantics.md#scatter-and-scatter_nd; scatter_validate.cc). No Highway, no TBB.
#ifndef DMLCPU_PLANNER_OP_SCATTER_H_
#define DMLCPU_PLANNER_OP_SCATTER_H_

#include <cstdint>
#include <string>

#include "core/tuning.h"
#include "dmlcpu/dml_compat.h"
#include "dmlcpu/status.h"
#include "planner/plan.h"
#include "planner/scatter_plan.h"

namespace dmlcpu {
namespace internal {

// A validated scatter descriptor.
struct ScatterGeometry {
  DML_OPERATOR_TYPE type = DML_OPERATOR_INVALID;
  const char* name = "";
  TensorInfo input, indices, updates, output;
  kernels::IndexType index_type = kernels::IndexType::kUint32;
  uint32_t axis = 0;                         // SCATTER
  uint32_t input_dims = 0, indices_dims = 0;  // SCATTER_ND: r, q
};

// What a scatter computes beyond DirectML's struct (CompileOptions).
struct ScatterSettings {
  kernels::ScatterReduction reduction = kernels::ScatterReduction::kNone;
  bool uint16_as_bfloat16 = false;  // UINT16 data reduced as bfloat16 bit patterns
  uint32_t concurrency = 0;         // threads an Execute may use; 0 plans as for 2
  uint64_t serial_cutoff_bytes = uint64_t{64} << 10;
  // Outputs of at least this size are written with non-temporal stores where a plan can: the
  // fused block (ScatterPlan::fused_block).
  uint64_t stream_threshold_bytes = kDefaultTuning.stream_threshold_bytes;
  // The scratch one compiled operator may hold (fused strips are sized to fit it).
  uint64_t max_scratch_bytes = kDefaultTuning.max_scratch_bytes;
};

// Every rule of docs/semantics.md#scatter-and-scatter_nd (scatter_validate.cc); desc.Type is
// SCATTER or SCATTER_ND.
Status ValidateScatter(const DML_OPERATOR_DESC& desc, ScatterGeometry* geometry);

// The scatter step (after the copy of InputTensor to OutputTensor). kInvalidArgument when the
// reduction has no arithmetic for the data type.
Status BuildScatterPlan(const ScatterGeometry& geometry, const ScatterSettings& settings,
                        ScatterPlan* plan);

// kStrict: one scan per tuple element over the indices in row-major order.
void BuildScatterScans(const ScatterGeometry& geometry, IndexScans* scans);

// The scatter step's part of CompiledOperator::Describe (multi-line; describe.cc).
std::string DescribeScatterPlan(const ScatterPlan& plan);

// Both layouts address the same bytes for every coordinate: the output may then be bound to the
// input's buffer (in place).
bool SameLayout(const TensorInfo& a, const TensorInfo& b);

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_PLANNER_OP_SCATTER_H_
