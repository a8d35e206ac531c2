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

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from hardening_suite import run_ctx_cases

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
        # The cases look for phrases of the text, not its layout: one line per message, as a
        # wide terminal shows it (a message names temporary paths, whose length varies).
        return subprocess.run([str(self.binary), *args], capture_output=True, timeout=120,
                              cwd=self.tmp, env={**os.environ, "COLUMNS": "1000"})

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


@case
def gcc_slim_lto_doctored(ctx):
    # The slim object with its bytecode sections renamed (the marker still says "no code"), and
    # with its marker renamed to an ordinary global symbol (the plugin still takes the bytecode;
    # the symbol names no code): both read as "0 dependencies", exit 0, before.
    path = ctx.libs / "app/lto/rdmi_app_slim.o"
    if need(path):
        return need(path)
    data = path.read_bytes()
    renamed = write(ctx.tmp / "renamed.o", data.replace(b".gnu.lto_", b".gnx.lto_"))
    unmarked = write(ctx.tmp / "unmarked.o", data.replace(b"__gnu_lto_slim", b"rdmi_app_entry"))
    problems = []
    for app in (renamed, unmarked):
        problems += ctx.expect(ctx.gate(app, "--forbid-experimental"), 3,
                               [str(app), "GCC LTO bytecode: not readable"])
    return problems


# ---- files no import audit can judge -------------------------------------------------------

def ar_archive(path, members):
    """An `ar` archive of (name, bytes) members, written here (no tool needed)."""
    out = b"!<arch>\n"
    for name, data in members:
        header = f"{name + '/':<16}{0:<12}{0:<6}{0:<6}{644:<8}{len(data):<10}`\n"
        out += header.encode() + data + (b"\n" if len(data) % 2 else b"")
    return write(path, out)


def write(path, data):
    path.write_bytes(data)
    return path


@case
def not_code_skips(ctx):
    # The fixture executable with e_type ET_CORE, ET_NONE or an OS-specific type: no linker or
    # loader takes it, and it used to pass with "0 dependencies"; alone and as an archive member.
    exe = ctx.libs / "app/rdmi_fixture_app"
    problems = []
    for e_type, name in ((4, "core"), (0, "other"), (0xFE00, "other")):
        data = bytearray(exe.read_bytes())
        data[16:18] = e_type.to_bytes(2, "little")
        app = write(ctx.tmp / f"app_{e_type}", bytes(data))
        needles = [str(app), f"of type {name}", "not an object, executable or shared library"]
        problems += ctx.expect(ctx.gate(app, "--forbid-experimental"), 3, needles)
        problems += ctx.expect(ctx.audit(app, None, "--json"), 0, needles, SKIPPED_APP)
        archive = ar_archive(ctx.tmp / f"lib{e_type}.a", [("m.o", bytes(data))])
        problems += ctx.expect(ctx.gate(archive, "--forbid-experimental"), 3,
                               ["m.o", f"of type {name}"])
    return problems


def cc():
    return shutil.which(os.environ.get("RDMI_TEST_CC", "cc"))


@case
def static_executable_skips(ctx):
    # The fixture application linked statically with the static libdoca_rdmi: its experimental
    # calls are inside it, it imports nothing, and it passed with "0 dependencies".
    archive = ctx.libs / "app/librdmi_fixture_app.a"
    lib = ctx.libs / "static/libdoca_rdmi.a"
    if need(archive) or need(lib) or not cc():
        return need(archive) + need(lib) + ([] if cc() else ["SKIP: no C compiler"])
    app = ctx.tmp / "rdmi_app_static"
    proc = subprocess.run([cc(), "-static", "-o", str(app), str(archive), str(lib)],
                          capture_output=True)
    if proc.returncode != 0:
        return [f"SKIP: cc -static failed (no static libc?): {proc.stderr[-200:]!r}"]
    needles = [str(app), "statically linked", "objects or archive it is linked from"]
    problems = ctx.expect(ctx.gate(app, "--forbid-experimental"), 3, needles)
    problems += ctx.expect(ctx.audit(app, None, "--json"), 0, needles, SKIPPED_APP)
    return problems


# The experimental name as the last bytes of a section of its own, with no NUL: in memory the
# linker's zero padding ends it. And the name placed among the code.
DLSYM_AT_END = """
\t.text
\t.globl main
main:\tleaq name(%rip), %rsi
\tcall doca_rdmi_connection_destroy@PLT
\txorl %eax, %eax
\tret
\t.section .names,"a",@progbits
name:\t.ascii "doca_rdmi_connection_create"
\t.section .note.GNU-stack,"",@progbits
"""
DLSYM_IN_CODE = """
extern int doca_rdmi_connection_destroy(void*);
extern void* dlsym(void*, const char*);
__attribute__((section(".text.names"))) const char name[] = "doca_rdmi_connection_create";
int main(void) { return dlsym((void*)0, name) ? doca_rdmi_connection_destroy(0) : 1; }
"""


@case
def dlsym_names_the_scan_missed(ctx):
    if not cc():
        return ["SKIP: no C compiler"]
    problems = []
    for source, suffix in ((DLSYM_AT_END, ".s"), (DLSYM_IN_CODE, ".c")):
        src = ctx.tmp / f"app{suffix}"
        src.write_text(source)
        app = ctx.tmp / f"app_{suffix[1:]}"
        proc = subprocess.run([cc(), "-o", str(app), str(src), str(ctx.versioned.resolve()),
                               "-ldl"], capture_output=True)
        if proc.returncode != 0:
            problems.append(f"SKIP: cc failed: {proc.stderr[-200:]!r}")
            continue
        problems += ctx.expect(ctx.gate(app, "--forbid-experimental", "--fail-on-warn"), 1,
                               ["doca_rdmi_connection_create", "dlsym"])
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
    return run_ctx_cases(CASES, Ctx, "rdmi-gate-formats-")


if __name__ == "__main__":
    sys.exit(main())
