// SPDX-License-Identifier: Apache-2.0
// dmlcpu benchmarks — shared plumbing (see bench_util.h).
#include "bench_util.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include <benchmark/benchmark.h>

namespace dmlcpu_bench {
namespace {

constexpr uint64_t kCacheLineBytes = 64;
constexpr uint32_t kInputSalt = 0x1234567u;
constexpr uint64_t kVerifySamples = 4096;

using Clock = std::chrono::steady_clock;

uint32_t ElemBytesOf(DML_TENSOR_DATA_TYPE data_type) {
  switch (data_type) {
    case DML_TENSOR_DATA_TYPE_UINT8:
    case DML_TENSOR_DATA_TYPE_INT8:
      return 1;
    case DML_TENSOR_DATA_TYPE_FLOAT16:
    case DML_TENSOR_DATA_TYPE_UINT16:
    case DML_TENSOR_DATA_TYPE_INT16:
      return 2;
    case DML_TENSOR_DATA_TYPE_FLOAT32:
    case DML_TENSOR_DATA_TYPE_UINT32:
    case DML_TENSOR_DATA_TYPE_INT32:
      return 4;
    case DML_TENSOR_DATA_TYPE_FLOAT64:
    case DML_TENSOR_DATA_TYPE_UINT64:
    case DML_TENSOR_DATA_TYPE_INT64:
      return 8;
    default:
      return 0;
  }
}

// The one CaseData alive at a time: cases run in registration order, and both thread variants
// of a case are registered next to each other, so each case is built once.
// Never destroyed (no static destructors); the last case's buffers go with the process.
CaseData* GetCaseData(const CaseSpec& spec) {
  static std::string* const cached_name = new std::string;
  static auto* const cached = new std::unique_ptr<CaseData>;
  if (*cached_name != spec.name || !*cached) {
    cached->reset();  // free the previous case's buffers before allocating this one's
    *cached_name = spec.name;
    *cached = spec.make();
  }
  return cached->get();
}

// The previous case's input buffer, reused when the next case's input has the same size (they
// are all filled with the same pattern).
std::shared_ptr<AlignedBuffer>& LastInput() {
  static auto* const last_input = new std::shared_ptr<AlignedBuffer>;
  return *last_input;
}

// Empty when a sample of the output matches the input at CaseData::source_byte_offset.
std::string VerifySample(const CaseData& data) {
  if (!data.source_byte_offset) return "";
  const uint64_t elem_count = data.output_tensor->elem_count();
  const uint32_t elem_bytes = data.output_tensor->elem_bytes();
  const uint64_t samples = std::min(elem_count, kVerifySamples);
  for (uint64_t s = 0; s < samples; ++s) {
    uint64_t e = s == 0 ? 0 : s == 1 ? elem_count - 1 : SplitMix64(0xC0FFEE, s) % elem_count;
    const uint64_t in_offset = data.source_byte_offset(e);
    const uint64_t out_offset = data.output_tensor->ByteOffsetOf(e);
    if (std::memcmp(data.input->data() + in_offset, data.output.data() + out_offset,
                    elem_bytes) != 0) {
      char message[160];
      std::snprintf(message, sizeof(message),
                    "output element %llu differs from input byte offset %llu",
                    static_cast<unsigned long long>(e), static_cast<unsigned long long>(in_offset));
      return message;
    }
  }
  return "";
}

// The 64-byte input lines the operator must read: those holding the input element of some
// output element (per block of `bound_block_elems` where the case defines blocks).
std::vector<bool> TouchedLines(const CaseData& data) {
  std::vector<bool> touched((data.input->size_bytes() + kCacheLineBytes - 1) / kCacheLineBytes);
  const uint64_t block_elems = data.bound_block_elems != 0 ? data.bound_block_elems : 1;
  const uint64_t block_bytes = block_elems * data.output_tensor->elem_bytes();
  const uint64_t blocks = data.output_tensor->elem_count() / block_elems;
  for (uint64_t b = 0; b < blocks; ++b) {
    const uint64_t begin = data.source_byte_offset(b * block_elems);
    for (uint64_t line = begin / kCacheLineBytes;
         line <= (begin + block_bytes - 1) / kCacheLineBytes; ++line) {
      touched[line] = true;
    }
  }
  return touched;
}

// memcpy traffic / unavoidable traffic (see bench_util.h); 0 when the case defines no blocks.
double ComputeBound(const CaseData& data) {
  if (data.bound_block_elems == 0 || !data.source_byte_offset) return 0;
  const std::vector<bool> touched = TouchedLines(data);
  const uint64_t lines = static_cast<uint64_t>(std::count(touched.begin(), touched.end(), true));
  const double unavoidable_bytes = static_cast<double>(data.written_bytes) +
                                   static_cast<double>(lines * kCacheLineBytes) +
                                   static_cast<double>(data.indices.size_bytes());
  return 2.0 * static_cast<double>(data.copy_bytes) / unavoidable_bytes;
}

// Appends [begin, end) to `ranges`, extending the last range where it continues it.
void AppendRange(std::vector<roofline::ByteRange>* ranges, uint64_t begin, uint64_t end) {
  if (!ranges->empty() && ranges->back().end == begin) {
    ranges->back().end = end;
  } else {
    ranges->push_back({begin, end});
  }
}

// TouchedLines as ascending byte ranges of whole lines.
std::vector<roofline::ByteRange> TouchedRanges(const CaseData& data) {
  const std::vector<bool> touched = TouchedLines(data);
  std::vector<roofline::ByteRange> ranges;
  for (uint64_t line = 0; line < touched.size(); ++line) {
    if (touched[line]) AppendRange(&ranges, line * kCacheLineBytes, (line + 1) * kCacheLineBytes);
  }
  return ranges;
}

// The input lines of the output's blocks in output order (a block's lines once, merged with the
// previous block's where they continue it): what a gather that copies block after block reads.
// Empty as soon as they add up to more bytes than the output (blocks of single elements, blocks
// off line boundaries): then no copy of them is a bound (see MeasureAgainstCopies).
std::vector<roofline::ByteRange> OutputOrderRanges(const CaseData& data) {
  std::vector<roofline::ByteRange> ranges;
  const uint64_t block_elems = data.bound_block_elems;
  const uint64_t block_bytes = block_elems * data.output_tensor->elem_bytes();
  const uint64_t blocks = data.output_tensor->elem_count() / block_elems;
  uint64_t total_bytes = 0;
  for (uint64_t b = 0; b < blocks; ++b) {
    const uint64_t begin = data.source_byte_offset(b * block_elems);
    const uint64_t line_begin = begin / kCacheLineBytes * kCacheLineBytes;
    const uint64_t line_end =
        (begin + block_bytes + kCacheLineBytes - 1) / kCacheLineBytes * kCacheLineBytes;
    total_bytes += line_end - line_begin;
    if (total_bytes > data.copy_bytes) return {};
    AppendRange(&ranges, line_begin, line_end);
  }
  return ranges;
}

struct Bindings {
  std::vector<dmlcpu::Binding> inputs;
  std::vector<dmlcpu::OutputBinding> outputs;
  dmlcpu::Status Execute(const dmlcpu::CompiledOperator& op) const {
    return op.Execute(inputs.data(), inputs.size(), outputs.data(), outputs.size());
  }
};

Bindings BindingsOf(CaseData& data) {
  Bindings b;
  b.inputs.push_back({data.input->data(), data.input->size_bytes()});
  if (data.indices.size_bytes() != 0) {
    b.inputs.push_back({data.indices.data(), data.indices.size_bytes()});
  }
  for (AlignedBuffer& more : data.more_inputs) {
    b.inputs.push_back({more.data(), more.size_bytes()});
  }
  b.outputs.push_back({data.output.data(), data.output.size_bytes()});
  for (AlignedBuffer& more : data.more_outputs) {
    b.outputs.push_back({more.data(), more.size_bytes()});
  }
  return b;
}

// Fastest parallel memset of `bytes` at `dst` and fastest `run_op`, alternating, each call
// with its buffers flushed first: the write-bound cases' baseline (see CaseData::write_bound).
void MeasureAgainstFill(const std::function<void()>& run_op,
                        const std::vector<roofline::Span>& op_buffers, uint8_t* dst,
                        size_t bytes, uint32_t threads, double* op_seconds,
                        double* fill_seconds) {
  const roofline::CopyFunction fill = [](void* to, const void*, size_t n) {
    std::memset(to, 0x5A, n);
  };
  *op_seconds = *fill_seconds = 1e30;
  double spent = 0;
  for (int round = 0; round < 5 || spent < 0.4; ++round) {
    for (const roofline::Span& span : op_buffers) roofline::FlushFromCaches(span);
    const double op = roofline::TimeOnce(run_op);
    roofline::FlushFromCaches({dst, bytes});
    const double f = roofline::TimeOnce(
        [&] { roofline::ParallelCopy(fill, dst, dst, bytes, threads); });
    *op_seconds = std::min(*op_seconds, op);
    *fill_seconds = std::min(*fill_seconds, f);
    spent += op + f;
    if (round >= 200) break;
  }
}

dmlcpu::Device MakeDevice(uint32_t max_threads) {
  dmlcpu::DeviceOptions options;
  options.max_threads = max_threads;
  return dmlcpu::Device(options);
}

void RunExecuteCase(benchmark::State& state, const CaseSpec& spec, uint32_t max_threads) {
  CaseData* data = GetCaseData(spec);
  const dmlcpu::Device device = MakeDevice(max_threads);
  const uint32_t threads = device.max_concurrency();
  auto compiled = device.Compile(data->op);
  if (!compiled.ok()) {
    state.SkipWithError(("Compile: " + compiled.status().message()).c_str());
    return;
  }
  const dmlcpu::CompiledOperator& op = compiled.value();
  if (std::getenv("DMLCPU_BENCH_DESCRIBE") != nullptr && !data->described) {
    data->described = true;
    std::fprintf(stderr, "%s (threads %u):\n%s\n", spec.name.c_str(), threads,
                 op.Describe().c_str());
  }
  const Bindings b = BindingsOf(*data);
  // First Execute outside the loop: warms up, and lets us check the output.
  const dmlcpu::Status first = b.Execute(op);
  if (!first.ok()) {
    state.SkipWithError(("Execute: " + first.message()).c_str());
    return;
  }
  const std::string mismatch = VerifySample(*data);
  if (!mismatch.empty()) {
    state.SkipWithError(mismatch.c_str());
    return;
  }

  // Throughput cases also time every call, for the fastest call of the repeated loop (compared
  // with the peers' best sample of their repeated calls). Two clock reads cost ~50 ns against
  // calls of tens of microseconds and more.
  const bool time_calls = spec.kind == CaseKind::kThroughput;
  double best_call_seconds = 1e30;
  for (auto _ : state) {
    const auto start = time_calls ? Clock::now() : Clock::time_point();
    const dmlcpu::Status status = b.Execute(op);
    if (time_calls) {
      best_call_seconds = std::min(
          best_call_seconds, std::chrono::duration<double>(Clock::now() - start).count());
    }
    if (!status.ok()) {
      state.SkipWithError(("Execute: " + status.message()).c_str());
      break;
    }
  }

  using benchmark::Counter;
  const uint64_t moved_bytes = data->read_bytes + data->written_bytes;
  state.SetBytesProcessed(static_cast<int64_t>(moved_bytes) * state.iterations());
  state.counters["threads"] = threads;
  // Mean over the iterations (as bytes_per_second, in 1e9 bytes/s).
  state.counters["mean_GBps"] =
      Counter(static_cast<double>(moved_bytes) * 1e-9, Counter::kIsIterationInvariantRate);
  if (spec.kind == CaseKind::kExecuteLatency) {
    // 1e-9 x iterations / seconds, inverted: nanoseconds per Execute (mean).
    state.counters["ns_per_execute"] =
        Counter(1e-9, Counter::kIsIterationInvariantRate | Counter::kInvert);
    return;
  }
  // Fastest calls of dmlcpu and of both copies, interleaved (see roofline.h); measured once per
  // case and thread count, outside Google Benchmark's timed loop.
  auto it = data->roofline.find(threads);
  if (it == data->roofline.end()) {
    const auto run_op = [&] {
      const dmlcpu::Status status = b.Execute(op);
      benchmark::DoNotOptimize(status.ok());
    };
    std::vector<roofline::Span> op_buffers = {
        {data->input->data(), data->input->size_bytes()},
        {data->indices.data(), data->indices.size_bytes()},
        {data->output.data(), data->output.size_bytes()}};
    for (const AlignedBuffer& more : data->more_inputs) {
      op_buffers.push_back({more.data(), more.size_bytes()});
    }
    for (const AlignedBuffer& more : data->more_outputs) {
      op_buffers.push_back({more.data(), more.size_bytes()});
    }
    if (data->write_bound) {
      MeasureAgainstFill(run_op, op_buffers, data->output.data(), data->copy_bytes, threads,
                         &data->fill_times[threads].first, &data->fill_times[threads].second);
    }
    if (data->source_byte_offset && !data->read_ranges_done) {
      data->read_ranges = TouchedRanges(*data);
      data->read_ranges_done = true;
    }
    std::unique_ptr<roofline::LineReader> reader;
    if (!data->read_ranges.empty()) {
      reader = std::make_unique<roofline::LineReader>(data->input->data(), data->read_ranges,
                                                      threads);
    }
    // The copy bound's lines: a block gather's in output order (block after block, as the
    // operator must produce them), other cases' in address order (the reader's).
    const bool block_gather = data->bound_block_elems != 0 && data->source_byte_offset;
    if (block_gather && !data->copy_ranges_done) {
      data->copy_ranges = OutputOrderRanges(*data);
      data->copy_ranges_done = true;
    }
    std::unique_ptr<roofline::LineReader> block_copier;
    if (!data->copy_ranges.empty()) {
      block_copier = std::make_unique<roofline::LineReader>(data->input->data(),
                                                            data->copy_ranges, threads);
    }
    const roofline::LineReader* copier =
        block_gather ? block_copier.get() : reader.get();
    it = data->roofline
             .emplace(threads, roofline::MeasureAgainstCopies(run_op, op_buffers,
                                                              data->copy_bytes, threads,
                                                              reader.get(), copier))
             .first;
  }
  const roofline::RooflineTimes& times = it->second;
  const double copy_traffic_bytes = 2.0 * static_cast<double>(data->copy_bytes);
  state.counters["dmlcpu_GBps"] = static_cast<double>(moved_bytes) / best_call_seconds * 1e-9;
  state.counters["interleaved_GBps"] =
      static_cast<double>(moved_bytes) / times.op_seconds * 1e-9;
  state.counters["memcpy_GBps"] = copy_traffic_bytes / times.memcpy_repeated_seconds * 1e-9;
  state.counters["nt_GBps"] = copy_traffic_bytes / times.nt_repeated_seconds * 1e-9;
  state.counters["interleaved_memcpy_GBps"] = copy_traffic_bytes / times.memcpy_seconds * 1e-9;
  state.counters["interleaved_nt_GBps"] = copy_traffic_bytes / times.nt_seconds * 1e-9;
  state.counters["ratio"] = times.best_copy_seconds() / times.op_seconds;
  if (times.read_seconds > 0) {
    state.counters["read_bound"] = times.best_copy_seconds() / times.read_seconds;
  }
  if (times.line_copy_seconds > 0) {
    state.counters["copy_bound"] = times.best_copy_seconds() / times.line_copy_seconds;
  }
  if (data->bound_block_elems != 0) {
    if (data->bound == 0) data->bound = ComputeBound(*data);
    state.counters["bound"] = data->bound;
  }
  const auto fill = data->fill_times.find(threads);
  if (fill != data->fill_times.end()) {
    state.counters["fill_GBps"] =
        static_cast<double>(data->copy_bytes) / fill->second.second * 1e-9;
    state.counters["write_ratio"] = fill->second.second / fill->second.first;
  }
}

void RunCompileCase(benchmark::State& state, const CaseSpec& spec, uint32_t max_threads) {
  CaseData* data = GetCaseData(spec);
  const dmlcpu::Device device = MakeDevice(max_threads);
  {
    auto compiled = device.Compile(data->op);
    if (!compiled.ok()) {
      state.SkipWithError(("Compile: " + compiled.status().message()).c_str());
      return;
    }
  }
  for (auto _ : state) {
    auto compiled = device.Compile(data->op);
    benchmark::DoNotOptimize(compiled);
  }
  state.counters["threads"] = device.max_concurrency();
  state.counters["ns_per_compile"] =
      benchmark::Counter(1e-9, benchmark::Counter::kIsIterationInvariantRate |
                                   benchmark::Counter::kInvert);
}

}  // namespace

std::vector<int64_t> RandomIndices(uint64_t seed, uint64_t count, uint64_t bound) {
  std::vector<int64_t> indices(count);
  for (uint64_t i = 0; i < count; ++i) {
    indices[i] = static_cast<int64_t>(SplitMix64(seed, i) % bound);
  }
  return indices;
}

std::vector<int64_t> RandomTuples(uint64_t seed, uint64_t count,
                                  const std::vector<uint64_t>& bounds) {
  const uint64_t t = bounds.size();
  std::vector<int64_t> tuples(count * t);
  for (uint64_t i = 0; i < count * t; ++i) {
    tuples[i] = static_cast<int64_t>(SplitMix64(seed, i) % bounds[i % t]);
  }
  return tuples;
}

std::vector<int64_t> SortedRunIndices(uint64_t seed, uint64_t count, uint64_t bound,
                                      uint32_t min_run, uint32_t max_run) {
  std::vector<std::pair<uint64_t, uint64_t>> runs;  // (start, length)
  uint64_t total = 0;
  for (uint64_t r = 0; total < count; ++r) {
    const uint64_t length = min_run + SplitMix64(seed, 2 * r) % (max_run - min_run + 1);
    const uint64_t start = SplitMix64(seed, 2 * r + 1) % (bound - length + 1);
    runs.emplace_back(start, length);
    total += length;
  }
  std::sort(runs.begin(), runs.end());
  std::vector<int64_t> indices;
  indices.reserve(total);
  for (const auto& [start, length] : runs) {
    for (uint64_t k = 0; k < length; ++k) indices.push_back(static_cast<int64_t>(start + k));
  }
  indices.resize(count);
  return indices;
}

Tensor::Tensor(DML_TENSOR_DATA_TYPE data_type, std::vector<uint32_t> sizes,
               std::vector<uint32_t> strides_elems)
    : sizes_(std::move(sizes)),
      strides_elems_(std::move(strides_elems)),
      elem_bytes_(ElemBytesOf(data_type)) {
  const size_t rank = sizes_.size();
  effective_strides_elems_.assign(rank, 0);
  elem_count_ = 1;
  for (size_t d = rank; d-- > 0;) {
    effective_strides_elems_[d] = strides_elems_.empty() ? elem_count_ : strides_elems_[d];
    elem_count_ *= sizes_[d];
  }
  buffer_desc_.DataType = data_type;
  buffer_desc_.Flags = DML_TENSOR_FLAG_NONE;
  buffer_desc_.DimensionCount = static_cast<uint32_t>(rank);
  buffer_desc_.Sizes = sizes_.data();
  buffer_desc_.Strides = strides_elems_.empty() ? nullptr : strides_elems_.data();
  buffer_desc_.TotalTensorSizeInBytes = dmlcpu::CalcBufferTensorSize(
      data_type, buffer_desc_.DimensionCount, buffer_desc_.Sizes, buffer_desc_.Strides);
  buffer_desc_.GuaranteedBaseOffsetAlignment = 0;
  tensor_desc_.Type = DML_TENSOR_TYPE_BUFFER;
  tensor_desc_.Desc = &buffer_desc_;
}

uint64_t Tensor::ByteOffsetOf(uint64_t linear_elem) const {
  uint64_t offset_elems = 0;
  for (size_t d = sizes_.size(); d-- > 0;) {
    offset_elems += (linear_elem % sizes_[d]) * effective_strides_elems_[d];
    linear_elem /= sizes_[d];
  }
  return offset_elems * elem_bytes_;
}

Tensor* CaseData::AddTensor(DML_TENSOR_DATA_TYPE data_type, std::vector<uint32_t> sizes,
                            std::vector<uint32_t> strides_elems) {
  tensors_.push_back(std::make_unique<Tensor>(data_type, std::move(sizes),
                                              std::move(strides_elems)));
  return tensors_.back().get();
}

const uint32_t* CaseData::KeepUints(std::vector<uint32_t> values) {
  uint_arrays_.push_back(std::move(values));
  return uint_arrays_.back().data();
}

const int32_t* CaseData::KeepInts(std::vector<int32_t> values) {
  int_arrays_.push_back(std::move(values));
  return int_arrays_.back().data();
}

void CaseData::AllocateBuffers(const Tensor& input_t, const std::vector<int64_t>* index_values,
                               const Tensor& output_t) {
  input_tensor = &input_t;
  output_tensor = &output_t;
  std::shared_ptr<AlignedBuffer>& last_input = LastInput();
  if (last_input && last_input->size_bytes() == input_t.total_bytes()) {
    input = last_input;
  } else {
    last_input.reset();
    input = std::make_shared<AlignedBuffer>(input_t.total_bytes());
    input->FillPattern(kInputSalt);
    last_input = input;
  }
  if (index_values != nullptr) {
    indices = AlignedBuffer(index_values->size() * sizeof(int64_t));
    std::memcpy(indices.data(), index_values->data(), indices.size_bytes());
  }
  output = AlignedBuffer(output_t.total_bytes());
  std::memset(output.data(), 0, output.size_bytes());
}

std::function<uint64_t(uint64_t)> SliceSource(const Tensor& input, const Tensor& output,
                                              std::vector<uint32_t> offsets,
                                              std::vector<uint32_t> window_sizes,
                                              std::vector<int32_t> strides) {
  const size_t rank = offsets.size();
  std::vector<int64_t> start(rank);
  for (size_t d = 0; d < rank; ++d) {
    start[d] = offsets[d] + (strides[d] < 0 ? static_cast<int64_t>(window_sizes[d]) - 1 : 0);
  }
  const std::vector<uint32_t> out_sizes = output.sizes();
  const std::vector<uint32_t> in_sizes = input.sizes();
  return [&input, start, strides, out_sizes, in_sizes](uint64_t e) {
    // Output linear position -> output coordinates -> input coordinates -> input linear position.
    uint64_t in_linear = 0;
    uint64_t in_pitch = 1;
    for (size_t d = out_sizes.size(); d-- > 0;) {
      const int64_t o = static_cast<int64_t>(e % out_sizes[d]);
      e /= out_sizes[d];
      in_linear += static_cast<uint64_t>(start[d] + strides[d] * o) * in_pitch;
      in_pitch *= in_sizes[d];
    }
    return input.ByteOffsetOf(in_linear);
  };
}

void RegisterCases(const std::vector<CaseSpec>& specs) {
  for (const CaseSpec& spec : specs) {
    for (const uint32_t max_threads : {1u, 0u}) {
      const std::string name =
          spec.name + (max_threads == 1 ? "/threads:1" : "/threads:all");
      benchmark::internal::Benchmark* b;
      if (spec.kind == CaseKind::kCompileLatency) {
        b = benchmark::RegisterBenchmark(
            name.c_str(), [spec, max_threads](benchmark::State& state) {
              RunCompileCase(state, spec, max_threads);
            });
      } else {
        b = benchmark::RegisterBenchmark(
            name.c_str(), [spec, max_threads](benchmark::State& state) {
              RunExecuteCase(state, spec, max_threads);
            });
      }
      b->UseRealTime();  // the library's worker threads do not show in the main thread's CPU time
      b->Unit(spec.kind == CaseKind::kThroughput ? benchmark::kMillisecond
                                                 : benchmark::kNanosecond);
    }
  }
}

}  // namespace dmlcpu_bench
