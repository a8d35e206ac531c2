#!/usr/bin/env python3
"""Mutation testing over the code that decides verdicts, trust, bounds and time.

Each catalog entry (scripts/mutations.catalog) is one exact text replacement in one file with a
sentence on the bug it stands for. The runner applies one entry at a time, rebuilds the build
directory incrementally, runs the fast doctest binary first and the rest of ctest only when the
mutant survives it, reverts the file (always: on success, failure, Ctrl-C, SIGTERM, and on the
next start if the runner itself was killed), and prints a table and the score.

A mutant is "killed" when any test fails or hangs past its time limit, "survived" when the whole
suite passes, "compile-error" when it does not build (excluded from the score: the compiler, not
the suite, caught it). An entry whose text no longer occurs exactly once in its file is "stale"
and fails the run loudly: the catalog moves with the code (--check lists them all).
"""

from __future__ import annotations

import argparse
import dataclasses
import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CATALOG = REPO / "scripts" / "mutations.catalog"
DEFAULT_BUILD = REPO / "build-test"
UNIT_TARGET = "rdmi_probe_tests"
UNIT_BINARY = Path("tests") / UNIT_TARGET


@dataclasses.dataclass
class Mutant:
    ident: str
    path: str  # relative to the repository
    bug: str
    old: str
    new: str
    line: int  # catalog line of the header, for error messages


class CatalogError(Exception):
    pass


def parse_catalog(path: Path) -> list[Mutant]:
    """Reads the catalog format described at the top of the catalog file."""
    mutants: list[Mutant] = []
    current: dict | None = None

    def finish() -> None:
        if current is None:
            return
        where = f"{path}:{current['line']}"
        if not current["bug"]:
            raise CatalogError(f"{where}: {current['ident']} has no '#' sentence on its bug")
        if current["old"] is None:
            raise CatalogError(f"{where}: {current['ident']} has no '-' line (text to replace)")
        if current["new"] is None:
            raise CatalogError(f"{where}: {current['ident']} has no '+' line (replacement)")
        old = "\n".join(current["old"])
        new = "\n".join(current["new"])
        if old == new:
            raise CatalogError(f"{where}: {current['ident']} replaces a text with itself")
        mutants.append(Mutant(current["ident"], current["path"], " ".join(current["bug"]),
                              old, new, current["line"]))

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if raw.startswith("## "):
            finish()
            fields = raw[3:].split()
            if len(fields) != 2:
                raise CatalogError(f"{path}:{number}: expected '## <id> <file>', got {raw!r}")
            current = {"ident": fields[0], "path": fields[1], "bug": [], "old": None,
                       "new": None, "line": number}
        elif current is None or raw.strip() == "" or raw.startswith(";"):
            continue  # the preamble, blank lines and ';' remarks
        elif raw.startswith("# "):
            current["bug"].append(raw[2:].strip())
        elif raw == "-" or raw.startswith("- "):
            if current["new"] is not None:
                raise CatalogError(f"{path}:{number}: '-' line after a '+' line")
            current["old"] = (current["old"] or []) + [raw[2:]]
        elif raw == "+" or raw.startswith("+ "):
            current["new"] = (current["new"] or []) + [raw[2:]]
        else:
            raise CatalogError(f"{path}:{number}: a line must start with '## ', '# ', '- ', "
                               f"'+ ' or ';': {raw!r}")
    finish()
    seen: set[str] = set()
    for m in mutants:
        if m.ident in seen:
            raise CatalogError(f"{path}:{m.line}: duplicate id {m.ident}")
        seen.add(m.ident)
    return mutants


def applicability(m: Mutant) -> str | None:
    """None when the entry applies; otherwise why not."""
    target = REPO / m.path
    if not target.is_file():
        return f"{m.path}: no such file"
    count = target.read_text(encoding="utf-8").count(m.old)
    if count == 0:
        return f"{m.path}: text not found"
    if count > 1:
        return f"{m.path}: text occurs {count} times (make it unique)"
    return None


# ---- applying and always reverting ---------------------------------------------------------

