#!/usr/bin/python3
"""`rdmi-probe diff` on inputs no CLI case can hold: a 15 MB document (works, peak RSS at most
4x the two inputs), one over the 16 MiB cap (refused by its size, before reading), 10 000 levels
of nesting (clean refusal, no crash), a FIFO (no hang).

    test_diff_inputs.py --binary PATH --fixtures DIR --source DIR
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time


def big_env(path, target_bytes, marker):
    """A valid doca-env document of about target_bytes: many libraries."""
    base = json.load(open(os.path.join(SOURCE, "tests", "cli", "golden", "env_host.json")))
    entry = {"pkg_config_name": "", "installed": True, "pc_path": "/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig/" + "x" * 40}
    size = len(json.dumps(entry)) + 30
    libs = []
    for i in range(target_bytes // size):
        libs.append({**entry, "pkg_config_name": f"doca-lib{i:07d}"})
    libs[-1]["installed"] = marker
    base["libraries"] = libs
    with open(path, "w") as f:
        json.dump(base, f)
    return os.path.getsize(path)


def run(binary, *args, timeout=120):
    start = time.monotonic()
    proc = subprocess.run([binary, "diff", *args], capture_output=True, text=True, timeout=timeout)
    return proc, time.monotonic() - start


def main(argv):
    global SOURCE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--sanitized", action="store_true",
                        help="a sanitizer build: its shadow memory makes the RSS bound meaningless")
    args = parser.parse_args(argv)
    SOURCE = args.source
    problems = []
    with tempfile.TemporaryDirectory(prefix="rdmi-diff-") as tmp:
        a, b = os.path.join(tmp, "a.json"), os.path.join(tmp, "b.json")
        size = big_env(a, 15_500_000, True)
        big_env(b, 15_500_000, False)
        # --timeout bounds the whole run (the watchdog ends it 1 s later): a 50 MB diff takes
        # about 10 s in an unoptimised or sanitized build, so this size test lifts the bound.
        unbounded = ("--timeout", "3600")
        proc, secs = run(args.binary, a, b, "--json", *unbounded)
        # ru_maxrss of the children so far: this run is the first and the largest.
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
        print(f"15 MB: {size} bytes, exit {proc.returncode}, {secs:.1f} s, peak RSS {peak >> 20} MiB")
        if peak > 4 * 2 * size and not args.sanitized:
            problems.append(f"15 MB diff: peak RSS {peak} bytes, more than 4x the inputs ({2 * size})")
        if size < 14_000_000:
            problems.append(f"test setup: the big document has only {size} bytes")
        if proc.returncode != 1:
            problems.append(f"15 MB diff: exit {proc.returncode}, expected 1: {proc.stderr[:300]}")
        else:
            doc = json.loads(proc.stdout)
            if len(doc["changes"]) != 1 or not doc["changes"][0]["pointer"].endswith("/installed"):
                problems.append(f"15 MB diff: changes {doc['changes'][:3]}")
        proc, secs = run(args.binary, a, a, *unbounded)
        print(f"15 MB identical: exit {proc.returncode}, {secs:.1f} s")
        if proc.returncode != 0:
            problems.append(f"15 MB identical: exit {proc.returncode}")

        huge = os.path.join(tmp, "huge.json")
        huge_size = big_env(huge, 20_000_000, True)
        proc, secs = run(args.binary, huge, a, "--json")
        print(f"{huge_size} bytes (> 16 MiB): exit {proc.returncode} in {secs:.2f} s: {proc.stderr.strip()}")
        if huge_size <= 16 << 20:
            problems.append(f"test setup: the huge document has only {huge_size} bytes")
        if proc.returncode != 2 or "huge.json" not in proc.stderr:
            problems.append(f"over the cap: exit {proc.returncode}, stderr {proc.stderr[:300]}")
        else:
            json.loads(proc.stdout)  # the error document

        deep = os.path.join(tmp, "deep.json")
        with open(deep, "w") as f:
            f.write('{"x_rdmi_probe": {"schema": "urn:rdmi-probe:schema:doca-env"}, "a": ' + "[" * 10000 + "]" * 10000 + "}")
        proc, _ = run(args.binary, deep, deep, "--json")
        print(f"10k levels: exit {proc.returncode}: {proc.stderr.strip()}")
        if proc.returncode != 2 or "nested deeper" not in proc.stderr:
            problems.append(f"10k levels: exit {proc.returncode}, stderr {proc.stderr[:300]}")

        fifo = os.path.join(tmp, "fifo.json")
        os.mkfifo(fifo)
        proc, secs = run(args.binary, fifo, a, timeout=30)
        print(f"FIFO: exit {proc.returncode} in {secs:.1f} s: {proc.stderr.strip()}")
        if proc.returncode != 2:
            problems.append(f"FIFO: exit {proc.returncode}")
    for p in problems:
        print(f"FAIL {p}")
    print(f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
