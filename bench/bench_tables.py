#!/usr/bin/python3
"""Turns the raw timings bench/run.sh and bench/scaling.sh collect into markdown tables.

    bench_tables.py run --work DIR --runs N --chain-processes N --reads N --load "a b c" --cores N
    bench_tables.py scaling --work DIR --load "a b c" --cores N

run: DIR holds main.json and symbols.json (hyperfine --export-json), report.json (one
`rdmi-probe --json --root` output) and rss.txt ("name kB" lines).
scaling: DIR holds <kind>.inprocess ("units wall_ms cpu_ms runs" lines from scale_bench) and
<kind>.json (hyperfine) for kind in devices, symbols, headers (headers has no hyperfine part).
Only the standard library is used.
"""

import argparse
import json
import os
import sys

# The targets the performance work is judged on (bench/README.md, Figures).
TARGET_STATIC_MS = 10.0
TARGET_RATIO = 10.0
TARGET_RSS_MB = 16.0
TARGET_AUDIT_100K_MS = 100.0
TARGET_STATIC_VS_TRUE = 2.0  # the static probe within 2x of /bin/true in the same run
TARGET_VERSION_OVER_TRUE_MS = 0.3  # --version at most this much above /bin/true
TARGET_LIVE_VS_TRUE = 3.0  # the live probe of a machine without DOCA within 3x of /bin/true
TARGET_AUDIT_VS_MANUAL = 4.0  # the audit at least 4x faster than readelf + nm
TARGET_AUDIT_RSS_MB = 64.0


def hyperfine(path):
    """name -> (median ms, stddev ms, runs, mean CPU ms: user + system, children included)."""
    with open(path) as f:
        results = json.load(f)["results"]
    return {r["command"]: (r["median"] * 1000, (r.get("stddev") or 0) * 1000, len(r["times"]),
                           (r["user"] + r["system"]) * 1000)
            for r in results}


def met(ok):
    return "met" if ok else "**missed**"


def machine_line(args):
    return (f"Machine: {args.cores} cores, shared; load average at the start {args.load} "
            "(other builds were running: figures are medians, read them as upper bounds).")


