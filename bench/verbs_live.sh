#!/usr/bin/env bash
# The cost of a live run's verbs layer against a fixture libibverbs, in figures a loaded machine
# does not move: instructions (callgrind: the probe's own process and its forked worker children
# apart), system calls (strace -c -f, and those of the worker children alone), page faults
# (/usr/bin/time, the probe and its children).
#
#   bench/verbs_live.sh PROBE IBVERBS_DIR [ARGS...]
#
# Under valgrind 3.19 the contained worker child produces no answer (the verbs layer then
# reports "produced no result"), so the instruction figure is the probe's process with the
# verbs layer failed: compare the system calls, which strace counts in the working worker.
#
# IBVERBS_DIR holds the libibverbs.so.1 to load (LD_LIBRARY_PATH): a test build's
# tests/fixtures/ibverbs (with ibv_query_gid_table) or tests/fixtures/ibverbs-no-gid-table
# (without). ARGS default to `report --json`. On this machine /sys has no RDMA device, so the
# sysfs GID files are not part of either figure: what differs is the worker's GID queries.
set -euo pipefail
probe=$1
ibverbs=$2
shift 2
[ $# -gt 0 ] || set -- report --json
for tool in valgrind strace /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "verbs_live.sh: $tool is needed" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LD_LIBRARY_PATH=$ibverbs

valgrind --tool=callgrind --callgrind-out-file="$work/cg.%p" "$probe" "$@" --timeout 600 \
  >/dev/null 2>"$work/cg.log" || true
main=$(sed -n '1s/^==\([0-9]*\)==.*/\1/p' "$work/cg.log")
parent=$(sed -n "s/^==$main== Collected : \([0-9]*\).*/\1/p" "$work/cg.log")
# A worker child ended by the probe's kill writes no count: the figure is what the others wrote.
children=$(for f in "$work"/cg.*; do
  [ "$f" = "$work/cg.$main" ] || sed -n 's/^totals: \([0-9]*\).*/\1/p' "$f"
done | awk '{ s += $1; n++ } END { print s + 0 " in " n + 0 " worker children" }')

strace -f -c -o "$work/sc.txt" "$probe" "$@" >/dev/null 2>&1 || true
calls=$(awk '$NF == "total" { print $(NF-2) }' "$work/sc.txt")
strace -f -o "$work/sf.txt" "$probe" "$@" >/dev/null 2>&1 || true
first=$(head -1 "$work/sf.txt" | awk '{ print $1 }')
worker_calls=$(awk -v main="$first" '$1 != main' "$work/sf.txt" | grep -vc 'resumed>' || true)

/usr/bin/time -f '%R %F' -o "$work/pf.txt" "$probe" "$@" >/dev/null 2>&1 || true
read -r minor major < <(tail -1 "$work/pf.txt")

echo "probe: $probe; libibverbs: $ibverbs/libibverbs.so.1; args: $*"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "instructions: $parent in the probe's process, $children"
echo "system calls: $calls (strace -c -f), $worker_calls of them in the children"
echo "page faults: $minor minor, $major major"
