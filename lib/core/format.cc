// SPDX-License-Identifier: Apache-2.0
#include "core/format.h"

#include <cstdarg>
#include <cstdio>

namespace dmlcpu {
namespace {

std::string VFormat(const char* format, va_list args) {
  va_list copy;
  va_copy(copy, args);
  char small[256];
  const int length = std::vsnprintf(small, sizeof(small), format, copy);
  va_end(copy);
  if (length < 0) return std::string(format);
  if (static_cast<size_t>(length) < sizeof(small)) return std::string(small, length);
  std::string result(static_cast<size_t>(length) + 1, '\0');
  std::vsnprintf(&result[0], result.size(), format, args);
  result.resize(static_cast<size_t>(length));
  return result;
}

template <typename T>
std::string FormatListImpl(const T* values, uint32_t count) {
  std::string s = "{";
  for (uint32_t i = 0; i < count; ++i) {
    if (i) s += ',';
    s += std::to_string(values[i]);
  }
  return s + "}";
}

}  // namespace

std::string StrFormat(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::string s = VFormat(format, args);
  va_end(args);
  return s;
}

std::string FormatList(const uint32_t* values, uint32_t count) {
  return FormatListImpl(values, count);
}
std::string FormatList(const int64_t* values, uint32_t count) {
  return FormatListImpl(values, count);
}

Status InvalidArgument(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::string s = VFormat(format, args);
  va_end(args);
  return Status(StatusCode::kInvalidArgument, std::move(s));
}

Status Unsupported(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::string s = VFormat(format, args);
  va_end(args);
  return Status(StatusCode::kUnsupported, std::move(s));
}

}  // namespace dmlcpu
