#!/usr/bin/python3
"""Root reads through a symbolic link only when the link's owner is root or owns the target.
Each test plants, as the user nobody, links in directories nobody owns (a --doca-prefix, a
PKG_CONFIG_PATH directory, a path given to --lib) that lead to a file only root may read, runs
the probe as root, and looks for the file's bytes everywhere the run leaves text; then runs it
again with --allow-foreign-links, where the bytes must appear (so that each test can fail) and
stderr must say which link was followed.

  report-message        the report (text and --json) shows no byte of the file reached through
                        the prefix's applications/VERSION; the JSON names the link, its owner
                        and the target's owner
  gather-bundle         gather's bundle (members and manifest) holds no byte of it; the replay
                        gives the same refusal
  pkg-config-path       a .pc in a PKG_CONFIG_PATH directory nobody owns, linked to root's file:
                        its Version never reaches the report
  user-named-lib        symbols --lib through nobody's link to a root-only library: refused,
                        exit 2, one line naming the link
  as-nobody             the same prefix probed as nobody: no rule is needed, the kernel refuses
                        the read (permission denied) and nothing leaks
  archive-root-link     --root b.tar.gz, nobody's link to a bundle only root may read: refused
                        (exit 2, the error names the link), nothing of the bundle reported
  no-openat2-swap       without openat2 (a seccomp filter answers it ENOSYS, then EPERM), a
                        directory of nobody's prefix is swapped for nobody's link to root's
                        directory between the walk and the open (the stall shim stops the probe
                        at the walk's look at the file): the file below the link is never read
  hard-link             a hard link in nobody's prefix to root's file that others may not read
                        (made by root here: nobody could where fs.protected_hardlinks is 0): not
                        read (untrusted, naming the directory's owner); the same link to a file
                        others may read is read

    test_foreign_links.py --binary PATH --fixtures DIR --refuse-syscalls-exec RSE
                          --stall-preload SHIM [-k SUBSTRING]
"""

import json
import os
import pwd
import shutil
import subprocess
import sys
import tarfile
import threading
from pathlib import Path

from hardening_suite import run_tests

NOBODY = pwd.getpwnam("nobody")
SECRET = "TOPSECRET-7f3a9c"
TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def run(cfg, args, env=None, user=None):
    base = {k: v for k, v in os.environ.items()
            if k in ("PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")}
    base.update(env or {})
    preexec = None
    if user is not None:
        def preexec():
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
    return subprocess.run([str(cfg.binary), "--timeout", "60", *args], env=base, cwd="/",
                          capture_output=True, text=True, errors="replace", timeout=120,
                          preexec_fn=preexec, stdin=subprocess.DEVNULL)


def vault(scratch: Path, name: str, content: str) -> Path:
    """A file only root may read, in a directory only root may enter."""
    directory = scratch / "vault"
    directory.mkdir(mode=0o700, exist_ok=True)
    path = directory / name
    path.write_text(content)
    path.chmod(0o600)
    return path


def give_to_nobody(top: Path):
    for p in [top, *top.rglob("*")]:
        os.lchown(p, NOBODY.pw_uid, NOBODY.pw_gid)


def plant_link(target: Path, link: Path):
    """nobody makes the link, as they would in a directory of theirs."""
    if link.exists() or link.is_symlink():
        link.unlink()
    subprocess.run(["setpriv", f"--reuid={NOBODY.pw_uid}", f"--regid={NOBODY.pw_gid}",
                    "--clear-groups", "ln", "-s", str(target), str(link)], check=True)
    if link.lstat().st_uid != NOBODY.pw_uid:
        raise RuntimeError(f"{link} is not nobody's")


def nobody_prefix(cfg, scratch: Path) -> Path:
    """The complete fixture prefix, owned by nobody, its applications/VERSION nobody's link to
    root's file (whose first line the report would print as the version it could not parse)."""
    secret = vault(scratch, "secret", f"{SECRET}\nsecond line\n")
    prefix = scratch / "home" / "prefix"
    prefix.parent.mkdir()
    shutil.copytree(cfg.fixtures / "prefixes" / "complete-3.3", prefix, symlinks=True)
    give_to_nobody(prefix.parent)
    plant_link(secret, prefix / "applications" / "VERSION")
    return prefix


def needs_root():
    return ["needs root: the rule is root's, and nobody must own the links"] if os.geteuid() else []


def leaks(*texts):
    return any(SECRET in t for t in texts)


def refusal_named(text, link):
    return (f"{link}: not followed: symbolic link owned by uid {NOBODY.pw_uid} (nobody), "
            "target owned by root" in text)


