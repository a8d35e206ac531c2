#!/usr/bin/python3
"""Checks that rdmi-probe's contract documents have exactly the structured-tools contract's
fields, independent of schemas/: the field lists, types and enums below are typed in from
docs/reference/structured-tools-contract.md.

    check_contract_fields.py --binary PATH --fixtures DIR
    check_contract_fields.py --self-test

Per document: every contract field present, no other field anywhere except the one top-level
x_rdmi_probe (absent with --strict-contract), each value of the contract's type, null only
where the contract allows it, enum values spelled exactly.
"""

import argparse
import json
import os
import subprocess
import sys

STR, BOOL, NUM, NULLSTR = "string", "bool", "number", "string-or-null"


def enum(*values):
    return ("enum", values)


# The contract, field by field. A dict is an object with exactly those fields; a list of one
# element is an array of that element.
DEVICE_ENV = {
    "pcie_address": STR, "kind": enum("PF", "VF", "SF"), "name": STR,
    "representor_of": NULLSTR, "state": enum("active", "down", "unknown"), "mtu": NUM,
}  # fmt: skip
DOCA_ENV = {
    "version": {"pkg_config": STR, "applications_version": STR, "doca_caps": STR,
                "bfb": NULLSTR, "consistent": BOOL},
    "devices": [DEVICE_ENV],
    "libraries": [{"pkg_config_name": STR, "installed": BOOL, "pc_path": NULLSTR}],
    "sample_paths": [{"library": STR, "path": STR}],
    "drivers": {"mlx5_core_loaded": BOOL, "mlx5_ib_loaded": BOOL, "kernel_version": STR},
    "hugepages": {"available_2m": NUM, "available_1g": NUM, "mount_point": NULLSTR},
    "host_kind": enum("host", "bluefield", "unknown"),
    "bf_mode": enum("smartnic", "dpu", "switch", None),
}  # fmt: skip
CAPABILITY_SNAPSHOT = {
    "snapshot_at": STR, "doca_version": STR, "host_kind": enum("host", "bluefield"),
    "devices": [{"pcie_address": STR, "library_capabilities": ("map", [STR])}],
}  # fmt: skip
COLLECT_STATE = {
    "side": enum("host", "dpu"), "doca_version": STR, "firmware_version": STR,
    "kernel_version": STR, "mlx5_modules": [STR], "bf_mode": enum("smartnic", "dpu", "switch", None),
    "devices": [{"pcie_address": STR, "kind": enum("PF", "VF", "SF"),
                 "state": enum("active", "down", "unknown"), "mtu": NUM, "representor_of": NULLSTR}],
}  # fmt: skip


def check(value, shape, where, problems):
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            problems.append(f"{where}: not an object")
            return
        for key in shape:
            if key not in value:
                problems.append(f"{where}/{key}: missing")
        for key in value:
            if key not in shape:
                problems.append(f"{where}/{key}: not a contract field")
        for key, sub in shape.items():
            if key in value:
                check(value[key], sub, f"{where}/{key}", problems)
    elif isinstance(shape, list):
        if not isinstance(value, list):
            problems.append(f"{where}: not an array")
            return
        for i, item in enumerate(value):
            check(item, shape[0], f"{where}/{i}", problems)
    elif isinstance(shape, tuple) and shape[0] == "enum":
        if value not in shape[1] or isinstance(value, bool):
            problems.append(f"{where}: {json.dumps(value)} not one of {list(shape[1])}")
    elif isinstance(shape, tuple) and shape[0] == "map":
        if not isinstance(value, dict):
            problems.append(f"{where}: not an object")
            return
        for key, item in value.items():
            check(item, shape[1], f"{where}/{key}", problems)
    elif shape == STR:
        if not isinstance(value, str):
            problems.append(f"{where}: not a string (null is not allowed here)")
    elif shape == NULLSTR:
        if value is not None and not isinstance(value, str):
            problems.append(f"{where}: neither string nor null")
    elif shape == BOOL:
        if not isinstance(value, bool):
            problems.append(f"{where}: not a boolean")
    elif shape == NUM:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            problems.append(f"{where}: not a number")
    else:
        raise ValueError(f"bad shape {shape!r}")


