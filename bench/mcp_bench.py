#!/usr/bin/python3
"""Times a warm `rdmi-probe mcp` server from a client that keeps it running, for bench/run.sh.

    mcp_bench.py PROBE ROOT [--calls N] [--rss-calls N] [--burst N] [--max-calls N]

One server (`PROBE mcp --allow-root <ROOT's parent> --max-calls N`, default 64, the most it
allows) on pipes, newline-delimited JSON-RPC, for the whole run:
  per call  `report {root: ROOT}` N times one after the other (default 200, after 20 to warm
            up): the round trip of each, from the request's write to its result's line, the
            median and quartiles; `ping` alone the same way, the server's floor
  RSS      the server's own VmRSS (its children are the calls; they exit) after the first call,
           after the warm-up and the timed calls, and after --rss-calls report calls in all
           (default 10,000; two in flight, as many as the cores); the growth between
  burst    --burst report calls written at once (default 100), a ping every 2 ms meanwhile
           until the last call is answered: how many were answered with a document and how
           many refused (the server runs at most --max-calls at once, never more than its CPUs,
           and queues the rest: a refusal means its queue of 1,024 was full),
           the time to the last answer, and each ping's round trip while calls were in flight
Prints one JSON object (bench_tables.py reads it). Only the standard library is used.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import re
import time

INIT = {"protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "mcp_bench", "version": "1"}}


# An answer to one of this client's requests (their ids are integers): the server writes
# "jsonrpc" first, then "id".
ANSWER_ID = re.compile(rb'\{"jsonrpc":"2\.0","id":(\d+),"(?:result|error)"')


class Server:
    """The server on pipes. A reader thread stamps each answer's arrival, so the round trip
    excludes the client's own parsing backlog."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.answers = {}  # id -> (arrival, message)
        self.cond = threading.Condition()
        self.lock = threading.Lock()  # one writer at a time on stdin
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        # Only the id is taken here (from the line's start, as the server writes it): parsing a
        # 150 KB result in this thread, or in another that holds the interpreter meanwhile, would
        # delay the stamp of the ping answer behind it by the client's own work. The message is
        # parsed when it is asked for.
        for line in self.proc.stdout:
            arrival = time.perf_counter()
            match = ANSWER_ID.match(line)
            if match is None:
                continue  # a notification, or a request from the server
            with self.cond:
                self.answers[int(match.group(1))] = (arrival, line)
                self.cond.notify_all()

    def send(self, method, params=None, notify=False):
        """Writes a request (or notification); returns (id, time written)."""
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        with self.lock:
            rid = None
            if not notify:
                self.next_id += 1
                rid = message["id"] = self.next_id
            line = json.dumps(message).encode() + b"\n"
            # Stamped before the write: a thread descheduled between its write and a stamp
            # after it would see the answer arrive before the request left.
            sent = time.perf_counter()
            self.proc.stdin.write(line)
            self.proc.stdin.flush()
            return rid, sent

    def wait_raw(self, rid, timeout=60):
        """(arrival, the answer's line, unparsed)."""
        with self.cond:
            if not self.cond.wait_for(lambda: rid in self.answers, timeout):
                raise SystemExit(f"mcp_bench: no answer to request {rid} in {timeout} s")
            return self.answers.pop(rid)

    def wait(self, rid, timeout=60):
        arrival, line = self.wait_raw(rid, timeout)
        return arrival, json.loads(line)

    def call(self, method, params=None):
        """(round trip in ms, answer)."""
        rid, sent = self.send(method, params)
        arrival, message = self.wait(rid)
        return (arrival - sent) * 1000, message

    def rss_kb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def close(self):
        self.proc.stdin.close()
        return self.proc.wait(timeout=60)


def is_document(message):
    result = message.get("result") or {}
    return "structuredContent" in result and not result.get("isError")


def quartiles(values):
    q = statistics.quantiles(values, n=4) if len(values) > 1 else values * 3
    return {"median": statistics.median(values), "q1": q[0], "q3": q[2], "min": min(values),
            "max": max(values), "n": len(values)}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("probe")
    parser.add_argument("root")
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--rss-calls", type=int, default=10000)
    parser.add_argument("--burst", type=int, default=100)
    parser.add_argument("--max-calls", type=int, default=64)
    args = parser.parse_args(argv)
    root = os.path.realpath(args.root)
    server = Server([args.probe, "mcp", "--allow-root", os.path.dirname(root),
                     "--max-calls", str(args.max_calls)])
    _, init = server.call("initialize", INIT)
    if "result" not in init:
        raise SystemExit(f"mcp_bench: initialize failed: {init}")
    server.send("notifications/initialized", notify=True)
    report = {"name": "report", "arguments": {"root": root}}
    out = {"probe": args.probe, "root": root, "max_calls": args.max_calls}

    _, first = server.call("tools/call", report)
    if not is_document(first):
        raise SystemExit(f"mcp_bench: the report call returned no document: {first}")
    rss_first = server.rss_kb()
    done = 1
    for _ in range(20):
        server.call("tools/call", report)
    done += 20
    out["ping"] = quartiles([server.call("ping")[0] for _ in range(args.calls)])
    per_call = []
    for _ in range(args.calls):
        ms, answer = server.call("tools/call", report)
        if not is_document(answer):
            raise SystemExit(f"mcp_bench: a report call returned no document: {answer}")
        per_call.append(ms)
    done += args.calls
    out["report"] = quartiles(per_call)
    rss_warm = server.rss_kb()

    # Two in flight until --rss-calls report calls have run in all.
    pending = []
    while done < args.rss_calls or pending:
        while len(pending) < 2 and done + len(pending) < args.rss_calls:
            pending.append(server.send("tools/call", report)[0])
        _, answer = server.wait(pending.pop(0))
        if not is_document(answer):
            raise SystemExit(f"mcp_bench: call {done} returned no document: {answer}")
        done += 1
    rss_last = server.rss_kb()
    out["rss"] = {"calls": done, "after_first_kb": rss_first, "after_warm_kb": rss_warm,
                  "after_all_kb": rss_last, "warm_calls": 21 + args.calls}

    # The burst, with pings written every 2 ms until its last call is answered.
    ids = [server.send("tools/call", report)[0] for _ in range(args.burst)]
    started = time.perf_counter()
    pings = []
    stop = threading.Event()

    def pinger():
        while not stop.is_set():
            pings.append(server.call("ping")[0])
            stop.wait(0.002)

    thread = threading.Thread(target=pinger)
    thread.start()
    documents = refused = 0
    last = started
    lines = []
    for rid in ids:
        arrival, line = server.wait_raw(rid)
        last = max(last, arrival)
        lines.append(line)
    stop.set()
    thread.join()
    # Parsed once the pings have stopped: the client's parse is not the server's latency.
    for line in lines:
        if is_document(json.loads(line)):
            documents += 1
        else:
            refused += 1
    out["burst"] = {"calls": args.burst, "documents": documents, "refused": refused,
                    "last_answer_ms": (last - started) * 1000,
                    "ping": quartiles(pings) if pings else None,
                    # How the slow pings spread: a few behind other processes on a busy machine,
                    # or many behind the server's own work.
                    "ping_p99": (statistics.quantiles(pings, n=100)[98]
                                 if len(pings) > 1 else None),
                    "pings_over_10ms": sum(1 for p in pings if p > 10),
                    "load_average": os.getloadavg()}
    out["server_exit"] = server.close()
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
