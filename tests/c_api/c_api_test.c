/* SPDX-License-Identifier: Apache-2.0 */
/* c_api_test — drives the dmlcpu C ABI from plain C99 (built with -std=c99 -pedantic).
 *
 * Covers: device creation (0, 1, 2 threads); compile + execute of GATHER, SLICE1 and GATHER_ND1
 * worked examples (docs/semantics.md#worked-examples); the error paths (invalid descriptor, strict
 * out-of-range index, short buffers, NULL arguments to every function); destroying device and
 * operator in both orders; dmlcpu_calc_buffer_tensor_size; dmlcpu_operator_describe.
 * Prints "<passed> passed, <failed> failed" and exits non-zero on any failure. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dmlcpu/dmlcpu_c.h"

static int g_passed = 0;
static int g_failed = 0;

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (cond) {                                                                  \
      ++g_passed;                                                                \
    } else {                                                                     \
      ++g_failed;                                                                \
      fprintf(stderr, "FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond);          \
    }                                                                            \
  } while (0)

/* Checks that the last error message contains `fragment`. */
#define CHECK_MESSAGE(fragment)                                                     \
  do {                                                                              \
    const char* message_ = dmlcpu_last_error_message();                            \
    if (message_ != NULL && strstr(message_, (fragment)) != NULL) {                \
      ++g_passed;                                                                   \
    } else {                                                                        \
      ++g_failed;                                                                   \
      fprintf(stderr, "FAILED %s:%d: message \"%s\" lacks \"%s\"\n", __FILE__,     \
              __LINE__, message_ ? message_ : "(null)", (fragment));                \
    }                                                                               \
  } while (0)

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
  desc.op.Type = DML_OPERATOR_ELEMENT_WISE_IDENTITY;
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

int main(void) {
  dmlcpu_device* device = NULL;
  TestDeviceCreate();
  TestGather(0);
  TestGather(1);
  TestGather(2);
  TestDestroyOrders();
  TestCalcBufferTensorSize();
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
  dmlcpu_device_destroy(device);
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
