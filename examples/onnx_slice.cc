// SPDX-License-Identifier: Apache-2.0
// The README's ONNX adapter example: an ONNX Slice node, y = x[:, ::-2], run through dmlcpu.
#include <cstdint>
#include <cstdio>

#include "dmlcpu/dmlcpu.h"
#include "dmlcpu/onnx.h"

int main() {
  // ONNX Slice (opset >= 10): starts/ends/axes/steps arrive as tensors; pass their values.
  const dmlcpu::onnx::TensorType x{dmlcpu::onnx::ElementType::kFloat, {2, 5}};
  auto node = dmlcpu::onnx::Slice(x, {/*starts=*/{-1}, /*ends=*/{INT64_MIN}, /*axes=*/{1},
                                      /*steps=*/{-2}});
  if (!node.ok()) return std::printf("%s\n", node.status().message().c_str()), 1;
  // node->output_shape() is {2, 3}; node->desc() is a DML_OPERATOR_SLICE1 descriptor.

  dmlcpu::Device device;
  auto op = device.Compile(node->desc(), {dmlcpu::IndexPolicy::kStrict});
  if (!op.ok()) return std::printf("%s\n", op.status().message().c_str()), 1;

  float input[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, output[6];
  dmlcpu::Status s = op->Execute({{input, node->input_bytes(0)}},
                                 {{output, node->output_bytes()}});
  if (!s.ok()) return std::printf("%s\n", s.message().c_str()), 1;
  for (float v : output) std::printf("%g ", v);  // 4 2 0 9 7 5
  std::printf("\n%s\n", node->ToString().c_str());
  return 0;
}
