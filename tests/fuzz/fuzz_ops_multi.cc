// SPDX-License-Identifier: Apache-2.0
// Fuzz generation of the operators with more bindings than the harness's input / indices /
// output: SCATTER and SCATTER_ND (a third input, UpdatesTensor) and SPLIT (one to three outputs).
#include <algorithm>
#include <vector>

#include "fuzz/fuzz_case.h"

namespace dmlcpu_fuzz {
namespace {

// Now and then one entry of `sizes` replaced by a random dimension (a shape-rule violation).
void MaybeBreak(FuzzInput& in, std::vector<uint32_t>* sizes) {
  const uint8_t b = in.U8();
  if ((b & 15) == 0 && !sizes->empty()) (*sizes)[(b >> 4) % sizes->size()] = Dim(in);
}

}  // namespace

bool IsMultiOp(uint32_t type) {
  return type == DML_OPERATOR_SCATTER || type == DML_OPERATOR_SCATTER_ND ||
         type == DML_OPERATOR_SPLIT;
}

void GenerateMultiOp(FuzzInput& in, uint32_t n, FuzzCase* c, std::vector<uint32_t>* in_sizes,
                     std::vector<uint32_t>* idx_sizes, std::vector<uint32_t>* out_sizes) {
  const uint32_t n1 = std::max<uint32_t>(n, 1);
  std::vector<uint32_t> upd_sizes;
  switch (c->type) {
    case DML_OPERATOR_SCATTER: {  // Idx == In but along Axis; Upd == Idx; Out == In
      c->attr[0] = in.U8() % n1;
      *in_sizes = Dims(in, n);
      *idx_sizes = *in_sizes;
      if (n > 0) (*idx_sizes)[c->attr[0]] = Dim(in);
      upd_sizes = *idx_sizes;
      break;
    }
    case DML_OPERATOR_SCATTER_ND: {
      const uint32_t r = 1 + in.U8() % n1, q = 1 + in.U8() % n1, t = 1 + in.U8() % r;
      c->attr[0] = r;
      c->attr[1] = q;
      in_sizes->assign(n, 1);
      for (uint32_t i = n - std::min(r, n); i < n; ++i) (*in_sizes)[i] = Dim(in);
      idx_sizes->assign(n, 1);
      for (uint32_t i = n - std::min(q, n); i + 1 < n; ++i) (*idx_sizes)[i] = Dim(in);
      if (n > 0) (*idx_sizes)[n - 1] = t;
      const uint32_t m = (q - 1) + (r - t);
      if (m <= n && r <= n && q <= n) {  // Upd = [1]*(N-m) ++ Idx[N-q .. N-1) ++ In[N-r+t .. N)
        upd_sizes.assign(n - m, 1);
        for (uint32_t i = n - q; i + 1 < n; ++i) upd_sizes.push_back((*idx_sizes)[i]);
        for (uint32_t i = n - r + t; i < n; ++i) upd_sizes.push_back((*in_sizes)[i]);
      } else {
        upd_sizes = *idx_sizes;
      }
      break;
    }
    default: {  // SPLIT: the input's Axis is the sum of the outputs'
      c->attr[0] = in.U8() % n1;
      const uint32_t count = 1 + in.U8() % (1 + kMaxMoreOutputs);
      c->attr[1] = count;
      *in_sizes = Dims(in, n);
      if (n > 0) (*in_sizes)[c->attr[0]] = 0;
      for (uint32_t k = 0; k < count; ++k) {
        std::vector<uint32_t> part = *in_sizes;
        if (n > 0) {
          part[c->attr[0]] = 1 + in.U8() % 4;
          (*in_sizes)[c->attr[0]] += part[c->attr[0]];
        }
        if (k == 0) {
          *out_sizes = part;
        } else {
          c->more_outputs[k - 1].data_type = c->output.data_type;
          c->more_outputs[k - 1].SetSizes(part);
        }
      }
      c->more_output_count = count - 1;
      if (n > 0 && (*in_sizes)[c->attr[0]] == 0) (*in_sizes)[c->attr[0]] = 1;
      MaybeBreak(in, out_sizes);
      return;
    }
  }
  MaybeBreak(in, idx_sizes);
  MaybeBreak(in, &upd_sizes);
  *out_sizes = *in_sizes;
  c->updates.data_type = c->input.data_type;
  c->updates.SetSizes(upd_sizes);
}

const void* BuildMultiOpDesc(FuzzCase* c, const DML_TENSOR_DESC* in_t,
                             const DML_TENSOR_DESC* idx_t, const DML_TENSOR_DESC* out_t) {
  if (c->type == DML_OPERATOR_SCATTER) {
    c->scatter = {in_t, idx_t, c->updates.Build(), out_t, c->attr[0]};
    return &c->scatter;
  }
  if (c->type == DML_OPERATOR_SCATTER_ND) {
    c->scatter_nd = {in_t, idx_t, c->updates.Build(), out_t, c->attr[0], c->attr[1]};
    return &c->scatter_nd;
  }
  // SPLIT: OutputCount never exceeds the array; an absent output makes the whole array null.
  const uint32_t count = std::min(c->attr[1], 1 + kMaxMoreOutputs);
  bool all_present = out_t != nullptr;
  c->split_outputs[0] = out_t != nullptr ? *out_t : DML_TENSOR_DESC{};
  for (uint32_t k = 0; k < kMaxMoreOutputs; ++k) {
    const DML_TENSOR_DESC* t = c->more_outputs[k].Build();
    all_present &= t != nullptr || k + 1 >= count;
    c->split_outputs[k + 1] = t != nullptr ? *t : DML_TENSOR_DESC{};
  }
  c->split = {in_t, count, all_present ? c->split_outputs : nullptr, c->attr[0]};
  return &c->split;
}

}  // namespace dmlcpu_fuzz
