#!/usr/bin/python3
"""Resource exhaustion is never a verdict; every ending signal cleans up. Against the real binary:

  nofile-hard-report   report --root under a hard descriptor limit of 4..7 (prlimit --nofile=N:N,
                       `ulimit -Hn N`): the same checks as without a limit, or exit 2 with one line
                       naming the errno (EMFILE) and the error document; never another verdict
                       (before: "DOCA not found", "no /sys/bus/pci/devices", exit 1)
  nofile-soft-report   only the soft limit low (`ulimit -Sn 4`): raised to the hard one at start,
                       the same checks as without a limit
  nofile-hard-live     a live report with the fixture DOCA prefix and libibverbs under 5..17: the
                       same checks, or exit 2 naming EMFILE (before: skips, "dlopen ... failed";
                       at 12 and 14 "containment could not be applied: open /dev/null")
  sigchld-ignored      a live report started with SIGCHLD ignored: the same checks (before: the
                       tools' answers "No child processes", a skip)
  nofile-check         `check` under 4 and 5: exit 2, not 3 (before: every requirement "skip")
  nofile-replay        a bundle replayed under 4..7 (exit 2 naming EMFILE, not "libarchive not
                       found", not the extraction's "entry path goes through ..., which is Too
                       many open files") and 8..16 (the same checks); the private directory
                       never left behind (before: left under 8..16, the removal ran out of
                       descriptors)
  address-space        RLIMIT_AS 15..120 MiB on a replay and gather: the verdict or exit 2 naming
                       ENOMEM/EAGAIN, never "libarchive" missing
  fsize-output, fsize-gather, fsize-stdout
                       `ulimit -f` smaller than the document: exit 2, "file too large (EFBIG ...)"
                       naming the file, the error document on stdout, no temporary left (before:
                       killed by SIGXFSZ, exit 153, the temporary left)
  signal-in-extraction-<SIG>
                       SIGXCPU, SIGALRM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF, SIGIO, SIGPWR,
                       SIGSTKFLT, SIGRTMIN, SIGRTMIN+5, SIGRTMAX (and SIGTERM) while a bundle is
                       being extracted (the stall library blocks the archive's first read; the
                       private directory and the archive are open): exit 128+N, "interrupted by
                       SIG..." on stderr and in the error document, the private directory
                       removed (before: killed by the default action, the directory left)
  signal-blocked-at-start
                       SIGTERM, SIGINT blocked by the parent: still end the run, cleaned up
  cpu-limit-both       `ulimit -t 2` (soft = hard) while a replay spins: SIGXCPU ends it, cleaned
                       up (before: SIGKILL at the hard limit, the private directory left)

    test_exhaustion.py --binary PATH --fixtures DIR --slow-read-lib SO [-k SUBSTRING]
"""

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

from hardening_suite import run_tests

TESTS = []
SLOW_READ_LIB = None


def test(fn):
    TESTS.append(fn)
    return fn


def base_env(extra=None):
    env = {k: v for k, v in os.environ.items()
           if k in ("PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")}
    env.update(extra or {})
    return env


def run(cfg, args, nofile=None, fsize=None, env=None, stdout=subprocess.PIPE):
    """The binary with `args`; `nofile` (soft, hard) and `fsize` (bytes) set in the child
    before exec, as prlimit or ulimit would."""
    def limits():
        if nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, nofile)
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return subprocess.run([str(cfg.binary), *args], env=env or base_env(), stdout=stdout,
                          stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, preexec_fn=limits,
                          timeout=120)


def checks_of(text):
    doc = json.loads(text)
    return {c["id"]: (c["status"], c.get("message")) for c in doc["checks"]}


def exhaustion_problems(label, proc):
    """Problems with a run that must have ended for want of descriptors."""
    problems = []
    err = proc.stderr.decode(errors="replace")
    if proc.returncode != 2:
        problems.append(f"{label}: exit {proc.returncode}, want 2; stderr {err[:300]!r}")
    lines = err.strip().splitlines()
    if len(lines) != 1 or "(EMFILE)" not in err or "out of resources" not in err:
        problems.append(f"{label}: stderr is not one line naming EMFILE: {err[:300]!r}")
    try:
        doc = json.loads(proc.stdout)
        if doc["error"]["exit_code"] != 2 or "(EMFILE)" not in doc["error"]["message"]:
            problems.append(f"{label}: error document {doc['error']}")
    except (ValueError, KeyError, TypeError) as e:
        problems.append(f"{label}: stdout is not the error document ({e}): {proc.stdout[:200]!r}")
    return problems


