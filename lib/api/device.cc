// SPDX-License-Identifier: Apache-2.0
// C++ API entry points: Device, Compile, Execute and the O(1) binding checks.
#include <algorithm>
#include <cstring>
#include <new>

#include "core/format.h"
#include "dmlcpu/dmlcpu.h"
#include "executor/executor.h"
#include "executor/scratch_pool.h"
#include "planner/planner.h"
#if defined(DMLCPU_HAS_D3D12)
#include "backends/d3d12/d3d12_backend.h"
#endif

namespace dmlcpu {
namespace internal {

struct DeviceState {
  // arena: the caller's tbb::task_arena (DeviceOptions::tbb_arena), or null.
  DeviceState(uint32_t max_threads, void* arena) : executor(max_threads, arena) {}
  Executor executor;
  Backend backend = Backend::kCpu;
  std::string backend_reason = "requested";
  Status backend_error;  // kD3D12 requested but unavailable: every Compile returns this
#if defined(DMLCPU_HAS_D3D12)
  std::shared_ptr<d3d12::Context> d3d12;
#endif
};

namespace {

const char* InputFieldName(uint32_t i) { return i == 0 ? "InputTensor" : "IndicesTensor"; }

// The binding counts and array pointers of an Execute or ExecuteNative call.
Status CheckBindingArrays(const char* op, uint32_t expected_inputs, const void* inputs,
                          size_t input_count, const void* outputs, size_t output_count) {
  if (input_count != expected_inputs) {
    return InvalidArgument("%s: input_count is %zu, expected %u (%s)", op, input_count,
                           expected_inputs,
                           expected_inputs == 2 ? "InputTensor, IndicesTensor" : "InputTensor");
  }
  if (output_count != 1) {
    return InvalidArgument("%s: output_count is %zu, expected 1 (OutputTensor)", op, output_count);
  }
  if (inputs == nullptr)
    return InvalidArgument("%s: inputs is null, expected a non-null pointer", op);
  if (outputs == nullptr)
    return InvalidArgument("%s: outputs is null, expected a non-null pointer", op);
  return Status::Ok();
}

Status CheckBinding(const char* op, const char* kind, uint32_t i, const char* field,
                    const void* data, uint64_t size_bytes, const TensorInfo& tensor) {
  if (data == nullptr)
    return InvalidArgument("%s: %s[%u].data (%s) is null, expected a non-null pointer", op, kind, i,
                           field);
  if (size_bytes < tensor.total_bytes) {
    return InvalidArgument(
        "%s: %s[%u].size_bytes is %llu, expected >= %llu "
        "(%s.TotalTensorSizeInBytes)",
        op, kind, i, static_cast<unsigned long long>(size_bytes),
        static_cast<unsigned long long>(tensor.total_bytes), field);
  }
  const auto address = reinterpret_cast<uintptr_t>(data);
  if (tensor.alignment_bytes != 0 && address % tensor.alignment_bytes != 0) {
    return InvalidArgument(
        "%s: %s[%u].data (%s) is %p, expected a multiple of %u "
        "(%s.GuaranteedBaseOffsetAlignment)",
        op, kind, i, field, data, tensor.alignment_bytes, field);
  }
  return Status::Ok();
}

// An index value of type I stored at p, as decimal text.
template <typename I>
std::string IndexText(const uint8_t* p) {
  I v;
  std::memcpy(&v, p, sizeof(v));
  return std::to_string(v);
}

// Value of the index at `flat_position` of the indices tensor, as text.
std::string IndexValueText(const Program& program, const uint8_t* indices,
                           uint64_t flat_position, std::string* coords_text) {
  const TensorInfo& t = program.geometry.indices;
  uint64_t coords[kMaxRank];
  uint64_t rest = flat_position;
  int64_t offset_bytes = 0;
  for (uint32_t d = t.rank; d-- > 0;) {
    coords[d] = rest % t.sizes[d];
    rest /= t.sizes[d];
    offset_bytes += static_cast<int64_t>(coords[d] * t.strides_elems[d] * t.elem_bytes);
  }
  *coords_text = "{";
  for (uint32_t d = 0; d < t.rank; ++d) {
    if (d) *coords_text += ',';
    *coords_text += std::to_string(coords[d]);
  }
  *coords_text += "}";
  const uint8_t* p = indices + offset_bytes;
  switch (program.geometry.index_type) {
    case kernels::IndexType::kInt32: return IndexText<int32_t>(p);
    case kernels::IndexType::kUint32: return IndexText<uint32_t>(p);
    case kernels::IndexType::kInt64: return IndexText<int64_t>(p);
    case kernels::IndexType::kUint64: return IndexText<uint64_t>(p);
  }
  return "?";
}

// Chooses and creates the backend (section "D3D12 backend" of the README).
void SelectBackend(const DeviceOptions& options, DeviceState* state) {
  if (options.backend == Backend::kCpu) return;
#if defined(DMLCPU_HAS_D3D12)
  const bool automatic = options.backend == Backend::kAuto;
  std::string adapter;
  auto context = d3d12::CreateContext(options.d3d12_device, options.d3d12_queue,
                                      /*require_hardware=*/automatic, &adapter);
  if (context.ok()) {
    state->backend = Backend::kD3D12;
    state->d3d12 = std::move(context).value();
    state->backend_reason =
        (automatic ? "kAuto: DirectML.dll and a D3D12 adapter are present (" : "requested (") +
        adapter + ")";
    return;
  }
  if (automatic) {
    state->backend = Backend::kCpu;
    state->backend_reason = "kAuto: D3D12 unavailable: " + context.status().message();
    return;
  }
  state->backend = Backend::kD3D12;
  state->backend_error =
      Status(StatusCode::kUnsupported, "D3D12 backend unavailable: " + context.status().message());
  state->backend_reason = state->backend_error.message();
#else
  if (options.backend == Backend::kAuto) {
    state->backend = Backend::kCpu;
    state->backend_reason = "kAuto: this build has no D3D12 backend";
    return;
  }
  state->backend = Backend::kD3D12;
  state->backend_error = Status(StatusCode::kUnsupported,
                                "D3D12 backend unavailable: this build has no D3D12 backend "
                                "(Windows builds only)");
  state->backend_reason = state->backend_error.message();
#endif
}

}  // namespace
}  // namespace internal

const char* BackendName(Backend backend) {
  switch (backend) {
    case Backend::kCpu:
      return "cpu";
    case Backend::kD3D12:
      return "d3d12";
    case Backend::kAuto:
      return "auto";
  }
  return "?";
}

#if defined(DMLCPU_PRIVATE_TBB)
// dmlcpu.dll links its own oneTBB (docs/windows.md#onetbb): a caller's tbb::task_arena belongs
// to the caller's copy of oneTBB, which this library cannot enter.
constexpr bool kCallerArenaUsable = false;
#else
constexpr bool kCallerArenaUsable = true;
#endif

Device::Device(const DeviceOptions& options)
    : state_(std::make_shared<internal::DeviceState>(
          options.max_threads,
          kCallerArenaUsable ? static_cast<void*>(options.tbb_arena) : nullptr)) {
  internal::SelectBackend(options, state_.get());
  if (!kCallerArenaUsable && options.tbb_arena != nullptr) {
    state_->backend_error = Status(
        StatusCode::kUnsupported,
        "DeviceOptions.tbb_arena: this dmlcpu.dll links its own oneTBB, so a caller's "
        "tbb::task_arena cannot be entered; leave it null (use max_threads)");
    state_->backend_reason = state_->backend_error.message();
  }
}

StatusOr<Device> Device::Create(const DeviceOptions& options) {
  try {
    Device device(options);
    if (!device.state_->backend_error.ok()) return device.state_->backend_error;
    return device;
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::kInternal, "out of memory while creating the device");
  }
}

