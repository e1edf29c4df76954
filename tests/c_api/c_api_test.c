/* SPDX-License-Identifier: Apache-2.0 */
/* c_api_test — drives the dmlcpu C ABI from plain C99 (built with -std=c99 -pedantic).
 *
 * Covers: device creation (0, 1, 2 threads); compile + execute of GATHER, SLICE1 and GATHER_ND1
 * worked examples (docs/semantics.md#worked-examples); the error paths (invalid descriptor,
 * strict out-of-range index, short buffers, NULL arguments to every function); destroying device and operator in both
 * orders; dmlcpu_calc_buffer_tensor_size; dmlcpu_operator_describe; the version; the
 * struct_size rule; the last-error rule; operator introspection; const input bindings
 * (dmlcpu_execute2); the ONNX adapter (dmlcpu_onnx_*), with an ONNX Slice, Gather and ScatterND
 * (add, compiled with the node's scatter_reduction) run end to end; the engine's thread pool (parallel_for), old-size structs without it.
 * Prints "<passed> passed, <failed> failed" and exits non-zero on any failure. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "c_check.h"
#include "dmlcpu/dmlcpu_c.h"

#define SENTINEL_BITS 0xCDCDCDCDu

/* A packed buffer tensor desc; TotalTensorSizeInBytes = element count * 4 rounded to 4. */
static DML_BUFFER_TENSOR_DESC Buffer4(DML_TENSOR_DATA_TYPE type, UINT rank, const UINT* sizes) {
  DML_BUFFER_TENSOR_DESC desc;
  UINT64 count = 1;
  UINT i;
  for (i = 0; i < rank; ++i) count *= sizes[i];
  memset(&desc, 0, sizeof(desc));
  desc.DataType = type;
  desc.Flags = DML_TENSOR_FLAG_NONE;
  desc.DimensionCount = rank;
  desc.Sizes = sizes;
  desc.Strides = NULL;
  desc.TotalTensorSizeInBytes = count * 4;
  desc.GuaranteedBaseOffsetAlignment = 0;
  return desc;
}

static DML_TENSOR_DESC TensorOf(const DML_BUFFER_TENSOR_DESC* buffer) {
  DML_TENSOR_DESC desc;
  desc.Type = DML_TENSOR_TYPE_BUFFER;
  desc.Desc = buffer;
  return desc;
}

static void FillSentinel(float* values, int count) {
  int i;
  for (i = 0; i < count; ++i) {
    uint32_t bits = SENTINEL_BITS;
    memcpy(&values[i], &bits, 4);
  }
}

static int AllSentinel(const float* values, int count) {
  int i;
  for (i = 0; i < count; ++i) {
    uint32_t bits;
    memcpy(&bits, &values[i], 4);
    if (bits != SENTINEL_BITS) return 0;
  }
  return 1;
}

static int FloatsEqual(const float* actual, const float* expected, int count) {
  int i;
  for (i = 0; i < count; ++i) {
    if (actual[i] != expected[i]) {
      fprintf(stderr, "  element %d is %g, expected %g\n", i, actual[i], expected[i]);
      return 0;
    }
  }
  return 1;
}

/* ---- GATHER G1: Axis 0, k 1; {4} [11,12,13,14] indexed by {5} [3,1,3,0,2]. ---------------- */

static const UINT kG1InputSizes[1] = {4};
static const UINT kG1IndexSizes[1] = {5};
static const UINT kG1OutputSizes[1] = {5};

typedef struct GatherDesc {
  DML_BUFFER_TENSOR_DESC buffers[3];
  DML_TENSOR_DESC tensors[3];
  DML_GATHER_OPERATOR_DESC gather;
  DML_OPERATOR_DESC op;
} GatherDesc;

static void MakeGatherG1(GatherDesc* d) {
  int i;
  d->buffers[0] = Buffer4(DML_TENSOR_DATA_TYPE_FLOAT32, 1, kG1InputSizes);
  d->buffers[1] = Buffer4(DML_TENSOR_DATA_TYPE_UINT32, 1, kG1IndexSizes);
  d->buffers[2] = Buffer4(DML_TENSOR_DATA_TYPE_FLOAT32, 1, kG1OutputSizes);
  for (i = 0; i < 3; ++i) d->tensors[i] = TensorOf(&d->buffers[i]);
  d->gather.InputTensor = &d->tensors[0];
  d->gather.IndicesTensor = &d->tensors[1];
  d->gather.OutputTensor = &d->tensors[2];
  d->gather.Axis = 0;
  d->gather.IndexDimensions = 1;
  d->op.Type = DML_OPERATOR_GATHER;
  d->op.Desc = &d->gather;
}

/* Runs G1 with `indices`; returns the execute status and leaves the result in `output`. */
static dmlcpu_status RunGather(const dmlcpu_operator* op, const uint32_t* indices, float* output) {
  float input[4] = {11, 12, 13, 14};
  uint32_t index_copy[5];
  dmlcpu_binding inputs[2];
  dmlcpu_binding outputs[1];
  memcpy(index_copy, indices, sizeof(index_copy));
  inputs[0].data = input;
  inputs[0].size_bytes = sizeof(input);
  inputs[1].data = index_copy;
  inputs[1].size_bytes = sizeof(index_copy);
  outputs[0].data = output;
  outputs[0].size_bytes = 5 * sizeof(float);
  return dmlcpu_execute(op, inputs, 2, outputs, 1);
}

static void TestDeviceCreate(void) {
  uint32_t threads[3] = {0, 1, 2};
  int i;
  for (i = 0; i < 3; ++i) {
    dmlcpu_device* device = NULL;
    CHECK(dmlcpu_device_create(threads[i], &device) == DMLCPU_OK);
    CHECK(device != NULL);
    dmlcpu_device_destroy(device);
  }
  CHECK(dmlcpu_device_create(1, NULL) != DMLCPU_OK);
}

static void TestGather(uint32_t threads) {
  static const uint32_t kIndices[5] = {3, 1, 3, 0, 2};
  static const float kExpected[5] = {14, 12, 14, 11, 13};
  dmlcpu_device* device = NULL;
  dmlcpu_operator* op = NULL;
  GatherDesc desc;
  float output[5];
  CHECK(dmlcpu_device_create(threads, &device) == DMLCPU_OK);
  MakeGatherG1(&desc);
  CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_OK);
  CHECK(op != NULL);
  memset(&desc, 0, sizeof(desc)); /* the descriptor may die right after compile */
  FillSentinel(output, 5);
  CHECK(RunGather(op, kIndices, output) == DMLCPU_OK);
  CHECK(FloatsEqual(output, kExpected, 5));
  dmlcpu_operator_destroy(op);
  dmlcpu_device_destroy(device);
}

/* ---- SLICE1 S1-2: {1,1,4,4} [1..16], offsets {0,0,0,1}, sizes {1,1,4,3}, strides {1,1,-2,2}. */

