#!/usr/bin/python3
"""Security rules, each tested against the real binary:

  untrusted-sticky      a libibverbs in a directory under /tmp (sticky, world-writable) owned by
                        another user is never dlopen'ed
  untrusted-group       ... nor one in a group-writable directory
  allow-untrusted-logs  --allow-untrusted-libs loads it and logs the path it loaded
  tool-argv-env         an external tool is run with an argument vector (a prefix named
                        "$(touch pwned)" runs nothing extra) and a cleaned environment
  no-writes             a run writes nothing to its cwd, HOME or TMPDIR; --output writes that
                        file only (no temporary left behind)
  unprivileged          the probe runs as nobody and produces a valid report
  closure-ld-library-path  a trusted libibverbs whose dependency the loader would take from a
                        world-writable LD_LIBRARY_PATH directory is not loaded: the dependency's
                        constructor (it writes a marker file) never runs; with
                        --allow-untrusted-libs it does (so the test can fail)
  closure-sticky-search the same with a sticky world-writable directory (like /tmp)
  closure-runpath       a trusted libdoca_rdmi whose DT_RUNPATH ($ORIGIN/../dep) leads into a
                        world-writable directory holding libdoca_common: never loaded
  explicit-root-static  --root /, /., //, /tmp/.. load nothing and run nothing (live: false);
                        the same run without --root loads the marker library
  closure-needed-origin a trusted library whose DT_NEEDED is "$ORIGIN/../../../evil/<marker>"
                        (a world-writable directory), loaded from the working directory /: the
                        marker's constructor never runs
  tool-interpreter      a doca_caps whose PT_INTERP (its ELF program interpreter) lies in a
                        world-writable directory is never run

The last two link ELF objects with the C compiler in $RDMI_TEST_CC (ctest sets it; without it
they are skipped).

    test_security.py --binary PATH --fixtures DIR [-k SUBSTRING]
"""

import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from hardening_suite import run_tests

NOBODY = pwd.getpwnam("nobody")
TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def run(cfg, args, env=None, cwd=None, user=None):
    base = {k: v for k, v in os.environ.items() if k in ("PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")}
    base.update(env or {})
    said = None
    if base.get("RDMI_FIXTURE_MARKER"):
        # The marker library also reports in UDP datagrams, kept in MARKER.said (see loaded()):
        # the contained child keeps no descriptor the test could pass it.
        said = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        said.bind(("127.0.0.1", 0))
        base["RDMI_FIXTURE_REPORT_PORT"] = str(said.getsockname()[1])
    preexec = None
    if user and os.geteuid() == 0:
        def preexec():
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
    try:
        proc = subprocess.run([str(cfg.binary), *args], env=base, cwd=cwd, capture_output=True, timeout=60,
                              preexec_fn=preexec, stdin=subprocess.DEVNULL)
        if said is not None:
            said.setblocking(False)
            with open(base["RDMI_FIXTURE_MARKER"] + ".said", "ab") as kept:
                while True:
                    try:
                        kept.write(said.recv(65536))
                    except BlockingIOError:
                        break
    finally:
        if said is not None:
            said.close()
    doc = None
    if "--json" in args and "--output" not in args:
        doc = json.loads(proc.stdout)
    return proc, doc


def fake_verbs_copy(cfg, directory: Path):
    directory.mkdir(parents=True, exist_ok=True)
    for f in (cfg.fixtures / "ibverbs").iterdir():
        if f.name.startswith("libibverbs"):
            shutil.copy2(f, directory / f.name, follow_symlinks=False)
    return directory


def verbs_gap(doc):
    verbs = doc["devices"]["verbs"]
    return json.dumps(verbs)


@test
def untrusted_sticky(cfg, scratch):
    if os.geteuid() != 0:
        return ["needs root to create a directory owned by another user"]
    with tempfile.TemporaryDirectory(dir="/tmp") as t:
        planted = fake_verbs_copy(cfg, Path(t) / "planted")
        for p in (Path(t), planted, *planted.iterdir()):
            os.lchown(p, NOBODY.pw_uid, NOBODY.pw_gid)
        proc, doc = run(cfg, ["report", "--json", "--timeout", "5"], {"LD_LIBRARY_PATH": str(planted)})
        text = verbs_gap(doc)
        problems = []
        if "untrusted" not in text or str(planted) not in text:
            problems.append(f"verbs section does not say the planted library is untrusted: {text[:300]}")
        if '"loaded": true' in text:
            problems.append("the planted library was loaded")
        return problems


