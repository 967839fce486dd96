// The EAL arguments a user may give real-time mode: every spelling of a secondary process type
// is refused before the EAL starts (as one, it would wait for a primary that never comes), and
// the user's options merge into serve's defaults by the rule dataplane/realtime/eal_args.h states.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dataplane/eal.h"
#include "dataplane/realtime/eal_args.h"

namespace fe::dp {
namespace {

TEST(EalArgsTest, SplitsAtWhiteSpace) {
  EXPECT_EQ(SplitEalArgs("  -l 0-1\t--no-huge\n--vdev net_null0 "),
            (std::vector<std::string>{"-l", "0-1", "--no-huge", "--vdev", "net_null0"}));
  EXPECT_TRUE(SplitEalArgs("   ").empty());
}

TEST(EalArgsTest, OnlyThePrimaryProcessTypeIsAccepted) {
  EXPECT_EQ(RefusedEalArgs({"--no-huge", "-l", "0"}), "");
  EXPECT_EQ(RefusedEalArgs({"--proc-type=primary"}), "");
  EXPECT_EQ(RefusedEalArgs({"--proc-type", "primary", "--no-huge"}), "");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--proc-type=secondary"},
        std::vector<std::string>{"--no-huge", "--proc-type", "secondary"},
        std::vector<std::string>{"--proc-type=auto"},  // secondary wherever a primary runs
        std::vector<std::string>{"--proc-type"}}) {
    const std::string why = RefusedEalArgs(args);
    EXPECT_NE(why.find("primary process only"), std::string::npos)
        << ::testing::PrintToString(args) << " -> " << why;
  }
}

using Args = std::vector<std::string>;

const EalDefaults kDefaults{.lcores = "0", .memory_mb = 1024};
const EalDevices kVeth{.pci = {}, .vdevs = {"net_af_packet0,iface=veth0"}};

Args Merged(const Args& user, const EalDevices& devices = kVeth) {
  StatusOr<Args> a = MergeEalArgs(user, devices, kDefaults);
  EXPECT_TRUE(a.ok()) << a.status().message();
  return a.ok() ? *a : Args{};
}

std::string Refusal(const Args& user, const EalDevices& devices = kVeth) {
  StatusOr<Args> a = MergeEalArgs(user, devices, kDefaults);
  return a.ok() ? "accepted" : a.status().message();
}

TEST(EalArgsTest, NoUserArgumentsGiveTheDefaultsAndNoPciScan) {
  EXPECT_EQ(Merged({}), (Args{"-l", "0", "--no-huge", "-m", "1024", "--no-shconf", "--no-telemetry",
                              "--no-pci", "--vdev", "net_af_packet0,iface=veth0"}));
}

TEST(EalArgsTest, UserLcoresReplaceTheDefaultAndKeepTheRest) {
  const Args want = {"--no-huge", "-m",  "1024",     "--no-shconf", "--no-telemetry",
                     "-l",        "0-1", "--no-pci", "--vdev",      "net_af_packet0,iface=veth0"};
  EXPECT_EQ(Merged({"-l", "0-1"}), want);
  EXPECT_EQ(Merged({"-l0-1"})[5], "-l0-1");
  EXPECT_EQ(Merged({"--lcores=0@0,1@1"})[0], "--no-huge");
  EXPECT_EQ(Merged({"-c", "0x3"})[0], "--no-huge");
}

TEST(EalArgsTest, MemoryIsReplacedByMAndHugepagesDropNoHuge) {
  EXPECT_EQ(Merged({"-m", "2048"}),
            (Args{"-l", "0", "--no-huge", "--no-shconf", "--no-telemetry", "-m", "2048", "--no-pci",
                  "--vdev", "net_af_packet0,iface=veth0"}));
  EXPECT_EQ(Merged({"--huge-dir", "/dev/hugepages"}),
            (Args{"-l", "0", "--no-shconf", "--no-telemetry", "--huge-dir", "/dev/hugepages",
                  "--no-pci", "--vdev", "net_af_packet0,iface=veth0"}));
  EXPECT_EQ(Merged({"--socket-mem=1024"}),
            (Args{"-l", "0", "--no-shconf", "--no-telemetry", "--socket-mem=1024", "--no-pci",
                  "--vdev", "net_af_packet0,iface=veth0"}));
  // --in-memory implies what --no-shconf says.
  EXPECT_EQ(Merged({"--in-memory"}), (Args{"-l", "0", "--no-telemetry", "--in-memory", "--no-pci",
                                           "--vdev", "net_af_packet0,iface=veth0"}));
}

