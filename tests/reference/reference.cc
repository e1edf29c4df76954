// SPDX-License-Identifier: Apache-2.0
#include "reference/reference.h"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "reference/reference_internal.h"
#include "reference/reference_scatter.h"

namespace dmlcpu_test {

namespace reference_internal {

std::string MakeView(const DML_TENSOR_DESC* tensor, const char* name, TensorView* view) {
  const std::string prefix = std::string(name) + ": ";
  if (tensor == nullptr) return prefix + "null tensor desc";
  if (tensor->Type != DML_TENSOR_TYPE_BUFFER || tensor->Desc == nullptr) {
    return prefix + "not a buffer tensor";
  }
  const auto* buffer = static_cast<const DML_BUFFER_TENSOR_DESC*>(tensor->Desc);
  if (buffer->DimensionCount < 1 || buffer->DimensionCount > kMaxRank) {
    return prefix + "DimensionCount out of [1, 8]";
  }
  if (buffer->Sizes == nullptr) return prefix + "null Sizes";
  view->data_type = buffer->DataType;
  view->element_bytes = DataTypeSizeBytes(buffer->DataType);
  if (view->element_bytes == 0) return prefix + "data type without a byte size";
  view->rank = buffer->DimensionCount;
  view->sizes.assign(buffer->Sizes, buffer->Sizes + view->rank);
  for (uint32_t size : view->sizes) {
    if (size == 0) return prefix + "a size is 0";
  }
  view->strides_elems.assign(view->rank, 0);
  if (buffer->Strides != nullptr) {
    for (uint32_t d = 0; d < view->rank; ++d) view->strides_elems[d] = buffer->Strides[d];
  } else {
    uint64_t stride = 1;
    for (uint32_t d = view->rank; d-- > 0;) {
      view->strides_elems[d] = stride;
      stride *= view->sizes[d];
    }
  }
  return std::string();
}

bool NextCoordinate(const std::vector<uint32_t>& sizes, std::vector<uint64_t>* coord) {
  for (size_t d = sizes.size(); d-- > 0;) {
    if (++(*coord)[d] < sizes[d]) return true;
    (*coord)[d] = 0;
  }
  return false;
}

}  // namespace reference_internal

namespace {

using reference_internal::CopyElement;
using reference_internal::Error;
using reference_internal::MakeView;
using reference_internal::NextCoordinate;
using reference_internal::TensorView;

// Views of the three tensors of an indexed operator with the common checks: same rank, same
// data type for input and output, an index type for the indices.
std::string MakeIndexedViews(const DML_TENSOR_DESC* input_desc, const DML_TENSOR_DESC* indices_desc,
                             const DML_TENSOR_DESC* output_desc, TensorView* in, TensorView* idx,
                             TensorView* out) {
  std::string error = MakeView(input_desc, "InputTensor", in);
  if (error.empty()) error = MakeView(indices_desc, "IndicesTensor", idx);
  if (error.empty()) error = MakeView(output_desc, "OutputTensor", out);
  if (!error.empty()) return error;
  if (in->rank != out->rank || idx->rank != out->rank) return "DimensionCount differs";
  if (in->data_type != out->data_type) return "Input/Output data types differ";
  if (!IsIndexDataType(idx->data_type)) return "IndicesTensor has no index data type";
  return std::string();
}

std::string MakeSliceViews(const DML_TENSOR_DESC* input_desc, const DML_TENSOR_DESC* output_desc,
                           uint32_t dimension_count, TensorView* in, TensorView* out) {
  std::string error = MakeView(input_desc, "InputTensor", in);
  if (error.empty()) error = MakeView(output_desc, "OutputTensor", out);
  if (!error.empty()) return error;
  if (in->rank != out->rank) return "DimensionCount differs";
  if (dimension_count != out->rank) return "operator DimensionCount differs from the tensors'";
  if (in->data_type != out->data_type) return "Input/Output data types differ";
  return std::string();
}

// Shared body of GATHER_ND and GATHER_ND1 (GATHER_ND is b = 0), docs/semantics.md#gather_nd1.
ReferenceResult GatherNdImpl(const DML_TENSOR_DESC* input_desc, const DML_TENSOR_DESC* indices_desc,
                             const DML_TENSOR_DESC* output_desc, uint32_t r, uint32_t q, uint32_t b,
                             const void* input, const void* indices, void* output) {
  TensorView in, idx, out;
  std::string error = MakeIndexedViews(input_desc, indices_desc, output_desc, &in, &idx, &out);
  if (!error.empty()) return Error(error);
  std::vector<uint32_t> expected_sizes;
  if (!GatherNdOutputSizes(in.sizes, idx.sizes, r, q, b, &expected_sizes)) {
    return Error("GATHER_ND: shapes violate the constraints");
  }
  if (expected_sizes != out.sizes) {
    return Error("GATHER_ND: output sizes " + SizesToString(out.sizes) + ", rule gives " +
                 SizesToString(expected_sizes));
  }
  const uint32_t n = out.rank;
  const uint32_t t = idx.sizes[n - 1];
  const uint32_t m = (q - 1) + (r - b - t);

  ReferenceResult result;
  result.ok = true;
  std::vector<uint64_t> o(n, 0), idx_coord(n, 0), in_coord(n, 0);
  do {
    // oo = o[N-m .. N): the meaningful part of the output coordinate.
    const uint64_t* oo = o.data() + (n - m);
    // Index coordinate: [0]*(N-q) ++ ipos ++ [j], ipos = oo[0 .. q-1).
    for (uint32_t d = 0; d < n; ++d) idx_coord[d] = 0;
    for (uint32_t i = 0; i + 1 < q; ++i) idx_coord[n - q + i] = oo[i];
    // Input coordinate: [0]*(N-r) ++ batch ++ c ++ rest.
    for (uint32_t d = 0; d < n; ++d) in_coord[d] = 0;
    for (uint32_t i = 0; i < b; ++i) in_coord[n - r + i] = oo[i];
    for (uint32_t j = 0; j < t; ++j) {
      idx_coord[n - 1] = j;
      const uint8_t* raw = static_cast<const uint8_t*>(indices) + idx.ByteOffset(idx_coord);
      bool out_of_range = false;
      in_coord[n - r + b + j] =
          NormalizeIndex(idx.data_type, raw, in.sizes[n - r + b + j], &out_of_range);
      result.index_out_of_range |= out_of_range;
    }
    // rest = oo[q-1 .. m) fills the input dims after the tuple.
    for (uint32_t i = 0; i < m - (q - 1); ++i) in_coord[n - r + b + t + i] = oo[q - 1 + i];
    CopyElement(in, input, in_coord, out, output, o);
    ++result.elements_written;
  } while (NextCoordinate(out.sizes, &o));
  return result;
}

}  // namespace

std::string SizesToString(const std::vector<uint32_t>& sizes) {
  std::string text = "{";
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i != 0) text += ",";
    text += std::to_string(sizes[i]);
  }
  return text + "}";
}

