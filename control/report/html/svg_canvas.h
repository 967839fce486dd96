// The drawing primitives the charts share: one <svg> element built up from text, lines and
// rectangles, every string escaped and every coordinate in a fixed format (svg_text.h).
#pragma once

#include <string>
#include <string_view>

namespace fe::control::svg {

enum class Anchor { kStart, kMiddle, kEnd };

struct TextStyle {
  double size_px = 12;
  Anchor anchor = Anchor::kStart;
  bool bold = false;
  std::string_view color = "#333";
  double rotate_deg = 0;  // about the text's own anchor point
};

inline constexpr std::string_view kFontFamily = "system-ui,-apple-system,'Segoe UI',sans-serif";

class SvgCanvas {
 public:
  // `title` is the accessible name (role="img", aria-label and a <title> child); `css_class` the
  // root element's class, by which a page or a test finds the chart.
  SvgCanvas(int width_px, int height_px, std::string_view title, std::string_view css_class);

  void Text(double x, double y, std::string_view text, const TextStyle& style);
  void Line(double x1, double y1, double x2, double y2, std::string_view stroke, double width,
            bool dashed = false);
  // `attributes` are extra attributes, already escaped (e.g. ` data-value="3"`); `tooltip` is
  // shown on hover (a <title> child), none when empty.
  void Rect(double x, double y, double w, double h, std::string_view fill,
            std::string_view attributes = "", std::string_view tooltip = "");
  // Every chart's heading: its title in bold at the top, a note in grey below it.
  void Title(double x, std::string_view title);
  void Note(double x, std::string_view note);
  // Said, centred at (x, y), where a chart has nothing to draw.
  void Empty(double x, double y, std::string_view text);
  // Markup the caller built (escaped already).
  void Raw(std::string_view markup) { out_ += markup; }

  // The finished element; the canvas is empty after.
  std::string Finish();

 private:
  std::string out_;
};

}  // namespace fe::control::svg
