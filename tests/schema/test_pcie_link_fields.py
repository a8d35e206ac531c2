#!/usr/bin/python3
"""The schemas hold the PCIe link fields to their shape: a collect-state document with
x_rdmi_probe.pcie_link (the golden of the degraded-link root) validates, and each way of
breaking those fields is rejected; likewise the policy's require_pcie_link.

    test_pcie_link_fields.py SCHEMA_DIR GOLDEN_DIR

Run with /usr/bin/python3 (Debian's python3-jsonschema).
"""

from __future__ import annotations

import copy
import json
import sys
import warnings
from pathlib import Path

import jsonschema


def load_store(directory: Path) -> dict[str, dict]:
    store = {}
    for path in sorted(directory.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        store[schema["$id"]] = schema
    return store


def errors(document, schema: dict, store: dict[str, dict]) -> list[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        resolver = jsonschema.RefResolver.from_schema(schema, store=dict(store))
        validator = jsonschema.Draft202012Validator(schema, resolver=resolver)
        return [e.message for e in validator.iter_errors(document)]


def mutated(document: dict, change) -> dict:
    out = copy.deepcopy(document)
    change(out)
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    store = load_store(Path(argv[0]))
    state_schema = store["urn:rdmi-probe:schema:collect-state"]
    policy_schema = store["urn:rdmi-probe:schema:policy"]
    state = json.loads((Path(argv[1]) / "state_pcie_link_degraded.json").read_text())
    links = state["x_rdmi_probe"]["pcie_link"]["functions"]
    assert links[0]["status"] == "warn" and links[2]["status"] == "not_applicable", links

    def fn(i):
        return lambda d: d["x_rdmi_probe"]["pcie_link"]["functions"][i]

    # label -> (document, schema, must be valid)
    cases = {
        "the golden document": (state, state_schema, True),
        "reach_gts a string": (mutated(state, lambda d: fn(0)(d).update(reach_gts="32")), state_schema, False),
        "an unknown status": (mutated(state, lambda d: fn(0)(d).update(status="degraded")), state_schema, False),
        "a judged function without current_speed": (
            mutated(state, lambda d: fn(0)(d).pop("current_speed")), state_schema, False),
        "a figure without its source": (
            mutated(state, lambda d: fn(0)(d)["current_width"].pop("source")), state_schema, False),
        "a width that is no integer": (
            mutated(state, lambda d: fn(0)(d)["max_width"].update(value=16.5)), state_schema, False),
        "an extra field in a function": (mutated(state, lambda d: fn(1)(d).update(extra=1)), state_schema, False),
        "not_applicable with figures": (
            mutated(state, lambda d: fn(2)(d).update(current_speed=fn(0)(d)["current_speed"])), state_schema, False),
        "an upstream port without address": (
            mutated(state, lambda d: fn(0)(d)["upstream_port"].pop("address")), state_schema, False),
        "pcie_link without functions": (
            mutated(state, lambda d: d["x_rdmi_probe"].update(pcie_link={})), state_schema, False),
        "pcie_link without its links": (
            mutated(state, lambda d: d["x_rdmi_probe"]["pcie_link"].pop("links")), state_schema, False),
        "a link without its functions": (
            mutated(state, lambda d: d["x_rdmi_probe"]["pcie_link"]["links"][0].pop("functions")),
            state_schema, False),
        "a link whose status is not_applicable": (
            mutated(state, lambda d: d["x_rdmi_probe"]["pcie_link"]["links"][0].update(
                status="not_applicable")), state_schema, False),
        "pcie_link inside the contract's devices": (
            mutated(state, lambda d: d["devices"][0].update(pcie_link={"functions": []})), state_schema, False),
        "a policy asking for the links": ({"schema_version": 1, "require_pcie_link": True}, policy_schema, True),
        "require_pcie_link not a boolean": (
            {"schema_version": 1, "require_pcie_link": "yes"}, policy_schema, False),
    }
    failures = 0
    for label, (document, schema, valid) in cases.items():
        problems = errors(document, schema, store)
        ok = (not problems) == valid
        failures += not ok
        shown = problems[0][:120] if problems else "valid"
        print(f"{'ok  ' if ok else 'FAIL'} {label}: {shown}")
    print(f"{len(cases)} cases, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
