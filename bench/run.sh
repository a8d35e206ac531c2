#!/usr/bin/env bash
# Reproduces bench/README.md's table of Figures:
#
#   cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O2 \
#         -DCMAKE_C_FLAGS=-O2 -DBUILD_TESTING=ON -DRDMI_PROBE_BENCH=ON
#   cmake --build build-bench -j2
#   bench/run.sh build-bench [RUNS]
#   PROBE=build/rdmi-probe bench/run.sh build-bench [RUNS]   # time the default build's binary
#
# Times, with hyperfine (50 runs by default), `rdmi-probe --json --root ROOT` on the bench root
# (the complete DOCA 3.3 fixture install with 8 PCI functions, built by bench/CMakeLists.txt),
# the live `rdmi-probe --json --doca-prefix PREFIX` (loads the runtime library, runs doca_caps and
# dpacc; it sees this machine's /sys), the live `rdmi-probe --json` of this machine as it is, the
# manual chain that yields the facts the report gives, each command the separate process a user
# would run (written out below), /bin/true (a bare process start: the floor the probe is judged
# against) and bench/floor's two floors under the near-the-floor targets (the static probe's
# reads alone; the live run's worker child alone), all in one hyperfine run. Then the
# symbol audit of a 100,000-symbol library against readelf + nm, and the probe's peak RSS.
#
# Then the figures of the near-the-floor targets, each beside its floor (bench/README.md,
# "Baseline before the performance work"): the static report of the bench root and of the
# real-size root (8 PFs + 8 VFs, 255-entry GID tables; make_bench_root.py --pfs 8 --vfs-per-pf 1)
# each against the read floor of its own file set, measured in the same hyperfine run; the
# package database (bench/make_dpkg_database.py: a dpkg database of a real host's size) read
# only when a fix needs an owner or integrity is asked for, in both cases and in neither; the
# warm MCP server (bench/mcp_bench.py) against report_bench's static run; the cost of one
# `check --wait` evaluation (bench/wait_bench.py); the clean build with BUILD_TIME=1
# (bench/build_time.sh, some minutes of both cores). The load average is printed with each.
# Prints markdown tables and the targets met or missed. Asserts nothing else.
set -euo pipefail
load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)
here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath "${1:-build-bench}")
runs=${2:-50}
probe=$(realpath "${PROBE:-$build/rdmi-probe}")  # PROBE=: another build's binary, e.g. the default one
root=$build/bench/roots/complete-3.3-8fn
prefix=$build/tests/fixtures/prefixes/complete-3.3
lib100k=$build/bench/symbols-100000
for tool in hyperfine pkg-config readelf nm strace /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool is needed (scripts/setup.sh --bench)" >&2; exit 2; }
done
floor=$build/bench/floor
for need in "$probe" "$floor" "$root/.rdmi-sysfs-fixture" "$prefix" "$lib100k/libdoca_bench.so"; do
  [[ -e $need ]] || { echo "run.sh: $need missing: build $build with -DBUILD_TESTING=ON -DRDMI_PROBE_BENCH=ON" >&2; exit 2; }
done

work=$(mktemp -d)
trap '[[ -n ${KEEP:-} ]] && echo "kept $work" >&2 || rm -rf "$work"' EXIT
doca=$root/opt/mellanox/doca
libdir=$doca/lib/x86_64-linux-gnu

