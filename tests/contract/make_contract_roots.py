#!/usr/bin/python3
"""Lays a fixture sysfs scenario over a copy of a fixture DOCA root: one root with both an
install and devices, for the contract documents' golden tests.

    make_contract_roots.py --fixtures DIR [--list]

DIR is the test build's fixture directory (build/tests/fixtures): the DOCA roots are in
DIR/roots/<scenario>, the sysfs roots in DIR/sysfs/<scenario>; each combined root is written
to DIR/roots/<name> (so that the CLI runner's "root" field names it), replacing an earlier one.
Where both trees have a file (/etc/mlnx-release), the sysfs scenario's wins. A matrix file from
tests/contract/matrices/ is copied to <prefix>/share/version-matrix.json when the row names one.
"""

import argparse
import os
import shutil
import stat
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MARKER = ".rdmi-contract-root"

# name: (DOCA scenario, sysfs scenario, version-matrix file or None, DOCA prefix in the root)
ROOTS = {
    "both-host": ("complete-3.3", "bf3-host-dpu", "valid.json", "/opt/mellanox/doca"),
    # run vs build: a healthy BlueField-3 host that runs RDMI applications but cannot build them
    "both-run-only": ("run-only-3.3", "full-link", "valid.json", "/opt/mellanox/doca"),
    "both-dpu": ("bluefield-3.3", "bf3-arm", None, "/opt/mellanox/doca"),
    "both-vfs-legacy": ("legacy-2.10", "cx7-vfs", None, "/opt/mellanox/doca"),
    "both-empty": ("no-doca", "empty", None, "/opt/mellanox/doca"),
    "both-mismatch": ("contract-mismatch", "cx6dx", "malformed.json", "/opt/mellanox/doca"),
    "both-malformed": ("complete-3.2", "malformed", "valid.json", "/opt/mellanox/doca"),
    # doca-dpa (.pc and library) from another release than the rest of the RDMI stack.
    "both-dpa-mismatch": ("dpa-mismatch", "bf3-host-dpu", "valid.json", "/opt/mellanox/doca"),
    # DPA-capable functions with ports down, an active port only on a ConnectX-6 Dx.
    "both-split-devices": ("complete-3.3", "split-devices", "valid.json", "/opt/mellanox/doca"),
    # PCIe links (pcie-link): PF0 trained at half its bandwidth; both PFs held back by a Gen4 x8
    # slot; every link at its best; PFs behind the card's own switch without link attributes.
    "both-degraded-link": ("complete-3.3", "degraded-link", None, "/opt/mellanox/doca"),
    "both-slot-limited": ("complete-3.3", "slot-limited", None, "/opt/mellanox/doca"),
    "both-full-link": ("complete-3.3", "full-link", None, "/opt/mellanox/doca"),
    "both-host-switch": ("complete-3.3", "bf3-host-switch", None, "/opt/mellanox/doca"),
}


def merge(src, dst):
    """Copies the tree src over dst, links as links; a file in src replaces one in dst."""
    for dirpath, dirnames, filenames in os.walk(src):
        rel = os.path.relpath(dirpath, src)
        target_dir = os.path.join(dst, rel) if rel != "." else dst
        os.makedirs(target_dir, exist_ok=True)
        for name in dirnames + filenames:
            s = os.path.join(dirpath, name)
            d = os.path.join(target_dir, name)
            if os.path.islink(s):
                if os.path.lexists(d):
                    if os.path.isdir(d) and not os.path.islink(d):
                        shutil.rmtree(d)
                    else:
                        os.unlink(d)
                os.symlink(os.readlink(s), d)
                if name in dirnames:
                    dirnames.remove(name)
            elif name in filenames:
                if os.path.lexists(d):
                    os.unlink(d)
                mode = os.lstat(s).st_mode
                if stat.S_ISFIFO(mode):
                    os.mkfifo(d, stat.S_IMODE(mode))
                else:
                    shutil.copy2(s, d)
        shutil.copymode(dirpath, target_dir)


def build(fixtures, name):
    doca, sysfs, matrix, prefix = ROOTS[name]
    target = os.path.join(fixtures, "roots", name)
    if os.path.lexists(target):
        if not os.path.exists(os.path.join(target, MARKER)):
            sys.exit(f"make_contract_roots: {target} exists and was not made by this script")
        shutil.rmtree(target)
    for part in (os.path.join(fixtures, "roots", doca), os.path.join(fixtures, "sysfs", sysfs)):
        if not os.path.isdir(part):
            sys.exit(f"make_contract_roots: {part}: missing (build the fixtures first)")
    os.makedirs(target)
    with open(os.path.join(target, MARKER), "w") as out:
        out.write(f"{doca} + {sysfs}\n")
    merge(os.path.join(fixtures, "roots", doca), target)
    merge(os.path.join(fixtures, "sysfs", sysfs), target)
    if matrix:
        share = os.path.join(target, prefix.lstrip("/"), "share")
        os.makedirs(share, exist_ok=True)
        shutil.copy(os.path.join(HERE, "matrices", matrix), os.path.join(share, "version-matrix.json"))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixtures", help="the test build's fixture directory")
    parser.add_argument("--list", action="store_true", help="print the combined roots")
    parser.add_argument("--stamp", help="file to touch when done")
    args = parser.parse_args(argv)
    if args.list:
        for name, (doca, sysfs, matrix, _) in ROOTS.items():
            print(f"{name}\t{doca} + {sysfs}" + (f" + matrix {matrix}" if matrix else ""))
        return 0
    if not args.fixtures:
        parser.error("--fixtures is required")
    for name in ROOTS:
        build(args.fixtures, name)
    if args.stamp:
        with open(args.stamp, "w"):
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
