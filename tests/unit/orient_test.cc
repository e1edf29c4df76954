// SPDX-License-Identifier: Apache-2.0
// OrientForInputStream (planner.h): which copy steps get loops walked backwards, and that a
// reoriented step still pairs every output element with the same input element.
#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "planner/planner.h"

namespace dmlcpu {
namespace internal {
namespace {

// A row-of-runs copy step over `loops` (outermost first) of 4-byte elements.
Step CopyStep(const std::vector<Loop>& loops, int64_t in_base_bytes, int64_t out_base_bytes) {
  Step step;
  step.kind = StepKind::kAffineCopy;
  step.out_base_bytes = out_base_bytes;
  Plan& plan = step.plan;
  plan.elem_bytes = 4;
  plan.in_base_bytes = in_base_bytes;
  plan.loop_count = static_cast<uint32_t>(loops.size());
  for (size_t i = 0; i < loops.size(); ++i) plan.loops[i] = loops[i];
  const Loop& row = loops.back();
  plan.strategy = row.in_stride_bytes == 4 ? Strategy::kRowsOfRuns : Strategy::kStridedRows;
  return step;
}

// Orients `step` as the one step of a program.
void Orient(Step* step) {
  Program program;
  program.steps.push_back(*step);
  OrientForInputStream(&program);
  *step = program.steps[0];
}

// Every (output byte, input byte) pair the step copies, in walk order.
std::vector<std::pair<int64_t, int64_t>> Walk(const Step& step) {
  const Plan& plan = step.plan;
  std::vector<std::pair<int64_t, int64_t>> pairs;
  std::vector<int64_t> c(plan.loop_count, 0);
  for (;;) {
    int64_t out = step.out_base_bytes, in = plan.in_base_bytes;
    for (uint32_t d = 0; d < plan.loop_count; ++d) {
      out += c[d] * plan.loops[d].out_stride_bytes;
      in += c[d] * plan.loops[d].in_stride_bytes;
    }
    pairs.emplace_back(out, in);
    uint32_t d = plan.loop_count;
    while (d-- > 0 && ++c[d] == plan.loops[d].size) c[d] = 0;
    if (d == ~uint32_t{0}) return pairs;
  }
}

TEST(OrientTest, VerticalFlipReadsRowsInAddressOrder) {
  // {8, 16} fp32 flipped on axis 0: rows read from the last, 64 bytes apart.
  Step step = CopyStep({{8, 64, -64, 0}, {16, 4, 4, 0}}, 7 * 64, 0);
  Orient(&step);
  EXPECT_EQ(step.plan.in_base_bytes, 0);
  EXPECT_EQ(step.out_base_bytes, 7 * 64);  // the last output row is written first
  EXPECT_EQ(step.plan.loops[0].in_stride_bytes, 64);
  EXPECT_EQ(step.plan.loops[0].out_stride_bytes, -64);
  EXPECT_EQ(step.plan.loops[1].out_stride_bytes, 4);  // the row itself is never turned
}

TEST(OrientTest, HorizontalFlipReadsOneDescendingStream) {
  // {8, 16} fp32 flipped on axis 1: each row read downwards, so the rows go from the last.
  Step step = CopyStep({{8, 64, 64, 0}, {16, 4, -4, 0}}, 15 * 4, 0);
  Orient(&step);
  EXPECT_EQ(step.plan.in_base_bytes, 7 * 64 + 15 * 4);
  EXPECT_EQ(step.plan.loops[0].in_stride_bytes, -64);
  EXPECT_EQ(step.plan.loops[0].out_stride_bytes, -64);
  EXPECT_EQ(step.out_base_bytes, 7 * 64);
  const auto pairs = Walk(step);
  for (size_t i = 1; i < pairs.size(); ++i) {
    ASSERT_EQ(pairs[i].second, pairs[i - 1].second - 4) << i;  // one contiguous stream
  }
}

TEST(OrientTest, LeavesForwardAndBroadcastLoopsAlone) {
  // A forward copy, and a broadcast (input stride 0) loop above a forward row.
  for (const std::vector<Loop>& loops :
       {std::vector<Loop>{{8, 64, 64, 0}, {16, 4, 4, 0}},
        std::vector<Loop>{{3, 512, 0, 0}, {8, 64, 64, 0}, {16, 4, 4, 0}}}) {
    Step step = CopyStep(loops, 0, 0);
    Orient(&step);
    EXPECT_EQ(step.out_base_bytes, 0);
    for (size_t d = 0; d < loops.size(); ++d) {
      EXPECT_EQ(step.plan.loops[d].out_stride_bytes, loops[d].out_stride_bytes) << d;
      EXPECT_EQ(step.plan.loops[d].in_stride_bytes, loops[d].in_stride_bytes) << d;
    }
  }
}

TEST(OrientTest, LeavesStepsItDoesNotOwnAlone) {
  const std::vector<Loop> flip = {{8, 64, -64, 0}, {16, 4, 4, 0}};
  Program program;
  std::vector<Step>& steps = program.steps;
  steps.push_back(CopyStep(flip, 7 * 64, 0));
  steps.back().kind = StepKind::kFill;
  steps.push_back(CopyStep(flip, 7 * 64, 0));
  steps.back().source = StepSource::kOutput;  // reads what earlier steps wrote
  // A co-run group of two (walked beside each other's rows): both steps, the last included.
  steps.push_back(CopyStep(flip, 7 * 64, 0));
  steps.back().co_run_with_next = true;
  steps.push_back(CopyStep(flip, 7 * 64, 0));
  steps.push_back(CopyStep(flip, 7 * 64, 0));
  steps.back().plan.tiling = Tiling::kTransposeTiles;
  steps.push_back(CopyStep(flip, 7 * 64, 0));
  steps.back().plan.borders.top_rows = 1;
  steps.push_back(CopyStep(flip, 7 * 64, 0));
  steps.back().plan.store.staged_lines = true;
  steps.push_back(CopyStep(flip, 7 * 64, 0));
  steps.back().plan.strategy = Strategy::kElementRows;
  steps.push_back(CopyStep(flip, 7 * 64, 0));  // a plain flip after them all: turned
  OrientForInputStream(&program);
  for (size_t k = 0; k + 1 < steps.size(); ++k) {
    EXPECT_EQ(steps[k].plan.in_base_bytes, 7 * 64) << k;
    EXPECT_EQ(steps[k].plan.loops[0].out_stride_bytes, 64) << k;
  }
  EXPECT_EQ(steps.back().plan.in_base_bytes, 0);
  EXPECT_EQ(steps.back().plan.loops[0].out_stride_bytes, -64);
}

// Random nests of up to four loops with strides of either sign: the reoriented step copies
// the same (output, input) pairs, and every loop above the row reads along the row's direction.
TEST(OrientTest, KeepsEveryPairOnRandomNests) {
  std::mt19937 rng(37);
  for (int round = 0; round < 300; ++round) {
    const uint32_t count = 1 + rng() % 4;
    std::vector<Loop> loops(count);
    int64_t in_base_bytes = 0, out_span_bytes = 4, in_span_bytes = 4;
    for (uint32_t k = count; k-- > 0;) {
      Loop& l = loops[k];
      l.size = 1 + static_cast<int64_t>(rng() % 4);
      l.out_stride_bytes = k + 1 == count ? 4 : out_span_bytes;
      const int sign = rng() % 3 == 0 ? 0 : (rng() % 2 == 0 ? 1 : -1);
      l.in_stride_bytes = sign * in_span_bytes;
      if (k + 1 == count && sign == 0) l.in_stride_bytes = 4;
      if (l.in_stride_bytes < 0) in_base_bytes += (l.size - 1) * -l.in_stride_bytes;
      out_span_bytes *= l.size;
      in_span_bytes *= l.size;
    }
    Step step = CopyStep(loops, in_base_bytes, 0);
    auto before = Walk(step);
    Orient(&step);
    auto after = Walk(step);
    std::sort(before.begin(), before.end());
    std::sort(after.begin(), after.end());
    ASSERT_EQ(before, after) << "round " << round;
    const int64_t row_in_stride_bytes = step.plan.loops[count - 1].in_stride_bytes;
    for (uint32_t k = 0; k + 1 < count; ++k) {
      const Loop& l = step.plan.loops[k];
      if (l.size > 1) {
        EXPECT_GE(l.in_stride_bytes * row_in_stride_bytes, 0) << "round " << round << " loop " << k;
      }
    }
  }
}

}  // namespace
}  // namespace internal
}  // namespace dmlcpu
