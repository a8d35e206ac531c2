#!/usr/bin/python3
"""Installs the build into a temporary prefix (cmake --install) and checks the contract's
helper names there: relative symlinks to rdmi-probe in bin/, each behaving as its helper, and
doca-validate running `check`.

    test_installed_tree.py --build DIR --fixtures DIR --source DIR
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HELPERS = {
    "doca-env": ["env"],
    "doca-capability-snapshot": ["caps"],
    "doca-collect-host-state": ["state", "--side", "host"],
    "doca-collect-dpu-state": ["state", "--side", "dpu"],
}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--source", required=True)
    args = parser.parse_args(argv)
    problems = []
    env = {"PATH": "/usr/bin:/bin", "SOURCE_DATE_EPOCH": "1700000000", "LC_ALL": "C.UTF-8"}
    for key in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if key in os.environ:
            env[key] = os.environ[key]
    with tempfile.TemporaryDirectory(prefix="rdmi-install-") as prefix:
        proc = subprocess.run(["cmake", "--install", args.build, "--prefix", prefix],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"FAIL cmake --install: {proc.stdout}{proc.stderr}")
            return 1
        bindir = os.path.join(prefix, "bin")
        main_binary = os.path.join(bindir, "rdmi-probe")
        if not os.access(main_binary, os.X_OK):
            problems.append(f"{main_binary}: not installed")
        validate = os.path.join(bindir, "doca-validate")
        if not os.path.islink(validate) or os.readlink(validate) != "rdmi-probe":
            problems.append("doca-validate: not a symlink to rdmi-probe")
        else:
            gate = ["--json", "--root", os.path.join(args.fixtures, "roots", "dpa-mismatch"), "--min-version", "3.2.0"]
            pinned = dict(env, SOURCE_DATE_EPOCH="0")
            via = subprocess.run([validate, *gate], capture_output=True, text=True, env=pinned)
            direct = subprocess.run([main_binary, "check", *gate], capture_output=True, text=True, env=pinned)
            if via.returncode != 1 or via.stdout != direct.stdout:
                problems.append(f"doca-validate: exit {via.returncode}, or output differs from rdmi-probe check")
        env["PATH"] = bindir + ":" + env["PATH"]
        root = os.path.join(args.fixtures, "roots", "both-dpu")
        for helper, equivalent in HELPERS.items():
            link = os.path.join(bindir, helper)
            if not os.path.islink(link):
                problems.append(f"{helper}: not a symlink")
                continue
            if os.readlink(link) != "rdmi-probe":
                problems.append(f"{helper}: links to {os.readlink(link)!r}, expected 'rdmi-probe'")
            # Found on PATH by name, as an agent following the contract would run it.
            via_name = subprocess.run([helper, "--json", "--root", root], capture_output=True,
                                      text=True, env=env)
            direct = subprocess.run([main_binary, *equivalent, "--json", "--root", root],
                                    capture_output=True, text=True, env=env)
            if via_name.returncode != 0 or direct.returncode != 0:
                problems.append(f"{helper}: exit {via_name.returncode} (direct {direct.returncode}): {via_name.stderr}")
                continue
            if via_name.stdout != direct.stdout:
                problems.append(f"{helper} --json differs from rdmi-probe {' '.join(equivalent)} --json")
            try:
                json.loads(via_name.stdout)
            except ValueError as e:
                problems.append(f"{helper}: not JSON: {e}")
            text = subprocess.run([helper, "--root", root], capture_output=True, text=True, env=env)
            first = text.stdout.splitlines()[0] if text.stdout else ""
            expected = f"using structured rdmi-probe (path: {os.path.realpath(main_binary)})"
            if first != expected:
                problems.append(f"{helper}: first line {first!r}, expected {expected!r}")
        # The installed binary carries its schemas: no data files needed.
        schema = subprocess.run([main_binary, "schema", "doca-env"], capture_output=True, text=True, env=env,
                                cwd="/")
        with open(os.path.join(args.source, "schemas", "doca-env.schema.json")) as f:
            if schema.stdout != f.read():
                problems.append("installed rdmi-probe schema doca-env differs from schemas/doca-env.schema.json")
    for p in problems:
        print(f"FAIL {p}")
    print(f"{len(HELPERS)} helper names checked, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