def same_or_exhausted(label, proc, want_checks, want_exit):
    """A run under a limit: the verdict of the run without one, or exhaustion; which one."""
    if proc.returncode == 2:
        return "exhausted", exhaustion_problems(label, proc)
    try:
        got = checks_of(proc.stdout)
    except (ValueError, KeyError) as e:
        return "other", [f"{label}: exit {proc.returncode}, no report ({e}): "
                         f"{proc.stderr[:300]!r}"]
    problems = []
    if proc.returncode != want_exit:
        problems.append(f"{label}: exit {proc.returncode}, want {want_exit} (or 2)")
    changed = {k: got.get(k) for k in want_checks if got.get(k) != want_checks[k]}
    if changed:
        problems.append(f"{label}: another verdict: {dict(list(changed.items())[:4])}")
    return "same", problems


def plain_build_only(fn):
    """A case about descriptor or address-space limits, left to the plain build: the sanitizer
    runtimes need descriptors of their own (UBSan's type checks then misreport live objects) and
    reserve terabytes of address space, so under them such a limit breaks the runtime, not the
    program. (RDMI_TEST_SANITIZED is set by tests/hardening/CMakeLists.txt in a sanitizer build.)"""
    def wrapper(cfg, scratch):
        if os.environ.get("RDMI_TEST_SANITIZED"):
            print("    skipped: a sanitizer build (its runtime needs what the limit takes)")
            return []
        return fn(cfg, scratch)
    wrapper.__name__ = fn.__name__
    return wrapper


def limit_sweep(limits, run_at, want_checks, want_exit):
    """Runs run_at(n) -> (label, proc) for each hard descriptor limit n: each run gives the
    unlimited run's verdicts or exhaustion, and at least one runs out (else the sweep proves
    nothing)."""
    problems, seen = [], set()
    for n in limits:
        label, proc = run_at(n)
        kind, found = same_or_exhausted(label, proc, want_checks, want_exit)
        seen.add(kind)
        problems += found
    if "exhausted" not in seen:
        problems.append("no limit tried ran out of descriptors: the test proves nothing")
    return problems


def hard_limit():
    return resource.getrlimit(resource.RLIMIT_NOFILE)[1]


def fixture_root(cfg):
    return str(cfg.fixtures / "roots" / "both-host")


@test
@plain_build_only
def nofile_hard_report(cfg, scratch):
    args = ["report", "--root", fixture_root(cfg), "--json"]
    base = run(cfg, args)
    want = checks_of(base.stdout)
    return limit_sweep(
        (4, 5, 6, 7), lambda n: (f"nofile {n}:{n}", run(cfg, args, nofile=(n, n))), want,
        base.returncode)


@test
def nofile_soft_report(cfg, scratch):
    args = ["report", "--root", fixture_root(cfg), "--json"]
    base = run(cfg, args)
    want = checks_of(base.stdout)
    problems = []
    for n in (4, 5):
        proc = run(cfg, args, nofile=(n, hard_limit()))
        kind, found = same_or_exhausted(f"nofile {n}:hard", proc, want, base.returncode)
        problems += found
        if kind != "same":
            problems.append(f"nofile {n}:hard: the soft limit was not raised (exit "
                            f"{proc.returncode}: {proc.stderr[:200]!r})")
    return problems


@test
@plain_build_only
def nofile_hard_live(cfg, scratch):
    env = base_env({"LD_LIBRARY_PATH": str(cfg.fixtures / "ibverbs")})
    args = ["report", "--json", "--timeout", "30",
            "--doca-prefix", str(cfg.fixtures / "prefixes" / "complete-3.3")]
    base = run(cfg, args, env=env)
    want = checks_of(base.stdout)
    # Every limit from 5 to 17: at 12 and 14 a tool's child ran out opening /dev/null, which read
    # as "containment could not be applied" and the tool's version as unreadable (skip).
    return limit_sweep(
        range(5, 18), lambda n: (f"live nofile {n}", run(cfg, args, nofile=(n, n), env=env)),
        want, base.returncode)


