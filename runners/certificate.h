// The certificate of one replay: certificate.md for people, certificate.json in full. Both are pure
// functions of the replay result and one generated_at string, so the same inputs give the same
// bytes apart from that field.
#pragma once

#include <string>

#include "runners/replay.h"

namespace nc::runners {

// Per-capability verdict over every suite of that capability.
struct CapabilityVerdict {
  Capability cap;
  std::string verdict;  // "conformant", "conformant under policies P, Q", "not conformant", "untested"
  size_t cases = 0, failed = 0, untested = 0;
};
std::vector<CapabilityVerdict> capability_verdicts(const ReplayResult& r);

inline constexpr size_t kCertificateMarkdownFailureCap = 50;
std::string certificate_markdown(const ReplayResult& r, const std::string& generated_at);
std::string certificate_json(const ReplayResult& r, const std::string& generated_at);

}  // namespace nc::runners
