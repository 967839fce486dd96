#include "control/cli/export_command.h"

#include "control/cli/cli_args.h"
#include "control/process/output_dir.h"
#include "control/scenario/workload_build.h"
#include "topology/build.h"
#include "traffic/trace/native.h"

namespace fe::control {

int RunExport(const fabric_emu::Scenario& scenario, const ExportOptions& options, std::ostream& out,
              std::ostream& err) {
  StatusOr<topo::Graph> graph = topo::BuildTopology(scenario.topology(), options.scenario_dir);
  if (!graph.ok()) {
    err << "fabric-emu: topology." << graph.status().message() << "\n";
    return kExitBadInput;
  }
  const StatusOr<Workload> workload =
      BuildWorkload(scenario, *graph, options.seed, options.scenario_dir);
  if (!workload.ok()) {
    err << "fabric-emu: " << workload.status().message() << "\n";
    return kExitBadInput;
  }
  const StatusOr<std::string> csv = NativeTraceCsv(workload.value());
  if (!csv.ok()) {
    err << "fabric-emu: " << csv.status().message() << "\n";
    return kExitBadInput;
  }
  if (options.out_file.empty() || options.out_file == "-") {
    out << csv.value();
    return out ? kExitOk : kExitRuntimeFailure;
  }
  if (const Status s = WriteNamedFile(options.out_file, csv.value()); !s.ok()) {
    err << "fabric-emu: " << s.message() << "\n";
    return kExitRuntimeFailure;
  }
  return kExitOk;
}

}  // namespace fe::control
