// The event scheduler: one object per fabric, passed to every element (never a static).
// Events run in (time, insertion order), which makes a run deterministic. The scheduler holds the
// model's notion of "now"; software mode advances it to each event, real-time mode advances it
// from the TSC (see dataplane/realtime/realtime_loop) and runs what is due.
//
// Domains. A model may split its elements into domains (a fabric: one per switch and per NIC)
// that share no state except through links, whose propagation delay is at least a lookahead L.
// Software mode then runs time in windows of at most L: within a window no domain can affect
// another, so each domain runs all of its window's events in turn, with its own state hot in
// cache, instead of the fabric's events interleaving across a working set far larger than the
// caches. Events of domain 0 (samplers, tests' probes) see the whole model at one instant: no
// window spans one, and at equal times they run first. Within a domain events keep (time,
// insertion order). A window runs its domains in the order of their numbers, so the insertion
// order of what they push, and with it every tie, is fixed by the model, not by where the
// calendar happened to hold events.
//
// Cores. EnableCores spreads each window's domains over several threads (lanes), each holding
// its domains' events in a calendar of its own. What a domain does in a window is then the same
// whichever lane runs it and whenever; only what it hands on (events for later windows, Serial
// calls) could follow thread timing, and that is held in outboxes until the window ends, then
// numbered by (pushing domain's number, its count of pushes): the order one core gives. So the
// run's results are the same for every number of lanes (docs/multicore.md).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "core/clock.h"
#include "core/domain_window.h"
#include "core/event_queue.h"
#include "core/sorted_events.h"
#include "core/units.h"

namespace fe {

class LaneWorkers;

class EventHandler {
 public:
  virtual ~EventHandler() = default;
  virtual void OnEvent(uint64_t arg) = 0;
  // Called a few events before OnEvent(arg), once this object's first lines are being fetched:
  // a handler may prefetch what that event will touch, at kWarmNear what it can address from
  // its own state and arg, at kWarmDeep what those lines lead to. The misses of several events
  // then overlap instead of each stalling in turn. Changes nothing. At kWarmFixed another
  // thread may be running this handler's domain: read only what is fixed once the model is
  // built.
  static constexpr int kWarmNear = 0;
  static constexpr int kWarmDeep = 1;
  static constexpr int kWarmFixed = 2;
  virtual void Prefetch(uint64_t /*arg*/, int /*stage*/) const {}
  // The event OnEvent(arg) will never run (the model is being torn down): release what arg
  // holds, such as a frame on a wire.
  virtual void Discard(uint64_t /*arg*/) {}

  // The domain whose state this handler's events touch (see the Scheduler); 0 by default.
  uint32_t event_domain() const { return event_domain_; }
  void set_event_domain(uint32_t domain) { event_domain_ = domain; }

 private:
  uint32_t event_domain_ = 0;
};

class Scheduler {
 public:
  // Domains are numbered below this.
  static constexpr uint32_t kMaxDomains = 1u << 24;

  Scheduler();
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  const Clock& clock() const { return clock_; }
  // The running event's time (on a lane, the lane's: each runs its own domains' time).
  Time Now() const {
    const Lane* lane = t_lane_;
    return lane != nullptr ? lane->now : clock_.Now();
  }

