#!/usr/bin/python3
"""rdmi-probe mcp against clients that break the protocol: each case must get the protocol's
error (or, for a notification, nothing), the server's memory must stay bounded, and the server
must keep serving and end with exit 0 when its input ends. Run under ASan/UBSan too.

    test_hostile_clients.py --binary PATH --fixtures DIR [-k SUBSTRING]

Cases: requests before initialize, a 100 MB line, invalid UTF-8, nesting 100,000 deep, 10,000
requests in one burst, a cancel of an unknown id, a duplicate in-flight id, batches at a
revision without them and at the one with them, unknown methods, bad params, messages that are
not requests, and a result over the server's size cap. Exits 1 when any case fails.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

INIT = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}


class Session:
    """One server on pipes; messages in, lines out (read by a thread, so writes never block on
    a full stdout pipe)."""

    def __init__(self, binary, extra=()):
        env = {k: v for k, v in os.environ.items() if k in ("PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")}
        self.proc = subprocess.Popen([binary, "mcp", *extra], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env)
        self.lines = []
        self.cond = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.err = []
        threading.Thread(target=lambda: self.err.extend(self.proc.stderr), daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            with self.cond:
                self.lines.append(json.loads(line))
                self.cond.notify_all()
        with self.cond:
            self.lines.append(None)
            self.cond.notify_all()

    def write(self, data: bytes):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message):
        self.write(json.dumps(message).encode() + b"\n")

    def wait_for(self, predicate, timeout=30):
        """The first line matching `predicate` (lines before it stay), or None at the end."""
        with self.cond:
            found = []

            def ready():
                for i, line in enumerate(self.lines):
                    if line is None:
                        found.append(None)
                        return True
                    if predicate(line):
                        found.append(self.lines.pop(i))
                        return True
                return False

            self.cond.wait_for(ready, timeout)
            return found[0] if found else None

    def reply(self, rid, timeout=30):
        return self.wait_for(lambda m: isinstance(m, dict) and m.get("id") == rid and "method" not in m, timeout)

    def request(self, rid, method, params=None):
        message = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.reply(rid)

    def initialize(self, version="2025-11-25"):
        reply = self.request(0, "initialize", dict(INIT, protocolVersion=version))
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return reply

    def peak_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return 0

    def close(self):
        self.proc.stdin.close()
        code = self.proc.wait(timeout=30)
        self.reader.join(timeout=5)
        return code


def error_code(reply):
    return (reply or {}).get("error", {}).get("code")


def case_before_initialize(s, cfg):
    problems = []
    if error_code(s.request(1, "tools/call", {"name": "error", "arguments": {"error": "18"}})) != -32600:
        problems.append("tools/call before initialize: not -32600")
    if error_code(s.request(2, "tools/list")) != -32600:
        problems.append("tools/list before initialize: not -32600")
    if s.request(3, "ping") != {"jsonrpc": "2.0", "id": 3, "result": {}}:
        problems.append("ping before initialize: not answered")
    if error_code(s.request(4, "initialize", {"capabilities": {}})) != -32602:
        problems.append("initialize without protocolVersion: not -32602")
    s.initialize()
    if error_code(s.request(5, "initialize", INIT)) != -32600:
        problems.append("a second initialize: not -32600")
    return problems


def case_long_line(s, cfg):
    s.initialize()
    before = s.peak_kib()
    chunk = b"a" * (1 << 20)
    for _ in range(100):
        s.write(chunk)
    s.write(b"\n")
    problems = []
    reply = s.wait_for(lambda m: m.get("id") is None and "error" in m)
    if error_code(reply) != -32700:
        problems.append(f"a 100 MB line: {reply}")
    grown = s.peak_kib() - before
    if grown > 40 * 1024:
        problems.append(f"a 100 MB line: peak memory grew by {grown} KiB (the line was held)")
    if s.request(9, "ping") is None:
        problems.append("no ping answer after the long line")
    return problems


def case_bad_bytes(s, cfg):
    s.initialize()
    problems = []
    inputs = {
        "invalid UTF-8": b'{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":"\xff\xfe"}}\n',
        "nesting 100,000 deep": b"[" * 100000 + b"]" * 100000 + b"\n",
        "nested objects 100,000 deep": b'{"a":' * 100000 + b"1" + b"}" * 100000 + b"\n",
        "truncated": b'{"jsonrpc":"2.0","id":6,"method":\n',
        "NUL": b"\0\n",
    }
    for name, data in inputs.items():
        s.write(data)
        reply = s.wait_for(lambda m: m.get("id") is None and "error" in m)
        if error_code(reply) != -32700:
            problems.append(f"{name}: {reply}")
    not_requests = {
        "a number": (b"42\n", -32600),
        "jsonrpc 1.0": (b'{"jsonrpc":"1.0","id":1,"method":"ping"}\n', -32600),
        "no method": (b'{"jsonrpc":"2.0","id":1}\n', -32600),
        "id an object": (b'{"jsonrpc":"2.0","id":{},"method":"ping"}\n', -32600),
    }
    for name, (data, code) in not_requests.items():
        s.write(data)
        reply = s.wait_for(lambda m: "error" in m)
        if error_code(reply) != code:
            problems.append(f"{name}: {reply}")
    if s.request(7, "ping") is None:
        problems.append("no ping answer after the bad input")
    return problems


def case_burst(s, cfg):
    s.initialize()
    count = 10000
    data = b"".join(json.dumps({"jsonrpc": "2.0", "id": 100 + i, "method": "ping"}).encode() + b"\n"
                    for i in range(count))
    writer = threading.Thread(target=s.write, args=(data,))
    writer.start()
    answered = 0
    for i in range(count):
        if s.reply(100 + i) is not None:
            answered += 1
    writer.join()
    return [] if answered == count else [f"burst: {answered} of {count} answered"]


def case_methods(s, cfg):
    s.initialize()
    problems = []
    checks = [
        ("unknown method", 1, "tools/explode", {}, -32601),
        ("params not an object", 2, "tools/list", [1], -32602),
        ("tools/call without name", 3, "tools/call", {}, -32602),
        ("tools/call unknown tool", 4, "tools/call", {"name": "rm"}, -32602),
        ("logging/setLevel bad level", 5, "logging/setLevel", {"level": "loud"}, -32602),
        ("resources/read unknown", 6, "resources/read", {"uri": "urn:nothing"}, -32002),
    ]
    for name, rid, method, params, code in checks:
        reply = s.request(rid, method, params)
        if error_code(reply) != code:
            problems.append(f"{name}: {reply}")
    # A cancel of an id no call has: nothing is answered, and the server goes on.
    s.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 999}})
    s.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": {"x": 1}}})
    reply = s.request(8, "ping")
    if reply != {"jsonrpc": "2.0", "id": 8, "result": {}}:
        problems.append(f"ping after a cancel of an unknown id: {reply}")
    # Arguments the tool does not take: an error result the agent can read, not a protocol error.
    reply = s.request(9, "tools/call", {"name": "error", "arguments": {"error": "18", "output": "/tmp/x"}})
    result = (reply or {}).get("result", {})
    if not result.get("isError") or "output" not in result["content"][0]["text"]:
        problems.append(f"an argument the tool does not take: {reply}")
    return problems


def case_batches(s, cfg):
    problems = []
    s.initialize("2025-11-25")
    s.write(b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n')
    reply = s.wait_for(lambda m: isinstance(m, dict) and "error" in m)
    if error_code(reply) != -32600:
        problems.append(f"a batch at 2025-11-25: {reply}")
    return problems


def case_batches_2025_03_26(s, cfg):
    problems = []
    s.initialize("2025-03-26")
    s.write(b'[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},'
            b'{"jsonrpc":"2.0","id":2,"method":"nope"},'
            b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"error","arguments":{"error":"18"}}}]\n')
    reply = s.wait_for(lambda m: isinstance(m, list))
    ids = sorted((m.get("id"), error_code(m)) for m in reply or [])
    if ids != [(1, None), (2, -32601), (3, -32600)]:
        problems.append(f"a batch at 2025-03-26: {reply}")
    s.write(b"[]\n")
    if error_code(s.wait_for(lambda m: isinstance(m, dict) and "error" in m)) != -32600:
        problems.append("an empty batch: not -32600")
    return problems


def hanging_prefix(fixtures: Path, tmp: Path) -> Path:
    prefix = tmp / "prefix"
    shutil.copytree(fixtures / "prefixes" / "complete-3.3", prefix, symlinks=True)
    for tool in ("doca_caps", "dpacc"):
        path = prefix / "tools" / tool
        path.unlink(missing_ok=True)
        path.write_text("#!/bin/sh\n# Fixture tool that never exits.\nexec sleep 600\n")
        path.chmod(0o755)
    return prefix


def case_duplicate_id(s, cfg):
    s.initialize()
    problems = []
    call = {"name": "report", "arguments": {"doca_prefix": str(cfg.prefix), "timeout": 60}}
    s.send({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": call})
    reply = s.request(7, "tools/call", {"name": "error", "arguments": {"error": "18"}})
    if error_code(reply) != -32600:
        problems.append(f"a duplicate in-flight id: {reply}")
    s.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}})
    reply = s.request(8, "ping")
    if reply != {"jsonrpc": "2.0", "id": 8, "result": {}}:
        problems.append(f"ping after the cancel: {reply}")
    cfg.after_close = lambda lines: [f"the cancelled call was answered: {m}" for m in lines
                                     if isinstance(m, dict) and m.get("id") == 7]
    return problems


def case_result_cap(s, cfg):
    s.initialize()
    reply = s.request(1, "tools/call", {"name": "schema", "arguments": {"name": "rdmi-probe-report"}})
    result = (reply or {}).get("result", {})
    text = (result.get("content") or [{}])[0].get("text", "")
    if result.get("isError") is not True or "result cap" not in text or "structuredContent" in result:
        return [f"a document over --max-result-bytes: {str(reply)[:300]}"]
    return []


CASES = {
    "before-initialize": (case_before_initialize, ()),
    "long-line": (case_long_line, ()),
    "bad-bytes": (case_bad_bytes, ()),
    "burst": (case_burst, ()),
    "methods": (case_methods, ()),
    "batches": (case_batches, ()),
    "batches-2025-03-26": (case_batches_2025_03_26, ()),
    "duplicate-id": (case_duplicate_id, ()),
    "result-cap": (case_result_cap, ("--max-result-bytes", "4096")),
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--fixtures", required=True, type=Path)
    parser.add_argument("-k", default="")
    cfg = parser.parse_args()
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        cfg.prefix = hanging_prefix(cfg.fixtures, Path(tmp))
        for name, (case, extra) in CASES.items():
            if cfg.k not in name:
                continue
            s = Session(cfg.binary, extra)
            cfg.after_close = None
            try:
                problems = case(s, cfg)
            except Exception as e:  # a broken pipe, a line that is not JSON: the server broke
                problems = [f"raised {type(e).__name__}: {e}"]
            code = s.close()
            if cfg.after_close:
                problems += cfg.after_close(s.lines)
            if code != 0:
                problems.append(f"server exit code {code}: {b''.join(s.err)[-500:]!r}")
            print(f"{'FAILED' if problems else 'ok'} {name}")
            failures.extend(f"{name}: {p}" for p in problems)
    for f in failures:
        print(f"FAILED {f}")
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
