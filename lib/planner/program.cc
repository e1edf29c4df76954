// SPDX-License-Identifier: Apache-2.0
// CompileProgram: the planner's pipeline, from a descriptor to an immutable Program.
#include <algorithm>

#include "core/check.h"
#include "planner/planner.h"

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

}  // namespace

Status CompileProgram(const DML_OPERATOR_DESC& desc, const PlanSettings& settings,
                      Program* program) {
  *program = Program();
  Status s = ValidateOperator(desc, &program->geometry);
  if (!s.ok()) return s;
  const OpGeometry& g = program->geometry;
  program->input_count = g.has_indices ? 2 : 1;
  program->output_count = 1;
  program->strict_indices = settings.strict_indices && g.has_indices;

  // Every operator of today is one affine step: inputs[0] (and the indices, inputs[1]) into
  // the whole of outputs[0].
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

  for (size_t i = 0; i < program->steps.size(); ++i) {
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
  return Status::Ok();
}

}  // namespace internal
}  // namespace dmlcpu
