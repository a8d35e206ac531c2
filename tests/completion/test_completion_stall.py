#!/usr/bin/python3
"""A TAB press on a --root whose listing blocks (a hung mount, made with an LD_PRELOAD shim)
ends, with nothing offered, instead of hanging the shell.

    test_completion_stall.py --binary rdmi-probe --stall-lib LIB --fixture-root DIR
"""
import argparse
import os
import subprocess
import sys
import time

# The program's deadline is 1 s; this leaves room for a loaded machine, and is far below the
# shim's 600 s stall.
BOUND_S = 10.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--stall-lib", required=True)
    ap.add_argument("--fixture-root", required=True)
    args = ap.parse_args()
    line = [args.binary, "__complete", "--", "rdmi-probe", "--root", args.fixture_root,
            "report", "--device", "mlx"]
    problems = []
    unstalled = subprocess.run(line, capture_output=True, text=True, timeout=BOUND_S)
    if "mlx5_0" not in unstalled.stdout.split("\n"):
        problems.append(f"no stall: mlx5_0 not offered: {unstalled.stdout!r}")
    for call in ("readdir", "readlinkat"):
        env = dict(os.environ, LD_PRELOAD=args.stall_lib, STALL_LISTING=call)
        started = time.monotonic()
        # start_new_session: a shell's TAB runs it in its own process group; the test must not
        # take a signal meant for the program.
        proc = subprocess.Popen(line, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            out, _ = proc.communicate(timeout=BOUND_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            problems.append(f"{call} blocked: the TAB press still hangs after {BOUND_S} s")
            continue
        took = time.monotonic() - started
        if proc.returncode == 0 and b"mlx5_0" in out.split(b"\n"):
            problems.append(f"{call} blocked, yet the answer came with devices: {out!r}")
        print(f"{call} blocked: ended in {took:.2f} s, exit {proc.returncode}")
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
