// The C ABI over the C++ API.
#include <cstring>
#include <new>
#include <string>

#include "dmlcpu/dmlcpu.h"
#include "dmlcpu/dmlcpu_c.h"

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

dmlcpu_status Fail(dmlcpu_status code, std::string message) {
  g_last_error = std::move(message);
  return code;
}

dmlcpu_status FromStatus(const dmlcpu::Status& s) {
  if (s.ok()) return DMLCPU_OK;
  return Fail(static_cast<dmlcpu_status>(s.code()), s.message());
}

constexpr uint32_t kMaxBindings = 2;

}  // namespace

extern "C" {

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
  if (options->struct_size < sizeof(dmlcpu_device_options)) {
    return Fail(DMLCPU_INVALID_ARGUMENT,
                "dmlcpu_device_create_ex: options->struct_size is " +
                    std::to_string(options->struct_size) + ", expected >= " +
                    std::to_string(sizeof(dmlcpu_device_options)));
  }
  if (options->backend != DMLCPU_BACKEND_CPU && options->backend != DMLCPU_BACKEND_D3D12 &&
      options->backend != DMLCPU_BACKEND_AUTO) {
    return Fail(DMLCPU_INVALID_ARGUMENT,
                "dmlcpu_device_create_ex: options->backend is " +
                    std::to_string(static_cast<int>(options->backend)) +
                    ", expected DMLCPU_BACKEND_CPU (0), _D3D12 (1) or _AUTO (2)");
  }
  try {
    dmlcpu::DeviceOptions device_options;
    device_options.max_threads = options->max_threads;
    device_options.backend = static_cast<dmlcpu::Backend>(options->backend);
    device_options.d3d12_device = options->d3d12_device;
    device_options.d3d12_queue = options->d3d12_queue;
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
  if (op == nullptr) return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_execute: op is null");
  if (input_count > 0 && inputs == nullptr) {
    return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_execute: inputs is null");
  }
  if (output_count > 0 && outputs == nullptr) {
    return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_execute: outputs is null");
  }
  if (input_count > kMaxBindings || output_count > kMaxBindings) {
    // Let the C++ API produce the count message without copying unbounded arrays.
    return FromStatus(op->op.Execute(nullptr, input_count, nullptr, output_count));
  }
  dmlcpu::Binding in[kMaxBindings];
  dmlcpu::OutputBinding out[kMaxBindings];
  for (uint32_t i = 0; i < input_count; ++i) in[i] = {inputs[i].data, inputs[i].size_bytes};
  for (uint32_t i = 0; i < output_count; ++i) out[i] = {outputs[i].data, outputs[i].size_bytes};
  return FromStatus(op->op.Execute(in, input_count, out, output_count));
}

dmlcpu_status dmlcpu_execute_native(const dmlcpu_operator* op,
                                    const dmlcpu_native_binding* inputs, uint32_t input_count,
                                    const dmlcpu_native_binding* outputs,
                                    uint32_t output_count) {
  if (op == nullptr) return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_execute_native: op is null");
  if (input_count > kMaxBindings || output_count > kMaxBindings) {
    return FromStatus(op->op.ExecuteNative(nullptr, input_count, nullptr, output_count));
  }
  if ((input_count > 0 && inputs == nullptr) || (output_count > 0 && outputs == nullptr)) {
    return Fail(DMLCPU_INVALID_ARGUMENT, "dmlcpu_execute_native: inputs or outputs is null");
  }
  dmlcpu::NativeBinding in[kMaxBindings];
  dmlcpu::NativeBinding out[kMaxBindings];
  for (uint32_t i = 0; i < input_count; ++i) {
    in[i] = {inputs[i].resource, inputs[i].offset_bytes, inputs[i].size_bytes};
  }
  for (uint32_t i = 0; i < output_count; ++i) {
    out[i] = {outputs[i].resource, outputs[i].offset_bytes, outputs[i].size_bytes};
  }
  return FromStatus(op->op.ExecuteNative(in, input_count, out, output_count));
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
  std::string text;
  try {
    text = op->op.Describe();
  } catch (...) {
    return 0;
  }
  if (buffer != nullptr && capacity > 0) {
    const uint64_t n = text.size() < capacity - 1 ? text.size() : capacity - 1;
    std::memcpy(buffer, text.data(), n);
    buffer[n] = '\0';
  }
  return text.size();
}

}  // extern "C"