@test
def sigchld_ignored(cfg, scratch):
    """Started with SIGCHLD ignored (inherited through exec): the same checks as without (before:
    the kernel reaped the tools, waitpid said ECHILD, doca_caps --version was "unreadable (No
    child processes)" and contract-versions a skip)."""
    env = base_env({"LD_LIBRARY_PATH": str(cfg.fixtures / "ibverbs")})
    args = ["report", "--json", "--timeout", "30",
            "--doca-prefix", str(cfg.fixtures / "prefixes" / "complete-3.3")]
    base = run(cfg, args, env=env)
    want = checks_of(base.stdout)
    proc = subprocess.run([str(cfg.binary), *args], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=120,
                          preexec_fn=lambda: signal.signal(signal.SIGCHLD, signal.SIG_IGN))
    problems = []
    if proc.returncode != base.returncode:
        problems.append(f"exit {proc.returncode}, want {base.returncode}: {proc.stderr[:200]!r}")
    got = checks_of(proc.stdout)
    changed = {k: got.get(k) for k in want if got.get(k) != want[k]}
    if changed:
        problems.append(f"another verdict: {dict(list(changed.items())[:3])}")
    return problems


@test
@plain_build_only
def nofile_check(cfg, scratch):
    args = ["check", "--root", fixture_root(cfg), "--min-version", "3.0",
            "--require-symbol", "doca_rdmi_connection_create", "--json"]
    base = run(cfg, args)
    problems = [] if base.returncode == 0 else [f"without a limit: exit {base.returncode}"]
    for n in (4, 5):
        problems += exhaustion_problems(f"check nofile {n}", run(cfg, args, nofile=(n, n)))
    return problems


@test
@plain_build_only
def nofile_replay(cfg, scratch):
    bundle = scratch / "b.tar.gz"
    gathered = run(cfg, ["--root", fixture_root(cfg), "gather", "--output", str(bundle)])
    if gathered.returncode != 0:
        return [f"gather: exit {gathered.returncode}: {gathered.stderr[:200]!r}"]
    tmp = scratch / "tmp"
    tmp.mkdir()
    env = base_env({"TMPDIR": str(tmp)})
    args = ["--root", str(bundle), "report", "--json"]
    base = run(cfg, args, env=env)
    want = checks_of(base.stdout)
    problems = []
    # 6 and 7 run out inside the extraction: exhaustion too, never "which is Too many open
    # files" as a refusal of the bundle or the archive's EMFILE as "not found".
    for n in (4, 5, 6, 7, 8, 10, 12, 16):
        proc = run(cfg, args, nofile=(n, n), env=env)
        label = f"replay nofile {n}"
        if n <= 7:
            problems += exhaustion_problems(label, proc)
        else:
            problems += same_or_exhausted(label, proc, want, base.returncode)[1]
        if b"libarchive" in proc.stderr:
            problems.append(f"{label}: says libarchive is missing: {proc.stderr[:200]!r}")
        left = list(tmp.iterdir())
        if left:
            problems.append(f"{label}: private directory left: {[p.name for p in left]}")
            subprocess.run(["rm", "-rf", *map(str, left)])
    return problems


@test
@plain_build_only
def address_space(cfg, scratch):
    """RLIMIT_AS (ulimit -v) from 15 to 120 MiB on a replay and on gather: the run's verdict or
    exit 2 naming ENOMEM or EAGAIN on one line, the error document, never "libarchive" missing
    (before: at about 50 MiB dlopen's "failed to map segment from shared object" read as
    "install libarchive13"; a thread that could not start said "Resource temporarily
    unavailable", bad_alloc "out of memory", neither naming an errno)."""
    bundle = scratch / "b.tar.gz"
    gathered = run(cfg, ["--root", fixture_root(cfg), "gather", "--output", str(bundle)])
    if gathered.returncode != 0:
        return [f"gather: exit {gathered.returncode}: {gathered.stderr[:200]!r}"]
    tmp = scratch / "tmp"
    tmp.mkdir()
    env = base_env({"TMPDIR": str(tmp)})
    cases = {"replay": ["--root", str(bundle), "report", "--json"],
             "gather": ["--root", fixture_root(cfg), "gather", "--json", "--output",
                        str(scratch / "g.tar.gz")]}
    problems = []
    for name, args in cases.items():
        base = run(cfg, args, env=env)
        want = json.loads(base.stdout).get("checks")
        for mib in range(15, 121, 5):
            def limit(mib=mib):
                resource.setrlimit(resource.RLIMIT_AS, (mib << 20, mib << 20))
            proc = subprocess.run([str(cfg.binary), *args], env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                  preexec_fn=limit, timeout=120)
            label = f"{name} RLIMIT_AS {mib} MiB"
            err = proc.stderr.decode(errors="replace")
            if b"libarchive" in proc.stderr:
                problems.append(f"{label}: says libarchive is missing: {err[:200]!r}")
            if proc.returncode == 2:
                if (len(err.strip().splitlines()) != 1 or "out of resources" not in err
                        or not ("(ENOMEM)" in err or "(EAGAIN)" in err)):
                    problems.append(f"{label}: stderr is not one line naming the errno: "
                                    f"{err[:300]!r}")
                try:
                    if json.loads(proc.stdout)["error"]["exit_code"] != 2:
                        problems.append(f"{label}: error document {proc.stdout[:200]!r}")
                except (ValueError, KeyError, TypeError):
                    problems.append(f"{label}: no error document: {proc.stdout[:200]!r}")
            elif proc.returncode != base.returncode:
                problems.append(f"{label}: exit {proc.returncode}, want {base.returncode} or 2")
            elif json.loads(proc.stdout).get("checks") != want:
                problems.append(f"{label}: another verdict")
            left = list(tmp.iterdir())
            if left:
                problems.append(f"{label}: private directory left: {[p.name for p in left]}")
                subprocess.run(["rm", "-rf", *map(str, left)])
    return problems