def lock_source_tree(lock: Path):
    """One runner per source tree: a second one would restore (undo) the first one's mutant
    through the journal, or plant its own beside it. The lock dies with its holder, so a killed
    runner never leaves the tree locked."""
    handle = open(lock, "a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        holder = handle.read().strip() or "?"
        handle.close()
        return None, holder
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    return handle, None


class Reverter:
    """Holds the original bytes of the one mutated file and puts them back no matter what."""

    def __init__(self, journal: Path):
        self.journal = journal  # survives a SIGKILL of the runner: restored on the next start
        self.path: Path | None = None
        self.original: bytes | None = None

    def recover(self) -> None:
        if not self.journal.exists():
            return
        name, _, body = self.journal.read_bytes().partition(b"\n")
        target = Path(name.decode())
        target.write_bytes(body)
        self.journal.unlink()
        print(f"mutate: restored {target} left mutated by an interrupted run", file=sys.stderr)

    def apply(self, m: Mutant) -> None:
        target = REPO / m.path
        original = target.read_bytes()
        text = original.decode("utf-8")
        self.journal.parent.mkdir(parents=True, exist_ok=True)
        self.journal.write_bytes(str(target).encode() + b"\n" + original)
        self.path, self.original = target, original
        target.write_text(text.replace(m.old, m.new, 1), encoding="utf-8")

    def revert(self) -> None:
        if self.path is not None and self.original is not None:
            self.path.write_bytes(self.original)
            self.path, self.original = None, None
        if self.journal.exists():
            self.journal.unlink()


# ---- building and testing ------------------------------------------------------------------

def run(cmd: list[str], timeout: float | None, log) -> tuple[str, float]:
    """Runs cmd under nice in its own process group; 'ok', 'fail' or 'timeout', and seconds."""
    start = time.monotonic()
    log.write(f"$ {' '.join(cmd)}\n")
    log.flush()
    proc = subprocess.Popen(["nice", "-n", "10", *cmd], stdout=log, stderr=subprocess.STDOUT,
                            cwd=REPO, start_new_session=True)
    try:
        rc = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return "timeout", time.monotonic() - start
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)  # Ctrl-C: take the build or the tests down too
        proc.wait()
        raise
    return ("ok" if rc == 0 else "fail"), time.monotonic() - start


class Suite:
    def __init__(self, build: Path, jobs: int, log):
        self.build, self.jobs, self.log = build, jobs, log
        self.exclude = "^unit$"
        self.unit_limit = 600.0
        self.ctest_limit = 3600.0

    def compile(self, target: str | None = None) -> tuple[str, float]:
        cmd = ["cmake", "--build", str(self.build), f"-j{self.jobs}"]
        return run(cmd + (["--target", target] if target else []), 3600, self.log)

    def unit(self) -> tuple[str, float]:
        return run([str(self.build / UNIT_BINARY), "--no-intro", "--abort-after=1"],
                   self.unit_limit, self.log)

    def rest(self) -> tuple[str, float]:
        return run(["ctest", "--test-dir", str(self.build), f"-j{self.jobs}", "-E", self.exclude,
                    "--stop-on-failure", "--output-on-failure"], self.ctest_limit, self.log)


@dataclasses.dataclass
class Outcome:
    mutant: Mutant
    status: str  # killed, survived, compile-error, stale
    by: str  # unit, ctest, timeout, compiler, ""
    seconds: float


def test_mutant(m: Mutant, suite: Suite, reverter: Reverter) -> Outcome:
    start = time.monotonic()
    suite.log.write(f"\n==== {m.ident} ({m.path}): {m.bug}\n")
    reverter.apply(m)
    # Each stage builds what its tests need, then runs them; the first stage that fails the
    # mutant decides. The doctest binary first: most mutants die there, without linking
    # anything else.
    stages = ((UNIT_TARGET, suite.unit, "unit"), (None, suite.rest, "ctest"))
    try:
        for target, run_tests, name in stages:
            built, _ = suite.compile(target)
            if built != "ok":
                return Outcome(m, "compile-error", "compiler", time.monotonic() - start)
            result, _ = run_tests()
            if result != "ok":
                by = name if result == "fail" else f"{name}-timeout"
                return Outcome(m, "killed", by, time.monotonic() - start)
        return Outcome(m, "survived", "", time.monotonic() - start)
    finally:
        reverter.revert()


