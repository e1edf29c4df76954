// SPDX-License-Identifier: Apache-2.0
// The D3D12 backend and backend selection, without GTest (it also runs as a Windows program
// under wine). Modes:
//   d3d12: real DirectML must be present. Every worked example of
//          docs/semantics.md#worked-examples runs through Backend::kD3D12 and must give the
//          documented bytes; a bad descriptor must fail with the same message on both backends;
//          ExecuteNative on a CPU operator is refused.
//   cpu:   no DirectML (native Linux builds, or a Windows exe without DirectML.dll): kAuto must
//          report the CPU backend with a reason and run the examples correctly; kD3D12 must fail.
//   no-d3d12: as cpu, for a Windows exe (Windows builds only) run where d3d12.dll cannot be
//          loaded (wine with WINEDLLOVERRIDES=d3d12,dxgi=d): it must start, and the reason must
//          name d3d12.dll.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <string>
#include <thread>
#include <vector>

#include "dmlcpu/dmlcpu.h"
#include "dmlcpu/dmlcpu_c.h"

#if defined(_WIN32)
#define WIDL_EXPLICIT_AGGREGATE_RETURNS
#include <d3d12.h>
#endif

namespace {

int g_failures = 0;

#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (!(cond)) {                                        \
      ++g_failures;                                       \
      std::printf("FAILED %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      std::printf(__VA_ARGS__);                           \
      std::printf("\n");                                  \
    }                                                     \
  } while (0)

#if defined(DMLCPU_NO_TBB)
// An engine pool for the portable build: tasks 1.. on fresh std::threads, task 0 inline.
std::atomic<int> g_pool_calls{0};
std::atomic<int> g_pool_tasks{0};
void SpawningParallelFor(void*, uint32_t task_count, dmlcpu::TaskFn function, void* argument) {
  ++g_pool_calls;
  std::vector<std::thread> threads;
  for (uint32_t i = 1; i < task_count; ++i) {
    threads.emplace_back([=] {
      function(argument, i);
      ++g_pool_tasks;
    });
  }
  function(argument, 0);
  ++g_pool_tasks;
  for (std::thread& thread : threads) thread.join();
}
#endif

constexpr DML_TENSOR_DATA_TYPE kF32 = DML_TENSOR_DATA_TYPE_FLOAT32;
constexpr DML_TENSOR_DATA_TYPE kI32 = DML_TENSOR_DATA_TYPE_INT32;
constexpr DML_TENSOR_DATA_TYPE kU32 = DML_TENSOR_DATA_TYPE_UINT32;

// A packed tensor desc that owns its sizes.
struct Tensor {
  Tensor(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> s) : sizes(std::move(s)) {
    buffer.DataType = type;
    buffer.Flags = DML_TENSOR_FLAG_NONE;
    buffer.DimensionCount = static_cast<UINT>(sizes.size());
    buffer.Sizes = sizes.data();
    buffer.Strides = nullptr;
    buffer.TotalTensorSizeInBytes =
        dmlcpu::CalcBufferTensorSize(type, buffer.DimensionCount, sizes.data(), nullptr);
    buffer.GuaranteedBaseOffsetAlignment = 0;
    desc = {DML_TENSOR_TYPE_BUFFER, &buffer};
  }
  Tensor(const Tensor&) = delete;
  std::vector<uint32_t> sizes;
  DML_BUFFER_TENSOR_DESC buffer;
  DML_TENSOR_DESC desc;
};

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& v, uint64_t total_bytes) {
  std::vector<uint8_t> b(total_bytes, 0);
  std::memcpy(b.data(), v.data(), v.size() * sizeof(T));
  return b;
}

// Runs `desc` on `device` and compares the output's elements with `expected` (4-byte values).
template <typename T>
void Expect(const char* name, const dmlcpu::Device& device, const DML_OPERATOR_DESC& desc,
            const Tensor& in, const std::vector<uint8_t>& in_bytes, const Tensor* idx,
            const std::vector<uint8_t>& idx_bytes, const Tensor& out,
            const std::vector<T>& expected, dmlcpu::Backend expected_backend) {
  auto op = device.Compile(desc);
  CHECK(op.ok(), "%s: Compile: %s", name, op.status().message().c_str());
  if (!op.ok()) return;
  CHECK(op->backend() == expected_backend, "%s: compiled for %s", name,
        dmlcpu::BackendName(op->backend()));
  std::vector<uint8_t> got(out.buffer.TotalTensorSizeInBytes, 0xCD);
  dmlcpu::Binding inputs[2] = {{in_bytes.data(), in.buffer.TotalTensorSizeInBytes},
                               {idx_bytes.data(), idx ? idx->buffer.TotalTensorSizeInBytes : 0}};
  dmlcpu::OutputBinding output = {got.data(), got.size()};
  dmlcpu::Status s = op->Execute(inputs, idx ? 2 : 1, &output, 1);
  CHECK(s.ok(), "%s: Execute: %s", name, s.message().c_str());
  const std::vector<uint8_t> want = Bytes(expected, got.size());
  const bool same = std::memcmp(got.data(), want.data(), expected.size() * sizeof(T)) == 0;
  CHECK(same, "%s: output differs from the documented one", name);
  if (same) std::printf("ok   %s\n", name);
}

template <typename TI>
void Gather(const dmlcpu::Device& device, dmlcpu::Backend backend, const char* name,
            uint32_t axis, uint32_t k, std::vector<uint32_t> in_sizes, std::vector<float> in,
            DML_TENSOR_DATA_TYPE idx_type, std::vector<uint32_t> idx_sizes, std::vector<TI> idx,
            std::vector<uint32_t> out_sizes, std::vector<float> expected) {
  Tensor ti(kF32, in_sizes), tx(idx_type, idx_sizes), to(kF32, out_sizes);
  DML_GATHER_OPERATOR_DESC d = {&ti.desc, &tx.desc, &to.desc, axis, k};
  Expect<float>(name, device, {DML_OPERATOR_GATHER, &d}, ti,
                Bytes(in, ti.buffer.TotalTensorSizeInBytes), &tx,
                Bytes(idx, tx.buffer.TotalTensorSizeInBytes), to, expected, backend);
}

void SpecExamples(const dmlcpu::Device& device, dmlcpu::Backend backend) {
  Gather<uint32_t>(device, backend, "G1", 0, 1, {4}, {11, 12, 13, 14}, kU32, {5}, {3, 1, 3, 0, 2},
                   {5}, {14, 12, 14, 11, 13});
  Gather<uint32_t>(device, backend, "G2", 0, 1, {3, 2}, {1, 2, 3, 4, 5, 6}, kU32, {1, 4},
                   {0, 1, 1, 2}, {4, 2}, {1, 2, 3, 4, 3, 4, 5, 6});
  Gather<uint32_t>(device, backend, "G3", 1, 1, {3, 2}, {1, 2, 3, 4, 5, 6}, kU32, {1, 2}, {1, 0},
                   {3, 2}, {2, 1, 4, 3, 6, 5});
  Gather<uint32_t>(device, backend, "G4", 2, 2, {1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}, kU32,
                   {1, 1, 2}, {0, 2}, {3, 1, 2}, {1, 3, 4, 6, 7, 9});
  Gather<uint32_t>(device, backend, "G5", 1, 2, {1, 3, 2}, {1, 2, 3, 4, 5, 6}, kU32, {1, 2, 2},
                   {0, 1, 1, 2}, {2, 2, 2}, {1, 2, 3, 4, 3, 4, 5, 6});
  Gather<int32_t>(device, backend, "G6", 0, 1, {4}, {11, 12, 13, 14}, kI32, {5},
                  {-1, -4, 0, 3, -2}, {5}, {14, 11, 11, 14, 13});
  Gather<int32_t>(device, backend, "G7", 1, 0, {1, 3, 2}, {1, 2, 3, 4, 5, 6}, kI32, {1, 1, 1}, {2},
                  {1, 1, 2}, {5, 6});
  {
    Tensor ti(kF32, {3, 3}), tx(kU32, {2, 3}), to(kF32, {2, 3});
    DML_GATHER_ELEMENTS_OPERATOR_DESC d = {&ti.desc, &tx.desc, &to.desc, 0};
    Expect<float>("GE1", device, {DML_OPERATOR_GATHER_ELEMENTS, &d}, ti,
                  Bytes(std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9}, 36), &tx,
                  Bytes(std::vector<uint32_t>{1, 2, 0, 2, 0, 0}, 24), to,
                  std::vector<float>{4, 8, 3, 7, 2, 3}, backend);
  }
  {
    Tensor ti(kF32, {2, 3}), tx(kI32, {2, 2}), to(kF32, {2, 2});
    DML_GATHER_ELEMENTS_OPERATOR_DESC d = {&ti.desc, &tx.desc, &to.desc, 1};
    Expect<float>("GE2", device, {DML_OPERATOR_GATHER_ELEMENTS, &d}, ti,
                  Bytes(std::vector<float>{1, 2, 3, 4, 5, 6}, 24), &tx,
                  Bytes(std::vector<int32_t>{-1, 0, 1, -3}, 16), to,
                  std::vector<float>{3, 1, 5, 4}, backend);
  }
  {
    Tensor ti(kF32, {2, 2}), tx(kU32, {2, 1}), to(kF32, {2, 2});
    DML_GATHER_ND_OPERATOR_DESC d = {&ti.desc, &tx.desc, &to.desc, 2, 2};
    Expect<float>("ND1", device, {DML_OPERATOR_GATHER_ND, &d}, ti,
                  Bytes(std::vector<float>{0, 1, 2, 3}, 16), &tx,
                  Bytes(std::vector<uint32_t>{1, 0}, 8), to, std::vector<float>{2, 3, 0, 1},
                  backend);
    DML_GATHER_ND1_OPERATOR_DESC d1 = {&ti.desc, &tx.desc, &to.desc, 2, 2, 0};
    Expect<float>("ND1 via GATHER_ND1", device, {DML_OPERATOR_GATHER_ND1, &d1}, ti,
                  Bytes(std::vector<float>{0, 1, 2, 3}, 16), &tx,
                  Bytes(std::vector<uint32_t>{1, 0}, 8), to, std::vector<float>{2, 3, 0, 1},
                  backend);
  }
  {
    Tensor ti(kF32, {1, 2, 2, 2}), tx(kU32, {1, 1, 2, 2}), to(kF32, {1, 1, 2, 2});
    DML_GATHER_ND_OPERATOR_DESC d = {&ti.desc, &tx.desc, &to.desc, 3, 2};
    Expect<float>("ND2", device, {DML_OPERATOR_GATHER_ND, &d}, ti,
                  Bytes(std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}, 32), &tx,
                  Bytes(std::vector<uint32_t>{0, 1, 1, 0}, 16), to,
                  std::vector<float>{2, 3, 4, 5}, backend);
  }
  {
    Tensor ti(kF32, {1, 3, 2, 2}), tx(kU32, {1, 3, 2, 2}), to(kF32, {1, 1, 3, 2});
    DML_GATHER_ND1_OPERATOR_DESC d = {&ti.desc, &tx.desc, &to.desc, 3, 3, 1};
    Expect<float>("ND1 batch", device, {DML_OPERATOR_GATHER_ND1, &d}, ti,
                  Bytes(std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 48), &tx,
                  Bytes(std::vector<uint32_t>{0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0}, 48), to,
                  std::vector<float>{0, 3, 7, 4, 9, 10}, backend);
  }
  // The DirectML bugs of docs/semantics.md#observed-directml-behaviour, documented results (the
  // D3D12 backend avoids both).
  Gather<uint32_t>(device, backend, "section 12 GATHER rank 8, IndexDimensions 2", 0, 2,
                   {2, 1, 1, 1, 1, 1, 1, 3}, {0, 1, 2, 3, 4, 5}, kU32, {1, 1, 1, 1, 1, 1, 1, 2},
                   {1, 0}, {2, 1, 1, 1, 1, 1, 1, 3}, {3, 4, 5, 0, 1, 2});
  {
    std::vector<uint32_t> offsets = {0, 0}, sizes = {2, 3};
    std::vector<int32_t> strides = {1, 1};
    Tensor ti(kF32, {2, 3}), to(kF32, {2, 2});
    DML_SLICE1_OPERATOR_DESC d = {&ti.desc, &to.desc, 2, offsets.data(), sizes.data(),
                                  strides.data()};
    Expect<float>("section 12 SLICE1 output smaller than its window", device,
                  {DML_OPERATOR_SLICE1, &d}, ti,
                  Bytes(std::vector<float>{0, 1, 2, 3, 4, 5}, 24), nullptr, {}, to,
                  std::vector<float>{0, 1, 3, 4}, backend);
  }
  std::vector<float> sixteen;
  for (int i = 1; i <= 16; ++i) sixteen.push_back(static_cast<float>(i));
  struct SliceVector {
    const char* name;
    std::vector<uint32_t> offsets, sizes, strides;
    std::vector<float> expected;
  };
  for (const SliceVector& v : {SliceVector{"SL1", {0, 0, 1, 2}, {1, 1, 3, 2}, {1, 1, 1, 1},
                                           {7, 8, 11, 12, 15, 16}},
                               SliceVector{"SL2", {0, 0, 1, 0}, {1, 1, 2, 2}, {1, 1, 2, 3},
                                           {5, 8, 13, 16}}}) {
    Tensor ti(kF32, {1, 1, 4, 4}), to(kF32, v.sizes);
    DML_SLICE_OPERATOR_DESC d = {&ti.desc, &to.desc, 4, v.offsets.data(), v.sizes.data(),
                                 v.strides.data()};
    Expect<float>(v.name, device, {DML_OPERATOR_SLICE, &d}, ti, Bytes(sixteen, 64), nullptr, {},
                  to, v.expected, backend);
  }
  struct Slice1Vector {
    const char* name;
    std::vector<int32_t> strides;
    std::vector<float> expected;
  };
  for (const Slice1Vector& v : {Slice1Vector{"S1 positive", {1, 1, 2, 2}, {2, 4, 10, 12}},
                                Slice1Vector{"S1 negative stride", {1, 1, -2, 2},
                                             {14, 16, 6, 8}}}) {
    std::vector<uint32_t> offsets = {0, 0, 0, 1}, sizes = {1, 1, 4, 3};
    Tensor ti(kF32, {1, 1, 4, 4}), to(kF32, {1, 1, 2, 2});
    DML_SLICE1_OPERATOR_DESC d = {&ti.desc, &to.desc, 4, offsets.data(), sizes.data(),
                                  v.strides.data()};
    Expect<float>(v.name, device, {DML_OPERATOR_SLICE1, &d}, ti, Bytes(sixteen, 64), nullptr, {},
                  to, v.expected, backend);
  }
}

