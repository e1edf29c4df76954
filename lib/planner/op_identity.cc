// SPDX-License-Identifier: Apache-2.0
// ELEMENT_WISE_IDENTITY (docs/semantics.md#element_wise_identity): Output = Input, element by
// element, each tensor with its own strides. One copy step with the input's strides walked in the
// output's order: a packed copy, a transpose (permuted input strides) or an expand (0 strides).
#include <string>

#include "core/format.h"
#include "planner/ops.h"
#include "planner/program_builder.h"
#include "planner/validate_util.h"

namespace dmlcpu {
namespace internal {

Status BuildIdentityProgram(const void* desc, ProgramBuilder* b) {
  const auto& d = *static_cast<const DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC*>(desc);
  const char* op = b->program()->geometry.name;
  TensorInfo in, out;
  Status s = ReadTensor(op, "InputTensor", d.InputTensor, /*is_output=*/false, &in);
  if (!s.ok()) return s;
  s = ReadTensor(op, "OutputTensor", d.OutputTensor, /*is_output=*/true, &out);
  if (!s.ok()) return s;
  if (d.ScaleBias != nullptr) {
    return Unsupported(
        "%s: ScaleBias is non-null (Scale %g, Bias %g), expected null: a scale and bias is "
        "arithmetic, and dmlcpu runs data movement only",
        op, static_cast<double>(d.ScaleBias->Scale), static_cast<double>(d.ScaleBias->Bias));
  }
  s = CheckSameRank(op, "OutputTensor", out, in);
  if (!s.ok()) return s;
  s = CheckSameType(op, out, in);
  if (!s.ok()) return s;
  ExpectedDim expected[kMaxRank];
  for (uint32_t i = 0; i < in.rank; ++i) expected[i] = {in.sizes[i], Source("InputTensor", i)};
  s = CheckOutputSizes(op, out, expected);
  if (!s.ok()) return s;

  const uint32_t input = b->AddInput("InputTensor", in);
  const uint32_t output = b->AddOutput("OutputTensor", out);
  return b->AddCopy(StepSource::kInput, input, output, NestOf(out, in));
}

}  // namespace internal
}  // namespace dmlcpu
