// SPDX-License-Identifier: Apache-2.0
// One moderate case of each gather and slice operator, shared by the suites that run whole
// operators on many threads at once.
#ifndef DMLCPU_TESTS_SUPPORT_MODERATE_CASES_H_
#define DMLCPU_TESTS_SUPPORT_MODERATE_CASES_H_

#include <memory>
#include <vector>

#include "support/tester.h"

namespace dmlcpu_test {

// GATHER, GATHER_ELEMENTS, GATHER_ND, GATHER_ND1, SLICE and SLICE1, each with a few hundred KiB
// of output (above every device's serial cutoff, so several threads overlap), some with strided
// or descending layouts.
std::vector<std::unique_ptr<OperatorCase>> ModerateGatherSliceCases();

}  // namespace dmlcpu_test

#endif  // DMLCPU_TESTS_SUPPORT_MODERATE_CASES_H_
