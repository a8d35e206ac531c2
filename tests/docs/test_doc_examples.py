#!/usr/bin/python3
"""Runs every command example of the man page (EXAMPLES), of the code blocks of the README and
of the pages that hold what the README used to (DOC_PAGES), and every recipe of docs/agents.md.

    test_doc_examples.py --binary PATH --fixtures DIR --source DIR

An example passes when it runs as written: not a usage error (exit 2, "see --help") and an exit
code the README documents (0, 1, 3). A recipe (a "$ " line of a code block in docs/agents.md,
the lines under it its output) passes when it also prints exactly those lines. Paths an example names (./my_app, report.json, host.json,
ci/doca-policy.json, ...) are created in a temporary working directory; an example without
--root runs against the both-host fixture root, and the placeholder roots (/mnt/bf3, the
README's build/tests/fixtures/roots/...) become fixture roots, and an --output into /var or /etc
goes to the temporary directory, so nothing depends on this machine or changes it.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# The README and the pages its command sections moved to: their examples are the user's first
# commands, so each must run as written.
DOC_PAGES = ("README.md", "docs/report.md", "docs/commands.md", "docs/ci.md", "docs/options.md",
             "docs/fleet.md")
PROGRAMS = ("rdmi-probe", "doca-env", "doca-validate", "doca-capability-snapshot",
            "doca-collect-host-state", "doca-collect-dpu-state")


def man_examples(text: str) -> list[str]:
    section = text.split(".SH EXAMPLES", 1)[1].split(".SH ", 1)[0]
    out = []
    for line in section.splitlines():
        if line.startswith(".B "):
            out.append(line[3:].replace("\\-", "-").strip())
    return out


def readme_examples(text: str) -> list[str]:
    """Commands of the code blocks: in a block with "$ " prompts only the prompted lines (the
    rest is output); elsewhere shell and CI lines (`run:`, `- `). Synopses ("[--json]") are not
    commands."""
    blocks: list[list[str]] = []
    block = None
    for line in text.splitlines():
        if line.startswith("```"):
            if block is None:
                block = []
            else:
                blocks.append(block)
                block = None
        elif block is not None:
            block.append(line)
    out = []
    for lines in blocks:
        prompted = any(line.startswith("$ ") for line in lines)
        for line in lines:
            if prompted and not line.startswith("$ "):
                continue
            cmd = line.strip()
            for lead in ("$ ", "- ", "run: ", "sudo "):
                if cmd.startswith(lead):
                    cmd = cmd[len(lead):].strip()
            cmd = re.sub(r"^\S*/build/rdmi-probe\b", "rdmi-probe", cmd)
            cmd = re.split(r"\s+(?:\|\||\||#|>)", cmd)[0].strip()
            if cmd.split(" ", 1)[0] in PROGRAMS and "[" not in cmd:
                out.append(cmd)
    return out


def recipes(text: str) -> list[tuple[str, str]]:
    """(command, expected stdout) for each "$ " line of a code block: the lines up to the next
    prompt or the end of the block are its output."""
    out: list[tuple[str, str]] = []
    block = None
    for line in text.splitlines():
        if line.startswith("```"):
            block = [] if block is None else None
            continue
        if block is None:
            continue
        if line.startswith("$ "):
            out.append((line[2:].strip(), ""))
        elif out and block is not None and out[-1][1] is not None:
            command, expected = out[-1]
            out[-1] = (command, expected + line + "\n")
    return out


def prepare(tmp: Path, fixtures: Path, source: Path) -> None:
    app = fixtures / "roots/complete-3.3/opt/mellanox/doca/lib/x86_64-linux-gnu/libdoca_verbs.so.3"
    shutil.copy(app, tmp / "my_app")
    shutil.copy(fixtures / "libs/app/rdmi_fixture_app", tmp / "rdmi_app")
    (tmp / "app").mkdir()
    shutil.copy(app, tmp / "app/my_rdmi_app")
    (tmp / "ci").mkdir()
    (tmp / "ci/doca-policy.json").write_text('{"schema_version": 1, "min_version": "3.3"}\n')
    (tmp / "accepted.txt").write_text("# none\n")
    golden = source / "tests/cli/golden"
    for name, file in (("host.json", "env_host.json"), ("dpu.json", "env_dpu.json"),
                       ("before.json", "env_host.json"), ("after.json", "env_dpu.json")):
        shutil.copy(golden / file, tmp / name)


def run(example: str, binary: Path, fixtures: Path, tmp: Path,
        expected: str | None = None) -> list[str]:
    args = shlex.split(example)
    roots = fixtures / "roots"
    args = [str(roots / "both-dpu") if a == "/mnt/bf3" else a for a in args]
    args = [str(roots / a.rsplit("/", 1)[1]) if a.startswith("build/tests/fixtures/roots/") else a
            for a in args]
    # A system directory an example writes into (the textfile collector's, NFD's features.d)
    # becomes the temporary working directory: the test writes nothing outside it.
    args = [str(tmp / os.path.basename(a)) if i > 0 and args[i - 1] == "--output" and
            a.startswith(("/var/", "/etc/")) else a for i, a in enumerate(args)]
    info_only = any(a in ("schema", "--list-checks", "--explain", "diff", "--help", "--version")
                    for a in args)
    if "--root" not in args and not info_only:
        args += ["--root", str(roots / "both-host")]
    program = str(binary)
    if args[0] != "rdmi-probe":
        link = tmp / "bin" / args[0]
        link.parent.mkdir(exist_ok=True)
        if not link.exists():
            os.symlink(binary, link)
        program = str(link)
    proc = subprocess.run([program, *args[1:]], cwd=tmp, capture_output=True, text=True,
                          timeout=60, env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"})
    problems = []
    if proc.returncode not in (0, 1, 3):
        problems.append(f"exit {proc.returncode}")
    if "see --help" in proc.stderr:
        problems.append("usage error")
    if expected is not None and proc.stdout != expected:
        problems.append(f"printed {proc.stdout!r}, the document shows {expected!r}")
    if problems:
        problems.append("stderr: " + proc.stderr.strip()[:300])
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", type=Path, required=True)
    parser.add_argument("--fixtures", type=Path, required=True)
    parser.add_argument("--source", type=Path, required=True)
    opts = parser.parse_args()
    examples: list[tuple[str, str, str | None]] = [
        ("man", e, None) for e in
        man_examples((opts.source / "docs/man/rdmi-probe.1.in").read_text())]
    for page in DOC_PAGES:
        examples += [(page, e, None) for e in readme_examples((opts.source / page).read_text())]
    if len(examples) < 10:
        print(f"FAIL only {len(examples)} examples found: the extraction is broken")
        return 1
    agent_recipes = recipes((opts.source / "docs/agents.md").read_text())
    if len(agent_recipes) < 5:
        print(f"FAIL only {len(agent_recipes)} recipes in docs/agents.md: the extraction is broken")
        return 1
    examples += [("agents.md", command, output) for command, output in agent_recipes]
    failed = 0
    with tempfile.TemporaryDirectory(prefix="rdmi-doc-examples-") as name:
        tmp = Path(name)
        prepare(tmp, opts.fixtures, opts.source)
        for where, example, output in examples:
            problems = run(example, opts.binary.resolve(), opts.fixtures, tmp, output)
            print(("FAIL " if problems else "ok   ") + f"{where}: {example}")
            for p in problems:
                print("       " + p)
            failed += bool(problems)
    print(f"{len(examples) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
