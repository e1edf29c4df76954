// SPDX-License-Identifier: Apache-2.0
// Asks real DirectML (Windows builds, under wine: scripts/run_crosscheck.sh's setup) what
// SCATTER and SCATTER_ND do with out-of-range indices, for docs/semantics.md#scatter-and-scatter_nd.
// Prints one line per probe: the output after scattering 100, 101, ... into 0, 1, 2, ...
//   scatter_probe.exe               the out-of-range probes
//   scatter_probe.exe crosscheck N  N seeded random in-range cases without duplicates (SCATTER
//                                   and SCATTER_ND, ranks 1-5, 1/2/4/8-byte types, the four
//                                   index types, negative indices, strided inputs and outputs)
//                                   through DirectML and the CPU backend: byte-identical outputs
#include <algorithm>
#include <cstdio>
#include <random>
#include <cstdlib>
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

struct RandomTensor {
  std::vector<uint32_t> sizes, strides;
  DML_BUFFER_TENSOR_DESC buffer = {};
  DML_TENSOR_DESC desc = {};
  void Set(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> s, std::mt19937_64& rng,
           bool strided) {
    sizes = std::move(s);
    strides.clear();
    if (strided) {  // row-major with a gap after some dimensions
      strides.resize(sizes.size());
      uint32_t extent = 1;
      for (size_t d = sizes.size(); d-- > 0;) {
        strides[d] = extent + static_cast<uint32_t>(rng() % 2);
        extent = strides[d] * sizes[d];
      }
    }
    buffer.DataType = type;
    buffer.DimensionCount = static_cast<uint32_t>(sizes.size());
    buffer.Sizes = sizes.data();
    buffer.Strides = strides.empty() ? nullptr : strides.data();
    buffer.TotalTensorSizeInBytes = dmlcpu::CalcBufferTensorSize(
        type, buffer.DimensionCount, sizes.data(), buffer.Strides);
    desc = {DML_TENSOR_TYPE_BUFFER, &buffer};
  }
  // Byte offset of row-major element e.
  uint64_t Offset(uint64_t e, uint32_t width) const {
    uint64_t off = 0, stride = 1;
    for (size_t d = sizes.size(); d-- > 0;) {
      const uint64_t c = e % sizes[d];
      e /= sizes[d];
      off += c * (strides.empty() ? stride : strides[d]);
      stride *= sizes[d];
    }
    return off * width;
  }
  uint64_t Count() const {
    uint64_t n = 1;
    for (uint32_t v : sizes) n *= v;
    return n;
  }
};

void StoreIndex(std::vector<uint8_t>* bytes, uint64_t offset, int64_t v, uint32_t width) {
  if (width == 4) {
    const auto w = static_cast<uint32_t>(v);
    std::memcpy(bytes->data() + offset, &w, 4);
  } else {
    std::memcpy(bytes->data() + offset, &v, 8);
  }
}

