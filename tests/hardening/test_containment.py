#!/usr/bin/python3
"""Containment of the children that load vendor libraries and run tools (docs/safety.md,
docs/reliability.md "Round 7 — trust by design"). Each case runs the built rdmi-probe live, as
the user running the suite (root in CI), with real fixture libraries and tools:

  planted-library-write-refused   a library planted in a directory others may write, loaded
                        with --allow-untrusted-libs, tries to create a file in a directory root
                        may write: refused under Landlock (its constructor ran: it says so in a
                        UDP datagram to the test), the report is whole and says containment "full";
                        with --no-landlock the file appears (so the case can fail) and the
                        report says "partial" and why
  planted-library-escapes   a planted library (escape.c) tries what uid 0 without capabilities
                        could still do past Landlock's file writes: write through descriptors
                        the probe held or inherited, chmod/chown/setxattr/utimes root's file,
                        connect to a root-only UNIX socket, unshare a user namespace, set up an
                        io_uring, setsid a daemon, TIOCSTI, x32 calls, signal or ptrace the
                        probe: every one refused, the document whole
  planted-library-floods   the planted library announces a 2^40-byte answer on its channel and
                        streams it: the call gets a gap at 64 MiB, the run ends with its document
  no-new-privs-and-capabilities   the same library reads /proc/self/status in the worker child:
                        NoNewPrivs 1, no effective, ambient (and as root no bounding)
                        capabilities; a doca_caps tool sees the same in what it executes
  kernel-without-landlock   the probe under a seccomp filter that answers the landlock_* calls
                        with ENOSYS (refuse_syscalls_exec): containment "partial", the reason names
                        the missing Landlock, no_new_privs and the capability drop still hold
  device-refusal-is-containment   libibverbs opening its device node read-write outside what
                        Landlock grants: the verbs gap says the containment refused, not the
                        device; with --no-landlock the devices open
  root-not-applicable   under --root nothing is loaded or run: containment "not_applicable"
  unprivileged-full     as nobody the children are contained the same way ("full")

    test_containment.py --binary B --fixtures F --refuse-syscalls-exec RSE [-k NAME]
"""
import json
import os
import pwd
import re
import shutil
import socket
import stat
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hardening_suite import run_tests  # noqa: E402

NOBODY = pwd.getpwnam("nobody")
TESTS = []
MARKER_LINE = re.compile(rb"rdmi-fixture-marker: constructor ran; NoNewPrivs=(\S+) CapEff=(\S+) "
                         rb"CapBnd=(\S+) CapAmb=(\S+); marker (.*)")
ZERO = "0000000000000000"


def test(fn):
    TESTS.append(fn)
    return fn


def run(cfg, args, env=None, user=None, wrapper=None, stdin=subprocess.DEVNULL, pass_fds=()):
    base = {k: v for k, v in os.environ.items() if k in ("PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")}
    base.update(env or {})
    preexec = None
    if user and os.geteuid() == 0:
        def preexec():
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
    argv = [str(cfg.binary), *args]
    if wrapper:
        argv = [*map(str, wrapper), *argv]
    # The planted libraries say what they saw in UDP datagrams (marker.c, escape.c): the
    # contained child keeps no descriptor the test could pass it.
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as said:
        said.bind(("127.0.0.1", 0))
        base["RDMI_FIXTURE_REPORT_PORT"] = str(said.getsockname()[1])
        proc = subprocess.run(argv, env=base, capture_output=True, timeout=60, preexec_fn=preexec,
                              stdin=stdin, pass_fds=pass_fds)
        said.setblocking(False)
        proc.said = b""
        proc.said_lines = []
        while True:
            try:
                datagram = said.recv(65536)
            except BlockingIOError:
                break
            proc.said += datagram
            proc.said_lines.append(datagram.decode(errors="replace").strip())
    doc = json.loads(proc.stdout) if "--json" in args and proc.stdout.strip() else None
    return proc, doc


