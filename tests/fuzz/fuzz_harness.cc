// SPDX-License-Identifier: Apache-2.0
#include "fuzz/fuzz_harness.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/dmlcpu.h"
#include "fuzz/fuzz_case.h"
#include "reference/reference.h"
#include "support/aligned_memory.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DMLCPU_FUZZ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(DMLCPU_FUZZ_ASAN)
#define DMLCPU_FUZZ_ASAN 1
#endif
#if defined(DMLCPU_FUZZ_ASAN)
#include <sanitizer/asan_interface.h>
#endif

namespace dmlcpu_fuzz {
namespace {

using dmlcpu_test::DataTypeSizeBytes;
using dmlcpu_test::MinimumTensorSizeBytes;

// Cases bigger than this compile but are not executed (keeps an execution well under 1 ms).
constexpr uint64_t kMaxExecuteBytes = uint64_t{1} << 20;
constexpr uint64_t kMaxOutputElems = uint64_t{1} << 16;
constexpr uint64_t kMaxAlignment = 4096;
constexpr uint64_t kGuardBytes = 64;

void Poison(const void* p, uint64_t size_bytes) {
#if defined(DMLCPU_FUZZ_ASAN)
  ASAN_POISON_MEMORY_REGION(p, size_bytes);
#else
  (void)p;
  (void)size_bytes;
#endif
}
void Unpoison(const void* p, uint64_t size_bytes) {
#if defined(DMLCPU_FUZZ_ASAN)
  ASAN_UNPOISON_MEMORY_REGION(p, size_bytes);
#else
  (void)p;
  (void)size_bytes;
#endif
}

}  // namespace

bool HasIndices(uint32_t type) {
  return type == DML_OPERATOR_GATHER || type == DML_OPERATOR_GATHER_ELEMENTS ||
         type == DML_OPERATOR_GATHER_ND || type == DML_OPERATOR_GATHER_ND1 ||
         type == DML_OPERATOR_SCATTER || type == DML_OPERATOR_SCATTER_ND;
}

const DML_OPERATOR_DESC& FuzzCase::Build() {
  const DML_TENSOR_DESC* in_t = input.Build();
  const DML_TENSOR_DESC* idx_t = indices.Build();
  const DML_TENSOR_DESC* out_t = output.Build();
  const void* desc = nullptr;
  switch (type) {
    case DML_OPERATOR_GATHER:
      gather = {in_t, idx_t, out_t, attr[0], attr[1]};
      desc = &gather;
      break;
    case DML_OPERATOR_GATHER_ELEMENTS:
      gather_elements = {in_t, idx_t, out_t, attr[0]};
      desc = &gather_elements;
      break;
    case DML_OPERATOR_GATHER_ND:
      gather_nd = {in_t, idx_t, out_t, attr[0], attr[1]};
      desc = &gather_nd;
      break;
    case DML_OPERATOR_GATHER_ND1:
      gather_nd1 = {in_t, idx_t, out_t, attr[0], attr[1], attr[2]};
      desc = &gather_nd1;
      break;
    case DML_OPERATOR_SLICE:
      slice = {in_t, out_t, slice_dimension_count, offsets_null ? nullptr : offsets.data(),
               window_sizes_null ? nullptr : window_sizes.data(),
               window_strides_null ? nullptr : window_strides.data()};
      desc = &slice;
      break;
    case DML_OPERATOR_PADDING: {
      float value;
      std::memcpy(&value, &attr[1], sizeof(value));
      padding = {in_t, out_t, static_cast<DML_PADDING_MODE>(attr[0] % 8), value,
                 slice_dimension_count, offsets_null ? nullptr : offsets.data(),
                 window_sizes_null ? nullptr : window_sizes.data()};
      desc = &padding;
      break;
    }
    case DML_OPERATOR_PADDING1:
      padding1 = {};
      padding1.InputTensor = in_t;
      padding1.OutputTensor = out_t;
      padding1.PaddingMode = static_cast<DML_PADDING_MODE>(attr[0] % 8);
      padding1.PaddingValueDataType = static_cast<DML_TENSOR_DATA_TYPE>(attr[2] % 16);
      std::memcpy(padding1.PaddingValue.Bytes, &attr[1], sizeof(attr[1]));
      padding1.DimensionCount = slice_dimension_count;
      padding1.StartPadding = offsets_null ? nullptr : offsets.data();
      padding1.EndPadding = window_sizes_null ? nullptr : window_sizes.data();
      desc = &padding1;
      break;
    case DML_OPERATOR_DEPTH_TO_SPACE:
      depth_to_space = {in_t, out_t, attr[0]};
      desc = &depth_to_space;
      break;
    case DML_OPERATOR_SPACE_TO_DEPTH:
      space_to_depth = {in_t, out_t, attr[0]};
      desc = &space_to_depth;
      break;
    case DML_OPERATOR_DEPTH_TO_SPACE1:
      depth_to_space1 = {in_t, out_t, attr[0], static_cast<DML_DEPTH_SPACE_ORDER>(attr[1] % 2)};
      desc = &depth_to_space1;
      break;
    case DML_OPERATOR_SPACE_TO_DEPTH1:
      space_to_depth1 = {in_t, out_t, attr[0], static_cast<DML_DEPTH_SPACE_ORDER>(attr[1] % 2)};
      desc = &space_to_depth1;
      break;
    case DML_OPERATOR_SLICE_GRAD:
      slice_grad = {in_t, out_t, slice_dimension_count, offsets_null ? nullptr : offsets.data(),
                    window_sizes_null ? nullptr : window_sizes.data(),
                    window_strides_null ? nullptr : window_strides_signed.data()};
      desc = &slice_grad;
      break;
    case DML_OPERATOR_ELEMENT_WISE_IDENTITY:
      identity = {in_t, out_t, attr[2] == 7 ? &scale_bias : nullptr};
      desc = &identity;
      break;
    case DML_OPERATOR_TILE:
      tile = {in_t, out_t, std::min(attr[1], kMaxArrayElems), offsets_null ? nullptr : repeats};
      desc = &tile;
      break;
    case DML_OPERATOR_JOIN:  // an absent part makes the whole array null
      if (in_t != nullptr && idx_t != nullptr) {
        join_inputs[0] = *in_t;
        join_inputs[1] = *idx_t;
      }
      join = {attr[1] == 1 ? 1u : 2u, in_t && idx_t ? join_inputs : nullptr, out_t, attr[0]};
      desc = &join;
      break;
    case DML_OPERATOR_SCATTER:
    case DML_OPERATOR_SCATTER_ND:
    case DML_OPERATOR_SPLIT:
      desc = BuildMultiOpDesc(this, in_t, idx_t, out_t);
      break;
    default:
      slice1 = {in_t, out_t, slice_dimension_count, offsets_null ? nullptr : offsets.data(),
                window_sizes_null ? nullptr : window_sizes.data(),
                window_strides_null ? nullptr : window_strides_signed.data()};
      desc = &slice1;
      break;
  }
  op_desc.Type = static_cast<DML_OPERATOR_TYPE>(type_value);
  op_desc.Desc = op_desc_null ? nullptr : desc;
  return op_desc;
}

std::vector<TensorSpec*> FuzzCase::Inputs() {
  if (type == DML_OPERATOR_SCATTER || type == DML_OPERATOR_SCATTER_ND) {
    return {&input, &indices, &updates};
  }
  if (HasIndices(type) || type == DML_OPERATOR_JOIN) return {&input, &indices};
  return {&input};
}

std::vector<TensorSpec*> FuzzCase::Outputs() {
  std::vector<TensorSpec*> outputs = {&output};
  if (type == DML_OPERATOR_SPLIT) {  // OutputCount as Build clamps it
    for (uint32_t k = 0; k + 1 < std::min(attr[1], 1 + kMaxMoreOutputs); ++k) {
      outputs.push_back(&more_outputs[k]);
    }
  }
  return outputs;
}

std::string FuzzCase::ToString() const {
  std::string s = "op=" + std::to_string(type) + " type_value=" + std::to_string(type_value) +
                  (op_desc_null ? " desc=null" : "") + " attr={" + std::to_string(attr[0]) +
                  "," + std::to_string(attr[1]) + "," + std::to_string(attr[2]) + "}";
  s += "\n  input:   " + input.ToString();
  if (HasIndices(type) || type == DML_OPERATOR_JOIN) {
    s += "\n  indices: " + indices.ToString();
  }
  if (type == DML_OPERATOR_SCATTER || type == DML_OPERATOR_SCATTER_ND) {
    s += "\n  updates: " + updates.ToString();
  }
  s += "\n  output:  " + output.ToString();
  for (uint32_t k = 0; type == DML_OPERATOR_SPLIT && k < more_output_count; ++k) {
    s += "\n  output" + std::to_string(k + 1) + ": " + more_outputs[k].ToString();
  }
  if (type == DML_OPERATOR_SLICE || type == DML_OPERATOR_SLICE1) {
    s += "\n  slice dims=" + std::to_string(slice_dimension_count) + " offsets=" +
         (offsets_null ? "null" : dmlcpu_test::SizesToString(offsets)) + " sizes=" +
         (window_sizes_null ? "null" : dmlcpu_test::SizesToString(window_sizes)) +
         " strides=";
    if (window_strides_null) {
      s += "null";
    } else if (type == DML_OPERATOR_SLICE) {
      s += dmlcpu_test::SizesToString(window_strides);
    } else {
      std::vector<uint32_t> as_unsigned(window_strides_signed.begin(),
                                        window_strides_signed.end());
      s += dmlcpu_test::SizesToString(as_unsigned) + "(as u32)";
    }
  }
  return s;
}

namespace {

[[noreturn]] void Finding(const FuzzCase& c, const std::string& what) {
  std::fprintf(stderr, "\n==== dmlcpu fuzz finding: %s\n  %s\n", what.c_str(),
               c.ToString().c_str());
  std::fflush(stderr);
  std::abort();
}


// A heap region with `guard_bytes` of poisoned guard on each side of `size_bytes` of data; the
// data starts at a multiple of `alignment` (<= kMaxAlignment).
class GuardedRegion {
 public:
  GuardedRegion(uint64_t size_bytes, uint64_t alignment)
      : guard_bytes_(std::max<uint64_t>(kGuardBytes, alignment)), size_bytes_(size_bytes) {
    total_bytes_ = guard_bytes_ * 2 + ((size_bytes + 63) & ~uint64_t{63});
    base_ = static_cast<uint8_t*>(dmlcpu_test::AlignedAlloc(kMaxAlignment, RoundUp(total_bytes_)));
    if (base_ == nullptr) std::abort();
    for (uint64_t i = 0; i < total_bytes_; ++i) base_[i] = static_cast<uint8_t>(0xA5 ^ (i * 7));
    PoisonGuards();
  }
  ~GuardedRegion() {
    Unpoison(base_, total_bytes_);
    dmlcpu_test::AlignedFree(base_);
  }
  GuardedRegion(const GuardedRegion&) = delete;
  GuardedRegion& operator=(const GuardedRegion&) = delete;

