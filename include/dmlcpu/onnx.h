// SPDX-License-Identifier: Apache-2.0
// dmlcpu — ONNX adapter: an ONNX node (attributes, input shapes and element types as plain C++
// values) -> the DirectML operator descriptor that dmlcpu (or real DirectML) executes.
//
//   ONNX Gather          -> DML_OPERATOR_GATHER
//   ONNX GatherElements  -> DML_OPERATOR_GATHER_ELEMENTS
//   ONNX GatherND        -> DML_OPERATOR_GATHER_ND1
//   ONNX Slice           -> DML_OPERATOR_SLICE1
//   ONNX Transpose, Expand -> DML_OPERATOR_ELEMENT_WISE_IDENTITY
//   ONNX Identity, Reshape, Flatten, Squeeze, Unsqueeze -> nothing (packed: an alias), or
//                           DML_OPERATOR_ELEMENT_WISE_IDENTITY (strided)
//   ONNX Concat, Split, Tile -> DML_OPERATOR_JOIN, DML_OPERATOR_SPLIT, DML_OPERATOR_TILE
//   ONNX ScatterND       -> DML_OPERATOR_SCATTER_ND
//   ONNX ScatterElements, Scatter -> DML_OPERATOR_SCATTER
//   (`reduction`: compile with compile_options(), which carries it)
//
// Pure functions of their arguments: no ONNX headers or libraries, no global state, thread-safe.
//
//   dmlcpu::onnx::TensorType data{dmlcpu::onnx::ElementType::kFloat, {2, 3, 4}};
//   dmlcpu::onnx::TensorType indices{dmlcpu::onnx::ElementType::kInt64, {}};  // scalar index
//   auto node = dmlcpu::onnx::Gather(data, indices, /*axis=*/-1);          // output {2, 3}
//   auto op = device.Compile(node->desc(), {dmlcpu::IndexPolicy::kStrict});
//   op->Execute({{data_ptr, node->input_bytes(0)}, {index_ptr, node->input_bytes(1)}},
//               {{out_ptr, node->output_bytes()}});
//
// Every DirectML tensor has DimensionCount N = max(ranks of the node's tensors, 1), right-aligned
// with leading 1s (docs/semantics.md#right-alignment); attribute axes are shifted by the padding.
// Ranks above 8 are refused (kUnsupported).
//
// Empty outputs: DirectML cannot express a tensor with a 0-size dimension. When the ONNX output
// has one (e.g. Slice with start >= end, Gather with empty indices), the adapter succeeds with
// output_is_empty() == true, output_shape() holding the 0, output_bytes() == 0 and
// desc().Type == DML_OPERATOR_INVALID: the caller produces the empty tensor and executes
// nothing (Compile would reject the invalid type).
//
// Out-of-range indices are an error in ONNX; compile with IndexPolicy::kStrict to get that
// behaviour (kOutOfRange from Execute), or kClamp for DirectML's "wrong values, no error".
#ifndef DMLCPU_ONNX_H_
#define DMLCPU_ONNX_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/dmlcpu.h"
#include "dmlcpu/export.h"
#include "dmlcpu/status.h"

