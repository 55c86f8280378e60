// The one argument grammar every command parses with, so that the same mistake is refused the
// same way everywhere (README, "Command-line conventions"; tests/cli):
//   --name VALUE or --name=VALUE  an option that takes a value; `-` is a value (standard output)
//   --name                        a flag
//   anything else                 an operand, for commands that take operands
// Refused, naming the option: one this command does not have; a value missing (none left, or the
// next word is itself an option: write --name=--odd for such a value); a value given to a flag;
// an option given twice unless it is declared repeatable (a second --json is a mistake, not an
// override). -h/--help is handled before (wants_help).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nc::cli {

inline constexpr uint64_t kNoLimit = UINT64_MAX;  // Options::count's max for "no upper bound"

struct OptionSpec {
  enum class Takes { Nothing, Value, Values };  // a flag; one value; values, repeatable
  std::string_view name;                        // with its dashes: "--target"
  Takes takes;
};

class Options {
 public:
  // Parses argv[0..argc) against `spec`. `operands`: whether words that are not options are
  // allowed. False, with *why set to the first problem, when argv breaks the grammar.
  bool parse(int argc, char* const* argv, std::span<const OptionSpec> spec, bool operands, std::string* why);

  bool has(std::string_view name) const { return values_.count(name) != 0; }
  // The value of a single-valued option, or `fallback` when it was not given.
  std::string get(std::string_view name, std::string fallback = "") const;
  // Every value of an option, in the order given (empty when it was not given).
  std::vector<std::string> all(std::string_view name) const;
  const std::vector<std::string>& operands() const { return operands_; }

  // The option's value as a whole decimal number in [min, max], into *out; true when the option
  // was not given (*out keeps its default). False, with *why, for anything else.
  bool count(std::string_view name, uint64_t min, uint64_t max, uint64_t* out, std::string* why) const;

 private:
  std::map<std::string, std::vector<std::string>, std::less<>> values_;  // a flag has one "" value
  std::vector<std::string> operands_;
};

}  // namespace nc::cli
