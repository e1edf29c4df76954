// SPDX-License-Identifier: Apache-2.0
// The C ABI of the ONNX adapter (dmlcpu_onnx_*): C tensor types in, owned nodes out.
#include <cstdint>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "api/c_api_internal.h"
#include "dmlcpu/dmlcpu_c.h"
#include "dmlcpu/onnx.h"

using dmlcpu_c::CopyText;
using dmlcpu_c::Fail;
using dmlcpu_c::FromStatus;

namespace dmlcpu_c {

dmlcpu_status ToTensorType(const char* function, const char* name,
                           const dmlcpu_onnx_tensor_type* in, dmlcpu::onnx::TensorType* out) {
  if (in == nullptr) {
    return Fail(DMLCPU_INVALID_ARGUMENT, std::string(function) + ": " + name + " is null");
  }
  if (in->rank > 0 && in->shape == nullptr) {
    return Fail(DMLCPU_INVALID_ARGUMENT, std::string(function) + ": " + name +
                                             "->shape is null, rank is " +
                                             std::to_string(in->rank));
  }
  if (in->rank > dmlcpu::onnx::kMaxRank) {
    return Fail(DMLCPU_UNSUPPORTED, std::string(function) + ": " + name + "->rank is " +
                                        std::to_string(in->rank) + ", expected <= " +
                                        std::to_string(dmlcpu::onnx::kMaxRank));
  }
  out->element_type = static_cast<dmlcpu::onnx::ElementType>(in->element_type);
  out->shape.assign(in->shape, in->shape + in->rank);
  return DMLCPU_OK;
}

dmlcpu_status FinishNode(const char* function,
                         dmlcpu::StatusOr<dmlcpu::onnx::OperatorDesc>&& node,
                         dmlcpu_onnx_node** out) {
  if (!node.ok()) return FromStatus(node.status());
  try {
    *out = new dmlcpu_onnx_node{std::move(node).value()};
  } catch (const std::bad_alloc&) {
    return Fail(DMLCPU_INTERNAL, std::string(function) + ": out of memory");
  }
  return DMLCPU_OK;
}

dmlcpu_status ToVector(const char* function, const char* name, const int64_t* values,
                       uint32_t count, std::vector<int64_t>* out) {
  if (count > 0 && values == nullptr) {
    return Fail(DMLCPU_INVALID_ARGUMENT, std::string(function) + ": " + name +
                                             " is null, its count is " + std::to_string(count));
  }
  out->clear();
  if (count > 0) out->assign(values, values + count);
  return DMLCPU_OK;
}

}  // namespace dmlcpu_c

