#!/usr/bin/python3
"""Prints the near-the-floor targets from what bench/run.sh collected: each figure beside its
floor, with the load average when it was taken, and met or missed.

    phase_tables.py --work DIR --runs N --load "a b c" --cores N

DIR holds main.json (hyperfine), {static,gid255,real}.reads (bench/read_set.py), dpkg-opens.txt
("name count" lines: opens under var/lib/dpkg that succeeded), report_bench.json (Google
Benchmark, aggregates), mcp.json (bench/mcp_bench.py), wait.json (bench/wait_bench.py),
load-{main,mcp,wait,end}.txt (/proc/loadavg when each part started) and, with BUILD_TIME=1,
build_time.txt (bench/build_time.sh). Only the standard library is used.
"""

import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_tables import hyperfine, met  # noqa: E402  (one reader of hyperfine's JSON)

# The targets of this phase (bench/README.md, "Baseline before the performance work").
STATIC_VS_READS = 1.5  # the static report at most 1.5x the read floor of its own file set
LIVE_VS_TRUE = 3.0  # the live probe of a machine without DOCA at most 3x /bin/true
MCP_VS_IN_PROCESS = 1.2  # a warm report call at most 1.2x report_bench's static run
MCP_RSS_GROWTH_MB = 1.0  # over 10,000 calls
MCP_PING_MS = 10.0  # ping's round trip while 100 calls are in flight
WAIT_POLL_MS = 1.0  # one check --wait evaluation, device and port requirements
BUILD_S = 150.0  # clean build of the product on 2 cores


def read(work, name, default=None):
    path = os.path.join(work, name)
    if not os.path.exists(path):
        return default
    with open(path) as f:
        return json.load(f) if name.endswith(".json") else f.read().strip()


def lines(path):
    with open(path) as f:
        return sum(1 for _ in f)


def google_median_ms(document, name):
    """The median aggregate of benchmark `name`, in ms."""
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
    for bench in document["benchmarks"]:
        if bench["name"] == f"{name}_median":
            return bench["real_time"] * scale[bench["time_unit"]]
    return None