namespace dmlcpu {
namespace onnx {

// ONNX TensorProto.DataType values (onnx.proto), so callers need no ONNX header.
enum class ElementType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUint8 = 2,
  kInt8 = 3,
  kUint16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
  kUint32 = 12,
  kUint64 = 13,
  kComplex64 = 14,
  kComplex128 = 15,
  kBfloat16 = 16,
};

// Highest rank DirectML (and dmlcpu) accepts.
inline constexpr uint32_t kMaxRank = 8;

// "FLOAT", "INT64", ... (ONNX's spelling); "UNKNOWN" for values not listed above. Never null.
DMLCPU_API const char* ElementTypeName(ElementType type);

// The DirectML type that moves `type` bit for bit: FLOAT->FLOAT32, UINT8, INT8, UINT16, INT16,
// INT32, INT64, BOOL->UINT8 (1 byte), FLOAT16, DOUBLE->FLOAT64, UINT32, UINT64,
// BFLOAT16->UINT16 (2 bytes; the operators only move bytes). kUnsupported for STRING, complex
// and unknown values.
DMLCPU_API StatusOr<DML_TENSOR_DATA_TYPE> ToDmlDataType(ElementType type);

// Bytes per element of `type`; 0 when ToDmlDataType fails.
DMLCPU_API uint32_t ElementSizeBytes(ElementType type);

// A tensor as ONNX describes it: element type and shape (rank = shape.size(); rank 0 is a
// scalar). Dimensions must lie in [0, 2^32 - 1].
struct TensorType {
  ElementType element_type = ElementType::kUndefined;
  std::vector<int64_t> shape;
};

// ONNX Slice's inputs (opset >= 10) or attributes (opset 1-9), already read into integers.
// `axes` empty = omitted (0 .. starts.size() - 1); `steps` empty = omitted (all 1).
struct SliceParams {
  std::vector<int64_t> starts;
  std::vector<int64_t> ends;
  std::vector<int64_t> axes;
  std::vector<int64_t> steps;
};

// ONNX Pad's mode attribute and pads / constant_value / axes inputs (opset 2-21), already read.
// `pads` holds the begins then the ends, one pair per axis; negative values crop.
struct PadParams {
  std::string mode = "constant";        // "constant", "reflect", "edge" or "wrap"
  std::vector<int64_t> pads;            // 2 * (axes.size(), or the data rank without axes)
  std::vector<int64_t> axes;            // opset 18; empty = every axis in order
  std::vector<uint8_t> constant_value;  // one data element, little-endian; empty = 0
};

// Strides (in elements, one per ONNX dimension) that lay `shape` out with `pad_elems` unused
// entries after every dimension and `inner_stride_elems` between neighbouring innermost
// elements: strides[r-1] = inner_stride_elems,
// strides[d] = strides[d+1] * (shape[d+1] + pad_elems). Empty for rank 0. Precondition: the
// result fits in 32 bits (the caller's shapes are small).
DMLCPU_API std::vector<uint32_t> PaddedStridesElems(const std::vector<int64_t>& shape,
                                                            uint32_t pad_elems,
                                                            uint32_t inner_stride_elems = 1);

// The DirectML form of one ONNX node. Owns every array its descriptor points at; copyable and
// movable (the copy re-points its own descriptor), so it may be stored in containers. desc() is
// valid as long as this object is and until the next SetInputStrides/SetOutputStrides.
//
// Bindings: inputs in the order of the operator struct's tensor fields (Gather*: data, indices;
// Scatter*: data, indices, updates;
// Slice: data only — starts/ends/axes/steps are folded into the descriptor), then outputs in
// the same order (array fields expanded). The forms without an output index mean output 0.
class DMLCPU_API OperatorDesc {
 public:
  OperatorDesc() { Relink(); }
  OperatorDesc(const OperatorDesc& other) : s_(other.s_) { Relink(); }
  OperatorDesc(OperatorDesc&& other) noexcept : s_(std::move(other.s_)) { Relink(); }
  OperatorDesc& operator=(const OperatorDesc& other);
  OperatorDesc& operator=(OperatorDesc&& other) noexcept;

  // The descriptor to hand to Device::Compile (or IDMLDevice::CreateOperator). Type is
  // DML_OPERATOR_INVALID when output_is_empty().
  const DML_OPERATOR_DESC& desc() const { return s_.op_desc; }
  DML_OPERATOR_TYPE type() const { return s_.op_desc.Type; }
  // The ONNX op: "Gather", "GatherElements", "GatherND", "Slice", ...
  const char* onnx_op() const { return s_.onnx_op; }

  // True when there is nothing to execute: the (every) ONNX output has a 0-size dimension (see
  // the file comment); desc().Type is DML_OPERATOR_INVALID.
  bool output_is_empty() const { return s_.nothing_to_execute; }
  // Whether output `i` has a 0-size dimension (the caller produces that empty tensor).
  bool output_is_empty(size_t i) const;
  // Whether input `i` has a 0-size dimension. Concat's empty inputs and Split's empty outputs
  // are not bindings: Execute takes the non-empty inputs and outputs, in order.
  bool input_is_empty(size_t i) const;
  // Shape-only nodes (Identity, Reshape, Flatten, Squeeze, Unsqueeze) with both tensors packed:
  // the output is the input's bytes, nothing to execute (desc().Type is DML_OPERATOR_INVALID).
  bool is_alias() const { return s_.alias; }