def cmd_run(args):
    main = hyperfine(os.path.join(args.work, "main.json"))
    syms = hyperfine(os.path.join(args.work, "symbols.json"))
    rss = {}
    with open(os.path.join(args.work, "rss.txt")) as f:
        for line in f:
            name, kb = line.split()
            rss[name] = int(kb) / 1024.0
    with open(os.path.join(args.work, "report.json")) as f:
        report = json.load(f)
    devices = len(report.get("devices", {}).get("summary", []))
    doca = ((report.get("install") or {}).get("stack_versions") or {}).get("agreed")

    chain = main["chain"][0]
    chain_live = main["chain-live"][0]
    manual_syms = syms["symbols-manual"][0]

    def row(label, name, table, versus, versus_name):
        median, sd, _, cpu = table[name]
        ratio = versus / median
        speed = f"{ratio:.1f}× faster" if ratio >= 1 else f"{1 / ratio:.1f}× slower"
        mem = f"{rss[name]:.1f} MB" if name in rss else "–"
        return (f"| {label} | {median:.2f} ms ± {sd:.2f} | {cpu:.2f} ms | {speed} than "
                f"{versus_name} | {mem} |")

    def baseline(label, name, table, versus="1×"):
        median, sd, _, cpu = table[name]
        return f"| {label} | {median:.2f} ms ± {sd:.2f} | {cpu:.2f} ms | {versus} | – |"

    if args.probe:
        print(f"Binary: `{args.probe}`.")
    print(f"Bench root: the complete DOCA 3.3 fixture install with 8 PCI functions "
          f"(the report lists {devices} devices, DOCA {doca}). hyperfine, {args.runs} runs "
          f"each (symbol audits: {syms['symbols-static'][2]}), medians ± standard deviation.")
    print(machine_line(args))
    print()
    print("| command | median wall | mean CPU (user+sys) | vs the manual chain (wall) | peak RSS |")
    print("| --- | --- | --- | --- | --- |")
    print(row("`rdmi-probe --json --root ROOT` (static: install, 8 devices, symbols; no process "
              "started, nothing loaded)", "static", main, chain, "the chain"))
    if "static-gid255" in main:
        print(row("the same on the bench root with 255-entry GID tables (a ConnectX RoCE port's "
                  "size: 2,040 more files; 253 of each table's entries empty)", "static-gid255",
                  main, chain, "the chain"))
    print(row("`rdmi-probe --json --doca-prefix PREFIX` (live: loads the runtime library in a "
              "child, runs doca_caps and dpacc; this machine's /sys has no device)", "live", main,
              chain_live, "the chain + tools"))
    floor_median, floor_sd, _, floor_cpu = main["floor"]
    print(f"| `rdmi-probe --version` (the floor of any run: process start, dynamic linking, static "
          f"initialisation, CLI setup) | {floor_median:.2f} ms ± {floor_sd:.2f} | {floor_cpu:.2f} ms "
          f"| – | {rss['floor']:.1f} MB |" if "floor" in rss else
          f"| `rdmi-probe --version` (the floor of any run) | {floor_median:.2f} ms ± {floor_sd:.2f} "
          f"| {floor_cpu:.2f} ms | – | – |")
    if "live-here" in main:
        median, sd, _, cpu = main["live-here"]
        print(f"| `rdmi-probe --json` (live, this machine as it is: its libibverbs loaded in the "
              f"worker child, its /sys) | {median:.2f} ms ± {sd:.2f} | {cpu:.2f} ms | "
              f"{median / main['true'][0]:.1f}× `/bin/true` | – |")
    if "true" in main:
        print(baseline("`/bin/true` (a bare process start)", "true", main))
    if "floor-reads" in main:
        print(baseline(f"floor: the {args.reads} files and directories the static probe reads, "
                       "read by a program that does nothing else (`bench/floor reads`)",
                       "floor-reads", main, "–"))
    if "floor-worker" in main:
        print(baseline("floor: one child that loads libibverbs and lists its devices, nothing else "
                       "(`bench/floor worker`)", "floor-worker", main, "–"))
    print(baseline(f"the manual chain: {args.chain_processes} processes (pkg-config ×5, cat, ls, "
                   "readelf ×6, nm, cat /proc/modules, grep meminfo, uname, ls ×2, 5 per device)",
                   "chain", main))
    print(baseline("the manual chain + `doca_caps --version` + `dpacc --version`", "chain-live",
                   main))
    print(row("`rdmi-probe symbols --json --root` on a 100,000-symbol versioned library "
              "(static: ELF, headers, classification)", "symbols-static", syms, manual_syms,
              "readelf + nm"))
    print(row("`rdmi-probe symbols --json` live on the same library (+ dlopen and dlsym/dlvsym "
              "of every name in a child)", "symbols-live", syms, manual_syms, "readelf + nm"))
    print(baseline("`readelf --dyn-syms -W` + `nm -D` on that library", "symbols-manual", syms))
    print()
    static = main["static"][0]
    ratio = chain / static
    cpu_ratio = main["chain"][3] / main["static"][3]
    peak = max(rss.get("static", 0), rss.get("live", 0))
    audit = syms["symbols-static"][0]
    print("Targets: "
          f"static report ≤ {TARGET_STATIC_MS:g} ms: {static:.2f} ms, {met(static <= TARGET_STATIC_MS)}; "
          f"≥ {TARGET_RATIO:g}× the chain: {ratio:.1f}× ({cpu_ratio:.1f}× on CPU time), "
          f"{met(ratio >= TARGET_RATIO)}; "
          f"peak RSS ≤ {TARGET_RSS_MB:g} MB: {peak:.1f} MB, {met(peak <= TARGET_RSS_MB)}; "
          f"100k-symbol audit ≤ {TARGET_AUDIT_100K_MS:g} ms: {audit:.1f} ms (static), "
          f"{met(audit <= TARGET_AUDIT_100K_MS)}.")
    audit_rss = rss.get("symbols-static", 0)
    audit_ratio = manual_syms / audit
    print(f"100k-symbol audit ≥ {TARGET_AUDIT_VS_MANUAL:g}× faster than readelf + nm: "
          f"{audit_ratio:.2f}×, {met(audit_ratio >= TARGET_AUDIT_VS_MANUAL)}; its peak RSS ≤ "
          f"{TARGET_AUDIT_RSS_MB:g} MB: {audit_rss:.1f} MB, {met(audit_rss <= TARGET_AUDIT_RSS_MB)}.")
    if "true" in main:
        true = main["true"][0]
        print(f"Against `/bin/true` in the same run ({true:.2f} ms): static report ≤ "
              f"{TARGET_STATIC_VS_TRUE:g}×: {static / true:.2f}×, "
              f"{met(static <= TARGET_STATIC_VS_TRUE * true)}; `--version` ≤ /bin/true + "
              f"{TARGET_VERSION_OVER_TRUE_MS:g} ms: +{floor_median - true:.2f} ms, "
              f"{met(floor_median - true <= TARGET_VERSION_OVER_TRUE_MS)}.")
        if "live-here" in main:
            here = main["live-here"][0]
            print(f"The live probe of this machine ≤ {TARGET_LIVE_VS_TRUE:g}× /bin/true: "
                  f"{here / true:.2f}×, {met(here <= TARGET_LIVE_VS_TRUE * true)}.")
        floors = []
        if "floor-reads" in main:
            reads = main["floor-reads"][0]
            reads_cpu = main["floor-reads"][3] / main["true"][3]
            floors.append(f"the static probe's reads alone take {reads / true:.2f}× /bin/true "
                          f"({reads_cpu:.2f}× on CPU time; the probe is {static / reads:.2f}× "
                          "its reads)")
        if "floor-worker" in main:
            worker = main["floor-worker"][0]
            worker_cpu = main["floor-worker"][3] / main["true"][3]
            floors.append(f"the live run's worker child alone {worker / true:.2f}× /bin/true "
                          f"({worker_cpu:.2f}× on CPU time)")
        if floors:
            print("The floors under those targets, in the same run: " + "; ".join(floors) + ".")


