#!/usr/bin/python3
"""check --wait against the built program: a port that becomes ACTIVE during the wait, one that
never does, the tree changing shape between polls (a function appearing or going away, a port's
rdma device going away, a netdev renamed) with the wait ending on the document a fresh check
gives, an interrupt during the wait, the run's deadline covering the wait, usage errors.

    test_wait.py --binary BUILD/rdmi-probe --fixtures BUILD/tests/fixtures

Each case copies the sysfs root `logical-down` (two ports, both DOWN) to a temporary directory.
Nothing here sleeps to line up with the program: the program's stderr is a pseudo-terminal, its
progress line says when an evaluation did not pass ("check --wait: evaluation 1: fail; ..."),
and only then does the test change the port's state file (atomically, by rename) or send the
signal. The first evaluation has read DOWN by then, so a pass proves a later one read ACTIVE.
Standard library only (jsonschema when installed validates the documents).
"""
import argparse
import json
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

PORT = ("sys/devices/pci0000:00/0000:00:01.0/0000:03:00.0/infiniband/mlx5_0/ports/1/state")
FIRST_PAUSE = b"check --wait: evaluation 1: "


class Failures(list):
    def expect(self, cond, what, *shown):
        if not cond:
            self.append(what + "".join(f"\n    {s!r}"[:600] for s in shown))


def env_for_run():
    # The run's time pinned, so that a wait's document and a fresh check's can be compared.
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TERM": "xterm",
           "SOURCE_DATE_EPOCH": "1700000000"}
    for key in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if key in os.environ:
            env[key] = os.environ[key]
    return env


def fresh_root(fixtures, tmp, name):
    root = Path(tmp) / name
    shutil.copytree(Path(fixtures) / "sysfs" / "logical-down", root, symlinks=True)
    return root


def set_port_state(root, text):
    """Replaces the state file in one step: a reader sees the old text or the new, never none."""
    path = root / PORT
    staged = path.with_name("state.new")
    staged.write_text(text + "\n")
    os.replace(staged, path)


def run_plain(binary, args, timeout=60):
    proc = subprocess.run([binary, *args], capture_output=True, env=env_for_run(),
                          stdin=subprocess.DEVNULL, timeout=timeout)
    return proc.returncode, proc.stdout.decode(errors="replace"), \
        proc.stderr.decode(errors="replace")


def run_on_pty(binary, args, on_first_pause, limit=60):
    """Runs with stderr on a pseudo-terminal; calls on_first_pause(proc) once the progress line
    says the first evaluation did not pass. (exit code, stdout, stderr, seconds from the
    callback to the exit, or None when it was never called)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([binary, *args], stdout=subprocess.PIPE, stderr=slave,
                            stdin=subprocess.DEVNULL, env=env_for_run())
    os.close(slave)
    err = b""
    called_at = None
    started = time.monotonic()
    while time.monotonic() - started < limit:
        ready, _, _ = select.select([master], [], [], 1.0)
        if not ready:
            continue
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: every writer of the pty has closed it
            break
        if not chunk:
            break
        err += chunk
        if called_at is None and FIRST_PAUSE in err:
            on_first_pause(proc)
            called_at = time.monotonic()
    out = proc.stdout.read()
    try:
        proc.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    ended = time.monotonic()
    os.close(master)
    return (proc.returncode, out.decode(errors="replace"), err.decode(errors="replace"),
            None if called_at is None else ended - called_at)


class Schemas:
    """The repository's schemas by $id, when jsonschema is there to read them."""

    def __init__(self, source):
        try:
            import jsonschema  # noqa: F401
        except ImportError:
            self.by_id = None
            return
        self.by_id = {}
        for path in (Path(source) / "schemas").glob("*.schema.json"):
            schema = json.loads(path.read_text())
            self.by_id[schema["$id"]] = schema

    def problems(self, document, schema_id):
        if self.by_id is None:
            return []
        import jsonschema
        schema = self.by_id[schema_id]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            resolver = jsonschema.RefResolver.from_schema(schema, store=dict(self.by_id))
            validator = jsonschema.Draft202012Validator(schema, resolver=resolver)
            found = [e.message for e in validator.iter_errors(document)]
        want = schema.get("schema_version")
        got = (document.get("x_rdmi_probe") or {}).get("schema_version", want)
        if got != want:
            found.append(f"schema_version {got}, the schema describes {want}")
        return found


