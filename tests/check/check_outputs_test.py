#!/usr/bin/python3
"""`rdmi-probe check`'s JUnit and GitHub outputs, parsed for real, and inputs the CLI cases cannot
hold (a policy file over the size cap, a deeply nested one).

    check_outputs_test.py --binary build/rdmi-probe --fixtures build/tests/fixtures
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

FAILURES: list[str] = []


def expect(condition: bool, what: str) -> None:
    if not condition:
        FAILURES.append(what)
        print(f"FAIL {what}")


def run(binary: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")}
    env["SOURCE_DATE_EPOCH"] = "0"
    return subprocess.run([str(binary), *args], capture_output=True, text=True, env=env, timeout=120)


def mixed_args(fixtures: Path) -> list[str]:
    # pass (min-version), fail (max-version), skip (dpa: a DOCA tree has no /sys), and a device
    # name full of XML and workflow-command metacharacters (fail, echoed in the details).
    return ["check", "--root", str(fixtures / "roots" / "complete-3.3"), "--min-version", "3.2",
            "--max-version", "3.2", "--require-dpa"]


def test_junit(binary: Path, fixtures: Path) -> None:
    proc = run(binary, *mixed_args(fixtures), "--format", "junit")
    expect(proc.returncode == 1, f"junit: exit {proc.returncode}, expected 1 ({proc.stderr})")
    try:
        root = ET.fromstring(proc.stdout)
    except ET.ParseError as e:
        expect(False, f"junit: not XML: {e}\n{proc.stdout}")
        return
    expect(root.tag == "testsuites", f"junit: root element {root.tag}")
    expect((root.get("tests"), root.get("failures"), root.get("skipped"), root.get("errors")) == ("3", "1", "1", "0"),
           f"junit: totals {root.attrib}")
    suites = root.findall("testsuite")
    expect(len(suites) == 1 and suites[0].get("name") == "doca-rdmi", "junit: one testsuite doca-rdmi")
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    expect(props == {"spec_path": "-", "result": "fail"}, f"junit: properties {props}")
    cases = root.findall("./testsuite/testcase")
    expect([c.get("name") for c in cases] == ["min-version", "max-version", "dpa"], f"junit: testcases {[c.get('name') for c in cases]}")
    kinds = [[child.tag for child in c] for c in cases]
    expect(kinds == [["system-out"], ["failure"], ["skipped", "system-out"]], f"junit: children {kinds}")
    failure = cases[1].find("failure")
    expect(failure is not None and failure.get("message") == "the RDMI stack is 3.3.0105, which does not satisfy <= 3.2",
           f"junit: failure message {failure.attrib if failure is not None else None}")
    expect(failure is not None and failure.text.endswith("\nfix: install DOCA 3.2 or older"), "junit: failure text has the fix")
    skipped = cases[2].find("skipped")
    expect(skipped is not None and skipped.get("message").startswith("cannot be checked: no /sys/bus/pci/devices"),
           "junit: skipped message")


def test_junit_escaping(binary: Path, fixtures: Path) -> None:
    name = "<mlx5&\"x'>\x01%\r\n"
    proc = run(binary, "check", "--root", str(fixtures / "sysfs" / "bf3-host-dpu"), "--require-device", name,
               "--format", "junit")
    expect(proc.returncode == 1, f"junit escaping: exit {proc.returncode} ({proc.stderr})")
    try:
        root = ET.fromstring(proc.stdout)
    except ET.ParseError as e:
        expect(False, f"junit escaping: not XML: {e}\n{proc.stdout}")
        return
    failure = root.find("./testsuite/testcase/failure")
    want = "no device <mlx5&\"x'>\ufffd%\r\n found"
    # CR and LF survive in the text and in the attribute (escaped as character references).
    expect(failure is not None and (failure.text or "").startswith(want),
           f"junit escaping: {failure.text if failure is not None else None!r}")
    expect(failure is not None and failure.get("message", "").startswith(want),
           f"junit escaping: message {failure.get('message') if failure is not None else None!r}")


def test_github(binary: Path, fixtures: Path) -> None:
    proc = run(binary, *mixed_args(fixtures), "--format", "github")
    expect(proc.returncode == 1, f"github: exit {proc.returncode}")
    lines = proc.stdout.splitlines()
    expected = [
        "pass min-version: the RDMI stack is 3.3.0105, which satisfies >= 3.2",
        "::error title=rdmi-probe check%3A max-version::the RDMI stack is 3.3.0105, which does not satisfy <= 3.2%0Afix: install DOCA 3.2 or older",
        None,  # the dpa skip: checked below
        "rdmi-probe check: fail (1 failed, 1 skipped, 1 passed)",
    ]
    expect(len(lines) == len(expected), f"github: {len(lines)} lines, expected {len(expected)}:\n{proc.stdout}")
    for i, (got, want) in enumerate(zip(lines, expected)):
        if want is not None:
            expect(got == want, f"github: line {i + 1}: {got!r}, expected {want!r}")
    if len(lines) > 2:
        expect(lines[2].startswith("::warning title=rdmi-probe check%3A dpa::cannot be checked: no /sys/bus/pci/devices under --root%0Afix: "),
               f"github: line 3: {lines[2]!r}")
    # Metacharacters in data cannot start a new command or break the line.
    proc = run(binary, "check", "--root", str(fixtures / "sysfs" / "bf3-host-dpu"), "--require-device", "50%\r\n::error::x",
               "--format", "github")
    lines = proc.stdout.splitlines()
    expect(len(lines) == 2 and lines[0].startswith("::error title=rdmi-probe check%3A device::no device 50%25%0D%0A::error::x found"),
           f"github escaping: {lines!r}")


def test_policy_limits(binary: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        huge = Path(tmp) / "policy_huge.json"
        huge.write_text('{"schema_version": 1, "description": "' + "x" * (2 << 20) + '"}')
        proc = run(binary, "check", "--policy", str(huge))
        expect(proc.returncode == 2, f"huge policy: exit {proc.returncode}")
        expect(str(huge) in proc.stderr and ("too large" in proc.stderr.lower() or "larger" in proc.stderr.lower()),
               f"huge policy: message {proc.stderr!r}")
        deep = Path(tmp) / "policy_deep.json"
        deep.write_text('{"schema_version": 1, "x": ' + "[" * 400000 + "]" * 400000 + "}")
        proc = run(binary, "check", "--policy", str(deep))
        expect(proc.returncode == 2, f"deep policy: exit {proc.returncode} {proc.stderr[-300:]!r}")
        # Refused by the depth cap every JSON input has, before a tree is built.
        expect(f'{deep}: JSON nested deeper than 256 levels at line 1, column ' in proc.stderr
               and proc.stderr.count("\n") == 1, f"deep policy: message {proc.stderr[-300:]!r}")
        fifo = Path(tmp) / "policy_fifo.json"
        os.mkfifo(fifo)
        proc = run(binary, "check", "--policy", str(fifo))
        expect(proc.returncode == 2 and str(fifo) in proc.stderr, f"fifo policy: exit {proc.returncode} {proc.stderr!r}")


def test_policy_schema_agrees(binary: Path, source: Path) -> None:
    """The policy schema and the binary accept and reject the same fixture files."""
    import json
    import jsonschema
    schema = json.loads((source / "schemas" / "rdmi-probe-policy.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    files = sorted((source / "tests" / "cli" / "data").glob("policy_*.json"))
    expect(len(files) >= 10, f"policy fixtures: only {len(files)}")
    for path in files:
        try:
            schema_ok = not list(validator.iter_errors(json.loads(path.read_text())))
        except json.JSONDecodeError:
            schema_ok = False
        # --app: a policy may leave the app to the command line (policy_app.json does).
        proc = run(binary, "check", "--policy", str(path), "--app", str(binary), "--format", "json")
        binary_ok = proc.returncode != 2
        expect(schema_ok == binary_ok, f"{path.name}: schema says {schema_ok}, rdmi-probe says {binary_ok} ({proc.stderr.strip()})")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", type=Path, required=True)
    parser.add_argument("--fixtures", type=Path, required=True)
    args = parser.parse_args()
    for test in (test_junit, test_junit_escaping, test_github):
        test(args.binary, args.fixtures)
    test_policy_limits(args.binary)
    test_policy_schema_agrees(args.binary, Path(__file__).resolve().parent.parent.parent)
    print(f"check outputs: {len(FAILURES)} failure(s)")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
