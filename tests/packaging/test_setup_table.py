#!/usr/bin/python3
"""scripts/setup.sh and its package table scripts/packages.tsv: every row well formed, the
package manager detected from what is on PATH, the right column's names chosen for each option,
and bad tables and options refused with exit 2. No dnf exists on a Debian machine: the dnf side
is checked through --dry-run, against the names Fedora and EPEL use.

    test_setup_table.py [--source DIR]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

GROUPS = {"build", "tests", "bench", "cross", "release"}
# Debian: lower case, digits, + - . and an optional :arch qualifier. Fedora: also upper case
# letters and underscores are legal, but none of ours uses them.
APT_NAME = re.compile(r"^[a-z0-9][a-z0-9+.-]+(:arm64)?$")
DNF_NAME = re.compile(r"^[a-z0-9][a-z0-9+._-]+$")
# The names the RHEL family uses for the libraries the build cannot do without (Fedora and
# EPEL 9 package names); a typo here would only show on a machine with dnf.
DNF_EXPECTED = {
    "gcc-c++", "cmake", "ninja-build", "cli11-devel", "json-devel", "spdlog-devel", "fmt-devel",
    "libpkgconf-devel", "elfutils-libelf-devel", "zlib-devel", "libstdc++-static",
}
APT_EXPECTED = {
    "g++", "cmake", "ninja-build", "pkgconf", "libcli11-dev", "nlohmann-json3-dev",
    "libspdlog-dev", "libfmt-dev", "libpkgconf-dev", "libelf-dev", "zlib1g-dev",
}

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f"FAIL {message}")


def read_table(path):
    rows = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        check(len(cols) == 4, f"{path.name}:{number}: {len(cols)} columns, want 4: {line!r}")
        if len(cols) == 4:
            rows.append((number, *cols))
    return rows


def run_setup(setup, *args, env=None, path=None):
    full_env = dict(os.environ if env is None else env)
    if path is not None:
        full_env["PATH"] = path
    return subprocess.run(["/bin/bash", str(setup), *args], capture_output=True, text=True,
                          env=full_env, timeout=60)


def dry_run(setup, manager, *options):
    proc = run_setup(setup, "--dry-run", "--manager", manager, *options)
    check(proc.returncode == 0, f"--dry-run --manager {manager} {options}: exit {proc.returncode}: {proc.stderr}")
    lines = proc.stdout.splitlines()
    check(lines[:1] == [f"manager: {manager}"], f"dry run names the manager: {lines[:1]}")
    return lines[1:], proc.stderr


def test_table(rows):
    seen = {}
    for number, group, what, apt, dnf in rows:
        check(group in GROUPS, f"line {number}: unknown group {group!r}")
        check(what.strip() == what and what, f"line {number}: empty or padded description")
        check(apt == "-" or APT_NAME.match(apt), f"line {number}: {apt!r} is no Debian package name")
        check(dnf == "-" or DNF_NAME.match(dnf), f"line {number}: {dnf!r} is no RPM package name")
        check((group, what) not in seen, f"line {number}: {what!r} twice in group {group}")
        seen[(group, what)] = number
        # Debian's arm64 libraries exist only through multiarch: never on the dnf side.
        if apt.endswith(":arm64"):
            check(dnf == "-", f"line {number}: {dnf!r} offered for a Debian multiarch package")
    build = [r for r in rows if r[1] == "build"]
    check(all(r[3] != "-" and r[4] != "-" for r in build), "every build row has both names")


def test_dry_runs(setup):
    apt_build, _ = dry_run(setup, "apt")
    check(APT_EXPECTED <= set(apt_build), f"apt build names: missing {APT_EXPECTED - set(apt_build)}")
    check(len(apt_build) == len(set(apt_build)), f"apt names listed once: {apt_build}")
    dnf_build, _ = dry_run(setup, "dnf")
    check(DNF_EXPECTED <= set(dnf_build), f"dnf build names: missing {DNF_EXPECTED - set(dnf_build)}")
    check(not set(dnf_build) & set(apt_build) - {"cmake", "ninja-build", "git"},
          f"dnf got Debian names: {set(dnf_build) & set(apt_build)}")
    dnf_tests, err = dry_run(setup, "dnf", "--tests")
    check({"doctest-devel", "python3-jsonschema", "rpm-build"} <= set(dnf_tests),
          f"dnf --tests names: {dnf_tests}")
    check("lintian" not in dnf_tests and "no dnf package for:" in err and "lintian" in err,
          f"dnf --tests says what it lacks: {err!r}")
    apt_tests, err = dry_run(setup, "apt", "--tests")
    check(err == "", f"apt --tests lacks nothing: {err!r}")
    check({"doctest-dev", "lintian", "rpm"} <= set(apt_tests), f"apt --tests names: {apt_tests}")
    apt_cross, _ = dry_run(setup, "apt", "--cross-arm64")
    check({"g++-aarch64-linux-gnu", "qemu-user", "libspdlog-dev:arm64"} <= set(apt_cross),
          f"apt --cross-arm64 names: {apt_cross}")
    check("doctest-dev" not in apt_cross, "--cross-arm64 alone adds no test packages")
    apt_release, _ = dry_run(setup, "apt", "--release")
    check(apt_release.count("rpm") == 1, f"a name needed twice is listed once: {apt_release}")
    check("g++-aarch64-linux-gnu" in apt_release, "--release brings the cross build")
    # dnf cannot do the cross build: refused before installing anything.
    proc = run_setup(setup, "--manager", "dnf", "--cross-arm64")
    check(proc.returncode == 2 and "multiarch" in proc.stderr, f"dnf --cross-arm64: {proc.returncode} {proc.stderr!r}")


def fake_path(tmp, tools):
    """A PATH holding only the tools setup.sh uses before it installs, plus fake ones."""
    bindir = Path(tmp) / "bin"
    bindir.mkdir()
    for tool in ("bash", "dirname", "sed", "id", "grep", "cat"):
        found = shutil.which(tool)
        if found:
            os.symlink(found, bindir / tool)
    for tool in tools:
        (bindir / tool).write_text("#!/bin/sh\necho \"fake $0 $*\" >&2\nexit 1\n")
        (bindir / tool).chmod(0o755)
    return str(bindir)


def test_detection(setup):
    with tempfile.TemporaryDirectory() as tmp:
        proc = run_setup(setup, "--dry-run", path=fake_path(tmp, ["dnf"]))
        check(proc.stdout.startswith("manager: dnf\n"), f"dnf detected: {proc.stdout[:40]!r} {proc.stderr!r}")
    with tempfile.TemporaryDirectory() as tmp:
        proc = run_setup(setup, "--dry-run", path=fake_path(tmp, ["apt-get", "dpkg-query", "dnf"]))
        check(proc.stdout.startswith("manager: apt\n"), f"apt preferred when both: {proc.stdout[:40]!r}")
    with tempfile.TemporaryDirectory() as tmp:
        proc = run_setup(setup, "--dry-run", path=fake_path(tmp, []))
        check(proc.returncode == 2 and "neither apt-get nor dnf" in proc.stderr,
              f"no manager: exit {proc.returncode} {proc.stderr!r}")


def test_refusals(setup):
    for args, needle in ((["--manager", "zypper"], "unknown package manager"),
                         (["--manager"], "--manager needs"),
                         (["--frobnicate"], "unknown option --frobnicate")):
        proc = run_setup(setup, "--dry-run", *args)
        check(proc.returncode == 2 and needle in proc.stderr, f"{args}: exit {proc.returncode} {proc.stderr!r}")
    with tempfile.TemporaryDirectory() as tmp:
        bad = Path(tmp) / "bad.tsv"
        bad.write_text("build\tcompiler\tg++\n")
        env = dict(os.environ, RDMI_SETUP_TABLE=str(bad))
        proc = run_setup(setup, "--dry-run", env=env)
        check(proc.returncode == 2 and str(bad) in proc.stderr and "malformed" in proc.stderr,
              f"three-column row: exit {proc.returncode} {proc.stderr!r}")
        env["RDMI_SETUP_TABLE"] = str(Path(tmp) / "absent.tsv")
        proc = run_setup(setup, "--dry-run", env=env)
        check(proc.returncode == 2 and "cannot read" in proc.stderr, f"absent table: {proc.stderr!r}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, default=Path(__file__).resolve().parents[2])
    args = ap.parse_args()
    setup = args.source / "scripts" / "setup.sh"
    rows = read_table(args.source / "scripts" / "packages.tsv")
    test_table(rows)
    test_dry_runs(setup)
    test_detection(setup)
    test_refusals(setup)
    print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