def document(out, failures, what):
    try:
        return json.loads(out)
    except ValueError as e:
        failures.append(f"{what}: stdout is not one JSON document ({e}): {out[:300]!r}")
        return {}


PF0 = "sys/devices/pci0000:00/0000:00:01.0/0000:03:00.0"
PF1 = "sys/devices/pci0000:00/0000:00:01.0/0000:03:00.1"


def add_function(root, bdf):
    """A ConnectX-7 PF of the logical-down shape, its directory written before the
    /sys/bus/pci/devices link that makes it appear, as the kernel shows a new function."""
    d = root / "sys/devices/pci0000:00/0000:00:01.0" / bdf
    d.mkdir(parents=True)
    for name, text in (("vendor", "0x15b3"), ("device", "0xa2dc"), ("subsystem_vendor", "0x15b3"),
                       ("subsystem_device", "0x0051"), ("class", "0x020000"),
                       ("numa_node", "0"), ("sriov_totalvfs", "16"), ("sriov_numvfs", "0")):
        (d / name).write_text(text + "\n")
    os.symlink(f"../../../devices/pci0000:00/0000:00:01.0/{bdf}",
               root / "sys/bus/pci/devices" / bdf)


def same_as_fresh_check(a, root, args, code, doc, failures, what):
    """The wait's document, its wait member aside, and exit code are a fresh check's now."""
    fresh_code, fresh_out, fresh_err = run_plain(a.binary, ["check", "--json", "--root",
                                                            str(root), *args])
    fresh = document(fresh_out, failures, f"{what}: fresh check")
    waited = json.loads(json.dumps(doc))
    (waited.get("x_rdmi_probe") or {}).pop("wait", None)
    failures.expect(waited == fresh and code == fresh_code,
                    f"{what}: the wait ended with a fresh check's document and exit code "
                    f"({code} against {fresh_code})", json.dumps(doc)[:1500], fresh_out[:1500])


def wait_through(a, root, args, wait, change, failures, what):
    """`check --json --wait` over `root` while `change(proc)` alters it at the first pause:
    exit code, stdout, stderr and the parsed document."""
    code, out, err, _ = run_on_pty(
        a.binary, ["check", "--json", "--root", str(root), *args, "--wait", wait,
                   "--interval", "0.05"], change)
    return code, out, err, document(out, failures, what)


def passes_at_once(a, root, args, change, failures, what):
    """A 20 s wait that `change` makes pass: it ends with exit 0 well before its end, and with
    a fresh check's document."""
    code, out, err, doc = wait_through(a, root, args, "20", change, failures, what)
    wait = (doc.get("x_rdmi_probe") or {}).get("wait") or {}
    failures.expect(code == 0 and wait.get("waited_s", 20) < 10,
                    f"{what}: exit {code} after {wait.get('waited_s')} s, want 0 at once", out, err)
    same_as_fresh_check(a, root, args, code, doc, failures, what)


