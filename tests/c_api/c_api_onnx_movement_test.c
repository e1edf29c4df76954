/* SPDX-License-Identifier: Apache-2.0 */
/* c_api_onnx_movement_test — the ONNX adapter's data-movement ops through the C ABI, from plain
 * C99: every builder run end to end on small tensors against hand-computed results; the node
 * queries only these ops need (aliases, empty inputs and outputs, Pad's cropping view, strided
 * tensors); NULL arguments and the adapter's own errors. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "c_check.h"
#include "dmlcpu/dmlcpu_c.h"

#define kFloat 1 /* ONNX TensorProto.FLOAT */
#define kSentinel (-12345.0f)

static dmlcpu_onnx_tensor_type FloatTensor(uint32_t rank, const int64_t* shape) {
  dmlcpu_onnx_tensor_type t;
  t.element_type = kFloat;
  t.rank = rank;
  t.shape = shape;
  return t;
}

static void Fill(float* values, int count, float value) {
  int i;
  for (i = 0; i < count; ++i) values[i] = value;
}

static int Equal(const float* actual, const float* expected, int count) {
  int i;
  for (i = 0; i < count; ++i) {
    if (memcmp(&actual[i], &expected[i], sizeof(float)) != 0) {
      fprintf(stderr, "  element %d: %g, expected %g\n", i, actual[i], expected[i]);
      return 0;
    }
  }
  return 1;
}

/* Compiles the node and runs it with `input_count` inputs (the node's non-empty ones) into
 * `output_count` outputs; checks the operator's binding counts and sizes against the node's. */
static dmlcpu_status Run(dmlcpu_device* device, const dmlcpu_onnx_node* node,
                         const dmlcpu_input_binding* inputs, uint32_t input_count,
                         const dmlcpu_binding* outputs, uint32_t output_count) {
  dmlcpu_operator* op = NULL;
  dmlcpu_status status = dmlcpu_compile(device, dmlcpu_onnx_node_desc(node),
                                        DMLCPU_INDEX_STRICT, &op);
  if (status != DMLCPU_OK) return status;
  CHECK(dmlcpu_operator_input_count(op) == input_count);
  CHECK(dmlcpu_operator_output_count(op) == output_count);
  status = dmlcpu_execute2(op, inputs, input_count, outputs, output_count);
  dmlcpu_operator_destroy(op);
  return status;
}

