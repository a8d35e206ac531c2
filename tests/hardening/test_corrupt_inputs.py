#!/usr/bin/python3
"""The corrupted-input suite: each case builds one broken input, runs rdmi-probe on it with
--json, and asserts the contract: the documented exit code, one valid JSON document (validated
against its schema), a one-line message naming the broken file, no crash or sanitizer report.

    test_corrupt_inputs.py --binary PATH --fixtures DIR --source DIR [-k SUBSTRING] [--list]

Categories: elf (symbols --lib: exit 2 and an error document), pc (report --root: the module
check fails, exit 1), header (symbols --headers: notes, exit 0), sysfs (report --root: a gap
on the attribute), ldcache (symbols --root with a hostile /etc/ld.so.cache: a loader note, exit
0, within an address-space bound). A FIFO in a .pc file's or a sysfs attribute's place is
test_hangs.py's (pc-fifo, sysfs-fifo). JSON inputs are covered elsewhere: tests/unit/json/json_input_test.cpp (the
bounded parser), tests/contract/test_diff_inputs.py (diff's inputs) and
tests/unit/context/wire_json_test.cpp (the forked children's answers). Exits 1 when any case
breaks the contract.
"""

import argparse
import json
import os
import pwd
import re
import resource
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import jsonschema
except ImportError:  # validation is skipped, everything else still runs
    jsonschema = None

CASES = []


def case(name, category):
    def register(fn):
        CASES.append((name, category, fn))
        return fn
    return register


# ---- ELF: symbols --lib FILE -> exit 2, error document naming FILE -------------------------

def elf_case(name, mutate, needle):
    @case(f"elf-{name}", "elf")
    def run(ctx):
        lib = ctx.tmp / "libdoca_rdmi.so"
        data = bytearray(ctx.good_lib.read_bytes())
        result = mutate(data, lib)
        if result is not None:
            lib.write_bytes(result)
        return ctx.expect_error(["symbols", "--lib", str(lib)], str(lib), needle)


def patch(offset, fmt, value):
    def mutate(data, _):
        struct.pack_into(fmt, data, offset, value)
        return bytes(data)
    return mutate


def truncate_at(n):
    return lambda data, _: bytes(data[:n])


