#!/usr/bin/env bash
# Scaling runs: devices 1 -> 512 PCI functions, exported symbols 1k -> 100k, header declarations
# 1k -> 100k. For each size: the in-process time (bench/scale_bench) and, for devices and
# symbols, the whole process (hyperfine); then a least-squares fit (per-unit cost, intercept,
# R²) and whether growth is linear. Prints three markdown tables.
#
#   cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O2 \
#         -DCMAKE_C_FLAGS=-O2 -DBUILD_TESTING=ON -DRDMI_PROBE_BENCH=ON
#   cmake --build build-bench -j2
#   bench/scaling.sh build-bench
#
# The inputs are generated once under BUILD_DIR/bench/scaling (about 40 s; kept for the next
# run, remove the directory to regenerate). RUNS caps hyperfine's runs per size (default 20).
set -euo pipefail
load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)
here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath "${1:-build-bench}")
runs=${2:-20}
probe=$build/rdmi-probe
scale=$build/bench/scale_bench
for need in "$probe" "$scale"; do
  [[ -x $need ]] || { echo "scaling.sh: $need missing: build $build with -DRDMI_PROBE_BENCH=ON" >&2; exit 2; }
done
command -v hyperfine >/dev/null || { echo "scaling.sh: hyperfine is needed (scripts/setup.sh --bench)" >&2; exit 2; }
devices=(1 2 4 8 16 32 64 128 256 512)
symbols=(1000 2000 5000 10000 20000 50000 100000)

# Under the build dir (owned by the user, not group-writable), so the live audit trusts and
# loads the libraries.
work=$build/bench/scaling
mkdir -p "$work"
chmod 755 "$work"
for n in "${devices[@]}"; do
  [[ -e $work/devices-$n/.rdmi-sysfs-fixture ]] ||
    /usr/bin/python3 "$here/make_bench_root.py" "$work/devices-$n" --functions "$n"
done
for n in "${symbols[@]}"; do
  d=$work/symbols-$n
  [[ -e $d/libdoca_bench.so ]] ||
    /usr/bin/python3 "$here/gen_versioned_lib.py" "$n" "$d/libdoca_bench" --cc "${CC:-cc}" \
      --header "$d/include/doca_bench.h"
done

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$scale" devices "${devices[@]/#/$work/devices-}" >"$out/devices.inprocess"
"$scale" symbols "${symbols[@]/#/$work/symbols-}" >"$out/symbols.inprocess"
headers=()
for n in "${symbols[@]}"; do headers+=("$work/symbols-$n/include/doca_bench.h"); done
"$scale" headers "${headers[@]}" >"$out/headers.inprocess"

# Whole processes: the exit code is the verdict on the root, not a failure (-i).
hf=(hyperfine -N -i --warmup 1 --min-runs 5 --max-runs "$runs")
args=()
for n in "${devices[@]}"; do args+=(-n "report-$n" "$probe --json --root $work/devices-$n"); done
"${hf[@]}" --export-json "$out/devices.json" "${args[@]}" >/dev/null 2>&1
args=()
for n in "${symbols[@]}"; do
  d=$work/symbols-$n
  args+=(-n "static-$n" "$probe symbols --json --root $d --lib $d/libdoca_bench.so --headers $d/include"
         -n "live-$n" "$probe symbols --json --lib $d/libdoca_bench.so --headers $d/include --timeout 120"
         -n "manual-$n" "sh -c 'readelf --dyn-syms -W $d/libdoca_bench.so; nm -D $d/libdoca_bench.so'")
done
"${hf[@]}" --export-json "$out/symbols.json" "${args[@]}" >/dev/null 2>&1

/usr/bin/python3 "$here/bench_tables.py" scaling --work "$out" \
  --load "$load_at_start" --cores "$(nproc)"
