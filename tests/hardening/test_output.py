#!/usr/bin/python3
"""--output never replaces what it must not, each rule tested against the real binary:

  char-device       a character device node (made with mknod in a temporary directory, a
                    private /dev/null) is written in place and stays a device; one that refuses
                    the write (a private /dev/full) gives exit 2, and the node stays
  block-device      a block device node is refused (exit 2) and stays
  fifo              a FIFO is written in place: the reader gets the document, the FIFO stays
  socket            a listening Unix socket gets the document over a connection and stays
  fifo-without-reader   a FIFO nobody opens: --timeout ends the wait (exit 2, JSON error
                    document, "no process opened it for reading")
  fifo-without-reader-interrupted   SIGINT or SIGTERM during that wait: exit 130 or 143 and
                    the signal's JSON error document on stdout (the document never got there)
  fifo-reader-stalls, socket-reader-stalls   a reader that takes part of a megabytes-long
                    document and then nothing: --timeout ends the write, stderr says how far
  symlink-regular   a link to a regular file: the file is replaced (mode kept), the link stays
  symlink-stdout    a link to /proc/self/fd/1 writes to the probe's stdout, and stays a link
  symlink-dangling  a link to nothing is refused (exit 2); nothing is created
  symlink-foreign-owner   (root) a link owned by nobody in a sticky directory, to a root-only
                    file, directly or behind a link root owns: refused (exit 2, one line naming
                    the link and "nobody", the error document), the file and the link as they
                    were; a link owned by nobody to /proc/self/fd/1 is still written through
  race-swap-for-link   (root) nobody's 0666 file in a sticky directory, swapped by nobody for a
                    link to a root-only file right after the probe's first look at the name (an
                    LD_PRELOAD shim stops the probe there until the swap is done): the root-only
                    file keeps its content, owner and mode
  symlink-foreign-device   (root) nobody's link to a root-only FIFO or a device node: refused
                    (exit 2, one line naming the link and nobody); the FIFO gets nothing
  symlink-foreign-directory   (root) nobody's link among the directories of --output, to a
                    root-only directory: refused (exit 2), nothing written there; root's own
                    link there is followed
  stdout-chain      --output /dev/stdout to a pipe, a file and a terminal, as root and as nobody
  hard-link-root-file-sticky   (root) a name in a sticky directory that shares a root-only
                    file: replaced by a rename, the root-only file keeps its content
  race-socket-swap  (root) nobody's socket, swapped for a link to a root-only socket right
                    after the probe's first look: the root-only socket gets nothing
  bundle-foreign-owner   (root) gather --output to nobody's file or FIFO: refused (exit 2)
  file-size-limit   a document larger than RLIMIT_FSIZE: exit 2 (EFBIG named), no temporary
                    left, the old file kept
  hard-links-foreign-owner   (root) a file owned by nobody with two names: refused (exit 2),
                    never written in place; both names keep their content
  bundle-mode       gather: a new bundle is 0600 whatever the umask; an existing one keeps its
                    mode
  keep-mode-owner   an existing 0600 file owned by nobody keeps its mode and owner
  new-file-umask    a new file is 0644 less the umask (umask 027: 0640)
  daemon-file-mode  report --format prometheus / nfd: a new file is 0644 even under umask 077
                    (node_exporter and nfd-worker read it as other users); an existing file
                    keeps its mode
  hard-links        a file with two names, in a directory only its owner may write, is
                    rewritten in place: both names see the document
  long-name         a target name of 255 bytes is created and replaced (the temporary's name
                    is shortened to fit)
  format-conflict   report --json --format prometheus|nfd --output FILE: exit 2, the error
                    document on stdout, FILE untouched
  json-errors       --json with a missing directory, an unwritable directory or a directory
                    target: exit 2 and the JSON error document on stdout
  stdout-refused    stdout on /dev/full or closed, for a whole document (schema), for a
                    streamed one (symbols --json, written in pieces) and for the text answered
                    before any session (help, -V, __option-model, __complete): exit 2 and one
                    stderr line that says why ("stdout: write failed: No space left on device")

    test_output.py --binary PATH [-k SUBSTRING]
"""

import glob
import json
import os
import pwd
import signal
import re
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

from hardening_suite import run_tests

NOBODY = pwd.getpwnam("nobody")
TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def run(cfg, args, umask=None, user=None):
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")}

    def preexec():
        if umask is not None:
            os.umask(umask)
        if user is not None and os.geteuid() == 0:
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)

    return subprocess.run([str(cfg.binary), *args], env=env, capture_output=True, timeout=60,
                          preexec_fn=preexec, stdin=subprocess.DEVNULL)


def schema_to(cfg, target, extra=(), **kw):
    return run(cfg, ["schema", "error", "--json", "--output", str(target), *extra], **kw)


def is_error_document(stdout: bytes, code=2):
    try:
        doc = json.loads(stdout)
    except ValueError:
        return False
    return doc.get("schema") == "urn:rdmi-probe:schema:error" and doc["error"]["exit_code"] == code


def needs_root():
    return None if os.geteuid() == 0 else ["needs root (mknod, chown)"]


