/* SPDX-License-Identifier: Apache-2.0 */
/* A C program built for the MSVC ABI (clang --target=x86_64-pc-windows-msvc, linked by lld-link,
 * which takes link.exe's command line) against dmlcpu.lib, the import library the Windows build
 * ships for MSVC, with no C runtime of its own: what an MSVC application sees of dmlcpu.dll.
 * It runs under wine beside dmlcpu.dll (tests/msvc/run_msvc_abi_test.cmake). */
#include <stddef.h>
#include <stdint.h>

#include "dmlcpu/dmlcpu_c.h"

/* kernel32, declared here: no Windows SDK on these machines. */
__declspec(dllimport) void* __stdcall GetStdHandle(uint32_t which);
__declspec(dllimport) int __stdcall WriteFile(void* file, const void* data, uint32_t size,
                                              uint32_t* written, void* overlapped);
__declspec(dllimport) __declspec(noreturn) void __stdcall ExitProcess(uint32_t code);

/* The compiler may call these for struct copies and zero-initialisation; there is no CRT. */
void* memset(void* dst, int value, size_t n) {
  unsigned char* d = (unsigned char*)dst;
  while (n-- > 0) *d++ = (unsigned char)value;
  return dst;
}
void* memcpy(void* dst, const void* src, size_t n) {
  unsigned char* d = (unsigned char*)dst;
  const unsigned char* s = (const unsigned char*)src;
  while (n-- > 0) *d++ = *s++;
  return dst;
}

static int g_passed = 0;
static int g_failed = 0;

static size_t Length(const char* s) {
  size_t n = 0;
  while (s != NULL && s[n] != '\0') ++n;
  return n;
}

static void Print(const char* s) {
  uint32_t written = 0;
  WriteFile(GetStdHandle((uint32_t)-11) /* STD_OUTPUT_HANDLE */, s, (uint32_t)Length(s), &written,
            NULL);
}

static void PrintNumber(uint64_t v) {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v != 0);
  char text[24];
  for (int i = 0; i < n; ++i) text[i] = digits[n - 1 - i];
  text[n] = '\0';
  Print(text);
}

static int Contains(const char* haystack, const char* needle) {
  const size_t n = Length(needle);
  for (const char* h = haystack; h != NULL && *h != '\0'; ++h) {
    size_t i = 0;
    while (i < n && h[i] == needle[i]) ++i;
    if (i == n) return 1;
  }
  return 0;
}

static void Check(int ok, const char* what) {
  if (ok) {
    ++g_passed;
    return;
  }
  ++g_failed;
  Print("FAILED: ");
  Print(what);
  Print("\r\n");
}

static DML_BUFFER_TENSOR_DESC Int32Tensor(uint32_t rank, const uint32_t* sizes,
                                          const uint32_t* strides, uint64_t total_bytes) {
  DML_BUFFER_TENSOR_DESC t;
  memset(&t, 0, sizeof(t));
  t.DataType = DML_TENSOR_DATA_TYPE_INT32;
  t.DimensionCount = rank;
  t.Sizes = sizes;
  t.Strides = strides;
  t.TotalTensorSizeInBytes = total_bytes;
  return t;
}

/* ELEMENT_WISE_IDENTITY of a transposed view: {4,3} read with strides {1,4} from a {3,4}
 * buffer, written packed. */
static void TestTranspose(dmlcpu_device* device) {
  const uint32_t sizes[2] = {4, 3};
  const uint32_t in_strides[2] = {1, 4};
  DML_BUFFER_TENSOR_DESC in_buffer = Int32Tensor(2, sizes, in_strides, 48);
  DML_BUFFER_TENSOR_DESC out_buffer = Int32Tensor(2, sizes, NULL, 48);
  DML_TENSOR_DESC in_desc = {DML_TENSOR_TYPE_BUFFER, &in_buffer};
  DML_TENSOR_DESC out_desc = {DML_TENSOR_TYPE_BUFFER, &out_buffer};
  DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity = {&in_desc, &out_desc, NULL};
  DML_OPERATOR_DESC desc = {DML_OPERATOR_ELEMENT_WISE_IDENTITY, &identity};
  dmlcpu_operator* op = NULL;
  const dmlcpu_status compiled = dmlcpu_compile(device, &desc, DMLCPU_INDEX_STRICT, &op);
  Check(compiled == DMLCPU_OK && op != NULL, "IDENTITY compiles");
  if (op == NULL) return;
  Check(dmlcpu_operator_type(op) == DML_OPERATOR_ELEMENT_WISE_IDENTITY, "operator type");
  int32_t input[12];
  int32_t output[13];
  for (int i = 0; i < 12; ++i) input[i] = 100 + i;
  for (int i = 0; i < 13; ++i) output[i] = -1;
  dmlcpu_binding in_binding = {input, sizeof(input)};
  dmlcpu_binding out_binding = {output, 48};
  Check(dmlcpu_execute(op, &in_binding, 1, &out_binding, 1) == DMLCPU_OK, "IDENTITY executes");
  int same = 1;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 3; ++c) same &= output[r * 3 + c] == input[c * 4 + r];
  }
  Check(same, "IDENTITY transposes");
  Check(output[12] == -1, "nothing written past the output binding");
  char text[512];
  const uint64_t described = dmlcpu_operator_describe(op, text, sizeof(text));
  Check(described > 0 && Contains(text, "IDENTITY"), "describe names the operator");
  dmlcpu_operator_destroy(op);
}