def case_shape_changes(a, tmp, failures):
    """Between polls the tree changes shape; the wait ends with what a fresh check says."""
    # A function appears that the requirement names.
    root = fresh_root(a.fixtures, tmp, "function-appears")
    args = ["--require-device", "0000:03:00.4"]
    code, out, err, doc = wait_through(a, root, args, "10",
                                       lambda proc: add_function(root, "0000:03:00.4"),
                                       failures, "function appears")
    failures.expect(code == 0 and FIRST_PAUSE + b"fail" in err.encode(),
                    f"function appears: exit {code}, want 0 after a first failure", out, err)
    same_as_fresh_check(a, root, args, code, doc, failures, "function appears")

    # A port's rdma device goes away, another port becomes ACTIVE.
    root = fresh_root(a.fixtures, tmp, "device-goes")
    args = ["--require-port-active"]

    def device_goes(proc):
        os.unlink(root / "sys/class/infiniband/mlx5_1")
        set_port_state(root, "4: ACTIVE")
    code, out, err, doc = wait_through(a, root, args, "10", device_goes, failures, "device goes")
    failures.expect(code == 0, f"device goes: exit {code}, want 0", out, err)
    same_as_fresh_check(a, root, args, code, doc, failures, "device goes")

    # Never passes: a function goes away and the last port left changes state. The wait ends
    # on a document whose wording (the fix for the INIT port) a fresh check writes.
    root = fresh_root(a.fixtures, tmp, "function-goes")
    args = ["--require-dpa", "--require-port-active"]

    def function_goes(proc):
        os.unlink(root / "sys/bus/pci/devices/0000:03:00.1")
        os.unlink(root / "sys/class/infiniband/mlx5_1")
        set_port_state(root, "2: INIT")
    code, out, err, doc = wait_through(a, root, args, "1.5", function_goes, failures,
                                       "function goes")
    failures.expect(code == 1 and "INIT" in out and "mlx5_1" not in out,
                    f"function goes: exit {code}, want 1 naming the INIT port alone", out, err)
    wait = (doc.get("x_rdmi_probe") or {}).get("wait") or {}
    failures.expect(wait.get("evaluations", 0) >= 3, "function goes: polled on", wait)
    same_as_fresh_check(a, root, args, code, doc, failures, "function goes")

    # A port appears, ACTIVE, on a device whose one port is DOWN: the poll that sees it passes,
    # long before the wait's end.
    root = fresh_root(a.fixtures, tmp, "port-appears")
    args = ["--require-port-active"]

    def port_appears(proc):
        port = root / PF0 / "infiniband/mlx5_0/ports/2"
        port.mkdir()
        (port / "state").write_text("4: ACTIVE\n")
    passes_at_once(a, root, args, port_appears, failures, "port appears")

    # An rdma device moved to another function (its `device` link retargeted, every listing
    # unchanged): the whole evaluation the poll falls back to reads the link afresh, not a
    # directory descriptor kept from the first, and passes as a fresh check does.
    root = fresh_root(a.fixtures, tmp, "device-moved")
    set_port_state(root, "4: ACTIVE")
    args = ["--require-device", "0000:03:00.1", "--require-port-active"]

    def device_moves(proc):
        link = root / PF0 / "infiniband/mlx5_0/device"
        staged = link.with_name("device.new")
        os.symlink("../../../0000:03:00.1", staged)
        os.replace(staged, link)
    passes_at_once(a, root, args, device_moves, failures, "device moved")

    # A netdev renamed: a requirement naming the new name passes.
    root = fresh_root(a.fixtures, tmp, "netdev-renamed")
    args = ["--require-device", "eth7"]
    code, out, err, doc = wait_through(
        a, root, args, "10",
        lambda proc: os.rename(root / PF1 / "net/ens1f1np1", root / PF1 / "net/eth7"),
        failures, "netdev renamed")
    failures.expect(code == 0, f"netdev renamed: exit {code}, want 0", out, err)
    same_as_fresh_check(a, root, args, code, doc, failures, "netdev renamed")


def case_port_becomes_active(a, tmp, failures, schemas):
    root = fresh_root(a.fixtures, tmp, "becomes-active")
    code, out, err, _ = run_on_pty(
        a.binary,
        ["check", "--json", "--root", str(root), "--require-port-active", "--wait", "5s",
         "--interval", "0.2"],
        lambda proc: set_port_state(root, "4: ACTIVE"))
    doc = document(out, failures, "becomes active")
    failures.expect(FIRST_PAUSE + b"fail" in err.encode(),
                    "becomes active: the first evaluation failed (DOWN) and the terminal said so",
                    err)
    failures.expect(code == 0, f"becomes active: exit {code}, want 0 (a later evaluation passed)",
                    out, err)
    failures.expect(doc.get("result") == "pass", "becomes active: result pass", out)
    wait = (doc.get("x_rdmi_probe") or {}).get("wait") or {}
    failures.expect(wait.get("evaluations", 0) >= 2,
                    "becomes active: at least two evaluations (the first saw DOWN)", wait)
    failures.expect(wait.get("wait_s") == 5 and wait.get("interval_s") == 0.2,
                    "becomes active: wait_s 5 (from 5s) and interval_s 0.2", wait)
    failures.expect(0 < wait.get("waited_s", 0) < 5, "becomes active: waited less than 5 s", wait)
    for problem in schemas.problems(doc, "urn:rdmi-probe:schema:validate-before-commit"):
        failures.append(f"becomes active: schema: {problem}")
    failures.expect(err.endswith("\r\x1b[K"), "becomes active: the status line is erased", err)
    same_as_fresh_check(a, root, ["--require-port-active"], code, doc, failures,
                        "becomes active")