@test
def char_device(cfg, scratch):
    if needs_root():
        return []
    problems = []
    null = scratch / "null"
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    proc = schema_to(cfg, null)
    if proc.returncode != 0 or not stat.S_ISCHR(null.lstat().st_mode):
        problems.append(f"null: exit {proc.returncode}, still a device: {stat.S_ISCHR(null.lstat().st_mode)}")
    full = scratch / "full"
    os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    proc = schema_to(cfg, full)
    if proc.returncode != 2 or not stat.S_ISCHR(full.lstat().st_mode):
        problems.append(f"full: exit {proc.returncode} (want 2), still a device: {stat.S_ISCHR(full.lstat().st_mode)}")
    if not is_error_document(proc.stdout):
        problems.append(f"full: no JSON error document on stdout: {proc.stdout[:200]!r}")
    leftovers = [p.name for p in scratch.iterdir() if p.name.startswith(".")]
    if leftovers:
        problems.append(f"temporary files left: {leftovers}")
    return problems


@test
def block_device(cfg, scratch):
    if needs_root():
        return []
    blk = scratch / "blk"
    os.mknod(blk, 0o600 | stat.S_IFBLK, os.makedev(7, 250))
    proc = schema_to(cfg, blk)
    problems = []
    if proc.returncode != 2 or not stat.S_ISBLK(blk.lstat().st_mode):
        problems.append(f"exit {proc.returncode}, still a block device: {stat.S_ISBLK(blk.lstat().st_mode)}")
    if b"block device" not in proc.stderr:
        problems.append(f"stderr does not say why: {proc.stderr[:200]!r}")
    return problems


@test
def fifo(cfg, scratch):
    path = scratch / "fifo"
    os.mkfifo(path)
    got = []
    reader = threading.Thread(target=lambda: got.append(path.read_bytes()))
    reader.start()
    proc = schema_to(cfg, path)
    reader.join(30)
    problems = []
    if proc.returncode != 0 or not stat.S_ISFIFO(path.lstat().st_mode):
        problems.append(f"exit {proc.returncode}, still a FIFO: {stat.S_ISFIFO(path.lstat().st_mode)}")
    if not got or b'"$schema"' not in got[0]:
        problems.append("the reader did not get the document")
    return problems


def big_document_args(target):
    """A command whose document is megabytes (far above a pipe's or socket's buffer)."""
    libs = sorted(glob.glob("/usr/lib/*/libstdc++.so.6"))
    if not libs:
        return None
    return ["--timeout", "1", "symbols", "--json", "--lib", libs[0], "--prefix", "_Z",
            "--output", str(target)]


def run_ended_by_timeout(cfg, args):
    """Runs a --timeout 1 command that must end by its timeout: (proc, problems so far)."""
    start = time.monotonic()
    proc = run(cfg, args)
    took = time.monotonic() - start
    if proc.returncode != 2 or took > 20:
        return proc, [f"exit {proc.returncode} after {took:.1f} s (want 2, about 1 s)"]
    return proc, []


@test
def fifo_without_reader(cfg, scratch):
    # Opening a FIFO for writing waits for a reader: with none, --timeout ends the wait.
    path = scratch / "fifo"
    os.mkfifo(path)
    proc, problems = run_ended_by_timeout(
        cfg, ["--timeout", "1", "schema", "error", "--json", "--output", str(path)])
    if b"no process opened it for reading within 1 s" not in proc.stderr:
        problems.append(f"stderr does not say why: {proc.stderr[:200]!r}")
    if not is_error_document(proc.stdout):
        problems.append(f"no JSON error document on stdout: {proc.stdout[:200]!r}")
    return problems


