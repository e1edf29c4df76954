// SPDX-License-Identifier: Apache-2.0
// The D3D12 backend (Windows only): real DirectML on a D3D12 device. One Context per Device
// owns the queue, one command allocator/list, a fence, a shader-visible descriptor heap, a
// binding table and the staging buffers (UPLOAD -> DEFAULT -> READBACK); all are grown on
// demand and reused across calls, under one mutex (DirectML's recorders and tables are not
// thread-safe).
#include "backends/d3d12/d3d12_backend.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "backends/d3d12/d3d12_util.h"
#include "backends/d3d12/dml_declarations.h"
#include "backends/d3d12/workaround_desc.h"

namespace dmlcpu {
namespace internal {
namespace d3d12 {

class Context {
 public:
  ~Context() {
    // Everything recorded has been waited for; the queue is idle here.
    if (event_ != nullptr) CloseHandle(event_);
    if (dml_module_ != nullptr) {
      // COM objects from DirectML.dll must go before the module.
      kept_operators_.clear();
      recorder_.Reset();
      table_.Reset();
      dml_.Reset();
    }
  }

  Status Init(void* native_device, void* native_queue, bool require_hardware,
              std::string* description);

  // Grows (never shrinks) a committed buffer. `state` is its initial state.
  Status EnsureBuffer(ComPtr<ID3D12Resource>* buffer, uint64_t* capacity_bytes, uint64_t bytes,
                      D3D12_HEAP_TYPE heap_type, D3D12_RESOURCE_STATES state,
                      D3D12_RESOURCE_FLAGS flags, const char* call);
  Status EnsureHeap(uint32_t descriptor_count);
  // Resets the command list, runs `record`, then closes, submits and waits.
  template <typename Record>
  Status Submit(Record&& record);
  // (Re)targets the shared binding table at `dispatchable`.
  Status BindTable(IDMLDispatchable* dispatchable, uint32_t descriptor_count);