@test
def untrusted_group(cfg, scratch):
    planted = fake_verbs_copy(cfg, scratch / "group-writable")
    planted.chmod(0o775)
    proc, doc = run(cfg, ["report", "--json", "--timeout", "5"], {"LD_LIBRARY_PATH": str(planted)})
    text = verbs_gap(doc)
    if "untrusted" not in text or "group" not in text:
        return [f"group-writable directory not refused: {text[:300]}"]
    return []


@test
def allow_untrusted_logs(cfg, scratch):
    planted = fake_verbs_copy(cfg, scratch / "group-writable-allowed")
    planted.chmod(0o775)
    proc, doc = run(cfg, ["report", "--json", "--timeout", "5", "--allow-untrusted-libs"],
                    {"LD_LIBRARY_PATH": str(planted)})
    err = proc.stderr.decode(errors="replace")
    problems = []
    if str(planted) not in err or "untrusted" not in err:
        problems.append(f"stderr does not log the untrusted library it loaded: {err[:400]!r}")
    if '"reason": "untrusted"' in verbs_gap(doc) or not doc["devices"]["verbs"].get("devices"):
        problems.append("--allow-untrusted-libs did not load the library (no verbs devices)")
    return problems


@test
def tool_argv_env(cfg, scratch):
    # A prefix whose name a shell would execute; its doca_caps records argv and environment.
    prefix = scratch / "pfx $(touch pwned);x"
    shutil.copytree(cfg.fixtures / "prefixes" / "complete-3.3", prefix, symlinks=True)
    dump = scratch / "tool-dump.txt"
    tool = prefix / "tools" / "doca_caps"
    if tool.exists() or tool.is_symlink():
        tool.unlink()
    tool.write_text(f"#!/bin/sh\n{{ printf 'ARG:%s\\n' \"$@\"; env; }} > '{dump}'\n"
                    "echo 'doca_caps version 3.3.0105'\n")
    tool.chmod(0o755)
    # --no-landlock: the tool reports by writing a file, which Landlock would refuse (this
    # case is about the argument vector and the environment; test_containment.py about that).
    proc, doc = run(cfg, ["report", "--json", "--timeout", "5", "--doca-prefix", str(prefix),
                          "--no-landlock"],
                    {"SECRET_MARKER": "leak", "LD_PRELOAD": "", "PKG_CONFIG_PATH": "/nowhere"}, cwd=scratch)
    problems = []
    if (scratch / "pwned").exists():
        problems.append("a shell interpreted the tool path")
    if not dump.exists():
        return problems + ["the tool was not run"]
    lines = dump.read_text().splitlines()
    args = [l[4:] for l in lines if l.startswith("ARG:")]
    envs = {l.split("=", 1)[0] for l in lines if "=" in l and not l.startswith("ARG:")}
    if not args or any(" " in a for a in args):
        problems.append(f"unexpected argv {args}")
    leaked = envs & {"SECRET_MARKER", "LD_PRELOAD", "PKG_CONFIG_PATH", "HOME"}
    if leaked:
        problems.append(f"environment not cleaned: {sorted(leaked)} reached the tool")
    return problems


def loaded(marker: Path, proc):
    """Whether the marker library's constructor ran since the last look: it writes the marker
    file, and says so in a datagram run() keeps (MARKER.said), also when the contained
    child may not write files (Landlock). Both are emptied for the next run."""
    said = Path(str(marker) + ".said")
    ran = marker.exists() or (said.exists() and "rdmi-fixture-marker: constructor ran" in said.read_text())
    marker.unlink(missing_ok=True)
    said.unlink(missing_ok=True)
    return ran


def marker_env(marker: Path, ld_library_path: str):
    return {"LD_LIBRARY_PATH": ld_library_path, "RDMI_FIXTURE_MARKER": str(marker)}


def verbs_tree(cfg, scratch: Path, evil_mode: int):
    trusted = scratch / "trusted"
    evil = scratch / "evil"
    trusted.mkdir()
    evil.mkdir()
    shutil.copy2(cfg.fixtures / "trust/ibverbs/libibverbs.so.1", trusted / "libibverbs.so.1")
    shutil.copy2(cfg.fixtures / "trust/dep/librdmi-fixture-dep.so.1", evil / "librdmi-fixture-dep.so.1")
    evil.chmod(evil_mode)
    return f"{trusted}:{evil}", evil