elf_case("empty", truncate_at(0), "empty")
elf_case("truncated-ident", truncate_at(10), "")
elf_case("truncated-ehdr", truncate_at(40), "")
elf_case("truncated-phdrs", truncate_at(100), "")
elf_case("truncated-half", lambda d, _: bytes(d[: len(d) // 2]), "")
elf_case("wrong-class", patch(4, "B", 7), "")
elf_case("wrong-byte-order", patch(5, "B", 9), "")
elf_case("shoff-past-end", patch(0x28, "<Q", 1 << 40), "")
elf_case("absurd-shnum", patch(0x3C, "<H", 0xFFFF), "")
elf_case("shstrndx-past-table", patch(0x3E, "<H", 0xFFF0), "")
elf_case("phoff-past-end", patch(0x20, "<Q", 1 << 40), "")
elf_case("not-elf-text", lambda d, _: b"INPUT(-lfoo)\n", "")
elf_case("random-bytes", lambda d, _: os.urandom(4096), "")


@case("elf-directory", "elf")
def _(ctx):
    lib = ctx.tmp / "libdoca_rdmi.so"
    lib.mkdir()
    return ctx.expect_error(["symbols", "--lib", str(lib)], str(lib), "")


@case("elf-fifo", "elf")
def _(ctx):
    lib = ctx.tmp / "libdoca_rdmi.so"
    os.mkfifo(lib)
    return ctx.expect_error(["symbols", "--lib", str(lib)], str(lib), "FIFO")


@case("elf-dangling-link", "elf")
def _(ctx):
    lib = ctx.tmp / "libdoca_rdmi.so"
    os.symlink("nowhere.so", lib)
    return ctx.expect_error(["symbols", "--lib", str(lib)], str(lib), "")


@case("elf-archive-truncated", "elf")
def _(ctx):
    lib = ctx.tmp / "libdoca_rdmi.a"
    data = ctx.good_archive.read_bytes()
    lib.write_bytes(data[: len(data) - 100])
    return ctx.expect_error(["symbols", "--lib", str(ctx.good_lib), "--check", str(lib)], str(lib), "truncated")


# ---- .pc: report --root with a broken doca-common.pc -> module-doca-common fails ----------

PC_DIR = "opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig"
GOOD_PC_HEAD = "prefix=/opt/mellanox/doca\nName: doca-common\nDescription: x\nVersion: 3.3.0105\n"


def pc_case(name, make, needle="", as_user=None):
    @case(f"pc-{name}", "pc")
    def run(ctx):
        root = ctx.copy_root("complete-3.3")
        pc = root / PC_DIR / "doca-common.pc"
        if pc.is_symlink() or pc.exists():
            pc.unlink()
        make(pc)
        return ctx.expect_gap(["report", "--root", str(root)], "doca-common.pc", needle,
                              exit_code=1, check=("module-doca-common", "fail"), as_user=as_user)


def bind_socket(path):
    # AF_UNIX paths are limited to 108 bytes: bind by a relative name from the directory.
    here = os.getcwd()
    os.chdir(path.parent)
    try:
        socket.socket(socket.AF_UNIX).bind(path.name)
    finally:
        os.chdir(here)


def write(content):
    def make(path):
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return make


pc_case("empty", write(b""), "empty")
pc_case("nul-byte", write(GOOD_PC_HEAD + "Libs: -L\0/x\n"), "NUL")
pc_case("1mb-line", write(GOOD_PC_HEAD + "Cflags: " + "x" * (1 << 20) + "\n"), "")


@case("pc-non-utf8-accepted", "pc")
def _(ctx):
    # pkg-config takes bytes: non-UTF-8 in a value is accepted, as pkg-config does; the JSON
    # document must stay valid UTF-8 (the writer replaces what is not).
    root = ctx.copy_root("complete-3.3")
    pc = root / PC_DIR / "doca-common.pc"
    text = pc.read_bytes()
    pc.unlink()
    pc.write_bytes(text + b"\nx_junk=\xff\xfe\xc3\x28\n")
    proc, doc, problems = ctx.run(["report", "--root", str(root)])
    if proc.returncode != 0:
        problems.append(f"exit {proc.returncode}, expected 0")
    return ("accepted, document valid" if not problems else ""), problems


pc_case("variable-recursion", write("a=${b}\nb=${a}\n" + GOOD_PC_HEAD + "Cflags: ${a}\n"), "")
pc_case("no-version", write("Name: doca-common\nDescription: x\n"), "")
pc_case("10mb", write(GOOD_PC_HEAD + ("# junk\n" * (10 << 17))), "")
pc_case("directory", lambda p: p.mkdir(), "")
pc_case("socket", bind_socket, "")
pc_case("dangling-link", lambda p: os.symlink("gone.pc", p), "")
pc_case("looping-link", lambda p: (os.symlink("loop.pc", p), os.symlink("doca-common.pc", p.parent / "loop.pc")), "")


def unreadable(path):
    path.write_text(GOOD_PC_HEAD)
    path.chmod(0o000)


pc_case("unreadable", unreadable, "", as_user="nobody")


# ---- headers: symbols --lib GOOD --headers DIR with broken headers -> notes, exit 0 ------

def header_case(name, text, needle, exit_code=0):
    @case(f"header-{name}", "header")
    def run(ctx):
        inc = ctx.tmp / "include"
        shutil.copytree(ctx.source / "tests/fixtures/libs/include", inc)
        (inc / "doca_rdmi_broken.h").write_bytes(text)
        return ctx.expect_document(["symbols", "--lib", str(ctx.unversioned_lib), "--headers", str(inc)],
                                   "doca_rdmi_broken.h", needle, exit_code=exit_code)


header_case("unterminated-comment", b"/* never closed\nint doca_rdmi_x(void);\n", "unterminated comment")
# doca_rdmi_filler is declared and not exported: the document's result is fail, so exit 1.
header_case("100k-lines", b"int doca_rdmi_filler(void);\n" * 100000 + b"/* open", "unterminated comment",
            exit_code=1)
header_case("binary", os.urandom(8192).replace(b"*/", b"..") + b"/*", "unterminated")


def header_file_case(name, make, needle):
    # A name ending in .h that is no header: skipped, but with a gap naming it (its declarations
    # are missing for a reason), exit 0.
    @case(f"header-{name}", "header")
    def run(ctx):
        inc = ctx.tmp / "include"
        shutil.copytree(ctx.source / "tests/fixtures/libs/include", inc)
        make(inc / "doca_rdmi_broken.h")
        proc, doc, problems = ctx.run(["symbols", "--lib", str(ctx.unversioned_lib), "--headers", str(inc)])
        if proc.returncode != 0:
            problems.append(f"exit {proc.returncode}, expected 0")
        files = ((doc or {}).get("headers") or {}).get("files") or []
        gap = next((f.get("gap") or {} for f in files if f.get("path", "").endswith("/doca_rdmi_broken.h")), {})
        message = gap.get("message", "")
        check_message(message, "doca_rdmi_broken.h", needle, problems)
        return message, problems


header_file_case("fifo", lambda p: os.mkfifo(p), "FIFO")
header_file_case("directory", lambda p: p.mkdir(), "directory")
header_file_case("socket", bind_socket, "socket")
header_file_case("dangling-link", lambda p: os.symlink("gone.h", p), "no such file")


@case("header-cr-line-ends", "header")
def _(ctx):
    # Headers with classic Mac line ends (a lone \r), which GCC and Clang compile: the same
    # verdicts as with \n, and an experimental call of an object (no symbol versions: the headers
    # are its only evidence) still fails the audit. Read as one line, they declared nothing.
    verdicts = {}
    problems = []
    for style, ending in (("lf", b"\n"), ("cr", b"\r")):
        inc = ctx.tmp / f"include-{style}"
        inc.mkdir()
        for header in (ctx.source / "tests/fixtures/libs/include").glob("*.h"):
            (inc / header.name).write_bytes(header.read_bytes().replace(b"\n", ending))
        proc, doc, found = ctx.run(["symbols", "--lib", str(ctx.unversioned_lib), "--headers", str(inc),
                                    "--check", str(ctx.cfg.fixtures / "libs/app/librdmi_fixture_app.a")])
        problems += [f"{style}: {p}" for p in found]
        if proc.returncode != 1:
            problems.append(f"{style}: exit {proc.returncode}, expected 1")
        checks = {c["id"]: c for c in (doc or {}).get("checks", [])}
        if checks.get("app-experimental", {}).get("status") != "fail":
            problems.append(f"{style}: app-experimental is {checks.get('app-experimental', {}).get('status')}")
        verdicts[style] = ((doc or {}).get("symbols"), checks.get("app-experimental", {}).get("message", ""))
    if verdicts["lf"][0] != verdicts["cr"][0]:
        problems.append("the verdicts differ between \\n and \\r line ends")
    return verdicts["cr"][1], problems


# ---- sysfs: report --root with a broken mlx5_0/fw_ver -> a gap naming the file -----------

def sysfs_case(name, make, as_user=None):
    @case(f"sysfs-{name}", "sysfs")
    def run(ctx):
        root = ctx.copy_sysfs("cx6dx")
        fw = next((root / "sys/class/infiniband/mlx5_0").resolve().glob("fw_ver"))
        fw.unlink()
        make(fw)
        return ctx.expect_gap(["report", "--root", str(root)], "fw_ver", "",
                              exit_code=None, pointer="/devices/rdma_devices/0/fw_ver/gap", as_user=as_user)


sysfs_case("empty", write(b""))
sysfs_case("binary", write(b"\xde\xad\x00\xbe\xef\n"))
sysfs_case("10mb", write(b"1" * (10 << 20)))
sysfs_case("multi-line", write(b"28.39.1002\n28.39.1003\n"))
sysfs_case("socket", bind_socket)
sysfs_case("directory", lambda p: p.mkdir())
sysfs_case("dangling-link", lambda p: os.symlink("gone", p))
sysfs_case("looping-link", lambda p: (os.symlink("fw_loop", p), os.symlink("fw_ver", p.parent / "fw_loop")))


def unreadable_fw(path):
    path.write_text("28.39.1002\n")
    path.chmod(0o000)


sysfs_case("unreadable", unreadable_fw, as_user="nobody")


# ---- ld.so.cache: symbols --root with a hostile /etc/ld.so.cache -> a note, exit 0 --------

def hostile_ld_cache(size, hwcap, nul_every=None):
    """A cache of `size` bytes whose entries fill its first half and all name libdoca_rdmi.so.3,
    each with a path into one run of 'A's that fills the second half (a NUL every `nul_every`
    bytes, else only at the end)."""
    half = size // 2
    count = (half - 48) // 24
    data = bytearray(b"A" * size)
    data[:half] = bytes(half)
    data[:20] = b"glibc-ld.so.cache1.1"
    struct.pack_into("<II", data, 20, count, size - half)
    data[28] = 2
    name = b"libdoca_rdmi.so.3\0"
    data[half:half + len(name)] = name
    run = half + len(name)
    if nul_every:
        data[run + nul_every::nul_every] = bytes(len(range(run + nul_every, size, nul_every)))
    data[-1] = 0
    span = size - run - 2 * (nul_every or 1)
    for i in range(count):
        struct.pack_into("<iIIIQ", data, 48 + 24 * i, 0x0303, half, run + (i * 8) % span, 0, hwcap)
    return bytes(data)


def ld_cache_case(name, make, needle):
    @case(f"ldcache-{name}", "ldcache")
    def run(ctx):
        root = ctx.copy_root("complete-3.3")
        (root / "etc/ld.so.cache").write_bytes(make())
        # The address-space bound is what fails a run that copies the cache's strings per
        # entry (gigabytes for these files); a sanitizer's shadow memory needs more than it.
        memory = None if ctx.cfg.sanitized else 1 << 30
        proc, doc, problems = ctx.run(["symbols", "--root", str(root)], memory=memory)
        if proc.returncode != 0:
            problems.append(f"exit {proc.returncode}, expected 0: {proc.stderr.decode(errors='replace')[-300:]}")
        notes = ((doc or {}).get("loader") or {}).get("notes") or []
        message = next((n for n in notes if needle in n), "")
        if not message:
            problems.append(f"no loader note saying {needle!r}: {[n[:100] for n in notes[:3]]}")
        if len(notes) > 16:
            problems.append(f"{len(notes)} loader notes")
        return message, problems


# 1 MiB: 20,000 entries each naming a string that runs to the end of the file (up to 512 KiB).
ld_cache_case("long-strings", lambda: hostile_ld_cache(1 << 20, 0), "4095 bytes")
# 8 MiB: 170,000 hwcaps variants of the soname, each a path of under 4 KiB.
ld_cache_case("many-variants", lambda: hostile_ld_cache(8 << 20, 1, 4000), "more hwcaps variants")


# ---- the runner ----------------------------------------------------------------------------

class Context:
    def __init__(self, cfg, tmp):
        self.cfg = cfg
        self.tmp = tmp
        self.source = cfg.source
        libs = cfg.fixtures / "libs"
        self.good_lib = libs / "versioned/libdoca_rdmi.so"
        self.unversioned_lib = libs / "unversioned/libdoca_rdmi.so"
        self.good_archive = next(libs.rglob("*.a"))
        self.schemas = {}
        for path in (cfg.source / "schemas").glob("*.schema.json"):
            schema = json.loads(path.read_text())
            self.schemas[schema["$id"]] = schema

    def copy_root(self, scenario):
        root = self.tmp / "root"
        shutil.copytree(self.cfg.fixtures / "roots" / scenario, root, symlinks=True)
        return root

    def copy_sysfs(self, scenario):
        root = self.tmp / "root"
        shutil.copytree(self.cfg.fixtures / "sysfs" / scenario, root, symlinks=True)
        return root

    def run(self, args, as_user=None, memory=None):
        env = {k: v for k, v in os.environ.items() if k in ("PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")}
        preexec = None
        if as_user and os.geteuid() == 0:
            entry = pwd.getpwnam(as_user)
            os.chmod(self.tmp, 0o755)

            def preexec():
                os.setgroups([])
                os.setgid(entry.pw_gid)
                os.setuid(entry.pw_uid)
        elif memory is not None:
            def preexec():
                resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        # --timeout bounds the whole run (the watchdog ends it 1 s later); these cases test
        # corrupt inputs, not time, and a sanitized build on a loaded machine is slow.
        proc = subprocess.run([str(self.cfg.binary), *args, "--json", "--timeout", "30"], env=env,
                              capture_output=True, timeout=60, preexec_fn=preexec, stdin=subprocess.DEVNULL)
        problems = []
        if proc.returncode < 0 or proc.returncode > 3:
            problems.append(f"exit code {proc.returncode} (signal or crash)")
        err = proc.stderr.decode(errors="replace")
        if "Sanitizer" in err or "runtime error:" in err:
            problems.append("sanitizer report: " + err[-1500:])
        try:
            doc = json.loads(proc.stdout)
        except ValueError as e:
            return proc, None, problems + [f"stdout is not one JSON document: {e}"]
        schema = self.schemas.get(doc.get("schema"))
        if schema is None:
            problems.append(f"unknown schema {doc.get('schema')!r}")
        elif jsonschema is not None:
            try:
                jsonschema.validate(doc, schema)
            except jsonschema.ValidationError as e:
                problems.append(f"schema: {e.message}")
        return proc, doc, problems

    def expect_error(self, args, file, needle):
        proc, doc, problems = self.run(args)
        if proc.returncode != 2:
            problems.append(f"exit {proc.returncode}, expected 2")
        if doc is not None:
            message = doc.get("error", {}).get("message", "")
            check_message(message, file, needle, problems)
            lines = proc.stderr.decode(errors="replace").splitlines()
            if len(lines) != 1:
                problems.append(f"{len(lines)} lines on stderr, expected 1")
            return message, problems
        return "", problems

    def expect_gap(self, args, file, needle, exit_code, check=None, pointer=None, as_user=None):
        proc, doc, problems = self.run(args, as_user)
        if exit_code is not None and proc.returncode != exit_code:
            problems.append(f"exit {proc.returncode}, expected {exit_code}")
        message = ""
        if doc is not None:
            if check:
                found = {c["id"]: c["status"] for c in doc.get("checks", [])}
                if found.get(check[0]) != check[1]:
                    problems.append(f"check {check[0]} is {found.get(check[0])}, expected {check[1]}")
            if pointer:
                node = doc
                for part in pointer.strip("/").split("/"):
                    node = node[int(part)] if isinstance(node, list) else (node or {}).get(part)
                message = (node or {}).get("message", "") if isinstance(node, dict) else ""
                if not message:
                    problems.append(f"no gap at {pointer}")
            else:
                message = next((s for s in strings(doc) if file in s and ":" in s), "")
            check_message(message, file, needle, problems)
        return message, problems

    def expect_document(self, args, file, needle, exit_code):
        proc, doc, problems = self.run(args)
        if proc.returncode != exit_code:
            problems.append(f"exit {proc.returncode}, expected {exit_code}")
        message = next((f"{path}: {note}" for path, note in notes(doc) if file in path and needle in note), "")
        check_message(message, file, needle, problems)
        return message, problems


def notes(node):
    """(path, note) pairs of every object with a "path" and a "notes" list."""
    if isinstance(node, dict):
        if isinstance(node.get("path"), str) and isinstance(node.get("notes"), list):
            for note in node["notes"]:
                yield node["path"], str(note)
        for v in node.values():
            yield from notes(v)
    elif isinstance(node, list):
        for v in node:
            yield from notes(v)


def strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from strings(v)


def check_message(message, file, needle, problems):
    if not message:
        problems.append(f"no message naming {file}")
        return
    if "\n" in message:
        problems.append("message spans several lines")
    if file not in message:
        problems.append(f"message does not name {file}: {message!r}")
    if needle and needle.lower() not in message.lower():
        problems.append(f"message does not say {needle!r}: {message!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", type=Path, required=True)
    parser.add_argument("--fixtures", type=Path, required=True)
    parser.add_argument("--source", type=Path, required=True)
    parser.add_argument("-k", action="append", default=[])
    parser.add_argument("--list", action="store_true", help="print CATEGORY NAME lines and exit")
    parser.add_argument("--markdown", action="store_true", help="print the results as a Markdown table")
    parser.add_argument("--sanitized", action="store_true",
                        help="the binary is built with sanitizers: no address-space bound")
    cfg = parser.parse_args()
    if cfg.list:
        for name, category, _ in CASES:
            print(category, name)
        return 0
    cfg.binary, cfg.fixtures, cfg.source = cfg.binary.resolve(), cfg.fixtures.resolve(), cfg.source.resolve()
    scratch = cfg.fixtures.parent / "hardening-tmp"
    scratch.mkdir(exist_ok=True)
    scratch.chmod(0o755)
    failed = 0
    rows = []
    for name, category, fn in CASES:
        if cfg.k and not any(k in name for k in cfg.k):
            continue
        with tempfile.TemporaryDirectory(dir=scratch) as t:
            tmp = Path(t)
            tmp.chmod(0o755)
            try:
                message, problems = fn(Context(cfg, tmp))
            except Exception as e:  # a broken case is a failure, not a crash of the suite
                message, problems = "", [f"case raised {type(e).__name__}: {e}"]
            finally:
                subprocess.run(["chmod", "-R", "u+rwx", t], check=False)
        failed += bool(problems)
        short = re.sub(r"/\S*/hardening-tmp/tmp\w+", "…", message)[:140]
        rows.append((category, name, "PASS" if not problems else "FAIL", short))
        print(f"{'PASS' if not problems else 'FAIL'} {name}: {short}")
        for p in problems:
            print(f"    {p}")
    if cfg.markdown:
        print("\n| category | case | result | message |\n|---|---|---|---|")
        for row in rows:
            print("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |")
    print(f"{len(rows) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
