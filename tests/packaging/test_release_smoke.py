#!/usr/bin/python3
"""scripts/release.sh --smoke: the run check of a release binary (an aarch64 one under qemu).
Builds stand-in programs with the C compiler and checks that the check passes one that answers
--version, schema and error, and fails one that hangs after --version (named as hung, within the
time limit), one that exits non-zero, one that prints nothing, and refuses a non-ELF or missing
file. Where the aarch64 cross compiler and qemu-aarch64 exist, an aarch64 program that starts and
joins a thread, as rdmi-probe's run watchdog does, must pass under the emulator prefix release.sh
uses: with the cross toolchain's loader paired with the multiarch libc.so.6 it hung in
pthread_create.

    test_release_smoke.py [--source DIR] [--cc cc]
"""
import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

failures = []

# Answers like rdmi-probe where the check looks: output and exit 0 for every command; MODE picks
# the misbehaviour.
PROGRAM = r"""
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static void *run(void *arg) { return arg; }
int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--version") == 0) { puts("stand-in 0"); return 0; }
#if MODE == 1
    pause();                      /* hangs after --version */
#elif MODE == 2
    fputs("failed\n", stderr);
    return 1;
#elif MODE == 3
    return 0;                     /* prints nothing */
#endif
    pthread_t t;
    if (pthread_create(&t, NULL, run, NULL) != 0) return 1;
    pthread_join(t, NULL);
    puts(argv[argc - 1]);
    return 0;
}
"""


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f"FAIL {message}")


def build(cc, tmp, name, mode):
    src = Path(tmp) / f"{name}.c"
    src.write_text(PROGRAM)
    out = Path(tmp) / name
    proc = subprocess.run([cc, "-O1", f"-DMODE={mode}", "-pthread", "-o", str(out), str(src)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print(proc.stderr)
        return None
    return out


def smoke(source, *args, limit="60", cwd=None, path="/usr/bin:/bin"):
    return subprocess.run(["/bin/bash", str(source / "scripts" / "release.sh"), "--smoke", *args],
                          capture_output=True, text=True, timeout=180, cwd=cwd,
                          env={"PATH": path, "SMOKE_TIMEOUT": limit})


def relative_name(source, tmp, good):
    """A bare FILE is the caller's file, and that file is what runs: not one of the same name on
    PATH (here a decoy that fails), nor one relative to the script's directory."""
    decoys = Path(tmp) / "decoys"
    decoys.mkdir()
    decoy = decoys / good.name
    decoy.write_text("#!/bin/sh\necho decoy ran >&2\nexit 1\n")
    decoy.chmod(0o755)
    p = smoke(source, good.name, cwd=tmp, path=f"{decoys}:/usr/bin:/bin")
    check(p.returncode == 0 and f"{tmp}/{good.name}: --version" in p.stdout and "decoy" not in p.stderr,
          f"a bare name runs the caller's file: {p.returncode} {p.stdout}{p.stderr}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, default=Path(__file__).resolve().parents[2])
    ap.add_argument("--cc", default="cc")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="rdmi-release-smoke-") as tmp:
        good = build(args.cc, tmp, "good", 0)
        check(good is not None, "the C compiler builds the stand-in")
        if good:
            p = smoke(args.source, str(good))
            check(p.returncode == 0 and "schema, error BAD_STATE run" in p.stdout,
                  f"a program that answers passes: {p.returncode} {p.stdout}{p.stderr}")
            relative_name(args.source, tmp, good)
        hung = build(args.cc, tmp, "hung", 1)
        if hung:
            start = time.monotonic()
            p = smoke(args.source, str(hung), limit="2")
            took = time.monotonic() - start
            check(p.returncode == 1 and "schema: no exit within 2 s (hung)" in p.stderr,
                  f"a program that hangs fails as hung: {p.returncode} {p.stderr}")
            check(took < 30, f"the hang is cut at the limit: {took:.1f} s")
        failing = build(args.cc, tmp, "failing", 2)
        if failing:
            p = smoke(args.source, str(failing))
            check(p.returncode == 1 and "schema: exit 1, output: failed" in p.stderr,
                  f"a program that fails fails the check: {p.returncode} {p.stderr}")
        silent = build(args.cc, tmp, "silent", 3)
        if silent:
            p = smoke(args.source, str(silent))
            check(p.returncode == 1 and "schema: exit 0, output: " in p.stderr,
                  f"a program that prints nothing fails the check: {p.returncode} {p.stderr}")
        text = Path(tmp) / "notes.txt"
        text.write_text("not an ELF file\n")
        p = smoke(args.source, str(text))
        check(p.returncode == 1 and "not an x86-64 or aarch64 ELF" in p.stderr, f"text file refused: {p.returncode} {p.stderr}")
        p = smoke(args.source, tmp)
        check(p.returncode == 1 and "not a regular file" in p.stderr, f"directory refused: {p.returncode} {p.stderr}")
        p = smoke(args.source, str(Path(tmp) / "absent"))
        check(p.returncode == 1 and "no such file" in p.stderr, f"absent file refused: {p.returncode} {p.stderr}")
        p = smoke(args.source)
        check(p.returncode == 2, f"no file: usage error: {p.returncode}")

        cross = shutil.which("aarch64-linux-gnu-gcc")
        if not cross or not shutil.which("qemu-aarch64") or not Path("/lib/ld-linux-aarch64.so.1").exists():
            print("SKIP aarch64 case: needs aarch64-linux-gnu-gcc, qemu-aarch64 and libc6:arm64 "
                  "(scripts/setup.sh --cross-arm64)")
        else:
            arm = build(cross, tmp, "arm-threads", 0)
            check(arm is not None, "the cross compiler builds the aarch64 stand-in")
            if arm:
                p = smoke(args.source, str(arm), limit="20")
                check(p.returncode == 0 and "under qemu-aarch64" in p.stdout,
                      f"an aarch64 program that starts a thread runs under qemu: {p.returncode} {p.stdout}{p.stderr}")
    print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
