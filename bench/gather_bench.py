#!/usr/bin/python3
"""Figures for `rdmi-probe gather` on the bench root (prints; asserts nothing).

    bench/gather_bench.py BUILD [RUNS]     (BUILD: a build with -DBUILD_TESTING=ON)

Builds the bench root as bench/CMakeLists.txt does (make_bench_root.py: the complete DOCA 3.3
fixture install plus 8 ConnectX-7 PCI functions) under BUILD/bench/roots/ when it is missing,
then runs `gather --root ROOT --output B.tar.gz` RUNS times (default 30) and the replay
`--root B.tar.gz report --json` 10 times. The machine is shared: the figure is CPU time
(user + system, from the kernel's accounting of the child), not wall time, with the load
average before and after. Targets: gather <= 50 ms, bundle <= 1 MB.
"""
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def cpu_ms(argv, env):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    result = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    wall = (time.monotonic() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode not in (0, 1, 3):
        sys.exit(f"gather_bench: {' '.join(argv)}: exit {result.returncode}: {result.stderr}")
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return cpu, wall


def main():
    build = os.path.realpath(sys.argv[1] if len(sys.argv) > 1 else "build-test")
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    probe = os.path.join(build, "rdmi-probe")
    root = os.path.join(build, "bench", "roots", "complete-3.3-8fn")
    if not os.path.exists(os.path.join(root, ".rdmi-sysfs-fixture")):
        doca = os.path.join(build, "tests", "fixtures", "roots", "complete-3.3")
        subprocess.run([sys.executable, os.path.join(HERE, "make_bench_root.py"), root,
                        "--functions", "8", "--doca-root", doca], check=True)
    load_before = open("/proc/loadavg").read().split()[:3]
    env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")
    with tempfile.TemporaryDirectory() as work:
        env["TMPDIR"] = work
        bundle = os.path.join(work, "bench.tar.gz")
        gather = [cpu_ms([probe, "--root", root, "gather", "--output", bundle], env)
                  for _ in range(runs)]
        size = os.path.getsize(bundle)
        report = [cpu_ms([probe, "--root", root, "report", "--json"], env) for _ in range(10)]
        replay = [cpu_ms([probe, "--root", bundle, "report", "--json"], env) for _ in range(10)]
    load_after = open("/proc/loadavg").read().split()[:3]
    print(f"load average before: {' '.join(load_before)}; after: {' '.join(load_after)}")
    print("| command | CPU median (ms) | CPU min (ms) | wall median (ms) |")
    print("| --- | ---: | ---: | ---: |")
    for name, figures in (("gather --root BENCH --output B.tar.gz", gather),
                          ("report --json --root BENCH (for scale)", report),
                          ("report --json --root B.tar.gz (replay)", replay)):
        cpu = [c for c, _ in figures]
        wall = [w for _, w in figures]
        print(f"| {name} | {statistics.median(cpu):.1f} | {min(cpu):.1f} | "
              f"{statistics.median(wall):.1f} |")
    print(f"bundle size: {size} bytes ({size / 1e6:.3f} MB)")
    gather_cpu = statistics.median(c for c, _ in gather)
    print(f"target gather <= 50 ms CPU: {'met' if gather_cpu <= 50 else 'MISSED'} "
          f"({gather_cpu:.1f} ms); bundle <= 1 MB: {'met' if size <= 1_000_000 else 'MISSED'}")


if __name__ == "__main__":
    main()
