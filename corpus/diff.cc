#include "corpus/diff.h"

#include <memory>
#include <set>

#include <nlohmann/json.hpp>

#include "corpus/manifest.h"
#include "corpus/reader.h"

namespace nc::corpus {
namespace {

std::string field(const Record& r, int column) { return std::string(column < 0 ? "-" : r.fields[size_t(column)]); }

void push_limited(std::vector<std::string>& list, std::string_view id, size_t limit) {
  if (limit == 0 || list.size() < limit) list.emplace_back(id);
}

void count_tags(std::map<std::string, uint64_t>& tally, const std::string& tags) {
  if (tags == "-") return;
  size_t start = 0;
  for (;;) {
    const size_t comma = tags.find(',', start);
    ++tally[tags.substr(start, comma == std::string::npos ? std::string::npos : comma - start)];
    if (comma == std::string::npos) return;
    start = comma + 1;
  }
}

void diff_headers(const SuiteHeader& a, const SuiteHeader& b, std::vector<std::string>& out) {
  if (a.op != b.op) out.push_back("#op " + a.op + " -> " + b.op);
  if (a.about != b.about) out.push_back("#about reworded");
  if (a.spec != b.spec) out.push_back("#spec " + a.spec + " -> " + b.spec);
  if (a.columns != b.columns) out.push_back("#columns changed");
  for (const auto* kind : {"tag", "policy"}) {
    const auto& old_list = std::string(kind) == "tag" ? a.tags : a.policies;
    const auto& new_list = std::string(kind) == "tag" ? b.tags : b.policies;
    std::map<std::string, std::string> o(old_list.begin(), old_list.end()), n(new_list.begin(), new_list.end());
    for (const auto& [name, text] : o) {
      auto it = n.find(name);
      if (it == n.end()) out.push_back(std::string("#") + kind + " " + name + " removed");
      else if (it->second != text) out.push_back(std::string("#") + kind + " " + name + " reworded");
    }
    for (const auto& [name, text] : n)
      if (!o.count(name)) out.push_back(std::string("#") + kind + " " + name + " added");
  }
}

// One corpus: its folder, manifest and each listed file's bytes as verify_files matched them, so
// a suite that has to be read is decompressed from those, not read and hashed again.
struct Side {
  std::string dir;
  Manifest manifest;
  std::vector<std::string> contents;  // in manifest order
};

// `e` (an entry of side.manifest) read from its verified bytes, its text hashed for check_totals.
Result<std::unique_ptr<SuiteReader>> open_verified(Side& side, const ManifestEntry& e) {
  std::string& bytes = side.contents[size_t(&e - side.manifest.suites.data())];
  return SuiteReader::from_verified(std::move(bytes), e.compressed_sha256, side.dir + "/" + e.file,
                                    SuiteReader::TextHash::Compute);
}

// Every record of a suite present on one side only.
Status one_side(Side& side, const ManifestEntry& entry, bool is_new, SuiteDiff& d, size_t limit) {
  const std::string path = side.dir + "/" + entry.file;
  auto reader = open_verified(side, entry);
  if (!reader) return reader.error();
  const int tags = (*reader)->header().column("tags");
  Record r;
  for (;;) {
    auto more = (*reader)->next(r);
    if (!more) return more.error();
    if (!*more) break;
    if (is_new) {
      ++d.added, ++d.new_records;
      push_limited(d.added_ids, r.id(), limit);
      count_tags(d.added_tags, field(r, tags));
    } else {
      ++d.removed, ++d.old_records;
      push_limited(d.removed_ids, r.id(), limit);
      count_tags(d.removed_tags, field(r, tags));
    }
  }
  return check_totals(path, entry, (*reader)->totals());
}

// Both files streamed in id order, merged like a sorted-list join.
Status both_sides(Side& old_side, const ManifestEntry& old_entry, Side& new_side, const ManifestEntry& new_entry,
                  SuiteDiff& d, size_t limit) {
  const std::string old_path = old_side.dir + "/" + old_entry.file, new_path = new_side.dir + "/" + new_entry.file;
  auto ro = open_verified(old_side, old_entry);
  if (!ro) return ro.error();
  auto rn = open_verified(new_side, new_entry);
  if (!rn) return rn.error();
  const SuiteHeader &ho = (*ro)->header(), &hn = (*rn)->header();
  diff_headers(ho, hn, d.header_changes);
  const int oe = ho.column("expect"), oa = ho.column("accept"), ot = ho.column("tags");
  const int ne = hn.column("expect"), na = hn.column("accept"), nt = hn.column("tags"), nc = hn.column("comment");
  Record a, b;
  bool have_a = false, have_b = false;
  auto advance = [](SuiteReader& r, Record& rec, bool& have) -> Status {
    auto more = r.next(rec);
    if (!more) return more.error();
    have = *more;
    return {};
  };
  if (Status s = advance(**ro, a, have_a); s) return s;
  if (Status s = advance(**rn, b, have_b); s) return s;
  while (have_a || have_b) {
    if (have_a && (!have_b || a.id() < b.id())) {
      ++d.removed, ++d.old_records;
      push_limited(d.removed_ids, a.id(), limit);
      count_tags(d.removed_tags, field(a, ot));
      if (Status s = advance(**ro, a, have_a); s) return s;
    } else if (have_b && (!have_a || b.id() < a.id())) {
      ++d.added, ++d.new_records;
      push_limited(d.added_ids, b.id(), limit);
      count_tags(d.added_tags, field(b, nt));
      if (Status s = advance(**rn, b, have_b); s) return s;
    } else {
      ++d.old_records, ++d.new_records;
      const std::string e0 = field(a, oe), e1 = field(b, ne), a0 = field(a, oa), a1 = field(b, na);
      if (e0 != e1 || a0 != a1) d.changed.push_back({std::string(a.id()), e0, e1, a0, a1, field(b, nc)});
      else if (a.fields != b.fields) ++d.annotated, push_limited(d.annotated_ids, a.id(), limit);
      if (Status s = advance(**ro, a, have_a); s) return s;
      if (Status s = advance(**rn, b, have_b); s) return s;
    }
  }
  if (Status s = check_totals(old_path, old_entry, (*ro)->totals()); s) return s;
  return check_totals(new_path, new_entry, (*rn)->totals());
}

std::string accept_note(const std::string& a) { return a == "-" ? "" : " (accept " + a + ")"; }

}  // namespace

bool CorpusDiff::identical() const {
  for (const SuiteDiff& s : suites)
    if (!s.identical()) return false;
  return true;
}

Result<CorpusDiff> diff_corpora(const std::string& old_dir, const std::string& new_dir, size_t limit) {
  Side sides[2] = {{old_dir, {}, {}}, {new_dir, {}, {}}};
  // Every file is checked against its manifest before the manifests are trusted: a suite counts
  // as unchanged only when both files are verified and byte-identical.
  for (Side& side : sides) {
    auto m = read_manifest(side.dir);
    if (!m) return m.error();
    side.manifest = std::move(*m);
    if (std::vector<Error> problems = verify_files(side.dir, side.manifest, &side.contents); !problems.empty())
      return problems.front();
  }
  Side &so = sides[0], &sn = sides[1];
  CorpusDiff out{old_dir, new_dir, {}};
  std::set<std::string> names;
  for (const auto& e : so.manifest.suites) names.insert(e.suite);
  for (const auto& e : sn.manifest.suites) names.insert(e.suite);
  for (const std::string& name : names) {
    const ManifestEntry *eo = so.manifest.find(name), *en = sn.manifest.find(name);
    SuiteDiff d;
    d.suite = name;
    d.in_old = eo != nullptr;
    d.in_new = en != nullptr;
    Status s;
    if (eo && en && eo->compressed_sha256 == en->compressed_sha256 && eo->text_sha256 == en->text_sha256 &&
        eo->records == en->records) {
      d.old_records = eo->records, d.new_records = en->records;
    } else if (eo && en) {
      s = both_sides(so, *eo, sn, *en, d, limit);
    } else {
      s = one_side(eo ? so : sn, eo ? *eo : *en, en != nullptr, d, limit);
    }
    if (s) return *s;
    out.suites.push_back(std::move(d));
  }
  return out;
}

std::string diff_text(const CorpusDiff& d) {
  std::string o;
  uint64_t old_total = 0, new_total = 0, same = 0;
  for (const SuiteDiff& s : d.suites) {
    old_total += s.old_records, new_total += s.new_records;
    if (s.identical()) {
      ++same;
      continue;
    }
    o += s.suite + ": ";
    if (!s.in_old) o += "new suite, " + std::to_string(s.new_records) + " records\n";
    else if (!s.in_new) o += "suite removed, " + std::to_string(s.old_records) + " records\n";
    else
      o += std::to_string(s.old_records) + " -> " + std::to_string(s.new_records) +
           " records: " + std::to_string(s.added) + " added, " + std::to_string(s.removed) + " removed, " +
           std::to_string(s.changed.size()) + " changed expectations, " + std::to_string(s.annotated) +
           " changed annotations only\n";
    for (const std::string& h : s.header_changes) o += "  header: " + h + "\n";
    auto tag_line = [&](const char* what, const std::map<std::string, uint64_t>& tags) {
      if (tags.empty()) return;
      o += std::string("  ") + what + " by tag:";
      for (const auto& [t, n] : tags) o += " " + t + "=" + std::to_string(n);
      o += "\n";
    };
    tag_line("added", s.added_tags);
    tag_line("removed", s.removed_tags);
    for (const ExpectationChange& c : s.changed)
      o += "  changed " + c.id + ": " + c.old_expect + accept_note(c.old_accept) + " -> " + c.new_expect +
           accept_note(c.new_accept) + (c.comment.empty() ? "" : "  (" + c.comment + ")") + "\n";
    auto ids = [&](const char* what, const std::vector<std::string>& list, uint64_t total) {
      if (list.empty()) return;
      o += std::string("  ") + what + ":";
      for (const std::string& id : list) o += " " + id;
      if (total > list.size()) o += " ... (" + std::to_string(total - list.size()) + " more)";
      o += "\n";
    };
    ids("added", s.added_ids, s.added);
    ids("removed", s.removed_ids, s.removed);
    ids("changed annotations", s.annotated_ids, s.annotated);
  }
  o += std::to_string(d.suites.size()) + " suites, " + std::to_string(same) + " identical; records " +
       std::to_string(old_total) + " -> " + std::to_string(new_total) +
       (d.identical() ? ": the corpora are identical\n" : "\n");
  return o;
}

std::string diff_json(const CorpusDiff& d) {
  nlohmann::ordered_json j;
  j["old"] = d.old_dir;
  j["new"] = d.new_dir;
  j["identical"] = d.identical();
  j["suites"] = nlohmann::ordered_json::array();
  for (const SuiteDiff& s : d.suites) {
    nlohmann::ordered_json js{
        {"suite", s.suite},           {"in_old", s.in_old},           {"in_new", s.in_new},
        {"identical", s.identical()}, {"old_records", s.old_records}, {"new_records", s.new_records},
        {"added", s.added},           {"removed", s.removed},         {"annotated", s.annotated}};
    js["header_changes"] = s.header_changes;
    js["added_tags"] = s.added_tags;
    js["removed_tags"] = s.removed_tags;
    js["changed"] = nlohmann::ordered_json::array();
    for (const ExpectationChange& c : s.changed)
      js["changed"].push_back({{"id", c.id},
                               {"old_expect", c.old_expect},
                               {"new_expect", c.new_expect},
                               {"old_accept", c.old_accept},
                               {"new_accept", c.new_accept},
                               {"comment", c.comment}});
    js["added_ids"] = s.added_ids;
    js["removed_ids"] = s.removed_ids;
    js["annotated_ids"] = s.annotated_ids;
    j["suites"].push_back(std::move(js));
  }
  return j.dump(2) + "\n";
}

}  // namespace nc::corpus