Backend Device::backend() const { return state_ ? state_->backend : Backend::kCpu; }
const std::string& Device::backend_reason() const {
  static const std::string kMovedFrom = "moved-from Device";
  return state_ ? state_->backend_reason : kMovedFrom;
}
Device::~Device() = default;
Device::Device(Device&&) noexcept = default;
Device& Device::operator=(Device&&) noexcept = default;

uint32_t Device::max_concurrency() const { return state_ ? state_->executor.concurrency() : 1; }

StatusOr<CompiledOperator> Device::Compile(const DML_OPERATOR_DESC& desc,
                                           const CompileOptions& options) const {
  if (!state_) return Status(StatusCode::kInvalidArgument, "Device is moved-from");
  try {
    auto program = std::make_shared<internal::Program>();
    internal::PlanSettings settings;
    settings.strict_indices = options.index_policy == IndexPolicy::kStrict;
    settings.concurrency = state_->executor.concurrency();
    Status s = internal::CompileProgram(desc, settings, program.get());
    if (!s.ok()) return s;
    CompiledOperator op;
    if (state_->backend == Backend::kD3D12) {
      // Validated above exactly as on the CPU: the same bad descriptor, the same message.
      if (!state_->backend_error.ok()) return state_->backend_error;
#if defined(DMLCPU_HAS_D3D12)
      auto d3d12_op = internal::d3d12::Compile(state_->d3d12, desc, *program);
      if (!d3d12_op.ok()) {
        return Status(d3d12_op.status().code(),
                      std::string(program->geometry.name) + ": " + d3d12_op.status().message());
      }
      op.backend_op_ = std::move(d3d12_op).value();
#endif
    }
    if (program->max_pack_bytes != 0 && !op.backend_op_) {
      // One slot per thread that can run units of one Execute, and two more for other callers,
      // at most Tuning::max_scratch_bytes in all (the planner narrows the strips of many-thread
      // devices to fit); threads finding none read the input directly. Only the slots in use are
      // ever touched.
      const uint64_t slots = std::min<uint64_t>(
          {internal::ScratchPool::kMaxSlots, uint64_t{state_->executor.concurrency()} + 2,
           std::max<uint64_t>(1, internal::kDefaultTuning.max_scratch_bytes /
                                     program->max_pack_bytes)});
      op.scratch_ = std::make_shared<internal::ScratchPool>(program->max_pack_bytes,
                                                            static_cast<uint32_t>(slots));
    }
    op.device_ = state_;
    op.program_ = std::move(program);
    return op;
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::kInternal, "out of memory while compiling");
  }
}