  std::mutex mutex_;
  HMODULE dml_module_ = nullptr;
  ComPtr<ID3D12Device> device_;
  ComPtr<ID3D12CommandQueue> queue_;
  D3D12_COMMAND_LIST_TYPE list_type_ = D3D12_COMMAND_LIST_TYPE_DIRECT;
  ComPtr<ID3D12CommandAllocator> allocator_;
  ComPtr<ID3D12GraphicsCommandList> list_;
  ComPtr<ID3D12Fence> fence_;
  uint64_t fence_value_ = 0;
  HANDLE event_ = nullptr;
  ComPtr<IDMLDevice> dml_;
  ComPtr<IDMLCommandRecorder> recorder_;
  ComPtr<IDMLBindingTable> table_;
  ComPtr<ID3D12DescriptorHeap> heap_;
  uint32_t heap_descriptors_ = 0;
  // Staging: inputs and the output's old bytes go UPLOAD -> DEFAULT, the output comes back
  // DEFAULT -> READBACK. The DEFAULT buffer also holds the temporary resource.
  ComPtr<ID3D12Resource> upload_, default_, readback_, temporary_;
  uint64_t upload_bytes_ = 0, default_bytes_ = 0, readback_bytes_ = 0, temporary_bytes_ = 0;
  uint8_t* upload_map_ = nullptr;
  // Operators are kept alive for the context's lifetime: under wine, CompileOperator crashed
  // occasionally after earlier operators had been released
  // (docs/semantics.md#observed-directml-behaviour).
  std::vector<ComPtr<IDMLOperator>> kept_operators_;
  // DMLCPU_D3D12_RAW_DIRECTML=1 (diagnostics only): pass descriptors to DirectML unchanged,
  // DirectML bugs included.
  bool raw_descriptors_ = false;
};

class Operator {
 public:
  std::shared_ptr<Context> context;
  ComPtr<IDMLCompiledOperator> compiled;
  ComPtr<ID3D12Resource> persistent;
  DML_BINDING_PROPERTIES props = {};
  std::vector<uint64_t> input_bytes;   // TotalTensorSizeInBytes per input binding
  std::vector<uint64_t> output_bytes;  // and per output binding
};

Status Context::Init(void* native_device, void* native_queue, bool require_hardware,
                     std::string* description) {
  const char* raw = std::getenv("DMLCPU_D3D12_RAW_DIRECTML");
  raw_descriptors_ = raw != nullptr && raw[0] == '1';
  auto* caller_queue = static_cast<ID3D12CommandQueue*>(native_queue);
  ComPtr<ID3D12Device> queue_device;  // the caller's queue's own device
  if (caller_queue != nullptr) {
    // Checked before anything loads, so that the answer does not depend on the machine.
    DMLCPU_RETURN_IF_FAILED("ID3D12CommandQueue::GetDevice",
                            caller_queue->GetDevice(__uuidof(ID3D12Device),
                                                    queue_device.PutVoid()));
    if (native_device != nullptr &&
        !SameObject(queue_device.Get(), static_cast<ID3D12Device*>(native_device))) {
      return Status(StatusCode::kInvalidArgument,
                    "DeviceOptions::d3d12_queue belongs to another ID3D12Device than "
                    "d3d12_device");
    }
  }
  // Without a caller's device or queue D3D12 itself comes first: DirectML.dll needs it too.
  if (native_device == nullptr && caller_queue == nullptr) {
    const Status& d3d12_status = LoadedD3d12().status;
    if (!d3d12_status.ok()) return d3d12_status;
  }
  dml_module_ = LoadLibraryW(L"DirectML.dll");
  if (dml_module_ == nullptr) {
    return Status(StatusCode::kUnsupported,
                  HresultMessage("LoadLibrary(DirectML.dll)",
                                 static_cast<int32_t>(HRESULT_FROM_WIN32(GetLastError()))));
  }
  auto create_dml = reinterpret_cast<DmlCreateDevice1Fn>(
      reinterpret_cast<void*>(GetProcAddress(dml_module_, "DMLCreateDevice1")));
  if (create_dml == nullptr) {
    return Status(StatusCode::kUnsupported, "DirectML.dll has no DMLCreateDevice1 (older than "
                                            "DirectML 1.1.0)");
  }

  if (native_device != nullptr) {
    device_ = ComPtr<ID3D12Device>(static_cast<ID3D12Device*>(native_device));
    device_->AddRef();
    *description = "caller's ID3D12Device";
  } else if (queue_device) {
    // A queue alone brings its device: work recorded on any other device could not run on it.
    device_ = queue_device;
    *description = "the ID3D12Device of the caller's queue";
  } else {
    const D3d12Entries& d3d12 = LoadedD3d12();
    ComPtr<IDXGIFactory4> factory;
    DMLCPU_RETURN_IF_FAILED("CreateDXGIFactory1",
                            d3d12.create_factory(__uuidof(IDXGIFactory4), factory.PutVoid()));
    ComPtr<IDXGIAdapter1> adapter;
    for (UINT i = 0; factory->EnumAdapters1(i, adapter.Put()) != DXGI_ERROR_NOT_FOUND; ++i) {
      DXGI_ADAPTER_DESC1 adapter_desc;
      if (FAILED(adapter->GetDesc1(&adapter_desc))) continue;
      const bool software = (adapter_desc.Flags & DXGI_ADAPTER_FLAG_SOFTWARE) != 0 ||
                            (adapter_desc.VendorId == 0x1414 && adapter_desc.DeviceId == 0x8c);
      if (software && require_hardware) continue;
      if (SUCCEEDED(d3d12.create_device(adapter.Get(), D3D_FEATURE_LEVEL_11_0,
                                        __uuidof(ID3D12Device), device_.PutVoid()))) {
        char name[128];
        std::snprintf(name, sizeof(name), "%ls", adapter_desc.Description);
        *description = name;
        break;
      }
    }
    if (!device_) {
      return Status(StatusCode::kUnsupported,
                    require_hardware ? "no hardware D3D12 adapter (D3D12CreateDevice failed on "
                                       "every non-software adapter)"
                                     : "no D3D12 adapter (D3D12CreateDevice failed on every "
                                       "adapter)");
    }
  }
  if (caller_queue != nullptr) {
    queue_ = ComPtr<ID3D12CommandQueue>(caller_queue);
    queue_->AddRef();
    list_type_ = QueueType(queue_.Get());
  } else {
    D3D12_COMMAND_QUEUE_DESC queue_desc = {};
    queue_desc.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
    DMLCPU_RETURN_IF_FAILED("CreateCommandQueue",
                            device_->CreateCommandQueue(&queue_desc, __uuidof(ID3D12CommandQueue),
                                                        queue_.PutVoid()));
  }
  DMLCPU_RETURN_IF_FAILED("CreateCommandAllocator",
                          device_->CreateCommandAllocator(
                              list_type_, __uuidof(ID3D12CommandAllocator), allocator_.PutVoid()));
  DMLCPU_RETURN_IF_FAILED("CreateCommandList",
                          device_->CreateCommandList(0, list_type_, allocator_.Get(), nullptr,
                                                     __uuidof(ID3D12GraphicsCommandList),
                                                     list_.PutVoid()));
  DMLCPU_RETURN_IF_FAILED("ID3D12GraphicsCommandList::Close", list_->Close());
  DMLCPU_RETURN_IF_FAILED(
      "CreateFence",
      device_->CreateFence(0, D3D12_FENCE_FLAG_NONE, __uuidof(ID3D12Fence), fence_.PutVoid()));
  event_ = CreateEventW(nullptr, FALSE, FALSE, nullptr);
  if (event_ == nullptr) {
    return HresultStatus("CreateEvent", HRESULT_FROM_WIN32(GetLastError()));
  }
  DMLCPU_RETURN_IF_FAILED("DMLCreateDevice1",
                          create_dml(device_.Get(), DML_CREATE_DEVICE_FLAG_NONE,
                                     DML_FEATURE_LEVEL_1_0, kIidIdmlDevice, dml_.PutVoid()));
  DMLCPU_RETURN_IF_FAILED("CreateCommandRecorder",
                          dml_->CreateCommandRecorder(kIidIdmlCommandRecorder,
                                                      recorder_.PutVoid()));
  return Status::Ok();
}

Status Context::EnsureBuffer(ComPtr<ID3D12Resource>* buffer, uint64_t* capacity_bytes,
                             uint64_t bytes, D3D12_HEAP_TYPE heap_type,
                             D3D12_RESOURCE_STATES state, D3D12_RESOURCE_FLAGS flags,
                             const char* call) {
  if (*buffer && *capacity_bytes >= bytes) return Status::Ok();
  const uint64_t capacity = AlignUp(std::max<uint64_t>(bytes, *capacity_bytes * 2), 65536);
  D3D12_HEAP_PROPERTIES heap = {};
  heap.Type = heap_type;
  D3D12_RESOURCE_DESC desc = {};
  desc.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
  desc.Width = capacity;
  desc.Height = 1;
  desc.DepthOrArraySize = 1;
  desc.MipLevels = 1;
  desc.Format = DXGI_FORMAT_UNKNOWN;
  desc.SampleDesc.Count = 1;
  desc.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
  desc.Flags = flags;
  buffer->Reset();
  *capacity_bytes = 0;
  DMLCPU_RETURN_IF_FAILED(call, device_->CreateCommittedResource(&heap, D3D12_HEAP_FLAG_NONE,
                                                                 &desc, state, nullptr,
                                                                 __uuidof(ID3D12Resource),
                                                                 buffer->PutVoid()));
  *capacity_bytes = capacity;
  return Status::Ok();
}

Status Context::EnsureHeap(uint32_t descriptor_count) {
  if (heap_ && heap_descriptors_ >= descriptor_count) return Status::Ok();
  D3D12_DESCRIPTOR_HEAP_DESC desc = {};
  desc.Type = D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV;
  desc.NumDescriptors = std::max<uint32_t>(std::max(descriptor_count, 2 * heap_descriptors_), 16);
  desc.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE;
  heap_.Reset();
  heap_descriptors_ = 0;
  DMLCPU_RETURN_IF_FAILED("CreateDescriptorHeap",
                          device_->CreateDescriptorHeap(&desc, __uuidof(ID3D12DescriptorHeap),
                                                        heap_.PutVoid()));
  heap_descriptors_ = desc.NumDescriptors;
  return Status::Ok();
}

Status Context::BindTable(IDMLDispatchable* dispatchable, uint32_t descriptor_count) {
  Status s = EnsureHeap(descriptor_count);
  if (!s.ok()) return s;
  DML_BINDING_TABLE_DESC desc = {};
  desc.Dispatchable = dispatchable;
  desc.CPUDescriptorHandle = CpuHeapStart(heap_.Get());
  desc.GPUDescriptorHandle = GpuHeapStart(heap_.Get());
  desc.SizeInDescriptors = descriptor_count;
  if (table_) {
    DMLCPU_RETURN_IF_FAILED("IDMLBindingTable::Reset", table_->Reset(&desc));
  } else {
    DMLCPU_RETURN_IF_FAILED("CreateBindingTable",
                            dml_->CreateBindingTable(&desc, kIidIdmlBindingTable,
                                                     table_.PutVoid()));
  }
  return Status::Ok();
}

template <typename Record>
Status Context::Submit(Record&& record) {
  DMLCPU_RETURN_IF_FAILED("ID3D12CommandAllocator::Reset", allocator_->Reset());
  DMLCPU_RETURN_IF_FAILED("ID3D12GraphicsCommandList::Reset",
                          list_->Reset(allocator_.Get(), nullptr));
  ID3D12DescriptorHeap* heaps[] = {heap_.Get()};
  if (heap_) list_->SetDescriptorHeaps(1, heaps);
  record(list_.Get());
  DMLCPU_RETURN_IF_FAILED("ID3D12GraphicsCommandList::Close", list_->Close());
  ID3D12CommandList* lists[] = {list_.Get()};
  queue_->ExecuteCommandLists(1, lists);
  ++fence_value_;
  DMLCPU_RETURN_IF_FAILED("ID3D12CommandQueue::Signal",
                          queue_->Signal(fence_.Get(), fence_value_));
  if (fence_->GetCompletedValue() < fence_value_) {
    DMLCPU_RETURN_IF_FAILED("ID3D12Fence::SetEventOnCompletion",
                            fence_->SetEventOnCompletion(fence_value_, event_));
    WaitForSingleObject(event_, INFINITE);
  }
  DMLCPU_RETURN_IF_FAILED("ID3D12Device::GetDeviceRemovedReason",
                          device_->GetDeviceRemovedReason());
  return Status::Ok();
}

StatusOr<std::shared_ptr<Context>> CreateContext(void* native_device, void* native_queue,
                                                 bool require_hardware,
                                                 std::string* description) {
  auto context = std::make_shared<Context>();
  Status s = context->Init(native_device, native_queue, require_hardware, description);
  if (!s.ok()) return s;
  return context;
}

StatusOr<std::shared_ptr<const Operator>> Compile(const std::shared_ptr<Context>& context,
                                                  const DML_OPERATOR_DESC& desc,
                                                  const Program& program) {
  Context& c = *context;
  auto op = std::make_shared<Operator>();
  op->context = context;
  for (const BindingInfo& b : program.inputs) op->input_bytes.push_back(b.tensor.total_bytes);
  for (const BindingInfo& b : program.outputs) op->output_bytes.push_back(b.tensor.total_bytes);

  std::lock_guard<std::mutex> lock(c.mutex_);
  ComPtr<IDMLOperator> dml_op;
  const WorkaroundDesc dml_desc(desc, c.raw_descriptors_);
  DMLCPU_RETURN_IF_FAILED("CreateOperator", c.dml_->CreateOperator(dml_desc.get(),
                                                                   kIidIdmlOperator,
                                                                   dml_op.PutVoid()));
  c.kept_operators_.push_back(dml_op);
  DMLCPU_RETURN_IF_FAILED("CompileOperator",
                          c.dml_->CompileOperator(dml_op.Get(), DML_EXECUTION_FLAG_NONE,
                                                  kIidIdmlCompiledOperator,
                                                  op->compiled.PutVoid()));
  op->props = BindingProperties(op->compiled.Get());

  ComPtr<IDMLOperatorInitializer> initializer;
  IDMLCompiledOperator* targets[] = {op->compiled.Get()};
  DMLCPU_RETURN_IF_FAILED("CreateOperatorInitializer",
                          c.dml_->CreateOperatorInitializer(1, targets,
                                                            kIidIdmlOperatorInitializer,
                                                            initializer.PutVoid()));
  const DML_BINDING_PROPERTIES init_props = BindingProperties(initializer.Get());
  if (op->props.PersistentResourceSize > 0) {
    uint64_t unused = 0;
    Status s = c.EnsureBuffer(&op->persistent, &unused, op->props.PersistentResourceSize,
                              D3D12_HEAP_TYPE_DEFAULT, D3D12_RESOURCE_STATE_COMMON,
                              D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
                              "CreateCommittedResource (persistent)");
    if (!s.ok()) return s;
  }
  const uint64_t temporary_bytes =
      std::max(init_props.TemporaryResourceSize, op->props.TemporaryResourceSize);
  if (temporary_bytes > 0) {
    Status s = c.EnsureBuffer(&c.temporary_, &c.temporary_bytes_, temporary_bytes,
                              D3D12_HEAP_TYPE_DEFAULT, D3D12_RESOURCE_STATE_COMMON,
                              D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
                              "CreateCommittedResource (temporary)");
    if (!s.ok()) return s;
  }
  Status s = c.BindTable(initializer.Get(), std::max<uint32_t>(init_props.RequiredDescriptorCount,
                                                               1));
  if (!s.ok()) return s;
  // No input is OWNED_BY_DML, so the initializer binds no inputs.
  DML_BUFFER_BINDING persistent = {op->persistent.Get(), 0, op->props.PersistentResourceSize};
  DML_BINDING_DESC persistent_desc = {DML_BINDING_TYPE_BUFFER, &persistent};
  if (op->persistent) c.table_->BindOutputs(1, &persistent_desc);
  DML_BUFFER_BINDING temporary = {c.temporary_.Get(), 0, init_props.TemporaryResourceSize};
  DML_BINDING_DESC temporary_desc = {DML_BINDING_TYPE_BUFFER, &temporary};
  if (init_props.TemporaryResourceSize > 0) c.table_->BindTemporaryResource(&temporary_desc);
  s = c.Submit([&](ID3D12GraphicsCommandList* list) {
    c.recorder_->RecordDispatch(list, initializer.Get(), c.table_.Get());
  });
  if (!s.ok()) return s;
  return std::shared_ptr<const Operator>(std::move(op));
}

namespace {

// Binds the operator's tensors (and temporary/persistent resources) and records the dispatch.
void RecordOperator(Context& c, const Operator& op, ID3D12GraphicsCommandList* list,
                    const std::vector<DML_BUFFER_BINDING>& inputs,
                    const std::vector<DML_BUFFER_BINDING>& outputs) {
  std::vector<DML_BINDING_DESC> input_descs(inputs.size()), output_descs(outputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) input_descs[i] = {DML_BINDING_TYPE_BUFFER, &inputs[i]};
  for (size_t i = 0; i < outputs.size(); ++i) {
    output_descs[i] = {DML_BINDING_TYPE_BUFFER, &outputs[i]};
  }
  c.table_->BindInputs(static_cast<UINT>(input_descs.size()), input_descs.data());
  c.table_->BindOutputs(static_cast<UINT>(output_descs.size()), output_descs.data());
  DML_BUFFER_BINDING temporary = {c.temporary_.Get(), 0, op.props.TemporaryResourceSize};
  DML_BINDING_DESC temporary_desc = {DML_BINDING_TYPE_BUFFER, &temporary};
  if (op.props.TemporaryResourceSize > 0) c.table_->BindTemporaryResource(&temporary_desc);
  DML_BUFFER_BINDING persistent = {op.persistent.Get(), 0, op.props.PersistentResourceSize};
  DML_BINDING_DESC persistent_desc = {DML_BINDING_TYPE_BUFFER, &persistent};
  if (op.persistent) c.table_->BindPersistentResource(&persistent_desc);
  c.recorder_->RecordDispatch(list, op.compiled.Get(), c.table_.Get());
}

}  // namespace

Status ExecuteHost(const Operator& op, const Binding* inputs, const OutputBinding* outputs) {
  Context& c = *op.context;
  std::lock_guard<std::mutex> lock(c.mutex_);
  // Layout of the DEFAULT (and UPLOAD) buffer: inputs, then the outputs, each 256-aligned. The
  // outputs are read back into one READBACK buffer with the same relative layout.
  const size_t input_count = op.input_bytes.size(), output_count = op.output_bytes.size();
  std::vector<uint64_t> input_offsets(input_count), output_offsets(output_count);
  uint64_t total = 0;
  for (size_t i = 0; i < input_count; ++i) {
    input_offsets[i] = total;
    total = AlignUp(total + op.input_bytes[i], kRangeAlignmentBytes);
  }
  const uint64_t outputs_begin = total;
  for (size_t i = 0; i < output_count; ++i) {
    output_offsets[i] = total;
    total = AlignUp(total + op.output_bytes[i], kRangeAlignmentBytes);
  }
  const uint64_t readback_total = std::max<uint64_t>(total - outputs_begin, 1);

  Status s = c.EnsureBuffer(&c.default_, &c.default_bytes_, std::max<uint64_t>(total, 1),
                            D3D12_HEAP_TYPE_DEFAULT, D3D12_RESOURCE_STATE_COMMON,
                            D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
                            "CreateCommittedResource (default)");
  if (!s.ok()) return s;
  const uint64_t old_upload_bytes = c.upload_bytes_;
  s = c.EnsureBuffer(&c.upload_, &c.upload_bytes_, std::max<uint64_t>(total, 1),
                     D3D12_HEAP_TYPE_UPLOAD, D3D12_RESOURCE_STATE_GENERIC_READ,
                     D3D12_RESOURCE_FLAG_NONE, "CreateCommittedResource (upload)");
  if (!s.ok()) return s;
  if (c.upload_map_ == nullptr || c.upload_bytes_ != old_upload_bytes) {
    D3D12_RANGE no_read = {0, 0};
    void* mapped = nullptr;
    c.upload_map_ = nullptr;
    DMLCPU_RETURN_IF_FAILED("ID3D12Resource::Map (upload)",
                            c.upload_->Map(0, &no_read, &mapped));
    c.upload_map_ = static_cast<uint8_t*>(mapped);
  }
  s = c.EnsureBuffer(&c.readback_, &c.readback_bytes_, readback_total, D3D12_HEAP_TYPE_READBACK,
                     D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_FLAG_NONE,
                     "CreateCommittedResource (readback)");
  if (!s.ok()) return s;
  s = c.BindTable(op.compiled.Get(), std::max<uint32_t>(op.props.RequiredDescriptorCount, 1));
  if (!s.ok()) return s;

  for (size_t i = 0; i < input_count; ++i) {
    std::memcpy(c.upload_map_ + input_offsets[i], inputs[i].data, op.input_bytes[i]);
  }
  // The outputs' current bytes go up too, so elements DirectML does not write (stride gaps)
  // come back unchanged, as on the CPU backend.
  for (size_t i = 0; i < output_count; ++i) {
    std::memcpy(c.upload_map_ + output_offsets[i], outputs[i].data, op.output_bytes[i]);
  }

  std::vector<DML_BUFFER_BINDING> input_bindings(input_count), output_bindings(output_count);
  for (size_t i = 0; i < input_count; ++i) {
    input_bindings[i] = {c.default_.Get(), input_offsets[i], op.input_bytes[i]};
  }
  for (size_t i = 0; i < output_count; ++i) {
    output_bindings[i] = {c.default_.Get(), output_offsets[i], op.output_bytes[i]};
  }
  s = c.Submit([&](ID3D12GraphicsCommandList* list) {
    list->CopyBufferRegion(c.default_.Get(), 0, c.upload_.Get(), 0, total);
    D3D12_RESOURCE_BARRIER to_uav = Transition(c.default_.Get(), D3D12_RESOURCE_STATE_COPY_DEST,
                                               D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    list->ResourceBarrier(1, &to_uav);
    RecordOperator(c, op, list, input_bindings, output_bindings);
    D3D12_RESOURCE_BARRIER after[2] = {
        UavBarrier(c.default_.Get()),
        Transition(c.default_.Get(), D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
                   D3D12_RESOURCE_STATE_COPY_SOURCE)};
    list->ResourceBarrier(2, after);
    list->CopyBufferRegion(c.readback_.Get(), 0, c.default_.Get(), outputs_begin,
                           total - outputs_begin);
  });
  if (!s.ok()) return s;

  D3D12_RANGE read = {0, static_cast<SIZE_T>(total - outputs_begin)};
  void* mapped = nullptr;
  DMLCPU_RETURN_IF_FAILED("ID3D12Resource::Map (readback)", c.readback_->Map(0, &read, &mapped));
  for (size_t i = 0; i < output_count; ++i) {
    std::memcpy(outputs[i].data, static_cast<uint8_t*>(mapped) + (output_offsets[i] - outputs_begin),
                op.output_bytes[i]);
  }
  D3D12_RANGE none = {0, 0};
  c.readback_->Unmap(0, &none);
  return Status::Ok();
}

Status ExecuteNative(const Operator& op, const NativeBinding* inputs,
                     const NativeBinding* outputs) {
  Context& c = *op.context;
  std::lock_guard<std::mutex> lock(c.mutex_);
  Status s =
      c.BindTable(op.compiled.Get(), std::max<uint32_t>(op.props.RequiredDescriptorCount, 1));
  if (!s.ok()) return s;
  std::vector<DML_BUFFER_BINDING> input_bindings(op.input_bytes.size());
  std::vector<DML_BUFFER_BINDING> output_bindings(op.output_bytes.size());
  std::vector<D3D12_RESOURCE_BARRIER> barriers(op.output_bytes.size());
  for (size_t i = 0; i < input_bindings.size(); ++i) {
    input_bindings[i] = {static_cast<ID3D12Resource*>(inputs[i].resource), inputs[i].offset_bytes,
                         op.input_bytes[i]};
  }
  for (size_t i = 0; i < output_bindings.size(); ++i) {
    ID3D12Resource* out = static_cast<ID3D12Resource*>(outputs[i].resource);
    output_bindings[i] = {out, outputs[i].offset_bytes, op.output_bytes[i]};
    barriers[i] = UavBarrier(out);
  }
  return c.Submit([&](ID3D12GraphicsCommandList* list) {
    RecordOperator(c, op, list, input_bindings, output_bindings);
    list->ResourceBarrier(static_cast<UINT>(barriers.size()), barriers.data());
  });
}

}  // namespace d3d12
}  // namespace internal
}  // namespace dmlcpu
