// SPDX-License-Identifier: Apache-2.0
// Message formatting for Status errors.
#ifndef DMLCPU_CORE_FORMAT_H_
#define DMLCPU_CORE_FORMAT_H_

#include <cstdint>
#include <string>

#include "core/portability.h"

#include "dmlcpu/status.h"

namespace dmlcpu {

// printf-style formatting into a std::string.
std::string StrFormat(const char* format, ...) DMLCPU_PRINTF_FORMAT(1, 2);

// "{a,b,c}" for `count` values.
std::string FormatList(const uint32_t* values, uint32_t count);
std::string FormatList(const int64_t* values, uint32_t count);

// Convenience constructors.
Status InvalidArgument(const char* format, ...) DMLCPU_PRINTF_FORMAT(1, 2);
Status Unsupported(const char* format, ...) DMLCPU_PRINTF_FORMAT(1, 2);

}  // namespace dmlcpu

#endif  // DMLCPU_CORE_FORMAT_H_