/* JOIN of {2,2} and {2,3} along axis 1: an array of tensor descs and two input bindings. */
static void TestJoin(dmlcpu_device* device) {
  const uint32_t a_sizes[2] = {2, 2};
  const uint32_t b_sizes[2] = {2, 3};
  const uint32_t out_sizes[2] = {2, 5};
  DML_BUFFER_TENSOR_DESC a_buffer = Int32Tensor(2, a_sizes, NULL, 16);
  DML_BUFFER_TENSOR_DESC b_buffer = Int32Tensor(2, b_sizes, NULL, 24);
  DML_BUFFER_TENSOR_DESC out_buffer = Int32Tensor(2, out_sizes, NULL, 40);
  DML_TENSOR_DESC inputs[2] = {{DML_TENSOR_TYPE_BUFFER, &a_buffer},
                               {DML_TENSOR_TYPE_BUFFER, &b_buffer}};
  DML_TENSOR_DESC out_desc = {DML_TENSOR_TYPE_BUFFER, &out_buffer};
  DML_JOIN_OPERATOR_DESC join = {2, inputs, &out_desc, 1};
  DML_OPERATOR_DESC desc = {DML_OPERATOR_JOIN, &join};
  dmlcpu_compile_options options;
  memset(&options, 0, sizeof(options));
  options.struct_size = sizeof(options);
  options.index_policy = DMLCPU_INDEX_STRICT;
  dmlcpu_operator* op = NULL;
  Check(dmlcpu_compile_ex(device, &desc, &options, &op) == DMLCPU_OK && op != NULL,
        "JOIN compiles");
  if (op == NULL) return;
  Check(dmlcpu_operator_input_count(op) == 2, "JOIN has two inputs");
  uint64_t out_bytes = 0;
  Check(dmlcpu_operator_output_bytes(op, 0, &out_bytes) == DMLCPU_OK && out_bytes == 40,
        "JOIN output bytes");
  const int32_t a[4] = {1, 2, 3, 4};
  const int32_t b[6] = {5, 6, 7, 8, 9, 10};
  int32_t output[10];
  for (int i = 0; i < 10; ++i) output[i] = 0;
  const dmlcpu_input_binding in_bindings[2] = {{a, sizeof(a)}, {b, sizeof(b)}};
  const dmlcpu_binding out_binding = {output, sizeof(output)};
  Check(dmlcpu_execute2(op, in_bindings, 2, &out_binding, 1) == DMLCPU_OK, "JOIN executes");
  const int32_t expected[10] = {1, 2, 5, 6, 7, 3, 4, 8, 9, 10};
  int same = 1;
  for (int i = 0; i < 10; ++i) same &= output[i] == expected[i];
  Check(same, "JOIN concatenates");
  /* A binding one element short: refused with a message naming the operator. */
  const dmlcpu_binding short_binding = {output, sizeof(output) - 4};
  Check(dmlcpu_execute2(op, in_bindings, 2, &short_binding, 1) == DMLCPU_INVALID_ARGUMENT,
        "a short output binding is refused");
  Check(Contains(dmlcpu_last_error_message(), "JOIN"), "the message names JOIN");
  dmlcpu_operator_destroy(op);
}

static void TestBadDescriptor(dmlcpu_device* device) {
  const uint32_t in_sizes[2] = {4, 3};
  const uint32_t out_sizes[2] = {4, 4};
  DML_BUFFER_TENSOR_DESC in_buffer = Int32Tensor(2, in_sizes, NULL, 48);
  DML_BUFFER_TENSOR_DESC out_buffer = Int32Tensor(2, out_sizes, NULL, 64);
  DML_TENSOR_DESC in_desc = {DML_TENSOR_TYPE_BUFFER, &in_buffer};
  DML_TENSOR_DESC out_desc = {DML_TENSOR_TYPE_BUFFER, &out_buffer};
  DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity = {&in_desc, &out_desc, NULL};
  DML_OPERATOR_DESC desc = {DML_OPERATOR_ELEMENT_WISE_IDENTITY, &identity};
  dmlcpu_operator* op = NULL;
  Check(dmlcpu_compile(device, &desc, DMLCPU_INDEX_STRICT, &op) == DMLCPU_INVALID_ARGUMENT &&
            op == NULL,
        "mismatched sizes are refused");
  Check(Contains(dmlcpu_last_error_message(), "OutputTensor"), "the message names the field");
}

void Start(void) {
  Check(dmlcpu_version() == DMLCPU_VERSION, "library version matches the headers");
  Check(Contains(dmlcpu_version_string(), DMLCPU_VERSION_STRING), "version string");
  dmlcpu_device* device = NULL;
  Check(dmlcpu_device_create(2, &device) == DMLCPU_OK && device != NULL, "device");
  if (device != NULL) {
    Check(dmlcpu_device_backend(device) == DMLCPU_BACKEND_CPU, "CPU backend");
    TestTranspose(device);
    TestJoin(device);
    TestBadDescriptor(device);
    dmlcpu_device_destroy(device);
  }
  Print("msvc_abi_test: ");
  PrintNumber((uint64_t)g_passed);
  Print(" passed, ");
  PrintNumber((uint64_t)g_failed);
  Print(" failed\r\n");
  ExitProcess(g_failed == 0 && g_passed > 0 ? 0 : 1);
}
