// SPDX-License-Identifier: Apache-2.0
// What the planner suites share: descriptors that own their arrays, and one-step programs
// compiled to their plan with the plan invariants checked.
#ifndef DMLCPU_TESTS_UNIT_PLAN_TEST_UTIL_H_
#define DMLCPU_TESTS_UNIT_PLAN_TEST_UTIL_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "planner/planner.h"

namespace dmlcpu {
namespace internal {
namespace plan_test {

// Owns the arrays a descriptor points at.
struct Tensor {
  Tensor(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> sizes_in,
         std::vector<uint32_t> strides_in = {})
      : sizes(std::move(sizes_in)), strides(std::move(strides_in)) {
    buffer.DataType = type;
    buffer.Flags = DML_TENSOR_FLAG_NONE;
    buffer.DimensionCount = static_cast<uint32_t>(sizes.size());
    buffer.Sizes = sizes.data();
    buffer.Strides = strides.empty() ? nullptr : strides.data();
    buffer.TotalTensorSizeInBytes = CalcTensorBytes(type, buffer.DimensionCount, sizes.data(),
                                                    buffer.Strides);
    buffer.GuaranteedBaseOffsetAlignment = 0;
    desc = {DML_TENSOR_TYPE_BUFFER, &buffer};
  }
  Tensor(const Tensor&) = delete;
  std::vector<uint32_t> sizes, strides;
  DML_BUFFER_TENSOR_DESC buffer;
  DML_TENSOR_DESC desc;
};

// Compiles `desc` into its program (a single step for today's operators) and returns that
// step's plan in *plan after checking the plan's invariants (a failure of the calling test).
inline Status CompilePlan(const DML_OPERATOR_DESC& desc, bool strict_indices, Plan* plan,
                          uint32_t concurrency = 0, Program* program_out = nullptr) {
  Program program;
  PlanSettings settings;
  settings.strict_indices = strict_indices;
  settings.concurrency = concurrency;
  const Status s = CompileProgram(desc, settings, &program);
  if (!s.ok()) return s;
  EXPECT_EQ(program.steps.size(), 1u);
  *plan = program.steps[0].plan;
  const Status invariants = CheckPlanInvariants(*plan);
  EXPECT_TRUE(invariants.ok()) << invariants.message() << "\n" << DescribeProgram(program);
  if (program_out != nullptr) *program_out = program;
  return s;
}

inline Plan CompileSlice1(const Tensor& in, const Tensor& out, std::vector<uint32_t> offsets,
                          std::vector<uint32_t> sizes, std::vector<int32_t> strides) {
  DML_SLICE1_OPERATOR_DESC slice = {&in.desc, &out.desc, static_cast<uint32_t>(offsets.size()),
                                    offsets.data(), sizes.data(), strides.data()};
  Plan plan;
  const Status s = CompilePlan({DML_OPERATOR_SLICE1, &slice}, false, &plan);
  EXPECT_TRUE(s.ok()) << s.message();
  return plan;
}

// GATHER_ELEMENTS along axis 0 of a {rows, cols} input of `type` with int64 ids, `out_rows`
// output rows, planned for `concurrency` threads.
inline Plan AxisZeroGatherElementsPlan(DML_TENSOR_DATA_TYPE type, uint32_t rows, uint32_t cols,
                                       uint32_t out_rows, uint32_t concurrency = 0) {
  Tensor in(type, {rows, cols});
  Tensor idx(DML_TENSOR_DATA_TYPE_INT64, {out_rows, cols});
  Tensor out(type, {out_rows, cols});
  DML_GATHER_ELEMENTS_OPERATOR_DESC ge = {&in.desc, &idx.desc, &out.desc, 0};
  Plan plan;
  const Status status =
      CompilePlan({DML_OPERATOR_GATHER_ELEMENTS, &ge}, false, &plan, concurrency);
  EXPECT_TRUE(status.ok()) << status.message();
  return plan;
}

}  // namespace plan_test
}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_TESTS_UNIT_PLAN_TEST_UTIL_H_
