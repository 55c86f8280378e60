// Errors as values: every corpus failure names the file, the line, the case id and the rule
// broken, so a caller can print one line and exit non-zero. The library never exits or throws
// on bad input.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace nc::corpus {

struct Error {
  std::string file;     // path as given, or "" when not from a file
  size_t line = 0;      // 1-based line of the uncompressed text; 0 = not line-specific
  std::string case_id;  // "" when no record is involved
  std::string rule;     // what was broken, in words ("declared 316, found 315")

  // "file:line: case id: rule" with the parts that are known.
  std::string message() const;
};

// A value or the Error that prevented it (std::expected is C++23).
template <class T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}
  Result(Error error) : error_(std::move(error)) {}
  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  T& value() { return *value_; }
  const T& value() const { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() { return *value_; }
  const Error& error() const { return error_; }

 private:
  std::optional<T> value_;
  Error error_;
};

// For operations that return nothing on success.
using Status = std::optional<Error>;

}  // namespace nc::corpus