def planted_verbs(cfg, scratch: Path, planted="dep"):
    """The fixture libibverbs (trusted directory) needing the marker library (or, `planted`
    "escape", escape.c), planted in a directory anyone may write: loaded only with
    --allow-untrusted-libs."""
    trusted = scratch / "trusted"
    evil = scratch / "evil"
    trusted.mkdir()
    evil.mkdir()
    shutil.copy2(cfg.fixtures / "trust/ibverbs/libibverbs.so.1", trusted / "libibverbs.so.1")
    shutil.copy2(cfg.fixtures / f"trust/{planted}/librdmi-fixture-dep.so.1", evil / "librdmi-fixture-dep.so.1")
    evil.chmod(0o777)
    target = scratch / "writable"  # the suite's user owns it: without Landlock the write succeeds
    target.mkdir()
    marker = target / "planted-by-a-library"
    return {"LD_LIBRARY_PATH": f"{trusted}:{evil}", "RDMI_FIXTURE_MARKER": str(marker)}, marker


def marker_report(proc):
    found = MARKER_LINE.search(proc.said)
    if not found:
        return None
    return [g.decode(errors="replace") for g in found.groups()]


def containment(doc):
    return doc.get("run", {}).get("containment", {})


def verbs(doc):
    return (doc.get("devices") or {}).get("verbs") or {}


def verbs_devices(doc):
    return [d.get("name") for d in verbs(doc).get("devices", [])]


@test
def planted_library_write_refused(cfg, scratch):
    env, marker = planted_verbs(cfg, scratch)
    args = ["report", "--json", "--timeout", "10", "--allow-untrusted-libs"]
    problems = []
    proc, doc = run(cfg, args, env)
    said = marker_report(proc)
    if said is None:
        return [f"the planted library's constructor did not run: {proc.stderr[-400:]!r}"]
    if marker.exists():
        problems.append("the planted library created a file as root under containment")
    if said[4] != "Permission denied":
        problems.append(f"the library's write ended with {said[4]!r}, not Permission denied")
    got = containment(doc)
    if got.get("state") != "full" or got.get("reasons") != [] or not got.get("no_new_privs"):
        problems.append(f"run.containment {got}, want full with no reasons")
    if (got.get("landlock_abi") or 0) < 3:
        problems.append(f"run.containment.landlock_abi {got.get('landlock_abi')}, want 3 or more")
    if proc.returncode not in (0, 1, 3) or verbs_devices(doc) != ["mlx5_0", "mlx5_1"]:
        problems.append(f"the report is not whole: exit {proc.returncode}, verbs {verbs_devices(doc)}")
    # The opt-out: the same run writes the file, says so, and the report says partial and why.
    proc, doc = run(cfg, args + ["--no-landlock"], env)
    if not marker.exists():
        problems.append("with --no-landlock the file was not created either: the case cannot fail")
    got = containment(doc)
    if got.get("state") != "partial" or "--no-landlock" not in " ".join(got.get("reasons", [])):
        problems.append(f"--no-landlock: run.containment {got}, want partial naming the option")
    if b"--no-landlock" not in proc.stderr or b"warning" not in proc.stderr:
        problems.append(f"--no-landlock is not logged loudly: {proc.stderr[-400:]!r}")
    return problems


ESCAPES = "fds,chmod,chown,xattr,utimes,unix,userns,uring,setsid,tiocsti,x32chmod,kill,ptrace"


