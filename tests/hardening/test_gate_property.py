#!/usr/bin/python3
"""The CI gate never passes what it could not read: a property over mutants of an application
that calls experimental names.

    test_gate_property.py --binary PATH --fixtures DIR [--count N] [--seed S] [--keep DIR]

Each mutant is the fixture application (the object as an archive member, and the linked
executable) with ELF header fields, section header fields or bytes changed, or cut short
(the shapes of the fuzz and corrupt-input corpora, drawn from a fixed seed). For every mutant:

* `check --app M --forbid-experimental` runs against the complete-3.3 prefix;
* `symbols --lib LIB --check M --json` gives the reader's own view: the application's doca_*
  dependencies and the archive members it could not read.

Properties:
1. whenever the reader reports a gap (an unread member, or M refused as unreadable), the gate
   does not exit 0 (it exits 1, 2 or 3), and an unread member is named in the gate's output;
2. whenever the reader reads M completely, its doca_* dependencies are exactly the undefined
   doca_* symbols readelf (binutils, an independent reader) lists, and the gate's
   app-experimental verdict is "fail" exactly when one of them is experimental in LIB.
Exits 1 with the first counterexamples (kept under --keep) when a property breaks.
"""

import argparse
import json
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

PREFIX = "prefixes/complete-3.3"
LIB = "lib/x86_64-linux-gnu/libdoca_rdmi.so"


# ---- ELF64 little-endian layout (the fixtures are x86_64) ----------------------------------

EHDR = {"e_shoff": (0x28, "<Q"), "e_shentsize": (0x3A, "<H"), "e_shnum": (0x3C, "<H"),
        "e_shstrndx": (0x3E, "<H"), "e_phoff": (0x20, "<Q"), "e_phnum": (0x38, "<H"),
        "e_ehsize": (0x34, "<H")}
SHDR = {"sh_name": (0, "<I"), "sh_type": (4, "<I"), "sh_offset": (24, "<Q"),
        "sh_size": (32, "<Q"), "sh_link": (40, "<I"), "sh_info": (44, "<I"),
        "sh_entsize": (56, "<Q")}
INTERESTING = [0, 1, 2, 0x7F, 0xFF, 0xFFFF, 0xFF00, 0xFFFFFFFF, 1 << 31, 1 << 40, (1 << 64) - 1]


def field_max(fmt):
    return (1 << (8 * struct.calcsize(fmt))) - 1


def get(data, offset, fmt):
    return struct.unpack_from(fmt, data, offset)[0]


def put(data, offset, fmt, value):
    struct.pack_into(fmt, data, offset, value & field_max(fmt))


def sections(data):
    shoff, shnum = get(data, 0x28, "<Q"), get(data, 0x3C, "<H")
    return [shoff + 64 * i for i in range(shnum)]


def to_extended_numbering(data, strndx_too):
    """A valid rewrite: e_shnum 0 and the count in section 0's sh_size (and e_shstrndx
    SHN_XINDEX with the index in section 0's sh_link), as gABI allows and readelf reads."""
    shoff, shnum, strndx = get(data, 0x28, "<Q"), get(data, 0x3C, "<H"), get(data, 0x3E, "<H")
    put(data, 0x3C, "<H", 0)
    put(data, shoff + 32, "<Q", shnum)
    if strndx_too:
        put(data, 0x3E, "<H", 0xFFFF)
        put(data, shoff + 40, "<I", strndx)


def mutate(rng, original):
    data = bytearray(original)
    kind = rng.choice(["ehdr", "ehdr", "shdr", "shdr", "shdr", "bytes", "truncate", "extended",
                       "extended-broken"])
    if kind == "ehdr":
        name = rng.choice(sorted(EHDR))
        offset, fmt = EHDR[name]
        value = rng.choice(INTERESTING + [rng.randrange(field_max(fmt) + 1)])
        put(data, offset, fmt, value)
        return bytes(data), f"{name}={value:#x}"
    if kind == "shdr":
        index = rng.randrange(len(sections(data)))
        name = rng.choice(sorted(SHDR))
        offset, fmt = SHDR[name]
        value = rng.choice(INTERESTING + [rng.randrange(field_max(fmt) + 1),
                                          get(data, sections(data)[index] + offset, fmt) + 1])
        put(data, sections(data)[index] + offset, fmt, value)
        return bytes(data), f"section {index} {name}={value:#x}"
    if kind == "bytes":
        spots = []
        for _ in range(rng.randint(1, 8)):
            at = rng.randrange(len(data))
            data[at] = rng.randrange(256)
            spots.append(at)
        return bytes(data), f"bytes at {spots}"
    if kind == "truncate":
        at = rng.randrange(len(data))
        return bytes(data[:at]), f"cut at {at}"
    strndx = rng.random() < 0.5
    to_extended_numbering(data, strndx)
    if kind == "extended":
        return bytes(data), f"extended numbering (shstrndx too: {strndx})"
    # The shape: e_shnum 0 and a section 0 count that is absurd or zero.
    value = rng.choice([0, 0xFFFFFFFF, 1, get(data, sections_count_offset(data), "<Q") + 1])
    put(data, sections_count_offset(data), "<Q", value)
    return bytes(data), f"extended numbering, section 0 sh_size={value:#x}"


