// SPDX-License-Identifier: Apache-2.0
// The planner's stages, each a pure function, in the order CompileProgram runs them:
// validate (validate.cc, tensor.cc) -> canonical form (canonical.cc) -> collapse (collapse.cc)
// -> classify (strategy.cc) -> tile (tile.cc) -> partition (partition.cc) -> strategy and
// policies (strategy.cc) -> strict index scans (index_scan.cc) -> walk orientation
// (strategy.cc) -> invariants (invariants.cc).
#ifndef DMLCPU_PLANNER_PLANNER_H_
#define DMLCPU_PLANNER_PLANNER_H_

#include <cstdint>
#include <string>

#include "core/tuning.h"
#include "planner/plan.h"

namespace dmlcpu {
namespace internal {

struct PlanSettings {
  bool strict_indices = false;
  // Threads the program's Executes can use (Device::max_concurrency); 1 lets plain copies of
  // large outputs stream, many keep packed strips narrow; 0 (unknown) plans as for 2.
  uint32_t concurrency = 0;
  const Tuning* tuning = &kDefaultTuning;
  // SCATTER and SCATTER_ND only (CompileOptions::scatter_reduction, scatter_bfloat16).
  kernels::ScatterReduction scatter_reduction = kernels::ScatterReduction::kNone;
  bool scatter_bfloat16 = false;
};

// Validate + build every step (+ check every plan's invariants in debug and sanitizer builds).
Status CompileProgram(const DML_OPERATOR_DESC& desc, const PlanSettings& settings,
                      Program* program);

// Canonical (uncollapsed) form of the affine step of `geometry`: one loop per output
// dimension, base offset, index components.
void BuildCanonical(const OpGeometry& geometry, Plan* plan);

// Drops size-1 loops and merges neighbours that are contiguous in every operand. Returns the
// new loop count (>= 1). A packed {8,64,2048,128} fp16 input sliced to [:, :, 512:1536, :]
// becomes loops {512 x 256 KiB-run}, i.e. sizes {512, 131072} elements.
uint32_t CollapseLoops(Loop* loops, uint32_t loop_count, uint32_t elem_bytes);

// The row's shape from the collapsed loops.
KernelShape Classify(const Plan& plan);

// Reorders loops into cache tiles where the row order would miss the cache on every element
// (K2 rows of a transposed view; K4 rows gathering along an outer axis), and records how in
// plan->tiling (and plan->pack_bytes). Loop order never changes results. No-op otherwise.
void TileForLocality(Plan* plan, uint32_t concurrency, const Tuning& tuning);

// The work split from the collapsed (maybe tiled) loops.
Partition MakePartition(const Plan& plan, const Tuning& tuning);
// Consecutive units (rows of a strip-tiled K4 plan) that read the same strip: the product of
// the innermost outer loops with input stride 0 (their rows differ only in indices and output).
uint64_t PackedRunUnits(const Plan& plan);

// Chooses the strategy, the store and prefetch policies and the kernels, from the shape, the
// tiling and the partition: the one place where these decisions are made.
void ChooseStrategy(Plan* plan, uint64_t output_bytes, uint64_t input_bytes,
                    uint32_t concurrency, const Tuning& tuning);
// After the row borders are placed: whether the bordered rows are written through staged lines
// (StorePolicy::staged_lines).
void ChooseStagedLines(Plan* plan, uint64_t output_bytes, uint64_t input_bytes,
                       const Tuning& tuning);
// In each copy step of rows (no tiles, borders, staging or co-run group), walks backwards the
// loops above the row that read against the row's direction, moving the output base: the input
// is read as one stream in one direction (design.md, rule 4). The same element pairs are copied.
void OrientForInputStream(Program* program);
// Whether staged lines can carry the plan: whole rows with borders, of at most
// Tuning::kMaxStagedPieceBytes each, adjacent along their line, regular-store row kernels.
bool CanStageLines(const Plan& plan);

// Strict mode: the scans of the program's index tensor, one per tuple element.
void BuildIndexScans(const OpGeometry& geometry, const Plan& plan, IndexScans* scans);

// The legal combinations of shape, tiling, strategy, policies and kernels, stated once:
// kInternal naming the broken rule, or Ok.
Status CheckPlanInvariants(const Plan& plan);

// Human-readable description of the program, and of one step's plan (multi-line).
std::string DescribeProgram(const Program& program);
std::string DescribePlan(const Plan& plan);

const char* KernelShapeName(KernelShape shape);
const char* StrategyName(Strategy strategy);
const char* TilingName(Tiling tiling);

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_PLANNER_PLANNER_H_
