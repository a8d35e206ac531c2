#!/usr/bin/python3
"""Runs the declarative CLI cases in tests/cli/cases/*.json against the built rdmi-probe.

    run_cli_tests.py --binary PATH --fixtures DIR [--build DIR] [--source DIR] [--cases DIR]
                     [--golden DIR] [--schemas DIR] [--timeout S] [--regen] [-k SUBSTRING]...
                     [--emulator "qemu-aarch64 -L /"]
    run_cli_tests.py --self-test

One JSON object per case file. Fields (all but "description" optional):
  description          what the case shows
  root                 fixture scenario name, or null; gives {root} and {prefix}
  args                 argument list (placeholders substituted)
  argv0                run the binary under this name (a symlink in a temp dir)
  env                  extra environment (placeholders substituted; null unsets)
  stdin                text fed on stdin (default: none, stdin is /dev/null)
  exit                 expected exit code (default 0)
  timeout              seconds before the case fails as hung (default --timeout)
  as_user              when run as root, drop to this user (e.g. "nobody") for the case
  skip                 a reason: the case is reported SKIP and not run
  arch                 the case holds only for an rdmi-probe of this machine ("x86_64" or
                       "aarch64"): what is native or foreign to the binary differs (a cross
                       build run under qemu); SKIP, saying so, for a binary of another machine
  stdout_contains, stdout_not_contains, stderr_contains, stderr_not_contains
                       lists of substrings
  stdout_matches, stderr_matches
                       lists of regular expressions (re.search, MULTILINE)
  stdout_equals        exact stdout
  stderr_lines         exact number of lines on stderr
  document             where the document under test is: "stdout" (default) or a path
                       (e.g. "{tmp}/out.json" for --output)
  json                 {"/json/pointer": expected} on the document; expected is a value, or
                       a matcher {"$type": "string"}, {"$regex": "..."}, {"$exists": false},
                       {"$contains": x}, {"$len": n}, {"$has_ids": [id, ...]} (an array of
                       objects holds each id as an element's "id", and no id twice)
  schema               validate the document against schemas/<schema>.schema.json
  checks               {"check-id": "status"} on the document's /checks array (a missing id fails)
  failed_checks        the exact list of check ids whose status is "fail" (order ignored)
  skipped_checks       the exact list of check ids whose status is "skip" (order ignored)
  golden               compare the normalised document with tests/cli/golden/<golden>
  normalize            [[regex, replacement], ...] applied before the golden comparison, after
                       DEFAULT_NORMALIZE (rdmi-probe's own version becomes {version} in every
                       golden, so that a release changes none)

If args contain --json, the document must be valid JSON (or empty) and is always
validated: against "schema", else the schema its "$schema"/"schema" field (or
x_rdmi_probe.schema) names by $id or by file name.

--emulator (or the environment's RDMI_PROBE_EMULATOR) prefixes every spawn of the binary: a
cross-built rdmi-probe runs under qemu user-mode without binfmt_misc. argv0 cases still work:
qemu passes the path it was given (the symlink) on as argv[0].

Placeholders: {root} {prefix} {fixtures} {build} {source} {tmp} {bin}.
Ends with the line "N passed, M failed"; exits 1 if anything failed.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import pwd
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parent.parent

KNOWN_FIELDS = {
    "description", "root", "args", "argv0", "env", "stdin", "exit", "timeout", "as_user", "skip", "arch",
    "stdout_contains", "stdout_not_contains", "stderr_contains", "stderr_not_contains",
    "stdout_matches", "stderr_matches", "stdout_equals", "stderr_lines", "document", "json",
    "schema", "golden", "normalize", "checks", "failed_checks", "skipped_checks",
}  # fmt: skip
PASS_THROUGH_ENV = ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "LLVM_PROFILE_FILE")
MISSING = object()
# Every place a document spells rdmi-probe's own version: the contract documents'
# tool_version, a document's "tool" object, the Prometheus info metric, the NFD file's header.
DEFAULT_NORMALIZE = [
    [r'"tool_version": "[^"]*"', '"tool_version": "{version}"'],
    [r'("name": "rdmi-probe",\s*"version": ")[^"]*"', r'\g<1>{version}"'],
    [r'version="[^"]*",doca_version', 'version="{version}",doca_version'],
    [r"^# rdmi-probe \S+ report", "# rdmi-probe {version} report"],
]
PLACEHOLDER = re.compile(r"\{(root|prefix|fixtures|build|source|tmp|bin)\}")


@dataclass
class Config:
    binary: Path
    fixtures: Path
    build: Path
    source: Path
    cases: Path
    golden: Path
    schemas: Path
    timeout: float
    regen: bool = False
    filters: list = field(default_factory=list)
    emulator: list = field(default_factory=list)  # prefix of every spawn (qemu-user)
    machine: Optional[str] = None  # the binary's ELF machine ("x86_64", "aarch64"), None if unknown


@dataclass
class Outcome:
    status: str  # PASS FAIL SKIP
    problems: list
    ids: set = field(default_factory=set)  # the check ids the run emitted


# ---------------------------------------------------------------- the binary's machine

ELF_MACHINES = {62: "x86_64", 183: "aarch64"}


def elf_machine(path: Path) -> Optional[str]:
    """The machine of a little-endian ELF executable (e_machine), None for anything else."""
    try:
        with open(path, "rb") as f:
            head = f.read(20)
    except OSError:
        return None
    if len(head) < 20 or head[:4] != b"\x7fELF" or head[5] != 1:
        return None
    return ELF_MACHINES.get(int.from_bytes(head[18:20], "little"))


# ---------------------------------------------------------------- the finding catalog

STATUSES = {"pass", "fail", "skip", "info"}
STATUS_LINE = re.compile(r"^(?:\x1b\[[0-9;]*m)?(?:PASS|FAIL|SKIP|INFO)(?:\x1b\[0m)?  +(\S+)", re.MULTILINE)
JUNIT_CASE = re.compile(r'<testcase classname="rdmi-probe\.check" name="([^"]+)"')
GITHUB_LINE = re.compile(r"^(?:::(?:error|warning) title=rdmi-probe check%3A ([^:]+)::|pass ([^: ]+): )", re.MULTILINE)


def emitted_check_ids(text: str) -> set:
    """Every check id in an output: JSON /checks arrays (id or the contract's name), the human
    status lines, JUnit test cases and GitHub annotations."""
    ids: set = set()
    try:
        document = json.loads(text)
    except ValueError:
        document = None
    if document is not None:
        stack = [document]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                checks = node.get("checks")
                if isinstance(checks, list):
                    for c in checks:
                        if isinstance(c, dict) and c.get("status") in STATUSES:
                            name = c.get("id", c.get("name"))
                            if isinstance(name, str):
                                ids.add(name)
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
        return ids
    ids.update(STATUS_LINE.findall(text))
    ids.update(JUNIT_CASE.findall(text))
    for error_id, pass_id in GITHUB_LINE.findall(text):
        ids.add(error_id or pass_id)
    return ids


def catalog_matcher(catalog: dict):
    """A function id -> the catalog entry's id that covers it, or None."""
    exact = set()
    patterns = []
    for f in catalog.get("findings", []):
        if f.get("pattern"):
            prefix, rest = f["id"].split("<", 1)
            suffix = rest.split(">", 1)[1]
            patterns.append((re.compile(re.escape(prefix) + r".+" + re.escape(suffix) + "$"), f["id"]))
        else:
            exact.add(f["id"])

    def covering(check_id: str):
        if check_id in exact:
            return check_id
        return next((entry for rx, entry in patterns if rx.match(check_id)), None)

    return covering


def check_catalog(cfg: Config, emitted: dict, out) -> bool:
    """Every id the cases saw is in the binary's finding catalog. Returns False on a problem."""
    try:
        proc = subprocess.run([*cfg.emulator, str(cfg.binary), "check", "--list-checks", "--json"], capture_output=True,
                              timeout=cfg.timeout, stdin=subprocess.DEVNULL)
        catalog = json.loads(proc.stdout)
    except (OSError, ValueError, subprocess.TimeoutExpired) as e:
        print(f"FAIL catalog: cannot read the finding catalog: {e}", file=out)
        return False
    covering = catalog_matcher(catalog)
    missing = {i: cases for i, cases in emitted.items() if covering(i) is None}
    for check_id, cases in sorted(missing.items()):
        print(f"FAIL catalog: {check_id!r} (emitted by {', '.join(sorted(cases)[:3])}) is not in the finding catalog", file=out)
    covered = {covering(i) for i in emitted} - {None}
    never = [f["id"] for f in catalog.get("findings", []) if f["id"] not in covered]
    print(f"catalog: {len(emitted)} distinct check ids emitted, {len(missing)} not catalogued; "
          f"{len(never)} catalog entries no case emits: {', '.join(never) or '-'}", file=out)
    return not missing


# ---------------------------------------------------------------- schemas


class SchemaStore:
    """Every schemas/*.schema.json, by $id and by file stem, for validation with references."""

    def __init__(self, directory: Path):
        self.by_id: dict[str, dict] = {}
        self.by_name: dict[str, dict] = {}
        self.errors: list[str] = []
        if directory.is_dir():
            for path in sorted(directory.glob("*.json")):
                try:
                    schema = json.loads(path.read_text())
                except (OSError, ValueError) as e:
                    self.errors.append(f"{path.name}: {e}")
                    continue
                name = path.name.removesuffix(".json").removesuffix(".schema")
                self.by_name[name] = schema
                if isinstance(schema, dict) and isinstance(schema.get("$id"), str):
                    self.by_id[schema["$id"]] = schema

    def find(self, ref: str) -> Optional[dict]:
        if ref in self.by_id:
            return self.by_id[ref]
        stem = ref.rstrip("/").rsplit("/", 1)[-1].split("#")[0]
        stem = stem.removesuffix(".json").removesuffix(".schema")
        return self.by_name.get(stem)

    def validate(self, document: Any, schema: dict) -> list[str]:
        import jsonschema  # only needed when a case validates

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            resolver = jsonschema.RefResolver.from_schema(schema, store=dict(self.by_id))
            validator = jsonschema.Draft202012Validator(
                schema, resolver=resolver, format_checker=jsonschema.FormatChecker()
            )
            errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
        problems = [f"schema: at /{'/'.join(str(p) for p in e.absolute_path)}: {e.message}"
                    for e in errors[:10]]
        # A schema names the document version it describes: a document of another version
        # validated against it would pass by accident of shape.
        # A contract document carries it in x_rdmi_probe (the contract's own fields stay exact).
        want = schema.get("schema_version")
        got = None
        if isinstance(document, dict):
            got = document.get("schema_version")
            x = document.get("x_rdmi_probe")
            if not isinstance(got, str) and isinstance(x, dict):
                got = x.get("schema_version")
        if isinstance(want, str) and isinstance(got, str) and got != want:
            problems.append(f"schema: document schema_version {got} but {schema.get('$id')} "
                            f"describes {want}")
        return problems


# ---------------------------------------------------------------- JSON helpers


def json_pointer(document: Any, pointer: str) -> Any:
    """RFC 6901; returns MISSING when the pointer does not resolve."""
    if pointer == "":
        return document
    if not pointer.startswith("/"):
        raise ValueError(f"JSON pointer must start with '/': {pointer!r}")
    node = document
    for token in pointer[1:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict):
            if token not in node:
                return MISSING
            node = node[token]
        elif isinstance(node, list):
            if not re.fullmatch(r"0|[1-9][0-9]*", token) or int(token) >= len(node):
                return MISSING
            node = node[int(token)]
        else:
            return MISSING
    return node


JSON_TYPES = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def match_value(actual: Any, expected: Any) -> Optional[str]:
    """None if actual satisfies expected (a value or a one-key "$" matcher), else why not."""
    if isinstance(expected, dict) and len(expected) == 1 and next(iter(expected)).startswith("$"):
        op, arg = next(iter(expected.items()))
        if op == "$exists":
            return None if (actual is not MISSING) == bool(arg) else ("missing" if arg else "present")
        if actual is MISSING:
            return "missing"
        if op == "$type":
            names = arg if isinstance(arg, list) else [arg]
            return None if any(JSON_TYPES[n](actual) for n in names) else f"not of type {arg}"
        if op == "$regex":
            ok = isinstance(actual, str) and re.search(arg, actual)
            return None if ok else f"does not match /{arg}/"
        if op == "$contains":
            ok = isinstance(actual, (str, list)) and arg in actual
            return None if ok else f"does not contain {json.dumps(arg)}"
        if op == "$len":
            ok = isinstance(actual, (str, list, dict)) and len(actual) == arg
            return None if ok else f"length is not {arg}"
        if op == "$has_ids":
            if not isinstance(actual, list):
                return "not an array"
            ids = [e.get("id") for e in actual if isinstance(e, dict)]
            lacking = [i for i in arg if i not in ids]
            twice = sorted({i for i in ids if ids.count(i) > 1})
            if lacking:
                return f"lacks id(s) {', '.join(lacking)}"
            return f"id(s) listed twice: {', '.join(twice)}" if twice else None
        raise ValueError(f"unknown matcher {op}")
    if actual is MISSING:
        return "missing"
    same = actual == expected and type(actual) is type(expected)
    if isinstance(actual, (int, float)) and isinstance(expected, (int, float)):
        same = actual == expected and isinstance(actual, bool) == isinstance(expected, bool)
    return None if same else "differs"


# ---------------------------------------------------------------- running one case


def substitute(value: Any, places: dict[str, str]) -> Any:
    if isinstance(value, str):
        for key, text in places.items():
            value = value.replace("{" + key + "}", text)
        return value
    if isinstance(value, list):
        return [substitute(v, places) for v in value]
    return value


def show(text: str, limit: int = 2000) -> str:
    text = text if len(text) <= limit else text[:limit] + f"\n... ({len(text) - limit} more chars)"
    return "\n".join("      | " + line for line in text.splitlines()) or "      | (empty)"


def normalise(text: str, places: dict[str, str], rules: list) -> str:
    try:
        text = json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"
    except ValueError:
        pass
    # Longest first, so {root} wins over the {fixtures} it lives in.
    for key, path in sorted(places.items(), key=lambda kv: -len(kv[1])):
        if path and key in ("root", "prefix", "fixtures", "build", "source", "tmp", "bin"):
            text = text.replace(path, "{" + key + "}")
    for pattern, replacement in [*DEFAULT_NORMALIZE, *rules]:
        text = re.sub(pattern, replacement, text, flags=re.MULTILINE)
    return text


def drop_privileges(user: str):
    entry = pwd.getpwnam(user)

    def child() -> None:
        os.setgroups([])
        os.setgid(entry.pw_gid)
        os.setuid(entry.pw_uid)

    return child


def check_statuses(case: dict, document: Any) -> list:
    """The "checks", "failed_checks" and "skipped_checks" expectations against /checks."""
    checks = document.get("checks") if isinstance(document, dict) else None
    if not isinstance(checks, list):
        return ["document has no /checks array"]
    status = {c.get("id"): c.get("status") for c in checks if isinstance(c, dict)}
    problems = []
    for check_id, expected in (case.get("checks") or {}).items():
        if check_id not in status:
            problems.append(f"check {check_id}: missing (have {sorted(status)})")
        elif status[check_id] != expected:
            message = next((c.get("message") for c in checks if c.get("id") == check_id), "")
            problems.append(f"check {check_id}: status {status[check_id]}, expected {expected} ({message})")
    for field_name, wanted in (("failed_checks", "fail"), ("skipped_checks", "skip")):
        if field_name in case:
            actual = sorted(i for i, s in status.items() if s == wanted)
            if actual != sorted(case[field_name]):
                problems.append(f"{field_name}: {actual}, expected {sorted(case[field_name])}")
    return problems


def run_case(path: Path, cfg: Config, schemas: SchemaStore) -> Outcome:
    problems: list[str] = []
    try:
        case = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        return Outcome("FAIL", [f"unreadable case file: {e}"])
    if not isinstance(case, dict):
        return Outcome("FAIL", ["case file must hold a JSON object"])
    unknown = sorted(set(case) - KNOWN_FIELDS)
    if unknown:
        return Outcome("FAIL", [f"unknown field(s) {unknown}; known: {sorted(KNOWN_FIELDS)}"])
    if not isinstance(case.get("description"), str):
        return Outcome("FAIL", ["missing \"description\""])
    if case.get("skip"):
        return Outcome("SKIP", [str(case["skip"])])
    arch = case.get("arch")
    if arch is not None:
        if arch not in ELF_MACHINES.values():
            return Outcome("FAIL", [f"arch {arch!r} is none of {sorted(ELF_MACHINES.values())}"])
        if arch != cfg.machine:
            return Outcome("SKIP", [f"holds for an {arch} rdmi-probe; this one is {cfg.machine or 'unknown'}"])

    with tempfile.TemporaryDirectory(prefix="rdmi-cli-") as tmp:
        os.chmod(tmp, 0o755)
        places = {
            "fixtures": str(cfg.fixtures),
            "build": str(cfg.build),
            "source": str(cfg.source),
            "tmp": tmp,
            "bin": str(cfg.binary),
        }
        scenario = case.get("root")
        if scenario is not None:
            root = cfg.fixtures / "roots" / scenario
            if not root.is_dir():
                return Outcome("FAIL", [f"fixture root {root} does not exist (unknown scenario?)"])
            places["root"] = str(root)
            places["prefix"] = str(cfg.fixtures / "prefixes" / scenario)

        args = substitute(case.get("args", []), places)
        env_values = [substitute(str(v), places) for v in (case.get("env") or {}).values() if v is not None]
        left = [a for a in args + env_values if PLACEHOLDER.search(a)]
        if left:
            return Outcome("FAIL", [f"unresolved placeholder in {left} (is \"root\" set?)"])
        argv0 = case.get("argv0")
        program = str(cfg.binary)
        if argv0:
            link = Path(tmp) / "bin" / argv0
            link.parent.mkdir()
            os.symlink(cfg.binary, link)
            program = str(link)

        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": tmp, "LC_ALL": "C.UTF-8"}
        env.update({k: os.environ[k] for k in PASS_THROUGH_ENV if k in os.environ})
        for key, value in (case.get("env") or {}).items():
            if value is None:
                env.pop(key, None)
            else:
                env[key] = substitute(str(value), places)

        preexec = None
        user = case.get("as_user")
        if user and os.geteuid() == 0:
            try:
                preexec = drop_privileges(user)
            except KeyError:
                return Outcome("SKIP", [f"user {user!r} does not exist"])
            os.chmod(tmp, 0o777)

        timeout = float(case.get("timeout", cfg.timeout))
        stdin = case.get("stdin")
        try:
            proc = subprocess.run(
                [*cfg.emulator, program, *args],
                input=stdin.encode() if stdin is not None else None,
                stdin=subprocess.DEVNULL if stdin is None else None,
                capture_output=True,
                env=env,
                cwd=tmp,
                timeout=timeout,
                preexec_fn=preexec,
            )
        except subprocess.TimeoutExpired as e:
            return Outcome("FAIL", [f"timed out after {timeout:g}s", "stdout:\n" + show((e.stdout or b"").decode(errors="replace"))])
        except OSError as e:
            return Outcome("FAIL", [f"cannot run {program}: {e}"])

        out = proc.stdout.decode(errors="replace")
        err = proc.stderr.decode(errors="replace")
        check_streams(case, proc.returncode, out, err, problems)
        check_document(case, args, out, places, cfg, schemas, problems)
        ids = emitted_check_ids(out)
        where = case.get("document", "stdout")
        if where != "stdout":
            try:
                ids |= emitted_check_ids(Path(substitute(where, places)).read_text())
            except OSError:
                pass  # check_document reported it

    if problems:
        problems.append(f"command: {' '.join([argv0 or cfg.binary.name, *args])}")
        problems.append("stdout:\n" + show(out))
        problems.append("stderr:\n" + show(err))
        return Outcome("FAIL", problems, ids)
    return Outcome("PASS", [], ids)


def check_streams(case: dict, code: int, out: str, err: str, problems: list) -> None:
    expected_exit = case.get("exit", 0)
    if code != expected_exit:
        problems.append(f"exit code {code}, expected {expected_exit}")
    for name, text in (("stdout", out), ("stderr", err)):
        for s in case.get(f"{name}_contains", []):
            if s not in text:
                problems.append(f"{name} lacks {s!r}")
        for s in case.get(f"{name}_not_contains", []):
            if s in text:
                problems.append(f"{name} contains {s!r}")
        for pattern in case.get(f"{name}_matches", []):
            if not re.search(pattern, text, re.MULTILINE):
                problems.append(f"{name} does not match /{pattern}/")
    if "stdout_equals" in case and out != case["stdout_equals"]:
        problems.append(f"stdout is not exactly {case['stdout_equals']!r}")
    if "stderr_lines" in case:
        lines = len(err.splitlines())
        if lines != case["stderr_lines"]:
            problems.append(f"stderr has {lines} line(s), expected {case['stderr_lines']}")


def check_document(case, args, out, places, cfg: Config, schemas: SchemaStore, problems: list) -> None:
    where = case.get("document", "stdout")
    if where == "stdout":
        text = out
    else:
        path = Path(substitute(where, places))
        try:
            text = path.read_text()
        except OSError as e:
            problems.append(f"document {path}: {e}")
            return
    json_mode = "--json" in args or where != "stdout" and where.endswith(".json")
    check_fields = ("checks", "failed_checks", "skipped_checks")
    wants_json = json_mode or "json" in case or "schema" in case or any(f in case for f in check_fields)
    document: Any = MISSING
    if wants_json and text.strip():
        try:
            document = json.loads(text)
        except ValueError as e:
            problems.append(f"document is not valid JSON: {e}")
            return
    elif wants_json and ("json" in case or "schema" in case):
        problems.append("document is empty, but the case checks JSON")
        return

    if document is not MISSING:
        schema_name = case.get("schema")
        schema = None
        if schema_name is not None:
            schema = schemas.by_name.get(schema_name)
            if schema is None:
                problems.append(f"no schema {cfg.schemas}/{schema_name}.schema.json")
        elif isinstance(document, dict):
            named = document.get("$schema") or document.get("schema")
            x = document.get("x_rdmi_probe")
            if named is None and isinstance(x, dict):
                named = x.get("schema")
            if isinstance(named, str):
                schema = schemas.find(named)
                if schema is None:
                    problems.append(f"document names schema {named!r}, which is not in {cfg.schemas}")
            else:
                problems.append("JSON document names no schema; give the case a \"schema\"")
        else:
            problems.append("JSON document is not an object and the case names no schema")
        if schema is not None:
            problems.extend(schemas.validate(document, schema))

    for pointer, expected in (case.get("json") or {}).items():
        actual = json_pointer(document, pointer) if document is not MISSING else MISSING
        why = match_value(actual, expected)
        if why is not None:
            shown = "(missing)" if actual is MISSING else json.dumps(actual)
            problems.append(f"json {pointer}: {why}: expected {json.dumps(expected)}, got {shown}")

    if any(f in case for f in check_fields):
        problems.extend(check_statuses(case, document))

    golden = case.get("golden")
    if golden is not None:
        actual_text = normalise(text, places, case.get("normalize", []))
        golden_path = cfg.golden / golden
        if cfg.regen:
            golden_path.parent.mkdir(parents=True, exist_ok=True)
            golden_path.write_text(actual_text)
            return
        try:
            expected_text = golden_path.read_text()
        except OSError as e:
            problems.append(f"golden {golden_path}: {e} (run with --regen to create it)")
            return
        if actual_text != expected_text:
            diff = difflib.unified_diff(
                expected_text.splitlines(), actual_text.splitlines(), f"golden/{golden}", "actual", lineterm=""
            )
            problems.append("golden mismatch (--regen rewrites it):\n" + "\n".join("      " + d for d in diff))


# ---------------------------------------------------------------- driver


def run_all(cfg: Config, out=sys.stdout) -> tuple[int, int, int]:
    schemas = SchemaStore(cfg.schemas)
    for problem in schemas.errors:
        print(f"warning: schema {problem}", file=out)
    cases = sorted(cfg.cases.glob("*.json"))
    if cfg.filters:
        cases = [c for c in cases if any(f in c.stem for f in cfg.filters)]
    passed = failed = skipped = 0
    emitted: dict = {}
    for path in cases:
        outcome = run_case(path, cfg, schemas)
        for check_id in outcome.ids:
            emitted.setdefault(check_id, set()).add(path.stem)
        print(f"{outcome.status} {path.stem}", file=out)
        for problem in outcome.problems:
            print(f"    {problem}", file=out)
        if outcome.status == "PASS":
            passed += 1
        elif outcome.status == "SKIP":
            skipped += 1
        else:
            failed += 1
    if not cases:
        print(f"no cases found in {cfg.cases}", file=out)
    elif not check_catalog(cfg, emitted, out):
        failed += 1
    if skipped:
        print(f"{skipped} skipped", file=out)
    print(f"{passed} passed, {failed} failed", file=out)
    return passed, failed, skipped


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", type=Path)
    parser.add_argument("--fixtures", type=Path)
    parser.add_argument("--build", type=Path)
    parser.add_argument("--source", type=Path, default=SOURCE)
    parser.add_argument("--cases", type=Path, default=HERE / "cases")
    parser.add_argument("--golden", type=Path, default=HERE / "golden")
    parser.add_argument("--schemas", type=Path)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--emulator", default=os.environ.get("RDMI_PROBE_EMULATOR", ""),
                        help="command line every spawn of the binary goes through (qemu user-mode)")
    parser.add_argument("--regen", action="store_true", help="rewrite golden files from actual output")
    parser.add_argument("-k", dest="filters", action="append", default=[], help="run cases whose name contains this")
    parser.add_argument("--self-test", action="store_true", help="check that this runner can fail")
    args = parser.parse_args(argv)

    if args.self_test:
        from selftest import self_test  # tests/cli/selftest.py

        return self_test(sys.modules[__name__])
    if args.binary is None or args.fixtures is None:
        parser.error("--binary and --fixtures are required")
    cfg = Config(
        binary=args.binary.absolute(),
        fixtures=args.fixtures.absolute(),
        build=(args.build or args.binary.parent).absolute(),
        source=args.source.absolute(),
        cases=args.cases,
        golden=args.golden,
        schemas=args.schemas or args.source / "schemas",
        timeout=args.timeout,
        regen=args.regen,
        filters=args.filters,
        emulator=shlex.split(args.emulator),
        machine=elf_machine(args.binary),
    )
    passed, failed, skipped = run_all(cfg)
    return 1 if failed or passed + skipped == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
