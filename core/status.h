// Setup errors travel as values with a reason (StatusOr style); the hot path never sees them.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace fe {

class Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status Error(std::string message) { return Status(std::move(message)); }

  bool ok() const { return !message_.has_value(); }
  const std::string& message() const {
    static const std::string kEmpty;
    return message_ ? *message_ : kEmpty;
  }

 private:
  explicit Status(std::string message) : message_(std::move(message)) {}
  std::optional<std::string> message_;
};

template <typename T>
class StatusOr {
 public:
  StatusOr(T value) : v_(std::move(value)) {}         // NOLINT: implicit by design
  StatusOr(Status status) : v_(std::move(status)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(v_); }
  Status status() const { return ok() ? Status::Ok() : std::get<Status>(v_); }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace fe
