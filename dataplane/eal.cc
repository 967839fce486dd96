#include "dataplane/eal.h"

#include <pthread.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
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

std::string HugepageProblem(std::string_view meminfo, std::string_view mounts) {
  constexpr std::string_view kTotal = "HugePages_Total:";
  const size_t at = meminfo.find(kTotal);
  long total = 0;
  if (at != std::string_view::npos) {
    std::istringstream(std::string(meminfo.substr(at + kTotal.size(), 32))) >> total;
  }
  const char* const kOrNoHuge =
      ", or leave the hugepage options out of the EAL arguments (serve then runs with --no-huge)";
  if (total <= 0) {
    return std::string(
               "no hugepages are reserved (HugePages_Total: 0 in /proc/meminfo): reserve "
               "some (echo 1024 > /sys/kernel/mm/hugepages/hugepages-2048kB/"
               "nr_hugepages)") +
           kOrNoHuge;
  }
  if (mounts.find(" hugetlbfs ") == std::string_view::npos) {
    return std::string(
               "no hugetlbfs is mounted (none in /proc/mounts): mount one (mount -t "
               "hugetlbfs nodev /dev/hugepages)") +
           kOrNoHuge;
  }
  return "";
}

namespace {

std::string FileText(const char* path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

Status InitEal(const EalOptions& options) {
  static std::once_flag once;
  static Status result;
  std::call_once(once, [&] {
    std::vector<std::string> args = EalArgs(options);
    args.insert(args.begin(), "fabric-emu");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    cpu_set_t allowed;
    const bool restore_affinity =
        options.keep_thread_affinity &&
        pthread_getaffinity_np(pthread_self(), sizeof(allowed), &allowed) == 0;
    CapEalSleeps(options.quick_tsc_estimate);
    const int parsed = rte_eal_init(static_cast<int>(argv.size()), argv.data());
    CapEalSleeps(false);
    if (restore_affinity) pthread_setaffinity_np(pthread_self(), sizeof(allowed), &allowed);
    if (parsed < 0) {
      std::string joined;
      for (const std::string& a : args) joined += " " + a;
      std::string why = "DPDK EAL initialisation failed (" + std::string(rte_strerror(rte_errno)) +
                        ") with arguments:" + joined;
      // The EAL sets EACCES when it cannot read the hugepage setup and ENOMEM when it cannot
      // map memory; EINVAL is an argument it refused (an lcore this machine lacks, say), which
      // hugepages would not cure.
      const bool memory_failed = rte_errno == EACCES || rte_errno == ENOMEM;
      if (memory_failed && std::find(args.begin(), args.end(), "--no-huge") == args.end()) {
        if (const std::string p =
                HugepageProblem(FileText("/proc/meminfo"), FileText("/proc/mounts"));
            !p.empty()) {
          why += "; the arguments ask for hugepages, but " + p;
        }
      }
      result = Status::Error(why);
    }
  });
  return result;
}

}  // namespace fe::dp
