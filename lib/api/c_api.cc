// SPDX-License-Identifier: Apache-2.0
// The C ABI over the C++ API and the ONNX adapter.
#include <cstddef>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dmlcpu/dmlcpu.h"
#include "dmlcpu/dmlcpu_c.h"
#include "dmlcpu/onnx.h"
#include "dmlcpu/version.h"

struct dmlcpu_device {
  explicit dmlcpu_device(const dmlcpu::DeviceOptions& options) : device(options) {}
  explicit dmlcpu_device(dmlcpu::Device&& moved) : device(std::move(moved)) {}
  dmlcpu::Device device;
};

struct dmlcpu_operator {
  dmlcpu::CompiledOperator op;
};

struct dmlcpu_onnx_node {
  dmlcpu::onnx::OperatorDesc node;
};

namespace {

thread_local std::string g_last_error;

dmlcpu_status Fail(dmlcpu_status code, std::string message) {
  g_last_error = std::move(message);
  return code;
}

dmlcpu_status FromStatus(const dmlcpu::Status& s) {
  if (s.ok()) return DMLCPU_OK;
  return Fail(static_cast<dmlcpu_status>(s.code()), s.message());
}

// Bindings converted on the stack; operators with more (a JOIN of many inputs) convert into a
// heap array, the C ABI's one allocation on Execute (docs/abi.md).
constexpr uint32_t kStackBindings = 16;

// `count` elements of T: on the stack up to kStackBindings, else on the heap.
template <typename T>
class BindingArray {
 public:
  explicit BindingArray(uint32_t count) {
    if (count > kStackBindings) heap_.resize(count);
  }
  T* data() { return heap_.empty() ? stack_ : heap_.data(); }

 private:
  T stack_[kStackBindings];
  std::vector<T> heap_;
};

// struct_size rule (dmlcpu_c.h): fields wholly inside struct_size are read, the rest keep
// their defaults; more than sizeof(T) is refused.
template <typename T>
dmlcpu_status CheckStructSize(const char* function, const char* name, uint32_t struct_size) {
  if (struct_size < sizeof(uint32_t) || struct_size > sizeof(T)) {
    return Fail(DMLCPU_INVALID_ARGUMENT,
                std::string(function) + ": " + name + "->struct_size is " +
                    std::to_string(struct_size) + ", expected in [" +
                    std::to_string(sizeof(uint32_t)) + ", " + std::to_string(sizeof(T)) +
                    "] (" + std::to_string(sizeof(T)) +
                    " is the largest size this dmlcpu " DMLCPU_VERSION_STRING " knows)");
  }
  return DMLCPU_OK;
}
// The C callback types are the C++ API's (one definition of the engine-pool contract).
static_assert(std::is_same<dmlcpu_task_fn, dmlcpu::TaskFn>::value, "dmlcpu_task_fn");
static_assert(std::is_same<dmlcpu_parallel_for_fn, dmlcpu::ParallelForFn>::value,
              "dmlcpu_parallel_for_fn");

#define DMLCPU_HAS_FIELD(type, pointer, field) \
  (offsetof(type, field) + sizeof(pointer->field) <= pointer->struct_size)

// Copies a C tensor type; kInvalidArgument when shape is null for a non-zero rank.
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

uint64_t CopyText(const std::string& text, char* buffer, uint64_t capacity) {
  if (buffer != nullptr && capacity > 0) {
    const uint64_t n = text.size() < capacity - 1 ? text.size() : capacity - 1;
    std::memcpy(buffer, text.data(), n);
    buffer[n] = '\0';
  }
  return text.size();
}

// dmlcpu_execute and dmlcpu_execute2: the same checks, for either input binding struct.
template <typename InputBinding>
dmlcpu_status ExecuteBindings(const char* function, const dmlcpu_operator* op,
                              const InputBinding* inputs, uint32_t input_count,
                              const dmlcpu_binding* outputs, uint32_t output_count) {
  if (op == nullptr) return Fail(DMLCPU_INVALID_ARGUMENT, std::string(function) + ": op is null");
  if (input_count > 0 && inputs == nullptr) {
    return Fail(DMLCPU_INVALID_ARGUMENT, std::string(function) + ": inputs is null");
  }
  if (output_count > 0 && outputs == nullptr) {
    return Fail(DMLCPU_INVALID_ARGUMENT, std::string(function) + ": outputs is null");
  }
  if (input_count != op->op.input_count() || output_count != op->op.output_count()) {
    // Let the C++ API produce the count message without copying unbounded arrays.
    return FromStatus(op->op.Execute(nullptr, input_count, nullptr, output_count));
  }
  try {
    BindingArray<dmlcpu::Binding> in_array(input_count);
    BindingArray<dmlcpu::OutputBinding> out_array(output_count);
    dmlcpu::Binding* in = in_array.data();
    dmlcpu::OutputBinding* out = out_array.data();
    for (uint32_t i = 0; i < input_count; ++i) in[i] = {inputs[i].data, inputs[i].size_bytes};
    for (uint32_t i = 0; i < output_count; ++i) out[i] = {outputs[i].data, outputs[i].size_bytes};
    return FromStatus(op->op.Execute(in, input_count, out, output_count));
  } catch (const std::bad_alloc&) {
    return Fail(DMLCPU_INTERNAL, std::string(function) + ": out of memory");
  }
}

}  // namespace

