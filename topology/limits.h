// The ranges a topology's numbers must lie in, each with the reason it is where it is. Builders
// check against them, so one scenario is refused the same way wherever it is built.
#pragma once

#include <cstdint>

namespace fe::topo {

// Ethernet rates beyond this are not even in standardisation (802.3dj is 1.6 Tb/s); a larger
// value is far more likely Mb/s typed into a Gb/s field than a real link.
inline constexpr double kMaxLinkRateGbps = 1600;
// The slowest link: 1 Mb/s, where a 9 KB frame takes 74 ms and the longest PFC pause 34 s.
inline constexpr double kMinLinkRateGbps = 0.001;
// A link's propagation delay of one second is 200,000 km of fibre.
inline constexpr double kMaxLinkDelayNs = 1e9;
// Light in fibre (group index ~1.47) and signals in twinax copper both travel at about 0.2 m/ns.
inline constexpr double kNsPerMetre = 5;
// 1e-3 already loses most 9 KB frames (1 - (1 - 1e-3)^73728 is 1 - 1e-32); a larger BER is a
// typo, not a link anyone would keep in service.
inline constexpr double kMaxBitErrorRate = 1e-3;
// An optical transceiver end draws a few tens of pJ/bit; 1000 is far above any real part.
inline constexpr double kMaxPjPerBit = 1000;
// Ports are 16-bit in the graph, but the largest switch ASICs have 512 ports (102.4 Tb/s as
// 512 x 200G); 1024 leaves room for a radix-1024 study and keeps a per-switch table of ports
// small enough to sit in cache.
inline constexpr int kMaxPortsPerSwitch = 1024;
// Host addresses come from 198.18.0.0/15 without its network and broadcast addresses.
inline constexpr int64_t kMaxEndpoints = (int64_t{1} << 17) - 2;
// Links in one fabric: LinkId is 32-bit, but a link costs ~50 bytes in the graph alone and more
// in the fabric that runs it; 16 M links is 85 times a k = 64 fat-tree and already ~1 GB.
inline constexpr int64_t kMaxLinks = int64_t{1} << 24;
// Scale-up planes per domain: NVL72 joins 72 accelerators through 18 switch chips; 64 leaves
// room for more and keeps the links (endpoints x planes) within kMaxLinks.
inline constexpr int kMaxScaleUpSwitchesPerDomain = 64;
// Link classes are numbered by 16 bits in every link; a scenario with more than a thousand
// kinds of cable is a generated mistake.
inline constexpr int kMaxLinkClasses = 1024;
// A credit buffer per priority: 1 GiB is far beyond any switch's whole buffer.
inline constexpr int64_t kMinCreditBufferBytes = 9216;
inline constexpr int64_t kMaxCreditBufferBytes = int64_t{1} << 30;
// Credit update delay and resync period: up to 1 ms, a thousand times a long link's round trip.
inline constexpr double kMaxCreditTimeNs = 1e6;
// An explicit graph file larger than this is refused before it is read: 64 MiB holds a
// description of several million links, more than any fabric this tool can run.
inline constexpr int64_t kMaxGraphFileBytes = int64_t{64} << 20;
// Nesting levels a graph file may have: its messages are a few levels deep, and each level is a
// frame of the text parser's recursion.
inline constexpr int kMaxGraphFileNesting = 64;

}  // namespace fe::topo
