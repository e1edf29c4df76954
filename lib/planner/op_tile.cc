// SPDX-License-Identifier: Apache-2.0
// TILE (docs/semantics.md#tile): Out[d] = In[d] * Repeats[d], Out[c] = In[c mod In].
//
// Two programs, chosen at Compile:
// - one copy whose nest has two loops per dimension, the repeat loop (input stride 0) outside
//   the dimension's own loop: the input stays in cache and the output is written once, in order;
// - or a copy of the input into the output's first block, then doubling output -> output copies
//   along each repeated dimension, innermost first: used when the nest keeps more loops than a
//   step may have (kMaxRank), or when it saves more rows (each costs about kRowCostBytes of
//   copying) than it adds bytes (it reads the output back once).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/format.h"
#include "planner/ops.h"
#include "planner/program_builder.h"
#include "planner/validate_util.h"

namespace dmlcpu {
namespace internal {
namespace {

// The doubling program replaces the nest when the rows it saves, at about kRowCostBytes of copy
// time each, outweigh the output bytes it reads back, from kMinDoublingOutputBytes of output
// (docs/performance.md#tile-nest-or-doubling).
constexpr int64_t kRowCostBytes = 40;
constexpr uint64_t kMinDoublingOutputBytes = uint64_t{1} << 20;

// Loops left after dropping size-1 loops and merging neighbours contiguous in both operands
// (what the builder's collapse pass does), and the rows a step of the nest runs: one per
// element, or one per innermost loop where that loop is a contiguous output run read
// contiguously or broadcast from one element.
void CollapsedShape(const LoopNest& nest, uint32_t* loops, int64_t* rows) {
  int64_t sizes[kMaxNestLoops], in[kMaxNestLoops], out[kMaxNestLoops];
  uint32_t count = 0;
  for (uint32_t i = 0; i < nest.loop_count; ++i) {
    if (nest.sizes[i] == 1) continue;
    if (count > 0 && in[count - 1] == nest.sizes[i] * nest.in_strides_bytes[i] &&
        out[count - 1] == nest.sizes[i] * nest.out_strides_bytes[i]) {
      sizes[count - 1] *= nest.sizes[i];
      in[count - 1] = nest.in_strides_bytes[i];
      out[count - 1] = nest.out_strides_bytes[i];
      continue;
    }
    sizes[count] = nest.sizes[i];
    in[count] = nest.in_strides_bytes[i];
    out[count] = nest.out_strides_bytes[i];
    ++count;
  }
  const int64_t elem = nest.elem_bytes;
  *loops = count;
  const bool run =
      count > 0 && out[count - 1] == elem && (in[count - 1] == elem || in[count - 1] == 0);
  *rows = 1;
  for (uint32_t i = 0; i < count; ++i) {
    if (i + 1 < count || !run) *rows *= sizes[i];
  }
}

int64_t StrideBytes(const TensorInfo& t, uint32_t d) {
  return static_cast<int64_t>(t.strides_elems[d]) * t.elem_bytes;
}

// The single-step nest: per dimension, the repeat loop then the dimension's loop.
LoopNest RepeatNest(const TensorInfo& in, const TensorInfo& out) {
  LoopNest nest;
  nest.elem_bytes = in.elem_bytes;
  for (uint32_t d = 0; d < in.rank; ++d) {
    const uint32_t r = 2 * d;
    nest.sizes[r] = out.sizes[d] / in.sizes[d];
    nest.out_strides_bytes[r] = StrideBytes(out, d) * in.sizes[d];
    nest.in_strides_bytes[r] = 0;
    nest.sizes[r + 1] = in.sizes[d];
    nest.out_strides_bytes[r + 1] = StrideBytes(out, d);
    nest.in_strides_bytes[r + 1] = StrideBytes(in, d);
  }
  nest.loop_count = 2 * in.rank;
  return nest;
}

// Input -> the output's first block (the first nest, read from the input), then doubling
// copies of what is written, dimension by dimension from the innermost: each reads [0, have)
// along d of the output and writes [have, have + m).
std::vector<LoopNest> DoublingNests(const TensorInfo& in, const TensorInfo& out) {
  std::vector<LoopNest> nests;
  TensorInfo filled = out;  // the region written so far, from the output's origin
  filled.packed = false;
  for (uint32_t d = 0; d < in.rank; ++d) filled.sizes[d] = in.sizes[d];
  nests.push_back(NestOf(filled, in));
  for (uint32_t d = in.rank; d-- > 0;) {
    uint64_t have = in.sizes[d];
    while (have < out.sizes[d]) {
      const uint64_t m = std::min<uint64_t>(have, out.sizes[d] - have);
      TensorInfo source = filled;
      source.sizes[d] = static_cast<uint32_t>(m);
      LoopNest nest = NestOf(source, source);
      nest.out_base_bytes += static_cast<int64_t>(have) * StrideBytes(out, d);
      nests.push_back(nest);
      have += m;
    }
    filled.sizes[d] = out.sizes[d];
  }
  return nests;
}

}  // namespace

Status BuildTileProgram(const void* desc, ProgramBuilder* b) {
  const auto& d = *static_cast<const DML_TILE_OPERATOR_DESC*>(desc);
  const char* op = b->program()->geometry.name;
  TensorInfo in, out;
  Status s = ReadTensor(op, "InputTensor", d.InputTensor, /*is_output=*/false, &in);
  if (!s.ok()) return s;
  s = ReadTensor(op, "OutputTensor", d.OutputTensor, /*is_output=*/true, &out);
  if (!s.ok()) return s;
  const uint32_t n = in.rank;
  if (d.RepeatsCount != n) {
    return InvalidArgument("%s: RepeatsCount is %u, expected %u (InputTensor.DimensionCount)", op,
                           d.RepeatsCount, n);
  }
  if (d.Repeats == nullptr) {
    return InvalidArgument("%s: Repeats is null, expected a non-null pointer to %u values", op,
                           n);
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (d.Repeats[i] == 0) return InvalidArgument("%s: Repeats[%u] is 0, expected >= 1", op, i);
  }
  s = CheckSameRank(op, "OutputTensor", out, in);
  if (!s.ok()) return s;
  s = CheckSameType(op, out, in);
  if (!s.ok()) return s;
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t expected = uint64_t{in.sizes[i]} * d.Repeats[i];
    if (out.sizes[i] != expected) {
      return InvalidArgument(
          "%s: OutputTensor.Sizes[%u] is %u, expected %llu (InputTensor.Sizes[%u] %u * "
          "Repeats[%u] %u)",
          op, i, out.sizes[i], static_cast<unsigned long long>(expected), i, in.sizes[i], i,
          d.Repeats[i]);
    }
  }

