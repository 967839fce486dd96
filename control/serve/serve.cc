#include "control/serve/serve.h"

#include <rte_lcore.h>
#include <rte_mbuf.h>

#include <memory>
#include <unordered_set>

#include "congestion/dscp_map.h"
#include "control/api/api_session.h"
#include "control/emulation/emulation.h"
#include "control/process/output_dir.h"
#include "control/process/output_set.h"
#include "control/process/stop_signals.h"
#include "control/report/switch_queues_json.h"
#include "control/run/capture.h"
#include "control/run/software_run.h"
#include "control/scenario/realtime_eal.h"
#include "control/scenario/workload_build.h"
#include "control/serve/serve_banner.h"
#include "control/serve/serve_outputs.h"
#include "control/serve/serve_summary.h"
#include "dataplane/eal.h"
#include "dataplane/packet.h"
#include "dataplane/realtime/eth_port.h"
#include "dataplane/realtime/external_host.h"
#include "dataplane/realtime/realtime_loop.h"
#include "dataplane/realtime/tsc_clock.h"
#include "topology/build.h"
#include "traffic/workload_filter.h"

namespace fe::control {

namespace {

// Real frames are stored whole: room for a 9216-byte jumbo frame, the usual maximum of datacenter
// switches, so any MTU a lab sets fits one mbuf.
constexpr uint16_t kRxDataRoomBytes = 9216 + RTE_PKTMBUF_HEADROOM;
// Enough for the devices' rx rings, the uplink queues (1 MiB each) and what the fabric holds.
constexpr uint32_t kRxPoolMbufs = 16383;
constexpr Time kBehindThreshold = Time::FromUs(100);

std::string Join(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

struct MempoolDeleter {
  void operator()(rte_mempool* p) const { rte_mempool_free(p); }
};
using PoolPtr = std::unique_ptr<rte_mempool, MempoolDeleter>;

cong::DscpMapConfig ScenarioDscpMap(const fabric_emu::Scenario& scenario) {
  cong::DscpMapParams params;
  for (const auto& e : scenario.switch_().dscp_to_priority()) {
    params.entries.push_back({.dscp = e.dscp(), .priority = e.priority()});
  }
  // The scenario replaces single rows: a later entry for the same DSCP wins.
  std::vector<cong::DscpMapParams::Entry> unique;
  for (auto it = params.entries.rbegin(); it != params.entries.rend(); ++it) {
    bool seen = false;
    for (const auto& u : unique) seen = seen || u.dscp == it->dscp;
    if (!seen) unique.push_back(*it);
  }
  params.entries = unique;
  StatusOr<cong::DscpMapConfig> config = cong::Compile(params);
  return config.ok() ? *config : cong::DscpMapConfig{};  // validated with the scenario
}

// Everything that must be gone before the pools can be counted and freed, in teardown order.
struct Attached {
  std::vector<std::unique_ptr<dp::ExternalHost>> hosts;
  std::vector<std::unique_ptr<dp::EthPort>> ports;
};

// Frees what is still queued anywhere; returns how many mbufs that was.
uint64_t Teardown(Attached* a, Emulation* e, std::vector<ServePortReport>* reports) {
  uint64_t freed = 0;
  const uint64_t before = e->fabric->mbufs_in_use();
  e->sched.DiscardAll();  // frames on the wires
  freed += before - e->fabric->mbufs_in_use();
  for (size_t i = 0; i < a->hosts.size(); ++i) {
    (*reports)[i].host_side = a->hosts[i]->counters();
    (*reports)[i].host_mac_learned = a->hosts[i]->host_mac_known();
    (*reports)[i].device = a->ports[i]->counters();
    (*reports)[i].rx_lost = a->ports[i]->RxLoss();
    freed += a->hosts[i]->DrainAll();
  }
  a->ports.clear();  // stops the devices: their rings give back every mbuf
  const auto& nodes = e->graph.nodes();
  for (topo::NodeId n = 0; n < nodes.size(); ++n) {
    for (uint16_t p = 0; p < nodes[n].links.size(); ++p) freed += e->fabric->port(n, p).DrainAll();
  }
  return freed;
}

// The scenario with each port's device arguments completed by the devices' safe defaults.
fabric_emu::Scenario WithDefaultDeviceArgs(const fabric_emu::Scenario& given) {
  fabric_emu::Scenario s = given;
  for (auto& p : *s.mutable_realtime()->mutable_port()) {
    p.set_device_args(dp::WithDefaultDeviceArgs(p.device_args()));
  }
  return s;
}

// The fabric without traffic, then the scenario's messages less those from or to a real host: a
// real host has no emulated NIC to send them or to acknowledge them.
StatusOr<std::unique_ptr<Emulation>> BuildServedEmulation(const fabric_emu::Scenario& scenario,
                                                          const ServeOptions& options,
                                                          std::ostream& log,
                                                          size_t* messages_left_out) {
  const uint64_t seed = scenario.run().seed();
  std::unordered_set<uint32_t> real_hosts;
  for (const auto& p : scenario.realtime().port()) {
    real_hosts.insert(static_cast<uint32_t>(p.host()));
  }
  StatusOr<topo::Graph> graph = topo::BuildTopology(scenario.topology(), options.scenario_dir);
  if (!graph.ok()) return Status::Error("topology." + graph.status().message());
  StatusOr<Workload> all = BuildWorkload(scenario, *graph, seed, options.scenario_dir);
  if (!all.ok()) return all.status();
  std::vector<uint8_t> real(all->size(), 0);
  for (uint32_t i = 0; i < all->size(); ++i) {
    const Flow& f = all->flows[i];
    real[i] = real_hosts.contains(f.src_host) || real_hosts.contains(f.dst_host) ? 1 : 0;
  }
  Workload emulated = LeaveOut(*all, std::move(real));
  // Counted here: `emulated` moves into the emulation below.
  *messages_left_out = all->size() - emulated.size();
  if (*messages_left_out > 0) {
    log << "serve: " << *messages_left_out
        << " scenario messages are from or to a real host, or wait for one, and are left out\n";
  }
  StatusOr<std::unique_ptr<Emulation>> built = BuildEmulation(
      scenario, std::move(emulated), seed, options.scenario_dir, dp::PoolMemory::kDpdkHeap);
  if (!built.ok()) {
    const std::string why = built.status().message();  // a copy: the status is a temporary
    // A packet pool that does not fit: the one failure a user fixes with EAL arguments.
    const bool pool = why.find("mbufs") != std::string::npos;
    return Status::Error(why + (pool ? " (raise -m in realtime.eal_args or --eal)" : ""));
  }
  return built;
}

// The real ports and the real hosts behind them, with what the loop, the banner and the summary
// need of each, in the scenario's order.
struct RealPorts {
  Attached attached;
  std::vector<dp::RealtimeAttachment> attachments;
  std::vector<ServePortReport> reports;
  std::vector<RealHostPlace> places;

  std::vector<dp::ExternalHost*> hosts() const {
    std::vector<dp::ExternalHost*> h;
    for (const auto& host : attached.hosts) h.push_back(host.get());
    return h;
  }
};

// Opens each real port and connects a real host behind it to the fabric.
Status AttachRealPorts(const fabric_emu::Scenario& scenario, rte_mempool* rx_pool, Emulation* e,
                       RealPorts* real) {
  const cong::DscpMapConfig dscp_map = ScenarioDscpMap(scenario);
  for (const auto& p : scenario.realtime().port()) {
    StatusOr<std::unique_ptr<dp::EthPort>> port =
        dp::EthPort::Open(dp::EthPortParams{.device_args = p.device_args()}, rx_pool);
    if (!port.ok()) return port.status();
    dp::ExternalHostParams hp;
    hp.host = static_cast<uint32_t>(p.host());
    hp.num_hosts = static_cast<uint32_t>(e->graph.num_hosts());
    hp.dscp_map = dscp_map;
    hp.probe_pool = rx_pool;
    auto host = std::make_unique<dp::ExternalHost>(hp);
    host->ConnectUplink(&e->fabric->AttachExternal(hp.host, host.get()));
    real->attachments.push_back({port->get(), host.get()});
    real->attached.ports.push_back(std::move(port).value());
    real->attached.hosts.push_back(std::move(host));
    ServePortReport r;
    r.device_args = p.device_args();
    r.host = hp.host;
    real->reports.push_back(r);
    real->places.push_back({hp.host, p.device_args()});
  }
  return Status::Ok();
}

Status AttachApi(const fabric_emu::Scenario& scenario, api::ApiSession* api, Emulation* e) {
  if (api == nullptr) return Status::Ok();
  StatusOr<std::unique_ptr<RateSampler>> rates = NewRateSampler(scenario, e, Time::FromNs(1));
  if (!rates.ok()) return rates.status();
  api->Attach(e, scenario.name(),
              scenario.run().stop_ns() > 0 ? std::optional(scenario.run().stop_ns()) : std::nullopt,
              std::move(rates).value());
  return Status::Ok();
}

// The loop runs until the scenario's stop time, a signal or the API's stop; between slices it
// lets the API look, and it adds each interval's lateness to `lateness`.
dp::RealtimeLoopParams LoopParams(const fabric_emu::Scenario& scenario, StopSignals* stop,
                                  api::ApiSession* api, Emulation* e,
                                  dp::LatenessHistogram* lateness, std::ostream& log) {
  dp::RealtimeLoopParams lp;
  if (scenario.run().stop_ns() > 0) lp.duration = Time::FromNs(scenario.run().stop_ns());
  lp.behind_threshold = kBehindThreshold;
  lp.stop_requested = [stop, api, e, lateness] {
    if (api == nullptr) return stop->Requested();
    api->BetweenSlices(e->sched.Now(), 0, lateness);
    return stop->Requested() || api->stop_requested();
  };
  if (scenario.run().progress() || api != nullptr) {
    lp.on_progress = [&log, lateness,
                      progress = scenario.run().progress()](const dp::RealtimeProgress& p) {
      lateness->Merge(p.lateness);
      if (progress) log << ServeProgressLine(p, kBehindThreshold) << std::flush;
    };
  }
  // A second EAL lcore, if the EAL has one, polls the devices.
  const unsigned io = rte_get_next_lcore(-1, 1, 0);
  if (io < RTE_MAX_LCORE) lp.io_lcore = static_cast<int>(io);
  return lp;
}

StatusOr<dp::RealtimeStats> RunLoop(Emulation* e,
                                    const std::vector<dp::RealtimeAttachment>& attachments,
                                    const dp::RealtimeLoopParams& lp, api::ApiSession* api) {
  const dp::TscClock clock;  // emulated time 0 is now
  if (api != nullptr) api->UseLiveClock(&clock);
  dp::RealtimeLoop loop(&e->sched, &clock, attachments, lp);
  StatusOr<dp::RealtimeStats> stats = loop.Run();
  if (api != nullptr) api->UseLiveClock(nullptr);  // the clock ends with this function
  return stats;
}

// What is left once the loop has stopped: the queues as they were, then every mbuf given back.
void TearDownInto(ServeReport* report, Emulation* e, RealPorts* real, rte_mempool* rx_pool) {
  report->switch_queues = SwitchQueuesText(*e);
  report->paused_host_uplinks = PausedHostsJson(*e);
  report->mbufs_freed_at_teardown = Teardown(&real->attached, e, &real->reports);
  report->fabric_pool_in_use = e->fabric->mbufs_in_use();
  report->rx_pool_in_use = rte_mempool_in_use_count(rx_pool);
  report->ports = real->reports;
}

void DescribeRun(ServeReport* report, const fabric_emu::Scenario& scenario, const Emulation& e,
                 const std::vector<std::string>& eal_args, bool two_lcores, api::ApiSession* api,
                 size_t messages_left_out) {
  report->scenario_name = scenario.name();
  report->seed = scenario.run().seed();
  report->hosts = e.graph.num_hosts();
  report->switches = e.graph.num_switches();
  report->links = e.graph.links().size();
  report->eal_args = eal_args;
  report->two_lcores = two_lcores;
  report->stopped_by = report->loop.stopped_by_request
                           ? (api != nullptr && api->stop_requested() ? "api" : "signal")
                           : "duration";
  report->behind_threshold = kBehindThreshold;
  report->fabric = e.fabric->Totals();
  report->messages = e.fabric->messages().size();
  report->messages_delivered = e.fabric->messages_delivered();
  report->messages_left_out = messages_left_out;
}

int Fail(std::ostream& log, const std::string& why) {
  log << "serve: " << why << "\n";
  return 1;
}

// From the EAL's start to the outputs in place; returns the exit status, 1 on a failure.
int RunOnDevices(const fabric_emu::Scenario& scenario, const ServeOptions& options,
                 const std::vector<std::string>& eal_args, StopSignals* stop, OutputSet* outputs,
                 api::ApiSession* api, std::ostream& log) {
  const auto fail = [&log](const std::string& why) { return Fail(log, why); };
  log << "serve: EAL arguments: " << Join(eal_args) << "\n";
  dp::EalOptions eal;
  eal.raw_args = eal_args;
  if (Status s = dp::InitEal(eal); !s.ok()) return fail(s.message());

  size_t messages_left_out = 0;
  StatusOr<std::unique_ptr<Emulation>> built =
      BuildServedEmulation(scenario, options, log, &messages_left_out);
  if (!built.ok()) return fail(built.status().message());
  Emulation& e = **built;

  PoolPtr rx_pool(rte_pktmbuf_pool_create("fe_rt_rx", kRxPoolMbufs, 256, dp::kPacketPrivBytes,
                                          kRxDataRoomBytes, SOCKET_ID_ANY));
  if (rx_pool == nullptr) {
    return fail("cannot create the receive mbuf pool of " + std::to_string(kRxPoolMbufs) +
                " mbufs: raise -m in realtime.eal_args or --eal");
  }
  RealPorts real;
  if (Status s = AttachRealPorts(scenario, rx_pool.get(), &e, &real); !s.ok()) {
    return fail(s.message());
  }
  log << ServeBanner(scenario.name(), e.graph, e.routes, real.places);

  // Capture writes from the fabric's lcore: a user who asks for it accepts its cost in lateness.
  const std::vector<dp::ExternalHost*> real_host_ptrs = real.hosts();
  StatusOr<std::unique_ptr<dp::PcapngWriter>> capture =
      AttachCapture(scenario, outputs->staging_dir(), &e, real_host_ptrs);
  if (!capture.ok()) return fail(capture.status().message());
  if (Status s = AttachApi(scenario, api, &e); !s.ok()) return fail(s.message());
  // The run's lateness so far, interval by interval, for the API's histogram.
  dp::LatenessHistogram lateness;
  const dp::RealtimeLoopParams lp = LoopParams(scenario, stop, api, &e, &lateness, log);
  log << "serve: running"
      << (lp.io_lcore >= 0 ? " (I/O on lcore " + std::to_string(lp.io_lcore) + ")" : "")
      << "; Ctrl-C stops\n";

  ServeReport report;
  StatusOr<dp::RealtimeStats> stats = RunLoop(&e, real.attachments, lp, api);
  if (!stats.ok()) return fail(stats.status().message());
  report.loop = *stats;
  DetachCapture(scenario, &e, real_host_ptrs);
  TearDownInto(&report, &e, &real, rx_pool.get());
  DescribeRun(&report, scenario, e, eal_args, lp.io_lcore >= 0, api, messages_left_out);
  if (Status s = WriteServeOutputs(report, e, options.out_dir, outputs, log); !s.ok()) {
    return fail(s.message());
  }
  if (api != nullptr) {
    api->Finish(report.loop.events_run, report.loop.elapsed.seconds(), &report.loop.lateness);
    // A signal stopped the loop: it asked the process to end, not to go on answering.
    api->HoldIfAsked(log, report.stopped_by == "signal");
  }
  return 0;
}

}  // namespace

int RunServe(const fabric_emu::Scenario& given, const ServeOptions& options) {
  const fabric_emu::Scenario scenario = WithDefaultDeviceArgs(given);
  std::ostream null_log(nullptr);
  std::ostream& log = options.log != nullptr ? *options.log : null_log;
  const auto fail = [&log](const std::string& why) { return Fail(log, why); };
  // What the user can fix before anything starts: refused as a software run refuses it.
  auto refuse = [&log](const std::string& why) {
    log << "serve: " << why << "\n";
    return 2;
  };

  // Before the EAL starts its threads, so they inherit the blocked mask.
  StopSignals stop;
  if (!stop.ok()) return fail("cannot watch SIGINT/SIGTERM");

  StatusOr<std::vector<std::string>> merged = ServeEalArgs(scenario);
  if (!merged.ok()) return fail("realtime.eal_args: " + merged.status().message());
  const std::vector<std::string> eal_args = std::move(merged).value();

  // The output directory and the API before the EAL: a directory it cannot use, a port in use or
  // a token file others may read is refused before any device is touched, and the API's threads
  // keep the process's CPUs rather than the lcore the EAL pins this thread to.
  const std::string capture_file = scenario.has_capture() ? scenario.capture().file() : "";
  if (Status s = PrepareOutputDir(options.out_dir, capture_file, options.inputs); !s.ok()) {
    return refuse(s.message());
  }
  // Every output, the capture among them, is staged and moved into place as a set at the end.
  StatusOr<OutputSet> outputs = OutputSet::Open(options.out_dir);
  if (!outputs.ok()) return fail(outputs.status().message());
  StatusOr<std::unique_ptr<api::ApiSession>> api = std::unique_ptr<api::ApiSession>();
  if (options.api.listen) {
    api = api::ApiSession::Start(options.api, "realtime", options.out_dir, log);
  }
  if (!api.ok()) return refuse(api.status().message());
  return RunOnDevices(scenario, options, eal_args, &stop, &*outputs, api->get(), log);
}

}  // namespace fe::control