@test
def planted_library_escapes(cfg, scratch):
    """What uid 0 without capabilities could still do outside Landlock's file writes: write
    through descriptors the probe held or inherited (its stdin, a descriptor its caller passed),
    change the mode, owner, attributes or times of root's files, talk to root's UNIX sockets
    (the D-Bus system bus, /run/systemd/private), make a user namespace or an io_uring, start
    a daemon that leaves the probe's process group, type into the terminal, or reach the probe."""
    env, _ = planted_verbs(cfg, scratch, "escape")
    target = scratch / "root-file"
    target.write_text("root's\n")
    target.chmod(0o600)
    before = target.stat()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock_path = scratch / "bus"
    listener.bind(str(sock_path))
    sock_path.chmod(0o600)
    listener.listen(4)
    listener.setblocking(False)
    env.update({"RDMI_FIXTURE_ESCAPE": ESCAPES, "RDMI_FIXTURE_TARGET": str(target),
                "RDMI_FIXTURE_SOCKET": str(sock_path)})
    stdin_file = scratch / "stdin"
    passed_file = scratch / "passed"
    output = scratch / "report.json"
    problems = []
    with open(stdin_file, "w+b") as stdin, open(passed_file, "wb") as passed:
        proc, doc = run(cfg, ["report", "--json", "--timeout", "10", "--allow-untrusted-libs",
                              "--output", str(output)], env, stdin=stdin, pass_fds=(passed.fileno(),))
    said = {}
    for line in proc.said_lines:  # the first of each: the constructor may run more than once
        said.setdefault(line.rsplit(": ", 1)[0], line.rsplit(": ", 1)[-1])
    if "ran" not in said:
        return [f"the planted library's constructor did not run: {proc.stderr[-400:]!r}"]
    if "done" not in said:
        problems.append(f"the planted library did not finish its attempts: {proc.said_lines}")
    for name, path in (("its stdin", stdin_file), ("a descriptor its caller passed", passed_file)):
        if path.read_bytes():
            problems.append(f"the planted library wrote into the probe's {name}: {path.read_bytes()!r}")
    try:
        document = json.loads(output.read_text())
    except (OSError, ValueError) as e:
        problems.append(f"--output is not the probe's document: {e}")
    else:
        if document.get("run", {}).get("containment", {}).get("state") != "full":
            problems.append(f"run.containment {document.get('run', {}).get('containment')}")
    after = target.stat()
    if (after.st_mode, after.st_uid, after.st_mtime_ns) != (before.st_mode, before.st_uid, before.st_mtime_ns):
        problems.append(f"root's file changed: mode {oct(after.st_mode)}, uid {after.st_uid}, "
                        f"mtime {'changed' if after.st_mtime_ns != before.st_mtime_ns else 'same'}")
    if os.listxattr(target):
        problems.append(f"root's file gained extended attributes: {os.listxattr(target)}")
    try:
        conn, _ = listener.accept()
        problems.append(f"the planted library connected to a root-only UNIX socket: {conn.recv(16)!r}")
        conn.close()
    except BlockingIOError:
        pass
    listener.close()
    refused = ("Operation not permitted", "Permission denied", "Function not implemented")
    for name in ("chmod", "chown", "xattr", "utimes", "unix", "userns", "uring", "setsid: daemon",
                 "x32chmod", "kill", "ptrace"):
        if name == "x32chmod" and name not in said:
            continue  # not x86_64
        if said.get(name) not in refused:
            problems.append(f"{name}: {said.get(name)!r}, want it refused")
    # stdin is not a terminal here: TIOCSTI fails either way; it must not succeed.
    if said.get("tiocsti") == "ok":
        problems.append("TIOCSTI succeeded")
    return problems


@test
def syscall_filter_opt_out(cfg, scratch):
    """--no-syscall-filter, the opt-out for a node where a vendor call needs what the filter
    refuses: the planted library's chmod of root's file now succeeds (so the filter was what
    refused it, and the escapes case can fail), the run says partial naming the option, and
    the option is logged loudly."""
    env, _ = planted_verbs(cfg, scratch, "escape")
    target = scratch / "root-file"
    target.write_text("root's\n")
    target.chmod(0o600)
    env.update({"RDMI_FIXTURE_ESCAPE": "chmod", "RDMI_FIXTURE_TARGET": str(target)})
    proc, doc = run(cfg, ["report", "--json", "--timeout", "10", "--allow-untrusted-libs",
                          "--no-syscall-filter"], env)
    problems = []
    said = {line.rsplit(": ", 1)[0]: line.rsplit(": ", 1)[-1] for line in proc.said_lines}
    if said.get("chmod") != "ok" or target.stat().st_mode & 0o7777 == 0o600:
        problems.append(f"with --no-syscall-filter the chmod was still refused: {said.get('chmod')!r}")
    got = containment(doc)
    if got.get("state") != "partial" or "--no-syscall-filter" not in " ".join(got.get("reasons", [])):
        problems.append(f"run.containment {got}, want partial naming --no-syscall-filter")
    if b"--no-syscall-filter" not in proc.stderr or b"warning" not in proc.stderr:
        problems.append(f"--no-syscall-filter is not logged loudly: {proc.stderr[-400:]!r}")
    return problems


