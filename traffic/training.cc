#include "traffic/training.h"

#include <algorithm>
#include <utility>

#include "core/random.h"
#include "traffic/collective/collective.h"
#include "traffic/compute_only.h"
#include "traffic/ready_at.h"

namespace fe {
namespace {

// The compute times of one iteration: every stage and microbatch computes for the same time.
struct Draws {
  Time forward, backward, optimizer;
};

// The later of a rank's own moment and the arrival of messages it waits for. Where the two have
// no common form (the rank's moment is a compute after messages, not a delivery), the arrival is
// the later one, in the two places that happens:
// - the first stage's last backwards in 1F1B, with tensor parallel 1: the gradient it waits for
//   left the second stage at least a backward after the previous gradient reached the first
//   stage, which is when the first stage's previous backward, of the same length, started;
// - a gradient AllReduce completing at the first stage: it completes there only after the rank
//   has sent its own share, which it does once its backward is done.
ReadyAt LaterOrArrival(const ReadyAt& own, const ReadyAt& arrival) {
  std::optional<ReadyAt> both = Later(own, arrival);
  return both ? *std::move(both) : arrival;
}

class Builder {
 public:
  Builder(const TrainingSpec& spec, Workload* w)
      : spec_(spec),
        w_(*w),
        ready_(spec.layout.ranks(), ReadyAt{{}, Time::Zero(), spec.start}),
        backward_start_(spec.layout.ranks()) {}

  Status Iteration(uint32_t k, const Draws& d) {
    w_.iterations.push_back(
        {0, k, Time::Zero(), spec_.checkpoint.has_value() && spec_.checkpoint->After(k)});
    if (Status s = Pipeline(k, d); !s.ok()) return s;
    if (Status s = GradientAllReduce(k, d); !s.ok()) return s;
    End(k, d);
    return Status::Ok();
  }

 private:
  uint32_t Host(uint32_t rank) const { return spec_.rank_hosts[rank]; }

  // Runs every stage's 1F1B steps, a step as soon as the message it needs has been added.
  Status Pipeline(uint32_t k, const Draws& d) {
    const uint32_t p = spec_.layout.pp, m = spec_.microbatches;
    std::vector<std::vector<PipelineStep>> steps(p);
    for (uint32_t s = 0; s < p; ++s) steps[s] = OneForwardOneBackward(s, p, m);
    // The first id of the dp x tp messages a stage sent after microbatch j's pass, by replica
    // and tensor-parallel index: forward to the next stage, backward to the previous one.
    std::vector<std::vector<uint32_t>> forward_sent(p, std::vector<uint32_t>(m, kNoIndex));
    std::vector<std::vector<uint32_t>> backward_sent = forward_sent;
    std::vector<size_t> next(p, 0);
    for (bool progressed = true; progressed;) {
      progressed = false;
      for (uint32_t s = 0; s < p; ++s) {
        while (next[s] < steps[s].size()) {
          const PipelineStep step = steps[s][next[s]];
          const uint32_t j = step.microbatch;
          uint32_t arrivals = kNoIndex;
          if (step.forward && s > 0) arrivals = forward_sent[s - 1][j];
          if (!step.forward && s + 1 < p) arrivals = backward_sent[s + 1][j];
          const bool needs_input = step.forward ? s > 0 : s + 1 < p;
          if (needs_input && arrivals == kNoIndex) break;
          StatusOr<uint32_t> sent = Step(k, s, step, arrivals, d);
          if (!sent.ok()) return sent.status();
          (step.forward ? forward_sent : backward_sent)[s][j] = *sent;
          ++next[s];
          progressed = true;
        }
      }
    }
    return Status::Ok();
  }

