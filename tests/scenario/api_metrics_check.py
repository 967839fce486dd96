#!/usr/bin/env python3
"""Checks a final /metrics scrape against the run's summary.json: every counter the two share
must be equal (exact for integers; paused time to 1e-9 relative, the rounding of two printings of
the same picosecond count). Usage: api_metrics_check.py METRICS SUMMARY {software|realtime}."""
import json
import re
import sys

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse(path):
    samples = {}
    for line in open(path):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        assert m, "malformed line: " + line
        labels = tuple(sorted(LABEL.findall(m.group(2) or "")))
        samples.setdefault(m.group(1), {})[labels] = float(m.group(3))
    return samples


def total(samples, name):
    return sum(samples.get(name, {}).values())


def one(samples, name, **labels):
    return samples[name][tuple(sorted(labels.items()))]


failures = []


def check(what, got, want, rel=0.0):
    ok = got == want if rel == 0 else abs(got - want) <= rel * max(abs(want), 1e-12)
    if not ok:
        failures.append(f"{what}: metrics {got}, summary.json {want}")


m = parse(sys.argv[1])
s = json.load(open(sys.argv[2]))
mode = sys.argv[3]
check("run finished", one(m, "fabric_emu_run_finished"), 1)
check("packet hops", one(m, "fabric_emu_packet_hops_total"), s["packet_hops"])

if mode == "software":
    check("wire bytes", one(m, "fabric_emu_wire_bytes_total"), s["wire_bytes"])
    for reason, n in s["drops"]["by_reason"].items():
        check("drops " + reason, one(m, "fabric_emu_drops_total", reason=reason), n)
    check("events", one(m, "fabric_emu_events_total"), s["events"])
    # The run's length: its last completion, not where the clock stopped after the timers.
    check("simulated time", one(m, "fabric_emu_simulated_time_seconds") * 1e9,
          s["simulated_time_ns"], rel=1e-12)
    check("bytes sent", total(m, "fabric_emu_nic_sent_payload_bytes_total"), s["bytes_sent"])
    check("bytes delivered", total(m, "fabric_emu_nic_received_payload_bytes_total"),
          s["bytes_delivered"])
    check("packets sent", total(m, "fabric_emu_nic_sent_data_packets_total"), s["packets_sent"])
    check("retransmitted", total(m, "fabric_emu_nic_retransmitted_packets_total"),
          s["retransmissions"]["packets"])
    check("cnps sent", total(m, "fabric_emu_nic_cnps_sent_total"), s["cnps"]["sent"])
    check("cnps received", total(m, "fabric_emu_nic_cnps_received_total"), s["cnps"]["received"])
    check("flows completed", one(m, "fabric_emu_flows", state="completed"), s["flows_completed"])
    check("fct count", one(m, "fabric_emu_flow_completion_time_seconds_count"),
          s["flows_completed"])
    # summary.json lists the queues where anything happened; every other queue's counters are 0.
    listed = set()
    for q in s["switch_queues"]:
        key = dict(switch=q["switch"], port=str(q["port"]), priority=str(q["queue"]))
        listed.add(tuple(sorted(key.items())))
        where = "{switch} port {port} priority {priority}: ".format(**key)
        check(where + "ecn marks", one(m, "fabric_emu_queue_ecn_marks_total", **key),
              q["ecn_marks"])
        check(where + "pause sent", one(m, "fabric_emu_queue_pause_frames_sent_total", **key),
              q["pause_frames_sent"])
        check(where + "resume sent", one(m, "fabric_emu_queue_resume_frames_sent_total", **key),
              q["resume_frames_sent"])
        check(where + "pause received",
              one(m, "fabric_emu_queue_pause_frames_received_total", **key),
              q["pause_frames_received"])
        check(where + "paused time", one(m, "fabric_emu_queue_paused_seconds_total", **key) * 1e9,
              q["paused_time_ns"], rel=1e-9)
        check(where + "max depth", one(m, "fabric_emu_queue_max_depth_bytes", **key),
              q["max_depth_bytes"])
        for reason in ("queue_limit", "headroom_overflow", "wred_drop", "pfc_watchdog"):
            check(where + "drops " + reason,
                  one(m, "fabric_emu_queue_drops_total", reason=reason, **key),
                  q["drops"].get(reason, 0))
    for name in ("fabric_emu_queue_ecn_marks_total", "fabric_emu_queue_pause_frames_sent_total",
                 "fabric_emu_queue_pause_frames_received_total"):
        for labels, v in m[name].items():
            if labels not in listed:
                check(f"{name}{dict(labels)} (not in summary.json)", v, 0)
    check("ecn marks in all", total(m, "fabric_emu_queue_ecn_marks_total"),
          sum(q["ecn_marks"] for q in s["switch_queues"]))
    for h in s["paused_host_uplinks"]:
        key = dict(host=f"h{h['host']}", priority=str(h["queue"]))  # fat-tree host names
        check(f"host {h['host']} pause received",
              one(m, "fabric_emu_host_pause_frames_received_total", **key),
              h["pause_frames_received"])
else:
    for reason, n in s["fabric_drops"].items():
        check("fabric drops " + reason, one(m, "fabric_emu_drops_total", reason=reason), n)
    check("lateness events", one(m, "fabric_emu_event_lateness_seconds_count"),
          s["lateness"]["events"])
    check("events", one(m, "fabric_emu_events_total"), s["events_run"])

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("metrics equal summary.json")
