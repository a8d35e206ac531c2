#!/usr/bin/python3
"""Unknown formats never pass the gate: the application audit against real LTO, cross-built and
dlsym() fixtures (tests/fixtures/libs/CMakeLists.txt builds them with the real compilers).

    test_gate_formats.py --binary PATH --fixtures DIR [-k SUBSTRING]

* GCC slim LTO objects (bytecode and the __gnu_lto_slim marker, no code) and an archive of one:
  `check --app` skips (exit 3) naming the file, "GCC LTO bytecode" and the fix; a fat LTO
  object (-ffat-lto-objects) is read like any object (its experimental calls fail the gate);
* LLVM bitcode (`clang -flto -c`): skip (exit 3), "LLVM bitcode";
* an application built for aarch64, aarch64 big-endian or i386 against the x86-64 library, and
  an x86-64 application against the aarch64 library: `app-resolves` fails naming both;
* an application that reaches an experimental function only through dlsym() by name: the
  `app-experimental` check warns naming it (exit 1 with --fail-on-warn), and passes when the
  allow-list accepts it.
Exits 1 when a case breaks.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CASES = []
PREFIX = "prefixes/complete-3.3"
LIB = "lib/x86_64-linux-gnu/libdoca_rdmi.so"


def case(fn):
    CASES.append(fn)
    return fn


class Ctx:
    def __init__(self, binary, fixtures, tmp):
        self.binary, self.fixtures, self.tmp = binary, fixtures, tmp
        self.libs = fixtures / "libs"
        self.versioned = self.libs / "versioned/libdoca_rdmi.so"
        self._prefix = None

    def run(self, args):
        return subprocess.run([str(self.binary), *args], capture_output=True, timeout=120,
                              cwd=self.tmp)

    def prefix(self):
        """The complete-3.3 prefix whose libdoca_rdmi is the fixture library with the DOCA_3.3
        and EXPERIMENTAL nodes the fixture applications were linked against."""
        if self._prefix is None:
            self._prefix = self.tmp / "prefix"
            shutil.copytree(self.fixtures / PREFIX, self._prefix, symlinks=True)
            original = str((self.fixtures / PREFIX).resolve())
            for pc in self._prefix.rglob("*.pc"):
                pc.write_text(pc.read_text().replace(original, str(self._prefix)))
            real = (self._prefix / LIB).resolve()
            real.unlink()
            shutil.copyfile(self.versioned.resolve(), real)
        return self._prefix

    def gate(self, app, *extra):
        return ["check", "--doca-prefix", str(self.prefix()), "--app", str(app), *extra]

    def audit(self, app, lib=None, *extra):
        return ["symbols", "--lib", str(lib or self.versioned), "--check", str(app), *extra]

    def expect(self, args, code, needles, statuses=None):
        """Runs args; the exit code, each needle in the output, and (for a --json run) the
        status of each check id in `statuses`."""
        proc = self.run(args)
        shown = " ".join(a if "/" not in a else Path(a).name for a in args)
        out = proc.stdout.decode(errors="replace")
        text = proc.stderr.decode(errors="replace") + out
        problems = []
        if proc.returncode != code:
            problems.append(f"{shown}: exit {proc.returncode}, expected {code}: {text[-600:]!r}")
        for needle in needles:
            if needle not in text:
                problems.append(f"{shown}: {needle!r} not in the output: {text[-600:]!r}")
        if "--json" in args:
            try:
                doc = json.loads(out)
            except ValueError:
                return problems + [f"{shown}: stdout is not one JSON document"]
            for check_id, status in (statuses or {}).items():
                found = check_status(doc, check_id)
                if found != status:
                    problems.append(f"{shown}: {check_id} is {found}, expected {status}")
        return problems


def check_status(doc, check_id):
    """The status of a check in a symbols document (checks[].id) or a check document
    (checks[].name, the contract's)."""
    for check in doc.get("checks", []):
        if check_id in (check.get("id"), check.get("name")):
            return check.get("status")
    return None


def need(path):
    return [] if path.exists() else [f"SKIP: {path} was not built (its compiler was not found)"]


# ---- compiler bytecode --------------------------------------------------------------------

SKIPPED_APP = {"app-resolves": "skip", "app-experimental": "skip"}


@case
def gcc_slim_lto_object(ctx):
    path = ctx.libs / "app/lto/rdmi_app_slim.o"
    if need(path):
        return need(path)
    needles = [str(path), "GCC LTO bytecode: not readable", "-ffat-lto-objects",
               "pass the linked binary"]
    problems = ctx.expect(ctx.gate(path, "--forbid-experimental"), 3, needles)
    problems += ctx.expect(ctx.gate(path, "--forbid-experimental", "--json"), 3, needles)
    # symbols exits 0 on a skip (its documented rule); the document says skip.
    problems += ctx.expect(ctx.audit(path, None, "--json"), 0, needles, SKIPPED_APP)
    return problems


@case
def gcc_slim_lto_archive(ctx):
    path = ctx.libs / "app/lto/librdmi_app_slim.a"
    if need(path):
        return need(path)
    needles = [str(path), "rdmi_app_slim.o", "GCC LTO bytecode: not readable", "-ffat-lto-objects"]
    problems = ctx.expect(ctx.gate(path, "--forbid-experimental"), 3, needles)
    problems += ctx.expect(ctx.audit(path, None, "--json"), 0, needles, SKIPPED_APP)
    return problems


@case
def gcc_fat_lto_object_is_read(ctx):
    # Real code beside the bytecode: read like any object, and its experimental calls fail.
    path = ctx.libs / "app/lto/rdmi_app_fat.o"
    if need(path):
        return need(path)
    return ctx.expect(ctx.audit(path, None, "--json"), 1,
                      ["doca_rdmi_poster_create"],
                      {"app-resolves": "pass", "app-experimental": "fail"})


@case
def llvm_bitcode_object(ctx):
    path = ctx.libs / "app/lto/rdmi_app_bitcode.o"
    if need(path):
        return need(path)
    needles = [str(path), "LLVM bitcode: not readable"]
    problems = ctx.expect(ctx.gate(path, "--forbid-experimental"), 3, needles)
    problems += ctx.expect(ctx.audit(path, None, "--json"), 0, needles, SKIPPED_APP)
    return problems


# ---- another machine, class or byte order -------------------------------------------------

X86_64 = "x86_64, ELF64, little-endian"
FOREIGN = {
    "aarch64": "aarch64, ELF64, little-endian",
    "aarch64_be": "aarch64, ELF64, big-endian",
    "i386": "i386, ELF32, little-endian",
}


@case
def foreign_applications_fail(ctx):
    problems = []
    for variant, platform in FOREIGN.items():
        path = ctx.libs / "app" / variant / "rdmi_app"
        if need(path):
            problems += need(path)
            continue
        # The names it needs (one experimental, one stable) all exist in the x86-64 library:
        # only the platform tells that the loader would never load it for this application.
        needles = [str(path), platform, X86_64, "app-resolves"]
        problems += ctx.expect(ctx.gate(path), 1, needles)
        problems += ctx.expect(ctx.gate(path, "--json"), 1, needles, {"app-resolves": "fail"})
        problems += ctx.expect(ctx.audit(path, None, "--json"), 1, needles,
                               {"app-resolves": "fail", "app-experimental": "fail"})
    return problems


@case
def foreign_library_fails(ctx):
    # The other way round: the i386 application against the aarch64 library.
    lib = ctx.libs / "aarch64/libdoca_rdmi.so"
    app = ctx.libs / "app/i386/rdmi_app"
    if need(lib) or need(app):
        return need(lib) + need(app)
    return ctx.expect(ctx.audit(app, lib, "--json", "--allow-experimental",
                                "doca_rdmi_connection_create"), 1,
                      [FOREIGN["i386"], FOREIGN["aarch64"]],
                      {"app-resolves": "fail", "app-experimental": "skip"})


@case
def same_platform_still_passes(ctx):
    # The x86-64 executable linked with the library: every name resolves (no false alarm).
    app = ctx.libs / "app/rdmi_fixture_app"
    return ctx.expect(ctx.audit(app, None, "--json"), 1, [], {"app-resolves": "pass"})


# ---- dlsym() by name ----------------------------------------------------------------------

@case
def dlsym_route_warns(ctx):
    app = ctx.libs / "app/rdmi_fixture_app_dlsym"
    needles = ["doca_rdmi_connection_create", "dlsym"]
    problems = ctx.expect(ctx.gate(app, "--forbid-experimental"), 0, needles + ["WARN"])
    problems += ctx.expect(ctx.gate(app, "--forbid-experimental", "--fail-on-warn"), 1, needles)
    problems += ctx.expect(ctx.audit(app, None, "--json"), 0, needles,
                           {"app-resolves": "pass", "app-experimental": "warn"})
    # Accepted by the allow-list: nothing to say.
    problems += ctx.expect(ctx.gate(app, "--forbid-experimental", "--fail-on-warn",
                                    "--allow-experimental", "doca_rdmi_connection_create"), 0, [])
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True, type=Path)
    ap.add_argument("--fixtures", required=True, type=Path)
    ap.add_argument("-k", action="append", default=[])
    args = ap.parse_args()
    failed = 0
    for fn in CASES:
        if args.k and not any(k in fn.__name__ for k in args.k):
            continue
        with tempfile.TemporaryDirectory(prefix="rdmi-gate-formats-") as tmp:
            problems = fn(Ctx(args.binary.resolve(), args.fixtures.resolve(), Path(tmp)))
        skipped = [p for p in problems if p.startswith("SKIP")]
        real = [p for p in problems if not p.startswith("SKIP")]
        print(f"{'FAIL' if real else 'SKIP' if skipped else 'ok  '} {fn.__name__}")
        for p in real + skipped:
            print(f"    {p}")
        failed += bool(real)
    print(f"{len(CASES)} cases, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
