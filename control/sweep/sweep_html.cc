#include "control/sweep/sweep_html.h"

#include <algorithm>

#include "control/report/html/svg_text.h"
#include "control/sweep/sweep_charts.h"

namespace fe::control {
namespace {

using svg::Escape;

std::string Table(std::span<const SweepAxis> axes, std::span<const PointRecord> records) {
  const std::vector<std::string> columns = HeadlineColumns(records);
  std::string out = "<table class=\"sweep\">\n<tr><th>point</th>";
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
    const std::string target = r.has_report ? "/report.html" : "/summary.json";
    out += "<td><a href=\"" + Escape(r.point->name + target) + "\">" + Escape(r.point->name) +
           "</a></td><td>" + PointStatusName(r.status) + "</td></tr>\n";
  }
  return out + "</table>\n";
}

}  // namespace

std::string SweepHtml(const std::string& scenario_name, std::span<const SweepAxis> axes,
                      std::span<const PointRecord> records) {
  const std::string title = "Sweep of " + Escape(scenario_name);
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + title +
      "</title>\n<style>body{font-family:system-ui,sans-serif;margin:2em;color:#222}"
      ".charts{display:flex;flex-wrap:wrap;gap:8px}"
      "table{border-collapse:collapse;font-size:13px}"
      "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}</style>\n</head>\n<body>\n"
      "<h1>" +
      title + "</h1>\n<p>" + std::to_string(records.size()) + " points, the grid of";
  for (size_t a = 0; a < axes.size(); ++a) {
    out += std::string(a == 0 ? " " : "; ") + Escape(axes[a].path) + " = ";
    for (size_t v = 0; v < axes[a].values.size(); ++v) {
      out += (v == 0 ? "" : ", ") + Escape(axes[a].values[v]);
    }
  }
  out +=
      ". Each chart draws one figure of sweep.csv against one swept field, a line for each "
      "value of the other fields; the table below holds every figure.</p>\n";
  for (size_t a = 0; a < axes.size(); ++a) {
    out += "<h2>Against " + Escape(axes[a].path) + "</h2>\n<div class=\"charts\">\n";
    for (const svg::XyChart& chart : SweepCharts(axes, records, a)) {
      out += svg::RenderXyChart(chart) + "\n";
    }
    out += "</div>\n";
  }
  return out + "<h2>All points</h2>\n" + Table(axes, records) + "</body>\n</html>\n";
}

}  // namespace fe::control
