// SPDX-License-Identifier: Apache-2.0
// The fuzz harnesses, shared by the libFuzzer entry points (compile_fuzzer.cc, execute_fuzzer.cc)
// and by the regression test that replays tests/fuzz/regressions/* and the seed corpus in the
// normal test build (fuzz_regression_test.cc).
//
// Both turn fuzz bytes into a DML_OPERATOR_DESC of one of the operators of kOps (the six gathers
// and slices, the padding family, ELEMENT_WISE_IDENTITY, TILE, JOIN, SPLIT, SCATTER, SCATTER_ND;
// the generated case: fuzz_case.h, made by fuzz_generate.cc; families in fuzz_ops_<family>.cc),
// compile it and, when Compile succeeds, execute it on guarded buffers and compare with the
// naive reference (tests/reference). A finding (a mismatch, a write outside the output, an input
// modified, a failure that leaves bytes changed) prints a description of the case and calls
// abort(); memory errors are caught by ASan (the guard bytes are poisoned when ASan is on).
#ifndef DMLCPU_TESTS_FUZZ_FUZZ_HARNESS_H_
#define DMLCPU_TESTS_FUZZ_FUZZ_HARNESS_H_

#include <cstddef>
#include <cstdint>

namespace dmlcpu_fuzz {

// Any descriptor: any type value, 0..10 dimensions, sizes and strides including 0 and huge
// values, null pointers, out-of-range attributes, mismatched data types; both index policies.
void CompileFuzzOne(const uint8_t* data, size_t size_bytes);

// Valid descriptors, hostile bindings: short buffers, overlapping input and output ranges, null
// data, misaligned data, wrong counts, null binding arrays.
void ExecuteFuzzOne(const uint8_t* data, size_t size_bytes);

}  // namespace dmlcpu_fuzz

#endif  // DMLCPU_TESTS_FUZZ_FUZZ_HARNESS_H_
