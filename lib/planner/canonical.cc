// SPDX-License-Identifier: Apache-2.0
// The canonical form of an affine step: one loop per output dimension, the input base offset
// and the index components, from the validated geometry (docs/design.md#canonical-form).
#include "planner/planner.h"

namespace dmlcpu {
namespace internal {
namespace {

int64_t StrideBytes(const TensorInfo& t, uint32_t dim) {
  // Element strides are < 2^32 and widths <= 8: the product fits easily.
  return static_cast<int64_t>(t.strides_elems[dim]) * t.elem_bytes;
}

}  // namespace

void BuildCanonical(const OpGeometry& g, Plan* plan) {
  const uint32_t n = g.output.rank;
  const TensorInfo& in = g.input;
  const TensorInfo& idx = g.indices;
  plan->elem_bytes = in.elem_bytes;
  plan->in_base_bytes = 0;
  plan->loop_count = n;
  plan->component_count = 0;
  for (uint32_t j = 0; j < n; ++j) {
    Loop& loop = plan->loops[j];
    loop = Loop();
    loop.size = g.output.sizes[j];
    loop.out_stride_bytes = StrideBytes(g.output, j);
  }
  auto add_component = [&](uint32_t input_dim, int64_t idx_offset_bytes) {
    IndexComponent& c = plan->components[plan->component_count++];
    c.dim_size = in.sizes[input_dim];
    c.pitch_bytes = StrideBytes(in, input_dim);
    c.idx_offset_bytes = idx_offset_bytes;
    c.input_dim = input_dim;
  };

  switch (g.type) {
    case DML_OPERATOR_SLICE:
    case DML_OPERATOR_SLICE1:
      for (uint32_t i = 0; i < n; ++i) {
        // A size-1 output dimension never steps (and validation does not bound a step it never
        // takes, so step * stride could overflow): its loop is dropped anyway.
        plan->loops[i].in_stride_bytes =
            g.output.sizes[i] == 1 ? 0 : g.slice_step[i] * StrideBytes(in, i);
        plan->in_base_bytes += g.slice_start[i] * StrideBytes(in, i);
      }
      break;
    case DML_OPERATOR_GATHER: {
      // Output dims: In[0, axis) ++ Idx[n-k, n) ++ In[axis+1, n), right-aligned.
      const int64_t axis = g.axis, k = g.index_dimensions;
      for (int64_t j = 0; j < static_cast<int64_t>(n); ++j) {
        Loop& loop = plan->loops[j];
        if (j > axis) {
          loop.in_stride_bytes = StrideBytes(in, static_cast<uint32_t>(j));
        } else if (j >= axis - k + 1) {
          loop.idx_stride_bytes =
              StrideBytes(idx, static_cast<uint32_t>(n - k + (j - (axis - k + 1))));
        } else if (j + k - 1 >= 0) {
          loop.in_stride_bytes = StrideBytes(in, static_cast<uint32_t>(j + k - 1));
        }
      }
      add_component(g.axis, 0);
      break;
    }
    case DML_OPERATOR_GATHER_ELEMENTS:
      for (uint32_t d = 0; d < n; ++d) {
        plan->loops[d].in_stride_bytes = d == g.axis ? 0 : StrideBytes(in, d);
        plan->loops[d].idx_stride_bytes = StrideBytes(idx, d);
      }
      add_component(g.axis, 0);
      break;
    case DML_OPERATOR_GATHER_ND:
    case DML_OPERATOR_GATHER_ND1: {
      const uint32_t r = g.input_dims, q = g.indices_dims, b = g.batch_dims;
      const uint32_t t = idx.sizes[n - 1];
      const uint32_t m = (q - 1) + (r - b - t);
      for (uint32_t j = n - m; j < n; ++j) {
        const uint32_t i = j - (n - m);
        Loop& loop = plan->loops[j];
        if (i < b) {
          loop.in_stride_bytes = StrideBytes(in, n - r + i);
          loop.idx_stride_bytes = StrideBytes(idx, n - q + i);
        } else if (i < q - 1) {
          loop.idx_stride_bytes = StrideBytes(idx, n - q + i);
        } else {
          loop.in_stride_bytes = StrideBytes(in, n - r + b + t + (i - (q - 1)));
        }
      }
      for (uint32_t c = 0; c < t; ++c) add_component(n - r + b + c, c * StrideBytes(idx, n - 1));
      break;
    }
    default:
      break;
  }
}

}  // namespace internal
}  // namespace dmlcpu