@test
def fifo_without_reader_interrupted(cfg, scratch):
    # A signal while the document waits for the FIFO's reader: the document never reached
    # stdout, so stdout gets the error document of the signal, as any --json run ended by one.
    path = scratch / "fifo"
    os.mkfifo(path)
    problems = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        proc = subprocess.Popen([str(cfg.binary), "--timeout", "30", "schema", "error", "--json",
                                 "--output", str(path)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        time.sleep(0.5)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=20)
        if proc.returncode != 128 + sig:
            problems.append(f"{sig.name}: exit {proc.returncode}, want {128 + sig}: {err[:200]!r}")
        if not is_error_document(out, 128 + sig):
            problems.append(f"{sig.name}: no JSON error document on stdout: {out[:200]!r}")
        if not stat.S_ISFIFO(path.lstat().st_mode):
            problems.append(f"{sig.name}: the FIFO was replaced")
    return problems


@test
def fifo_reader_stalls(cfg, scratch):
    # A reader that opens the FIFO and never reads: the write stops at --timeout, and says how
    # much of the document went.
    path = scratch / "fifo"
    os.mkfifo(path)
    args = big_document_args(path)
    if args is None:
        return []
    # exec: the process killed below is the one holding the FIFO, and no orphan keeps ctest's
    # output pipe open after the test.
    holder = subprocess.Popen(["sh", "-c", 'exec 3<"$0"; exec sleep 30', str(path)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        proc, problems = run_ended_by_timeout(cfg, args)
    finally:
        holder.kill()
        holder.wait()
    if not re.search(rb"the reader took \d+ of \d+ bytes and then none for 1 s", proc.stderr):
        problems.append(f"stderr does not say how far it got: {proc.stderr[:300]!r}")
    return problems


@test
def socket_reader_stalls(cfg, scratch):
    path = scratch / "sock"
    args = big_document_args(path)
    if args is None:
        return []
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)
    accepted = []
    t = threading.Thread(target=lambda: accepted.append(server.accept()[0]))  # never reads
    t.start()
    try:
        proc, problems = run_ended_by_timeout(cfg, args)
    finally:
        t.join(30)
        for conn in accepted:
            conn.close()
        server.close()
    if b"the document is incomplete" not in proc.stderr:
        problems.append(f"stderr does not say why: {proc.stderr[:300]!r}")
    return problems


@test
def socket_target(cfg, scratch):
    path = scratch / "sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)
    got = []

    def serve():
        conn, _ = server.accept()
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
        got.append(data)
        conn.close()

    t = threading.Thread(target=serve)
    t.start()
    proc = schema_to(cfg, path)
    t.join(30)
    server.close()
    problems = []
    if proc.returncode != 0 or not stat.S_ISSOCK(path.lstat().st_mode):
        problems.append(f"exit {proc.returncode}: {proc.stderr[:200]!r}")
    if not got or b'"$schema"' not in got[0]:
        problems.append("the socket did not get the document")
    return problems


@test
def symlink_regular(cfg, scratch):
    target = scratch / "real.json"
    target.write_text("old")
    target.chmod(0o640)
    link = scratch / "link.json"
    link.symlink_to("real.json")
    proc = schema_to(cfg, link)
    problems = []
    if proc.returncode != 0 or not link.is_symlink():
        problems.append(f"exit {proc.returncode}, still a link: {link.is_symlink()}")
    if '"$schema"' not in target.read_text():
        problems.append("the link's target was not written")
    if stat.S_IMODE(target.stat().st_mode) != 0o640:
        problems.append(f"the target's mode became {oct(stat.S_IMODE(target.stat().st_mode))}")
    return problems


@test
def symlink_stdout(cfg, scratch):
    link = scratch / "stdout-link"
    link.symlink_to("/proc/self/fd/1")
    proc = schema_to(cfg, link)
    problems = []
    if proc.returncode != 0 or not link.is_symlink():
        problems.append(f"exit {proc.returncode}, still a link: {link.is_symlink()}: {proc.stderr[:200]!r}")
    if b'"$schema"' not in proc.stdout:
        problems.append("the document did not reach stdout through the link")
    # Never the real /dev/stdout: a broken binary would replace the machine's own link.
    return problems


@test
def symlink_dangling(cfg, scratch):
    link = scratch / "dangling"
    link.symlink_to(scratch / "nowhere" )
    proc = schema_to(cfg, link)
    problems = []
    if proc.returncode != 2 or not is_error_document(proc.stdout):
        problems.append(f"exit {proc.returncode}, error document: {is_error_document(proc.stdout)}")
    if (scratch / "nowhere").exists() or not link.is_symlink():
        problems.append("the link was followed or replaced")
    return problems


def as_nobody(*argv):
    """Runs argv as the user nobody: the attacker of the cases below."""
    def drop():
        os.setgroups([])
        os.setgid(NOBODY.pw_gid)
        os.setuid(NOBODY.pw_uid)
    return subprocess.run(list(argv), preexec_fn=drop, capture_output=True, timeout=30)


def root_only_file(scratch):
    """A file only root may read or write: what the attacks below aim at."""
    secret = scratch / "secret"
    secret.write_text("root only\n")
    secret.chmod(0o600)
    return secret


def unchanged(secret):
    """Problems if the root-only file is no longer as root_only_file() made it."""
    st = secret.lstat()
    if (not stat.S_ISREG(st.st_mode) or secret.read_text() != "root only\n" or st.st_uid != 0
            or stat.S_IMODE(st.st_mode) != 0o600):
        return [f"the root-only file was written: owner {st.st_uid}, mode {oct(stat.S_IMODE(st.st_mode))}, "
                f"content {secret.read_text()[:60]!r}"]
    return []


def sticky_dir(scratch):
    """A directory like /tmp: anyone may create names, only their owner may remove them."""
    public = scratch / "public"
    public.mkdir()
    public.chmod(0o1777)
    return public


@test
def symlink_foreign_owner(cfg, scratch):
    if needs_root():
        return []
    problems = []
    secret = root_only_file(scratch)
    public = sticky_dir(scratch)
    direct = public / "out.json"
    made = as_nobody("ln", "-s", str(secret), str(direct))
    # Behind a link root owns: each link of the chain is judged.
    chained = scratch / "chained.json"
    chained.symlink_to(direct)
    for link in (direct, chained):
        proc = schema_to(cfg, link)
        lines = proc.stderr.decode(errors="replace").strip().splitlines()
        if made.returncode != 0 or proc.returncode != 2 or not is_error_document(proc.stdout):
            problems.append(f"{link.name}: exit {proc.returncode} (want 2), error document: "
                            f"{is_error_document(proc.stdout)}: {proc.stderr[:200]!r}")
        elif len(lines) != 1 or str(direct) not in lines[0] or "nobody" not in lines[0]:
            problems.append(f"{link.name}: not one line naming {direct} and its owner: {lines}")
        problems += unchanged(secret)
        if not direct.is_symlink() or os.readlink(direct) != str(secret):
            problems.append(f"{link.name}: the link was replaced")
    # Whatever it leads to: nobody's link to /proc/self/fd/1 is not followed either.
    to_stdout = public / "stdout-link"
    as_nobody("ln", "-s", "/proc/self/fd/1", str(to_stdout))
    proc = schema_to(cfg, to_stdout)
    if proc.returncode != 2 or b"nobody" not in proc.stderr:
        problems.append(f"nobody's link to /proc/self/fd/1: exit {proc.returncode} (want 2): {proc.stderr[:200]!r}")
    return problems


def fifo_reader(path):
    """Reads the FIFO `path` in a thread: (thread, list that gets what was read)."""
    got = []
    reader = threading.Thread(target=lambda: got.append(path.read_bytes()), daemon=True)
    reader.start()
    return reader, got


def release_reader(path, reader):
    """Ends a reader that nobody wrote to: a writer opens and closes the FIFO."""
    if reader.is_alive():
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
    reader.join(10)


@test
def symlink_foreign_device(cfg, scratch):
    """Finding: a link owned by another user was followed whenever it led to a character
    device, FIFO or socket (a link planted in /tmp to /dev/port or /dev/mem had root open the
    device and write the document into it). Now no link another user owns is followed, whatever
    it leads to. A root-only FIFO shows whether anything was written; a private device node
    (a /dev/null) shows the rule for devices."""
    if needs_root():
        return []
    problems = []
    private = scratch / "private"
    private.mkdir(mode=0o700)
    fifo_path = private / "fifo"
    os.mkfifo(fifo_path, 0o600)
    device = private / "port"
    os.mknod(device, 0o600 | stat.S_IFCHR, os.makedev(1, 3))
    public = sticky_dir(scratch)
    for target in (fifo_path, device):
        link = public / f"to-{target.name}"
        made = as_nobody("ln", "-s", str(target), str(link))
        reader, got = fifo_reader(fifo_path) if target == fifo_path else (None, [])
        proc = schema_to(cfg, link)
        if reader is not None:
            release_reader(fifo_path, reader)
        lines = proc.stderr.decode(errors="replace").strip().splitlines()
        if made.returncode != 0 or proc.returncode != 2 or not is_error_document(proc.stdout):
            problems.append(f"{link.name}: exit {proc.returncode} (want 2): {proc.stderr[:200]!r}")
        elif len(lines) != 1 or str(link) not in lines[0] or "nobody" not in lines[0]:
            problems.append(f"{link.name}: not one line naming the link and its owner: {lines}")
        if got and got[0]:
            problems.append(f"{link.name}: the root-only FIFO got {len(got[0])} bytes")
    return problems


@test
def symlink_foreign_directory(cfg, scratch):
    """Finding: a link among the directories of --output was followed whoever owned it; only
    the kernel's fs.protected_symlinks (off on some machines, and only in sticky directories)
    stood between nobody's link in /tmp and a root-only directory. Now the directory part is
    walked one component at a time by the same rule as the last one; root's own link there is
    still followed."""
    if needs_root():
        return []
    problems = []
    private = scratch / "private"
    private.mkdir(mode=0o700)
    public = sticky_dir(scratch)
    link = public / "reports"
    made = as_nobody("ln", "-s", str(private), str(link))
    proc = schema_to(cfg, link / "x.json")
    lines = proc.stderr.decode(errors="replace").strip().splitlines()
    if made.returncode != 0 or proc.returncode != 2 or not is_error_document(proc.stdout):
        problems.append(f"nobody's link: exit {proc.returncode} (want 2): {proc.stderr[:200]!r}")
    elif len(lines) != 1 or str(link) not in lines[0] or "nobody" not in lines[0]:
        problems.append(f"nobody's link: not one line naming the link and its owner: {lines}")
    if list(private.iterdir()):
        problems.append(f"written into the root-only directory: {[p.name for p in private.iterdir()]}")
    mine = scratch / "mine"
    mine.symlink_to("private")
    proc = schema_to(cfg, mine / "." / "y.json")
    if proc.returncode != 0 or not (private / "y.json").is_file():
        problems.append(f"root's own link: exit {proc.returncode}: {proc.stderr[:200]!r}")
    return problems


@test
def stdout_chain(cfg, scratch):
    """/dev/stdout -> /proc/self/fd/1 -> a terminal, a pipe or a file: every link of that chain
    is root's or the effective user's, so it is written through, as root and as nobody."""
    problems = []
    users = [None] + ([NOBODY] if os.geteuid() == 0 else [])
    for user in users:
        who = "nobody" if user else "self"
        # The pipe is made by the user's own shell: a pipe is reopened through /proc/self/fd/1,
        # and root's pipe is not the user's to open.
        proc = subprocess.run(["sh", "-c", '"$0" schema error --json --output /dev/stdout | cat',
                               str(cfg.binary)], capture_output=True, timeout=60,
                              stdin=subprocess.DEVNULL,
                              preexec_fn=(lambda u=user: (os.setgroups([]), os.setgid(u.pw_gid),
                                                          os.setuid(u.pw_uid))) if user else None)
        if proc.returncode != 0 or b'"$schema"' not in proc.stdout:
            problems.append(f"{who}, a pipe: exit {proc.returncode}: {proc.stderr[:200]!r}")
        out_file = scratch / f"redirected-{who}.json"
        with open(out_file, "wb") as out:
            if user:
                os.fchown(out.fileno(), user.pw_uid, user.pw_gid)
            proc = subprocess.run([str(cfg.binary), "schema", "error", "--json", "--output", "/dev/stdout"],
                                  stdout=out, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                  timeout=60, preexec_fn=(lambda u=user: (os.setgroups([]), os.setgid(u.pw_gid),
                                                                        os.setuid(u.pw_uid))) if user else None)
        if proc.returncode != 0 or b'"$schema"' not in out_file.read_bytes():
            problems.append(f"{who}, a file: exit {proc.returncode}: {proc.stderr[:200]!r}")
        leader, follower = os.openpty()
        try:
            if user:
                os.fchown(follower, user.pw_uid, -1)
            proc = subprocess.run([str(cfg.binary), "schema", "error", "--json", "--output", "/dev/stdout"],
                                  stdout=follower, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                  timeout=60, preexec_fn=(lambda u=user: (os.setgroups([]), os.setgid(u.pw_gid),
                                                                        os.setuid(u.pw_uid))) if user else None)
            os.close(follower)
            follower = -1
            seen = b""
            while True:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
        finally:
            if follower >= 0:
                os.close(follower)
            os.close(leader)
        if proc.returncode != 0 or b'"$schema"' not in seen:
            problems.append(f"{who}, a terminal: exit {proc.returncode}: {proc.stderr[:200]!r}")
    return problems


@test
def hard_link_root_file_sticky(cfg, scratch):
    """Finding: root's own file with several hard links was rewritten in place wherever the name
    was. With fs.protected_hardlinks off, a user can hard-link /etc/shadow into /tmp as the
    output name. The attacker is modelled by root making the link (the suite does not change
    the machine's sysctl): what matters is a name in a sticky, world-writable directory that
    shares a root-only file. The name is now replaced by a rename: the root-only file keeps its
    content, the document gets the name (with the file's owner and mode)."""
    if needs_root():
        return []
    secret = root_only_file(scratch)
    public = sticky_dir(scratch)
    out = public / "out.json"
    os.link(secret, out)
    proc = schema_to(cfg, out)
    problems = []
    if proc.returncode != 0:
        problems.append(f"exit {proc.returncode}: {proc.stderr[:200]!r}")
    if secret.read_text() != "root only\n":
        problems.append(f"the root-only file was written: {secret.read_text()[:60]!r}")
    st = out.lstat()
    if out.read_text()[:1] != "{" or st.st_ino == secret.stat().st_ino:
        problems.append("the output name still shares the root-only file")
    elif st.st_uid != 0 or stat.S_IMODE(st.st_mode) != 0o600:
        problems.append(f"the new file: owner {st.st_uid}, mode {oct(stat.S_IMODE(st.st_mode))}")
    leftovers = [p.name for p in public.iterdir() if p.name.startswith(".")]
    if leftovers:
        problems.append(f"temporary files left: {leftovers}")
    return problems


def stall_preload(cfg):
    """The LD_PRELOAD shim that stops the probe after its first look at one name."""
    path = os.environ.get("RDMI_STALL_PRELOAD") or str(
        cfg.binary.parent / "tests/hardening/libstall_at_name_preload.so")
    return path if Path(path).is_file() else None


def in_thread(fn, timeout):
    """fn() in a thread; its result, or None when it has not returned within `timeout` s."""
    got = []
    worker = threading.Thread(target=lambda: got.append(fn()), daemon=True)
    worker.start()
    worker.join(timeout)
    return got[0] if got else None


@test
def race_swap_for_link(cfg, scratch):
    """Finding: the probe looked at --output (owner, mode), looked again, saw a link, and
    replaced the link's target with the first look's owner and mode. Here the swap happens
    exactly between the probe's first look and whatever it does next."""
    if needs_root():
        return []
    shim = stall_preload(cfg)
    if shim is None:
        return ["the stall shim (RDMI_STALL_PRELOAD, libstall_at_name_preload.so) is not built"]
    secret = root_only_file(scratch)
    public = sticky_dir(scratch)
    out = public / "out.json"
    as_nobody("sh", "-c", 'umask 0; echo old > "$0"', str(out))
    stall = scratch / "stall"
    stall.mkdir(mode=0o700)
    os.mkfifo(stall / "paused")
    os.mkfifo(stall / "resume")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LD_PRELOAD": shim,
           "STALL_NAME": out.name, "STALL_DIR": str(stall)}
    proc = subprocess.Popen([str(cfg.binary), "schema", "error", "--json", "--output", str(out)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL)
    problems = []
    try:
        paused = in_thread(lambda: (stall / "paused").read_bytes(), 30)
        if paused != b"paused\n":
            problems.append("the probe never looked at the output name (the shim did not stop it)")
        else:
            swap = as_nobody("sh", "-c", 'rm -f "$0" && ln -s "$1" "$0"', str(out), str(secret))
            if swap.returncode != 0 or not out.is_symlink():
                problems.append(f"nobody could not swap the name: {swap.stderr[:200]!r}")
        # Lets the probe go on (also when it never stopped, so that the wait below ends).
        in_thread(lambda: (stall / "resume").write_bytes(b"go\n"), 30)
        out_text, err_text = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    problems += unchanged(secret)
    if out.is_symlink():
        problems.append("the link is still there: the document went elsewhere")
    elif out.exists():
        st = out.lstat()
        # Written as what the probe looked at: nobody's own file, with nobody's mode.
        if st.st_uid != NOBODY.pw_uid or stat.S_IMODE(st.st_mode) != 0o666:
            problems.append(f"{out.name}: owner {st.st_uid}, mode {oct(stat.S_IMODE(st.st_mode))}")
    leftovers = [p.name for p in list(public.iterdir()) + list(scratch.iterdir()) if p.name.startswith(".")]
    if leftovers:
        problems.append(f"temporary files left: {leftovers}")
    return problems


def listener(path):
    """A listening Unix socket at `path` that records what each connection sends."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(4)
    server.settimeout(0.2)
    got = []
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            conn.settimeout(5)
            data = b""
            try:
                while chunk := conn.recv(65536):
                    data += chunk
            except OSError:
                pass
            got.append(data)
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()

    def close():
        stop.set()
        thread.join(10)
        server.close()
    return got, close


@test
def race_socket_swap(cfg, scratch):
    """Finding: a socket at --output was connected by its path, looked up a second time after
    it was vetted. In a directory nobody owns (no sticky bit, so fs.protected_symlinks does not
    apply), nobody swapped the socket for a link to a root-only socket right after the probe's
    first look (the stall shim stops it there): root connected to that socket and wrote the
    document into it. Now the connection goes to the socket that was looked at."""
    if needs_root():
        return []
    shim = stall_preload(cfg)
    if shim is None:
        return ["the stall shim (RDMI_STALL_PRELOAD, libstall_at_name_preload.so) is not built"]
    private = scratch / "private"
    private.mkdir(mode=0o700)
    theirs = scratch / "theirs"
    theirs.mkdir(mode=0o755)
    os.chown(theirs, NOBODY.pw_uid, NOBODY.pw_gid)
    secret_got, close_secret = listener(private / "root.sock")
    out = theirs / "out.sock"
    out_got, close_out = listener(out)
    os.chown(out, NOBODY.pw_uid, NOBODY.pw_gid)
    stall = scratch / "stall"
    stall.mkdir(mode=0o700)
    os.mkfifo(stall / "paused")
    os.mkfifo(stall / "resume")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LD_PRELOAD": shim,
           "STALL_NAME": out.name, "STALL_DIR": str(stall)}
    proc = subprocess.Popen([str(cfg.binary), "schema", "error", "--json", "--output", str(out)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL)
    problems = []
    try:
        paused = in_thread(lambda: (stall / "paused").read_bytes(), 30)
        if paused != b"paused\n":
            problems.append("the probe never looked at the output name (the shim did not stop it)")
        else:
            swap = as_nobody("sh", "-c", 'mv "$0" "$0.old" && ln -s "$1" "$0"', str(out),
                             str(private / "root.sock"))
            if swap.returncode != 0 or not out.is_symlink():
                problems.append(f"nobody could not swap the name: {swap.stderr[:200]!r}")
        in_thread(lambda: (stall / "resume").write_bytes(b"go\n"), 30)
        proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        time.sleep(0.3)
        close_secret()
        close_out()
    if any(secret_got):
        problems.append(f"the root-only socket got {sum(map(len, secret_got))} bytes (exit {proc.returncode})")
    return problems


@test
def bundle_foreign_owner(cfg, scratch):
    """Finding: a bundle (copies of files only root may read) written over a file another user
    made at the name kept that user as its owner, and a FIFO that user made got the bundle.
    Now a bundle is never written to another user's file, FIFO or socket (exit 2)."""
    if needs_root():
        return []
    root = scratch / "root"
    root.mkdir()
    public = sticky_dir(scratch)
    problems = []
    planted = public / "bundle.tar.gz"
    as_nobody("sh", "-c", 'umask 022; echo planted > "$0"', str(planted))
    proc = run(cfg, ["--root", str(root), "gather", "--output", str(planted)])
    st = planted.lstat()
    if proc.returncode != 2 or st.st_uid != NOBODY.pw_uid or planted.read_bytes() != b"planted\n":
        problems.append(f"nobody's file: exit {proc.returncode} (want 2), owner {st.st_uid}, "
                        f"{len(planted.read_bytes())} bytes")
    elif b"nobody" not in proc.stderr:
        problems.append(f"nobody's file: stderr does not say why: {proc.stderr[:200]!r}")
    fifo_path = public / "bundle-fifo.tar.gz"
    as_nobody("mkfifo", "-m", "0666", str(fifo_path))
    reader, got = fifo_reader(fifo_path)
    proc = run(cfg, ["--timeout", "5", "--root", str(root), "gather", "--output", str(fifo_path)])
    release_reader(fifo_path, reader)
    if proc.returncode != 2 or (got and got[0]):
        problems.append(f"nobody's FIFO: exit {proc.returncode} (want 2), the reader got "
                        f"{len(got[0]) if got else 0} bytes")
    return problems


@test
def file_size_limit(cfg, scratch):
    """Finding: a document larger than RLIMIT_FSIZE killed the probe with SIGXFSZ in the middle
    of writing its temporary file, which stayed behind. Now the write fails (EFBIG): exit 2,
    one message, the temporary removed, the old file kept."""
    import resource
    path = scratch / "big.json"
    path.write_text("old")
    args = big_document_args(path)
    if args is None:
        return []
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")}
    proc = subprocess.run([str(cfg.binary), *[a if a != "1" else "30" for a in args]], env=env,
                          capture_output=True, timeout=120, stdin=subprocess.DEVNULL,
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536)))
    problems = []
    if proc.returncode != 2 or b"(EFBIG" not in proc.stderr:
        problems.append(f"exit {proc.returncode} (want 2, '(EFBIG'): {proc.stderr[:200]!r}")
    if path.read_text() != "old":
        problems.append("the old file was replaced by a partial one")
    leftovers = [p.name for p in scratch.iterdir() if p.name.startswith(".")]
    if leftovers:
        problems.append(f"temporary files left: {leftovers}")
    return problems


