#include "control/report/html/html_page.h"

#include "control/report/html/svg_canvas.h"
#include "control/report/html/svg_text.h"

namespace fe::control::html {
namespace {

constexpr std::string_view kCss = R"css(
body{margin:0;background:#fafafa;color:#222;font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif}
header{background:#1f2d3d;color:#fff;padding:18px 28px}
header h1{margin:0;font-size:22px}
header p{margin:4px 0 0;color:#c9d3dd}
nav{padding:10px 28px;background:#fff;border-bottom:1px solid #ddd;position:sticky;top:0}
nav a{margin-right:16px;color:#0b5cad;text-decoration:none;white-space:nowrap}
main{max-width:1180px;padding:8px 28px 40px}
section{background:#fff;border:1px solid #e2e2e2;border-radius:6px;margin:18px 0;padding:6px 20px 16px}
h2{font-size:18px;margin:12px 0 8px}
figure{margin:10px 0;overflow-x:auto}
table{border-collapse:collapse;margin:8px 0;font-size:13px}
th,td{padding:3px 10px;border-bottom:1px solid #eee;text-align:left}
th{background:#f3f5f7;font-weight:600}
table.numeric td+td{text-align:right;font-variant-numeric:tabular-nums}
code{background:#f1f3f5;padding:1px 4px;border-radius:3px;font-size:12.5px}
p.absent{color:#6a5d00;background:#fff8d6;border-left:4px solid #e6c200;padding:8px 12px}
details pre{background:#f6f8fa;padding:10px;overflow-x:auto;font-size:12px}
)css";

}  // namespace

std::string InlineCode(std::string_view text) {
  std::string out;
  bool code = false;
  size_t start = 0;
  for (size_t tick = text.find('`'); tick != std::string_view::npos; tick = text.find('`', start)) {
    out += svg::Escape(text.substr(start, tick - start));
    out += code ? "</code>" : "<code>";
    code = !code;
    start = tick + 1;
  }
  out += svg::Escape(text.substr(start));
  // An odd backtick leaves a span open: close it, the markup stays well-formed.
  if (code) out += "</code>";
  return out;
}

std::string Paragraph(std::string_view text) { return "<p>" + InlineCode(text) + "</p>\n"; }

std::string Absent(std::string_view text) {
  return "<p class=\"absent\">" + InlineCode(text) + "</p>\n";
}

std::string Table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows, bool numeric) {
  std::string out = numeric ? "<table class=\"numeric\">" : "<table>";
  out += "<thead><tr>";
  for (const std::string& h : header) out += "<th>" + svg::Escape(h) + "</th>";
  out += "</tr></thead><tbody>";
  for (const std::vector<std::string>& row : rows) {
    out += "<tr>";
    for (const std::string& cell : row) out += "<td>" + svg::Escape(cell) + "</td>";
    out += "</tr>";
  }
  out += "</tbody></table>\n";
  return out;
}

std::string Figure(const std::string& svg) { return "<figure>" + svg + "</figure>\n"; }

std::string RenderPage(std::string_view title, std::string_view subtitle,
                       const std::vector<Section>& sections) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
      // No script and no fetch of any kind: the page is data, whoever opens it.
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; img-src data:\">"
      "<title>" +
      svg::Escape(title) + "</title><style>" + std::string(kCss) + "</style></head>\n<body>\n";
  out += "<header><h1>" + svg::Escape(title) + "</h1><p>" + svg::Escape(subtitle) +
         "</p></header>\n<nav>";
  for (const Section& s : sections) {
    out += "<a href=\"#" + svg::Escape(s.id) + "\">" + svg::Escape(s.title) + "</a>";
  }
  out += "</nav>\n<main>\n";
  for (const Section& s : sections) {
    out += "<section id=\"" + svg::Escape(s.id) + "\"><h2>" + svg::Escape(s.title) + "</h2>\n" +
           s.body + "</section>\n";
  }
  out += "</main>\n</body></html>\n";
  return out;
}

}  // namespace fe::control::html
