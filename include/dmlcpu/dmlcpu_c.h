/* SPDX-License-Identifier: Apache-2.0 */
/* dmlcpu — C ABI, for engines in other languages. Plain C99.
 *
 * Thread-safety: a device may compile from several threads at once; an operator may execute
 * from several threads at once; an ONNX node may be read from several threads at once. Every
 * handle is destroyed by its own function; an operator keeps what it needs of its device
 * alive, so the two may be destroyed in any order.
 *
 * Errors: on failure a function returns a non-zero dmlcpu_status and records a message that
 * dmlcpu_last_error_message() returns on the same thread. A successful call leaves the message
 * unchanged (it is not cleared): read it only right after a call that failed.
 *
 * Versioned structs (struct_size): a caller sets struct_size = sizeof(the struct) as its header
 * declares it. A smaller struct_size (a program built against an older dmlcpu) is accepted:
 * every field that does not lie wholly within struct_size takes its default (what a
 * zero-initialised field means). A struct_size larger than this library knows is refused
 * (DMLCPU_INVALID_ARGUMENT) with a message naming struct_size and the largest known size.
 * See docs/abi.md. */
#ifndef DMLCPU_DMLCPU_C_H_
#define DMLCPU_DMLCPU_C_H_

#include <stdint.h>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/export.h"
#include "dmlcpu/version.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dmlcpu_device dmlcpu_device;
typedef struct dmlcpu_operator dmlcpu_operator;

typedef enum dmlcpu_status {
  DMLCPU_OK = 0,
  DMLCPU_INVALID_ARGUMENT = 1,
  DMLCPU_UNSUPPORTED = 2,
  DMLCPU_OUT_OF_RANGE = 3,
  DMLCPU_INTERNAL = 4
} dmlcpu_status;

typedef enum dmlcpu_index_policy {
  DMLCPU_INDEX_CLAMP = 0, /* DirectML's promise: no error, clamped reads */
  DMLCPU_INDEX_STRICT = 1 /* out-of-range index -> DMLCPU_OUT_OF_RANGE, output untouched */
} dmlcpu_index_policy;

/* The library's version: DMLCPU_VERSION_MAJOR * 1000000 + MINOR * 1000 + PATCH, as
 * DMLCPU_VERSION in dmlcpu/version.h is for the headers. While the major version is 0, a program
 * runs only against the minor version it was built with (docs/abi.md). */
DMLCPU_API uint32_t dmlcpu_version(void);
/* "MAJOR.MINOR.PATCH", never NULL. */
DMLCPU_API const char* dmlcpu_version_string(void);

/* A host buffer: pointer and accessible size in bytes (>= the tensor's TotalTensorSizeInBytes). */
typedef struct dmlcpu_binding {
  void* data;
  uint64_t size_bytes;
} dmlcpu_binding;
/* An input buffer, which Execute only reads. */
typedef struct dmlcpu_input_binding {
  const void* data;
  uint64_t size_bytes;
} dmlcpu_input_binding;

/* max_threads: 0 = the CPUs this process may run on (affinity mask, cgroup CPU quota),
 * 1 = serial. *out receives the device (NULL on failure). */
DMLCPU_API dmlcpu_status dmlcpu_device_create(uint32_t max_threads, dmlcpu_device** out);
typedef enum dmlcpu_backend {
  DMLCPU_BACKEND_CPU = 0,
  DMLCPU_BACKEND_D3D12 = 1, /* real DirectML (Windows builds with the D3D12 backend) */
  DMLCPU_BACKEND_AUTO = 2   /* D3D12 when DirectML.dll and an adapter are present, else CPU */
} dmlcpu_backend;

/* An engine-owned thread pool (docs/abi.md, "The engine's thread pool"). parallel_for must
 * run function(argument, i) exactly once for every i in [0, task_count), on any threads
 * (the calling one included), in any order, and return only after every call has returned.
 * dmlcpu calls it from inside dmlcpu_execute, on the thread that called dmlcpu_execute, never
 * from inside a task; several threads executing at once call it at once (it must be
 * re-entrant). Tasks never wait on each other, so running some or all of them inline on the
 * calling thread is correct. */
