#include "control/sweep/sweep_html.h"

#include <algorithm>

namespace fe::control {
namespace {

std::string Escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Table(std::span<const SweepAxis> axes, std::span<const PointRecord> records) {
  const std::vector<std::string> columns = HeadlineColumns(records);
  std::string out = "<table>\n<tr><th>point</th>";
  for (const SweepAxis& a : axes) out += "<th>" + Escape(a.path) + "</th>";
  for (const std::string& c : columns) out += "<th>" + Escape(c) + "</th>";
  out += "<th>dir</th><th>status</th></tr>\n";
  for (const PointRecord& r : records) {
    out += "<tr><td>" + std::to_string(r.point->index) + "</td>";
    for (const std::string& v : r.point->values) out += "<td>" + Escape(v) + "</td>";
    for (const std::string& c : columns) {
      const auto it = std::ranges::find(r.headline, c, &HeadlineValue::name);
      out += "<td>" + (it == r.headline.end() ? std::string() : Escape(it->text)) + "</td>";
    }
    out += "<td><a href=\"" + Escape(r.point->name) + "/summary.json\">" + Escape(r.point->name) +
           "</a></td><td>" + PointStatusName(r.status) + "</td></tr>\n";
  }
  return out + "</table>\n";
}

}  // namespace

std::string SweepHtml(const std::string& scenario_name, std::span<const SweepAxis> axes,
                      std::span<const PointRecord> records) {
  const std::string title = "Sweep of " + Escape(scenario_name);
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + title +
         "</title>\n<style>body{font-family:system-ui,sans-serif;margin:2em}"
         "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;"
         "text-align:right}</style>\n</head>\n<body>\n<h1>" +
         title + "</h1>\n" + Table(axes, records) + "</body>\n</html>\n";
}

}  // namespace fe::control
