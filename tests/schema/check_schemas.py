#!/usr/bin/python3
"""Checks every schemas/*.json: a valid JSON Schema 2020-12 with a unique $id and a schema_version.

    check_schemas.py [SCHEMA_DIR]     (default: <repo>/schemas)
    check_schemas.py --self-test      (shows that each rule can fail)

Rules, per file:
  * the file name ends in .schema.json (the CLI runner finds schemas by that name);
  * it parses as a JSON object;
  * "$schema" is https://json-schema.org/draft/2020-12/schema;
  * it is valid against the 2020-12 metaschema (Draft202012Validator.check_schema);
  * "$id" is a non-empty string, unique across the directory;
  * "schema_version" (top level) is a semantic version string "MAJOR.MINOR.PATCH";
  * every "$ref" resolves (against the file itself and the other schemas' $id).
A missing or empty directory passes. Run with /usr/bin/python3 (Debian's python3-jsonschema).
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import warnings
from pathlib import Path

import jsonschema

DRAFT = "https://json-schema.org/draft/2020-12/schema"
SEMVER = re.compile(r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$")


def _refs(node, out: list) -> list:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                out.append(value)
            else:
                _refs(value, out)
    elif isinstance(node, list):
        for value in node:
            _refs(value, out)
    return out


def check_dir(directory: Path) -> list[str]:
    """Returns one message per problem; empty means every schema passed."""
    problems: list[str] = []
    if not directory.is_dir():
        return problems
    loaded: dict[str, dict] = {}
    for path in sorted(directory.glob("*.json")):
        name = path.name
        if not name.endswith(".schema.json"):
            problems.append(f"{name}: name must end in .schema.json")
        try:
            schema = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as e:
            problems.append(f"{name}: not readable JSON: {e}")
            continue
        if not isinstance(schema, dict):
            problems.append(f"{name}: top level is not an object")
            continue
        if schema.get("$schema") != DRAFT:
            problems.append(f"{name}: $schema is {schema.get('$schema')!r}, expected {DRAFT!r}")
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
        except jsonschema.exceptions.SchemaError as e:
            where = "/".join(str(p) for p in e.absolute_path)
            problems.append(f"{name}: invalid against the 2020-12 metaschema at /{where}: {e.message}")
        version = schema.get("schema_version")
        if not isinstance(version, str) or not SEMVER.match(version):
            problems.append(f"{name}: schema_version {version!r} is not a MAJOR.MINOR.PATCH string")
        schema_id = schema.get("$id")
        if not isinstance(schema_id, str) or not schema_id:
            problems.append(f"{name}: no $id")
        elif schema_id in loaded:
            problems.append(f"{name}: $id {schema_id!r} also used by {loaded[schema_id]['__file']}")
        else:
            loaded[schema_id] = {**schema, "__file": name}

    store = {sid: {k: v for k, v in s.items() if k != "__file"} for sid, s in loaded.items()}
    for sid, schema in store.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            resolver = jsonschema.RefResolver.from_schema(schema, store=store)
            for ref in _refs(schema, []):
                try:
                    resolver.resolve(ref)
                except jsonschema.exceptions.RefResolutionError as e:
                    problems.append(f"{loaded[sid]['__file']}: $ref {ref!r} does not resolve: {e}")
    return problems


def self_test() -> int:
    good = {"$schema": DRAFT, "$id": "https://rdmi-probe.invalid/a.schema.json", "schema_version": "1.0.0",
            "type": "object", "properties": {"x": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"type": "string"}}}
    other = {**good, "$id": "https://rdmi-probe.invalid/b.schema.json",
             "properties": {"y": {"$ref": "https://rdmi-probe.invalid/a.schema.json#/$defs/x"}}}
    # name -> (files, problem expected)
    scenarios = {
        "empty dir": ({}, False),
        "valid schemas referring to each other": ({"a.schema.json": good, "b.schema.json": other}, False),
        "invalid keyword value": ({"a.schema.json": {**good, "type": 12}}, True),
        "invalid minimum": ({"a.schema.json": {**good, "minimum": "zero"}}, True),
        "duplicate $id": ({"a.schema.json": good, "b.schema.json": good}, True),
        "missing $id": ({"a.schema.json": {k: v for k, v in good.items() if k != "$id"}}, True),
        "missing schema_version": ({"a.schema.json": {k: v for k, v in good.items() if k != "schema_version"}}, True),
        "non-semver schema_version": ({"a.schema.json": {**good, "schema_version": "1"}}, True),
        "draft-07 $schema": ({"a.schema.json": {**good, "$schema": "http://json-schema.org/draft-07/schema#"}}, True),
        "not JSON": ({"a.schema.json": "{not json"}, True),
        "array at top level": ({"a.schema.json": [good]}, True),
        "bad file name": ({"a.json": good}, True),
        "dangling $ref": ({"a.schema.json": {**good, "properties": {"x": {"$ref": "#/$defs/nope"}}}}, True),
    }
    failures = 0
    for label, (files, expect_problem) in scenarios.items():
        with tempfile.TemporaryDirectory(prefix="rdmi-schema-selftest-") as tmp:
            for fname, content in files.items():
                text = content if isinstance(content, str) else json.dumps(content)
                (Path(tmp) / fname).write_text(text)
            problems = check_dir(Path(tmp))
        ok = bool(problems) == expect_problem
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {label}: {problems if problems else 'no problems'}")
    if check_dir(Path("/nonexistent/rdmi-probe-schemas")):
        print("FAIL missing directory reported problems")
        failures += 1
    print(f"self-test: {len(scenarios) + 1} scenarios, {failures} failed")
    return 1 if failures else 0


def main(argv: list[str]) -> int:
    if argv == ["--self-test"]:
        return self_test()
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print(__doc__, file=sys.stderr)
        return 2
    directory = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent.parent / "schemas"
    files = sorted(directory.glob("*.json")) if directory.is_dir() else []
    problems = check_dir(directory)
    for problem in problems:
        print(f"FAIL {problem}")
    state = "missing" if not directory.is_dir() else f"{len(files)} file(s)"
    print(f"{directory}: {state}, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