def check_override(cfg, args, problems, env=None, expect_secret=True):
    """With --allow-foreign-links the link is followed (the test could fail) and logged."""
    proc = run(cfg, ["--allow-foreign-links", *args], env)
    if expect_secret and not leaks(proc.stdout):
        problems.append("with --allow-foreign-links the file's bytes do not appear: the test "
                        f"cannot fail ({proc.stdout[:200]!r})")
    if "warning: following a symbolic link because of --allow-foreign-links" not in proc.stderr:
        problems.append(f"--allow-foreign-links is not logged at warn level: {proc.stderr[:300]!r}")
    return proc


@test
def report_message(cfg, scratch):
    if needs_root():
        return needs_root()
    prefix = nobody_prefix(cfg, scratch)
    link = prefix / "applications" / "VERSION"
    problems = []
    text = run(cfg, ["report", "--doca-prefix", str(prefix)])
    js = run(cfg, ["report", "--json", "--doca-prefix", str(prefix)])
    for proc, how in ((text, "text"), (js, "json")):
        if proc.returncode not in (0, 1, 3):
            problems.append(f"{how}: exit {proc.returncode}: {proc.stderr[:200]}")
        if leaks(proc.stdout, proc.stderr):
            problems.append(f"{how}: the root-only file's first line is in the report")
    doc = json.loads(js.stdout)
    if not refusal_named(js.stdout, link):
        problems.append(f"the JSON report does not name the refused link: {js.stdout[:300]}")
    if '"untrusted"' not in js.stdout:
        problems.append("the refusal is not an untrusted gap")
    if doc.get("schema") != "urn:rdmi-probe:schema:report":
        problems.append("not a report document")
    check_override(cfg, ["report", "--doca-prefix", str(prefix)], problems)
    return problems


def bundle_texts(bundle: Path):
    with tarfile.open(bundle) as tar:
        for member in tar.getmembers():
            if member.isfile():
                yield member.name, tar.extractfile(member).read().decode(errors="replace")


@test
def gather_bundle(cfg, scratch):
    if needs_root():
        return needs_root()
    prefix = nobody_prefix(cfg, scratch)
    link = prefix / "applications" / "VERSION"
    bundle = scratch / "bundle.tar.gz"
    env = {"TMPDIR": str(scratch)}
    problems = []
    proc = run(cfg, ["--doca-prefix", str(prefix), "gather", "--output", str(bundle)], env)
    if proc.returncode != 0:
        return [f"gather exit {proc.returncode}: {proc.stderr[:300]}"]
    for name, text in bundle_texts(bundle):
        if SECRET in text:
            problems.append(f"the bundle's {name} holds the root-only file's bytes")
    replay = run(cfg, ["--root", str(bundle), "report", "--json"], env)
    if leaks(replay.stdout) or not refusal_named(replay.stdout, link):
        problems.append(f"the replay does not give the same refusal: {replay.stdout[:300]}")
    allowed = scratch / "allowed.tar.gz"
    check_override(cfg, ["--doca-prefix", str(prefix), "gather", "--output", str(allowed)],
                   problems, env, expect_secret=False)
    if not allowed.exists() or not any(SECRET in text for _, text in bundle_texts(allowed)):
        problems.append("with --allow-foreign-links the bundle does not hold the file: the test "
                        "cannot fail")
    return problems


@test
def pkg_config_path(cfg, scratch):
    if needs_root():
        return needs_root()
    arch = os.uname().machine
    pcdir = cfg.fixtures / "prefixes" / "complete-3.3" / "lib" / f"{arch}-linux-gnu" / "pkgconfig"
    if not pcdir.is_dir():
        return [f"no fixture pkg-config directory {pcdir}"]
    original = (pcdir / "doca-common.pc").read_text()
    # root's own copy of the module, its version a marker: followed, it would be the version.
    marked = "\n".join(f"Version: 77.7.7777 {SECRET}" if line.startswith("Version:") else line
                       for line in original.splitlines()) + "\n"
    secret = vault(scratch, "doca-common.pc", marked)
    mine = scratch / "home" / "pc"
    mine.mkdir(parents=True)
    for pc in pcdir.iterdir():
        shutil.copy2(pc, mine / pc.name, follow_symlinks=True)
    give_to_nobody(mine.parent)
    plant_link(secret, mine / "doca-common.pc")
    env = {"PKG_CONFIG_PATH": str(mine)}
    problems = []
    proc = run(cfg, ["report", "--json"], env)
    if leaks(proc.stdout, proc.stderr) or "77.7.7777" in proc.stdout:
        problems.append("the root-only .pc file reached the report")
    if not refusal_named(proc.stdout, mine / "doca-common.pc"):
        problems.append(f"the report does not name the refused .pc link: {proc.stdout[:300]}")
    over = check_override(cfg, ["report", "--json"], problems, env, expect_secret=False)
    if "77.7.7777" not in over.stdout:
        problems.append("with --allow-foreign-links the .pc is not read: the test cannot fail")
    return problems


