#!/usr/bin/python3
"""What every run pays before main() stays small, checked on the real binary:

  no-iostream-init  the executable holds no per-file std::ios_base::Init (the symbol
                    std::__ioinit): before GCC 13 each one builds the standard streams and the
                    whole classic locale before main(), a sixth of `--version`. src/ includes
                    CLI11 through src/cli/cli11.hpp and prints through stdio. Only checked where
                    the build says it applies (--ioinit-applies: libstdc++ before GCC 13).
  help-on-stdio     --help, a subcommand's --help and a late --version still print, on stdout
                    only, with exit 0 (CLI11's App::exit() gets the program's own streams)

    test_startup.py --binary PATH [--ioinit-applies] [-k SUBSTRING]
"""

import argparse
import shutil
import subprocess
import sys


def check_no_iostream_init(binary, applies):
    if not applies:
        return "skipped: this compiler's <iostream> has no per-file initialiser"
    nm = shutil.which("nm")
    if nm is None:
        return "skipped: nm is not installed"
    symbols = subprocess.run([nm, binary], capture_output=True, text=True, check=True).stdout
    holders = [line for line in symbols.splitlines() if line.endswith("_ZStL8__ioinit")]
    if holders:
        raise AssertionError(
            f"{len(holders)} std::__ioinit in {binary}: a file includes <iostream> (include "
            "CLI11 through cli/cli11.hpp, print through stdio)")
    return None


def check_help_on_stdio(binary, _applies):
    for args in (["--help"], ["report", "--help"], ["symbols", "--help"], ["--json", "--version"]):
        run = subprocess.run([binary, *args], capture_output=True, text=True, timeout=30)
        if run.returncode != 0:
            raise AssertionError(f"{args}: exit {run.returncode}, stderr {run.stderr!r}")
        if run.stderr:
            raise AssertionError(f"{args}: stderr {run.stderr!r}")
        if args[-1] == "--version":
            if not run.stdout.startswith("rdmi-probe ") or run.stdout.count("\n") != 1:
                raise AssertionError(f"{args}: stdout {run.stdout!r}")
        elif "Usage:" not in run.stdout:
            raise AssertionError(f"{args}: no usage on stdout: {run.stdout[:200]!r}")
    return None


CASES = {
    "no-iostream-init": check_no_iostream_init,
    "help-on-stdio": check_help_on_stdio,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--ioinit-applies", action="store_true")
    parser.add_argument("-k", default="")
    args = parser.parse_args()
    failed = 0
    for name, case in CASES.items():
        if args.k not in name:
            continue
        try:
            note = case(args.binary, args.ioinit_applies)
            print(f"ok   {name}" + (f" ({note})" if note else ""))
        except (AssertionError, subprocess.SubprocessError) as error:
            failed += 1
            print(f"FAIL {name}: {error}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