static void TestSlice1(dmlcpu_device* device) {
  static const UINT kInputSizes[4] = {1, 1, 4, 4};
  static const UINT kOutputSizes[4] = {1, 1, 2, 2};
  static const UINT kOffsets[4] = {0, 0, 0, 1};
  static const UINT kWindowSizes[4] = {1, 1, 4, 3};
  static const INT kWindowStrides[4] = {1, 1, -2, 2};
  static const float kExpected[4] = {14, 16, 6, 8};
  DML_BUFFER_TENSOR_DESC buffers[2];
  DML_TENSOR_DESC tensors[2];
  DML_SLICE1_OPERATOR_DESC slice1;
  DML_OPERATOR_DESC desc;
  dmlcpu_operator* op = NULL;
  float input[16];
  float output[4];
  dmlcpu_binding in_binding;
  dmlcpu_binding out_binding;
  int i;

  buffers[0] = Buffer4(DML_TENSOR_DATA_TYPE_FLOAT32, 4, kInputSizes);
  buffers[1] = Buffer4(DML_TENSOR_DATA_TYPE_FLOAT32, 4, kOutputSizes);
  tensors[0] = TensorOf(&buffers[0]);
  tensors[1] = TensorOf(&buffers[1]);
  slice1.InputTensor = &tensors[0];
  slice1.OutputTensor = &tensors[1];
  slice1.DimensionCount = 4;
  slice1.InputWindowOffsets = kOffsets;
  slice1.InputWindowSizes = kWindowSizes;
  slice1.InputWindowStrides = kWindowStrides;
  desc.Type = DML_OPERATOR_SLICE1;
  desc.Desc = &slice1;
  CHECK(dmlcpu_compile(device, &desc, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_OK);
  if (op == NULL) return;

  for (i = 0; i < 16; ++i) input[i] = (float)(i + 1);
  FillSentinel(output, 4);
  in_binding.data = input;
  in_binding.size_bytes = sizeof(input);
  out_binding.data = output;
  out_binding.size_bytes = sizeof(output);
  CHECK(dmlcpu_execute(op, &in_binding, 1, &out_binding, 1) == DMLCPU_OK);
  CHECK(FloatsEqual(output, kExpected, 4));
  dmlcpu_operator_destroy(op);
}

/* ---- GATHER_ND1 ND1-2: r 3, q 3, b 1. ------------------------------------------------------ */

static void TestGatherNd1(dmlcpu_device* device) {
  static const UINT kInputSizes[4] = {1, 3, 2, 2};
  static const UINT kIndexSizes[4] = {1, 3, 2, 2};
  static const UINT kOutputSizes[4] = {1, 1, 3, 2};
  static const uint32_t kIndices[12] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0};
  static const float kExpected[6] = {0, 3, 7, 4, 9, 10};
  DML_BUFFER_TENSOR_DESC buffers[3];
  DML_TENSOR_DESC tensors[3];
  DML_GATHER_ND1_OPERATOR_DESC nd1;
  DML_OPERATOR_DESC desc;
  dmlcpu_operator* op = NULL;
  float input[12];
  uint32_t indices[12];
  float output[6];
  dmlcpu_binding inputs[2];
  dmlcpu_binding out_binding;
  int i;

  buffers[0] = Buffer4(DML_TENSOR_DATA_TYPE_FLOAT32, 4, kInputSizes);
  buffers[1] = Buffer4(DML_TENSOR_DATA_TYPE_UINT32, 4, kIndexSizes);
  buffers[2] = Buffer4(DML_TENSOR_DATA_TYPE_FLOAT32, 4, kOutputSizes);
  for (i = 0; i < 3; ++i) tensors[i] = TensorOf(&buffers[i]);
  nd1.InputTensor = &tensors[0];
  nd1.IndicesTensor = &tensors[1];
  nd1.OutputTensor = &tensors[2];
  nd1.InputDimensionCount = 3;
  nd1.IndicesDimensionCount = 3;
  nd1.BatchDimensionCount = 1;
  desc.Type = DML_OPERATOR_GATHER_ND1;
  desc.Desc = &nd1;
  CHECK(dmlcpu_compile(device, &desc, DMLCPU_INDEX_STRICT, &op) == DMLCPU_OK);
  if (op == NULL) return;

  for (i = 0; i < 12; ++i) input[i] = (float)i;
  memcpy(indices, kIndices, sizeof(indices));
  FillSentinel(output, 6);
  inputs[0].data = input;
  inputs[0].size_bytes = sizeof(input);
  inputs[1].data = indices;
  inputs[1].size_bytes = sizeof(indices);
  out_binding.data = output;
  out_binding.size_bytes = sizeof(output);
  CHECK(dmlcpu_execute(op, inputs, 2, &out_binding, 1) == DMLCPU_OK);
  CHECK(FloatsEqual(output, kExpected, 6));
  dmlcpu_operator_destroy(op);
}

/* ---- Error paths. --------------------------------------------------------------------------- */

static void TestInvalidDescriptor(dmlcpu_device* device) {
  GatherDesc desc;
  dmlcpu_operator* op = (dmlcpu_operator*)&desc; /* must be overwritten with NULL */
  MakeGatherG1(&desc);
  desc.gather.Axis = 5;
  CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_INVALID_ARGUMENT);
  CHECK(op == NULL);
  CHECK_MESSAGE("GATHER");
  CHECK_MESSAGE("Axis is 5");

  MakeGatherG1(&desc);
  desc.buffers[2].DataType = DML_TENSOR_DATA_TYPE_INT32;
  op = NULL;
  CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_INVALID_ARGUMENT);
  CHECK(op == NULL);
  CHECK_MESSAGE("OutputTensor.DataType");

  MakeGatherG1(&desc);
  desc.buffers[0].DataType = DML_TENSOR_DATA_TYPE_UINT4;
  desc.buffers[2].DataType = DML_TENSOR_DATA_TYPE_UINT4;
  CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_UNSUPPORTED);
  CHECK(op == NULL);
  CHECK_MESSAGE("InputTensor.DataType");

  MakeGatherG1(&desc);
  desc.buffers[1].TotalTensorSizeInBytes = 16; /* needs 20 */
  CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("IndicesTensor.TotalTensorSizeInBytes is 16");
  CHECK_MESSAGE("20");

  MakeGatherG1(&desc);
  desc.op.Type = (DML_OPERATOR_TYPE)9999;
  CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("9999");

  MakeGatherG1(&desc);
  desc.op.Type = DML_OPERATOR_ELEMENT_WISE_ABS; /* valid DirectML, not implemented */
  CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_UNSUPPORTED);
}

static void TestStrictOutOfRange(dmlcpu_device* device) {
  static const uint32_t kBad[5] = {3, 1, 7, 0, 9}; /* first bad: element 2, value 7 */
  static const uint32_t kGood[5] = {3, 1, 3, 0, 2};
  static const float kExpected[5] = {14, 12, 14, 11, 13};
  GatherDesc desc;
  dmlcpu_operator* strict = NULL;
  dmlcpu_operator* clamp = NULL;
  float output[5];
  MakeGatherG1(&desc);
  CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_STRICT, &strict) == DMLCPU_OK);
  CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_CLAMP, &clamp) == DMLCPU_OK);
  if (strict == NULL || clamp == NULL) {
    dmlcpu_operator_destroy(strict);
    dmlcpu_operator_destroy(clamp);
    return;
  }
  FillSentinel(output, 5);
  CHECK(RunGather(strict, kBad, output) == DMLCPU_OUT_OF_RANGE);
  CHECK_MESSAGE("IndicesTensor element 2");
  CHECK_MESSAGE("is 7");
  CHECK_MESSAGE("[0, 3]");
  CHECK(AllSentinel(output, 5));
  /* The same indices under the clamp policy: no error. */
  CHECK(RunGather(clamp, kBad, output) == DMLCPU_OK);
  CHECK(!AllSentinel(output, 5));
  /* Valid indices under the strict policy. */
  FillSentinel(output, 5);
  CHECK(RunGather(strict, kGood, output) == DMLCPU_OK);
  CHECK(FloatsEqual(output, kExpected, 5));
  dmlcpu_operator_destroy(strict);
  dmlcpu_operator_destroy(clamp);
}

