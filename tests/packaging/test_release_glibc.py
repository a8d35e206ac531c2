#!/usr/bin/python3
"""scripts/release.sh --check-glibc: the gate that keeps a release binary loadable on glibc 2.34.
Builds tiny programs with the C compiler and checks that the gate passes what needs at most the
limit, fails (exit 1, naming the symbol) what needs more, and refuses (exit 2) what it cannot
judge: a missing file, a non-ELF file, a directory, a truncated ELF file, a static binary without
versioned glibc symbols, a limit that is no version. A stand-in library with made-up GLIBC_2.99 and
GLIBC_PRIVATE versions shows the gate fails what no released glibc provides, and a FILE relative
to the caller's directory is the caller's file. Packed relative relocations (DT_RELR) fail it too:
the GLIBC_ABI_DT_RELR version they need names no symbol, so objdump -T alone never shows it.

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


def gate(source, *args, cwd=None):
    return subprocess.run(["/bin/bash", str(source / "scripts" / "release.sh"), "--check-glibc", *args],
                          capture_output=True, text=True, timeout=60, cwd=cwd)


# A library whose symbols carry versions named like glibc's: GLIBC_2.99 (no glibc has it) and
# GLIBC_PRIVATE (glibc's internal interface, bound to one build).
VERSION_SCRIPT = "GLIBC_2.99 { global: newfn; local: *; };\nGLIBC_PRIVATE { global: privfn; } GLIBC_2.99;\n"
LIBRARY = "int newfn(void){return 1;}\nint privfn(void){return 2;}\n"


def build_fake_glibc_users(cc, tmp):
    """Programs linked against the stand-in library: one needs GLIBC_2.99, one GLIBC_PRIVATE."""
    (Path(tmp) / "v.map").write_text(VERSION_SCRIPT)
    lib = build(cc, tmp, "libfakeglibc.so", LIBRARY, "-shared", "-fPIC",
                "-Wl,-soname,libfakeglibc.so", f"-Wl,--version-script={tmp}/v.map")
    if lib is None:
        return None, None
    link = (f"-L{tmp}", "-lfakeglibc")
    new = build(cc, tmp, "needs299", "int newfn(void);\nint main(void){return newfn();}\n", *link)
    private = build(cc, tmp, "needsprivate", "int privfn(void);\nint main(void){return privfn();}\n", *link)
    return new, private


# A pointer in writable data: a relative relocation the linker can pack.
POINTER_PROGRAM = "int oldfn(void);\nstatic int t = 7;\nstatic int* volatile p = &t;\nint main(void){return oldfn() + *p - 7;}\n"


def has_relr(path):
    dynamic = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True,
                             env={**os.environ, "LC_ALL": "C"})
    return "(RELR)" in dynamic.stdout


def packed_relocations(source, cc, tmp):
    """DT_RELR: only loaders from glibc 2.36 on apply packed relative relocations. The linker records
    the need as the version GLIBC_ABI_DT_RELR, which no symbol carries; without that need (no libc
    linked) an older loader would skip the table silently. Both fail a 2.34 gate, as does a glibc
    ABI tag the gate does not know."""
    (Path(tmp) / "old.map").write_text("GLIBC_2.30 { global: oldfn; local: *; };\n"
                                       "GLIBC_ABI_FUTURE { global: tagfn; } GLIBC_2.30;\n")
    lib = build(cc, tmp, "libfakeold.so", "int oldfn(void){return 0;}\nint tagfn(void){return 0;}\n",
                "-shared", "-fPIC", "-Wl,-soname,libfakeold.so", f"-Wl,--version-script={tmp}/old.map")
    check(lib is not None, "the stand-in library with GLIBC_2.30 and an ABI tag builds")
    if lib is None:
        return
    link = (f"-L{tmp}", "-lfakeold", "-fPIE", "-pie")
    unpacked = build(cc, tmp, "unpacked", POINTER_PROGRAM, *link)
    check(unpacked is not None, "the pointer program builds without packed relocations")
    if unpacked:
        p = gate(source, str(unpacked))
        check(p.returncode == 0, f"unpacked relocations pass: {p.returncode} {p.stderr}")
    packed = build(cc, tmp, "packed", POINTER_PROGRAM, *link, "-Wl,-z,pack-relative-relocs")
    if packed is None or not has_relr(packed):
        # binutils < 2.38, or an aarch64 linker before 2.41: "-z pack-relative-relocs ignored".
        print("SKIP DT_RELR cases: this linker does not pack relative relocations")
    else:
        p = gate(source, str(packed))
        # The C library of glibc < 2.36 has no GLIBC_ABI_DT_RELR to record: the DT_RELR table fails it.
        check(p.returncode == 1 and ("GLIBC_ABI_DT_RELR" in p.stderr or "DT_RELR" in p.stderr)
              and "above GLIBC_2.34" in p.stderr, f"packed relocations fail a 2.34 gate: {p.returncode} {p.stderr}")
        p = gate(source, str(packed), "2.36")
        check(p.returncode == 0 and "GLIBC_2.36" in p.stdout, f"packed relocations pass a 2.36 gate: {p.returncode} {p.stdout}{p.stderr}")
        # No C library linked: the table without the version need.
        bare = build(cc, tmp, "bare", POINTER_PROGRAM, "-nostdlib", "-Wl,-e,main", *link, "-Wl,-z,pack-relative-relocs")
        check(bare is not None, "a DT_RELR program without the C library links")
        if bare:
            p = gate(source, str(bare))
            check(p.returncode == 1 and "(DT_RELR)" in p.stderr and "GLIBC_ABI_DT_RELR" not in p.stderr,
                  f"a DT_RELR table without the version need fails: {p.returncode} {p.stderr}")
    tagged = build(cc, tmp, "tagged", "int oldfn(void);\nint tagfn(void);\nint main(void){return oldfn() + tagfn();}\n", *link)
    check(tagged is not None, "a program needing an unknown ABI tag builds")
    if tagged:
        p = gate(source, str(tagged), "2.100")
        check(p.returncode == 1 and "GLIBC_ABI_FUTURE" in p.stderr, f"an unknown ABI tag fails whatever the limit: {p.returncode} {p.stderr}")


def refusals(source, tmp, plain):
    """What the gate cannot judge: exit 2 with the reason, never a pass."""
    p = gate(source, tmp)
    check(p.returncode == 2 and "not a regular file" in p.stderr, f"directory refused: {p.returncode} {p.stderr}")
    p = gate(source, "/dev/null")
    check(p.returncode == 2 and "not a regular file" in p.stderr, f"device refused: {p.returncode} {p.stderr}")
    if plain:
        truncated = Path(tmp) / "truncated"
        truncated.write_bytes(plain.read_bytes()[:2000])
        p = gate(source, str(truncated))
        check(p.returncode == 2 and "cannot read it" in p.stderr, f"truncated ELF refused: {p.returncode} {p.stderr}")
        for limit in ("abc", "", "2.34.1", "3"):
            p = gate(source, str(plain), limit)
            check(p.returncode == 2 and "MAX must be a version" in p.stderr,
                  f"limit {limit!r} refused: {p.returncode} {p.stdout}{p.stderr}")
        # Relative to the caller's directory, not the script's.
        p = gate(source, plain.name, cwd=tmp)
        check(p.returncode == 0 and "GLIBC_2." in p.stdout, f"relative FILE is the caller's: {p.returncode} {p.stderr}")


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
        new, private = build_fake_glibc_users(args.cc, tmp)
        check(new is not None and private is not None, "the stand-in glibc library and its users build")
        if new:
            p = gate(args.source, str(new))
            check(p.returncode == 1 and "needs GLIBC_2.99, above GLIBC_2.34" in p.stderr and "newfn" in p.stderr,
                  f"GLIBC_2.99 fails naming the symbol: {p.returncode} {p.stderr}")
            p = gate(args.source, str(new), "2.100")
            check(p.returncode == 0, f"2.99 is below 2.100 (versions, not text): {p.returncode} {p.stderr}")
        if private:
            p = gate(args.source, str(private), "2.100")
            check(p.returncode == 1 and "GLIBC_PRIVATE" in p.stderr and "privfn" in p.stderr,
                  f"GLIBC_PRIVATE fails whatever the limit: {p.returncode} {p.stderr}")
        packed_relocations(args.source, args.cc, tmp)
        refusals(args.source, tmp, plain)
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
