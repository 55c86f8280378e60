// The certificate of one certification: certificate.md for people, certificate.json in full. It is
// made of a replay of the corpus and the sweeps `certify --sweep` ran (none by default). Both files
// are pure functions of those results and one generated_at string, so the same inputs give the same
// bytes apart from that field; neither names a path of the machine it ran on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runners/replay.h"
#include "runners/sweep/sweep_target.h"

namespace nc::runners {

// A sweep that judged something: its target provided the domain (did not decline every input).
bool sweep_provided(const sweep::Outcome& o);
// A sweep without mismatches, failed batches or a crash (results a policy allows are not failures).
bool sweep_clean(const sweep::Outcome& o);
// The replay is conformant and every sweep is clean.
bool certified_conformant(const ReplayResult& r, const std::vector<sweep::Outcome>& sweeps);

// "conformant" or "not conformant", followed by " (MODIFIED corpus)" on any corpus but the official one.
std::string overall_text(const ReplayResult& r, const std::vector<sweep::Outcome>& sweeps);

// Per-capability verdict over every suite and every provided sweep of that capability.
struct CapabilityVerdict {
  Capability cap;
  std::string verdict;  // "conformant", "conformant under policies P, Q", "not conformant", "untested"
  size_t cases = 0, failed = 0, untested = 0;  // corpus cases
};
std::vector<CapabilityVerdict> capability_verdicts(const ReplayResult& r, const std::vector<sweep::Outcome>& sweeps);

// certificate.md lists the first kCertificateMarkdownFailureCap failures and says how many more
// certificate.json lists (`max_listed_failures` as there) and how many are only counted.
inline constexpr size_t kCertificateMarkdownFailureCap = 50;
std::string certificate_markdown(const ReplayResult& r, const std::vector<sweep::Outcome>& sweeps,
                                 const std::string& generated_at, size_t max_listed_failures = SIZE_MAX);
// Each suite lists its first `max_listed_failures` failures in record order (all by default), and
// always gives how many it has (`failures_total`) and the SHA-256 of all their case IDs, each
// followed by a newline, in record order (`failing_ids_sha256`): a list cut short still pins the set.
std::string certificate_json(const ReplayResult& r, const std::vector<sweep::Outcome>& sweeps,
                             const std::string& generated_at, size_t max_listed_failures = SIZE_MAX);

}  // namespace nc::runners
