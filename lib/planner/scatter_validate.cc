// SPDX-License-Identifier: Apache-2.0
// SCATTER (= SCATTER_ELEMENTS) and SCATTER_ND: every rule of the descriptors
// (docs/semantics.md#scatter-and-scatter_nd, op_scatter.h). Messages: "<OP>: <field> is <value>,
// expected <constraint>".
#include "planner/op_scatter.h"

#include <cstdint>

#include "core/format.h"
#include "planner/geometry.h"
#include "planner/validate_util.h"

namespace dmlcpu {
namespace internal {
namespace {

Status ReadScatterTensors(const char* op, const DML_TENSOR_DESC* input,
                          const DML_TENSOR_DESC* indices, const DML_TENSOR_DESC* updates,
                          const DML_TENSOR_DESC* output, ScatterGeometry* g) {
  Status s = ReadTensor(op, "InputTensor", input, /*is_output=*/false, &g->input);
  if (!s.ok()) return s;
  s = ReadTensor(op, "IndicesTensor", indices, /*is_output=*/false, &g->indices);
  if (!s.ok()) return s;
  s = ReadTensor(op, "UpdatesTensor", updates, /*is_output=*/false, &g->updates);
  if (!s.ok()) return s;
  s = ReadTensor(op, "OutputTensor", output, /*is_output=*/true, &g->output);
  if (!s.ok()) return s;
  s = CheckSameRank(op, "IndicesTensor", g->indices, g->input);
  if (!s.ok()) return s;
  s = CheckSameRank(op, "UpdatesTensor", g->updates, g->input);
  if (!s.ok()) return s;
  s = CheckSameRank(op, "OutputTensor", g->output, g->input);
  if (!s.ok()) return s;
  s = CheckIndexType(op, g->indices, &g->index_type);
  if (!s.ok()) return s;
  s = CheckSameType(op, "UpdatesTensor", g->updates, "InputTensor", g->input);
  if (!s.ok()) return s;
  s = CheckSameType(op, g->output, g->input);
  if (!s.ok()) return s;
  ExpectedDim expected[kMaxRank];  // Out == In
  for (uint32_t i = 0; i < g->input.rank; ++i) {
    expected[i] = {g->input.sizes[i], Source("InputTensor", i)};
  }
  return CheckOutputSizes(op, g->output, expected);
}

Status ValidateScatterElements(const DML_SCATTER_OPERATOR_DESC& d, ScatterGeometry* g) {
  const char* op = g->name;
  Status s = ReadScatterTensors(op, d.InputTensor, d.IndicesTensor, d.UpdatesTensor,
                                d.OutputTensor, g);
  if (!s.ok()) return s;
  s = CheckElementsAxis(op, d.Axis, g->input, g->indices);
  if (!s.ok()) return s;
  const uint32_t n = g->input.rank;
  ExpectedDim expected[kMaxRank];
  for (uint32_t i = 0; i < n; ++i) expected[i] = {g->indices.sizes[i], Source("IndicesTensor", i)};
  s = CheckOutputSizes(op, "UpdatesTensor", g->updates, expected);
  if (!s.ok()) return s;
  g->axis = d.Axis;
  return Status::Ok();
}

Status ValidateScatterNd(const DML_SCATTER_ND_OPERATOR_DESC& d, ScatterGeometry* g) {
  const char* op = g->name;
  Status s = ReadScatterTensors(op, d.InputTensor, d.IndicesTensor, d.UpdatesTensor,
                                d.OutputTensor, g);
  if (!s.ok()) return s;
  const uint32_t n = g->input.rank;
  const uint32_t r = d.InputDimensionCount, q = d.IndicesDimensionCount;
  if (r < 1 || r > n) {
    return InvalidArgument(
        "%s: InputDimensionCount is %u, expected in [1, %u] (InputTensor.DimensionCount)", op, r,
        n);
  }
  if (q < 1 || q > n) {
    return InvalidArgument(
        "%s: IndicesDimensionCount is %u, expected in [1, %u] (IndicesTensor.DimensionCount)", op,
        q, n);
  }
  s = CheckLeadingOnes(op, "InputTensor", g->input, r, "InputDimensionCount");
  if (!s.ok()) return s;
  s = CheckLeadingOnes(op, "IndicesTensor", g->indices, q, "IndicesDimensionCount");
  if (!s.ok()) return s;
  const uint32_t t = g->indices.sizes[n - 1];
  if (t > r) {  // DirectML 1.15.2 takes the process down on these: reject them first
    return InvalidArgument(
        "%s: IndicesTensor.Sizes[%u] (the index tuple size) is %u, expected in [1, %u] "
        "(InputDimensionCount)",
        op, n - 1, t, r);
  }
  ExpectedDim expected[kMaxRank];
  const uint32_t m = ExpectNdResult(g->input, g->indices, n, r, q, /*batch_dims=*/0, t, expected);
  if (m > n) {
    return InvalidArgument(
        "%s: the updates need %u dimensions ((IndicesDimensionCount - 1) + (InputDimensionCount "
        "- tuple size %u)), expected <= %u (UpdatesTensor.DimensionCount)",
        op, m, t, n);
  }
  s = CheckOutputSizes(op, "UpdatesTensor", g->updates, expected);
  if (!s.ok()) return s;
  g->input_dims = r;
  g->indices_dims = q;
  return Status::Ok();
}

}  // namespace

Status ValidateScatter(const DML_OPERATOR_DESC& desc, ScatterGeometry* g) {
  *g = ScatterGeometry();
  g->type = desc.Type;
  g->name = OperatorName(desc.Type);
  if (desc.Desc == nullptr) {
    return InvalidArgument("%s: DML_OPERATOR_DESC.Desc is null, expected a non-null pointer",
                           g->name);
  }
  if (desc.Type == DML_OPERATOR_SCATTER) {
    return ValidateScatterElements(*static_cast<const DML_SCATTER_OPERATOR_DESC*>(desc.Desc), g);
  }
  return ValidateScatterNd(*static_cast<const DML_SCATTER_ND_OPERATOR_DESC*>(desc.Desc), g);
}

}  // namespace internal
}  // namespace dmlcpu