typedef void (*dmlcpu_task_fn)(void* argument, uint32_t task_index);
typedef void (*dmlcpu_parallel_for_fn)(void* context, uint32_t task_count,
                                       dmlcpu_task_fn function, void* argument);

/* Options for dmlcpu_device_create_ex. Zero-initialise, then set struct_size (the rule for
 * older and newer sizes is at the top of this file; at least 4, the struct_size field). */
typedef struct dmlcpu_device_options {
  uint32_t struct_size;   /* sizeof(dmlcpu_device_options) */
  uint32_t max_threads;   /* as for dmlcpu_device_create; with parallel_for: the pool's width */
  dmlcpu_backend backend; /* DMLCPU_BACKEND_CPU when zero */
  void* d3d12_device;     /* optional ID3D12Device* to adopt (D3D12/AUTO) */
  void* d3d12_queue;      /* optional ID3D12CommandQueue* to adopt (D3D12/AUTO); alone, its
                           * device is used; with d3d12_device, it must be that device's */
  /* 0.2.0+: optional engine pool, used instead of oneTBB: each parallel step of an execute
   * makes one call with at most max_threads tasks (0: the CPUs this process may run on). */
  dmlcpu_parallel_for_fn parallel_for; /* NULL: dmlcpu's own threads */
  void* parallel_for_context;          /* passed to parallel_for as is */
} dmlcpu_device_options;

/* Fails (DMLCPU_UNSUPPORTED) when DMLCPU_BACKEND_D3D12 is requested and cannot be created, and
 * (DMLCPU_INVALID_ARGUMENT) with D3D12 or AUTO when d3d12_queue is not d3d12_device's. */
DMLCPU_API dmlcpu_status dmlcpu_device_create_ex(const dmlcpu_device_options* options,
                                                 dmlcpu_device** out);
/* The backend the device runs on (never AUTO) and why ("requested", "kAuto: ..."); the reason
 * is valid as long as the device. */
DMLCPU_API dmlcpu_backend dmlcpu_device_backend(const dmlcpu_device* device);
DMLCPU_API const char* dmlcpu_device_backend_reason(const dmlcpu_device* device);

/* NULL is a no-op. */
DMLCPU_API void dmlcpu_device_destroy(dmlcpu_device* device);

/* Validates and plans `desc`; the descriptor may be freed right after. */
DMLCPU_API dmlcpu_status dmlcpu_compile(dmlcpu_device* device, const DML_OPERATOR_DESC* desc,
                                        dmlcpu_index_policy policy, dmlcpu_operator** out);
/* How SCATTER / SCATTER_ND combine an update with its destination (dmlcpu::ScatterReduction). */
typedef enum dmlcpu_scatter_reduction {
  DMLCPU_SCATTER_NONE = 0, /* the last update in index order wins */
  DMLCPU_SCATTER_ADD = 1,
  DMLCPU_SCATTER_MUL = 2,
  DMLCPU_SCATTER_MAX = 3,
  DMLCPU_SCATTER_MIN = 4
} dmlcpu_scatter_reduction;

/* Options for dmlcpu_compile_ex (dmlcpu::CompileOptions). Zero-initialise, then set
 * struct_size (the rule for older and newer sizes is at the top of this file). */
typedef struct dmlcpu_compile_options {
  uint32_t struct_size;                       /* sizeof(dmlcpu_compile_options) */
  dmlcpu_index_policy index_policy;           /* DMLCPU_INDEX_CLAMP when zero */
  dmlcpu_scatter_reduction scatter_reduction; /* SCATTER / SCATTER_ND only */
  uint32_t scatter_bfloat16;                  /* non-zero: UINT16 data reduced as bfloat16 */
} dmlcpu_compile_options;