  size_t input_count() const { return s_.input_count; }
  size_t output_count() const { return s_.tensors.size() - s_.input_count; }

  // Output `i` as ONNX sees it (rank and element type of the ONNX output, not DirectML's N).
  const std::vector<int64_t>& output_shape() const { return output_shape(0); }
  const std::vector<int64_t>& output_shape(size_t i) const { return out(i).buffer_shape; }
  ElementType output_element_type() const { return output_element_type(0); }
  ElementType output_element_type(size_t i) const { return out(i).element_type; }
  ElementType input_element_type(size_t i) const { return s_.tensors[i].element_type; }
  // Element count of ONNX output `i` (0 when it is empty).
  uint64_t output_elems() const { return output_elems(0); }
  uint64_t output_elems(size_t i) const;

  // Minimum byte sizes of the bindings (TotalTensorSizeInBytes: the buffer's span in the current
  // layout, rounded up to 4). A binding of an empty tensor is 0 bytes. Precondition: i < count.
  uint64_t input_bytes(size_t i) const { return s_.tensors[i].total_bytes; }
  // Where input `i`'s binding starts inside its buffer: 0, except for a view that starts inside
  // the data (Pad with negative pads). Bind [buffer + input_offset_bytes(i), buffer +
  // input_bytes(i)).
  uint64_t input_offset_bytes(size_t i) const { return s_.tensors[i].offset_bytes; }
  uint64_t output_bytes() const { return output_bytes(0); }
  uint64_t output_bytes(size_t i) const { return out(i).total_bytes; }
  // DimensionCount of every DirectML tensor (0 when output_is_empty()).
  uint32_t dimension_count() const { return s_.dimension_count; }

  // ScatterND / ScatterElements' `reduction` (kNone for every other node). DirectML's structs
  // have no field for it: compile desc() with compile_options(), which carries it.
  ScatterReduction scatter_reduction() const { return s_.scatter_reduction; }
  // The options to compile desc() with: `policy`, scatter_reduction(), and scatter_bfloat16 when
  // a reduction runs on BFLOAT16 data (moved as UINT16).
  CompileOptions compile_options(IndexPolicy policy) const;

  // Re-lays input `i` / output `i` (output 0 without an index) in a strided buffer:
  // `strides_elems` has one entry per ONNX dimension of that tensor (empty = packed again).
  // Updates desc() and the byte sizes; the strides themselves are checked by Compile. Fails
  // (kInvalidArgument) on a wrong index or count or a span beyond 64 bits.
  Status SetInputStrides(size_t i, const std::vector<uint32_t>& strides_elems);
  Status SetOutputStrides(const std::vector<uint32_t>& strides_elems) {
    return SetOutputStrides(0, strides_elems);
  }
  Status SetOutputStrides(size_t i, const std::vector<uint32_t>& strides_elems);

  // One line: the DirectML operator, its attributes and every tensor (type, sizes, strides,
  // total bytes), e.g. "GATHER Axis=1 IndexDimensions=1 InputTensor=FLOAT32{1,3,3} ...".
  std::string ToString() const;

 private:
  friend class Builder;  // lib/onnx/onnx_internal.h: fills s_