namespace {

using dmlcpu_c::FinishNode;
using dmlcpu_c::ToTensorType;

using IndexedNodeBuilder = dmlcpu::StatusOr<dmlcpu::onnx::OperatorDesc> (*)(
    const dmlcpu::onnx::TensorType&, const dmlcpu::onnx::TensorType&, int64_t);

// DMLCPU_INVALID_ARGUMENT (naming `function`) unless index < the node's output count.
dmlcpu_status CheckOutputIndex(const char* function, const dmlcpu_onnx_node* node, uint32_t index) {
  if (index < node->node.output_count()) return DMLCPU_OK;
  return Fail(DMLCPU_INVALID_ARGUMENT, std::string(function) + ": index is " +
                                           std::to_string(index) + ", expected < " +
                                           std::to_string(node->node.output_count()));
}

// The shared body of dmlcpu_onnx_gather, _gather_elements and _gather_nd.
dmlcpu_status BuildIndexedNode(const char* function, IndexedNodeBuilder build,
                               const dmlcpu_onnx_tensor_type* data,
                               const dmlcpu_onnx_tensor_type* indices, int64_t attribute,
                               dmlcpu_onnx_node** out) {
  if (out == nullptr) return Fail(DMLCPU_INVALID_ARGUMENT, std::string(function) + ": out is null");
  *out = nullptr;
  try {
    dmlcpu::onnx::TensorType data_type, indices_type;
    dmlcpu_status s = ToTensorType(function, "data", data, &data_type);
    if (s != DMLCPU_OK) return s;
    s = ToTensorType(function, "indices", indices, &indices_type);
    if (s != DMLCPU_OK) return s;
    return FinishNode(function, build(data_type, indices_type, attribute), out);
  } catch (const std::bad_alloc&) {
    return Fail(DMLCPU_INTERNAL, std::string(function) + ": out of memory");
  }
}

// The shared body of the dmlcpu_onnx_scatter* functions: `build` gets the three tensor types.
template <typename Build>
dmlcpu_status BuildScatterNode(const char* function, const dmlcpu_onnx_tensor_type* data,
                               const dmlcpu_onnx_tensor_type* indices,
                               const dmlcpu_onnx_tensor_type* updates, dmlcpu_onnx_node** out,
                               Build build) {
  if (out == nullptr) return Fail(DMLCPU_INVALID_ARGUMENT, std::string(function) + ": out is null");
  *out = nullptr;
  try {
    dmlcpu::onnx::TensorType data_type, indices_type, updates_type;
    dmlcpu_status s = ToTensorType(function, "data", data, &data_type);
    if (s == DMLCPU_OK) s = ToTensorType(function, "indices", indices, &indices_type);
    if (s == DMLCPU_OK) s = ToTensorType(function, "updates", updates, &updates_type);
    if (s != DMLCPU_OK) return s;
    return FinishNode(function, build(data_type, indices_type, updates_type), out);
  } catch (const std::bad_alloc&) {
    return Fail(DMLCPU_INTERNAL, std::string(function) + ": out of memory");
  }
}

}  // namespace

extern "C" {

dmlcpu_status dmlcpu_onnx_gather(const dmlcpu_onnx_tensor_type* data,
                                 const dmlcpu_onnx_tensor_type* indices, int64_t axis,
                                 dmlcpu_onnx_node** out) {
  return BuildIndexedNode("dmlcpu_onnx_gather", &dmlcpu::onnx::Gather, data, indices, axis, out);
}

dmlcpu_status dmlcpu_onnx_gather_elements(const dmlcpu_onnx_tensor_type* data,
                                          const dmlcpu_onnx_tensor_type* indices, int64_t axis,
                                          dmlcpu_onnx_node** out) {
  return BuildIndexedNode("dmlcpu_onnx_gather_elements", &dmlcpu::onnx::GatherElements, data,
                          indices, axis, out);
}

dmlcpu_status dmlcpu_onnx_gather_nd(const dmlcpu_onnx_tensor_type* data,
                                    const dmlcpu_onnx_tensor_type* indices, int64_t batch_dims,
                                    dmlcpu_onnx_node** out) {
  return BuildIndexedNode("dmlcpu_onnx_gather_nd", &dmlcpu::onnx::GatherNd, data, indices,
                          batch_dims, out);
}

dmlcpu_status dmlcpu_onnx_slice(const dmlcpu_onnx_tensor_type* data, const int64_t* starts,
                                const int64_t* ends, const int64_t* axes, const int64_t* steps,
                                uint32_t count, dmlcpu_onnx_node** out) {
  if (out == nullptr) return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_onnx_slice: out is null");
  *out = nullptr;
  if (count > 0 && (starts == nullptr || ends == nullptr)) {
    return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_onnx_slice: starts or ends is null, count is " +
                                             std::to_string(count));
  }
  try {
    dmlcpu::onnx::TensorType data_type;
    dmlcpu_status s = ToTensorType("dmlcpu_onnx_slice", "data", data, &data_type);
    if (s != DMLCPU_OK) return s;
    dmlcpu::onnx::SliceParams params;
    if (count > 0) {
      params.starts.assign(starts, starts + count);
      params.ends.assign(ends, ends + count);
      if (axes != nullptr) params.axes.assign(axes, axes + count);
      if (steps != nullptr) params.steps.assign(steps, steps + count);
    }
    return FinishNode("dmlcpu_onnx_slice", dmlcpu::onnx::Slice(data_type, params), out);
  } catch (const std::bad_alloc&) {
    return Fail(DMLCPU_INTERNAL, "dmlcpu_onnx_slice: out of memory");
  }
}

