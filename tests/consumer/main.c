/* SPDX-License-Identifier: Apache-2.0 */
/* Runs GATHER example G1 (docs/semantics.md#gather) through the C ABI of an installed dmlcpu
 * (plain C99).
 * Returns non-zero on any mismatch. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dmlcpu/dmlcpu_c.h"

int main(void) {
  /* G1: Axis 0, k 1; Input {4} [11,12,13,14]; Indices {5} [3,1,3,0,2] -> [14,12,14,11,13]. */
  static const uint32_t kInputSizes[1] = {4};
  static const uint32_t kIndexSizes[1] = {5};
  static const float kExpected[5] = {14, 12, 14, 11, 13};
  DML_BUFFER_TENSOR_DESC buffers[3];
  DML_TENSOR_DESC tensors[3];
  DML_GATHER_OPERATOR_DESC gather;
  DML_OPERATOR_DESC desc;
  dmlcpu_device* device = NULL;
  dmlcpu_operator* op = NULL;
  float input[4] = {11, 12, 13, 14};
  uint32_t indices[5] = {3, 1, 3, 0, 2};
  float output[5] = {0, 0, 0, 0, 0};
  dmlcpu_binding inputs[2];
  dmlcpu_binding outputs[1];
  dmlcpu_status status;
  int i;

  memset(buffers, 0, sizeof(buffers));
  buffers[0].DataType = DML_TENSOR_DATA_TYPE_FLOAT32;
  buffers[0].DimensionCount = 1;
  buffers[0].Sizes = kInputSizes;
  buffers[0].TotalTensorSizeInBytes = 16;
  buffers[1].DataType = DML_TENSOR_DATA_TYPE_UINT32;
  buffers[1].DimensionCount = 1;
  buffers[1].Sizes = kIndexSizes;
  buffers[1].TotalTensorSizeInBytes = 20;
  buffers[2] = buffers[0];
  buffers[2].Sizes = kIndexSizes;
  buffers[2].TotalTensorSizeInBytes = 20;
  for (i = 0; i < 3; ++i) {
    tensors[i].Type = DML_TENSOR_TYPE_BUFFER;
    tensors[i].Desc = &buffers[i];
  }
  gather.InputTensor = &tensors[0];
  gather.IndicesTensor = &tensors[1];
  gather.OutputTensor = &tensors[2];
  gather.Axis = 0;
  gather.IndexDimensions = 1;
  desc.Type = DML_OPERATOR_GATHER;
  desc.Desc = &gather;

  if (dmlcpu_device_create(0, &device) != DMLCPU_OK) {
    fprintf(stderr, "device: %s\n", dmlcpu_last_error_message());
    return 1;
  }
  if (dmlcpu_compile(device, &desc, DMLCPU_INDEX_STRICT, &op) != DMLCPU_OK) {
    fprintf(stderr, "compile: %s\n", dmlcpu_last_error_message());
    dmlcpu_device_destroy(device);
    return 1;
  }
  inputs[0].data = input;
  inputs[0].size_bytes = sizeof(input);
  inputs[1].data = indices;
  inputs[1].size_bytes = sizeof(indices);
  outputs[0].data = output;
  outputs[0].size_bytes = sizeof(output);
  status = dmlcpu_execute(op, inputs, 2, outputs, 1);
  if (status != DMLCPU_OK || memcmp(output, kExpected, sizeof(output)) != 0) {
    fprintf(stderr, "execute: status %d, %s\n", (int)status, dmlcpu_last_error_message());
    return 1;
  }
  /* Strict policy: an index past the end is reported and nothing is written. */
  indices[4] = 4;
  memset(output, 0, sizeof(output));
  status = dmlcpu_execute(op, inputs, 2, outputs, 1);
  if (status != DMLCPU_OUT_OF_RANGE || output[0] != 0 ||
      strstr(dmlcpu_last_error_message(), "IndicesTensor") == NULL) {
    fprintf(stderr, "strict: status %d, %s\n", (int)status, dmlcpu_last_error_message());
    return 1;
  }
  dmlcpu_operator_destroy(op);
  dmlcpu_device_destroy(device);
  printf("consumer_c: GATHER through the C ABI OK\n");
  return 0;
}
