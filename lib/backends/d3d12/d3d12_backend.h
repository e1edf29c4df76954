// SPDX-License-Identifier: Apache-2.0
// The D3D12 backend: runs operators on real DirectML (DirectML.dll loaded at run time) on a D3D12
// device. Built only for Windows targets (DMLCPU_HAS_D3D12); this header is platform-neutral so
// lib/api can hold its objects without seeing d3d12.h.
#ifndef DMLCPU_BACKENDS_D3D12_D3D12_BACKEND_H_
#define DMLCPU_BACKENDS_D3D12_D3D12_BACKEND_H_

#include <cstdint>
#include <memory>
#include <string>

#include "dmlcpu/dmlcpu.h"
#include "planner/plan.h"

namespace dmlcpu {
namespace internal {
namespace d3d12 {

class Context;   // D3D12 device + queue + IDMLDevice + reusable staging buffers and heap
class Operator;  // IDMLCompiledOperator + its persistent resource

// Loads d3d12/dxgi (unless a device or queue is given) and DirectML.dll; creates or adopts the
// device, queue and IDMLDevice. A queue alone brings its device; a queue with a device must be
// that device's (else kInvalidArgument). Where it creates the device, `require_hardware` skips
// software adapters (WARP); `description` names the adapter or the adopted object.
StatusOr<std::shared_ptr<Context>> CreateContext(void* native_device, void* native_queue,
                                                 bool require_hardware, std::string* description);

// CreateOperator + CompileOperator + initialisation (dispatched and waited for). `program` is the
// CPU backend's program of the same descriptor, already validated.
StatusOr<std::shared_ptr<const Operator>> Compile(const std::shared_ptr<Context>& context,
                                                  const DML_OPERATOR_DESC& desc,
                                                  const Program& program);

// Host buffers: uploads inputs and the outputs' current bytes (so stride gaps keep them),
// dispatches, waits, reads the outputs back. Bindings already checked by the caller.
// Every binding of the program, in struct-field order.
Status ExecuteHost(const Operator& op, const Binding* inputs, const OutputBinding* outputs);

// Caller's D3D12 buffers, no copies.
Status ExecuteNative(const Operator& op, const NativeBinding* inputs,
                     const NativeBinding* outputs);

// "CreateOperator failed: 0x80070057 (E_INVALIDARG)".
std::string HresultMessage(const char* call, int32_t hr);

}  // namespace d3d12
}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_BACKENDS_D3D12_D3D12_BACKEND_H_
