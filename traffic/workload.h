// A workload: messages that may wait for others, grouped into jobs, with what their generator knows
// of their structure (collective operations, training iterations, KV-cache requests) for the
// reports. Every generator (collective, training, KV cache, trace import, and the independent
// patterns) produces one; control/ merges the scenario's into one and hands it to the fabric.
//
// Dependencies: message i starts at max(flows[i].start, d + delay[i]), where d is the time the last
// of its dependencies was delivered (its last byte reached the receiver). A message with no
// dependency starts at flows[i].start and its delay is unused. Dependencies are stored flat
// (compressed rows), so a workload of millions of messages is a handful of vectors.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/units.h"
#include "traffic/flow.h"

namespace fe {

inline constexpr uint32_t kNoIndex = UINT32_MAX;

// One job: a traffic section of the scenario (a training job, an inference service, a replayed
// trace, background load). Its messages carry its DSCP.
struct Job {
  std::string name;
  std::string kind;  // "collective", "training", "kv_cache", "trace", "permutation", ...
  uint8_t dscp = 26;
};

enum class CollectiveKind : uint8_t {
  kAllReduce,
  kAllGather,
  kReduceScatter,
  kAllToAll,
  kBroadcast,
  kSendRecv,  // pipeline-parallel point to point
};

enum class CollectiveAlgorithm : uint8_t {
  kRing,
  kDoubleBinaryTree,
  kHalvingDoubling,
  kHierarchical,
  kDirect,  // AllToAll and point to point: every pair at once
};

// One collective operation: the messages whose op_of is its index.
struct CollectiveOp {
  uint32_t job = 0;
  uint32_t iteration = kNoIndex;  // the training iteration it belongs to, if any
  CollectiveKind kind = CollectiveKind::kAllReduce;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::kRing;
  // nccl-tests' "size": the bytes of each rank's buffer (the whole vector for AllReduce, the
  // gathered result for AllGather, the input for ReduceScatter, each rank's send buffer for
  // AllToAll, the root's buffer for Broadcast).
  uint64_t size_bytes = 0;
  uint32_t ranks = 0;
  uint32_t channels = 1;
  uint32_t root = 0;  // Broadcast: the rank whose buffer is sent
};

// One training iteration of a job: the messages whose iteration_of is its index.
struct Iteration {
  uint32_t job = 0;
  uint32_t index = 0;        // 0-based within the job
  Time compute;              // compute time on the iteration's critical path, overlapped or not
  bool checkpoint = false;   // the iteration ends with a checkpoint burst
};

// One inference request whose KV cache moves from a prefill endpoint to a decode endpoint: the
// messages whose request_of is its index.
struct KvRequest {
  uint32_t job = 0;
  uint64_t id = 0;       // position in the trace, or draw order
  Time arrival;          // when the request arrived (trace timestamp, time-scaled)
  Time prefill_start;    // when its prefill endpoint took it: arrival + time queued
  Time prefill_done;     // when prefill ended: the transfer may start
  uint32_t prefill_host = 0;
  uint32_t decode_host = 0;
  uint64_t tokens = 0;         // input tokens
  uint64_t kv_bytes = 0;       // the whole KV cache of the input
  uint64_t reused_bytes = 0;   // blocks already on the decode side, not sent
};

struct Workload {
  // By message id: flows[i].id == i. flows[i].start is the earliest start.
  std::vector<Flow> flows;
  std::vector<Time> delay;          // from the last dependency's delivery to the start
  std::vector<uint32_t> job_of;     // index in jobs
  std::vector<uint32_t> op_of;      // index in ops, or kNoIndex
  std::vector<uint32_t> iteration_of;  // index in iterations, or kNoIndex
  std::vector<uint32_t> request_of;    // index in requests, or kNoIndex
  // Dependencies, compressed rows: message i waits for after[after_begin[i] .. after_begin[i+1]).
  // after_begin has flows.size() + 1 entries.
  std::vector<uint32_t> after_begin{0};
  std::vector<uint32_t> after;

  std::vector<Job> jobs;
  std::vector<CollectiveOp> ops;
  std::vector<Iteration> iterations;
  std::vector<KvRequest> requests;

  size_t size() const { return flows.size(); }
  std::span<const uint32_t> dependencies(uint32_t id) const {
    return {after.data() + after_begin[id], after.data() + after_begin[id + 1]};
  }

  // Appends a message (its id is the current size, written into flow.id) waiting for `deps`,
  // starting `delay` after the last of them is delivered; returns its id. A dependency may name a
  // message added later (trace files refer forward); CheckDependencies finds bad ones.
  uint32_t Add(Flow flow, std::span<const uint32_t> deps = {}, Time delay = Time::Zero(),
               uint32_t job = 0, uint32_t op = kNoIndex, uint32_t iteration = kNoIndex,
               uint32_t request = kNoIndex);

  // Appends `other` after this workload's messages, renumbering its ids and its jobs, ops,
  // iterations and requests.
  void Append(const Workload& other);
};

// What happened to one message in a run, for the reports (Infinite: it did not happen).
struct MessageOutcome {
  Time started = Time::Infinite();    // its first packet could leave: dependencies met
  Time delivered = Time::Infinite();  // its last byte reached the receiver
  Time completed = Time::Infinite();  // its last ACK reached the sender
};

// A workload of independent messages (the patterns that have no dependencies), all in job 0.
Workload WorkloadOf(std::vector<Flow> flows, Job job);

// Checks that every dependency names a message of the workload other than itself and that the
// dependencies form no cycle; the error names the first offending message id.
Status CheckDependencies(const Workload& w);

}  // namespace fe
