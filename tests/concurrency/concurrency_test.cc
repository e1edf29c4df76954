// SPDX-License-Identifier: Apache-2.0
// Thread-safety and embedding tests (issue 5): one CompiledOperator executed by many threads at
// once, many devices at once, Execute inside a caller's tbb::task_arena with a concurrency limit
// and from inside the caller's own parallel_for, and max_threads = 1 starting no threads at all.
// Run under ThreadSanitizer by the tsan preset (tests/tsan.supp silences the uninstrumented
// system libtbb only).
#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
// (tlhelp32.h needs windows.h first)
#include <tlhelp32.h>
#else
#include <dirent.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_scheduler_observer.h>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/dmlcpu.h"
#include "dmlcpu/tbb.h"
#include "executor/scratch_pool.h"
#include "gtest/gtest.h"
#include "reference/reference.h"

namespace {

// GATHER along axis 0 of a FLOAT32 {rows, cols} input with {1, index_count} INT32 indices:
// output {index_count, cols}. Owns its descriptors and input buffers; computes the expected
// output with the naive reference.
class GatherRows {
 public:
  GatherRows(uint32_t rows, uint32_t cols, uint32_t index_count, uint64_t seed)
      : in_sizes_{rows, cols}, idx_sizes_{1, index_count}, out_sizes_{index_count, cols} {
    std::mt19937_64 rng(seed);
    input_.resize(uint64_t{rows} * cols);
    for (float& v : input_) v = static_cast<float>(rng() % 100000);
    indices_.resize(index_count);
    for (int32_t& v : indices_) v = static_cast<int32_t>(rng() % rows);
    Describe(&in_, DML_TENSOR_DATA_TYPE_FLOAT32, in_sizes_);
    Describe(&idx_, DML_TENSOR_DATA_TYPE_INT32, idx_sizes_);
    Describe(&out_, DML_TENSOR_DATA_TYPE_FLOAT32, out_sizes_);
    in_t_ = {DML_TENSOR_TYPE_BUFFER, &in_};
    idx_t_ = {DML_TENSOR_TYPE_BUFFER, &idx_};
    out_t_ = {DML_TENSOR_TYPE_BUFFER, &out_};
    gather_ = {&in_t_, &idx_t_, &out_t_, 0, 1};
    desc_ = {DML_OPERATOR_GATHER, &gather_};
    expected_.assign(output_elems(), -1.0f);
    const void* inputs[2] = {input_.data(), indices_.data()};
    void* const outputs[1] = {expected_.data()};
    const dmlcpu_test::ReferenceResult ref = dmlcpu_test::RunReference(desc_, inputs, outputs);
    EXPECT_TRUE(ref.ok) << ref.error;
  }
  GatherRows(const GatherRows&) = delete;
  GatherRows& operator=(const GatherRows&) = delete;

  const DML_OPERATOR_DESC& desc() const { return desc_; }
  uint64_t output_elems() const { return uint64_t{out_sizes_[0]} * out_sizes_[1]; }
  const std::vector<float>& expected() const { return expected_; }

  dmlcpu::Status Execute(const dmlcpu::CompiledOperator& op, std::vector<float>* output) const {
    output->assign(output_elems(), -1.0f);
    return op.Execute({{input_.data(), input_.size() * sizeof(float)},
                       {indices_.data(), indices_.size() * sizeof(int32_t)}},
                      {{output->data(), output->size() * sizeof(float)}});
  }

 private:
  static void Describe(DML_BUFFER_TENSOR_DESC* d, DML_TENSOR_DATA_TYPE type,
                       const uint32_t* sizes) {
    *d = {};
    d->DataType = type;
    d->DimensionCount = 2;
    d->Sizes = sizes;
    d->TotalTensorSizeInBytes = dmlcpu_test::MinimumTensorSizeBytes(type, 2, sizes, nullptr);
  }

  uint32_t in_sizes_[2];
  uint32_t idx_sizes_[2];
  uint32_t out_sizes_[2];
  std::vector<float> input_;
  std::vector<int32_t> indices_;
  std::vector<float> expected_;
  DML_BUFFER_TENSOR_DESC in_{}, idx_{}, out_{};
  DML_TENSOR_DESC in_t_{}, idx_t_{}, out_t_{};
  DML_GATHER_OPERATOR_DESC gather_{};
  DML_OPERATOR_DESC desc_{};
};

// Counts the threads inside one arena (workers and callers of execute) and the peak.
class ArenaOccupancy : public tbb::task_scheduler_observer {
 public:
  explicit ArenaOccupancy(tbb::task_arena& arena) : tbb::task_scheduler_observer(arena) {
    observe(true);
  }
  ~ArenaOccupancy() override { observe(false); }
  void on_scheduler_entry(bool) override {
    const int now = ++inside_;
    int peak = peak_.load();
    while (now > peak && !peak_.compare_exchange_weak(peak, now)) {
    }
    ++entries_;
  }
  void on_scheduler_exit(bool) override { --inside_; }
  int peak() const { return peak_.load(); }
  int entries() const { return entries_.load(); }