def sections_count_offset(data):
    return get(data, 0x28, "<Q") + 32


def archive(members):
    """An `ar` archive written by hand (no symbol index: the member headers carry sizes)."""
    out = bytearray(b"!<arch>\n")
    for name, data in members:
        header = f"{name + '/':<16}{0:<12}{0:<6}{0:<6}{644:<8}{len(data):<10}`\n"
        out += header.encode()
        out += data
        if len(data) % 2:
            out += b"\n"
    return bytes(out)


# ---- the independent reading ----------------------------------------------------------------

# readelf names a type or binding outside the spec's list as "<processor specific>: 15",
# "<OS specific>: 11" or "<unknown>: 4", adds " [<other>: 8]" after the visibility when other
# bits of st_other are set, and shows an OS-specific section index as "OS [0xff20]".
ODD = r"<[^>]*>: \d+"
SYMBOL_LINE = re.compile(rf"^\s*\d+:\s+[0-9a-f]+\s+\S+\s+(?:{ODD}|\S+)\s+({ODD}|\S+)\s+"
                         r"\S+(?: \[[^\]]*\])?\s+(OS \[0x[0-9a-f]+\]|\S+)\s+(\S.*)$")


def as_readelf_shows(name):
    """readelf prints a control character in a name as ^X."""
    return "".join("^" + chr(ord(c) + 64) if ord(c) < 0x20 else c for c in name)


def readelf_needs(path, dynamic):
    """The undefined doca_* names readelf lists (.dynsym for a linked file, .symtab for
    objects), and whether readelf read the file without complaint."""
    flag = "--dyn-syms" if dynamic else "--syms"
    proc = subprocess.run(["readelf", "-W", flag, str(path)], capture_output=True, timeout=60)
    err = proc.stderr.decode(errors="replace")
    clean = proc.returncode == 0 and not re.search(r"(?i)\b(error|warning)\b", err)
    names = set()
    defined = set()
    out = proc.stdout.decode(errors="replace")
    # readelf shows versions only when it finds the version tables through the program
    # headers; without them a copy-relocated symbol looks like a plain definition.
    versions_shown = "@" in out
    for line in out.splitlines():
        m = SYMBOL_LINE.match(line)
        if not m:
            continue
        binding, ndx, shown = m.group(1), m.group(2), m.group(3)
        # Any binding but LOCAL: a linker resolves an undefined symbol of a binding it does
        # not know (say "<processor specific>: 15" on x86-64) as it resolves a global one.
        if binding == "LOCAL":
            continue
        # Needed: undefined, or defined here by a copy relocation, which carries the version
        # it needs from another file ("name@VER", one '@'; a definition of its own is "@@").
        needed = ndx == "UND" or (dynamic and "@" in shown and "@@" not in shown)
        name = shown.split("@", 1)[0]
        if needed and name.startswith("doca_"):
            names.add(name)
        elif ndx != "UND":
            defined.add(name)
    return clean, names, (defined if dynamic and not versions_shown else set())


class Runner:
    def __init__(self, binary, fixtures):
        self.binary = binary
        self.prefix = fixtures / PREFIX
        self.lib = self.prefix / LIB

    def run(self, args):
        proc = subprocess.run([str(self.binary), *args], capture_output=True, timeout=120)
        return proc

    def gate(self, app):
        proc = self.run(["check", "--json", "--doca-prefix", str(self.prefix), "--app", str(app),
                         "--forbid-experimental"])
        doc = json.loads(proc.stdout) if proc.stdout.strip() else None
        return proc.returncode, doc, proc.stderr.decode(errors="replace")

    def reader(self, app):
        proc = self.run(["symbols", "--json", "--lib", str(self.lib), "--check", str(app)])
        doc = json.loads(proc.stdout) if proc.stdout.strip() else None
        return proc.returncode, doc

    def experimental_names(self):
        proc = self.run(["symbols", "--json", "--lib", str(self.lib), "--prefix", "doca_"])
        doc = json.loads(proc.stdout)
        return {s["name"] for s in doc["symbols"] if s["stability"] == "experimental"}


