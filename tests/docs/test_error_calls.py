#!/usr/bin/python3
"""The reference notes and `error --list-calls` agree on the calls with known causes.

    test_error_calls.py --binary PATH --source DIR
    test_error_calls.py --self-test

* Every host `doca_rdmi_*` call a note in docs/reference/ names in full has an entry in the
  catalog (`rdmi-probe error --list-calls --json`). Not calls: headers (`doca_rdmi_poster.h`),
  types (`struct doca_rdmi_connection`), prefixes (`doca_rdmi_cap_`), device-side calls
  (`doca_rdmi_dev_*`, compiled by dpacc, never returning to the host), and a name the note
  itself says may not exist (is not confirmed).
* Every row of the "Call causes" table of docs/reference/error-codes.md is in the catalog with
  that error and that basis, and every catalog cause is in the table.
Ends with "N passed, M failed"; exits 1 if anything failed.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

NAME = re.compile(r"`(?:struct )?(doca_rdmi_[A-Za-z0-9_]*)(\.h)?`")
ROW = re.compile(r"^\| (`doca_[^|]+) \| `([A-Z_]+)` \| [^|]+ \| (documented|inferred)")


def host_calls(text: str) -> set[str]:
    """The host doca_rdmi_* calls a note names in full."""
    calls = set()
    for line in text.splitlines():
        for match in NAME.finditer(line):
            name, header = match.group(1), match.group(2)
            if header or match.group(0).startswith("`struct ") or name.endswith("_"):
                continue
            if name.startswith("doca_rdmi_dev_") or name in ("doca_rdmi_connection", "doca_rdmi_poster"):
                continue
            if re.search(re.escape(name) + r"`( may not|[^.]*\*\*not confirmed\*\*)", line):
                continue
            calls.add(name)
    return calls


def table_causes(text: str) -> set[tuple[str, str, str]]:
    """(call, DOCA_ERROR_X, basis) for every call of every row of the Call causes table."""
    section = text.split("## Call causes", 1)[1].split("\n## ", 1)[0]
    out = set()
    for line in section.splitlines():
        match = ROW.match(line)
        if not match:
            continue
        for call in re.findall(r"`(doca_[a-z0-9_]+)`", match.group(1)):
            out.add((call, "DOCA_ERROR_" + match.group(2), match.group(3)))
    return out


def self_test() -> int:
    note = (
        "- Connection (`struct doca_rdmi_connection`): `doca_rdmi_connection_create`, `_set_pd`.\n"
        "Host headers `doca_rdmi_connection.h`; device `doca_rdmi_dev_poster.h`, `doca_rdmi_dev_post`.\n"
        "There is no `doca_rdmi_cap_*`: `doca_rdmi_cap_` prefix.\n"
        "  Whether a `doca_rdmi_poster_as_ctx` exists is **not confirmed**.\n"
        "- RDMI: `doca_rdmi_connection_as_ctx` may not\n"
    )
    assert host_calls(note) == {"doca_rdmi_connection_create"}, host_calls(note)
    table = (
        "## Call causes\n\n| call | error | cause | basis |\n| --- | --- | --- | --- |\n"
        "| `doca_a`, `doca_b` | `BAD_STATE` | x | inferred |\n"
        "| `doca_c` | `NOT_PERMITTED` | y | documented, `doca_mmap.h` |\n\n## Next\n"
        "| `doca_d` | `BAD_STATE` | z | inferred |\n"
    )
    assert table_causes(table) == {("doca_a", "DOCA_ERROR_BAD_STATE", "inferred"),
                                   ("doca_b", "DOCA_ERROR_BAD_STATE", "inferred"),
                                   ("doca_c", "DOCA_ERROR_NOT_PERMITTED", "documented")}
    print("self-test passed")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary")
    parser.add_argument("--source")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    done = subprocess.run([args.binary, "error", "--list-calls", "--json"], capture_output=True,
                          text=True, timeout=60, check=True)
    catalog = json.loads(done.stdout)
    known = {call["name"] for call in catalog["calls"]}
    causes = {(call["name"], cause["error"], cause["basis"]) for call in catalog["calls"] for cause in call["causes"]}
    reference = Path(args.source) / "docs" / "reference"
    passed = failed = 0

    def verdict(name: str, problems: list[str]) -> None:
        nonlocal passed, failed
        if problems:
            failed += 1
            print(f"FAIL {name}")
            for problem in problems:
                print(f"    {problem}")
        else:
            passed += 1
            print(f"ok   {name}")

    named: dict[str, str] = {}
    for note in sorted(reference.glob("*.md")):
        for call in host_calls(note.read_text()):
            named.setdefault(call, note.name)
    verdict(f"every host doca_rdmi_* call named in docs/reference ({len(named)}) has known causes",
            [f"{call} (named in {note}) is not in error --list-calls" for call, note in sorted(named.items())
             if call not in known])
    if len(named) < 5:
        verdict("the notes name the RDMI calls", [f"only {sorted(named)} found: the pattern no longer matches"])
    table = table_causes((reference / "error-codes.md").read_text())
    verdict("every row of error-codes.md's Call causes is in the catalog, with its basis",
            [f"{row} is not in the catalog" for row in sorted(table - causes)])
    verdict("every catalog cause is a row of error-codes.md's Call causes",
            [f"{row} is not in the table" for row in sorted(causes - table)])
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