def fit(points):
    """Least squares t = a + b n over (n, t) points: (a, b, r2)."""
    n = len(points)
    sx = sum(x for x, _ in points)
    sy = sum(y for _, y in points)
    sxx = sum(x * x for x, _ in points)
    sxy = sum(x * y for x, y in points)
    denom = n * sxx - sx * sx
    b = (n * sxy - sx * sy) / denom if denom else 0.0
    a = (sy - b * sx) / n
    mean = sy / n
    ss_tot = sum((y - mean) ** 2 for _, y in points)
    ss_res = sum((y - a - b * x) ** 2 for x, y in points)
    r2 = 1 - ss_res / ss_tot if ss_tot else 1.0
    return a, b, r2


def singular(unit):
    return unit[:-1] if unit.endswith("s") else unit


def verdict(points, unit):
    """One plain sentence: the fit, and whether the growth is linear.

    Linear means the straight line explains the times (R² ≥ 0.99) and the per-unit slope over
    the larger half of the sizes is within 1.3× of the slope over the smaller half (a quadratic
    term makes the larger half markedly steeper). When the smaller half barely moves (less than
    20% over its range: the fixed cost dominates there), the slopes are not compared."""
    points = sorted(points)
    a, b, r2 = fit(points)
    mid = len(points) // 2
    lower, upper = points[: mid + 1], points[mid:]
    _, b_lo, _ = fit(lower)
    _, b_hi, _ = fit(upper)
    line = (f"t ≈ {a:.3f} ms + {b * 1000.0:.3f} µs × {unit} (R² = {r2:.4f}); per "
            f"{singular(unit)}: {b_lo * 1000.0:.3f} µs over {lower[0][0]:,}–{lower[-1][0]:,}, "
            f"{b_hi * 1000.0:.3f} µs over {upper[0][0]:,}–{upper[-1][0]:,}.")
    lower_moves = lower[0][1] > 0 and (lower[-1][1] - lower[0][1]) / lower[0][1] >= 0.2
    if not lower_moves:
        if r2 >= 0.99:
            return ("Linear (the fixed cost dominates the smaller sizes; judged on the fit): "
                    + line)
        return "Not clearly linear (noisy, fixed-cost dominated): " + line
    ratio = b_hi / b_lo if b_lo > 0 else float("inf")
    if r2 >= 0.99 and 1 / 1.3 <= ratio <= 1.3:
        return "Linear: " + line
    if ratio > 1.3:
        return f"NOT linear: the larger sizes cost {ratio:.1f}× more per {singular(unit)}. " + line
    return "Not clearly linear (noisy, or cheaper per unit as it grows): " + line


