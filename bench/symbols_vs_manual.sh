#!/usr/bin/env bash
# Times `rdmi-probe symbols` (the whole audit: ELF, headers, loader prediction, dlopen+dlsym+dlvsym
# of every name in a child, JSON) on generated versioned libraries of 20,000 and 100,000
# symbols, against `readelf --dyn-syms -W` plus `nm -D` on the same file; prints the medians.
# Usage: bench/symbols_vs_manual.sh [BUILD_DIR] [RUNS]
set -euo pipefail
build=${1:-build}
runs=${2:-15}
probe=$(realpath "$build/rdmi-probe")
[[ -x $probe ]] || { echo "build $build first" >&2; exit 2; }
# Generated under the (root- or user-owned, not group-writable) build dir, so the probe trusts
# and loads it; /tmp would do too.
work=$(realpath "$build")/bench-symbols
rm -rf "$work"
mkdir -p "$work"
chmod 755 "$work"
trap '[[ -n ${KEEP:-} ]] || rm -rf "$work"' EXIT

/usr/bin/python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
for count in (20000, 100000):
    names = ["doca_bench_fn_%d" % i for i in range(count)]
    exp = lambda i: i % 3 == 0
    d = f"{work}/{count}"
    import os
    os.makedirs(d + "/include", exist_ok=True)
    with open(f"{d}/lib.s", "w") as f:
        f.write("\t.text\n")
        for n in names:
            f.write(f"\t.globl {n}\n\t.type {n}, @function\n{n}:\n\tret\n\t.size {n}, .-{n}\n")
    with open(f"{d}/lib.map", "w") as f:
        f.write("BENCH_1.0 {\n\tglobal:\n")
        f.writelines(f"\t\t{n};\n" for i, n in enumerate(names) if not exp(i))
        f.write("\tlocal:\n\t\t*;\n};\nEXPERIMENTAL {\n\tglobal:\n")
        f.writelines(f"\t\t{n};\n" for i, n in enumerate(names) if exp(i))
        f.write("} BENCH_1.0;\n")
    with open(f"{d}/include/doca_bench.h", "w") as f:
        for i, n in enumerate(names):
            f.write(("DOCA_EXPERIMENTAL" if exp(i) else "DOCA_STABLE") +
                    f"\nint {n}(struct doca_bench *b,\n\tint arg /* {i} */);\n\n")
PY
for count in 20000 100000; do
  d=$work/$count
  cc -shared -nostdlib -Wl,-soname,libdoca_bench.so.1 -Wl,--version-script="$d/lib.map" \
     "$d/lib.s" -o "$d/libdoca_bench.so.1"
done

/usr/bin/python3 - "$probe" "$work" "$runs" <<'PY'
import statistics, subprocess, sys, time
probe, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])

def median_ms(argv_list):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for argv in argv_list:
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)

rows = {}
for count in (20000, 100000):
    d = f"{work}/{count}"
    lib = f"{d}/libdoca_bench.so.1"
    audit = [probe, "symbols", "--json", "--lib", lib, "--headers", f"{d}/include", "--timeout", "120"]
    check = subprocess.run(audit, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    import json
    doc = json.loads(check.stdout)
    assert doc["counts"]["experimental"] == (count + 2) // 3, doc["counts"]
    assert doc["runtime"]["loaded"] and doc["runtime"]["resolved"] == count, doc["runtime"]
    rows[count] = {
        "rdmi-probe symbols --json (static + runtime)": median_ms([audit]),
        "rdmi-probe symbols --json --root (static only)": None,
        "readelf --dyn-syms -W + nm -D": median_ms([["readelf", "--dyn-syms", "-W", lib], ["nm", "-D", lib]]),
    }
    rows[count]["rdmi-probe symbols --json --root (static only)"] = median_ms(
        [[probe, "symbols", "--json", "--root", work, "--lib", f"/{count}/libdoca_bench.so.1",
          "--headers", f"/{count}/include"]])
print(f"medians of {runs} runs")
for count, r in rows.items():
    for name, ms in r.items():
        print(f"{count:>7} symbols  {ms:9.1f} ms  {name}")
for name in rows[20000]:
    print(f"100k/20k ratio {rows[100000][name] / rows[20000][name]:4.1f}  {name}")
PY
