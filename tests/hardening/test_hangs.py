#!/usr/bin/python3
"""Hang resistance, measured: each case gives rdmi-probe something that would block forever and
asserts that the whole run ends within --timeout plus a small margin, with a valid document.

    test_hangs.py --binary PATH --fixtures DIR [--slow-read-lib SO] [--timeout S] [--margin S]
                  [--jobs N] [-k SUBSTRING]

Cases: FIFOs where sysfs attributes are expected (one with a writer that trickles a byte a
second), FIFOs where .pc files are expected, doca_caps/dpacc stand-ins that never exit (one
ignores SIGTERM and leaves a grandchild holding the output pipe), a verbs library whose
ibv_open_device never returns, and all of the hanging tools and devices in one run: these end
with the run's own document (the call deadlines bound them). Then regular files whose read(2)
blocks, as on a hung NFS mount (the LD_PRELOAD library --slow-read-lib stalls every read of one
chosen file): the run's watchdog ends these at --timeout plus its grace, with an error document
that names the file, exit 2. The same for a bundle archive given to --root, whose extraction is
part of the run: a read of it that never returns, an archive whose reads are slow (the
extraction stops at the run's deadline), and a slow one inside the bound, whose extraction
counts in the run's duration. Exits 1 when any bound is broken.
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

PCI = "0000:03:00.0"


def fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path, 0o644)
    return path


def trickle(path: Path, stop: threading.Event) -> None:
    """Opens the FIFO for writing (blocks until someone reads) and writes one byte a second."""
    try:
        fd = os.open(path, os.O_WRONLY)
    except OSError:
        return
    try:
        while not stop.wait(1.0):
            os.write(fd, b"1")
    except OSError:
        pass
    finally:
        os.close(fd)


def sysfs_fifo_root(tmp: Path) -> Path:
    root = tmp / "root"
    dev = root / "sys/bus/pci/devices" / PCI
    for name in ("vendor", "device", "numa_node", "sriov_numvfs"):
        fifo(dev / name)
    ib = root / "sys/class/infiniband/mlx5_0"
    ib.mkdir(parents=True)
    os.symlink(f"../../../bus/pci/devices/{PCI}", ib / "device")
    for name in ("fw_ver", "node_guid", "hca_type"):
        fifo(ib / name)
    port = ib / "ports/1"
    for name in ("state", "link_layer", "rate", "lid"):
        fifo(port / name)
    fifo(port / "gids/0")
    fifo(root / "proc/modules")
    fifo(root / "proc/mounts")
    return root


def pc_fifo_root(tmp: Path) -> Path:
    root = tmp / "root"
    pcdir = root / "opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig"
    for module in ("doca-common", "doca-verbs", "doca-dpa", "doca-rdmi"):
        fifo(pcdir / f"{module}.pc")
    distro = root / "usr/lib/x86_64-linux-gnu/pkgconfig"
    distro.mkdir(parents=True)
    os.symlink("/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig/doca-rdmi.pc", distro / "doca-rdmi.pc")
    return root


HANG_TOOL = "#!/bin/sh\n# Fixture tool that never exits.\nexec sleep 600\n"
STUBBORN_TOOL = (
    "#!/bin/sh\n# Fixture tool that ignores SIGTERM and leaves a grandchild holding stdout.\n"
    "trap '' TERM\nsleep 600 &\nwait\nwait\n"
)


def hanging_prefix(fixtures: Path, tmp: Path, stubborn: bool) -> Path:
    prefix = tmp / "prefix"
    shutil.copytree(fixtures / "prefixes" / "complete-3.3", prefix, symlinks=True)
    for tool, text in (("doca_caps", STUBBORN_TOOL if stubborn else HANG_TOOL), ("dpacc", HANG_TOOL)):
        path = prefix / "tools" / tool
        if path.exists() or path.is_symlink():
            path.unlink()
        path.write_text(text)
        path.chmod(0o755)
    return prefix


ERROR_SCHEMA = "urn:rdmi-probe:schema:error"


def run_case(name, args, env_extra, cfg, expect_in_doc=None, expect_error=False, json_mode=True):
    """Runs one case; the document must be the run's own, or with expect_error the error
    document of a run the watchdog ended (exit 2). Returns a failure text or None."""
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")}
    env.setdefault("PATH", "/usr/bin:/bin")
    env.update(env_extra)
    argv = [str(cfg.binary), *args, *(["--json"] if json_mode else []), "--timeout", str(cfg.timeout)]
    bound = cfg.timeout + cfg.margin
    start = time.monotonic()
    try:
        proc = subprocess.run(argv, env=env, capture_output=True, timeout=bound * 4, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return f"{name}: still running after {bound * 4:.1f}s (bound {bound:.1f}s)"
    elapsed = time.monotonic() - start
    problems = []
    if elapsed > bound:
        problems.append(f"took {elapsed:.2f}s, bound --timeout {cfg.timeout} + {cfg.margin} = {bound:.2f}s")
    if proc.returncode not in (0, 1, 2, 3):
        problems.append(f"exit code {proc.returncode} (a signal or crash)")
    if expect_error and proc.returncode != 2:
        problems.append(f"exit code {proc.returncode}, expected 2 (the watchdog's)")
    stderr_lines = proc.stderr.decode(errors="replace").splitlines()
    if not json_mode:
        # Text mode: nothing on stdout from a run the watchdog ended, one line on stderr.
        doc = {}
        text = stderr_lines[-1] if stderr_lines else ""
        if proc.stdout:
            problems.append(f"stdout is not empty: {proc.stdout[:200]!r}")
        if not text.startswith("rdmi-probe: timeout: "):
            problems.append(f"last stderr line is not the timeout message: {text!r}")
    else:
        try:
            doc = json.loads(proc.stdout)
        except ValueError as e:
            problems.append(f"stdout is not one JSON document: {e}")
            doc = None
        text = proc.stdout.decode(errors="replace")
    if json_mode and doc is not None:
        is_error = doc.get("schema") == ERROR_SCHEMA
        if is_error != expect_error:
            problems.append("an error document (the watchdog fired)" if is_error
                            else "the run's own document, expected the watchdog's error document")
        if expect_error and is_error:
            message = doc["error"]["message"]
            if doc["error"]["exit_code"] != 2 or "\n" in message:
                problems.append(f"error document: exit_code {doc['error']['exit_code']}, message {message!r}")
            if f"rdmi-probe: {message}" not in stderr_lines:
                problems.append("stderr does not carry the document's message on one line")
    for needle in expect_in_doc or []:
        if needle not in text:
            problems.append(f"document does not mention {needle!r}")
    if b"AddressSanitizer" in proc.stderr or b"runtime error:" in proc.stderr:
        problems.append("sanitizer report on stderr")
    status = "PASS" if not problems else "FAIL"
    print(f"{status} {name}: {elapsed:.2f}s (bound {bound:.2f}s), exit {proc.returncode}")
    if problems:
        sys.stderr.write(proc.stderr.decode(errors="replace")[-2000:])
        return f"{name}: " + "; ".join(problems)
    return None if doc is not None else f"{name}: no document"


def slow_read_cases(cfg, fixtures: Path, tmp: Path, selected):
    """A regular file whose reads block: the watchdog must end the run at --timeout + its grace
    (inside the bound), naming the file; a read slow by less than that must not trip it.
    Returns the cases to run, each a function that returns a failure text or None."""
    root = tmp / "root"
    shutil.copytree(fixtures / "roots" / "complete-3.3", root, symlinks=True)
    in_root = "/opt/mellanox/doca/applications/VERSION"
    host = os.path.realpath(root / in_root.lstrip("/"))
    preload = {"LD_PRELOAD": str(cfg.slow_read_lib.resolve()), "SLOW_READ_PATH": host,
               # a GCC ASan runtime wants to come first; the clang one is linked in
               "ASAN_OPTIONS": "verify_asan_link_order=0:" + os.environ.get("ASAN_OPTIONS", "")}
    args = ["report", "--root", str(root)]
    out = []
    if selected("hung-read"):
        out.append(lambda: run_case("hung-read (json)", args, preload, cfg, [f"still reading {in_root}"],
                                    expect_error=True))
        out.append(lambda: run_case("hung-read (text)", args, preload, cfg, [f"still reading {in_root}"],
                                    expect_error=True, json_mode=False))
    if selected("slow-read"):
        # Slow but inside the bound: the run's own document, with the file read.
        slow = dict(preload, SLOW_READ_SECONDS=str(cfg.timeout / 4))
        out.append(lambda: run_case("slow-read-within-bound", args, slow, cfg, ["applications/VERSION=3.3.0105"]))
    return out


def bundle_archive_cases(cfg, fixtures: Path, tmp: Path, selected):
    """--root BUNDLE.tar.gz whose reads stall: the extraction is inside the run's deadline (the
    watchdog ends a read that never returns, the extractor stops at the deadline between
    reads), its private directory is removed, and its time is in run.duration_ms."""
    import gzip
    import io
    import random
    import tarfile

    tmp.mkdir(parents=True)
    bundle = tmp / "b.tar.gz"
    gathered = subprocess.run([str(cfg.binary), "--root", str(fixtures / "sysfs" / "cx6dx"),
                               "--timeout", "60", "gather", "--output", str(bundle)],
                              capture_output=True)
    if gathered.returncode != 0:
        return [lambda: f"bundle-archive: gather exit {gathered.returncode}: {gathered.stderr[-300:]!r}"]
    # 2 MiB that gzip cannot shrink: tens of 64 KiB reads to extract.
    noisy = tmp / "noisy.tar.gz"
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        top = tarfile.TarInfo("rdmi-probe-bundle")
        top.type = tarfile.DIRTYPE
        tar.addfile(top)
        data = random.Random(7).randbytes(2 << 20)
        info = tarfile.TarInfo("rdmi-probe-bundle/noise")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    noisy.write_bytes(gzip.compress(raw.getvalue(), compresslevel=1))

    def private_tmpdir(name):
        """Each case's own TMPDIR (the cases run at once): empty again after its run."""
        path = tmp / f"tmpdir-{name}"
        path.mkdir()
        return path

    def preload(path, tmpdir, seconds=None):
        env = {"LD_PRELOAD": str(cfg.slow_read_lib.resolve()), "SLOW_READ_PATH": os.path.realpath(path),
               "TMPDIR": str(tmpdir),
               "ASAN_OPTIONS": "verify_asan_link_order=0:" + os.environ.get("ASAN_OPTIONS", "")}
        if seconds is not None:
            env["SLOW_READ_SECONDS"] = str(seconds)
        return env

    def private_dir_removed(failure, name, tmpdir):
        left = list(tmpdir.iterdir())
        for p in left:
            shutil.rmtree(p, ignore_errors=True)
        if left:
            return (failure + "; " if failure else f"{name}: ") + f"left in TMPDIR: {[p.name for p in left]}"
        return failure

    out = []
    if selected("hung-archive-read"):
        def hung(name="hung-archive-read", tmpdir=private_tmpdir("hung")):
            return private_dir_removed(
                run_case(name, ["report", "--root", str(bundle)], preload(bundle, tmpdir), cfg,
                         [f"still reading {bundle}"], expect_error=True), name, tmpdir)
        out.append(hung)
    if selected("slow-archive-read"):
        def slow(name="slow-archive-read", tmpdir=private_tmpdir("slow")):
            return private_dir_removed(
                run_case(name, ["report", "--root", str(noisy)],
                         preload(noisy, tmpdir, cfg.timeout / 5), cfg,
                         ["not extracted within the run's --timeout"], expect_error=True),
                name, tmpdir)
        out.append(slow)
    if selected("archive-read-counted"):
        def counted(tmpdir=private_tmpdir("counted")):
            # Each read of the archive waits 0.5 s: at least that is the run's.
            env = dict(os.environ, **preload(bundle, tmpdir, 0.5))
            proc = subprocess.run([str(cfg.binary), "--root", str(bundle), "--timeout", "60",
                                   "report", "--json"], env=env, capture_output=True, timeout=120)
            failure = None
            try:
                duration = json.loads(proc.stdout)["run"]["duration_ms"]
                if proc.returncode not in (0, 1, 3) or duration < 500:
                    failure = (f"archive-read-counted: exit {proc.returncode}, run.duration_ms "
                               f"{duration:.0f} (the extraction took 500 ms or more)")
            except (ValueError, KeyError) as e:
                failure = f"archive-read-counted: no report: {e}: {proc.stderr[-300:]!r}"
            print(f"{'PASS' if failure is None else 'FAIL'} archive-read-counted")
            return private_dir_removed(failure, "archive-read-counted", tmpdir)
        out.append(counted)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", type=Path, required=True)
    parser.add_argument("--fixtures", type=Path, required=True)
    parser.add_argument("--slow-read-lib", type=Path, help="the slow_read_preload library")
    parser.add_argument("--timeout", type=float, default=2.0)
    parser.add_argument("--margin", type=float, default=1.5)
    parser.add_argument("-k", action="append", default=[])
    parser.add_argument("--jobs", type=int, default=3, help="cases run at a time (default 3)")
    cfg = parser.parse_args()
    if cfg.jobs < 1:
        parser.error("--jobs must be at least 1")
    cfg.binary = cfg.binary.resolve()
    fixtures = cfg.fixtures.resolve()
    verbs = {"LD_LIBRARY_PATH": str(fixtures / "ibverbs"), "FAKE_IBVERBS_HANG": "mlx5_1"}
    failures = []
    # Temp trees live next to the fixtures: a world-writable /tmp parent would make the tool
    # prefix untrusted, and the tools would then be refused rather than timed out.
    scratch = fixtures.parent / "hardening-tmp"
    scratch.mkdir(exist_ok=True)
    scratch.chmod(0o755)

    def selected(name):
        return not cfg.k or any(k in name for k in cfg.k)

    cases = []  # each a function that runs one case and returns a failure text or None
    with tempfile.TemporaryDirectory(dir=scratch) as t:
        tmp = Path(t)
        tmp.chmod(0o755)
        if selected("sysfs-fifo"):
            root = sysfs_fifo_root(tmp / "a")

            def sysfs_fifo(root=root):
                fw_ver = root / "sys/class/infiniband/mlx5_0/fw_ver"
                stop = threading.Event()
                writer = threading.Thread(target=trickle, args=(fw_ver, stop), daemon=True)
                writer.start()
                failure = run_case("sysfs-fifo (one with a slow writer)", ["report", "--root", str(root)], {}, cfg, ["FIFO"])
                stop.set()
                try:  # unblock the writer if the probe never opened the FIFO
                    os.close(os.open(fw_ver, os.O_RDONLY | os.O_NONBLOCK))
                except OSError:
                    pass
                return failure
            cases.append(sysfs_fifo)
        if selected("pc-fifo"):
            root = pc_fifo_root(tmp / "b")
            cases.append(lambda root=root: run_case("pc-fifo", ["report", "--root", str(root)], {}, cfg, ["FIFO"]))
        if selected("tools-never-exit"):
            prefix = hanging_prefix(fixtures, tmp / "c", stubborn=False)
            cases.append(lambda prefix=prefix: run_case("tools-never-exit", ["report", "--doca-prefix", str(prefix)], {}, cfg, ["timeout"]))
        if selected("tool-ignores-sigterm"):
            prefix = hanging_prefix(fixtures, tmp / "d", stubborn=True)
            cases.append(lambda prefix=prefix: run_case("tool-ignores-sigterm", ["report", "--doca-prefix", str(prefix)], {}, cfg, ["timeout"]))
        if selected("verbs-open-hangs"):
            cases.append(lambda: run_case("verbs-open-hangs", ["report"], verbs, cfg, ["timeout"]))
        if selected("everything-hangs"):
            prefix = hanging_prefix(fixtures, tmp / "e", stubborn=True)
            cases.append(lambda prefix=prefix: run_case("everything-hangs", ["report", "--doca-prefix", str(prefix)], verbs, cfg, ["timeout"]))
        if cfg.slow_read_lib:
            cases.extend(slow_read_cases(cfg, fixtures, tmp / "f", selected))
            if any(selected(n) for n in ("hung-archive-read", "slow-archive-read",
                                         "archive-read-counted")):
                cases.extend(bundle_archive_cases(cfg, fixtures, tmp / "g", selected))
        elif any(selected(n) for n in ("slow-read", "hung-read")):
            failures.append("slow-read cases: --slow-read-lib not given")
        # The cases spend their time waiting for a deadline, not computing: a few at a time
        # shorten the run without crowding the bounds each one measures.
        with concurrent.futures.ThreadPoolExecutor(max_workers=cfg.jobs) as pool:
            failures.extend(pool.map(lambda case: case(), cases))
    failures = [f for f in failures if f]
    for f in failures:
        print(f"FAILED {f}")
    print(f"{len([1 for _ in failures])} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
