// Two NICs back to back over one link each way, with a test tap in the data direction that can
// drop chosen packets or CE-mark them: the fixture of the NIC tests (nic_test.cc for loss
// recovery, nic_congestion_test.cc for DCQCN and HPCC).
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "core/scheduler.h"
#include "dataplane/nic.h"
#include "dataplane/packet.h"
#include "test_pool.h"

namespace fe::dp {
// Wire bytes of a SEND with `payload` bytes: Eth 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4,
// plus 20 bytes of preamble, SFD and inter-frame gap (IEEE 802.3 clause 4).
constexpr int64_t kDataOverheadBytes = 14 + 20 + 8 + 12 + 4 + 4 + 20;
// An ACK: the same headers with a 4-byte AETH and no payload.
constexpr int64_t kAckWireBytes = 14 + 20 + 8 + 12 + 4 + 4 + 4 + 20;

// Sits on a link in front of a receiver: drops the data packets it is told to (each once),
// optionally CE-marks data, and records what passes.
class Tap final : public PacketReceiver {
 public:
  Tap(Scheduler* sched, PacketReceiver* next) : sched_(sched), next_(next) {}
  void DropOnce(uint32_t psn) { drop_once_.push_back(psn); }
  void DropEveryNth(uint32_t n) { drop_every_ = n; }
  // Drops the n-th data packet to pass (1-based, resends included).
  void DropNth(uint64_t n) { drop_nth_.push_back(n); }
  void MarkCe() { mark_ce_ = true; }

  void Receive(uint16_t port, rte_mbuf* m) override {
    HeaderView h;
    ASSERT_EQ(ParseHeaders(m, &h), ParseError::kNone);
    const bool data = h.opcode <= static_cast<uint8_t>(BthOpcode::kRcSendOnly);
    if (data) {
      ++data_seen_;
      bool drop = (drop_every_ != 0 && data_seen_ % drop_every_ == 0) ||
                  std::find(drop_nth_.begin(), drop_nth_.end(), data_seen_) != drop_nth_.end();
      for (uint32_t& p : drop_once_) {
        if (p == h.psn) {
          drop = true;
          p = UINT32_MAX;
        }
      }
      if (drop) {
        ++dropped;
        rte_pktmbuf_free(m);
        return;
      }
      if (mark_ce_) SetIpEcn(m, kEcnCe);
      data_arrivals.push_back(sched_->Now());
    } else {
      others.push_back(h);
    }
    next_->Receive(port, m);
  }

  uint64_t dropped = 0;
  std::vector<Time> data_arrivals;  // of the packets passed on
  std::vector<HeaderView> others;   // ACKs, NAKs, CNPs

 private:
  Scheduler* sched_;
  PacketReceiver* next_;
  std::vector<uint32_t> drop_once_;
  std::vector<uint64_t> drop_nth_;
  uint32_t drop_every_ = 0;
  uint64_t data_seen_ = 0;
  bool mark_ce_ = false;
};

// Host 0 sends to host 1; taps sit in front of both NICs.
struct BackToBack {
  BackToBack(const NicParams& params, Rate rate, Time delay)
      : a_port(&sched, rate, delay), b_port(&sched, rate, delay) {
    messages.reserve(16);
    StatusOr<NicConfig> config = CompileNicParams(params, rate);
    EXPECT_TRUE(config.ok()) << config.status().message();
    mtu = params.mtu_payload_bytes;
    a = std::make_unique<Nic>(0, &sched, &a_port, pool.get(), &messages, *config, &hpcc);
    b = std::make_unique<Nic>(1, &sched, &b_port, pool.get(), &messages, *config, &hpcc);
    to_b = std::make_unique<Tap>(&sched, b.get());
    to_a = std::make_unique<Tap>(&sched, a.get());
    a_port.SetSource(a.get());
    b_port.SetSource(b.get());
    a_port.ConnectPeer(to_b.get(), 0);
    b_port.ConnectPeer(to_a.get(), 0);
  }
  ~BackToBack() {
    sched.DiscardAll();
    a_port.DrainAll();
    b_port.DrainAll();
  }
  uint32_t Send(uint64_t size_bytes, Time start) {
    MessageInfo info;
    info.spec = MessageSpec{0, 1, size_bytes, start, 26};
    info.packets_total = static_cast<uint32_t>((size_bytes + mtu - 1) / mtu);
    info.udp_src_port = 0xC000;
    messages.Add(info);
    if (a->config().cc == CongestionControl::kHpcc) {
      StatusOr<cong::HpccConfig> c = CompileHpccQp(a->config(), hpcc_base_rtt);
      EXPECT_TRUE(c.ok()) << c.status().message();
      hpcc.push_back(HpccQp{*c, {}});
    }
    const auto id = static_cast<uint32_t>(messages.size() - 1);
    a->ScheduleMessage(id);
    return id;
  }

  testing::TestPool pool{8191, 256};
  Scheduler sched;
  MessageTable messages;
  HpccTable hpcc;
  Time hpcc_base_rtt;  // T of the QPs Send starts under HPCC
  StandaloneEgressPort a_port, b_port;
  std::unique_ptr<Nic> a, b;
  std::unique_ptr<Tap> to_b, to_a;
  uint32_t mtu = 0;
};

inline NicParams Params(uint32_t mtu) {
  NicParams p;
  p.mtu_payload_bytes = mtu;
  p.ack_every_packets = 1;
  return p;
}

inline const Rate k100G = Rate::FromGbps(100);
inline const Time kDelay = Time::FromNs(1000);

}  // namespace fe::dp