@test
def hard_links_foreign_owner(cfg, scratch):
    if needs_root():
        return []
    a = scratch / "a.json"
    a.write_text("old")
    os.chown(a, NOBODY.pw_uid, NOBODY.pw_gid)
    b = scratch / "b.json"
    os.link(a, b)
    proc = schema_to(cfg, a)
    problems = []
    if proc.returncode != 2 or not is_error_document(proc.stdout):
        problems.append(f"exit {proc.returncode} (want 2), error document: {is_error_document(proc.stdout)}")
    if b"hard links" not in proc.stderr or b"nobody" not in proc.stderr:
        problems.append(f"stderr does not say why: {proc.stderr[:200]!r}")
    if a.read_text() != "old" or b.read_text() != "old" or a.stat().st_ino != b.stat().st_ino:
        problems.append("written in place (or a name replaced)")
    return problems


@test
def bundle_mode(cfg, scratch):
    """A support bundle holds copies of files only root may read: a new one is 0600 whatever
    the umask; an existing one keeps its mode, as every --output does."""
    root = scratch / "root"
    root.mkdir()
    bundle = scratch / "bundle.tar.gz"
    args = ["--root", str(root), "gather", "--output", str(bundle)]
    problems = []
    proc = run(cfg, args, umask=0o022)
    if proc.returncode != 0 or not bundle.exists():
        return [f"exit {proc.returncode}: {proc.stderr[:200]!r}"]
    if stat.S_IMODE(bundle.stat().st_mode) != 0o600:
        problems.append(f"a new bundle is {oct(stat.S_IMODE(bundle.stat().st_mode))}, want 0o600")
    bundle.chmod(0o640)
    proc = run(cfg, args, umask=0o022)
    if proc.returncode != 0 or stat.S_IMODE(bundle.stat().st_mode) != 0o640:
        problems.append(f"an existing 0640 bundle became {oct(stat.S_IMODE(bundle.stat().st_mode))}")
    return problems


