#!/usr/bin/python3
"""Generates a versioned shared library of N trivial exported functions and its header.

    gen_versioned_lib.py COUNT STEM [--cc CC] [--soname NAME] [--header PATH] [--header-only]

Writes STEM.s (COUNT functions doca_bench_fn_<i>), STEM.map (every third in the EXPERIMENTAL
version node, the rest in BENCH_1.0, as DOCA's own libraries split them) and STEM.h (the matching
DOCA_EXPERIMENTAL / DOCA_STABLE declarations, two lines each, as DOCA's headers write them;
--header puts it elsewhere).
With --cc it also links STEM.so (soname --soname, default the file name). --header-only writes
just STEM.h: the header-scanning scale needs no library. The one generator of the benchmark
libraries: bench/CMakeLists.txt and bench/scaling.sh both call it.
"""

import argparse
import os
import subprocess
import sys


def names(count):
    return ["doca_bench_fn_%d" % i for i in range(count)]


def experimental(index):
    return index % 3 == 0


def write_header(path, count):
    with open(path, "w") as f:
        f.write("#pragma once\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n")
        for i, n in enumerate(names(count)):
            f.write("%s\nint %s(struct doca_bench *b,\n\tint arg /* %d */);\n\n"
                    % ("DOCA_EXPERIMENTAL" if experimental(i) else "DOCA_STABLE", n, i))
        f.write("#ifdef __cplusplus\n}\n#endif\n")


def write_library_sources(stem, count):
    with open(stem + ".s", "w") as f:
        f.write("\t.text\n")
        for n in names(count):
            f.write("\t.globl %s\n\t.type %s, @function\n%s:\n\tret\n\t.size %s, .-%s\n"
                    % (n, n, n, n, n))
    with open(stem + ".map", "w") as f:
        f.write("BENCH_1.0 {\n\tglobal:\n")
        f.writelines("\t\t%s;\n" % n for i, n in enumerate(names(count)) if not experimental(i))
        f.write("\tlocal:\n\t\t*;\n};\nEXPERIMENTAL {\n\tglobal:\n")
        f.writelines("\t\t%s;\n" % n for i, n in enumerate(names(count)) if experimental(i))
        f.write("} BENCH_1.0;\n")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int)
    parser.add_argument("stem", help="output path without extension")
    parser.add_argument("--cc", help="C compiler driver that links STEM.so")
    parser.add_argument("--soname", help="the library's DT_SONAME (default: STEM.so's name)")
    parser.add_argument("--header", help="where the header goes (default: STEM.h)")
    parser.add_argument("--header-only", action="store_true")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("COUNT must be positive")
    header = args.header or args.stem + ".h"
    os.makedirs(os.path.dirname(os.path.abspath(header)), exist_ok=True)
    os.makedirs(os.path.dirname(os.path.abspath(args.stem)), exist_ok=True)
    write_header(header, args.count)
    if args.header_only:
        return 0
    write_library_sources(args.stem, args.count)
    if args.cc:
        soname = args.soname or os.path.basename(args.stem) + ".so"
        subprocess.run([args.cc, "-shared", "-nostdlib", "-Wl,-soname," + soname,
                        "-Wl,--version-script=" + args.stem + ".map", args.stem + ".s",
                        "-o", args.stem + ".so"], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
