"""Self-test of run_cli_tests.py: a fake binary and cases whose outcome is known, passing and failing."""

from __future__ import annotations

import io
import json
import os
import tempfile
from pathlib import Path

FAKE_BINARY = r"""#!/bin/sh
# Fake program for the runner's self-test.
case "$1" in
version) echo "fake 1.2.3" ;;
name) basename "$0" ;;
env) printf '%s\n' "$FOO" ;;
json) printf '{"schema": "demo", "value": 3, "items": [1, 2], "a/b": "%s"}\n' "$2" ;;
json-wrong) echo '{"schema": "demo", "value": "3", "items": []}' ;;
json-noschema) echo '{"value": 1}' ;;
json-bad) echo 'not json' ;;
json-unknown-schema) echo '{"schema": "https://example.invalid/other.schema.json"}' ;;
sleep) sleep 10 ;;
fail) echo "fake: failing" >&2; exit "$2" ;;
cat) cat ;;
write) echo '{"schema": "demo", "value": 7, "items": []}' > "$2" ;;
uid) id -u ;;
check) echo '{"findings": [{"id": "demo-check", "pattern": false}, {"id": "module-<name>", "pattern": true}]}' ;;
report) echo '{"schema": "demo", "value": 1, "items": [], "checks": [{"id": "demo-check", "status": "pass"}, {"id": "module-doca", "status": "fail"}]}' ;;
stray) printf 'PASS  demo-check  fine\nFAIL  stray-id  not catalogued\n' ;;
versions) printf '# rdmi-probe 7.7.7 report\nrdmi_probe_info{version="7.7.7",doca_version="3.3"} 1\n{"tool": {"name": "rdmi-probe", "version": "7.7.7"}, "tool_version": "7.7.7"}\n' ;;
dup-ids) echo '{"schema": "demo", "value": 1, "items": [], "list": [{"id": "a"}, {"id": "b"}, {"id": "a"}]}' ;;
*) echo "fake: unknown" >&2; exit 2 ;;
esac
"""

DEMO_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://rdmi-probe.invalid/schemas/demo.schema.json",
    "schema_version": "1.0.0",
    "type": "object",
    "required": ["schema", "value", "items"],
    "properties": {
        "schema": {"const": "demo"},
        "value": {"type": "integer"},
        "items": {"$ref": "https://rdmi-probe.invalid/schemas/items.schema.json"},
    },
}
ITEMS_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://rdmi-probe.invalid/schemas/items.schema.json",
    "schema_version": "1.0.0",
    "type": "array",
    "items": {"type": "integer"},
}

