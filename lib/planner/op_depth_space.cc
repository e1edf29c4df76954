// SPDX-License-Identifier: Apache-2.0
// DEPTH_TO_SPACE(1) and SPACE_TO_DEPTH(1) (docs/semantics.md#depth_to_space): validation and
// one permuted copy over the grid of space row h*b + i, column w*b + j and depth channel (i, j, c)
// (DCR) or (c, i, j) (CRD). DEPTH_TO_SPACE walks its output {n, c, h, i, w, j} (each output row
// a b-column transpose, docs/design.md); SPACE_TO_DEPTH walks {n, c, h, i, j, w}, rows of w
// contiguous in the depth tensor, so it reads each pair of space rows once.
#include <cstdint>
#include <cstring>

#include "core/format.h"
#include "planner/ops.h"
#include "planner/validate_util.h"

namespace dmlcpu {
namespace internal {
namespace {

Status BuildDepthSpace(const DML_TENSOR_DESC* input_desc, const DML_TENSOR_DESC* output_desc,
                       uint32_t block, uint32_t order, bool to_space, ProgramBuilder* b) {
  Program* program = b->program();
  const char* op = program->geometry.name;
  TensorInfo in, out;
  Status s = ReadTensor(op, "InputTensor", input_desc, /*is_output=*/false, &in);
  if (!s.ok()) return s;
  s = ReadTensor(op, "OutputTensor", output_desc, /*is_output=*/true, &out);
  if (!s.ok()) return s;
  if (in.rank != 4) {
    return InvalidArgument("%s: InputTensor.DimensionCount is %u, expected 4", op, in.rank);
  }
  s = CheckSameRank(op, "OutputTensor", out, in);
  if (!s.ok()) return s;
  s = CheckSameType(op, out, in);
  if (!s.ok()) return s;
  if (block == 0) return InvalidArgument("%s: BlockSize is 0, expected >= 1", op);
  if (order > 1) {
    return InvalidArgument(
        "%s: Order is %u, expected DEPTH_COLUMN_ROW (0) or COLUMN_ROW_DEPTH (1)", op, order);
  }
  const uint64_t bb = uint64_t{block} * block;
  ExpectedDim expected[4];
  expected[0] = {in.sizes[0], Source("InputTensor", 0)};
  if (to_space) {
    if (in.sizes[1] % bb != 0) {
      return InvalidArgument(
          "%s: InputTensor.Sizes[1] is %u, expected a multiple of %llu (BlockSize %u squared)", op,
          in.sizes[1], static_cast<unsigned long long>(bb), block);
    }
    const uint64_t h = uint64_t{in.sizes[2]} * block, w = uint64_t{in.sizes[3]} * block;
    if (h > 0xFFFFFFFFu || w > 0xFFFFFFFFu) {
      return InvalidArgument(
          "%s: InputTensor.Sizes[%u] * BlockSize is %llu, expected <= 4294967295", op,
          h > 0xFFFFFFFFu ? 2 : 3, static_cast<unsigned long long>(h > 0xFFFFFFFFu ? h : w));
    }
    expected[1] = {static_cast<uint32_t>(in.sizes[1] / bb),
                   StrFormat("InputTensor.Sizes[1] / BlockSize^2")};
    expected[2] = {static_cast<uint32_t>(h), "InputTensor.Sizes[2] * BlockSize"};
    expected[3] = {static_cast<uint32_t>(w), "InputTensor.Sizes[3] * BlockSize"};
  } else {
    for (uint32_t d = 2; d < 4; ++d) {
      if (in.sizes[d] % block != 0) {
        return InvalidArgument(
            "%s: InputTensor.Sizes[%u] is %u, expected a multiple of %u (BlockSize)", op, d,
            in.sizes[d], block);
      }
    }
    const uint64_t c = uint64_t{in.sizes[1]} * bb;
    if (c > 0xFFFFFFFFu) {
      return InvalidArgument(
          "%s: InputTensor.Sizes[1] * BlockSize^2 is %llu, expected <= 4294967295", op,
          static_cast<unsigned long long>(c));
    }
    expected[1] = {static_cast<uint32_t>(c), "InputTensor.Sizes[1] * BlockSize^2"};
    expected[2] = {in.sizes[2] / block, "InputTensor.Sizes[2] / BlockSize"};
    expected[3] = {in.sizes[3] / block, "InputTensor.Sizes[3] / BlockSize"};
  }
  s = CheckOutputSizes(op, out, expected);
  if (!s.ok()) return s;
  b->AddInput("InputTensor", in);
  b->AddOutput("OutputTensor", out);
  program->geometry.input = in;
  program->geometry.output = out;

  const TensorInfo& space = to_space ? out : in;
  const TensorInfo& depth = to_space ? in : out;
  int64_t sp[4], dp[4];  // byte strides
  for (uint32_t d = 0; d < 4; ++d) {
    sp[d] = static_cast<int64_t>(space.strides_elems[d] * space.elem_bytes);
    dp[d] = static_cast<int64_t>(depth.strides_elems[d] * depth.elem_bytes);
  }
  const int64_t bs = block, c = space.sizes[1];
  // Depth-channel strides of the block position (i, j) and of the space channel c.
  const int64_t di = order == 0 ? bs * c * dp[1] : bs * dp[1];
  const int64_t dj = order == 0 ? c * dp[1] : dp[1];
  const int64_t dc = order == 0 ? dp[1] : bs * bs * dp[1];
  LoopNest nest;
  nest.elem_bytes = in.elem_bytes;
  nest.loop_count = 6;
  int64_t* const os = nest.out_strides_bytes;
  int64_t* const is = nest.in_strides_bytes;
  if (to_space) {  // walk space as {n, c, h, i, w, j}: each output row is a b-column transpose
    const int64_t sizes[6] = {space.sizes[0], c, depth.sizes[2], bs, depth.sizes[3], bs};
    const int64_t o[6] = {sp[0], sp[1], bs * sp[2], sp[2], bs * sp[3], sp[3]};
    const int64_t i[6] = {dp[0], dc, dp[2], di, dp[3], dj};
    for (int k = 0; k < 6; ++k) nest.sizes[k] = sizes[k], os[k] = o[k], is[k] = i[k];
  } else {  // {n, c, h, i, j, w}: each pair of space rows is read once, into b*b depth rows
    const int64_t sizes[6] = {depth.sizes[0], c, depth.sizes[2], bs, bs, depth.sizes[3]};
    const int64_t o[6] = {dp[0], dc, dp[2], di, dj, dp[3]};
    const int64_t i[6] = {sp[0], sp[1], bs * sp[2], sp[2], sp[3], bs * sp[3]};
    for (int k = 0; k < 6; ++k) nest.sizes[k] = sizes[k], os[k] = o[k], is[k] = i[k];
  }
  return b->AddCopy(StepSource::kInput, 0, 0, nest);
}

}  // namespace

Status BuildDepthToSpaceProgram(const void* desc, ProgramBuilder* b) {
  const auto& d = *static_cast<const DML_DEPTH_TO_SPACE_OPERATOR_DESC*>(desc);
  return BuildDepthSpace(d.InputTensor, d.OutputTensor, d.BlockSize, 0, true, b);
}

Status BuildSpaceToDepthProgram(const void* desc, ProgramBuilder* b) {
  const auto& d = *static_cast<const DML_SPACE_TO_DEPTH_OPERATOR_DESC*>(desc);
  return BuildDepthSpace(d.InputTensor, d.OutputTensor, d.BlockSize, 0, false, b);
}

Status BuildDepthToSpace1Program(const void* desc, ProgramBuilder* b) {
  const auto& d = *static_cast<const DML_DEPTH_TO_SPACE1_OPERATOR_DESC*>(desc);
  uint32_t order;
  std::memcpy(&order, &d.Order, sizeof(order));
  return BuildDepthSpace(d.InputTensor, d.OutputTensor, d.BlockSize, order, true, b);
}

Status BuildSpaceToDepth1Program(const void* desc, ProgramBuilder* b) {
  const auto& d = *static_cast<const DML_SPACE_TO_DEPTH1_OPERATOR_DESC*>(desc);
  uint32_t order;
  std::memcpy(&order, &d.Order, sizeof(order));
  return BuildDepthSpace(d.InputTensor, d.OutputTensor, d.BlockSize, order, false, b);
}

}  // namespace internal
}  // namespace dmlcpu