  // Schedules handler->OnEvent(arg) at time `at` (clamped to now: the past cannot be changed),
  // in the handler's domain.
  [[gnu::always_inline]] void At(Time at, EventHandler* handler, uint64_t arg = 0) {
    AtIn(handler->event_domain(), at, handler, arg);
  }
  // The same in `domain`: an event that touches another domain's state than its handler's own
  // (a frame reaching the far end of a link). Across domains, `at` must be at least the
  // lookahead past now; a run aborts on an event that would then run out of order (one due
  // inside the window being run), the only kind that could change a result. Always inline, with
  // the calendar's append: as a call, its register saves were a third of its instructions.
  [[gnu::always_inline]] void AtIn(uint32_t domain, Time at, EventHandler* handler,
                                   uint64_t arg = 0) {
    if (Lane* lane = t_lane_) [[unlikely]] {
      lane->Push(domain, at, handler, arg);
      return;
    }
    if (at < clock_.Now()) at = clock_.Now();
    // The domain rides in the low bits of the sequence number: it keeps the event 32 bytes and
    // leaves the insertion order, in the high bits, deciding ties.
    const Event e{at, (next_seq_++ << kDomainBits) | domain, handler, arg};
    if (lookahead_ == Time::Zero()) {
      queue_.Push(e);
    } else {
      PushWindowed(e);
    }
  }
  void After(Time delay, EventHandler* handler, uint64_t arg = 0) {
    At(Now() + delay, handler, arg);
  }
  // Whether the calling thread runs a lane's share of a window (Serial calls are then deferred).
  static bool on_lane() { return t_lane_ != nullptr; }
  // Runs handler->OnEvent(arg) for a running event whose effect reaches beyond its domain's state
  // (an observer shared by every node): at once, or on several lanes at the window's end, in the
  // order one core would have run it, with Now() the calling event's time. Whatever it schedules
  // must then be due at or after the window's end.
  void Serial(EventHandler* handler, uint64_t arg) {
    if (Lane* lane = t_lane_) [[unlikely]] {
      lane->serial_calls.push_back(
          Handed{lane->now, handler, arg, kSerialCall, lane->running_domain, lane->pushes++});
      return;
    }
    handler->OnEvent(arg);
  }

  // Software mode: from now on RunUntil runs windows of at most `lookahead` (Zero: one event at
  // a time, in a single order). The model must guarantee that no event of one domain schedules
  // an event of another less than `lookahead` ahead, and `domains` must exceed every domain in
  // use. Real-time mode never enables it: its events run as the TSC reaches them.
  void EnableWindows(Time lookahead, uint32_t domains);
  // Software mode with windows: runs each window's domains on `lanes` threads, domain d on lane
  // lane_of_domain[d] (domain 0's events never run in a window; every domain in use must have an
  // entry below `lanes`). Each new thread first runs on_thread_start. Without windows (a zero
  // lookahead) events run one at a time on the caller as before. Results do not depend on
  // `lanes` or the assignment: only the speed does.
  void EnableCores(uint32_t lanes, std::vector<uint32_t> lane_of_domain,
                   const std::function<void()>& on_thread_start = {});

  bool empty() const { return pending() == 0; }
  size_t pending() const;
  // Events the running domain's window queue has room for: what it holds in memory, which must
  // follow what is pending in it rather than everything ever pushed there.
  size_t window_queue_capacity() const { return local_.capacity(); }
  uint64_t events_run() const { return events_run_; }

  // Software mode: runs events in order until none is left, the next is after `until`, or
  // max_events have run (so a caller can report progress between slices; with windows, the
  // window that reaches max_events completes). Returns how many ran.
  // start_by stops it too, but softly: no window starts after it, while one begun runs whole.
  // Where windows end decides which domain's events are pushed first and so the order of ties
  // downstream: a caller that slices the run by wall time (pacing) must not move them.
  uint64_t RunUntil(Time until, uint64_t max_events = UINT64_MAX, Time start_by = Time::Infinite());
  // Software mode: every event before this time has run, and none at or after it. An event
  // pushed from outside the run (a command) at this time lands where a schedule entry would
  // have, without cutting a window the run did not cut.
  Time ran_until() const { return ran_until_; }
  // Runs exactly one event, the earliest, if there is one; returns false when empty.
  bool RunOne();
  // RunUntil that calls before_each(due time) just before each event runs: real-time mode
  // measures from it how late each event ran. A template, so plain RunUntil pays nothing.
  template <typename BeforeEach>
  uint64_t RunUntilObserved(Time until, BeforeEach&& before_each) {
    uint64_t n = 0;
    while (!empty() && NextAt() <= until) {
      before_each(NextAt());
      RunOne();
      ++n;
    }
    return n;
  }

