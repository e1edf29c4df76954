// SPDX-License-Identifier: Apache-2.0
// COM and D3D12 helpers of the D3D12 backend (d3d12_util.h).
#include "backends/d3d12/d3d12_util.h"

#include <cstdio>
#include <string>

#include "backends/d3d12/d3d12_backend.h"

namespace dmlcpu {
namespace internal {
namespace d3d12 {
namespace {

const char* HresultName(uint32_t hr) {
  switch (hr) {
    case 0x80070057u: return "E_INVALIDARG";
    case 0x8007000Eu: return "E_OUTOFMEMORY";
    case 0x80004002u: return "E_NOINTERFACE";
    case 0x80004003u: return "E_POINTER";
    case 0x80004005u: return "E_FAIL";
    case 0x80004001u: return "E_NOTIMPL";
    case 0x8007007Eu: return "ERROR_MOD_NOT_FOUND";
    case 0x887A0004u: return "DXGI_ERROR_UNSUPPORTED";
    case 0x887A0005u: return "DXGI_ERROR_DEVICE_REMOVED";
    case 0x887A0006u: return "DXGI_ERROR_DEVICE_HUNG";
    case 0x887A0007u: return "DXGI_ERROR_DEVICE_RESET";
    case 0x887A0002u: return "DXGI_ERROR_NOT_FOUND";
    case 0x887A002Du: return "DXGI_ERROR_SDK_COMPONENT_MISSING";
    default: return nullptr;
  }
}

// Resolves `name` in `module` into `fn`; a message naming both when it is missing.
template <typename Fn>
Status Resolve(HMODULE module, const char* dll, const char* name, Fn* fn) {
  *fn = reinterpret_cast<Fn>(reinterpret_cast<void*>(GetProcAddress(module, name)));
  if (*fn != nullptr) return Status::Ok();
  return Status(StatusCode::kUnsupported, std::string(dll) + " has no " + name);
}

D3d12Entries LoadD3d12Entries() {
  D3d12Entries entries;
  const HMODULE d3d12 = LoadLibraryW(L"d3d12.dll");
  const HMODULE dxgi = d3d12 != nullptr ? LoadLibraryW(L"dxgi.dll") : nullptr;
  if (dxgi == nullptr) {
    entries.status = Status(
        StatusCode::kUnsupported,
        HresultMessage(d3d12 == nullptr ? "LoadLibrary(d3d12.dll)" : "LoadLibrary(dxgi.dll)",
                       static_cast<int32_t>(HRESULT_FROM_WIN32(GetLastError()))));
    return entries;
  }
  entries.status = Resolve(d3d12, "d3d12.dll", "D3D12CreateDevice", &entries.create_device);
  if (entries.status.ok()) {
    entries.status = Resolve(dxgi, "dxgi.dll", "CreateDXGIFactory1", &entries.create_factory);
  }
  return entries;
}

}  // namespace

const D3d12Entries& LoadedD3d12() {
  static const D3d12Entries entries = LoadD3d12Entries();
  return entries;
}

std::string HresultMessage(const char* call, int32_t hr) {
  char text[160];
  const char* name = HresultName(static_cast<uint32_t>(hr));
  std::snprintf(text, sizeof(text), "%s failed: 0x%08X%s%s%s", call, static_cast<unsigned>(hr),
                name ? " (" : "", name ? name : "", name ? ")" : "");
  return text;
}

Status HresultStatus(const char* call, HRESULT hr) {
  const StatusCode code = static_cast<uint32_t>(hr) == 0x80070057u ? StatusCode::kInvalidArgument
                                                                    : StatusCode::kInternal;
  return Status(code, HresultMessage(call, hr));
}

bool SameObject(IUnknown* a, IUnknown* b) {
  ComPtr<IUnknown> identity_a, identity_b;
  if (FAILED(a->QueryInterface(__uuidof(IUnknown), identity_a.PutVoid())) ||
      FAILED(b->QueryInterface(__uuidof(IUnknown), identity_b.PutVoid()))) {
    return false;
  }
  return identity_a.Get() == identity_b.Get();
}

DML_BINDING_PROPERTIES BindingProperties(IDMLDispatchable* dispatchable) {
#if defined(DMLCPU_REAL_DIRECTML_H)
  return dispatchable->GetBindingProperties();
#else
  DML_BINDING_PROPERTIES props = {};
  dispatchable->GetBindingProperties(&props);
  return props;
#endif
}

D3D12_CPU_DESCRIPTOR_HANDLE CpuHeapStart(ID3D12DescriptorHeap* heap) {
#if defined(_MSC_VER)
  return heap->GetCPUDescriptorHandleForHeapStart();
#else
  D3D12_CPU_DESCRIPTOR_HANDLE handle;
  heap->GetCPUDescriptorHandleForHeapStart(&handle);
  return handle;
#endif
}

D3D12_GPU_DESCRIPTOR_HANDLE GpuHeapStart(ID3D12DescriptorHeap* heap) {
#if defined(_MSC_VER)
  return heap->GetGPUDescriptorHandleForHeapStart();
#else
  D3D12_GPU_DESCRIPTOR_HANDLE handle;
  heap->GetGPUDescriptorHandleForHeapStart(&handle);
  return handle;
#endif
}

D3D12_COMMAND_LIST_TYPE QueueType(ID3D12CommandQueue* queue) {
#if defined(_MSC_VER)
  return queue->GetDesc().Type;
#else
  D3D12_COMMAND_QUEUE_DESC desc;
  queue->GetDesc(&desc);
  return desc.Type;
#endif
}

D3D12_RESOURCE_BARRIER Transition(ID3D12Resource* resource, D3D12_RESOURCE_STATES before,
                                  D3D12_RESOURCE_STATES after) {
  D3D12_RESOURCE_BARRIER barrier = {};
  barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
  barrier.Transition.pResource = resource;
  barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
  barrier.Transition.StateBefore = before;
  barrier.Transition.StateAfter = after;
  return barrier;
}

D3D12_RESOURCE_BARRIER UavBarrier(ID3D12Resource* resource) {
  D3D12_RESOURCE_BARRIER barrier = {};
  barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
  barrier.UAV.pResource = resource;
  return barrier;
}


}  // namespace d3d12
}  // namespace internal
}  // namespace dmlcpu
