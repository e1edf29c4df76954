// SPDX-License-Identifier: Apache-2.0
// CompiledOperator as an engine holds it: one operator executed from four threads at once, and
// an operator that outlives the descriptor it was compiled from.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/dmlcpu.h"
#include "support/devices.h"
#include "support/moderate_cases.h"
#include "support/tester.h"

namespace dmlcpu_test {
namespace {

TEST(CompiledOperatorTest, ConcurrentExecuteFromFourThreads) {
  constexpr int kThreads = 4;
  constexpr int kRepeats = 6;
  for (const auto& op_case : ModerateGatherSliceCases()) {
    ASSERT_NE(op_case, nullptr);
    SCOPED_TRACE(op_case->description);
    const CaseBuffers buffers = PrepareBuffers(*op_case, 77);
    ASSERT_TRUE(buffers.reference.ok) << buffers.reference.error;
    for (const dmlcpu::Device* device : DevicesWithEnginePool()) {
      dmlcpu::StatusOr<dmlcpu::CompiledOperator> compiled = device->Compile(op_case->op_desc);
      ASSERT_TRUE(compiled.ok()) << compiled.status().message();
      const dmlcpu::CompiledOperator op = compiled.value();
      const std::vector<dmlcpu::Binding> inputs = InputBindings(*op_case, buffers);
      std::vector<std::string> errors(kThreads);
      std::atomic<int> ready{0};
      std::vector<std::thread> threads;
      for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
          std::vector<GuardedBuffer> outputs = MakeOutputBuffers(*op_case);
          ready.fetch_add(1);
          while (ready.load() < kThreads) std::this_thread::yield();  // start together
          for (int repeat = 0; repeat < kRepeats && errors[t].empty(); ++repeat) {
            FillSentinels(&outputs);
            const std::vector<dmlcpu::OutputBinding> bindings = OutputBindings(*op_case, &outputs);
            const dmlcpu::Status status =
                op.Execute(inputs.data(), inputs.size(), bindings.data(), bindings.size());
            if (!status.ok()) {
              errors[t] = "Execute failed: " + status.message();
            } else {
              errors[t] = DiffOutputs(*op_case, buffers.expected, outputs);
            }
          }
        });
      }
      for (std::thread& thread : threads) thread.join();
      for (int t = 0; t < kThreads; ++t) {
        EXPECT_TRUE(errors[t].empty()) << "thread " << t << ", max_concurrency "
                                       << device->max_concurrency() << ": " << errors[t];
      }
    }
  }
}

TEST(CompiledOperatorTest, CompileDeepCopiesDescriptor) {
  std::vector<std::unique_ptr<OperatorCase>> kept = ModerateGatherSliceCases();
  std::vector<std::unique_ptr<OperatorCase>> doomed = ModerateGatherSliceCases();
  for (size_t i = 0; i < kept.size(); ++i) {
    ASSERT_NE(kept[i], nullptr);
    SCOPED_TRACE(kept[i]->description);
    const CaseBuffers buffers = PrepareBuffers(*kept[i], 99);
    ASSERT_TRUE(buffers.reference.ok) << buffers.reference.error;
    for (const dmlcpu::Device* device : DevicesWithEnginePool()) {
      std::unique_ptr<OperatorCase> victim = std::move(doomed[i]);
      if (victim == nullptr) victim = std::move(ModerateGatherSliceCases()[i]);
      dmlcpu::StatusOr<dmlcpu::CompiledOperator> compiled = device->Compile(victim->op_desc);
      ASSERT_TRUE(compiled.ok()) << compiled.status().message();
      // Overwrite every array and struct of the descriptor, then free it.
      victim->Scribble();
      victim.reset();
      std::vector<std::vector<uint32_t>> reuse(64, std::vector<uint32_t>(16, 0xFFFFFFFFu));
      EXPECT_EQ(compiled->type(), kept[i]->op_desc.Type);
      EXPECT_EQ(compiled->input_count(), kept[i]->inputs.size());
      EXPECT_FALSE(compiled->Describe().empty());
      std::vector<GuardedBuffer> outputs = MakeOutputBuffers(*kept[i]);
      const std::vector<dmlcpu::Binding> inputs = InputBindings(*kept[i], buffers);
      const std::vector<dmlcpu::OutputBinding> bindings = OutputBindings(*kept[i], &outputs);
      const dmlcpu::Status status =
          compiled->Execute(inputs.data(), inputs.size(), bindings.data(), bindings.size());
      ASSERT_TRUE(status.ok()) << status.message();
      const std::string diff = DiffOutputs(*kept[i], buffers.expected, outputs);
      EXPECT_TRUE(diff.empty()) << diff;
    }
  }
}

}  // namespace
}  // namespace dmlcpu_test
