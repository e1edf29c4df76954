// SPDX-License-Identifier: Apache-2.0
// DirectML's COM interfaces and binding structs for the D3D12 backend. With MSVC and the Windows
// SDK the real DirectML.h is used; mingw has none, so the declarations below are written from
// docs/d3d12.md#directml-interfaces (IIDs, vtable order, signatures). Operator and
// tensor descriptor structs come from dmlcpu/dml_compat.h either way.
#ifndef DMLCPU_BACKENDS_D3D12_DML_DECLARATIONS_H_
#define DMLCPU_BACKENDS_D3D12_DML_DECLARATIONS_H_

// mingw's d3d12.h returns descriptor handles through an explicit pointer only with this macro,
// which matches the MSVC ABI DirectML and vkd3d are built with.
#ifndef WIDL_EXPLICIT_AGGREGATE_RETURNS
#define WIDL_EXPLICIT_AGGREGATE_RETURNS
#endif
#include <windows.h>
#include <d3d12.h>
#include <dxgi1_4.h>

#if defined(_MSC_VER) && __has_include(<DirectML.h>)
#include <DirectML.h>
#define DMLCPU_REAL_DIRECTML_H 1
#endif

#include "dmlcpu/dml_compat.h"

#if !defined(DMLCPU_REAL_DIRECTML_H)

typedef enum DML_FEATURE_LEVEL {
  DML_FEATURE_LEVEL_1_0 = 0x1000,
} DML_FEATURE_LEVEL;

typedef enum DML_CREATE_DEVICE_FLAGS {
  DML_CREATE_DEVICE_FLAG_NONE = 0x0,
  DML_CREATE_DEVICE_FLAG_DEBUG = 0x1,
} DML_CREATE_DEVICE_FLAGS;

typedef enum DML_EXECUTION_FLAGS {
  DML_EXECUTION_FLAG_NONE = 0x0,
  DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION = 0x1,
  DML_EXECUTION_FLAG_DISABLE_META_COMMANDS = 0x2,
  DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE = 0x4,
} DML_EXECUTION_FLAGS;

typedef enum DML_BINDING_TYPE {
  DML_BINDING_TYPE_NONE = 0,
  DML_BINDING_TYPE_BUFFER = 1,
  DML_BINDING_TYPE_BUFFER_ARRAY = 2,
} DML_BINDING_TYPE;

typedef enum DML_FEATURE {
  DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT = 0,
  DML_FEATURE_FEATURE_LEVELS = 1,
} DML_FEATURE;

struct DML_BINDING_PROPERTIES {
  UINT RequiredDescriptorCount;
  UINT64 TemporaryResourceSize;
  UINT64 PersistentResourceSize;
};

struct IDMLDispatchable;
struct DML_BINDING_TABLE_DESC {
  IDMLDispatchable* Dispatchable;
  D3D12_CPU_DESCRIPTOR_HANDLE CPUDescriptorHandle;
  D3D12_GPU_DESCRIPTOR_HANDLE GPUDescriptorHandle;
  UINT SizeInDescriptors;
};

struct DML_BINDING_DESC {
  DML_BINDING_TYPE Type;
  const void* Desc;
};

struct DML_BUFFER_BINDING {
  ID3D12Resource* Buffer;
  UINT64 Offset;
  UINT64 SizeInBytes;
};

struct DML_BUFFER_ARRAY_BINDING {
  UINT BindingCount;
  const DML_BUFFER_BINDING* Bindings;
};

static_assert(sizeof(DML_BINDING_PROPERTIES) == 24, "DML_BINDING_PROPERTIES layout");
static_assert(sizeof(DML_BINDING_TABLE_DESC) == 32, "DML_BINDING_TABLE_DESC layout");
static_assert(sizeof(DML_BINDING_DESC) == 16, "DML_BINDING_DESC layout");
static_assert(sizeof(DML_BUFFER_BINDING) == 24, "DML_BUFFER_BINDING layout");

// Interfaces in vtable order (docs/d3d12.md#directml-interfaces); IUnknown supplies slots 0-2.
struct IDMLObject : public IUnknown {
  virtual HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, UINT* data_size, void* data) = 0;
  virtual HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, UINT data_size,
                                                   const void* data) = 0;
  virtual HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID guid, IUnknown* data) = 0;
  virtual HRESULT STDMETHODCALLTYPE SetName(PCWSTR name) = 0;
};