  uint8_t* data() { return base_ + guard_bytes_; }
  uint64_t size_bytes() const { return size_bytes_; }
  std::vector<uint8_t> Snapshot() {
    Unpoison(base_, total_bytes_);
    std::vector<uint8_t> copy(base_, base_ + total_bytes_);
    PoisonGuards();
    return copy;
  }

 private:
  static uint64_t RoundUp(uint64_t v) { return (v + kMaxAlignment - 1) & ~(kMaxAlignment - 1); }
  void PoisonGuards() {
    Poison(base_, guard_bytes_);
    Poison(data() + size_bytes_, total_bytes_ - guard_bytes_ - size_bytes_);
  }
  uint64_t guard_bytes_;
  uint64_t size_bytes_;
  uint64_t total_bytes_;
  uint8_t* base_ = nullptr;
};

// A value for one index element: in range, negative, edge values, 2^32 aliases, raw.
uint64_t IndexValue(FuzzInput& in, std::mt19937_64& rng) {
  const uint8_t b = in.U8();
  switch (b & 7) {
    case 5:
      return static_cast<uint64_t>(-static_cast<int64_t>(1 + (b >> 3) % 6));
    case 6: {
      static constexpr uint64_t kEdges[] = {0x7FFFFFFFull, 0x80000000ull, 0xFFFFFFFFull,
                                            0x100000000ull, 0x100000001ull,
                                            0x8000000000000000ull, 0xFFFFFFFFFFFFFFFFull,
                                            0x7FFFFFFFFFFFFFFFull};
      return kEdges[(b >> 3) & 7];
    }
    case 7:
      return rng();
    default:
      return (b >> 3) % 6;
  }
}

void FillIndices(FuzzInput& in, std::mt19937_64& rng, DML_TENSOR_DATA_TYPE type, uint8_t* data,
                 uint64_t size_bytes) {
  const uint32_t elem = DataTypeSizeBytes(type);
  if (elem == 0) return;
  for (uint64_t off = 0; off + elem <= size_bytes; off += elem) {
    const uint64_t v = IndexValue(in, rng);
    std::memcpy(data + off, &v, elem);  // little-endian truncation
  }
}

void FillRandom(std::mt19937_64& rng, uint8_t* data, uint64_t size_bytes) {
  for (uint64_t i = 0; i < size_bytes; ++i) data[i] = static_cast<uint8_t>(rng() >> 56);
}

// Product of the output sizes, saturating at 2^63.
uint64_t ElementCount(const TensorSpec& t) {
  uint64_t n = 1;
  for (uint32_t s : t.sizes) {
    if (s != 0 && n > (uint64_t{1} << 63) / s) return uint64_t{1} << 63;
    n *= s;
  }
  return n;
}

bool SmallEnoughToExecute(FuzzCase& c) {
  std::vector<TensorSpec*> tensors = c.Inputs();
  const std::vector<TensorSpec*> outputs = c.Outputs();
  tensors.insert(tensors.end(), outputs.begin(), outputs.end());
  for (const TensorSpec* t : tensors) {
    if (t->total_bytes > kMaxExecuteBytes || t->alignment > kMaxAlignment) return false;
  }
  for (const TensorSpec* t : outputs) {
    if (ElementCount(*t) > kMaxOutputElems) return false;
  }
  // The scatters' work is one step per update (updates may be broadcast: count, not bytes).
  return c.Inputs().size() < 3 || ElementCount(c.updates) <= kMaxOutputElems;
}

const dmlcpu::Device& PickDevice(uint8_t b) {
  static dmlcpu::Device* serial = new dmlcpu::Device(dmlcpu::DeviceOptions{1, nullptr});
  static dmlcpu::Device* parallel = new dmlcpu::Device(dmlcpu::DeviceOptions{4, nullptr});
  return (b & 1) ? *parallel : *serial;
}

// Executes a compiled case on guarded, exactly-sized buffers and compares with the reference.
void ExecuteAndCompare(FuzzCase& c, const dmlcpu::CompiledOperator& op, dmlcpu::IndexPolicy policy,
                       FuzzInput& in) {
  std::mt19937_64 rng(in.U64());
  std::vector<TensorSpec*> input_specs = c.Inputs();
  std::vector<std::unique_ptr<GuardedRegion>> inputs;
  std::vector<const void*> input_ptrs;
  std::vector<dmlcpu::Binding> bindings;
  for (size_t i = 0; i < input_specs.size(); ++i) {
    const TensorSpec& t = *input_specs[i];
    inputs.push_back(std::make_unique<GuardedRegion>(t.total_bytes, t.alignment));
    if (i == 1 && HasIndices(c.type)) {
      FillIndices(in, rng, t.data_type, inputs.back()->data(), t.total_bytes);
    } else {
      FillRandom(rng, inputs.back()->data(), t.total_bytes);
    }
    input_ptrs.push_back(inputs.back()->data());
    bindings.push_back({inputs.back()->data(), t.total_bytes});
  }
  std::vector<std::vector<uint8_t>> input_snapshots;
  for (auto& r : inputs) input_snapshots.push_back(r->Snapshot());

  std::vector<std::unique_ptr<GuardedRegion>> expected, actual;
  std::vector<void*> expected_ptrs;
  std::vector<dmlcpu::OutputBinding> outs;
  for (const TensorSpec* t : c.Outputs()) {
    expected.push_back(std::make_unique<GuardedRegion>(t->total_bytes, t->alignment));
    actual.push_back(std::make_unique<GuardedRegion>(t->total_bytes, t->alignment));
    expected_ptrs.push_back(expected.back()->data());
    outs.push_back({actual.back()->data(), t->total_bytes});
  }
  std::vector<std::vector<uint8_t>> untouched;
  for (auto& a : actual) untouched.push_back(a->Snapshot());
  const dmlcpu_test::ReferenceResult ref =
      dmlcpu_test::RunReference(c.op_desc, input_ptrs.data(), expected_ptrs.data());
  if (!ref.ok) Finding(c, "Compile accepted a descriptor the reference rejects: " + ref.error);

  const dmlcpu::Status s = op.Execute(bindings.data(), bindings.size(), outs.data(), outs.size());
  const char* policy_name = policy == dmlcpu::IndexPolicy::kStrict ? "kStrict" : "kClamp";
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i]->Snapshot() != input_snapshots[i]) {
      Finding(c, std::string("Execute modified inputs[") + std::to_string(i) + "] (" +
                     policy_name + ")");
    }
  }
  if (policy == dmlcpu::IndexPolicy::kStrict && ref.index_out_of_range) {
    if (s.code() != dmlcpu::StatusCode::kOutOfRange) {
      Finding(c, std::string("kStrict with an out-of-range index: expected kOutOfRange, got ") +
                     std::to_string(static_cast<int>(s.code())) + " " + s.message());
    }
    for (size_t o = 0; o < actual.size(); ++o) {
      if (actual[o]->Snapshot() != untouched[o]) Finding(c, "kStrict failure wrote the output");
    }
    return;
  }
  if (!s.ok()) {
    Finding(c, std::string("Execute failed on valid bindings (") + policy_name + "): " +
                   s.message());
  }
  for (size_t o = 0; o < actual.size(); ++o) {
    const std::vector<uint8_t> want = expected[o]->Snapshot();
    const std::vector<uint8_t> got = actual[o]->Snapshot();
    if (want != got) {
      size_t first = 0;
      while (want[first] == got[first]) ++first;
      Finding(c, "output " + std::to_string(o) + " differs from the reference (" + policy_name +
                     ") at region byte " + std::to_string(first));
    }
  }
}

}  // namespace

