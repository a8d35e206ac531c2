#!/usr/bin/python3
"""Counts what one `report` call costs a warm `rdmi-probe mcp` server: system calls and page
faults, figures the machine's load does not move.

    mcp_call_cost.py PROBE ROOT [--calls N]

Runs the server twice under `strace -f -c` and twice under `/usr/bin/time -v` (server and its
call children together): once with N report calls on ROOT one after the other (default 300) and
once with none (initialize only), and prints the difference divided by N as JSON: system calls
per call (and the ten most frequent), minor page faults per call. Needs strace and GNU time.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

INIT = {"protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "mcp_call_cost", "version": "1"}}


def requests(root, calls):
    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": INIT},
             {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    for i in range(calls):
        lines.append({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call",
                      "params": {"name": "report", "arguments": {"root": root}}})
    return [json.dumps(line).encode() + b"\n" for line in lines]


def drive(argv, root, calls):
    """Runs argv (a wrapped server), one request at a time; returns the wrapper's stderr."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
        for line in requests(root, calls):
            proc.stdin.write(line)
            proc.stdin.flush()
            if b'"id"' in line:
                while True:
                    answer = proc.stdout.readline()
                    if not answer:
                        raise SystemExit("mcp_call_cost: the server ended early")
                    if b'"method"' not in answer[:40]:
                        break
        proc.stdin.close()
        proc.stdout.read()
        proc.wait(timeout=120)
        err.seek(0)
        return err.read().decode(errors="replace")


def strace_counts(text):
    counts = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 5 and parts[0][0].isdigit() and not line.startswith("100.00"):
            name = parts[-1]
            calls = int(parts[3])
            counts[name] = counts.get(name, 0) + calls
    return counts


def faults(text):
    match = re.search(r"Minor \(reclaiming a frame\) page faults: (\d+)", text)
    return int(match.group(1)) if match else 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("probe")
    parser.add_argument("root")
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args(argv)
    root = os.path.realpath(args.root)
    server = [os.path.realpath(args.probe), "mcp", "--allow-root", os.path.dirname(root)]
    strace = ["strace", "-f", "-c", "-o", "/dev/stderr"]
    with_calls = strace_counts(drive(strace + server, root, args.calls))
    without = strace_counts(drive(strace + server, root, 0))
    per_call = {k: (v - without.get(k, 0)) / args.calls for k, v in with_calls.items()}
    time_v = ["/usr/bin/time", "-v"]
    fault_calls = faults(drive(time_v + server, root, args.calls))
    fault_none = faults(drive(time_v + server, root, 0))
    top = sorted(per_call.items(), key=lambda kv: -kv[1])[:10]
    out = {"probe": args.probe, "root": root, "calls": args.calls,
           "syscalls_per_call": round(sum(per_call.values()), 1),
           "top_syscalls_per_call": {k: round(v, 1) for k, v in top},
           "minor_faults_per_call": round((fault_calls - fault_none) / args.calls, 1)}
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
