// SPDX-License-Identifier: Apache-2.0
// CompileProgram: the planner's pipeline, from a descriptor to an immutable Program.
#include <algorithm>
#include <cstring>

#include "core/check.h"
#include "core/format.h"
#include "planner/ops.h"
#include "planner/planner.h"
#include "planner/program_builder.h"

namespace dmlcpu {
namespace internal {
namespace {

// Plans one affine step whose canonical form BuildCanonical gives.
void PlanAffineStep(const OpGeometry& g, const PlanSettings& settings, Plan* plan) {
  const Tuning& tuning = *settings.tuning;
  BuildCanonical(g, plan);
  plan->index_type = g.index_type;
  plan->loop_count = CollapseLoops(plan->loops, plan->loop_count, plan->elem_bytes);
  plan->shape = Classify(*plan);
  TileForLocality(plan, settings.concurrency, tuning);
  plan->shape = Classify(*plan);
  plan->partition = MakePartition(*plan, tuning);
  ChooseStrategy(plan, g.output.required_bytes, g.input.required_bytes, settings.concurrency,
                 tuning);
}

// The six operators of the canonical form: one affine step, inputs[0] (and the indices,
// inputs[1]) into the whole of outputs[0].
Status BuildCanonicalProgram(const DML_OPERATOR_DESC& desc, const PlanSettings& settings,
                             Program* program) {
  Status s = ValidateOperator(desc, &program->geometry);
  if (!s.ok()) return s;
  const OpGeometry& g = program->geometry;
  program->inputs.push_back({"InputTensor", g.input});
  if (g.has_indices) program->inputs.push_back({"IndicesTensor", g.indices});
  program->outputs.push_back({"OutputTensor", g.output});
  program->input_count = static_cast<uint32_t>(program->inputs.size());
  program->output_count = 1;
  program->strict_indices = settings.strict_indices && g.has_indices;

  program->steps.resize(1);
  Step& step = program->steps[0];
  step.kind = StepKind::kAffineCopy;
  step.input_binding = 0;
  step.indices_binding = g.has_indices ? 1 : kNoBinding;
  step.output_binding = 0;
  PlanAffineStep(g, settings, &step.plan);
  if (program->strict_indices) {
    BuildIndexScans(g, program->steps[0].plan, &program->index_scans);
    program->index_scans.indices_binding = 1;
  }
  return Status::Ok();
}

}  // namespace

Status CompileProgram(const DML_OPERATOR_DESC& desc, const PlanSettings& settings,
                      Program* program) {
  *program = Program();
  // Enum fields of caller structs may hold any 32-bit value (from C): read them as integers.
  uint32_t type_value;
  std::memcpy(&type_value, &desc.Type, sizeof(type_value));
  Status s;
  if (const BuildProgramFn build = FindProgramBuilder(type_value)) {
    ProgramBuilder builder(settings, program);
    program->geometry.type = static_cast<DML_OPERATOR_TYPE>(type_value);
    program->geometry.name = OperatorNameForValue(type_value);
    if (desc.Desc == nullptr) {
      return InvalidArgument("%s: DML_OPERATOR_DESC.Desc is null, expected a non-null pointer",
                             program->geometry.name);
    }
    s = build(desc.Desc, &builder);
  } else {
    s = BuildCanonicalProgram(desc, settings, program);
  }
  if (!s.ok()) return s;
  const OpGeometry& g = program->geometry;

  // Co-run groups (the executor walks them without bounds checks): copy steps of one unit
  // count, at most kMaxCoRunSteps, the last step ending its group.
  uint32_t group_steps = 1;
  for (size_t i = 0; i < program->steps.size(); ++i) {
    const Step& step = program->steps[i];
    if (!step.co_run_with_next) {
      group_steps = 1;
      continue;
    }
    const bool fits = i + 1 < program->steps.size() && step.kind == StepKind::kAffineCopy &&
                      program->steps[i + 1].kind == StepKind::kAffineCopy &&
                      step.plan.partition.unit_count ==
                          program->steps[i + 1].plan.partition.unit_count &&
                      ++group_steps <= kMaxCoRunSteps;
    if (!fits) {
      return Status(StatusCode::kInternal, std::string(g.name) + ": step " + std::to_string(i) +
                                               ": co-run with a step it cannot run beside");
    }
  }

  OrientForInputStream(program);

  for (size_t i = 0; i < program->steps.size(); ++i) {
    if (program->steps[i].kind == StepKind::kScatter) continue;  // its plan is Step::scatter
    const Plan& plan = program->steps[i].plan;
#if DMLCPU_DCHECK_IS_ON
    // Debug and sanitizer builds check every plan (the planner tests check theirs everywhere).
    s = CheckPlanInvariants(plan);
    if (!s.ok()) {
      return Status(StatusCode::kInternal,
                    std::string(g.name) + ": step " + std::to_string(i) + ": " + s.message());
    }
#endif
    program->max_pack_bytes = std::max(program->max_pack_bytes, plan.pack_bytes);
  }
  (void)g;
  return Status::Ok();
}

BuildProgramFn FindProgramBuilder(uint32_t type) {
  // One row per operator built through ProgramBuilder (ops.h).
  struct Entry {
    DML_OPERATOR_TYPE type;
    BuildProgramFn build;
  };
  static constexpr Entry kBuilders[] = {
      {DML_OPERATOR_INVALID, nullptr},  // placeholder: keeps the table non-empty
      {DML_OPERATOR_PADDING, BuildPaddingProgram},
      {DML_OPERATOR_SPACE_TO_DEPTH, BuildSpaceToDepthProgram},
      {DML_OPERATOR_DEPTH_TO_SPACE, BuildDepthToSpaceProgram},
      {DML_OPERATOR_DEPTH_TO_SPACE1, BuildDepthToSpace1Program},
      {DML_OPERATOR_SPACE_TO_DEPTH1, BuildSpaceToDepth1Program},
      {DML_OPERATOR_SLICE_GRAD, BuildSliceGradProgram},
      {DML_OPERATOR_PADDING1, BuildPadding1Program},
      {DML_OPERATOR_ELEMENT_WISE_IDENTITY, BuildIdentityProgram},
      {DML_OPERATOR_SPLIT, BuildSplitProgram},
      {DML_OPERATOR_JOIN, BuildJoinProgram},
      {DML_OPERATOR_TILE, BuildTileProgram},
      {DML_OPERATOR_SCATTER, BuildScatterProgram},
      {DML_OPERATOR_SCATTER_ND, BuildScatterNdProgram},
  };
  for (const Entry& e : kBuilders) {
    if (e.build != nullptr && static_cast<uint32_t>(e.type) == type) return e.build;
  }
  return nullptr;
}

std::string ImplementedOperatorsText() {
  std::string text;
  for (uint32_t type = 1; type <= static_cast<uint32_t>(DML_OPERATOR_UNFOLD); ++type) {
    const bool canonical = type == DML_OPERATOR_GATHER || type == DML_OPERATOR_GATHER_ELEMENTS ||
                           type == DML_OPERATOR_GATHER_ND || type == DML_OPERATOR_GATHER_ND1 ||
                           type == DML_OPERATOR_SLICE || type == DML_OPERATOR_SLICE1;
    if (!canonical && FindProgramBuilder(type) == nullptr) continue;
    if (!text.empty()) text += ", ";
    text += StrFormat("%s (%u)", OperatorNameForValue(type), type);
  }
  return text;
}

}  // namespace internal
}  // namespace dmlcpu
