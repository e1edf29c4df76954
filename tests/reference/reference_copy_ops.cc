// SPDX-License-Identifier: Apache-2.0
// Naive references of ELEMENT_WISE_IDENTITY, JOIN, SPLIT and TILE, straight from
// docs/semantics.md: for every output coordinate, the input coordinate, then one element copied
// through the element strides. Shapes are checked first, so a malformed desc never reads wild.
#include <cstdint>
#include <string>
#include <vector>

#include "reference/reference.h"
#include "reference/reference_internal.h"

namespace dmlcpu_test {

using reference_internal::CopyElement;
using reference_internal::Error;
using reference_internal::MakeView;
using reference_internal::NextCoordinate;
using reference_internal::TensorView;

ReferenceResult ReferenceIdentity(const DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC& desc,
                                  const void* input, void* output) {
  if (desc.ScaleBias != nullptr) return Error("IDENTITY: ScaleBias is arithmetic");
  TensorView in, out;
  std::string e = MakeView(desc.InputTensor, "IDENTITY input", &in);
  if (e.empty()) e = MakeView(desc.OutputTensor, "IDENTITY output", &out);
  if (!e.empty()) return Error(e);
  if (in.data_type != out.data_type || in.sizes != out.sizes) {
    return Error("IDENTITY: output type or sizes differ from the input's");
  }
  ReferenceResult result;
  result.ok = true;
  std::vector<uint64_t> c(out.rank, 0);
  do {  // Output[c] = Input[c]
    CopyElement(in, input, c, out, output, c);
    ++result.elements_written;
  } while (NextCoordinate(out.sizes, &c));
  return result;
}

namespace {

// The views of JOIN's inputs / SPLIT's outputs, checked against the whole tensor: same type and
// rank, every size equal but the axis, axis sizes summing to the whole's.
std::string PartViews(const char* op, const TensorView& whole, const DML_TENSOR_DESC* parts,
                      uint32_t count, uint32_t axis, std::vector<TensorView>* views) {
  if (count == 0 || parts == nullptr) return std::string(op) + ": no tensors";
  if (axis >= whole.rank) return std::string(op) + ": axis out of range";
  uint64_t sum = 0;
  views->resize(count);
  for (uint32_t k = 0; k < count; ++k) {
    std::string e = MakeView(&parts[k], op, &(*views)[k]);
    if (!e.empty()) return e;
    const TensorView& v = (*views)[k];
    if (v.data_type != whole.data_type || v.rank != whole.rank) {
      return std::string(op) + ": type or rank mismatch";
    }
    for (uint32_t d = 0; d < whole.rank; ++d) {
      if (d != axis && v.sizes[d] != whole.sizes[d]) return std::string(op) + ": size mismatch";
    }
    sum += v.sizes[axis];
  }
  if (sum != whole.sizes[axis]) return std::string(op) + ": axis sizes do not add up";
  return {};
}

}  // namespace

ReferenceResult ReferenceJoin(const DML_JOIN_OPERATOR_DESC& desc, const void* const* inputs,
                              void* output) {
  TensorView out;
  std::vector<TensorView> ins;
  std::string e = MakeView(desc.OutputTensor, "JOIN output", &out);
  if (e.empty()) e = PartViews("JOIN", out, desc.InputTensors, desc.InputCount, desc.Axis, &ins);
  if (!e.empty()) return Error(e);
  ReferenceResult result;
  result.ok = true;
  std::vector<uint64_t> o(out.rank, 0), c(out.rank, 0);
  do {  // Output[o] = Inputs[k][o with o[Axis] - (sizes along Axis of inputs before k)]
    uint64_t along = o[desc.Axis];
    uint32_t k = 0;
    while (along >= ins[k].sizes[desc.Axis]) along -= ins[k++].sizes[desc.Axis];
    c = o;
    c[desc.Axis] = along;
    CopyElement(ins[k], inputs[k], c, out, output, o);
    ++result.elements_written;
  } while (NextCoordinate(out.sizes, &o));
  return result;
}

ReferenceResult ReferenceSplit(const DML_SPLIT_OPERATOR_DESC& desc, const void* input,
                               void* const* outputs) {
  TensorView in;
  std::vector<TensorView> outs;
  std::string e = MakeView(desc.InputTensor, "SPLIT input", &in);
  if (e.empty()) {
    e = PartViews("SPLIT", in, desc.OutputTensors, desc.OutputCount, desc.Axis, &outs);
  }
  if (!e.empty()) return Error(e);
  ReferenceResult result;
  result.ok = true;
  uint64_t begin = 0;  // where output k starts along Axis
  for (uint32_t k = 0; k < desc.OutputCount; ++k) {
    std::vector<uint64_t> o(in.rank, 0), c(in.rank, 0);
    do {  // Outputs[k][o] = Input[o with o[Axis] + begin]
      c = o;
      c[desc.Axis] += begin;
      CopyElement(in, input, c, outs[k], outputs[k], o);
      ++result.elements_written;
    } while (NextCoordinate(outs[k].sizes, &o));
    begin += outs[k].sizes[desc.Axis];
  }
  return result;
}

ReferenceResult ReferenceTile(const DML_TILE_OPERATOR_DESC& desc, const void* input,
                              void* output) {
  TensorView in, out;
  std::string e = MakeView(desc.InputTensor, "TILE input", &in);
  if (e.empty()) e = MakeView(desc.OutputTensor, "TILE output", &out);
  if (!e.empty()) return Error(e);
  if (in.data_type != out.data_type || in.rank != out.rank || desc.RepeatsCount != in.rank ||
      desc.Repeats == nullptr) {
    return Error("TILE: type, rank or repeats mismatch");
  }
  for (uint32_t d = 0; d < in.rank; ++d) {
    if (desc.Repeats[d] == 0 || uint64_t{in.sizes[d]} * desc.Repeats[d] != out.sizes[d]) {
      return Error("TILE: output size is not input size * repeats");
    }
  }
  ReferenceResult result;
  result.ok = true;
  std::vector<uint64_t> o(out.rank, 0), c(out.rank, 0);
  do {  // Output[o] = Input[o mod In]
    for (uint32_t d = 0; d < out.rank; ++d) c[d] = o[d] % in.sizes[d];
    CopyElement(in, input, c, out, output, o);
    ++result.elements_written;
  } while (NextCoordinate(out.sizes, &o));
  return result;
}

}  // namespace dmlcpu_test
