// `generate --check`: compares freshly generated suites with a committed corpus and names the
// first difference (suite, line, case id).
#pragma once

#include <string>
#include <vector>

#include "corpus/error.h"
#include "corpus/writer.h"

namespace nc::gen {

// `all` says the generated set is the whole registry, so manifest entries with no generated
// suite are reported too. Returns every differing suite, in name order.
std::vector<corpus::Error> check_corpus(const std::string& dir, const std::vector<corpus::RenderedSuite>& fresh,
                                        bool all);

}  // namespace nc::gen
