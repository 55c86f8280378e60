// Runs registered suites (in parallel threads, one suite per task) and renders each to canonical
// text through corpus/. The output depends only on the suites, never on --jobs or timing.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "corpus/manifest.h"
#include "corpus/writer.h"
#include "generator/suite.h"

namespace nc::gen {

inline constexpr const char* kGeneratorVersion = "ninfer-conform-generator 1";

// Builds one suite and renders it; a generator bug (two answers for one input, an undeclared
// tag, a wrong column count) is an Error naming the suite.
corpus::Result<corpus::RenderedSuite> build_suite(const SuiteRegistration& reg);

// Suite names matching `glob` (fnmatch syntax; "" or "*" = all), sorted; duplicate names are
// an error.
corpus::Result<std::vector<SuiteRegistration>> select_suites(const std::string& glob);

struct GenerateOptions {
  std::string glob;
  unsigned jobs = 1;
  bool compress = true;  // false for --check, which compares uncompressed text only
  // Called after each suite finishes (from a worker thread, serialised): done, total, name.
  std::function<void(size_t, size_t, const std::string&)> progress;
};

// Every selected suite, in name order, or the first error in name order.
corpus::Result<std::vector<corpus::RenderedSuite>> generate_suites(const GenerateOptions& opts);

// Provenance for MANIFEST.json: schema, generator version, MPFR and GMP versions, seed.
corpus::Manifest provenance_manifest();

}  // namespace nc::gen
