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
# RPM names may hold capitals (Fedora's ShellCheck); Debian's may not.
DNF_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9+._-]+$")
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
    for dry in ([], ["--dry-run"]):
        for option in ("--cross-arm64", "--release"):
            proc = run_setup(setup, *dry, "--manager", "dnf", option)
            check(proc.returncode == 2 and "multiarch" in proc.stderr and proc.stdout == "",
                  f"dnf {option} {dry}: {proc.returncode} {proc.stdout!r} {proc.stderr!r}")


def fake_path(tmp, tools):
    """A PATH holding only the tools setup.sh uses before it installs, plus fake ones."""
    bindir = Path(tempfile.mkdtemp(dir=tmp, prefix="bin-"))
    for tool in ("bash", "dirname", "sed", "id", "grep", "cat", "head", "tail", "tr"):
        found = shutil.which(tool)
        if found:
            os.symlink(found, bindir / tool)
    for tool in tools:
        (bindir / tool).write_text("#!/bin/sh\necho \"fake $0 $*\" >&2\nexit 1\n")
        (bindir / tool).chmod(0o755)
    return str(bindir)


OS_RELEASES = {
    "debian": 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n',
    "ubuntu": 'NAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\n',
    "mint": 'ID=linuxmint\nID_LIKE="ubuntu debian"\n',
    "fedora": 'NAME="Fedora Linux"\nID=fedora\nVERSION_ID=40\n',
    "rhel": 'ID="rhel"\nID_LIKE="fedora"\nVERSION_ID="9.4"\n',
    "rocky": "ID='rocky'\r\nID_LIKE='rhel centos fedora'\r\n",
    "arch": "ID=arch\n",
    "suse": 'ID="opensuse-leap"\nID_LIKE="suse opensuse"\n',
    # Parsed, never run: a command substitution is text that names no family.
    "hostile": "ID=$(touch {tmp}/ran)\nID_LIKE=`touch {tmp}/ran`\n",
    "binary": "\x00\x01ID\x00=debian\x7f\n",
}


def detect(setup, tmp, os_release, tools):
    """setup.sh --dry-run with only `tools` on PATH and `os_release` (a name of OS_RELEASES, a path,
    or None for an absent file) as the os-release file: (exit, manager or None, stderr)."""
    path = Path(tmp) / "os-release"
    if os_release in OS_RELEASES:
        path.write_text(OS_RELEASES[os_release].replace("{tmp}", tmp))
    elif os_release is not None:
        path = Path(os_release)
    else:
        path = Path(tmp) / "absent"
    env = dict(os.environ, RDMI_SETUP_OS_RELEASE=str(path), PATH=fake_path(tmp, tools))
    proc = run_setup(setup, "--dry-run", env=env)
    first = proc.stdout.splitlines()[:1]
    manager = first[0].removeprefix("manager: ") if first and first[0].startswith("manager: ") else None
    return proc.returncode, manager, proc.stderr


def test_detection(setup):
    both = ["apt-get", "dpkg-query", "dnf"]
    # os-release names the family, whatever else is installed: Fedora packages apt and dpkg (to
    # build Debian packages), Debian packages dnf.
    for name, tools, want in (("debian", both, "apt"), ("ubuntu", both, "apt"), ("mint", both, "apt"),
                              ("fedora", both, "dnf"), ("rhel", both, "dnf"), ("rocky", both, "dnf"),
                              ("debian", ["apt-get", "dpkg-query"], "apt"), ("fedora", ["dnf"], "dnf")):
        with tempfile.TemporaryDirectory() as tmp:
            rc, manager, err = detect(setup, tmp, name, tools)
            check(rc == 0 and manager == want and f"{want}, as " in err,
                  f"{name} with {tools}: want {want}, got exit {rc} {manager} {err!r}")
    # The family's own manager missing: refused, never the other family's names.
    for name, tools, needle in (("debian", ["dnf"], "Debian-like, but apt-get or dpkg-query is missing"),
                                ("ubuntu", ["apt-get"], "Debian-like, but apt-get or dpkg-query is missing"),
                                ("fedora", ["apt-get", "dpkg-query"], "Fedora/RHEL-like, but dnf is missing"),
                                ("rhel", [], "Fedora/RHEL-like, but dnf is missing")):
        with tempfile.TemporaryDirectory() as tmp:
            rc, manager, err = detect(setup, tmp, name, tools)
            check(rc == 2 and manager is None and needle in err, f"{name} with {tools}: exit {rc} {manager} {err!r}")
    # No family known (no os-release, another distribution, a file that is no os-release): the one
    # manager there is, and both refused.
    with tempfile.TemporaryDirectory() as tmp:
        fifo = Path(tmp) / "fifo"
        os.mkfifo(fifo)
        for os_release in (None, "arch", "suse", "hostile", "binary", str(fifo), tmp):
            rc, manager, err = detect(setup, tmp, os_release, ["dnf"])
            check(rc == 0 and manager == "dnf" and "the only package manager found" in err,
                  f"{os_release} with dnf only: exit {rc} {manager} {err!r}")
            rc, manager, err = detect(setup, tmp, os_release, both)
            check(rc == 2 and manager is None and "choose with --manager" in err,
                  f"{os_release} with both: exit {rc} {manager} {err!r}")
            rc, manager, err = detect(setup, tmp, os_release, [])
            check(rc == 2 and "neither apt-get nor dnf" in err, f"{os_release} with none: exit {rc} {err!r}")
        check(not (Path(tmp) / "ran").exists(), "os-release is parsed, never run")
    # --manager overrides the family.
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "os-release"
        path.write_text(OS_RELEASES["fedora"])
        env = dict(os.environ, RDMI_SETUP_OS_RELEASE=str(path))
        proc = run_setup(setup, "--dry-run", "--manager", "apt", env=env)
        check(proc.stdout.startswith("manager: apt\n"), f"--manager apt on Fedora: {proc.stdout[:40]!r}")


def test_refusals(setup):
    for args, needle in ((["--manager", "zypper"], "unknown package manager"),
                         (["--manager"], "--manager needs"),
                         (["--manager", ""], "--manager needs"),
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