def score_line(outcomes: list[Outcome]) -> str:
    killed = sum(o.status == "killed" for o in outcomes)
    survived = sum(o.status == "survived" for o in outcomes)
    errors = sum(o.status == "compile-error" for o in outcomes)
    judged = killed + survived
    percent = f"{100.0 * killed / judged:.1f}%" if judged else "n/a"
    return (f"score: {killed} killed of {judged} ({percent}); {survived} survived; "
            f"{errors} compile errors (not scored)")


def print_table(outcomes: list[Outcome], out) -> None:
    out.write("| id | file | result | killed by | seconds | bug it stands for |\n")
    out.write("| --- | --- | --- | --- | ---: | --- |\n")
    for o in outcomes:
        out.write(f"| {o.mutant.ident} | {o.mutant.path} | {o.status} | {o.by} | "
                  f"{o.seconds:.0f} | {o.mutant.bug} |\n")
    out.write("\n" + score_line(outcomes) + "\n")
    out.flush()


def select(mutants: list[Mutant], ids: list[str], files: list[str]) -> list[Mutant]:
    chosen = mutants
    if ids:
        known = {m.ident for m in mutants}
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise CatalogError("unknown id(s): " + ", ".join(unknown))
        by_id = {m.ident: m for m in chosen}
        chosen = [by_id[i] for i in dict.fromkeys(ids)]  # in the order given
    if files:
        chosen = [m for m in chosen if any(f in m.path for f in files)]
    return chosen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--catalog", type=Path, default=DEFAULT_CATALOG)
    parser.add_argument("--build", type=Path, default=DEFAULT_BUILD,
                        help="a configured test build directory (default build-test)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--check", action="store_true",
                        help="dry run: only check that every selected entry still applies")
    parser.add_argument("--list", action="store_true", help="list the selected entries")
    parser.add_argument("--apply", action="store_true",
                        help="apply the selected entries to the source and stop (for writing a "
                             "test against a mutant by hand; undo with git checkout)")
    parser.add_argument("--id", action="append", default=[],
                        help="run only this entry (repeatable, or comma-separated)")
    parser.add_argument("--file", action="append", default=[],
                        help="run only entries whose file path contains this (repeatable)")
    parser.add_argument("--results", type=Path,
                        help="append each outcome to this file as a table row as it finishes")
    parser.add_argument("--log", type=Path, help="build and test output (default <build>/mutate.log)")
    parser.add_argument("--exclude", metavar="REGEX",
                        help="also leave out these ctest tests (say, one that fails unmutated "
                             "on this machine for reasons of its own)")
    parser.add_argument("--skip-baseline", action="store_true",
                        help="do not run the unmutated suite first (you just did; it passed)")
    parser.add_argument("--unit-timeout", type=float,
                        help="seconds after which the doctest binary counts as hung "
                             "(default: 3x the baseline + 30, or 300 without a baseline)")
    parser.add_argument("--ctest-timeout", type=float,
                        help="the same for the rest of ctest (default: 3x the baseline + 60, "
                             "or 1800 without a baseline)")
    args = parser.parse_args()

    ids = [i for chunk in args.id for i in chunk.split(",") if i]
    try:
        mutants = select(parse_catalog(args.catalog), ids, args.file)
    except CatalogError as e:
        print(f"mutate: {e}", file=sys.stderr)
        return 2
    if not mutants:
        print("mutate: no catalog entry selected", file=sys.stderr)
        return 2

    lock, holder = lock_source_tree(REPO / ".mutate.lock")
    if lock is None:
        print(f"mutate: another run (pid {holder}) is using this source tree; one runner per "
              "tree (copy the tree for a second one)", file=sys.stderr)
        return 2
    reverter = Reverter(args.build / "mutate.journal")
    reverter.recover()
    stale = [(m, why) for m in mutants if (why := applicability(m)) is not None]
    if args.list or args.check:
        for m in mutants:
            why = next((w for s, w in stale if s is m), None)
            print(f"{'STALE' if why else 'ok':5}  {m.ident:28} {m.path}"
                  + (f"  ({why})" if why else "") + (f"\n       {m.bug}" if args.list else ""))
        print(f"{len(mutants) - len(stale)} of {len(mutants)} entries apply; {len(stale)} stale")
        return 1 if stale else 0
    if args.apply and not stale:
        files = sorted({m.path for m in mutants})
        for m in mutants:
            target = REPO / m.path
            text = target.read_text(encoding="utf-8")
            if m.old not in text:
                print(f"mutate: {m.ident}: its text was changed by an entry applied before it",
                      file=sys.stderr)
                return 2
            target.write_text(text.replace(m.old, m.new, 1), encoding="utf-8")
            print(f"applied {m.ident} to {m.path}")
        print("undo with: git checkout -- " + " ".join(files))
        return 0
    if stale:
        for m, why in stale:
            print(f"mutate: STALE {m.ident} (catalog line {m.line}): {why}", file=sys.stderr)
        print("mutate: refresh the catalog (scripts/mutate.sh --check lists what no longer "
              "applies)", file=sys.stderr)
        return 2
    if not (args.build / "build.ninja").exists() and not (args.build / "Makefile").exists():
        print(f"mutate: {args.build} is not a configured build directory", file=sys.stderr)
        return 2

    # SIGTERM and SIGHUP become KeyboardInterrupt, so the finally clauses revert the file.
    def interrupt(signum, _frame):
        raise KeyboardInterrupt(f"signal {signum}")
    signal.signal(signal.SIGTERM, interrupt)
    signal.signal(signal.SIGHUP, interrupt)

    log_path = args.log or (args.build / "mutate.log")
    outcomes: list[Outcome] = []
    with open(log_path, "a", encoding="utf-8") as log:
        suite = Suite(args.build, args.jobs, log)
        if args.exclude:
            suite.exclude = f"^unit$|{args.exclude}"
        try:
            # The unmutated suite must pass, or every mutant would look killed; its times set
            # the limits past which a mutant counts as a hang.
            suite.unit_limit, suite.ctest_limit = 300.0, 1800.0
            if not args.skip_baseline:
                print("mutate: baseline build and suite ...", flush=True)
                built, _ = suite.compile()
                unit, unit_s = suite.unit()
                rest, rest_s = suite.rest()
                if (built, unit, rest) != ("ok", "ok", "ok"):
                    print(f"mutate: the unmutated build or suite fails (build {built}, unit "
                          f"{unit}, ctest {rest}); see {log_path}", file=sys.stderr)
                    return 2
                suite.unit_limit = max(60.0, 3 * unit_s + 30)
                suite.ctest_limit = max(120.0, 3 * rest_s + 60)
                print(f"mutate: baseline unit {unit_s:.0f}s, rest of ctest {rest_s:.0f}s",
                      flush=True)
            suite.unit_limit = args.unit_timeout or suite.unit_limit
            suite.ctest_limit = args.ctest_timeout or suite.ctest_limit
            print(f"mutate: {len(mutants)} mutants; hung after {suite.unit_limit:.0f}s (unit), "
                  f"{suite.ctest_limit:.0f}s (rest of ctest)", flush=True)
            for n, m in enumerate(mutants, 1):
                o = test_mutant(m, suite, reverter)
                outcomes.append(o)
                print(f"[{n}/{len(mutants)}] {m.ident}: {o.status}"
                      + (f" ({o.by})" if o.by else "") + f" in {o.seconds:.0f}s", flush=True)
                if args.results:
                    with open(args.results, "a", encoding="utf-8") as r:
                        r.write(f"| {m.ident} | {m.path} | {o.status} | {o.by} | "
                                f"{o.seconds:.0f} | {m.bug} |\n")
        except KeyboardInterrupt:
            print("\nmutate: interrupted; the source is reverted", file=sys.stderr)
        finally:
            reverter.revert()
            # Leave the build directory matching the unmutated source.
            if outcomes:
                suite.compile()
    print()
    print_table(outcomes, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
