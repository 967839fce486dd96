#include "dataplane/eal.h"

#include <rte_eal.h>
#include <rte_errno.h>

#include <mutex>
#include <sstream>
#include <string_view>

#include "dataplane/eal_syscalls.h"

namespace fe::dp {

std::vector<std::string> EalArgs(const EalOptions& options) {
  if (!options.raw_args.empty()) return options.raw_args;
  std::vector<std::string> args = {"--no-huge",
                                   "-m",
                                   std::to_string(options.memory_mb),
                                   "--no-pci",
                                   "--no-shconf",
                                   "--no-telemetry",
                                   "-l",
                                   options.lcores,
                                   "--log-level",
                                   "lib.eal:warning"};
  for (const std::string& v : options.vdevs) {
    args.push_back("--vdev");
    args.push_back(v);
  }
  return args;
}

std::vector<std::string> SplitEalArgs(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

std::string RefusedEalArgs(const std::vector<std::string>& args) {
  constexpr std::string_view kProcType = "--proc-type";
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (!a.starts_with(kProcType)) continue;
    std::string_view type;
    if (a.size() > kProcType.size() && a[kProcType.size()] == '=') {
      type = a.substr(kProcType.size() + 1);
    } else if (a.size() == kProcType.size() && i + 1 < args.size()) {
      type = args[i + 1];
    }
    if (type != "primary") {
      return "--proc-type " + std::string(type) +
             ": the emulator runs as DPDK's primary process only (a secondary waits for a "
             "primary to start, for ever when none does)";
    }
  }
  return "";
}

Status InitEal(const EalOptions& options) {
  static std::once_flag once;
  static Status result;
  std::call_once(once, [&] {
    std::vector<std::string> args = EalArgs(options);
    args.insert(args.begin(), "fabric-emu");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    CapEalSleeps(options.quick_tsc_estimate);
    const int parsed = rte_eal_init(static_cast<int>(argv.size()), argv.data());
    CapEalSleeps(false);
    if (parsed < 0) {
      std::string joined;
      for (const std::string& a : args) joined += " " + a;
      result = Status::Error("DPDK EAL initialisation failed (" +
                             std::string(rte_strerror(rte_errno)) + ") with arguments:" + joined);
    }
  });
  return result;
}

}  // namespace fe::dp
