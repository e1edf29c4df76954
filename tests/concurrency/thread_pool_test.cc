// SPDX-License-Identifier: Apache-2.0
// The engine's own thread pool (DeviceOptions::parallel_for), driven by a pool of plain
// std::threads (support/thread_pool.h): every operator gives the reference's bytes on it, as on
// one thread and on oneTBB; a large operator calls the pool once per step with several tasks, at
// most max_threads, each index once; work below the serial cutoff never calls it; a pool that
// runs every task inline, in reverse, is as correct; several threads may execute at once; and a
// device given both a oneTBB arena and a pool is refused. The random suites run every case on
// such a pool too (operators/random_reference_test.cc). Run under ThreadSanitizer by the tsan
// preset.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#if !defined(DMLCPU_TEST_NO_TBB)
#include <oneapi/tbb/task_arena.h>
#endif

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/dmlcpu.h"
#if !defined(DMLCPU_TEST_NO_TBB)
#include "dmlcpu/tbb.h"
#endif
#include "support/moderate_cases.h"
#include "support/tester.h"
#include "support/thread_pool.h"

namespace dmlcpu_test {
namespace {

// 512 KiB of output: above the serial cutoff on every device.
GatherTester LargeGather() {
  GatherTester tester;
  tester.DataType(DML_TENSOR_DATA_TYPE_FLOAT32)
      .InputSizes({512, 64})
      .IndicesSizes({1, 2048})
      .IndexType(DML_TENSOR_DATA_TYPE_INT64)
      .Axis(0)
      .IndexDimensions(1);
  return tester;
}

// One case of every gather and slice operator, each with a few hundred KiB of output and strided
// layouts, and GATHER_ELEMENTS along the outer axis of a large input (packed strips, whose tasks
// start on whole strips).
std::vector<std::unique_ptr<OperatorCase>> EveryOperator() {
  std::vector<std::unique_ptr<OperatorCase>> cases = ModerateGatherSliceCases();
  cases.push_back(GatherElementsTester()
                      .DataType(DML_TENSOR_DATA_TYPE_UINT8)
                      .InputSizes({2048, 1024})
                      .IndicesSizes({512, 1024})
                      .IndexType(DML_TENSOR_DATA_TYPE_INT32)
                      .Axis(0)
                      .BuildCase());
  return cases;
}

// Runs every task on the calling thread, last index first (the contract allows any order).
void ReverseInline(void* context, uint32_t task_count, dmlcpu::TaskFn function, void* argument) {
  static_cast<std::atomic<uint64_t>*>(context)->fetch_add(1);
  for (uint32_t i = task_count; i-- > 0;) function(argument, i);
}

TEST(EnginePoolTest, EveryOperatorMatchesOneThreadAndTbb) {
  TestThreadPool pool(3);
  std::atomic<uint64_t> inline_calls{0};
  dmlcpu::DeviceOptions inline_options;
  inline_options.max_threads = 8;
  inline_options.parallel_for = &ReverseInline;
  inline_options.parallel_for_context = &inline_calls;
  const dmlcpu::Device serial(dmlcpu::DeviceOptions{1, nullptr});
  const dmlcpu::Device tbb_threads(dmlcpu::DeviceOptions{2, nullptr});
  const dmlcpu::Device pool_device(pool.Options(4));
  const dmlcpu::Device wide_pool_device(pool.Options(16));  // more tasks than threads
  const dmlcpu::Device inline_device(inline_options);
  const std::vector<const dmlcpu::Device*> devices = {&serial, &tbb_threads, &pool_device,
                                                      &wide_pool_device, &inline_device};
  for (const auto& op_case : EveryOperator()) {
    ASSERT_NE(op_case, nullptr);
    for (dmlcpu::IndexPolicy policy : {dmlcpu::IndexPolicy::kClamp, dmlcpu::IndexPolicy::kStrict}) {
      EXPECT_TRUE(RunCase(*op_case, devices, policy, 7)) << op_case->description;
    }
  }
  const TestThreadPool::Counts counts = pool.counts();
  EXPECT_GT(counts.calls, 0u);
  EXPECT_GT(counts.max_task_count, 4u);  // the 16-wide device
  EXPECT_LE(counts.max_task_count, 16u);
  EXPECT_EQ(counts.bad_calls, 0u);
  EXPECT_GT(inline_calls.load(), 0u);
}

TEST(EnginePoolTest, LargeOperatorCallsThePoolWithSeveralTasks) {
  TestThreadPool pool(3);
  const dmlcpu::Device device(pool.Options(4));
  EXPECT_EQ(device.max_concurrency(), 4u);
  ASSERT_TRUE(LargeGather().Test(device));
  const TestThreadPool::Counts counts = pool.counts();
  EXPECT_GT(counts.calls, 0u);
  EXPECT_GT(counts.min_task_count, 1u);
  EXPECT_LE(counts.max_task_count, 4u);
  EXPECT_GE(counts.tasks, counts.calls * counts.min_task_count);
  EXPECT_EQ(counts.bad_calls, 0u);
}

TEST(EnginePoolTest, WorkBelowTheSerialCutoffNeverCallsThePool) {
  TestThreadPool pool(3);
  const dmlcpu::Device device(pool.Options(4));
  ASSERT_TRUE(GatherTester()
                  .DataType(DML_TENSOR_DATA_TYPE_FLOAT32)
                  .InputSizes({16, 8})
                  .IndicesSizes({1, 32})
                  .IndexType(DML_TENSOR_DATA_TYPE_INT32)
                  .Axis(0)
                  .IndexDimensions(1)
                  .Test(device));
  EXPECT_EQ(pool.counts().calls, 0u);
  // max_threads 1: serial even for large work.
  const dmlcpu::Device serial(pool.Options(1));
  EXPECT_EQ(serial.max_concurrency(), 1u);
  ASSERT_TRUE(LargeGather().Test(serial));
  EXPECT_EQ(pool.counts().calls, 0u);
}

TEST(EnginePoolTest, MaxThreadsZeroIsTheDefaultCount) {
  TestThreadPool pool(1);
  const dmlcpu::Device device(pool.Options(0));
#if defined(DMLCPU_TEST_NO_TBB)
  // Portable: a device without a pool is serial; the pool gets the CPU count all the same.
  EXPECT_EQ(dmlcpu::Device().max_concurrency(), 1u);
#else
  EXPECT_EQ(device.max_concurrency(), dmlcpu::Device().max_concurrency());
#endif
  EXPECT_GE(device.max_concurrency(), 1u);
}

// Re-entrancy: several threads execute at once, each calling parallel_for from its own thread.
TEST(EnginePoolTest, ConcurrentExecutesShareOnePool) {
  TestThreadPool pool(2);
  const dmlcpu::Device device(pool.Options(3));
  auto op_case = LargeGather().BuildCase();
  ASSERT_NE(op_case, nullptr);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int r = 0; r < 3; ++r) {
        if (!RunCase(*op_case, {&device}, dmlcpu::IndexPolicy::kClamp, 11)) ++failures;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_GE(pool.counts().calls, 12u);
  EXPECT_EQ(pool.counts().bad_calls, 0u);
}

// Portable builds have no oneTBB, so no arena to refuse.
#if !defined(DMLCPU_TEST_NO_TBB)
TEST(EnginePoolTest, ArenaAndPoolTogetherAreRefused) {
  TestThreadPool pool(1);
  tbb::task_arena arena(2);
  dmlcpu::DeviceOptions options = pool.Options(2);
  dmlcpu::SetTbbArena(options, &arena);
  const auto created = dmlcpu::Device::Create(options);
  ASSERT_FALSE(created.ok());
#if defined(DMLCPU_TEST_PRIVATE_TBB)
  // dmlcpu.dll's own oneTBB refuses any caller arena first (docs/windows.md).
  EXPECT_EQ(created.status().code(), dmlcpu::StatusCode::kUnsupported);
  EXPECT_NE(created.status().message().find("links its own oneTBB"), std::string::npos)
      << created.status().message();
#else
  EXPECT_EQ(created.status().code(), dmlcpu::StatusCode::kInvalidArgument);
  EXPECT_EQ(created.status().message(),
            "DeviceOptions: tbb_arena and parallel_for are both set, expected at most one (the "
            "device runs its parallel work in a oneTBB arena or in the engine's pool, not both)");
#endif
  // The constructor cannot fail: every Compile reports it.
  const dmlcpu::Device device(options);
  auto op_case = LargeGather().BuildCase();
  ASSERT_NE(op_case, nullptr);
  const auto compiled = device.Compile(op_case->op_desc);
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.status().message(), created.status().message());

  // A context without a parallel_for is a mistake too.
  dmlcpu::DeviceOptions context_only;
  context_only.parallel_for_context = &pool;
  const auto refused = dmlcpu::Device::Create(context_only);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("parallel_for_context is"), std::string::npos)
      << refused.status().message();
  EXPECT_NE(refused.status().message().find("but parallel_for is null"), std::string::npos);
}
#endif  // !DMLCPU_TEST_NO_TBB

}  // namespace
}  // namespace dmlcpu_test