uint32_t DataTypeSizeBytes(DML_TENSOR_DATA_TYPE data_type) {
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

const char* DataTypeName(DML_TENSOR_DATA_TYPE data_type) {
  switch (data_type) {
    case DML_TENSOR_DATA_TYPE_UNKNOWN:
      return "UNKNOWN";
    case DML_TENSOR_DATA_TYPE_FLOAT32:
      return "FLOAT32";
    case DML_TENSOR_DATA_TYPE_FLOAT16:
      return "FLOAT16";
    case DML_TENSOR_DATA_TYPE_UINT32:
      return "UINT32";
    case DML_TENSOR_DATA_TYPE_UINT16:
      return "UINT16";
    case DML_TENSOR_DATA_TYPE_UINT8:
      return "UINT8";
    case DML_TENSOR_DATA_TYPE_INT32:
      return "INT32";
    case DML_TENSOR_DATA_TYPE_INT16:
      return "INT16";
    case DML_TENSOR_DATA_TYPE_INT8:
      return "INT8";
    case DML_TENSOR_DATA_TYPE_FLOAT64:
      return "FLOAT64";
    case DML_TENSOR_DATA_TYPE_UINT64:
      return "UINT64";
    case DML_TENSOR_DATA_TYPE_INT64:
      return "INT64";
    case DML_TENSOR_DATA_TYPE_UINT4:
      return "UINT4";
    case DML_TENSOR_DATA_TYPE_INT4:
      return "INT4";
  }
  return "?";
}

bool IsIndexDataType(DML_TENSOR_DATA_TYPE data_type) {
  return data_type == DML_TENSOR_DATA_TYPE_INT32 || data_type == DML_TENSOR_DATA_TYPE_INT64 ||
         data_type == DML_TENSOR_DATA_TYPE_UINT32 || data_type == DML_TENSOR_DATA_TYPE_UINT64;
}

bool IsSignedIndexDataType(DML_TENSOR_DATA_TYPE data_type) {
  return data_type == DML_TENSOR_DATA_TYPE_INT32 || data_type == DML_TENSOR_DATA_TYPE_INT64;
}

std::vector<uint32_t> PackedStrides(const std::vector<uint32_t>& sizes) {
  std::vector<uint32_t> strides(sizes.size(), 1);
  for (size_t d = sizes.size(); d-- > 1;) strides[d - 1] = strides[d] * sizes[d];
  return strides;
}

uint64_t MinimumTensorSizeBytes(DML_TENSOR_DATA_TYPE data_type, uint32_t dimension_count,
                                const uint32_t* sizes, const uint32_t* strides) {
  const uint64_t element_bytes = DataTypeSizeBytes(data_type);
  if (element_bytes == 0) return 0;
  uint64_t element_count = 0;
  if (strides == nullptr) {
    element_count = 1;
    for (uint32_t d = 0; d < dimension_count; ++d) element_count *= sizes[d];
  } else {
    uint64_t last_index = 0;
    for (uint32_t d = 0; d < dimension_count; ++d) {
      last_index += (static_cast<uint64_t>(sizes[d]) - 1) * strides[d];
    }
    element_count = last_index + 1;
  }
  const uint64_t bytes = element_count * element_bytes;
  return (bytes + 3) & ~uint64_t{3};
}

uint64_t NormalizeIndex(DML_TENSOR_DATA_TYPE index_type, const void* raw, uint64_t dim_size,
                        bool* out_of_range) {
  uint64_t as_unsigned = 0;
  if (IsSignedIndexDataType(index_type)) {
    int64_t value = 0;
    if (index_type == DML_TENSOR_DATA_TYPE_INT32) {
      int32_t value32 = 0;
      std::memcpy(&value32, raw, sizeof(value32));
      value = value32;
    } else {
      std::memcpy(&value, raw, sizeof(value));
    }
    const int64_t dim = static_cast<int64_t>(dim_size);
    *out_of_range = value < -dim || value >= dim;
    if (value < 0) value += dim;  // once; may still be negative
    as_unsigned = static_cast<uint64_t>(value);
  } else {
    if (index_type == DML_TENSOR_DATA_TYPE_UINT32) {
      uint32_t value32 = 0;
      std::memcpy(&value32, raw, sizeof(value32));
      as_unsigned = value32;
    } else {
      std::memcpy(&as_unsigned, raw, sizeof(as_unsigned));
    }
    *out_of_range = as_unsigned >= dim_size;
  }
  return as_unsigned < dim_size ? as_unsigned : dim_size - 1;
}

bool GatherOutputSizes(const std::vector<uint32_t>& input_sizes,
                       const std::vector<uint32_t>& indices_sizes, uint32_t axis,
                       uint32_t index_dimensions, std::vector<uint32_t>* output_sizes) {
  const size_t n = input_sizes.size();
  const uint32_t k = index_dimensions;
  if (n == 0 || indices_sizes.size() != n || axis >= n || k > n) return false;
  for (size_t d = 0; d + k < n; ++d) {
    if (indices_sizes[d] != 1) return false;  // index padding dims
  }
  std::vector<uint32_t> full(input_sizes.begin(), input_sizes.begin() + axis);
  full.insert(full.end(), indices_sizes.end() - k, indices_sizes.end());
  full.insert(full.end(), input_sizes.begin() + axis + 1, input_sizes.end());
  while (full.size() > n) {
    if (full.front() != 1) return false;
    full.erase(full.begin());
  }
  while (full.size() < n) full.insert(full.begin(), 1);
  *output_sizes = full;
  return true;
}

bool GatherNdOutputSizes(const std::vector<uint32_t>& input_sizes,
                         const std::vector<uint32_t>& indices_sizes, uint32_t input_dims,
                         uint32_t indices_dims, uint32_t batch_dims,
                         std::vector<uint32_t>* output_sizes) {
  const uint32_t n = static_cast<uint32_t>(input_sizes.size());
  const uint32_t r = input_dims, q = indices_dims, b = batch_dims;
  if (n == 0 || indices_sizes.size() != n) return false;
  if (r < 1 || r > n || q < 1 || q > n || b >= r || b >= q) return false;
  const uint32_t t = indices_sizes[n - 1];
  if (t < 1 || t > r - b) return false;
  const uint32_t m = (q - 1) + (r - b - t);
  if (m > n) return false;
  for (uint32_t i = 0; i < b; ++i) {
    if (indices_sizes[n - q + i] != input_sizes[n - r + i]) return false;
  }
  std::vector<uint32_t> sizes(n - m, 1);
  sizes.insert(sizes.end(), indices_sizes.begin() + (n - q), indices_sizes.end() - 1);
  sizes.insert(sizes.end(), input_sizes.begin() + (n - r + b + t), input_sizes.end());
  *output_sizes = sizes;
  return true;
}

ReferenceResult ReferenceGather(const DML_GATHER_OPERATOR_DESC& desc, const void* input,
                                const void* indices, void* output) {
  TensorView in, idx, out;
  std::string error =
      MakeIndexedViews(desc.InputTensor, desc.IndicesTensor, desc.OutputTensor, &in, &idx, &out);
  if (!error.empty()) return Error("GATHER: " + error);
  std::vector<uint32_t> expected_sizes;
  if (!GatherOutputSizes(in.sizes, idx.sizes, desc.Axis, desc.IndexDimensions, &expected_sizes)) {
    return Error("GATHER: shapes violate the constraints");
  }
  if (expected_sizes != out.sizes) {
    return Error("GATHER: output sizes " + SizesToString(out.sizes) + ", rule gives " +
                 SizesToString(expected_sizes));
  }
  const int64_t n = out.rank;
  const int64_t axis = desc.Axis;
  const int64_t k = desc.IndexDimensions;

  ReferenceResult result;
  result.ok = true;
  std::vector<uint64_t> o(n, 0), idx_coord(n, 0), in_coord(n, 0);
  do {
    // idxCoord[N-k+m] = o[Axis-k+1+m]; a position before 0 was dropped (its size is 1).
    for (int64_t d = 0; d < n; ++d) idx_coord[d] = 0;
    for (int64_t m = 0; m < k; ++m) {
      const int64_t pos = axis - k + 1 + m;
      idx_coord[n - k + m] = pos >= 0 ? o[pos] : 0;
    }
    const uint8_t* raw = static_cast<const uint8_t*>(indices) + idx.ByteOffset(idx_coord);
    bool out_of_range = false;
    in_coord[axis] = NormalizeIndex(idx.data_type, raw, in.sizes[axis], &out_of_range);
    result.index_out_of_range |= out_of_range;
    for (int64_t j = axis + 1; j < n; ++j) in_coord[j] = o[j];
    for (int64_t j = 0; j < axis; ++j) {
      const int64_t pos = j - k + 1;
      in_coord[j] = pos >= 0 ? o[pos] : 0;
    }
    CopyElement(in, input, in_coord, out, output, o);
    ++result.elements_written;
  } while (NextCoordinate(out.sizes, &o));
  return result;
}

ReferenceResult ReferenceGatherElements(const DML_GATHER_ELEMENTS_OPERATOR_DESC& desc,
                                        const void* input, const void* indices, void* output) {
  TensorView in, idx, out;
  std::string error =
      MakeIndexedViews(desc.InputTensor, desc.IndicesTensor, desc.OutputTensor, &in, &idx, &out);
  if (!error.empty()) return Error("GATHER_ELEMENTS: " + error);
  if (desc.Axis >= out.rank) return Error("GATHER_ELEMENTS: Axis out of range");
  for (uint32_t d = 0; d < out.rank; ++d) {
    if (d != desc.Axis && idx.sizes[d] != in.sizes[d]) {
      return Error("GATHER_ELEMENTS: Indices sizes differ from Input sizes off the axis");
    }
  }
  if (out.sizes != idx.sizes) return Error("GATHER_ELEMENTS: Output sizes differ from Indices");

  ReferenceResult result;
  result.ok = true;
  std::vector<uint64_t> o(out.rank, 0), in_coord(out.rank, 0);
  do {
    // Output[c] = Input[c with c[Axis] := normalize(Indices[c])].
    const uint8_t* raw = static_cast<const uint8_t*>(indices) + idx.ByteOffset(o);
    bool out_of_range = false;
    in_coord = o;
    in_coord[desc.Axis] = NormalizeIndex(idx.data_type, raw, in.sizes[desc.Axis], &out_of_range);
    result.index_out_of_range |= out_of_range;
    CopyElement(in, input, in_coord, out, output, o);
    ++result.elements_written;
  } while (NextCoordinate(out.sizes, &o));
  return result;
}

ReferenceResult ReferenceGatherNd(const DML_GATHER_ND_OPERATOR_DESC& desc, const void* input,
                                  const void* indices, void* output) {
  return GatherNdImpl(desc.InputTensor, desc.IndicesTensor, desc.OutputTensor,
                      desc.InputDimensionCount, desc.IndicesDimensionCount, 0, input, indices,
                      output);
}

ReferenceResult ReferenceGatherNd1(const DML_GATHER_ND1_OPERATOR_DESC& desc, const void* input,
                                   const void* indices, void* output) {
  return GatherNdImpl(desc.InputTensor, desc.IndicesTensor, desc.OutputTensor,
                      desc.InputDimensionCount, desc.IndicesDimensionCount,
                      desc.BatchDimensionCount, input, indices, output);
}

ReferenceResult ReferenceSlice(const DML_SLICE_OPERATOR_DESC& desc, const void* input,
                               void* output) {
  TensorView in, out;
  std::string error =
      MakeSliceViews(desc.InputTensor, desc.OutputTensor, desc.DimensionCount, &in, &out);
  if (!error.empty()) return Error("SLICE: " + error);
  const uint32_t n = out.rank;
  if (desc.Offsets == nullptr || desc.Sizes == nullptr || desc.Strides == nullptr) {
    return Error("SLICE: null attribute array");
  }
  for (uint32_t d = 0; d < n; ++d) {
    if (desc.Sizes[d] != out.sizes[d]) return Error("SLICE: Sizes differ from Output sizes");
    const uint64_t last =
        uint64_t{desc.Offsets[d]} + uint64_t{desc.Strides[d]} * (uint64_t{desc.Sizes[d]} - 1);
    if (last >= in.sizes[d]) return Error("SLICE: window reads out of bounds");
  }

  ReferenceResult result;
  result.ok = true;
  std::vector<uint64_t> o(n, 0), in_coord(n, 0);
  do {
    // Output[o] = Input[Offsets + Strides * o].
    for (uint32_t d = 0; d < n; ++d)
      in_coord[d] = desc.Offsets[d] + uint64_t{desc.Strides[d]} * o[d];
    CopyElement(in, input, in_coord, out, output, o);
    ++result.elements_written;
  } while (NextCoordinate(out.sizes, &o));
  return result;
}

ReferenceResult ReferenceSlice1(const DML_SLICE1_OPERATOR_DESC& desc, const void* input,
                                void* output) {
  TensorView in, out;
  std::string error =
      MakeSliceViews(desc.InputTensor, desc.OutputTensor, desc.DimensionCount, &in, &out);
  if (!error.empty()) return Error("SLICE1: " + error);
  const uint32_t n = out.rank;
  if (desc.InputWindowOffsets == nullptr || desc.InputWindowSizes == nullptr ||
      desc.InputWindowStrides == nullptr) {
    return Error("SLICE1: null attribute array");
  }
  std::vector<int64_t> start(n);
  for (uint32_t d = 0; d < n; ++d) {
    const int64_t offset = desc.InputWindowOffsets[d];
    const int64_t window = desc.InputWindowSizes[d];
    const int64_t stride = desc.InputWindowStrides[d];
    if (window < 1 || offset + window > in.sizes[d]) return Error("SLICE1: window outside input");
    if (stride == 0) return Error("SLICE1: zero stride");
    const int64_t step = stride < 0 ? -stride : stride;
    if (out.sizes[d] > 1 + (window - 1) / step) return Error("SLICE1: output too large");
    start[d] = offset + (stride < 0 ? window - 1 : 0);
  }

  ReferenceResult result;
  result.ok = true;
  std::vector<uint64_t> o(n, 0), in_coord(n, 0);
  do {
    // Output[o] = Input[start + InputWindowStrides * o].
    for (uint32_t d = 0; d < n; ++d) {
      const int64_t c = start[d] + int64_t{desc.InputWindowStrides[d]} * static_cast<int64_t>(o[d]);
      if (c < 0 || c >= static_cast<int64_t>(in.sizes[d])) {
        return Error("SLICE1: read outside input (reference bug)");
      }
      in_coord[d] = static_cast<uint64_t>(c);
    }
    CopyElement(in, input, in_coord, out, output, o);
    ++result.elements_written;
  } while (NextCoordinate(out.sizes, &o));
  return result;
}

ReferenceResult RunReference(const DML_OPERATOR_DESC& desc, const void* const* inputs,
                             void* const* outputs) {
  if (desc.Desc == nullptr) return Error("null operator desc");
  switch (desc.Type) {
    case DML_OPERATOR_GATHER:
      return ReferenceGather(*static_cast<const DML_GATHER_OPERATOR_DESC*>(desc.Desc), inputs[0],
                             inputs[1], outputs[0]);
    case DML_OPERATOR_GATHER_ELEMENTS:
      return ReferenceGatherElements(
          *static_cast<const DML_GATHER_ELEMENTS_OPERATOR_DESC*>(desc.Desc), inputs[0], inputs[1],
          outputs[0]);
    case DML_OPERATOR_GATHER_ND:
      return ReferenceGatherNd(*static_cast<const DML_GATHER_ND_OPERATOR_DESC*>(desc.Desc),
                               inputs[0], inputs[1], outputs[0]);
    case DML_OPERATOR_GATHER_ND1:
      return ReferenceGatherNd1(*static_cast<const DML_GATHER_ND1_OPERATOR_DESC*>(desc.Desc),
                                inputs[0], inputs[1], outputs[0]);
    case DML_OPERATOR_SLICE:
      return ReferenceSlice(*static_cast<const DML_SLICE_OPERATOR_DESC*>(desc.Desc), inputs[0],
                            outputs[0]);
    case DML_OPERATOR_SLICE1:
      return ReferenceSlice1(*static_cast<const DML_SLICE1_OPERATOR_DESC*>(desc.Desc), inputs[0],
                             outputs[0]);
    case DML_OPERATOR_PADDING:
      return ReferencePadding(*static_cast<const DML_PADDING_OPERATOR_DESC*>(desc.Desc),
                              inputs[0], outputs[0]);
    case DML_OPERATOR_PADDING1:
      return ReferencePadding1(*static_cast<const DML_PADDING1_OPERATOR_DESC*>(desc.Desc),
                               inputs[0], outputs[0]);
    case DML_OPERATOR_DEPTH_TO_SPACE:
      return ReferenceDepthToSpace(
          *static_cast<const DML_DEPTH_TO_SPACE_OPERATOR_DESC*>(desc.Desc), inputs[0], outputs[0]);
    case DML_OPERATOR_SPACE_TO_DEPTH:
      return ReferenceSpaceToDepth(
          *static_cast<const DML_SPACE_TO_DEPTH_OPERATOR_DESC*>(desc.Desc), inputs[0], outputs[0]);
    case DML_OPERATOR_DEPTH_TO_SPACE1:
      return ReferenceDepthToSpace1(
          *static_cast<const DML_DEPTH_TO_SPACE1_OPERATOR_DESC*>(desc.Desc), inputs[0],
          outputs[0]);
    case DML_OPERATOR_SPACE_TO_DEPTH1:
      return ReferenceSpaceToDepth1(
          *static_cast<const DML_SPACE_TO_DEPTH1_OPERATOR_DESC*>(desc.Desc), inputs[0],
          outputs[0]);
    case DML_OPERATOR_SLICE_GRAD:
      return ReferenceSliceGrad(*static_cast<const DML_SLICE_GRAD_OPERATOR_DESC*>(desc.Desc),
                                inputs[0], outputs[0]);
    case DML_OPERATOR_ELEMENT_WISE_IDENTITY:
      return ReferenceIdentity(
          *static_cast<const DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC*>(desc.Desc), inputs[0],
          outputs[0]);
    case DML_OPERATOR_SCATTER:
      return ReferenceScatter(*static_cast<const DML_SCATTER_OPERATOR_DESC*>(desc.Desc), inputs[0],
                              inputs[1], inputs[2], outputs[0]);
    case DML_OPERATOR_SCATTER_ND:
      return ReferenceScatterNd(*static_cast<const DML_SCATTER_ND_OPERATOR_DESC*>(desc.Desc),
                                inputs[0], inputs[1], inputs[2], outputs[0]);
    case DML_OPERATOR_JOIN:
      return ReferenceJoin(*static_cast<const DML_JOIN_OPERATOR_DESC*>(desc.Desc), inputs,
                           outputs[0]);
    case DML_OPERATOR_SPLIT:
      return ReferenceSplit(*static_cast<const DML_SPLIT_OPERATOR_DESC*>(desc.Desc), inputs[0],
                            outputs);
    case DML_OPERATOR_TILE:
      return ReferenceTile(*static_cast<const DML_TILE_OPERATOR_DESC*>(desc.Desc), inputs[0],
                           outputs[0]);
    // New operators: one case each here, calling their reference_<family>.cc function.
    default:
      return Error("operator type not covered by the reference");
  }
}

std::vector<const DML_TENSOR_DESC*> InputTensorsOf(const DML_OPERATOR_DESC& desc) {
  if (desc.Desc == nullptr) return {};
  switch (desc.Type) {
    case DML_OPERATOR_GATHER: {
      const auto& d = *static_cast<const DML_GATHER_OPERATOR_DESC*>(desc.Desc);
      return {d.InputTensor, d.IndicesTensor};
    }
    case DML_OPERATOR_GATHER_ELEMENTS: {
      const auto& d = *static_cast<const DML_GATHER_ELEMENTS_OPERATOR_DESC*>(desc.Desc);
      return {d.InputTensor, d.IndicesTensor};
    }
    case DML_OPERATOR_GATHER_ND: {
      const auto& d = *static_cast<const DML_GATHER_ND_OPERATOR_DESC*>(desc.Desc);
      return {d.InputTensor, d.IndicesTensor};
    }
    case DML_OPERATOR_GATHER_ND1: {
      const auto& d = *static_cast<const DML_GATHER_ND1_OPERATOR_DESC*>(desc.Desc);
      return {d.InputTensor, d.IndicesTensor};
    }
    case DML_OPERATOR_SLICE:
      return {static_cast<const DML_SLICE_OPERATOR_DESC*>(desc.Desc)->InputTensor};
    case DML_OPERATOR_SLICE1:
      return {static_cast<const DML_SLICE1_OPERATOR_DESC*>(desc.Desc)->InputTensor};
    case DML_OPERATOR_PADDING:
      return {static_cast<const DML_PADDING_OPERATOR_DESC*>(desc.Desc)->InputTensor};
    case DML_OPERATOR_PADDING1:
      return {static_cast<const DML_PADDING1_OPERATOR_DESC*>(desc.Desc)->InputTensor};
    case DML_OPERATOR_DEPTH_TO_SPACE:
      return {static_cast<const DML_DEPTH_TO_SPACE_OPERATOR_DESC*>(desc.Desc)->InputTensor};
    case DML_OPERATOR_SPACE_TO_DEPTH:
      return {static_cast<const DML_SPACE_TO_DEPTH_OPERATOR_DESC*>(desc.Desc)->InputTensor};
    case DML_OPERATOR_DEPTH_TO_SPACE1:
      return {static_cast<const DML_DEPTH_TO_SPACE1_OPERATOR_DESC*>(desc.Desc)->InputTensor};
    case DML_OPERATOR_SPACE_TO_DEPTH1:
      return {static_cast<const DML_SPACE_TO_DEPTH1_OPERATOR_DESC*>(desc.Desc)->InputTensor};
    case DML_OPERATOR_SLICE_GRAD:
      return {static_cast<const DML_SLICE_GRAD_OPERATOR_DESC*>(desc.Desc)->InputGradientTensor};
    case DML_OPERATOR_ELEMENT_WISE_IDENTITY:
      return {
          static_cast<const DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC*>(desc.Desc)->InputTensor};
    case DML_OPERATOR_JOIN: {
      const auto& d = *static_cast<const DML_JOIN_OPERATOR_DESC*>(desc.Desc);
      std::vector<const DML_TENSOR_DESC*> inputs;
      for (uint32_t k = 0; d.InputTensors != nullptr && k < d.InputCount; ++k) {
        inputs.push_back(&d.InputTensors[k]);
      }
      return inputs;
    }
    case DML_OPERATOR_SPLIT:
      return {static_cast<const DML_SPLIT_OPERATOR_DESC*>(desc.Desc)->InputTensor};
    case DML_OPERATOR_TILE:
      return {static_cast<const DML_TILE_OPERATOR_DESC*>(desc.Desc)->InputTensor};
    case DML_OPERATOR_SCATTER: {
      const auto& d = *static_cast<const DML_SCATTER_OPERATOR_DESC*>(desc.Desc);
      return {d.InputTensor, d.IndicesTensor, d.UpdatesTensor};
    }
    case DML_OPERATOR_SCATTER_ND: {
      const auto& d = *static_cast<const DML_SCATTER_ND_OPERATOR_DESC*>(desc.Desc);
      return {d.InputTensor, d.IndicesTensor, d.UpdatesTensor};
    }
    // New operators: one case each here (array fields expand in order).
    default:
      return {};
  }
}

std::vector<const DML_TENSOR_DESC*> OutputTensorsOf(const DML_OPERATOR_DESC& desc) {
  if (desc.Desc == nullptr) return {};
  switch (desc.Type) {
    case DML_OPERATOR_GATHER:
      return {static_cast<const DML_GATHER_OPERATOR_DESC*>(desc.Desc)->OutputTensor};
    case DML_OPERATOR_GATHER_ELEMENTS:
      return {static_cast<const DML_GATHER_ELEMENTS_OPERATOR_DESC*>(desc.Desc)->OutputTensor};
    case DML_OPERATOR_GATHER_ND:
      return {static_cast<const DML_GATHER_ND_OPERATOR_DESC*>(desc.Desc)->OutputTensor};
    case DML_OPERATOR_GATHER_ND1:
      return {static_cast<const DML_GATHER_ND1_OPERATOR_DESC*>(desc.Desc)->OutputTensor};
    case DML_OPERATOR_SLICE:
      return {static_cast<const DML_SLICE_OPERATOR_DESC*>(desc.Desc)->OutputTensor};
    case DML_OPERATOR_SLICE1:
      return {static_cast<const DML_SLICE1_OPERATOR_DESC*>(desc.Desc)->OutputTensor};
    case DML_OPERATOR_PADDING:
      return {static_cast<const DML_PADDING_OPERATOR_DESC*>(desc.Desc)->OutputTensor};
    case DML_OPERATOR_PADDING1:
      return {static_cast<const DML_PADDING1_OPERATOR_DESC*>(desc.Desc)->OutputTensor};
    case DML_OPERATOR_DEPTH_TO_SPACE:
      return {static_cast<const DML_DEPTH_TO_SPACE_OPERATOR_DESC*>(desc.Desc)->OutputTensor};
    case DML_OPERATOR_SPACE_TO_DEPTH:
      return {static_cast<const DML_SPACE_TO_DEPTH_OPERATOR_DESC*>(desc.Desc)->OutputTensor};
    case DML_OPERATOR_DEPTH_TO_SPACE1:
      return {static_cast<const DML_DEPTH_TO_SPACE1_OPERATOR_DESC*>(desc.Desc)->OutputTensor};
    case DML_OPERATOR_SPACE_TO_DEPTH1:
      return {static_cast<const DML_SPACE_TO_DEPTH1_OPERATOR_DESC*>(desc.Desc)->OutputTensor};
    case DML_OPERATOR_SLICE_GRAD:
      return {static_cast<const DML_SLICE_GRAD_OPERATOR_DESC*>(desc.Desc)->OutputGradientTensor};
    case DML_OPERATOR_ELEMENT_WISE_IDENTITY:
      return {
          static_cast<const DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC*>(desc.Desc)->OutputTensor};
    case DML_OPERATOR_JOIN:
      return {static_cast<const DML_JOIN_OPERATOR_DESC*>(desc.Desc)->OutputTensor};
    case DML_OPERATOR_SPLIT: {
      const auto& d = *static_cast<const DML_SPLIT_OPERATOR_DESC*>(desc.Desc);
      std::vector<const DML_TENSOR_DESC*> outputs;
      for (uint32_t k = 0; d.OutputTensors != nullptr && k < d.OutputCount; ++k) {
        outputs.push_back(&d.OutputTensors[k]);
      }
      return outputs;
    }
    case DML_OPERATOR_TILE:
      return {static_cast<const DML_TILE_OPERATOR_DESC*>(desc.Desc)->OutputTensor};
    case DML_OPERATOR_SCATTER:
      return {static_cast<const DML_SCATTER_OPERATOR_DESC*>(desc.Desc)->OutputTensor};
    case DML_OPERATOR_SCATTER_ND:
      return {static_cast<const DML_SCATTER_ND_OPERATOR_DESC*>(desc.Desc)->OutputTensor};
    // New operators: one case each here (array fields expand in order).
    default:
      return {};
  }
}

}  // namespace dmlcpu_test
