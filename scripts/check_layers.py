#!/usr/bin/python3
"""Checks every #include edge between the folders of src/ against the layer order.

A folder may include its own headers and those of folders in lower layers, never a higher
layer's, and never another folder of its own layer: so the folders form no cycle. The order is
docs/architecture.md's; a folder that is not in it is an error (place it before adding it).

Usage: check_layers.py [SRC_DIR]   (default: src/ beside this script's directory)
       check_layers.py --self-test  (the checker finds what it must, on made-up trees)
Prints one line per offending include (file:line: what it includes, and why that is wrong)
and exits 1 when there is any; exits 0 with a one-line summary otherwise.
"""
import os
import re
import sys

# Lowest first. Folders on one line are one layer: none of them includes another.
LAYERS = [
    ["text"],
    ["core"],
    ["json", "digest"],
    ["os"],
    ["process"],
    ["loader"],
    ["pkgconfig", "doca_headers", "api", "compat", "contract", "bundle", "packages"],
    ["doca_errors"],
    ["elf"],
    ["sysfs"],
    ["host"],
    ["context"],
    ["probes"],
    ["model"],
    ["check"],
    ["report"],
    ["cli"],
    ["mcp"],
    ["."],  # src/main.cpp
]

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".c", ".cc")


def rank_of():
    ranks = {}
    for rank, layer in enumerate(LAYERS):
        for folder in layer:
            ranks[folder] = rank
    return ranks


def check(src):
    ranks = rank_of()
    problems = []
    edges = 0
    for dirpath, _dirs, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith(SOURCE_SUFFIXES):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, src)
            folder = rel.split(os.sep)[0] if os.sep in rel else "."
            if folder not in ranks:
                problems.append(f"{rel}: folder src/{folder} is not in the layer order "
                                f"(add it to {os.path.basename(__file__)} and docs/architecture.md)")
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m or "/" not in m.group(1):
                        continue  # a sibling header, or one generated into the build tree
                    target = m.group(1).split("/")[0]
                    if target not in ranks or not os.path.isdir(os.path.join(src, target)):
                        continue  # not one of src/'s folders (dpa_kernels/, generated headers)
                    if target == folder:
                        continue
                    edges += 1
                    if ranks[target] > ranks[folder]:
                        problems.append(f"{rel}:{number}: includes {m.group(1)}: {target}/ is "
                                        f"above {folder}/ in the layer order")
                    elif ranks[target] == ranks[folder]:
                        problems.append(f"{rel}:{number}: includes {m.group(1)}: {target}/ and "
                                        f"{folder}/ are one layer, and may not include each other")
    return problems, edges


def self_test():
    import shutil
    import tempfile

    def tree(files):
        root = tempfile.mkdtemp(prefix="check_layers.")
        for rel, text in files.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        return root

    cases = [
        # (files, how many problems, a word each problem line must hold)
        ({"core/a.hpp": "", "os/b.hpp": '#include "core/a.hpp"\n'}, 0, ""),
        ({"core/a.hpp": '#include "os/b.hpp"\n', "os/b.hpp": ""}, 1, "above"),
        ({"api/a.hpp": '#include "doca_headers/b.hpp"\n', "doca_headers/b.hpp": ""}, 1, "one layer"),
        ({"probes/a.cpp": '  #  include "model/x.hpp"\n', "model/x.hpp": ""}, 1, "above"),
        ({"widgets/a.hpp": ""}, 1, "not in the layer order"),
        ({"core/a.hpp": '#include "sibling.hpp"\n#include <os/b.hpp>\n', "os/b.hpp": ""}, 0, ""),
        ({"main.cpp": '#include "cli/app.hpp"\n', "cli/app.hpp": ""}, 0, ""),
        ({"cli/app.hpp": '#include "dpa/abi.h"\n'}, 0, ""),
    ]
    failed = 0
    for number, (files, count, word) in enumerate(cases, 1):
        root = tree(files)
        try:
            problems, _ = check(root)
        finally:
            shutil.rmtree(root)
        if len(problems) != count or any(word not in p for p in problems):
            print(f"self-test case {number}: expected {count} problem(s) with '{word}', "
                  f"got {problems}")
            failed += 1
    print(f"check_layers self-test: {len(cases) - failed} of {len(cases)} cases pass")
    return 1 if failed else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    here = os.path.dirname(os.path.abspath(__file__))
    src = argv[1] if len(argv) > 1 else os.path.join(here, "..", "src")
    if not os.path.isdir(src):
        print(f"check_layers: {src}: not a directory", file=sys.stderr)
        return 2
    problems, edges = check(src)
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} include(s) break the layer order", file=sys.stderr)
        return 1
    print(f"check_layers: {edges} includes between folders, all downward")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