def check_document(document, shape, strict):
    problems = []
    if not isinstance(document, dict):
        return ["document is not an object"]
    body = dict(document)
    x = body.pop("x_rdmi_probe", None)
    if strict and "x_rdmi_probe" in document:
        problems.append("/x_rdmi_probe: present despite --strict-contract")
    if not strict:
        if not isinstance(x, dict):
            problems.append("/x_rdmi_probe: missing or not an object")
        else:
            for key in ("tool_version", "schema", "provenance", "gaps"):
                if key not in x:
                    problems.append(f"/x_rdmi_probe/{key}: missing")
    check(body, shape, "", problems)
    return problems


# (args, shape): the documents checked on every combined fixture root.
DOCUMENTS = [
    (["env"], DOCA_ENV),
    (["caps"], CAPABILITY_SNAPSHOT),
    (["state"], COLLECT_STATE),
    (["state", "--side", "dpu"], COLLECT_STATE),
]
# both-degraded-link: x_rdmi_probe carries pcie_link there; nothing of it may leak into the body.
ROOTS = ["both-host", "both-dpu", "both-vfs-legacy", "both-empty", "both-mismatch", "both-malformed",
         "both-degraded-link"]


def run(binary, fixtures):
    failures = 0
    checked = 0
    for root in ROOTS:
        root_dir = os.path.join(fixtures, "roots", root)
        if not os.path.isdir(root_dir):
            print(f"FAIL {root}: no fixture root {root_dir}")
            failures += 1
            continue
        for args, shape in DOCUMENTS:
            for strict in (False, True):
                argv = [binary, *args, "--json", "--root", root_dir] + (["--strict-contract"] if strict else [])
                proc = subprocess.run(argv, capture_output=True, text=True, timeout=60)
                name = f"{root}: {' '.join(args)}{' --strict-contract' if strict else ''}"
                try:
                    document = json.loads(proc.stdout)
                except ValueError as e:
                    print(f"FAIL {name}: not JSON ({e})")
                    failures += 1
                    continue
                problems = check_document(document, shape, strict)
                if proc.returncode != 0:
                    problems.append(f"exit code {proc.returncode}")
                checked += 1
                if problems:
                    failures += 1
                    print(f"FAIL {name}")
                    for p in problems[:20]:
                        print(f"    {p}")
    print(f"{checked} documents checked, {failures} failed")
    return 1 if failures or checked == 0 else 0


def self_test():
    """Each rule must be able to fail."""
    good_state = {"side": "host", "doca_version": "3.3.0105", "firmware_version": "", "kernel_version": "6.1",
                  "mlx5_modules": ["mlx5_core"], "bf_mode": None,
                  "devices": [{"pcie_address": "0000:03:00.0", "kind": "PF", "state": "active", "mtu": 1500,
                               "representor_of": None}],
                  "x_rdmi_probe": {"tool_version": "0", "schema": "s", "provenance": {}, "gaps": []}}  # fmt: skip
    cases = [
        ("good", good_state, False, 0),
        ("strict with extension", good_state, True, 1),
        ("missing field", {k: v for k, v in good_state.items() if k != "side"}, False, 1),
        ("extra top-level field", {**good_state, "extra": 1}, False, 1),
        ("extra nested field", {**good_state, "devices": [{**good_state["devices"][0], "name": "x"}]}, False, 1),
        ("null where not allowed", {**good_state, "doca_version": None}, False, 1),
        ("enum misspelt", {**good_state, "side": "DPU"}, False, 1),
        ("number as string", {**good_state, "devices": [{**good_state["devices"][0], "mtu": "1500"}]}, False, 1),
        ("bool as number", {**good_state, "devices": [{**good_state["devices"][0], "mtu": True}]}, False, 1),
        ("no extension", {k: v for k, v in good_state.items() if k != "x_rdmi_probe"}, False, 1),
    ]
    bad = 0
    for name, document, strict, expected in cases:
        got = len(check_document(document, COLLECT_STATE, strict))
        ok = (got == 0) == (expected == 0)
        print(f"{'PASS' if ok else 'FAIL'} self-test {name}: {got} problem(s)")
        bad += 0 if ok else 1
    snapshot = {"snapshot_at": "t", "doca_version": "", "host_kind": "unknown", "devices": []}
    got = check_document(snapshot, CAPABILITY_SNAPSHOT, True)
    print(f"{'PASS' if got else 'FAIL'} self-test snapshot host_kind unknown rejected")
    bad += 0 if got else 1
    return 1 if bad else 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary")
    parser.add_argument("--fixtures")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args(argv)
    if args.self_test:
        return self_test()
    if not args.binary or not args.fixtures:
        parser.error("--binary and --fixtures are required")
    return run(args.binary, args.fixtures)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