 private:
  std::atomic<int> inside_{0};
  std::atomic<int> peak_{0};
  std::atomic<int> entries_{0};
};

// The threads of this process (-1 when they cannot be listed).
int ThreadCount() {
  int count = 0;
#if defined(_WIN32)
  const HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0);
  if (snapshot == INVALID_HANDLE_VALUE) return -1;
  THREADENTRY32 entry;
  entry.dwSize = sizeof(entry);
  for (BOOL more = Thread32First(snapshot, &entry); more; more = Thread32Next(snapshot, &entry)) {
    if (entry.th32OwnerProcessID == GetCurrentProcessId()) ++count;
  }
  CloseHandle(snapshot);
#else
  DIR* d = opendir("/proc/self/task");
  if (d == nullptr) return -1;
  while (const dirent* e = readdir(d)) {
    if (e->d_name[0] != '.') ++count;
  }
  closedir(d);
#endif
  return count;
}

// Runs `run_once` kRuns times on each of kThreads threads at once; returns how many runs
// returned false.
template <typename RunOnce>
int FailuresFromManyThreads(const RunOnce& run_once) {
  constexpr int kThreads = 6;
  constexpr int kRuns = 3;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int r = 0; r < kRuns; ++r) {
        if (!run_once()) ++failures;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  return failures.load();
}

TEST(ConcurrencyTest, ManyThreadsExecuteOneCompiledOperator) {
  const GatherRows gather(256, 128, 512, 1);  // 256 KiB of output: parallel on a default device
  for (uint32_t max_threads : {0u, 1u, 3u}) {
    SCOPED_TRACE(max_threads);
    dmlcpu::Device device(dmlcpu::DeviceOptions{max_threads, nullptr});
    auto op = device.Compile(gather.desc());
    ASSERT_TRUE(op.ok()) << op.status().message();
    const dmlcpu::CompiledOperator shared = *op;
    EXPECT_EQ(FailuresFromManyThreads([&] {
                std::vector<float> output;
                return gather.Execute(shared, &output).ok() && output == gather.expected();
              }),
              0);
  }
}

