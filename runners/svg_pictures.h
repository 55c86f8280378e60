// Every SVG picture of an HTML certificate (runners/html_certificate.h) is drawn here: the cell maps
// of the sweep domains, their legend and the ULP-error histograms. Pictures are plain inline SVG
// (no script, no font, no external reference), integer coordinates only, so the same counts always
// give the same bytes. Each drawn rectangle carries its counts as data-* attributes and in a
// <title> tooltip; tests/html reads the attributes back to check the picture against the JSON.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nc::runners::svg {

// Text for HTML and SVG content and attribute values: & < > " ' escaped.
std::string escape(const std::string& text);

// A domain's cells (sweep::Grid, column-major: cell = column * rows + row) and their counts.
struct GridPicture {
  std::string id;      // the element id of the <svg>
  std::string layout;  // "binary32", "word", "scale-code"
  uint64_t columns = 0, rows = 0;
  std::string across, down;
  uint64_t cell_inputs = 0;  // binary32 and word: inputs a cell holds (a power of two), for the tooltips
  int input_digits = 8;      // hex digits of one input
  std::vector<uint64_t> judged, mismatches, accepted;  // per cell
  // Mismatching cells link here, or to first_href_of(cell) where that is not empty (a listed mismatch).
  std::string failures_href;
  std::vector<std::string> cell_href;  // per cell, or empty
};

// The map: one rectangle per run of equal cells along a row, coloured by what its cells gave.
std::string grid(const GridPicture& p);
// What the colours of grid() mean.
std::string legend();

struct Bar {
  std::string label;  // "0", "1", "2-3", ...
  uint64_t count = 0;
};
// A bar chart of counts (the ULP error of a tolerance suite's cases, by bucket).
std::string histogram(const std::string& id, const std::string& what, const std::vector<Bar>& bars);

}  // namespace nc::runners::svg