/* Transpose {2,3} -> {3,2}, packed and from a strided input (row pitch 4). */
static void TestTranspose(dmlcpu_device* device) {
  static const int64_t kShape[2] = {2, 3};
  static const int64_t kPerm[2] = {1, 0};
  static const float kX[6] = {0, 1, 2, 3, 4, 5};
  static const float kPitched[8] = {0, 1, 2, -1, 3, 4, 5, -1};
  static const uint32_t kPitchedStrides[2] = {4, 1};
  static const float kExpected[6] = {0, 3, 1, 4, 2, 5};
  const dmlcpu_onnx_tensor_type data = FloatTensor(2, kShape);
  dmlcpu_onnx_node* node = NULL;
  dmlcpu_input_binding in;
  dmlcpu_binding out;
  float y[6];
  uint64_t size_bytes = 0;
  const int64_t* shape = NULL;

  CHECK(dmlcpu_onnx_transpose(&data, kPerm, 2, &node) == DMLCPU_OK);
  if (node == NULL) return;
  CHECK(dmlcpu_onnx_node_desc(node)->Type == DML_OPERATOR_ELEMENT_WISE_IDENTITY);
  CHECK(dmlcpu_onnx_node_is_alias(node) == 0);
  shape = dmlcpu_onnx_node_output_shape(node);
  CHECK(shape != NULL && shape[0] == 3 && shape[1] == 2);
  in.data = kX;
  in.size_bytes = sizeof(kX);
  out.data = y;
  out.size_bytes = sizeof(y);
  Fill(y, 6, kSentinel);
  CHECK(Run(device, node, &in, 1, &out, 1) == DMLCPU_OK);
  CHECK(Equal(y, kExpected, 6));

  CHECK(dmlcpu_onnx_node_set_input_strides(node, 0, kPitchedStrides, 2) == DMLCPU_OK);
  CHECK(dmlcpu_onnx_node_input_bytes(node, 0, &size_bytes) == DMLCPU_OK);
  CHECK(size_bytes == 7 * sizeof(float)); /* the span: 7 elements */
  in.data = kPitched;
  in.size_bytes = sizeof(kPitched);
  Fill(y, 6, kSentinel);
  CHECK(Run(device, node, &in, 1, &out, 1) == DMLCPU_OK);
  CHECK(Equal(y, kExpected, 6));
  /* Strides are checked against the rank; a wrong index is refused. */
  CHECK(dmlcpu_onnx_node_set_input_strides(node, 0, kPitchedStrides, 1) ==
        DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("Transpose: strides of");
  CHECK(dmlcpu_onnx_node_set_input_strides(node, 1, kPitchedStrides, 2) ==
        DMLCPU_INVALID_ARGUMENT);
  CHECK(dmlcpu_onnx_node_set_output_strides(node, 0, NULL, 2) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("dmlcpu_onnx_node_set_output_strides: strides_elems is null");
  CHECK(dmlcpu_onnx_node_set_input_strides(NULL, 0, NULL, 0) == DMLCPU_INVALID_ARGUMENT);
  dmlcpu_onnx_node_destroy(node);

  /* perm omitted: the dimensions reversed, the same result. */
  node = NULL;
  CHECK(dmlcpu_onnx_transpose(&data, NULL, 0, &node) == DMLCPU_OK);
  CHECK(node != NULL && dmlcpu_onnx_node_output_shape(node)[0] == 3);
  dmlcpu_onnx_node_destroy(node);

  /* Errors: the adapter's message, and the C layer's for NULL arrays. */
  node = NULL;
  CHECK(dmlcpu_onnx_transpose(&data, kPerm, 1, &node) == DMLCPU_INVALID_ARGUMENT);
  CHECK(node == NULL);
  CHECK_MESSAGE("Transpose");
  CHECK(dmlcpu_onnx_transpose(&data, NULL, 2, &node) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("dmlcpu_onnx_transpose: perm is null, its count is 2");
  CHECK(dmlcpu_onnx_transpose(NULL, kPerm, 2, &node) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("dmlcpu_onnx_transpose: data is null");
  CHECK(dmlcpu_onnx_transpose(&data, kPerm, 2, NULL) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("dmlcpu_onnx_transpose: out is null");
}

/* Concat {2,2} + {0,2} + {1,2} on axis 0: the empty input is no binding. */
static void TestConcat(dmlcpu_device* device) {
  static const int64_t kA[2] = {2, 2};
  static const int64_t kEmpty[2] = {0, 2};
  static const int64_t kB[2] = {1, 2};
  static const float kXa[4] = {1, 2, 3, 4};
  static const float kXb[2] = {5, 6};
  static const float kExpected[6] = {1, 2, 3, 4, 5, 6};
  dmlcpu_onnx_tensor_type inputs[3];
  dmlcpu_onnx_node* node = NULL;
  dmlcpu_input_binding in[2];
  dmlcpu_binding out;
  float y[6];
  int is_empty = -1;

  inputs[0] = FloatTensor(2, kA);
  inputs[1] = FloatTensor(2, kEmpty);
  inputs[2] = FloatTensor(2, kB);
  CHECK(dmlcpu_onnx_concat(inputs, 3, 0, &node) == DMLCPU_OK);
  if (node == NULL) return;
  CHECK(dmlcpu_onnx_node_desc(node)->Type == DML_OPERATOR_JOIN);
  CHECK(dmlcpu_onnx_node_input_count(node) == 3);
  CHECK(dmlcpu_onnx_node_input_is_empty(node, 0, &is_empty) == DMLCPU_OK && is_empty == 0);
  CHECK(dmlcpu_onnx_node_input_is_empty(node, 1, &is_empty) == DMLCPU_OK && is_empty == 1);
  CHECK(dmlcpu_onnx_node_input_is_empty(node, 3, &is_empty) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("dmlcpu_onnx_node_input_is_empty: index is 3, expected < 3");
  CHECK(dmlcpu_onnx_node_input_is_empty(node, 0, NULL) == DMLCPU_INVALID_ARGUMENT);
  in[0].data = kXa;
  in[0].size_bytes = sizeof(kXa);
  in[1].data = kXb;
  in[1].size_bytes = sizeof(kXb);
  out.data = y;
  out.size_bytes = sizeof(y);
  Fill(y, 6, kSentinel);
  CHECK(Run(device, node, in, 2, &out, 1) == DMLCPU_OK);
  CHECK(Equal(y, kExpected, 6));
  dmlcpu_onnx_node_destroy(node);

  node = NULL;
  CHECK(dmlcpu_onnx_concat(inputs, 3, 2, &node) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("Concat: axis is 2");
  CHECK(dmlcpu_onnx_concat(NULL, 3, 0, &node) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("dmlcpu_onnx_concat: inputs is null");
  inputs[1].shape = NULL;
  CHECK(dmlcpu_onnx_concat(inputs, 3, 0, &node) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("dmlcpu_onnx_concat: inputs[1]->shape is null");
}

/* Split {6} into {2, 0, 4}: the empty output is no binding; then num_outputs 3 (opset 18). */
static void TestSplit(dmlcpu_device* device) {
  static const int64_t kShape[1] = {6};
  static const int64_t kSplit[3] = {2, 0, 4};
  static const float kX[6] = {1, 2, 3, 4, 5, 6};
  const dmlcpu_onnx_tensor_type input = FloatTensor(1, kShape);
  dmlcpu_onnx_node* node = NULL;
  dmlcpu_input_binding in;
  dmlcpu_binding out[3];
  float y0[2], y1[4], z[6];
  int is_empty = -1;
  uint32_t rank = 0;
  const int64_t* shape = NULL;

  CHECK(dmlcpu_onnx_split(&input, 0, kSplit, 3, 0, 0, &node) == DMLCPU_OK);
  if (node == NULL) return;
  CHECK(dmlcpu_onnx_node_desc(node)->Type == DML_OPERATOR_SPLIT);
  CHECK(dmlcpu_onnx_node_output_count(node) == 3);
  CHECK(dmlcpu_onnx_node_output_is_empty_at(node, 1, &is_empty) == DMLCPU_OK && is_empty == 1);
  CHECK(dmlcpu_onnx_node_output_is_empty_at(node, 2, &is_empty) == DMLCPU_OK && is_empty == 0);
  CHECK(dmlcpu_onnx_node_output_is_empty_at(node, 3, &is_empty) == DMLCPU_INVALID_ARGUMENT);
  CHECK(dmlcpu_onnx_node_output_shape_at(node, 2, &rank, &shape) == DMLCPU_OK);
  CHECK(rank == 1 && shape != NULL && shape[0] == 4);
  in.data = kX;
  in.size_bytes = sizeof(kX);
  out[0].data = y0;
  out[0].size_bytes = sizeof(y0);
  out[1].data = y1;
  out[1].size_bytes = sizeof(y1);
  Fill(y0, 2, kSentinel);
  Fill(y1, 4, kSentinel);
  CHECK(Run(device, node, &in, 1, out, 2) == DMLCPU_OK);
  CHECK(Equal(y0, kX, 2));
  CHECK(Equal(y1, kX + 2, 4));
  dmlcpu_onnx_node_destroy(node);

  node = NULL;
  CHECK(dmlcpu_onnx_split(&input, 0, NULL, 0, 3, 0, &node) == DMLCPU_OK);
  if (node == NULL) return;
  CHECK(dmlcpu_onnx_node_output_count(node) == 3);
  out[0].data = z;
  out[0].size_bytes = 2 * sizeof(float);
  out[1].data = z + 2;
  out[1].size_bytes = 2 * sizeof(float);
  out[2].data = z + 4;
  out[2].size_bytes = 2 * sizeof(float);
  Fill(z, 6, kSentinel);
  CHECK(Run(device, node, &in, 1, out, 3) == DMLCPU_OK);
  CHECK(Equal(z, kX, 6));
  dmlcpu_onnx_node_destroy(node);

  node = NULL;
  CHECK(dmlcpu_onnx_split(&input, 0, NULL, 4, 0, 0, &node) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("dmlcpu_onnx_split: split is null, its count is 4");
  CHECK(node == NULL);
}

/* Pad {2,3}: crop one column at the start, add one column and one row of 9 at the end. */
static void TestPad(dmlcpu_device* device) {
  static const int64_t kShape[2] = {2, 3};
  static const int64_t kPads[4] = {0, -1, 1, 1}; /* begins {0, -1}, ends {1, 1} */
  static const float kX[6] = {1, 2, 3, 4, 5, 6};
  static const float kNine = 9.0f;
  static const float kExpected[9] = {2, 3, 9, 5, 6, 9, 9, 9, 9};
  static const float kReflect[9] = {2, 3, 2, 5, 6, 5, 2, 3, 2};
  const dmlcpu_onnx_tensor_type data = FloatTensor(2, kShape);
  dmlcpu_onnx_node* node = NULL;
  dmlcpu_input_binding in;
  dmlcpu_binding out;
  float y[9];
  uint64_t offset_bytes = 99;

  CHECK(dmlcpu_onnx_pad(&data, NULL, kPads, 4, NULL, 0, &kNine, sizeof(kNine), &node) ==
        DMLCPU_OK);
  if (node == NULL) return;
  CHECK(dmlcpu_onnx_node_desc(node)->Type == DML_OPERATOR_PADDING1);
  CHECK(dmlcpu_onnx_node_input_offset_bytes(node, 0, &offset_bytes) == DMLCPU_OK);
  CHECK(offset_bytes == sizeof(float));
  CHECK(dmlcpu_onnx_node_input_offset_bytes(node, 1, &offset_bytes) == DMLCPU_INVALID_ARGUMENT);
  in.data = (const unsigned char*)kX + sizeof(float);
  in.size_bytes = sizeof(kX) - sizeof(float);
  out.data = y;
  out.size_bytes = sizeof(y);
  Fill(y, 9, kSentinel);
  CHECK(Run(device, node, &in, 1, &out, 1) == DMLCPU_OK);
  CHECK(Equal(y, kExpected, 9));
  dmlcpu_onnx_node_destroy(node);

  node = NULL;
  CHECK(dmlcpu_onnx_pad(&data, "reflect", kPads, 4, NULL, 0, NULL, 0, &node) == DMLCPU_OK);
  if (node == NULL) return;
  Fill(y, 9, kSentinel);
  CHECK(Run(device, node, &in, 1, &out, 1) == DMLCPU_OK);
  CHECK(Equal(y, kReflect, 9));
  dmlcpu_onnx_node_destroy(node);

  node = NULL;
  CHECK(dmlcpu_onnx_pad(&data, "mirror", kPads, 4, NULL, 0, NULL, 0, &node) ==
        DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("Pad");
  CHECK(dmlcpu_onnx_pad(&data, NULL, kPads, 4, NULL, 0, NULL, 4, &node) ==
        DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("dmlcpu_onnx_pad: constant_value is null, constant_value_bytes is 4");
}

/* Reshape, Flatten, Squeeze, Unsqueeze, Identity: aliases while packed; a strided output turns
 * the node into a copy. */
static void TestShapeOnly(dmlcpu_device* device) {
  static const int64_t kShape[3] = {2, 1, 3};
  static const int64_t kNewShape[2] = {3, -1};
  static const int64_t kAxes[1] = {1};
  static const int64_t kUnsqueezeAxes[1] = {0};
  static const uint32_t kPitchedStrides[2] = {3, 1}; /* {3, 2} with one unused element per row */
  static const float kX[6] = {1, 2, 3, 4, 5, 6};
  static const float kExpected[9] = {1, 2, kSentinel, 3, 4, kSentinel, 5, 6, kSentinel};
  const dmlcpu_onnx_tensor_type data = FloatTensor(3, kShape);
  dmlcpu_onnx_node* node = NULL;
  dmlcpu_input_binding in;
  dmlcpu_binding out;
  float y[9];
  const int64_t* shape = NULL;

  CHECK(dmlcpu_onnx_reshape(&data, kNewShape, 2, 0, &node) == DMLCPU_OK);
  if (node == NULL) return;
  CHECK(dmlcpu_onnx_node_is_alias(node) == 1);
  CHECK(dmlcpu_onnx_node_desc(node)->Type == DML_OPERATOR_INVALID);
  shape = dmlcpu_onnx_node_output_shape(node);
  CHECK(shape != NULL && shape[0] == 3 && shape[1] == 2);
  CHECK(dmlcpu_onnx_node_set_output_strides(node, 0, kPitchedStrides, 2) == DMLCPU_OK);
  CHECK(dmlcpu_onnx_node_is_alias(node) == 0);
  CHECK(dmlcpu_onnx_node_desc(node)->Type == DML_OPERATOR_ELEMENT_WISE_IDENTITY);
  in.data = kX;
  in.size_bytes = sizeof(kX);
  out.data = y;
  out.size_bytes = 8 * sizeof(float); /* the span: the last row's gap is not part of it */
  Fill(y, 9, kSentinel);
  CHECK(Run(device, node, &in, 1, &out, 1) == DMLCPU_OK);
  CHECK(Equal(y, kExpected, 9));
  CHECK(dmlcpu_onnx_node_set_output_strides(node, 0, NULL, 0) == DMLCPU_OK);
  CHECK(dmlcpu_onnx_node_is_alias(node) == 1);
  dmlcpu_onnx_node_destroy(node);

  node = NULL;
  CHECK(dmlcpu_onnx_flatten(&data, 2, &node) == DMLCPU_OK);
  CHECK(node != NULL && dmlcpu_onnx_node_is_alias(node) == 1);
  shape = node != NULL ? dmlcpu_onnx_node_output_shape(node) : NULL;
  CHECK(shape != NULL && shape[0] == 2 && shape[1] == 3);
  dmlcpu_onnx_node_destroy(node);

  node = NULL;
  CHECK(dmlcpu_onnx_squeeze(&data, kAxes, 1, &node) == DMLCPU_OK);
  CHECK(node != NULL && dmlcpu_onnx_node_output_rank(node) == 2);
  dmlcpu_onnx_node_destroy(node);
  node = NULL;
  CHECK(dmlcpu_onnx_squeeze(&data, NULL, 0, &node) == DMLCPU_OK);
  CHECK(node != NULL && dmlcpu_onnx_node_output_rank(node) == 2);
  dmlcpu_onnx_node_destroy(node);
  node = NULL;
  CHECK(dmlcpu_onnx_unsqueeze(&data, kUnsqueezeAxes, 1, &node) == DMLCPU_OK);
  CHECK(node != NULL && dmlcpu_onnx_node_output_rank(node) == 4);
  dmlcpu_onnx_node_destroy(node);
  node = NULL;
  CHECK(dmlcpu_onnx_identity(&data, &node) == DMLCPU_OK);
  CHECK(node != NULL && dmlcpu_onnx_node_is_alias(node) == 1);
  dmlcpu_onnx_node_destroy(node);
  CHECK(dmlcpu_onnx_node_is_alias(NULL) == 0);

  node = NULL;
  CHECK(dmlcpu_onnx_squeeze(&data, kUnsqueezeAxes, 1, &node) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("Squeeze");
  CHECK(dmlcpu_onnx_flatten(&data, 4, &node) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("Flatten");
}

/* Expand {3,1} to {2,3,2}, Tile {2} x3, DepthToSpace / SpaceToDepth round trip. */
static void TestBroadcastsAndBlocks(dmlcpu_device* device) {
  static const int64_t kColumn[2] = {3, 1};
  static const int64_t kExpandTo[3] = {2, 1, 2};
  static const float kX[3] = {1, 2, 3};
  static const float kExpanded[12] = {1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3};
  static const int64_t kPair[1] = {2};
  static const int64_t kThree[2] = {3, 3}; /* one repeat too many for a rank-1 input */
  static const float kTiled[6] = {1, 2, 1, 2, 1, 2};
  static const int64_t kDepth[4] = {1, 4, 1, 1};
  static const float kDepthX[4] = {1, 2, 3, 4};
  dmlcpu_onnx_tensor_type t = FloatTensor(2, kColumn);
  dmlcpu_onnx_node* node = NULL;
  dmlcpu_input_binding in;
  dmlcpu_binding out;
  float y[12];
  const int64_t* shape = NULL;

  CHECK(dmlcpu_onnx_expand(&t, kExpandTo, 3, &node) == DMLCPU_OK);
  if (node == NULL) return;
  shape = dmlcpu_onnx_node_output_shape(node);
  CHECK(shape != NULL && shape[0] == 2 && shape[1] == 3 && shape[2] == 2);
  in.data = kX;
  in.size_bytes = sizeof(kX);
  out.data = y;
  out.size_bytes = sizeof(y);
  Fill(y, 12, kSentinel);
  CHECK(Run(device, node, &in, 1, &out, 1) == DMLCPU_OK);
  CHECK(Equal(y, kExpanded, 12));
  dmlcpu_onnx_node_destroy(node);

  node = NULL;
  t = FloatTensor(1, kPair);
  CHECK(dmlcpu_onnx_tile(&t, kThree, 1, &node) == DMLCPU_OK);
  if (node == NULL) return;
  CHECK(dmlcpu_onnx_node_desc(node)->Type == DML_OPERATOR_TILE);
  in.size_bytes = 2 * sizeof(float);
  out.size_bytes = 6 * sizeof(float);
  Fill(y, 12, kSentinel);
  CHECK(Run(device, node, &in, 1, &out, 1) == DMLCPU_OK);
  CHECK(Equal(y, kTiled, 6));
  CHECK(y[6] == kSentinel);
  dmlcpu_onnx_node_destroy(node);
  node = NULL;
  CHECK(dmlcpu_onnx_tile(&t, kThree, 2, &node) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("Tile");

  /* DCR: channel c of 4 goes to (row, column) = (c / 2, c % 2) of a 2x2 block. */
  node = NULL;
  t = FloatTensor(4, kDepth);
  CHECK(dmlcpu_onnx_depth_to_space(&t, 2, NULL, &node) == DMLCPU_OK);
  if (node == NULL) return;
  CHECK(dmlcpu_onnx_node_desc(node)->Type == DML_OPERATOR_DEPTH_TO_SPACE1);
  shape = dmlcpu_onnx_node_output_shape(node);
  CHECK(shape != NULL && shape[1] == 1 && shape[2] == 2 && shape[3] == 2);
  in.data = kDepthX;
  in.size_bytes = sizeof(kDepthX);
  out.size_bytes = 4 * sizeof(float);
  Fill(y, 12, kSentinel);
  CHECK(Run(device, node, &in, 1, &out, 1) == DMLCPU_OK);
  CHECK(Equal(y, kDepthX, 4));
  dmlcpu_onnx_node_destroy(node);
  node = NULL;
  CHECK(dmlcpu_onnx_depth_to_space(&t, 2, "XYZ", &node) == DMLCPU_INVALID_ARGUMENT);
  CHECK_MESSAGE("DepthToSpace");

  {
    static const int64_t kSpace[4] = {1, 1, 2, 2};
    node = NULL;
    t = FloatTensor(4, kSpace);
    CHECK(dmlcpu_onnx_space_to_depth(&t, 2, &node) == DMLCPU_OK);
    if (node == NULL) return;
    CHECK(dmlcpu_onnx_node_desc(node)->Type == DML_OPERATOR_SPACE_TO_DEPTH1);
    CHECK(dmlcpu_onnx_node_output_shape(node)[1] == 4);
    Fill(y, 12, kSentinel);
    CHECK(Run(device, node, &in, 1, &out, 1) == DMLCPU_OK);
    CHECK(Equal(y, kDepthX, 4));
    dmlcpu_onnx_node_destroy(node);
    node = NULL;
    CHECK(dmlcpu_onnx_space_to_depth(&t, 3, &node) == DMLCPU_INVALID_ARGUMENT);
    CHECK_MESSAGE("SpaceToDepth");
  }
}

int main(void) {
  dmlcpu_device* device = NULL;
  if (dmlcpu_device_create(2, &device) != DMLCPU_OK || device == NULL) {
    fprintf(stderr, "FAILED: cannot create a device\n");
    return 1;
  }
  TestTranspose(device);
  TestConcat(device);
  TestSplit(device);
  TestPad(device);
  TestShapeOnly(device);
  TestBroadcastsAndBlocks(device);
  dmlcpu_device_destroy(device);
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
