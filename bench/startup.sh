#!/usr/bin/env bash
# Counts what a run costs in figures that a loaded machine does not disturb: instructions
# executed (callgrind, the dynamic loader and static initialisers included), system calls
# (strace -c -f), path components the kernel resolved (bench/path_walks.py on an strace -f log:
# where kernel time goes) and processes started (strace -f, forks and execs), for /bin/true,
# `rdmi-probe --version`, the static probe of the bench root and the live probe (this machine's
# /sys, and the fixture DOCA install as --doca-prefix). Prints one table and the load average.
#
#   bench/startup.sh BUILD_DIR [PROBE]
#
# BUILD_DIR is a build with the tests (its fixtures make the bench root and the DOCA prefix);
# PROBE is the binary to count, by default BUILD_DIR/rdmi-probe (e.g. a default build's, whose
# dependencies are linked in, to count its start-up).
# The bench root is made as bench/run.sh makes it (make_bench_root.py, 8 PCI functions).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath "${1:?usage: bench/startup.sh BUILD_DIR [PROBE]}")
probe=$(realpath "${2:-$build/rdmi-probe}")
prefix=$build/tests/fixtures/prefixes/complete-3.3
for tool in valgrind strace; do
  command -v $tool >/dev/null || { echo "startup.sh: $tool is needed (scripts/setup.sh --bench)" >&2; exit 2; }
done
[[ -x $probe && -d $build/tests/fixtures/roots/complete-3.3 ]] ||
  { echo "startup.sh: $build has no rdmi-probe or no test fixtures (BUILD_TESTING=ON)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
python3 "$here/make_bench_root.py" "$root" --functions 8 \
  --doca-root "$build/tests/fixtures/roots/complete-3.3" >/dev/null

# The probe's own instructions: forked children are counted by valgrind too, under their pids.
instructions() {
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.%p" "$@" >/dev/null 2>"$work/cg.log" || true
  local pid
  pid=$(sed -n '1s/^==\([0-9]*\)==.*/\1/p' "$work/cg.log")
  sed -n "s/^==$pid== Collected : \([0-9]*\).*/\1/p" "$work/cg.log"
}
syscalls() {
  strace -f -c -o "$work/sc.txt" "$@" >/dev/null 2>&1 || true
  awk '$NF == "total" { print $(NF-2) }' "$work/sc.txt"
}
# Path lookups and the components they name (bench/path_walks.py).
walks() {
  strace -f -o "$work/pw.txt" "$@" >/dev/null 2>&1 || true
  python3 "$here/path_walks.py" "$work/pw.txt" | awk '{ print $2 " (" $1 " lookups)" }'
}
# Processes started: each fork or spawn (a clone without CLONE_THREAD); those that exec'd a
# program are tools, the others forked children of the probe.
processes() {
  strace -f -e trace=clone,clone3,fork,vfork,execve -o "$work/pr.txt" "$@" >/dev/null 2>&1 || true
  local forks execs
  forks=$(grep -E '(clone3?|v?fork)\(' "$work/pr.txt" | grep -v 'resumed>' | grep -vc 'CLONE_THREAD' || true)
  execs=$(grep 'execve(' "$work/pr.txt" | grep -vc 'resumed>' || true)
  execs=$((execs - 1))  # the probe's own
  echo "$forks ($execs tools, $((forks - execs)) forked children)"
}

echo "rdmi-probe: $probe"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo
echo "| command | instructions (callgrind) | system calls (strace -c -f) | path components walked | processes started |"
echo "| --- | --- | --- | --- | --- |"
row() {
  local label=$1
  shift
  echo "| $label | $(instructions "$@") | $(syscalls "$@") | $(walks "$@") | $(processes "$@") |"
}
row '`/bin/true`' /bin/true
row '`rdmi-probe --version`' "$probe" --version
row '`rdmi-probe --json --root ROOT` (static, bench root)' "$probe" --json --root "$root"
row '`rdmi-probe --json` (live, this machine)' "$probe" --json
row '`rdmi-probe --json --doca-prefix FIXTURE` (live, fixture DOCA install)' "$probe" --json --doca-prefix "$prefix"
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