static void TestShortBuffers(dmlcpu_device* device) {
  GatherDesc desc;
  dmlcpu_operator* op = NULL;
  float input[4] = {11, 12, 13, 14};
  uint32_t indices[5] = {3, 1, 3, 0, 2};
  float output[5];
  dmlcpu_binding inputs[2];
  dmlcpu_binding outputs[1];
  MakeGatherG1(&desc);
  CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_OK);
  if (op == NULL) return;
  inputs[0].data = input;
  inputs[0].size_bytes = sizeof(input);
  inputs[1].data = indices;
  inputs[1].size_bytes = 16; /* needs 20 */
  outputs[0].data = output;
  outputs[0].size_bytes = sizeof(output);
  FillSentinel(output, 5);
  CHECK(dmlcpu_execute(op, inputs, 2, outputs, 1) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("inputs[1].size_bytes is 16");
  CHECK_MESSAGE("20");
  CHECK(AllSentinel(output, 5));

  inputs[1].size_bytes = sizeof(indices);
  outputs[0].size_bytes = 8; /* needs 20 */
  CHECK(dmlcpu_execute(op, inputs, 2, outputs, 1) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("outputs[0].size_bytes is 8");
  CHECK(AllSentinel(output, 5));

  /* Output aliasing the input. */
  outputs[0].data = input;
  outputs[0].size_bytes = sizeof(input);
  CHECK(dmlcpu_execute(op, inputs, 2, outputs, 1) != DMLCPU_OK);
  CHECK(input[0] == 11 && input[3] == 14);

  /* Wrong counts. */
  outputs[0].data = output;
  outputs[0].size_bytes = sizeof(output);
  CHECK(dmlcpu_execute(op, inputs, 1, outputs, 1) == DMLCPU_INVALID_ARGUMENT);
  CHECK(dmlcpu_execute(op, inputs, 2, outputs, 0) == DMLCPU_INVALID_ARGUMENT);
  CHECK(AllSentinel(output, 5));
  dmlcpu_operator_destroy(op);
}

static void TestNullArguments(dmlcpu_device* device) {
  GatherDesc desc;
  dmlcpu_operator* op = NULL;
  float input[4] = {11, 12, 13, 14};
  uint32_t indices[5] = {3, 1, 3, 0, 2};
  float output[5];
  dmlcpu_binding inputs[2];
  dmlcpu_binding outputs[1];
  char text[16];
  const UINT sizes[1] = {4};

  MakeGatherG1(&desc);
  CHECK(dmlcpu_compile(NULL, &desc.op, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_INVALID_ARGUMENT);
  CHECK(op == NULL);
  CHECK(dmlcpu_compile(device, NULL, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_INVALID_ARGUMENT);
  CHECK(op == NULL);
  CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_CLAMP, NULL) == DMLCPU_INVALID_ARGUMENT);
  CHECK(dmlcpu_compile(device, &desc.op, (dmlcpu_index_policy)7, &op) != DMLCPU_OK);
  CHECK(op == NULL);
  desc.op.Desc = NULL;
  CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_INVALID_ARGUMENT);
  CHECK(op == NULL);
  CHECK_MESSAGE("GATHER");
  desc.gather.InputTensor = NULL;
  desc.op.Desc = &desc.gather;
  CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("InputTensor is null");

  MakeGatherG1(&desc);
  CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_OK);
  inputs[0].data = input;
  inputs[0].size_bytes = sizeof(input);
  inputs[1].data = indices;
  inputs[1].size_bytes = sizeof(indices);
  outputs[0].data = output;
  outputs[0].size_bytes = sizeof(output);
  FillSentinel(output, 5);
  CHECK(dmlcpu_execute(NULL, inputs, 2, outputs, 1) == DMLCPU_INVALID_ARGUMENT);
  CHECK(dmlcpu_execute(op, NULL, 2, outputs, 1) == DMLCPU_INVALID_ARGUMENT);
  CHECK(dmlcpu_execute(op, inputs, 2, NULL, 1) == DMLCPU_INVALID_ARGUMENT);
  inputs[0].data = NULL;
  CHECK(dmlcpu_execute(op, inputs, 2, outputs, 1) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("inputs[0]");
  inputs[0].data = input;
  outputs[0].data = NULL;
  CHECK(dmlcpu_execute(op, inputs, 2, outputs, 1) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("outputs[0]");
  CHECK(AllSentinel(output, 5));

  CHECK(dmlcpu_operator_describe(NULL, text, sizeof(text)) == 0);
  CHECK(dmlcpu_calc_buffer_tensor_size(DML_TENSOR_DATA_TYPE_FLOAT32, 1, NULL, NULL) == 0);
  CHECK(dmlcpu_calc_buffer_tensor_size(DML_TENSOR_DATA_TYPE_FLOAT32, 1, sizes, NULL) == 16);
  dmlcpu_device_destroy(NULL);
  dmlcpu_operator_destroy(NULL);
  CHECK(dmlcpu_last_error_message() != NULL);
  dmlcpu_operator_destroy(op);
}

static void TestDestroyOrders(void) {
  static const uint32_t kIndices[5] = {3, 1, 3, 0, 2};
  static const float kExpected[5] = {14, 12, 14, 11, 13};
  GatherDesc desc;
  dmlcpu_device* device = NULL;
  dmlcpu_operator* op = NULL;
  float output[5];
  int order;
  for (order = 0; order < 2; ++order) {
    uint32_t threads = order == 0 ? 2 : 0;
    CHECK(dmlcpu_device_create(threads, &device) == DMLCPU_OK);
    MakeGatherG1(&desc);
    CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_OK);
    if (order == 0) {
      /* Device first: the operator keeps what it needs alive and still runs. */
      dmlcpu_device_destroy(device);
      FillSentinel(output, 5);
      CHECK(RunGather(op, kIndices, output) == DMLCPU_OK);
      CHECK(FloatsEqual(output, kExpected, 5));
      dmlcpu_operator_destroy(op);
    } else {
      dmlcpu_operator_destroy(op);
      /* The device still compiles after its operator is gone. */
      op = NULL;
      CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_OK);
      dmlcpu_operator_destroy(op);
      dmlcpu_device_destroy(device);
    }
  }
}

static void TestCalcBufferTensorSize(void) {
  static const UINT kNchw[4] = {1, 1, 3, 5};
  static const UINT kSizes2x3[2] = {2, 3};
  static const UINT kBroadcastRows[2] = {0, 1};
  static const UINT kFive[1] = {5};
  static const UINT kBig[2] = {65536, 65536};
  static const UINT kHuge[3] = {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu};
  CHECK(dmlcpu_calc_buffer_tensor_size(DML_TENSOR_DATA_TYPE_FLOAT16, 4, kNchw, NULL) == 32);
  CHECK(dmlcpu_calc_buffer_tensor_size(DML_TENSOR_DATA_TYPE_FLOAT32, 2, kSizes2x3,
                                       kBroadcastRows) == 12);
  CHECK(dmlcpu_calc_buffer_tensor_size(DML_TENSOR_DATA_TYPE_UINT4, 1, kFive, NULL) == 4);
  CHECK(dmlcpu_calc_buffer_tensor_size(DML_TENSOR_DATA_TYPE_UINT8, 1, kFive, NULL) == 8);
  CHECK(dmlcpu_calc_buffer_tensor_size(DML_TENSOR_DATA_TYPE_INT64, 1, kFive, NULL) == 40);
  CHECK(dmlcpu_calc_buffer_tensor_size(DML_TENSOR_DATA_TYPE_UNKNOWN, 1, kFive, NULL) == 0);
  CHECK(dmlcpu_calc_buffer_tensor_size((DML_TENSOR_DATA_TYPE)99, 1, kFive, NULL) == 0);
  CHECK(dmlcpu_calc_buffer_tensor_size(DML_TENSOR_DATA_TYPE_UINT8, 2, kBig, NULL) ==
        ((uint64_t)1 << 32));
  CHECK(dmlcpu_calc_buffer_tensor_size(DML_TENSOR_DATA_TYPE_FLOAT64, 3, kHuge, kHuge) == 0);
}