def case_never_active(a, tmp, failures, schemas):
    root = fresh_root(a.fixtures, tmp, "never-active")
    started = time.monotonic()
    code, out, err = run_plain(a.binary, ["check", "--json", "--root", str(root),
                                          "--require-port-active", "--wait", "1s",
                                          "--interval", "0.2"])
    took = time.monotonic() - started
    doc = document(out, failures, "never active")
    failures.expect(code == 1, f"never active: exit {code}, want 1 (the last evaluation failed)",
                    out, err)
    failures.expect(doc.get("result") == "fail", "never active: result fail", out)
    wait = (doc.get("x_rdmi_probe") or {}).get("wait") or {}
    # The wait's end is always evaluated: at least the first and that one.
    failures.expect(wait.get("evaluations", 0) >= 2, "never active: evaluated again", wait)
    failures.expect(wait.get("waited_s", 0) >= 1.0, "never active: waited the whole second",
                    wait)
    failures.expect(took >= 1.0, f"never active: ended after {took:.2f} s, before the wait")
    same_as_fresh_check(a, root, ["--require-port-active"], code, doc, failures,
                        "never active")
    failures.expect("\r" not in err, "never active: no status line on a pipe", err)
    for problem in schemas.problems(doc, "urn:rdmi-probe:schema:validate-before-commit"):
        failures.append(f"never active: schema: {problem}")

    code, out, err = run_plain(a.binary, ["check", "--root", str(root), "--require-port-active",
                                          "--wait", "0.3", "--interval", "0.1"])
    failures.expect(code == 1 and "Waited " in out and "of --wait 0.3 s" in out,
                    "never active, text: the result says how long it waited", out, err)


def case_deadline_covers_the_wait(a, tmp, failures):
    # --timeout bounds each evaluation, not the wait: a run that waits 2 s with --timeout 0.3
    # would otherwise be ended by its watchdog at 1.3 s ("timeout: ...", exit 2).
    root = fresh_root(a.fixtures, tmp, "deadline")
    code, out, err = run_plain(a.binary, ["check", "--json", "--timeout", "0.3", "--root",
                                          str(root), "--require-port-active", "--wait", "2s",
                                          "--interval", "0.5"])
    doc = document(out, failures, "deadline")
    failures.expect(code == 1 and "timeout" not in err,
                    f"deadline: exit {code}, want 1 from the last evaluation, no timeout", err)
    wait = (doc.get("x_rdmi_probe") or {}).get("wait") or {}
    failures.expect(wait.get("waited_s", 0) >= 2.0, "deadline: the whole wait ran", wait)


def case_interrupted(a, tmp, failures, sig, json_mode):
    root = fresh_root(a.fixtures, tmp, f"interrupted-{sig.name}")
    args = ["check", "--root", str(root), "--require-port-active", "--wait", "60",
            "--interval", "30"]
    if json_mode:
        args.insert(1, "--json")
    code, out, err, after = run_on_pty(a.binary, args, lambda proc: proc.send_signal(sig))
    what = f"interrupted by {sig.name}"
    failures.expect(after is not None, f"{what}: the first pause was shown", err)
    failures.expect(code == 128 + sig, f"{what}: exit {code}, want {128 + sig}", out, err)
    # Promptly: the pause it interrupted had 30 s to go.
    failures.expect(after is not None and after < 10, f"{what}: ended {after} s after the signal")
    failures.expect(f"rdmi-probe: interrupted by {sig.name}" in err, f"{what}: stderr says so",
                    err)
    if json_mode:
        doc = document(out, failures, what)
        error = doc.get("error") or {}
        failures.expect(error.get("exit_code") == 128 + sig and sig.name in error.get("message",
                                                                                      ""),
                        f"{what}: the error document", out)
    else:
        failures.expect(out == "", f"{what}: nothing on stdout", out)


