// certificate.html: the certificate as one self-contained page for people (inline CSS and SVG, no
// script, nothing fetched: a Content-Security-Policy forbids it), drawn from certificate.json alone,
// so `ninfer-conform render certificate.json --html out.html` gives the page certify wrote. It holds
// the verdict, the capability table, any departure profile, a picture per swept domain (its cell
// map, runners/svg_pictures.h), a ULP-error histogram per tolerance suite and the listed failures.
// The page is a pure function of the JSON: the same certificate gives the same bytes.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace nc::runners {

// The page of a parsed certificate.json; members it does not know are shown as they are, members
// it lacks (an older certificate without cells) are left out with a note.
std::string certificate_html(const nlohmann::json& certificate);

// Failures of one suite the page lists (certificate.json may hold more).
inline constexpr size_t kHtmlFailureCap = 100;

}  // namespace nc::runners