// One random in-range case without duplicate destinations; false when the backends differ.
bool CrossCheckOne(const dmlcpu::Device& dml, const dmlcpu::Device& cpu, uint64_t seed) {
  std::mt19937_64 rng(seed);
  static const DML_TENSOR_DATA_TYPE kTypes[] = {
      DML_TENSOR_DATA_TYPE_INT8,   DML_TENSOR_DATA_TYPE_UINT16, DML_TENSOR_DATA_TYPE_INT32,
      DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT64,  DML_TENSOR_DATA_TYPE_FLOAT64};
  static const DML_TENSOR_DATA_TYPE kIndexTypes[] = {
      DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_INT64,
      DML_TENSOR_DATA_TYPE_UINT64};
  const DML_TENSOR_DATA_TYPE type = kTypes[rng() % 6];
  const DML_TENSOR_DATA_TYPE itype = kIndexTypes[rng() % 4];
  const bool is_signed = itype == DML_TENSOR_DATA_TYPE_INT32 || itype == DML_TENSOR_DATA_TYPE_INT64;
  const uint32_t width = dmlcpu::CalcBufferTensorSize(type, 1, std::vector<uint32_t>{4}.data(),
                                                      nullptr) / 4;
  const uint32_t iwidth = (itype == DML_TENSOR_DATA_TYPE_INT32 || itype == DML_TENSOR_DATA_TYPE_UINT32) ? 4 : 8;
  const uint32_t n = 1 + static_cast<uint32_t>(rng() % 5);
  const bool nd = rng() % 2;
  std::vector<uint32_t> in_sizes(n);
  for (auto& v : in_sizes) v = 1 + static_cast<uint32_t>(rng() % 5);
  RandomTensor in, idx, upd, out;
  std::vector<int64_t> values;  // row-major index values
  DML_SCATTER_OPERATOR_DESC e = {};
  DML_SCATTER_ND_OPERATOR_DESC nd_desc = {};
  std::string text;
  if (!nd) {
    const uint32_t axis = static_cast<uint32_t>(rng() % n);
    std::vector<uint32_t> idx_sizes = in_sizes;
    idx_sizes[axis] = 1 + static_cast<uint32_t>(rng() % in_sizes[axis]);  // <= D: no duplicates
    idx.Set(itype, idx_sizes, rng, rng() % 3 == 0);
    upd.Set(type, idx_sizes, rng, rng() % 3 == 0);
    // Per line along the axis: a prefix of a random permutation of [0, D).
    values.assign(idx.Count(), 0);
    uint64_t inner = 1;
    for (uint32_t d = axis + 1; d < n; ++d) inner *= idx_sizes[d];
    const uint64_t k = idx_sizes[axis], outer = idx.Count() / (k * inner);
    for (uint64_t o = 0; o < outer; ++o) {
      for (uint64_t i = 0; i < inner; ++i) {
        std::vector<int64_t> perm(in_sizes[axis]);
        for (size_t p = 0; p < perm.size(); ++p) perm[p] = static_cast<int64_t>(p);
        std::shuffle(perm.begin(), perm.end(), rng);
        for (uint64_t a = 0; a < k; ++a) {
          int64_t v = perm[a];
          if (is_signed && rng() % 2) v -= in_sizes[axis];
          values[(o * k + a) * inner + i] = v;
        }
      }
    }
    e.Axis = axis;
    text = "SCATTER axis " + std::to_string(axis);
  } else {
    const uint32_t r = 1 + static_cast<uint32_t>(rng() % n);
    for (uint32_t i = 0; i + r < n; ++i) in_sizes[i] = 1;
    const uint32_t t = 1 + static_cast<uint32_t>(rng() % r);
    uint64_t positions = 1;
    for (uint32_t j = 0; j < t; ++j) positions *= in_sizes[n - r + j];
    const uint32_t q = std::min<uint32_t>(n, 2);  // a 1-D grid of tuples
    const uint32_t count = 1 + static_cast<uint32_t>(rng() % positions);  // distinct tuples
    if ((q - 1) + (r - t) > n) return true;
    std::vector<uint32_t> idx_sizes(n, 1);
    if (q == 2) idx_sizes[n - 2] = count;
    idx_sizes[n - 1] = t;
    const uint32_t tuples = q == 2 ? count : 1;
    const uint32_t m = (q - 1) + (r - t);
    std::vector<uint32_t> upd_sizes(n - m, 1);
    if (q == 2) upd_sizes.push_back(count);
    for (uint32_t i = n - r + t; i < n; ++i) upd_sizes.push_back(in_sizes[i]);
    idx.Set(itype, idx_sizes, rng, rng() % 3 == 0);
    upd.Set(type, upd_sizes, rng, rng() % 3 == 0);
    std::vector<uint64_t> flat(positions);
    for (uint64_t p = 0; p < positions; ++p) flat[p] = p;
    std::shuffle(flat.begin(), flat.end(), rng);
    for (uint32_t tu = 0; tu < tuples; ++tu) {
      uint64_t p = flat[tu];
      std::vector<int64_t> tuple(t);
      for (uint32_t j = t; j-- > 0;) {
        const uint32_t dim = in_sizes[n - r + j];
        tuple[j] = static_cast<int64_t>(p % dim);
        p /= dim;
        if (is_signed && rng() % 2) tuple[j] -= dim;
      }
      values.insert(values.end(), tuple.begin(), tuple.end());
    }
    nd_desc.InputDimensionCount = r;
    nd_desc.IndicesDimensionCount = q;
    text = "SCATTER_ND r " + std::to_string(r) + " q " + std::to_string(q) + " t " +
           std::to_string(t);
  }
  in.Set(type, in_sizes, rng, rng() % 3 == 0);
  out.Set(type, in_sizes, rng, rng() % 3 == 0);
  e.InputTensor = nd_desc.InputTensor = &in.desc;
  e.IndicesTensor = nd_desc.IndicesTensor = &idx.desc;
  e.UpdatesTensor = nd_desc.UpdatesTensor = &upd.desc;
  e.OutputTensor = nd_desc.OutputTensor = &out.desc;
  const DML_OPERATOR_DESC desc = nd ? DML_OPERATOR_DESC{DML_OPERATOR_SCATTER_ND, &nd_desc}
                                    : DML_OPERATOR_DESC{DML_OPERATOR_SCATTER, &e};
  std::vector<uint8_t> input(in.buffer.TotalTensorSizeInBytes), updates(upd.buffer.TotalTensorSizeInBytes),
      indices(idx.buffer.TotalTensorSizeInBytes, 0);
  for (auto& b : input) b = static_cast<uint8_t>(rng() % 0x7F);  // finite floats, no sentinel
  for (auto& b : updates) b = static_cast<uint8_t>(rng() % 0x7F);
  for (uint64_t i = 0; i < values.size(); ++i) StoreIndex(&indices, idx.Offset(i, iwidth), values[i], iwidth);
  std::vector<uint8_t> results[2];
  const dmlcpu::Device* devices[2] = {&dml, &cpu};
  for (int k = 0; k < 2; ++k) {
    auto op = devices[k]->Compile(desc);
    if (!op.ok()) {
      std::printf("case %llu %s: compile failed: %s\n", static_cast<unsigned long long>(seed),
                  text.c_str(), op.status().message().c_str());
      return false;
    }
    results[k].assign(out.buffer.TotalTensorSizeInBytes, 0xCD);
    const dmlcpu::Status s = op->Execute(
        {{input.data(), input.size()}, {indices.data(), indices.size()},
         {updates.data(), updates.size()}},
        {{results[k].data(), results[k].size()}});
    if (!s.ok()) {
      std::printf("case %llu %s: execute failed: %s\n", static_cast<unsigned long long>(seed),
                  text.c_str(), s.message().c_str());
      return false;
    }
  }
  if (results[0] != results[1]) {
    std::printf("case %llu %s width %u: DirectML and the CPU differ\n",
                static_cast<unsigned long long>(seed), text.c_str(), width);
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2 && std::strcmp(argv[1], "crosscheck") == 0) {
    dmlcpu::DeviceOptions d3d12;
    d3d12.backend = dmlcpu::Backend::kD3D12;
    auto dml = dmlcpu::Device::Create(d3d12);
    if (!dml.ok()) {
      std::printf("no D3D12 device: %s\n", dml.status().message().c_str());
      return 1;
    }
    dmlcpu::Device cpu;
    const int cases = std::atoi(argv[2]);
    int failed = 0;
    for (int c = 0; c < cases; ++c) failed += CrossCheckOne(*dml, cpu, 20261126 + c) ? 0 : 1;
    std::printf("scatter crosscheck: %d cases, %d differ\n", cases, failed);
    return failed == 0 ? 0 : 1;
  }
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
