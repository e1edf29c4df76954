// SPDX-License-Identifier: Apache-2.0
// Windows side of the cross-check: runs cases [begin, end) of a seeded run through real DirectML
// (dmlcpu's D3D12 backend) and appends one record per case to a file. After each case it
// rewrites `<file>.next` with the next case index, so the driver script can resume after a crash
// of DirectML under wine and report the case that crashed.
//
//   crosscheck_runner.exe SEED BEGIN END OUT_FILE [cpu]
// With "cpu", the same cases run through this Windows build's CPU backend (SIMD kernels, all
// threads) instead, for crosscheck_compare --windows-cpu.
// Exit status 3: DirectML could not be started (not a crash to resume after).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "d3d12/crosscheck_cases.h"
#include "d3d12/crosscheck_record.h"
#include "dmlcpu/dmlcpu.h"

int main(int argc, char** argv) {
  const bool cpu = argc == 6 && std::string(argv[5]) == "cpu";
  if (argc != 5 && !cpu) {
    std::fprintf(stderr, "usage: %s SEED BEGIN END OUT_FILE [cpu]\n", argv[0]);
    return 2;
  }
  const uint64_t seed = std::strtoull(argv[1], nullptr, 0);
  const uint64_t begin = std::strtoull(argv[2], nullptr, 0);
  const uint64_t end = std::strtoull(argv[3], nullptr, 0);
  const std::string path = argv[4];

  dmlcpu::DeviceOptions options;
  options.max_threads = cpu ? 0 : 1;
  options.backend = cpu ? dmlcpu::Backend::kCpu : dmlcpu::Backend::kD3D12;
  auto device = dmlcpu::Device::Create(options);
  if (!device.ok()) {
    std::fprintf(stderr, "crosscheck_runner: %s\n", device.status().message().c_str());
    return 3;  // fatal for the driver script (no resume)
  }
  std::fprintf(stderr, "crosscheck_runner: backend %s (%s)\n",
               dmlcpu::BackendName(device->backend()), device->backend_reason().c_str());
  std::FILE* out = std::fopen(path.c_str(), "ab");
  if (out == nullptr) {
    std::fprintf(stderr, "crosscheck_runner: cannot open %s\n", path.c_str());
    return 3;
  }
  for (uint64_t i = begin; i < end; ++i) {
    std::unique_ptr<dmlcpu_crosscheck::Case> c = dmlcpu_crosscheck::GenerateCase(seed, i);
    dmlcpu_crosscheck::Record record;
    record.index = i;
    record.outputs = c->output_init;
    auto op = device->Compile(c->desc);
    dmlcpu::Status status = op.ok() ? dmlcpu::Status::Ok() : op.status();
    if (op.ok()) {
      std::vector<dmlcpu::Binding> inputs;
      for (size_t j = 0; j < c->inputs.size(); ++j) {
        inputs.push_back({c->input_bytes[j].data(), c->inputs[j].total_bytes});
      }
      std::vector<dmlcpu::OutputBinding> outputs;
      for (size_t j = 0; j < c->outputs.size(); ++j) {
        outputs.push_back({record.outputs[j].data(), c->outputs[j].total_bytes});
      }
      status = op->Execute(inputs.data(), inputs.size(), outputs.data(), outputs.size());
    }
    record.code = static_cast<uint32_t>(status.code());
    record.message = status.message();
    if (!dmlcpu_crosscheck::WriteRecord(out, record) || std::fflush(out) != 0) {
      std::fprintf(stderr, "crosscheck_runner: write to %s failed\n", path.c_str());
      return 1;
    }
    std::FILE* next = std::fopen((path + ".next").c_str(), "wb");
    if (next != nullptr) {
      std::fprintf(next, "%llu\n", static_cast<unsigned long long>(i + 1));
      std::fclose(next);
    }
  }
  std::fclose(out);
  std::fprintf(stderr, "crosscheck_runner: cases %llu..%llu done\n",
               static_cast<unsigned long long>(begin), static_cast<unsigned long long>(end));
  device = dmlcpu::Device(dmlcpu::DeviceOptions{1, nullptr});  // releases DirectML's objects
  std::fprintf(stderr, "crosscheck_runner: DirectML device released\n");
  return 0;
}