  const uint32_t input = b->AddInput("InputTensor", in);
  const uint32_t output = b->AddOutput("OutputTensor", out);
  const LoopNest nest = RepeatNest(in, out);
  const std::vector<LoopNest> doubling = DoublingNests(in, out);
  uint32_t loops;
  int64_t nest_rows, doubling_rows = 0;
  CollapsedShape(nest, &loops, &nest_rows);
  for (const LoopNest& step : doubling) {
    uint32_t step_loops;
    int64_t step_rows;
    CollapsedShape(step, &step_loops, &step_rows);
    doubling_rows += step_rows;
  }
  uint64_t output_bytes = out.elem_bytes;
  for (uint32_t i = 0; i < n; ++i) output_bytes *= out.sizes[i];
  // Rows cost kRowCostBytes each (an output row is at most 2^32 elements of 8 bytes: no
  // overflow); doubling reads the output back once.
  const bool doubling_saves = output_bytes >= kMinDoublingOutputBytes &&
                              (nest_rows - doubling_rows) * kRowCostBytes >
                                  static_cast<int64_t>(output_bytes);
  if (loops <= kMaxRank && !doubling_saves) {
    s = b->AddCopy(StepSource::kInput, input, output, nest);
    // kInternal: the collapse pass kept more loops than counted here; doubling always fits.
    if (s.code() != StatusCode::kInternal) return s;
  }
  for (size_t i = 0; i < doubling.size(); ++i) {
    s = b->AddCopy(i == 0 ? StepSource::kInput : StepSource::kOutput, i == 0 ? input : output,
                   output, doubling[i]);
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace internal
}  // namespace dmlcpu