  // Drops every pending event unrun, letting each handler release what its event holds.
  void DiscardAll();

  // Real-time mode: moves now forward (never back) without running anything.
  void AdvanceTo(Time t) {
    if (t > clock_.Now()) clock_.AdvanceTo(t);
  }

 private:
  static constexpr int kDomainBits = kEventDomainBits;
  // How far ahead the scheduler warms events: their handler objects at three times the
  // distance, then what each handler asks for at stage 0 and (one event at a time) 1.
  static constexpr size_t kPrefetchDistance = 4;

  Time NextAt();
  // The earliest pending event of a domain other than 0 (infinite if none).
  Time DomainsNextAt();
  void Run(const Event& e) {
    clock_.AdvanceTo(e.at);
    ++events_run_;
    e.handler->OnEvent(e.arg);
  }
  // Warms the handler object of `far` and, through its handler, what `mid` will touch (at
  // `stage`); either may be null (nothing that far ahead).
  static void WarmAhead(const Event* far, const Event* mid, int stage = EventHandler::kWarmNear) {
    if (far != nullptr) {
      __builtin_prefetch(far->handler);
      __builtin_prefetch(reinterpret_cast<const char*>(far->handler) + 64);
    }
    if (mid != nullptr) mid->handler->Prefetch(mid->arg, stage);
  }
  [[gnu::always_inline]] void PushWindowed(const Event& e) {
    const uint32_t domain = DomainOf(e);
    if (in_window_ && e.at < window_end_) {
      if (domain != running_domain_) [[unlikely]] {
        LookaheadViolated(e);
      }
      local_.Push(e);
    } else if (domain == 0) {
      global_.Push(e);
    } else if (lanes_.empty()) [[likely]] {
      queue_.Push(e);
    } else {
      lanes_[lane_of_domain_[domain]]->queue.Push(e);
    }
  }
  [[noreturn]] void LookaheadViolated(const Event& e) const;
  [[noreturn]] static void Violated(uint32_t running_domain, const Event& e, Time now,
                                    Time lookahead);
  // Runs every domain event before `end`, a domain at a time; returns how many ran.
  uint64_t RunWindow(Time end);

  EventQueue queue_;  // domains' events (with lanes, each lane's queue holds its domains')
  uint64_t next_seq_ = 0;
  uint64_t events_run_ = 0;
  VirtualClock clock_;

  // Windowed mode.
  Time lookahead_ = Time::Zero();
  uint32_t domains_ = 0;
  EventHeap global_;  // domain 0's events
  // Set while a window runs: events of the running domain due before window_end_ go to local_.
  bool in_window_ = false;
  Time window_end_;
  Time ran_until_ = Time::Zero();
  uint32_t running_domain_ = 0;
  // The running domain's own events due in the window (core/sorted_events.h).
  SortedEvents local_;
  DomainWindow window_;  // one core's
  // Runs one domain's events of the window: [next, last) from the queue, merged with those it
  // pushes for the window into *local; run(e) runs one. Returns how many ran. The events from
  // warm_last on are warmed at kWarmFixed: on lanes, those past the domains this lane has
  // claimed, which another lane may be running.
  template <typename RunFn>
  static uint64_t RunDomain(const Event* next, const Event* last, const Event* warm_last,
                            SortedEvents* local, Time* latest, RunFn&& run);

  // An event a lane's domain pushed for a later window, or a Serial call, before it has its
  // sequence number: that comes from the pushing domain's number and its count of pushes in
  // the window, once the window is over.
  struct Handed {
    Time at;
    EventHandler* handler;
    uint64_t arg;
    uint32_t domain;  // the event's (kSerialCall: a Serial call)
    uint32_t sender;  // the domain that pushed it
    uint64_t index;   // among the sender's pushes and Serial calls of the window
  };
  static constexpr uint32_t kSerialCall = UINT32_MAX;

