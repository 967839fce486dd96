// Sends hand-made Ethernet frames out of one interface through an AF_PACKET socket: the
// end-to-end tests' source of malformed frames, pause frames and RoCEv2 packets that no ordinary
// host stack would send. Built from the specifications' byte layouts, not from the emulator's
// own encoder, so the emulator is checked against the wire format and not against itself.
//
//   raw_frames IFACE KIND COUNT [DST_IP]
// KIND: runt | bad_ihl | not_ip | truncated_bth | roce | pfc_pause
// The destination MAC is the fabric MAC of DST_IP's host (02:fe:00 + host index), as the
// emulator's ARP answers would give it; pause frames go to 01:80:c2:00:00:01.
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Frame = std::vector<uint8_t>;

constexpr uint32_t kFabricNetwork = 0xC6120000;  // 198.18.0.0/15, host i at + 1 + i

void Put16(Frame* f, uint16_t v) {
  f->push_back(static_cast<uint8_t>(v >> 8));
  f->push_back(static_cast<uint8_t>(v));
}
void Put32(Frame* f, uint32_t v) {
  Put16(f, static_cast<uint16_t>(v >> 16));
  Put16(f, static_cast<uint16_t>(v));
}

void EthHeader(Frame* f, const uint8_t dst[6], const uint8_t src[6], uint16_t ether_type) {
  f->insert(f->end(), dst, dst + 6);
  f->insert(f->end(), src, src + 6);
  Put16(f, ether_type);
}

// RFC 791 header with a correct RFC 1071 checksum; version_ihl lets a test break it.
void Ipv4Header(Frame* f, uint8_t version_ihl, uint8_t tos, uint16_t total_length, uint8_t proto,
                uint32_t src, uint32_t dst) {
  const size_t start = f->size();
  f->push_back(version_ihl);
  f->push_back(tos);
  Put16(f, total_length);
  Put16(f, 0);       // identification
  Put16(f, 0x4000);  // DF
  f->push_back(64);  // TTL
  f->push_back(proto);
  Put16(f, 0);  // checksum, filled below
  Put32(f, src);
  Put32(f, dst);
  uint32_t sum = 0;
  for (size_t i = start; i < start + 20; i += 2) sum += ((*f)[i] << 8) | (*f)[i + 1];
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  const auto cks = static_cast<uint16_t>(~sum);
  (*f)[start + 10] = static_cast<uint8_t>(cks >> 8);
  (*f)[start + 11] = static_cast<uint8_t>(cks);
}

