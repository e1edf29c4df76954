// SPDX-License-Identifier: Apache-2.0
// The executor: runs a program's steps; the only place that splits work across threads.
// This header includes no thread library: the splitter lives in tbb_executor.cc (oneTBB) or
// serial_executor.cc (portable builds), the engine-pool splitter in pool_executor.cc (either
// build), and the unit engine (units.cc) is single-threaded.
#ifndef DMLCPU_EXECUTOR_EXECUTOR_H_
#define DMLCPU_EXECUTOR_EXECUTOR_H_

#include <cstdint>
#include <memory>

#include "core/check.h"
#include "dmlcpu/dmlcpu.h"
#include "executor/scratch_pool.h"
#include "planner/plan.h"
#include "planner/scatter_plan.h"

namespace dmlcpu {
namespace internal {

struct CoRunStep;

// The bindings of one affine step.
struct ExecArgs {
  const uint8_t* input;
  const uint8_t* indices;  // null when the plan has no index components
  uint8_t* output;         // where the step's walk starts (Step::out_base_bytes in)
  // Slots of at least plan.pack_bytes for plans with packed strips; null: none (the executor
  // then reads the input directly).
  ScratchPool* scratch = nullptr;
  // The next step of a co-run group (Step::co_run_with_next), null for none: RunUnits runs
  // the same units of it (and of its own co_run) interleaved with this step's: row by row
  // (RunCoRunRows) or a grain of each in turn.
  const CoRunStep* co_run = nullptr;
};

struct CoRunStep {
  const Plan* plan;
  ExecArgs args;
};

// The bindings of one scatter step: the output window (already holding the input, unless
// `input` is set) is updated.
struct ScatterArgs {
  uint8_t* output;
  const uint8_t* updates;
  const uint8_t* indices;
  // ScatterPlan::fused_copy run out of place: InputTensor, copied into the output strip by strip
  // before the strip's updates. Null: the output already holds it.
  const uint8_t* input = nullptr;
  // Slots of at least ScatterPlan::block_bytes; null: none (slices update the output directly).
  ScratchPool* scratch = nullptr;
  // ScatterPlan::owner_slots: the table RecordScatterOwners filled for this slice count; null:
  // the slices take key ranges.
  const uint8_t* owners = nullptr;
};

// Runs destination slice `slice` of `slices` of a scatter step on the calling thread (scatter.cc).
// Slices never share a destination element; any slice count gives the same bytes.
void RunScatterSlice(const ScatterPlan& plan, const ScatterArgs& args, uint64_t slice,
                     uint64_t slices);

// ScatterPlan::owner_slots: fills owners[0, owner_slots) with the slice, of `slices` (<= 255),
// whose share of the line loop holds the last update to each destination written (scatter.cc).
// Slots no update reaches are left as they were.
void RecordScatterOwners(const ScatterPlan& plan, const ScatterArgs& args, uint64_t slices,
                         uint8_t* owners);

// The arguments a scatter step's `slices` slices run with: with an owner table from
// args.scratch when the plan takes one and a slot is free (released on destruction).
class ScatterSliceArgs {
 public:
  ScatterSliceArgs(const ScatterPlan& plan, const ScatterArgs& args, uint64_t slices)
      : args_(args) {
    if (plan.owner_slots == 0 || slices <= 1 || args.scratch == nullptr) return;
    DMLCPU_DCHECK(args.scratch->slot_bytes() >= plan.owner_slots);  // sized at Compile
    table_ = args.scratch->Acquire();
    if (table_ == nullptr) return;
    RecordScatterOwners(plan, args, slices, table_);
    args_.owners = table_;
  }
  ~ScatterSliceArgs() {
    if (table_ != nullptr) args_.scratch->Release(table_);
  }
  ScatterSliceArgs(const ScatterSliceArgs&) = delete;
  ScatterSliceArgs& operator=(const ScatterSliceArgs&) = delete;

  const ScatterArgs& args() const { return args_; }

 private:
  ScatterArgs args_;
  uint8_t* table_ = nullptr;
};

// First out-of-range index found by a strict-mode scan.
struct BadIndex {
  uint64_t flat_position;  // row-major position in the indices tensor
  uint32_t component;      // tuple element (GATHER_ND) or 0
};

// Runs units [begin, end) of the plan's partition on the calling thread. Allocation-free.
void RunUnits(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end);

// Whether RunWholeRows runs the plan: runs or strided rows, one piece per row, regular stores,
// no input-stream prefetch, no staged lines.
inline bool RunsWholeRows(const Plan& plan) {
  return (plan.strategy == Strategy::kContiguousRun || plan.strategy == Strategy::kRowsOfRuns ||
          plan.strategy == Strategy::kStridedRows) &&
         plan.partition.pieces_per_row == 1 && !plan.prefetch.input_stream &&
         !plan.store.non_temporal && !plan.store.staged_lines;
}

// RunUnits for a plan for which RunsWholeRows holds (whole_rows.cc): the small steps' loop,
// the row's copy chosen once per unit range. Also streamed rows of runs without prefetch or
// borders (copy_run streams runs above 64 bytes), whose caller issues the fence.
void RunWholeRows(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end);

// RunUnits for a co-run group (args.co_run) whose steps all satisfy CoRunsByRow: row u of
// every step in turn (rows under Tuning::kCoRunRowByRowBytes a batch at a time), rows along each
// step's line loop walked by pointer bumps (whole_rows.cc). Without the fence.
void RunCoRunRows(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end);

// RunUnits for Strategy::kPackedStrips with a scratch slot of at least plan.pack_bytes
// (packed_strips.cc).
void RunPackedStrips(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end,
                     uint8_t* scratch);

// RunUnits for a plan with staged lines (staged_rows.cc), without the fence (RunUnits issues
// it).
void RunStagedRows(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end);

// RunUnits for streamed rows of runs (more than 64 bytes each) in stream tiles, one piece per
// row, no prefetch or borders, at least 3 loops (stream_group_rows.cc); the caller fences.
void RunStreamGroupRows(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end);

// Strict mode: scans every index the program reads. Returns false and fills `bad` with the
// first out-of-range index in row-major order of the indices tensor.
bool ScanIndices(const IndexScans& scans, const uint8_t* indices, BadIndex* bad);

// Where an Executor's threads come from (at most one of borrowed_arena and parallel_for).
struct ExecutorOptions {
  // 0 = ProcessCpuCount() (or a borrowed arena's concurrency), 1 = inline (no thread pool call).
  uint32_t max_threads = 0;
  // A caller-owned tbb::task_arena; null for none (must be null in builds without oneTBB).
  void* borrowed_arena = nullptr;
  // The engine's pool (DeviceOptions::parallel_for); null for none.
  ParallelForFn parallel_for = nullptr;
  void* parallel_for_context = nullptr;
};

// Owns or borrows the threads. Thread-safe: Run may be called from many threads at once.
class Executor {
 public:
  explicit Executor(const ExecutorOptions& options);
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  // Runs one step's plan: inline below the plan's serial cutoff or with one thread, otherwise
  // split into tasks of whole grains.
  void Run(const Plan& plan, const ExecArgs& args) const;
  // Runs one scatter step: inline for plan.max_slices 1 or one thread, else one task per slice.
  void RunScatter(const ScatterPlan& plan, const ScatterArgs& args) const;

