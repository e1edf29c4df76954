// SPDX-License-Identifier: Apache-2.0
// SLICE_GRAD (docs/semantics.md#slice_grad): validation and the program, fills of zero and a
// copy of the input gradient into the forward slice's window. A large dense window (unit
// strides) gets fills of the slabs around it only; otherwise the whole output is zeroed first.
// Loops whose window stride is negative run backwards, so the output strides stay positive and
// the negative stride lands on the input.
#include <cstdint>
#include <cstdlib>

#include "core/checked_math.h"
#include "core/format.h"
#include "planner/ops.h"
#include "planner/validate_util.h"

namespace dmlcpu {
namespace internal {

Status BuildSliceGradProgram(const void* desc, ProgramBuilder* b) {
  const auto& d = *static_cast<const DML_SLICE_GRAD_OPERATOR_DESC*>(desc);
  Program* program = b->program();
  const char* op = program->geometry.name;
  TensorInfo in, out;
  Status s = ReadTensor(op, "InputGradientTensor", d.InputGradientTensor, false, &in);
  if (!s.ok()) return s;
  s = ReadTensor(op, "OutputGradientTensor", d.OutputGradientTensor, true, &out);
  if (!s.ok()) return s;
  s = CheckSameRank(op, "OutputGradientTensor", out, "InputGradientTensor", in);
  if (!s.ok()) return s;
  s = CheckSameType(op, "OutputGradientTensor", out, "InputGradientTensor", in);
  if (!s.ok()) return s;
  const uint32_t n = in.rank;
  if (d.DimensionCount != n) {
    return InvalidArgument(
        "%s: DimensionCount is %u, expected %u (InputGradientTensor.DimensionCount)", op,
        d.DimensionCount, n);
  }
  s = RequireArrays(op, {{"InputWindowOffsets", d.InputWindowOffsets},
                         {"InputWindowSizes", d.InputWindowSizes},
                         {"InputWindowStrides", d.InputWindowStrides}});
  if (!s.ok()) return s;
  LoopNest copy;
  copy.elem_bytes = in.elem_bytes;
  copy.loop_count = n;
  // The box of output coordinates the copy writes, where it writes every one (dense).
  int64_t written_lo[kMaxRank], written_hi[kMaxRank];
  bool dense = true;
  uint64_t window_bytes = in.elem_bytes;  // saturates at UINT64_MAX
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t offset = d.InputWindowOffsets[i], size = d.InputWindowSizes[i];
    const int64_t stride = d.InputWindowStrides[i];
    if (size == 0) return InvalidArgument("%s: InputWindowSizes[%u] is 0, expected >= 1", op, i);
    if (offset + size > out.sizes[i]) {
      return InvalidArgument(
          "%s: InputWindowOffsets[%u] + InputWindowSizes[%u] is %llu (%llu + %llu), expected <= "
          "%u (OutputGradientTensor.Sizes[%u])",
          op, i, i, static_cast<unsigned long long>(offset + size),
          static_cast<unsigned long long>(offset), static_cast<unsigned long long>(size),
          out.sizes[i], i);
    }
    if (stride == 0) {
      return InvalidArgument("%s: InputWindowStrides[%u] is 0, expected non-zero", op, i);
    }
    const uint64_t step = static_cast<uint64_t>(std::llabs(stride));
    const uint64_t max_count = 1 + (size - 1) / step;
    if (in.sizes[i] > max_count) {
      return InvalidArgument(
          "%s: InputGradientTensor.Sizes[%u] is %u, expected in [1, %llu] (1 + "
          "(InputWindowSizes[%u] - 1) / |InputWindowStrides[%u]| = 1 + %llu / %llu)",
          op, i, in.sizes[i], static_cast<unsigned long long>(max_count), i, i,
          static_cast<unsigned long long>(size - 1), static_cast<unsigned long long>(step));
    }
    const int64_t start =
        static_cast<int64_t>(offset) + (stride < 0 ? static_cast<int64_t>(size) - 1 : 0);
    const int64_t out_stride = static_cast<int64_t>(out.strides_elems[i] * out.elem_bytes);
    const int64_t in_stride = static_cast<int64_t>(in.strides_elems[i] * in.elem_bytes);
    const int64_t count = in.sizes[i];
    copy.sizes[i] = count;
    dense = dense && (step == 1 || count == 1);
    if (!CheckedMul(window_bytes, static_cast<uint64_t>(count), &window_bytes)) {
      window_bytes = UINT64_MAX;
    }
    written_lo[i] = stride > 0 ? start : start + stride * (count - 1);
    written_hi[i] = (stride > 0 ? start + stride * (count - 1) : start) + 1;
    if (stride > 0) {
      copy.out_base_bytes += start * out_stride;
      copy.out_strides_bytes[i] = stride * out_stride;
      copy.in_strides_bytes[i] = in_stride;
    } else {  // reversed: the last gradient element lands first
      copy.out_base_bytes += (start + stride * (count - 1)) * out_stride;
      copy.out_strides_bytes[i] = -stride * out_stride;
      copy.in_base_bytes += (count - 1) * in_stride;
      copy.in_strides_bytes[i] = -in_stride;
    }
  }
  b->AddInput("InputGradientTensor", in);
  b->AddOutput("OutputGradientTensor", out);
  program->geometry.input = in;
  program->geometry.output = out;
  const bool fill_around =
      dense && window_bytes >= b->settings().tuning->min_fill_around_bytes;
  s = fill_around ? b->AddFillAround(0, out, written_lo, written_hi, n, 0)
                  : b->AddFill(0, NestOf(out, out), 0);
  if (!s.ok()) return s;
  return b->AddCopy(StepSource::kInput, 0, 0, copy);
}

}  // namespace internal
}  // namespace dmlcpu
