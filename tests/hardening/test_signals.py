#!/usr/bin/python3
"""Signals end a run cleanly, each rule tested against the real binary:

  tool-<SIG>        SIGINT, SIGTERM, SIGHUP or SIGQUIT while an external tool runs (a fixture doca_caps
                    that starts a grandchild and sleeps, in its own process group): the probe
                    exits 128+N, prints "interrupted by SIG..." on stderr and, with --json, the
                    error document on stdout; the tool and its grandchild are gone
  isolated-child    SIGTERM while a vendor library call hangs in a forked child (the fixture
                    libibverbs' ibv_open_device never returns): the child is gone too
  text-mode         without --json: the message on stderr, nothing on stdout
  sigpipe           stdout closed before the document is written: exit 141, stderr silent

    test_signals.py --binary PATH --fixtures DIR [-k SUBSTRING]
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from hardening_suite import run_tests

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def base_env(extra=None):
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")}
    env.update(extra or {})
    return env


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def wait_for(predicate, seconds=20.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def children_of(pid: int):
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("PPid:") and int(line.split()[1]) == pid:
                out.append(int(entry.name))
    return out


def tool_prefix(cfg, scratch: Path) -> Path:
    prefix = scratch / "prefix"
    shutil.copytree(cfg.fixtures / "prefixes" / "complete-3.3", prefix, symlinks=True)
    tool = prefix / "tools" / "doca_caps"
    if tool.exists() or tool.is_symlink():
        tool.unlink()
    tool.write_text("#!/bin/sh\n"
                    f"echo $$ > '{scratch}/tool.pid'\n"
                    "sleep 300 &\n"
                    f"echo $! > '{scratch}/grandchild.pid'\n"
                    "wait\n")
    tool.chmod(0o755)
    return prefix


def interrupt_tool(cfg, scratch, sig, json_mode=True):
    prefix = tool_prefix(cfg, scratch)
    # --no-landlock: the tool tells its pids through files, which Landlock would refuse.
    args = [str(cfg.binary), "report", "--timeout", "60", "--doca-prefix", str(prefix),
            "--no-landlock"]
    if json_mode:
        args.append("--json")
    proc = subprocess.Popen(args, env=base_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL)
    problems = []
    pids = {}
    try:
        if not wait_for(lambda: (scratch / "grandchild.pid").exists() and
                        (scratch / "grandchild.pid").read_text().strip()):
            return ["the fixture tool was never started"]
        pids = {name: int((scratch / f"{name}.pid").read_text()) for name in ("tool", "grandchild")}
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    name = signal.Signals(sig).name
    if proc.returncode != 128 + sig:
        problems.append(f"{name}: exit {proc.returncode}, want {128 + sig}")
    if f"interrupted by {name}".encode() not in err:
        problems.append(f"{name}: stderr does not say so: {err[-300:]!r}")
    if json_mode:
        try:
            doc = json.loads(out)
            if doc["error"] != {"message": f"interrupted by {name}", "exit_code": 128 + sig}:
                problems.append(f"{name}: error document {doc['error']}")
        except ValueError:
            problems.append(f"{name}: stdout is not one JSON document: {out[:200]!r}")
    elif out:
        problems.append(f"{name}: text mode printed on stdout: {out[:200]!r}")
    for what, pid in pids.items():
        if not wait_for(lambda: not alive(pid), 5):
            problems.append(f"{name}: the {what} (pid {pid}) survived the probe")
            os.kill(pid, signal.SIGKILL)
    return problems


for _sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
    def _case(cfg, scratch, sig=_sig):
        return interrupt_tool(cfg, scratch, sig)
    _case.__name__ = f"tool_{_sig.name}"
    test(_case)


@test
def text_mode(cfg, scratch):
    return interrupt_tool(cfg, scratch, signal.SIGINT, json_mode=False)


@test
def isolated_child(cfg, scratch):
    env = base_env({"LD_LIBRARY_PATH": str(cfg.fixtures / "ibverbs"), "FAKE_IBVERBS_HANG": "mlx5_1"})
    proc = subprocess.Popen([str(cfg.binary), "report", "--json", "--timeout", "60"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    seen = {}

    def hung_child():
        now = time.monotonic()
        for pid in children_of(proc.pid):
            seen.setdefault(pid, now)
        return any(now - t > 1.0 and alive(pid) for pid, t in seen.items())

    problems = []
    try:
        if not wait_for(hung_child):
            return ["no child of the probe stayed alive: the hanging call was not reached"]
        hung = [pid for pid, t in seen.items() if alive(pid)]
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    if proc.returncode != 128 + signal.SIGTERM:
        problems.append(f"exit {proc.returncode}")
    for pid in hung:
        if not wait_for(lambda: not alive(pid), 5):
            problems.append(f"the isolated child {pid} survived")
            os.kill(pid, signal.SIGKILL)
    return problems


@test
def sigpipe(cfg, scratch):
    problems = []
    for args in (["schema", "report", "--json"], ["report", "--json", "--timeout", "5"]):
        r, w = os.pipe()
        os.close(r)
        proc = subprocess.run([str(cfg.binary), *args], env=base_env(), stdout=w, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, timeout=60)
        os.close(w)
        if proc.returncode != 141 or proc.stderr:
            problems.append(f"{args}: exit {proc.returncode} (want 141), stderr {proc.stderr[:200]!r}")
    return problems


def main():
    return run_tests(TESTS, __doc__)


if __name__ == "__main__":
    sys.exit(main())