  // A thread's share of a multi-core window: the domains it holds, their events, their clock and
  // what they push. A lane writes its clock at every event: lanes share no cache line.
  struct alignas(64) Lane {
    Time now;
    Time window_end;
    Time latest;  // the latest event it ran
    Time lookahead;
    uint32_t running_domain = 0;
    uint64_t pushes = 0;  // by the running domain, this window
    uint64_t next_local_seq = 0;
    uint64_t events_run = 0;
    const uint32_t* lane_of_domain = nullptr;  // domain 0: the index past the last lane
    SortedEvents local;
    // By destination lane (and past the last, domain 0's): what the domains it ran pushed for
    // after the window, in the order made. Two sets, used by turns: the lanes receive what one
    // window handed on as the next begins, while that one's pushes go to the other set.
    std::vector<std::vector<Handed>> outboxes[2];
    std::vector<std::vector<Handed>>* outbox = &outboxes[0];
    // By destination lane, as outbox: the earliest event handed on this window (infinite if
    // none), from which the next window's start is known before the events are received.
    std::vector<Time> earliest_handed;
    std::vector<Handed> serial_calls;
    // Doubles a full outbox's room, its pages backed at once (core/prefault.h).
    [[gnu::noinline]] static void GrowOutbox(std::vector<Handed>* box);
    [[gnu::always_inline]] void Push(uint32_t domain, Time at, EventHandler* handler,
                                     uint64_t arg) {
      if (at < now) at = now;
      if (at < window_end) {
        const Event e{at, (next_local_seq++ << kDomainBits) | domain, handler, arg};
        if (domain != running_domain) [[unlikely]] {
          Violated(running_domain, e, now, lookahead);
        }
        local.Push(e);
      } else {
        const uint32_t to = lane_of_domain[domain];
        std::vector<Handed>& box = (*outbox)[to];
        if (at < earliest_handed[to]) earliest_handed[to] = at;
        if (box.size() == box.capacity()) [[unlikely]] {
          GrowOutbox(&box);
        }
        box.push_back(Handed{at, handler, arg, domain, running_domain, pushes++});
      }
    }