dmlcpu_status dmlcpu_onnx_scatter_nd(const dmlcpu_onnx_tensor_type* data,
                                     const dmlcpu_onnx_tensor_type* indices,
                                     const dmlcpu_onnx_tensor_type* updates,
                                     const char* reduction, int64_t opset,
                                     dmlcpu_onnx_node** out) {
  return BuildScatterNode(
      "dmlcpu_onnx_scatter_nd", data, indices, updates, out,
      [&](const auto& d, const auto& i, const auto& u) {
        return dmlcpu::onnx::ScatterNd(d, i, u, reduction != nullptr ? reduction : "none", opset);
      });
}

dmlcpu_status dmlcpu_onnx_scatter_elements(const dmlcpu_onnx_tensor_type* data,
                                           const dmlcpu_onnx_tensor_type* indices,
                                           const dmlcpu_onnx_tensor_type* updates, int64_t axis,
                                           const char* reduction, int64_t opset,
                                           dmlcpu_onnx_node** out) {
  return BuildScatterNode(
      "dmlcpu_onnx_scatter_elements", data, indices, updates, out,
      [&](const auto& d, const auto& i, const auto& u) {
        return dmlcpu::onnx::ScatterElements(d, i, u, axis,
                                             reduction != nullptr ? reduction : "none", opset);
      });
}

dmlcpu_status dmlcpu_onnx_scatter(const dmlcpu_onnx_tensor_type* data,
                                  const dmlcpu_onnx_tensor_type* indices,
                                  const dmlcpu_onnx_tensor_type* updates, int64_t axis,
                                  int64_t opset, dmlcpu_onnx_node** out) {
  return BuildScatterNode("dmlcpu_onnx_scatter", data, indices, updates, out,
                          [&](const auto& d, const auto& i, const auto& u) {
                            return dmlcpu::onnx::Scatter(d, i, u, axis, opset);
                          });
}

dmlcpu_scatter_reduction dmlcpu_onnx_node_scatter_reduction(const dmlcpu_onnx_node* node) {
  if (node == nullptr) return DMLCPU_SCATTER_NONE;
  return static_cast<dmlcpu_scatter_reduction>(node->node.scatter_reduction());
}

uint32_t dmlcpu_onnx_node_scatter_bfloat16(const dmlcpu_onnx_node* node) {
  if (node == nullptr) return 0;
  return node->node.compile_options(dmlcpu::IndexPolicy::kClamp).scatter_bfloat16 ? 1 : 0;
}

const DML_OPERATOR_DESC* dmlcpu_onnx_node_desc(const dmlcpu_onnx_node* node) {
  return node == nullptr ? nullptr : &node->node.desc();
}

int dmlcpu_onnx_node_output_is_empty(const dmlcpu_onnx_node* node) {
  return node != nullptr && node->node.output_is_empty() ? 1 : 0;
}

uint32_t dmlcpu_onnx_node_output_rank(const dmlcpu_onnx_node* node) {
  return node == nullptr ? 0 : static_cast<uint32_t>(node->node.output_shape().size());
}

const int64_t* dmlcpu_onnx_node_output_shape(const dmlcpu_onnx_node* node) {
  if (node == nullptr || node->node.output_shape().empty()) return nullptr;
  return node->node.output_shape().data();
}

int32_t dmlcpu_onnx_node_output_element_type(const dmlcpu_onnx_node* node) {
  return node == nullptr ? 0 : static_cast<int32_t>(node->node.output_element_type());
}

uint64_t dmlcpu_onnx_node_output_elems(const dmlcpu_onnx_node* node) {
  return node == nullptr ? 0 : node->node.output_elems();
}

