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
  // An error about one field of an input, "<path>: <reason>". The path and the reason are kept
  // apart too, so that a caller pointing at the field (a file's line) never parses the message.
  static Status FieldError(std::string path, std::string reason) {
    Status s(path + ": " + reason);
    s.field_path_ = std::move(path);
    s.reason_ = std::move(reason);
    return s;
  }

  bool ok() const { return !message_.has_value(); }
  const std::string& message() const {
    static const std::string kEmpty;
    return message_ ? *message_ : kEmpty;
  }
  // The field a FieldError is about ("clos.tier[1].down_links"); empty for any other status.
  const std::string& field_path() const { return field_path_; }
  // A FieldError's reason without its path; the whole message for any other status.
  const std::string& reason() const { return field_path_.empty() ? message() : reason_; }

 private:
  explicit Status(std::string message) : message_(std::move(message)) {}
  std::optional<std::string> message_;
  std::string field_path_;
  std::string reason_;
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
