#include "control/report/scenario_text.h"

#include <google/protobuf/text_format.h>

namespace fe::control {

std::string ScenarioText(const fabric_emu::Scenario& scenario) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(scenario, &text);
  return "# The scenario as run, command-line options applied. Relative file paths in it start\n"
         "# at the folder of the scenario file the run was given.\n" +
         text;
}

}  // namespace fe::control