void CompileFuzzOne(const uint8_t* data, size_t size_bytes) {
  FuzzInput in(data, size_bytes);
  const uint8_t header = in.U8();
  FuzzCase c;
  Generate(in, /*hostile=*/(header & 3) != 0, &c);
  const DML_OPERATOR_DESC& desc = c.Build();
  const dmlcpu::Device& device = PickDevice(header >> 2);
  dmlcpu::StatusOr<dmlcpu::CompiledOperator> clamp =
      device.Compile(desc, {dmlcpu::IndexPolicy::kClamp});
  dmlcpu::StatusOr<dmlcpu::CompiledOperator> strict =
      device.Compile(desc, {dmlcpu::IndexPolicy::kStrict});
  if (clamp.ok() != strict.ok()) Finding(c, "Compile result depends on the index policy");
  if (!clamp.ok()) {
    const dmlcpu::Status& s = clamp.status();
    if (s.message().empty()) Finding(c, "Compile failed with an empty message");
    if (s.code() != dmlcpu::StatusCode::kInvalidArgument &&
        s.code() != dmlcpu::StatusCode::kUnsupported) {
      Finding(c, "Compile failed with an unexpected code: " + s.message());
    }
    return;
  }
  if (clamp->type() != c.type) Finding(c, "CompiledOperator::type() differs");
  if (clamp->input_count() != c.Inputs().size()) Finding(c, "input_count() differs");
  if (clamp->output_count() != c.Outputs().size()) Finding(c, "output_count() differs");
  (void)clamp->Describe();
  if (!SmallEnoughToExecute(c)) return;
  ExecuteAndCompare(c, *clamp, dmlcpu::IndexPolicy::kClamp, in);
  ExecuteAndCompare(c, *strict, dmlcpu::IndexPolicy::kStrict, in);
}