@test
def planted_library_floods(cfg, scratch):
    """A planted library in the worker child announces a 2^40-byte answer on its channel and
    streams it: the probe ends that child at the answer limit (64 MiB), the call gets a gap,
    and the run finishes with its document; before, the probe held every byte it was sent
    until --timeout killed the run (exit 2, 1.2 GB in 10 s)."""
    env, _ = planted_verbs(cfg, scratch, "escape")
    env["RDMI_FIXTURE_ESCAPE"] = "flood"
    import resource
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    proc, doc = run(cfg, ["report", "--json", "--timeout", "30", "--allow-untrusted-libs"], env)
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    problems = []
    if b"ran: ok" not in proc.said:
        return [f"the planted library's constructor did not run: {proc.stderr[-400:]!r}"]
    if proc.returncode not in (0, 1, 3) or doc is None:
        return [f"the run did not finish with its document: exit {proc.returncode}, {proc.stderr[-400:]!r}"]
    if peak_kib > max(before, 400 * 1024):
        problems.append(f"the probe grew to {peak_kib // 1024} MiB")
    if "more than" not in json.dumps(verbs(doc)):
        problems.append(f"the verbs gap does not name the answer limit: {json.dumps(verbs(doc))[:400]}")
    return problems


@test
def no_new_privs_and_capabilities(cfg, scratch):
    env, _ = planted_verbs(cfg, scratch)
    problems = []
    proc, doc = run(cfg, ["report", "--json", "--timeout", "10", "--allow-untrusted-libs"], env)
    said = marker_report(proc)
    if said is None:
        return [f"the planted library's constructor did not run: {proc.stderr[-400:]!r}"]
    nnp, eff, bnd, amb, _ = said
    if nnp != "1" or eff != ZERO or amb != ZERO:
        problems.append(f"worker child: NoNewPrivs {nnp}, CapEff {eff}, CapAmb {amb}")
    if os.geteuid() == 0 and bnd != ZERO:
        problems.append(f"worker child as root: CapBnd {bnd}, want {ZERO}")
    if containment(doc).get("capabilities", {}).get("library_calls") != []:
        problems.append(f"run.containment.capabilities {containment(doc).get('capabilities')}")
    # A tool, and what the tool executes (grep): it reports through its failure's first line.
    prefix = scratch / "prefix"
    shutil.copytree(cfg.fixtures / "prefixes" / "complete-3.3", prefix, symlinks=True)
    tool = prefix / "tools" / "doca_caps"
    if tool.exists() or tool.is_symlink():
        tool.unlink()
    tool.write_text("#!/bin/sh\n"
                    "s=$(grep -E '^(NoNewPrivs|CapEff|CapBnd|CapAmb):' /proc/self/status | tr -s '\\t\\n' '  ')\n"
                    "echo \"tool-status $s\" >&2\nexit 1\n")
    tool.chmod(0o755)
    proc, doc = run(cfg, ["report", "--json", "--timeout", "10", "--doca-prefix", str(prefix)])
    text = json.dumps(doc)
    found = re.search(r"tool-status ([^)]*)\)", text)
    if not found:
        return problems + [f"the tool's status line is not in the report: {text[:300]}"]
    fields = dict(re.findall(r"(\w+): (\S+)", found.group(1)))
    nnp, eff, bnd, amb = (fields.get(k) for k in ("NoNewPrivs", "CapEff", "CapBnd", "CapAmb"))
    if nnp != "1" or eff != ZERO or amb != ZERO or (os.geteuid() == 0 and bnd != ZERO):
        problems.append(f"tool: NoNewPrivs {nnp}, CapEff {eff}, CapBnd {bnd}, CapAmb {amb}")
    return problems


