// Text and numbers as they go into SVG and HTML: escaped so that no input (a scenario name, a
// switch name, a CSV field) can break the markup, and numbers written so a reader gets back the
// exact value a chart plotted.
#pragma once

#include <string>
#include <string_view>

namespace fe::control::svg {

// `text` made safe for element content and for a double- or single-quoted attribute: & < > " '
// become entities; control characters XML forbids and bytes that are not UTF-8 become U+FFFD,
// so the result is always well-formed XML and valid HTML.
std::string Escape(std::string_view text);

// The shortest decimal text that reads back as exactly `value` (std::to_chars); "NaN", "inf"
// and "-inf" for the non-finite. For data-* attributes: a test or a script recovers the plotted
// number bit for bit.
std::string ExactNumber(double value);

// A pixel coordinate with one decimal: a tenth of a pixel is below what a screen shows, and a
// fixed format keeps the output byte-identical across runs.
std::string Px(double value);

}  // namespace fe::control::svg