static void TestDescribe(dmlcpu_device* device) {
  GatherDesc desc;
  dmlcpu_operator* op = NULL;
  char small[8];
  char large[4096];
  uint64_t length;
  MakeGatherG1(&desc);
  CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_OK);
  if (op == NULL) return;
  length = dmlcpu_operator_describe(op, NULL, 0);
  CHECK(length > 0);
  memset(small, 'x', sizeof(small));
  CHECK(dmlcpu_operator_describe(op, small, sizeof(small)) == length);
  CHECK(memchr(small, '\0', sizeof(small)) != NULL); /* truncated but terminated */
  if (length < sizeof(small)) {
    CHECK(strlen(small) == length);
  } else {
    CHECK(strlen(small) == sizeof(small) - 1);
  }
  if (length < sizeof(large)) {
    CHECK(dmlcpu_operator_describe(op, large, sizeof(large)) == length);
    CHECK(strlen(large) == length);
    CHECK(strncmp(small, large, strlen(small)) == 0);
  }
  dmlcpu_operator_destroy(op);
}

static void TestVersion(void) {
  char expected[32];
  CHECK(dmlcpu_version() == DMLCPU_VERSION);
  CHECK(strcmp(dmlcpu_version_string(), DMLCPU_VERSION_STRING) == 0);
  sprintf(expected, "%d.%d.%d", DMLCPU_VERSION_MAJOR, DMLCPU_VERSION_MINOR, DMLCPU_VERSION_PATCH);
  CHECK(strcmp(dmlcpu_version_string(), expected) == 0);
}

/* struct_size: older, smaller structs are accepted (later fields take defaults); larger ones are
 * refused with a message naming struct_size and the largest known size. */
static void TestStructSize(void) {
  dmlcpu_device_options options;
  dmlcpu_device* device = NULL;
  char largest[32];
  sprintf(largest, "%u", (unsigned)sizeof(dmlcpu_device_options));

  memset(&options, 0, sizeof(options));
  options.struct_size = sizeof(options);
  options.max_threads = 1;
  CHECK(dmlcpu_device_create_ex(&options, &device) == DMLCPU_OK);
  CHECK(device != NULL && dmlcpu_device_backend(device) == DMLCPU_BACKEND_CPU);
  dmlcpu_device_destroy(device);

  /* A struct that ends before `backend`: the garbage there is never read. */
  options.struct_size = (uint32_t)offsetof(dmlcpu_device_options, backend);
  options.backend = (dmlcpu_backend)99;
  device = NULL;
  CHECK(dmlcpu_device_create_ex(&options, &device) == DMLCPU_OK);
  CHECK(device != NULL && dmlcpu_device_backend(device) == DMLCPU_BACKEND_CPU);
  dmlcpu_device_destroy(device);
  /* The same garbage inside struct_size is refused. */
  options.struct_size = sizeof(options);
  CHECK(dmlcpu_device_create_ex(&options, &device) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("options->backend is 99");
  options.backend = DMLCPU_BACKEND_CPU;

  /* Only struct_size itself. */
  options.struct_size = sizeof(uint32_t);
  options.max_threads = 12345;
  device = NULL;
  CHECK(dmlcpu_device_create_ex(&options, &device) == DMLCPU_OK);
  dmlcpu_device_destroy(device);

  /* Newer, larger, or no struct at all. */
  options.struct_size = sizeof(options) + 8;
  CHECK(dmlcpu_device_create_ex(&options, &device) == DMLCPU_INVALID_ARGUMENT);
  CHECK(device == NULL);
  CHECK_MESSAGE("struct_size");
  CHECK_MESSAGE(largest);
  options.struct_size = 0;
  CHECK(dmlcpu_device_create_ex(&options, &device) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("options->struct_size is 0");
}

/* The engine's thread pool (parallel_for in dmlcpu_device_options). This "pool" runs every
 * task inline, last index first (the contract allows any thread and any order). */
typedef struct ReversePool {
  int calls;
  int tasks;
  uint32_t max_task_count;
  int bad_context;
} ReversePool;

static void ReverseParallelFor(void* context, uint32_t task_count, dmlcpu_task_fn function,
                               void* argument) {
  ReversePool* pool = (ReversePool*)context;
  uint32_t i;
  ++pool->calls;
  if (task_count > pool->max_task_count) pool->max_task_count = task_count;
  for (i = task_count; i-- > 0;) {
    function(argument, i);
    ++pool->tasks;
  }
}

/* For a struct that ends before parallel_for_context: the context must arrive as NULL. */
static ReversePool g_context_free_pool;
static void ContextFreeParallelFor(void* context, uint32_t task_count, dmlcpu_task_fn function,
                                   void* argument) {
  if (context != NULL) ++g_context_free_pool.bad_context;
  ReverseParallelFor(&g_context_free_pool, task_count, function, argument);
}

enum { kPoolRows = 1024, kPoolCols = 64, kPoolIndices = 2048 };

/* GATHER along axis 0 of FLOAT32 {kPoolRows, kPoolCols}: 512 KiB of output (parallel). Returns
 * 1 when the output is the gathered rows. */
static int RunLargeGather(dmlcpu_device* device, const float* input, const uint32_t* indices,
                          float* output) {
  static const UINT kInSizes[2] = {kPoolRows, kPoolCols};
  static const UINT kIdxSizes[2] = {1, kPoolIndices};
  static const UINT kOutSizes[2] = {kPoolIndices, kPoolCols};
  DML_BUFFER_TENSOR_DESC in = Buffer4(DML_TENSOR_DATA_TYPE_FLOAT32, 2, kInSizes);
  DML_BUFFER_TENSOR_DESC idx = Buffer4(DML_TENSOR_DATA_TYPE_UINT32, 2, kIdxSizes);
  DML_BUFFER_TENSOR_DESC out = Buffer4(DML_TENSOR_DATA_TYPE_FLOAT32, 2, kOutSizes);
  DML_TENSOR_DESC in_t = TensorOf(&in), idx_t = TensorOf(&idx), out_t = TensorOf(&out);
  DML_GATHER_OPERATOR_DESC gather;
  DML_OPERATOR_DESC desc;
  dmlcpu_operator* op = NULL;
  dmlcpu_binding inputs[2];
  dmlcpu_binding outputs[1];
  int ok;
  uint32_t i, c;
  gather.InputTensor = &in_t;
  gather.IndicesTensor = &idx_t;
  gather.OutputTensor = &out_t;
  gather.Axis = 0;
  gather.IndexDimensions = 1;
  desc.Type = DML_OPERATOR_GATHER;
  desc.Desc = &gather;
  if (dmlcpu_compile(device, &desc, DMLCPU_INDEX_CLAMP, &op) != DMLCPU_OK) return 0;
  inputs[0].data = (void*)input;
  inputs[0].size_bytes = in.TotalTensorSizeInBytes;
  inputs[1].data = (void*)indices;
  inputs[1].size_bytes = idx.TotalTensorSizeInBytes;
  outputs[0].data = output;
  outputs[0].size_bytes = out.TotalTensorSizeInBytes;
  memset(output, 0, out.TotalTensorSizeInBytes);
  ok = dmlcpu_execute(op, inputs, 2, outputs, 1) == DMLCPU_OK;
  dmlcpu_operator_destroy(op);
  for (i = 0; ok && i < kPoolIndices; ++i) {
    for (c = 0; c < kPoolCols; ++c) {
      if (output[i * kPoolCols + c] != input[indices[i] * kPoolCols + c]) ok = 0;
    }
  }
  return ok;
}

static void TestEnginePool(void) {
  static float input[kPoolRows * kPoolCols];
  static uint32_t indices[kPoolIndices];
  static float output[kPoolIndices * kPoolCols];
  static float serial_output[kPoolIndices * kPoolCols];
  ReversePool pool;
  dmlcpu_device_options options;
  dmlcpu_device* device = NULL;
  dmlcpu_device* serial = NULL;
  uint32_t i;
  for (i = 0; i < kPoolRows * kPoolCols; ++i) input[i] = (float)i;
  for (i = 0; i < kPoolIndices; ++i) indices[i] = (i * 7919u) % kPoolRows;
  memset(&pool, 0, sizeof(pool));

  memset(&options, 0, sizeof(options));
  options.struct_size = sizeof(options);
  options.max_threads = 4;
  options.parallel_for = ReverseParallelFor;
  options.parallel_for_context = &pool;
  CHECK(dmlcpu_device_create_ex(&options, &device) == DMLCPU_OK);
  CHECK(dmlcpu_device_create(1, &serial) == DMLCPU_OK);
  if (device == NULL || serial == NULL) return;
  CHECK(RunLargeGather(device, input, indices, output));
  CHECK(RunLargeGather(serial, input, indices, serial_output));
  CHECK(memcmp(output, serial_output, sizeof(output)) == 0);
  CHECK(pool.calls >= 1);
  CHECK(pool.max_task_count >= 2 && pool.max_task_count <= 4);
  /* Tiny work runs inline: no call. */
  {
    static const uint32_t kIndices[5] = {3, 1, 3, 0, 2};
    static const float kExpected[5] = {14, 12, 14, 11, 13};
    const int calls = pool.calls;
    GatherDesc desc;
    dmlcpu_operator* op = NULL;
    float small_output[5];
    MakeGatherG1(&desc);
    CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_OK);
    CHECK(RunGather(op, kIndices, small_output) == DMLCPU_OK);
    CHECK(FloatsEqual(small_output, kExpected, 5));
    CHECK(pool.calls == calls);
    dmlcpu_operator_destroy(op);
  }
  dmlcpu_device_destroy(device);

  /* A struct from before the engine pool (it ends before parallel_for): what lies past
   * struct_size is never read, and the device uses its own threads. */
  memset(&pool, 0, sizeof(pool));
  options.struct_size = (uint32_t)offsetof(dmlcpu_device_options, parallel_for);
  device = NULL;
  CHECK(dmlcpu_device_create_ex(&options, &device) == DMLCPU_OK);
  CHECK(device != NULL && RunLargeGather(device, input, indices, output));
  CHECK(pool.calls == 0);
  dmlcpu_device_destroy(device);

  /* A struct that ends between the two fields: the context takes its default, NULL. */
  memset(&g_context_free_pool, 0, sizeof(g_context_free_pool));
  options.struct_size = (uint32_t)offsetof(dmlcpu_device_options, parallel_for_context);
  options.parallel_for = ContextFreeParallelFor;
  device = NULL;
  CHECK(dmlcpu_device_create_ex(&options, &device) == DMLCPU_OK);
  CHECK(device != NULL && RunLargeGather(device, input, indices, output));
  CHECK(g_context_free_pool.calls >= 1 && g_context_free_pool.bad_context == 0);
  dmlcpu_device_destroy(device);

  /* A context without a parallel_for is refused. */
  options.struct_size = sizeof(options);
  options.parallel_for = NULL;
  options.parallel_for_context = &pool;
  device = NULL;
  CHECK(dmlcpu_device_create_ex(&options, &device) == DMLCPU_INVALID_ARGUMENT);
  CHECK(device == NULL);
  CHECK_MESSAGE("parallel_for_context is");
  dmlcpu_device_destroy(serial);
}

/* A successful call leaves the last error (text and pointer) as the last failure set it. */
static void TestLastErrorRule(dmlcpu_device* device) {
  GatherDesc desc;
  dmlcpu_operator* op = NULL;
  const char* message;
  char copy[256];
  CHECK(dmlcpu_compile(device, NULL, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_INVALID_ARGUMENT);
  message = dmlcpu_last_error_message();
  strncpy(copy, message, sizeof(copy) - 1);
  copy[sizeof(copy) - 1] = '\0';
  CHECK(strstr(copy, "desc is null") != NULL);
  MakeGatherG1(&desc);
  CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_CLAMP, &op) == DMLCPU_OK);
  CHECK(dmlcpu_last_error_message() == message);
  CHECK(strcmp(dmlcpu_last_error_message(), copy) == 0);
  /* The next failure replaces it. */
  CHECK(dmlcpu_operator_input_bytes(op, 7, NULL) == DMLCPU_INVALID_ARGUMENT);
  CHECK(strcmp(dmlcpu_last_error_message(), copy) != 0);
  dmlcpu_operator_destroy(op);
}