@test
def user_named_lib(cfg, scratch):
    if needs_root():
        return needs_root()
    arch = os.uname().machine
    lib = cfg.fixtures / "libs" / arch / "3.3.0105" / "libdoca_rdmi.so.3.3.0105"
    if not lib.exists():
        return [f"no fixture library {lib}"]
    hidden = scratch / "vault" / "libdoca_rdmi.so"
    hidden.parent.mkdir(mode=0o700)
    shutil.copy2(lib, hidden)
    hidden.chmod(0o600)
    home = scratch / "home"
    home.mkdir()
    give_to_nobody(home)
    link = home / "libdoca_rdmi.so"
    plant_link(hidden, link)
    problems = []
    proc = run(cfg, ["symbols", "--json", "--lib", str(link)])
    if proc.returncode != 2:
        problems.append(f"exit {proc.returncode}, not 2")
    if not refusal_named(proc.stderr, link) or proc.stderr.count("\n") != 1:
        problems.append(f"stderr is not one line naming the link: {proc.stderr[:300]!r}")
    try:
        json.loads(proc.stdout)
    except ValueError:
        problems.append(f"--json gave no valid document: {proc.stdout[:200]!r}")
    over = run(cfg, ["--allow-foreign-links", "symbols", "--json", "--lib", str(link)])
    if over.returncode == 2 or "doca_rdmi" not in over.stdout:
        problems.append(f"with --allow-foreign-links the library is not audited: exit "
                        f"{over.returncode}: the test cannot fail")
    return problems


@test
def as_nobody(cfg, scratch):
    if needs_root():
        return needs_root()
    prefix = nobody_prefix(cfg, scratch)
    problems = []
    proc = run(cfg, ["report", "--json", "--doca-prefix", str(prefix)], user=NOBODY)
    if proc.returncode not in (0, 1, 3):
        problems.append(f"exit {proc.returncode} as nobody: {proc.stderr[:200]}")
    if leaks(proc.stdout, proc.stderr):
        problems.append("nobody read root's file")
    if "permission denied" not in proc.stdout or "not followed" in proc.stdout:
        problems.append("as nobody the read should fail with the kernel's permission denied, "
                        f"not the owner rule: {proc.stdout[:300]}")
    return problems


def as_nobody(*argv):
    return subprocess.run(["setpriv", f"--reuid={NOBODY.pw_uid}", f"--regid={NOBODY.pw_gid}",
                           "--clear-groups", *argv], capture_output=True, text=True)


@test
def archive_root_link(cfg, scratch):
    if needs_root():
        return needs_root()
    # root's bundle of a prefix whose VERSION holds the marker, kept where only root may look.
    mine = scratch / "root-prefix"
    shutil.copytree(cfg.fixtures / "prefixes" / "complete-3.3", mine, symlinks=True)
    version = mine / "applications" / "VERSION"
    version.unlink()
    version.write_text(f"{SECRET}\n")
    hidden = vault(scratch, "private.tar.gz", "")
    env = {"TMPDIR": str(scratch)}
    made = run(cfg, ["--doca-prefix", str(mine), "gather", "--output", str(hidden)], env)
    if made.returncode != 0:
        return [f"gather exit {made.returncode}: {made.stderr[:300]}"]
    hidden.chmod(0o600)
    home = scratch / "home"
    home.mkdir()
    give_to_nobody(home)
    link = home / "b.tar.gz"
    plant_link(hidden, link)
    problems = []
    proc = run(cfg, ["--root", str(link), "report", "--json"], env)
    if leaks(proc.stdout, proc.stderr):
        problems.append("the root-only bundle was replayed through nobody's link")
    if proc.returncode != 2 or not refusal_named(proc.stdout + proc.stderr, link):
        problems.append(f"exit {proc.returncode}, the refusal is not named: "
                        f"{proc.stdout[:300]!r} {proc.stderr[:300]!r}")
    if '"urn:rdmi-probe:schema:error"' not in proc.stdout:
        problems.append("the refusal is not an error document")
    over = run(cfg, ["--allow-foreign-links", "--root", str(link), "report", "--json"], env)
    if not leaks(over.stdout):
        problems.append("with --allow-foreign-links the bundle is not replayed: the test cannot "
                        f"fail ({over.returncode}: {over.stderr[:200]!r})")
    return problems