def case_usage_errors(a, tmp, failures):
    root = fresh_root(a.fixtures, tmp, "usage")
    bundle = Path(tmp) / "b.tar.gz"
    code, out, err = run_plain(a.binary, ["--root", str(root), "gather", "--output", str(bundle)])
    failures.expect(code == 0 and bundle.is_file(), f"gather: exit {code}", err)
    unpacked = Path(tmp) / "unpacked"
    unpacked.mkdir()
    subprocess.run(["tar", "-xzf", str(bundle), "-C", str(unpacked)], check=True)
    bundle_dir = next(unpacked.iterdir())
    for given in (bundle, bundle_dir):
        code, out, err = run_plain(a.binary, ["check", "--json", "--root", str(given),
                                              "--require-port-active", "--wait", "1"])
        doc = document(out, failures, f"bundle {given.name}")
        failures.expect(code == 2 and "support bundle" in err and "nothing to wait for" in err
                        and err.count("\n") == 1,
                        f"--wait on bundle {given.name}: exit {code}, want 2 and one line", err)
        failures.expect((doc.get("error") or {}).get("exit_code") == 2,
                        f"--wait on bundle {given.name}: the error document", out)
        # The same bundle without --wait is judged as ever.
        code, out, err = run_plain(a.binary, ["check", "--root", str(given),
                                              "--require-port-active"])
        failures.expect(code == 1, f"bundle {given.name} without --wait: exit {code}", err)

    refused = [
        (["--wait", "1", "--interval", "2"], "is longer than --wait"),
        (["--interval", "0.5"], "--interval needs --wait"),
        (["--wait", "5x"], "is not a duration"),
        (["--wait", "-1"], "is not a duration"),
        (["--wait", "0"], "not in range"),
        (["--wait", "25h"], "not in range"),
        (["--wait", "1", "--interval", "0"], "not in range"),
    ]
    for extra, message in refused:
        code, out, err = run_plain(a.binary, ["check", "--root", str(root),
                                              "--require-port-active", *extra])
        failures.expect(code == 2 and message in err and out == "",
                        f"{' '.join(extra)}: exit {code}, want 2 with '{message}'", err)
    code, out, err = run_plain(a.binary, ["check", "--list-checks", "--wait", "1"])
    failures.expect(code == 2 and "--list-checks judges nothing" in err,
                    f"--wait --list-checks: exit {code}", err)

    # Already there: one evaluation, 2m read as 120 s.
    set_port_state(root, "4: ACTIVE")
    code, out, err = run_plain(a.binary, ["check", "--json", "--root", str(root),
                                          "--require-port-active", "--wait", "2m"])
    doc = document(out, failures, "already active")
    wait = (doc.get("x_rdmi_probe") or {}).get("wait") or {}
    failures.expect(code == 0 and wait.get("evaluations") == 1 and wait.get("wait_s") == 120
                    and wait.get("interval_s") == 1,
                    f"already active: exit {code}, one evaluation, wait_s 120, interval 1", out)
    # Without --wait the document has no wait member.
    code, out, err = run_plain(a.binary, ["check", "--json", "--root", str(root),
                                          "--require-port-active"])
    doc = document(out, failures, "no wait")
    failures.expect(code == 0 and "wait" not in (doc.get("x_rdmi_probe") or {}),
                    "without --wait: no x_rdmi_probe.wait", out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--source", default=str(Path(__file__).resolve().parents[2]))
    a = ap.parse_args()
    failures = Failures()
    schemas = Schemas(a.source)
    with tempfile.TemporaryDirectory(prefix="rdmi-wait-") as tmp:
        case_port_becomes_active(a, tmp, failures, schemas)
        case_never_active(a, tmp, failures, schemas)
        case_shape_changes(a, tmp, failures)
        case_deadline_covers_the_wait(a, tmp, failures)
        case_interrupted(a, tmp, failures, signal.SIGTERM, json_mode=True)
        case_interrupted(a, tmp, failures, signal.SIGINT, json_mode=False)
        case_usage_errors(a, tmp, failures)
    for failure in failures:
        print("FAIL:", failure)
    print(f"check --wait: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