  // One pass of one microbatch on every rank of stage s; returns the first of the messages sent
  // to the neighbouring stage (kNoIndex: none).
  StatusOr<uint32_t> Step(uint32_t k, uint32_t s, PipelineStep step, uint32_t arrivals,
                          const Draws& d) {
    const TrainingLayout& L = spec_.layout;
    const Time compute = step.forward ? d.forward : d.backward;
    const bool last_backward = !step.forward && step.microbatch + 1 == spec_.microbatches;
    for (uint32_t replica = 0; replica < L.dp; ++replica) {
      for (uint32_t t = 0; t < L.tp; ++t) {
        const uint32_t r = L.Rank(s, replica, t);
        if (arrivals != kNoIndex) {
          ready_[r] =
              LaterOrArrival(ready_[r], ready_[r].Delivered({arrivals + replica * L.tp + t}));
        }
        if (last_backward) backward_start_[r] = ready_[r];
        ready_[r] = ready_[r].After(compute);
      }
      if (L.tp > 1) {
        // The tensor-parallel ranks exchange their partial results before the stage goes on.
        std::vector<uint32_t> group(L.tp);
        for (uint32_t t = 0; t < L.tp; ++t) group[t] = L.Rank(s, replica, t);
        if (Status st = AllReduce(group, spec_.tensor_parallel_bytes, k); !st.ok()) return st;
      }
    }
    const bool sends = step.forward ? s + 1 < L.pp : s > 0;
    if (!sends) return kNoIndex;
    const uint32_t to = step.forward ? s + 1 : s - 1;
    const auto op = static_cast<uint32_t>(w_.ops.size());
    w_.ops.push_back({0, k, CollectiveKind::kSendRecv, CollectiveAlgorithm::kDirect,
                      spec_.activation_bytes, 2 * L.dp * L.tp, 1});
    const auto first = static_cast<uint32_t>(w_.size());
    for (uint32_t replica = 0; replica < L.dp; ++replica) {
      for (uint32_t t = 0; t < L.tp; ++t) {
        const uint32_t r = L.Rank(s, replica, t);
        Flow f;
        f.src_host = Host(r);
        f.dst_host = Host(L.Rank(to, replica, t));
        f.size_bytes = spec_.activation_bytes;
        // Pipeline sends block, as Megatron-LM's do: the rank computes again once it is delivered.
        ready_[r] = ready_[r].Delivered({ready_[r].Send(f, 0, op, k, &w_)});
      }
    }
    return first;
  }

  // An AllReduce over `ranks`, each starting at its ready_ moment; each rank is ready again when
  // it completes there.
  Status AllReduce(std::span<const uint32_t> ranks, uint64_t bytes, uint32_t k) {
    std::vector<ReadyAt> at(ranks.size());
    for (size_t i = 0; i < ranks.size(); ++i) at[i] = ready_[ranks[i]];
    StatusOr<std::vector<RankGate>> done = AllReduceFrom(ranks, bytes, at, k);
    if (!done.ok()) return done.status();
    for (size_t i = 0; i < ranks.size(); ++i) {
      ready_[ranks[i]] = at[i].Delivered(std::move((*done)[i]));
    }
    return Status::Ok();
  }

  // AppendCollective takes one delay for all ranks: the ranks of a group run the same steps with
  // the same compute times, so their moments share it.
  StatusOr<std::vector<RankGate>> AllReduceFrom(std::span<const uint32_t> ranks, uint64_t bytes,
                                                std::span<const ReadyAt> at, uint32_t k) {
    CollectiveSpec c;
    c.kind = CollectiveKind::kAllReduce;
    c.algorithm = CollectiveAlgorithm::kRing;
    c.size_bytes = bytes;
    c.channels = spec_.channels;
    std::vector<RankGate> after(ranks.size());
    Time start = Time::Zero(), delay = Time::Zero();
    for (size_t i = 0; i < ranks.size(); ++i) {
      c.ranks.push_back(Host(ranks[i]));
      after[i] = at[i].gate;
      start = std::max(start, at[i].not_before);
      if (!at[i].gate.empty()) delay = at[i].delay;
    }
    for (const ReadyAt& a : at) {
      if (!a.gate.empty() && a.delay != delay) {
        return Status::Error("the ranks of one collective reached it after different computes");
      }
    }
    return AppendCollective(c, after, start, delay, 0, k, &w_);
  }