  struct Tensor {
    std::string onnx_name;                 // in messages: "data", "indices", "output", ...
    std::string dml_field;                 // in ToString: "InputTensor", "OutputTensors[1]", ...
    ElementType element_type = ElementType::kUndefined;
    std::vector<int64_t> buffer_shape;     // ONNX shape of the bound buffer
    std::vector<int64_t> view_shape;       // same-rank shape DirectML sees (= buffer_shape
                                           // unless a view, e.g. GatherElements' data)
    uint32_t rank_offset = 0;              // leading 1s: DirectML dim d = ONNX dim d - offset
    uint32_t sizes[kMaxRank] = {};         // DirectML sizes
    uint32_t strides_elems[kMaxRank] = {};
    bool has_strides = false;              // false: Strides = null (packed)
    bool is_view = false;                  // sizes differ from buffer_shape: strides always set
    // A view's dimension d reads buffer dimension view_dims[d] (-1: broadcast, stride 0);
    // empty = dimension d (Transpose and Expand permute and broadcast).
    std::vector<int32_t> view_dims;
    std::vector<uint32_t> layout_strides;  // the caller's ONNX strides (empty = packed)
    uint64_t total_bytes = 0;
    std::vector<int64_t> view_start;       // a view's first element (empty: the buffer's)
    uint64_t offset_bytes = 0;             // that element's byte offset in the buffer
    uint64_t view_bytes = 0;               // with a view_start: TotalTensorSizeInBytes
    DML_BUFFER_TENSOR_DESC buffer{};
  };
  struct State {
    const char* onnx_op = "";
    size_t input_count = 0;
    uint32_t dimension_count = 0;
    bool nothing_to_execute = false;
    std::vector<Tensor> tensors;                // inputs in binding order, then the outputs
    std::vector<DML_TENSOR_DESC> input_descs;   // contiguous (for array fields), -> tensors
    std::vector<DML_TENSOR_DESC> output_descs;
    // The operator structs (one is used) and their arrays; a new operator adds its struct in
    // one hunk here and one `case` in Relink and ToString (operator_desc.cc).
    DML_GATHER_OPERATOR_DESC gather{};
    DML_GATHER_ELEMENTS_OPERATOR_DESC gather_elements{};
    DML_GATHER_ND1_OPERATOR_DESC gather_nd1{};
    DML_SLICE1_OPERATOR_DESC slice1{};
    // Copy-shaped ops (onnx_movement.cc): shape_only nodes re-lay themselves on every
    // SetStrides (an alias while packed); JOIN / SPLIT list their non-empty parts.
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity{};
    DML_JOIN_OPERATOR_DESC join{};
    DML_SPLIT_OPERATOR_DESC split{};
    DML_TILE_OPERATOR_DESC tile{};
    uint32_t repeats[kMaxRank] = {};
    std::vector<DML_TENSOR_DESC> part_descs;
    bool shape_only = false;
    bool alias = false;
    uint32_t window_offsets[kMaxRank] = {};
    uint32_t window_sizes[kMaxRank] = {};
    int32_t window_strides[kMaxRank] = {};
    DML_PADDING1_OPERATOR_DESC padding1{};
    uint32_t pad_start[kMaxRank] = {};
    uint32_t pad_end[kMaxRank] = {};
    DML_DEPTH_TO_SPACE1_OPERATOR_DESC depth_to_space1{};
    DML_SPACE_TO_DEPTH1_OPERATOR_DESC space_to_depth1{};
    DML_SCATTER_OPERATOR_DESC scatter{};
    DML_SCATTER_ND_OPERATOR_DESC scatter_nd{};
    ScatterReduction scatter_reduction = ScatterReduction::kNone;
    DML_OPERATOR_DESC op_desc{};
  };

  const Tensor& out(size_t i) const { return s_.tensors[s_.input_count + i]; }
  // Points every descriptor pointer at this object's own arrays.
  void Relink();
  Status SetStrides(size_t tensor, const std::vector<uint32_t>& strides_elems);
  // Shape-only nodes: alias, or an ELEMENT_WISE_IDENTITY in the strided tensor's shape.
  Status RelayoutShapeOnly();

