/* SPDX-License-Identifier: Apache-2.0 */
/* dmlcpu — C ABI, for engines in other languages. Plain C99.
 *
 * Thread-safety: a device may compile from several threads at once; an operator may execute
 * from several threads at once. Every handle is destroyed by its own function; an operator
 * keeps what it needs of its device alive, so the two may be destroyed in any order.
 * On failure a function returns a non-zero dmlcpu_status and records a message that
 * dmlcpu_last_error_message() returns on the same thread. */
#ifndef DMLCPU_DMLCPU_C_H_
#define DMLCPU_DMLCPU_C_H_

#include <stdint.h>

#include "dmlcpu/dml_compat.h"
#include "dmlcpu/export.h"

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

/* A host buffer: pointer and accessible size in bytes (>= the tensor's TotalTensorSizeInBytes). */
typedef struct dmlcpu_binding {
  void* data;
  uint64_t size_bytes;
} dmlcpu_binding;

/* max_threads: 0 = all cores, 1 = serial. *out receives the device (NULL on failure). */
DMLCPU_API dmlcpu_status dmlcpu_device_create(uint32_t max_threads, dmlcpu_device** out);
typedef enum dmlcpu_backend {
  DMLCPU_BACKEND_CPU = 0,
  DMLCPU_BACKEND_D3D12 = 1, /* real DirectML (Windows builds with the D3D12 backend) */
  DMLCPU_BACKEND_AUTO = 2   /* D3D12 when DirectML.dll and an adapter are present, else CPU */
} dmlcpu_backend;

/* Options for dmlcpu_device_create_ex. Zero-initialise, then set struct_size. */
typedef struct dmlcpu_device_options {
  uint32_t struct_size;   /* sizeof(dmlcpu_device_options) */
  uint32_t max_threads;   /* as for dmlcpu_device_create */
  dmlcpu_backend backend; /* DMLCPU_BACKEND_CPU when zero */
  void* d3d12_device;     /* optional ID3D12Device* to adopt (D3D12/AUTO) */
  void* d3d12_queue;      /* optional ID3D12CommandQueue* to adopt (D3D12/AUTO) */
} dmlcpu_device_options;

/* Fails (DMLCPU_UNSUPPORTED) when DMLCPU_BACKEND_D3D12 is requested and cannot be created. */
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
/* Bindings in the order of the operator struct's tensor fields. */
DMLCPU_API dmlcpu_status dmlcpu_execute(const dmlcpu_operator* op, const dmlcpu_binding* inputs,
                                        uint32_t input_count, const dmlcpu_binding* outputs,
                                        uint32_t output_count);
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

/* Message of the last failure on this thread ("" if none). Valid until the next dmlcpu call on
 * this thread. Never NULL. */
DMLCPU_API const char* dmlcpu_last_error_message(void);

/* Extras. */
/* Minimum TotalTensorSizeInBytes (DMLCalcBufferTensorSize, 64-bit); 0 on unknown type/overflow. */
DMLCPU_API uint64_t dmlcpu_calc_buffer_tensor_size(DML_TENSOR_DATA_TYPE data_type,
                                                   uint32_t dimension_count, const uint32_t* sizes,
                                                   const uint32_t* strides);
/* Writes the plan description (NUL-terminated, truncated to capacity); returns its full length. */
DMLCPU_API uint64_t dmlcpu_operator_describe(const dmlcpu_operator* op, char* buffer,
                                             uint64_t capacity);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DMLCPU_DMLCPU_C_H_ */
