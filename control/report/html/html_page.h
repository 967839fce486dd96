// The report's HTML: one self-contained page (inline CSS, no script, no external resource) made
// of sections, and the small pieces sections are written with. Every text passes through
// svg::Escape.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fe::control::html {

struct Section {
  std::string id{};     // the anchor the page's contents link to
  std::string title{};  // its heading
  std::string body{};   // HTML
};

// The whole page: a header with `title` and `subtitle`, a list of contents, the sections.
std::string RenderPage(std::string_view title, std::string_view subtitle,
                       const std::vector<Section>& sections);

// Escaped text in which `name` spans become <code>name</code>.
std::string InlineCode(std::string_view text);
// A paragraph of InlineCode text.
std::string Paragraph(std::string_view text);
// A section's place-holder when its data is absent: what is missing and how to get it.
std::string Absent(std::string_view text);
// A table of escaped cells; columns after the first are right-aligned when `numeric`.
std::string Table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows, bool numeric = true);
// A figure around an <svg> chart, so it scrolls sideways on a narrow window.
std::string Figure(const std::string& svg);

}  // namespace fe::control::html
