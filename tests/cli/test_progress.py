#!/usr/bin/python3
"""The progress status line: on a terminal's stderr only, never on a pipe, never with -q or -v.

    test_progress.py --binary BUILD/rdmi-probe --fixtures BUILD/tests/fixtures

The live report opens each device of the fixture libibverbs (LD_LIBRARY_PATH, two devices) in
its own child; with stderr on a pseudo-terminal (python's pty) it shows
"\\r\\033[Krdmi-probe: libibverbs: opening mlx5_0 (1/2)" and erases the line before the
document is written. Standard library only.
"""
import argparse
import json
import os
import pty
import subprocess
import sys

ERASE = "\r\x1b[K"


def run(binary, fixtures, args, stderr_tty):
    """(exit code, stdout, stderr) of one run; stderr on a pty when stderr_tty."""
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TERM": "xterm",
           "LD_LIBRARY_PATH": os.path.join(os.path.abspath(fixtures), "ibverbs")}
    for key in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if key in os.environ:
            env[key] = os.environ[key]
    if not stderr_tty:
        proc = subprocess.run([binary, *args], capture_output=True, env=env, timeout=60,
                              stdin=subprocess.DEVNULL)
        return proc.returncode, proc.stdout.decode(errors="replace"), \
            proc.stderr.decode(errors="replace")
    master, slave = pty.openpty()
    proc = subprocess.Popen([binary, *args], stdout=subprocess.PIPE, stderr=slave,
                            stdin=subprocess.DEVNULL, env=env)
    os.close(slave)
    err = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: every writer of the pty has closed it
            break
        if not chunk:
            break
        err += chunk
    out = proc.stdout.read()
    proc.wait(timeout=60)
    os.close(master)
    return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--fixtures", required=True)
    a = ap.parse_args()
    failures = []

    def expect(cond, what, *streams):
        if not cond:
            failures.append(what + "".join(f"\n    {s!r}" for s in streams))

    code, out, err = run(a.binary, a.fixtures, ["report", "--color", "never"], stderr_tty=True)
    expect(code in (0, 1, 3), f"tty: exit {code}", err)
    expect(ERASE + "rdmi-probe: libibverbs: opening mlx5_0 (1/2)" in err,
           "tty: the first device open is shown", err)
    expect(ERASE + "rdmi-probe: libibverbs: opening mlx5_1 (2/2)" in err,
           "tty: the last device open is always shown", err)
    expect(err.rstrip("\n").endswith(ERASE) or err.count(ERASE) >= 3,
           "tty: the status line is erased at the end", err)
    last_status = err.rfind("opening mlx5_1")
    expect(last_status >= 0 and ERASE in err[last_status:], "tty: erased after the last update",
           err)
    expect("\r" not in out and "opening" not in out, "tty: stdout carries no progress", out)

    code, out, err = run(a.binary, a.fixtures, ["report", "--json"], stderr_tty=True)
    try:
        json.loads(out)
    except ValueError as e:
        failures.append(f"tty --json: stdout is not one JSON document ({e}): {out[:200]!r}")
    expect("opening mlx5_0" in err, "tty --json: progress still goes to stderr", err)

    code, out, err = run(a.binary, a.fixtures, ["report", "--color", "never"], stderr_tty=False)
    expect(code in (0, 1, 3), f"pipe: exit {code}", err)
    expect("\r" not in err and "\x1b" not in err and "opening" not in err,
           "pipe: nothing on a stderr that is not a terminal", err)
    expect("verbs-devices" in out, "pipe: the report itself ran the device opens", out[:300])

    for flag in ("-q", "-v"):
        code, out, err = run(a.binary, a.fixtures, ["report", flag], stderr_tty=True)
        expect("opening mlx5" not in err and ERASE not in err,
               f"tty {flag}: no status line", err)

    for f in failures:
        print("FAIL:", f)
    print(f"progress: {'FAILED' if failures else 'ok'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
