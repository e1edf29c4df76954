// SPDX-License-Identifier: Apache-2.0
// C++ API entry points: Device, Compile and Execute (their binding checks: bindings.h).
#include <algorithm>
#include <cstring>
#include <new>
#include <string>

#include "api/bindings.h"
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

// The executor's options from a Device's: the caller's tbb::task_arena (tbb_arena) or engine
// pool (parallel_for), or neither. Both at once (refused by CheckThreadOptions): neither.
#if defined(DMLCPU_PRIVATE_TBB)
// dmlcpu.dll links its own oneTBB (docs/windows.md#onetbb): a caller's tbb::task_arena belongs
// to the caller's copy of oneTBB, which this library cannot enter.
constexpr bool kCallerArenaUsable = false;
#else
constexpr bool kCallerArenaUsable = true;
#endif

ExecutorOptions ThreadOptionsOf(const DeviceOptions& options) {
  ExecutorOptions executor;
  executor.max_threads = options.max_threads;
  if (options.tbb_arena != nullptr && options.parallel_for != nullptr) return executor;
  executor.borrowed_arena = kCallerArenaUsable ? static_cast<void*>(options.tbb_arena) : nullptr;
  executor.parallel_for = options.parallel_for;
  executor.parallel_for_context = options.parallel_for_context;
  return executor;
}

Status CheckThreadOptions(const DeviceOptions& options) {
  if (!kCallerArenaUsable && options.tbb_arena != nullptr) {
    return Status(StatusCode::kUnsupported,
                  "DeviceOptions.tbb_arena: this dmlcpu.dll links its own oneTBB, so a caller's "
                  "tbb::task_arena cannot be entered; leave it null (use max_threads or "
                  "parallel_for)");
  }
  if (options.tbb_arena != nullptr && options.parallel_for != nullptr) {
    return InvalidArgument(
        "DeviceOptions: tbb_arena and parallel_for are both set, expected at most one (the "
        "device runs its parallel work in a oneTBB arena or in the engine's pool, not both)");
  }
  if (options.parallel_for == nullptr && options.parallel_for_context != nullptr) {
    return InvalidArgument(
        "DeviceOptions: parallel_for_context is %p but parallel_for is null, expected "
        "parallel_for to be set with its context",
        options.parallel_for_context);
  }
  return Status::Ok();
}

struct DeviceState {
  explicit DeviceState(const DeviceOptions& options)
      : executor(ThreadOptionsOf(options)), options_error(CheckThreadOptions(options)) {}
  Executor executor;
  Status options_error;  // inconsistent thread options: Create and every Compile return this
  Backend backend = Backend::kCpu;
  std::string backend_reason = "requested";
  Status backend_error;  // kD3D12 requested but unavailable: every Compile returns this
#if defined(DMLCPU_HAS_D3D12)
  std::shared_ptr<d3d12::Context> d3d12;
#endif
};