def read_inprocess(path):
    rows = []
    with open(path) as f:
        for line in f:
            units, wall, cpu, runs = line.split()
            rows.append((int(units), float(wall), float(cpu), int(runs)))
    return rows


def scaling_table(args, kind, title, unit, columns):
    """columns: [(header, {units: ms})] measured on whole processes; the in-process CPU and wall
    times come first, and the per-unit column is the in-process CPU time's."""
    inproc = read_inprocess(os.path.join(args.work, f"{kind}.inprocess"))
    sizes = [u for u, _, _, _ in inproc]
    series = [("in-process CPU (scale_bench)", {u: cpu for u, _, cpu, _ in inproc}),
              ("in-process wall", {u: wall for u, wall, _, _ in inproc})] + columns
    print(f"### {title}")
    print()
    head = f"| {unit} | " + " | ".join(f"{h} ms" for h, _ in series) + \
        f" | in-process CPU µs per {singular(unit)} |"
    print(head)
    print("|" + " --- |" * (len(series) + 2))
    for u in sizes:
        cells = []
        for _, values in series:
            cells.append(f"{values[u]:.3f}" if u in values else "–")
        print(f"| {u:,} | " + " | ".join(cells) + f" | {series[0][1][u] * 1000.0 / u:.3f} |")
    print()
    for header, values in series:
        points = [(u, values[u]) for u in sizes if u in values]
        if len(points) >= 3:
            print(f"- {header}: {verdict(points, unit)}")
    print()


def hyperfine_series(path, prefix):
    """{units: median ms} for commands named '<prefix>-<units>'."""
    if not os.path.exists(path):
        return {}
    out = {}
    for name, (median, _, _, _) in hyperfine(path).items():
        if name.startswith(prefix + "-"):
            out[int(name[len(prefix) + 1:])] = median
    return out


def cmd_scaling(args):
    print(machine_line(args))
    print()
    dev = os.path.join(args.work, "devices.json")
    scaling_table(args, "devices", "Devices: PCI functions in the sysfs root", "functions",
                  [("`rdmi-probe --json --root` (process)", hyperfine_series(dev, "report"))])
    sym = os.path.join(args.work, "symbols.json")
    scaling_table(args, "symbols", "Exported symbols: versioned library + its header (static audit)",
                  "symbols",
                  [("`rdmi-probe symbols --json --root` (process)", hyperfine_series(sym, "static")),
                   ("`rdmi-probe symbols --json` live (process)", hyperfine_series(sym, "live")),
                   ("`readelf --dyn-syms -W` + `nm -D`", hyperfine_series(sym, "manual"))])
    scaling_table(args, "headers", "Header declarations: the annotation scanner alone",
                  "declarations", [])


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("run", "scaling"))
    parser.add_argument("--work", required=True)
    parser.add_argument("--runs", type=int, default=0)
    parser.add_argument("--chain-processes", type=int, default=0)
    parser.add_argument("--reads", type=int, default=0)
    parser.add_argument("--probe", default="")
    parser.add_argument("--load", default="?")
    parser.add_argument("--cores", default="?")
    args = parser.parse_args(argv)
    if args.mode == "run":
        cmd_run(args)
    else:
        cmd_scaling(args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
