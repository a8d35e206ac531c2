#!/usr/bin/python3
"""Exit codes and verdicts that agree with the documents, for inputs the user names and for
what an unprivileged user cannot read.

    test_input_errors.py --binary PATH --fixtures DIR [-k SUBSTRING]

* `check --app` and `symbols --check` on a text file, a device node, a file over the 256 MiB
  cap, a directory: both exit 2 naming the file and the real reason (never a SKIP whose fix is
  "install DOCA");
* an archive with one unreadable member: the gate is not a pass (exit 3, the member named);
* `symbols` whose document says `result: fail` exits 1;
* `--timeout nan|inf|-1|1e999|0`: usage error, exit 2;
* JSON inputs: a duplicate key or a number out of range in a policy, a diff input or
  version-matrix.json is an error naming the file and the JSON pointer, never "internal error";
  diff compares numbers exactly (past 64 bits, past a double's digits);
  a NUL byte after a complete document is an error, not the end of the input;
* as nobody (setpriv, when the suite runs as root): an unreadable --root is exit 2 "cannot read
  root DIR"; an unreadable /sys/class/infiniband is SKIP naming the path and "permission
  denied", not FAIL, and `check --require-port-active` exits 3, not 1.
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
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def case(fn):
    CASES.append(fn)
    return fn


class Ctx:
    def __init__(self, binary, fixtures, tmp):
        self.binary, self.fixtures, self.tmp = binary, fixtures, tmp
        self.prefix = fixtures / PREFIX
        self.lib = self.prefix / LIB
        self.app = fixtures / "libs/app/rdmi_fixture_app"
        self.archive = fixtures / "libs/app/librdmi_fixture_app.a"

    def run(self, args, as_nobody=False):
        argv = [str(self.binary), *args]
        if as_nobody:
            argv = NOBODY + argv
        return subprocess.run(argv, capture_output=True, timeout=120, cwd=self.tmp)

    def expect(self, args, code, needles, as_nobody=False, json_doc=True):
        problems = []
        proc = self.run(args, as_nobody)
        err = proc.stderr.decode(errors="replace")
        if proc.returncode != code:
            problems.append(f"{' '.join(args[:3])}...: exit {proc.returncode}, expected {code}; "
                            f"stderr {err[-300:]!r}")
        text = err + proc.stdout.decode(errors="replace")
        for needle in needles:
            if needle not in text:
                problems.append(f"{' '.join(args[:3])}...: {needle!r} not in the output: {text[-400:]!r}")
        for bad in ("internal error", "install DOCA", "install the DOCA SDK"):
            if bad in text:
                problems.append(f"{' '.join(args[:3])}...: says {bad!r}: {text[-300:]!r}")
        if "--json" in args and json_doc:
            try:
                json.loads(proc.stdout)
            except ValueError:
                problems.append(f"{' '.join(args[:3])}...: stdout is not one JSON document")
        if code == 2 and err.strip().count("\n") > 0:
            problems.append(f"{' '.join(args[:3])}...: the error is not one line: {err!r}")
        return problems

    def gate(self, app, *extra):
        return ["check", "--doca-prefix", str(self.prefix), "--app", str(app),
                "--forbid-experimental", *extra]

    def audit(self, app, *extra):
        return ["symbols", "--lib", str(self.lib), "--check", str(app), *extra]


def both_refuse(ctx, path, needle):
    problems = []
    for args in (ctx.gate(path), ctx.gate(path, "--json"), ctx.audit(path), ctx.audit(path, "--json")):
        problems += ctx.expect(args, 2, [str(path), needle])
    return problems


@case
def app_text_file(ctx):
    path = ctx.tmp / "app.txt"
    path.write_text("#!/bin/sh\necho not an ELF\n")
    return both_refuse(ctx, path, "not an ELF object or archive")


@case
def app_device_node(ctx):
    if os.geteuid() != 0:
        return ["SKIP: mknod needs root"]
    path = ctx.tmp / "null-device"
    os.mknod(path, 0o666 | 0o020000, os.makedev(1, 3))  # a private /dev/null
    return both_refuse(ctx, path, "not a regular file")


@case
def app_oversize(ctx):
    path = ctx.tmp / "huge-app"
    with open(path, "wb") as f:
        f.write(ctx.app.read_bytes())
        f.truncate((256 << 20) + 1)  # sparse: no disk used
    return both_refuse(ctx, path, "larger than")


@case
def app_directory(ctx):
    path = ctx.tmp / "appdir"
    path.mkdir()
    return both_refuse(ctx, path, str(path))


@case
def app_corrupt_elf(ctx):
    path = ctx.tmp / "app-bad-shnum"
    data = bytearray(ctx.app.read_bytes())
    data[0x3C:0x3E] = b"\xff\xff"
    path.write_bytes(bytes(data))
    return both_refuse(ctx, path, "unreadable ELF")


def member_archive(ctx, mutate):
    """The fixture archive with its object member changed in place (same size)."""
    data = bytearray(ctx.archive.read_bytes())
    at = data.index(b"\x7fELF")
    mutate(data, at)
    path = ctx.tmp / "app.a"
    path.write_bytes(bytes(data))
    return path


@case
def archive_corrupt_member_is_not_pass(ctx):
    def shnum(data, at):
        data[at + 0x3C:at + 0x3E] = b"\xff\xff"
    path = member_archive(ctx, shnum)
    # The readable part needs nothing experimental once the member is gone: skip, not pass.
    problems = ctx.expect(ctx.gate(path, "--json"), 3, ["rdmi_app.c.o", "not read"])
    problems += ctx.expect(ctx.gate(path), 3, ["rdmi_app.c.o"])
    proc = ctx.run(ctx.audit(path, "--json"))
    doc = json.loads(proc.stdout)
    if not doc["application"]["unread_members"]:
        problems.append("symbols --check: unread_members is empty")
    return problems


@case
def archive_extended_numbering_broken(ctx):
    def extended(data, at):
        shoff = int.from_bytes(data[at + 0x28:at + 0x30], "little")
        data[at + 0x3C:at + 0x3E] = b"\x00\x00"
        data[at + shoff + 32:at + shoff + 40] = (0xFFFFFFFF).to_bytes(8, "little")
    return ctx.expect(ctx.gate(member_archive(ctx, extended)), 3, ["rdmi_app.c.o"])


@case
def archive_extended_numbering_valid_is_read(ctx):
    # e_shnum 0 with the count in section 0, e_shstrndx SHN_XINDEX with the index in sh_link:
    # a valid file, read like the original (the intact app fails the gate: exit 1).
    def extended(data, at):
        shoff = int.from_bytes(data[at + 0x28:at + 0x30], "little")
        shnum = int.from_bytes(data[at + 0x3C:at + 0x3E], "little")
        strndx = int.from_bytes(data[at + 0x3E:at + 0x40], "little")
        data[at + 0x3C:at + 0x3E] = b"\x00\x00"
        data[at + 0x3E:at + 0x40] = b"\xff\xff"
        data[at + shoff + 32:at + shoff + 40] = shnum.to_bytes(8, "little")
        data[at + shoff + 40:at + shoff + 44] = strndx.to_bytes(4, "little")
    return ctx.expect(ctx.gate(member_archive(ctx, extended)), 1,
                      ["app-experimental", "doca_rdmi_poster_post"])


@case
def library_without_section_count_fails(ctx):
    root = ctx.tmp / "root"
    shutil.copytree(ctx.fixtures / "roots/complete-3.3", root, symlinks=True)
    real = (root / "opt/mellanox/doca" / LIB).resolve()
    data = bytearray(real.read_bytes())
    data[0x3C:0x3E] = b"\x00\x00"  # e_shnum 0, section 0's sh_size 0: no count anywhere
    real.unlink()
    real.write_bytes(bytes(data))
    proc = ctx.run(["report", "--json", "--root", str(root)])
    doc = json.loads(proc.stdout)
    check = next((c for c in doc.get("checks", []) if c["id"] == "library-doca-rdmi"), None)
    if check is None or check["status"] != "fail" or "e_shnum 0" not in check["message"]:
        return [f"library-doca-rdmi with e_shnum 0: {check}"]
    return []


@case
def symbols_fail_exits_1(ctx):
    # A header declares a name the library does not export: rdmi-symbols-exported fails, so
    # the document says "fail" and the exit code must say so too.
    inc = ctx.tmp / "include"
    shutil.copytree(ctx.fixtures / "libs/include", inc)
    (inc / "doca_rdmi_extra.h").write_text("int doca_rdmi_not_exported_anywhere(void);\n")
    lib = ctx.fixtures / "libs/versioned/libdoca_rdmi.so"
    problems = []
    for extra in ([], ["--json"]):
        proc = ctx.run(["symbols", "--lib", str(lib), "--headers", str(inc), *extra])
        if proc.returncode != 1:
            problems.append(f"symbols {' '.join(extra)}: exit {proc.returncode}, expected 1")
    doc = json.loads(ctx.run(["symbols", "--json", "--lib", str(lib), "--headers", str(inc)]).stdout)
    if doc["result"] != "fail":
        problems.append(f"the case no longer makes a failing symbols document ({doc['result']})")
    proc = ctx.run(["symbols", "--json", "--lib", str(lib)])
    if proc.returncode != 0 or json.loads(proc.stdout)["result"] == "fail":
        problems.append(f"symbols without the extra header: exit {proc.returncode}, expected 0")
    return problems


@case
def timeout_not_finite(ctx):
    problems = []
    for value in ("nan", "NaN", "inf", "-inf", "-1", "1e999", "0", "3601", "0x", ""):
        problems += ctx.expect(["report", "--timeout", value, "--json"], 2, ["--timeout"])
    for value in ("0.5", "3600", "0.001"):
        proc = ctx.run(["--timeout", value, "--version"])
        if proc.returncode != 0:
            problems.append(f"--timeout {value}: exit {proc.returncode}, expected 0")
    return problems


def write(path, text):
    path.write_text(text)
    return path


@case
def policy_duplicate_key(ctx):
    p = write(ctx.tmp / "policy.json", '{"schema_version": 1, "min_version": "3.2", "min_version": "9.9"}')
    return ctx.expect(["check", "--policy", str(p), "--json"], 2,
                      ["policy.json", "/min_version", "duplicate key"])


@case
def policy_number_out_of_range(ctx):
    p = write(ctx.tmp / "policy.json", '{"schema_version": 1e400}')
    return ctx.expect(["check", "--policy", str(p)], 2,
                      ["policy.json", "/schema_version", "number overflow"])


@case
def diff_duplicate_key(ctx):
    a = ctx.run(["env", "--json", "--root", str(ctx.fixtures / "roots/complete-3.3")])
    text = a.stdout.decode()
    pa = write(ctx.tmp / "a.json", text)
    # The same document with "schema" given twice: last-wins would make the two equal.
    pb = write(ctx.tmp / "b.json", text.replace('"schema":', '"schema": "x", "schema":', 1))
    problems = ctx.expect(["diff", str(pa), str(pb)], 2, ["b.json", "/schema", "duplicate key"])
    pc = write(ctx.tmp / "c.json", text.replace('"schema":', '"x_n": 1e400, "schema":', 1))
    problems += ctx.expect(["diff", "--json", str(pa), str(pc)], 2, ["c.json", "/x_n", "number overflow"])
    return problems


@case
def diff_numbers_compared_exactly(ctx):
    # Numbers by the number they spell: past 64 bits, or with more digits than a double keeps,
    # two that differ must not read equal (both used to become the same double).
    text = ctx.run(["env", "--json", "--root", str(ctx.fixtures / "roots/complete-3.3")]).stdout.decode()

    def doc(name, value):
        return write(ctx.tmp / name, text.replace("{", f'{{"x_n": {value}, ', 1))

    pairs = [("18446744073709551616", "18446744073709551617", 1),
             ("-9223372036854775809", "-9223372036854775810", 1),
             ("9007199254740993", "9007199254740992.0", 1),
             ("0.10000000000000000001", "0.1", 1),
             ("1e-400", "0", 1),
             ("[18446744073709551616, 1]", "[18446744073709551617, 1]", 1),
             ("18446744073709551617", "18446744073709551617", 0),
             ("1", "1.0", 0),
             ("1e20", "100000000000000000000", 0),
             ("[1.5, 18446744073709551617]", "[18446744073709551617, 15e-1]", 0)]
    problems = []
    for a, b, code in pairs:
        pa, pb = doc("a.json", a), doc("b.json", b)
        needles = ["/x_n"] if code else []
        for extra in ([], ["--json"]):
            got = ctx.expect(["diff", *extra, str(pa), str(pb)], code, needles)
            problems += [f"{a} vs {b}: {p}" for p in got]
    # The text shows the digits as written.
    pa, pb = doc("a.json", "18446744073709551616"), doc("b.json", "18446744073709551617")
    problems += ctx.expect(["diff", str(pa), str(pb)], 1,
                           ["18446744073709551616 -> 18446744073709551617"])
    return problems


@case
def json_after_a_nul_is_not_dropped(ctx):
    # The JSON library stops at a NUL byte as at the end of the input: a policy whose
    # requirements follow one must not be read as a policy without them.
    p = ctx.tmp / "policy.json"
    p.write_bytes(b'{"schema_version": 1, "min_version": "3.2"}\0\n{"require_dpa": true}')
    problems = ctx.expect(["check", "--policy", str(p), "--json"], 2,
                          ["policy.json", "line 1, column 44", "NUL byte"])
    a = ctx.run(["env", "--json", "--root", str(ctx.fixtures / "roots/complete-3.3")])
    pa = ctx.tmp / "a.json"
    pa.write_bytes(a.stdout)
    pb = ctx.tmp / "b.json"
    pb.write_bytes(a.stdout + b"\0" + b"garbage")
    problems += ctx.expect(["diff", "--json", str(pa), str(pb)], 2, ["b.json", "NUL byte"])
    return problems


@case
def version_matrix_duplicate_key(ctx):
    root = ctx.tmp / "root"
    shutil.copytree(ctx.fixtures / "roots/complete-3.3", root, symlinks=True)
    share = root / "opt/mellanox/doca/share"
    share.mkdir(parents=True, exist_ok=True)
    matrix = share / "version-matrix.json"
    if matrix.exists() or matrix.is_symlink():
        matrix.unlink()
    matrix.write_text('{"schema_version": 1, "schema_version": 1, "entries": []}')
    proc = ctx.run(["report", "--json", "--root", str(root)])
    doc = json.loads(proc.stdout)
    check = next((c for c in doc.get("checks", []) if c["id"] == "version-matrix"), None)
    if (check is None or check["status"] != "fail" or "/schema_version: duplicate key" not in check["message"]
            or "version-matrix.json" not in check["message"]):
        return [f"report: version-matrix with a duplicate key: {check}"]
    return []


# ---- further attacks on the same promises (docs/reliability.md, round 2) -------------------

def ar(members):
    out = bytearray(b"!<arch>\n")
    for name, data in members:
        out += f"{name:<16}{0:<12}{0:<6}{0:<6}{644:<8}{len(data):<10}`\n".encode() + data
        if len(data) % 2:
            out += b"\n"
    return bytes(out)


def fixture_object(ctx):
    data = ctx.archive.read_bytes()
    at = data.index(b"\x7fELF")
    size = int(data[at - 60 + 48:at - 60 + 58].decode().strip())
    return data[at:at + size]


@case
def archive_bitcode_member(ctx):
    # An LTO archive holds LLVM bitcode, not ELF: its needs are unknown to an ELF reader.
    path = ctx.tmp / "lto.a"
    path.write_bytes(ar([("lto_part.o/", b"BC\xc0\xde" + b"\0" * 64)]))
    return ctx.expect(ctx.gate(path, "--json"), 3, ["lto_part.o", "not an ELF object"])


@case
def archive_broken_member_beside_failing_one(ctx):
    obj = fixture_object(ctx)
    bad = bytearray(obj)
    bad[0x3C:0x3E] = b"\xff\xff"
    path = ctx.tmp / "two.a"
    path.write_bytes(ar([("good.o/", obj), ("bad.o/", bytes(bad))]))
    # The readable member's experimental calls fail the gate; the unread one is still named.
    return ctx.expect(ctx.gate(path, "--json"), 1, ["bad.o", "not read", "doca_rdmi_poster_post"])


@case
def archive_member_name_with_newline(ctx):
    bad = bytearray(fixture_object(ctx))
    bad[0x3C:0x3E] = b"\xff\xff"
    long_names = b"evil\nPASS.o/\n"
    path = ctx.tmp / "names.a"
    path.write_bytes(ar([("//", long_names), ("/0", bytes(bad))]))
    problems = ctx.expect(ctx.gate(path), 3, ["evil?PASS.o"])
    out = ctx.run(ctx.gate(path)).stdout.decode()
    if any(line.startswith("PASS") for line in out.splitlines()):
        problems.append(f"a member name forged a PASS line: {out!r}")
    return problems


@case
def thin_archive(ctx):
    path = ctx.tmp / "thin.a"
    path.write_bytes(b"!<thin>\n" + ar([("x.o/", b"")])[8:])
    return both_refuse(ctx, path, "thin archive")


@case
def executable_without_section_headers(ctx):
    # sstrip-style: the loader runs it from its program headers; its imports cannot be read.
    data = bytearray(ctx.app.read_bytes())
    data[0x28:0x30] = b"\0" * 8
    data[0x3C:0x40] = b"\0" * 4
    path = ctx.tmp / "stripped-app"
    path.write_bytes(bytes(data))
    return both_refuse(ctx, path, "no section header table")


@case
def app_fifo_and_loop(ctx):
    fifo = ctx.tmp / "fifo"
    os.mkfifo(fifo)
    loop = ctx.tmp / "loop"
    os.symlink("loop", loop)
    return both_refuse(ctx, fifo, "FIFO") + both_refuse(ctx, loop, str(loop))


@case
def app_pseudo_file(ctx):
    return both_refuse(ctx, Path("/proc/self/status"), "not an ELF object or archive")


@case
def huge_sparse_inputs_refused_before_reading(ctx):
    import time
    problems = []
    app = ctx.tmp / "ten-gib"
    with open(app, "wb") as f:
        f.truncate(10 << 30)
    policy = ctx.tmp / "policy.json"
    with open(policy, "wb") as f:
        f.truncate(1 << 30)
    for args, needle in ((ctx.gate(app), "larger than"), (ctx.audit(app), "larger than"),
                         (["check", "--policy", str(policy)], "larger than"),
                         (["diff", str(policy), str(policy)], "larger than")):
        start = time.monotonic()
        problems += ctx.expect(args, 2, [needle])
        took = time.monotonic() - start
        if took > 5:
            problems.append(f"{args[0]}: {took:.1f} s: the file was read, not refused by its size")
    return problems


@case
def policy_duplicate_control_key(ctx):
    p = write(ctx.tmp / "policy.json", '{"schema_version": 1, "x\\n\\u001b[2J": 1, "x\\n\\u001b[2J": 2}')
    proc = ctx.run(["check", "--policy", str(p)])
    err = proc.stderr.decode(errors="replace")
    problems = [] if proc.returncode == 2 else [f"exit {proc.returncode}, expected 2"]
    if err.count("\n") != 1 or "\x1b" in err or "duplicate key" not in err:
        problems.append(f"the error is not one escaped line: {err!r}")
    return problems


@case
def diff_deep_duplicate_and_many_keys(ctx):
    import time
    a = ctx.run(["env", "--json", "--root", str(ctx.fixtures / "roots/complete-3.3")]).stdout.decode()
    deep = '{"k":' * 200 + '{"d": 1, "d": 2}' + "}" * 200
    # Inserted as the document's first member (the first "schema" key is inside x_rdmi_probe,
    # which diff ignores).
    def first(member):
        return "{" + member + ", " + a.lstrip()[1:]
    pb = write(ctx.tmp / "deep.json", first('"deep": ' + deep))
    pa = write(ctx.tmp / "a.json", a)
    problems = ctx.expect(["diff", str(pa), str(pb)], 2, ["deep.json", "/deep" + "/k" * 200 + "/d"])
    many = "{" + ",".join(f'"k{i}": {i}' for i in range(800_000)) + "}"
    pm = write(ctx.tmp / "many.json", first('"many_keys": ' + many))
    start = time.monotonic()
    # About 1 s of CPU (more under a sanitizer): the run's default 10 s deadline is a wall-clock
    # bound that a loaded machine can reach, and this case is about the answer, not the time.
    problems += ctx.expect(["diff", "--timeout", "120", str(pa), str(pm)], 1, [])
    print(f"    diff with 800,000 keys in one object (14 MB): {time.monotonic() - start:.2f} s")
    return problems


@case
def root_name_with_controls(ctx):
    root = ctx.tmp / "r\x1b]0;T\x07\nPASS  x"
    proc = ctx.run(["report", "--root", str(root)])
    err = proc.stderr.decode(errors="replace")
    problems = [] if proc.returncode == 2 else [f"exit {proc.returncode}, expected 2"]
    if err.count("\n") != 1 or "\x1b" in err or "\x07" in err:
        problems.append(f"the error is not one escaped line: {err!r}")
    return problems


def nobody_can_run(ctx):
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        return False
    return ctx.run(["--version"], as_nobody=True).returncode == 0


@case
def unreadable_root(ctx):
    if not nobody_can_run(ctx):
        return ["SKIP: needs root and setpriv"]
    os.chmod(ctx.tmp, 0o755)
    root = ctx.tmp / "locked"
    root.mkdir(mode=0o700)
    problems = ctx.expect(["report", "--root", str(root)], 2, [f"cannot read root {root}"], as_nobody=True)
    problems += ctx.expect(["report", "--json", "--root", str(root)], 2, ["cannot read root"], as_nobody=True)
    return problems


@case
def unreadable_infiniband_class(ctx):
    if not nobody_can_run(ctx):
        return ["SKIP: needs root and setpriv"]
    os.chmod(ctx.tmp, 0o755)
    root = ctx.tmp / "host"
    shutil.copytree(ctx.fixtures / "roots/both-host", root, symlinks=True)
    ib = root / "sys/class/infiniband"
    os.chmod(ib, 0o700)
    problems = []
    proc = ctx.run(["report", "--json", "--root", str(root)], as_nobody=True)
    doc = json.loads(proc.stdout)
    verdict = next((c for c in doc["checks"] if c["id"] == "rdmi-dpa-device"), None)
    if verdict is None or verdict["status"] != "skip":
        problems.append(f"rdmi-dpa-device is {verdict and verdict['status']}, expected skip")
    elif "/sys/class/infiniband" not in verdict["message"] or "permission denied" not in verdict["message"]:
        problems.append(f"rdmi-dpa-device does not name the path and the reason: {verdict['message']!r}")
    problems += ctx.expect(["check", "--root", str(root), "--require-port-active"], 3,
                           ["/sys/class/infiniband", "permission denied"], as_nobody=True)
    return problems


def main():
    return run_ctx_cases(CASES, Ctx, "rdmi-input-")


if __name__ == "__main__":
    sys.exit(main())