namespace {

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
  const bool invalid = context.status().code() == StatusCode::kInvalidArgument;
  const bool adopted = options.d3d12_device != nullptr || options.d3d12_queue != nullptr;
  // kAuto falls back to the CPU, unless the caller's own D3D12 objects were the problem.
  if (automatic && !(invalid && adopted)) {
    state->backend = Backend::kCpu;
    state->backend_reason = "kAuto: D3D12 unavailable: " + context.status().message();
    return;
  }
  state->backend = Backend::kD3D12;
  // Invalid arguments (a caller's queue of another device, E_INVALIDARG) stay kInvalidArgument;
  // any other failure is kUnsupported.
  const StatusCode code = invalid ? StatusCode::kInvalidArgument : StatusCode::kUnsupported;
  state->backend_error = Status(code, "D3D12 backend unavailable: " + context.status().message());
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

Device::Device(const DeviceOptions& options)
    : state_(std::make_shared<internal::DeviceState>(options)) {
  internal::SelectBackend(options, state_.get());
}

StatusOr<Device> Device::Create(const DeviceOptions& options) {
  try {
    Device device(options);
    if (!device.state_->options_error.ok()) return device.state_->options_error;
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
  if (!state_->options_error.ok()) return state_->options_error;
  try {
    auto program = std::make_shared<internal::Program>();
    internal::PlanSettings settings;
    settings.strict_indices = options.index_policy == IndexPolicy::kStrict;
    settings.concurrency = state_->executor.concurrency();
    uint32_t reduction;  // read as an integer: any value may arrive from C
    std::memcpy(&reduction, &options.scatter_reduction, sizeof(reduction));
    if (reduction > static_cast<uint32_t>(ScatterReduction::kMin)) {
      return InvalidArgument("CompileOptions.scatter_reduction is %u, expected 0 (none) to 4 (min)",
                             reduction);
    }
    settings.scatter_reduction = static_cast<kernels::ScatterReduction>(reduction);
    settings.scatter_bfloat16 = options.scatter_bfloat16;
    Status s = internal::CompileProgram(desc, settings, program.get());
    if (!s.ok()) return s;
    const bool scatter = program->geometry.type == DML_OPERATOR_SCATTER ||
                         program->geometry.type == DML_OPERATOR_SCATTER_ND;
    if (reduction != 0 && (!scatter || state_->backend == Backend::kD3D12)) {
      return Unsupported("%s: CompileOptions.scatter_reduction is %u, expected 0 (none): only "
                         "SCATTER and SCATTER_ND on the CPU backend reduce",
                         program->geometry.name, reduction);
    }
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
    // The scatter planner sizes fused strips for this pool (scatter_plan.h).
    static_assert(internal::ScratchPool::kMaxSlots == internal::kMaxScratchSlots,
                  "one slot count for the pool and the planner");
    if (program->max_pack_bytes != 0 && !op.backend_op_) {
      // One slot per thread that can run units of one Execute, and two more for other callers,
      // at most Tuning::max_scratch_bytes in all. The scatter planner narrows fused strips to
      // fit, but a strip of one item or one line can exceed that share: then there are fewer
      // slots. A thread finding none works without (a gather reads the input directly, a scatter
      // slice updates the output directly). Only the slots in use are ever touched.
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
  return program_->inputs[i].tensor.total_bytes;
}
uint64_t CompiledOperator::output_bytes(size_t i) const {
  if (!program_ || i >= program_->output_count) return 0;
  return program_->outputs[i].tensor.total_bytes;
}
Backend CompiledOperator::backend() const { return backend_op_ ? Backend::kD3D12 : Backend::kCpu; }

Status CompiledOperator::ExecuteNative(const NativeBinding* inputs, size_t input_count,
                                       const NativeBinding* outputs, size_t output_count) const {
  if (!program_) return InvalidArgument("ExecuteNative on an empty CompiledOperator");
  const internal::Program& program = *program_;
  const char* op = program.geometry.name;
  if (!backend_op_) {
    return Unsupported("%s: ExecuteNative needs an operator compiled by the D3D12 backend", op);
  }
  Status checked =
      internal::CheckNativeBindings(program, inputs, input_count, outputs, output_count);
  if (!checked.ok()) return checked;
#if defined(DMLCPU_HAS_D3D12)
  const auto& d3d12_op = *static_cast<const internal::d3d12::Operator*>(backend_op_.get());
  Status s = internal::d3d12::ExecuteNative(d3d12_op, inputs, outputs);
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
  const char* op = program.geometry.name;
  if (!internal::BindingsOk(program, inputs, input_count, outputs, output_count)) {
    Status s = internal::CheckBindings(program, inputs, input_count, outputs, output_count);
    if (!s.ok()) return s;
  }
  const bool in_place = internal::BoundInPlace(program, inputs, outputs);

  if (program.strict_indices) {
    const internal::IndexScans& scans = program.index_scans;
    const auto* indices = static_cast<const uint8_t*>(inputs[scans.indices_binding].data);
    internal::BadIndex bad;
    if (!internal::ScanIndices(scans, indices, &bad)) {
      return internal::BadIndexError(program, indices, bad);
    }
  }
  if (backend_op_) return ExecuteOnBackend(inputs, outputs);
  try {
    device_->executor.RunProgram(program, inputs, outputs, scratch_.get(), in_place);
  } catch (...) {
    return Status(StatusCode::kInternal, std::string(op) + ": the executor failed");
  }
  return Status::Ok();
}

Status CompiledOperator::ExecuteOnBackend(const Binding* inputs,
                                          const OutputBinding* outputs) const {
#if defined(DMLCPU_HAS_D3D12)
  const auto& d3d12_op = *static_cast<const internal::d3d12::Operator*>(backend_op_.get());
  Status s = internal::d3d12::ExecuteHost(d3d12_op, inputs, outputs);
  if (!s.ok()) return Status(s.code(), std::string(program_->geometry.name) + ": " + s.message());
  return s;
#else
  (void)inputs;
  (void)outputs;
  return Status(StatusCode::kInternal, "no D3D12 backend in this build");
#endif
}

uint64_t CalcBufferTensorSize(DML_TENSOR_DATA_TYPE data_type, uint32_t dimension_count,
                              const uint32_t* sizes, const uint32_t* strides) {
  return internal::CalcTensorBytes(data_type, dimension_count, sizes, strides);
}

}  // namespace dmlcpu