  State s_;
};

// ONNX Gather (opset 1-13): `axis` in [-r, r-1] (r = data rank >= 1); indices of any rank
// (0 = scalar), INT32 or INT64. -> GATHER with Axis = axis + (N - r), IndexDimensions = rank of
// indices. Output shape: data[:axis] + indices.shape + data[axis+1:].
DMLCPU_API StatusOr<OperatorDesc> Gather(const TensorType& data,
                                                 const TensorType& indices, int64_t axis);

// ONNX GatherElements (opset 11-13): indices have data's rank; indices.shape[d] <= data.shape[d]
// for d != axis (smaller = the leading sub-block of data, expressed with strides, as ONNX
// Runtime and PyTorch allow). -> GATHER_ELEMENTS. Output shape = indices.shape.
DMLCPU_API StatusOr<OperatorDesc> GatherElements(const TensorType& data,
                                                         const TensorType& indices, int64_t axis);

// ONNX GatherND (opset 11-13; batch_dims from 12): 0 <= batch_dims < min(r, q); the last
// indices dimension t in [1, r - batch_dims]; batch dimensions equal. -> GATHER_ND1 with
// InputDimensionCount = r, IndicesDimensionCount = q, BatchDimensionCount = batch_dims.
// Output shape: indices.shape[:-1] + data.shape[batch_dims + t:].
DMLCPU_API StatusOr<OperatorDesc> GatherNd(const TensorType& data,
                                                   const TensorType& indices, int64_t batch_dims);

// ONNX ScatterND (opset 11-18, as `opset`): indices of rank q >= 1 hold tuples of
// t = indices.shape[-1] in [1, r] indices; updates.shape = indices.shape[:-1] + data.shape[t:].
// `reduction` "none" (opset 11+), "add", "mul" (16+), "max", "min" (18+); "add" is refused on
// BOOL. -> SCATTER_ND with InputDimensionCount = r, IndicesDimensionCount = q; the reduction is
// scatter_reduction(). Duplicates: the last tuple in index order wins (none), reductions run in
// index order. Output shape = data.shape. Indices or updates with a 0-size dimension: the output
// is a copy of data (ELEMENT_WISE_IDENTITY; indices and updates are not bindings).
DMLCPU_API StatusOr<OperatorDesc> ScatterNd(const TensorType& data, const TensorType& indices,
                                            const TensorType& updates,
                                            const std::string& reduction = "none",
                                            int64_t opset = 18);

// ONNX ScatterElements (opset 11-18; `reduction` as ScatterND's): indices and updates of one
// shape and data's rank, `axis` in [-r, r-1]; indices.shape[d] == data.shape[d] for d != axis
// (smaller, which ONNX Runtime accepts, is kUnsupported: SCATTER cannot leave the rest of data
// in place),
// indices.shape[axis] any size. -> SCATTER with Axis = axis. Duplicates and empty indices as
// ScatterND's.
DMLCPU_API StatusOr<OperatorDesc> ScatterElements(const TensorType& data,
                                                  const TensorType& indices,
                                                  const TensorType& updates, int64_t axis = 0,
                                                  const std::string& reduction = "none",
                                                  int64_t opset = 18);

// ONNX Scatter (opset 9, and 11 where ONNX deprecates it): ScatterElements without reduction.
DMLCPU_API StatusOr<OperatorDesc> Scatter(const TensorType& data, const TensorType& indices,
                                          const TensorType& updates, int64_t axis = 0,
                                          int64_t opset = 9);

// ONNX Slice (opset 1-13), following the operator text (as ONNX Runtime does): negative
// starts/ends count from the end, then starts clamp to [0, d] (step > 0) or [0, d-1]
// (step < 0) and ends to [0, d] or [-1, d-1], so any value including INT64_MIN/INT64_MAX is
// accepted. (NumPy differs in one corner: x[-10:-10:-1] of 5 elements is empty there, {x[0]}
// here.) Negative axes count from the end; repeated axes and zero steps are refused; a step
// beyond INT32 range is accepted where it takes one element. -> SLICE1 (a negative step is a
// negative window stride).
DMLCPU_API StatusOr<OperatorDesc> Slice(const TensorType& data, const SliceParams& params);
// ---- Copy-shaped data movement (lib/onnx/onnx_movement.cc) ------------------------------------
//
// Shape-only ops (Identity, Reshape, Flatten, Squeeze, Unsqueeze) need no copy while input and
// output are both packed: then is_alias() is true, desc().Type is DML_OPERATOR_INVALID and the
// caller reuses the input's bytes as the output (nothing to execute). Giving either tensor strides
// (SetInputStrides / SetOutputStrides) turns the node into an ELEMENT_WISE_IDENTITY copy in the
// strided tensor's shape; packed strides make it an alias again. A strided input re-shaped into
// a strided output of another shape is not one copy: that SetInputStrides / SetOutputStrides
// fails with kUnsupported and leaves the output packed.

// ONNX Transpose: `perm` empty = the dimensions reversed. -> ELEMENT_WISE_IDENTITY whose input
// is the data viewed in the output's order (its strides permuted).
DMLCPU_API StatusOr<OperatorDesc> Transpose(const TensorType& data,
                                            const std::vector<int64_t>& perm);

// ONNX Expand (opset 8-13): `shape` is the shape input's values; input and shape broadcast both
// ways (NumPy rules). -> ELEMENT_WISE_IDENTITY reading the input through 0 strides.
DMLCPU_API StatusOr<OperatorDesc> Expand(const TensorType& input,
                                         const std::vector<int64_t>& shape);

// ONNX Identity (tensors only; sequences and optionals are not tensors). An alias while packed.
DMLCPU_API StatusOr<OperatorDesc> Identity(const TensorType& input);

// ONNX Reshape (opset 5-19; `allowzero` from 14: 0 is a real 0 instead of "copy the input's
// dimension"), Flatten (`axis` in [-r, r]), Squeeze (`axes` empty = every size-1 dimension),
// Unsqueeze. Aliases while packed (see above).
DMLCPU_API StatusOr<OperatorDesc> Reshape(const TensorType& data,
                                          const std::vector<int64_t>& shape,
                                          bool allowzero = false);
DMLCPU_API StatusOr<OperatorDesc> Flatten(const TensorType& input, int64_t axis = 1);
DMLCPU_API StatusOr<OperatorDesc> Squeeze(const TensorType& data,
                                          const std::vector<int64_t>& axes);
DMLCPU_API StatusOr<OperatorDesc> Unsqueeze(const TensorType& data,
                                            const std::vector<int64_t>& axes);

// ONNX Concat: inputs of one rank >= 1 and element type, equal off `axis`. -> JOIN of the
// non-empty inputs: an input with input_is_empty(i) contributes nothing and is not a binding.
DMLCPU_API StatusOr<OperatorDesc> Concat(const std::vector<TensorType>& inputs, int64_t axis);

// ONNX Split's chunk sizes: `split` (the opset 13+ input, or the attribute before), else
// `num_outputs` (opset 18: chunks of ceil(dim / n), the last one smaller), else `output_count`
// equal chunks. `output_count` = the node's number of outputs (0: take it from split or
// num_outputs).
struct SplitParams {
  std::vector<int64_t> split;
  int64_t num_outputs = 0;
  size_t output_count = 0;
};
// -> SPLIT into the non-empty chunks: an output with output_is_empty(i) is not a binding (the
// caller produces that empty tensor).
DMLCPU_API StatusOr<OperatorDesc> Split(const TensorType& input, int64_t axis,
                                        const SplitParams& params);

// ONNX Tile: one repeat per input dimension, each >= 0 (0 gives an empty output). -> TILE.
DMLCPU_API StatusOr<OperatorDesc> Tile(const TensorType& input,
                                       const std::vector<int64_t>& repeats);


// ONNX Pad (opset 2-21): modes constant, reflect, edge, wrap (periodic for pads larger than the
// data, as NumPy and DirectML compute them); `axes` from opset 18; constant_value in data's
// type. -> PADDING1 (PaddingValueDataType = data's DirectML type, the value's bits unchanged).
// Negative pads crop: the data binding is then a view that starts inside the data buffer
// (input_offset_bytes(0)), so crop and pad are one PADDING1 with no extension to DirectML. A
// crop that leaves a dimension empty is refused (kUnsupported for constant, kInvalidArgument
// otherwise) unless the output is empty too.
DMLCPU_API StatusOr<OperatorDesc> Pad(const TensorType& data, const PadParams& params);

// ONNX DepthToSpace (opset 1-13): a 4-D input, mode "DCR" (default) or "CRD".
// -> DEPTH_TO_SPACE1 with Order DEPTH_COLUMN_ROW or COLUMN_ROW_DEPTH.
DMLCPU_API StatusOr<OperatorDesc> DepthToSpace(const TensorType& input, int64_t blocksize,
                                               const std::string& mode = "DCR");

// ONNX SpaceToDepth (opset 1-13): a 4-D input. -> SPACE_TO_DEPTH1 (DCR, ONNX's order).
DMLCPU_API StatusOr<OperatorDesc> SpaceToDepth(const TensorType& input, int64_t blocksize);

}  // namespace onnx
}  // namespace dmlcpu

#endif  // DMLCPU_ONNX_H_