  // The gradient buckets of every data-parallel group (one stage, one tensor-parallel index),
  // each starting when the last backward pass has computed it.
  Status GradientAllReduce(uint32_t k, const Draws& d) {
    const TrainingLayout& L = spec_.layout;
    if (L.dp == 1) return Status::Ok();
    const uint32_t buckets = spec_.gradient_buckets;
    std::vector<std::vector<uint32_t>> done(L.ranks());
    std::vector<uint32_t> group(L.dp);
    std::vector<ReadyAt> at(L.dp);
    for (uint32_t s = 0; s < L.pp; ++s) {
      for (uint32_t t = 0; t < L.tp; ++t) {
        for (uint32_t b = 0; b < buckets; ++b) {
          // Backpropagation computes the buckets in turn; without overlap all wait for the end.
          const Time computed =
              spec_.overlap ? Time::FromPs(d.backward.ps() * (b + 1) / buckets) : d.backward;
          for (uint32_t replica = 0; replica < L.dp; ++replica) {
            group[replica] = L.Rank(s, replica, t);
            at[replica] = backward_start_[group[replica]].After(computed);
          }
          StatusOr<std::vector<RankGate>> gates = AllReduceFrom(group, spec_.bucket_bytes, at, k);
          if (!gates.ok()) return gates.status();
          for (uint32_t replica = 0; replica < L.dp; ++replica) {
            const RankGate& g = (*gates)[replica];
            done[group[replica]].insert(done[group[replica]].end(), g.begin(), g.end());
          }
        }
      }
    }
    for (uint32_t r = 0; r < L.ranks(); ++r) {
      ready_[r] = LaterOrArrival(ready_[r], ready_[r].Delivered(std::move(done[r])));
    }
    return Status::Ok();
  }

  // The optimizer step, and the checkpoint if the iteration ends with one. Without one, the
  // step delays the first stage, whose next forward every later stage waits for.
  void End(uint32_t k, const Draws& d) {
    const TrainingLayout& L = spec_.layout;
    if (!w_.iterations.back().checkpoint) {
      for (uint32_t r = 0; r < L.dp * L.tp; ++r) ready_[r] = ready_[r].After(d.optimizer);
      return;
    }
    std::vector<ReadyAt> at(L.ranks());
    for (uint32_t r = 0; r < L.ranks(); ++r) at[r] = ready_[r].After(d.optimizer);
    const std::vector<uint32_t> writes =
        AppendCheckpoint(*spec_.checkpoint, spec_.rank_hosts, at, 0, k, &w_);
    for (uint32_t r = 0; r < L.ranks(); ++r) ready_[r] = at[r].Delivered({writes[r]});
  }

  const TrainingSpec& spec_;
  Workload& w_;
  std::vector<ReadyAt> ready_;           // by rank: when it may compute or send next
  std::vector<ReadyAt> backward_start_;  // by rank: the start of the iteration's last backward
};

// Iteration k's compute: the span, in the compute-only schedule, from the end of iteration k - 1
// (the job's start for k = 0) to the last start of its messages.
void SetIterationCompute(Time job_start, Workload* w) {
  const std::vector<Time> starts = ComputeOnlyStarts(*w);
  std::vector<Time> end(w->iterations.size(), job_start);
  for (uint32_t i = 0; i < w->size(); ++i) {
    Time& e = end[w->iteration_of[i]];
    e = std::max(e, starts[i]);
  }
  Time previous = job_start;
  for (size_t k = 0; k < end.size(); ++k) {
    w->iterations[k].compute = end[k] - previous;
    previous = end[k];
  }
}

}  // namespace

StatusOr<Workload> BuildTraining(const TrainingSpec& spec, Job job, uint64_t seed) {
  Workload w;
  w.jobs.push_back(std::move(job));
  Random rng(seed);
  Builder builder(spec, &w);
  for (uint32_t k = 0; k < spec.iterations; ++k) {
    Draws d;
    d.forward = spec.forward.Draw(rng);
    d.backward = spec.backward.Draw(rng);
    d.optimizer = spec.optimizer.Draw(rng);
    if (Status s = builder.Iteration(k, d); !s.ok()) return s;
  }
  SetIterationCompute(spec.start, &w);
  return w;
}

}  // namespace fe
