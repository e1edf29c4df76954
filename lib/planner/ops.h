// SPDX-License-Identifier: Apache-2.0
// The operators built through ProgramBuilder, one builder per operator, each in the file of its
// family (op_<family>.cc). A builder validates the descriptor (docs/semantics.md), declares the
// bindings in struct-field order and adds the steps. program.cc dispatches on the type.
#ifndef DMLCPU_PLANNER_OPS_H_
#define DMLCPU_PLANNER_OPS_H_

#include <string>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/status.h"
#include "planner/program_builder.h"

namespace dmlcpu {
namespace internal {

// `desc` points at the operator's struct (non-null, checked by the caller).
using BuildProgramFn = Status (*)(const void* desc, ProgramBuilder* builder);

// Padding family (op_padding.cc, op_depth_space.cc, op_slice_grad.cc).
Status BuildPaddingProgram(const void* desc, ProgramBuilder* builder);
Status BuildPadding1Program(const void* desc, ProgramBuilder* builder);
Status BuildDepthToSpaceProgram(const void* desc, ProgramBuilder* builder);
Status BuildSpaceToDepthProgram(const void* desc, ProgramBuilder* builder);
Status BuildDepthToSpace1Program(const void* desc, ProgramBuilder* builder);
Status BuildSpaceToDepth1Program(const void* desc, ProgramBuilder* builder);
Status BuildSliceGradProgram(const void* desc, ProgramBuilder* builder);
// Copy-shaped data movement: op_identity.cc, op_join_split.cc, op_tile.cc.
Status BuildIdentityProgram(const void* desc, ProgramBuilder* builder);
Status BuildJoinProgram(const void* desc, ProgramBuilder* builder);
Status BuildSplitProgram(const void* desc, ProgramBuilder* builder);
Status BuildTileProgram(const void* desc, ProgramBuilder* builder);

// The builder of `type`, or null (the gathers and slices go through ValidateOperator and the
// canonical form; other types are unsupported).
BuildProgramFn FindProgramBuilder(uint32_t type);

// "GATHER (67), ...": every operator type dmlcpu implements, in type order (for messages).
std::string ImplementedOperatorsText();

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_PLANNER_OPS_H_
