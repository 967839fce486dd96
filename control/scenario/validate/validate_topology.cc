// The topology section: the builder decides (topo::BuildTopology, the one source of truth about a
// fabric); this file only points its verdict at the file's line.
#include <google/protobuf/reflection.h>

#include <cctype>
#include <string_view>

#include "control/scenario/validate/validation.h"
#include "topology/build.h"

namespace fe::control {
namespace {

using fabric_emu::Topology;

// One component of a builder's field path: "tier[1]" is field "tier", element 1.
struct PathStep {
  std::string field;
  int index = -1;
};

// The steps of a builder's field path, "clos.tier[1].down_links"; nullopt if it is malformed.
std::optional<std::vector<PathStep>> PathSteps(std::string_view path) {
  std::vector<PathStep> steps;
  while (!path.empty()) {
    const size_t dot = path.find('.');
    std::string_view part = path.substr(0, dot);
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
    PathStep step;
    if (const size_t open = part.find('['); open != std::string_view::npos) {
      if (part.back() != ']' || open + 2 >= part.size()) return std::nullopt;
      const std::string_view digits = part.substr(open + 1, part.size() - open - 2);
      if (digits.size() > 9) return std::nullopt;
      step.index = 0;
      for (const char c : digits) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
        step.index = step.index * 10 + (c - '0');
      }
      part = part.substr(0, open);
    }
    if (part.empty()) return std::nullopt;
    for (const char c : part) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return std::nullopt;
    }
    step.field = std::string(part);
    steps.push_back(std::move(step));
  }
  if (steps.empty()) return std::nullopt;
  return steps;
}

// The line of `steps` inside the topology message: the field's own where the text holds it,
// else the line of the deepest message on the way that it holds (a graph read from a file, an
// element the text does not have, a field left out).
int LineOf(const Topology& topology, const Site& topology_site,
           const std::vector<PathStep>& steps) {
  Site site = topology_site;
  const pb::Message* message = &topology;
  for (size_t i = 0; i < steps.size(); ++i) {
    const pb::FieldDescriptor* f = site.type()->FindFieldByName(steps[i].field);
    if (f == nullptr) break;
    const pb::Reflection* reflection = message->GetReflection();
    if (f->is_repeated() != (steps[i].index >= 0)) break;
    if (f->is_repeated() && steps[i].index >= reflection->FieldSize(*message, f)) break;
    if (i + 1 == steps.size()) return site.Line(f->number(), steps[i].index);
    if (f->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) break;
    message = f->is_repeated() ? &reflection->GetRepeatedMessage(*message, f, steps[i].index)
                               : &reflection->GetMessage(*message, f);
    site = site.Nested(f->number(), steps[i].index);
  }
  return site.line();
}

}  // namespace

void ReportTopologyError(Validation& v, const Site& topology_site, const Status& error) {
  const std::optional<std::vector<PathStep>> steps =
      error.field_path().empty() ? std::nullopt : PathSteps(error.field_path());
  if (!steps) {
    v.out.AddWhole(topology_site, error.message());
    return;
  }
  v.out.AddAt(LineOf(v.scenario.topology(), topology_site, *steps),
              topology_site.path() + "." + error.field_path(), error.reason());
}

void ValidateTopology(Validation& v) {
  const Site s = v.root.Nested(fabric_emu::Scenario::kTopologyFieldNumber);
  StatusOr<topo::Graph> graph = topo::BuildTopology(v.scenario.topology(), v.scenario_dir.string());
  if (!graph.ok()) {
    ReportTopologyError(v, s, graph.status());
    return;
  }
  v.graph = std::move(graph).value();
}

}  // namespace fe::control
