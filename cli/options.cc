#include "cli/options.h"

#include <algorithm>
#include <charconv>

namespace nc::cli {

namespace {
bool is_option(std::string_view word) { return word.size() > 1 && word[0] == '-'; }
}  // namespace

bool Options::parse(int argc, char* const* argv, std::span<const OptionSpec> spec, bool operands, std::string* why) {
  values_.clear();
  operands_.clear();
  for (int i = 0; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (!is_option(word)) {
      if (!operands)
        return *why = "unexpected argument '" + std::string(word) + "' (this command takes only options)", false;
      operands_.emplace_back(word);
      continue;
    }
    const size_t eq = word.rfind("--", 0) == 0 ? word.find('=') : std::string_view::npos;
    const std::string_view name = word.substr(0, eq);
    const auto o = std::find_if(spec.begin(), spec.end(), [&](const OptionSpec& s) { return s.name == name; });
    if (o == spec.end()) return *why = "unknown option '" + std::string(name) + "'", false;
    std::string value;
    if (o->takes == OptionSpec::Takes::Nothing) {
      if (eq != std::string_view::npos) return *why = std::string(name) + " takes no value", false;
    } else if (eq != std::string_view::npos) {
      value = word.substr(eq + 1);
    } else if (i + 1 >= argc) {
      return *why = std::string(name) + " needs a value", false;
    } else if (std::string_view(argv[i + 1]).rfind("--", 0) == 0) {
      return *why = std::string(name) + " needs a value (found the option " + argv[i + 1] + ")", false;
    } else {
      value = argv[++i];
    }
    std::vector<std::string>& given = values_[std::string(name)];
    if (!given.empty() && o->takes != OptionSpec::Takes::Values)
      return *why = std::string(name) + " given twice", false;
    given.push_back(std::move(value));
  }
  return true;
}

std::string Options::get(std::string_view name, std::string fallback) const {
  const auto it = values_.find(name);
  return it == values_.end() ? std::move(fallback) : it->second.front();
}

std::vector<std::string> Options::all(std::string_view name) const {
  const auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

bool Options::count(std::string_view name, uint64_t min, uint64_t max, uint64_t* out, std::string* why) const {
  if (!has(name)) return true;
  const std::string v = get(name);
  uint64_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (!v.empty() && ec == std::errc() && end == v.data() + v.size() && n >= min && n <= max) return *out = n, true;
  *why = std::string(name) + " takes a whole number " +
         (max == kNoLimit ? "of at least " + std::to_string(min)
                          : "from " + std::to_string(min) + " to " + std::to_string(max)) +
         ", not '" + v + "'";
  return false;
}

}  // namespace nc::cli
