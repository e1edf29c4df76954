// SPDX-License-Identifier: Apache-2.0
// The binding checks and the bad-index message of bindings.h.
#include "api/bindings.h"

#include <cstring>
#include <string>
#include <vector>

#include "core/format.h"

namespace dmlcpu {
namespace internal {
namespace {

// "InputTensor, IndicesTensor": the fields of `bindings`, for count messages.
std::string FieldList(const std::vector<BindingInfo>& bindings) {
  std::string text;
  for (const BindingInfo& b : bindings) {
    if (!text.empty()) text += ", ";
    text += b.field;
  }
  return text;
}

// Whether the binding counts and array pointers of an Execute or ExecuteNative call are usable.
bool BindingArraysFit(const Program& program, const void* inputs, size_t input_count,
                      const void* outputs, size_t output_count) {
  return input_count == program.input_count && output_count == program.output_count &&
         (inputs != nullptr || input_count == 0) && outputs != nullptr;
}

// Whether one binding is usable for `tensor`: non-null, large enough, aligned as declared.
bool BindingFits(const void* data, uint64_t size_bytes, const TensorInfo& tensor) {
  return data != nullptr && size_bytes >= tensor.total_bytes &&
         (tensor.alignment_bytes == 0 ||
          reinterpret_cast<uintptr_t>(data) % tensor.alignment_bytes == 0);
}

// BindingArraysFit, or the first reason it fails.
Status CheckBindingArrays(const char* op, const Program& program, const void* inputs,
                          size_t input_count, const void* outputs, size_t output_count) {
  if (BindingArraysFit(program, inputs, input_count, outputs, output_count)) return Status::Ok();
  if (input_count != program.input_count) {
    return InvalidArgument("%s: input_count is %zu, expected %u (%s)", op, input_count,
                           program.input_count, FieldList(program.inputs).c_str());
  }
  if (output_count != program.output_count) {
    return InvalidArgument("%s: output_count is %zu, expected %u (%s)", op, output_count,
                           program.output_count, FieldList(program.outputs).c_str());
  }
  if (inputs == nullptr && input_count > 0)
    return InvalidArgument("%s: inputs is null, expected a non-null pointer", op);
  return InvalidArgument("%s: outputs is null, expected a non-null pointer", op);
}

// BindingFits, or the first reason it fails.
Status CheckBinding(const char* op, const char* kind, uint32_t i, const char* field,
                    const void* data, uint64_t size_bytes, const TensorInfo& tensor) {
  if (BindingFits(data, size_bytes, tensor)) return Status::Ok();
  if (data == nullptr)
    return InvalidArgument("%s: %s[%u].data (%s) is null, expected a non-null pointer", op, kind, i,
                           field);
  if (size_bytes < tensor.total_bytes) {
    return InvalidArgument(
        "%s: %s[%u].size_bytes is %llu, expected >= %llu "
        "(%s.TotalTensorSizeInBytes)",
        op, kind, i, static_cast<unsigned long long>(size_bytes),
        static_cast<unsigned long long>(tensor.total_bytes), field);
  }
  return InvalidArgument(
      "%s: %s[%u].data (%s) is %p, expected a multiple of %u (%s.GuaranteedBaseOffsetAlignment)",
      op, kind, i, field, data, tensor.alignment_bytes, field);
}

// An index value of type I stored at p, as decimal text.
template <typename I>
std::string IndexText(const uint8_t* p) {
  I v;
  std::memcpy(&v, p, sizeof(v));
  return std::to_string(v);
}

// Value of the index at `flat_position` of the indices tensor, as text.
std::string IndexValueText(const Program& program, const uint8_t* indices,
                           uint64_t flat_position, std::string* coords_text) {
  const TensorInfo& t = program.geometry.indices;
  int64_t coords[kMaxRank];
  uint64_t rest = flat_position;
  int64_t offset_bytes = 0;
  for (uint32_t d = t.rank; d-- > 0;) {
    coords[d] = static_cast<int64_t>(rest % t.sizes[d]);
    rest /= t.sizes[d];
    offset_bytes +=
        static_cast<int64_t>(static_cast<uint64_t>(coords[d]) * t.strides_elems[d] * t.elem_bytes);
  }
  *coords_text = FormatList(coords, t.rank);
  const uint8_t* p = indices + offset_bytes;
  switch (program.geometry.index_type) {
    case kernels::IndexType::kInt32: return IndexText<int32_t>(p);
    case kernels::IndexType::kUint32: return IndexText<uint32_t>(p);
    case kernels::IndexType::kInt64: return IndexText<int64_t>(p);
    case kernels::IndexType::kUint64: return IndexText<uint64_t>(p);
  }
  return "?";
}

// [begin, end) of a binding's declared bytes; ends saturate, so a TotalTensorSizeInBytes near
// 2^64 cannot wrap past the address space.
struct AddressRange {
  uintptr_t begin, end;
};
AddressRange RangeOf(const void* data, uint64_t bytes) {
  const auto begin = reinterpret_cast<uintptr_t>(data);
  return {begin, bytes > UINTPTR_MAX - begin ? UINTPTR_MAX : begin + static_cast<uintptr_t>(bytes)};
}
bool Overlap(AddressRange a, AddressRange b) { return a.begin < b.end && b.begin < a.end; }

Status OverlapError(const char* op, uint32_t o, const BindingInfo& out, const void* out_data,
                    const char* kind, uint32_t i, const BindingInfo& other,
                    const void* other_data) {
  return InvalidArgument(
      "%s: outputs[%u] (%s, %llu bytes at %p) overlaps %s[%u] (%s, %llu bytes at %p), "
      "expected disjoint ranges",
      op, o, out.field.c_str(), static_cast<unsigned long long>(out.tensor.total_bytes), out_data,
      kind, i, other.field.c_str(), static_cast<unsigned long long>(other.tensor.total_bytes),
      other_data);
}

// An output and the binding it overlaps: inputs[other] or (other_is_output) outputs[other].
struct OverlapPair {
  bool found = false;
  uint32_t output = 0;
  bool other_is_output = false;
  uint32_t other = 0;
};

// The first output that overlaps an input or an earlier output (O(bindings^2), a handful in
// practice), except outputs[0] bound exactly to the input the program allows in place (the same
// pointer; Compile proved the layouts equal).
OverlapPair FindOverlap(const Program& program, const Binding* inputs,
                        const OutputBinding* outputs) {
  const bool in_place = BoundInPlace(program, inputs, outputs);
  for (uint32_t o = 0; o < program.output_count; ++o) {
    const AddressRange out = RangeOf(outputs[o].data, program.outputs[o].tensor.total_bytes);
    for (uint32_t i = 0; i < program.input_count; ++i) {
      if (in_place && o == 0 && i == program.in_place_input) continue;
      if (Overlap(out, RangeOf(inputs[i].data, program.inputs[i].tensor.total_bytes))) {
        return {true, o, false, i};
      }
    }
    for (uint32_t p = 0; p < o; ++p) {
      if (Overlap(out, RangeOf(outputs[p].data, program.outputs[p].tensor.total_bytes))) {
        return {true, o, true, p};
      }
    }
  }
  return {};
}

}  // namespace

bool BoundInPlace(const Program& program, const Binding* inputs, const OutputBinding* outputs) {
  return program.in_place_input != kNoBinding &&
         outputs[0].data == inputs[program.in_place_input].data;
}

bool BindingsOk(const Program& program, const Binding* inputs, size_t input_count,
                const OutputBinding* outputs, size_t output_count) {
  if (!BindingArraysFit(program, inputs, input_count, outputs, output_count)) return false;
  for (uint32_t i = 0; i < program.input_count; ++i) {
    if (!BindingFits(inputs[i].data, inputs[i].size_bytes, program.inputs[i].tensor)) return false;
  }
  for (uint32_t o = 0; o < program.output_count; ++o) {
    if (!BindingFits(outputs[o].data, outputs[o].size_bytes, program.outputs[o].tensor)) {
      return false;
    }
  }
  return !FindOverlap(program, inputs, outputs).found;
}

Status CheckBindings(const Program& program, const Binding* inputs, size_t input_count,
                     const OutputBinding* outputs, size_t output_count) {
  const char* op = program.geometry.name;
  Status counts = CheckBindingArrays(op, program, inputs, input_count, outputs, output_count);
  if (!counts.ok()) return counts;
  for (uint32_t i = 0; i < program.input_count; ++i) {
    const BindingInfo& b = program.inputs[i];
    Status s = CheckBinding(op, "inputs", i, b.field.c_str(), inputs[i].data,
                            inputs[i].size_bytes, b.tensor);
    if (!s.ok()) return s;
  }
  for (uint32_t o = 0; o < program.output_count; ++o) {
    const BindingInfo& b = program.outputs[o];
    Status s = CheckBinding(op, "outputs", o, b.field.c_str(), outputs[o].data,
                            outputs[o].size_bytes, b.tensor);
    if (!s.ok()) return s;
  }
  const OverlapPair pair = FindOverlap(program, inputs, outputs);
  if (!pair.found) return Status::Ok();
  const uint32_t o = pair.output, k = pair.other;
  if (pair.other_is_output) {
    return OverlapError(op, o, program.outputs[o], outputs[o].data, "outputs", k,
                        program.outputs[k], outputs[k].data);
  }
  return OverlapError(op, o, program.outputs[o], outputs[o].data, "inputs", k, program.inputs[k],
                      inputs[k].data);
}

Status CheckNativeBindings(const Program& program, const NativeBinding* inputs,
                           size_t input_count, const NativeBinding* outputs,
                           size_t output_count) {
  const char* op = program.geometry.name;
  Status counts = CheckBindingArrays(op, program, inputs, input_count, outputs, output_count);
  if (!counts.ok()) return counts;
  const auto check = [op](const NativeBinding& binding, const BindingInfo& info) {
    const char* field = info.field.c_str();
    if (binding.resource == nullptr) {
      return InvalidArgument("%s: %s resource is null, expected a non-null pointer", op, field);
    }
    if (binding.size_bytes < info.tensor.total_bytes) {
      return InvalidArgument(
          "%s: %s size_bytes is %llu, expected >= %llu "
          "(%s.TotalTensorSizeInBytes)",
          op, field, static_cast<unsigned long long>(binding.size_bytes),
          static_cast<unsigned long long>(info.tensor.total_bytes), field);
    }
    if (binding.offset_bytes % 16 != 0) {
      return InvalidArgument("%s: %s offset_bytes is %llu, expected a multiple of 16", op, field,
                             static_cast<unsigned long long>(binding.offset_bytes));
    }
    return Status::Ok();
  };
  for (uint32_t i = 0; i < program.input_count; ++i) {
    Status s = check(inputs[i], program.inputs[i]);
    if (!s.ok()) return s;
  }
  for (uint32_t i = 0; i < program.output_count; ++i) {
    Status s = check(outputs[i], program.outputs[i]);
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

Status BadIndexError(const Program& program, const uint8_t* indices, const BadIndex& bad) {
  const IndexScans& scans = program.index_scans;
  std::string coords;
  const std::string value = IndexValueText(program, indices, bad.flat_position, &coords);
  const IndexScan& scan = scans.scans[bad.component];
  const bool is_signed = scans.index_type == kernels::IndexType::kInt32 ||
                         scans.index_type == kernels::IndexType::kInt64;
  const long long d = static_cast<long long>(scan.dim_size);
  return Status(StatusCode::kOutOfRange,
                StrFormat("%s: IndicesTensor element %llu (coordinates %s) is %s, "
                          "expected in [%lld, %lld] (InputTensor.Sizes[%u])",
                          program.geometry.name, static_cast<unsigned long long>(bad.flat_position),
                          coords.c_str(), value.c_str(), is_signed ? -d : 0LL, d - 1,
                          scan.input_dim));
}

}  // namespace internal
}  // namespace dmlcpu
