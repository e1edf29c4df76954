// SPDX-License-Identifier: Apache-2.0
// dmlcpu — C++ API: compile a DirectML operator descriptor once, execute it many times on the CPU.
//
//   dmlcpu::Device device;                                  // every CPU it may use
//   auto op = device.Compile(desc, {});                     // validates and plans
//   if (!op.ok()) { puts(op.status().message().c_str()); }
//   Status s = op->Execute({{input, input_bytes}, {indices, indices_bytes}},
//                          {{output, output_bytes}});
#ifndef DMLCPU_DMLCPU_H_
#define DMLCPU_DMLCPU_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/export.h"
#include "dmlcpu/status.h"
#include "dmlcpu/version.h"

namespace dmlcpu {

// Opaque stand-in for a caller's tbb::task_arena (dmlcpu/tbb.h converts; this header needs no
// oneTBB).
struct TbbArenaHandle;

namespace internal {
struct DeviceState;
struct Program;
class ScratchPool;
}  // namespace internal

// What Execute does with an index outside [-D, D-1] (signed types) or [0, D-1] (unsigned).
enum class IndexPolicy : uint32_t {
  // DirectML's documented promise: no error, reads stay inside the input. Per coordinate: a
  // negative index is wrapped once (v + D), the result read as unsigned and clamped to D - 1.
  kClamp = 0,
  // Execute fails with StatusCode::kOutOfRange naming the first bad index in index order (the
  // same one for every thread count); the output is left untouched.
  kStrict = 1,
};

// How SCATTER and SCATTER_ND combine an update with the element it hits (ONNX ScatterND-18 /
// ScatterElements-18 `reduction`; DirectML's structs have no such field). Each destination takes
// its updates in index order, so results are the same bytes for every thread count.
enum class ScatterReduction : uint32_t { kNone = 0, kAdd = 1, kMul = 2, kMax = 3, kMin = 4 };

struct CompileOptions {
  IndexPolicy index_policy = IndexPolicy::kClamp;
  // SCATTER / SCATTER_ND only; any other operator, and the D3D12 backend, reject a reduction.
  ScatterReduction scatter_reduction = ScatterReduction::kNone;
  // With a reduction, UINT16 data holds BFLOAT16 bit patterns (ONNX bfloat16 tensors).
  bool scatter_bfloat16 = false;
};

// Where a Device runs its operators.
enum class Backend : uint32_t {
  kCpu = 0,    // this library's kernels and executor
  kD3D12 = 1,  // real DirectML on a D3D12 device (Windows builds with the D3D12 backend only)
  kAuto = 2,   // kD3D12 when DirectML.dll and a hardware adapter are present, kCpu otherwise
};

// Stable name of a backend: "cpu", "d3d12", "auto".
DMLCPU_API const char* BackendName(Backend backend);

// A D3D12 buffer range for CompiledOperator::ExecuteNative (no copies). `resource` is an
// ID3D12Resource* (a buffer in, or promotable to, UNORDERED_ACCESS); offset_bytes a multiple of
// 16; size_bytes >= the tensor's TotalTensorSizeInBytes.
struct NativeBinding {
  void* resource;
  uint64_t offset_bytes;
  uint64_t size_bytes;
};

// An engine-owned thread pool (DeviceOptions::parallel_for; the contract is in docs/abi.md,
// "The engine's thread pool"): parallel_for(context, task_count, function, argument) must run
// function(argument, i) once for every i in [0, task_count), on any threads, in any order, and
// return only when all have returned. Tasks never wait on each other, so running them inline is
// correct. The same types as dmlcpu_task_fn / dmlcpu_parallel_for_fn in dmlcpu_c.h.
using TaskFn = void (*)(void* argument, uint32_t task_index);
using ParallelForFn = void (*)(void* context, uint32_t task_count, TaskFn function,
                               void* argument);

struct DeviceOptions {
  // Upper bound on threads used by one Execute. 0 = the CPUs this process may run on (its
  // affinity mask, capped by its cgroup CPU quota); 1 = fully serial, no thread pool call.
  // With parallel_for: the pool's width, the most tasks one parallel_for call is given.
  uint32_t max_threads = 0;
  // Optional caller-owned oneTBB arena, set and read with SetTbbArena / GetTbbArena from
  // dmlcpu/tbb.h (null = the device owns its threads). Execute runs its parallel work inside
  // it (and inside this_task_arena::isolate); it must outlive the Device and everything
  // compiled on it. With an arena, max_threads (when below the arena's concurrency) splits each
  // Execute into exactly that many slices. Must be null in portable (DMLCPU_NO_TBB) builds and
  // with dmlcpu.dll on Windows, which links its own oneTBB (Device::Create fails there).
  TbbArenaHandle* tbb_arena = nullptr;
  // Which backend runs Compile/Execute; see Device::backend() and backend_reason().
  Backend backend = Backend::kCpu;
  // kD3D12/kAuto only, optional: adopt the caller's ID3D12Device* and ID3D12CommandQueue*
  // (DIRECT or COMPUTE) instead of creating them. Both are AddRef'd while the device lives. A
  // queue alone brings its own device; a queue given with a device must belong to it
  // (kInvalidArgument otherwise, with kAuto too).
  void* d3d12_device = nullptr;
  void* d3d12_queue = nullptr;
  // Optional engine-owned thread pool, used instead of oneTBB (and in portable builds, which
  // otherwise run serially): each parallel step of an Execute calls parallel_for once, from the
  // thread that called Execute, with at most max_threads tasks of whole grains (the same
  // partition as oneTBB's, so the same results). Work below the serial cutoff never calls it.
  // Setting both parallel_for and tbb_arena is an error (Device::Create and Compile say so).
  ParallelForFn parallel_for = nullptr;
  void* parallel_for_context = nullptr;  // passed to parallel_for as is
};

// A bound tensor: a host pointer and the number of bytes that may be accessed from it, which
// must be at least the tensor's TotalTensorSizeInBytes.
struct Binding {
  const void* data;
  uint64_t size_bytes;
};
struct OutputBinding {
  void* data;
  uint64_t size_bytes;
};

// An operator compiled for one device: an immutable program of steps. Cheap to copy (shared). Keeps its
// device's thread pool alive. Execute is const, allocation-free on success, and safe to call
// from many threads at once (on different output buffers).
class DMLCPU_API CompiledOperator {
 public:
  CompiledOperator() = default;