Frame Build(const std::string& kind, const uint8_t src_mac[6], uint32_t src_ip, uint32_t dst_ip) {
  const uint32_t dst_host = dst_ip - kFabricNetwork - 1;
  const uint8_t dst_mac[6] = {0x02,
                              0xfe,
                              0x00,
                              static_cast<uint8_t>(dst_host >> 16),
                              static_cast<uint8_t>(dst_host >> 8),
                              static_cast<uint8_t>(dst_host)};
  Frame f;
  if (kind == "runt") {
    // IPv4 EtherType but only 6 bytes where a 20-byte header must be.
    EthHeader(&f, dst_mac, src_mac, 0x0800);
    f.insert(f.end(), 6, 0x45);
  } else if (kind == "bad_ihl") {
    // IHL 3 (12 bytes): below the minimum of 5 words (RFC 791).
    EthHeader(&f, dst_mac, src_mac, 0x0800);
    Ipv4Header(&f, 0x43, 0, 28, 17, src_ip, dst_ip);
    f.insert(f.end(), 8, 0);
  } else if (kind == "not_ip") {
    // IEEE 802 local experimental EtherType 1 (0x88B5): neither IPv4 nor ARP.
    EthHeader(&f, dst_mac, src_mac, 0x88B5);
    f.insert(f.end(), 46, 0xab);
  } else if (kind == "truncated_bth" || kind == "roce") {
    // UDP to 4791 (RoCEv2). truncated_bth carries 4 of the BTH's 12 bytes, with IP and UDP
    // lengths that agree (the frame is consistent, only too short for a BTH).
    const bool whole = kind == "roce";
    const uint16_t payload = whole ? 12 + 1024 + 4 : 4;  // BTH + payload + ICRC
    EthHeader(&f, dst_mac, src_mac, 0x0800);
    Ipv4Header(&f, 0x45, (26 << 2) | 2, static_cast<uint16_t>(20 + 8 + payload), 17, src_ip,
               dst_ip);
    Put16(&f, 49152);  // UDP source port
    Put16(&f, 4791);
    Put16(&f, static_cast<uint16_t>(8 + payload));
    Put16(&f, 0);  // no UDP checksum, as RoCEv2 allows
    // BTH (IBA vol. 1 9.2): opcode RC SEND only, flags, P_Key, reserved, dest QP, A+reserved, PSN.
    const uint8_t bth[12] = {0x04, 0x00, 0xff, 0xff, 0x00, 0x00,
                             0x01, 0x11, 0x00, 0x00, 0x00, 0x00};
    f.insert(f.end(), bth, bth + (whole ? 12 : 4));
    if (whole) f.insert(f.end(), 1024 + 4, 0);
  } else if (kind == "pfc_pause") {
    // 802.1Qbb: MAC control, opcode 0x0101, a class-enable vector with all eight priorities,
    // then eight 2-byte pause times, each the maximum 0xffff quanta (of 512 bit times).
    const uint8_t pfc_mac[6] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x01};
    EthHeader(&f, pfc_mac, src_mac, 0x8808);
    Put16(&f, 0x0101);
    Put16(&f, 0x00ff);
    for (int p = 0; p < 8; ++p) Put16(&f, 0xffff);
    f.resize(60, 0);
  } else {
    return {};
  }
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: %s IFACE runt|bad_ihl|not_ip|truncated_bth|roce|pfc_pause COUNT "
                 "[DST_IP]\n",
                 argv[0]);
    return 2;
  }
  const std::string iface = argv[1];
  const std::string kind = argv[2];
  const long count = std::strtol(argv[3], nullptr, 10);
  in_addr dst{};
  if (inet_pton(AF_INET, argc > 4 ? argv[4] : "198.18.0.2", &dst) != 1) {
    std::fprintf(stderr, "bad destination address\n");
    return 2;
  }
  const int fd = socket(AF_PACKET, SOCK_RAW, 0);
  if (fd < 0) {
    std::perror("socket(AF_PACKET)");
    return 1;
  }
  ifreq ifr{};
  std::snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", iface.c_str());
  if (ioctl(fd, SIOCGIFHWADDR, &ifr) != 0) {
    std::perror("SIOCGIFHWADDR");
    return 1;
  }
  uint8_t src_mac[6];
  std::memcpy(src_mac, ifr.ifr_hwaddr.sa_data, 6);
  ifreq ifa{};
  std::snprintf(ifa.ifr_name, sizeof(ifa.ifr_name), "%s", iface.c_str());
  uint32_t src_ip = kFabricNetwork + 1;
  if (ioctl(fd, SIOCGIFADDR, &ifa) == 0) {
    src_ip = ntohl(reinterpret_cast<sockaddr_in*>(&ifa.ifr_addr)->sin_addr.s_addr);
  }
  const Frame frame = Build(kind, src_mac, src_ip, ntohl(dst.s_addr));
  if (frame.empty()) {
    std::fprintf(stderr, "unknown kind %s\n", kind.c_str());
    return 2;
  }
  sockaddr_ll to{};
  to.sll_family = AF_PACKET;
  to.sll_ifindex = static_cast<int>(if_nametoindex(iface.c_str()));
  to.sll_halen = 6;
  std::memcpy(to.sll_addr, frame.data(), 6);
  for (long i = 0; i < count; ++i) {
    if (sendto(fd, frame.data(), frame.size(), 0, reinterpret_cast<sockaddr*>(&to), sizeof(to)) !=
        static_cast<ssize_t>(frame.size())) {
      // A full device queue (ENOBUFS) under a blast: wait for it to drain and go on.
      if (errno == ENOBUFS) {
        usleep(100);
        --i;
        continue;
      }
      std::perror("sendto");
      return 1;
    }
  }
  close(fd);
  return 0;
}