@test
def keep_mode_owner(cfg, scratch):
    path = scratch / "report.json"
    path.write_text("old")
    path.chmod(0o600)
    if os.geteuid() == 0:
        os.chown(path, NOBODY.pw_uid, NOBODY.pw_gid)
    proc = schema_to(cfg, path)
    st = path.stat()
    problems = []
    if proc.returncode != 0 or '"$schema"' not in path.read_text():
        problems.append(f"exit {proc.returncode}")
    if stat.S_IMODE(st.st_mode) != 0o600:
        problems.append(f"mode became {oct(stat.S_IMODE(st.st_mode))}")
    if os.geteuid() == 0 and (st.st_uid, st.st_gid) != (NOBODY.pw_uid, NOBODY.pw_gid):
        problems.append(f"owner became {st.st_uid}:{st.st_gid}")
    return problems


@test
def new_file_umask(cfg, scratch):
    path = scratch / "new.json"
    proc = schema_to(cfg, path, umask=0o027)
    problems = []
    if proc.returncode != 0:
        problems.append(f"exit {proc.returncode}")
    elif stat.S_IMODE(path.stat().st_mode) != 0o640:
        problems.append(f"mode {oct(stat.S_IMODE(path.stat().st_mode))}, want 0o640")
    return problems


@test
def daemon_file_mode(cfg, scratch):
    """A document another service reads (report --format prometheus, nfd): a new file is 0644
    even under umask 077; an existing one keeps its mode, as every --output does."""
    root = scratch / "root"
    root.mkdir()
    problems = []
    for fmt in ("prometheus", "nfd"):
        path = scratch / f"new-{fmt}.prom"
        args = ["report", "--format", fmt, "--root", str(root), "--output", str(path)]
        proc = run(cfg, args, umask=0o077)
        if proc.returncode not in (0, 1, 3) or not path.exists():
            problems.append(f"{fmt}: exit {proc.returncode} {proc.stderr[:200]!r}")
            continue
        if stat.S_IMODE(path.stat().st_mode) != 0o644:
            problems.append(f"{fmt}: mode {oct(stat.S_IMODE(path.stat().st_mode))}, want 0o644")
        path.chmod(0o600)
        run(cfg, args, umask=0o077)
        if stat.S_IMODE(path.stat().st_mode) != 0o600:
            problems.append(f"{fmt}: an existing 0600 file became {oct(stat.S_IMODE(path.stat().st_mode))}")
    leftovers = [p.name for p in scratch.iterdir() if p.name.startswith(".")]
    if leftovers:
        problems.append(f"temporary files left: {leftovers}")
    return problems


