// SPDX-License-Identifier: Apache-2.0
// The C ABI of the ONNX adapter's data-movement ops (dmlcpu_onnx_transpose ... _space_to_depth)
// and the node queries only they need (aliases, empty parts, views, strides).
#include <cstdint>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "api/c_api_internal.h"
#include "dmlcpu/dmlcpu_c.h"
#include "dmlcpu/onnx.h"

using dmlcpu_c::Fail;
using dmlcpu_c::FinishNode;
using dmlcpu_c::FromStatus;
using dmlcpu_c::ToTensorType;
using dmlcpu_c::ToVector;

namespace {

using NodeOr = dmlcpu::StatusOr<dmlcpu::onnx::OperatorDesc>;

// The shared frame of every builder below: checks `out`, converts `input` (none when
// input_name is null), runs `build` (which may fail with a dmlcpu_status of its own) and turns
// bad_alloc into DMLCPU_INTERNAL.
template <typename Build>
dmlcpu_status BuildNode(const char* function, const char* input_name,
                        const dmlcpu_onnx_tensor_type* input, dmlcpu_onnx_node** out,
                        Build build) {
  if (out == nullptr) return Fail(DMLCPU_INVALID_ARGUMENT, std::string(function) + ": out is null");
  *out = nullptr;
  try {
    dmlcpu::onnx::TensorType type;
    if (input_name != nullptr) {
      const dmlcpu_status s = ToTensorType(function, input_name, input, &type);
      if (s != DMLCPU_OK) return s;
    }
    NodeOr node = dmlcpu::Status(dmlcpu::StatusCode::kInternal,
                                 std::string(function) + ": no node was built");
    const dmlcpu_status s = build(type, &node);
    if (s != DMLCPU_OK) return s;
    return FinishNode(function, std::move(node), out);
  } catch (const std::bad_alloc&) {
    return Fail(DMLCPU_INTERNAL, std::string(function) + ": out of memory");
  }
}

// The shape of the builders that take one tensor and one int64 array.
using ArrayNodeBuilder = NodeOr (*)(const dmlcpu::onnx::TensorType&, const std::vector<int64_t>&);

dmlcpu_status BuildArrayNode(const char* function, const char* input_name,
                             const char* array_name, ArrayNodeBuilder builder,
                             const dmlcpu_onnx_tensor_type* input, const int64_t* values,
                             uint32_t count, dmlcpu_onnx_node** out) {
  return BuildNode(function, input_name, input, out,
                   [&](const dmlcpu::onnx::TensorType& type, NodeOr* node) {
                     std::vector<int64_t> array;
                     const dmlcpu_status s = ToVector(function, array_name, values, count, &array);
                     if (s != DMLCPU_OK) return s;
                     *node = builder(type, array);
                     return DMLCPU_OK;
                   });
}

// DMLCPU_INVALID_ARGUMENT unless node and result are set and index < limit.
dmlcpu_status CheckQuery(const char* function, const dmlcpu_onnx_node* node, const void* result,
                         const char* result_name, uint32_t index, size_t limit) {
  if (node == nullptr || result == nullptr) {
    return Fail(DMLCPU_INVALID_ARGUMENT,
                std::string(function) + ": node or " + result_name + " is null");
  }
  if (index >= limit) {
    return Fail(DMLCPU_INVALID_ARGUMENT, std::string(function) + ": index is " +
                                             std::to_string(index) + ", expected < " +
                                             std::to_string(limit));
  }
  return DMLCPU_OK;
}

dmlcpu_status SetStrides(const char* function, dmlcpu_onnx_node* node, uint32_t index,
                         const uint32_t* strides_elems, uint32_t count, bool output) {
  if (node == nullptr) return Fail(DMLCPU_INVALID_ARGUMENT, std::string(function) + ": node is null");
  if (count > 0 && strides_elems == nullptr) {
    return Fail(DMLCPU_INVALID_ARGUMENT, std::string(function) +
                                             ": strides_elems is null, count is " +
                                             std::to_string(count));
  }
  try {
    std::vector<uint32_t> strides;
    if (count > 0) strides.assign(strides_elems, strides_elems + count);
    return FromStatus(output ? node->node.SetOutputStrides(index, strides)
                             : node->node.SetInputStrides(index, strides));
  } catch (const std::bad_alloc&) {
    return Fail(DMLCPU_INTERNAL, std::string(function) + ": out of memory");
  }
}

}  // namespace

