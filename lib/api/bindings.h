// SPDX-License-Identifier: Apache-2.0
// Execute's and ExecuteNative's checks of the caller's bindings (counts, pointers, sizes,
// alignment, overlaps) and the message for an out-of-range index found by the strict scan.
// O(bindings), allocation-free while every check passes.
#ifndef DMLCPU_API_BINDINGS_H_
#define DMLCPU_API_BINDINGS_H_

#include <cstddef>
#include <cstdint>

#include "dmlcpu/dmlcpu.h"
#include "executor/executor.h"
#include "planner/plan.h"

namespace dmlcpu {
namespace internal {

// Whether outputs[0] is bound to the very input the program may update in place.
bool BoundInPlace(const Program& program, const Binding* inputs, const OutputBinding* outputs);
// Execute's binding checks as one predicate, building no Status: true exactly where
// CheckBindings returns Ok.
bool BindingsOk(const Program& program, const Binding* inputs, size_t input_count,
                const OutputBinding* outputs, size_t output_count);
// Execute's binding checks one by one: the first failure, named (field, index, value, bound).
Status CheckBindings(const Program& program, const Binding* inputs, size_t input_count,
                     const OutputBinding* outputs, size_t output_count);
// ExecuteNative's checks of its resource bindings.
Status CheckNativeBindings(const Program& program, const NativeBinding* inputs,
                           size_t input_count, const NativeBinding* outputs,
                           size_t output_count);
// The strict scan's first bad index as a kOutOfRange Status: its position, coordinates, value
// and the range it must lie in.
Status BadIndexError(const Program& program, const uint8_t* indices, const BadIndex& bad);

}  // namespace internal
}  // namespace dmlcpu

#endif  // DMLCPU_API_BINDINGS_H_