TEST(EalArgsTest, SharedFilesAndTelemetryComeBackWhenAskedFor) {
  EXPECT_EQ(Merged({"--file-prefix", "lab", "--telemetry"}),
            (Args{"-l", "0", "--no-huge", "-m", "1024", "--file-prefix", "lab", "--telemetry",
                  "--no-pci", "--vdev", "net_af_packet0,iface=veth0"}));
  // A default given again is kept once.
  EXPECT_EQ(Merged({"--no-huge", "--no-pci", "--no-telemetry"}), Merged({}));
}

TEST(EalArgsTest, OnlyThePortsPciDevicesAreAllowListed) {
  const EalDevices nics{.pci = {"0000:3b:00.0", "0000:3b:00.1"}, .vdevs = {}};
  const Args want = {"--no-huge", "-m", "1024",         "--no-shconf", "--no-telemetry", "-l",
                     "2-3",       "-a", "0000:3b:00.0", "-a",          "0000:3b:00.1"};
  EXPECT_EQ(Merged({"-l", "2-3"}, nics), want);
  // The guide's habit of naming the ports' devices again changes nothing.
  EXPECT_EQ(Merged({"-l", "2-3", "-a", "0000:3b:00.0", "-a", "0000:3b:00.1"}, nics), want);
  EXPECT_NE(Refusal({"-a", "0000:00:04.0"}, nics).find("no realtime.port names this device"),
            std::string::npos);
  EXPECT_NE(Refusal({"--allow=0000:00:04.0"}).find("no realtime.port names"), std::string::npos);
  EXPECT_NE(Refusal({"-b", "0000:00:04.0"}).find("nothing to block"), std::string::npos);
  EXPECT_NE(Refusal({"--no-pci"}, nics).find("names PCI device 0000:3b:00.0"), std::string::npos);
  EXPECT_NE(Refusal({"--vdev", "net_tap0"}).find("no realtime.port names"), std::string::npos);
  EXPECT_EQ(Merged({"--vdev", "net_af_packet0,iface=veth0"}), Merged({}));
}

TEST(EalArgsTest, AVdevAsThePortWroteItBeforeServesOptionsIsThePortsDevice) {
  // What serve opens: the port's arguments with its default ring size added.
  const EalDevices veth{.pci = {}, .vdevs = {"net_af_packet0,iface=veth0,framecnt=4096"}};
  const Args plain = Merged({}, veth);
  EXPECT_EQ(Merged({"--vdev", "net_af_packet0,iface=veth0"}, veth), plain);
  EXPECT_EQ(Merged({"--vdev", "net_af_packet0"}, veth), plain);
  EXPECT_EQ(Merged({"--vdev", "net_af_packet0,framecnt=4096,iface=veth0"}, veth), plain);
  EXPECT_EQ(Refusal({"--vdev", "net_af_packet0,iface=veth9"}, veth),
            "--vdev net_af_packet0,iface=veth9: a realtime.port opens net_af_packet0 as "
            "net_af_packet0,iface=veth0,framecnt=4096; give its options in the port's "
            "device_args");
  EXPECT_NE(Refusal({"--vdev", "net_af_packet1,iface=veth0"}, veth).find("no realtime.port names"),
            std::string::npos);
}

TEST(EalArgsTest, UnknownOptionsMissingValuesAndDriverLibrariesAreRefused) {
  EXPECT_EQ(Refusal({"--no-hugepages"}), "unknown EAL option --no-hugepages");
  EXPECT_EQ(Refusal({"-l"}), "-l needs a value");
  EXPECT_EQ(Refusal({"--huge-dir"}), "--huge-dir needs a value");
  EXPECT_EQ(Refusal({"--no-huge=1"}), "--no-huge takes no value");
  EXPECT_EQ(Refusal({"0-1"}), "unexpected word 0-1 (not an EAL option or its value)");
  EXPECT_NE(Refusal({"-d", "librte_net_ice.so"}).find("linked into fabric-emu"), std::string::npos);
  EXPECT_NE(Refusal({"--proc-type=secondary"}).find("primary process only"), std::string::npos);
}

TEST(EalArgsTest, HugepageProblemSaysWhatIsMissingAndWhatToDo) {
  const std::string mounted = "nodev /dev/hugepages hugetlbfs rw,relatime,pagesize=2M 0 0\n";
  const std::string none = "HugePages_Total:       0\nHugePages_Free:        0\n";
  const std::string some = "HugePages_Total:     512\nHugePages_Free:      512\n";
  EXPECT_NE(HugepageProblem(none, mounted).find("no hugepages are reserved"), std::string::npos);
  EXPECT_NE(HugepageProblem(none, mounted).find("--no-huge"), std::string::npos);
  EXPECT_NE(HugepageProblem(some, "proc /proc proc rw 0 0\n").find("no hugetlbfs is mounted"),
            std::string::npos);
  EXPECT_EQ(HugepageProblem(some, mounted), "");
}

}  // namespace
}  // namespace fe::dp
