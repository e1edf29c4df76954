// SPDX-License-Identifier: Apache-2.0
// SCATTER (= SCATTER_ELEMENTS) and SCATTER_ND: the scatter step's plan, its strict-mode scans
// and the operators' programs (op_scatter.h); the descriptors' validation is scatter_validate.cc.
#include "planner/op_scatter.h"

#include <algorithm>

#include "core/format.h"
#include "core/portability.h"
#include "planner/geometry.h"
#include "planner/ops.h"
#include "planner/program_builder.h"

namespace dmlcpu {
namespace internal {
namespace {

int64_t Bytes(const TensorInfo& t, uint32_t dim) {
  return static_cast<int64_t>(t.strides_elems[dim]) * t.elem_bytes;
}

// Drops size-1 loops and merges neighbours contiguous in all three operands (row-major order
// of the updates is kept, so last-wins order is too).
uint32_t CollapseScatterLoops(ScatterLoop* loops, uint32_t count) {
  uint32_t kept = 0;
  for (uint32_t d = 0; d < count; ++d) {
    const ScatterLoop& l = loops[d];
    if (l.size == 1) continue;
    if (kept > 0) {
      ScatterLoop& prev = loops[kept - 1];
      if (prev.out_stride_bytes == l.size * l.out_stride_bytes &&
          prev.upd_stride_bytes == l.size * l.upd_stride_bytes &&
          prev.idx_stride_bytes == l.size * l.idx_stride_bytes) {
        prev.size *= l.size;
        prev.out_stride_bytes = l.out_stride_bytes;
        prev.upd_stride_bytes = l.upd_stride_bytes;
        prev.idx_stride_bytes = l.idx_stride_bytes;
        continue;
      }
    }
    loops[kept++] = l;
  }
  if (kept == 0) {
    loops[0] = ScatterLoop();
    kept = 1;
  }
  return kept;
}

bool ArithmeticType(DML_TENSOR_DATA_TYPE type, bool uint16_as_bfloat16,
                    kernels::ScatterType* out) {
  using kernels::ScatterType;
  switch (type) {
    case DML_TENSOR_DATA_TYPE_INT8: *out = ScatterType::kInt8; return true;
    case DML_TENSOR_DATA_TYPE_UINT8: *out = ScatterType::kUint8; return true;
    case DML_TENSOR_DATA_TYPE_INT16: *out = ScatterType::kInt16; return true;
    case DML_TENSOR_DATA_TYPE_UINT16:
      *out = uint16_as_bfloat16 ? ScatterType::kBfloat16 : ScatterType::kUint16;
      return true;
    case DML_TENSOR_DATA_TYPE_INT32: *out = ScatterType::kInt32; return true;
    case DML_TENSOR_DATA_TYPE_UINT32: *out = ScatterType::kUint32; return true;
    case DML_TENSOR_DATA_TYPE_INT64: *out = ScatterType::kInt64; return true;
    case DML_TENSOR_DATA_TYPE_UINT64: *out = ScatterType::kUint64; return true;
    case DML_TENSOR_DATA_TYPE_FLOAT16: *out = ScatterType::kFloat16; return true;
    case DML_TENSOR_DATA_TYPE_FLOAT32: *out = ScatterType::kFloat32; return true;
    case DML_TENSOR_DATA_TYPE_FLOAT64: *out = ScatterType::kFloat64; return true;
    default: return false;
  }
}

// The loop whose updates walk the SCATTER axis (out_stride_bytes 0), or kNoSplitLoop when
// there is not exactly one.
uint32_t AxisLoop(const ScatterPlan& plan) {
  uint32_t axis_loop = kNoSplitLoop;
  for (uint32_t d = 0; d < plan.loop_count; ++d) {
    if (plan.loops[d].out_stride_bytes != 0) continue;
    if (axis_loop != kNoSplitLoop) return kNoSplitLoop;
    axis_loop = d;
  }
  return axis_loop;
}

// ScatterPlan::fused_copy: a SCATTER split by destination whose input has the output's layout,
// with an axis loop. Its updates span every output coordinate off the axis (ValidateScatter),
// so the strips' regions (the axis loop widened to the whole axis) tile the output exactly.
bool CanFuseScatterCopy(const ScatterGeometry& g, const ScatterPlan& plan) {
  if (g.type != DML_OPERATOR_SCATTER || plan.split_loop == kNoSplitLoop) return false;
  if (!SameLayout(g.input, g.output)) return false;
  // Validated already; checked again because the tiling rests on it.
  for (uint32_t d = 0; d < g.output.rank; ++d) {
    if (d != g.axis && g.updates.sizes[d] != g.output.sizes[d]) return false;
  }
  return AxisLoop(plan) != kNoSplitLoop;
}

// Marks the copy fused (the binding is set by the caller) and strips the split loop so that one
// strip's region, copied and then updated, is about strip_bytes (a fused block's, about
// kFusedBlockBytes). stream_output: the output is large enough to be streamed
// (ScatterSettings::stream_threshold_bytes).
void FuseScatterCopy(const ScatterGeometry& g, uint64_t strip_bytes, bool stream_output,
                     ScatterPlan* plan) {
  plan->fused_copy = true;
  plan->fused_axis_loop = AxisLoop(*plan);
  plan->copy_region_row =
      kernels::BestKernels().copy_strided[kernels::WidthSlot(g.output.elem_bytes)];
  uint64_t item_bytes = g.output.elem_bytes;  // the region of one split-loop coordinate
  for (uint32_t d = 0; d < plan->loop_count; ++d) {
    if (d == plan->split_loop) continue;
    item_bytes *= d == plan->fused_axis_loop ? plan->components[0].dim_size
                                             : static_cast<uint64_t>(plan->loops[d].size);
  }
  uint64_t strip_items = std::max<uint64_t>(1, strip_bytes / item_bytes);
  if (plan->split_loop == plan->loop_count - 1) {  // whole lines of the row
    const uint64_t line_items = std::max<uint64_t>(1, 64 / g.output.elem_bytes);
    strip_items = std::max(line_items, strip_items / line_items * line_items);
  }
  plan->strip_items = strip_items;
  const ScatterLoop& row = plan->loops[plan->loop_count - 1];
  if (plan->loop_count == 2 && plan->fused_axis_loop == 0 && plan->split_loop == 1 &&
      plan->reduction == kernels::ScatterReduction::kNone && plan->component_count == 1 &&
      !plan->tuple_per_row && row.out_stride_bytes == static_cast<int64_t>(g.output.elem_bytes) &&
      item_bytes * strip_items <= kMaxScatterBlockBytes) {
    plan->block_bytes = item_bytes * strip_items;
    plan->stream_block = kernels::BestKernels().copy_bytes_stream_unfenced;
  }
  // Rows (split loop 0) of a contiguous axis (loop 1) packed back to back: a block holds one
  // span of whole rows, at most kFusedBlockBytes (or one longer row), so that the updates land
  // in L1. A smaller output keeps the fused copy: it stays in the cache.
  const ScatterLoop& outer = plan->loops[0];
  const uint64_t block_rows = std::min(std::max<uint64_t>(1, kFusedBlockBytes / item_bytes),
                                       static_cast<uint64_t>(outer.size));
  const uint64_t span_bytes = item_bytes * block_rows;
  if (stream_output && plan->loop_count == 2 && plan->fused_axis_loop == 1 &&
      plan->split_loop == 0 &&
      plan->components[0].pitch_bytes == static_cast<int64_t>(g.output.elem_bytes) &&
      outer.out_stride_bytes == static_cast<int64_t>(item_bytes) &&
      span_bytes <= kMaxScatterBlockBytes) {
    plan->block_items = block_rows;
    plan->block_bytes = span_bytes;
    plan->fused_block = true;
    plan->stream_block = kernels::BestKernels().copy_bytes_stream_unfenced;
  }
}

}  // namespace

bool SameLayout(const TensorInfo& a, const TensorInfo& b) {
  if (a.rank != b.rank || a.elem_bytes != b.elem_bytes) return false;
  for (uint32_t i = 0; i < a.rank; ++i) {
    if (a.sizes[i] != b.sizes[i]) return false;
    if (a.sizes[i] > 1 && a.strides_elems[i] != b.strides_elems[i]) return false;
  }
  return true;
}

Status BuildScatterPlan(const ScatterGeometry& g, const ScatterSettings& settings,
                        ScatterPlan* plan) {
  *plan = ScatterPlan();
  const TensorInfo &out = g.output, &upd = g.updates, &idx = g.indices;
  const uint32_t n = out.rank;
  plan->elem_bytes = out.elem_bytes;
  plan->reduction = settings.reduction;
  plan->index_type = g.index_type;
  if (settings.reduction == kernels::ScatterReduction::kNone) {
    plan->type = static_cast<kernels::ScatterType>(kernels::WidthSlot(out.elem_bytes));
  } else if (!ArithmeticType(out.data_type, settings.uint16_as_bfloat16, &plan->type)) {
    return InvalidArgument("%s: InputTensor.DataType is %u (%s), expected a numeric type for a "
                           "reduction",
                           g.name, static_cast<unsigned>(out.data_type),
                           DataTypeName(out.data_type));
  }
  // One loop per update dimension, in the updates' row-major order.
  ScatterLoop loops[kMaxRank];
  if (g.type == DML_OPERATOR_SCATTER) {
    for (uint32_t d = 0; d < n; ++d) {
      loops[d].size = upd.sizes[d];
      loops[d].out_stride_bytes = d == g.axis ? 0 : Bytes(out, d);
      loops[d].upd_stride_bytes = Bytes(upd, d);
      loops[d].idx_stride_bytes = Bytes(idx, d);
    }
    plan->component_count = 1;
    plan->components[0] = {out.sizes[g.axis], Bytes(out, g.axis), 0, g.axis};
  } else {
    const uint32_t r = g.input_dims, q = g.indices_dims, t = idx.sizes[n - 1];
    const uint32_t m = (q - 1) + (r - t);
    for (uint32_t d = 0; d < n; ++d) {
      loops[d].size = upd.sizes[d];
      loops[d].upd_stride_bytes = Bytes(upd, d);
      if (d < n - m) continue;  // leading 1s
      const uint32_t k = d - (n - m);
      if (k < q - 1) {
        loops[d].idx_stride_bytes = Bytes(idx, n - q + k);  // the index grid
      } else {
        loops[d].out_stride_bytes = Bytes(out, n - r + t + (k - (q - 1)));  // the trailing block
      }
    }
    plan->component_count = t;
    for (uint32_t j = 0; j < t; ++j) {
      plan->components[j] = {out.sizes[n - r + j], Bytes(out, n - r + j),
                             static_cast<int64_t>(j) * Bytes(idx, n - 1), n - r + j};
    }
  }
  plan->loop_count = CollapseScatterLoops(loops, n);
  uint64_t items = 1;
  for (uint32_t d = 0; d < plan->loop_count; ++d) {
    plan->loops[d] = loops[d];
    items *= static_cast<uint64_t>(loops[d].size);
  }
  plan->item_count = items;
  const ScatterLoop& row = plan->loops[plan->loop_count - 1];
  plan->tuple_per_row = row.idx_stride_bytes == 0;
  const uint64_t tuples = plan->tuple_per_row ? items / static_cast<uint64_t>(row.size) : items;
  plan->bytes_moved = items * out.elem_bytes * 3 +
                      tuples * plan->component_count * IndexBytes(g.index_type);
  uint64_t span = out.elem_bytes;
  for (uint32_t d = 0; d < n; ++d) span += uint64_t{out.sizes[d] - 1} * Bytes(out, d);
  plan->key_span_bytes = span;

  // The destination loop with the most coordinates splits best; none: key ranges.
  int64_t best = 1;
  for (uint32_t d = 0; d < plan->loop_count; ++d) {
    if (plan->loops[d].out_stride_bytes != 0 && plan->loops[d].size > best) {
      best = plan->loops[d].size;
      plan->split_loop = d;
    }
  }
  if (plan->split_loop == plan->loop_count - 1 && plan->loop_count >= 2 && !plan->tuple_per_row) {
    uint64_t reach = 1;  // destinations one row item can reach: the product of the tuple's dims
    for (uint32_t j = 0; j < plan->component_count; ++j) reach *= plan->components[j].dim_size;
    const uint64_t line_items = std::max<uint64_t>(1, 64 / out.elem_bytes);
    const uint64_t row_reach_bytes = reach * static_cast<uint64_t>(row.size) * out.elem_bytes;
    if (row_reach_bytes > kScatterStripBytes) {
      const uint64_t strip_items = kScatterStripBytes / (reach * out.elem_bytes);
      plan->strip_items = std::max(line_items, strip_items / line_items * line_items);
    }
  }
  const uint64_t threads = settings.concurrency == 0 ? 2 : settings.concurrency;
  const uint64_t row_bytes = static_cast<uint64_t>(row.size) * out.elem_bytes;
  if (plan->tuple_per_row && plan->split_loop == plan->loop_count - 1 &&
      tuples >= kMinKeyRangeRowsPerSlice * threads &&
      row_bytes < kMinSplitRowBytes * threads) {
    // Many short rows of one tuple each: cutting every row would make each slice resolve every
    // tuple for a piece of a row; key ranges keep rows whole (one tuple read per row).
    plan->split_loop = kNoSplitLoop;
  }
  if (CanFuseScatterCopy(g, *plan)) {
    // A block slot per thread and two more (device.cc) within the operator's scratch.
    const uint64_t slots = std::min<uint64_t>(threads + 2, kMaxScratchSlots);
    const uint64_t strip_bytes = std::clamp<uint64_t>(settings.max_scratch_bytes / slots,
                                                      kMinFusedStripBytes, kFusedStripBytes);
    FuseScatterCopy(g, strip_bytes, g.output.total_bytes >= settings.stream_threshold_bytes,
                    plan);
  }
  if (plan->bytes_moved >= settings.serial_cutoff_bytes && threads > 1) {
    // Key ranges make every slice read every index: for one index per element measured slower
    // than one thread on a 2-core VM (docs/performance.md#scatter), so those run inline; the
    // slices stay correct for any count (tests run them). One tuple per row costs little.
    if (plan->split_loop != kNoSplitLoop) {
      plan->max_slices = std::min<uint64_t>(threads, static_cast<uint64_t>(best));
    } else if (plan->tuple_per_row) {
      plan->max_slices = threads;
    }
  }
  const kernels::ScatterKernels& k = kernels::GetScatterKernels();
  plan->resolve = k.resolve[static_cast<int>(g.index_type)];
  plan->apply_elems = k.elems[static_cast<int>(plan->type)][static_cast<int>(plan->reduction)];
  plan->apply_run = k.run[static_cast<int>(plan->type)][static_cast<int>(plan->reduction)];
  if (plan->reduction == kernels::ScatterReduction::kNone && !plan->tuple_per_row &&
      plan->component_count == 1) {
    plan->apply_indexed =
        k.indexed[static_cast<int>(g.index_type)][kernels::WidthSlot(out.elem_bytes)];
  }
  if (plan->reduction != kernels::ScatterReduction::kNone && !plan->tuple_per_row &&
      plan->component_count == 1) {
    plan->apply_indexed_reduce =
        kernels::GetScatterIndexedReduce(g.index_type, plan->type, plan->reduction);
  }
  if (plan->reduction == kernels::ScatterReduction::kNone && plan->tuple_per_row &&
      row.out_stride_bytes == out.elem_bytes && row.upd_stride_bytes == out.elem_bytes &&
      (row_bytes >= kMinStreamRowBytes ||
       (row_bytes >= kMinSpreadStreamRowBytes &&
        plan->key_span_bytes >= kMinSpreadStreamSpanBytes))) {
    plan->stream_row = kernels::BestKernels().copy_bytes_stream_unfenced;
  }
  if (plan->reduction == kernels::ScatterReduction::kNone && plan->tuple_per_row &&
      plan->split_loop == kNoSplitLoop && plan->max_slices > 1 && plan->loop_count >= 2 &&
      static_cast<uint64_t>(plan->loops[plan->loop_count - 2].size) >=
          kMinKeyRangeRowsPerSlice * plan->max_slices) {
    // Key ranges would make every slice read the update rows around its own (prefetched):
    // slices take ranges of the line loop and own destinations through a table instead.
    // Every key is a sum of multiples of these strides, so a multiple of 2^shift: a shift,
    // not a division, per key.
    uint64_t strides = 0;
    for (uint32_t d = 0; d + 1 < plan->loop_count; ++d) {
      strides |= static_cast<uint64_t>(plan->loops[d].out_stride_bytes);
    }
    for (uint32_t j = 0; j < plan->component_count; ++j) {
      strides |= static_cast<uint64_t>(plan->components[j].pitch_bytes);
    }
    const auto shift = static_cast<uint32_t>(strides == 0 ? 0 : CountTrailingZeros64(strides));
    const uint64_t slots = ((plan->key_span_bytes - 1) >> shift) + 1;
    if (slots <= kMaxScatterOwnerSlots) {
      plan->owner_slots = slots;
      plan->owner_shift = shift;
      plan->max_slices = std::min<uint64_t>(plan->max_slices, 255);  // a slot is one byte
    }
  }
  if (plan->apply_elems == nullptr || plan->apply_run == nullptr) {
    return Status(StatusCode::kInternal, "scatter: no kernel for the type and reduction");
  }
  return Status::Ok();
}

void BuildScatterScans(const ScatterGeometry& g, IndexScans* scans) {
  *scans = IndexScans();
  const TensorInfo& idx = g.indices;
  const uint32_t n = idx.rank;
  const bool tuples = g.type == DML_OPERATOR_SCATTER_ND;
  const uint32_t dims = tuples ? n - 1 : n;
  scans->indices_binding = 1;
  scans->index_type = g.index_type;
  scans->tuple_size = tuples ? idx.sizes[n - 1] : 1;
  scans->scan_count = scans->tuple_size;
  scans->find_out_of_range =
      kernels::BestKernels().find_out_of_range[static_cast<int>(g.index_type)];
  for (uint32_t c = 0; c < scans->scan_count; ++c) {
    IndexScan& scan = scans->scans[c];
    scan.component = c;
    if (tuples) {
      const uint32_t dim = n - g.input_dims + c;
      scan.dim_size = g.output.sizes[dim];
      scan.input_dim = dim;
      scan.offset_bytes = static_cast<int64_t>(c) * Bytes(idx, n - 1);
    } else {
      scan.dim_size = g.output.sizes[g.axis];
      scan.input_dim = g.axis;
    }
    uint32_t count = 0;
    for (uint32_t d = 0; d < dims; ++d) {
      if (idx.sizes[d] == 1) continue;
      scan.sizes[count] = idx.sizes[d];
      scan.strides_bytes[count] = Bytes(idx, d);
      ++count;
    }
    if (count == 0) {
      scan.sizes[0] = 1;
      scan.strides_bytes[0] = idx.elem_bytes;
      count = 1;
    }
    scan.loop_count = count;
  }
}

namespace {

// Both scatters: validate, declare InputTensor, IndicesTensor, UpdatesTensor -> OutputTensor,
// copy the input into the output (skipped in place), then the scatter step.
Status BuildScatterCommon(DML_OPERATOR_TYPE type, const void* desc, ProgramBuilder* b) {
  ScatterGeometry g;
  Status s = ValidateScatter(DML_OPERATOR_DESC{type, desc}, &g);
  if (!s.ok()) return s;
  Program* program = b->program();
  const PlanSettings& settings = b->settings();
  // The strict scan's messages read the indices from the geometry.
  program->geometry.input = g.input;
  program->geometry.indices = g.indices;
  program->geometry.output = g.output;
  program->geometry.has_indices = true;
  program->geometry.index_type = g.index_type;
  program->geometry.axis = g.axis;
  program->geometry.input_dims = g.input_dims;
  program->geometry.indices_dims = g.indices_dims;
  const uint32_t input = b->AddInput("InputTensor", g.input);
  const uint32_t indices = b->AddInput("IndicesTensor", g.indices);
  const uint32_t updates = b->AddInput("UpdatesTensor", g.updates);
  const uint32_t output = b->AddOutput("OutputTensor", g.output);
  if (SameLayout(g.input, g.output)) program->in_place_input = input;

  ScatterSettings scatter;
  scatter.reduction = settings.scatter_reduction;
  scatter.uint16_as_bfloat16 = settings.scatter_bfloat16;
  scatter.concurrency = settings.concurrency;
  scatter.serial_cutoff_bytes = settings.tuning->scatter_serial_cutoff_bytes;
  scatter.stream_threshold_bytes = settings.tuning->stream_threshold_bytes;
  scatter.max_scratch_bytes = settings.tuning->max_scratch_bytes;
  Step step;
  step.kind = StepKind::kScatter;
  step.input_binding = updates;
  step.indices_binding = indices;
  step.output_binding = output;
  s = BuildScatterPlan(g, scatter, &step.scatter);
  if (!s.ok()) return s;
  if (step.scatter.fused_copy) {
    // The step copies the input itself, strip by strip (skipped when run in place).
    step.scatter.fused_input_binding = input;
    program->max_pack_bytes = std::max(program->max_pack_bytes, step.scatter.block_bytes);
  } else {
    const size_t steps_before = program->steps.size();
    s = b->AddCopy(StepSource::kInput, input, output, NestOf(g.output, g.input));
    if (!s.ok()) return s;
    for (size_t i = steps_before; i < program->steps.size(); ++i) {
      program->steps[i].skip_in_place = true;
    }
  }
  // The owner table lives in a scratch slot (without a free one the slices take key ranges).
  program->max_pack_bytes = std::max(program->max_pack_bytes, step.scatter.owner_slots);
  program->steps.push_back(step);
  if (settings.strict_indices) {
    program->strict_indices = true;
    BuildScatterScans(g, &program->index_scans);
    program->index_scans.indices_binding = indices;
  }
  return Status::Ok();
}

}  // namespace

Status BuildScatterProgram(const void* desc, ProgramBuilder* builder) {
  return BuildScatterCommon(DML_OPERATOR_SCATTER, desc, builder);
}

Status BuildScatterNdProgram(const void* desc, ProgramBuilder* builder) {
  return BuildScatterCommon(DML_OPERATOR_SCATTER_ND, desc, builder);
}

}  // namespace internal
}  // namespace dmlcpu
