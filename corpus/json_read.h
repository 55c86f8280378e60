// Reading the JSON files this project writes (MANIFEST.json, sweep reports) strictly, and saying
// what is wrong in its own words: a key twice in one object (which JSON libraries resolve each
// their own way), a missing member, a member of another type, a negative or fractional count.
// Every problem is a JsonError whose message names the member.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace nc::corpus {

struct JsonError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The document in `text`: "not valid JSON (at byte N)" or "key "K" appears twice in one object".
nlohmann::json parse_json_strict(const std::string& text);

// Members of object `j`, each checked for its type.
const nlohmann::json& json_member(const nlohmann::json& j, const std::string& key);
const nlohmann::json& json_object(const nlohmann::json& j, const std::string& key);
const nlohmann::json& json_array(const nlohmann::json& j, const std::string& key);
std::string json_text(const nlohmann::json& j, const std::string& key);
uint64_t json_count(const nlohmann::json& j, const std::string& key);                  // an integer >= 0
std::vector<std::string> json_texts(const nlohmann::json& j, const std::string& key);  // an array of strings

}  // namespace nc::corpus