/* dmlcpu_compile with options; options NULL means all defaults. */
DMLCPU_API dmlcpu_status dmlcpu_compile_ex(dmlcpu_device* device, const DML_OPERATOR_DESC* desc,
                                           const dmlcpu_compile_options* options,
                                           dmlcpu_operator** out);
/* Bindings in the order of the operator struct's tensor fields. Inputs are only read. */
DMLCPU_API dmlcpu_status dmlcpu_execute(const dmlcpu_operator* op, const dmlcpu_binding* inputs,
                                        uint32_t input_count, const dmlcpu_binding* outputs,
                                        uint32_t output_count);
/* dmlcpu_execute with const input bindings (read-only buffers need no cast). */
DMLCPU_API dmlcpu_status dmlcpu_execute2(const dmlcpu_operator* op,
                                         const dmlcpu_input_binding* inputs, uint32_t input_count,
                                         const dmlcpu_binding* outputs, uint32_t output_count);

/* Introspection of a compiled operator. For NULL: DML_OPERATOR_INVALID and 0 counts. */
DMLCPU_API DML_OPERATOR_TYPE dmlcpu_operator_type(const dmlcpu_operator* op);
DMLCPU_API uint32_t dmlcpu_operator_input_count(const dmlcpu_operator* op);
DMLCPU_API uint32_t dmlcpu_operator_output_count(const dmlcpu_operator* op);
/* The least size_bytes execute accepts for input (or output) binding `index` (the tensor's
 * TotalTensorSizeInBytes) in *size_bytes. DMLCPU_INVALID_ARGUMENT when index >= the count. */
DMLCPU_API dmlcpu_status dmlcpu_operator_input_bytes(const dmlcpu_operator* op, uint32_t index,
                                                     uint64_t* size_bytes);
DMLCPU_API dmlcpu_status dmlcpu_operator_output_bytes(const dmlcpu_operator* op, uint32_t index,
                                                      uint64_t* size_bytes);
/* D3D12 backend only (see dmlcpu::CompiledOperator::ExecuteNative): bindings are D3D12 buffer
 * ranges (resource = ID3D12Resource*, offset a multiple of 16), no copies. DMLCPU_UNSUPPORTED
 * for an operator compiled by the CPU backend. */
typedef struct dmlcpu_native_binding {
  void* resource;
  uint64_t offset_bytes;
  uint64_t size_bytes;
} dmlcpu_native_binding;
DMLCPU_API dmlcpu_status dmlcpu_execute_native(const dmlcpu_operator* op,
                                               const dmlcpu_native_binding* inputs,
                                               uint32_t input_count,
                                               const dmlcpu_native_binding* outputs,
                                               uint32_t output_count);
/* The backend an operator was compiled for (CPU or D3D12). */
DMLCPU_API dmlcpu_backend dmlcpu_operator_backend(const dmlcpu_operator* op);

/* NULL is a no-op. */
DMLCPU_API void dmlcpu_operator_destroy(dmlcpu_operator* op);

/* Message of the last failure on this thread ("" if none yet). Never NULL. Successful calls
 * leave it unchanged, so it describes the most recent failing call, and the pointer stays
 * valid until the next failing dmlcpu call on this thread. */
DMLCPU_API const char* dmlcpu_last_error_message(void);

/* Extras. */
/* Minimum TotalTensorSizeInBytes (DMLCalcBufferTensorSize, 64-bit); 0 on unknown type/overflow. */
DMLCPU_API uint64_t dmlcpu_calc_buffer_tensor_size(DML_TENSOR_DATA_TYPE data_type,
                                                   uint32_t dimension_count, const uint32_t* sizes,
                                                   const uint32_t* strides);
/* Writes the plan description (NUL-terminated, truncated to capacity); returns its full length. */
DMLCPU_API uint64_t dmlcpu_operator_describe(const dmlcpu_operator* op, char* buffer,
                                             uint64_t capacity);

