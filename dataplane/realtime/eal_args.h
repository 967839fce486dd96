// Real-time mode's EAL arguments: the user's (realtime.eal_args, --eal) merged into named
// defaults, so that a user adds or replaces what they name and keeps every safe default they
// do not. The devices come from the ports alone: only the PCI devices a port names are probed.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"

namespace fe::dp {

// One EAL option as written: its words ("-l", "0-1"; or "--lcores=0-1") and its name.
struct EalOption {
  std::string name;   // "-l", "--lcores", "--no-huge"
  std::string value;  // "" for a flag
  std::vector<std::string> words;
};

// Parses EAL arguments ("-l 0-1", "-l0-1", "--lcores 0-1", "--lcores=0-1"); an option DPDK 22.11
// does not know, or one without its value, is an error.
StatusOr<std::vector<EalOption>> ParseEalArgs(const std::vector<std::string>& words);

// The devices the ports name: PCI addresses (allow-listed with -a) and virtual devices (--vdev).
struct EalDevices {
  std::vector<std::string> pci;
  std::vector<std::string> vdevs;
};

// Serve's defaults, each replaced or dropped as MergeEalArgs says.
struct EalDefaults {
  std::string lcores = "0";
  int memory_mb = 1024;
};

// The arguments the EAL gets: the defaults less those the user's options replace, then the
// user's options in their order, then the devices:
// - `-l <lcores>`: replaced by the user's -l, -c or --lcores;
// - `--no-huge -m <memory_mb>`: both dropped when the user gives a hugepage option (--huge-dir,
//   --socket-mem, --socket-limit, --huge-unlink, --in-memory, --legacy-mem,
//   --single-file-segments, --match-allocations); -m replaced by the user's -m;
// - `--no-shconf`: dropped with --file-prefix (shared runtime files for DPDK's multi-process
//   tools) or --in-memory;
// - `--no-telemetry`: dropped with --telemetry;
// - devices: `--no-pci` when no port is a PCI device, else `-a <address>` for each one that
//   is; `--vdev <args>` for each virtual device. A user -a or --vdev naming a port's device is
//   the same device, kept once; one naming any other device, -b/--block, and --no-pci beside a
//   PCI port are refused, as are -d (the drivers are linked in) and a --proc-type other than
//   primary.
StatusOr<std::vector<std::string>> MergeEalArgs(const std::vector<std::string>& user_words,
                                                const EalDevices& devices,
                                                const EalDefaults& defaults);

}  // namespace fe::dp