def fsize_case(cfg, scratch, args, target, stdout_file=None):
    """A run whose document is larger than the file size limit; its problems."""
    problems = []
    if stdout_file is not None:
        with open(stdout_file, "wb") as out:
            proc = run(cfg, args, fsize=2000, stdout=out)
        proc.stdout = b""
    else:
        proc = run(cfg, args, fsize=2000)
    err = proc.stderr.decode(errors="replace")
    if proc.returncode != 2:
        problems.append(f"exit {proc.returncode} (want 2; -25 or 153 is SIGXFSZ): {err[:200]!r}")
    if f"{target}" not in err or "EFBIG" not in err or len(err.strip().splitlines()) != 1:
        problems.append(f"stderr does not name {target} and EFBIG on one line: {err[:300]!r}")
    if stdout_file is None:
        try:
            doc = json.loads(proc.stdout)
            if doc["error"]["exit_code"] != 2 or "EFBIG" not in doc["error"]["message"]:
                problems.append(f"error document {doc['error']}")
        except (ValueError, KeyError, TypeError):
            problems.append(f"stdout is not the error document: {proc.stdout[:200]!r}")
    temporaries = [p.name for p in scratch.iterdir() if p.name.startswith(".")]
    if temporaries:
        problems.append(f"temporary left: {temporaries}")
    return problems


@test
def fsize_output(cfg, scratch):
    out = scratch / "out.json"
    return fsize_case(cfg, scratch, ["report", "--root", fixture_root(cfg), "--json",
                                     "--output", str(out)], out)


@test
def fsize_gather(cfg, scratch):
    out = scratch / "b.tar.gz"
    return fsize_case(cfg, scratch, ["--root", fixture_root(cfg), "gather", "--json",
                                     "--output", str(out)], out)


@test
def fsize_stdout(cfg, scratch):
    return fsize_case(cfg, scratch, ["report", "--root", fixture_root(cfg), "--json"], "stdout",
                      stdout_file=scratch / "redirected.json")


def stalled_in_extraction(pid, bundle, private_parent):
    """True when the process holds its private directory and waits in the stalled read of the
    archive: it is extracting."""
    try:
        fds = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
        with open(f"/proc/{pid}/wchan") as f:
            sleeping = "nanosleep" in f.read()
    except OSError:
        return False
    private = [p for p in fds if p.startswith(str(private_parent) + "/rdmi-probe.")]
    return sleeping and str(bundle) in fds and bool(private)


