// SPDX-License-Identifier: Apache-2.0
// dmlcpu — the one error model of the public API.
#ifndef DMLCPU_STATUS_H_
#define DMLCPU_STATUS_H_

#include <cstdint>
#include <string>
#include <utility>

#include "dmlcpu/export.h"

namespace dmlcpu {

// Numeric values equal the C ABI's dmlcpu_status.
enum class StatusCode : uint32_t {
  kOk = 0,
  kInvalidArgument = 1,  // malformed descriptor or binding
  kUnsupported = 2,      // valid DirectML, not supported by dmlcpu (4-bit types, OWNED_BY_DML)
  kOutOfRange = 3,       // an index outside its dimension under IndexPolicy::kStrict
  kInternal = 4,         // a bug in dmlcpu or an allocation failure
};

// A code plus a human-readable message. Messages name the operator, the field, the dimension
// (where there is one), the offending value and the allowed range, e.g.
//   "GATHER_ND1: OutputTensor.Sizes[3] is 5, expected 6 (InputTensor.Sizes[4])".
// Success carries no message and allocates nothing.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Either a value or a non-OK Status.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)), has_value_(true) {}  // NOLINT: implicit by design
  // A StatusOr made from a Status always holds an error: an OK status becomes kInternal.
  StatusOr(Status status)  // NOLINT: implicit by design
      : status_(status.ok() ? Status(StatusCode::kInternal, "StatusOr built from an OK Status")
                            : std::move(status)) {}

  bool ok() const { return has_value_; }
  const Status& status() const { return status_; }
  // Precondition: ok().
  T& value() & { return value_; }
  const T& value() const& { return value_; }
  T&& value() && { return std::move(value_); }
  T* operator->() { return &value_; }
  const T* operator->() const { return &value_; }
  T& operator*() & { return value_; }

 private:
  Status status_;
  T value_{};
  bool has_value_ = false;
};

// Name of a code ("OK", "INVALID_ARGUMENT", ...). Never null.
DMLCPU_API const char* StatusCodeName(StatusCode code);

}  // namespace dmlcpu

#endif  // DMLCPU_STATUS_H_