    // The events of the domains this lane holds, and the window's share of them.
    EventQueue queue;
    DomainWindow window;
    std::vector<uint64_t> pushes_by_rank;  // by index in window.spans(), written by who ran it
    // Set once window is grouped, for the lanes that help run it.
    alignas(64) std::atomic<bool> ready{false};
    // The ranks of window.spans() claimed this window: from the front by the lane itself (low
    // half), from the back by the lanes helping it (high half). One word, so that a claim is one
    // atomic add and two claims never overlap.
    alignas(64) std::atomic<uint64_t> claimed{0};
  };
  // The lane the calling thread runs, while it runs one (null otherwise, and always with one core).
  static constinit inline thread_local Lane* t_lane_ = nullptr;
  // Runs the window's domains on the lanes, then hands on what they pushed in one core's order.
  uint64_t RunWindowOnLanes(Time end);
  // Lane `index`'s share of a window: it groups its own domains' events, runs them, then helps
  // run what another lane has not begun (claimed kClaimRanks at a time, so a claim costs little
  // against the events it brings).
  void RunLane(uint32_t index, Time end);
  // Claims up to kClaimRanks of `owner`'s window's ranks not yet claimed: its first ones for the
  // owner, its last ones for a lane helping it. Returns [first, last), empty once all are taken.
  static std::pair<uint32_t, uint32_t> Claim(Lane* owner, bool helping);
  // Runs the domain of `owner`'s window at `rank` on `lane`; warm_last ends the lane's claim.
  void RunRank(Lane* lane, Lane* owner, uint32_t rank, const Event* warm_last);
  static constexpr uint32_t kClaimRanks = 4;
  // After the window: gives each pushing domain of the window the first number of its pushes
  // (offset_ by domain), in the order of the domains' numbers; returns the pushes in all.
  uint64_t NumberPushes();
  // Lane `index` puts what every lane pushed for its domains into its queue, numbered from base:
  // what the lanes' outboxes[parity] hold.
  void Receive(uint32_t index, uint64_t base, uint32_t parity);
  // A handed event with its sequence number, its window's pushes numbered from base.
  Event Numbered(const Handed& h, uint64_t base) const {
    return Event{h.at, ((base + offset_[h.sender] + h.index) << kDomainBits) | h.domain, h.handler,
                 h.arg};
  }
  // Numbers what a window handed on, puts domain 0's share into the caller's heap, and leaves
  // the rest for the lanes to receive as the next window begins (handed_).
  void HandOn(uint32_t parity);
  // Has the lanes receive what the last window handed on, if it waits still: before anyone
  // outside a run looks at the queues.
  void ReceiveHanded();
  // After a window with Serial calls: everything handed on, and the calls, in one core's order
  // on the caller's thread, since a call may read any node's state.
  void HandOverInOrder(Time end);
  // Every pending event, taken out of where it waits; and put back where the mode keeps it.
  std::vector<Event> TakePending();
  void Repush(const std::vector<Event>& pending);
  std::vector<std::unique_ptr<Lane>> lanes_;
  std::vector<uint32_t> lane_of_domain_;
  std::vector<uint64_t> offset_;  // by domain: the first number of its pushes in the window
  std::vector<Handed> in_order_;
  std::unique_ptr<LaneWorkers> workers_;
  // The set of outboxes the next window's lanes push to.
  uint32_t outbox_parity_ = 0;
  // What the last window on lanes handed on to the lanes' domains, while it waits in the other
  // set of outboxes for the next window's lanes to receive it: numbered from `base`, due at
  // `next_at` at the earliest. Receiving it as the next window starts spares every window a
  // second round of the lanes.
  struct {
    bool pending = false;
    uint64_t base = 0;
    size_t count = 0;
    Time next_at;
  } handed_;
  // Past a window's last event, sentinels whose handler does nothing, so that the run can warm
  // the events kWarmAheadSlots places on without testing where the window ends.
  static constexpr size_t kWarmAheadSlots = 3 * kPrefetchDistance;
  class NoEvent final : public EventHandler {
   public:
    void OnEvent(uint64_t /*arg*/) override {}
  };
  NoEvent no_event_;
};

template <typename RunFn>
[[gnu::always_inline]] inline uint64_t Scheduler::RunDomain(const Event* next,
                                                            const Event* const last,
                                                            const Event* const warm_last,
                                                            SortedEvents* local, Time* latest,
                                                            RunFn&& run) {
  uint64_t n = 0;
  for (;;) {
    if (!local->empty() && (next == last || local->top().Before(*next))) {
      const Event e = local->Pop();
      if (e.at > *latest) *latest = e.at;
      run(e);
      ++n;
      continue;
    }
    if (next == last) break;
    // The window's events are known in order: warm the ones a few places on, across domains
    // (the sentinels past the last make every place valid). Stage 0 only: what stage 1 warms
    // (the receiving node's output port, queue and counters) is already in cache when a node's
    // events run together, and its parse and route would be done twice (k = 8 and 16: 2 to 5%
    // faster without; +15% CPU at k = 16 even with the route kept for the receive).
    const Event* const mid = next + 2 * kPrefetchDistance;
    WarmAhead(next + 3 * kPrefetchDistance, mid,
              mid < warm_last ? EventHandler::kWarmNear : EventHandler::kWarmFixed);
    // The window's events do not move while it runs: the event can be run where it is.
    const Event& e = *next++;
    if (e.at > *latest) *latest = e.at;
    run(e);
    ++n;
  }
  return n;
}

}  // namespace fe
