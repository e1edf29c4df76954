// SPDX-License-Identifier: Apache-2.0
// The README's usage example: a GATHER_ND1 built from plain DirectML structs, run on the CPU.
#include <cstdio>

#include "dmlcpu/dmlcpu.h"

int main() {
  // Example ND1-2 of docs/semantics.md#gather_nd1: 3 batches of 2x2; each batch picks two
  // (row, col) tuples.
  uint32_t in_sizes[] = {1, 3, 2, 2}, idx_sizes[] = {1, 3, 2, 2}, out_sizes[] = {1, 1, 3, 2};
  DML_BUFFER_TENSOR_DESC in = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, in_sizes,
                               nullptr, 48, 0};
  DML_BUFFER_TENSOR_DESC idx = {DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_FLAG_NONE, 4, idx_sizes,
                                nullptr, 48, 0};
  DML_BUFFER_TENSOR_DESC out = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, out_sizes,
                                nullptr, 24, 0};
  DML_TENSOR_DESC in_desc = {DML_TENSOR_TYPE_BUFFER, &in},
                  idx_desc = {DML_TENSOR_TYPE_BUFFER, &idx},
                  out_desc = {DML_TENSOR_TYPE_BUFFER, &out};
  DML_GATHER_ND1_OPERATOR_DESC gather = {&in_desc, &idx_desc, &out_desc, 3, 3, 1};

  dmlcpu::Device device;  // every CPU it may use; DeviceOptions{1} for serial
  auto op = device.Compile({DML_OPERATOR_GATHER_ND1, &gather});
  if (!op.ok()) return std::printf("%s\n", op.status().message().c_str()), 1;

  float input[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, output[6];
  uint32_t indices[12] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0};
  dmlcpu::Status s = op->Execute({{input, sizeof(input)}, {indices, sizeof(indices)}},
                                 {{output, sizeof(output)}});
  if (!s.ok()) return std::printf("%s\n", s.message().c_str()), 1;
  for (float v : output) std::printf("%g ", v);  // 0 3 7 4 9 10
  std::printf("\n%s", op->Describe().c_str());
  return 0;
}