/* The ONNX adapter (dmlcpu/onnx.h) through C: an ONNX node, from its attributes and its
 * inputs' element types and shapes, -> the DML_OPERATOR_DESC to compile, with the output's
 * shape and every binding's size. The node owns everything its descriptor points at.
 *   ONNX Gather -> DML_OPERATOR_GATHER, GatherElements -> GATHER_ELEMENTS,
 *   GatherND -> GATHER_ND1, Slice -> SLICE1, ScatterND -> SCATTER_ND,
 *   ScatterElements and Scatter -> SCATTER (ONNX's reduction: compile with
 *   dmlcpu_onnx_node_scatter_reduction and dmlcpu_onnx_node_scatter_bfloat16), and the
 *   data-movement ops below.
 * Messages name the ONNX op and the attribute or input, e.g. "Gather: axis is 3, expected in
 * [-2, 1]". */
typedef struct dmlcpu_onnx_node dmlcpu_onnx_node;

/* A tensor as ONNX describes it: element_type is ONNX's TensorProto.DataType (1 = FLOAT,
 * 6 = INT32, 7 = INT64, ...); shape has `rank` entries in [0, 2^32 - 1] (may be NULL when
 * rank is 0: a scalar). */
typedef struct dmlcpu_onnx_tensor_type {
  int32_t element_type;
  uint32_t rank;
  const int64_t* shape;
} dmlcpu_onnx_tensor_type;

/* ONNX Gather (opset 1-13); axis in [-r, r-1]. */
DMLCPU_API dmlcpu_status dmlcpu_onnx_gather(const dmlcpu_onnx_tensor_type* data,
                                            const dmlcpu_onnx_tensor_type* indices, int64_t axis,
                                            dmlcpu_onnx_node** out);
/* ONNX GatherElements (opset 11-13). */
DMLCPU_API dmlcpu_status dmlcpu_onnx_gather_elements(const dmlcpu_onnx_tensor_type* data,
                                                     const dmlcpu_onnx_tensor_type* indices,
                                                     int64_t axis, dmlcpu_onnx_node** out);
/* ONNX GatherND (opset 11-13); batch_dims 0 before opset 12. */
DMLCPU_API dmlcpu_status dmlcpu_onnx_gather_nd(const dmlcpu_onnx_tensor_type* data,
                                               const dmlcpu_onnx_tensor_type* indices,
                                               int64_t batch_dims, dmlcpu_onnx_node** out);
/* ONNX Slice (opset 1-13): starts and ends have `count` entries each; axes and steps have
 * `count` entries or are NULL (omitted: 0 .. count-1, and all 1). */
DMLCPU_API dmlcpu_status dmlcpu_onnx_slice(const dmlcpu_onnx_tensor_type* data,
                                           const int64_t* starts, const int64_t* ends,
                                           const int64_t* axes, const int64_t* steps,
                                           uint32_t count, dmlcpu_onnx_node** out);

/* Data movement (onnx.h's copy-shaped ops); every array argument has the count that follows it
 * and may be NULL when that count is 0. Shape-only ops (identity, reshape, flatten, squeeze,
 * unsqueeze) are aliases while packed: dmlcpu_onnx_node_is_alias, nothing to execute. */
/* ONNX Transpose: perm_count 0 = the dimensions reversed. -> ELEMENT_WISE_IDENTITY. */
DMLCPU_API dmlcpu_status dmlcpu_onnx_transpose(const dmlcpu_onnx_tensor_type* data,
                                               const int64_t* perm, uint32_t perm_count,
                                               dmlcpu_onnx_node** out);
/* ONNX Expand (opset 8-13): `shape` is the shape input's values. */
DMLCPU_API dmlcpu_status dmlcpu_onnx_expand(const dmlcpu_onnx_tensor_type* input,
                                            const int64_t* shape, uint32_t shape_count,
                                            dmlcpu_onnx_node** out);
