#include "corpus/json_read.h"

#include <set>

namespace nc::corpus {

nlohmann::json parse_json_strict(const std::string& text) {
  std::vector<std::set<std::string>> keys;  // of each object open at the moment
  std::string twice;
  auto note = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (event == Event::object_start) keys.emplace_back();
    if (event == Event::object_end) keys.pop_back();
    if (event == Event::key && !keys.back().insert(parsed.get<std::string>()).second && twice.empty())
      twice = parsed.get<std::string>();
    return true;
  };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text, note);
  } catch (const nlohmann::json::parse_error& e) {
    throw JsonError("not valid JSON (at byte " + std::to_string(e.byte) + ")");
  } catch (const nlohmann::json::exception&) {  // out_of_range: a number no double holds (tests/fuzz)
    throw JsonError("not valid JSON here (a number beyond the range of a double)");
  }
  if (!twice.empty()) throw JsonError("key \"" + twice + "\" appears twice in one object");
  return j;
}

const nlohmann::json& json_member(const nlohmann::json& j, const std::string& key) {
  if (!j.is_object()) throw JsonError("an object is expected where \"" + key + "\" is looked up");
  auto it = j.find(key);
  if (it == j.end()) throw JsonError("\"" + key + "\" is missing");
  return *it;
}

const nlohmann::json& json_object(const nlohmann::json& j, const std::string& key) {
  const nlohmann::json& v = json_member(j, key);
  if (!v.is_object()) throw JsonError("\"" + key + "\" is not an object");
  return v;
}

const nlohmann::json& json_array(const nlohmann::json& j, const std::string& key) {
  const nlohmann::json& v = json_member(j, key);
  if (!v.is_array()) throw JsonError("\"" + key + "\" is not an array");
  return v;
}

std::string json_text(const nlohmann::json& j, const std::string& key) {
  const nlohmann::json& v = json_member(j, key);
  if (!v.is_string()) throw JsonError("\"" + key + "\" is not a string");
  return v.get<std::string>();
}

uint64_t json_count(const nlohmann::json& j, const std::string& key) {
  // The type first: nlohmann's get<> converts a float or a negative number without a word (and an
  // out-of-range float with undefined behaviour, as tests/fuzz found).
  const nlohmann::json& v = json_member(j, key);
  if (!v.is_number_unsigned()) throw JsonError("\"" + key + "\" is not a count (an integer >= 0)");
  return v.get<uint64_t>();
}

std::vector<std::string> json_texts(const nlohmann::json& j, const std::string& key) {
  const nlohmann::json& v = json_member(j, key);
  if (!v.is_array()) throw JsonError("\"" + key + "\" is not an array of strings");
  std::vector<std::string> out;
  for (const nlohmann::json& e : v) {
    if (!e.is_string()) throw JsonError("\"" + key + "\" is not an array of strings");
    out.push_back(e.get<std::string>());
  }
  return out;
}

}  // namespace nc::corpus