def cmd_phase(args):
    work = args.work
    main = hyperfine(os.path.join(work, "main.json"))
    load = {part: read(work, f"load-{part}.txt", "?") for part in ("main", "mcp", "wait", "end")}
    rows = []  # (target, figure, floor, ratio, load, verdict)

    def ms(name):
        return main[name][0]

    true = ms("true")
    for name, floor, label in (("static", "floor-reads", "bench root (8 functions, 8-entry GID tables)"),
                               ("static-gid255", "floor-reads-gid255", "bench root, 255-entry GID tables"),
                               ("static-real", "floor-reads-real", "real-size root (8 PFs + 8 VFs, 255-entry GID tables)")):
        reads = lines(os.path.join(work, {"floor-reads": "static", "floor-reads-gid255": "gid255",
                                          "floor-reads-real": "real"}[floor] + ".reads"))
        ratio = ms(name) / ms(floor)
        verdict = met(ratio <= STATIC_VS_READS) if name != "static-gid255" else "(not a target)"
        rows.append((f"static report ≤ {STATIC_VS_READS:g}× its read floor: {label}",
                     f"{ms(name):.2f} ms ({main[name][3]:.2f} ms CPU)",
                     f"{ms(floor):.2f} ms: {reads:,} files and directories",
                     f"{ratio:.2f}× ({main[name][3] / main[floor][3]:.2f}× CPU)", load["main"], verdict))
    here = ms("live-here")
    rows.append((f"live probe of this machine (no DOCA) ≤ {LIVE_VS_TRUE:g}× `/bin/true`",
                 f"{here:.2f} ms ({main['live-here'][3]:.2f} ms CPU)", f"`/bin/true` {true:.2f} ms",
                 f"{here / true:.2f}×", load["main"], met(here <= LIVE_VS_TRUE * true)))
    if "floor-worker" in main:
        rows.append(("(floor) the worker child alone: fork, dlopen libibverbs, list devices",
                     f"{ms('floor-worker'):.2f} ms", f"`/bin/true` {true:.2f} ms",
                     f"{ms('floor-worker') / true:.2f}×", load["main"], "–"))

    opens = {}
    for line in (read(work, "dpkg-opens.txt", "") or "").splitlines():
        name, count = line.split()
        opens[name] = int(count)
    unneeded = [n for n in ("healthy-realdb", "live-here") if opens.get(n, 0) > 0]
    needed = [n for n in ("integrity-realdb", "owner-realdb") if opens.get(n, 0) == 0]
    rows.append(("package database read only when a fix needs an owner or integrity is asked for "
                 "(files opened under var/lib/dpkg, strace)",
                 "; ".join(f"{n}: {c}" for n, c in opens.items()), "0 when not needed", "–",
                 load["main"], met(not unneeded and not needed)))
    for name, base, label in (("healthy-realdb", "healthy-nodb", "healthy dpkg install, real-size database, no fix needs it"),
                              ("integrity-realdb", "integrity-nodb", "`--integrity`, real-size database"),
                              ("owner-realdb", "owner-nodb", "a fix that names a file's package, real-size database"),
                              ("owner-fixturedb", "owner-nodb", "the same fix, the fixture's own database (14 packages)"),
                              ("live-here-integrity", "live-here", "this machine, `report --integrity` (its own dpkg database)")):
        rows.append((label, f"{ms(name):.2f} ms", f"{ms(base):.2f} ms without ({base})",
                     f"{ms(name) - ms(base):+.2f} ms", load["main"], "–"))

    rows.append(("GID tables live: `ibv_query_gid_table` in the worker", "not measured: no RDMA "
                 "hardware here", "–", "–", "–", "–"))

    bench = read(work, "report_bench.json")
    mcp = read(work, "mcp.json")
    if bench and mcp:
        in_process = google_median_ms(bench, "BM_probe_all_static")
        emit = google_median_ms(bench, "BM_emit_report")
        call = mcp["report"]["median"]
        rows.append((f"warm MCP server: a `report` call on the bench root ≤ {MCP_VS_IN_PROCESS:g}× "
                     "report_bench's static run",
                     f"{call:.2f} ms median of {mcp['report']['n']} (quartiles {mcp['report']['q1']:.2f}–"
                     f"{mcp['report']['q3']:.2f}); `ping` {mcp['ping']['median'] * 1000:.0f} µs",
                     f"BM_probe_all_static {in_process:.2f} ms (+ BM_emit_report {emit:.2f} ms)",
                     f"{call / in_process:.2f}× ({call / (in_process + emit):.2f}× with the document)",
                     load["mcp"], met(call <= MCP_VS_IN_PROCESS * in_process)))
        rss = mcp["rss"]
        growth = (rss["after_all_kb"] - rss["after_first_kb"]) / 1024
        warm = (rss["after_all_kb"] - rss["after_warm_kb"]) / 1024
        rows.append((f"warm MCP server: RSS growth over {rss['calls']:,} calls ≤ {MCP_RSS_GROWTH_MB:g} MB",
                     f"{growth:+.2f} MB ({rss['after_first_kb'] / 1024:.1f} → {rss['after_all_kb'] / 1024:.1f} MB; "
                     f"{warm:+.2f} MB after the first {rss['warm_calls']})", "–", "–", load["mcp"],
                     met(growth <= MCP_RSS_GROWTH_MB)))
        burst = mcp["burst"]
        ping = burst["ping"] or {"median": float("nan"), "max": float("nan"), "n": 0}
        rows.append((f"warm MCP server: {burst['calls']} calls in flight answered as they complete, "
                     f"`ping` < {MCP_PING_MS:g} ms meanwhile",
                     f"{burst['documents']} documents, {burst['refused']} refused (--max-calls "
                     f"{mcp['max_calls']}), the last at {burst['last_answer_ms']:.0f} ms; ping median "
                     f"{ping['median']:.2f} ms, max {ping['max']:.2f} ms ({ping['n']} pings)", "–", "–",
                     load["mcp"],
                     met(burst["documents"] == burst["calls"] and ping["max"] < MCP_PING_MS)))

    wait = read(work, "wait.json")
    if wait:
        for name, label in (("device", "device requirement"), ("port", "port requirements")):
            figure = wait[name]["per_evaluation_ms"]
            rows.append((f"`check --wait`: one evaluation ≤ {WAIT_POLL_MS:g} ms, {label} "
                         f"(`{wait[name]['requirement']}`)",
                         f"{figure:.2f} ms ({'/'.join(map(str, wait[name]['evaluations']))} evaluations "
                         f"in {wait[name]['wait_s']:g} s)", "–", f"{figure / WAIT_POLL_MS:.1f}× the target",
                         load["wait"], met(figure <= WAIT_POLL_MS)))

    build = read(work, "build_time.txt")
    found = re.search(r"wall ([0-9.]+) s", build or "")
    if found:
        wall = float(found.group(1))
        before = re.search(r"load average before: ([0-9. ]+) on", build)
        rows.append((f"clean build of the product ≤ {BUILD_S:g} s on 2 cores (bench/build_time.sh)",
                     f"{wall:.0f} s", "–", f"{wall / BUILD_S:.2f}× the target",
                     before.group(1).strip() if before else "?", met(wall <= BUILD_S)))
    else:
        rows.append((f"clean build of the product ≤ {BUILD_S:g} s on 2 cores",
                     "not run: `BUILD_TIME=1 bench/run.sh ...` or `bench/build_time.sh` (minutes "
                     "of both cores)", "–", "–", "–", "–"))

    print(f"Near-the-floor targets: hyperfine, {args.runs} runs each, medians; load average at the "
          f"start {args.load}, at the end {load['end']} ({args.cores} cores).")
    print()
    print("| target | figure | floor | ratio | load average | verdict |")
    print("| --- | --- | --- | --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", required=True)
    parser.add_argument("--runs", type=int, default=0)
    parser.add_argument("--load", default="?")
    parser.add_argument("--cores", default="?")
    cmd_phase(parser.parse_args(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