@test
def kernel_without_landlock(cfg, scratch):
    env, marker = planted_verbs(cfg, scratch)
    problems = []
    proc, doc = run(cfg, ["report", "--json", "--timeout", "10", "--allow-untrusted-libs"], env,
                    wrapper=[cfg.refuse_syscalls_exec, "ENOSYS", "landlock"])
    got = containment(doc)
    reasons = " ".join(got.get("reasons", []))
    if got.get("state") != "partial" or "no Landlock" not in reasons or "Function not implemented" not in reasons:
        problems.append(f"run.containment {got}, want partial naming the missing Landlock (ENOSYS)")
    if got.get("landlock_abi") is not None or not got.get("no_new_privs"):
        problems.append(f"run.containment {got}: landlock_abi must be null, no_new_privs true")
    said = marker_report(proc)
    if said is None:
        return problems + [f"the planted library's constructor did not run: {proc.stderr[-400:]!r}"]
    if said[0] != "1" or said[1] != ZERO:
        problems.append(f"no_new_privs or the capability drop went with Landlock: {said}")
    # Partial is said plainly: without Landlock the write is not refused.
    if not marker.exists() or said[4] != "written":
        problems.append(f"the write was refused without Landlock ({said[4]}): the state would be wrong")
    if proc.returncode not in (0, 1, 3) or verbs_devices(doc) != ["mlx5_0", "mlx5_1"]:
        problems.append(f"the report is not whole: exit {proc.returncode}, verbs {verbs_devices(doc)}")
    return problems


@test
def device_refusal_is_containment(cfg, scratch):
    devices = scratch / "devices"
    devices.mkdir()
    for name in ("uverbs0", "uverbs1"):
        (devices / name).write_text("")
        (devices / name).chmod(0o666)
    env = {"LD_LIBRARY_PATH": str(cfg.fixtures / "ibverbs"), "FAKE_IBVERBS_DEVICE_DIR": str(devices)}
    problems = []
    proc, doc = run(cfg, ["report", "--json", "--timeout", "10"], env)
    gaps = [d.get("gap") or {} for d in verbs(doc).get("devices", [])]
    if len(gaps) != 2 or any("ibv_open_device" not in g.get("message", "") for g in gaps):
        return [f"the devices did not fail to open under containment: {gaps}"]
    for g in gaps:
        if "refused inside the contained child" not in g["message"] or "says nothing about the device" not in g["message"]:
            problems.append(f"the refusal does not say it is the containment's: {g}")
    proc, doc = run(cfg, ["report", "--json", "--timeout", "10", "--no-landlock"], env)
    gaps = [d.get("gap") for d in verbs(doc).get("devices", [])]
    if gaps != [None, None]:
        problems.append(f"with --no-landlock the devices still did not open: {gaps}")
    return problems


@test
def root_not_applicable(cfg, scratch):
    problems = []
    proc, doc = run(cfg, ["report", "--json", "--timeout", "10", "--root", "/"])
    got = containment(doc)
    if got != {"state": "not_applicable", "reasons": ["--root: nothing of the root is loaded or run (an rpm database it holds is read by this machine's librpm, in a contained child)"],
               "no_new_privs": False, "landlock_abi": None,
               "capabilities": {"library_calls": [], "loopback": [], "tools": []}}:
        problems.append(f"--root /: run.containment {got}")
    return problems


@test
def unprivileged_full(cfg, scratch):
    if os.geteuid() != 0:
        return []
    proc, doc = run(cfg, ["report", "--json", "--timeout", "10"],
                    {"LD_LIBRARY_PATH": str(cfg.fixtures / "ibverbs")}, user=NOBODY)
    got = containment(doc)
    problems = []
    if got.get("state") != "full" or got.get("capabilities") != {"library_calls": [], "loopback": [], "tools": []}:
        problems.append(f"as nobody: run.containment {got}")
    if verbs_devices(doc) != ["mlx5_0", "mlx5_1"]:
        problems.append(f"as nobody: verbs {verbs_devices(doc)}")
    return problems


def main():
    return run_tests(TESTS, __doc__, extra_paths=("--refuse-syscalls-exec",))


if __name__ == "__main__":
    sys.exit(main())
