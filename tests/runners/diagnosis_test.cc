// Diagnosis ranking on hand-made tallies: lift, not raw count, decides; the support floor keeps a
// stray rare tag out; the "no tag stands out" line appears only when the best lift is below 1.5.
#include <catch2/catch.hpp>

#include "runners/diagnosis.h"

using namespace nc::runners;

TEST_CASE("a tag carried by nearly every case loses to the over-represented one", "[runners][diagnosis]") {
  // 124 failures of 649 cases, shaped like enc-direct-division: every failure carries
  // qmax-denominator (85% of the suite), 120 carry partial-group (81%), all carry recip-vs-div (19%).
  const auto r = rank_tags_by_lift({{"qmax-denominator", 124}, {"partial-group", 120}, {"recip-vs-div", 124}}, 124,
                                   {{"qmax-denominator", 552}, {"partial-group", 526}, {"recip-vs-div", 124}});
  REQUIRE(r.size() == 3);
  // Lifts are f/r up to the common factor 649/124: recip-vs-div 124/124 = 1, partial-group
  // 120/526 = 0.2281, qmax-denominator 124/552 = 0.2246.
  CHECK(r[0].tag == "recip-vs-div");
  CHECK(r[1].tag == "partial-group");
  CHECK(r[2].tag == "qmax-denominator");
}

TEST_CASE("lift ties rank by count, then by name; raw count alone never wins", "[runners][diagnosis]") {
  // a: 10 of 20 failures, 10 of 100 cases (lift 5); b: 5 failures, 5 cases (lift 5, fewer);
  // c: 20 failures, 100 cases (lift 1, the biggest count); d and e: equal everything.
  const auto r = rank_tags_by_lift({{"a", 10}, {"b", 5}, {"c", 20}, {"e", 5}, {"d", 5}}, 20,
                                   {{"a", 10}, {"b", 5}, {"c", 100}, {"d", 5}, {"e", 5}});
  REQUIRE(r.size() == 5);
  CHECK(r[0].tag == "a");
  CHECK(r[1].tag == "b");
  CHECK(r[2].tag == "d");
  CHECK(r[3].tag == "e");
  CHECK(r[4].tag == "c");
}

TEST_CASE("a tag on fewer than an eighth of the failures does not compete", "[runners][diagnosis]") {
  // rare: 1 of 100 failures but on the only case carrying it (lift 100); common: 60 of 100.
  const auto r =
      rank_tags_by_lift({{"rare", 1}, {"common", 60}, {"edge", 13}}, 100, {{"rare", 1}, {"common", 300}, {"edge", 13}});
  REQUIRE(r.size() == 2);
  CHECK(r[0].tag == "edge");  // 13 of 100 >= 1/8, lift 13/13
  CHECK(r[1].tag == "common");
}

TEST_CASE("diagnose names the over-represented tag and says when no tag stands out", "[runners][diagnosis]") {
  nc::corpus::SuiteHeader h;
  h.tags = {{"edge", "an edge case: catches the edge bug."}, {"ordinary", "an ordinary value."}};
  SuiteResult r;
  r.cap = Capability::Decode;
  r.counts[size_t(nc::runners::Verdict::Pass)] = 90;
  r.counts[size_t(nc::runners::Verdict::Fail)] = 10;
  r.judged_tags = {{"edge", 10}, {"ordinary", 90}};
  for (int i = 0; i < 10; ++i)
    r.failures.push_back({"t:" + std::to_string(i), "", "", "", "edge,ordinary", "", "", Verdict::Fail, {}});
  r.judged_tags["ordinary"] = 100;
  auto lines = diagnose(h, r);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].rfind("all 10 failures are tagged edge (100% of failures, 10% of replayed cases): an edge case", 0) ==
        0);
  CHECK(lines[1].find("tagged ordinary") != std::string::npos);

  // The same failures when every case carries both tags: nothing stands out.
  r.judged_tags = {{"edge", 100}, {"ordinary", 100}};
  lines = diagnose(h, r);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].rfind("no tag stands out (10 of 100 replayed cases fail", 0) == 0);  // headlines
  CHECK(lines[0].find("table entry") != std::string::npos);                           // the decode common path
  CHECK(lines[1].find("tagged edge") != std::string::npos);
}
