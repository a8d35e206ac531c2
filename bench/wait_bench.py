#!/usr/bin/python3
"""Times one re-evaluation of `check --wait`, for bench/run.sh: the cost of a poll.

    wait_bench.py PROBE ROOT [--wait SECONDS] [--runs N]

ROOT is a root whose requirements never pass (bench/run.sh gives the bench root with every
port DOWN), so each run evaluates until the wait ends, pausing the least --interval allows
(0.01 s) between evaluations. The document's x_rdmi_probe.wait says how many evaluations ran
and how long the wait took (`evaluations`, `waited_s`): one evaluation costs
(waited_s - (evaluations - 1) × interval_s) / evaluations, a figure of the warm process, its
start-up left out. Two requirement sets, each run --runs times (default 3, median):
  device   --require-device 0000:ff:00.0 (a PCI function the root does not have)
  port     --require-dpa --require-port-active (the device with a DPA and an ACTIVE port)
Prints one JSON object (bench_tables.py reads it). Only the standard library is used.
"""

import argparse
import json
import statistics
import subprocess
import sys

REQUIREMENTS = {
    "device": ["--require-device", "0000:ff:00.0"],
    "port": ["--require-dpa", "--require-port-active"],
}


def per_evaluation_ms(probe, root, requirement, wait):
    run = subprocess.run([probe, "check", "--root", root, *requirement, "--wait", str(wait),
                          "--interval", "0.01", "--json"], capture_output=True, check=False)
    if run.returncode != 1:
        raise SystemExit(f"wait_bench: {' '.join(requirement)}: exit {run.returncode}, want 1 "
                         f"(a requirement that never passes): {run.stderr.decode()[-300:]}")
    waited = json.loads(run.stdout)["x_rdmi_probe"]["wait"]
    evaluations = waited["evaluations"]
    busy = waited["waited_s"] - (evaluations - 1) * waited["interval_s"]
    return busy * 1000 / evaluations, evaluations


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("probe")
    parser.add_argument("root")
    parser.add_argument("--wait", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    out = {}
    for name, requirement in REQUIREMENTS.items():
        runs = [per_evaluation_ms(args.probe, args.root, requirement, args.wait)
                for _ in range(args.runs)]
        out[name] = {"requirement": " ".join(requirement),
                     "per_evaluation_ms": statistics.median(ms for ms, _ in runs),
                     "evaluations": [n for _, n in runs], "wait_s": args.wait}
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
