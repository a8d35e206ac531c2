#!/usr/bin/python3
"""Every human text output fits the terminal's width, and -q leaves every JSON document alone.

    test_text_width.py --binary PATH --fixtures DIR [--width N] [-k ROOT]...
    test_text_width.py --self-test

* Width: on every fixture root (the DOCA roots, the sysfs roots, the combined roots), with
  COLUMNS=N (default 80) and stdout a pipe, each human output -- report (plain, -v, -q), env,
  state, caps, check (text, with device, port, PCIe and version requirements), symbols, diff
  (env and report documents of this root against the healthy host's), gather's summary -- and,
  once, error (every code, with a call, --list-calls) and check --list-checks, must keep every
  line within N columns. A longer line passes only when a single word makes it long: a word
  longer than half the width (a path, a command's argument), last on the line, without which
  the line fits.
* -q: report, env, state, caps, check and symbols with --json print the same document with and
  without -q (the run's timings and the argument list, which spells -q, left out).

Ends with "N passed, M failed"; exits 1 if anything failed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

SGR = "\033["
CHECK_REQUIREMENTS = [
    "--min-version", "3.2", "--require-module", "doca-rdmi", "--require-dpa",
    "--require-port-active", "--require-pcie-link", "--require-consistent",
]  # fmt: skip
HEALTHY = "both-host"


def display_columns(line: str) -> int:
    """Columns of a line on a terminal: SGR sequences take none (the outputs here have none)."""
    out, i = 0, 0
    while i < len(line):
        if line.startswith(SGR, i):
            end = line.find("m", i)
            i = end + 1 if end > 0 else len(line)
            continue
        out += 1
        i += 1
    return out


def too_wide(text: str, width: int) -> list[str]:
    """The lines of `text` past `width`, but for one made long by a single unbreakable word: a
    word longer than half the width (a path, a command's argument: no continuation line could
    hold it) without which the line fits."""
    wide = []
    for line in text.split("\n"):
        if display_columns(line) <= width:
            continue
        words = line.split(" ")
        longest = max(words, key=display_columns)
        rest = " ".join(words[: words.index(longest)]).rstrip()
        after = words[words.index(longest) + 1 :]
        if display_columns(longest) > width // 2 and not any(after) and display_columns(rest) <= width:
            continue
        wide.append(line)
    return wide


def run(binary: str, args: list[str], width: int) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LC_ALL": "C.UTF-8",
        "COLUMNS": str(width),
        "SOURCE_DATE_EPOCH": "1700000000",
    }
    for name in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if name in os.environ:
            env[name] = os.environ[name]
    return subprocess.run(
        [binary, *args], capture_output=True, text=True, errors="replace", env=env, timeout=120,
        check=False,
    )  # fmt: skip


def roots(fixtures: Path) -> list[Path]:
    found = sorted(p for p in (fixtures / "roots").iterdir() if p.is_dir())
    found += sorted(p for p in (fixtures / "sysfs").iterdir() if (p / "sys").is_dir())
    return found


class Tally:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def judge(self, what: str, problems: list[str]) -> None:
        if problems:
            self.failed += 1
            print(f"FAIL {what}")
            for problem in problems[:8]:
                print(f"    {problem}")
        else:
            self.passed += 1


def width_cases(binary: str, root: Path, healthy: Path, tmp: Path) -> list[list[str]]:
    r = str(root)
    for_diff = []
    for kind in ("env", "report"):
        a, b = tmp / f"{kind}-a.json", tmp / f"{kind}-b.json"
        for path, source in ((a, r), (b, str(healthy))):
            path.write_text(run(binary, [kind, "--json", "--root", source], 80).stdout)
        for_diff.append(["diff", str(a), str(b)])
    return [
        ["report", "--root", r],
        ["report", "-v", "--root", r],
        ["report", "-q", "--root", r],
        ["env", "--root", r],
        ["state", "--root", r],
        ["caps", "--root", r],
        ["check", "--root", r, *CHECK_REQUIREMENTS],
        ["symbols", "--root", r],
        ["gather", "--root", r, "--output", str(tmp / "bundle.tar.gz")],
        *for_diff,
    ]


def width_test(binary: str, fixtures: Path, width: int, only: list[str], tally: Tally) -> None:
    healthy = fixtures / "roots" / HEALTHY
    with tempfile.TemporaryDirectory() as scratch:
        tmp = Path(scratch)
        for root in roots(fixtures):
            if only and not any(k in root.name for k in only):
                continue
            for args in width_cases(binary, root, healthy, tmp):
                done = run(binary, args, width)
                shown = " ".join(a if a != str(root) else root.name for a in args)
                problems = [f"{display_columns(line)} columns: {line!r}" for line in too_wide(done.stdout, width)]
                # 2 is a usage error (symbols with no libdoca_rdmi to audit): one line on stderr.
                if done.returncode not in (0, 1, 2, 3):
                    problems.append(f"exit {done.returncode}: {done.stderr.strip()[:200]}")
                tally.judge(f"COLUMNS={width} {shown}", problems)
    lookups = [["error", str(code)] for code in range(32)]
    lookups += [["error", "DOCA_ERROR_NOT_CONNECTED", "--call", "doca_ctx_start"]]
    lookups += [["error", "--list-calls"], ["check", "--list-checks"]]
    for args in lookups:
        done = run(binary, args, width)
        problems = [f"{display_columns(line)} columns: {line!r}" for line in too_wide(done.stdout, width)]
        if done.returncode != 0:
            problems.append(f"exit {done.returncode}: {done.stderr.strip()[:200]}")
        tally.judge(f"COLUMNS={width} {' '.join(args)}", problems)


def without_run_noise(value: Any) -> Any:
    """The document without what differs between two runs of one command: timings and argv."""
    if isinstance(value, dict):
        return {
            k: without_run_noise(v)
            for k, v in value.items()
            if not k.endswith("_ms") and k not in ("argv", "command_line", "duration_s")
        }
    if isinstance(value, list):
        return [without_run_noise(v) for v in value if v not in ("-q", "--quiet")]
    return value


def quiet_json_test(binary: str, fixtures: Path, only: list[str], tally: Tally) -> None:
    for root in roots(fixtures):
        if only and not any(k in root.name for k in only):
            continue
        r = str(root)
        for args in (
            ["report", "--json", "--root", r],
            ["env", "--json", "--root", r],
            ["state", "--json", "--root", r],
            ["caps", "--json", "--root", r],
            ["check", "--json", "--root", r, *CHECK_REQUIREMENTS],
            ["symbols", "--json", "--root", r],
        ):
            plain, quiet = run(binary, args, 80), run(binary, ["-q", *args], 80)
            problems = []
            if plain.returncode != quiet.returncode:
                problems.append(f"exit {plain.returncode} without -q, {quiet.returncode} with")
            try:
                if without_run_noise(json.loads(plain.stdout)) != without_run_noise(json.loads(quiet.stdout)):
                    problems.append("the document differs with -q")
            except json.JSONDecodeError as error:
                problems.append(f"not JSON: {error}")
            tally.judge(f"-q keeps {args[0]} --json on {root.name}", problems)


def self_test() -> int:
    """The judge of a line: a long sentence fails, a long single word passes, colour is free."""
    failures = 0
    cases = [
        ("x " * 41, 80, True),
        ("    /" + "p" * 90, 80, False),
        ("  1. export PATH=/" + "p" * 80, 80, False),
        ("  1. export PATH=/" + "p" * 80 + " and more", 80, True),
        ("  " + "w " * 30 + "/" + "p" * 30, 80, True),
        ("\033[31mFAIL\033[0m" + " y" * 37, 80, False),
        ("a" * 80, 80, False),
        ("a" * 79 + " b", 80, True),
    ]
    for line, width, flagged in cases:
        if bool(too_wide(line, width)) != flagged:
            print(f"FAIL self-test: {line!r} flagged={not flagged}")
            failures += 1
    print(f"{len(cases) - failures} passed, {failures} failed")
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary")
    parser.add_argument("--fixtures", type=Path)
    parser.add_argument("--width", type=int, default=80)
    parser.add_argument("-k", action="append", default=[], help="only roots whose name holds this")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if not args.binary or not args.fixtures:
        parser.error("--binary and --fixtures are required")
    tally = Tally()
    width_test(args.binary, args.fixtures, args.width, args.k, tally)
    quiet_json_test(args.binary, args.fixtures, args.k, tally)
    print(f"{tally.passed} passed, {tally.failed} failed")
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main())
