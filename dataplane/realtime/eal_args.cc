#include "dataplane/realtime/eal_args.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "dataplane/eal.h"
#include "dataplane/realtime/eth_port.h"

namespace fe::dp {
namespace {

// DPDK 22.11's EAL options (lib/eal/common/eal_common_options.c): those taking a value, and the
// flags. --huge-unlink takes its optional value only as --huge-unlink=VALUE.
constexpr std::array<std::string_view, 33> kWithValue = {"-a",
                                                         "-b",
                                                         "-c",
                                                         "-s",
                                                         "-d",
                                                         "-l",
                                                         "-S",
                                                         "-m",
                                                         "-n",
                                                         "-r",
                                                         "--base-virtaddr",
                                                         "--file-prefix",
                                                         "--huge-dir",
                                                         "--iova-mode",
                                                         "--lcores",
                                                         "--log-level",
                                                         "--trace",
                                                         "--trace-dir",
                                                         "--trace-bufsz",
                                                         "--trace-mode",
                                                         "--main-lcore",
                                                         "--mbuf-pool-ops-name",
                                                         "--allow",
                                                         "--block",
                                                         "--proc-type",
                                                         "--socket-mem",
                                                         "--socket-limit",
                                                         "--syslog",
                                                         "--vdev",
                                                         "--vfio-intr",
                                                         "--vfio-vf-token",
                                                         "--force-max-simd-bitwidth",
                                                         "--huge-unlink"};
constexpr std::array<std::string_view, 15> kFlags = {"-h",
                                                     "-v",
                                                     "--create-uio-dev",
                                                     "--help",
                                                     "--no-hpet",
                                                     "--no-huge",
                                                     "--no-pci",
                                                     "--no-shconf",
                                                     "--in-memory",
                                                     "--vmware-tsc-map",
                                                     "--legacy-mem",
                                                     "--single-file-segments",
                                                     "--match-allocations",
                                                     "--telemetry",
                                                     "--no-telemetry"};
constexpr std::array<std::string_view, 8> kHugepageOptions = {
    "--huge-dir",  "--socket-mem", "--socket-limit",         "--huge-unlink",
    "--in-memory", "--legacy-mem", "--single-file-segments", "--match-allocations"};

template <size_t N>
bool In(const std::array<std::string_view, N>& set, std::string_view name) {
  return std::find(set.begin(), set.end(), name) != set.end();
}

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// The comma-separated pieces of a device's arguments: its name, then its options.
std::vector<std::string_view> Pieces(std::string_view args) {
  std::vector<std::string_view> out;
  for (size_t begin = 0;;) {
    const size_t comma = args.find(',', begin);
    out.push_back(args.substr(begin, comma - begin));
    if (comma == std::string_view::npos) return out;
    begin = comma + 1;
  }
}

// Whether every option `args` gives is one `vdev` gives too: "net_af_packet0,iface=veth-a" is
// "net_af_packet0,iface=veth-a,framecnt=4096" (serve's default options added), a name alone too.
bool OptionsWithin(std::string_view args, std::string_view vdev) {
  const std::vector<std::string_view> asked = Pieces(args);
  const std::vector<std::string_view> given = Pieces(vdev);
  return std::all_of(asked.begin() + 1, asked.end(), [&](std::string_view o) {
    return std::find(given.begin() + 1, given.end(), o) != given.end();
  });
}

}  // namespace

StatusOr<std::vector<EalOption>> ParseEalArgs(const std::vector<std::string>& words) {
  std::vector<EalOption> options;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    EalOption o;
    o.words.push_back(w);
    if (w.starts_with("--")) {
      const size_t eq = w.find('=');
      o.name = w.substr(0, eq);
      if (eq != std::string::npos) {
        if (!In(kWithValue, o.name)) return Status::Error(o.name + " takes no value");
        o.value = w.substr(eq + 1);
      } else if (In(kWithValue, o.name) && o.name != "--huge-unlink") {
        if (i + 1 == words.size()) return Status::Error(o.name + " needs a value");
        o.value = words[++i];
        o.words.push_back(o.value);
      } else if (!In(kFlags, o.name) && o.name != "--huge-unlink") {
        return Status::Error("unknown EAL option " + o.name);
      }
    } else if (w.size() >= 2 && w[0] == '-') {
      o.name = w.substr(0, 2);
      if (In(kWithValue, o.name)) {
        if (w.size() > 2) {
          o.value = w.substr(2);
        } else if (i + 1 == words.size()) {
          return Status::Error(o.name + " needs a value");
        } else {
          o.value = words[++i];
          o.words.push_back(o.value);
        }
      } else if (!In(kFlags, w)) {
        return Status::Error("unknown EAL option " + w);
      }
    } else {
      return Status::Error("unexpected word " + w + " (not an EAL option or its value)");
    }
    options.push_back(std::move(o));
  }
  return options;
}