static void TestIntrospectionAndConstInputs(dmlcpu_device* device) {
  static const float kInput[4] = {11, 12, 13, 14};
  static const uint32_t kIndices[5] = {3, 1, 3, 0, 2};
  static const float kExpected[5] = {14, 12, 14, 11, 13};
  GatherDesc desc;
  dmlcpu_operator* op = NULL;
  uint64_t size_bytes = 0;
  float output[5];
  dmlcpu_input_binding inputs[2];
  dmlcpu_binding outputs[1];

  CHECK(dmlcpu_operator_type(NULL) == DML_OPERATOR_INVALID);
  CHECK(dmlcpu_operator_input_count(NULL) == 0 && dmlcpu_operator_output_count(NULL) == 0);
  MakeGatherG1(&desc);
  CHECK(dmlcpu_compile(device, &desc.op, DMLCPU_INDEX_STRICT, &op) == DMLCPU_OK);
  if (op == NULL) return;
  CHECK(dmlcpu_operator_type(op) == DML_OPERATOR_GATHER);
  CHECK(dmlcpu_operator_input_count(op) == 2);
  CHECK(dmlcpu_operator_output_count(op) == 1);
  CHECK(dmlcpu_operator_input_bytes(op, 0, &size_bytes) == DMLCPU_OK && size_bytes == 16);
  CHECK(dmlcpu_operator_input_bytes(op, 1, &size_bytes) == DMLCPU_OK && size_bytes == 20);
  CHECK(dmlcpu_operator_output_bytes(op, 0, &size_bytes) == DMLCPU_OK && size_bytes == 20);
  CHECK(dmlcpu_operator_input_bytes(op, 2, &size_bytes) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("dmlcpu_operator_input_bytes: index is 2, expected < 2");
  CHECK(dmlcpu_operator_output_bytes(op, 1, &size_bytes) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("index is 1, expected < 1");
  CHECK(dmlcpu_operator_output_bytes(NULL, 0, &size_bytes) == DMLCPU_INVALID_ARGUMENT);

  /* const inputs: static const arrays bind without a cast. */
  inputs[0].data = kInput;
  inputs[0].size_bytes = sizeof(kInput);
  inputs[1].data = kIndices;
  inputs[1].size_bytes = sizeof(kIndices);
  outputs[0].data = output;
  outputs[0].size_bytes = sizeof(output);
  FillSentinel(output, 5);
  CHECK(dmlcpu_execute2(op, inputs, 2, outputs, 1) == DMLCPU_OK);
  CHECK(FloatsEqual(output, kExpected, 5));
  inputs[1].size_bytes = 19;
  CHECK(dmlcpu_execute2(op, inputs, 2, outputs, 1) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("IndicesTensor");
  CHECK(dmlcpu_execute2(NULL, inputs, 2, outputs, 1) == DMLCPU_INVALID_ARGUMENT);
  CHECK(dmlcpu_execute2(op, NULL, 2, outputs, 1) == DMLCPU_INVALID_ARGUMENT);
  CHECK(dmlcpu_execute2(op, inputs, 3, outputs, 1) == DMLCPU_INVALID_ARGUMENT);
  dmlcpu_operator_destroy(op);
}

/* Compiles a node's descriptor, checks the operator's binding sizes against the node's and runs
 * it with inputs (count from the node) into output. */
static dmlcpu_status RunOnnxNode(dmlcpu_device* device, const dmlcpu_onnx_node* node,
                                 const dmlcpu_input_binding* inputs, void* output,
                                 uint64_t output_capacity_bytes) {
  dmlcpu_operator* op = NULL;
  dmlcpu_binding out_binding;
  dmlcpu_status status;
  uint64_t node_bytes = 0, op_bytes = 0;
  uint32_t i;
  status = dmlcpu_compile(device, dmlcpu_onnx_node_desc(node), DMLCPU_INDEX_STRICT, &op);
  if (status != DMLCPU_OK) return status;
  CHECK(dmlcpu_operator_input_count(op) == dmlcpu_onnx_node_input_count(node));
  for (i = 0; i < dmlcpu_onnx_node_input_count(node); ++i) {
    CHECK(dmlcpu_onnx_node_input_bytes(node, i, &node_bytes) == DMLCPU_OK);
    CHECK(dmlcpu_operator_input_bytes(op, i, &op_bytes) == DMLCPU_OK);
    CHECK(node_bytes == op_bytes);
  }
  CHECK(dmlcpu_operator_output_bytes(op, 0, &op_bytes) == DMLCPU_OK);
  CHECK(op_bytes == dmlcpu_onnx_node_output_bytes(node));
  CHECK(op_bytes <= output_capacity_bytes);
  out_binding.data = output;
  out_binding.size_bytes = output_capacity_bytes;
  status = dmlcpu_execute2(op, inputs, dmlcpu_onnx_node_input_count(node), &out_binding, 1);
  dmlcpu_operator_destroy(op);
  return status;
}

/* ONNX Slice: y = x[1:3, ::-2] of a FLOAT {3, 4} -> {2, 2}. */
static void TestOnnxSlice(dmlcpu_device* device) {
  static const int64_t kShape[2] = {3, 4};
  static const float kX[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  static const int64_t kStarts[2] = {1, -1};
  static const int64_t kEnds[2] = {3, INT64_MIN};
  static const int64_t kAxes[2] = {0, -1};
  static const int64_t kSteps[2] = {1, -2};
  static const float kExpected[4] = {7, 5, 11, 9};
  static const int64_t kEmptyStarts[1] = {2};
  static const int64_t kEmptyEnds[1] = {1};
  dmlcpu_onnx_tensor_type data;
  dmlcpu_onnx_node* node = NULL;
  dmlcpu_input_binding input;
  float output[4];
  const int64_t* shape;
  uint32_t rank;
  int32_t element_type = 0;
  uint64_t size_bytes = 0;
  char text[512];

  data.element_type = 1; /* FLOAT */
  data.rank = 2;
  data.shape = kShape;
  CHECK(dmlcpu_onnx_slice(&data, kStarts, kEnds, kAxes, kSteps, 2, &node) == DMLCPU_OK);
  if (node == NULL) return;
  CHECK(dmlcpu_onnx_node_desc(node)->Type == DML_OPERATOR_SLICE1);
  CHECK(dmlcpu_onnx_node_output_is_empty(node) == 0);
  CHECK(dmlcpu_onnx_node_output_rank(node) == 2);
  shape = dmlcpu_onnx_node_output_shape(node);
  CHECK(shape != NULL && shape[0] == 2 && shape[1] == 2);
  CHECK(dmlcpu_onnx_node_output_element_type(node) == 1);
  CHECK(dmlcpu_onnx_node_output_elems(node) == 4);
  CHECK(dmlcpu_onnx_node_input_count(node) == 1);
  CHECK(dmlcpu_onnx_node_output_bytes(node) == 16);
  /* The per-output queries: one output, the same answers; index 1 is refused. */
  CHECK(dmlcpu_onnx_node_output_count(node) == 1);
  CHECK(dmlcpu_onnx_node_output_count(NULL) == 0);
  rank = 0;
  shape = NULL;
  CHECK(dmlcpu_onnx_node_output_shape_at(node, 0, &rank, &shape) == DMLCPU_OK);
  CHECK(rank == 2 && shape != NULL && shape[0] == 2 && shape[1] == 2);
  CHECK(dmlcpu_onnx_node_output_shape_at(node, 1, &rank, &shape) == DMLCPU_INVALID_ARGUMENT);
  CHECK(dmlcpu_onnx_node_output_shape_at(node, 0, NULL, &shape) == DMLCPU_INVALID_ARGUMENT);
  CHECK(dmlcpu_onnx_node_output_element_type_at(node, 0, &element_type) == DMLCPU_OK);
  CHECK(element_type == 1);
  CHECK(dmlcpu_onnx_node_output_element_type_at(node, 1, &element_type) ==
        DMLCPU_INVALID_ARGUMENT);
  CHECK(dmlcpu_onnx_node_output_bytes_at(node, 0, &size_bytes) == DMLCPU_OK);
  CHECK(size_bytes == 16);
  CHECK(dmlcpu_onnx_node_output_bytes_at(node, 1, &size_bytes) == DMLCPU_INVALID_ARGUMENT);
  CHECK(dmlcpu_onnx_node_output_bytes_at(NULL, 0, &size_bytes) == DMLCPU_INVALID_ARGUMENT);
  CHECK(dmlcpu_onnx_node_describe(node, text, sizeof(text)) > 0);
  CHECK(strstr(text, "SLICE1") != NULL);
  input.data = kX;
  input.size_bytes = sizeof(kX);
  FillSentinel(output, 4);
  CHECK(RunOnnxNode(device, node, &input, output, sizeof(output)) == DMLCPU_OK);
  CHECK(FloatsEqual(output, kExpected, 4));
  dmlcpu_onnx_node_destroy(node);

  /* Axes and steps omitted; an empty result is reported, not compiled. */
  node = NULL;
  CHECK(dmlcpu_onnx_slice(&data, kEmptyStarts, kEmptyEnds, NULL, NULL, 1, &node) == DMLCPU_OK);
  CHECK(node != NULL && dmlcpu_onnx_node_output_is_empty(node) == 1);
  CHECK(dmlcpu_onnx_node_output_bytes(node) == 0);
  CHECK(dmlcpu_onnx_node_desc(node) != NULL &&
        dmlcpu_onnx_node_desc(node)->Type == DML_OPERATOR_INVALID);
  shape = dmlcpu_onnx_node_output_shape(node);
  CHECK(shape != NULL && shape[0] == 0 && shape[1] == 4);
  dmlcpu_onnx_node_destroy(node);

  /* Errors name the function or the ONNX attribute. */
  node = NULL;
  CHECK(dmlcpu_onnx_slice(&data, kStarts, kEnds, kAxes, kSteps, 2, NULL) ==
        DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("dmlcpu_onnx_slice: out is null");
  CHECK(dmlcpu_onnx_slice(&data, NULL, kEnds, NULL, NULL, 1, &node) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("starts or ends is null");
  CHECK(dmlcpu_onnx_slice(NULL, kStarts, kEnds, NULL, NULL, 1, &node) ==
        DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("dmlcpu_onnx_slice: data is null");
  data.shape = NULL;
  CHECK(dmlcpu_onnx_slice(&data, kStarts, kEnds, NULL, NULL, 1, &node) ==
        DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("data->shape is null");
  CHECK(node == NULL);
  dmlcpu_onnx_node_destroy(NULL);
}

/* ONNX Gather: FLOAT {3, 2} rows picked by INT64 indices {2, 2} [[0, 2], [-1, 1]] (axis 0) ->
 * {2, 2, 2}; then GatherElements and GatherND nodes. */
static void TestOnnxGather(dmlcpu_device* device) {
  static const int64_t kDataShape[2] = {3, 2};
  static const int64_t kIndicesShape[2] = {2, 2};
  static const float kData[6] = {1, 2, 3, 4, 5, 6};
  static const int64_t kIndices[4] = {0, 2, -1, 1};
  static const float kExpected[8] = {1, 2, 5, 6, 5, 6, 3, 4};
  static const int64_t kBad[4] = {0, 3, 0, 0};
  static const int64_t kNdIndicesShape[2] = {2, 2};
  static const int64_t kNdIndices[4] = {0, 1, 2, 0};
  static const float kNdExpected[2] = {2, 5};
  dmlcpu_onnx_tensor_type data, indices;
  dmlcpu_onnx_node* node = NULL;
  dmlcpu_input_binding inputs[2];
  float output[8];
  const int64_t* shape;

  data.element_type = 1;  /* FLOAT */
  data.rank = 2;
  data.shape = kDataShape;
  indices.element_type = 7; /* INT64 */
  indices.rank = 2;
  indices.shape = kIndicesShape;
  CHECK(dmlcpu_onnx_gather(&data, &indices, 0, &node) == DMLCPU_OK);
  if (node == NULL) return;
  CHECK(dmlcpu_onnx_node_desc(node)->Type == DML_OPERATOR_GATHER);
  CHECK(dmlcpu_onnx_node_output_rank(node) == 3);
  shape = dmlcpu_onnx_node_output_shape(node);
  CHECK(shape != NULL && shape[0] == 2 && shape[1] == 2 && shape[2] == 2);
  CHECK(dmlcpu_onnx_node_input_count(node) == 2);
  CHECK(dmlcpu_onnx_node_output_bytes(node) == 32);
  CHECK(dmlcpu_onnx_node_input_bytes(node, 2, NULL) == DMLCPU_INVALID_ARGUMENT);
  inputs[0].data = kData;
  inputs[0].size_bytes = sizeof(kData);
  inputs[1].data = kIndices;
  inputs[1].size_bytes = sizeof(kIndices);
  FillSentinel(output, 8);
  CHECK(RunOnnxNode(device, node, inputs, output, sizeof(output)) == DMLCPU_OK);
  CHECK(FloatsEqual(output, kExpected, 8));
  /* Out of range is an error in ONNX: the strict policy reports it, output untouched. */
  inputs[1].data = kBad;
  FillSentinel(output, 8);
  CHECK(RunOnnxNode(device, node, inputs, output, sizeof(output)) == DMLCPU_OUT_OF_RANGE);
  CHECK(AllSentinel(output, 8));
  dmlcpu_onnx_node_destroy(node);

  node = NULL;
  CHECK(dmlcpu_onnx_gather(&data, &indices, 2, &node) == DMLCPU_INVALID_ARGUMENT);
  CHECK(node == NULL);
  CHECK_MESSAGE("axis");
  indices.element_type = 1;
  CHECK(dmlcpu_onnx_gather(&data, &indices, 0, &node) != DMLCPU_OK);
  indices.element_type = 7;
  CHECK(dmlcpu_onnx_gather(&data, NULL, 0, &node) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("dmlcpu_onnx_gather: indices is null");

  /* GatherElements: output shape = indices shape. */
  CHECK(dmlcpu_onnx_gather_elements(&data, &indices, 1, &node) == DMLCPU_OK);
  CHECK(node != NULL && dmlcpu_onnx_node_desc(node)->Type == DML_OPERATOR_GATHER_ELEMENTS);
  shape = dmlcpu_onnx_node_output_shape(node);
  CHECK(dmlcpu_onnx_node_output_rank(node) == 2 && shape != NULL && shape[0] == 2 &&
        shape[1] == 2);
  dmlcpu_onnx_node_destroy(node);

  /* GatherND: (0, 1) -> 2 and (2, 0) -> 5. */
  node = NULL;
  indices.shape = kNdIndicesShape;
  CHECK(dmlcpu_onnx_gather_nd(&data, &indices, 0, &node) == DMLCPU_OK);
  if (node == NULL) return;
  CHECK(dmlcpu_onnx_node_desc(node)->Type == DML_OPERATOR_GATHER_ND1);
  CHECK(dmlcpu_onnx_node_output_rank(node) == 1 && dmlcpu_onnx_node_output_elems(node) == 2);
  inputs[1].data = kNdIndices;
  inputs[1].size_bytes = sizeof(kNdIndices);
  FillSentinel(output, 8);
  CHECK(RunOnnxNode(device, node, inputs, output, sizeof(output)) == DMLCPU_OK);
  CHECK(FloatsEqual(output, kNdExpected, 2));
  dmlcpu_onnx_node_destroy(node);

  CHECK(dmlcpu_onnx_element_size_bytes(1) == 4 && dmlcpu_onnx_element_size_bytes(7) == 8);
  CHECK(dmlcpu_onnx_element_size_bytes(8) == 0); /* STRING */
  CHECK(dmlcpu_onnx_node_output_bytes(NULL) == 0 && dmlcpu_onnx_node_desc(NULL) == NULL);
}

/* ONNX ScatterND with reduction "add" (opset 16): FLOAT {4, 2}, INT64 tuples [[3], [0], [3]]
 * (row 3 twice), updates rows -> rows added in index order; the reduction travels through
 * dmlcpu_onnx_node_scatter_reduction into dmlcpu_compile_ex. Then ScatterElements, Scatter and
 * the errors. */
static void TestOnnxScatter(dmlcpu_device* device) {
  static const int64_t kDataShape[2] = {4, 2};
  static const int64_t kIndicesShape[2] = {3, 1};
  static const int64_t kUpdatesShape[2] = {3, 2};
  static const float kData[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  static const int64_t kIndices[3] = {3, 0, 3};
  static const float kUpdates[6] = {10, 20, 30, 40, 50, 60};
  static const float kAdded[8] = {31, 42, 3, 4, 5, 6, 67, 88};
  static const int64_t kElementsShape[2] = {1, 2};
  static const int64_t kElementsIndices[2] = {3, -1}; /* axis 0: rows 3 and 3 of columns 0, 1 */
  static const float kElementsExpected[8] = {1, 2, 3, 4, 5, 6, 10, 20};
  dmlcpu_onnx_tensor_type data, indices, updates;
  dmlcpu_onnx_node* node = NULL;
  dmlcpu_operator* op = NULL;
  dmlcpu_compile_options options;
  dmlcpu_input_binding inputs[3];
  dmlcpu_binding out_binding;
  float output[8];
  char text[512];

  data.element_type = 1; /* FLOAT */
  data.rank = 2;
  data.shape = kDataShape;
  indices.element_type = 7; /* INT64 */
  indices.rank = 2;
  indices.shape = kIndicesShape;
  updates.element_type = 1;
  updates.rank = 2;
  updates.shape = kUpdatesShape;
  CHECK(dmlcpu_onnx_scatter_nd(&data, &indices, &updates, "add", 16, &node) == DMLCPU_OK);
  if (node == NULL) return;
  CHECK(dmlcpu_onnx_node_desc(node)->Type == DML_OPERATOR_SCATTER_ND);
  CHECK(dmlcpu_onnx_node_scatter_reduction(node) == DMLCPU_SCATTER_ADD);
  CHECK(dmlcpu_onnx_node_scatter_bfloat16(node) == 0);
  CHECK(dmlcpu_onnx_node_input_count(node) == 3);
  CHECK(dmlcpu_onnx_node_output_bytes(node) == 32);
  CHECK(dmlcpu_onnx_node_describe(node, text, sizeof(text)) > 0);
  CHECK(strstr(text, "SCATTER_ND") != NULL && strstr(text, "scatter_reduction=add") != NULL);
  memset(&options, 0, sizeof(options));
  options.struct_size = sizeof(options);
  options.index_policy = DMLCPU_INDEX_STRICT;
  options.scatter_reduction = dmlcpu_onnx_node_scatter_reduction(node);
  options.scatter_bfloat16 = dmlcpu_onnx_node_scatter_bfloat16(node);
  CHECK(dmlcpu_compile_ex(device, dmlcpu_onnx_node_desc(node), &options, &op) == DMLCPU_OK);
  inputs[0].data = kData;
  inputs[0].size_bytes = sizeof(kData);
  inputs[1].data = kIndices;
  inputs[1].size_bytes = sizeof(kIndices);
  inputs[2].data = kUpdates;
  inputs[2].size_bytes = sizeof(kUpdates);
  out_binding.data = output;
  out_binding.size_bytes = sizeof(output);
  FillSentinel(output, 8);
  CHECK(dmlcpu_execute2(op, inputs, 3, &out_binding, 1) == DMLCPU_OK);
  CHECK(FloatsEqual(output, kAdded, 8));
  dmlcpu_operator_destroy(op);
  dmlcpu_onnx_node_destroy(node);

  /* ScatterElements along axis 0 (a negative index), and the deprecated Scatter. */
  indices.shape = kElementsShape;
  updates.shape = kElementsShape;
  inputs[1].data = kElementsIndices;
  inputs[1].size_bytes = sizeof(kElementsIndices);
  node = NULL;
  CHECK(dmlcpu_onnx_scatter_elements(&data, &indices, &updates, 0, NULL, 13, &node) ==
        DMLCPU_OK);
  if (node == NULL) return;
  CHECK(dmlcpu_onnx_node_desc(node)->Type == DML_OPERATOR_SCATTER);
  CHECK(dmlcpu_onnx_node_scatter_reduction(node) == DMLCPU_SCATTER_NONE);
  FillSentinel(output, 8);
  CHECK(RunOnnxNode(device, node, inputs, output, sizeof(output)) == DMLCPU_OK);
  CHECK(FloatsEqual(output, kElementsExpected, 8));
  dmlcpu_onnx_node_destroy(node);
  node = NULL;
  CHECK(dmlcpu_onnx_scatter(&data, &indices, &updates, -2, 9, &node) == DMLCPU_OK);
  CHECK(node != NULL && dmlcpu_onnx_node_desc(node)->Type == DML_OPERATOR_SCATTER);
  dmlcpu_onnx_node_destroy(node);

  /* Errors: opset rules of the reduction, null arguments. */
  node = NULL;
  CHECK(dmlcpu_onnx_scatter_elements(&data, &indices, &updates, 0, "max", 16, &node) ==
        DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("ScatterElements: reduction is \"max\" at opset 16");
  CHECK(dmlcpu_onnx_scatter_nd(&data, &indices, &updates, "sum", 18, &node) ==
        DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("reduction is \"sum\"");
  CHECK(dmlcpu_onnx_scatter(&data, &indices, NULL, 0, 9, &node) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("dmlcpu_onnx_scatter: updates is null");
  CHECK(dmlcpu_onnx_scatter_nd(&data, &indices, &updates, NULL, 18, NULL) ==
        DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("dmlcpu_onnx_scatter_nd: out is null");
  CHECK(node == NULL);
  CHECK(dmlcpu_onnx_node_scatter_reduction(NULL) == DMLCPU_SCATTER_NONE);
  CHECK(dmlcpu_onnx_node_scatter_bfloat16(NULL) == 0);
}

/* ---- SCATTER with a reduction through dmlcpu_compile_ex: {4} [1,2,3,4], indices [3,0,3],
 * updates [10,20,30], add -> [21,2,3,44]; a smaller struct_size (index_policy only) gives none. */
static void TestScatterCompileEx(dmlcpu_device* device) {
  static const UINT kSizes[1] = {4};
  static const UINT kIdxSizes[1] = {3};
  static float kInput[4] = {1, 2, 3, 4};
  static uint32_t kIndices[3] = {3, 0, 3};
  static float kUpdates[3] = {10, 20, 30};
  static const float kAdded[4] = {21, 2, 3, 44};
  static const float kLastWins[4] = {20, 2, 3, 30};
  DML_BUFFER_TENSOR_DESC in_buffer = Buffer4(DML_TENSOR_DATA_TYPE_FLOAT32, 1, kSizes);
  DML_BUFFER_TENSOR_DESC idx_buffer = Buffer4(DML_TENSOR_DATA_TYPE_UINT32, 1, kIdxSizes);
  DML_BUFFER_TENSOR_DESC upd_buffer = Buffer4(DML_TENSOR_DATA_TYPE_FLOAT32, 1, kIdxSizes);
  DML_TENSOR_DESC in = TensorOf(&in_buffer), idx = TensorOf(&idx_buffer);
  DML_TENSOR_DESC upd = TensorOf(&upd_buffer), out = TensorOf(&in_buffer);
  DML_SCATTER_OPERATOR_DESC scatter;
  DML_OPERATOR_DESC desc;
  dmlcpu_compile_options options;
  dmlcpu_operator* op = NULL;
  dmlcpu_binding inputs[3];
  dmlcpu_binding outputs[1];
  float output[4];
  scatter.InputTensor = &in;
  scatter.IndicesTensor = &idx;
  scatter.UpdatesTensor = &upd;
  scatter.OutputTensor = &out;
  scatter.Axis = 0;
  desc.Type = DML_OPERATOR_SCATTER;
  desc.Desc = &scatter;
  memset(&options, 0, sizeof(options));
  options.struct_size = sizeof(options);
  options.scatter_reduction = DMLCPU_SCATTER_ADD;
  CHECK(dmlcpu_compile_ex(device, &desc, &options, &op) == DMLCPU_OK);
  inputs[0].data = kInput;
  inputs[0].size_bytes = sizeof(kInput);
  inputs[1].data = kIndices;
  inputs[1].size_bytes = sizeof(kIndices);
  inputs[2].data = kUpdates;
  inputs[2].size_bytes = sizeof(kUpdates);
  outputs[0].data = output;
  outputs[0].size_bytes = sizeof(output);
  FillSentinel(output, 4);
  CHECK(dmlcpu_execute(op, inputs, 3, outputs, 1) == DMLCPU_OK);
  CHECK(FloatsEqual(output, kAdded, 4));
  dmlcpu_operator_destroy(op);
  op = NULL;
  options.struct_size = 8; /* an older caller: scatter_reduction is past its struct */
  CHECK(dmlcpu_compile_ex(device, &desc, &options, &op) == DMLCPU_OK);
  FillSentinel(output, 4);
  CHECK(dmlcpu_execute(op, inputs, 3, outputs, 1) == DMLCPU_OK);
  CHECK(FloatsEqual(output, kLastWins, 4));
  dmlcpu_operator_destroy(op);
  op = NULL;
  options.struct_size = sizeof(options);
  options.scatter_reduction = (dmlcpu_scatter_reduction)9;
  CHECK(dmlcpu_compile_ex(device, &desc, &options, &op) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("scatter_reduction is 9");
  CHECK(dmlcpu_compile_ex(device, &desc, NULL, &op) == DMLCPU_OK);
  dmlcpu_operator_destroy(op);
}

int main(void) {
  dmlcpu_device* device = NULL;
  TestDeviceCreate();
  TestGather(0);
  TestGather(1);
  TestGather(2);
  TestDestroyOrders();
  TestCalcBufferTensorSize();
  TestVersion();
  TestStructSize();
  TestEnginePool();
  if (dmlcpu_device_create(2, &device) != DMLCPU_OK || device == NULL) {
    fprintf(stderr, "FAILED: cannot create a device\n");
    return 1;
  }
  TestSlice1(device);
  TestGatherNd1(device);
  TestInvalidDescriptor(device);
  TestStrictOutOfRange(device);
  TestShortBuffers(device);
  TestNullArguments(device);
  TestDescribe(device);
  TestLastErrorRule(device);
  TestIntrospectionAndConstInputs(device);
  TestOnnxSlice(device);
  TestOnnxGather(device);
  TestOnnxScatter(device);
  TestScatterCompileEx(device);
  dmlcpu_device_destroy(device);
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
