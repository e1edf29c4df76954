// SPDX-License-Identifier: Apache-2.0
// The engine-pool splitter (DeviceOptions::parallel_for): runs a step's units as at most
// concurrency() tasks of whole grains, handed to the engine's parallel_for in one call. Built
// with and without oneTBB; allocation-free.
#include <algorithm>
#include <atomic>
#include <cstdint>

#include "executor/cpu_count.h"
#include "executor/executor.h"

namespace dmlcpu {
namespace internal {
namespace {

// One Run's tasks: task t runs blocks [t * q + min(t, r), ...) of `block_count` blocks of
// align_units units, q = block_count / task_count, r = block_count % task_count.
struct PoolWork {
  const Plan* plan;
  const ExecArgs* args;
  uint64_t block_count;
  uint64_t align_units;
  uint32_t task_count;
  std::atomic<uint64_t>* handoff;
};

void RunPoolTask(void* argument, uint32_t task_index) {
  const PoolWork& work = *static_cast<const PoolWork*>(argument);
  if (task_index >= work.task_count) return;  // not a task of this call
  const uint64_t q = work.block_count / work.task_count;
  const uint64_t r = work.block_count % work.task_count;
  const uint64_t begin_block = task_index * q + std::min<uint64_t>(task_index, r);
  const uint64_t end_block = begin_block + q + (task_index < r ? 1 : 0);
  // The pool's own ordering may be invisible to ThreadSanitizer (an uninstrumented library):
  // the same acquire/release handoff as the oneTBB splitter's.
  (void)work.handoff->load(std::memory_order_acquire);
  RunUnits(*work.plan, *work.args, begin_block * work.align_units,
           end_block * work.align_units);
  work.handoff->fetch_add(1, std::memory_order_release);
}

struct ScatterPoolWork {
  const ScatterPlan* plan;
  const ScatterArgs* args;
  uint32_t slices;
  std::atomic<uint64_t>* handoff;
};

void RunScatterPoolTask(void* argument, uint32_t task_index) {
  const ScatterPoolWork& work = *static_cast<const ScatterPoolWork*>(argument);
  if (task_index >= work.slices) return;
  (void)work.handoff->load(std::memory_order_acquire);
  RunScatterSlice(*work.plan, *work.args, task_index, work.slices);
  work.handoff->fetch_add(1, std::memory_order_release);
}

}  // namespace

void Executor::RunScatterOnEnginePool(const ScatterPlan& plan, const ScatterArgs& args) const {
  const uint64_t slices = std::min<uint64_t>(threads_, plan.max_slices);
  if (slices <= 1) {
    RunScatterSlice(plan, args, 0, 1);
    return;
  }
  const ScatterSliceArgs slice_args(plan, args, slices);
  std::atomic<uint64_t> handoff{0};
  handoff.store(0, std::memory_order_release);
  ScatterPoolWork work = {&plan, &slice_args.args(), static_cast<uint32_t>(slices), &handoff};
  parallel_for_(parallel_for_context_, work.slices, &RunScatterPoolTask, &work);
  (void)handoff.load(std::memory_order_acquire);
}

void Executor::UseEnginePool(const ExecutorOptions& options) {
  parallel_for_ = options.parallel_for;
  parallel_for_context_ = options.parallel_for_context;
  threads_ = options.max_threads == 0 ? ProcessCpuCount() : options.max_threads;
}

void Executor::RunOnEnginePool(const Plan& plan, const ExecArgs& args) const {
  const Partition& p = plan.partition;
  // Tasks of at least one grain each, starting on multiples of align_units (as the oneTBB
  // splitter's), and no more than the pool is wide.
  const uint64_t align = p.align_units;
  const uint64_t block_count = p.unit_count / align;
  const uint64_t grain_blocks = std::max<uint64_t>(1, p.grain_units / align);
  const uint64_t task_count =
      std::min<uint64_t>(threads_, std::max<uint64_t>(1, block_count / grain_blocks));
  if (threads_ <= 1 || !p.parallel || p.unit_count <= p.grain_units || task_count <= 1) {
    RunUnits(plan, args, 0, p.unit_count);
    return;
  }
  std::atomic<uint64_t> handoff{0};
  handoff.store(0, std::memory_order_release);
  PoolWork work = {&plan, &args, block_count, align, static_cast<uint32_t>(task_count), &handoff};
  parallel_for_(parallel_for_context_, work.task_count, &RunPoolTask, &work);
  (void)handoff.load(std::memory_order_acquire);
}

}  // namespace internal
}  // namespace dmlcpu