StatusOr<std::vector<std::string>> MergeEalArgs(const std::vector<std::string>& user_words,
                                                const EalDevices& devices,
                                                const EalDefaults& defaults) {
  if (const std::string why = RefusedEalArgs(user_words); !why.empty()) return Status::Error(why);
  StatusOr<std::vector<EalOption>> parsed = ParseEalArgs(user_words);
  if (!parsed.ok()) return parsed.status();
  bool lcores = true, no_huge = true, memory = true, no_shconf = true, no_telemetry = true;
  std::vector<std::string> user;
  for (const EalOption& o : *parsed) {
    const std::string& n = o.name;
    if (n == "-l" || n == "-c" || n == "--lcores") lcores = false;
    if (n == "-m" || n == "--socket-mem") memory = false;
    if (In(kHugepageOptions, n)) no_huge = memory = false;
    if (n == "--file-prefix" || n == "--in-memory") no_shconf = false;
    if (n == "--telemetry") no_telemetry = false;
    if (n == "-a" || n == "--allow") {
      if (!Contains(devices.pci, o.value)) {
        return Status::Error(n + " " + o.value +
                             ": no realtime.port names this device, and serve probes only "
                             "the PCI devices its ports name");
      }
      continue;  // allow-listed below
    }
    if (n == "--vdev") {
      const std::string name = DeviceName(o.value);
      const auto port = std::find_if(devices.vdevs.begin(), devices.vdevs.end(),
                                     [&](const std::string& v) { return DeviceName(v) == name; });
      if (port == devices.vdevs.end()) {
        return Status::Error("--vdev " + o.value +
                             ": no realtime.port names this device (name it in a port)");
      }
      if (!OptionsWithin(o.value, *port)) {
        return Status::Error("--vdev " + o.value + ": a realtime.port opens " + name + " as " +
                             *port + "; give its options in the port's device_args");
      }
      continue;  // added below
    }
    if (n == "-d") {
      return Status::Error(
          "-d: the drivers serve supports are linked into fabric-emu, and a "
          "driver library would bring a second copy of DPDK");
    }
    if (n == "-b" || n == "--block") {
      return Status::Error(n +
                           ": serve probes only the PCI devices the ports name, so there "
                           "is nothing to block");
    }
    if (n == "--no-pci" && !devices.pci.empty()) {
      return Status::Error("--no-pci: realtime.port names PCI device " + devices.pci.front());
    }
    // The defaults' flags, given again, are kept once.
    if (n == "--no-pci" || (n == "--no-huge" && no_huge) || (n == "--no-shconf" && no_shconf) ||
        (n == "--no-telemetry" && no_telemetry)) {
      continue;
    }
    user.insert(user.end(), o.words.begin(), o.words.end());
  }
  std::vector<std::string> args;
  if (lcores) args.insert(args.end(), {"-l", defaults.lcores});
  if (no_huge) args.push_back("--no-huge");
  if (no_huge && memory) args.insert(args.end(), {"-m", std::to_string(defaults.memory_mb)});
  if (no_shconf) args.push_back("--no-shconf");
  if (no_telemetry) args.push_back("--no-telemetry");
  args.insert(args.end(), user.begin(), user.end());
  if (devices.pci.empty()) args.push_back("--no-pci");
  for (const std::string& a : devices.pci) args.insert(args.end(), {"-a", a});
  for (const std::string& v : devices.vdevs) args.insert(args.end(), {"--vdev", v});
  return args;
}

}  // namespace fe::dp
