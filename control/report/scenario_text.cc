#include "control/report/scenario_text.h"

#include <google/protobuf/text_format.h>

namespace fe::control {

std::string ScenarioText(const fabric_emu::Scenario& scenario) {
  // run.cores changes how fast a run goes, never what it gives: the outputs of any number of
  // cores are the same bytes, this file included.
  fabric_emu::Scenario as_run = scenario;
  if (scenario.run().has_cores()) {
    as_run.mutable_run()->clear_cores();
    if (as_run.run().ByteSizeLong() == 0) as_run.clear_run();
  }
  std::string text;
  google::protobuf::TextFormat::PrintToString(as_run, &text);
  return "# The scenario as run, command-line options applied. Relative file paths in it start\n"
         "# at the folder of the scenario file the run was given.\n" +
         text;
}

}  // namespace fe::control