def signal_in_extraction(cfg, scratch, sig, name=None, blocked=False):
    if SLOW_READ_LIB is None:
        return ["--slow-read-lib not given"]
    bundle = scratch / "b.tar.gz"
    gathered = run(cfg, ["--root", fixture_root(cfg), "gather", "--output", str(bundle)])
    if gathered.returncode != 0:
        return [f"gather: exit {gathered.returncode}: {gathered.stderr[:200]!r}"]
    tmp = scratch / "tmp"
    tmp.mkdir()
    env = base_env({"TMPDIR": str(tmp), "LD_PRELOAD": str(SLOW_READ_LIB),
                    "SLOW_READ_PATH": str(bundle),
                    "ASAN_OPTIONS": "verify_asan_link_order=0:" + os.environ.get("ASAN_OPTIONS", "")})
    proc = subprocess.Popen([str(cfg.binary), "--root", str(bundle), "report", "--json",
                             "--timeout", "60"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            preexec_fn=(lambda: signal.pthread_sigmask(signal.SIG_BLOCK, {sig}))
                            if blocked else None)
    name = name or signal.Signals(sig).name
    problems = []
    try:
        end = time.monotonic() + 20
        while time.monotonic() < end and not stalled_in_extraction(proc.pid, bundle, tmp):
            time.sleep(0.05)
        if not stalled_in_extraction(proc.pid, bundle, tmp):
            return [f"{name}: the run never stalled inside the extraction"]
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    if proc.returncode != 128 + sig:
        problems.append(f"{name}: exit {proc.returncode}, want {128 + sig}")
    if f"interrupted by {name}".encode() not in err:
        problems.append(f"{name}: stderr does not say so: {err[-200:]!r}")
    try:
        doc = json.loads(out)
        if doc["error"] != {"message": f"interrupted by {name}", "exit_code": 128 + sig}:
            problems.append(f"{name}: error document {doc['error']}")
    except (ValueError, KeyError, TypeError):
        problems.append(f"{name}: stdout is not the error document: {out[:200]!r}")
    left = list(tmp.iterdir())
    if left:
        problems.append(f"{name}: private directory left: {[p.name for p in left]}")
    return problems


# Every signal whose default action ends the process: the ones a time limit, a timer or a stray
# kill sends, and the real-time signals (before: SIGVTALRM and the rest killed the run with no
# message, the private directory left).
_SIGNALS = [(s, s.name) for s in (signal.SIGXCPU, signal.SIGALRM, signal.SIGUSR1, signal.SIGUSR2,
                                  signal.SIGVTALRM, signal.SIGPROF, signal.SIGIO, signal.SIGPWR,
                                  signal.SIGSTKFLT, signal.SIGTERM)]
_SIGNALS += [(signal.SIGRTMIN, "SIGRTMIN"), (signal.SIGRTMIN + 5, "SIGRTMIN+5"),
             (signal.SIGRTMAX, f"SIGRTMIN+{signal.SIGRTMAX - signal.SIGRTMIN}")]
for _sig, _name in _SIGNALS:
    def _case(cfg, scratch, sig=_sig, name=_name):
        return signal_in_extraction(cfg, scratch, sig, name)
    _case.__name__ = f"signal_in_extraction_{_name.replace('+', '_')}"
    test(_case)


@test
def signal_blocked_at_start(cfg, scratch):
    """Started with SIGTERM and SIGINT blocked (a mask inherited through exec): each still ends
    the run, cleaned up (before: held back for the whole run)."""
    problems = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        sub = scratch / sig.name
        sub.mkdir()
        problems += signal_in_extraction(cfg, sub, sig, blocked=True)
    return problems


@test
def cpu_limit_both(cfg, scratch):
    """`ulimit -t 2` (soft and hard alike) while a replay spins in its extraction: SIGXCPU ends
    the run (exit 152, the error document, the private directory removed), not SIGKILL at the
    hard limit (before: exit -9, no message, the directory left)."""
    if SLOW_READ_LIB is None:
        return ["--slow-read-lib not given"]
    bundle = scratch / "b.tar.gz"
    gathered = run(cfg, ["--root", fixture_root(cfg), "gather", "--output", str(bundle)])
    if gathered.returncode != 0:
        return [f"gather: exit {gathered.returncode}: {gathered.stderr[:200]!r}"]
    tmp = scratch / "tmp"
    tmp.mkdir()
    env = base_env({"TMPDIR": str(tmp), "LD_PRELOAD": str(SLOW_READ_LIB),
                    "SLOW_READ_PATH": str(bundle), "SLOW_READ_SPIN": "1",
                    "ASAN_OPTIONS": "verify_asan_link_order=0:" + os.environ.get("ASAN_OPTIONS", "")})
    proc = subprocess.run([str(cfg.binary), "--root", str(bundle), "report", "--json"], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, timeout=60,
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CPU, (2, 2)))
    problems = []
    if proc.returncode != 128 + signal.SIGXCPU:
        problems.append(f"exit {proc.returncode}, want {128 + signal.SIGXCPU}: "
                        f"{proc.stderr[-200:]!r}")
    if b"interrupted by SIGXCPU" not in proc.stderr:
        problems.append(f"stderr does not say so: {proc.stderr[-200:]!r}")
    left = list(tmp.iterdir())
    if left:
        problems.append(f"private directory left: {[p.name for p in left]}")
    return problems


def main():
    global SLOW_READ_LIB
    if "--slow-read-lib" in sys.argv:
        at = sys.argv.index("--slow-read-lib")
        SLOW_READ_LIB = Path(sys.argv[at + 1]).resolve()
        del sys.argv[at:at + 2]
    return run_tests(TESTS, __doc__)


if __name__ == "__main__":
    sys.exit(main())
