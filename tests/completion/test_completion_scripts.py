#!/usr/bin/python3
"""The completion scripts the build installs are what the program writes
(`rdmi-probe __complete --script bash|zsh`), shellcheck finds nothing in the bash one, and both
parse (bash -n, zsh -n).

    test_completion_scripts.py --binary rdmi-probe --bash FILE --zsh FILE

Exit 77 (skipped) when shellcheck or zsh is missing, unless RDMI_REQUIRE_COMPLETION_TOOLS=1.
"""
import argparse
import os
import shutil
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--bash", required=True)
    ap.add_argument("--zsh", required=True)
    args = ap.parse_args()
    problems = []
    for shell, path in (("bash", args.bash), ("zsh", args.zsh)):
        wanted = subprocess.run([args.binary, "__complete", "--script", shell],
                                capture_output=True, text=True, check=True).stdout
        with open(path, encoding="utf-8") as f:
            if f.read() != wanted:
                problems.append(f"{path} is not what `rdmi-probe __complete --script {shell}` "
                                "writes (rebuild; never edit it by hand)")
    proc = subprocess.run(["bash", "-n", args.bash], capture_output=True, text=True)
    if proc.returncode != 0:
        problems.append(f"bash -n: {proc.stderr.strip()}")
    missing = [t for t in ("shellcheck", "zsh") if not shutil.which(t)]
    if not missing:
        proc = subprocess.run(["shellcheck", "--shell=bash", "--severity=style", args.bash],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            problems.append(f"shellcheck:\n{proc.stdout}{proc.stderr}")
        proc = subprocess.run(["zsh", "-n", args.zsh], capture_output=True, text=True)
        if proc.returncode != 0:
            problems.append(f"zsh -n: {proc.stderr.strip()}")
    proc = subprocess.run([args.binary, "__complete", "--script", "fish"], capture_output=True,
                          text=True)
    if proc.returncode != 2 or proc.stdout or "bash or zsh" not in proc.stderr:
        problems.append(f"--script fish: exit {proc.returncode}, {proc.stderr.strip()!r}")
    for p in problems:
        print("FAIL:", p)
    if missing and not problems:
        print(f"completion-scripts: {', '.join(missing)} not installed")
        return 1 if os.environ.get("RDMI_REQUIRE_COMPLETION_TOOLS") == "1" else 77
    print(f"completion-scripts: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
