#!/usr/bin/python3
"""Writes the set of files and directories one probe run reads, for bench/floor's `reads` mode.

    read_set.py STRACE_LOG [--under DIR] > LIST

STRACE_LOG is `strace -f -y -e trace=openat,openat2,getdents64` of one run: -y makes strace
print the path behind every descriptor, so each successful open's result names the file the
kernel resolved, whichever directory descriptor it was opened relative to. A file counts once
per open that can read (O_PATH opens only resolve a name); a directory counts once per listing
(its first getdents64 after an open). Only paths below DIR are kept when --under is given (the
probed root: the loader's own opens of libc and libm are the floor's too, so they are left out).
Lines: "f PATH" or "d PATH". Only the standard library is used.
"""

import argparse
import re
import sys

OPEN = re.compile(r'^\d+\s+(openat2?)\(.*\)\s+=\s+(\d+)<(.*)>$')
LIST = re.compile(r'^\d+\s+getdents64\((\d+)<(.*?)>,')


def read_set(lines, under):
    listed = set()  # descriptors already counted as one listing
    out = []
    for line in lines:
        line = line.rstrip("\n")
        opened = OPEN.match(line)
        if opened:
            fd, path = opened.group(2), opened.group(3)
            listed.discard(fd)
            if "O_PATH" in line or "O_DIRECTORY" in line:
                continue
            if under is None or path.startswith(under):
                out.append(f"f {path}")
            continue
        listing = LIST.match(line)
        if listing and listing.group(1) not in listed:
            listed.add(listing.group(1))
            path = listing.group(2)
            if under is None or path.startswith(under):
                out.append(f"d {path}")
    return out


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("--under")
    args = parser.parse_args(argv)
    under = args.under.rstrip("/") + "/" if args.under else None
    with open(args.log) as f:
        entries = read_set(f, under)
    if not entries:
        print(f"read_set.py: {args.log}: no successful open or listing", file=sys.stderr)
        return 2
    print("\n".join(entries))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