def closure_attack(cfg, scratch, evil_mode):
    path, evil = verbs_tree(cfg, scratch, evil_mode)
    marker = scratch / "marker"
    proc, doc = run(cfg, ["report", "--json", "--timeout", "10"], marker_env(marker, path))
    problems = []
    text = verbs_gap(doc)
    if loaded(marker, proc):
        problems.append("the planted dependency's constructor ran")
    if f"{evil}: writable by others" not in text or "librdmi-fixture-dep.so.1" not in text:
        problems.append(f"the verbs section does not name the writable directory: {text[:400]}")
    if "chmod go-w" not in text:
        problems.append("the finding does not say how to fix it")
    proc, doc = run(cfg, ["report", "--json", "--timeout", "10", "--allow-untrusted-libs"],
                    marker_env(marker, path))
    if not loaded(marker, proc):
        problems.append("with --allow-untrusted-libs the dependency was not loaded: the test cannot fail")
    return problems


@test
def closure_ld_library_path(cfg, scratch):
    return closure_attack(cfg, scratch, 0o777)


@test
def closure_sticky_search(cfg, scratch):
    return closure_attack(cfg, scratch, 0o1777)


@test
def closure_runpath(cfg, scratch):
    prefix = scratch / "prefix"
    (prefix / "lib").mkdir(parents=True)
    dep = prefix / "dep"
    dep.mkdir()
    shutil.copy2(cfg.fixtures / "trust/runpath-doca/lib/libdoca_rdmi.so.3", prefix / "lib/libdoca_rdmi.so.3")
    shutil.copy2(cfg.fixtures / "trust/planted-doca/libdoca_common.so.3", dep / "libdoca_common.so.3")
    arch = os.uname().machine
    shutil.copy2(cfg.fixtures / f"libs/{arch}/3.3.0105/libdoca_verbs.so.3.3.0105", dep / "libdoca_verbs.so.3")
    dep.chmod(0o777)
    marker = scratch / "marker"
    args = ["symbols", "--json", "--timeout", "10", "--lib", str(prefix / "lib/libdoca_rdmi.so.3")]
    proc, doc = run(cfg, args, {"RDMI_FIXTURE_MARKER": str(marker)})
    problems = []
    text = json.dumps(doc)
    if loaded(marker, proc):
        problems.append("libdoca_common's constructor ran from the writable DT_RUNPATH directory")
    if "writable by others" not in text or "DT_RUNPATH of" not in text:
        problems.append(f"the document does not name the writable DT_RUNPATH directory: {text[:400]}")
    proc, doc = run(cfg, args + ["--allow-untrusted-libs"], {"RDMI_FIXTURE_MARKER": str(marker)})
    if not loaded(marker, proc):
        problems.append("with --allow-untrusted-libs nothing was loaded: the test cannot fail")
    return problems


def compile_c(args):
    """Runs the test compiler with `args`; None when there is none (a cross build)."""
    cc = os.environ.get("RDMI_TEST_CC")
    if not cc:
        return None
    subprocess.run([cc, *args], check=True, capture_output=True, timeout=120)
    return True


@test
def closure_needed_origin(cfg, scratch):
    evil = scratch / "evil"
    lib_dir = scratch / "a" / "b" / "c"
    lib_dir.mkdir(parents=True)
    evil.mkdir()
    marker_lib = "librdmi-fixture-dep.so.1"
    shutil.copy2(cfg.fixtures / "trust/dep" / marker_lib, evil / marker_lib)
    (scratch / "empty.c").write_text("int rdmi_origin_needed(void) { return 1; }\n")
    # The linker records the soname of what it links against: this stub's is the path.
    stub = scratch / "stub.so"
    if compile_c(["-shared", "-fPIC", "-o", str(stub), str(scratch / "empty.c"),
                  f"-Wl,-soname,$ORIGIN/../../../evil/{marker_lib}"]) is None:
        print("    skipped: no RDMI_TEST_CC")
        return []
    lib = lib_dir / "libtrusted.so"
    compile_c(["-shared", "-fPIC", "-o", str(lib), str(scratch / "empty.c"), "-Wl,--no-as-needed",
               str(stub)])
    evil.chmod(0o777)
    marker = scratch / "marker"
    args = ["symbols", "--json", "--timeout", "10", "--lib", str(lib)]
    proc, doc = run(cfg, args, {"RDMI_FIXTURE_MARKER": str(marker)}, cwd="/")
    problems = []
    text = json.dumps(doc)
    if loaded(marker, proc):
        problems.append("the constructor of the $ORIGIN dependency in a writable directory ran")
    if f"{evil}: writable by others" not in text.replace(str(lib_dir / "../../.."), str(scratch)):
        problems.append(f"the document does not name the writable directory: {text[:400]}")
    proc, doc = run(cfg, args + ["--allow-untrusted-libs"], {"RDMI_FIXTURE_MARKER": str(marker)},
                    cwd="/")
    # Contained, the constructor cannot write the marker file: it says it ran (loaded()).
    if not loaded(marker, proc):
        problems.append("with --allow-untrusted-libs nothing was loaded: the test cannot fail")
    return problems


