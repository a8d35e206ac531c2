#!/usr/bin/python3
"""Builds a benchmark root: N ConnectX-7 PCI functions in sysfs, optionally over a DOCA install.

    make_bench_root.py TARGET (--functions N | --pfs P --vfs-per-pf V) [--doca-root DIR]
                      [--gid-table N]

The functions are the test fixtures' "scale" shape (tests/fixtures/sysfs/make_sysfs_root.py):
PFs with up to 7 VFs each, every function with its rdma device (one RoCE port) and its netdev.
N is 1..8, or a multiple of 8 up to 512: N <= 8 is one PF with N-1 VFs, N > 8 is N/8 PFs with
7 VFs each. --pfs and --vfs-per-pf give any other shape instead, such as the real-size host
bench/run.sh times (8 PFs with one VF each: 16 functions, every VF with its own rdma device and
GID table, as SR-IOV VFs of a ConnectX have). With --doca-root (a test build's roots/complete-3.3) the DOCA install is copied in
first, giving "the complete fixture install with N devices". A /proc/meminfo is written too, for
the manual chain's `grep Huge /proc/meminfo` (the probe itself reads /sys/kernel/mm/hugepages),
and the platform devices an x86 server shows (none of them a BlueField's MLNXBF*).
--gid-table sets the entries of each port's GID table (default 8; empty entries read as zeros,
as in sysfs): sysfs has one file per entry of the hardware's table, used or not, and the probe
reads them all, so the table's size weighs on a run more than the functions' other attributes.
TARGET is replaced when this script made it before.
"""

import argparse
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "fixtures", "sysfs"))
import make_sysfs_root  # noqa: E402  (the fixtures' generator, shared rather than copied)

MEMINFO = """MemTotal:       65554308 kB
MemFree:        48211904 kB
MemAvailable:   55712332 kB
HugePages_Total:    4096
HugePages_Free:     4096
HugePages_Rsvd:        0
HugePages_Surp:        0
Hugepagesize:       2048 kB
Hugetlb:         8388608 kB
"""

PLATFORM_DEVICES = ("serial8250", "PNP0C0C:00", "PNP0C14:00", "ACPI000C:00", "intel_rapl_msr.0")


def shape(functions):
    """(PFs, VFs per PF) for a function count."""
    if 1 <= functions <= 8:
        return 1, functions - 1
    if functions % 8 == 0 and functions <= 512:
        return functions // 8, 7
    raise SystemExit(f"make_bench_root: --functions {functions}: want 1..8 or a multiple of 8 "
                     "up to 512")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target")
    shapes = parser.add_mutually_exclusive_group(required=True)
    shapes.add_argument("--functions", type=int)
    shapes.add_argument("--pfs", type=int, help="PFs (with --vfs-per-pf, instead of --functions)")
    parser.add_argument("--vfs-per-pf", type=int, default=0, help="VFs of each PF (with --pfs)")
    parser.add_argument("--doca-root", help="a fixture DOCA root to copy in first")
    parser.add_argument("--gid-table", type=int, default=8,
                        help="entries per port GID table (default 8)")
    args = parser.parse_args(argv)
    if args.pfs is None:
        pfs, vfs = shape(args.functions)
    elif 1 <= args.pfs <= 64 and 0 <= args.vfs_per_pf <= 7:
        pfs, vfs = args.pfs, args.vfs_per_pf
    else:
        raise SystemExit(f"make_bench_root: --pfs {args.pfs} --vfs-per-pf {args.vfs_per_pf}: want "
                         "1..64 PFs with 0..7 VFs each")
    target = os.path.abspath(args.target)
    make_sysfs_root.prepare(target, True)
    if args.doca_root:
        if not os.path.isdir(args.doca_root):
            raise SystemExit(f"make_bench_root: {args.doca_root}: missing (build doca_fixtures)")
        shutil.copytree(args.doca_root, target, symlinks=True, dirs_exist_ok=True)
    root = make_sysfs_root.Root(target)
    if not 1 <= args.gid_table <= 4096:
        raise SystemExit(f"make_bench_root: --gid-table {args.gid_table}: want 1..4096")
    make_sysfs_root.scenario_scale(root, pfs=pfs, vfs_per_pf=vfs, gid_table=args.gid_table)
    root.write("/proc/meminfo", MEMINFO)
    for name in PLATFORM_DEVICES:
        root.mkdir(f"/sys/devices/platform/{name}")
        root.link(f"/sys/devices/platform/{name}", f"/sys/bus/platform/devices/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
