#!/usr/bin/python3
"""Terminal injection: a fixture root full of control characters goes through every human
format, and nothing in it reaches the terminal as a control.

    test_terminal_output.py --binary PATH --fixtures DIR --source DIR

The root is both-host (DOCA 3.3 + a BlueField-3 host) plus a device whose rdma name holds a
line feed and a forged "PASS  rdmi-dpa-device  all good" line, a netdev, fw_ver, VERSION and
a .pc Version holding ESC ]0;TITLE BEL (set the title), ESC [2J (clear the screen), C1 CSI
(U+009B), a bidi override and bytes that are not UTF-8; the root's own directory name holds
them too, and so does the PCI bridge above a slot-limited function (pcie-link names it).
Formats: report (plain, -v, --color always), env, caps, state, symbols -v, check (text, JUnit,
GitHub), diff (text), loopback (text) and the progress line on a terminal.

Every output must be valid UTF-8 with no C0 control but line feed and tab, no DEL, no C1
control and no ESC other than the program's own colour (SGR) sequences; no line may start
with the forged PASS; and the hostile strings must be there, escaped (so the test cannot pass
by not showing them). JSON output of the same root must keep the exact bytes (as JSON
escapes). Exits 1 when a format breaks a rule.
"""

import argparse
import json
import os
import pty
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from hardening_suite import load_sysfs_builder

FORGED = "PASS  rdmi-dpa-device  all good"
TITLE = "\x1b]0;OWNED\x07"
CLEAR = "\x1b[2J"
HOSTILE_IBDEV = "mlx5_\n" + FORGED
HOSTILE_NETDEV = "eth" + CLEAR + "\x9b" + "2J"
HOSTILE_FW = TITLE + "32.41.1000\u202e\x7f"
# A PCI bridge's directory name: only its ':' and '.' are where an address has them.
HOSTILE_PORT = b"\x1b[2J:\xff\xfe:\x07\n.\x9b"
SGR = re.compile(r"\x1b\[[0-9;]*m")
BAD = re.compile(r"[\x00-\x08\x0a-\x1f\x7f\x80-\x9f\u202a-\u202e\u2066-\u2069]")
ESCAPED = re.compile(r"\\x1b|\\n|\\u009b|\\u202e|\\x7f|\\xff")


def make_root(fixtures, source, tmp):
    root = tmp / ("root" + CLEAR + TITLE + "\n" + FORGED.replace(" ", "_"))
    shutil.copytree(fixtures / "roots/both-host", root, symlinks=True)
    sysfs = load_sysfs_builder(source)
    r = sysfs.Root(str(root))
    d = sysfs.add_pci_function(r, "0000:05:00.0", 0xA2DC, subsystem=(0x15B3, 0x0051))
    sysfs.add_netdev(r, d, HOSTILE_NETDEV, mtu=1500)
    sysfs.add_ibdev(r, d, HOSTILE_IBDEV, 0xA2DC, fw=HOSTILE_FW,
                    ports={1: dict(state="1: DOWN" + CLEAR)})
    # Bytes that are not UTF-8 in an attribute.
    (root / d.lstrip("/") / "infiniband" / HOSTILE_IBDEV / "board_id").write_bytes(
        b"MT_\xff\xfe" + b"\x1b[2J\n")
    version = root / "opt/mellanox/doca/applications/VERSION"
    if version.exists() or version.is_symlink():
        version.unlink()
    version.parent.mkdir(parents=True, exist_ok=True)
    version.write_bytes(("3.3.0105" + TITLE + CLEAR + "\n").encode())
    # A function trained below its card's maximum, below a bridge whose directory name holds ESC,
    # BEL, a line feed and bytes that are not UTF-8 in the shape of a PCI address: no PCI
    # address, so no port (its name would reach `lspci -s`); the verdict says no port is above it.
    port = os.fsdecode(HOSTILE_PORT)
    d = sysfs.add_pci_function(r, "0000:06:00.0", 0xA2DC, bridge=port)
    sysfs.add_link(r, d, ("16.0 GT/s PCIe", 8), ("32.0 GT/s PCIe", 16))
    sysfs.add_link(r, f"/sys/devices/pci0000:00/{port}", None, ("16.0 GT/s PCIe", 8))
    pc_dirs = [p for p in root.rglob("doca-common.pc")]
    if pc_dirs:
        (pc_dirs[0].parent / "doca-evil.pc").write_bytes(
            ("prefix=/opt/mellanox/doca\nName: doca-evil" + CLEAR + "\nDescription: x\nVersion: 1.0"
             + TITLE + CLEAR + "\u202e\x9b\n").encode() + b"Cflags: -I\xff\n")
    return root


def check_output(label, data, problems, want_escaped=True):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        problems.append(f"{label}: not valid UTF-8 ({e})")
        return
    plain = SGR.sub("", text)
    for line in plain.split("\n"):
        bad = BAD.search(line)
        if bad:
            problems.append(f"{label}: raw control {bad.group()!r} in line {line[:120]!r}")
            return
        if line.lstrip().startswith(FORGED):
            problems.append(f"{label}: a forged line reached the output: {line!r}")
            return
    if want_escaped and not ESCAPED.search(plain):
        problems.append(f"{label}: no hostile string shown (escaped) at all; output: {plain[:300]!r}")


