// Fuzz target: arbitrary bytes as the commands a run takes from outside: an events.csv replayed
// with --events (first byte even) or a JSON body of POST /v1/commands (odd), each command then
// checked against a k = 4 fat-tree scenario as a replay or the API checks it. Every input must
// end in commands or in an error; a crash, a hang, a leak or undefined behaviour is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "control/emulation/events_csv.h"
#include "control/scenario/command_json.h"
#include "control/scenario/scenario_loader.h"
#include "control/scenario/validate/validate_command.h"
#include "topology/build.h"

namespace {

struct Fabric {
  Fabric()
      : scenario(fe::control::LoadScenarioText("topology { fat_tree { k: 4 } } "
                                               "traffic { permutation { message_bytes: 1000 } } "
                                               "nic { cc { dcqcn { } } }",
                                               "fuzz.textproto")
                     .value()),
        graph(fe::topo::BuildTopology(scenario.topology(), "").value()) {}
  const fabric_emu::Scenario scenario;
  const fe::topo::Graph graph;
};

const Fabric& TheFabric() {
  static const Fabric* fabric = new Fabric;  // never freed: the process is the fuzzer's
  return *fabric;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const Fabric& f = TheFabric();
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    auto rows = fe::control::ParseEventsCsv(text, "events.csv");
    if (!rows.ok()) return 0;
    for (const fe::control::EventRow& row : *rows) {
      (void)fe::control::ValidateCommand(row.applied.command, f.scenario, f.graph);
    }
  } else {
    auto entry = fe::control::ParseScheduledCommandJson(text);
    if (!entry.ok()) return 0;
    (void)fe::control::ValidateCommandTime(*entry);
    (void)fe::control::ValidateCommand(fe::control::CommandOf(*entry), f.scenario, f.graph);
  }
  return 0;
}
