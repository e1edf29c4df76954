// SPDX-License-Identifier: Apache-2.0
// Names for messages and Describe(): data types, operator types, index types, shapes,
// tilings and strategies.
#include <cstring>

#include "planner/planner.h"

namespace dmlcpu {
namespace internal {
namespace {

// Every DML_OPERATOR_TYPE value's name (header 0x6400), indexed by value.
constexpr const char* kOperatorNames[] = {
    "INVALID",
    "ELEMENT_WISE_IDENTITY",
    "ELEMENT_WISE_ABS",
    "ELEMENT_WISE_ACOS",
    "ELEMENT_WISE_ADD",
    "ELEMENT_WISE_ASIN",
    "ELEMENT_WISE_ATAN",
    "ELEMENT_WISE_CEIL",
    "ELEMENT_WISE_CLIP",
    "ELEMENT_WISE_COS",
    "ELEMENT_WISE_DIVIDE",
    "ELEMENT_WISE_EXP",
    "ELEMENT_WISE_FLOOR",
    "ELEMENT_WISE_LOG",
    "ELEMENT_WISE_LOGICAL_AND",
    "ELEMENT_WISE_LOGICAL_EQUALS",
    "ELEMENT_WISE_LOGICAL_GREATER_THAN",
    "ELEMENT_WISE_LOGICAL_LESS_THAN",
    "ELEMENT_WISE_LOGICAL_NOT",
    "ELEMENT_WISE_LOGICAL_OR",
    "ELEMENT_WISE_LOGICAL_XOR",
    "ELEMENT_WISE_MAX",
    "ELEMENT_WISE_MEAN",
    "ELEMENT_WISE_MIN",
    "ELEMENT_WISE_MULTIPLY",
    "ELEMENT_WISE_POW",
    "ELEMENT_WISE_CONSTANT_POW",
    "ELEMENT_WISE_RECIP",
    "ELEMENT_WISE_SIN",
    "ELEMENT_WISE_SQRT",
    "ELEMENT_WISE_SUBTRACT",
    "ELEMENT_WISE_TAN",
    "ELEMENT_WISE_THRESHOLD",
    "ELEMENT_WISE_QUANTIZE_LINEAR",
    "ELEMENT_WISE_DEQUANTIZE_LINEAR",
    "ACTIVATION_ELU",
    "ACTIVATION_HARDMAX",
    "ACTIVATION_HARD_SIGMOID",
    "ACTIVATION_IDENTITY",
    "ACTIVATION_LEAKY_RELU",
    "ACTIVATION_LINEAR",
    "ACTIVATION_LOG_SOFTMAX",
    "ACTIVATION_PARAMETERIZED_RELU",
    "ACTIVATION_PARAMETRIC_SOFTPLUS",
    "ACTIVATION_RELU",
    "ACTIVATION_SCALED_ELU",
    "ACTIVATION_SCALED_TANH",
    "ACTIVATION_SIGMOID",
    "ACTIVATION_SOFTMAX",
    "ACTIVATION_SOFTPLUS",
    "ACTIVATION_SOFTSIGN",
    "ACTIVATION_TANH",
    "ACTIVATION_THRESHOLDED_RELU",
    "CONVOLUTION",
    "GEMM",
    "REDUCE",
    "AVERAGE_POOLING",
    "LP_POOLING",
    "MAX_POOLING",
    "ROI_POOLING",
    "SLICE",
    "CAST",
    "SPLIT",
    "JOIN",
    "PADDING",
    "VALUE_SCALE_2D",
    "UPSAMPLE_2D",
    "GATHER",
    "SPACE_TO_DEPTH",
    "DEPTH_TO_SPACE",
    "TILE",
    "TOP_K",
    "BATCH_NORMALIZATION",
    "MEAN_VARIANCE_NORMALIZATION",
    "LOCAL_RESPONSE_NORMALIZATION",
    "LP_NORMALIZATION",
    "RNN",
    "LSTM",
    "GRU",
    "ELEMENT_WISE_SIGN",
    "ELEMENT_WISE_IS_NAN",
    "ELEMENT_WISE_ERF",
    "ELEMENT_WISE_SINH",
    "ELEMENT_WISE_COSH",
    "ELEMENT_WISE_TANH",
    "ELEMENT_WISE_ASINH",
    "ELEMENT_WISE_ACOSH",
    "ELEMENT_WISE_ATANH",
    "ELEMENT_WISE_IF",
    "ELEMENT_WISE_ADD1",
    "ACTIVATION_SHRINK",
    "MAX_POOLING1",
    "MAX_UNPOOLING",
    "DIAGONAL_MATRIX",
    "SCATTER_ELEMENTS",
    "ONE_HOT",
    "RESAMPLE",
    "ELEMENT_WISE_BIT_SHIFT_LEFT",
    "ELEMENT_WISE_BIT_SHIFT_RIGHT",
    "ELEMENT_WISE_ROUND",
    "ELEMENT_WISE_IS_INFINITY",
    "ELEMENT_WISE_MODULUS_TRUNCATE",
    "ELEMENT_WISE_MODULUS_FLOOR",
    "FILL_VALUE_CONSTANT",
    "FILL_VALUE_SEQUENCE",
    "CUMULATIVE_SUMMATION",
    "REVERSE_SUBSEQUENCES",
    "GATHER_ELEMENTS",
    "GATHER_ND",
    "SCATTER_ND",
    "MAX_POOLING2",
    "SLICE1",
    "TOP_K1",
    "DEPTH_TO_SPACE1",
    "SPACE_TO_DEPTH1",
    "MEAN_VARIANCE_NORMALIZATION1",
    "RESAMPLE1",
    "MATRIX_MULTIPLY_INTEGER",
    "QUANTIZED_LINEAR_MATRIX_MULTIPLY",
    "CONVOLUTION_INTEGER",
    "QUANTIZED_LINEAR_CONVOLUTION",
    "ELEMENT_WISE_BIT_AND",
    "ELEMENT_WISE_BIT_OR",
    "ELEMENT_WISE_BIT_XOR",
    "ELEMENT_WISE_BIT_NOT",
    "ELEMENT_WISE_BIT_COUNT",
    "ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL",
    "ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL",
    "ACTIVATION_CELU",
    "ACTIVATION_RELU_GRAD",
    "AVERAGE_POOLING_GRAD",
    "MAX_POOLING_GRAD",
    "RANDOM_GENERATOR",
    "NONZERO_COORDINATES",
    "RESAMPLE_GRAD",
    "SLICE_GRAD",
    "ADAM_OPTIMIZER",
    "ARGMIN",
    "ARGMAX",
    "ROI_ALIGN",
    "GATHER_ND1",
    "ELEMENT_WISE_ATAN_YX",
    "ELEMENT_WISE_CLIP_GRAD",
    "ELEMENT_WISE_DIFFERENCE_SQUARE",
    "LOCAL_RESPONSE_NORMALIZATION_GRAD",
    "CUMULATIVE_PRODUCT",
    "BATCH_NORMALIZATION_GRAD",
    "ELEMENT_WISE_QUANTIZED_LINEAR_ADD",
    "DYNAMIC_QUANTIZE_LINEAR",
    "ROI_ALIGN1",
    "ROI_ALIGN_GRAD",
    "BATCH_NORMALIZATION_TRAINING",
    "BATCH_NORMALIZATION_TRAINING_GRAD",
    "ELEMENT_WISE_CLIP1",
    "ELEMENT_WISE_CLIP_GRAD1",
    "PADDING1",
    "ELEMENT_WISE_NEGATE",
    "ACTIVATION_GELU",
    "ACTIVATION_SOFTMAX1",
    "ACTIVATION_LOG_SOFTMAX1",
    "ACTIVATION_HARDMAX1",
    "RESAMPLE2",
    "RESAMPLE_GRAD1",
    "DIAGONAL_MATRIX1",
    "MULTIHEAD_ATTENTION",
    "LP_POOLING1",
    "AVERAGE_POOLING1",
    "ACTIVATION_SWISH",
    "ACTIVATION_HARD_SWISH",
    "QUANTIZED_LINEAR_AVERAGE_POOLING",
    "MATRIX_MULTIPLY_INTEGER_TO_FLOAT",
    "MEAN_VARIANCE_NORMALIZATION2",
    "MULTIHEAD_ATTENTION1",
    "QUANTIZE",
    "DEQUANTIZE",
    "RESAMPLE3",
    "FOLD",
    "UNFOLD",
};

}  // namespace

const char* OperatorNameForValue(uint32_t value) {
  return value < sizeof(kOperatorNames) / sizeof(kOperatorNames[0]) ? kOperatorNames[value]
                                                                    : "DML_OPERATOR";
}

const char* OperatorName(DML_OPERATOR_TYPE type) {
  uint32_t value;
  std::memcpy(&value, &type, sizeof(value));  // may hold any 32-bit value written from C
  return OperatorNameForValue(value);
}

const char* DataTypeName(DML_TENSOR_DATA_TYPE type) {
  uint32_t value;
  std::memcpy(&value, &type, sizeof(value));
  switch (value) {
    case DML_TENSOR_DATA_TYPE_UNKNOWN:
      return "UNKNOWN";
    case DML_TENSOR_DATA_TYPE_FLOAT32:
      return "FLOAT32";
    case DML_TENSOR_DATA_TYPE_FLOAT16:
      return "FLOAT16";
    case DML_TENSOR_DATA_TYPE_UINT32:
      return "UINT32";
    case DML_TENSOR_DATA_TYPE_UINT16:
      return "UINT16";
    case DML_TENSOR_DATA_TYPE_UINT8:
      return "UINT8";
    case DML_TENSOR_DATA_TYPE_INT32:
      return "INT32";
    case DML_TENSOR_DATA_TYPE_INT16:
      return "INT16";
    case DML_TENSOR_DATA_TYPE_INT8:
      return "INT8";
    case DML_TENSOR_DATA_TYPE_FLOAT64:
      return "FLOAT64";
    case DML_TENSOR_DATA_TYPE_UINT64:
      return "UINT64";
    case DML_TENSOR_DATA_TYPE_INT64:
      return "INT64";
    case DML_TENSOR_DATA_TYPE_UINT4:
      return "UINT4";
    case DML_TENSOR_DATA_TYPE_INT4:
      return "INT4";
  }
  return "not a DML_TENSOR_DATA_TYPE";
}

const char* IndexTypeName(kernels::IndexType type) {
  switch (type) {
    case kernels::IndexType::kInt32: return "INT32";
    case kernels::IndexType::kUint32: return "UINT32";
    case kernels::IndexType::kInt64: return "INT64";
    case kernels::IndexType::kUint64: return "UINT64";
  }
  return "?";
}

const char* KernelShapeName(KernelShape shape) {
  switch (shape) {
    case KernelShape::kOneRun: return "K0 one contiguous run";
    case KernelShape::kRowsOfRuns: return "K1 rows of contiguous runs";
    case KernelShape::kStridedInner: return "K2 strided inner dimension";
    case KernelShape::kBlockGather: return "K3 block gather";
    case KernelShape::kElementGather: return "K4 element gather";
  }
  return "?";
}

const char* TilingName(Tiling tiling) {
  switch (tiling) {
    case Tiling::kNone: return "none";
    case Tiling::kStridedTiles: return "strided rows in cache tiles";
    case Tiling::kTransposeTiles: return "2-D transpose tiles";
    case Tiling::kRunTiles: return "rows of runs in stream tiles";
    case Tiling::kStrips: return "strips";
    case Tiling::kPackedStrips: return "packed strips";
  }
  return "?";
}

const char* StrategyName(Strategy strategy) {
  switch (strategy) {
    case Strategy::kContiguousRun: return "contiguous run";
    case Strategy::kRowsOfRuns: return "rows of runs";
    case Strategy::kStridedRows: return "strided rows";
    case Strategy::kTransposeTiles: return "transpose tiles";
    case Strategy::kBlockRows: return "block rows";
    case Strategy::kIndexedBlocks: return "indexed blocks";
    case Strategy::kElementRows: return "element rows";
    case Strategy::kFusedRowGather: return "fused row gather";
    case Strategy::kSharedIndexRows: return "shared-index rows";
    case Strategy::kPackedStrips: return "packed strips";
  }
  return "?";
}

}  // namespace internal
}  // namespace dmlcpu
