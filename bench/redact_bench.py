#!/usr/bin/python3
"""Figures for `rdmi-probe gather --redact` on large libraries (prints; asserts nothing).

    bench/redact_bench.py BUILD [RUNS]     (BUILD: a build with -DBUILD_TESTING=ON)
    PROBE=OTHER/rdmi-probe bench/redact_bench.py BUILD   # another binary (an older build)

Makes, under BUILD/bench/redact/, the 100,000-symbol versioned library (gen_versioned_lib.py,
as bench/CMakeLists.txt does) and a 78,000-symbol one (7.6 MB, under the 8 MiB per-file cap),
and two roots from the complete DOCA 3.3 fixture install: `lib-100k` (libdoca_rdmi is the
100k-symbol library) and `lib-tree-31mb` (each of the five DOCA libraries is the 78k-symbol
one: 38 MB, of which the report maps four, so gather stores 30.5 MB of libraries). Then times `gather --root ROOT --output B.tar.gz` with and without `--redact`, RUNS
times each (default 3): CPU time (user + system of the child) and wall time, the default
--timeout (10 s) being a wall-clock bound. When BUILD/bench/redact_bench exists (a build with
-DRDMI_PROBE_BENCH=ON), it also times the redactor alone on the 100k-symbol library, which is
over the 8 MiB per-file cap and so stored by gather as a placeholder.
"""
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
LIBDIR = "opt/mellanox/doca/lib/x86_64-linux-gnu"


def run(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    result = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return result.returncode, cpu, wall, result.stderr.strip()


def library(work, symbols):
    out = os.path.join(work, f"symbols-{symbols}", "libdoca_bench")
    if not os.path.exists(out + ".so"):
        subprocess.run([sys.executable, os.path.join(HERE, "gen_versioned_lib.py"), str(symbols),
                        out, "--cc", os.environ.get("CC", "cc"), "--header",
                        os.path.join(os.path.dirname(out), "include", "doca_bench.h")],
                       check=True, stdout=subprocess.DEVNULL)
    return out + ".so"


def root_with(work, name, fixture, replacements):
    root = os.path.join(work, name)
    if not os.path.isdir(root):
        shutil.copytree(fixture, root, symlinks=True)
        for lib, source in replacements.items():
            for real in os.listdir(os.path.join(root, LIBDIR)):
                path = os.path.join(root, LIBDIR, real)
                if real.startswith(lib + ".so.") and not os.path.islink(path):
                    shutil.copyfile(source, path)
    return root


def main():
    build = os.path.realpath(sys.argv[1] if len(sys.argv) > 1 else "build-test")
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    probe = os.path.realpath(os.environ.get("PROBE", os.path.join(build, "rdmi-probe")))
    work = os.path.join(build, "bench", "redact")
    os.makedirs(work, exist_ok=True)
    fixture = os.path.join(build, "tests", "fixtures", "roots", "complete-3.3")
    lib100k = library(work, 100000)
    lib78k = library(work, 78000)
    roots = {
        "lib-100k": root_with(work, "lib-100k", fixture, {"libdoca_rdmi": lib100k}),
        "lib-tree-31mb": root_with(work, "lib-tree-31mb", fixture, {
            f"libdoca_{n}": lib78k for n in ("common", "verbs", "dpa", "rdma", "rdmi")}),
    }
    print(f"probe: {probe}; load average {open('/proc/loadavg').read().split()[:3]}")
    with tempfile.TemporaryDirectory() as out:
        for name, root in roots.items():
            size = sum(os.path.getsize(os.path.join(root, LIBDIR, f))
                       for f in os.listdir(os.path.join(root, LIBDIR))
                       if not os.path.islink(os.path.join(root, LIBDIR, f)))
            for redact in ([], ["--redact"]):
                cpus, walls = [], []
                for _ in range(runs):
                    code, cpu, wall, err = run([probe, "--root", root, "gather", *redact,
                                                "--output", os.path.join(out, "b.tar.gz")])
                    if code != 0:
                        print(f"{name} {' '.join(redact) or 'plain'}: exit {code}: {err[:200]}")
                        break
                    cpus.append(cpu)
                    walls.append(wall)
                if cpus:
                    print(f"{name} ({size / 1e6:.1f} MB of libraries) gather "
                          f"{' '.join(redact) or '(no --redact)'}: CPU median "
                          f"{statistics.median(cpus):.2f} s, wall median "
                          f"{statistics.median(walls):.2f} s ({len(cpus)} runs)")
            manifest = subprocess.run([probe, "--root", root, "gather", "--redact", "--json",
                                       "--output", os.path.join(out, "b.tar.gz")],
                                      capture_output=True, text=True).stdout
            stored = json.loads(manifest) if manifest else {}
            if "content_bytes" in stored:
                print(f"{name}: {stored['content_bytes'] / 1e6:.1f} MB stored, "
                      f"{len(stored['skipped'])} file(s) skipped")
    bench = os.path.join(build, "bench", "redact_bench")
    if os.path.exists(bench):
        subprocess.run([bench, lib100k, lib78k], check=False)
    print(f"load average after {open('/proc/loadavg').read().split()[:3]}")


if __name__ == "__main__":
    main()