extern "C" {

uint32_t dmlcpu_version(void) { return DMLCPU_VERSION; }

const char* dmlcpu_version_string(void) { return DMLCPU_VERSION_STRING; }

dmlcpu_status dmlcpu_device_create(uint32_t max_threads, dmlcpu_device** out) {
  if (out == nullptr) return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_device_create: out is null");
  *out = nullptr;
  try {
    dmlcpu::DeviceOptions options;
    options.max_threads = max_threads;
    *out = new dmlcpu_device(options);
  } catch (const std::bad_alloc&) {
    return Fail(DMLCPU_INTERNAL, "dmlcpu_device_create: out of memory");
  } catch (...) {
    return Fail(DMLCPU_INTERNAL, "dmlcpu_device_create: could not create the thread pool");
  }
  return DMLCPU_OK;
}

dmlcpu_status dmlcpu_device_create_ex(const dmlcpu_device_options* options,
                                      dmlcpu_device** out) {
  if (out == nullptr) return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_device_create_ex: out is null");
  *out = nullptr;
  if (options == nullptr) {
    return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_device_create_ex: options is null");
  }
  dmlcpu_status size_status = CheckStructSize<dmlcpu_device_options>(
      "dmlcpu_device_create_ex", "options", options->struct_size);
  if (size_status != DMLCPU_OK) return size_status;
  // Fields past struct_size (an older, smaller struct) take their zero defaults.
  dmlcpu_device_options o{};
  o.struct_size = options->struct_size;
  if (DMLCPU_HAS_FIELD(dmlcpu_device_options, options, max_threads)) {
    o.max_threads = options->max_threads;
  }
  if (DMLCPU_HAS_FIELD(dmlcpu_device_options, options, backend)) {
    // Read as an integer: a value outside the enum must be reported, not loaded as one.
    int32_t backend = 0;
    static_assert(sizeof(backend) == sizeof(options->backend), "dmlcpu_backend is 32 bits");
    std::memcpy(&backend, &options->backend, sizeof(backend));
    if (backend != DMLCPU_BACKEND_CPU && backend != DMLCPU_BACKEND_D3D12 &&
        backend != DMLCPU_BACKEND_AUTO) {
      return Fail(DMLCPU_INVALID_ARGUMENT,
                  "dmlcpu_device_create_ex: options->backend is " + std::to_string(backend) +
                      ", expected DMLCPU_BACKEND_CPU (0), _D3D12 (1) or _AUTO (2)");
    }
    o.backend = static_cast<dmlcpu_backend>(backend);
  }
  if (DMLCPU_HAS_FIELD(dmlcpu_device_options, options, d3d12_device)) {
    o.d3d12_device = options->d3d12_device;
  }
  if (DMLCPU_HAS_FIELD(dmlcpu_device_options, options, d3d12_queue)) {
    o.d3d12_queue = options->d3d12_queue;
  }
  if (DMLCPU_HAS_FIELD(dmlcpu_device_options, options, parallel_for)) {
    o.parallel_for = options->parallel_for;
  }
  if (DMLCPU_HAS_FIELD(dmlcpu_device_options, options, parallel_for_context)) {
    o.parallel_for_context = options->parallel_for_context;
  }
  options = &o;
  try {
    dmlcpu::DeviceOptions device_options;
    device_options.max_threads = options->max_threads;
    device_options.backend = static_cast<dmlcpu::Backend>(options->backend);
    device_options.d3d12_device = options->d3d12_device;
    device_options.d3d12_queue = options->d3d12_queue;
    device_options.parallel_for = options->parallel_for;
    device_options.parallel_for_context = options->parallel_for_context;
    auto device = dmlcpu::Device::Create(device_options);
    if (!device.ok()) return FromStatus(device.status());
    *out = new dmlcpu_device(std::move(device).value());
  } catch (const std::bad_alloc&) {
    return Fail(DMLCPU_INTERNAL, "dmlcpu_device_create_ex: out of memory");
  } catch (...) {
    return Fail(DMLCPU_INTERNAL, "dmlcpu_device_create_ex: could not create the thread pool");
  }
  return DMLCPU_OK;
}

dmlcpu_backend dmlcpu_device_backend(const dmlcpu_device* device) {
  if (device == nullptr) return DMLCPU_BACKEND_CPU;
  return static_cast<dmlcpu_backend>(device->device.backend());
}

const char* dmlcpu_device_backend_reason(const dmlcpu_device* device) {
  if (device == nullptr) return "";
  return device->device.backend_reason().c_str();
}

void dmlcpu_device_destroy(dmlcpu_device* device) { delete device; }

dmlcpu_status dmlcpu_compile(dmlcpu_device* device, const DML_OPERATOR_DESC* desc,
                             dmlcpu_index_policy policy, dmlcpu_operator** out) {
  if (out == nullptr) return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_compile: out is null");
  *out = nullptr;
  if (device == nullptr) return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_compile: device is null");
  if (desc == nullptr) return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_compile: desc is null");
  if (policy != DMLCPU_INDEX_CLAMP && policy != DMLCPU_INDEX_STRICT) {
    return Fail(DMLCPU_INVALID_ARGUMENT,
                "dmlcpu_compile: policy is " + std::to_string(static_cast<int>(policy)) +
                    ", expected DMLCPU_INDEX_CLAMP (0) or DMLCPU_INDEX_STRICT (1)");
  }
  try {
    dmlcpu::CompileOptions options;
    options.index_policy = policy == DMLCPU_INDEX_STRICT ? dmlcpu::IndexPolicy::kStrict
                                                         : dmlcpu::IndexPolicy::kClamp;
    auto compiled = device->device.Compile(*desc, options);
    if (!compiled.ok()) return FromStatus(compiled.status());
    *out = new dmlcpu_operator{std::move(compiled).value()};
  } catch (const std::bad_alloc&) {
    return Fail(DMLCPU_INTERNAL, "dmlcpu_compile: out of memory");
  }
  return DMLCPU_OK;
}

dmlcpu_status dmlcpu_execute(const dmlcpu_operator* op, const dmlcpu_binding* inputs,
                             uint32_t input_count, const dmlcpu_binding* outputs,
                             uint32_t output_count) {
  return ExecuteBindings("dmlcpu_execute", op, inputs, input_count, outputs, output_count);
}

dmlcpu_status dmlcpu_execute2(const dmlcpu_operator* op, const dmlcpu_input_binding* inputs,
                              uint32_t input_count, const dmlcpu_binding* outputs,
                              uint32_t output_count) {
  return ExecuteBindings("dmlcpu_execute2", op, inputs, input_count, outputs, output_count);
}

DML_OPERATOR_TYPE dmlcpu_operator_type(const dmlcpu_operator* op) {
  return op == nullptr ? DML_OPERATOR_INVALID : op->op.type();
}

uint32_t dmlcpu_operator_input_count(const dmlcpu_operator* op) {
  return op == nullptr ? 0 : static_cast<uint32_t>(op->op.input_count());
}

uint32_t dmlcpu_operator_output_count(const dmlcpu_operator* op) {
  return op == nullptr ? 0 : static_cast<uint32_t>(op->op.output_count());
}

dmlcpu_status dmlcpu_operator_input_bytes(const dmlcpu_operator* op, uint32_t index,
                                          uint64_t* size_bytes) {
  if (op == nullptr || size_bytes == nullptr) {
    return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_operator_input_bytes: op or size_bytes is null");
  }
  if (index >= op->op.input_count()) {
    return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_operator_input_bytes: index is " +
                                             std::to_string(index) + ", expected < " +
                                             std::to_string(op->op.input_count()));
  }
  *size_bytes = op->op.input_bytes(index);
  return DMLCPU_OK;
}

