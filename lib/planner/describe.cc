// SPDX-License-Identifier: Apache-2.0
// Human-readable program descriptions ("why is my slice slow").
#include <string>
#include <vector>

#include "core/format.h"
#include "planner/op_scatter.h"
#include "planner/planner.h"

namespace dmlcpu {
namespace internal {
namespace {

std::string DescribeTensor(const char* field, const TensorInfo& t) {
  uint32_t strides[kMaxRank];
  for (uint32_t i = 0; i < t.rank; ++i) strides[i] = static_cast<uint32_t>(t.strides_elems[i]);
  return StrFormat("  %-8s %s sizes %s strides %s elems%s, TotalTensorSizeInBytes %llu\n", field,
                   DataTypeName(t.data_type), FormatList(t.sizes, t.rank).c_str(),
                   FormatList(strides, t.rank).c_str(), t.packed ? " (packed)" : "",
                   static_cast<unsigned long long>(t.total_bytes));
}

const char* StepKindName(StepKind kind) {
  switch (kind) {
    case StepKind::kAffineCopy: return "affine copy";
    case StepKind::kFill: return "fill";
    case StepKind::kScatter: return "scatter";
  }
  return "?";
}

// What the strategy does with a row, in words.
const char* StrategyDetail(const Plan& plan) {
  switch (plan.strategy) {
    case Strategy::kTransposeTiles: return " as 2-D transpose tiles of the last two loops";
    case Strategy::kIndexedBlocks:
      return plan.merge_runs ? ", indices resolved per chunk, runs merged"
                             : ", indices resolved per chunk";
    case Strategy::kSharedIndexRows: return ", indices resolved once for all rows";
    case Strategy::kFusedRowGather: return ", indices clamped and gathered in one pass";
    default: return "";
  }
}

// "inputs[1] (IndicesTensor)".
std::string BindingName(const char* kind, uint32_t binding,
                        const std::vector<BindingInfo>& bindings) {
  return StrFormat("%s[%u] (%s)", kind, binding,
                   binding < bindings.size() ? bindings[binding].field.c_str() : "?");
}

// One loop of a plan: "[i] size: out / source / idx" byte strides.
std::string LoopLine(uint32_t i, int64_t size, int64_t out_stride_bytes, int64_t src_stride_bytes,
                     int64_t idx_stride_bytes) {
  return StrFormat("      [%u] %lld: %lld / %lld / %lld\n", i, static_cast<long long>(size),
                   static_cast<long long>(out_stride_bytes),
                   static_cast<long long>(src_stride_bytes),
                   static_cast<long long>(idx_stride_bytes));
}

}  // namespace

std::string DescribePlan(const Plan& plan) {
  std::string s = StrFormat("    collapsed to %u loop(s)%s, outermost first (size: out/in/idx "
                            "byte strides):\n",
                            plan.loop_count,
                            plan.tiling != Tiling::kNone ? ", tiled for the cache" : "");
  for (uint32_t i = 0; i < plan.loop_count; ++i) {
    const Loop& l = plan.loops[i];
    s += LoopLine(i, l.size, l.out_stride_bytes, l.in_stride_bytes, l.idx_stride_bytes);
  }
  s += StrFormat("    input base offset %lld bytes\n", static_cast<long long>(plan.in_base_bytes));
  for (uint32_t c = 0; c < plan.component_count; ++c) {
    const IndexComponent& comp = plan.components[c];
    s += StrFormat("    index component %u: InputTensor dim %u (size %llu, pitch %lld bytes), "
                   "at tuple offset %lld bytes\n", c, comp.input_dim,
                   static_cast<unsigned long long>(comp.dim_size),
                   static_cast<long long>(comp.pitch_bytes),
                   static_cast<long long>(comp.idx_offset_bytes));
  }
  const Loop& row = plan.loops[plan.loop_count - 1];
  s += StrFormat("    strategy: %s (%s%s), tiling %s\n", StrategyName(plan.strategy),
                 KernelShapeName(plan.shape), StrategyDetail(plan), TilingName(plan.tiling));
  s += StrFormat("    row of %lld items (%lld bytes written), %s stores, target %s\n",
                 static_cast<long long>(row.size),
                 static_cast<long long>(row.size * plan.elem_bytes),
                 plan.store.non_temporal ? "non-temporal"
                 : plan.store.staged_lines ? "staged-line (whole lines non-temporal)"
                                           : "regular",
                 plan.kernel_set ? plan.kernel_set->name : "?");
  if (plan.prefetch.input_stream) {
    s += "    prefetch: software prefetch along the input stream, across row and block "
         "boundaries\n";
  }
  if (plan.prefetch.index_stream) {
    s += "    prefetch: the index stream a few KiB ahead\n";
  }
  if (plan.pack_bytes != 0) {
    s += StrFormat("    packing: each strip (%llu bytes) copied into a scratch slot, then "
                   "gathered from there\n",
                   static_cast<unsigned long long>(plan.pack_bytes));
  }
  if (plan.prefetch.next_row_span_bytes != 0) {
    s += StrFormat("    prefetch: a later row's %llu input bytes while gathering a row (the next, "
                   "or for rows sharing indices below 8 KiB the one after it)\n",
                   static_cast<unsigned long long>(plan.prefetch.next_row_span_bytes));
  }
  if (plan.prefetch.next_row_items) {
    s += "    prefetch: the next row's items into L2 (its indices resolved ahead)\n";
  }
  if (plan.borders.left_items + plan.borders.right_items != 0) {
    s += StrFormat("    row borders: %u + %u items, %s, written with each row\n",
                   plan.borders.left_items, plan.borders.right_items,
                   plan.borders.fill ? "filled" : "copied from the source row");
  }
  if (plan.borders.top_rows + plan.borders.bottom_rows != 0) {
    s += StrFormat("    border rows: %u + %u per line, %s, written with its first / last row\n",
                   plan.borders.top_rows, plan.borders.bottom_rows,
                   plan.borders.fill ? "filled" : "copied from the source line");
  }
  const Partition& p = plan.partition;
  s += StrFormat(
      "    partition: %llu row(s) x %llu piece(s) of <= %llu items = %llu units, grain %llu "
      "units, %llu bytes moved, %s\n",
      static_cast<unsigned long long>(p.rows), static_cast<unsigned long long>(p.pieces_per_row),
      static_cast<unsigned long long>(p.piece_items), static_cast<unsigned long long>(p.unit_count),
      static_cast<unsigned long long>(p.grain_units),
      static_cast<unsigned long long>(p.bytes_moved),
      p.parallel ? "parallel" : "serial (below the cutoff)");
  return s;
}

std::string DescribeScatterPlan(const ScatterPlan& plan) {
  static const char* const kReductions[] = {"none", "add", "mul", "max", "min"};
  std::string s = StrFormat(
      "    scatter of %llu update(s), reduction %s, %u loop(s) outermost first (size: "
      "out/upd/idx byte strides):\n",
      static_cast<unsigned long long>(plan.item_count),
      kReductions[static_cast<int>(plan.reduction)], plan.loop_count);
  for (uint32_t i = 0; i < plan.loop_count; ++i) {
    const ScatterLoop& l = plan.loops[i];
    s += LoopLine(i, l.size, l.out_stride_bytes, l.upd_stride_bytes, l.idx_stride_bytes);
  }
  for (uint32_t j = 0; j < plan.component_count; ++j) {
    const ScatterComponent& c = plan.components[j];
    s += StrFormat("    tuple element %u: OutputTensor dimension %u (size %llu), pitch %lld "
                   "bytes, at index byte %lld\n",
                   j, c.output_dim, static_cast<unsigned long long>(c.dim_size),
                   static_cast<long long>(c.pitch_bytes),
                   static_cast<long long>(c.idx_offset_bytes));
  }
  s += StrFormat("    %s; split %s; up to %llu slice(s), %llu bytes moved\n",
                 plan.tuple_per_row ? "one tuple per row (rows applied as runs)"
                                    : "one tuple per element",
                 plan.split_loop == kNoSplitLoop
                     ? "by destination key ranges"
                     : StrFormat("along loop %u", plan.split_loop).c_str(),
                 static_cast<unsigned long long>(plan.max_slices),
                 static_cast<unsigned long long>(plan.bytes_moved));
  if (plan.strip_items != 0) {
    s += StrFormat("    the split loop walked in strips of %llu item(s)\n",
                   static_cast<unsigned long long>(plan.strip_items));
  }
  if (plan.fused_copy) {
    s += "    out of place, the input copied in one strip at a time before its updates\n";
  }
  if (plan.block_bytes != 0) {
    s += plan.fused_block
             ? StrFormat("    out of place, strips of %llu item(s) assembled in a scratch block of "
                         "%llu bytes (copied from the input, streamed to the output)\n",
                         static_cast<unsigned long long>(plan.block_items),
                         static_cast<unsigned long long>(plan.block_bytes))
             : StrFormat("    each strip assembled in a scratch block of %llu bytes\n",
                         static_cast<unsigned long long>(plan.block_bytes));
  }
  if (plan.owner_slots != 0) {
    s += StrFormat("    slices take ranges of loop %u; each destination written by the slice of "
                   "its last update (a table of %llu slots, one per %llu bytes)\n",
                   plan.loop_count - 2, static_cast<unsigned long long>(plan.owner_slots),
                   static_cast<unsigned long long>(uint64_t{1} << plan.owner_shift));
  }
  if (plan.stream_row != nullptr) s += "    rows written with non-temporal stores\n";
  if (plan.apply_indexed != nullptr) {
    s += "    each index resolved and its update written in one pass (whole key range)\n";
  }
  if (plan.apply_indexed_reduce != nullptr) {
    s += "    each index resolved and its update reduced in one pass\n";
  }
  return s;
}

std::string DescribeProgram(const Program& program) {
  const OpGeometry& g = program.geometry;
  const TensorInfo& first_output = program.outputs.empty() ? g.output : program.outputs[0].tensor;
  std::string s = StrFormat("%s, %s elements", g.name, DataTypeName(first_output.data_type));
  if (g.has_indices) {
    s += StrFormat(", %s indices, %s policy", IndexTypeName(g.index_type),
                   program.strict_indices ? "strict" : "clamp");
  }
  s += "\n";
  // Today's six keep their short labels; other operators are listed by field.
  const bool canonical = program.steps.size() == 1 && program.output_count == 1 &&
                         program.inputs.size() >= 1 && program.inputs[0].field == "InputTensor" &&
                         program.outputs[0].field == "OutputTensor";
  for (const BindingInfo& b : program.inputs) {
    const char* label = canonical ? (b.field == "IndicesTensor" ? "indices" : "input")
                                  : b.field.c_str();
    s += DescribeTensor(label, b.tensor);
  }
  for (const BindingInfo& b : program.outputs) {
    s += DescribeTensor(canonical ? "output" : b.field.c_str(), b.tensor);
  }
  s += StrFormat("  program: %zu step(s) over %u input(s) and %u output(s)%s\n",
                 program.steps.size(), program.input_count, program.output_count,
                 program.strict_indices ? ", every index checked first" : "");
  for (size_t i = 0; i < program.steps.size(); ++i) {
    const Step& step = program.steps[i];
    std::string from;
    if (step.kind == StepKind::kFill) {
      from = StrFormat("0x%llx", static_cast<unsigned long long>(step.fill_bits));
    } else if (step.source == StepSource::kOutput) {
      from = BindingName("outputs", step.input_binding, program.outputs);
    } else {
      from = BindingName("inputs", step.input_binding, program.inputs);
    }
    if (step.indices_binding != kNoBinding) {
      from += " indexed by " + BindingName("inputs", step.indices_binding, program.inputs);
    }
    // A loop OrientForInputStream turned starts the walk at its far end.
    int64_t window_bytes = step.out_base_bytes;
    if (step.kind != StepKind::kScatter) {
      for (uint32_t d = 0; d < step.plan.loop_count; ++d) {
        const Loop& l = step.plan.loops[d];
        if (l.out_stride_bytes < 0) window_bytes += (l.size - 1) * l.out_stride_bytes;
      }
    }
    const std::string walk =
        window_bytes == step.out_base_bytes
            ? std::string()
            : StrFormat(" (walked from byte %lld: loops with a negative output stride run "
                        "backwards)", static_cast<long long>(step.out_base_bytes));
    s += StrFormat("  step %zu: %s %s -> %s, window at byte %lld%s%s\n", i,
                   StepKindName(step.kind), from.c_str(),
                   BindingName("outputs", step.output_binding, program.outputs).c_str(),
                   static_cast<long long>(window_bytes), walk.c_str(),
                   step.skip_in_place ? " (skipped when run in place)" : "");
    if (step.co_run_with_next) {
      s += StrFormat("    runs interleaved with step %zu, %s\n", i + 1,
                     step.plan.co_run_by_row ? "row by row" : "one grain of each in turn");
    }
    s += step.kind == StepKind::kScatter ? DescribeScatterPlan(step.scatter)
                                         : DescribePlan(step.plan);
  }
  return s;
}

}  // namespace internal
}  // namespace dmlcpu