DMLCPU_API dmlcpu_status dmlcpu_onnx_identity(const dmlcpu_onnx_tensor_type* input,
                                              dmlcpu_onnx_node** out);
/* ONNX Reshape (opset 5-19); allowzero (opset 14) nonzero: a 0 is a real 0. */
DMLCPU_API dmlcpu_status dmlcpu_onnx_reshape(const dmlcpu_onnx_tensor_type* data,
                                             const int64_t* shape, uint32_t shape_count,
                                             int allowzero, dmlcpu_onnx_node** out);
DMLCPU_API dmlcpu_status dmlcpu_onnx_flatten(const dmlcpu_onnx_tensor_type* input, int64_t axis,
                                             dmlcpu_onnx_node** out);
/* ONNX Squeeze: axes_count 0 = every size-1 dimension. */
DMLCPU_API dmlcpu_status dmlcpu_onnx_squeeze(const dmlcpu_onnx_tensor_type* data,
                                             const int64_t* axes, uint32_t axes_count,
                                             dmlcpu_onnx_node** out);
DMLCPU_API dmlcpu_status dmlcpu_onnx_unsqueeze(const dmlcpu_onnx_tensor_type* data,
                                               const int64_t* axes, uint32_t axes_count,
                                               dmlcpu_onnx_node** out);
/* ONNX Concat -> JOIN of the non-empty inputs (dmlcpu_onnx_node_input_is_empty). */
DMLCPU_API dmlcpu_status dmlcpu_onnx_concat(const dmlcpu_onnx_tensor_type* inputs,
                                            uint32_t input_count, int64_t axis,
                                            dmlcpu_onnx_node** out);
/* ONNX Split -> SPLIT into the non-empty chunks: `split` (split_count entries), else
 * num_outputs (opset 18) when nonzero, else output_count equal chunks; output_count is the
 * node's number of outputs (0: from split or num_outputs). */
DMLCPU_API dmlcpu_status dmlcpu_onnx_split(const dmlcpu_onnx_tensor_type* input, int64_t axis,
                                           const int64_t* split, uint32_t split_count,
                                           int64_t num_outputs, uint32_t output_count,
                                           dmlcpu_onnx_node** out);
/* ONNX Tile: one repeat per input dimension. */
DMLCPU_API dmlcpu_status dmlcpu_onnx_tile(const dmlcpu_onnx_tensor_type* input,
                                          const int64_t* repeats, uint32_t repeats_count,
                                          dmlcpu_onnx_node** out);
/* ONNX Pad (opset 2-21): mode "constant" (NULL means it), "reflect", "edge" or "wrap"; pads
 * are the begins then the ends; axes (opset 18) may be omitted; constant_value is one data
 * element's bytes, little-endian (constant_value_bytes 0: zero). Negative pads crop: bind
 * input 0 at dmlcpu_onnx_node_input_offset_bytes. -> PADDING1. */
DMLCPU_API dmlcpu_status dmlcpu_onnx_pad(const dmlcpu_onnx_tensor_type* data, const char* mode,
                                         const int64_t* pads, uint32_t pads_count,
                                         const int64_t* axes, uint32_t axes_count,
                                         const void* constant_value,
                                         uint32_t constant_value_bytes, dmlcpu_onnx_node** out);
/* ONNX DepthToSpace (4-D; mode "DCR" (NULL means it) or "CRD") and SpaceToDepth. */
DMLCPU_API dmlcpu_status dmlcpu_onnx_depth_to_space(const dmlcpu_onnx_tensor_type* input,
                                                    int64_t blocksize, const char* mode,
                                                    dmlcpu_onnx_node** out);
DMLCPU_API dmlcpu_status dmlcpu_onnx_space_to_depth(const dmlcpu_onnx_tensor_type* input,
                                                    int64_t blocksize, dmlcpu_onnx_node** out);
