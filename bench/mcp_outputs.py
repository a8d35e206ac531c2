#!/usr/bin/python3
"""Writes what `rdmi-probe mcp` answers for each tool on each root, for bench/same_output.sh.

    mcp_outputs.py PROBE OUT_DIR ROOT...

One server (`PROBE mcp --allow-root` each root's parent directory) answers, for every ROOT,
tools/call of report, env, caps, state, symbols and check (check with a version, a symbol, the
port and the consistency requirements, so every kind of requirement is judged). Each answer's
`result` (the document as text and as structuredContent, or the isError text) is written to
OUT_DIR/<root's name>.<tool>, as canonical JSON with what differs between two runs of the same
binary blanked: the run's duration, and the name of the server's temporary directory in the
check document's spec_path. SOURCE_DATE_EPOCH comes from the caller's
environment. Only the standard library is used.
"""

import json
import os
import re
import subprocess
import sys

INIT = {"protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "mcp_outputs", "version": "1"}}
TOOLS = {
    "report": {},
    "env": {},
    "caps": {},
    "state": {},
    "symbols": {},
    "check": {"min_version": "3.3", "require_stable": ["doca_rdmi_poster_post"],
              "require_port_active": True, "require_consistent": True},
}
DURATION = re.compile(r'("duration_ms": ?)[0-9.eE+-]+')
# The check tool's policy file lives in the server's own temporary directory (mkdtemp), which
# the document names as its spec_path.
SERVER_TEMP = re.compile(r"rdmi-probe-mcp\.[A-Za-z0-9]{6}")


def blank(value):
    """The result with every duration_ms blanked, in the text and in the structured copy."""
    if isinstance(value, dict):
        return {k: ("X" if k == "duration_ms" else blank(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [blank(v) for v in value]
    if isinstance(value, str):
        return SERVER_TEMP.sub("rdmi-probe-mcp.X", DURATION.sub(r"\1X", value))
    return value


def main(argv):
    if len(argv) < 3:
        raise SystemExit("usage: mcp_outputs.py PROBE OUT_DIR ROOT...")
    probe, out_dir, roots = argv[0], argv[1], [os.path.realpath(r) for r in argv[2:]]
    allowed = sorted({os.path.dirname(r) for r in roots})
    argv = [probe, "mcp", *[a for d in allowed for a in ("--allow-root", d)]]
    requests = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": INIT},
                {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    names = {}
    for root in roots:
        for tool, arguments in TOOLS.items():
            rid = len(names) + 1
            names[rid] = f"{os.path.basename(root)}.{tool}"
            requests.append({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                             "params": {"name": tool, "arguments": {"root": root, **arguments}}})
    # One call at a time (the reader waits for each answer before the next request), so the
    # server's --max-calls never refuses one.
    server = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    os.makedirs(out_dir, exist_ok=True)
    answered = 0
    for request in requests:
        server.stdin.write(json.dumps(request).encode() + b"\n")
        server.stdin.flush()
        if "id" not in request:
            continue
        while True:
            line = server.stdout.readline()
            if not line:
                raise SystemExit(f"mcp_outputs: the server ended before answering {request['id']}")
            message = json.loads(line)
            if message.get("id") == request["id"] and "method" not in message:
                break
        if request["id"] in names:
            answer = blank(message.get("result", message.get("error")))
            with open(os.path.join(out_dir, names[request["id"]]), "w") as f:
                json.dump(answer, f, indent=1, sort_keys=True)
                f.write("\n")
            answered += 1
    server.stdin.close()
    code = server.wait(timeout=60)
    with open(os.path.join(out_dir, "server.exit"), "w") as f:
        f.write(f"exit {code}\n")
    return 0 if answered == len(names) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