DML_OPERATOR_TYPE CompiledOperator::type() const {
  return program_ ? program_->geometry.type : DML_OPERATOR_INVALID;
}
size_t CompiledOperator::input_count() const { return program_ ? program_->input_count : 0; }
size_t CompiledOperator::output_count() const {
  return program_ ? program_->output_count : 0;
}
uint64_t CompiledOperator::input_bytes(size_t i) const {
  if (!program_ || i >= program_->input_count) return 0;
  return i == 0 ? program_->geometry.input.total_bytes : program_->geometry.indices.total_bytes;
}
uint64_t CompiledOperator::output_bytes(size_t i) const {
  return program_ && i == 0 ? program_->geometry.output.total_bytes : 0;
}
Backend CompiledOperator::backend() const { return backend_op_ ? Backend::kD3D12 : Backend::kCpu; }

Status CompiledOperator::ExecuteNative(const NativeBinding* inputs, size_t input_count,
                                       const NativeBinding* outputs, size_t output_count) const {
  if (!program_) return InvalidArgument("ExecuteNative on an empty CompiledOperator");
  const internal::Program& program = *program_;
  const internal::OpGeometry& g = program.geometry;
  const char* op = g.name;
  if (!backend_op_) {
    return Unsupported("%s: ExecuteNative needs an operator compiled by the D3D12 backend", op);
  }
  Status counts = internal::CheckBindingArrays(op, program.input_count, inputs, input_count,
                                               outputs, output_count);
  if (!counts.ok()) return counts;
  const internal::TensorInfo* tensors[3] = {&g.input, &g.indices, &g.output};
  const NativeBinding* bindings[3] = {&inputs[0], input_count > 1 ? &inputs[1] : nullptr,
                                      &outputs[0]};
  for (uint32_t i = 0; i < 3; ++i) {
    if (bindings[i] == nullptr) continue;
    const char* field = i == 2 ? "OutputTensor" : internal::InputFieldName(i);
    if (bindings[i]->resource == nullptr) {
      return InvalidArgument("%s: %s resource is null, expected a non-null pointer", op, field);
    }
    if (bindings[i]->size_bytes < tensors[i]->total_bytes) {
      return InvalidArgument(
          "%s: %s size_bytes is %llu, expected >= %llu "
          "(%s.TotalTensorSizeInBytes)",
          op, field, static_cast<unsigned long long>(bindings[i]->size_bytes),
          static_cast<unsigned long long>(tensors[i]->total_bytes), field);
    }
    if (bindings[i]->offset_bytes % 16 != 0) {
      return InvalidArgument("%s: %s offset_bytes is %llu, expected a multiple of 16", op, field,
                             static_cast<unsigned long long>(bindings[i]->offset_bytes));
    }
  }
#if defined(DMLCPU_HAS_D3D12)
  const auto& d3d12_op = *static_cast<const internal::d3d12::Operator*>(backend_op_.get());
  Status s = internal::d3d12::ExecuteNative(d3d12_op, inputs, program.input_count, outputs[0]);
  if (!s.ok()) return Status(s.code(), std::string(op) + ": " + s.message());
#endif
  return Status::Ok();
}

std::string CompiledOperator::Describe() const {
  return program_ ? internal::DescribeProgram(*program_)
                  : std::string("(empty CompiledOperator)\n");
}