namespace {

// Whether a scatter's output may be bound to its input itself: the same element width and
// sizes, the same strides on every dimension of size > 1 (docs/semantics.md#scatter-and-scatter_nd).
bool ScatterInPlaceLayout(FuzzCase& c) {
  if (c.type != DML_OPERATOR_SCATTER && c.type != DML_OPERATOR_SCATTER_ND) return false;
  const TensorSpec& a = c.input;
  const TensorSpec& o = c.output;
  if (a.sizes != o.sizes || DataTypeSizeBytes(a.data_type) != DataTypeSizeBytes(o.data_type)) {
    return false;
  }
  const std::vector<uint32_t> sa = a.has_strides ? a.strides : dmlcpu_test::PackedStrides(a.sizes);
  const std::vector<uint32_t> so = o.has_strides ? o.strides : dmlcpu_test::PackedStrides(o.sizes);
  for (size_t d = 0; d < a.sizes.size(); ++d) {
    if (a.sizes[d] > 1 && sa[d] != so[d]) return false;
  }
  return true;
}

// One binding as the execute fuzzer hands it over.
struct HostileBinding {
  uint8_t pointer_mode = 0;  // 0 own, 1 null, 2 misaligned, 3 aliasing another binding
  uint32_t misalign_bytes = 0;
  uint32_t alias_target = 0;
  int64_t alias_delta_bytes = 0;
  uint64_t claimed_bytes = 0;  // Binding::size_bytes
  uint64_t real_bytes = 0;     // bytes actually addressable (unpoisoned) from the pointer
  uint64_t offset_bytes = 0;   // position in the arena
  uint8_t* data = nullptr;
};

}  // namespace

