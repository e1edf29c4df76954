// SPDX-License-Identifier: Apache-2.0
#include "support/thread_pool.h"

#include <algorithm>

namespace dmlcpu_test {

// One ParallelFor call; lives on the caller's stack until every task has run. Touched only under
// the pool's mutex.
struct TestThreadPool::Job {
  dmlcpu::TaskFn function;
  void* argument;
  uint32_t task_count;
  uint32_t next = 0;  // first unclaimed task index
  uint32_t done = 0;  // tasks that have returned
  std::vector<uint8_t> runs;  // times each index ran
};

TestThreadPool::TestThreadPool(uint32_t worker_count) {
  for (uint32_t i = 0; i < worker_count; ++i) workers_.emplace_back([this] { WorkerLoop(); });
}

TestThreadPool::~TestThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

dmlcpu::DeviceOptions TestThreadPool::Options(uint32_t max_threads) {
  dmlcpu::DeviceOptions options;
  options.max_threads = max_threads;
  options.parallel_for = &TestThreadPool::ParallelFor;
  options.parallel_for_context = this;
  return options;
}

bool TestThreadPool::RunOneTask(std::unique_lock<std::mutex>& lock, bool on_worker) {
  if (queue_.empty()) return false;
  Job* job = queue_.front();
  const uint32_t index = job->next++;
  if (job->next == job->task_count) queue_.pop_front();
  lock.unlock();
  job->function(job->argument, index);
  lock.lock();
  ++job->runs[index];
  ++job->done;
  ++counts_.tasks;
  if (on_worker) ++counts_.worker_tasks;
  if (job->done == job->task_count) task_done_.notify_all();
  return true;
}

void TestThreadPool::WorkerLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    work_ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    RunOneTask(lock, /*on_worker=*/true);
  }
}

void TestThreadPool::ParallelFor(void* context, uint32_t task_count, dmlcpu::TaskFn function,
                                 void* argument) {
  auto* pool = static_cast<TestThreadPool*>(context);
  Job job{function, argument, task_count};
  job.runs.assign(task_count, 0);
  std::unique_lock<std::mutex> lock(pool->mutex_);
  ++pool->counts_.calls;
  pool->counts_.max_task_count = std::max(pool->counts_.max_task_count, task_count);
  pool->counts_.min_task_count = pool->counts_.min_task_count == 0
                                     ? task_count
                                     : std::min(pool->counts_.min_task_count, task_count);
  if (task_count == 0) return;
  pool->queue_.push_back(&job);
  pool->work_ready_.notify_all();
  // The caller helps with its own job (and any queued before it) until none is left unclaimed.
  while (job.next < job.task_count && pool->RunOneTask(lock, /*on_worker=*/false)) {
  }
  pool->task_done_.wait(lock, [&job] { return job.done == job.task_count; });
  for (uint8_t runs : job.runs) {
    if (runs != 1) {
      ++pool->counts_.bad_calls;
      break;
    }
  }
}

TestThreadPool::Counts TestThreadPool::counts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return counts_;
}

void TestThreadPool::ResetCounts() {
  std::lock_guard<std::mutex> lock(mutex_);
  counts_ = Counts();
}

}  // namespace dmlcpu_test
