// SPDX-License-Identifier: Apache-2.0
// dmlcpu benchmarks — the shared main: registers every operator family, then runs Google
// Benchmark. Defaults suited to a small machine (override on the command line):
//   --benchmark_min_time=0.2   seconds per case (Google Benchmark 1.7: a plain number)
//
//   dmlcpu_bench --benchmark_out=results.json --benchmark_out_format=json
//   dmlcpu_bench --benchmark_filter='Embedding.*'
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_util.h"

namespace {

bool HasFlag(int argc, char** argv, const char* flag) {
  const size_t flag_chars = std::strlen(flag);
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], flag, flag_chars) == 0) return true;
  }
  return false;
}

// The processor's name as /proc/cpuinfo gives it ("model name"), or "" where it gives none:
// results of different machines are told apart by it (Google Benchmark records cores, clock and
// caches).
std::string CpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) break;
    const size_t first = line.find_first_not_of(" \t", colon + 1);
    return first == std::string::npos ? "" : line.substr(first);
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> args(argv, argv + argc);
  std::string min_time_flag = "--benchmark_min_time=0.2";
  if (!HasFlag(argc, argv, "--benchmark_min_time")) args.push_back(min_time_flag.data());
  int arg_count = static_cast<int>(args.size());
  args.push_back(nullptr);

  dmlcpu_bench::RegisterSliceBenchmarks();
  dmlcpu_bench::RegisterGatherBenchmarks();
  dmlcpu_bench::RegisterPaddingBenchmarks();
  dmlcpu_bench::RegisterCopyOpsBenchmarks();
  const std::string cpu_model = CpuModel();
  if (!cpu_model.empty()) benchmark::AddCustomContext("cpu_model", cpu_model);
  benchmark::Initialize(&arg_count, args.data());
  if (benchmark::ReportUnrecognizedArguments(arg_count, args.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
