#include "generator/suite.h"

#include <stdexcept>

#include "corpus/sha256.h"

namespace nc::gen {

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? " " : "") + v[i];
  return out;
}

}  // namespace

void SuiteBuilder::add(Case c) {
  std::string key = join(c.inputs);
  auto [it, fresh] = by_inputs_.emplace(key, cases_.size());
  if (fresh) {
    cases_.push_back(std::move(c));
    return;
  }
  // The same input twice: fine when it is the same answer (a word that is both a tie and a
  // binade edge, say), a generator bug when it is not.
  Case& old = cases_[it->second];
  if (old.expect != c.expect || old.accept != c.accept || old.info != c.info)
    throw std::logic_error("suite " + info_.name + ": inputs `" + key + "` added twice with different expectations (`" +
                           old.expect + "` vs `" + c.expect + "`)");
  for (auto& t : c.tags) {
    bool have = false;
    for (auto& o : old.tags) have = have || o == t;
    if (!have) old.tags.push_back(t);
  }
}

std::vector<Case> SuiteBuilder::take_cases() {
  by_inputs_.clear();
  return std::move(cases_);
}

uint64_t suite_seed(const std::string& suite_name) {
  // kCorpusSeed XOR the first 8 bytes (big-endian) of SHA-256(name), then one SplitMix64 step to
  // spread it: a language-neutral definition, so anyone can reproduce a suite's sample.
  std::string h = corpus::sha256_hex(suite_name).substr(0, 16);
  uint64_t x = std::stoull(h, nullptr, 16);
  return SplitMix64(kCorpusSeed ^ x).next();
}

namespace {
std::vector<SuiteRegistration>& registry() {
  static std::vector<SuiteRegistration> r;  // function-local: safe during static initialisation
  return r;
}
}  // namespace

bool register_suite(SuiteRegistration r) {
  registry().push_back(r);
  return true;
}

const std::vector<SuiteRegistration>& registered_suites() { return registry(); }

}  // namespace nc::gen