void ExecuteFuzzOne(const uint8_t* data, size_t size_bytes) {
  FuzzInput in(data, size_bytes);
  const uint8_t header = in.U8();
  FuzzCase c;
  Generate(in, /*hostile=*/false, &c);
  const DML_OPERATOR_DESC& desc = c.Build();
  const dmlcpu::IndexPolicy policy =
      (header & 2) ? dmlcpu::IndexPolicy::kStrict : dmlcpu::IndexPolicy::kClamp;
  dmlcpu::StatusOr<dmlcpu::CompiledOperator> op =
      PickDevice(header >> 2).Compile(desc, {policy});
  if (!op.ok() || !SmallEnoughToExecute(c)) return;

  // Bindings 0..n_in-1 are the inputs, n_in.. the outputs.
  std::vector<TensorSpec*> specs = c.Inputs();
  const size_t n_in = specs.size();
  const std::vector<TensorSpec*> output_specs = c.Outputs();
  specs.insert(specs.end(), output_specs.begin(), output_specs.end());
  const size_t n_out = output_specs.size();
  std::vector<HostileBinding> b(specs.size());
  for (size_t i = 0; i < b.size(); ++i) {
    const uint8_t mode = in.U8();
    const uint64_t total = specs[i]->total_bytes;
    switch (mode & 15) {
      case 12:
        b[i].pointer_mode = 1;
        break;
      case 13:
        b[i].pointer_mode = 2;
        b[i].misalign_bytes = 1 + in.U8() % 63;
        break;
      case 14:
      case 15:  // 14: exactly another binding's pointer (a scatter's in place when it is input 0)
        b[i].pointer_mode = 3;
        b[i].alias_target = in.U8() % specs.size();
        b[i].alias_delta_bytes =
            (mode & 15) == 14
                ? 0
                : static_cast<int64_t>(in.U32() % (2 * total + 1)) - static_cast<int64_t>(total);
        break;
      default:
        break;
    }
    switch ((mode >> 4) & 15) {
      case 12:
        b[i].claimed_bytes = total - std::min<uint64_t>(total, 1 + in.U8() % 16);
        break;
      case 13:
        b[i].claimed_bytes = 0;
        break;
      case 14:
        b[i].claimed_bytes = ~uint64_t{0};
        break;
      case 15:
        b[i].claimed_bytes = total + in.U8();
        break;
      default:
        b[i].claimed_bytes = total;
        break;
    }
    b[i].real_bytes = std::min(b[i].claimed_bytes, total + 64);
  }
  // Arena layout: own buffers one after another with poisoned gaps; aliases inside the arena.
  uint64_t cursor = kMaxAlignment;
  for (size_t i = 0; i < b.size(); ++i) {
    b[i].offset_bytes = cursor + (b[i].pointer_mode == 2 ? b[i].misalign_bytes : 0);
    cursor = (b[i].offset_bytes + b[i].real_bytes + 64 + kMaxAlignment - 1) & ~(kMaxAlignment - 1);
  }
  const uint64_t arena_bytes = cursor + kMaxAlignment;
  for (size_t i = 0; i < b.size(); ++i) {
    if (b[i].pointer_mode != 3 || b[i].alias_target == i) continue;
    const HostileBinding& target = b[b[i].alias_target];
    int64_t off = static_cast<int64_t>(target.offset_bytes) + b[i].alias_delta_bytes;
    off = std::max<int64_t>(off, 64);
    off = std::min<int64_t>(off, static_cast<int64_t>(arena_bytes - b[i].real_bytes - 64));
    b[i].offset_bytes = static_cast<uint64_t>(off);
  }
  uint8_t* arena = static_cast<uint8_t*>(dmlcpu_test::AlignedAlloc(kMaxAlignment, arena_bytes));
  if (arena == nullptr) std::abort();
  std::mt19937_64 rng(in.U64());
  FillRandom(rng, arena, arena_bytes);
  Poison(arena, arena_bytes);
  for (HostileBinding& hb : b) {
    hb.data = arena + hb.offset_bytes;
    Unpoison(hb.data, hb.real_bytes);
  }
  if (HasIndices(c.type)) {
    FillIndices(in, rng, c.indices.data_type, b[1].data, b[1].real_bytes);
  }
  for (size_t o = n_in; o < b.size(); ++o) {
    for (uint64_t i = 0; i < b[o].real_bytes; ++i) {
      b[o].data[i] = static_cast<uint8_t>(0x5A ^ (i * 13) ^ o);
    }
  }
  auto arena_snapshot = [&]() {
    Unpoison(arena, arena_bytes);
    std::vector<uint8_t> copy(arena, arena + arena_bytes);
    Poison(arena, arena_bytes);
    for (const HostileBinding& hb : b) Unpoison(hb.data, hb.real_bytes);
    return copy;
  };

  dmlcpu::Binding inputs[4] = {};
  for (size_t i = 0; i < n_in; ++i) {
    inputs[i] = {b[i].pointer_mode == 1 ? nullptr : b[i].data, b[i].claimed_bytes};
  }
  dmlcpu::OutputBinding outputs[1 + kMaxMoreOutputs + 1] = {};
  for (size_t o = 0; o < n_out; ++o) {
    const HostileBinding& hb = b[n_in + o];
    outputs[o] = {hb.pointer_mode == 1 ? nullptr : hb.data, hb.claimed_bytes};
  }
  size_t input_count = n_in;
  size_t output_count = n_out;
  const uint8_t counts = in.U8();
  if ((counts & 7) == 6) input_count = (counts >> 3) % 4;
  if ((counts & 7) == 7) output_count = (counts >> 3) % (n_out + 2);
  const bool inputs_null = counts == 0xF0;
  const bool outputs_null = counts == 0xF1;

  // Would the library accept these bindings? (dmlcpu.h: counts, null pointers, sizes against
  // TotalTensorSizeInBytes, GuaranteedBaseOffsetAlignment, no output range overlapping an input.)
  bool clean = input_count == n_in && output_count == n_out && !inputs_null && !outputs_null;
  for (size_t i = 0; i < b.size(); ++i) {
    const TensorSpec& t = *specs[i];
    if (b[i].pointer_mode == 1 || b[i].claimed_bytes < t.total_bytes) clean = false;
    if (t.alignment != 0 && reinterpret_cast<uintptr_t>(b[i].data) % t.alignment != 0) {
      clean = false;
    }
  }
  // No output may overlap an input or another output, except a scatter's output bound exactly
  // to its input with the same layout (in place).
  const bool in_place = b[n_in].data == b[0].data && ScatterInPlaceLayout(c);
  for (size_t o = n_in; o < b.size(); ++o) {
    const uintptr_t out_begin = reinterpret_cast<uintptr_t>(b[o].data);
    const uintptr_t out_end = out_begin + specs[o]->total_bytes;
    for (size_t i = 0; i < o; ++i) {
      if (in_place && o == n_in && i == 0) continue;
      const uintptr_t begin = reinterpret_cast<uintptr_t>(b[i].data);
      if (begin < out_end && out_begin < begin + specs[i]->total_bytes) clean = false;
    }
  }

  std::vector<std::vector<uint8_t>> expected_outputs;
  bool out_of_range = false;
  if (clean) {
    std::vector<std::unique_ptr<GuardedRegion>> expected;
    std::vector<void*> expected_ptrs;
    for (size_t o = n_in; o < b.size(); ++o) {
      expected.push_back(
          std::make_unique<GuardedRegion>(specs[o]->total_bytes, specs[o]->alignment));
      std::memcpy(expected.back()->data(), b[o].data, specs[o]->total_bytes);
      expected_ptrs.push_back(expected.back()->data());
    }
    std::vector<const void*> ptrs;
    for (size_t i = 0; i < n_in; ++i) ptrs.push_back(b[i].data);
    const dmlcpu_test::ReferenceResult ref =
        dmlcpu_test::RunReference(c.op_desc, ptrs.data(), expected_ptrs.data());
    if (!ref.ok) Finding(c, "Compile accepted a descriptor the reference rejects: " + ref.error);
    out_of_range = ref.index_out_of_range;
    for (size_t o = 0; o < n_out; ++o) {
      const uint8_t* e = expected[o]->data();
      expected_outputs.emplace_back(e, e + specs[n_in + o]->total_bytes);
    }
  }
  std::vector<uint8_t> before = arena_snapshot();
  const dmlcpu::Status s = op->Execute(inputs_null ? nullptr : inputs, input_count,
                                       outputs_null ? nullptr : outputs, output_count);
  const std::vector<uint8_t> after = arena_snapshot();
  Unpoison(arena, arena_bytes);  // poisoning is per address range: clear it before freeing
  dmlcpu_test::AlignedFree(arena);
  std::string where = " (counts " + std::to_string(input_count) + "/" +
                      std::to_string(output_count) + (in_place ? ", in place" : "") +
                      ", pointer modes";
  for (size_t i = 0; i < b.size(); ++i) {
    where += (i ? "," : " ") + std::to_string(b[i].pointer_mode);
  }
  where += ")";
  if (!clean || (policy == dmlcpu::IndexPolicy::kStrict && out_of_range)) {
    if (s.ok()) Finding(c, "Execute accepted hostile bindings" + where);
    if (clean && s.code() != dmlcpu::StatusCode::kOutOfRange) {
      Finding(c, "kStrict: expected kOutOfRange, got " + s.message());
    }
    if (!clean && s.code() != dmlcpu::StatusCode::kInvalidArgument) {
      Finding(c, "hostile bindings: expected kInvalidArgument, got " + s.message() + where);
    }
    if (s.message().empty()) Finding(c, "failed Execute without a message" + where);
    if (after != before) Finding(c, "a failed Execute wrote memory" + where);
    return;
  }
  if (!s.ok()) Finding(c, "Execute refused valid bindings: " + s.message() + where);
  for (size_t o = 0; o < n_out; ++o) {
    const std::vector<uint8_t>& want = expected_outputs[o];
    const uint64_t off = b[n_in + o].offset_bytes;
    if (!std::equal(want.begin(), want.end(), after.begin() + off)) {
      Finding(c, "output " + std::to_string(o) + " differs from the reference" + where);
    }
    // Every byte outside the outputs' TotalTensorSizeInBytes must be unchanged.
    std::copy(want.begin(), want.end(), before.begin() + off);
  }
  if (after != before) Finding(c, "Execute wrote outside the output tensors" + where);
}

}  // namespace dmlcpu_fuzz
