// SPDX-License-Identifier: Apache-2.0
// A plain pool of std::threads that implements dmlcpu's engine-pool interface
// (DeviceOptions::parallel_for), as an engine that owns its threads would, and counts how it is
// used. Several threads may call ParallelFor at once; the caller runs tasks too.
#ifndef DMLCPU_TESTS_SUPPORT_THREAD_POOL_H_
#define DMLCPU_TESTS_SUPPORT_THREAD_POOL_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "dmlcpu/dmlcpu.h"

namespace dmlcpu_test {

class TestThreadPool {
 public:
  explicit TestThreadPool(uint32_t worker_count);
  ~TestThreadPool();
  TestThreadPool(const TestThreadPool&) = delete;
  TestThreadPool& operator=(const TestThreadPool&) = delete;

  // dmlcpu::ParallelForFn; `context` is the pool.
  static void ParallelFor(void* context, uint32_t task_count, dmlcpu::TaskFn function,
                          void* argument);

  // Options of a device that runs on this pool with at most `max_threads` tasks per call.
  dmlcpu::DeviceOptions Options(uint32_t max_threads);

  struct Counts {
    uint64_t calls = 0;           // ParallelFor calls
    uint64_t tasks = 0;           // tasks run
    uint64_t worker_tasks = 0;    // of which on a worker thread
    uint32_t max_task_count = 0;  // largest task_count of a call
    uint32_t min_task_count = 0;  // smallest task_count of a call (0 before the first)
    uint64_t bad_calls = 0;       // a task index run twice or not at all
  };
  Counts counts() const;
  void ResetCounts();

 private:
  struct Job;
  void WorkerLoop();
  // Claims one task of the front job under `lock`; false when the queue is empty.
  bool RunOneTask(std::unique_lock<std::mutex>& lock, bool on_worker);

  mutable std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable task_done_;
  std::deque<Job*> queue_;  // jobs with unclaimed tasks
  bool stopping_ = false;
  Counts counts_;
  std::vector<std::thread> workers_;
};

}  // namespace dmlcpu_test

#endif  // DMLCPU_TESTS_SUPPORT_THREAD_POOL_H_
