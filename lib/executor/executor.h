// The executor: the only code that includes TBB and the only place that splits work.
#ifndef DMLCPU_EXECUTOR_EXECUTOR_H_
#define DMLCPU_EXECUTOR_EXECUTOR_H_

#include <cstdint>
#include <memory>

#include <oneapi/tbb/task_arena.h>

#include "planner/plan.h"

namespace dmlcpu {
namespace internal {

class ScratchPool;

struct ExecArgs {
  const uint8_t* input;
  const uint8_t* indices;  // null when the plan has no index components
  uint8_t* output;
  // Slots of at least plan.pack_bytes for plans with packed strips; null: none (the executor
  // then reads the input directly).
  ScratchPool* scratch = nullptr;
};

// First out-of-range index found by a strict-mode scan.
struct BadIndex {
  uint64_t flat_position;  // row-major position in the indices tensor
  uint32_t component;      // tuple element (GATHER_ND) or 0
};

// Runs units [begin, end) of the plan's partition on the calling thread. Allocation-free.
void RunUnits(const Plan& plan, const ExecArgs& args, uint64_t begin, uint64_t end);

// Strict mode: scans every index the plan reads. Returns false and fills `bad` with the first
// out-of-range index in row-major order of the indices tensor.
bool ScanIndices(const Plan& plan, const uint8_t* indices, BadIndex* bad);

// Owns or borrows a task arena. Thread-safe: Run may be called from many threads at once.
class Executor {
 public:
  // max_threads: 0 = all cores, 1 = inline (no arena, no TBB call). `borrowed` may be null.
  Executor(uint32_t max_threads, tbb::task_arena* borrowed);
  ~Executor();

  // Runs the whole plan: inline below the plan's serial cutoff or with one thread, otherwise
  // a parallel_for over the units inside the arena and this_task_arena::isolate.
  void Run(const Plan& plan, const ExecArgs& args) const;

  uint32_t concurrency() const { return threads_; }

 private:
  uint32_t threads_;
  std::unique_ptr<tbb::task_arena> owned_;
  tbb::task_arena* arena_;
};

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_EXECUTOR_EXECUTOR_H_
