#include "control/report/html/svg_canvas.h"

#include <utility>

#include "control/report/html/svg_text.h"

namespace fe::control::svg {
namespace {

std::string_view AnchorName(Anchor a) {
  switch (a) {
    case Anchor::kStart:
      return "start";
    case Anchor::kMiddle:
      return "middle";
    case Anchor::kEnd:
      return "end";
  }
  return "start";
}

}  // namespace

SvgCanvas::SvgCanvas(int width_px, int height_px, std::string_view title,
                     std::string_view css_class) {
  const std::string w = std::to_string(width_px);
  const std::string h = std::to_string(height_px);
  out_ = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"" + Escape(css_class) + "\" width=\"" +
         w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h +
         "\" role=\"img\" aria-label=\"" + Escape(title) + "\" font-family=\"" +
         Escape(kFontFamily) + "\"><title>" + Escape(title) + "</title>";
}

void SvgCanvas::Text(double x, double y, std::string_view text, const TextStyle& style) {
  out_ += "<text x=\"" + Px(x) + "\" y=\"" + Px(y) + "\" font-size=\"" + Px(style.size_px) +
          "\" fill=\"" + Escape(style.color) + "\"";
  if (style.anchor != Anchor::kStart) {
    out_ += " text-anchor=\"";
    out_ += AnchorName(style.anchor);
    out_ += "\"";
  }
  if (style.bold) out_ += " font-weight=\"bold\"";
  if (style.rotate_deg != 0) {
    out_ += " transform=\"rotate(" + Px(style.rotate_deg) + " " + Px(x) + " " + Px(y) + ")\"";
  }
  out_ += ">" + Escape(text) + "</text>";
}

void SvgCanvas::Line(double x1, double y1, double x2, double y2, std::string_view stroke,
                     double width, bool dashed) {
  out_ += "<line x1=\"" + Px(x1) + "\" y1=\"" + Px(y1) + "\" x2=\"" + Px(x2) + "\" y2=\"" + Px(y2) +
          "\" stroke=\"" + Escape(stroke) + "\" stroke-width=\"" + Px(width) + "\"";
  if (dashed) out_ += " stroke-dasharray=\"4 3\"";
  out_ += "/>";
}

void SvgCanvas::Rect(double x, double y, double w, double h, std::string_view fill,
                     std::string_view attributes, std::string_view tooltip) {
  out_ += "<rect x=\"" + Px(x) + "\" y=\"" + Px(y) + "\" width=\"" + Px(w) + "\" height=\"" +
          Px(h) + "\" fill=\"" + Escape(fill) + "\"";
  out_ += attributes;
  if (tooltip.empty()) {
    out_ += "/>";
  } else {
    out_ += "><title>" + Escape(tooltip) + "</title></rect>";
  }
}

void SvgCanvas::Title(double x, std::string_view title) {
  Text(x, 18, title, {.size_px = 14, .bold = true, .color = "#111"});
}

void SvgCanvas::Note(double x, std::string_view note) {
  Text(x, 34, note, {.size_px = 11, .color = "#666"});
}

void SvgCanvas::Empty(double x, double y, std::string_view text) {
  Text(x, y, text, {.size_px = 13, .anchor = Anchor::kMiddle, .color = "#888"});
}

std::string SvgCanvas::Finish() {
  out_ += "</svg>";
  return std::exchange(out_, std::string());
}

}  // namespace fe::control::svg
