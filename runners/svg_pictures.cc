#include "runners/svg_pictures.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace nc::runners::svg {
namespace {

std::string num(uint64_t v) { return std::to_string(v); }

std::string hex(uint64_t v, int digits) {
  char b[24];
  std::snprintf(b, sizeof b, "%0*" PRIx64, digits, v);
  return b;
}

// What a cell gave, as a colour: not judged grey, exact green, only policy passes amber, and
// mismatches red, darker as their share of the judged inputs grows (integer lightness 72% to 30%).
std::string colour(uint64_t judged, uint64_t mismatches, uint64_t accepted) {
  if (judged == 0) return "#d9d9d9";
  if (mismatches == 0) return accepted ? "#e0a100" : "#3a9a5b";
  const uint64_t lightness = 72 - (42 * mismatches + judged - 1) / judged;  // 72 - ceil(42 * share)
  return "hsl(0,78%," + num(lightness) + "%)";
}

std::string counts_text(uint64_t judged, uint64_t mismatches, uint64_t accepted) {
  if (judged == 0) return "not judged";
  return "judged " + num(judged) + ": exact " + num(judged - mismatches - accepted) + ", passed under a policy " +
         num(accepted) + ", mismatches " + num(mismatches);
}

// Where the cells [c0, c1] of row r lie, in words.
std::string place(const GridPicture& p, uint64_t c0, uint64_t c1, uint64_t r) {
  auto span = [](const std::string& a, const std::string& b) { return a == b ? a : a + " to " + b; };
  if (p.layout == "binary32") {
    auto col = [](uint64_t c) { return std::string(c >> 8 ? "-" : "+") + " exponent " + num(c & 255); };
    const uint64_t first = (c0 * p.rows + r) * p.cell_inputs, last = (c1 * p.rows + r) * p.cell_inputs;
    return span(col(c0), col(c1)) + ", fraction top bits " + num(r) + " (inputs " + hex(first, 8) + "-" +
           hex(first + p.cell_inputs - 1, 8) +
           (c1 > c0 ? " ... " + hex(last, 8) + "-" + hex(last + p.cell_inputs - 1, 8) : "") + ")";
  }
  if (p.layout == "word") {
    const uint64_t first = c0 * p.rows + r, last = c1 * p.rows + r;
    return c1 > c0 ? "words " + hex(first, p.input_digits) + " to " + hex(last, p.input_digits) + " in steps of " +
                         hex(p.rows, p.input_digits)
                   : "word " + hex(first, p.input_digits);
  }
  return "column " + span(num(c0), num(c1)) + " (" + p.across + "), row " + num(r) + " (" + p.down + ")";
}

}  // namespace

std::string escape(const std::string& text) {
  std::string s;
  s.reserve(text.size());
  for (char c : text) switch (c) {
      case '&':
        s += "&amp;";
        break;
      case '<':
        s += "&lt;";
        break;
      case '>':
        s += "&gt;";
        break;
      case '"':
        s += "&quot;";
        break;
      case '\'':
        s += "&#39;";
        break;
      default:
        s += c;
    }
  return s;
}