@test
def tool_interpreter(cfg, scratch):
    prefix = scratch / "prefix"
    shutil.copytree(cfg.fixtures / "prefixes" / "complete-3.3", prefix, symlinks=True)
    evil = scratch / "evil"
    evil.mkdir()
    marker = scratch / "marker"
    source = scratch / "tool.c"
    source.write_text("#include <stdio.h>\n"
                      "int main(void) {\n"
                      f"    FILE* f = fopen(\"{marker}\", \"a\");\n"
                      "    if (f) { fputs(\"ran\\n\", f); fclose(f); }\n"
                      "    puts(\"doca_caps version 3.3.0105\");\n"
                      "    return 0;\n}\n")
    probe = scratch / "probe-default"
    if compile_c(["-o", str(probe), str(source)]) is None:
        print("    skipped: no RDMI_TEST_CC")
        return []
    # The planted interpreter: a copy of this machine's own, so the tool runs when it is used.
    interp = subprocess.run(["readelf", "-l", str(probe)], capture_output=True, text=True).stdout
    loader = interp.split("[Requesting program interpreter: ", 1)[1].split("]", 1)[0]
    shutil.copy2(loader, evil / "ld.so")
    tool = prefix / "tools" / "doca_caps"
    if tool.exists() or tool.is_symlink():
        tool.unlink()
    compile_c(["-o", str(tool), str(source), f"-Wl,--dynamic-linker={evil / 'ld.so'}"])
    evil.chmod(0o777)
    args = ["report", "--json", "--timeout", "10", "--doca-prefix", str(prefix)]
    proc, doc = run(cfg, args)
    problems = []
    text = json.dumps(doc)
    if marker.exists():
        problems.append("doca_caps ran through a program interpreter in a writable directory")
    if f"{evil}: writable by others" not in text or "PT_INTERP" not in text:
        problems.append(f"the report does not name the interpreter's directory: {text[:400]}")
    # The tool says it ran by writing a file: Landlock would refuse it.
    proc, doc = run(cfg, args + ["--allow-untrusted-libs", "--no-landlock"])
    if not marker.exists():
        problems.append("with --allow-untrusted-libs the tool did not run: the test cannot fail")
    return problems


def nss_passwd_modules():
    """The NSS modules /etc/nsswitch.conf names for passwd that glibc loads with dlopen."""
    try:
        lines = Path("/etc/nsswitch.conf").read_text().splitlines()
    except OSError:
        return []
    for line in lines:
        words = line.split("#", 1)[0].split()
        if words and words[0] == "passwd:":
            # "files" is built into glibc 2.34 and later; "[...]" are actions.
            return [w for w in words[1:] if not w.startswith("[") and w != "files"]
    return []


