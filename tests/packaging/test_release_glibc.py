#!/usr/bin/python3
"""scripts/release.sh --check-glibc: the gate that keeps a release binary loadable on glibc 2.34.
Builds tiny programs with the C compiler and checks that the gate passes what needs at most the
limit, fails (exit 1, naming the symbol) what needs more, and refuses (exit 2) what it cannot
judge: a missing file, a non-ELF file, a static binary without versioned glibc symbols.

    test_release_glibc.py [--source DIR] [--cc cc]
"""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f"FAIL {message}")


def build(cc, tmp, name, source, *flags):
    src = Path(tmp) / f"{name}.c"
    src.write_text(source)
    out = Path(tmp) / name
    proc = subprocess.run([cc, "-O1", "-o", str(out), str(src), *flags], capture_output=True, text=True)
    return out if proc.returncode == 0 else None


def gate(source, *args):
    return subprocess.run(["/bin/bash", str(source / "scripts" / "release.sh"), "--check-glibc", *args],
                          capture_output=True, text=True, timeout=60)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, default=Path(__file__).resolve().parents[2])
    ap.add_argument("--cc", default="cc")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="rdmi-glibc-gate-") as tmp:
        plain = build(args.cc, tmp, "plain", "#include <stdio.h>\nint main(void){puts(\"x\");return 0;}\n")
        check(plain is not None, "the C compiler builds a plain program")
        if plain:
            p = gate(args.source, str(plain))
            check(p.returncode == 0 and "GLIBC_2." in p.stdout, f"plain program passes: {p.returncode} {p.stdout}{p.stderr}")
            # The same file against a limit below what it needs (puts is GLIBC_2.2.5 on x86-64,
            # 2.17 on aarch64; __libc_start_main is 2.34 on glibc >= 2.34).
            p = gate(args.source, str(plain), "2.0")
            check(p.returncode == 1 and "above GLIBC_2.0" in p.stderr, f"limit 2.0 fails: {p.returncode} {p.stderr}")
        # arc4random exists from glibc 2.36 on: the very symbol the release link must avoid.
        modern = build(args.cc, tmp, "modern", "#include <stdlib.h>\nint main(void){return (int)(arc4random() & 1u);}\n")
        if modern is None:
            print("SKIP arc4random case: this C library has no arc4random (glibc < 2.36)")
        else:
            p = gate(args.source, str(modern))
            check(p.returncode == 1 and "arc4random" in p.stderr and "above GLIBC_2.34" in p.stderr,
                  f"arc4random program fails naming the symbol: {p.returncode} {p.stderr}")
            p = gate(args.source, str(modern), "2.36")
            check(p.returncode == 0, f"arc4random program passes a 2.36 limit: {p.returncode} {p.stderr}")
        static = build(args.cc, tmp, "static", "int main(void){return 0;}\n", "-static")
        if static is None:
            print("SKIP static case: no static C library")
        else:
            p = gate(args.source, str(static))
            check(p.returncode == 2 and "no GLIBC_ versions" in p.stderr, f"static binary refused: {p.returncode} {p.stderr}")
        text = Path(tmp) / "notes.txt"
        text.write_text("not an ELF file\n")
        p = gate(args.source, str(text))
        check(p.returncode == 2 and "not an x86-64 or aarch64 ELF" in p.stderr, f"text file refused: {p.returncode} {p.stderr}")
        p = gate(args.source, str(Path(tmp) / "absent"))
        check(p.returncode == 2 and "no such file" in p.stderr, f"absent file refused: {p.returncode} {p.stderr}")
        p = gate(args.source)
        check(p.returncode == 2, f"no file: usage error: {p.returncode}")
    print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