@test
def hard_links(cfg, scratch):
    # In a directory no other user may create names in (the scratch directory is 0777): there a
    # name cannot be someone else's hard link to a file of ours.
    closed = scratch / "closed"
    closed.mkdir(mode=0o755)
    a = closed / "a.json"
    a.write_text("old")
    b = closed / "b.json"
    os.link(a, b)
    proc = schema_to(cfg, a)
    problems = []
    if proc.returncode != 0 or '"$schema"' not in b.read_text() or a.stat().st_ino != b.stat().st_ino:
        problems.append(f"exit {proc.returncode}; the other name does not see the document")
    return problems


@test
def long_name(cfg, scratch):
    """A target whose name is NAME_MAX (255) bytes long: the temporary beside it gets a shorter
    name, and the target is created, then replaced, like any other."""
    path = scratch / ("n" * 250 + ".prom")
    problems = []
    for attempt in ("new", "existing"):
        proc = schema_to(cfg, path)
        written = path.exists() and '"$schema"' in path.read_text(errors="replace")
        if proc.returncode != 0 or not written:
            problems.append(f"{attempt}: exit {proc.returncode} {proc.stderr[:160]!r}")
    leftovers = [p.name[:20] for p in scratch.iterdir() if p.name.startswith(".")]
    if leftovers:
        problems.append(f"temporary files left: {leftovers}")
    return problems


