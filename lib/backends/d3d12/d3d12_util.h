// SPDX-License-Identifier: Apache-2.0
// What the D3D12 backend needs around COM and D3D12 (d3d12_backend.cc): an owning COM pointer,
// HRESULTs as Statuses, D3D12's entry points loaded at run time, and the calls whose C and C++
// forms differ (MSVC returns structs, mingw's headers take an out parameter).
#ifndef DMLCPU_BACKENDS_D3D12_D3D12_UTIL_H_
#define DMLCPU_BACKENDS_D3D12_D3D12_UTIL_H_

#include <cstdint>
#include <utility>

#include "backends/d3d12/dml_declarations.h"
#include "dmlcpu/status.h"

namespace dmlcpu {
namespace internal {
namespace d3d12 {

// Offsets of bound ranges: DirectML needs 16 for tensors and 256 for temporary/persistent data.
inline constexpr uint64_t kRangeAlignmentBytes = 256;

inline uint64_t AlignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// Releases a COM pointer on scope exit; Get/Put mimic what the code below needs, nothing more.
template <typename T>
class ComPtr {
 public:
  ComPtr() = default;
  explicit ComPtr(T* p) : p_(p) {}
  ComPtr(const ComPtr& other) : p_(other.p_) {
    if (p_) p_->AddRef();
  }
  ComPtr& operator=(ComPtr other) {
    std::swap(p_, other.p_);
    return *this;
  }
  ~ComPtr() {
    if (p_) p_->Release();
  }
  T* Get() const { return p_; }
  T* operator->() const { return p_; }
  explicit operator bool() const { return p_ != nullptr; }
  void** PutVoid() {
    Reset();
    return reinterpret_cast<void**>(&p_);
  }
  T** Put() {
    Reset();
    return &p_;
  }
  void Reset() {
    if (p_) p_->Release();
    p_ = nullptr;
  }

 private:
  T* p_ = nullptr;
};

// kInvalidArgument for E_INVALIDARG, else kInternal; the message names the call and the HRESULT.
Status HresultStatus(const char* call, HRESULT hr);

#define DMLCPU_RETURN_IF_FAILED(call, expr)          \
  do {                                               \
    const HRESULT hr_ = (expr);                      \
    if (FAILED(hr_)) return HresultStatus(call, hr_); \
  } while (0)

// d3d12.dll's and dxgi.dll's entry points, loaded at run time rather than imported so that
// dmlcpu.dll (and its CPU backend) loads where D3D12 is absent. Loaded on the first call, once per
// process, never freed (as an import would be); a failed load is kept in `status`, not retried.
struct D3d12Entries {
  decltype(&::D3D12CreateDevice) create_device = nullptr;
  decltype(&::CreateDXGIFactory1) create_factory = nullptr;
  Status status;
};
const D3d12Entries& LoadedD3d12();

// Whether two COM pointers are one object (COM's identity: their IUnknown pointers are equal).
bool SameObject(IUnknown* a, IUnknown* b);

DML_BINDING_PROPERTIES BindingProperties(IDMLDispatchable* dispatchable);
D3D12_CPU_DESCRIPTOR_HANDLE CpuHeapStart(ID3D12DescriptorHeap* heap);
D3D12_GPU_DESCRIPTOR_HANDLE GpuHeapStart(ID3D12DescriptorHeap* heap);
D3D12_COMMAND_LIST_TYPE QueueType(ID3D12CommandQueue* queue);
D3D12_RESOURCE_BARRIER Transition(ID3D12Resource* resource, D3D12_RESOURCE_STATES before,
                                  D3D12_RESOURCE_STATES after);
D3D12_RESOURCE_BARRIER UavBarrier(ID3D12Resource* resource);

}  // namespace d3d12
}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_BACKENDS_D3D12_D3D12_UTIL_H_
