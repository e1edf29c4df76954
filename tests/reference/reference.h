// SPDX-License-Identifier: Apache-2.0
// Naive reference implementation of the data-movement operators dmlcpu executes, written
// straight from the pseudocode of docs/semantics.md (#gather to #slice1): for every output
// coordinate, compute the input coordinate, then copy one element through the element strides.
//
// Independent of the library on purpose: it includes only the DirectML-compatible declarations,
// never lib/ headers, and favours obviousness over speed (no rank collapsing, no fast paths).
//
// Out-of-range indices follow dmlcpu's IndexPolicy::kClamp rule
// (docs/semantics.md#out-of-range-indices), per
// coordinate: a signed index v < 0 becomes v + D once, the result is read as an unsigned 64-bit
// value and clamped to D - 1.
#ifndef DMLCPU_TESTS_REFERENCE_REFERENCE_H_
#define DMLCPU_TESTS_REFERENCE_REFERENCE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "dmlcpu/dml_compat.h"

namespace dmlcpu_test {

// Bytes per element of a data type; 0 for UNKNOWN, the 4-bit types and unknown values.
uint32_t DataTypeSizeBytes(DML_TENSOR_DATA_TYPE data_type);

// "FLOAT32", "INT8", ... ("?" for an unknown value).
const char* DataTypeName(DML_TENSOR_DATA_TYPE data_type);

// True for the four index types the gathers accept (INT32, INT64, UINT32, UINT64).
bool IsIndexDataType(DML_TENSOR_DATA_TYPE data_type);
bool IsSignedIndexDataType(DML_TENSOR_DATA_TYPE data_type);

// "{2,3,4}".
std::string SizesToString(const std::vector<uint32_t>& sizes);

// Packed row-major element strides for `sizes` (last stride 1).
std::vector<uint32_t> PackedStrides(const std::vector<uint32_t>& sizes);

// DMLCalcBufferTensorSize (docs/semantics.md#buffer-size) in 64-bit arithmetic: the minimum
// TotalTensorSizeInBytes, rounded up to a multiple of 4. `strides` may be null (packed).
// Returns 0 for a data type without a byte size.
uint64_t MinimumTensorSizeBytes(DML_TENSOR_DATA_TYPE data_type, uint32_t dimension_count,
                                const uint32_t* sizes, const uint32_t* strides);

// dmlcpu's kClamp rule for one index value. `raw` points at one element of `index_type`
// (unaligned access is fine). Returns the coordinate in [0, dim_size - 1]; sets *out_of_range
// when the value lies outside [-D, D - 1] (signed) or [0, D - 1] (unsigned).
uint64_t NormalizeIndex(DML_TENSOR_DATA_TYPE index_type, const void* raw, uint64_t dim_size,
                        bool* out_of_range);

// Output shape rules of section 5. Each returns false (and leaves *output_sizes unspecified)
// when the inputs violate a shape constraint of section 8.
//
// GATHER: full = In[0..Axis) ++ Idx[N-k..N) ++ In[Axis+1..N), right-aligned to N; the dropped
// leading entries and the index padding dims Idx[0..N-k) must be 1.
bool GatherOutputSizes(const std::vector<uint32_t>& input_sizes,
                       const std::vector<uint32_t>& indices_sizes, uint32_t axis,
                       uint32_t index_dimensions, std::vector<uint32_t>* output_sizes);
// GATHER_ND / GATHER_ND1: Out = [1]*(N-m) ++ Idx[N-q..N-1) ++ In[N-r+b+t..N) with t = Idx[N-1],
// m = (q-1) + (r-b-t); 1 <= r,q <= N, b < r, b < q, 1 <= t <= r-b, m <= N, and the batch sizes
// of Input and Indices equal.
bool GatherNdOutputSizes(const std::vector<uint32_t>& input_sizes,
                         const std::vector<uint32_t>& indices_sizes, uint32_t input_dims,
                         uint32_t indices_dims, uint32_t batch_dims,
                         std::vector<uint32_t>* output_sizes);

// Outcome of one reference run.
struct ReferenceResult {
  bool ok = false;                  // false: the descriptor is malformed; see `error`
  std::string error;                // empty when ok
  bool index_out_of_range = false;  // some index read lies outside its dimension
  uint64_t elements_written = 0;    // number of output coordinates visited
};

// Each writes every element of the output tensor (and nothing else: stride gaps and padding in
// `output` are left as they are). Buffers are the binding starts; `output` must hold at least
// the output's TotalTensorSizeInBytes. The descriptor's shapes are checked against the rules
// above before anything is read, so a malformed descriptor gives ok = false, never a wild read.
ReferenceResult ReferenceGather(const DML_GATHER_OPERATOR_DESC& desc, const void* input,
                                const void* indices, void* output);
ReferenceResult ReferenceGatherElements(const DML_GATHER_ELEMENTS_OPERATOR_DESC& desc,
                                        const void* input, const void* indices, void* output);
ReferenceResult ReferenceGatherNd(const DML_GATHER_ND_OPERATOR_DESC& desc, const void* input,
                                  const void* indices, void* output);
ReferenceResult ReferenceGatherNd1(const DML_GATHER_ND1_OPERATOR_DESC& desc, const void* input,
                                   const void* indices, void* output);
ReferenceResult ReferenceSlice(const DML_SLICE_OPERATOR_DESC& desc, const void* input,
                               void* output);
ReferenceResult ReferenceSlice1(const DML_SLICE1_OPERATOR_DESC& desc, const void* input,
                                void* output);

// ---- Families (each in tests/reference/reference_<family>.cc; one hunk each below) ---------

// Padding family: reference_padding.cc, reference_depth_space.cc, reference_slice_grad.cc.
ReferenceResult ReferencePadding(const DML_PADDING_OPERATOR_DESC& desc, const void* input,
                                 void* output);
ReferenceResult ReferencePadding1(const DML_PADDING1_OPERATOR_DESC& desc, const void* input,
                                  void* output);
ReferenceResult ReferenceDepthToSpace(const DML_DEPTH_TO_SPACE_OPERATOR_DESC& desc,
                                      const void* input, void* output);
ReferenceResult ReferenceSpaceToDepth(const DML_SPACE_TO_DEPTH_OPERATOR_DESC& desc,
                                      const void* input, void* output);
ReferenceResult ReferenceDepthToSpace1(const DML_DEPTH_TO_SPACE1_OPERATOR_DESC& desc,
                                       const void* input, void* output);
ReferenceResult ReferenceSpaceToDepth1(const DML_SPACE_TO_DEPTH1_OPERATOR_DESC& desc,
                                       const void* input, void* output);
ReferenceResult ReferenceSliceGrad(const DML_SLICE_GRAD_OPERATOR_DESC& desc,
                                   const void* input_gradient, void* output_gradient);
// ELEMENT_WISE_IDENTITY, JOIN, SPLIT, TILE (reference_copy_ops.cc).
ReferenceResult ReferenceIdentity(const DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC& desc,
                                  const void* input, void* output);
ReferenceResult ReferenceJoin(const DML_JOIN_OPERATOR_DESC& desc, const void* const* inputs,
                              void* output);
ReferenceResult ReferenceSplit(const DML_SPLIT_OPERATOR_DESC& desc, const void* input,
                               void* const* outputs);
ReferenceResult ReferenceTile(const DML_TILE_OPERATOR_DESC& desc, const void* input,
                              void* output);

// ---- Dispatch --------------------------------------------------------------------------------
// A family's references live in tests/reference/reference_<family>.cc (picked up by the build
// without CMake edits), declared in the Families hunk above, with one `case` each in RunReference,
// InputTensorsOf and OutputTensorsOf (reference.cc). Shared helpers: reference_internal.h.

// Dispatches on desc.Type. `inputs` / `outputs` are the binding starts in binding order
// (InputTensorsOf / OutputTensorsOf order, one pointer each). Writes the elements of every
// output and nothing else; the caller pre-fills gaps and checks them.
ReferenceResult RunReference(const DML_OPERATOR_DESC& desc, const void* const* inputs,
                             void* const* outputs);

// The tensor descs of an operator desc in binding order (struct field order, array fields
// expanded); empty for an unsupported type or a null Desc.
std::vector<const DML_TENSOR_DESC*> InputTensorsOf(const DML_OPERATOR_DESC& desc);
std::vector<const DML_TENSOR_DESC*> OutputTensorsOf(const DML_OPERATOR_DESC& desc);

}  // namespace dmlcpu_test

#endif  // DMLCPU_TESTS_REFERENCE_REFERENCE_H_