@test
def format_conflict(cfg, scratch):
    """report --json --format prometheus|nfd --output FILE is a usage error that leaves FILE as
    it was: a JSON error document there would make node_exporter or nfd-worker reject it."""
    root = scratch / "root"
    root.mkdir()
    problems = []
    for fmt in ("prometheus", "nfd"):
        path = scratch / f"kept-{fmt}.prom"
        path.write_text("rdmi_probe_info 1\n")
        proc = run(cfg, ["report", "--json", "--format", fmt, "--root", str(root), "--output", str(path)])
        if proc.returncode != 2 or not is_error_document(proc.stdout):
            problems.append(f"{fmt}: exit {proc.returncode}, stdout {proc.stdout[:120]!r}")
        if path.read_text() != "rdmi_probe_info 1\n":
            problems.append(f"{fmt}: --output replaced with {path.read_text()[:80]!r}")
    return problems


@test
def json_errors(cfg, scratch):
    problems = []
    cases = {"missing directory": scratch / "missing" / "x.json", "directory target": scratch}
    for what, target in cases.items():
        proc = schema_to(cfg, target)
        if proc.returncode != 2 or not is_error_document(proc.stdout):
            problems.append(f"{what}: exit {proc.returncode}, stdout {proc.stdout[:120]!r}")
        proc = run(cfg, ["report", "--json", "--timeout", "5", "--output", str(target)])
        if proc.returncode != 2 or not is_error_document(proc.stdout):
            problems.append(f"report, {what}: exit {proc.returncode}, stdout {proc.stdout[:120]!r}")
    locked = scratch / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    proc = schema_to(cfg, locked / "x.json", user=NOBODY if os.geteuid() == 0 else None)
    if os.geteuid() == 0 or os.access(locked, os.W_OK) is False:
        if proc.returncode != 2 or not is_error_document(proc.stdout):
            problems.append(f"unwritable directory: exit {proc.returncode}, stdout {proc.stdout[:120]!r}")
    return problems


