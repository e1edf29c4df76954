// SPDX-License-Identifier: Apache-2.0
// Runs GATHER example G2 (docs/semantics.md#gather) through the C++ API of an installed dmlcpu.
// Returns non-zero on any mismatch.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "dmlcpu/dmlcpu.h"

int main() {
  // G2: Axis 0, k 1; Input {3,2} [1..6]; Indices {1,4} [0,1,1,2] -> Output {4,2}.
  const uint32_t input_sizes[] = {3, 2};
  const uint32_t index_sizes[] = {1, 4};
  const uint32_t output_sizes[] = {4, 2};
  const DML_BUFFER_TENSOR_DESC input_buffer = {DML_TENSOR_DATA_TYPE_FLOAT32,
                                               DML_TENSOR_FLAG_NONE, 2, input_sizes, nullptr,
                                               24, 0};
  const DML_BUFFER_TENSOR_DESC index_buffer = {DML_TENSOR_DATA_TYPE_INT64,
                                               DML_TENSOR_FLAG_NONE, 2, index_sizes, nullptr,
                                               32, 0};
  const DML_BUFFER_TENSOR_DESC output_buffer = {DML_TENSOR_DATA_TYPE_FLOAT32,
                                                DML_TENSOR_FLAG_NONE, 2, output_sizes, nullptr,
                                                32, 0};
  const DML_TENSOR_DESC input_tensor = {DML_TENSOR_TYPE_BUFFER, &input_buffer};
  const DML_TENSOR_DESC index_tensor = {DML_TENSOR_TYPE_BUFFER, &index_buffer};
  const DML_TENSOR_DESC output_tensor = {DML_TENSOR_TYPE_BUFFER, &output_buffer};
  DML_GATHER_OPERATOR_DESC gather = {&input_tensor, &index_tensor, &output_tensor, 0, 1};
  const DML_OPERATOR_DESC desc = {DML_OPERATOR_GATHER, &gather};

  dmlcpu::Device device;
  auto op = device.Compile(desc);
  if (!op.ok()) {
    std::fprintf(stderr, "compile failed: %s\n", op.status().message().c_str());
    return 1;
  }
  const float input[6] = {1, 2, 3, 4, 5, 6};
  const int64_t indices[4] = {0, 1, 1, -1};  // -1 is the last row (FL >= 3_0)
  float output[8] = {};
  const dmlcpu::Status status = op->Execute({{input, sizeof(input)}, {indices, sizeof(indices)}},
                                            {{output, sizeof(output)}});
  if (!status.ok()) {
    std::fprintf(stderr, "execute failed: %s\n", status.message().c_str());
    return 1;
  }
  const float expected[8] = {1, 2, 3, 4, 3, 4, 5, 6};
  if (std::memcmp(output, expected, sizeof(output)) != 0) {
    std::fprintf(stderr, "wrong output\n");
    return 1;
  }

  // The error model works across the package boundary too.
  gather.Axis = 5;
  auto bad = device.Compile(desc);
  if (bad.ok() || bad.status().code() != dmlcpu::StatusCode::kInvalidArgument ||
      bad.status().message().find("Axis is 5") == std::string::npos) {
    std::fprintf(stderr, "invalid Axis not reported: %s\n", bad.status().message().c_str());
    return 1;
  }
  std::printf("consumer_cxx: GATHER through the C++ API OK\n");
  return 0;
}