# name -> (case, expected status)
CASES = {
    "pass_version": ({"args": ["version"], "stdout_contains": ["1.2.3"], "stderr_lines": 0}, "PASS"),
    "pass_argv0": ({"argv0": "doca-env", "args": ["name"], "stdout_equals": "doca-env\n"}, "PASS"),
    "pass_env_placeholder": (
        {"root": "demo", "args": ["env"], "env": {"FOO": "{root}/x"}, "stdout_contains": ["roots/demo/x"]},
        "PASS",
    ),
    "pass_json": (
        {
            "root": "demo",
            "args": ["json", "{root}", "--json"],
            "json": {
                "/value": 3,
                "/items/1": 2,
                "/items": {"$len": 2},
                "/a~1b": {"$regex": "roots/demo$"},
                "/nope": {"$exists": False},
                "/schema": {"$type": "string"},
            },
        },
        "PASS",
    ),
    "pass_stdin": ({"args": ["cat"], "stdin": "hello\n", "stdout_equals": "hello\n"}, "PASS"),
    "pass_output_file": (
        {"args": ["write", "{tmp}/out.json"], "document": "{tmp}/out.json", "json": {"/value": 7}},
        "PASS",
    ),
    "pass_golden": ({"root": "demo", "args": ["json", "{root}", "--json"], "golden": "demo.json"}, "PASS"),
    "pass_exit_code": ({"args": ["fail", "3"], "exit": 3, "stderr_lines": 1}, "PASS"),
    "skip_reason": ({"skip": "not yet", "args": []}, "SKIP"),
    "skip_other_arch": ({"arch": "aarch64", "args": ["fail", "1"]}, "SKIP"),
    "pass_own_arch": ({"arch": "x86_64", "args": ["version"], "stdout_contains": ["1.2.3"]}, "PASS"),
    "fail_unknown_arch": ({"arch": "sparc", "args": ["version"]}, "FAIL"),
    "fail_exit": ({"args": ["fail", "1"]}, "FAIL"),
    "fail_contains": ({"args": ["version"], "stdout_contains": ["9.9.9"]}, "FAIL"),
    "fail_not_contains": ({"args": ["version"], "stdout_not_contains": ["fake"]}, "FAIL"),
    "fail_regex": ({"args": ["version"], "stdout_matches": ["^other"]}, "FAIL"),
    "fail_stderr_lines": ({"args": ["fail", "0"], "stderr_lines": 0}, "FAIL"),
    "fail_pointer_value": ({"args": ["json", "x", "--json"], "json": {"/value": 4}}, "FAIL"),
    "fail_pointer_type": ({"args": ["json", "x", "--json"], "json": {"/value": 3.5}}, "FAIL"),
    "fail_pointer_bool_vs_int": ({"args": ["json", "x", "--json"], "json": {"/items/0": True}}, "FAIL"),
    "fail_pointer_missing": ({"args": ["json", "x", "--json"], "json": {"/items/2": 1}}, "FAIL"),
    "fail_schema_by_document": ({"args": ["json-wrong", "--json"]}, "FAIL"),
    "fail_schema_by_case": ({"args": ["json-wrong"], "schema": "demo"}, "FAIL"),
    "fail_schema_unnamed": ({"args": ["json-noschema", "--json"]}, "FAIL"),
    "fail_schema_unknown": ({"args": ["json-unknown-schema", "--json"]}, "FAIL"),
    "fail_schema_case_unknown": ({"args": ["json", "x"], "schema": "no-such"}, "FAIL"),
    "fail_not_json": ({"args": ["json-bad", "--json"]}, "FAIL"),
    "fail_timeout": ({"args": ["sleep"], "timeout": 0.5}, "FAIL"),
    "fail_golden": ({"root": "demo", "args": ["json", "other", "--json"], "golden": "demo.json"}, "FAIL"),
    "fail_golden_absent": ({"args": ["version"], "golden": "absent.txt"}, "FAIL"),
    "fail_unknown_field": ({"args": ["version"], "stdout_contain": ["x"]}, "FAIL"),
    "fail_unknown_root": ({"root": "no-such-scenario", "args": ["version"]}, "FAIL"),
    "fail_placeholder_without_root": ({"args": ["env"], "env": {"FOO": "{root}"}}, "FAIL"),
    "fail_output_file_absent": ({"args": ["version"], "document": "{tmp}/none.json"}, "FAIL"),
    "pass_catalogued_ids": ({"args": ["report"], "stdout_contains": ["module-doca"]}, "PASS"),
    # rdmi-probe's own version is {version} in a golden without a rule of the case's.
    "pass_golden_tool_version": ({"args": ["versions"], "golden": "versions.txt"}, "PASS"),
    "pass_has_ids": ({"args": ["report", "--json"], "json": {"/checks": {"$has_ids": ["demo-check"]}}}, "PASS"),
    "fail_has_ids_missing": (
        {"args": ["report", "--json"], "json": {"/checks": {"$has_ids": ["demo-check", "gone-check"]}}},
        "FAIL",
    ),
    "fail_has_ids_twice": ({"args": ["dup-ids", "--json"], "json": {"/list": {"$has_ids": ["b"]}}}, "FAIL"),
    "fail_has_ids_not_array": ({"args": ["json", "x", "--json"], "json": {"/value": {"$has_ids": []}}}, "FAIL"),
}


