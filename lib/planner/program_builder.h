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

// The output nest over the box lo[d] <= o[d] < hi[d] of `out` (no input strides: a fill, or a
// copy whose caller sets them).
LoopNest BoxOf(const TensorInfo& out, const int64_t* lo, const int64_t* hi);

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

  // What a copy step writes around each row (the nest's innermost loop, whose output stride
  // must be one element): `left_items` elements just before the row and `right_items` just
  // after it, each fill_bits (fill) or the row's source element at index left_src_items[k] /
  // right_src_items[k] of the innermost loop (< its size; at most RowBorders::kMaxCopiedItems per
  // side). With top_rows / bottom_rows, also whole border rows before the first and after the
  // last row of each line (the nest's next loop, which must survive planning as the plan's
  // next loop): fill rows, or the line's row top_src_rows[k] / bottom_src_rows[k] (< the line's
  // size; at most RowBorders::kMaxCopiedRows per side).
  struct BorderSpec {
    uint32_t left_items = 0;
    uint32_t right_items = 0;
    bool fill = false;
    uint64_t fill_bits = 0;
    int64_t left_src_items[RowBorders::kMaxCopiedItems] = {};
    int64_t right_src_items[RowBorders::kMaxCopiedItems] = {};
    uint32_t top_rows = 0;
    uint32_t bottom_rows = 0;
    int64_t top_src_rows[RowBorders::kMaxCopiedRows] = {};
    int64_t bottom_src_rows[RowBorders::kMaxCopiedRows] = {};
  };

  // AddCopy whose rows also write their borders in the same pass. *placed is false (and nothing
  // is added) when the planned step cannot carry them (its innermost loop is not the nest's
  // innermost loop, or its strategy is not a row loop over contiguous output rows): the caller
  // then plans the borders as steps of their own.
  Status AddBorderedCopy(StepSource source, uint32_t source_binding, uint32_t output_binding,
                         const LoopNest& nest, const BorderSpec& borders, bool* placed);

  // Appends one fill step: every element the nest addresses in `output_binding` becomes the
  // element whose little-endian bit pattern is the low nest.elem_bytes bytes of fill_bits.
  Status AddFill(uint32_t output_binding, const LoopNest& nest, uint64_t fill_bits);

  // Fills of `output_binding` (tensor `out`) around the box lo[d] <= o[d] < hi[d]: for each
  // dimension d < dims, the two slabs where d is the first dimension outside the box (the
  // dimensions before d inside it, those after d whole). Dimensions from `dims` on are left to
  // the caller (PADDING's rows that write their own borders). Empty slabs add no step.
  Status AddFillAround(uint32_t output_binding, const TensorInfo& out, const int64_t* lo,
                       const int64_t* hi, uint32_t dims, uint64_t fill_bits);

  // Marks runs of consecutive copy steps with equal partitions to run interleaved
  // (Step::co_run_with_next). Only for steps whose writes are disjoint and that read no output
  // (JOIN's inputs into separate windows, SPLIT's outputs): the caller guarantees it.
  void CoRunIndependentSteps();

  const PlanSettings& settings() const { return settings_; }
  Program* program() { return program_; }

 private:
  // borders: null for none; then *placed (may be null) is left alone.
  Status AddStep(StepKind kind, StepSource source, uint32_t source_binding,
                 uint32_t output_binding, const LoopNest& nest, uint64_t fill_bits,
                 const BorderSpec* borders = nullptr, bool* placed = nullptr);
  // Sets plan.borders when the plan can carry them (see AddBorderedCopy); false otherwise.
  bool PlaceBorders(const LoopNest& nest, const BorderSpec& spec, int64_t out_base_bytes,
                    uint64_t out_required_bytes, Plan* plan) const;
  // PlaceBorders' border rows: sets b's top / bottom rows; false where the plan cannot carry them.
  bool PlaceLineBorders(const LoopNest& nest, const BorderSpec& spec, RowBorders* b,
                        const Plan* plan) const;

  PlanSettings settings_;
  Program* program_;
};

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_PLANNER_PROGRAM_BUILDER_H_