// The same malformed descriptor gives the same message on both backends (shared validation).
void SharedValidation(const dmlcpu::Device& device) {
  const dmlcpu::Device cpu(dmlcpu::DeviceOptions{1, nullptr});
  Tensor ti(kF32, {3, 2}), tx(kU32, {1, 2}), to(kF32, {3, 2});
  DML_GATHER_OPERATOR_DESC d = {&ti.desc, &tx.desc, &to.desc, 1, 2};  // doc's G3 with k = 2
  auto a = cpu.Compile({DML_OPERATOR_GATHER, &d});
  auto b = device.Compile({DML_OPERATOR_GATHER, &d});
  CHECK(!a.ok() && !b.ok(), "G3 with k = 2 must be rejected");
  if (!a.ok() && !b.ok()) {
    CHECK(a.status().message() == b.status().message() && a.status().code() == b.status().code(),
          "messages differ: '%s' vs '%s'", a.status().message().c_str(),
          b.status().message().c_str());
    std::printf("ok   shared validation: %s\n", b.status().message().c_str());
  }
}

#if defined(_WIN32)
// A caller that lives on the GPU: its own D3D12 device and queue adopted by the Device, and
// ExecuteNative on its own DEFAULT-heap buffers (no copies by dmlcpu). G1 through that path, with
// the device and queue and with the queue alone; a queue with another device is refused.
void AdoptedDeviceAndNativeBuffers() {
  ID3D12Device* d3d = nullptr;
  ID3D12CommandQueue* queue = nullptr;
  D3D12_COMMAND_QUEUE_DESC queue_desc = {};
  queue_desc.Type = D3D12_COMMAND_LIST_TYPE_COMPUTE;
  // Loaded like dmlcpu.dll loads it, so that this program starts where d3d12.dll is absent.
  using CreateDeviceFn = decltype(&::D3D12CreateDevice);
  const HMODULE d3d12 = LoadLibraryW(L"d3d12.dll");
  const auto create_device =
      d3d12 == nullptr ? nullptr
                       : reinterpret_cast<CreateDeviceFn>(
                             reinterpret_cast<void*>(GetProcAddress(d3d12, "D3D12CreateDevice")));
  CHECK(create_device != nullptr, "d3d12.dll's D3D12CreateDevice");
  if (create_device == nullptr) return;
  bool ok = SUCCEEDED(create_device(nullptr, D3D_FEATURE_LEVEL_11_0, __uuidof(ID3D12Device),
                                    reinterpret_cast<void**>(&d3d))) &&
            SUCCEEDED(d3d->CreateCommandQueue(&queue_desc, __uuidof(ID3D12CommandQueue),
                                              reinterpret_cast<void**>(&queue)));
  CHECK(ok, "D3D12CreateDevice / CreateCommandQueue");
  if (!ok) return;
  dmlcpu::DeviceOptions options;
  options.max_threads = 1;
  options.backend = dmlcpu::Backend::kD3D12;
  options.d3d12_device = d3d;
  options.d3d12_queue = queue;
  auto device = dmlcpu::Device::Create(options);
  CHECK(device.ok(), "adopted device: %s", device.status().message().c_str());
  if (!device.ok()) return;

  // One DEFAULT buffer: input at 0, indices at 256, output at 512; staged through UPLOAD and
  // READBACK buffers with the test's own command list.
  const float input[4] = {11, 12, 13, 14};
  const uint32_t indices[5] = {3, 1, 3, 0, 2};
  const float expected[5] = {14, 12, 14, 11, 13};
  auto make_buffer = [&](D3D12_HEAP_TYPE heap_type, D3D12_RESOURCE_STATES state,
                         D3D12_RESOURCE_FLAGS flags) {
    D3D12_HEAP_PROPERTIES heap = {};
    heap.Type = heap_type;
    D3D12_RESOURCE_DESC desc = {};
    desc.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    desc.Width = 1024;
    desc.Height = 1;
    desc.DepthOrArraySize = 1;
    desc.MipLevels = 1;
    desc.SampleDesc.Count = 1;
    desc.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    desc.Flags = flags;
    ID3D12Resource* r = nullptr;
    d3d->CreateCommittedResource(&heap, D3D12_HEAP_FLAG_NONE, &desc, state, nullptr,
                                 __uuidof(ID3D12Resource), reinterpret_cast<void**>(&r));
    return r;
  };
  ID3D12Resource* gpu = make_buffer(D3D12_HEAP_TYPE_DEFAULT, D3D12_RESOURCE_STATE_COMMON,
                                    D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
  ID3D12Resource* up = make_buffer(D3D12_HEAP_TYPE_UPLOAD, D3D12_RESOURCE_STATE_GENERIC_READ,
                                   D3D12_RESOURCE_FLAG_NONE);
  ID3D12Resource* down = make_buffer(D3D12_HEAP_TYPE_READBACK, D3D12_RESOURCE_STATE_COPY_DEST,
                                     D3D12_RESOURCE_FLAG_NONE);
  CHECK(gpu && up && down, "CreateCommittedResource");
  if (!gpu || !up || !down) return;
  uint8_t* mapped = nullptr;
  up->Map(0, nullptr, reinterpret_cast<void**>(&mapped));
  std::memset(mapped, 0xCD, 1024);
  std::memcpy(mapped, input, sizeof(input));
  std::memcpy(mapped + 256, indices, sizeof(indices));
  up->Unmap(0, nullptr);
  ID3D12CommandAllocator* allocator = nullptr;
  ID3D12GraphicsCommandList* list = nullptr;
  ID3D12Fence* fence = nullptr;
  d3d->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_COMPUTE, __uuidof(ID3D12CommandAllocator),
                              reinterpret_cast<void**>(&allocator));
  d3d->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_COMPUTE, allocator, nullptr,
                         __uuidof(ID3D12GraphicsCommandList), reinterpret_cast<void**>(&list));
  d3d->CreateFence(0, D3D12_FENCE_FLAG_NONE, __uuidof(ID3D12Fence),
                   reinterpret_cast<void**>(&fence));
  HANDLE event = CreateEventW(nullptr, FALSE, FALSE, nullptr);
  uint64_t fence_value = 0;
  auto submit = [&] {
    list->Close();
    ID3D12CommandList* lists[] = {list};
    queue->ExecuteCommandLists(1, lists);
    queue->Signal(fence, ++fence_value);
    fence->SetEventOnCompletion(fence_value, event);
    WaitForSingleObject(event, INFINITE);
    allocator->Reset();
    list->Reset(allocator, nullptr);
  };
  // G1 on `adopted` through ExecuteNative on the caller's buffer.
  auto run_g1 = [&](const dmlcpu::Device& adopted, const char* how) {
    Tensor ti(kF32, {4}), tx(kU32, {5}), to(kF32, {5});
    DML_GATHER_OPERATOR_DESC d = {&ti.desc, &tx.desc, &to.desc, 0, 1};
    auto op = adopted.Compile({DML_OPERATOR_GATHER, &d});
    CHECK(op.ok(), "compile (%s): %s", how, op.status().message().c_str());
    if (!op.ok()) return;
    list->CopyBufferRegion(gpu, 0, up, 0, 1024);
    submit();  // the buffer decays back to COMMON, promotable to UNORDERED_ACCESS
    const dmlcpu::NativeBinding in[2] = {{gpu, 0, 16}, {gpu, 256, 20}};
    const dmlcpu::NativeBinding out = {gpu, 512, 20};
    dmlcpu::Status s = op->ExecuteNative(in, 2, &out, 1);
    CHECK(s.ok(), "ExecuteNative (%s): %s", how, s.message().c_str());
    list->CopyBufferRegion(down, 0, gpu, 0, 1024);
    submit();
    down->Map(0, nullptr, reinterpret_cast<void**>(&mapped));
    const bool same = std::memcmp(mapped + 512, expected, sizeof(expected)) == 0 &&
                      mapped[512 + sizeof(expected)] == 0xCD;
    down->Unmap(0, nullptr);
    CHECK(same, "ExecuteNative output differs from G1 (%s)", how);
    if (same) std::printf("ok   G1 via %s and ExecuteNative\n", how);
  };
  run_g1(*device, "an adopted device/queue");

  // A queue alone brings its own device, so the caller's buffers bind on it.
  options.d3d12_device = nullptr;
  auto from_queue = dmlcpu::Device::Create(options);
  CHECK(from_queue.ok(), "adopted queue alone: %s", from_queue.status().message().c_str());
  if (from_queue.ok()) {
    CHECK(from_queue->backend_reason().find("caller's queue") != std::string::npos,
          "adopted queue alone: reason '%s'", from_queue->backend_reason().c_str());
    run_g1(*from_queue, "an adopted queue alone");
  }

  // A queue given with another device than its own is refused (where D3D12 gives a second
  // device; it may return the adapter's one device again).
  ID3D12Device* other = nullptr;
  if (SUCCEEDED(create_device(nullptr, D3D_FEATURE_LEVEL_11_0, __uuidof(ID3D12Device),
                              reinterpret_cast<void**>(&other)))) {
    IUnknown* identity_a = nullptr;
    IUnknown* identity_b = nullptr;
    d3d->QueryInterface(__uuidof(IUnknown), reinterpret_cast<void**>(&identity_a));
    other->QueryInterface(__uuidof(IUnknown), reinterpret_cast<void**>(&identity_b));
    if (identity_a != nullptr && identity_b != nullptr && identity_a != identity_b) {
      options.d3d12_device = other;
      for (const dmlcpu::Backend backend : {dmlcpu::Backend::kD3D12, dmlcpu::Backend::kAuto}) {
        options.backend = backend;
        auto mismatched = dmlcpu::Device::Create(options);
        CHECK(!mismatched.ok() &&
                  mismatched.status().code() == dmlcpu::StatusCode::kInvalidArgument &&
                  mismatched.status().message().find("d3d12_queue") != std::string::npos,
              "%s: a queue of another device must be refused",
              dmlcpu::BackendName(backend));
        if (!mismatched.ok()) {
          std::printf("ok   %s refused: %s\n", dmlcpu::BackendName(backend),
                      mismatched.status().message().c_str());
        }
      }
    } else {
      std::printf("note D3D12CreateDevice gave the same device again: mismatch not checked\n");
    }
    if (identity_a != nullptr) identity_a->Release();
    if (identity_b != nullptr) identity_b->Release();
    other->Release();
  }
  CloseHandle(event);
  for (IUnknown* u : std::initializer_list<IUnknown*>{fence, list, allocator, down, up, gpu}) {
    u->Release();
  }
  queue->Release();
  d3d->Release();
}
#endif

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "cpu";
  dmlcpu::DeviceOptions options;
  options.max_threads = 1;
  options.backend = dmlcpu::Backend::kAuto;
  const dmlcpu::Device automatic(options);
  std::printf("kAuto chose %s: %s\n", dmlcpu::BackendName(automatic.backend()),
              automatic.backend_reason().c_str());

  dmlcpu_device_options c_options = {};
  c_options.struct_size = sizeof(c_options);
  c_options.max_threads = 1;
  c_options.backend = DMLCPU_BACKEND_AUTO;
  dmlcpu_device* c_device = nullptr;
  CHECK(dmlcpu_device_create_ex(&c_options, &c_device) == DMLCPU_OK, "create_ex: %s",
        dmlcpu_last_error_message());
  std::printf("C ABI AUTO chose %d: %s\n", static_cast<int>(dmlcpu_device_backend(c_device)),
              dmlcpu_device_backend_reason(c_device));
