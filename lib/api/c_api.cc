// SPDX-License-Identifier: Apache-2.0
// The C ABI over the C++ API: versions, devices, compile, execute, introspection, errors
// (the ONNX adapter's C functions: c_api_onnx.cc).
#include <cstddef>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dmlcpu/dmlcpu.h"
#include "dmlcpu/dmlcpu_c.h"
#include "api/c_api_internal.h"
#include "dmlcpu/version.h"

struct dmlcpu_device {
  explicit dmlcpu_device(const dmlcpu::DeviceOptions& options) : device(options) {}
  explicit dmlcpu_device(dmlcpu::Device&& moved) : device(std::move(moved)) {}
  dmlcpu::Device device;
};

struct dmlcpu_operator {
  dmlcpu::CompiledOperator op;
};

namespace {

thread_local std::string g_last_error;

}  // namespace

namespace dmlcpu_c {

dmlcpu_status Fail(dmlcpu_status code, std::string message) {
  g_last_error = std::move(message);
  return code;
}

dmlcpu_status FromStatus(const dmlcpu::Status& s) {
  if (s.ok()) return DMLCPU_OK;
  return Fail(static_cast<dmlcpu_status>(s.code()), s.message());
}

uint64_t CopyText(const std::string& text, char* buffer, uint64_t capacity) {
  if (buffer != nullptr && capacity > 0) {
    const uint64_t n = text.size() < capacity - 1 ? text.size() : capacity - 1;
    std::memcpy(buffer, text.data(), n);
    buffer[n] = '\0';
  }
  return text.size();
}

}  // namespace dmlcpu_c

using dmlcpu_c::CopyText;
using dmlcpu_c::Fail;
using dmlcpu_c::FromStatus;

namespace {

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

dmlcpu_status dmlcpu_compile_ex(dmlcpu_device* device, const DML_OPERATOR_DESC* desc,
                                const dmlcpu_compile_options* options, dmlcpu_operator** out) {
  if (out == nullptr) return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_compile_ex: out is null");
  *out = nullptr;
  if (device == nullptr) return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_compile_ex: device is null");
  if (desc == nullptr) return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_compile_ex: desc is null");
  dmlcpu_compile_options o{};
  if (options != nullptr) {
    dmlcpu_status size_status = CheckStructSize<dmlcpu_compile_options>(
        "dmlcpu_compile_ex", "options", options->struct_size);
    if (size_status != DMLCPU_OK) return size_status;
    // Fields past struct_size (an older, smaller struct) keep their zero defaults; enums are
    // read as integers, so a value outside them is reported, not loaded.
    if (DMLCPU_HAS_FIELD(dmlcpu_compile_options, options, index_policy)) {
      std::memcpy(&o.index_policy, &options->index_policy, sizeof(o.index_policy));
    }
    if (DMLCPU_HAS_FIELD(dmlcpu_compile_options, options, scatter_reduction)) {
      std::memcpy(&o.scatter_reduction, &options->scatter_reduction, sizeof(o.scatter_reduction));
    }
    if (DMLCPU_HAS_FIELD(dmlcpu_compile_options, options, scatter_bfloat16)) {
      o.scatter_bfloat16 = options->scatter_bfloat16;
    }
  }
  int32_t policy = 0, reduction = 0;
  std::memcpy(&policy, &o.index_policy, sizeof(policy));
  std::memcpy(&reduction, &o.scatter_reduction, sizeof(reduction));
  if (policy != DMLCPU_INDEX_CLAMP && policy != DMLCPU_INDEX_STRICT) {
    return Fail(DMLCPU_INVALID_ARGUMENT,
                "dmlcpu_compile_ex: options->index_policy is " + std::to_string(policy) +
                    ", expected DMLCPU_INDEX_CLAMP (0) or DMLCPU_INDEX_STRICT (1)");
  }
  if (reduction < DMLCPU_SCATTER_NONE || reduction > DMLCPU_SCATTER_MIN) {
    return Fail(DMLCPU_INVALID_ARGUMENT,
                "dmlcpu_compile_ex: options->scatter_reduction is " + std::to_string(reduction) +
                    ", expected DMLCPU_SCATTER_NONE (0) to DMLCPU_SCATTER_MIN (4)");
  }
  try {
    dmlcpu::CompileOptions compile_options;
    compile_options.index_policy = policy == DMLCPU_INDEX_STRICT ? dmlcpu::IndexPolicy::kStrict
                                                                 : dmlcpu::IndexPolicy::kClamp;
    compile_options.scatter_reduction = static_cast<dmlcpu::ScatterReduction>(reduction);
    compile_options.scatter_bfloat16 = o.scatter_bfloat16 != 0;
    auto compiled = device->device.Compile(*desc, compile_options);
    if (!compiled.ok()) return FromStatus(compiled.status());
    *out = new dmlcpu_operator{std::move(compiled).value()};
  } catch (const std::bad_alloc&) {
    return Fail(DMLCPU_INTERNAL, "dmlcpu_compile_ex: out of memory");
  }
  return DMLCPU_OK;
}

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

}  // extern "C"