@test
def stdout_refused(cfg, scratch):
    problems = []
    lib = cfg.binary.parent / "tests/fixtures/libs/versioned/libdoca_rdmi.so"
    commands = {"schema": ["schema", "error", "--json"],
                "symbols": ["symbols", "--json", "--lib", str(lib)],
                # Answered before any session: the build writes the man page and the completion
                # scripts from these, and a truncated file must not pass for one.
                "help": ["help"], "--help": ["--help"], "report --help": ["report", "--help"],
                "help check": ["help", "check"], "-V": ["-V"],
                "__option-model": ["__option-model"],
                "__complete --script": ["__complete", "--script", "bash"],
                "__complete": ["__complete", "--", "rdmi-probe", "re"]}
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")}
    for what, args in commands.items():
        for target, reason in (("/dev/full", "No space left on device"), (None, "Bad file descriptor")):
            with open(target or os.devnull, "wb") as out:
                proc = subprocess.run([str(cfg.binary), *args], env=env, timeout=60,
                                      stdin=subprocess.DEVNULL, stdout=out if target else None,
                                      stderr=subprocess.PIPE,
                                      pass_fds=(), preexec_fn=None if target else (lambda: os.close(1)))
            want = f"stdout: write failed: {reason}"
            if proc.returncode != 2 or want.encode() not in proc.stderr:
                problems.append(f"{what}, stdout {target or 'closed'}: exit {proc.returncode}, "
                                f"stderr {proc.stderr[:200]!r} (wanted exit 2 and {want!r})")
    return problems


def main():
    # nobody must reach the unwritable-directory case
    return run_tests(TESTS, __doc__, fixtures=False, scratch_mode=0o777)


if __name__ == "__main__":
    sys.exit(main())