std::string grid(const GridPicture& p) {
  // Cells as wide as the map allows: about 1024 x 512 pixels at most, 24 at most a cell.
  auto clamp = [](uint64_t v) { return std::max<uint64_t>(2, std::min<uint64_t>(24, v)); };
  uint64_t w = clamp(1024 / p.columns), h = clamp(512 / p.rows);
  if (p.layout == "word") w = h = std::min(w, h);
  if (p.layout == "binary32") h = std::min<uint64_t>(h, 12);
  const uint64_t left = 4, top = 4, width = left + p.columns * w + 4, height = top + p.rows * h + 22;
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"map\" id=\"" + escape(p.id) + "\" width=\"" +
                  num(width) + "\" height=\"" + num(height) + "\" viewBox=\"0 0 " + num(width) + " " + num(height) +
                  "\" shape-rendering=\"crispEdges\" role=\"img\" aria-label=\"" +
                  escape(p.across + " across, " + p.down + " down") + "\">\n";
  for (uint64_t r = 0; r < p.rows; ++r) {
    for (uint64_t c0 = 0; c0 < p.columns;) {
      const uint64_t k0 = c0 * p.rows + r;
      const std::string href0 = k0 < p.cell_href.size() ? p.cell_href[k0] : "";
      uint64_t c1 = c0;
      // A run: cells of the same counts, none of which links to a listed mismatch of its own.
      while (c1 + 1 < p.columns) {
        const uint64_t k = (c1 + 1) * p.rows + r;
        const bool own = k < p.cell_href.size() && !p.cell_href[k].empty();
        if (own || !href0.empty() || p.judged[k] != p.judged[k0] || p.mismatches[k] != p.mismatches[k0] ||
            p.accepted[k] != p.accepted[k0])
          break;
        ++c1;
      }
      const uint64_t j = p.judged[k0], m = p.mismatches[k0], a = p.accepted[k0], n = c1 - c0 + 1;
      std::string rect = "<rect x=\"" + num(left + c0 * w) + "\" y=\"" + num(top + r * h) + "\" width=\"" + num(n * w) +
                         "\" height=\"" + num(h) + "\" fill=\"" + colour(j, m, a) + "\" data-cells=\"" + num(n) +
                         "\" data-judged=\"" + num(j) + "\" data-mismatches=\"" + num(m) + "\" data-accepted=\"" +
                         num(a) + "\"><title>" + escape(place(p, c0, c1, r)) + ": " +
                         (n > 1 ? "each of " + num(n) + " cells " : "") + escape(counts_text(j, m, a)) +
                         "</title></rect>";
      if (m) {
        const std::string href = href0.empty() ? p.failures_href : href0;
        s += "<a href=\"" + escape(href) + "\">" + rect + "</a>\n";
      } else {
        s += rect + "\n";
      }
      c0 = c1 + 1;
    }
  }
  // Ticks under the map: for binary32 the signs and exponents 0, 127 and 255 of each half.
  const uint64_t ty = top + p.rows * h + 16;
  // A tick's text starts at its column, or ends at the column's right edge (anchor "end").
  auto tick = [&](uint64_t column, const std::string& text, bool end = false) {
    s += "<text x=\"" + num(left + (column + end) * w) + "\" y=\"" + num(ty) + "\"" +
         (end ? " text-anchor=\"end\"" : "") + ">" + escape(text) + "</text>\n";
  };
  if (p.layout == "binary32" && p.columns == 512) {
    tick(0, "+0");
    tick(127, "+1");
    tick(255, "+inf/NaN |", true);
    tick(256, " -0");
    tick(383, "-1");
    tick(511, "-inf/NaN", true);
  } else {
    tick(0, "0");
    tick(p.columns - 1, num(p.columns - 1), true);
  }
  return s + "</svg>\n";
}

std::string legend() {
  const struct {
    const char* fill;
    const char* text;
  } keys[] = {{"#3a9a5b", "exact"},
              {"#e0a100", "passed under a policy (no mismatch)"},
              {"hsl(0,78%,71%)", "a few mismatches"},
              {"hsl(0,78%,51%)", "half mismatch"},
              {"hsl(0,78%,30%)", "every input mismatches"},
              {"#d9d9d9", "not judged (declined, invalid or not sampled)"}};
  std::string s =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"legend\" width=\"1040\" height=\"24\" viewBox=\"0 0 1040 "
      "24\">\n";
  uint64_t x = 0;
  for (const auto& k : keys) {
    s += "<rect x=\"" + num(x) + "\" y=\"4\" width=\"14\" height=\"14\" fill=\"" + k.fill + "\"/><text x=\"" +
         num(x + 18) + "\" y=\"16\">" + escape(k.text) + "</text>\n";
    x += 18 + 7 * uint64_t(std::string(k.text).size()) + 16;
  }
  return s + "</svg>\n";
}

std::string histogram(const std::string& id, const std::string& what, const std::vector<Bar>& bars) {
  uint64_t most = 1;
  for (const Bar& b : bars) most = std::max(most, b.count);
  const uint64_t bw = 36, plot = 160, top = 16, width = 40 + bars.size() * bw, height = top + plot + 20;
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"histogram\" id=\"" + escape(id) + "\" width=\"" +
                  num(width) + "\" height=\"" + num(height) + "\" viewBox=\"0 0 " + num(width) + " " + num(height) +
                  "\" role=\"img\" aria-label=\"" + escape(what) + "\">\n";
  for (size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    // Bar height proportional to the count, at least one pixel for a nonzero count.
    const uint64_t bh = b.count ? std::max<uint64_t>(1, b.count * plot / most) : 0;
    const uint64_t x = 40 + i * bw;
    s += "<rect x=\"" + num(x + 4) + "\" y=\"" + num(top + plot - bh) + "\" width=\"" + num(bw - 8) + "\" height=\"" +
         num(bh) + "\" fill=\"#4a6fa5\" data-bucket=\"" + escape(b.label) + "\" data-count=\"" + num(b.count) +
         "\"><title>" + escape(b.label) + " ulp: " + num(b.count) + " cases</title></rect>\n";
    s += "<text x=\"" + num(x + 4) + "\" y=\"" + num(top + plot + 14) + "\">" + escape(b.label) + "</text>\n";
  }
  s += "<text x=\"0\" y=\"12\">cases (most: " + num(most) + ")</text>\n";
  return s + "</svg>\n";
}

}  // namespace nc::runners::svg