#if defined(DMLCPU_NO_TBB)
  // This portable build's own executor is serial: every device without an engine pool, all
  // CPUs or 4 threads asked, reports 1 thread.
  const dmlcpu::Device all_cores{dmlcpu::DeviceOptions{}};
  const dmlcpu::Device four{dmlcpu::DeviceOptions{4, nullptr}};
  CHECK(all_cores.max_concurrency() == 1 && four.max_concurrency() == 1,
        "portable build: max_concurrency() %u and %u", all_cores.max_concurrency(),
        four.max_concurrency());
  // With an engine pool it runs in parallel: 512 KiB of GATHER output in 2..4 tasks.
  {
    dmlcpu::DeviceOptions pool_options;
    pool_options.max_threads = 4;
    pool_options.parallel_for = &SpawningParallelFor;
    const dmlcpu::Device pooled(pool_options);
    CHECK(pooled.max_concurrency() == 4, "pooled max_concurrency() %u", pooled.max_concurrency());
    Tensor in(kF32, {1024, 64}), idx(kU32, {1, 2048}), out(kF32, {2048, 64});
    DML_GATHER_OPERATOR_DESC gather = {&in.desc, &idx.desc, &out.desc, 0, 1};
    const DML_OPERATOR_DESC desc = {DML_OPERATOR_GATHER, &gather};
    std::vector<float> input(1024 * 64), output(2048 * 64, -1.0f);
    std::vector<uint32_t> indices(2048);
    for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i);
    for (size_t i = 0; i < indices.size(); ++i) indices[i] = static_cast<uint32_t>(i * 7919 % 1024);
    auto op = pooled.Compile(desc);
    CHECK(op.ok(), "pooled compile: %s", op.status().message().c_str());
    if (op.ok()) {
      const dmlcpu::Status s =
          op->Execute({{input.data(), input.size() * 4}, {indices.data(), indices.size() * 4}},
                      {{output.data(), output.size() * 4}});
      CHECK(s.ok(), "pooled execute: %s", s.message().c_str());
      bool same = true;
      for (size_t r = 0; r < 2048; ++r) {
        for (size_t c = 0; c < 64; ++c) same &= output[r * 64 + c] == input[indices[r] * 64 + c];
      }
      CHECK(same, "pooled GATHER output differs from the gathered rows");
      CHECK(g_pool_calls.load() >= 1 && g_pool_tasks.load() >= 2 * g_pool_calls.load() &&
                g_pool_tasks.load() <= 4 * g_pool_calls.load(),
            "pool calls %d, tasks %d", g_pool_calls.load(), g_pool_tasks.load());
      std::printf("ok   portable build on an engine pool: %d calls, %d tasks\n",
                  g_pool_calls.load(), g_pool_tasks.load());
    }
  }
