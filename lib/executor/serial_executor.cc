// SPDX-License-Identifier: Apache-2.0
// The serial splitter of portable builds (DMLCPU_PORTABLE, e.g. targets without oneTBB):
// every step runs its units on the calling thread, and the device says so (max_concurrency 1:
// plans then follow the single-thread store policy, scratch pools hold 3 slots), unless the
// device has an engine pool (DeviceOptions::parallel_for, pool_executor.cc).
#include "executor/executor.h"

namespace dmlcpu {
namespace internal {

struct Executor::Pool {};

Executor::Executor(const ExecutorOptions& options) {
  if (options.parallel_for != nullptr) {
    UseEnginePool(options);
    return;
  }
  threads_ = 1;
}

Executor::~Executor() = default;

void Executor::Run(const Plan& plan, const ExecArgs& args) const {
  if (parallel_for_ != nullptr) {
    RunOnEnginePool(plan, args);
    return;
  }
  RunUnits(plan, args, 0, plan.partition.unit_count);
}

}  // namespace internal
}  // namespace dmlcpu