uint32_t dmlcpu_onnx_node_input_count(const dmlcpu_onnx_node* node) {
  return node == nullptr ? 0 : static_cast<uint32_t>(node->node.input_count());
}

dmlcpu_status dmlcpu_onnx_node_input_bytes(const dmlcpu_onnx_node* node, uint32_t index,
                                           uint64_t* size_bytes) {
  if (node == nullptr || size_bytes == nullptr) {
    return Fail(DMLCPU_INVALID_ARGUMENT,
                "dmlcpu_onnx_node_input_bytes: node or size_bytes is null");
  }
  if (index >= node->node.input_count()) {
    return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_onnx_node_input_bytes: index is " +
                                             std::to_string(index) + ", expected < " +
                                             std::to_string(node->node.input_count()));
  }
  *size_bytes = node->node.input_bytes(index);
  return DMLCPU_OK;
}

uint64_t dmlcpu_onnx_node_output_bytes(const dmlcpu_onnx_node* node) {
  return node == nullptr ? 0 : node->node.output_bytes();
}

uint32_t dmlcpu_onnx_node_output_count(const dmlcpu_onnx_node* node) {
  return node == nullptr ? 0 : static_cast<uint32_t>(node->node.output_count());
}

dmlcpu_status dmlcpu_onnx_node_output_shape_at(const dmlcpu_onnx_node* node, uint32_t index,
                                               uint32_t* rank, const int64_t** shape) {
  if (node == nullptr || rank == nullptr || shape == nullptr) {
    return Fail(DMLCPU_INVALID_ARGUMENT,
                "dmlcpu_onnx_node_output_shape_at: node, rank or shape is null");
  }
  dmlcpu_status s = CheckOutputIndex("dmlcpu_onnx_node_output_shape_at", node, index);
  if (s != DMLCPU_OK) return s;
  const std::vector<int64_t>& output_shape = node->node.output_shape(index);
  *rank = static_cast<uint32_t>(output_shape.size());
  *shape = output_shape.empty() ? nullptr : output_shape.data();
  return DMLCPU_OK;
}

dmlcpu_status dmlcpu_onnx_node_output_element_type_at(const dmlcpu_onnx_node* node, uint32_t index,
                                                      int32_t* element_type) {
  if (node == nullptr || element_type == nullptr) {
    return Fail(DMLCPU_INVALID_ARGUMENT,
                "dmlcpu_onnx_node_output_element_type_at: node or element_type is null");
  }
  dmlcpu_status s = CheckOutputIndex("dmlcpu_onnx_node_output_element_type_at", node, index);
  if (s != DMLCPU_OK) return s;
  *element_type = static_cast<int32_t>(node->node.output_element_type(index));
  return DMLCPU_OK;
}

dmlcpu_status dmlcpu_onnx_node_output_bytes_at(const dmlcpu_onnx_node* node, uint32_t index,
                                               uint64_t* size_bytes) {
  if (node == nullptr || size_bytes == nullptr) {
    return Fail(DMLCPU_INVALID_ARGUMENT,
                "dmlcpu_onnx_node_output_bytes_at: node or size_bytes is null");
  }
  dmlcpu_status s = CheckOutputIndex("dmlcpu_onnx_node_output_bytes_at", node, index);
  if (s != DMLCPU_OK) return s;
  *size_bytes = node->node.output_bytes(index);
  return DMLCPU_OK;
}

uint64_t dmlcpu_onnx_node_describe(const dmlcpu_onnx_node* node, char* buffer,
                                   uint64_t capacity) {
  if (node == nullptr) return 0;
  try {
    return CopyText(node->node.ToString(), buffer, capacity);
  } catch (...) {
    return 0;
  }
}

void dmlcpu_onnx_node_destroy(dmlcpu_onnx_node* node) { delete node; }

uint32_t dmlcpu_onnx_element_size_bytes(int32_t element_type) {
  return dmlcpu::onnx::ElementSizeBytes(static_cast<dmlcpu::onnx::ElementType>(element_type));
}

}  // extern "C"