// The pool itself: slots are distinct, 64-byte aligned and of at least the asked size; when
// all are out Acquire returns null; a released slot comes back; many threads taking and
// returning slots never share one.
TEST(ScratchPoolTest, SlotsAreExclusive) {
  dmlcpu::internal::ScratchPool pool(1000, 3);
  EXPECT_GE(pool.slot_bytes(), 1000u);
  uint8_t* a = pool.Acquire();
  uint8_t* b = pool.Acquire();
  uint8_t* c = pool.Acquire();
  ASSERT_TRUE(a != nullptr && b != nullptr && c != nullptr);
  EXPECT_TRUE(a != b && b != c && a != c);
  for (uint8_t* p : {a, b, c}) EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  EXPECT_EQ(pool.Acquire(), nullptr);
  pool.Release(b);
  EXPECT_EQ(pool.Acquire(), b);
  pool.Release(a);
  pool.Release(b);
  pool.Release(c);

  dmlcpu::internal::ScratchPool shared(64, 4);
  std::atomic<int> overlaps{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < 2000; ++r) {
        uint8_t* slot = shared.Acquire();
        if (slot == nullptr) continue;
        std::memset(slot, t, 64);
        for (int k = 0; k < 64; ++k) {
          if (slot[k] != static_cast<uint8_t>(t)) ++overlaps;
        }
        shared.Release(slot);
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(overlaps.load(), 0);
}

// GATHER_ELEMENTS along axis 0 of {2048, 640} fp32 with INT32 ids {1024, 640}: a plan that
// packs input strips into the compiled operator's scratch slots (one per device thread, plus
// two). Six callers at once take every slot; the ones finding none read the input directly.
TEST(ConcurrencyTest, PackedStripsWithMoreCallersThanScratchSlots) {
  constexpr uint32_t kRows = 2048, kCols = 640, kOutRows = 1024;
  uint32_t in_sizes[2] = {kRows, kCols}, idx_sizes[2] = {kOutRows, kCols};
  std::mt19937_64 rng(7);
  std::vector<float> input(uint64_t{kRows} * kCols);
  for (float& v : input) v = static_cast<float>(rng() % 100000);
  std::vector<int32_t> indices(uint64_t{kOutRows} * kCols);
  for (int32_t& v : indices) v = static_cast<int32_t>(rng() % kRows);
  DML_BUFFER_TENSOR_DESC in{}, idx{}, out{};
  in.DataType = out.DataType = DML_TENSOR_DATA_TYPE_FLOAT32;
  idx.DataType = DML_TENSOR_DATA_TYPE_INT32;
  in.DimensionCount = idx.DimensionCount = out.DimensionCount = 2;
  in.Sizes = in_sizes;
  idx.Sizes = out.Sizes = idx_sizes;
  in.TotalTensorSizeInBytes = input.size() * sizeof(float);
  idx.TotalTensorSizeInBytes = indices.size() * sizeof(int32_t);
  out.TotalTensorSizeInBytes = indices.size() * sizeof(float);
  const DML_TENSOR_DESC in_t{DML_TENSOR_TYPE_BUFFER, &in}, idx_t{DML_TENSOR_TYPE_BUFFER, &idx},
      out_t{DML_TENSOR_TYPE_BUFFER, &out};
  const DML_GATHER_ELEMENTS_OPERATOR_DESC ge{&in_t, &idx_t, &out_t, 0};
  const DML_OPERATOR_DESC desc{DML_OPERATOR_GATHER_ELEMENTS, &ge};
  std::vector<float> expected(indices.size(), -1.0f);
  const void* inputs[2] = {input.data(), indices.data()};
  void* const outputs[1] = {expected.data()};
  const dmlcpu_test::ReferenceResult ref = dmlcpu_test::RunReference(desc, inputs, outputs);
  ASSERT_TRUE(ref.ok) << ref.error;
  for (uint32_t max_threads : {0u, 1u, 2u}) {
    SCOPED_TRACE(max_threads);
    dmlcpu::Device device(dmlcpu::DeviceOptions{max_threads, nullptr});
    auto op = device.Compile(desc);
    ASSERT_TRUE(op.ok()) << op.status().message();
    ASSERT_NE(op->Describe().find("packing:"), std::string::npos) << op->Describe();
    const dmlcpu::CompiledOperator shared = *op;
    EXPECT_EQ(FailuresFromManyThreads([&] {
                std::vector<float> output(expected.size(), -1.0f);
                const dmlcpu::Status s = shared.Execute(
                    {{input.data(), input.size() * sizeof(float)},
                     {indices.data(), indices.size() * sizeof(int32_t)}},
                    {{output.data(), output.size() * sizeof(float)}});
                return s.ok() && output == expected;
              }),
              0);
  }
}

TEST(ConcurrencyTest, ManyDevicesCompileAndExecuteAtOnce) {
  const GatherRows gather(128, 64, 256, 2);
  constexpr int kThreads = 6;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 2; ++round) {
        dmlcpu::Device device(dmlcpu::DeviceOptions{static_cast<uint32_t>(t % 3), nullptr});
        auto op = device.Compile(gather.desc());
        if (!op.ok()) {
          ++failures;
          continue;
        }
        std::vector<float> output;
        for (int r = 0; r < 3; ++r) {
          if (!gather.Execute(*op, &output).ok() || output != gather.expected()) ++failures;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
}

// One device shared by threads that compile and execute concurrently; operators outlive it.
TEST(ConcurrencyTest, ConcurrentCompileOnOneDeviceAndOperatorsOutliveIt) {
  const GatherRows gather(128, 64, 256, 3);
  std::vector<dmlcpu::CompiledOperator> ops(4);
  {
    dmlcpu::Device device;
    std::vector<std::thread> threads;
    for (size_t t = 0; t < ops.size(); ++t) {
      threads.emplace_back([&, t] {
        auto op = device.Compile(gather.desc());
        if (op.ok()) ops[t] = *op;
      });
    }
    for (std::thread& t : threads) t.join();
  }
  for (const dmlcpu::CompiledOperator& op : ops) {
    ASSERT_TRUE(op.valid());
    std::vector<float> output;
    ASSERT_TRUE(gather.Execute(op, &output).ok());
    EXPECT_EQ(output, gather.expected());
  }
}

#if defined(DMLCPU_TEST_PRIVATE_TBB)
// dmlcpu.dll (Windows) links its own oneTBB, so the caller's arena is refused, by name.
TEST(ConcurrencyTest, CallerArenaRefusedByDllWithPrivateTbb) {
  tbb::task_arena arena(2);
  dmlcpu::DeviceOptions options;
  dmlcpu::SetTbbArena(options, &arena);
  auto device = dmlcpu::Device::Create(options);
  ASSERT_FALSE(device.ok());
  EXPECT_NE(device.status().message().find("DeviceOptions.tbb_arena"), std::string::npos)
      << device.status().message();
  EXPECT_EQ(device.status().code(), dmlcpu::StatusCode::kUnsupported);
  // The constructor cannot fail: every Compile reports it, as for other inconsistent options.
  const GatherRows gather(64, 16, 32, 4);
  dmlcpu::Device unchecked(options);
  auto op = unchecked.Compile(gather.desc());
  ASSERT_FALSE(op.ok());
  EXPECT_EQ(op.status().message(), device.status().message());
}
#else
TEST(ConcurrencyTest, CallerArenaLimitsThreads) {
  const GatherRows gather(256, 128, 512, 4);  // 256 KiB of output
  constexpr int kLimit = 2;
  tbb::task_arena arena(kLimit);
  arena.initialize();
  ArenaOccupancy occupancy(arena);
  dmlcpu::DeviceOptions options;
  dmlcpu::SetTbbArena(options, &arena);
  ASSERT_EQ(dmlcpu::GetTbbArena(options), &arena);
  dmlcpu::Device device(options);
  EXPECT_LE(device.max_concurrency(), static_cast<uint32_t>(kLimit));
  auto op = device.Compile(gather.desc());
  ASSERT_TRUE(op.ok()) << op.status().message();
  std::vector<float> output;
  for (int r = 0; r < 4; ++r) {
    ASSERT_TRUE(gather.Execute(*op, &output).ok());
    ASSERT_EQ(output, gather.expected());
  }
  // From several caller threads at once: still never more than kLimit threads inside.
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&] {
      std::vector<float> out;
      for (int r = 0; r < 2; ++r) {
        if (!gather.Execute(*op, &out).ok() || out != gather.expected()) ++failures;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_GE(occupancy.entries(), 1) << "Execute never entered the caller's arena";
  EXPECT_LE(occupancy.peak(), kLimit);
}

TEST(ConcurrencyTest, ExecuteInsideCallersParallelForDoesNotDeadlock) {
  const GatherRows gather(128, 128, 256, 5);
  constexpr int kLimit = 2;
  tbb::task_arena arena(kLimit);
  arena.initialize();
  ArenaOccupancy occupancy(arena);
  dmlcpu::DeviceOptions options;
  dmlcpu::SetTbbArena(options, &arena);
  ASSERT_EQ(dmlcpu::GetTbbArena(options), &arena);
  dmlcpu::Device device(options);
  auto op = device.Compile(gather.desc());
  ASSERT_TRUE(op.ok()) << op.status().message();
  constexpr int kTasks = 12;
  std::vector<std::vector<float>> outputs(kTasks);
  std::atomic<int> failures{0};
  arena.execute([&] {
    tbb::parallel_for(0, kTasks, [&](int i) {
      if (!gather.Execute(*op, &outputs[i]).ok()) ++failures;
    });
  });
  EXPECT_EQ(failures.load(), 0);
  for (const std::vector<float>& output : outputs) EXPECT_EQ(output, gather.expected());
  EXPECT_LE(occupancy.peak(), kLimit);

  // The same from the caller's implicit arena with a device that owns its pool.
  dmlcpu::Device own_pool;
  auto op2 = own_pool.Compile(gather.desc());
  ASSERT_TRUE(op2.ok());
  tbb::parallel_for(0, kTasks, [&](int i) {
    if (!gather.Execute(*op2, &outputs[i]).ok()) ++failures;
  });
  EXPECT_EQ(failures.load(), 0);
  for (const std::vector<float>& output : outputs) EXPECT_EQ(output, gather.expected());
}
#endif  // DMLCPU_TEST_PRIVATE_TBB

// max_threads = 1 must not touch TBB: in a fresh process (threadsafe death-test style re-runs
// the binary), many Executes of large operators create no thread at all.
TEST(ConcurrencyDeathTest, SerialDeviceStartsNoThreads) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        const int before = ThreadCount();
        {
          const GatherRows gather(1024, 256, 2048, 6);  // 2 MiB of output
          dmlcpu::Device device(dmlcpu::DeviceOptions{1, nullptr});
          auto op = device.Compile(gather.desc());
          if (!op.ok()) std::exit(2);
          std::vector<float> output;
          for (int r = 0; r < 4; ++r) {
            if (!gather.Execute(*op, &output).ok() || output != gather.expected()) std::exit(3);
          }
        }
        const int after = ThreadCount();
        std::fprintf(stderr, "threads before %d after %d\n", before, after);
        std::exit(before < 1 ? 5 : after == before ? 0 : 4);
      },
      ::testing::ExitedWithCode(0), "threads before");
}

}  // namespace
