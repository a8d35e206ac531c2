#!/usr/bin/python3
"""Grows the dpkg database of a root to a real host's size, for bench/run.sh's package-database rows.

    make_dpkg_database.py ROOT [--packages N] [--files-per-package N]

Appends N made-up installed packages (default 1,000) to ROOT/var/lib/dpkg/status, creating the
database when ROOT has none, each with a record of about 1 KB (so the status file is about 1 MB)
and its info/<name>.list (directories and files under /usr, 150 paths by default) and
info/<name>.md5sums: the size of a Debian 12 server with a desktop-less install of a few
toolchains (about 1,000 packages, an 0.9 MB status file and 150,000 listed paths). The packages
the root already has, such as a fixture's DOCA packages, are kept as they are, so the same fixes
and integrity checks apply, now against a database of a real host's size. Only the standard
library is used; the output depends on nothing but the arguments.
"""

import argparse
import hashlib
import os
import sys

SECTIONS = ("libs", "utils", "admin", "net", "devel", "python", "perl", "doc", "text", "misc")
WORDS = ("library", "runtime", "support", "files", "tools", "for", "the", "shared", "data",
         "utilities", "common", "module", "bindings", "development", "headers", "plugin")


def record(i, name):
    """One status stanza of about 1 KB, shaped as dpkg writes them."""
    words = [WORDS[(i * 7 + k) % len(WORDS)] for k in range(10)]
    description = " ".join(words)
    long_lines = "\n".join(" " + " ".join(WORDS[(i + k * 3 + j) % len(WORDS)] for j in range(11))
                           for k in range(8))
    depends = ", ".join(f"benchpkg{(i * 13 + k) % 997:04d} (>= {k}.{i % 10})" for k in range(4))
    return (f"Package: {name}\n"
            "Status: install ok installed\n"
            "Priority: optional\n"
            f"Section: {SECTIONS[i % len(SECTIONS)]}\n"
            f"Installed-Size: {100 + i * 37 % 9000}\n"
            "Maintainer: Bench Maintainers <bench@example.invalid>\n"
            "Architecture: amd64\n"
            "Multi-Arch: same\n"
            f"Source: bench-source-{i // 3:04d}\n"
            f"Version: {1 + i % 9}.{i % 17}.{i % 5}-{1 + i % 3}+deb12u1\n"
            f"Depends: libc6 (>= 2.34), {depends}\n"
            f"Description: {description}\n"
            f"{long_lines}\n"
            f"Homepage: https://example.invalid/{name}\n\n")


def paths(i, name, count):
    """The directories and files a package's .list names: its own, under shared directories."""
    section = SECTIONS[i % len(SECTIONS)]
    dirs = ["/.", "/usr", "/usr/lib", "/usr/lib/x86_64-linux-gnu", "/usr/share",
            "/usr/share/doc", f"/usr/share/doc/{name}", f"/usr/lib/x86_64-linux-gnu/{name}",
            f"/usr/share/{section}", f"/usr/share/{section}/{name}"]
    files = [f"/usr/share/doc/{name}/changelog.Debian.gz", f"/usr/share/doc/{name}/copyright"]
    k = 0
    while len(dirs) + len(files) < count:
        base = f"/usr/lib/x86_64-linux-gnu/{name}" if k % 2 else f"/usr/share/{section}/{name}"
        files.append(f"{base}/file-{k:04d}.dat")
        k += 1
    return dirs, files


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root")
    parser.add_argument("--packages", type=int, default=1000)
    parser.add_argument("--files-per-package", type=int, default=150)
    args = parser.parse_args(argv)
    if not 1 <= args.packages <= 100000 or not 12 <= args.files_per_package <= 10000:
        raise SystemExit("make_dpkg_database: want 1..100000 packages of 12..10000 paths each")
    dpkg = os.path.join(args.root, "var", "lib", "dpkg")
    info = os.path.join(dpkg, "info")
    os.makedirs(info, exist_ok=True)
    stanzas = []
    for i in range(args.packages):
        name = f"benchpkg{i:04d}"
        stanzas.append(record(i, name))
        dirs, files = paths(i, name, args.files_per_package)
        with open(os.path.join(info, f"{name}:amd64.list"), "w") as f:
            f.write("".join(p + "\n" for p in dirs + files))
        with open(os.path.join(info, f"{name}:amd64.md5sums"), "w") as f:
            f.write("".join(f"{hashlib.md5(p.encode()).hexdigest()}  {p[1:]}\n" for p in files))
    with open(os.path.join(dpkg, "status"), "a") as f:
        f.write("".join(stanzas))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