#endif

  if (mode == "cpu" || mode == "no-d3d12") {
    CHECK(automatic.backend() == dmlcpu::Backend::kCpu, "kAuto chose %s",
          dmlcpu::BackendName(automatic.backend()));
    CHECK(automatic.backend_reason().rfind("kAuto: ", 0) == 0, "reason '%s'",
          automatic.backend_reason().c_str());
    // Without d3d12.dll (mode no-d3d12) the library still loads; the reason names the DLL.
    CHECK(mode != "no-d3d12" ||
              automatic.backend_reason().find("LoadLibrary(d3d12.dll)") != std::string::npos,
          "reason '%s' does not name d3d12.dll", automatic.backend_reason().c_str());
    CHECK(dmlcpu_device_backend(c_device) == DMLCPU_BACKEND_CPU, "C ABI AUTO not CPU");
    SpecExamples(automatic, dmlcpu::Backend::kCpu);
    options.backend = dmlcpu::Backend::kD3D12;
    auto d3d12 = dmlcpu::Device::Create(options);
    CHECK(!d3d12.ok() && d3d12.status().code() == dmlcpu::StatusCode::kUnsupported,
          "kD3D12 without DirectML or D3D12 must fail");
    if (!d3d12.ok()) std::printf("ok   kD3D12 refused: %s\n", d3d12.status().message().c_str());
    c_options.backend = DMLCPU_BACKEND_D3D12;
    dmlcpu_device* refused = nullptr;
    CHECK(dmlcpu_device_create_ex(&c_options, &refused) == DMLCPU_UNSUPPORTED && !refused,
          "C ABI D3D12 without DirectML or D3D12 must fail");
  } else {
    options.backend = dmlcpu::Backend::kD3D12;
    auto d3d12 = dmlcpu::Device::Create(options);
    CHECK(d3d12.ok(), "kD3D12: %s", d3d12.status().message().c_str());
    if (d3d12.ok()) {
      std::printf("kD3D12: %s\n", d3d12->backend_reason().c_str());
      SpecExamples(*d3d12, dmlcpu::Backend::kD3D12);
      SharedValidation(*d3d12);
      // kAuto on this machine: D3D12 when its adapter counts as hardware; either way it runs.
      SpecExamples(automatic, automatic.backend());
      const dmlcpu::Device cpu(dmlcpu::DeviceOptions{1, nullptr});
      Tensor ti(kF32, {4}), tx(kU32, {1}), to(kF32, {1});
      DML_GATHER_OPERATOR_DESC d = {&ti.desc, &tx.desc, &to.desc, 0, 1};
      auto op = cpu.Compile({DML_OPERATOR_GATHER, &d});
      dmlcpu::NativeBinding nb[2] = {{nullptr, 0, 16}, {nullptr, 0, 4}};
      CHECK(op.ok() && op->ExecuteNative(nb, 2, nb, 1).code() == dmlcpu::StatusCode::kUnsupported,
            "ExecuteNative on a CPU operator must be refused");
#if defined(_WIN32)
      AdoptedDeviceAndNativeBuffers();
#endif
    }
  }
  if (c_device != nullptr) {
    // The C ABI's operator queries: the backend it compiled for, and ExecuteNative refused on
    // the CPU backend.
    Tensor ti(kF32, {4}), tx(kU32, {1}), to(kF32, {1});
    DML_GATHER_OPERATOR_DESC d = {&ti.desc, &tx.desc, &to.desc, 0, 1};
    const DML_OPERATOR_DESC desc = {DML_OPERATOR_GATHER, &d};
    dmlcpu_operator* c_op = nullptr;
    CHECK(dmlcpu_compile(c_device, &desc, DMLCPU_INDEX_CLAMP, &c_op) == DMLCPU_OK, "C compile: %s",
          dmlcpu_last_error_message());
    CHECK(dmlcpu_operator_backend(c_op) == dmlcpu_device_backend(c_device),
          "C ABI operator backend");
    if (dmlcpu_operator_backend(c_op) == DMLCPU_BACKEND_CPU) {
      const dmlcpu_native_binding nb[2] = {{nullptr, 0, 16}, {nullptr, 0, 4}};
      CHECK(dmlcpu_execute_native(c_op, nb, 2, nb, 1) == DMLCPU_UNSUPPORTED,
            "C ABI execute_native on a CPU operator must be refused");
    }
    dmlcpu_operator_destroy(c_op);
  }
  dmlcpu_device_destroy(c_device);
  std::printf("%s: %d failure(s)\n", g_failures ? "FAILED" : "PASSED", g_failures);
  return g_failures ? 1 : 0;
}
