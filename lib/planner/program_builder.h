// SPDX-License-Identifier: Apache-2.0
// ProgramBuilder: how an operator's builder (op_<family>.cc) turns a validated descriptor into a
// program: it declares the bindings in struct-field order and adds steps as explicit loop
// nests, which are planned (collapsed, classified, tiled, partitioned) like every other step.
#ifndef DMLCPU_PLANNER_PROGRAM_BUILDER_H_
#define DMLCPU_PLANNER_PROGRAM_BUILDER_H_

#include <cstdint>
#include <string>

#include "dmlcpu/status.h"
#include "planner/plan.h"
#include "planner/planner.h"

namespace dmlcpu {
namespace internal {

// Loops a builder may hand over, before collapsing (TILE views each dimension as two).
constexpr uint32_t kMaxNestLoops = 2 * kMaxRank;

// One affine step as explicit loops, outermost first, strides in bytes:
//   for every c over the loops:
//     out[out_base_bytes + sum c[d] * out_strides_bytes[d]] =
//         source[in_base_bytes + sum c[d] * in_strides_bytes[d]]        (elem_bytes wide)
// Negative output strides are allowed (the loop is reversed, which moves the negative stride
// onto the input); a size-0 loop makes the whole step empty.
struct LoopNest {
  uint32_t elem_bytes = 0;
  uint32_t loop_count = 0;
  int64_t sizes[kMaxNestLoops] = {};
  int64_t in_strides_bytes[kMaxNestLoops] = {};  // ignored by fills
  int64_t out_strides_bytes[kMaxNestLoops] = {};
  int64_t in_base_bytes = 0;
  int64_t out_base_bytes = 0;
};

// The nest that walks `out` in its own dimension order and reads `in` at the same coordinates
// with in's strides (same rank and sizes, same element width).
LoopNest NestOf(const TensorInfo& out, const TensorInfo& in);

class ProgramBuilder {
 public:
  // `program` is reset; its geometry's type and name are set by the operator's builder.
  ProgramBuilder(const PlanSettings& settings, Program* program);

  // Bindings, in struct-field order. `field` names the binding in messages ("InputTensors[2]").
  // Return the binding's index.
  uint32_t AddInput(std::string field, const TensorInfo& tensor);
  uint32_t AddOutput(std::string field, const TensorInfo& tensor);

  // Appends one copy step: source binding `source_binding` (an input, or with
  // StepSource::kOutput an output binding written by earlier steps, whose read elements must not
  // be among the step's written ones) into output binding `output_binding`. Empty nests add no
  // step. kInternal when a loop would read or write outside its binding's extent
  // (DMLCalcBufferTensorSize), or more than kMaxRank loops remain after collapsing (split such a
  // nest into several steps).
  Status AddCopy(StepSource source, uint32_t source_binding, uint32_t output_binding,
                 const LoopNest& nest);

  // Appends one fill step: every element the nest addresses in `output_binding` becomes the
  // element whose little-endian bit pattern is the low nest.elem_bytes bytes of fill_bits.
  Status AddFill(uint32_t output_binding, const LoopNest& nest, uint64_t fill_bits);

  const PlanSettings& settings() const { return settings_; }
  Program* program() { return program_; }

 private:
  Status AddStep(StepKind kind, StepSource source, uint32_t source_binding,
                 uint32_t output_binding, const LoopNest& nest, uint64_t fill_bits);

  PlanSettings settings_;
  Program* program_;
};

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_PLANNER_PROGRAM_BUILDER_H_
