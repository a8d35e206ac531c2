#!/usr/bin/python3
"""Counts what one `report` call costs a warm `rdmi-probe mcp` server: system calls and page
faults, figures the machine's load does not move.

    mcp_call_cost.py PROBE ROOT [--calls N]

Runs the server twice under `strace -f -c` and twice under `/usr/bin/time -v` (server and its
call children together): once with N report calls on ROOT one after the other (default 300) and
once with none (initialize only), and prints the difference divided by N as JSON: system calls
per call (and the ten most frequent), minor page faults per call. Then twice more with no
wrapper, reading the server's /proc/PID/stat before its stdin closes: the same difference split
between the server's own process (`server`: its poll loop, the fork, the compact pass, the
writes) and its reaped call children (`children`: the command each call runs), as minor page
faults and CPU time (user + system, in clock ticks: read it over many calls). Needs strace and
GNU time.
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


def drive(argv, root, calls, before_close=None):
    """Runs argv (a wrapped server), one request at a time; returns the wrapper's stderr.
    `before_close(pid)` runs once every answer has come, before stdin closes."""
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
        if before_close is not None:
            before_close(proc.pid)
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


def proc_counts(pid):
    """The server's own and its reaped children's minor faults and CPU ticks (proc(5))."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # fields[0] is the state (field 3): minflt is field 10, cminflt 11, utime..cstime 14..17.
    return {"server_faults": int(fields[7]), "children_faults": int(fields[8]),
            "server_ticks": int(fields[11]) + int(fields[12]),
            "children_ticks": int(fields[13]) + int(fields[14])}


def split_counts(server, root, calls):
    """proc_counts() of a server that answered `calls` report calls."""
    seen = {}
    drive(server, root, calls, lambda pid: seen.update(proc_counts(pid)))
    return seen


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
    split_calls = split_counts(server, root, args.calls)
    split_none = split_counts(server, root, 0)
    tick_ms = 1000.0 / os.sysconf("SC_CLK_TCK")
    split = {}
    for who in ("server", "children"):
        split[who] = {
            "minor_faults_per_call": round(
                (split_calls[who + "_faults"] - split_none[who + "_faults"]) / args.calls, 1),
            "cpu_ms_per_call": round(
                (split_calls[who + "_ticks"] - split_none[who + "_ticks"]) * tick_ms / args.calls,
                2)}
    top = sorted(per_call.items(), key=lambda kv: -kv[1])[:10]
    out = {"probe": args.probe, "root": root, "calls": args.calls,
           "syscalls_per_call": round(sum(per_call.values()), 1),
           "top_syscalls_per_call": {k: round(v, 1) for k, v in top},
           "minor_faults_per_call": round((fault_calls - fault_none) / args.calls, 1),
           "split": split}
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