/* ONNX ScatterND (opset 11-18, as `opset`) and ScatterElements (opset 11-18): `reduction` is
 * "none" (NULL means it), "add", "mul" (opset 16+), "max" or "min" (opset 18+). ONNX Scatter
 * (opset 9; deprecated at 11) is ScatterElements without reduction. Bindings: data, indices,
 * updates; the output has data's shape. */
DMLCPU_API dmlcpu_status dmlcpu_onnx_scatter_nd(const dmlcpu_onnx_tensor_type* data,
                                                const dmlcpu_onnx_tensor_type* indices,
                                                const dmlcpu_onnx_tensor_type* updates,
                                                const char* reduction, int64_t opset,
                                                dmlcpu_onnx_node** out);
DMLCPU_API dmlcpu_status dmlcpu_onnx_scatter_elements(const dmlcpu_onnx_tensor_type* data,
                                                      const dmlcpu_onnx_tensor_type* indices,
                                                      const dmlcpu_onnx_tensor_type* updates,
                                                      int64_t axis, const char* reduction,
                                                      int64_t opset, dmlcpu_onnx_node** out);
DMLCPU_API dmlcpu_status dmlcpu_onnx_scatter(const dmlcpu_onnx_tensor_type* data,
                                             const dmlcpu_onnx_tensor_type* indices,
                                             const dmlcpu_onnx_tensor_type* updates, int64_t axis,
                                             int64_t opset, dmlcpu_onnx_node** out);
/* What to put in dmlcpu_compile_options for the node (DirectML's structs cannot carry it): its
 * scatter_reduction (DMLCPU_SCATTER_NONE for every node but a reducing scatter, and for NULL)
 * and scatter_bfloat16 (1 when a reduction runs on BFLOAT16 data, else 0). */
DMLCPU_API dmlcpu_scatter_reduction dmlcpu_onnx_node_scatter_reduction(
    const dmlcpu_onnx_node* node);
DMLCPU_API uint32_t dmlcpu_onnx_node_scatter_bfloat16(const dmlcpu_onnx_node* node);

/* The descriptor to hand to dmlcpu_compile; valid as long as the node. Its Type is
 * DML_OPERATOR_INVALID when the output is empty. NULL for a NULL node. */
DMLCPU_API const DML_OPERATOR_DESC* dmlcpu_onnx_node_desc(const dmlcpu_onnx_node* node);
/* 1 when the ONNX output has a 0-size dimension: nothing to compile or execute, the caller
 * produces the empty tensor. 0 otherwise (and for NULL). */
DMLCPU_API int dmlcpu_onnx_node_output_is_empty(const dmlcpu_onnx_node* node);
/* The ONNX output: rank, shape (`rank` entries, valid as long as the node; NULL when rank 0),
 * element type (TensorProto.DataType) and element count. */
DMLCPU_API uint32_t dmlcpu_onnx_node_output_rank(const dmlcpu_onnx_node* node);
DMLCPU_API const int64_t* dmlcpu_onnx_node_output_shape(const dmlcpu_onnx_node* node);
DMLCPU_API int32_t dmlcpu_onnx_node_output_element_type(const dmlcpu_onnx_node* node);
DMLCPU_API uint64_t dmlcpu_onnx_node_output_elems(const dmlcpu_onnx_node* node);
/* DirectML bindings: Gather*: data, indices; Slice and the data-movement ops: their inputs. */
/* DirectML bindings: Gather*: data, indices; Scatter*: data, indices, updates (both 0 bytes,
 * and not bound, when the updates are empty); Slice: data. */
DMLCPU_API uint32_t dmlcpu_onnx_node_input_count(const dmlcpu_onnx_node* node);
/* Least byte size of input binding `index` / of the output binding (0 for an empty tensor).
 * DMLCPU_INVALID_ARGUMENT when index >= the input count. */
DMLCPU_API dmlcpu_status dmlcpu_onnx_node_input_bytes(const dmlcpu_onnx_node* node,
                                                      uint32_t index, uint64_t* size_bytes);
