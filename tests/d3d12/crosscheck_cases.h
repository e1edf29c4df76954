// SPDX-License-Identifier: Apache-2.0
// Seeded random cases for the DirectML cross-check, identical on every platform: the Windows
// runner (real DirectML through the D3D12 backend, under wine) and the native Linux comparer
// (CPU backend) regenerate the same bytes from the same (seed, index).
#ifndef DMLCPU_TESTS_D3D12_CROSSCHECK_CASES_H_
#define DMLCPU_TESTS_D3D12_CROSSCHECK_CASES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dmlcpu/dml_compat.h"

namespace dmlcpu_crosscheck {

// First byte of every output element before execution. Generated input elements never start
// with it, so an element a backend failed to write is always visible.
constexpr uint8_t kSentinelByte = 0xCD;

struct TensorSpec {
  DML_TENSOR_DATA_TYPE data_type = DML_TENSOR_DATA_TYPE_UNKNOWN;
  std::vector<uint32_t> sizes;
  std::vector<uint32_t> strides;  // empty = packed (Strides null)
  uint64_t total_bytes = 0;
};

// One operator invocation: descriptor, input bytes and the sentinel-filled output.
// Not copyable: the DML structs point into it.
struct Case {
  Case() = default;
  Case(const Case&) = delete;
  Case& operator=(const Case&) = delete;

  uint64_t index = 0;
  DML_OPERATOR_TYPE type = DML_OPERATOR_INVALID;
  TensorSpec input, indices, output;
  bool has_indices = false;
  uint32_t axis = 0, index_dimensions = 0;
  uint32_t input_dims = 0, indices_dims = 0, batch_dims = 0;
  std::vector<uint32_t> window_offsets, window_sizes, slice_strides;
  std::vector<int32_t> window_strides;
  std::vector<uint8_t> input_bytes, indices_bytes, output_init;
  // Non-empty when docs/semantics.md#observed-directml-behaviour lists a DirectML bug for this
  // descriptor.
  std::string known_directml_bug;

  // Descriptor storage (filled by BuildDesc).
  DML_BUFFER_TENSOR_DESC buffer_descs[3] = {};
  DML_TENSOR_DESC tensor_descs[3] = {};
  DML_GATHER_OPERATOR_DESC gather = {};
  DML_GATHER_ELEMENTS_OPERATOR_DESC gather_elements = {};
  DML_GATHER_ND_OPERATOR_DESC gather_nd = {};
  DML_GATHER_ND1_OPERATOR_DESC gather_nd1 = {};
  DML_SLICE_OPERATOR_DESC slice = {};
  DML_SLICE1_OPERATOR_DESC slice1 = {};
  DML_OPERATOR_DESC desc = {};

  // One line: operator, types, shapes, strides and attributes.
  std::string Describe() const;
};

// Case `index` of the run seeded with `seed`; always a descriptor dmlcpu accepts. Operators
// rotate GATHER, GATHER_ELEMENTS, GATHER_ND, GATHER_ND1, SLICE, SLICE1 by index.
std::unique_ptr<Case> GenerateCase(uint64_t seed, uint64_t index);

// Byte offsets of every logical element of `t` (row-major order).
std::vector<uint64_t> ElementOffsets(const TensorSpec& t);
uint32_t ElementBytes(DML_TENSOR_DATA_TYPE data_type);

}  // namespace dmlcpu_crosscheck

#endif  // DMLCPU_TESTS_D3D12_CROSSCHECK_CASES_H_