def self_test(runner) -> int:
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="rdmi-cli-selftest-") as tmp_name:
        tmp = Path(tmp_name)
        os.chmod(tmp, 0o755)
        binary = tmp / "fake-probe"
        binary.write_text(FAKE_BINARY)
        binary.chmod(0o755)
        (tmp / "fixtures" / "roots" / "demo").mkdir(parents=True)
        (tmp / "fixtures" / "prefixes" / "demo").mkdir(parents=True)
        for sub in ("cases", "golden", "schemas"):
            (tmp / sub).mkdir()
        (tmp / "schemas" / "demo.schema.json").write_text(json.dumps(DEMO_SCHEMA))
        (tmp / "schemas" / "items.schema.json").write_text(json.dumps(ITEMS_SCHEMA))
        (tmp / "golden" / "demo.json").write_text(
            json.dumps({"schema": "demo", "value": 3, "items": [1, 2], "a/b": "{root}"}, indent=2) + "\n"
        )
        (tmp / "golden" / "versions.txt").write_text(
            '# rdmi-probe {version} report\nrdmi_probe_info{version="{version}",doca_version="3.3"} 1\n'
            '{"tool": {"name": "rdmi-probe", "version": "{version}"}, "tool_version": "{version}"}\n'
        )
        cases = dict(CASES)
        if os.geteuid() == 0:
            cases["pass_as_user"] = ({"args": ["uid"], "as_user": "nobody", "stdout_matches": ["^[1-9]"]}, "PASS")
        for name, (case, _) in cases.items():
            (tmp / "cases" / f"{name}.json").write_text(json.dumps({"description": name, **case}))

        cfg = runner.Config(
            binary=binary,
            fixtures=tmp / "fixtures",
            build=tmp,
            source=tmp,
            cases=tmp / "cases",
            golden=tmp / "golden",
            schemas=tmp / "schemas",
            timeout=10.0,
            machine="x86_64",  # the fake is a script: the machine the "arch" cases compare with
        )
        log = io.StringIO()
        passed, failed, skipped = runner.run_all(cfg, out=log)
        text = log.getvalue()
        statuses = {}
        for line in text.splitlines():
            parts = line.split(" ", 1)
            if len(parts) == 2 and parts[0] in ("PASS", "FAIL", "SKIP"):
                statuses[parts[1]] = parts[0]
        for name, (_, expected) in cases.items():
            if statuses.get(name) != expected:
                failures.append(f"case {name}: runner said {statuses.get(name)}, expected {expected}")
        want_pass = sum(1 for _, e in cases.values() if e == "PASS")
        want_fail = sum(1 for _, e in cases.values() if e == "FAIL")
        if text.splitlines()[-1] != f"{want_pass} passed, {want_fail} failed":
            failures.append(f"last line is {text.splitlines()[-1]!r}")
        want_skip = sum(1 for _, e in cases.values() if e == "SKIP")
        if (passed, failed, skipped) != (want_pass, want_fail, want_skip):
            failures.append(f"counts {(passed, failed, skipped)}")

        # --regen rewrites a golden file so that the case passes afterwards.
        cfg.filters = ["fail_golden"]
        cfg.regen = True
        runner.run_all(cfg, out=io.StringIO())
        cfg.regen = False
        log2 = io.StringIO()
        p2, f2, _ = runner.run_all(cfg, out=log2)
        if (p2, f2) != (2, 0):
            failures.append(f"after --regen: {p2} passed, {f2} failed:\n{log2.getvalue()}")

        # An emitted id that the catalog lacks fails the run, though its case passes.
        (tmp / "cases" / "zz_stray.json").write_text(
            json.dumps({"description": "stray", "args": ["stray"], "stdout_contains": ["stray-id"]}))
        cfg.filters = ["zz_stray", "pass_catalogued_ids"]
        log3 = io.StringIO()
        p3, f3, _ = runner.run_all(cfg, out=log3)
        if (p3, f3) != (2, 1) or "FAIL catalog: 'stray-id'" not in log3.getvalue() \
                or "module-doca" in log3.getvalue().split("FAIL catalog")[-1].split("\n")[0]:
            failures.append(f"stray id: {p3} passed, {f3} failed:\n{log3.getvalue()}")
        if runner.emitted_check_ids("<testcase classname=\"rdmi-probe.check\" name=\"dpa\">\n"
                                    "::error title=rdmi-probe check%3A device::x\npass port-active: y\n") \
                != {"dpa", "device", "port-active"}:
            failures.append("ids from JUnit and GitHub output")
        cfg.filters = []

        # --emulator: every spawn goes through the prefix (qemu-aarch64 -L ... for a cross build),
        # argv0 cases included; here a wrapper that marks the environment, then runs the program.
        wrapper = tmp / "fake-emulator"
        wrapper.write_text('#!/bin/sh\nFOO="via emulator: $(basename "$1")"; export FOO; exec "$@"\n')
        wrapper.chmod(0o755)
        (tmp / "cases" / "zz_emulated.json").write_text(json.dumps(
            {"description": "emulated", "args": ["env"], "stdout_equals": "via emulator: fake-probe\n"}))
        (tmp / "cases" / "zz_emulated_argv0.json").write_text(json.dumps(
            {"description": "emulated argv0", "argv0": "doca-env", "args": ["name"],
             "stdout_equals": "doca-env\n", "env": {"FOO": "unused"}}))
        cfg.filters = ["zz_emulated"]
        cfg.emulator = [str(wrapper)]
        log4 = io.StringIO()
        p4, f4, _ = runner.run_all(cfg, out=log4)
        if (p4, f4) != (2, 0):
            failures.append(f"--emulator: {p4} passed, {f4} failed:\n{log4.getvalue()}")
        cfg.emulator = []
        log5 = io.StringIO()
        p5, f5, _ = runner.run_all(cfg, out=log5)
        if (p5, f5) != (1, 1):
            failures.append(f"without --emulator the marked case must fail: {p5} passed, {f5} failed")
        cfg.filters = []

        # The runner's JSON pointer follows RFC 6901 escaping and array rules.
        doc = {"a/b": {"m~n": [10, 20]}, "": 1}
        checks = [
            (runner.json_pointer(doc, "/a~1b/m~0n/1"), 20),
            (runner.json_pointer(doc, "/"), 1),
            (runner.json_pointer(doc, "/a~1b/m~0n/01"), runner.MISSING),
            (runner.json_pointer(doc, "/a~1b/m~0n/-"), runner.MISSING),
        ]
        for got, want in checks:
            if got is not want and got != want:
                failures.append(f"json_pointer gave {got!r}, expected {want!r}")

    if failures:
        print("runner output:\n" + text)
    for f in failures:
        print("SELF-TEST FAILURE:", f)
    print(f"self-test: {len(cases)} cases, {len(failures)} problems")
    return 1 if failures else 0
