#!/usr/bin/python3
"""Counts what one `check --wait` poll costs, in figures a loaded machine does not move.

    wait_counts.py PROBE ROOT [--short S] [--long S]

For the two requirement sets of wait_bench.py (device; DPA + port) on ROOT (bench/run.sh's bench
root with every port DOWN: nothing passes), runs a short and a long wait under `strace -c -f` and
under callgrind; the difference of their totals over the difference of their evaluations
(x_rdmi_probe.wait.evaluations) is the cost of one poll, the start-up and the first and last
evaluations left out. Prints one JSON object. Needs strace and valgrind.
"""

import argparse
import json
import re
import subprocess
import sys
import tempfile

REQUIREMENTS = {
    "device": ["--require-device", "0000:ff:00.0"],
    "port": ["--require-dpa", "--require-port-active"],
}


def waited(probe, root, requirement, seconds, prefix):
    return [*prefix, probe, "check", "--root", root, *requirement, "--wait", str(seconds),
            "--interval", "0.01", "--json"]


def evaluations(stdout):
    return json.loads(stdout)["x_rdmi_probe"]["wait"]["evaluations"]


def system_calls(probe, root, requirement, seconds):
    with tempfile.NamedTemporaryFile(mode="r") as counts:
        run = subprocess.run(waited(probe, root, requirement, seconds,
                                    ["strace", "-f", "-c", "-o", counts.name]),
                             capture_output=True, text=True, check=False)
        total = next(int(line.split()[3]) for line in counts if line.rstrip().endswith("total"))
    return total, evaluations(run.stdout)


def instructions(probe, root, requirement, seconds):
    run = subprocess.run(waited(probe, root, requirement, seconds,
                                ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]),
                         capture_output=True, text=True, check=False)
    return int(re.search(r"Collected : (\d+)", run.stderr).group(1)), evaluations(run.stdout)


def per_poll(count, probe, root, requirement, short, long):
    (a, ea), (b, eb) = (count(probe, root, requirement, short),
                        count(probe, root, requirement, long))
    return {"per_poll": (b - a) / (eb - ea) if eb != ea else None, "evaluations": [ea, eb]}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("probe")
    parser.add_argument("root")
    parser.add_argument("--short", type=float, default=1.0)
    parser.add_argument("--long", type=float, default=3.0)
    args = parser.parse_args(argv)
    out = {}
    for name, requirement in REQUIREMENTS.items():
        out[name] = {
            "requirement": " ".join(requirement),
            "system_calls": per_poll(system_calls, args.probe, args.root, requirement,
                                     args.short, args.long),
            "instructions": per_poll(instructions, args.probe, args.root, requirement,
                                     args.short, args.long),
        }
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
