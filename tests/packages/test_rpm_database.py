#!/usr/bin/env python3
"""The built rdmi-probe on fixture roots that carry an rpm database made by the real rpm tools
(tests/fixtures/rpmdb): a deleted RDMI header is named with its package and `dnf reinstall`;
nothing is created or changed under the root (no -wal or -shm beside the probed database); a
database librpm refuses is a stated reason and the report is still a valid document; a gathered
bundle replays the same answers.

Exit 77 (ctest: skipped) when the build had no rpm to make the fixture databases with."""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

# The header check's fix, as the report carries it.
LINE = ("package doca-sdk-rdmi (version 3.3.0047-1) lists "
        "/opt/mellanox/doca/include/doca_rdmi_poster.h, but "
        "/opt/mellanox/doca/include/doca_rdmi_poster.h is missing: "
        "reinstall doca-sdk-rdmi (dnf reinstall doca-sdk-rdmi)")


def snapshot(root):
    """Every entry under root: its kind, mode, size, modification time and digest."""
    entries = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            facts = (st.st_mode, st.st_size, st.st_mtime_ns)
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as f:
                    facts += (hashlib.sha256(f.read()).hexdigest(),)
            entries[os.path.relpath(path, root)] = facts
    return entries


def make_root(fixtures, database, dest):
    shutil.copytree(os.path.join(fixtures, "roots", "header-missing"), dest, symlinks=True)
    shutil.copytree(os.path.join(fixtures, "rpmdb", database, "var"),
                    os.path.join(dest, "var"), dirs_exist_ok=True)


def run(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=120,
                          check=False)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--fixtures", required=True)
    opts = parser.parse_args()
    if not os.path.exists(os.path.join(opts.fixtures, "rpmdb", "good")):
        print("no rpm fixture databases (rpm and rpmbuild not found at build time): skipped")
        return 77
    failures = []

    def expect(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        # Without the database the same root says nothing of rpm: the baseline exit code.
        plain = os.path.join(tmp, "plain")
        shutil.copytree(os.path.join(opts.fixtures, "roots", "header-missing"), plain,
                        symlinks=True)
        baseline = run(opts.binary, "report", "--root", plain, "--json", "-v")
        expect("rpm records" not in baseline.stderr, "no rpm database: no rpm line")

        root = os.path.join(tmp, "good")
        make_root(opts.fixtures, "good", root)
        before = snapshot(root)
        result = run(opts.binary, "report", "--root", root, "--json", "-v")
        expect(LINE in result.stdout, "a deleted header names its package and dnf reinstall")
        expect(result.returncode == baseline.returncode, "the exit code is the report's own")
        json.loads(result.stdout)
        after = snapshot(root)
        expect(after == before, "nothing created or changed under the root")
        expect(not any(p.endswith(("-wal", "-shm", ".rpm.lock")) for p in after),
               "no -wal, -shm or lock beside the probed database")

        # install-integrity against rpm's SHA-256 digests: the fixture packages hold one-line
        # stand-ins, so a header rewritten to the packaged bytes matches and the rest differ.
        inc = os.path.join(root, "opt/mellanox/doca/include")
        with open(os.path.join(inc, "doca_rdmi_connection.h"), "w", encoding="utf-8") as f:
            f.write("/* doca_rdmi_connection.h */\n")
        integrity = run(opts.binary, "report", "--root", root, "--json", "--integrity")
        document = json.loads(integrity.stdout)
        files = {os.path.basename(f["path"]): f for f in document["install_integrity"]["files"]}
        same = files.get("doca_rdmi_connection.h", {})
        expect(same.get("algorithm") == "sha256" and same.get("verdict") == "matches"
               and same.get("digest") == same.get("recorded_digest"),
               "integrity: a header with the packaged bytes matches rpm's SHA-256")
        other = files.get("doca_rdmi_dev_poster.h", {})
        expect(other.get("verdict") == "differs" and other.get("package") == "doca-sdk-rdmi",
               "integrity: a header with other bytes differs, naming its rpm package")
        verdict = [c for c in document["checks"] if c["id"] == "install-integrity"]
        expect(len(verdict) == 1 and verdict[0]["status"] == "fail"
               and "dnf reinstall doca-sdk-rdmi" in (verdict[0].get("remediation") or ""),
               "integrity: the check fails with the dnf command")

        for name in ("garbage", "truncated"):
            bad = os.path.join(tmp, name)
            make_root(opts.fixtures, name, bad)
            refused = run(opts.binary, "report", "--root", bad, "--json", "-v")
            expect(refused.returncode == baseline.returncode, f"{name}: the report's exit code")
            json.loads(refused.stdout)
            expect("/var/lib/rpm/rpmdb.sqlite: librpm refuses the database: sqlite failure"
                   in refused.stdout + refused.stderr, f"{name}: the refusal names the file and librpm's reason")
            expect("rdmi-probe." not in refused.stderr,
                   f"{name}: the private copy's path is not shown")

        bundle = os.path.join(tmp, "b.tar.gz")
        gathered = run(opts.binary, "gather", "--root", root, "--output", bundle, "-v")
        expect(gathered.returncode == 0 and "rpm records: read" in gathered.stderr, "gather asks librpm")
        replayed = run(opts.binary, "report", "--root", bundle, "--json", "-v")
        expect(LINE in replayed.stdout, "the bundle replays the captured answers")
        expect("rpm records: read /var/lib/rpm/rpmdb.sqlite (captured)" in replayed.stderr,
               "the replay says its answers are captured")
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
