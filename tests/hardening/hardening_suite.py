"""What the hardening scripts share: the loop that runs each of a script's tests against the
binary in a scratch directory of its own and prints PASS/FAIL lines, and the fixture builders they
load from the source tree. Imported by the scripts beside it (their directory is on sys.path)."""

import argparse
import importlib.util
import tempfile
from pathlib import Path


def run_tests(tests, doc, fixtures=True, scratch_mode=0o755, extra_paths=()):
    """Parses --binary [--fixtures] [-k SUBSTRING...], runs every test(cfg, scratch) whose dashed
    name holds a -k substring (all without -k) and returns the exit code: 1 when one reported a
    problem or raised. With fixtures the scratch directories are made beside the fixtures (the
    build tree, readable by nobody); without, in the system's temporary directory. Each name of
    `extra_paths` ("--refuse-syscalls-exec") is one more required path option (cfg.refuse_syscalls_exec)."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", type=Path, required=True)
    for option in extra_paths:
        parser.add_argument(option, type=Path, required=True)
    if fixtures:
        parser.add_argument("--fixtures", type=Path, required=True)
    parser.add_argument("-k", action="append", default=[])
    cfg = parser.parse_args()
    cfg.binary = cfg.binary.resolve()
    base = None
    if fixtures:
        cfg.fixtures = cfg.fixtures.resolve()
        base = cfg.fixtures.parent / "hardening-tmp"
        base.mkdir(exist_ok=True)
        base.chmod(0o755)
    failed = 0
    for fn in tests:
        name = fn.__name__.replace("_", "-")
        if cfg.k and not any(k in name for k in cfg.k):
            continue
        with tempfile.TemporaryDirectory(dir=base) as t:
            scratch = Path(t)
            scratch.chmod(scratch_mode)
            try:
                problems = fn(cfg, scratch)
            except Exception as e:
                problems = [f"raised {type(e).__name__}: {e}"]
        failed += bool(problems)
        print(f"{'PASS' if not problems else 'FAIL'} {name}")
        for p in problems:
            print(f"    {p}")
    print(f"{failed} failed")
    return 1 if failed else 0


def run_ctx_cases(cases, make_ctx, prefix):
    """Parses --binary --fixtures [-k SUBSTRING...] and runs every case(ctx) whose name holds a
    -k substring (all without -k), each with make_ctx(binary, fixtures, scratch) over a scratch
    directory of its own. A case returns its problems; those starting with "SKIP" are reported
    but fail nothing. Prints a line per case and the count; returns the exit code."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True, type=Path)
    ap.add_argument("--fixtures", required=True, type=Path)
    ap.add_argument("-k", action="append", default=[])
    args = ap.parse_args()
    failed = 0
    for fn in cases:
        if args.k and not any(k in fn.__name__ for k in args.k):
            continue
        with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
            problems = fn(make_ctx(args.binary.resolve(), args.fixtures.resolve(), Path(tmp)))
        skipped = [p for p in problems if p.startswith("SKIP")]
        real = [p for p in problems if not p.startswith("SKIP")]
        print(f"{'FAIL' if real else 'SKIP' if skipped else 'ok  '} {fn.__name__}")
        for p in real + skipped:
            print(f"    {p}")
        failed += bool(real)
    print(f"{len(cases)} cases, {failed} failed")
    return 1 if failed else 0


def load_sysfs_builder(source):
    """tests/fixtures/sysfs/make_sysfs_root.py of the source tree `source`, as a module."""
    spec = importlib.util.spec_from_file_location(
        "make_sysfs_root", source / "tests/fixtures/sysfs/make_sysfs_root.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