# The manual chain: one line, one process (plus the shell that runs them). pkg-config is pointed
# at the root's .pc files, whose distro links are absolute (in-root) paths.
{
  echo "export PKG_CONFIG_PATH=$libdir/pkgconfig"
  for module in doca-common doca-verbs doca-dpa doca-rdmi; do
    echo "pkg-config --modversion $module"
  done
  echo "pkg-config --variable prefix doca-common"
  echo "cat $doca/applications/VERSION"
  echo "ls $doca/include"
  for lib in common verbs dpa rdma rdmi; do
    echo "readelf -d $libdir/libdoca_$lib.so"  # the soname the install section reports
  done
  echo "readelf --dyn-syms -W $libdir/libdoca_rdmi.so"  # the symbols section's audit
  echo "nm -D $libdir/libdoca_rdmi.so"
  echo "cat $root/proc/modules"
  echo "grep Huge $root/proc/meminfo"
  echo "uname -r"
  echo "ls $root/sys/bus/platform/devices"
  echo "ls -l $root/dev/infiniband"
  for fn in "$root"/sys/bus/pci/devices/*; do
    d=$(realpath "$fn")
    netdev=$(ls "$d/net")
    ibdev=$(ls "$d/infiniband")
    port=$d/infiniband/$ibdev/ports/1
    echo "cat $d/vendor $d/device $d/subsystem_vendor $d/subsystem_device"
    echo "ls $d/net $d/infiniband"
    echo "cat $d/net/$netdev/operstate $d/net/$netdev/mtu $d/net/$netdev/address"
    echo "cat $d/infiniband/$ibdev/fw_ver $d/infiniband/$ibdev/node_guid"
    echo "cat $port/state $port/phys_state $port/link_layer"
  done
} >"$work/chain.sh"
# What the live probe runs besides: the tools it asks for versions.
{ cat "$work/chain.sh"; echo "$prefix/tools/doca_caps --version"; echo "$prefix/tools/dpacc --version"; } \
  >"$work/chain-live.sh"
chain_processes=$(($(wc -l <"$work/chain.sh") - 1))
sh -e "$work/chain-live.sh" >/dev/null || { echo "run.sh: the manual chain fails" >&2; exit 2; }
"$probe" --json --root "$root" >"$work/report.json" || true  # exit code: the verdict, not success

# The bench root again with 255-entry GID tables: sysfs has a file per entry of the hardware
# table, used or not, and a ConnectX RoCE port's table is that large (the bench root has 8).
/usr/bin/python3 "$here/make_bench_root.py" "$work/root-gid255" --functions 8 \
  --doca-root "$build/tests/fixtures/roots/complete-3.3" --gid-table 255 >/dev/null

# The real-size host: 8 PFs with one VF each, every port's GID table at 255 entries.
/usr/bin/python3 "$here/make_bench_root.py" "$work/root-real" --pfs 8 --vfs-per-pf 1 \
  --doca-root "$build/tests/fixtures/roots/complete-3.3" --gid-table 255 >/dev/null

# The floors under the near-the-floor targets (bench/floor.c): every file and directory the static
# probe reads, read by a program that does nothing else (for each root its own file set); and the
# one worker child a live run starts, loading libibverbs and listing its devices, with nothing
# else around it.
floors=()
for which in static:"$root" gid255:"$work/root-gid255" real:"$work/root-real"; do
  name=${which%%:*} dir=${which#*:}
  strace -f -y -e trace=openat,openat2,getdents64 -o "$work/$name.strace" \
    "$probe" --json --root "$dir" >/dev/null 2>&1 || true
  /usr/bin/python3 "$here/read_set.py" "$work/$name.strace" --under "$dir" >"$work/$name.reads"
  "$floor" reads "$work/$name.reads" || { echo "run.sh: the read floor of $dir fails" >&2; exit 2; }
  suffix=${name#static}
  floors+=(-n "floor-reads${suffix:+-$suffix}" "$floor reads $work/$name.reads")
done
if "$floor" worker libibverbs.so.1 2>/dev/null; then
  floors+=(-n floor-worker "$floor worker libibverbs.so.1")
fi

# The package database at a real host's size (make_dpkg_database.py: 1,000 more packages, a
# 1 MB status file, 2,000 info files) under two fixture roots: one with a DOCA library its .pc
# file disagrees with (the fix names the package that owns the file: the database is read) and
# the healthy dpkg install (read only with --integrity); each also without any database.
fixtures=$build/tests/fixtures/roots
for name in dpkg-dpa-mismatch dpkg-complete; do
  cp -a "$fixtures/$name" "$work/$name-realdb"
  /usr/bin/python3 "$here/make_dpkg_database.py" "$work/$name-realdb"
  cp -a "$fixtures/$name" "$work/$name-nodb"
  rm -rf "$work/$name-nodb/var/lib/dpkg"
done
# Which runs open the database at all (strace: opens under var/lib/dpkg that succeed).
dpkg_opens() {
  strace -f -e trace=openat,openat2 -o "$work/dpkg.strace" "$@" >/dev/null 2>&1 || true
  grep 'var/lib/dpkg' "$work/dpkg.strace" | grep -vc '= -1' || true
}
{
  echo "healthy-realdb $(dpkg_opens "$probe" --json --root "$work/dpkg-complete-realdb")"
  echo "integrity-realdb $(dpkg_opens "$probe" --json --integrity --root "$work/dpkg-complete-realdb")"
  echo "owner-realdb $(dpkg_opens "$probe" --json --root "$work/dpkg-dpa-mismatch-realdb")"
  echo "live-here $(dpkg_opens "$probe" --json)"
  echo "live-here-integrity $(dpkg_opens "$probe" report --json --integrity)"
} >"$work/dpkg-opens.txt"
cut -d' ' -f1-3 /proc/loadavg >"$work/load-main.txt"

hyperfine -N -i --warmup 5 --runs "$runs" --export-json "$work/main.json" \
  -n static "$probe --json --root $root" \
  -n static-gid255 "$probe --json --root $work/root-gid255" \
  -n static-real "$probe --json --root $work/root-real" \
  -n healthy-realdb "$probe --json --root $work/dpkg-complete-realdb" \
  -n healthy-nodb "$probe --json --root $work/dpkg-complete-nodb" \
  -n integrity-realdb "$probe --json --integrity --root $work/dpkg-complete-realdb" \
  -n integrity-nodb "$probe --json --integrity --root $work/dpkg-complete-nodb" \
  -n owner-realdb "$probe --json --root $work/dpkg-dpa-mismatch-realdb" \
  -n owner-fixturedb "$probe --json --root $fixtures/dpkg-dpa-mismatch" \
  -n owner-nodb "$probe --json --root $work/dpkg-dpa-mismatch-nodb" \
  -n live-here-integrity "$probe report --json --integrity" \
  -n live "$probe --json --doca-prefix $prefix" \
  -n live-here "$probe --json" \
  -n floor "$probe --version" \
  -n true /bin/true \
  "${floors[@]}" \
  -n chain "sh $work/chain.sh" \
  -n chain-live "sh $work/chain-live.sh" >/dev/null 2>&1
lib=/libdoca_bench.so
hyperfine -N -i --warmup 2 --runs "$(((runs + 4) / 5))" --export-json "$work/symbols.json" \
  -n symbols-static "$probe symbols --json --root $lib100k --lib $lib100k$lib --headers $lib100k/include" \
  -n symbols-live "$probe symbols --json --lib $lib100k$lib --headers $lib100k/include --timeout 120" \
  -n symbols-manual "sh -c 'readelf --dyn-syms -W $lib100k$lib; nm -D $lib100k$lib'" >/dev/null 2>&1

# Peak RSS (kB, the largest of 5 runs) of each probe form.
peak() {
  local max=0 kb
  for _ in 1 2 3 4 5; do
    /usr/bin/time -f %M -o "$work/rss" "$@" >/dev/null 2>&1 || true
    kb=$(tail -1 "$work/rss")
    ((kb > max)) && max=$kb
  done
  echo "$max"
}
{
  echo "floor $(peak "$probe" --version)"
  echo "static $(peak "$probe" --json --root "$root")"
  echo "live $(peak "$probe" --json --doca-prefix "$prefix")"
  echo "symbols-static $(peak "$probe" symbols --json --root "$lib100k" --lib "$lib100k$lib" --headers "$lib100k/include")"
  echo "symbols-live $(peak "$probe" symbols --json --lib "$lib100k$lib" --headers "$lib100k/include" --timeout 120)"
} >"$work/rss.txt"

# The warm MCP server (bench/mcp_bench.py) beside report_bench's static run of the same root, in
# process (BM_probe_all_static: collecting the facts; BM_emit_report: the document).
cut -d' ' -f1-3 /proc/loadavg >"$work/load-mcp.txt"
"$build/bench/report_bench" --benchmark_filter='BM_probe_all_static|BM_emit_report$' \
  --benchmark_repetitions=5 --benchmark_report_aggregates_only=true --benchmark_format=json \
  >"$work/report_bench.json" 2>/dev/null
/usr/bin/python3 "$here/mcp_bench.py" "$probe" "$root" --rss-calls "${MCP_RSS_CALLS:-10000}" \
  >"$work/mcp.json"

# One `check --wait` evaluation, on the bench root with every port DOWN (nothing passes).
cp -a "$root" "$work/root-down"
for state in "$work"/root-down/sys/class/infiniband/*/ports/*/state; do
  echo "1: DOWN" >"$(realpath "$state")"
done
cut -d' ' -f1-3 /proc/loadavg >"$work/load-wait.txt"
/usr/bin/python3 "$here/wait_bench.py" "$probe" "$work/root-down" >"$work/wait.json"

# The clean build (bench/build_time.sh): minutes of both cores, so only when asked.
if [[ -n ${BUILD_TIME:-} ]]; then
  "$here/build_time.sh" >"$work/build_time.txt" 2>&1 || true
fi
cut -d' ' -f1-3 /proc/loadavg >"$work/load-end.txt"

/usr/bin/python3 "$here/bench_tables.py" run --work "$work" --runs "$runs" \
  --chain-processes "$chain_processes" --reads "$(wc -l <"$work/static.reads")" \
  --load "$load_at_start" --probe "$probe" \
  --cores "$(nproc)"
echo
/usr/bin/python3 "$here/phase_tables.py" --work "$work" --runs "$runs" \
  --load "$load_at_start" --cores "$(nproc)"