struct IDMLOperator;
struct IDMLCompiledOperator;
struct IDMLPageable;
struct IDMLDevice : public IDMLObject {
  virtual HRESULT STDMETHODCALLTYPE CheckFeatureSupport(DML_FEATURE feature, UINT query_size,
                                                        const void* query, UINT support_size,
                                                        void* support) = 0;
  virtual HRESULT STDMETHODCALLTYPE CreateOperator(const DML_OPERATOR_DESC* desc, REFIID riid,
                                                   void** ppv) = 0;
  virtual HRESULT STDMETHODCALLTYPE CompileOperator(IDMLOperator* op, DML_EXECUTION_FLAGS flags,
                                                    REFIID riid, void** ppv) = 0;
  virtual HRESULT STDMETHODCALLTYPE CreateOperatorInitializer(
      UINT operator_count, IDMLCompiledOperator* const* operators, REFIID riid, void** ppv) = 0;
  virtual HRESULT STDMETHODCALLTYPE CreateCommandRecorder(REFIID riid, void** ppv) = 0;
  virtual HRESULT STDMETHODCALLTYPE CreateBindingTable(const DML_BINDING_TABLE_DESC* desc,
                                                       REFIID riid, void** ppv) = 0;
  virtual HRESULT STDMETHODCALLTYPE Evict(UINT count, IDMLPageable* const* objects) = 0;
  virtual HRESULT STDMETHODCALLTYPE MakeResident(UINT count, IDMLPageable* const* objects) = 0;
  virtual HRESULT STDMETHODCALLTYPE GetDeviceRemovedReason() = 0;
  virtual HRESULT STDMETHODCALLTYPE GetParentDevice(REFIID riid, void** ppv) = 0;
};

struct IDMLDeviceChild : public IDMLObject {
  virtual HRESULT STDMETHODCALLTYPE GetDevice(REFIID riid, void** ppv) = 0;
};

struct IDMLPageable : public IDMLDeviceChild {};
struct IDMLOperator : public IDMLDeviceChild {};

struct IDMLDispatchable : public IDMLPageable {
  // Returns DML_BINDING_PROPERTIES by value in DirectML (MSVC ABI: hidden result pointer after
  // `this`), declared here with that pointer explicit so GCC calls it the same way.
  virtual DML_BINDING_PROPERTIES* STDMETHODCALLTYPE GetBindingProperties(
      DML_BINDING_PROPERTIES* result) = 0;
};

struct IDMLCompiledOperator : public IDMLDispatchable {};

struct IDMLOperatorInitializer : public IDMLDispatchable {
  virtual HRESULT STDMETHODCALLTYPE Reset(UINT operator_count,
                                          IDMLCompiledOperator* const* operators) = 0;
};

struct IDMLBindingTable : public IDMLDeviceChild {
  virtual void STDMETHODCALLTYPE BindInputs(UINT count, const DML_BINDING_DESC* bindings) = 0;
  virtual void STDMETHODCALLTYPE BindOutputs(UINT count, const DML_BINDING_DESC* bindings) = 0;
  virtual void STDMETHODCALLTYPE BindTemporaryResource(const DML_BINDING_DESC* binding) = 0;
  virtual void STDMETHODCALLTYPE BindPersistentResource(const DML_BINDING_DESC* binding) = 0;
  virtual HRESULT STDMETHODCALLTYPE Reset(const DML_BINDING_TABLE_DESC* desc) = 0;
};

struct IDMLCommandRecorder : public IDMLDeviceChild {
  virtual void STDMETHODCALLTYPE RecordDispatch(ID3D12CommandList* command_list,
                                                IDMLDispatchable* dispatchable,
                                                IDMLBindingTable* bindings) = 0;
};

#endif  // !DMLCPU_REAL_DIRECTML_H

namespace dmlcpu {
namespace internal {
namespace d3d12 {

// IIDs from docs/d3d12.md#directml-interfaces (kept here so both header flavours use the same
// constants).
constexpr GUID kIidIdmlDevice = {0x6dbd6437, 0x96fd, 0x423f,
                                 {0xa9, 0x8c, 0xae, 0x5e, 0x7c, 0x2a, 0x57, 0x3f}};
constexpr GUID kIidIdmlOperator = {0x26caae7a, 0x3081, 0x4633,
                                   {0x95, 0x81, 0x22, 0x6f, 0xbe, 0x57, 0x69, 0x5d}};
constexpr GUID kIidIdmlCompiledOperator = {0x6b15e56a, 0xbf5c, 0x4902,
                                           {0x92, 0xd8, 0xda, 0x3a, 0x65, 0x0a, 0xfe, 0xa4}};
constexpr GUID kIidIdmlOperatorInitializer = {0x427c1113, 0x435c, 0x469c,
                                              {0x86, 0x76, 0x4d, 0x5d, 0xd0, 0x72, 0xf8, 0x13}};
constexpr GUID kIidIdmlBindingTable = {0x29c687dc, 0xde74, 0x4e3b,
                                       {0xab, 0x00, 0x11, 0x68, 0xf2, 0xfc, 0x3c, 0xfc}};
constexpr GUID kIidIdmlCommandRecorder = {0xe6857a76, 0x2e3e, 0x4fdd,
                                          {0xbf, 0xf4, 0x5d, 0x2b, 0xa1, 0x0f, 0xb4, 0x53}};

// DMLCreateDevice1, resolved from DirectML.dll at run time.
using DmlCreateDevice1Fn = HRESULT(WINAPI*)(ID3D12Device* device, DML_CREATE_DEVICE_FLAGS flags,
                                            DML_FEATURE_LEVEL minimum_feature_level, REFIID riid,
                                            void** ppv);

}  // namespace d3d12
}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_BACKENDS_D3D12_DML_DECLARATIONS_H_