@test
def hard_link(cfg, scratch):
    if needs_root():
        return needs_root()
    prefix = scratch / "home" / "prefix"
    prefix.parent.mkdir()
    shutil.copytree(cfg.fixtures / "prefixes" / "complete-3.3", prefix, symlinks=True)
    give_to_nobody(prefix.parent)
    # Reachable by name (a searchable directory, as /etc/shadow is), readable by root alone.
    public = scratch / "etc"
    public.mkdir(mode=0o755)
    shadow = public / "shadow"
    shadow.write_text(f"{SECRET}\n")
    shadow.chmod(0o600)
    version = prefix / "applications" / "VERSION"
    version.unlink(missing_ok=True)
    os.link(shadow, version)
    problems = []
    proc = run(cfg, ["report", "--json", "--doca-prefix", str(prefix)])
    if leaks(proc.stdout, proc.stderr):
        problems.append("root's file was read through a hard link in nobody's directory")
    if (f"{version}: not read: a file with 2 names (a hard link) owned by root and not readable "
            f"by others, in a directory owned by uid {NOBODY.pw_uid} (nobody)") not in proc.stdout:
        problems.append(f"the refusal is not named: {proc.stdout[:300]}")
    if '"untrusted"' not in proc.stdout:
        problems.append("the refusal is not an untrusted gap")
    check_override(cfg, ["report", "--json", "--doca-prefix", str(prefix)], problems)
    # Others may read it: the hard link gives nobody nothing they could not read already.
    shadow.chmod(0o644)
    proc = run(cfg, ["report", "--json", "--doca-prefix", str(prefix)])
    if not leaks(proc.stdout):
        problems.append(f"a world-readable hard-linked file was not read: {proc.stdout[:300]}")
    return problems


def stalled_run(cfg, scratch, argv, name, change):
    """Runs argv with the stall shim stopping it after its first look at `name`, calls
    change() there, lets it go on; (the finished process, problems)."""
    stall = scratch / "stall"
    shutil.rmtree(stall, ignore_errors=True)
    stall.mkdir(mode=0o700)
    os.mkfifo(stall / "paused")
    os.mkfifo(stall / "resume")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "LD_PRELOAD": str(cfg.stall_preload.resolve()),
           "STALL_NAME": name, "STALL_DIR": str(stall)}
    proc = subprocess.Popen(argv, env=env, cwd="/", stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                            errors="replace")
    problems = []

    def in_thread(fn):
        out = []
        worker = threading.Thread(target=lambda: out.append(fn()), daemon=True)
        worker.start()
        worker.join(60)
        return out[0] if out else None

    try:
        if in_thread(lambda: (stall / "paused").read_bytes()) != b"paused\n":
            problems.append(f"the probe never looked at {name} (the shim did not stop it)")
        else:
            problems += change()
        in_thread(lambda: (stall / "resume").write_bytes(b"go\n"))
        proc.stdout_text, proc.stderr_text = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc, problems


@test
def no_openat2_swap(cfg, scratch):
    if needs_root():
        return needs_root()
    problems = []
    for answer in ("ENOSYS", "EPERM"):
        case = scratch / answer
        case.mkdir()
        # root's directory, holding a VERSION only root may read.
        vault_dir = case / "vault"
        vault_dir.mkdir(mode=0o700)
        (vault_dir / "VERSION").write_text(f"{SECRET}\n")
        (vault_dir / "VERSION").chmod(0o600)
        prefix = case / "home" / "prefix"
        prefix.parent.mkdir()
        shutil.copytree(cfg.fixtures / "prefixes" / "complete-3.3", prefix, symlinks=True)
        apps = prefix / "applications"
        (apps / "VERSION").unlink(missing_ok=True)
        (apps / "VERSION").write_text("3.3.0105\n")
        give_to_nobody(prefix.parent)

        def swap():
            moved = as_nobody("sh", "-c", 'mv "$0" "$0.old" && ln -s "$1" "$0"', str(apps),
                              str(vault_dir))
            if moved.returncode != 0 or not apps.is_symlink():
                return [f"{answer}: nobody could not swap the directory: {moved.stderr[:200]!r}"]
            return []

        argv = [str(cfg.refuse_syscalls_exec.resolve()), answer, "openat2", str(cfg.binary),
                "--timeout", "60", "report", "--json", "--doca-prefix", str(prefix)]
        proc, found = stalled_run(cfg, case, argv, "VERSION", swap)
        problems += found
        if leaks(proc.stdout_text, proc.stderr_text):
            problems.append(f"{answer}: root's VERSION was read through the link swapped in "
                            "after the walk")
        if proc.returncode not in (0, 1, 3):
            problems.append(f"{answer}: exit {proc.returncode}: {proc.stderr_text[:300]}")
    return problems


def main():
    return run_tests(TESTS, __doc__, extra_paths=("--refuse-syscalls-exec", "--stall-preload"))


if __name__ == "__main__":
    sys.exit(main())
