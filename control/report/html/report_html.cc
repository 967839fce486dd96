#include "control/report/html/report_html.h"

#include <functional>
#include <vector>

#include "control/process/output_dir.h"
#include "control/report/html/html_page.h"
#include "control/report/html/report_input.h"
#include "control/report/html/report_sections.h"

namespace fe::control::html {
namespace {

std::string Subtitle(const Json& s) {
  std::string out = "seed " + NumberText(Field(s, "seed")) + " \u00b7 " +
                    NumberText(Field(s, "hosts")) + " hosts, " + NumberText(Field(s, "switches")) +
                    " switches, " + NumberText(Field(s, "links")) + " links \u00b7 " +
                    NumberText(Field(s, "flows_completed")) + " of " +
                    NumberText(Field(s, "flows_total")) + " flows completed \u00b7 " +
                    NumberText(Field(s, "simulated_time_ns")) + " ns simulated";
  if (Field(s, "stopped_early").is_boolean() && Field(s, "stopped_early").get<bool>()) {
    out += " \u00b7 stopped early";
  }
  return out;
}

}  // namespace

StatusOr<std::string> BuildReport(const std::string& dir) {
  StatusOr<ReportInput> in = LoadReportInput(dir);
  if (!in.ok()) return in.status();
  using Builder = std::function<StatusOr<Section>(const ReportInput&)>;
  const std::vector<Builder> builders = {ParametersSection, FctSection,    QueuesSection,
                                         RatesSection,      PfcSection,    EcnSection,
                                         LinksSection,      EventsSection, WorkloadSection};
  std::vector<Section> sections;
  for (const Builder& build : builders) {
    StatusOr<Section> s = build(*in);
    if (!s.ok()) return s.status();
    sections.push_back(std::move(*s));
  }
  return RenderPage("fabric-emu run: " + NumberText(Field(in->summary, "scenario")),
                    Subtitle(in->summary), sections);
}

int RunReportCommand(const std::string& given_dir, std::ostream& out, std::ostream& err) {
  // "out/x/" names the directory "out/x": its files are out/x/summary.json, not out/x//...
  std::string dir = given_dir;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  StatusOr<std::string> page = BuildReport(dir);
  if (!page.ok()) {
    err << "fabric-emu: report: " << page.status().message() << "\n";
    return 2;
  }
  const std::string path = dir + "/report.html";
  if (Status s = WriteFileAtomically(path, *page); !s.ok()) {
    err << "fabric-emu: report: " << s.message() << "\n";
    return 1;
  }
  out << "report    " << path << "\n";
  return 0;
}

}  // namespace fe::control::html