dmlcpu_status dmlcpu_operator_output_bytes(const dmlcpu_operator* op, uint32_t index,
                                           uint64_t* size_bytes) {
  if (op == nullptr || size_bytes == nullptr) {
    return Fail(DMLCPU_INVALID_ARGUMENT,
                "dmlcpu_operator_output_bytes: op or size_bytes is null");
  }
  if (index >= op->op.output_count()) {
    return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_operator_output_bytes: index is " +
                                             std::to_string(index) + ", expected < " +
                                             std::to_string(op->op.output_count()));
  }
  *size_bytes = op->op.output_bytes(index);
  return DMLCPU_OK;
}

dmlcpu_status dmlcpu_execute_native(const dmlcpu_operator* op,
                                    const dmlcpu_native_binding* inputs, uint32_t input_count,
                                    const dmlcpu_native_binding* outputs,
                                    uint32_t output_count) {
  if (op == nullptr) return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_execute_native: op is null");
  if (input_count != op->op.input_count() || output_count != op->op.output_count()) {
    return FromStatus(op->op.ExecuteNative(nullptr, input_count, nullptr, output_count));
  }
  if ((input_count > 0 && inputs == nullptr) || (output_count > 0 && outputs == nullptr)) {
    return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_execute_native: inputs or outputs is null");
  }
  try {
    std::vector<dmlcpu::NativeBinding> in(input_count), out(output_count);
    for (uint32_t i = 0; i < input_count; ++i) {
      in[i] = {inputs[i].resource, inputs[i].offset_bytes, inputs[i].size_bytes};
    }
    for (uint32_t i = 0; i < output_count; ++i) {
      out[i] = {outputs[i].resource, outputs[i].offset_bytes, outputs[i].size_bytes};
    }
    return FromStatus(op->op.ExecuteNative(in.data(), input_count, out.data(), output_count));
  } catch (const std::bad_alloc&) {
    return Fail(DMLCPU_INTERNAL, "dmlcpu_execute_native: out of memory");
  }
}

dmlcpu_backend dmlcpu_operator_backend(const dmlcpu_operator* op) {
  return op == nullptr ? DMLCPU_BACKEND_CPU : static_cast<dmlcpu_backend>(op->op.backend());
}

void dmlcpu_operator_destroy(dmlcpu_operator* op) { delete op; }

const char* dmlcpu_last_error_message(void) { return g_last_error.c_str(); }

uint64_t dmlcpu_calc_buffer_tensor_size(DML_TENSOR_DATA_TYPE data_type, uint32_t dimension_count,
                                        const uint32_t* sizes, const uint32_t* strides) {
  return dmlcpu::CalcBufferTensorSize(data_type, dimension_count, sizes, strides);
}

uint64_t dmlcpu_operator_describe(const dmlcpu_operator* op, char* buffer, uint64_t capacity) {
  if (op == nullptr) return 0;
  try {
    return CopyText(op->op.Describe(), buffer, capacity);
  } catch (...) {
    return 0;
  }
}

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
