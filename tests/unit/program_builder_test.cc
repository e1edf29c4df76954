// SPDX-License-Identifier: Apache-2.0
// ProgramBuilder and the executor's step kinds: explicit-loop copies between several bindings,
// fills of every width, output -> output copies, reversed output loops, and the bounds the
// builder refuses. Programs are run through the executor directly, on one and two threads.
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "dmlcpu/dmlcpu.h"
#include "executor/executor.h"
#include "gtest/gtest.h"
#include "planner/program_builder.h"

namespace dmlcpu {
namespace internal {
namespace {

// A packed tensor of `elem_bytes`-wide unsigned elements.
TensorInfo Packed(uint32_t elem_bytes, std::vector<uint32_t> sizes) {
  TensorInfo t;
  t.data_type = elem_bytes == 1   ? DML_TENSOR_DATA_TYPE_UINT8
                : elem_bytes == 2 ? DML_TENSOR_DATA_TYPE_UINT16
                : elem_bytes == 4 ? DML_TENSOR_DATA_TYPE_UINT32
                                  : DML_TENSOR_DATA_TYPE_UINT64;
  t.elem_bytes = elem_bytes;
  t.rank = static_cast<uint32_t>(sizes.size());
  uint64_t count = 1;
  for (uint32_t d = t.rank; d-- > 0;) {
    t.sizes[d] = sizes[d];
    t.strides_elems[d] = count;
    count *= sizes[d];
  }
  t.total_bytes = t.required_bytes = count * elem_bytes;
  return t;
}

LoopNest Nest(uint32_t elem_bytes, std::vector<int64_t> sizes, std::vector<int64_t> in_strides,
              std::vector<int64_t> out_strides, int64_t in_base = 0, int64_t out_base = 0) {
  LoopNest nest;
  nest.elem_bytes = elem_bytes;
  nest.loop_count = static_cast<uint32_t>(sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    nest.sizes[i] = sizes[i];
    nest.in_strides_bytes[i] = in_strides.empty() ? 0 : in_strides[i];
    nest.out_strides_bytes[i] = out_strides[i];
  }
  nest.in_base_bytes = in_base;
  nest.out_base_bytes = out_base;
  return nest;
}

void RunSteps(const Program& program, uint32_t threads, const std::vector<const void*>& inputs,
         const std::vector<void*>& outputs) {
  for (const Step& step : program.steps) {
    const Status s = CheckPlanInvariants(step.plan);
    EXPECT_TRUE(s.ok()) << s.message();
  }
  ExecutorOptions options;
  options.max_threads = threads;
  Executor executor(options);
  std::vector<Binding> in;
  std::vector<OutputBinding> out;
  for (const void* p : inputs) in.push_back({p, 0});
  for (void* p : outputs) out.push_back({p, 0});
  executor.RunProgram(program, in.data(), out.data(), nullptr);
}

TEST(ProgramBuilderTest, TwoInputsIntoWindowsOfOneOutput) {
  // JOIN-like: A {3,5} and B {3,2} side by side in a {3,7} output.
  Program program;
  ProgramBuilder b(PlanSettings(), &program);
  program.geometry.name = "TEST";
  const uint32_t a = b.AddInput("A", Packed(4, {3, 5}));
  const uint32_t c = b.AddInput("B", Packed(4, {3, 2}));
  const uint32_t out = b.AddOutput("OUT", Packed(4, {3, 7}));
  ASSERT_TRUE(b.AddCopy(StepSource::kInput, a, out, Nest(4, {3, 5}, {20, 4}, {28, 4})).ok());
  ASSERT_TRUE(
      b.AddCopy(StepSource::kInput, c, out, Nest(4, {3, 2}, {8, 4}, {28, 4}, 0, 20)).ok());
  EXPECT_EQ(program.input_count, 2u);
  EXPECT_EQ(program.output_count, 1u);
  ASSERT_EQ(program.steps.size(), 2u);
  EXPECT_EQ(program.steps[1].out_base_bytes, 20);
  std::vector<uint32_t> va(15), vb(6);
  for (uint32_t i = 0; i < 15; ++i) va[i] = 100 + i;
  for (uint32_t i = 0; i < 6; ++i) vb[i] = 200 + i;
  for (uint32_t threads : {1u, 2u}) {
    std::vector<uint32_t> result(21, 0xDEADBEEF);
    RunSteps(program, threads, {va.data(), vb.data()}, {result.data()});
    for (uint32_t r = 0; r < 3; ++r) {
      for (uint32_t j = 0; j < 7; ++j) {
        const uint32_t expected = j < 5 ? va[r * 5 + j] : vb[r * 2 + (j - 5)];
        EXPECT_EQ(result[r * 7 + j], expected) << "row " << r << " column " << j;
      }
    }
  }
}

// SPLIT-like: one {rows, parts * 16} input into `parts` {rows, 16} outputs, large enough to be
// parallel in many grains. Equal partitions co-run in groups of at most kMaxCoRunSteps; the
// interleaved run writes what running the steps one after another writes, on any thread count.
TEST(ProgramBuilderTest, CoRunGroupsOfEqualStepsMatchTheSequentialResult) {
  constexpr uint32_t kRows = 4096, kCols = 16;
  for (const uint32_t parts : {2u, 3u, 10u}) {
    Program program;
    ProgramBuilder b(PlanSettings(), &program);
    program.geometry.name = "TEST";
    const uint32_t in = b.AddInput("IN", Packed(4, {kRows, parts * kCols}));
    std::vector<uint32_t> outs(parts);
    for (uint32_t k = 0; k < parts; ++k) {
      outs[k] = b.AddOutput("OUT" + std::to_string(k), Packed(4, {kRows, kCols}));
      const int64_t row_bytes = int64_t{parts} * kCols * 4;
      ASSERT_TRUE(b.AddCopy(StepSource::kInput, in, outs[k],
                            Nest(4, {kRows, kCols}, {row_bytes, 4}, {kCols * 4, 4}, k * kCols * 4))
                      .ok());
    }
    b.CoRunIndependentSteps();
    ASSERT_EQ(program.steps.size(), parts);
    ASSERT_TRUE(program.steps[0].plan.partition.parallel);
    for (uint32_t k = 0; k < parts; ++k) {
      // Groups of kMaxCoRunSteps: every step but each group's last runs with the next.
      const bool expected = k + 1 < parts && (k + 1) % kMaxCoRunSteps != 0;
      EXPECT_EQ(program.steps[k].co_run_with_next, expected) << parts << " parts, step " << k;
    }
    std::vector<uint32_t> input(size_t{kRows} * parts * kCols);
    for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<uint32_t>(i * 2654435761u);
    for (const uint32_t threads : {1u, 2u, 3u}) {
      std::vector<std::vector<uint32_t>> results(parts,
                                                 std::vector<uint32_t>(kRows * kCols, 0xDEADBEEF));
      std::vector<void*> out_ptrs;
      for (auto& r : results) out_ptrs.push_back(r.data());
      RunSteps(program, threads, {input.data()}, out_ptrs);
      for (uint32_t k = 0; k < parts; ++k) {
        for (uint32_t r = 0; r < kRows; ++r) {
          for (uint32_t j = 0; j < kCols; ++j) {
            ASSERT_EQ(results[k][r * kCols + j], input[(size_t{r} * parts + k) * kCols + j])
                << parts << " parts, " << threads << " threads, output " << k << " row " << r
                << " column " << j;
          }
        }
      }
    }
  }
}

// SPLIT-like groups whose members copy whole rows of unequal widths and loop structures: a
// packed output (one line of every row), an output in blocks of 7 rows with a 64-byte gap after
// each block (lines of 7 rows), and a third packed one (or with a gap after every element: then
// the group runs a grain of each step in turn). Rows of every width run row by row or in batches
// of rows (CoRunsByRow), on regular and non-temporal stores, over unit ranges that start
// mid-line (given directly, and as 2, 3 and 7 threads split them). The gaps keep their bytes.
TEST(ProgramBuilderTest, CoRunByRowWritesWhatTheStepsWriteOneAfterAnother) {
  constexpr uint32_t kRows = 8400, kBlockRows = 7, kGapBytes = 64;
  Tuning streaming = kDefaultTuning;
  streaming.stream_threshold_bytes = 0;
  // Row widths in 4-byte items of the three outputs: in batches of several rows (the shortest
  // row under Tuning::kCoRunRowByRowBytes; rows of exactly one copy, two overlapping copies of
  // each width, and copy_run), one row at a time; the last set with a gapped third output.
  const std::vector<std::vector<uint32_t>> width_sets = {
      {2, 3, 5}, {4, 8, 12}, {8, 12, 16}, {16, 18, 130}, {32, 40, 33}, {8, 16, 24}};
  for (const Tuning* tuning : {&kDefaultTuning, static_cast<const Tuning*>(&streaming)}) {
    for (const std::vector<uint32_t>& widths : width_sets) {
      const bool gapped = &widths == &width_sets.back();
      SCOPED_TRACE("widths " + std::to_string(widths[0]) + "/" + std::to_string(widths[1]) + "/" +
                   std::to_string(widths[2]) + (gapped ? " gapped" : "") +
                   (tuning == &streaming ? ", streamed" : ""));
      const uint32_t in_cols = widths[0] + widths[1] + widths[2];
      const int64_t in_row_bytes = int64_t{in_cols} * 4;
      Program program;
      PlanSettings settings;
      settings.tuning = tuning;
      ProgramBuilder b(settings, &program);
      program.geometry.name = "TEST";
      const uint32_t in = b.AddInput("IN", Packed(4, {kRows, in_cols}));
      // Output k's byte size and the nest writing it.
      std::vector<size_t> out_bytes(3);
      int64_t col_bytes = 0;
      for (uint32_t k = 0; k < 3; ++k) {
        const int64_t row_bytes = int64_t{widths[k]} * 4;
        if (k == 1) {
          const int64_t block_bytes = kBlockRows * row_bytes + kGapBytes;
          out_bytes[k] = static_cast<size_t>(kRows / kBlockRows * block_bytes);
          TensorInfo t = Packed(4, {static_cast<uint32_t>(out_bytes[k] / 4)});
          const uint32_t o = b.AddOutput("OUT1", t);
          ASSERT_TRUE(b.AddCopy(StepSource::kInput, in, o,
                                Nest(4, {kRows / kBlockRows, kBlockRows, widths[k]},
                                     {kBlockRows * in_row_bytes, in_row_bytes, 4},
                                     {block_bytes, row_bytes, 4}, col_bytes))
                          .ok());
        } else {
          const int64_t item_bytes = k == 2 && gapped ? 8 : 4;  // an element, then its gap
          const int64_t out_row_bytes = widths[k] * item_bytes;
          out_bytes[k] = size_t{kRows} * static_cast<size_t>(out_row_bytes);
          const uint32_t o = b.AddOutput(
              "OUT" + std::to_string(k), Packed(4, {static_cast<uint32_t>(out_bytes[k] / 4)}));
          ASSERT_TRUE(b.AddCopy(StepSource::kInput, in, o,
                                Nest(4, {kRows, widths[k]}, {in_row_bytes, 4},
                                     {out_row_bytes, item_bytes}, col_bytes))
                          .ok());
        }
        col_bytes += row_bytes;
      }
      b.CoRunIndependentSteps();
      ASSERT_EQ(program.steps.size(), 3u);
      ASSERT_TRUE(program.steps[0].co_run_with_next && program.steps[1].co_run_with_next);
      ASSERT_TRUE(program.steps[0].plan.partition.parallel);
      const bool by_row = !gapped;
      for (uint32_t k = 0; k < 3; ++k) {
        EXPECT_EQ(CoRunsByRow(program.steps[k].plan), k < 2 || !gapped) << "step " << k;
        EXPECT_EQ(program.steps[k].plan.co_run_by_row, by_row) << "step " << k;
        if (k < 2 || !gapped) {
          EXPECT_EQ(program.steps[k].plan.store.non_temporal, tuning == &streaming) << "step " << k;
        }
      }
      std::vector<uint32_t> input(size_t{kRows} * in_cols);
      for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<uint32_t>(i * 2654435761u);
      // threads 0: RunUnits called directly on unit ranges that start mid-line (any build).
      for (const uint32_t threads : {0u, 1u, 2u, 3u, 7u}) {
        std::vector<std::vector<uint8_t>> results(3);
        std::vector<void*> out_ptrs;
        for (uint32_t k = 0; k < 3; ++k) {
          results[k].assign(out_bytes[k], 0xA5);
          out_ptrs.push_back(results[k].data());
        }
        if (threads == 0) {
          const auto args_of = [&](uint32_t k, const CoRunStep* next) {
            return ExecArgs{reinterpret_cast<const uint8_t*>(input.data()), nullptr,
                            results[k].data() + program.steps[k].out_base_bytes, nullptr, next};
          };
          CoRunStep group[2];
          group[1] = {&program.steps[2].plan, args_of(2, nullptr)};
          group[0] = {&program.steps[1].plan, args_of(1, &group[1])};
          const ExecArgs args = args_of(0, &group[0]);
          for (const auto& [begin, end] : std::vector<std::pair<uint64_t, uint64_t>>{
                   {0, 3}, {3, 1000}, {1000, 1001}, {1001, 1012}, {1012, kRows}}) {
            RunUnits(program.steps[0].plan, args, begin, end);
          }
        } else {
          RunSteps(program, threads, {input.data()}, out_ptrs);
        }
        uint32_t first_col = 0;
        for (uint32_t k = 0; k < 3; ++k) {
          // The expected bytes of output k, gaps 0xA5.
          std::vector<uint8_t> expected(out_bytes[k], 0xA5);
          const size_t row_bytes = size_t{widths[k]} * 4;
          for (uint32_t r = 0; r < kRows; ++r) {
            const uint32_t* from = input.data() + size_t{r} * in_cols + first_col;
            if (k == 2 && gapped) {  // element j at byte 8 j of a row of 8 * widths[k] bytes
              for (uint32_t j = 0; j < widths[k]; ++j) {
                std::memcpy(expected.data() + (size_t{r} * widths[k] + j) * 8, from + j, 4);
              }
              continue;
            }
            const size_t at = k == 1 ? r / kBlockRows * (kBlockRows * row_bytes + kGapBytes) +
                                           r % kBlockRows * row_bytes
                                     : r * row_bytes;
            std::memcpy(expected.data() + at, from, row_bytes);
          }
          ASSERT_EQ(results[k], expected) << threads << " threads, output " << k
                                          << (by_row ? " (row by row)" : "");
          first_col += widths[k];
        }
      }
    }
  }
}

// Steps of different unit counts (a JOIN of unequal parts along an outer axis) stay apart.
TEST(ProgramBuilderTest, StepsOfDifferentPartitionsDoNotCoRun) {
  Program program;
  ProgramBuilder b(PlanSettings(), &program);
  program.geometry.name = "TEST";
  const uint32_t a = b.AddInput("A", Packed(4, {3, 5}));
  const uint32_t c = b.AddInput("B", Packed(4, {2, 5}));
  const uint32_t out = b.AddOutput("OUT", Packed(4, {5, 8}));
  ASSERT_TRUE(b.AddCopy(StepSource::kInput, a, out, Nest(4, {3, 5}, {20, 4}, {32, 4})).ok());
  ASSERT_TRUE(b.AddCopy(StepSource::kInput, c, out, Nest(4, {2, 5}, {20, 4}, {32, 4}, 0, 96)).ok());
  b.CoRunIndependentSteps();
  ASSERT_EQ(program.steps.size(), 2u);
  EXPECT_NE(program.steps[0].plan.partition.unit_count, program.steps[1].plan.partition.unit_count);
  EXPECT_FALSE(program.steps[0].co_run_with_next);
  EXPECT_FALSE(program.steps[1].co_run_with_next);
}

TEST(ProgramBuilderTest, FillWritesTheBitPatternOfEveryWidth) {
  // -0.0, NaN payloads and 64-bit integers: the bits, not a value conversion.
  const uint64_t patterns[4] = {0xAB, 0x8001, 0x7FC00001, 0x8000000000000001};
  const uint32_t widths[4] = {1, 2, 4, 8};
  for (int k = 0; k < 4; ++k) {
    const uint32_t w = widths[k];
    for (uint32_t count : {1u, 7u, 1000u, 300000u}) {  // 300000: above the serial cutoff
      SCOPED_TRACE("width " + std::to_string(w) + " count " + std::to_string(count));
      Program program;
      ProgramBuilder b(PlanSettings(), &program);
      program.geometry.name = "TEST";
      const uint32_t out = b.AddOutput("OUT", Packed(w, {count}));
      ASSERT_TRUE(b.AddFill(out, Nest(w, {count}, {}, {w}), patterns[k]).ok());
      for (uint32_t threads : {1u, 2u}) {
        std::vector<uint8_t> result(count * w + 16, 0x55);
        RunSteps(program, threads, {}, {result.data() + 8});
        for (uint32_t i = 0; i < count; ++i) {
          ASSERT_EQ(std::memcmp(result.data() + 8 + i * w, &patterns[k], w), 0) << "element " << i;
        }
        for (int g = 0; g < 8; ++g) {
          ASSERT_EQ(result[g], 0x55);
          ASSERT_EQ(result[8 + count * w + g], 0x55);
        }
      }
    }
  }
}

TEST(ProgramBuilderTest, StridedFillLeavesTheGaps) {
  // A column of a {100,3} UINT16 output: every third element, the others untouched.
  Program program;
  ProgramBuilder b(PlanSettings(), &program);
  program.geometry.name = "TEST";
  const uint32_t out = b.AddOutput("OUT", Packed(2, {100, 3}));
  ASSERT_TRUE(b.AddFill(out, Nest(2, {100}, {}, {6}, 0, 2), 0x1234).ok());
  std::vector<uint16_t> result(300, 7);
  RunSteps(program, 2, {}, {result.data()});
  for (uint32_t i = 0; i < 300; ++i) {
    EXPECT_EQ(result[i], i % 3 == 1 ? 0x1234 : 7) << "element " << i;
  }
}

TEST(ProgramBuilderTest, BorderedCopyWritesRowsWithTheirBordersEveryWidth) {
  // {5,6} rows copied into columns 2..7 of a {5,12} output with 2 + 3 border elements (columns
  // 0-1, 8-10): filled, then copied from source columns {4, 0} and {5, 1, 3}; column 11 is a
  // gap never written.
  for (uint32_t w : {1u, 2u, 4u, 8u}) {
    for (bool fill : {true, false}) {
      Program program;
      ProgramBuilder b(PlanSettings(), &program);
      program.geometry.name = "TEST";
      const uint32_t in = b.AddInput("IN", Packed(w, {5, 6}));
      const uint32_t out = b.AddOutput("OUT", Packed(w, {5, 12}));
      ProgramBuilder::BorderSpec spec;
      spec.left_items = 2;
      spec.right_items = 3;
      spec.fill = fill;
      spec.fill_bits = 0xA5A5A5A5A5A5A5A5ull;
      const int64_t left_src[] = {4, 0}, right_src[] = {5, 1, 3};
      for (int k = 0; k < 2; ++k) spec.left_src_items[k] = left_src[k];
      for (int k = 0; k < 3; ++k) spec.right_src_items[k] = right_src[k];
      bool placed = false;
      ASSERT_TRUE(b.AddBorderedCopy(StepSource::kInput, in, out,
                                    Nest(w, {5, 6}, {6 * w, w}, {12 * w, w}, 0, 2 * w), spec,
                                    &placed)
                      .ok());
      ASSERT_TRUE(placed);
      std::vector<uint8_t> src(30 * w), result(60 * w, 0x11);
      for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 7 + 1);
      RunSteps(program, 2, {src.data()}, {result.data()});
      for (uint32_t r = 0; r < 5; ++r) {
        for (uint32_t c = 0; c < 12; ++c) {
          const uint8_t* got = result.data() + (r * 12 + c) * w;
          std::vector<uint8_t> want(w, 0x11);
          int64_t from = -1;  // source column
          if (c >= 2 && c < 8) from = c - 2;
          if (c < 2 && !fill) from = left_src[c];
          if (c >= 8 && c < 11 && !fill) from = right_src[c - 8];
          if (from >= 0) {
            std::memcpy(want.data(), src.data() + (r * 6 + from) * w, w);
          } else if (fill && c != 11) {
            std::memcpy(want.data(), &spec.fill_bits, w);
          }
          EXPECT_EQ(std::memcmp(got, want.data(), w), 0)
              << "width " << w << (fill ? " fill" : " copy") << " row " << r << " column " << c;
        }
      }
    }
  }
}

TEST(ProgramBuilderTest, BorderedCopyRefusesWhatItCannotCarry) {
  Program program;
  ProgramBuilder b(PlanSettings(), &program);
  program.geometry.name = "TEST";
  const uint32_t in = b.AddInput("IN", Packed(4, {4, 4}));
  const uint32_t out = b.AddOutput("OUT", Packed(4, {4, 8}));
  ProgramBuilder::BorderSpec spec;
  spec.left_items = 1;
  spec.right_items = 1;
  spec.fill = true;
  bool placed = true;
  // A strided output row.
  ASSERT_TRUE(b.AddBorderedCopy(StepSource::kInput, in, out,
                                Nest(4, {4, 4}, {16, 4}, {32, 8}, 0, 4), spec, &placed)
                  .ok());
  EXPECT_FALSE(placed);
  // Borders past the binding (the left one of row 0 at byte -4).
  ASSERT_TRUE(b.AddBorderedCopy(StepSource::kInput, in, out,
                                Nest(4, {4, 4}, {16, 4}, {32, 4}, 0, 0), spec, &placed)
                  .ok());
  EXPECT_FALSE(placed);
  // A copied border element outside the row.
  spec.fill = false;
  spec.left_src_items[0] = 4;
  ASSERT_TRUE(b.AddBorderedCopy(StepSource::kInput, in, out,
                                Nest(4, {4, 4}, {16, 4}, {32, 4}, 0, 4), spec, &placed)
                  .ok());
  EXPECT_FALSE(placed);
  EXPECT_TRUE(program.steps.empty());
}

TEST(ProgramBuilderTest, LargeFillStreams) {
  // 40 MiB: above the streaming threshold, so the broadcast goes through non-temporal stores.
  const uint32_t count = 10u << 20;
  Program program;
  ProgramBuilder b(PlanSettings(), &program);
  program.geometry.name = "TEST";
  const uint32_t out = b.AddOutput("OUT", Packed(4, {count}));
  ASSERT_TRUE(b.AddFill(out, Nest(4, {count}, {}, {4}), 0x80000000).ok());
  EXPECT_TRUE(program.steps[0].plan.store.non_temporal);
  std::vector<uint32_t> result(count, 1);
  RunSteps(program, 2, {}, {result.data()});
  for (uint32_t i = 0; i < count; ++i) ASSERT_EQ(result[i], 0x80000000u) << "element " << i;
}

TEST(ProgramBuilderTest, OutputToOutputCopyMirrorsColumns) {
  // PADDING-like: columns 0-3 come from the input, columns 4-7 mirror them (4 <- 3, ..., 7 <- 0).
  Program program;
  ProgramBuilder b(PlanSettings(), &program);
  program.geometry.name = "TEST";
  const uint32_t in = b.AddInput("IN", Packed(4, {4, 4}));
  const uint32_t out = b.AddOutput("OUT", Packed(4, {4, 8}));
  ASSERT_TRUE(b.AddCopy(StepSource::kInput, in, out, Nest(4, {4, 4}, {16, 4}, {32, 4})).ok());
  ASSERT_TRUE(
      b.AddCopy(StepSource::kOutput, out, out, Nest(4, {4, 4}, {32, -4}, {32, 4}, 12, 16)).ok());
  EXPECT_EQ(program.steps[1].source, StepSource::kOutput);
  std::vector<uint32_t> input(16);
  for (uint32_t i = 0; i < 16; ++i) input[i] = i;
  for (uint32_t threads : {1u, 2u}) {
    std::vector<uint32_t> result(32, 0);
    RunSteps(program, threads, {input.data()}, {result.data()});
    for (uint32_t r = 0; r < 4; ++r) {
      for (uint32_t j = 0; j < 8; ++j) {
        const uint32_t expected = j < 4 ? input[r * 4 + j] : input[r * 4 + (7 - j)];
        EXPECT_EQ(result[r * 8 + j], expected) << "row " << r << " column " << j;
      }
    }
  }
}

TEST(ProgramBuilderTest, NegativeOutputStrideRunsTheLoopBackwards) {
  Program program;
  ProgramBuilder b(PlanSettings(), &program);
  program.geometry.name = "TEST";
  const uint32_t in = b.AddInput("IN", Packed(8, {5}));
  const uint32_t out = b.AddOutput("OUT", Packed(8, {5}));
  ASSERT_TRUE(b.AddCopy(StepSource::kInput, in, out, Nest(8, {5}, {8}, {-8}, 0, 32)).ok());
  const Step& step = program.steps[0];
  EXPECT_EQ(step.out_base_bytes, 0);
  EXPECT_EQ(step.plan.in_base_bytes, 32);
  EXPECT_GT(step.plan.loops[0].out_stride_bytes, 0);
  EXPECT_LT(step.plan.loops[0].in_stride_bytes, 0);
  const std::vector<uint64_t> input = {1, 2, 3, 4, 5};
  std::vector<uint64_t> result(5, 0);
  RunSteps(program, 1, {input.data()}, {result.data()});
  EXPECT_EQ(result, (std::vector<uint64_t>{5, 4, 3, 2, 1}));
}

TEST(ProgramBuilderTest, EmptyNestAddsNoStep) {
  Program program;
  ProgramBuilder b(PlanSettings(), &program);
  program.geometry.name = "TEST";
  const uint32_t in = b.AddInput("IN", Packed(4, {4}));
  const uint32_t out = b.AddOutput("OUT", Packed(4, {4}));
  EXPECT_TRUE(b.AddCopy(StepSource::kInput, in, out, Nest(4, {0, 4}, {16, 4}, {16, 4})).ok());
  EXPECT_TRUE(b.AddFill(out, Nest(4, {4, 0}, {}, {16, 4}), 1).ok());
  EXPECT_TRUE(program.steps.empty());
}

TEST(ProgramBuilderTest, RefusesStepsOutsideTheirBindings) {
  Program program;
  ProgramBuilder b(PlanSettings(), &program);
  program.geometry.name = "TEST";
  const uint32_t in = b.AddInput("IN", Packed(4, {4}));
  const uint32_t out = b.AddOutput("OUT", Packed(4, {4}));
  Status s = b.AddCopy(StepSource::kInput, in, out, Nest(4, {4}, {4}, {4}, 0, 4));
  EXPECT_EQ(s.code(), StatusCode::kInternal);
  EXPECT_NE(s.message().find("TEST: step 0: writes bytes [4, 20) of OUT, whose extent is 16 "
                             "bytes"),
            std::string::npos)
      << s.message();
  s = b.AddCopy(StepSource::kInput, in, out, Nest(4, {4}, {-4}, {4}, 8));
  EXPECT_EQ(s.code(), StatusCode::kInternal);
  EXPECT_NE(s.message().find("reads bytes [-4, 12) of IN"), std::string::npos) << s.message();
  s = b.AddFill(out, Nest(4, {2}, {}, {12}), 0);  // bytes [0, 16): fits
  EXPECT_TRUE(s.ok()) << s.message();
  s = b.AddCopy(StepSource::kOutput, 3, out, Nest(4, {1}, {4}, {4}));
  EXPECT_EQ(s.code(), StatusCode::kInternal);
  EXPECT_NE(s.message().find("no such source binding"), std::string::npos) << s.message();
}

TEST(ProgramBuilderTest, RefusesMoreLoopsThanARankAfterCollapsing) {
  // Nine loops of size 2 whose input strides run the other way: nothing merges.
  Program program;
  ProgramBuilder b(PlanSettings(), &program);
  program.geometry.name = "TEST";
  const uint32_t in = b.AddInput("IN", Packed(4, {512}));
  const uint32_t out = b.AddOutput("OUT", Packed(4, {512}));
  std::vector<int64_t> sizes(9, 2), in_strides(9), out_strides(9);
  for (int i = 0; i < 9; ++i) {
    out_strides[i] = int64_t{4} << (8 - i);
    in_strides[i] = int64_t{4} << i;
  }
  Status s = b.AddCopy(StepSource::kInput, in, out, Nest(4, sizes, in_strides, out_strides));
  EXPECT_EQ(s.code(), StatusCode::kInternal);
  EXPECT_NE(s.message().find("9 loops after collapsing, expected at most 8"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace internal
}  // namespace dmlcpu
