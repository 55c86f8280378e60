// Errors are values: every codec operation that can reject its input returns Result<T>, whose
// error names the format (or word type), the coordinate and the rule broken. GCC 12 has no
// std::expected, so this is the small subset we need.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace nc::codec {

// Rules an input can break. Tokens (rule_token) equal the corpus rule names of vectors/FORMAT.md
// where one exists.
enum class Rule : uint8_t {
  Shape,           // rank/extent not allowed, or plane sizes disagree with the shape
  CodeIllegal,     // a code outside the legal language (W8 0x80, E4M3FN NaN code)
  ScaleNegative,   // scale sign bit set, including negative zero
  ScaleNonfinite,  // infinity or NaN scale
  ZeroScaleCodes,  // a +0 scale whose group/row holds a nonzero code
  Divisor,         // NVFP4 d_w not finite and strictly positive
  UnknownFormat,   // a name outside the closed registry
  Nonfinite,       // encoder: a source value is not finite binary32
  ScaleOverflow,   // encoder: raw_scale32 rounds to binary16 infinity
  Index,           // layout: a coordinate outside the logical scale matrix
  WordRange,       // a word with bits set above its type's width
  Unsupported,     // the operation does not exist for this format
};

std::string_view rule_token(Rule r);

struct Error {
  std::string subject;  // format or word-type name, or the offending string
  std::string where;    // coordinate ("code[3]", "scale[0,1]") or empty
  Rule rule;
  std::string detail;  // one human sentence

  // One line: "<subject>: <where>: <rule>: <detail>".
  std::string text() const;
};

template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error e) : v_(std::move(e)) {}
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T& value() const { return std::get<0>(v_); }
  T& value() { return std::get<0>(v_); }
  const T& operator*() const { return value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace nc::codec