extern "C" {

dmlcpu_status dmlcpu_onnx_transpose(const dmlcpu_onnx_tensor_type* data, const int64_t* perm,
                                    uint32_t perm_count, dmlcpu_onnx_node** out) {
  return BuildArrayNode("dmlcpu_onnx_transpose", "data", "perm", &dmlcpu::onnx::Transpose, data,
                        perm, perm_count, out);
}

dmlcpu_status dmlcpu_onnx_expand(const dmlcpu_onnx_tensor_type* input, const int64_t* shape,
                                 uint32_t shape_count, dmlcpu_onnx_node** out) {
  return BuildArrayNode("dmlcpu_onnx_expand", "input", "shape", &dmlcpu::onnx::Expand, input,
                        shape, shape_count, out);
}

dmlcpu_status dmlcpu_onnx_identity(const dmlcpu_onnx_tensor_type* input, dmlcpu_onnx_node** out) {
  return BuildNode("dmlcpu_onnx_identity", "input", input, out,
                   [](const dmlcpu::onnx::TensorType& type, NodeOr* node) {
                     *node = dmlcpu::onnx::Identity(type);
                     return DMLCPU_OK;
                   });
}

dmlcpu_status dmlcpu_onnx_reshape(const dmlcpu_onnx_tensor_type* data, const int64_t* shape,
                                  uint32_t shape_count, int allowzero, dmlcpu_onnx_node** out) {
  const char* function = "dmlcpu_onnx_reshape";
  return BuildNode(function, "data", data, out,
                   [&](const dmlcpu::onnx::TensorType& type, NodeOr* node) {
                     std::vector<int64_t> values;
                     const dmlcpu_status s = ToVector(function, "shape", shape, shape_count,
                                                      &values);
                     if (s != DMLCPU_OK) return s;
                     *node = dmlcpu::onnx::Reshape(type, values, allowzero != 0);
                     return DMLCPU_OK;
                   });
}

dmlcpu_status dmlcpu_onnx_flatten(const dmlcpu_onnx_tensor_type* input, int64_t axis,
                                  dmlcpu_onnx_node** out) {
  return BuildNode("dmlcpu_onnx_flatten", "input", input, out,
                   [&](const dmlcpu::onnx::TensorType& type, NodeOr* node) {
                     *node = dmlcpu::onnx::Flatten(type, axis);
                     return DMLCPU_OK;
                   });
}

dmlcpu_status dmlcpu_onnx_squeeze(const dmlcpu_onnx_tensor_type* data, const int64_t* axes,
                                  uint32_t axes_count, dmlcpu_onnx_node** out) {
  return BuildArrayNode("dmlcpu_onnx_squeeze", "data", "axes", &dmlcpu::onnx::Squeeze, data,
                        axes, axes_count, out);
}

dmlcpu_status dmlcpu_onnx_unsqueeze(const dmlcpu_onnx_tensor_type* data, const int64_t* axes,
                                    uint32_t axes_count, dmlcpu_onnx_node** out) {
  return BuildArrayNode("dmlcpu_onnx_unsqueeze", "data", "axes", &dmlcpu::onnx::Unsqueeze, data,
                        axes, axes_count, out);
}

dmlcpu_status dmlcpu_onnx_concat(const dmlcpu_onnx_tensor_type* inputs, uint32_t input_count,
                                 int64_t axis, dmlcpu_onnx_node** out) {
  const char* function = "dmlcpu_onnx_concat";
  if (input_count > 0 && inputs == nullptr) {
    if (out != nullptr) *out = nullptr;
    return Fail(DMLCPU_INVALID_ARGUMENT, std::string(function) +
                                             ": inputs is null, input_count is " +
                                             std::to_string(input_count));
  }
  return BuildNode(function, nullptr, nullptr, out,
                   [&](const dmlcpu::onnx::TensorType&, NodeOr* node) {
                     std::vector<dmlcpu::onnx::TensorType> types(input_count);
                     for (uint32_t i = 0; i < input_count; ++i) {
                       const std::string name = "inputs[" + std::to_string(i) + "]";
                       const dmlcpu_status s =
                           ToTensorType(function, name.c_str(), &inputs[i], &types[i]);
                       if (s != DMLCPU_OK) return s;
                     }
                     *node = dmlcpu::onnx::Concat(types, axis);
                     return DMLCPU_OK;
                   });
}

dmlcpu_status dmlcpu_onnx_split(const dmlcpu_onnx_tensor_type* input, int64_t axis,
                                const int64_t* split, uint32_t split_count, int64_t num_outputs,
                                uint32_t output_count, dmlcpu_onnx_node** out) {
  const char* function = "dmlcpu_onnx_split";
  return BuildNode(function, "input", input, out,
                   [&](const dmlcpu::onnx::TensorType& type, NodeOr* node) {
                     dmlcpu::onnx::SplitParams params;
                     const dmlcpu_status s =
                         ToVector(function, "split", split, split_count, &params.split);
                     if (s != DMLCPU_OK) return s;
                     params.num_outputs = num_outputs;
                     params.output_count = output_count;
                     *node = dmlcpu::onnx::Split(type, axis, params);
                     return DMLCPU_OK;
                   });
}

dmlcpu_status dmlcpu_onnx_tile(const dmlcpu_onnx_tensor_type* input, const int64_t* repeats,
                               uint32_t repeats_count, dmlcpu_onnx_node** out) {
  return BuildArrayNode("dmlcpu_onnx_tile", "input", "repeats", &dmlcpu::onnx::Tile, input,
                        repeats, repeats_count, out);
}

dmlcpu_status dmlcpu_onnx_pad(const dmlcpu_onnx_tensor_type* data, const char* mode,
                              const int64_t* pads, uint32_t pads_count, const int64_t* axes,
                              uint32_t axes_count, const void* constant_value,
                              uint32_t constant_value_bytes, dmlcpu_onnx_node** out) {
  const char* function = "dmlcpu_onnx_pad";
  return BuildNode(function, "data", data, out,
                   [&](const dmlcpu::onnx::TensorType& type, NodeOr* node) {
                     dmlcpu::onnx::PadParams params;
                     if (mode != nullptr) params.mode = mode;
                     dmlcpu_status s = ToVector(function, "pads", pads, pads_count, &params.pads);
                     if (s != DMLCPU_OK) return s;
                     s = ToVector(function, "axes", axes, axes_count, &params.axes);
                     if (s != DMLCPU_OK) return s;
                     if (constant_value_bytes > 0) {
                       if (constant_value == nullptr) {
                         return Fail(DMLCPU_INVALID_ARGUMENT,
                                     std::string(function) +
                                         ": constant_value is null, constant_value_bytes is " +
                                         std::to_string(constant_value_bytes));
                       }
                       const auto* bytes = static_cast<const uint8_t*>(constant_value);
                       params.constant_value.assign(bytes, bytes + constant_value_bytes);
                     }
                     *node = dmlcpu::onnx::Pad(type, params);
                     return DMLCPU_OK;
                   });
}

dmlcpu_status dmlcpu_onnx_depth_to_space(const dmlcpu_onnx_tensor_type* input, int64_t blocksize,
                                         const char* mode, dmlcpu_onnx_node** out) {
  return BuildNode("dmlcpu_onnx_depth_to_space", "input", input, out,
                   [&](const dmlcpu::onnx::TensorType& type, NodeOr* node) {
                     *node = dmlcpu::onnx::DepthToSpace(type, blocksize,
                                                        mode != nullptr ? mode : "DCR");
                     return DMLCPU_OK;
                   });
}

dmlcpu_status dmlcpu_onnx_space_to_depth(const dmlcpu_onnx_tensor_type* input, int64_t blocksize,
                                         dmlcpu_onnx_node** out) {
  return BuildNode("dmlcpu_onnx_space_to_depth", "input", input, out,
                   [&](const dmlcpu::onnx::TensorType& type, NodeOr* node) {
                     *node = dmlcpu::onnx::SpaceToDepth(type, blocksize);
                     return DMLCPU_OK;
                   });
}

int dmlcpu_onnx_node_is_alias(const dmlcpu_onnx_node* node) {
  return node != nullptr && node->node.is_alias() ? 1 : 0;
}

dmlcpu_status dmlcpu_onnx_node_input_is_empty(const dmlcpu_onnx_node* node, uint32_t index,
                                              int* is_empty) {
  const char* function = "dmlcpu_onnx_node_input_is_empty";
  const dmlcpu_status s = CheckQuery(function, node, is_empty, "is_empty", index,
                                     node == nullptr ? 0 : node->node.input_count());
  if (s != DMLCPU_OK) return s;
  *is_empty = node->node.input_is_empty(index) ? 1 : 0;
  return DMLCPU_OK;
}

dmlcpu_status dmlcpu_onnx_node_output_is_empty_at(const dmlcpu_onnx_node* node, uint32_t index,
                                                  int* is_empty) {
  const char* function = "dmlcpu_onnx_node_output_is_empty_at";
  const dmlcpu_status s = CheckQuery(function, node, is_empty, "is_empty", index,
                                     node == nullptr ? 0 : node->node.output_count());
  if (s != DMLCPU_OK) return s;
  *is_empty = node->node.output_is_empty(index) ? 1 : 0;
  return DMLCPU_OK;
}

dmlcpu_status dmlcpu_onnx_node_input_offset_bytes(const dmlcpu_onnx_node* node, uint32_t index,
                                                  uint64_t* offset_bytes) {
  const char* function = "dmlcpu_onnx_node_input_offset_bytes";
  const dmlcpu_status s = CheckQuery(function, node, offset_bytes, "offset_bytes", index,
                                     node == nullptr ? 0 : node->node.input_count());
  if (s != DMLCPU_OK) return s;
  *offset_bytes = node->node.input_offset_bytes(index);
  return DMLCPU_OK;
}

dmlcpu_status dmlcpu_onnx_node_set_input_strides(dmlcpu_onnx_node* node, uint32_t index,
                                                 const uint32_t* strides_elems, uint32_t count) {
  return SetStrides("dmlcpu_onnx_node_set_input_strides", node, index, strides_elems, count,
                    /*output=*/false);
}

dmlcpu_status dmlcpu_onnx_node_set_output_strides(dmlcpu_onnx_node* node, uint32_t index,
                                                  const uint32_t* strides_elems, uint32_t count) {
  return SetStrides("dmlcpu_onnx_node_set_output_strides", node, index, strides_elems, count,
                    /*output=*/true);
}

}  // extern "C"