def check_mutant(runner, path, dynamic, experimental):
    """The list of broken properties for one mutant, and a one-word outcome."""
    problems = []
    gate_exit, gate_doc, gate_err = runner.gate(path)
    reader_exit, reader_doc = runner.reader(path)
    app = (reader_doc or {}).get("application") if reader_exit != 2 else None
    unread = (app or {}).get("unread_members", [])
    gap = reader_exit == 2 or app is None or bool(unread)
    if gap:
        if gate_exit == 0:
            problems.append(f"reader reports a gap ({unread or 'unreadable'}) but the gate exits 0")
        if unread and gate_doc:
            text = json.dumps(gate_doc)
            member = unread[0].split(":", 1)[0]
            if member not in text:
                problems.append(f"unread member {member} not named by the gate")
        if gate_exit == 2 and reader_exit != 2:
            problems.append("gate refuses the input, symbols --check does not")
        return problems, "gap"
    clean, names, unversioned_defined = readelf_needs(path, dynamic)
    # When readelf could not show versions, a copy relocation is not visible to it: those
    # names are compared as what readelf can see (defined here).
    ours = {as_readelf_shows(d["name"]) for d in app["dependencies"]} - unversioned_defined
    if ours != names:
        problems.append(f"dependencies differ from readelf (readelf clean: {clean}): "
                        f"only ours {sorted(ours - names)}, only readelf {sorted(names - ours)}")
    expected_fail = bool(names & experimental)
    checks = {c["name"]: c["status"] for c in (gate_doc or {}).get("checks", [])}
    if (checks.get("app-experimental") == "fail") != expected_fail:
        problems.append(f"app-experimental {checks.get('app-experimental')}, readelf says "
                        f"experimental calls {sorted(names & experimental)}")
    if gate_exit == 0 and expected_fail:
        problems.append("gate exits 0 with an experimental call")
    return problems, "read" if clean else "read (readelf warns)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True, type=Path)
    ap.add_argument("--fixtures", required=True, type=Path)
    ap.add_argument("--count", type=int, default=120, help="mutants per input")
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--keep", type=Path, help="copy counterexamples here")
    args = ap.parse_args()
    if not shutil.which("readelf"):
        print("SKIP: readelf (binutils) not installed")
        return 0
    runner = Runner(args.binary, args.fixtures)
    experimental = runner.experimental_names()
    if not experimental:
        print("FAIL: the fixture library has no experimental names to call")
        return 1
    app_dir = args.fixtures / "libs/app"
    archive_bytes = (app_dir / "librdmi_fixture_app.a").read_bytes()
    # The object inside the fixture archive (readelf reads it the same way from an archive).
    obj = extract_member(archive_bytes)
    inputs = [("archive", obj, True, False), ("executable", (app_dir / "rdmi_fixture_app").read_bytes(),
                                             False, True)]
    rng = random.Random(args.seed)
    failures = []
    tally = {}
    with tempfile.TemporaryDirectory(prefix="rdmi-gate-") as tmp:
        tmp = Path(tmp)
        # The intact inputs first: the properties hold on them and the gate fails them.
        for label, data, as_member, dynamic in inputs:
            for n in range(args.count + 1):
                mutant, how = (data, "intact") if n == 0 else mutate(rng, data)
                path = tmp / f"{label}-{n}" / ("app.a" if as_member else "app")
                path.parent.mkdir()
                if as_member:
                    # A second, intact member that needs nothing: a broken member must not be
                    # hidden by a readable one.
                    path.write_bytes(archive([("helper.o", helper_object(obj)), ("rdmi_app.o", mutant)]))
                else:
                    path.write_bytes(mutant)
                problems, outcome = check_mutant(runner, path, dynamic, experimental)
                if n == 0 and outcome != "read":
                    problems.append(f"the intact {label} does not read cleanly ({outcome})")
                tally[(label, outcome)] = tally.get((label, outcome), 0) + 1
                if problems:
                    failures.append((label, n, how, problems))
                    if args.keep:
                        args.keep.mkdir(parents=True, exist_ok=True)
                        shutil.copy(path, args.keep / f"{label}-{n}{path.suffix}")
    for (label, outcome), count in sorted(tally.items()):
        print(f"{label:10s} {outcome:22s} {count}")
    for label, n, how, problems in failures[:20]:
        print(f"FAIL {label} mutant {n} ({how}):")
        for p in problems:
            print(f"    {p}")
    print(f"{sum(tally.values())} mutants (seed {args.seed}, {args.count} per input), "
          f"{len(failures)} broke a property")
    return 1 if failures else 0


def extract_member(archive_bytes):
    """The first ELF member of an `ar` archive."""
    at = 8
    while at + 60 <= len(archive_bytes):
        size = int(archive_bytes[at + 48:at + 58].decode().strip())
        data = archive_bytes[at + 60:at + 60 + size]
        if data.startswith(b"\x7fELF"):
            return data
        at += 60 + size + (size % 2)
    raise SystemExit("no ELF member in the fixture archive")


def helper_object(obj):
    """The object with every doca_ name renamed (same length) so it needs nothing from DOCA:
    an intact member beside the mutated one."""
    return obj.replace(b"doca_", b"xoca_")


if __name__ == "__main__":
    sys.exit(main())