  // Runs the operator. Bindings are in the order of the tensor fields of the operator struct,
  // array fields element by element: inputs = InputTensor[, IndicesTensor] for the gathers,
  // InputTensors[0..InputCount) for JOIN; outputs = OutputTensor, or OutputTensors[..] for
  // SPLIT. Checks, in O(bindings^2): counts, null pointers, sizes against
  // TotalTensorSizeInBytes, GuaranteedBaseOffsetAlignment, and that no output range overlaps an
  // input range or another output range. On any error nothing is written.
  Status Execute(const Binding* inputs, size_t input_count, const OutputBinding* outputs,
                 size_t output_count) const;
  Status Execute(std::initializer_list<Binding> inputs,
                 std::initializer_list<OutputBinding> outputs) const {
    return Execute(inputs.begin(), inputs.size(), outputs.begin(), outputs.size());
  }

  // Human-readable description of the program: its steps, and for each the collapsed sizes and
  // byte strides, the strategy and kernels chosen, the work partition. Answers "why is my slice
  // slow".
  std::string Describe() const;

  // D3D12 backend only: runs on the caller's GPU buffers, no copies; records, submits and
  // waits on the device's queue. Same count/size checks as Execute. Fails with kUnsupported
  // on an operator compiled by the CPU backend.
  Status ExecuteNative(const NativeBinding* inputs, size_t input_count,
                       const NativeBinding* outputs, size_t output_count) const;

  // The backend this operator was compiled for.
  Backend backend() const;

  // Operator type this was compiled from, and the binding counts Execute expects.
  DML_OPERATOR_TYPE type() const;
  size_t input_count() const;
  size_t output_count() const;
  // The least size_bytes Execute accepts for input / output binding `i` (the tensor's
  // TotalTensorSizeInBytes); 0 when `i` is out of range or the operator is empty.
  uint64_t input_bytes(size_t i) const;
  uint64_t output_bytes(size_t i) const;
  bool valid() const { return program_ != nullptr; }

 private:
  friend class Device;
  Status ExecuteOnBackend(const Binding* inputs, const OutputBinding* outputs) const;
  std::shared_ptr<const internal::DeviceState> device_;
  std::shared_ptr<const internal::Program> program_;
  std::shared_ptr<const void> backend_op_;  // the D3D12 backend's operator, else null
  // Scratch slots for plans that pack input strips (allocated by Compile), else null.
  std::shared_ptr<internal::ScratchPool> scratch_;
};

// Owns (or borrows) the thread pool. Thread-safe: Compile may be called concurrently.
class DMLCPU_API Device {
 public:
  explicit Device(const DeviceOptions& options = DeviceOptions());
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  Device(Device&&) noexcept;
  Device& operator=(Device&&) noexcept;

  // Validates `desc` against every constraint of docs/semantics.md and builds the plan. Everything
  // the plan needs is copied: the caller may free the descriptor (and its arrays) right after.
  // Plans that gather from packed input strips (GATHER_ELEMENTS along an outer axis of a large
  // input) also get their scratch here, so that Execute never allocates: max_concurrency() + 2
  // slots of at most 1 MiB each, 16 MiB in all, held by the CompiledOperator. The plan is made for
  // this device: its store policy depends on max_concurrency() (a single-thread device streams some
  // outputs that several threads write faster with regular stores).
  StatusOr<CompiledOperator> Compile(const DML_OPERATOR_DESC& desc,
                                     const CompileOptions& options = CompileOptions()) const;

  // Like the constructor, but fails when options.backend is kD3D12 and the D3D12 backend
  // cannot be created (the message names the failing call and its HRESULT).
  static StatusOr<Device> Create(const DeviceOptions& options);

  // Threads an Execute on this device may use (>= 1; in portable builds 1 unless the device
  // has a parallel_for, since their executor otherwise runs every Execute on the calling thread).
  uint32_t max_concurrency() const;

  // The backend chosen (kCpu or kD3D12, never kAuto) and why, e.g. "requested" or "kAuto: this
  // build has no D3D12 backend". A constructed kD3D12 device whose backend could not be created
  // reports kD3D12 here and every Compile fails with the reason.
  Backend backend() const;
  const std::string& backend_reason() const;

 private:
  std::shared_ptr<internal::DeviceState> state_;
};

// DMLCalcBufferTensorSize with 64-bit arithmetic: the minimum TotalTensorSizeInBytes for a tensor
// (bytes, rounded up to a multiple of 4). Returns 0 for an unknown data type or on overflow.
DMLCPU_API uint64_t CalcBufferTensorSize(DML_TENSOR_DATA_TYPE data_type, uint32_t dimension_count,
                              const uint32_t* sizes, const uint32_t* strides);

}  // namespace dmlcpu

#endif  // DMLCPU_DMLCPU_H_
