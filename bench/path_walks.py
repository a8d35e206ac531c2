#!/usr/bin/env python3
"""Path components the kernel is asked to resolve, from an `strace -f` log.

Counts each path argument of the path-taking calls (open, openat, openat2, stat, lstat,
newfstatat, statx, readlink, readlinkat, access, faccessat2, execve): its components, or 1 for
a name relative to a descriptor. Link targets followed on the way are not in the log and not
counted, so the figure is a lower bound of the walk; it is what a loaded machine does not
move, where kernel time in path walks is.

    bench/path_walks.py STRACE_LOG    prints "LOOKUPS COMPONENTS"
"""
import re
import sys

CALL = re.compile(
    r'^(?:\d+ +)?(?:open|openat|openat2|stat|lstat|newfstatat|statx|readlink|readlinkat|'
    r'access|faccessat2|execve)\((?:[^,"]+, )?"([^"]*)"')


def main() -> int:
    lookups = components = 0
    with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
        for line in log:
            match = CALL.match(line)
            if not match or match.group(1) == "":
                continue  # an empty name: the descriptor itself (AT_EMPTY_PATH)
            lookups += 1
            components += max(1, len([p for p in match.group(1).split("/") if p]))
    print(lookups, components)
    return 0


if __name__ == "__main__":
    sys.exit(main())