DMLCPU_API uint64_t dmlcpu_onnx_node_output_bytes(const dmlcpu_onnx_node* node);
/* Every output binding (the single-output queries above describe output 0): the count (0 for
 * NULL), and per output `index` its ONNX rank and shape (`*shape` valid as long as the node;
 * NULL when the rank is 0), element type (TensorProto.DataType) and least binding byte size (0
 * for an empty tensor). DMLCPU_INVALID_ARGUMENT for a NULL argument or index >= the count. */
DMLCPU_API uint32_t dmlcpu_onnx_node_output_count(const dmlcpu_onnx_node* node);
DMLCPU_API dmlcpu_status dmlcpu_onnx_node_output_shape_at(const dmlcpu_onnx_node* node,
                                                          uint32_t index, uint32_t* rank,
                                                          const int64_t** shape);
DMLCPU_API dmlcpu_status dmlcpu_onnx_node_output_element_type_at(const dmlcpu_onnx_node* node,
                                                                 uint32_t index,
                                                                 int32_t* element_type);
DMLCPU_API dmlcpu_status dmlcpu_onnx_node_output_bytes_at(const dmlcpu_onnx_node* node,
                                                          uint32_t index, uint64_t* size_bytes);
/* Writes one line (DirectML operator, attributes, tensors; NUL-terminated, truncated to
 * capacity) and returns its full length. */
DMLCPU_API uint64_t dmlcpu_onnx_node_describe(const dmlcpu_onnx_node* node, char* buffer,
                                              uint64_t capacity);
/* 1 when the node is a shape-only op with packed tensors: the output is the input's bytes,
 * nothing to execute (its descriptor's Type is DML_OPERATOR_INVALID). 0 otherwise and for NULL. */
DMLCPU_API int dmlcpu_onnx_node_is_alias(const dmlcpu_onnx_node* node);
/* *is_empty = 1 when ONNX input / output `index` has a 0-size dimension (Concat's empty inputs
 * and Split's empty outputs are not bindings: execute with the non-empty ones, in order).
 * DMLCPU_INVALID_ARGUMENT for a NULL argument or index >= the count. */
DMLCPU_API dmlcpu_status dmlcpu_onnx_node_input_is_empty(const dmlcpu_onnx_node* node,
                                                         uint32_t index, int* is_empty);
DMLCPU_API dmlcpu_status dmlcpu_onnx_node_output_is_empty_at(const dmlcpu_onnx_node* node,
                                                             uint32_t index, int* is_empty);
/* Where input `index`'s binding starts inside its buffer: 0 except for a view that starts
 * inside the data (Pad with negative pads). */
DMLCPU_API dmlcpu_status dmlcpu_onnx_node_input_offset_bytes(const dmlcpu_onnx_node* node,
                                                             uint32_t index,
                                                             uint64_t* offset_bytes);
/* Re-lays input / output `index` in a strided buffer: `count` strides in elements, one per ONNX
 * dimension of that tensor (count 0 = packed again). Updates the descriptor and byte sizes (a
 * pointer from dmlcpu_onnx_node_desc stays valid); Compile checks the strides. */
DMLCPU_API dmlcpu_status dmlcpu_onnx_node_set_input_strides(dmlcpu_onnx_node* node,
                                                            uint32_t index,
                                                            const uint32_t* strides_elems,
                                                            uint32_t count);
DMLCPU_API dmlcpu_status dmlcpu_onnx_node_set_output_strides(dmlcpu_onnx_node* node,
                                                             uint32_t index,
                                                             const uint32_t* strides_elems,
                                                             uint32_t count);
/* NULL is a no-op. */
DMLCPU_API void dmlcpu_onnx_node_destroy(dmlcpu_onnx_node* node);
/* Bytes per element of an ONNX element type as the adapter moves it; 0 when unsupported. */
DMLCPU_API uint32_t dmlcpu_onnx_element_size_bytes(int32_t element_type);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DMLCPU_DMLCPU_C_H_ */