Status CompiledOperator::Execute(const Binding* inputs, size_t input_count,
                                 const OutputBinding* outputs, size_t output_count) const {
  if (!program_) return InvalidArgument("Execute on an empty CompiledOperator");
  const internal::Program& program = *program_;
  const internal::OpGeometry& g = program.geometry;
  const char* op = g.name;
  Status counts = internal::CheckBindingArrays(op, program.input_count, inputs, input_count,
                                               outputs, output_count);
  if (!counts.ok()) return counts;
  const internal::TensorInfo* input_tensors[2] = {&g.input, &g.indices};
  for (uint32_t i = 0; i < program.input_count; ++i) {
    Status s = internal::CheckBinding(op, "inputs", i, internal::InputFieldName(i), inputs[i].data,
                                      inputs[i].size_bytes, *input_tensors[i]);
    if (!s.ok()) return s;
  }
  Status s = internal::CheckBinding(op, "outputs", 0, "OutputTensor", outputs[0].data,
                                    outputs[0].size_bytes, g.output);
  if (!s.ok()) return s;
  const auto out_begin = reinterpret_cast<uintptr_t>(outputs[0].data);
  // Range ends saturate: a TotalTensorSizeInBytes near 2^64 must not wrap past the address space.
  const auto range_end = [](uintptr_t begin, uint64_t bytes) {
    return bytes > UINTPTR_MAX - begin ? UINTPTR_MAX : begin + static_cast<uintptr_t>(bytes);
  };
  const uintptr_t out_end = range_end(out_begin, g.output.total_bytes);
  for (uint32_t i = 0; i < program.input_count; ++i) {
    const auto in_begin = reinterpret_cast<uintptr_t>(inputs[i].data);
    const uintptr_t in_end = range_end(in_begin, input_tensors[i]->total_bytes);
    if (in_begin < out_end && out_begin < in_end) {
      return InvalidArgument(
          "%s: outputs[0] (OutputTensor, %llu bytes at %p) overlaps inputs[%u] "
          "(%s, %llu bytes at %p), expected disjoint ranges",
          op, static_cast<unsigned long long>(g.output.total_bytes), outputs[0].data, i,
          internal::InputFieldName(i),
          static_cast<unsigned long long>(input_tensors[i]->total_bytes), inputs[i].data);
    }
  }

  const uint8_t* input_data[2] = {static_cast<const uint8_t*>(inputs[0].data),
                                  program.input_count > 1
                                      ? static_cast<const uint8_t*>(inputs[1].data)
                                      : nullptr};
  uint8_t* output_data[1] = {static_cast<uint8_t*>(outputs[0].data)};
  if (program.strict_indices) {
    const internal::IndexScans& scans = program.index_scans;
    const uint8_t* indices = input_data[scans.indices_binding];
    internal::BadIndex bad;
    if (!internal::ScanIndices(scans, indices, &bad)) {
      std::string coords;
      const std::string value =
          internal::IndexValueText(program, indices, bad.flat_position, &coords);
      const internal::IndexScan& scan = scans.scans[bad.component];
      const bool is_signed = scans.index_type == kernels::IndexType::kInt32 ||
                             scans.index_type == kernels::IndexType::kInt64;
      const long long d = static_cast<long long>(scan.dim_size);
      return Status(
          StatusCode::kOutOfRange,
          StrFormat("%s: IndicesTensor element %llu (coordinates %s) is %s, "
                    "expected in [%lld, %lld] (InputTensor.Sizes[%u])",
                    op, static_cast<unsigned long long>(bad.flat_position), coords.c_str(),
                    value.c_str(), is_signed ? -d : 0LL, d - 1, scan.input_dim));
    }
  }
  if (backend_op_) return ExecuteOnBackend(input_data, output_data[0]);
  try {
    device_->executor.RunProgram(program, input_data, output_data, scratch_.get());
  } catch (...) {
    return Status(StatusCode::kInternal, std::string(op) + ": the executor failed");
  }
  return Status::Ok();
}

Status CompiledOperator::ExecuteOnBackend(const uint8_t* const* inputs, uint8_t* output) const {
#if defined(DMLCPU_HAS_D3D12)
  const auto& d3d12_op = *static_cast<const internal::d3d12::Operator*>(backend_op_.get());
  Status s = internal::d3d12::ExecuteHost(d3d12_op, inputs, program_->input_count, output);
  if (!s.ok()) return Status(s.code(), std::string(program_->geometry.name) + ": " + s.message());
  return s;
#else
  (void)inputs;
  (void)output;
  return Status(StatusCode::kInternal, "no D3D12 backend in this build");
#endif
}

uint64_t CalcBufferTensorSize(DML_TENSOR_DATA_TYPE data_type, uint32_t dimension_count,
                              const uint32_t* sizes, const uint32_t* strides) {
  return internal::CalcTensorBytes(data_type, dimension_count, sizes, strides);
}

}  // namespace dmlcpu
