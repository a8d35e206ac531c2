#!/usr/bin/env python3
"""Fails when docs/architecture.md's section map no longer matches the code.

The map is the table under the heading "Where each section comes from": one line per member of
the report (and per contract document), saying which fact it holds, which probe rows collect it,
the model type, the emitter and the test. So that it cannot drift:

* every member of the report schema's top level has a line (the schema's names, in backticks, in
  the first column), and so does every contract document (its schema file, in the same column);
* every probe row of src/model/facts.hpp (RDMI_PROBES) is named in the "rows" column of a line;
* every path of the repository's folders in backticks anywhere in the table exists;
* every row that gives a report section (`.json =` in kProbeRows) names it in the first column.

Usage: check_section_map.py [--root DIR] | --self-test
"""

import argparse
import json
import os
import re
import sys
import tempfile

DOC = "docs/architecture.md"
HEADING = "## Where each section comes from"
FACTS = "src/model/facts.hpp"
REPORT_SCHEMA = "schemas/rdmi-probe-report.schema.json"
CONTRACT_SCHEMAS = ["schemas/doca-env.schema.json", "schemas/collect-state.schema.json",
                    "schemas/capability-snapshot.schema.json"]
COLUMNS = ["section", "fact", "rows", "model", "emitter", "test"]

PROBE_LINE = re.compile(r"PROBE\((\w+),")
ROW_BLOCK = re.compile(r"\{\.id = ProbeId::(\w+),(.*?)(?=\{\.id = ProbeId::|\Z)", re.S)
ROW_NAME = re.compile(r'\.name = "([^"]+)"')
TICKED = re.compile(r"`([^`]+)`")
# A ticked name in the repository's own folders is a path that must exist ("<prefix>/share/..."
# names a file of the probed host, not of this tree).
REPO_PATH = re.compile(r"^(?:src|tests|schemas|docs|scripts|bench|fuzz)/[^\s<>]*$")


def read(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return f.read()


def table_lines(doc):
    """The rows of the first table after HEADING, as lists of cells; None if there is none."""
    at = doc.find("\n" + HEADING + "\n")
    if at < 0:
        return None
    rows = []
    started = False
    for line in doc[at + len(HEADING) + 2:].splitlines():
        if line.startswith("|"):
            started = True
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif started:
            break
        elif line.startswith("#"):
            break
    if len(rows) < 2:
        return None
    return rows


def probe_rows(facts):
    """(field, name, has_section) of every row of kProbeRows, and the RDMI_PROBES fields."""
    fields = PROBE_LINE.findall(facts[:facts.index("enum class ProbeId")])
    table = facts[facts.index("inline constexpr ProbeRow kProbeRows[]"):]
    rows = []
    for field, body in ROW_BLOCK.findall(table):
        name = ROW_NAME.search(body)
        rows.append((field, name.group(1) if name else field, ".json =" in body))
    return fields, rows


def check(root):
    errors = []
    doc = read(root, DOC)
    lines = table_lines(doc)
    if lines is None:
        return [f"{DOC}: no table under '{HEADING}'"]
    header = [cell.lower() for cell in lines[0]]
    if header != COLUMNS:
        errors.append(f"{DOC}: the section map's columns are {lines[0]}, expected {COLUMNS}")
        return errors
    body = lines[2:]
    sections, named_rows = set(), set()
    for cells in body:
        if len(cells) != len(COLUMNS):
            errors.append(f"{DOC}: section map line {cells[0]!r} has {len(cells)} cells")
            continue
        sections.update(TICKED.findall(cells[0]))
        named_rows.update(TICKED.findall(cells[2]))
        for cell in cells:
            for ticked in TICKED.findall(cell):
                path = ticked.split("#")[0]
                if REPO_PATH.match(path) and not os.path.exists(os.path.join(root, path)):
                    errors.append(f"{DOC}: section map names {ticked}, which does not exist")
    schema = json.loads(read(root, REPORT_SCHEMA))
    for member in schema["properties"]:
        if member not in sections:
            errors.append(f"{DOC}: the report's member `{member}` has no line in the section map")
    for contract in CONTRACT_SCHEMAS:
        if contract not in sections:
            errors.append(f"{DOC}: the contract document `{contract}` has no line in the "
                          "section map")
    fields, rows = probe_rows(read(root, FACTS))
    if [field for field, _, _ in rows] != fields:
        errors.append(f"{FACTS}: could not read kProbeRows in the order of RDMI_PROBES")
    for field, name, has_section in rows:
        if name not in named_rows:
            errors.append(f"{DOC}: the probe row `{name}` is in no line of the section map")
        if has_section and field not in sections:
            errors.append(f"{DOC}: the row `{name}` gives the section `{field}`, which has no "
                          "line in the section map")
    return errors


def self_test():
    """Builds a small repository that passes, then breaks it each way the check must catch."""
    facts = ('#define RDMI_PROBES(PROBE) PROBE(alpha, A) PROBE(beta, B)\n'
             'enum class ProbeId {};\n'
             'inline constexpr ProbeRow kProbeRows[] = {\n'
             '    {.id = ProbeId::alpha, .name = "alpha", .json = nullptr},\n'
             '    {.id = ProbeId::beta, .name = "beta-probe"},\n};\n')
    schema = {"properties": {"checks": {}, "alpha": {}}}
    table = ("| section | fact | rows | model | emitter | test |\n| --- | --- | --- | --- | --- | --- |\n"
             "| `checks` | x | `alpha`, `beta-probe` | x | `src/e.cpp` | x |\n"
             "| `alpha` | x | `alpha` | x | `src/e.cpp` | x |\n")
    for contract in CONTRACT_SCHEMAS:
        table += f"| `{contract}` | x | `alpha` | x | `src/e.cpp` | x |\n"
    good_doc = "# A\n\n" + HEADING + "\n\nText.\n\n" + table + "\nAfter.\n"
    cases = {
        "passes": (good_doc, facts, schema, 0),
        "a schema member without a line": (
            good_doc, facts, {"properties": {"checks": {}, "alpha": {}, "gamma": {}}}, 1),
        "a probe row without a line": (good_doc.replace("`alpha`, `beta-probe`", "`alpha`"),
                                       facts, schema, 1),
        "a missing path": (good_doc.replace("`src/e.cpp` | x |\n| `alpha`",
                                            "`src/gone.cpp` | x |\n| `alpha`"), facts, schema, 1),
        "a row's section without a line": (good_doc.replace("| `alpha` | x | `alpha`",
                                                            "| alpha | x | `alpha`"),
                                           facts, {"properties": {"checks": {}}}, 1),
        "no table": ("# A\n", facts, schema, 1),
        "a contract document without a line": (
            good_doc.replace(f"| `{CONTRACT_SCHEMAS[0]}` |", "| x |"), facts, schema, 1),
    }
    failed = 0
    for name, (doc, facts_text, schema_doc, want) in cases.items():
        with tempfile.TemporaryDirectory() as root:
            files = [(DOC, doc), (FACTS, facts_text), ("src/e.cpp", ""),
                     (REPORT_SCHEMA, json.dumps(schema_doc))]
            for rel, text in files + [(contract, "{}") for contract in CONTRACT_SCHEMAS]:
                os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
                with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                    f.write(text)
            errors = check(root)
            if (len(errors) > 0) != (want > 0):
                failed += 1
                print(f"self-test '{name}': expected {'errors' if want else 'none'}, got {errors}")
    print("check_section_map self-test: " + ("FAILED" if failed else "ok"))
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=".")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    errors = check(args.root)
    for error in errors:
        print(error)
    if not errors:
        print("section map: every report member, contract document and probe row has its line")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