@test
def nss_module_not_loaded(cfg, scratch):
    # Naming the owner of a link at --output (one owned by a user /etc/passwd does not list, as
    # an LDAP or sssd user) looked the uid up with getpwuid_r: glibc then dlopens the NSS modules
    # of nsswitch.conf through LD_LIBRARY_PATH, which the load closure refuses for every library
    # the probe loads itself.
    if os.geteuid() != 0:
        return ["needs root to make a link owned by another user"]
    modules = nss_passwd_modules()
    if not modules:
        print("    skipped: nsswitch.conf names no loadable passwd module")
        return []
    planted = scratch / "planted"
    planted.mkdir()
    marker = scratch / "marker"
    source = scratch / "nss.c"
    source.write_text("#include <fcntl.h>\n#include <unistd.h>\n"
                      "__attribute__((constructor)) static void planted(void) {\n"
                      f"    close(open(\"{marker}\", O_WRONLY | O_CREAT, 0644));\n}}\n")
    for module in modules:
        if compile_c(["-shared", "-fPIC", "-o", str(planted / f"libnss_{module}.so.2"),
                      str(source)]) is None:
            print("    skipped: no RDMI_TEST_CC")
            return []
    planted.chmod(0o777)
    public = scratch / "public"
    public.mkdir()
    public.chmod(0o1777)
    secret = scratch / "secret"
    secret.write_text("root only\n")
    secret.chmod(0o600)
    link = public / "out.json"
    link.symlink_to(secret)
    os.lchown(link, 54321, 54321)  # a uid no /etc/passwd line has (an LDAP user, say)
    proc, _ = run(cfg, ["schema", "error", "--json", "--output", str(link)],
                  {"LD_LIBRARY_PATH": str(planted)})
    problems = []
    err = proc.stderr.decode(errors="replace")
    if proc.returncode != 2 or "uid 54321" not in err:
        problems.append(f"exit {proc.returncode} (want 2), stderr does not name uid 54321: {err[:300]!r}")
    if marker.exists():
        problems.append("an NSS module from a world-writable LD_LIBRARY_PATH directory was loaded")
    return problems


@test
def explicit_root_static(cfg, scratch):
    path, _ = verbs_tree(cfg, scratch, 0o755)
    marker = scratch / "marker"
    problems = []
    proc, doc = run(cfg, ["report", "--json", "--timeout", "10"], marker_env(marker, path))
    if not loaded(marker, proc) or not doc["run"]["live"]:
        problems.append("without --root the fixture libibverbs was not loaded: the test cannot fail")
    for root in ("/", "/.", "//", "/tmp/.."):
        marker.unlink(missing_ok=True)
        for args in (["--root", root], [f"--root={root}"]):
            proc, doc = run(cfg, ["report", "--json", "--timeout", "10", *args], marker_env(marker, path))
            ran = loaded(marker, proc)
            if doc["run"]["live"] or ran:
                problems.append(f"{args}: live {doc['run']['live']}, loaded {ran}")
            if "not loaded under --root" not in verbs_gap(doc):
                problems.append(f"{args}: the verbs section does not say why: {verbs_gap(doc)[:200]}")
    return problems


def listing(d: Path):
    return sorted(str(p.relative_to(d)) for p in d.rglob("*"))


@test
def no_writes(cfg, scratch):
    home = scratch / "home"
    home.mkdir()
    (home / "existing").write_text("x")
    env = {"HOME": str(home), "TMPDIR": str(home), "XDG_CACHE_HOME": str(home), "XDG_CONFIG_HOME": str(home)}
    before = listing(home)
    run(cfg, ["report", "--json", "--timeout", "5"], env, cwd=home)
    run(cfg, ["symbols", "--json", "--lib", str(cfg.fixtures / "libs/versioned/libdoca_rdmi.so")], env, cwd=home)
    problems = []
    if listing(home) != before:
        problems.append(f"files appeared: {sorted(set(listing(home)) - set(before))}")
    run(cfg, ["report", "--json", "--timeout", "5", "--output", str(home / "out.json")], env, cwd=home)
    after = listing(home)
    if after != sorted(before + ["out.json"]):
        problems.append(f"--output wrote more than its file: {after}")
    else:
        json.loads((home / "out.json").read_text())
    return problems


@test
def unprivileged(cfg, scratch):
    root = cfg.fixtures / "roots" / "complete-3.3"
    proc, doc = run(cfg, ["report", "--json", "--root", str(root)], cwd="/", user=NOBODY)
    problems = []
    if proc.returncode not in (0, 1, 3):
        problems.append(f"exit {proc.returncode} as nobody: {proc.stderr.decode(errors='replace')[:300]}")
    if doc is None or doc.get("schema") != "urn:rdmi-probe:schema:report":
        problems.append("no report document as nobody")
    proc, doc = run(cfg, ["report", "--json", "--timeout", "5"], cwd="/", user=NOBODY)
    if proc.returncode not in (0, 1, 3) or doc is None:
        problems.append(f"live run as nobody: exit {proc.returncode}")
    return problems


def main():
    return run_tests(TESTS, __doc__)


if __name__ == "__main__":
    sys.exit(main())
