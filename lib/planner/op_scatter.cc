// SPDX-License-Identifier: Apache-2.0
// SCATTER (= SCATTER_ELEMENTS) and SCATTER_ND: validation, the scatter step's plan and its
// strict-mode scans (op_scatter.h). Messages: "<OP>: <field> is <value>, expected <constraint>".
#include "planner/op_scatter.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/format.h"
#include "planner/geometry.h"

namespace dmlcpu {
namespace internal {
namespace {

Status CheckRank(const char* op, const char* field, const TensorInfo& t, const TensorInfo& input) {
  if (t.rank != input.rank) {
    return InvalidArgument("%s: %s.DimensionCount is %u, expected %u (InputTensor.DimensionCount)",
                           op, field, t.rank, input.rank);
  }
  return Status::Ok();
}

Status CheckType(const char* op, const char* field, const TensorInfo& t, const TensorInfo& input) {
  if (t.data_type != input.data_type) {
    return InvalidArgument(
        "%s: %s.DataType is %u (%s), expected %u (%s, the InputTensor.DataType)", op, field,
        static_cast<unsigned>(t.data_type), DataTypeName(t.data_type),
        static_cast<unsigned>(input.data_type), DataTypeName(input.data_type));
  }
  return Status::Ok();
}

// t.Sizes == expected (rank n); `what` names where the expected sizes come from.
Status CheckSizes(const char* op, const char* field, const TensorInfo& t, const uint32_t* expected,
                  const std::string* sources) {
  for (uint32_t i = 0; i < t.rank; ++i) {
    if (t.sizes[i] != expected[i]) {
      return InvalidArgument("%s: %s.Sizes[%u] is %u, expected %u (%s); expected %s.Sizes %s", op,
                             field, i, t.sizes[i], expected[i], sources[i].c_str(), field,
                             FormatList(expected, t.rank).c_str());
    }
  }
  return Status::Ok();
}

std::string Source(const char* field, uint32_t dim) {
  return StrFormat("%s.Sizes[%u]", field, dim);
}

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
  s = CheckRank(op, "IndicesTensor", g->indices, g->input);
  if (!s.ok()) return s;
  s = CheckRank(op, "UpdatesTensor", g->updates, g->input);
  if (!s.ok()) return s;
  s = CheckRank(op, "OutputTensor", g->output, g->input);
  if (!s.ok()) return s;
  switch (g->indices.data_type) {
    case DML_TENSOR_DATA_TYPE_INT32: g->index_type = kernels::IndexType::kInt32; break;
    case DML_TENSOR_DATA_TYPE_UINT32: g->index_type = kernels::IndexType::kUint32; break;
    case DML_TENSOR_DATA_TYPE_INT64: g->index_type = kernels::IndexType::kInt64; break;
    case DML_TENSOR_DATA_TYPE_UINT64: g->index_type = kernels::IndexType::kUint64; break;
    default:
      return InvalidArgument(
          "%s: IndicesTensor.DataType is %u (%s), expected INT32, INT64, UINT32 or UINT64", op,
          static_cast<unsigned>(g->indices.data_type), DataTypeName(g->indices.data_type));
  }
  s = CheckType(op, "UpdatesTensor", g->updates, g->input);
  if (!s.ok()) return s;
  s = CheckType(op, "OutputTensor", g->output, g->input);
  if (!s.ok()) return s;
  // Out == In.
  std::string sources[kMaxRank];
  for (uint32_t i = 0; i < g->input.rank; ++i) sources[i] = Source("InputTensor", i);
  return CheckSizes(op, "OutputTensor", g->output, g->input.sizes, sources);
}

Status ValidateScatterElements(const DML_SCATTER_OPERATOR_DESC& d, ScatterGeometry* g) {
  const char* op = g->name;
  Status s = ReadScatterTensors(op, d.InputTensor, d.IndicesTensor, d.UpdatesTensor,
                                d.OutputTensor, g);
  if (!s.ok()) return s;
  const uint32_t n = g->input.rank;
  if (d.Axis >= n) {
    return InvalidArgument("%s: Axis is %u, expected < %u (InputTensor.DimensionCount)", op, d.Axis,
                           n);
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (i != d.Axis && g->indices.sizes[i] != g->input.sizes[i]) {
      return InvalidArgument(
          "%s: IndicesTensor.Sizes[%u] is %u, expected %u (InputTensor.Sizes[%u]; only the Axis "
          "dimension may differ)",
          op, i, g->indices.sizes[i], g->input.sizes[i], i);
    }
  }
  std::string sources[kMaxRank];
  for (uint32_t i = 0; i < n; ++i) sources[i] = Source("IndicesTensor", i);
  s = CheckSizes(op, "UpdatesTensor", g->updates, g->indices.sizes, sources);
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
  for (uint32_t i = 0; i + r < n; ++i) {
    if (g->input.sizes[i] != 1) {
      return InvalidArgument(
          "%s: InputTensor.Sizes[%u] is %u, expected 1: only the last InputDimensionCount (%u) "
          "dimensions are real",
          op, i, g->input.sizes[i], r);
    }
  }
  for (uint32_t i = 0; i + q < n; ++i) {
    if (g->indices.sizes[i] != 1) {
      return InvalidArgument(
          "%s: IndicesTensor.Sizes[%u] is %u, expected 1: only the last IndicesDimensionCount "
          "(%u) dimensions are real",
          op, i, g->indices.sizes[i], q);
    }
  }
  const uint32_t t = g->indices.sizes[n - 1];
  if (t > r) {  // DirectML 1.15.2 takes the process down on these: reject them first
    return InvalidArgument(
        "%s: IndicesTensor.Sizes[%u] (the index tuple size) is %u, expected in [1, %u] "
        "(InputDimensionCount)",
        op, n - 1, t, r);
  }
  const uint32_t m = (q - 1) + (r - t);
  if (m > n) {
    return InvalidArgument(
        "%s: the updates need %u dimensions ((IndicesDimensionCount - 1) + (InputDimensionCount "
        "- tuple size %u)), expected <= %u (UpdatesTensor.DimensionCount)",
        op, m, t, n);
  }
  uint32_t expected[kMaxRank];
  std::string sources[kMaxRank];
  uint32_t j = 0;
  for (; j < n - m; ++j) {
    expected[j] = 1;
    sources[j] = "a leading 1";
  }
  for (uint32_t i = n - q; i + 1 < n; ++i, ++j) {
    expected[j] = g->indices.sizes[i];
    sources[j] = Source("IndicesTensor", i);
  }
  for (uint32_t i = n - r + t; i < n; ++i, ++j) {
    expected[j] = g->input.sizes[i];
    sources[j] = Source("InputTensor", i);
  }
  s = CheckSizes(op, "UpdatesTensor", g->updates, expected, sources);
  if (!s.ok()) return s;
  g->input_dims = r;
  g->indices_dims = q;
  return Status::Ok();
}

int64_t Bytes(const TensorInfo& t, uint32_t dim) {
  return static_cast<int64_t>(t.strides_elems[dim]) * t.elem_bytes;
}

// Drops size-1 loops and merges neighbours contiguous in all three operands (row-major order
// of the updates is kept, so last-wins order is too).
uint32_t CollapseScatterLoops(ScatterLoop* loops, uint32_t count) {
  uint32_t kept = 0;
  for (uint32_t d = 0; d < count; ++d) {
    const ScatterLoop& l = loops[d];
    if (l.size == 1) continue;
    if (kept > 0) {
      ScatterLoop& prev = loops[kept - 1];
      if (prev.out_stride_bytes == l.size * l.out_stride_bytes &&
          prev.upd_stride_bytes == l.size * l.upd_stride_bytes &&
          prev.idx_stride_bytes == l.size * l.idx_stride_bytes) {
        prev.size *= l.size;
        prev.out_stride_bytes = l.out_stride_bytes;
        prev.upd_stride_bytes = l.upd_stride_bytes;
        prev.idx_stride_bytes = l.idx_stride_bytes;
        continue;
      }
    }
    loops[kept++] = l;
  }
  if (kept == 0) {
    loops[0] = ScatterLoop();
    kept = 1;
  }
  return kept;
}

bool ArithmeticType(DML_TENSOR_DATA_TYPE type, bool uint16_as_bfloat16,
                    kernels::ScatterType* out) {
  using kernels::ScatterType;
  switch (type) {
    case DML_TENSOR_DATA_TYPE_INT8: *out = ScatterType::kInt8; return true;
    case DML_TENSOR_DATA_TYPE_UINT8: *out = ScatterType::kUint8; return true;
    case DML_TENSOR_DATA_TYPE_INT16: *out = ScatterType::kInt16; return true;
    case DML_TENSOR_DATA_TYPE_UINT16:
      *out = uint16_as_bfloat16 ? ScatterType::kBfloat16 : ScatterType::kUint16;
      return true;
    case DML_TENSOR_DATA_TYPE_INT32: *out = ScatterType::kInt32; return true;
    case DML_TENSOR_DATA_TYPE_UINT32: *out = ScatterType::kUint32; return true;
    case DML_TENSOR_DATA_TYPE_INT64: *out = ScatterType::kInt64; return true;
    case DML_TENSOR_DATA_TYPE_UINT64: *out = ScatterType::kUint64; return true;
    case DML_TENSOR_DATA_TYPE_FLOAT16: *out = ScatterType::kFloat16; return true;
    case DML_TENSOR_DATA_TYPE_FLOAT32: *out = ScatterType::kFloat32; return true;
    case DML_TENSOR_DATA_TYPE_FLOAT64: *out = ScatterType::kFloat64; return true;
    default: return false;
  }
}

}  // namespace

bool SameLayout(const TensorInfo& a, const TensorInfo& b) {
  if (a.rank != b.rank || a.elem_bytes != b.elem_bytes) return false;
  for (uint32_t i = 0; i < a.rank; ++i) {
    if (a.sizes[i] != b.sizes[i]) return false;
    if (a.sizes[i] > 1 && a.strides_elems[i] != b.strides_elems[i]) return false;
  }
  return true;
}

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

Status BuildScatterPlan(const ScatterGeometry& g, const ScatterSettings& settings,
                        ScatterPlan* plan) {
  *plan = ScatterPlan();
  const TensorInfo &out = g.output, &upd = g.updates, &idx = g.indices;
  const uint32_t n = out.rank;
  plan->elem_bytes = out.elem_bytes;
  plan->reduction = settings.reduction;
  plan->index_type = g.index_type;
  if (settings.reduction == kernels::ScatterReduction::kNone) {
    plan->type = static_cast<kernels::ScatterType>(kernels::WidthSlot(out.elem_bytes));
  } else if (!ArithmeticType(out.data_type, settings.uint16_as_bfloat16, &plan->type)) {
    return InvalidArgument("%s: InputTensor.DataType is %u (%s), expected a numeric type for a "
                           "reduction",
                           g.name, static_cast<unsigned>(out.data_type),
                           DataTypeName(out.data_type));
  }
  // One loop per update dimension, in the updates' row-major order.
  ScatterLoop loops[kMaxRank];
  if (g.type == DML_OPERATOR_SCATTER) {
    for (uint32_t d = 0; d < n; ++d) {
      loops[d].size = upd.sizes[d];
      loops[d].out_stride_bytes = d == g.axis ? 0 : Bytes(out, d);
      loops[d].upd_stride_bytes = Bytes(upd, d);
      loops[d].idx_stride_bytes = Bytes(idx, d);
    }
    plan->component_count = 1;
    plan->components[0] = {out.sizes[g.axis], Bytes(out, g.axis), 0, g.axis};
  } else {
    const uint32_t r = g.input_dims, q = g.indices_dims, t = idx.sizes[n - 1];
    const uint32_t m = (q - 1) + (r - t);
    for (uint32_t d = 0; d < n; ++d) {
      loops[d].size = upd.sizes[d];
      loops[d].upd_stride_bytes = Bytes(upd, d);
      if (d < n - m) continue;  // leading 1s
      const uint32_t k = d - (n - m);
      if (k < q - 1) {
        loops[d].idx_stride_bytes = Bytes(idx, n - q + k);  // the index grid
      } else {
        loops[d].out_stride_bytes = Bytes(out, n - r + t + (k - (q - 1)));  // the trailing block
      }
    }
    plan->component_count = t;
    for (uint32_t j = 0; j < t; ++j) {
      plan->components[j] = {out.sizes[n - r + j], Bytes(out, n - r + j),
                             static_cast<int64_t>(j) * Bytes(idx, n - 1), n - r + j};
    }
  }
  plan->loop_count = CollapseScatterLoops(loops, n);
  uint64_t items = 1;
  for (uint32_t d = 0; d < plan->loop_count; ++d) {
    plan->loops[d] = loops[d];
    items *= static_cast<uint64_t>(loops[d].size);
  }
  plan->item_count = items;
  const ScatterLoop& row = plan->loops[plan->loop_count - 1];
  plan->tuple_per_row = row.idx_stride_bytes == 0;
  const uint64_t tuples = plan->tuple_per_row ? items / static_cast<uint64_t>(row.size) : items;
  plan->bytes_moved = items * out.elem_bytes * 3 +
                      tuples * plan->component_count * IndexBytes(g.index_type);
  uint64_t span = out.elem_bytes;
  for (uint32_t d = 0; d < n; ++d) span += uint64_t{out.sizes[d] - 1} * Bytes(out, d);
  plan->key_span_bytes = span;

  // The destination loop with the most coordinates splits best; none: key ranges.
  int64_t best = 1;
  for (uint32_t d = 0; d < plan->loop_count; ++d) {
    if (plan->loops[d].out_stride_bytes != 0 && plan->loops[d].size > best) {
      best = plan->loops[d].size;
      plan->split_loop = d;
    }
  }
  const uint64_t threads = settings.concurrency == 0 ? 2 : settings.concurrency;
  if (plan->bytes_moved >= settings.serial_cutoff_bytes && threads > 1) {
    plan->max_slices = plan->split_loop == kNoSplitLoop
                           ? threads
                           : std::min<uint64_t>(threads, static_cast<uint64_t>(best));
  }
  const kernels::ScatterKernels& k = kernels::GetScatterKernels();
  plan->resolve = k.resolve[static_cast<int>(g.index_type)];
  plan->apply_elems = k.elems[static_cast<int>(plan->type)][static_cast<int>(plan->reduction)];
  plan->apply_run = k.run[static_cast<int>(plan->type)][static_cast<int>(plan->reduction)];
  if (plan->apply_elems == nullptr || plan->apply_run == nullptr) {
    return Status(StatusCode::kInternal, "scatter: no kernel for the type and reduction");
  }
  return Status::Ok();
}

void BuildScatterScans(const ScatterGeometry& g, IndexScans* scans) {
  *scans = IndexScans();
  const TensorInfo& idx = g.indices;
  const uint32_t n = idx.rank;
  const bool tuples = g.type == DML_OPERATOR_SCATTER_ND;
  const uint32_t dims = tuples ? n - 1 : n;
  scans->indices_binding = 1;
  scans->index_type = g.index_type;
  scans->tuple_size = tuples ? idx.sizes[n - 1] : 1;
  scans->scan_count = scans->tuple_size;
  scans->find_out_of_range =
      kernels::BestKernels().find_out_of_range[static_cast<int>(g.index_type)];
  for (uint32_t c = 0; c < scans->scan_count; ++c) {
    IndexScan& scan = scans->scans[c];
    scan.component = c;
    if (tuples) {
      const uint32_t dim = n - g.input_dims + c;
      scan.dim_size = g.output.sizes[dim];
      scan.input_dim = dim;
      scan.offset_bytes = static_cast<int64_t>(c) * Bytes(idx, n - 1);
    } else {
      scan.dim_size = g.output.sizes[g.axis];
      scan.input_dim = g.axis;
    }
    uint32_t count = 0;
    for (uint32_t d = 0; d < dims; ++d) {
      if (idx.sizes[d] == 1) continue;
      scan.sizes[count] = idx.sizes[d];
      scan.strides_bytes[count] = Bytes(idx, d);
      ++count;
    }
    if (count == 0) {
      scan.sizes[0] = 1;
      scan.strides_bytes[0] = idx.elem_bytes;
      count = 1;
    }
    scan.loop_count = count;
  }
}

}  // namespace internal
}  // namespace dmlcpu
