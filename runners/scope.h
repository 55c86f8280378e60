// What a verdict covers. A target is judged only on what it provides, so "conformant" must say on
// what: the suites it was judged on, the suites it did not provide, and whether what the user
// requires (--require) was there. One description, used by the terminal summary, --json, --junit and
// the certificate.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "runners/results.h"

namespace nc::runners {

struct Scope {
  std::vector<std::string> judged;        // suites with every case judged
  std::vector<std::string> partial;       // suites with some cases judged and some untested
  std::vector<std::string> not_provided;  // suites the target declined whole (every case untested)
  size_t judged_cases = 0, untested_cases = 0;
  std::vector<std::string> unmet;  // one line per --require entry not met
};

// --require entries: "all" (every selected suite), a capability verb ("decode"), or a suite name or
// glob ("decode.E4M3FN", "convert.*"). An entry is met when some selected suite matches it and
// every case of every matching suite was judged (none untested; failures are judged).
Scope scope_of(const ReplayResult& r);
// Whether a --require entry can name anything in a corpus of these suites: "all", a capability
// verb, or a name or glob matching one of them. One that cannot is a typo, refused before the
// replay; one that names only suites outside --suite is an unmet requirement (scope_of).
bool require_entry_names_something(const std::string& entry, const std::vector<std::string>& corpus_suites);
// "decode.E2M1 (16 cases); not provided: 46 suites", "all 47 suites (567976 cases)", ...
std::string scope_text(const Scope& s);
// "CONFORMANT for <scope>", or "NOT CONFORMANT: <why>; judged <scope>" (why: failures, target
// problems, unmet requirements, nothing judged). `conformant` is the caller's overall verdict
// (a certificate's includes its sweeps). A conformant verdict carries the weakest qualifier of what
// it summarises: "CONFORMANT under policy nan-payload for ..." when some case (or, for a
// certificate, some swept input: extra_policies) passed only under a policy, "within tolerance"
// when some case passed only within --tolerance; never plain where a policy was needed.
std::string verdict_line(const ReplayResult& r, bool conformant, const std::set<std::string>& extra_policies = {});
// The overall word a certificate or report gives: "conformant", "conformant under policy
// nan-payload", ..., or "not conformant".
std::string overall_word(const ReplayResult& r, bool conformant, const std::set<std::string>& extra_policies = {});

}  // namespace nc::runners
