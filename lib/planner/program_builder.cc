// SPDX-License-Identifier: Apache-2.0
// ProgramBuilder: bindings and explicit-loop steps, each planned like the canonical form's.
#include "planner/program_builder.h"

#include <utility>

#include "core/checked_math.h"
#include "core/format.h"

namespace dmlcpu {
namespace internal {
namespace {

// [first, last] byte offsets (relative to the binding) that `count` loops reach from `base`,
// plus one element; false on overflow.
bool Extent(const Loop* loops, uint32_t count, int64_t base, bool input, uint32_t elem_bytes,
            int64_t* first, int64_t* end) {
  int64_t lo = base, hi = base;
  for (uint32_t i = 0; i < count; ++i) {
    int64_t reach = 0;
    if (!CheckedMul(loops[i].size - 1,
                    input ? loops[i].in_stride_bytes : loops[i].out_stride_bytes, &reach) ||
        !CheckedAdd(reach < 0 ? lo : hi, reach, reach < 0 ? &lo : &hi)) {
      return false;
    }
  }
  if (!CheckedAdd(hi, static_cast<int64_t>(elem_bytes), &hi)) return false;
  *first = lo;
  *end = hi;
  return true;
}

}  // namespace

LoopNest NestOf(const TensorInfo& out, const TensorInfo& in) {
  LoopNest nest;
  nest.elem_bytes = out.elem_bytes;
  nest.loop_count = out.rank;
  for (uint32_t d = 0; d < out.rank; ++d) {
    nest.sizes[d] = out.sizes[d];
    nest.out_strides_bytes[d] = static_cast<int64_t>(out.strides_elems[d] * out.elem_bytes);
    nest.in_strides_bytes[d] = static_cast<int64_t>(in.strides_elems[d] * in.elem_bytes);
  }
  return nest;
}

LoopNest BoxOf(const TensorInfo& out, const int64_t* lo, const int64_t* hi) {
  LoopNest nest;
  nest.elem_bytes = out.elem_bytes;
  nest.loop_count = out.rank;
  for (uint32_t d = 0; d < out.rank; ++d) {
    const auto stride_bytes = static_cast<int64_t>(out.strides_elems[d] * out.elem_bytes);
    nest.sizes[d] = hi[d] - lo[d];
    nest.out_strides_bytes[d] = stride_bytes;
    nest.out_base_bytes += lo[d] * stride_bytes;
  }
  return nest;
}

ProgramBuilder::ProgramBuilder(const PlanSettings& settings, Program* program)
    : settings_(settings), program_(program) {
  *program_ = Program();
  program_->input_count = 0;
  program_->output_count = 0;
}

uint32_t ProgramBuilder::AddInput(std::string field, const TensorInfo& tensor) {
  program_->inputs.push_back({std::move(field), tensor});
  program_->input_count = static_cast<uint32_t>(program_->inputs.size());
  return program_->input_count - 1;
}

uint32_t ProgramBuilder::AddOutput(std::string field, const TensorInfo& tensor) {
  program_->outputs.push_back({std::move(field), tensor});
  program_->output_count = static_cast<uint32_t>(program_->outputs.size());
  return program_->output_count - 1;
}

Status ProgramBuilder::AddCopy(StepSource source, uint32_t source_binding,
                               uint32_t output_binding, const LoopNest& nest) {
  return AddStep(StepKind::kAffineCopy, source, source_binding, output_binding, nest, 0);
}

Status ProgramBuilder::AddBorderedCopy(StepSource source, uint32_t source_binding,
                                       uint32_t output_binding, const LoopNest& nest,
                                       const BorderSpec& borders, bool* placed) {
  *placed = true;
  return AddStep(StepKind::kAffineCopy, source, source_binding, output_binding, nest, 0,
                 &borders, placed);
}

bool ProgramBuilder::PlaceBorders(const LoopNest& nest, const BorderSpec& spec,
                                  int64_t out_base_bytes, uint64_t out_required_bytes,
                                  Plan* plan) const {
  if (nest.loop_count == 0) return false;
  const int64_t elem = plan->elem_bytes;
  const uint32_t inner = nest.loop_count - 1;
  const Loop& row = plan->loops[plan->loop_count - 1];
  const bool row_loop = plan->strategy == Strategy::kContiguousRun ||
                        plan->strategy == Strategy::kRowsOfRuns ||
                        plan->strategy == Strategy::kStridedRows;
  if (!row_loop || (plan->tiling != Tiling::kNone && plan->tiling != Tiling::kRunTiles) ||
      nest.out_strides_bytes[inner] != elem ||
      row.out_stride_bytes != elem || row.size != nest.sizes[inner]) {
    return false;
  }
  RowBorders b;
  b.left_items = spec.left_items;
  b.right_items = spec.right_items;
  b.fill = spec.fill;
  b.fill_bits = spec.fill_bits;
  if (!spec.fill) {
    if (spec.left_items > RowBorders::kMaxCopiedItems ||
        spec.right_items > RowBorders::kMaxCopiedItems) {
      return false;
    }
    const auto source_offset = [&](int64_t item, int64_t* bytes) {
      if (item < 0 || item >= row.size) return false;
      *bytes = item * row.in_stride_bytes;
      return true;
    };
    for (uint32_t k = 0; k < spec.left_items; ++k) {
      if (!source_offset(spec.left_src_items[k], &b.left_src_bytes[k])) return false;
    }
    for (uint32_t k = 0; k < spec.right_items; ++k) {
      if (!source_offset(spec.right_src_items[k], &b.right_src_bytes[k])) return false;
    }
  }
  // The bordered rows (and border rows) stay inside the output binding.
  Loop loops[kMaxRank];
  for (uint32_t i = 0; i < plan->loop_count; ++i) loops[i] = plan->loops[i];
  loops[plan->loop_count - 1].size += int64_t{spec.left_items} + spec.right_items;
  int64_t base_bytes = out_base_bytes - int64_t{spec.left_items} * elem;
  if (spec.top_rows + spec.bottom_rows != 0) {
    if (!PlaceLineBorders(nest, spec, &b, plan)) return false;
    Loop& line = loops[plan->loop_count - 2];
    line.size += int64_t{spec.top_rows} + spec.bottom_rows;
    base_bytes -= int64_t{spec.top_rows} * line.out_stride_bytes;
  }
  int64_t first = 0, end = 0;
  if (!Extent(loops, plan->loop_count, base_bytes, false, plan->elem_bytes, &first, &end) ||
      first < 0 || static_cast<uint64_t>(end) > out_required_bytes) {
    return false;
  }
  plan->borders = b;
  return true;
}

bool ProgramBuilder::PlaceLineBorders(const LoopNest& nest, const BorderSpec& spec,
                                      RowBorders* b, const Plan* plan) const {
  // The line loop is the nest's own (not collapsed, dropped or tiled), and RunWholeRows runs
  // the plan (the other row loops write no border rows).
  if (plan->tiling != Tiling::kNone || plan->loop_count < 2 || nest.loop_count < 2 ||
      plan->partition.pieces_per_row != 1 || plan->prefetch.input_stream ||
      plan->store.non_temporal) {
    return false;
  }
  const Loop& line = plan->loops[plan->loop_count - 2];
  const uint32_t nest_line = nest.loop_count - 2;
  if (nest.sizes[nest_line] < 2 || line.size != nest.sizes[nest_line] ||
      line.out_stride_bytes != nest.out_strides_bytes[nest_line] ||
      line.in_stride_bytes != nest.in_strides_bytes[nest_line] || line.out_stride_bytes <= 0) {
    return false;
  }
  b->top_rows = spec.top_rows;
  b->bottom_rows = spec.bottom_rows;
  if (spec.fill) return true;
  if (spec.top_rows > RowBorders::kMaxCopiedRows ||
      spec.bottom_rows > RowBorders::kMaxCopiedRows) {
    return false;
  }
  const auto source_offset = [&](int64_t row, int64_t* bytes) {
    if (row < 0 || row >= line.size) return false;
    *bytes = row * line.in_stride_bytes;
    return true;
  };
  for (uint32_t k = 0; k < spec.top_rows; ++k) {
    if (!source_offset(spec.top_src_rows[k], &b->top_src_bytes[k])) return false;
  }
  for (uint32_t k = 0; k < spec.bottom_rows; ++k) {
    if (!source_offset(spec.bottom_src_rows[k], &b->bottom_src_bytes[k])) return false;
  }
  return true;
}

Status ProgramBuilder::AddFillAround(uint32_t output_binding, const TensorInfo& out,
                                     const int64_t* lo, const int64_t* hi, uint32_t dims,
                                     uint64_t fill_bits) {
  for (uint32_t d = 0; d < dims; ++d) {
    int64_t slab_lo[kMaxRank], slab_hi[kMaxRank];
    for (uint32_t j = 0; j < out.rank; ++j) {
      slab_lo[j] = j < d ? lo[j] : 0;
      slab_hi[j] = j < d ? hi[j] : out.sizes[j];
    }
    slab_hi[d] = lo[d];  // [0, lo[d]) along d
    Status s = AddFill(output_binding, BoxOf(out, slab_lo, slab_hi), fill_bits);
    if (!s.ok()) return s;
    slab_lo[d] = hi[d];  // [hi[d], size) along d
    slab_hi[d] = out.sizes[d];
    s = AddFill(output_binding, BoxOf(out, slab_lo, slab_hi), fill_bits);
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

void ProgramBuilder::CoRunIndependentSteps() {
  std::vector<Step>& steps = program_->steps;
  uint32_t group_steps = 1;
  for (size_t i = 0; i + 1 < steps.size(); ++i) {
    const Step& a = steps[i];
    const Step& b = steps[i + 1];
    const Partition& pa = a.plan.partition;
    const Partition& pb = b.plan.partition;
    const bool together =
        a.kind == StepKind::kAffineCopy && b.kind == StepKind::kAffineCopy &&
        a.source == StepSource::kInput && b.source == StepSource::kInput && !a.skip_in_place &&
        !b.skip_in_place && pa.unit_count > 1 && pa.unit_count == pb.unit_count &&
        pa.align_units == 1 && pb.align_units == 1 && pa.parallel == pb.parallel &&
        group_steps < kMaxCoRunSteps;
    steps[i].co_run_with_next = together;
    group_steps = together ? group_steps + 1 : 1;
  }
  // Groups whose steps all copy whole rows on their own run row by row.
  for (size_t first = 0; first < steps.size();) {
    size_t last = first;
    while (steps[last].co_run_with_next) ++last;
    bool by_row = last > first;
    for (size_t k = first; k <= last; ++k) by_row = by_row && CoRunsByRow(steps[k].plan);
    for (size_t k = first; k <= last; ++k) steps[k].plan.co_run_by_row = by_row;
    first = last + 1;
  }
}

Status ProgramBuilder::AddFill(uint32_t output_binding, const LoopNest& nest,
                               uint64_t fill_bits) {
  return AddStep(StepKind::kFill, StepSource::kInput, kNoBinding, output_binding, nest,
                 fill_bits);
}

Status ProgramBuilder::AddStep(StepKind kind, StepSource source, uint32_t source_binding,
                               uint32_t output_binding, const LoopNest& nest,
                               uint64_t fill_bits, const BorderSpec* borders, bool* placed) {
  const char* op = program_->geometry.name;
  const uint32_t step_index = static_cast<uint32_t>(program_->steps.size());
  const auto fail = [&](const std::string& what) {
    return Status(StatusCode::kInternal, StrFormat("%s: step %u: %s", op, step_index,
                                                   what.c_str()));
  };
  const bool fill = kind == StepKind::kFill;
  const std::vector<BindingInfo>& sources =
      source == StepSource::kOutput ? program_->outputs : program_->inputs;
  if (output_binding >= program_->outputs.size()) return fail("no such output binding");
  if (!fill && source_binding >= sources.size()) return fail("no such source binding");
  const uint32_t elem = nest.elem_bytes;
  if ((elem != 1 && elem != 2 && elem != 4 && elem != 8) || nest.loop_count > kMaxNestLoops) {
    return fail("malformed loop nest");
  }
  for (uint32_t i = 0; i < nest.loop_count; ++i) {
    if (nest.sizes[i] < 0) return fail("negative loop size");
    if (nest.sizes[i] == 0) return Status::Ok();  // nothing to do
  }

  // Loops with a negative output stride run backwards: the output walks forward, the negative
  // stride moves to the input.
  Loop loops[kMaxNestLoops];
  int64_t in_base_bytes = fill ? 0 : nest.in_base_bytes;
  int64_t out_base_bytes = nest.out_base_bytes;
  for (uint32_t i = 0; i < nest.loop_count; ++i) {
    Loop& loop = loops[i];
    loop.size = nest.sizes[i];
    loop.out_stride_bytes = nest.out_strides_bytes[i];
    loop.in_stride_bytes = fill ? 0 : nest.in_strides_bytes[i];
    if (loop.out_stride_bytes < 0 && loop.size > 1) {
      out_base_bytes += (loop.size - 1) * loop.out_stride_bytes;
      in_base_bytes += (loop.size - 1) * loop.in_stride_bytes;
      loop.out_stride_bytes = -loop.out_stride_bytes;
      loop.in_stride_bytes = -loop.in_stride_bytes;
    }
  }

  // The planner's promise to the kernels: nothing outside a binding's extent.
  const TensorInfo& out = program_->outputs[output_binding].tensor;
  int64_t first = 0, end = 0;
  if (!Extent(loops, nest.loop_count, out_base_bytes, false, elem, &first, &end) || first < 0 ||
      static_cast<uint64_t>(end) > out.required_bytes) {
    return fail(StrFormat("writes bytes [%lld, %lld) of %s, whose extent is %llu bytes",
                          static_cast<long long>(first), static_cast<long long>(end),
                          program_->outputs[output_binding].field.c_str(),
                          static_cast<unsigned long long>(out.required_bytes)));
  }
  uint64_t in_bytes = elem;
  if (!fill) {
    const BindingInfo& in = sources[source_binding];
    in_bytes = in.tensor.required_bytes;
    if (!Extent(loops, nest.loop_count, in_base_bytes, true, elem, &first, &end) || first < 0 ||
        static_cast<uint64_t>(end) > in_bytes) {
      return fail(StrFormat("reads bytes [%lld, %lld) of %s, whose extent is %llu bytes",
                            static_cast<long long>(first), static_cast<long long>(end),
                            in.field.c_str(), static_cast<unsigned long long>(in_bytes)));
    }
  }

  const uint32_t count = CollapseLoops(loops, nest.loop_count, elem);
  if (count > kMaxRank) {
    return fail(StrFormat("%u loops after collapsing, expected at most %u", count, kMaxRank));
  }
  Step step;
  step.kind = kind;
  step.source = source;
  step.input_binding = fill ? kNoBinding : source_binding;
  step.output_binding = output_binding;
  step.out_base_bytes = out_base_bytes;
  step.fill_bits = fill_bits;
  Plan& plan = step.plan;
  plan.elem_bytes = elem;
  plan.in_base_bytes = in_base_bytes;
  plan.loop_count = count;
  for (uint32_t i = 0; i < count; ++i) plan.loops[i] = loops[i];
  const Tuning& tuning = *settings_.tuning;
  plan.shape = Classify(plan);
  TileForLocality(&plan, settings_.concurrency, tuning);
  plan.shape = Classify(plan);
  plan.partition = MakePartition(plan, tuning);
  ChooseStrategy(&plan, out.required_bytes, in_bytes, settings_.concurrency, tuning);
  if (borders != nullptr &&
      !PlaceBorders(nest, *borders, out_base_bytes, out.required_bytes, &plan)) {
    *placed = false;
    return Status::Ok();
  }
  if (borders != nullptr) ChooseStagedLines(&plan, out.required_bytes, in_bytes, tuning);
  program_->steps.push_back(step);
  return Status::Ok();
}

}  // namespace internal
}  // namespace dmlcpu