  // Runs every step of `program` in order, each parallel inside. inputs / outputs: the
  // program's bindings in struct-field order, as arrays of structs with a `data` member
  // (dmlcpu::Binding, dmlcpu::OutputBinding), already checked.
  // in_place: outputs[0] is bound to inputs[program.in_place_input]; steps marked
  // skip_in_place are skipped.
  template <typename InputBinding, typename OutputBinding>
  void RunProgram(const Program& program, const InputBinding* inputs,
                  const OutputBinding* outputs, ScratchPool* scratch, bool in_place = false) const {
    for (size_t i = 0; i < program.steps.size(); ++i) {
      const Step& step = program.steps[i];
      if (in_place && step.skip_in_place) continue;
      if (step.kind == StepKind::kScatter) {
        const ScatterPlan& scatter = step.scatter;
        RunScatter(scatter,
                   {static_cast<uint8_t*>(outputs[step.output_binding].data) + step.out_base_bytes,
                    static_cast<const uint8_t*>(inputs[step.input_binding].data),
                    static_cast<const uint8_t*>(inputs[step.indices_binding].data),
                    scatter.fused_copy && !in_place
                        ? static_cast<const uint8_t*>(inputs[scatter.fused_input_binding].data)
                        : nullptr,
                    scratch});
        continue;
      }
      ExecArgs args = ArgsOf(step, inputs, outputs, scratch);
      if (!step.co_run_with_next) {
        if (!step.plan.partition.parallel) {  // inline in every splitter: skip them
          if (RunsWholeRows(step.plan)) {
            RunWholeRows(step.plan, args, 0, step.plan.partition.unit_count);
          } else {
            RunUnits(step.plan, args, 0, step.plan.partition.unit_count);
          }
        } else {
          Run(step.plan, args);
        }
        continue;
      }
      // A co-run group, steps i..last: each step's args point at the next one's.
      CoRunStep group[kMaxCoRunSteps];
      size_t last = i;
      while (program.steps[last].co_run_with_next) ++last;
      for (size_t k = last; k > i; --k) {
        CoRunStep& member = group[k - i - 1];
        member.plan = &program.steps[k].plan;
        member.args = ArgsOf(program.steps[k], inputs, outputs, scratch);
        member.args.co_run = k < last ? &group[k - i] : nullptr;
      }
      args.co_run = &group[0];
      Run(step.plan, args);
      i = last;
    }
  }

  uint32_t concurrency() const { return threads_; }

 private:
  template <typename InputBinding, typename OutputBinding>
  static ExecArgs ArgsOf(const Step& step, const InputBinding* inputs,
                         const OutputBinding* outputs, ScratchPool* scratch) {
    const uint8_t* source;
    if (step.kind == StepKind::kFill) {
      source = reinterpret_cast<const uint8_t*>(&step.fill_bits);
    } else if (step.source == StepSource::kOutput) {
      source = static_cast<const uint8_t*>(outputs[step.input_binding].data);
    } else {
      source = static_cast<const uint8_t*>(inputs[step.input_binding].data);
    }
    return {source,
            step.indices_binding == kNoBinding
                ? nullptr
                : static_cast<const uint8_t*>(inputs[step.indices_binding].data),
            static_cast<uint8_t*>(outputs[step.output_binding].data) + step.out_base_bytes,
            scratch};
  }

  // Sets up the engine pool of `options` (pool_executor.cc); the splitters' constructors call it
  // when options.parallel_for is set.
  void UseEnginePool(const ExecutorOptions& options);
  // Run with the engine pool: at most threads_ tasks of whole grains, one parallel_for call.
  void RunOnEnginePool(const Plan& plan, const ExecArgs& args) const;
  // RunScatter with the engine pool: one task per destination slice.
  void RunScatterOnEnginePool(const ScatterPlan& plan, const ScatterArgs& args) const;

  struct Pool;  // the splitter's state (tbb_executor.cc / serial_executor.cc)
  uint32_t threads_ = 1;
  ParallelForFn parallel_for_ = nullptr;
  void* parallel_for_context_ = nullptr;
  std::unique_ptr<Pool> pool_;
};

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_EXECUTOR_EXECUTOR_H_
