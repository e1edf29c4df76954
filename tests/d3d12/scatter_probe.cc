// SPDX-License-Identifier: Apache-2.0
// Asks real DirectML (Windows builds, under wine: scripts/run_crosscheck.sh's setup) what
// SCATTER and SCATTER_ND do with out-of-range indices, for docs/semantics.md#scatter-and-scatter_nd.
// Prints one line per probe: the output after scattering 100, 101, ... into 0, 1, 2, ...
//   scatter_probe.exe
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "dmlcpu/dmlcpu.h"

namespace {

struct Tensor {
  std::vector<uint32_t> sizes;
  DML_BUFFER_TENSOR_DESC buffer = {};
  DML_TENSOR_DESC desc = {};
  Tensor(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> s) : sizes(std::move(s)) {
    buffer.DataType = type;
    buffer.DimensionCount = static_cast<uint32_t>(sizes.size());
    buffer.Sizes = sizes.data();
    buffer.TotalTensorSizeInBytes =
        dmlcpu::CalcBufferTensorSize(type, buffer.DimensionCount, sizes.data(), nullptr);
    desc = {DML_TENSOR_TYPE_BUFFER, &buffer};
  }
};

void Probe(const dmlcpu::Device& device, const char* what, bool nd,
           std::vector<uint32_t> in_sizes, std::vector<uint32_t> idx_sizes,
           std::vector<uint32_t> upd_sizes, uint32_t attr0, uint32_t attr1,
           std::vector<int32_t> indices) {
  Tensor in(DML_TENSOR_DATA_TYPE_INT32, in_sizes), idx(DML_TENSOR_DATA_TYPE_INT32, idx_sizes),
      upd(DML_TENSOR_DATA_TYPE_INT32, upd_sizes), out(DML_TENSOR_DATA_TYPE_INT32, in_sizes);
  DML_SCATTER_OPERATOR_DESC e = {&in.desc, &idx.desc, &upd.desc, &out.desc, attr0};
  DML_SCATTER_ND_OPERATOR_DESC n = {&in.desc, &idx.desc, &upd.desc, &out.desc, attr0, attr1};
  DML_OPERATOR_DESC desc = nd ? DML_OPERATOR_DESC{DML_OPERATOR_SCATTER_ND, &n}
                              : DML_OPERATOR_DESC{DML_OPERATOR_SCATTER, &e};
  auto op = device.Compile(desc);
  if (!op.ok()) {
    std::printf("%s: compile failed: %s\n", what, op.status().message().c_str());
    return;
  }
  std::vector<int32_t> input(in.buffer.TotalTensorSizeInBytes / 4), output(input.size(), -1);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<int32_t>(i);
  std::vector<int32_t> updates(upd.buffer.TotalTensorSizeInBytes / 4);
  for (size_t i = 0; i < updates.size(); ++i) updates[i] = 100 + static_cast<int32_t>(i);
  indices.resize(idx.buffer.TotalTensorSizeInBytes / 4);
  dmlcpu::Status s = op->Execute({{input.data(), input.size() * 4},
                                  {indices.data(), indices.size() * 4},
                                  {updates.data(), updates.size() * 4}},
                                 {{output.data(), output.size() * 4}});
  std::string text;
  for (int32_t v : output) text += std::to_string(v) + " ";
  std::printf("%s: %s%s\n", what, s.ok() ? "" : s.message().c_str(), text.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  dmlcpu::DeviceOptions options;
  options.backend = (argc > 1 && std::strcmp(argv[1], "cpu") == 0) ? dmlcpu::Backend::kCpu
                                                                    : dmlcpu::Backend::kD3D12;
  auto device = dmlcpu::Device::Create(options);
  if (!device.ok()) {
    std::printf("no device: %s\n", device.status().message().c_str());
    return 1;
  }
  std::printf("backend %s\n", dmlcpu::BackendName(device->backend()));
  // In range first (must match the CPU), then the out-of-range probes.
  Probe(*device, "SCATTER {4} idx [3,0]", false, {4}, {2}, {2}, 0, 0, {3, 0});
  Probe(*device, "SCATTER {4} idx [9,1]", false, {4}, {2}, {2}, 0, 0, {9, 1});
  Probe(*device, "SCATTER {4} idx [-1,-5]", false, {4}, {2}, {2}, 0, 0, {-1, -5});
  Probe(*device, "SCATTER {4} idx [4,-9]", false, {4}, {2}, {2}, 0, 0, {4, -9});
  Probe(*device, "SCATTER {3,4} axis 1 idx [[5],[6],[-6]]", false, {3, 4}, {3, 1}, {3, 1}, 1, 0,
        {5, 6, -6});
  Probe(*device, "SCATTER {3,4} axis 0 idx [[3,4,7,-4]]", false, {3, 4}, {1, 4}, {1, 4}, 0, 0,
        {3, 4, 7, -4});
  Probe(*device, "SCATTER_ND {3,4} tuples (0,5) (1,-5) (3,0)", true, {3, 4}, {3, 2}, {1, 3}, 2,
        2, {0, 5, 1, -5, 3, 0});
  Probe(*device, "SCATTER_ND {3,4} rows (3) (-4) (1)", true, {3, 4}, {3, 1}, {3, 4}, 2, 2,
        {3, -4, 1});
  return 0;
}
