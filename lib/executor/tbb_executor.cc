// SPDX-License-Identifier: Apache-2.0
// The oneTBB splitter: runs a step's units as parallel tasks of whole grains inside an owned or
// borrowed task arena (an owned one as wide as ProcessCpuCount() by default). The only file
// that includes oneTBB. Devices with an engine pool go to pool_executor.cc instead.
#include <algorithm>
#include <atomic>
#include <memory>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

#include "executor/cpu_count.h"
#include "executor/executor.h"

namespace dmlcpu {
namespace internal {

struct Executor::Pool {
  std::unique_ptr<tbb::task_arena> owned;
  tbb::task_arena* arena = nullptr;
};

Executor::Executor(const ExecutorOptions& options) {
  if (options.parallel_for != nullptr) {
    UseEnginePool(options);
    return;
  }
  const uint32_t max_threads = options.max_threads;
  auto* borrowed = static_cast<tbb::task_arena*>(options.borrowed_arena);
  if (borrowed != nullptr) {
    const uint32_t arena_threads = static_cast<uint32_t>(std::max(1, borrowed->max_concurrency()));
    threads_ = max_threads == 0 ? arena_threads : std::min(max_threads, arena_threads);
    pool_ = std::make_unique<Pool>();
    pool_->arena = borrowed;
  } else {
    threads_ = max_threads == 0 ? ProcessCpuCount() : max_threads;
    if (threads_ > 1) {
      pool_ = std::make_unique<Pool>();
      pool_->owned = std::make_unique<tbb::task_arena>(static_cast<int>(threads_));
      pool_->arena = pool_->owned.get();
    }
  }
}

Executor::~Executor() = default;

void Executor::Run(const Plan& plan, const ExecArgs& args) const {
  if (parallel_for_ != nullptr) {
    RunOnEnginePool(plan, args);
    return;
  }
  const Partition& p = plan.partition;
  if (threads_ <= 1 || pool_ == nullptr || !p.parallel || p.unit_count <= p.grain_units) {
    RunUnits(plan, args, 0, p.unit_count);
    return;
  }
  // TBB orders the caller's writes before its tasks and the tasks' work before parallel_for
  // returns, but inside its own code, which ThreadSanitizer does not see (the system libtbb is
  // not instrumented). The same order, stated once more with one atomic TSan does see: the
  // caller releases it before the tasks start, each task acquires it first and releases its
  // work into it last, the caller acquires it after the join. (Without it a TSan run of the
  // random suites reported, now and then, the output read after Execute against a worker's
  // write whose stack had left TSan's history, where the libtbb suppression cannot match.)
  std::atomic<uint64_t> handoff{0};
  handoff.store(0, std::memory_order_release);
  const auto run_task = [&](uint64_t begin, uint64_t end) {
    (void)handoff.load(std::memory_order_acquire);
    RunUnits(plan, args, begin, end);
    handoff.fetch_add(1, std::memory_order_release);
  };
  pool_->arena->execute([&] {
    tbb::this_task_arena::isolate([&] {
      // Tasks split the units in blocks of align_units (whole packed strips).
      const uint64_t align = p.align_units;
      const uint64_t blocks = p.unit_count / align;
      if (threads_ >= static_cast<uint32_t>(pool_->arena->max_concurrency())) {
        tbb::parallel_for(tbb::blocked_range<uint64_t>(0, blocks, p.grain_units / align),
                          [&](const tbb::blocked_range<uint64_t>& r) {
                            run_task(r.begin() * align, r.end() * align);
                          });
        return;
      }
      // A borrowed arena wider than max_threads: exactly threads_ contiguous slices, so no
      // more than threads_ of the arena's threads take part.
      const uint64_t slices = std::min<uint64_t>(threads_, blocks);
      tbb::parallel_for(
          tbb::blocked_range<uint64_t>(0, slices, 1),
          [&](const tbb::blocked_range<uint64_t>& r) {
            for (uint64_t slice = r.begin(); slice < r.end(); ++slice) {
              run_task(blocks * slice / slices * align, blocks * (slice + 1) / slices * align);
            }
          },
          tbb::static_partitioner());
    });
  });
  (void)handoff.load(std::memory_order_acquire);
}

void Executor::RunScatter(const ScatterPlan& plan, const ScatterArgs& args) const {
  if (parallel_for_ != nullptr) {
    RunScatterOnEnginePool(plan, args);
    return;
  }
  const uint64_t slices = std::min<uint64_t>(threads_, plan.max_slices);
  if (slices <= 1 || pool_ == nullptr) {
    RunScatterSlice(plan, args, 0, 1);
    return;
  }
  const ScatterSliceArgs slice_args(plan, args, slices);
  std::atomic<uint64_t> handoff{0};  // the same order for TSan as in Run
  handoff.store(0, std::memory_order_release);
  pool_->arena->execute([&] {
    tbb::this_task_arena::isolate([&] {
      tbb::parallel_for(
          tbb::blocked_range<uint64_t>(0, slices, 1),
          [&](const tbb::blocked_range<uint64_t>& r) {
            (void)handoff.load(std::memory_order_acquire);
            for (uint64_t s = r.begin(); s < r.end(); ++s) {
              RunScatterSlice(plan, slice_args.args(), s, slices);
            }
            handoff.fetch_add(1, std::memory_order_release);
          },
          tbb::static_partitioner());
    });
  });
  (void)handoff.load(std::memory_order_acquire);
}

}  // namespace internal
}  // namespace dmlcpu
