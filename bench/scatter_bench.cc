// SPDX-License-Identifier: Apache-2.0
// dmlcpu benchmarks — SCATTER and SCATTER_ND (issue targets in docs/performance.md#scatter):
//   KvCacheTokenWrite{InPlace,OutOfPlace}  one token's {8,32,1,128} fp16 into {8,32,4096,128}
//   ScatterElementsAxis1Permutation        {4096,4096} fp32, each row a random permutation
//   ScatterElementsAxis0                   {4096,4096} fp32, random rows (duplicates)
//   ScatterAdd16MInto65536Bins             16M fp32 updates, reduction add, random bins
//   ScatterNdRowsInPlace                   10000 random (y, x) rows of 2 KiB into {256,256,512}
//   TinyScatterNd{InPlace,OutOfPlace}      8 rows into {100,16} fp32: ns per Execute
// Indices INT64 (SplitMix64, as the other families). Throughput cases report `ratio` =
// best copy of `copy_bytes` / dmlcpu, both the fastest of interleaved cold rounds
// (roofline::MeasureAgainstCopies, as bench_util.h describes), and `copy_bytes`: the update
// bytes for the in-place cases, the output bytes otherwise.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_util.h"
#include "roofline.h"

namespace dmlcpu_bench {
namespace {

struct ScatterCase {
  std::string name;
  bool nd = false;
  bool in_place = false;
  bool latency = false;
  dmlcpu::ScatterReduction reduction = dmlcpu::ScatterReduction::kNone;
  DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_FLOAT32;
  std::vector<uint32_t> input, indices, updates;
  uint32_t axis = 0, r = 0, q = 0;
  std::function<std::vector<int64_t>()> make_indices;
};

struct Built {
  std::unique_ptr<Tensor> input, indices, updates, output;
  DML_SCATTER_OPERATOR_DESC elements{};
  DML_SCATTER_ND_OPERATOR_DESC nd{};
  DML_OPERATOR_DESC desc{};
  AlignedBuffer input_data, indices_data, updates_data, output_data;
};

std::unique_ptr<Built> Build(const ScatterCase& c) {
  auto b = std::make_unique<Built>();
  b->input = std::make_unique<Tensor>(c.type, c.input);
  b->indices = std::make_unique<Tensor>(DML_TENSOR_DATA_TYPE_INT64, c.indices);
  b->updates = std::make_unique<Tensor>(c.type, c.updates);
  b->output = std::make_unique<Tensor>(c.type, c.input);
  if (c.nd) {
    b->nd = {b->input->desc(), b->indices->desc(), b->updates->desc(), b->output->desc(), c.r,
             c.q};
    b->desc = {DML_OPERATOR_SCATTER_ND, &b->nd};
  } else {
    b->elements = {b->input->desc(), b->indices->desc(), b->updates->desc(), b->output->desc(),
                   c.axis};
    b->desc = {DML_OPERATOR_SCATTER, &b->elements};
  }
  b->input_data = AlignedBuffer(b->input->total_bytes());
  b->input_data.FillPattern(1);
  b->updates_data = AlignedBuffer(b->updates->total_bytes());
  if (c.type == DML_TENSOR_DATA_TYPE_FLOAT32) {  // finite values for the reductions
    auto* f = reinterpret_cast<float*>(b->updates_data.data());
    for (uint64_t i = 0; i < b->updates->elem_count(); ++i) f[i] = static_cast<float>(i % 977);
  } else {
    b->updates_data.FillPattern(2);
  }
  const std::vector<int64_t> values = c.make_indices();
  b->indices_data = AlignedBuffer(b->indices->total_bytes());
  std::memcpy(b->indices_data.data(), values.data(), values.size() * 8);
  if (!c.in_place) {
    b->output_data = AlignedBuffer(b->output->total_bytes());
    b->output_data.FillPattern(3);
  }
  return b;
}

void RunScatterCase(benchmark::State& state, const ScatterCase& c, uint32_t max_threads) {
  static std::map<std::string, std::shared_ptr<Built>> cache;  // one set of buffers per case
  std::shared_ptr<Built>& built = cache[c.name];
  if (!built) built = Build(c);
  Built& b = *built;
  dmlcpu::DeviceOptions options;
  options.max_threads = max_threads;
  dmlcpu::Device device(options);
  dmlcpu::CompileOptions compile;
  compile.scatter_reduction = c.reduction;
  auto op = device.Compile(b.desc, compile);
  if (!op.ok()) {
    state.SkipWithError(op.status().message().c_str());
    return;
  }
  if (std::getenv("DMLCPU_BENCH_DESCRIBE") != nullptr) fputs(op->Describe().c_str(), stderr);
  uint8_t* out = c.in_place ? b.input_data.data() : b.output_data.data();
  const uint64_t out_bytes = b.output->total_bytes();
  const auto run = [&] {
    const dmlcpu::Status s = op->Execute(
        {{b.input_data.data(), b.input->total_bytes()},
         {b.indices_data.data(), b.indices->total_bytes()},
         {b.updates_data.data(), b.updates->total_bytes()}},
        {{out, out_bytes}});
    if (!s.ok()) state.SkipWithError(s.message().c_str());
  };
  for (auto _ : state) run();
  state.counters["threads"] = device.max_concurrency();
  // copy_bytes: the updates written in place, else the output. The report's bytes are a copy's
  // traffic for them (read + written), so its GB/s columns compare as `ratio` does.
  const uint64_t copy_bytes = c.in_place ? b.updates->data_bytes() : b.output->data_bytes();
  state.SetBytesProcessed(2 * static_cast<int64_t>(copy_bytes) * state.iterations());
  if (c.latency) {
    state.counters["ns_per_execute"] =
        benchmark::Counter(1e-9, benchmark::Counter::kIsIterationInvariantRate |
                                     benchmark::Counter::kInvert);
    return;
  }
  std::vector<roofline::Span> buffers = {{b.indices_data.data(), b.indices_data.size_bytes()},
                                         {b.updates_data.data(), b.updates_data.size_bytes()},
                                         {b.input_data.data(), b.input_data.size_bytes()}};
  if (!c.in_place) buffers.push_back({b.output_data.data(), b.output_data.size_bytes()});
  const roofline::RooflineTimes times = roofline::MeasureAgainstCopies(
      run, buffers, copy_bytes, device.max_concurrency());
  state.counters["copy_bytes"] = static_cast<double>(copy_bytes);
  state.counters["op_ms"] = times.op_seconds * 1e3;
  state.counters["best_copy_ms"] = times.best_copy_seconds() * 1e3;
  state.counters["ratio"] = times.best_copy_seconds() / times.op_seconds;
  // The report's GB/s columns: the fastest cold call of each, over copy_bytes.
  const double gigabytes = 2.0 * static_cast<double>(copy_bytes) * 1e-9;
  state.counters["dmlcpu_GBps"] = gigabytes / times.op_seconds;
  state.counters["interleaved_GBps"] = gigabytes / times.op_seconds;
  state.counters["memcpy_GBps"] = gigabytes / times.memcpy_seconds;
  state.counters["nt_GBps"] = gigabytes / times.nt_seconds;
}

std::vector<ScatterCase> Cases() {
  std::vector<ScatterCase> cases;
  for (bool in_place : {true, false}) {
    ScatterCase c;
    c.name = in_place ? "KvCacheTokenWriteInPlace" : "KvCacheTokenWriteOutOfPlace";
    c.nd = true;
    c.in_place = in_place;
    c.type = DML_TENSOR_DATA_TYPE_FLOAT16;
    c.input = {8, 32, 4096, 128};
    c.indices = {8, 32, 1, 3};
    c.updates = {8, 32, 1, 128};
    c.r = 4;
    c.q = 4;
    c.make_indices = [] {
      std::vector<int64_t> v;
      for (int64_t b = 0; b < 8; ++b)
        for (int64_t h = 0; h < 32; ++h) v.insert(v.end(), {b, h, 2047});
      return v;
    };
    cases.push_back(c);
  }
  {
    ScatterCase c;
    c.name = "ScatterElementsAxis1Permutation";
    c.input = c.indices = c.updates = {4096, 4096};
    c.axis = 1;
    c.make_indices = [] {
      std::vector<int64_t> v(4096 * 4096);
      for (uint64_t r = 0; r < 4096; ++r) {  // Fisher-Yates per row, SplitMix64 draws
        int64_t* row = v.data() + r * 4096;
        for (int64_t i = 0; i < 4096; ++i) row[i] = i;
        for (uint64_t i = 4095; i > 0; --i) {
          std::swap(row[i], row[SplitMix64(r, i) % (i + 1)]);
        }
      }
      return v;
    };
    cases.push_back(c);
  }
  {
    ScatterCase c;
    c.name = "ScatterElementsAxis0";
    c.input = c.indices = c.updates = {4096, 4096};
    c.axis = 0;
    c.make_indices = [] { return RandomIndices(11, 4096 * 4096, 4096); };
    cases.push_back(c);
  }
  {
    ScatterCase c;
    c.name = "ScatterAdd16MInto65536Bins";
    c.input = {65536};
    c.indices = c.updates = {16u << 20};
    c.reduction = dmlcpu::ScatterReduction::kAdd;
    c.make_indices = [] { return RandomIndices(12, 16u << 20, 65536); };
    cases.push_back(c);
  }
  {
    ScatterCase c;
    c.name = "ScatterNdRowsInPlace";
    c.nd = true;
    c.in_place = true;
    c.input = {256, 256, 512};
    c.indices = {10000, 2};
    c.updates = {1, 10000, 512};
    c.input = {256, 256, 512};
    c.indices = {1, 10000, 2};
    c.r = 3;
    c.q = 2;
    c.make_indices = [] { return RandomTuples(13, 10000, {256, 256}); };
    cases.push_back(c);
  }
  for (bool in_place : {true, false}) {
    ScatterCase c;
    c.name = in_place ? "TinyScatterNdInPlace" : "TinyScatterNdOutOfPlace";
    c.nd = true;
    c.in_place = in_place;
    c.latency = true;
    c.input = {100, 16};
    c.indices = {8, 1};
    c.updates = {8, 16};
    c.r = 2;
    c.q = 2;
    c.make_indices = [] { return RandomIndices(14, 8, 100); };
    cases.push_back(c);
  }
  return cases;
}

}  // namespace

void RegisterScatterBenchmarks() {
  for (const ScatterCase& c : Cases()) {
    for (uint32_t threads : {1u, 2u, 0u}) {
      const std::string name = c.name + "/threads:" + (threads == 0 ? "all" : std::to_string(threads));
      benchmark::RegisterBenchmark(name.c_str(), [c, threads](benchmark::State& state) {
        RunScatterCase(state, c, threads);
      })->UseRealTime()->Unit(c.latency ? benchmark::kNanosecond : benchmark::kMillisecond);
    }
  }
}

}  // namespace dmlcpu_bench