def run(binary, args, env):
    return subprocess.run([str(binary), *args], capture_output=True, timeout=120, env=env)


def progress_output(binary, args, env):
    """stderr of a run whose stderr is a terminal (so the progress line is drawn)."""
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen([str(binary), *args], stdout=subprocess.DEVNULL, stderr=slave,
                                env={**env, "TERM": "xterm"})
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        proc.wait(timeout=120)
    finally:
        os.close(master)
    return b"".join(chunks)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True, type=Path)
    ap.add_argument("--fixtures", required=True, type=Path)
    ap.add_argument("--source", required=True, type=Path)
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR",)}
    env["SOURCE_DATE_EPOCH"] = "1700000000"
    problems = []
    with tempfile.TemporaryDirectory(prefix="rdmi-tty-") as tmp:
        tmp = Path(tmp)
        root = make_root(args.fixtures, args.source, tmp)
        r = str(root)
        formats = {
            "report": ["report", "--root", r],
            "report -v": ["report", "-v", "--root", r],
            "report --color always": ["report", "-v", "--color", "always", "--root", r],
            "env": ["env", "--root", r],
            "caps": ["caps", "--root", r],
            "state": ["state", "--root", r],
            "symbols -v": ["symbols", "-v", "--root", r],
            "check": ["check", "--root", r, "--min-version", "3.3", "--require-device",
                      "--require-port-active", "--require-dpa"],
            "loopback": ["loopback", "--root", r],
        }
        for label, argv in formats.items():
            proc = run(args.binary, argv, env)
            if proc.returncode not in (0, 1, 3):
                problems.append(f"{label}: exit {proc.returncode}: {proc.stderr[-300:]!r}")
                continue
            # symbols and loopback show no probed device or root strings under --root.
            check_output(label, proc.stdout, problems,
                         want_escaped=label not in ("symbols -v", "loopback"))
        # diff: two saved documents whose strings hold the same bytes (as JSON escapes).
        a = run(args.binary, ["env", "--json", "--root", r], env)
        doc = json.loads(a.stdout)
        if not any(d.get("name") == HOSTILE_NETDEV for d in doc.get("devices", [])):
            problems.append("env --json: the hostile netdev name is not kept exactly in JSON")
        (tmp / "a.json").write_bytes(a.stdout)
        doc["host_kind"] = "x" + TITLE + "\n" + FORGED
        doc["hostile\n" + FORGED + CLEAR] = 1
        (tmp / "b.json").write_text(json.dumps(doc))
        proc = run(args.binary, ["diff", str(tmp / "a.json"), str(tmp / "b.json")], env)
        if proc.returncode != 1:
            problems.append(f"diff: exit {proc.returncode}, expected 1: {proc.stderr[-300:]!r}")
        check_output("diff", proc.stdout, problems)
        # JUnit and GitHub annotations keep their own escaping: valid XML, one annotation a line.
        base = ["check", "--root", r, "--min-version", "3.3", "--require-device",
                "--require-port-active", "--require-dpa", "--require-pcie-link"]
        junit = run(args.binary, base + ["--format", "junit"], env)
        try:
            import xml.etree.ElementTree as ET
            ET.fromstring(junit.stdout)
        except Exception as e:  # noqa: BLE001 - any parse failure is the finding
            problems.append(f"junit: not well-formed XML: {e}")
        if b"0000:06:00.0 runs at 16.0 GT/s x8 of 32.0 GT/s x16" not in junit.stdout:
            problems.append("junit: the link below the hostile bridge is not shown")
        if b"upstream port \x1b" in junit.stdout or b"upstream port \\x1b" in junit.stdout:
            problems.append("junit: the hostile bridge is taken for a port")
        github = run(args.binary, base + ["--format", "github"], env)
        try:
            github_text = github.stdout.decode("utf-8")
        except UnicodeDecodeError as e:
            problems.append(f"github: not valid UTF-8 ({e})")
            github_text = github.stdout.decode("utf-8", errors="replace")
        if "no upstream port above it" not in github_text:
            problems.append("github: the link below the hostile bridge is not shown")
        if "upstream port \\x1b" in github_text or "upstream port \x1b" in github_text:
            problems.append("github: the hostile bridge is taken for a port")
        for line in github_text.splitlines():
            if line.lstrip().startswith(FORGED):
                problems.append(f"github: a forged line: {line[:120]!r}")
                break
            bad = BAD.search(line)
            if bad or "\r" in line:
                problems.append(f"github: a raw control in an annotation: {line[:120]!r}")
                break
        # The progress line names what it reads: drawn on a terminal, it must be clean too.
        err = progress_output(args.binary, ["report", "--root", r], env)
        err = err.replace(b"\r\x1b[K", b"\n")
        check_output("progress line", err, problems, want_escaped=False)
    for p in problems:
        print("FAIL", p)
    print(f"{len(formats) + 2} human outputs checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
