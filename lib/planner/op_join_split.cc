// SPDX-License-Identifier: Apache-2.0
// JOIN and SPLIT (docs/semantics.md#join-and-split): concatenation along Axis and its inverse.
// JOIN is one copy per input into its window of the output (out_base_bytes = the window's offset
// along Axis); SPLIT is one copy per output from its window of the input (in_base_bytes).
#include <string>
#include <vector>

#include "core/format.h"
#include "planner/ops.h"
#include "planner/program_builder.h"
#include "planner/validate_util.h"

namespace dmlcpu {
namespace internal {
namespace {

// The tensors of one side of the operator: the array (InputTensors / OutputTensors) and the
// single tensor every array entry is compared with.
struct JoinSplitTensors {
  TensorInfo whole;               // JOIN's output, SPLIT's input
  std::vector<TensorInfo> parts;  // JOIN's inputs, SPLIT's outputs, in array order
};

// Reads and checks the parts against `whole`: rank, type, every size but Axis, and the sum of
// the Axis sizes. `parts_field` is "InputTensors" or "OutputTensors".
Status ValidateParts(const char* op, const char* whole_field, const char* parts_field,
                     const char* count_field, uint32_t count, const DML_TENSOR_DESC* parts,
                     bool parts_are_outputs, uint32_t axis, JoinSplitTensors* t) {
  if (count == 0) return InvalidArgument("%s: %s is 0, expected >= 1", op, count_field);
  if (parts == nullptr) {
    return InvalidArgument("%s: %s is null, expected a non-null pointer to %u tensor descs", op,
                           parts_field, count);
  }
  const TensorInfo& whole = t->whole;
  const uint32_t n = whole.rank;
  if (axis >= n) {
    return InvalidArgument("%s: Axis is %u, expected < %u (%s.DimensionCount)", op, axis, n,
                           whole_field);
  }
  uint64_t axis_sum = 0;
  for (uint32_t k = 0; k < count; ++k) {  // grows as read: a bad count fails on a bad desc
    const std::string field = ArrayField(parts_field, k);
    TensorInfo part;
    Status s = ReadTensor(op, field.c_str(), &parts[k], parts_are_outputs, &part);
    if (!s.ok()) return s;
    s = CheckSameRank(op, field.c_str(), part, whole_field, whole);
    if (!s.ok()) return s;
    s = CheckSameType(op, field.c_str(), part, whole_field, whole);
    if (!s.ok()) return s;
    for (uint32_t i = 0; i < n; ++i) {
      if (i != axis && part.sizes[i] != whole.sizes[i]) {
        return InvalidArgument(
            "%s: %s.Sizes[%u] is %u, expected %u (%s.Sizes[%u]; only the Axis dimension %u may "
            "differ)",
            op, field.c_str(), i, part.sizes[i], whole.sizes[i], whole_field, i, axis);
      }
    }
    axis_sum += part.sizes[axis];  // count * 2^32 fits easily
    t->parts.push_back(part);
  }
  if (axis_sum != whole.sizes[axis]) {
    return InvalidArgument("%s: %s.Sizes[%u] is %u, expected %llu (the sum of %s[*].Sizes[%u])",
                           op, whole_field, axis, whole.sizes[axis],
                           static_cast<unsigned long long>(axis_sum), parts_field, axis);
  }
  return Status::Ok();
}

// `whole` restricted to the window [begin, begin + part.sizes[axis]) along axis: same strides,
// the part's sizes. Returns the window's byte offset in `whole`.
int64_t Window(const TensorInfo& whole, const TensorInfo& part, uint32_t axis, uint64_t begin,
               TensorInfo* window) {
  *window = whole;
  window->sizes[axis] = part.sizes[axis];
  window->packed = false;
  return static_cast<int64_t>(begin * whole.strides_elems[axis] * whole.elem_bytes);
}

}  // namespace

Status BuildJoinProgram(const void* desc, ProgramBuilder* b) {
  const auto& d = *static_cast<const DML_JOIN_OPERATOR_DESC*>(desc);
  const char* op = b->program()->geometry.name;
  JoinSplitTensors t;
  Status s = ReadTensor(op, "OutputTensor", d.OutputTensor, /*is_output=*/true, &t.whole);
  if (!s.ok()) return s;
  s = ValidateParts(op, "OutputTensor", "InputTensors", "InputCount", d.InputCount,
                    d.InputTensors, /*parts_are_outputs=*/false, d.Axis, &t);
  if (!s.ok()) return s;

  std::vector<uint32_t> inputs(t.parts.size());
  for (size_t k = 0; k < t.parts.size(); ++k) {
    inputs[k] = b->AddInput(ArrayField("InputTensors", static_cast<uint32_t>(k)), t.parts[k]);
  }
  const uint32_t output = b->AddOutput("OutputTensor", t.whole);
  uint64_t begin = 0;
  for (size_t k = 0; k < t.parts.size(); ++k) {
    TensorInfo window;
    const int64_t offset_bytes = Window(t.whole, t.parts[k], d.Axis, begin, &window);
    LoopNest nest = NestOf(window, t.parts[k]);
    nest.out_base_bytes += offset_bytes;
    s = b->AddCopy(StepSource::kInput, inputs[k], output, nest);
    if (!s.ok()) return s;
    begin += t.parts[k].sizes[d.Axis];
  }
  b->CoRunIndependentSteps();
  return Status::Ok();
}

Status BuildSplitProgram(const void* desc, ProgramBuilder* b) {
  const auto& d = *static_cast<const DML_SPLIT_OPERATOR_DESC*>(desc);
  const char* op = b->program()->geometry.name;
  JoinSplitTensors t;
  Status s = ReadTensor(op, "InputTensor", d.InputTensor, /*is_output=*/false, &t.whole);
  if (!s.ok()) return s;
  s = ValidateParts(op, "InputTensor", "OutputTensors", "OutputCount", d.OutputCount,
                    d.OutputTensors, /*parts_are_outputs=*/true, d.Axis, &t);
  if (!s.ok()) return s;

  const uint32_t input = b->AddInput("InputTensor", t.whole);
  std::vector<uint32_t> outputs(t.parts.size());
  for (size_t k = 0; k < t.parts.size(); ++k) {
    outputs[k] = b->AddOutput(ArrayField("OutputTensors", static_cast<uint32_t>(k)), t.parts[k]);
  }
  uint64_t begin = 0;
  for (size_t k = 0; k < t.parts.size(); ++k) {
    TensorInfo window;
    const int64_t offset_bytes = Window(t.whole, t.parts[k], d.Axis, begin, &window);
    LoopNest nest = NestOf(t.parts[k], window);
    nest.in_base_bytes += offset_bytes;
    s = b->AddCopy(StepSource::kInput, input, outputs[k], nest);
    if (!s.ok()) return s;
    begin += t.parts[k].sizes[d.Axis];
  }
  b->CoRunIndependentSteps();
  return Status::Ok();
}

}  // namespace internal
}  // namespace dmlcpu
