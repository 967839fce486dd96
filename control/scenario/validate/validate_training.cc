// The training section: its parallel layout against its hosts, the sizes each kind of parallelism
// needs, compute times, the checkpoint, and tensor-parallel groups inside one locality group of
// the fabric.
#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "control/scenario/training_section.h"
#include "control/scenario/validate/validate_training.h"
#include "traffic/collective/collective.h"

namespace fe::control {
namespace {

using fabric_emu::Checkpoint;
using fabric_emu::ComputeTime;
using fabric_emu::Training;

// The largest byte count a collective is given: 2^40 (1 TiB), far above any gradient bucket.
constexpr int64_t kMaxCollectiveBytes = int64_t{1} << 40;

// Repeated host fields: each a host of the fabric, none twice. Returns whether all passed.
bool CheckHostList(Validation& v, const Site& s, int field,
                   const google::protobuf::RepeatedField<int32_t>& hosts) {
  bool ok = true;
  std::set<int32_t> seen;
  for (int i = 0; i < hosts.size(); ++i) {
    const int32_t h = hosts[i];
    const auto n = v.graph ? static_cast<int64_t>(v.graph->num_hosts()) : int64_t{0};
    if (h < 0 || (v.graph && h >= n)) {
      v.out.AddAt(s.Line(field, i), s.Path(field, i),
                  "must be a host index in [0, " +
                      (v.graph ? std::to_string(n - 1) + "] (" + v.DescribeFabric() + ")"
                               : std::string("hosts-1]")) +
                      ", got " + std::to_string(h));
      ok = false;
    } else if (!seen.insert(h).second) {
      v.out.AddAt(s.Line(field, i), s.Path(field, i),
                  "host " + std::to_string(h) + " is listed twice");
      ok = false;
    }
  }
  return ok;
}

void CheckComputeTime(Validation& v, const ComputeTime& c, const Site& s) {
  v.Duration(s, ComputeTime::kMeanNsFieldNumber, c.mean_ns(),
             c.distribution() == ComputeTime::LOGNORMAL);
  v.Duration(s, ComputeTime::kStddevNsFieldNumber, c.stddev_ns(), false);
  v.Duration(s, ComputeTime::kMinNsFieldNumber, c.min_ns(), false);
  if (c.distribution() == ComputeTime::FIXED && c.stddev_ns() != 0) {
    v.out.Add(
        s, ComputeTime::kStddevNsFieldNumber,
        "a FIXED time has no deviation; choose NORMAL or LOGNORMAL, got " + Num(c.stddev_ns()));
  }
}

void CheckCheckpoint(Validation& v, const Training& t, const Checkpoint& c, const Site& s) {
  if (v.out.Present(s, Checkpoint::kEveryIterationsFieldNumber, c.has_every_iterations(),
                    "how many iterations between checkpoints")) {
    v.out.AtLeast(s, Checkpoint::kEveryIterationsFieldNumber, c.every_iterations(), 1);
  }
  v.CheckMessageBytes(s, Checkpoint::kShardBytesFieldNumber, c.has_shard_bytes(), c.shard_bytes());
  if (!v.out.Present(s, Checkpoint::kStorageHostsFieldNumber, c.storage_hosts_size() > 0,
                     "at least one storage host") ||
      !CheckHostList(v, s, Checkpoint::kStorageHostsFieldNumber, c.storage_hosts())) {
    return;
  }
  const std::set<int32_t> ranks(t.host().begin(), t.host().end());
  for (int i = 0; i < c.storage_hosts_size(); ++i) {
    if (ranks.count(c.storage_hosts(i)) == 0) continue;
    v.out.AddAt(s.Line(Checkpoint::kStorageHostsFieldNumber, i),
                s.Path(Checkpoint::kStorageHostsFieldNumber, i),
                "host " + std::to_string(c.storage_hosts(i)) +
                    " may hold a rank: a storage host is another endpoint, not in `host`");
  }
}

// Messages of one ring AllReduce of `bytes` over n ranks: 2(n - 1) steps of n sends, per channel
// and chunk of each rank's slice (as traffic/collective/ring.cc cuts them; at most, since a size
// too small for every channel uses fewer).
double RingMessages(double n, double bytes, double channels) {
  const double chunks =
      std::max(1.0, std::ceil(bytes / (channels * n * static_cast<double>(kDefaultChunkBytes))));
  return 2 * (n - 1) * n * channels * chunks;
}

}  // namespace

double ValidateTraining(Validation& v, const Training& t, const Site& s) {
  bool layout_ok = true;
  for (const int field : {Training::kDataParallelFieldNumber, Training::kTensorParallelFieldNumber,
                          Training::kPipelineParallelFieldNumber,
                          Training::kMicrobatchesFieldNumber, Training::kIterationsFieldNumber,
                          Training::kGradientBucketsFieldNumber, Training::kChannelsFieldNumber}) {
    const pb::FieldDescriptor* f = Training::descriptor()->FindFieldByNumber(field);
    const int32_t value = t.GetReflection()->GetInt32(t, f);
    layout_ok &= v.out.InRange(s, field, value, 1, 1 << 16);
  }
  const int64_t ranks = int64_t{t.data_parallel()} * t.tensor_parallel() * t.pipeline_parallel();
  if (layout_ok && ranks < 2) {
    v.out.AddWhole(s,
                   "a job of one rank sends nothing: data_parallel x tensor_parallel x "
                   "pipeline_parallel must be 2 or more");
    layout_ok = false;
  }
  const bool hosts_ok = CheckHostList(v, s, Training::kHostFieldNumber, t.host());
  if (layout_ok && t.placement() == fabric_emu::Collective::RANDOM && t.tensor_parallel() > 1) {
    v.out.Add(s, Training::kPlacementFieldNumber,
              "RANDOM scatters tensor-parallel groups over scale-up domains; choose LINEAR or "
              "TOPOLOGY_AWARE with tensor_parallel > 1");
    layout_ok = false;
  }
  if (t.data_parallel() > 1 &&
      v.out.Present(s, Training::kBucketBytesFieldNumber, t.has_bucket_bytes(),
                    "the bytes of each gradient bucket (data_parallel > 1)")) {
    v.out.InRange<int64_t>(s, Training::kBucketBytesFieldNumber, t.bucket_bytes(),
                           t.data_parallel(), kMaxCollectiveBytes,
                           "a byte per rank's slice of the ring, at most 2^40");
  }
  if (t.tensor_parallel() > 1) {
    v.out.InRange<int64_t>(s, Training::kTensorParallelBytesFieldNumber, t.tensor_parallel_bytes(),
                           t.tensor_parallel(), kMaxCollectiveBytes,
                           "tensor_parallel > 1 exchanges a byte per rank's slice at least, "
                           "at most 2^40");
  }
  if (t.pipeline_parallel() > 1) {
    v.CheckMessageBytes(s, Training::kActivationBytesFieldNumber, t.activation_bytes() > 0,
                        t.activation_bytes());
  }
  CheckComputeTime(v, t.forward(), s.Nested(Training::kForwardFieldNumber));
  CheckComputeTime(v, t.backward(), s.Nested(Training::kBackwardFieldNumber));
  CheckComputeTime(v, t.optimizer(), s.Nested(Training::kOptimizerFieldNumber));
  if (t.has_checkpoint()) {
    CheckCheckpoint(v, t, t.checkpoint(), s.Nested(Training::kCheckpointFieldNumber));
  }
  v.Duration(s, Training::kStartNsFieldNumber, t.start_ns(), false);
  if (!layout_ok || !hosts_ok) return 0;
  if (v.graph) {
    // The placement as the run makes it (RANDOM is refused above where the seed would matter).
    if (StatusOr<std::vector<uint32_t>> placed =
            TrainingRankHosts(t, *v.graph, v.scenario.run().seed());
        !placed.ok()) {
      v.out.Add(s, Training::kHostFieldNumber, placed.status().message());
    }
  }

  const double dp = t.data_parallel(), tp = t.tensor_parallel(), pp = t.pipeline_parallel();
  const double m = t.microbatches(), channels = t.channels();
  double per_iteration = 2 * (pp - 1) * m * dp * tp;
  if (tp > 1) {
    per_iteration += 2 * m * pp * dp *
                     RingMessages(tp, static_cast<double>(t.tensor_parallel_bytes()), channels);
  }
  if (dp > 1) {
    per_iteration += t.gradient_buckets() * pp * tp *
                     RingMessages(dp, static_cast<double>(t.bucket_bytes()), channels);
  }
  double messages = per_iteration * t.iterations();
  if (t.has_checkpoint() && t.checkpoint().every_iterations() > 0) {
    messages += static_cast<double>(t.iterations() / t.checkpoint().every_iterations()) *
                static_cast<double>(ranks);
  }
  return messages;
}

}  // namespace fe::control
