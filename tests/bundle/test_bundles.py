#!/usr/bin/python3
"""gather and replay, end to end, against the built binary.

    test_bundles.py --binary BIN --fixtures DIR --source DIR [-k NAME] [--sanitized]

* replay: every fixture root (tests/fixtures roots and sysfs scenarios) is gathered; the bundle
  replays (as the .tar.gz and as the extracted directory) to the same report, run metadata
  aside; the manifest validates against its schema and describes the archive's files. With
  --sanitized, the 64-device scale root and the extracted-directory replays are left to the
  plain build.
* live: a live gather with the fake DOCA libraries replays to the same verdicts and facts with
  the live-only ones marked `captured`, with the fake libraries' switch unset.
* replay: also redacted (`gather --redact`): every fixture root replays to the same verdicts.
* redact: no original MAC address or GUID survives anywhere in a redacted bundle, and one value
  always becomes one placeholder; identities in every shape the scanner knows (in a stored file,
  the --root path, the environment) leave the whole archive; libraries with identities keep
  their length and replay to the same verdicts; a manifest 1.0 (no redactor version) replays.
* hostile: bundles that are not a tar.gz, truncated, with absolute paths, "..", links pointing
  out, hard links, device nodes, FIFOs, or past the decompression cap are refused with a
  one-line message, exit 2 and the JSON error document; nothing is written outside the
  private directory, which is gone afterwards.
* no libarchive: when libarchive.so.13 the loader would pick is untrusted or is not
  libarchive, gather and tar.gz replay stop with one line naming it and why, exit 2 and the
  JSON error document; gather writes nothing.
* errors: gather without --output, into a missing or unwritable directory; a TMPDIR others
  may write without the sticky bit, or (as root) owned by another user, is refused; the
  temporary directory is removed when a signal ends a replay.
* limits: roots past the limits replay enforces (60,000 entries in a listed directory, a
  DOCA prefix nested past 48 levels, one whose names pass 4096 bytes) are gathered into bundles
  that replay, with what was left out in the manifest's skipped; an older manifest (1.0, or
  without skipped) still replays; gather's printed replay command is one shell word per
  argument.
Prints one line per failure; exits 1 when there is any.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import os
import platform
import pwd
import shlex
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import jsonschema

FAILURES: list[str] = []


def fail(name: str, why: str) -> None:
    FAILURES.append(f"{name}: {why}")
    print(f"FAIL {name}: {why}", flush=True)


class Env:
    def __init__(self, args):
        self.binary = args.binary
        self.fixtures = Path(args.fixtures)
        self.source = Path(args.source)
        self.sanitized = args.sanitized
        self.work = Path(tempfile.mkdtemp(prefix="rdmi-bundle-test."))
        # Every run gets this as TMPDIR: after each, it must be empty again.
        self.tmpdir = self.work / "tmpdir"
        self.tmpdir.mkdir()
        self.schemas = {}
        for path in (self.source / "schemas").glob("*.schema.json"):
            schema = json.loads(path.read_text())
            self.schemas[schema["$id"]] = schema

    def run(self, args, env=None, timeout=120, user=None):
        full = dict(os.environ)
        full.update({"TMPDIR": str(self.tmpdir), "SOURCE_DATE_EPOCH": "1700000000"})
        full.pop("FAKE_DOCA_DEVICES", None)
        full.update(env or {})
        preexec = None
        if user is not None:
            def preexec():
                os.setgid(user)
                os.setuid(user)
        # Correctness, not speed: a loaded machine must not turn a slow run into a failure.
        args = ["--timeout", "120", *args]
        return subprocess.run([self.binary, *args], capture_output=True, text=True, env=full,
                              timeout=timeout, preexec_fn=preexec)

    def validate(self, name, document):
        schema = self.schemas.get(document.get("schema"))
        if schema is None:
            fail(name, f"document names no known schema: {document.get('schema')!r}")
            return
        try:
            jsonschema.Draft202012Validator(schema).validate(document)
        except jsonschema.ValidationError as e:
            fail(name, f"invalid against {document['schema']}: {e.message[:200]}")

    def tmp_clean(self, name):
        left = list(self.tmpdir.iterdir())
        if left:
            fail(name, f"left in TMPDIR: {[p.name for p in left]}")
            for p in left:
                subprocess.run(["rm", "-rf", str(p)], check=False)


def without_run(report: dict) -> dict:
    report = dict(report)
    report.pop("run", None)
    return report


def first_difference(a, b, path=""):
    if type(a) is not type(b):
        return f"{path}: {str(a)[:80]} != {str(b)[:80]}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}/{key}: only on one side"
            found = first_difference(a[key], b[key], f"{path}/{key}")
            if found:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if a == b else f"{path}: {str(a)[:80]} != {str(b)[:80]}"


def uncaptured(node, originals: dict, path=""):
    """`node` with every provenance kind "captured" put back to the original's kind."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            here = f"{path}/{key}"
            if key == "kind" and value == "captured":
                out[key] = originals.get(here, value)
            else:
                out[key] = uncaptured(value, originals, here)
        return out
    if isinstance(node, list):
        return [uncaptured(v, originals, f"{path}[{i}]") for i, v in enumerate(node)]
    return node


def kinds(node, path="", out=None):
    out = {} if out is None else out
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "kind" and isinstance(value, str):
                out[f"{path}/{key}"] = value
            else:
                kinds(value, f"{path}/{key}", out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            kinds(v, f"{path}[{i}]", out)
    return out


def report_json(env: Env, name: str, args, extra_env=None):
    result = env.run([*args, "report", "--json"], env=extra_env)
    if result.returncode not in (0, 1, 3):
        fail(name, f"report exit {result.returncode}: {result.stderr.strip()[:200]}")
        return None
    return json.loads(result.stdout)


def check_manifest(env: Env, name: str, bundle: Path):
    """The manifest validates and describes every member of the archive, and nothing else."""
    with tarfile.open(bundle) as tar:
        members = {m.name: m for m in tar.getmembers()}
        manifest = json.loads(tar.extractfile("rdmi-probe-bundle/.rdmi-probe-bundle/manifest.json").read())
        env.validate(name, manifest)
        listed = set()
        for f in manifest["files"]:
            member = members.get("rdmi-probe-bundle" + f["path"])
            listed.add("rdmi-probe-bundle" + f["path"])
            if member is None:
                fail(name, f"{f['path']}: in the manifest, not in the archive")
                continue
            kind = "symlink" if member.issym() else "directory" if member.isdir() else "regular"
            if kind != f["type"] and not (kind == "regular" and f["type"] not in ("symlink", "directory")):
                fail(name, f"{f['path']}: manifest says {f['type']}, archive holds a {kind}")
                continue
            if kind == "symlink" and member.linkname != f["target"]:
                fail(name, f"{f['path']}: link target differs from the manifest")
            if kind == "regular":
                data = tar.extractfile(member).read()
                if len(data) != f["size"] or hashlib.sha256(data).hexdigest() != f["sha256"]:
                    fail(name, f"{f['path']}: size or sha256 differs from the manifest")
        for doc in manifest["documents"]:
            data = tar.extractfile("rdmi-probe-bundle" + doc["path"]).read()
            if hashlib.sha256(data).hexdigest() != doc["sha256"]:
                fail(name, f"{doc['path']}: sha256 differs from the manifest")
        own = {"rdmi-probe-bundle", "rdmi-probe-bundle/.rdmi-probe-bundle",
               "rdmi-probe-bundle/.rdmi-probe-bundle/manifest.json"}
        own |= {"rdmi-probe-bundle" + d["path"] for d in manifest["documents"]}
        extra = set(members) - listed - own
        if extra:
            fail(name, f"archive members the manifest does not list: {sorted(extra)[:3]}")
    return manifest


def test_replay(env: Env, only: str | None):
    roots = sorted((env.fixtures / "roots").iterdir()) + sorted((env.fixtures / "sysfs").iterdir())
    for root in [r for r in roots if r.is_dir()]:
        name = f"replay {root.parent.name}/{root.name}"
        if only and only not in name:
            continue
        if env.sanitized and root.name == "scale":
            # 34,000 files and 64 devices through the per-file and per-device code the
            # smaller roots take too: 60 % of this test's user CPU time even in the plain build,
            # and more under sanitizers, for repetition. The plain build replays it.
            print(f"{name}: not under sanitizers (--sanitized); the plain build replays it")
            continue
        bundle = env.work / f"{root.parent.name}-{root.name}.tar.gz"
        result = env.run(["--root", str(root), "gather", "--output", str(bundle)])
        if result.returncode != 0:
            fail(name, f"gather exit {result.returncode}: {result.stderr.strip()[:200]}")
            continue
        check_manifest(env, name, bundle)
        original = report_json(env, name, ["--root", str(root)])
        replays = [("tar.gz", bundle)]
        # The extracted directory too, as `tar xzf` leaves it (not for the 28,000 entries of
        # the 64-device root: the .tar.gz replay extracts those already). Not under sanitizers:
        # the .tar.gz replay extracts the same tree and opens it through the same code
        # (open_replay, BundleFs), so this only repeats it; the plain build replays both.
        if root.name != "scale" and not env.sanitized:
            extracted = env.work / f"{root.parent.name}-{root.name}.d"
            with tarfile.open(bundle) as tar:
                tar.extractall(extracted)
            replays.append(("directory", extracted / "rdmi-probe-bundle"))
        for how, replay_root in replays:
            replayed = report_json(env, f"{name} ({how})", ["--root", str(replay_root)])
            if original is None or replayed is None:
                continue
            diff = first_difference(without_run(original), without_run(replayed))
            if diff:
                fail(f"{name} ({how})", f"replay differs: {diff}")
        # Redacted, the same root replays to the same verdicts: placeholders keep each value's
        # shape (and a binary file its length), so every parser reads them as it read the values.
        redacted = env.work / f"{root.parent.name}-{root.name}-redacted.tar.gz"
        result = env.run(["--root", str(root), "gather", "--redact", "--output", str(redacted)])
        if result.returncode != 0:
            fail(f"{name} (redacted)", f"gather exit {result.returncode}: {result.stderr.strip()[:200]}")
        else:
            check_manifest(env, f"{name} (redacted)", redacted)
            replayed = report_json(env, f"{name} (redacted)", ["--root", str(redacted)])
            if original is not None and replayed is not None and verdicts(original) != verdicts(replayed):
                fail(f"{name} (redacted)", "other verdicts: " + str(
                    [(a, b) for a, b in zip(verdicts(original), verdicts(replayed)) if a != b][:3]))
        env.tmp_clean(name)


def verdicts(report: dict) -> list:
    return [(c["id"], c["status"]) for c in report["checks"]]


def test_live(env: Env, only: str | None):
    name = "live fake DOCA"
    if only and only not in name:
        return
    if platform.machine() != "x86_64":
        print(f"SKIP {name}: the fake DOCA libraries are x86-64")
        return
    prefix = env.fixtures / "prefixes" / "complete-3.3"
    fake = {"FAKE_DOCA_DEVICES": "1"}
    bundle = env.work / "live.tar.gz"
    result = env.run(["--doca-prefix", str(prefix), "gather", "--json", "--output", str(bundle)],
                     env=fake)
    if result.returncode != 0:
        fail(name, f"gather exit {result.returncode}: {result.stderr.strip()[:200]}")
        return
    manifest = json.loads(result.stdout)
    env.validate(name, manifest)
    if not manifest["live"]:
        fail(name, "a live gather's manifest says live: false")
    original = report_json(env, name, ["--doca-prefix", str(prefix)], fake)
    # Neither the fake libraries' switch nor --doca-prefix: the bundle carries both.
    replayed = report_json(env, name, ["--root", str(bundle)])
    if original is None or replayed is None:
        return
    captured = [p for p, k in kinds(replayed).items() if k == "captured"]
    if not captured:
        fail(name, "no datum of the replay says it was captured")
    diff = first_difference(without_run(original),
                            without_run(uncaptured(replayed, kinds(original))))
    if diff:
        fail(name, f"replay differs: {diff}")
    # A replay runs no experiment on the device, whatever the bundle says was trusted.
    loop = env.run(["--root", str(bundle), "loopback", "--json"])
    if loop.returncode != 3 or "a replay runs no loopback" not in loop.stdout:
        fail(name, f"a replayed loopback did not skip: exit {loop.returncode}, {loop.stdout[:200]}")
    # The DOCA capability answers came back: the capability snapshot sees three devices.
    caps = env.run(["--root", str(bundle), "caps", "--json"])
    try:
        devices = json.loads(caps.stdout)["devices"]
        if len(devices) != 3:
            fail(name, f"caps from the bundle lists {len(devices)} devices, not 3")
    except (ValueError, KeyError) as e:
        fail(name, f"caps from the bundle: {e} ({caps.stderr.strip()[:200]})")
    env.tmp_clean(name)


def test_redact(env: Env, only: str | None):
    name = "redact"
    if only and only not in name:
        return
    root = env.fixtures / "sysfs" / "cx7-vfs"
    bundle = env.work / "redacted.tar.gz"
    result = env.run(["--root", str(root), "gather", "--redact", "--output", str(bundle)])
    if result.returncode != 0:
        fail(name, f"gather exit {result.returncode}: {result.stderr.strip()[:200]}")
        return
    secrets = set()
    for attr in ("node_guid", "sys_image_guid", "address"):
        for path in root.rglob(attr):
            if path.is_file():
                value = path.read_text().strip()
                if value and set(value) - set("0:"):
                    secrets.add(value)
    if not secrets:
        fail(name, "the fixture has no GUID or MAC address to hide")
    masks: dict[str, set] = {}
    with tarfile.open(bundle) as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            text = tar.extractfile(member).read().decode(errors="replace")
            for secret in secrets:
                if secret in text:
                    fail(name, f"{member.name} still holds {secret}")
            if member.name.endswith(("/node_guid", "/sys_image_guid")):
                device = member.name.split("/")[-2]
                masks.setdefault(device, set()).add(text.strip())
    # node_guid and sys_image_guid of one device are the same value: the same placeholder.
    for device, values in masks.items():
        if len(values) != 1 and device.startswith("mlx5"):
            fail(name, f"{device}: one value got several placeholders {values}")
    replayed = report_json(env, name, ["--root", str(bundle)])
    original = report_json(env, name, ["--root", str(root)])
    if replayed and original:
        verdicts = lambda r: [(c["id"], c["status"]) for c in r["checks"]]
        if verdicts(replayed) != verdicts(original):
            fail(name, "a redacted bundle replays to other verdicts")
    env.tmp_clean(name)


def test_redact_names(env: Env, only: str | None):
    """A host name that is also a path component or a word ("doca") is not rewritten inside
    paths; a MAC address naming a file leaves the archive's names too; every manifest path is
    an archive entry, so the replay finds each file's owner and mode."""
    for host, source, planted in (("doca", env.fixtures / "roots" / "complete-3.3", None),
                                  ("secretnode", env.fixtures / "sysfs" / "cx7-vfs",
                                   "sys/class/infiniband/B8:CE:F6:A1:B2:C4")):
        name = f"redact names {host}"
        if only and only not in name:
            continue
        root = env.work / f"names-{host}"
        shutil.copytree(source, root, symlinks=True)
        (root / "etc").mkdir(exist_ok=True)
        (root / "etc" / "hostname").write_text(host + "\n")
        if planted:
            (root / planted).write_text("x\n")
        bundle = env.work / f"names-{host}.tar.gz"
        result = env.run(["--root", str(root), "gather", "--redact", "--output", str(bundle)])
        if result.returncode != 0:
            fail(name, f"gather exit {result.returncode}: {result.stderr.strip()[:200]}")
            continue
        with tarfile.open(bundle) as tar:
            names = {m.name[len("rdmi-probe-bundle"):] for m in tar.getmembers()}
            manifest = json.load(tar.extractfile(
                "rdmi-probe-bundle/.rdmi-probe-bundle/manifest.json"))
        missing = sorted({f["path"] for f in manifest["files"]} - names)
        if missing:
            fail(name, f"manifest paths not in the archive: {missing[:3]}")
        if planted and any("b8:ce:f6:a1:b2:c4" in n.lower() for n in names):
            fail(name, "a MAC address naming a file is still in the archive's names")
        replayed = report_json(env, name, ["--root", str(bundle)])
        original = report_json(env, name, ["--root", str(root)])
        if replayed and original:
            verdicts = lambda r: [(c["id"], c["status"]) for c in r["checks"]]
            if verdicts(replayed) != verdicts(original):
                fail(name, "a redacted bundle replays to other verdicts: " + str(
                    [(a, b) for a, b in zip(verdicts(original), verdicts(replayed)) if a != b][:3]))
        env.tmp_clean(name)


def archive_texts(bundle: Path):
    """Every name, link text and file of `bundle`, as (where, text)."""
    with tarfile.open(bundle) as tar:
        for member in tar.getmembers():
            yield member.name, member.name
            if member.issym():
                yield member.name, member.linkname
            if member.isfile():
                yield member.name, tar.extractfile(member).read().decode(errors="replace")


def test_redact_identities(env: Env, only: str | None):
    """Identities in every shape the scanner knows, in a stored file, the --root path and the
    environment, are gone from the whole archive; the bundle replays to the same verdicts."""
    name = "redact identities"
    if only and only not in name:
        return
    host = "node7.lab.example.com"
    # The root's own path names the host: it is quoted in the report and the manifest.
    root = env.work / "roots" / host
    shutil.copytree(env.fixtures / "sysfs" / "cx6dx", root, symlinks=True)
    (root / "etc").mkdir(exist_ok=True)
    (root / "etc" / "hostname").write_text(host + "\n")
    secrets = ["NODE7.LAB", "Node7", "node7", "198.18.7.7", "abcd:1234:5678", "198.18.8.8",
               "0c42a10300a1b2c4", "MT2233X00042", "MT2233X00043", "B8-CE-F6-A1-B2-C4"]
    with open(root / "proc" / "mounts", "a") as mounts:
        mounts.write("NODE7.LAB:/export /mnt/a nfs4 rw,addr=198.18.7.7,clientaddr=::abcd:1234:5678 0 0\n"
                     "Node7:/b /mnt/b nfs4 rw,addr=::ffff:198.18.8.8 0 0\n"
                     "/dev/sdb1 /mnt/c ext4 rw,guid=0c42a10300a1b2c4 0 0\n"
                     "# SN: MT2233X00042 S/N=MT2233X00043 mac B8-CE-F6-A1-B2-C4\n")
    bundle = env.work / "identities.tar.gz"
    extra = {"LD_LIBRARY_PATH": "/srv/198.18.7.7/lib:/opt/lib",
             "PKG_CONFIG_PATH": "/opt/pc:/srv/198.18.8.8/pc"}
    result = env.run(["--root", str(root), "gather", "--redact", "--output", str(bundle)], env=extra)
    if result.returncode != 0:
        fail(name, f"gather exit {result.returncode}: {result.stderr.strip()[:200]}")
        return
    check_manifest(env, name, bundle)
    for where, text in archive_texts(bundle):
        for secret in secrets:
            if secret.lower() in text.lower():
                fail(name, f"{where} still holds {secret}")
    with tarfile.open(bundle) as tar:
        manifest = json.load(tar.extractfile("rdmi-probe-bundle/.rdmi-probe-bundle/manifest.json"))
        captured = json.load(tar.extractfile("rdmi-probe-bundle/.rdmi-probe-bundle/captured.json"))
    if manifest["redaction"].get("version") != 2:
        fail(name, f"the manifest does not state the redactor's version: {manifest['redaction']}")
    if captured["environment"].get("LD_LIBRARY_PATH") != "/srv/192.0.2.1/lib:/opt/lib":
        fail(name, f"LD_LIBRARY_PATH recorded as {captured['environment'].get('LD_LIBRARY_PATH')!r}")
    replayed = report_json(env, name, ["--root", str(bundle)], extra)
    original = report_json(env, name, ["--root", str(root)], extra)
    if replayed and original and verdicts(replayed) != verdicts(original):
        fail(name, "a redacted bundle replays to other verdicts")
    env.tmp_clean(name)


def test_redact_long_lines(env: Env, only: str | None):
    """A stored line of 100,000 letters after a quote, or 100 KB after `serial=`: the regex
    redactor recursed per character and the gather died of SIGSEGV with no message and no
    bundle; the scanner reads each byte a bounded number of times."""
    name = "redact long lines"
    if only and only not in name:
        return
    root = env.work / "long-lines"
    shutil.copytree(env.fixtures / "sysfs" / "cx6dx", root, symlinks=True)
    with open(root / "proc" / "mounts", "a") as mounts:
        mounts.write('x "' + "a" * 100_000 + "\n")
        mounts.write("serial=" + "b" * 100_000 + "\n")
    bundle = env.work / "long-lines.tar.gz"
    result = env.run(["--root", str(root), "gather", "--redact", "--json", "--output", str(bundle)])
    if result.returncode != 0:
        fail(name, f"gather exit {result.returncode}: {result.stderr.strip()[:200]}")
        return
    env.validate(name, json.loads(result.stdout))
    with tarfile.open(bundle) as tar:
        mounts = tar.extractfile("rdmi-probe-bundle/proc/mounts").read().decode()
    if "a" * 100_000 not in mounts or "b" * 1000 in mounts or "serial=SERIAL-1" not in mounts:
        fail(name, "the long lines were not redacted as expected")
    env.tmp_clean(name)


def test_redact_libraries(env: Env, only: str | None):
    """A DOCA install whose libraries carry a build banner (an address, a host name, a serial
    number) in a section of their own: redacted in place, each library keeps its length, and
    the replay gives the original's verdicts (a placeholder of another length moved the
    section headers, and the replay failed the library checks)."""
    name = "redact libraries"
    if only and only not in name:
        return
    objcopy = shutil.which("objcopy")
    if objcopy is None:
        fail(name, "objcopy (binutils) is needed")
        return
    root = env.work / "libs-root"
    shutil.copytree(env.fixtures / "roots" / "complete-3.3", root, symlinks=True)
    (root / "etc").mkdir(exist_ok=True)
    (root / "etc" / "hostname").write_text("buildhost7\n")
    banner = env.work / "banner.txt"
    banner.write_bytes(b"built on buildhost7 at 10.1.2.3 serial=MT2233X00001\0")
    libraries = [p for p in root.rglob("libdoca_*.so*") if p.is_file() and not p.is_symlink()]
    for lib in libraries:
        subprocess.run([objcopy, "--add-section", f".build_banner={banner}", str(lib)], check=True)
    bundle = env.work / "libs.tar.gz"
    result = env.run(["--root", str(root), "gather", "--redact", "--output", str(bundle)])
    if result.returncode != 0:
        fail(name, f"gather exit {result.returncode}: {result.stderr.strip()[:200]}")
        return
    stored = {}
    with tarfile.open(bundle) as tar:
        for member in tar.getmembers():
            if member.isfile() and "libdoca_" in member.name:
                stored[member.name[len("rdmi-probe-bundle"):]] = tar.extractfile(member).read()
    checked = 0
    for lib in libraries:
        data = stored.get("/" + str(lib.relative_to(root)))
        if not data:
            continue
        checked += 1
        if len(data) != lib.stat().st_size:
            fail(name, f"{lib.name}: stored {len(data)} bytes, the library has {lib.stat().st_size}")
        for secret in (b"buildhost7", b"10.1.2.3", b"MT2233X00001"):
            if secret in data:
                fail(name, f"{lib.name} still holds {secret.decode()}")
    if not checked:
        fail(name, "no library was stored")
    replayed = report_json(env, name, ["--root", str(bundle)])
    original = report_json(env, name, ["--root", str(root)])
    if replayed and original and verdicts(replayed) != verdicts(original):
        fail(name, "other verdicts: " + str(
            [(a, b) for a, b in zip(verdicts(original), verdicts(replayed)) if a != b][:3]))
    env.tmp_clean(name)


def test_redact_old_manifest(env: Env, only: str | None):
    """A bundle written before the redactor's version was recorded (manifest 1.0.0, no
    `version` nor `excluded`) still replays."""
    name = "redact old manifest"
    if only and only not in name:
        return
    bundle = env.work / "old.tar.gz"
    root = env.fixtures / "sysfs" / "cx6dx"
    if env.run(["--root", str(root), "gather", "--redact", "--output", str(bundle)]).returncode != 0:
        fail(name, "cannot gather")
        return
    entries = []
    with tarfile.open(bundle) as tar:
        for info in tar.getmembers():
            data = tar.extractfile(info).read() if info.isfile() else None
            if info.name.endswith("/.rdmi-probe-bundle/manifest.json"):
                manifest = json.loads(data)
                manifest["schema_version"] = "1.0.0"
                for field in ("version", "excluded"):
                    manifest["redaction"].pop(field, None)
                env.validate(name, manifest)
                data = json.dumps(manifest).encode()
                info.size = len(data)
            entries.append((info, data))
    old = env.work / "old-1.0.tar.gz"
    old.write_bytes(tar_gz(entries))
    replayed = report_json(env, name, ["--root", str(old)])
    original = report_json(env, name, ["--root", str(root)])
    if replayed and original and verdicts(replayed) != verdicts(original):
        fail(name, "an older bundle replays to other verdicts")
    env.tmp_clean(name)


def tar_gz(entries, compress=True) -> bytes:
    """A tar (gzip-compressed unless told) of (TarInfo, bytes or None) pairs."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in entries:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return gzip.compress(raw.getvalue()) if compress else raw.getvalue()


def member(name, kind=tarfile.REGTYPE, data=b"", target=""):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    info.size = len(data) if kind == tarfile.REGTYPE else 0
    return info, data if kind == tarfile.REGTYPE else None


class Zeros(io.RawIOBase):
    def __init__(self, size):
        self.left = size

    def readable(self):
        return True

    def readinto(self, buf):
        n = min(len(buf), self.left)
        buf[:n] = bytes(n)
        self.left -= n
        return n


def bomb(path: Path):
    """Five 60 MiB entries of zeros: 300 MiB, past the 256 MiB cap, under the per-entry one."""
    with gzip.open(path, "wb", compresslevel=1) as gz:
        with tarfile.open(fileobj=gz, mode="w|", format=tarfile.PAX_FORMAT) as tar:
            for i in range(5):
                info = tarfile.TarInfo(f"rdmi-probe-bundle/zeros{i}")
                info.size = 60 << 20
                tar.addfile(info, io.BufferedReader(Zeros(info.size)))


def with_files(bundle: bytes, **fields) -> bytes:
    """`bundle` with `fields` set on every file of its manifest."""
    entries = []
    with tarfile.open(fileobj=io.BytesIO(bundle)) as tar:
        for info in tar.getmembers():
            data = tar.extractfile(info).read() if info.isfile() else None
            if info.name.endswith("/.rdmi-probe-bundle/manifest.json"):
                manifest = json.loads(data)
                for f in manifest["files"]:
                    f.update(fields)
                data = json.dumps(manifest).encode()
                info.size = len(data)
            entries.append((info, data))
    return tar_gz(entries)


def with_manifest_text(bundle: bytes, size: int) -> bytes:
    """`bundle` with its manifest padded (white space, still the same JSON) to `size` bytes."""
    entries = []
    with tarfile.open(fileobj=io.BytesIO(bundle)) as tar:
        for info in tar.getmembers():
            data = tar.extractfile(info).read() if info.isfile() else None
            if info.name.endswith("/.rdmi-probe-bundle/manifest.json"):
                data = data + b" " * (size - len(data))
                info.size = len(data)
            entries.append((info, data))
    return tar_gz(entries)


def edit_manifest(bundle: bytes, edit) -> bytes:
    """`bundle` with `edit` applied to its manifest (a dict, changed in place)."""
    entries = []
    with tarfile.open(fileobj=io.BytesIO(bundle)) as tar:
        for info in tar.getmembers():
            data = tar.extractfile(info).read() if info.isfile() else None
            if info.name.endswith("/.rdmi-probe-bundle/manifest.json"):
                manifest = json.loads(data)
                edit(manifest)
                data = json.dumps(manifest, indent=2).encode()
                info.size = len(data)
            entries.append((info, data))
    return tar_gz(entries)


def verdicts(report: dict) -> list:
    return [(c["id"], c["status"]) for c in report["checks"]]


def replays_like(env: Env, name: str, bundle: Path, root: Path, args=(), same=True):
    """The bundle replays (not refused) to the verdicts of the root it was gathered from, or,
    when not `same` (what the probe read is past a limit, so not in the bundle), at all."""
    replayed = env.run(["--root", str(bundle), *args, "report", "--json"])
    if replayed.returncode not in (0, 1, 3):
        fail(name, f"replay exit {replayed.returncode}: {replayed.stderr.strip()[:300]}")
        return None
    if not same:
        return json.loads(replayed.stdout)
    original = report_json(env, name, ["--root", str(root), *args])
    report = json.loads(replayed.stdout)
    if original is not None and verdicts(report) != verdicts(original):
        fail(name, "replay verdicts differ: " + str(
            [(a, b) for a, b in zip(verdicts(original), verdicts(report)) if a != b][:3]))
    return report


def gather_within_limits(env: Env, name: str, root: Path, args, limit: str):
    """gather of `root` exits 0 with a manifest that validates and lists `limit` in skipped;
    returns the bundle's path, or None."""
    bundle = env.work / (name.replace(" ", "-") + ".tar.gz")
    result = env.run(["--root", str(root), *args, "gather", "--json", "--output", str(bundle)])
    if result.returncode != 0:
        fail(name, f"gather exit {result.returncode}: {result.stderr.strip()[:300]}")
        return None
    manifest = json.loads(result.stdout)
    env.validate(name, manifest)
    if not any(s.get("limit") == limit for s in manifest["skipped"]):
        fail(name, f"no skipped record names the {limit} limit: {manifest['skipped'][:2]}")
    return bundle


def make_dirs(top: Path, parts) -> int:
    """Creates top/parts[0]/parts[1]/... one component at a time (the whole may pass PATH_MAX);
    returns a descriptor of the last directory."""
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for part in parts:
        try:
            os.mkdir(part, 0o755, dir_fd=fd)
        except FileExistsError:
            pass
        next_fd = os.open(part, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = next_fd
    return fd


def test_limits(env: Env, only: str | None):
    complete = env.fixtures / "roots" / "complete-3.3"
    name = "limits 60,000 entries"
    if (not only or only in name) and not env.sanitized:
        # 60,000 entries in a directory the probe lists: a manifest of 17 MB, past the 16 MiB a
        # replay reads. Left to the plain build (the sanitized one extracts the same code).
        root = env.work / "many"
        shutil.copytree(complete, root, symlinks=True)
        include = root / "opt/mellanox/doca/include"
        for i in range(60000):
            (include / f"unrelated-{i:05d}.txt").touch()
        bundle = gather_within_limits(env, name, root, [], "document_bytes")
        if bundle:
            replays_like(env, name, bundle, root)
        subprocess.run(["rm", "-rf", str(root)], check=False)
        env.tmp_clean(name)
    name = "limits nested past 48 levels"
    if not only or only in name:
        root = env.work / "deep"
        prefix = "/" + "/".join(["d"] * 50) + "/opt/mellanox/doca"
        shutil.copytree(complete / "opt/mellanox/doca", root / prefix.lstrip("/"), symlinks=True)
        bundle = gather_within_limits(env, name, root, ["--doca-prefix", prefix], "depth")
        if bundle:
            replays_like(env, name, bundle, root, ["--doca-prefix", prefix], same=False)
        env.tmp_clean(name)
    name = "limits names past 4096 bytes"
    if not only or only in name:
        root = env.work / "long"
        shutil.copytree(complete, root, symlinks=True)
        parts = ["n" * 200] * 21 + ["doca"]
        fd = make_dirs(root, parts + ["applications"])
        with open(os.open("VERSION", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), "w") as f:
            f.write("3.3.0105\n")
        os.close(fd)
        prefix = "/" + "/".join(parts)
        bundle = gather_within_limits(env, name, root, ["--doca-prefix", prefix], "name_bytes")
        if bundle:
            replays_like(env, name, bundle, root, ["--doca-prefix", prefix], same=False)
        subprocess.run(["rm", "-rf", str(root)], check=False)
        env.tmp_clean(name)

    # Bundles written before the limits were in the manifest (1.0.0), and without skipped.
    root = env.fixtures / "sysfs" / "cx6dx"
    good = env.work / "current.tar.gz"
    if env.run(["--root", str(root), "gather", "--output", str(good)]).returncode != 0:
        fail("limits old bundles", "cannot gather the bundle")
        return

    def as_1_0(manifest):
        manifest["schema_version"] = "1.0.0"
        for field in ("entry_bytes", "name_bytes", "depth", "component_bytes", "link_bytes",
                      "document_bytes"):
            manifest["caps"].pop(field, None)
        for s in manifest["skipped"]:
            s.pop("limit", None)

    def without_skipped(manifest):
        as_1_0(manifest)
        manifest.pop("skipped")

    for case, edit in (("1.0.0", as_1_0), ("without skipped", without_skipped)):
        name = f"limits old bundle {case}"
        if only and only not in name:
            continue
        old = env.work / f"old-{case.replace(' ', '-')}.tar.gz"
        old.write_bytes(edit_manifest(good.read_bytes(), edit))
        replays_like(env, name, old, root)
        env.tmp_clean(name)

    name = "gather prints a replay command a shell reads back"
    if not only or only in name:
        odd = env.work / "a dir with 'quotes' and $(touch pwned)"
        odd.mkdir()
        bundle = odd / "b; x.tar.gz"
        result = env.run(["--root", str(root), "gather", "--output", str(bundle)],
                         env={"NO_COLOR": "1"})
        lines = [l for l in result.stdout.splitlines() if l.strip().startswith("replay: ")]
        if result.returncode != 0 or len(lines) != 1:
            fail(name, f"exit {result.returncode}, replay lines {lines}")
        else:
            words = shlex.split(lines[0].strip()[len("replay: "):])
            if words != ["rdmi-probe", "--root", str(bundle)]:
                fail(name, f"the printed command reads back as {words}")


def test_hostile(env: Env, only: str | None):
    good = env.work / "good.tar.gz"
    if env.run(["--root", str(env.fixtures / "sysfs" / "cx6dx"), "gather", "--output",
                str(good)]).returncode != 0:
        fail("hostile", "cannot gather the good bundle")
        return
    good_bytes = good.read_bytes()
    outside = env.work / "outside"
    outside.mkdir()
    top = "rdmi-probe-bundle"
    cases = {
        "not gzip": (b"this is not an archive\n" * 10, "not a tar.gz bundle"),
        "plain tar": (tar_gz([member(top, tarfile.DIRTYPE)], compress=False), "not gzip-compressed"),
        "empty file": (b"", "not a tar.gz bundle"),
        "truncated": (good_bytes[: len(good_bytes) // 2], "truncated or corrupt"),
        "absolute path": (tar_gz([member(top, tarfile.DIRTYPE),
                                  member(f"{outside}/planted", data=b"x")]), "absolute path"),
        "dot-dot": (tar_gz([member(top, tarfile.DIRTYPE),
                            member(f"{top}/../../planted", data=b"x")]), "'..' component"),
        "outside top": (tar_gz([member("elsewhere/file", data=b"x")]), "not a bundle"),
        "link pointing out": (tar_gz([member(top, tarfile.DIRTYPE),
                                      member(f"{top}/out", tarfile.SYMTYPE, target="../../..")]),
                              "link pointing out"),
        "absolute link": (tar_gz([member(top, tarfile.DIRTYPE),
                                  member(f"{top}/out", tarfile.SYMTYPE, target=str(outside))]),
                          "link pointing out"),
        "write through a link": (tar_gz([member(top, tarfile.DIRTYPE),
                                         member(f"{top}/dir", tarfile.SYMTYPE, target="."),
                                         member(f"{top}/dir/file", data=b"x")]),
                                 "not a directory"),
        "hard link": (tar_gz([member(top, tarfile.DIRTYPE),
                              member(f"{top}/hard", tarfile.LNKTYPE, target="/etc/passwd")]),
                      "hard link"),
        "device node": (tar_gz([member(top, tarfile.DIRTYPE),
                                member(f"{top}/dev", tarfile.CHRTYPE)]), "character device"),
        "block device": (tar_gz([member(top, tarfile.DIRTYPE),
                                 member(f"{top}/blk", tarfile.BLKTYPE)]), "block device"),
        "fifo": (tar_gz([member(top, tarfile.DIRTYPE), member(f"{top}/fifo", tarfile.FIFOTYPE)]),
                 "FIFO"),
        "duplicate": (tar_gz([member(top, tarfile.DIRTYPE), member(f"{top}/a", data=b"1"),
                              member(f"{top}/a", data=b"2")]), "duplicate entry"),
        "no manifest": (tar_gz([member(top, tarfile.DIRTYPE), member(f"{top}/etc/os", data=b"x")]),
                        "not a bundle"),
        "bad manifest": (tar_gz([member(top, tarfile.DIRTYPE),
                                 member(f"{top}/.rdmi-probe-bundle/manifest.json", data=b"{]")]),
                         "manifest.json"),
        "bomb": (None, "decompresses past the cap"),
        # The problem is said after a long name, not cut off with it.
        "long component": (tar_gz([member(top, tarfile.DIRTYPE),
                                   member(f"{top}/" + "a" * 300, data=b"x")]),
                           "File name too long"),
        "long path": (tar_gz([member(top, tarfile.DIRTYPE),
                              member(f"{top}/" + "/".join(["b" * 200] * 21), data=b"x")]),
                      "name too long"),
        # A manifest's facts are whole numbers in range: 0.5 would read as uid 0.
        # Refused by its size: named by the archive and the entry, not by an in-root path.
        "manifest over its limit": (with_manifest_text(good_bytes, 17 << 20),
                                    "rdmi-probe-bundle/.rdmi-probe-bundle/manifest.json: larger than"),
        "uid not whole": (with_files(good_bytes, uid=0.5), "uid is not a whole number"),
        "uid negative": (with_files(good_bytes, uid=-1), "uid is not a whole number"),
        "mode past 07777": (with_files(good_bytes, mode=0o170777), "mode is not a whole number"),
        "stat_size past 2^64": (with_files(good_bytes, stat_size=2 ** 70),
                                "stat_size is not a whole number"),
    }
    for case, (data, expect) in cases.items():
        name = f"hostile {case}"
        if only and only not in name:
            continue
        path = env.work / f"hostile-{case.replace(' ', '-')}.tar.gz"
        if data is None:
            bomb(path)
        else:
            path.write_bytes(data)
        for json_mode in (False, True):
            args = ["--root", str(path), "report"] + (["--json"] if json_mode else [])
            started = time.process_time()
            result = env.run(args)
            if result.returncode != 2:
                fail(name, f"exit {result.returncode}, not 2 ({result.stderr.strip()[:200]})")
                continue
            lines = result.stderr.strip().splitlines()
            if len(lines) != 1 or expect not in lines[0] or str(path) not in lines[0]:
                fail(name, f"not one line naming the file and '{expect}': {lines}")
            if json_mode:
                try:
                    document = json.loads(result.stdout)
                    env.validate(name, document)
                except ValueError:
                    fail(name, f"--json printed no JSON: {result.stdout[:200]!r}")
            elif result.stdout:
                fail(name, f"stdout not empty: {result.stdout[:100]!r}")
            env.tmp_clean(name)
        if list(outside.iterdir()):
            fail(name, f"written outside: {list(outside.iterdir())}")
        for planted in (env.work / "planted", env.work.parent / "planted"):
            if planted.exists():
                fail(name, f"written outside: {planted}")
        path.unlink()


def test_errors(env: Env, only: str | None):
    root = str(env.fixtures / "sysfs" / "cx6dx")
    cases = [
        ("gather without --output", ["gather"], "needs --output", None),
        ("output directory missing", ["gather", "--output", str(env.work / "no/such/dir/b.tar.gz")],
         "no/such/dir", None),
    ]
    locked = env.work / "locked"
    locked.mkdir()
    locked.chmod(0o755)
    if os.geteuid() == 0:
        cases.append(("output directory unwritable", ["gather", "--output", str(locked / "b.tar.gz")],
                      str(locked), 65534))
    for name, args, expect, user in cases:
        if only and only not in name:
            continue
        for json_mode in (False, True):
            result = env.run(["--root", root, *args] + (["--json"] if json_mode else []), user=user)
            if result.returncode != 2:
                fail(name, f"exit {result.returncode}, not 2 ({result.stderr.strip()[:200]})")
                continue
            if expect not in result.stderr:
                fail(name, f"stderr does not say '{expect}': {result.stderr.strip()[:200]}")
            if json_mode:
                try:
                    env.validate(name, json.loads(result.stdout))
                except ValueError:
                    fail(name, f"--json printed no JSON: {result.stdout[:200]!r}")
        if list(locked.iterdir()):
            fail(name, f"something was written: {list(locked.iterdir())}")
    env.tmp_clean("errors")

    name = "gather --output /dev/stdout"
    if not only or only in name:
        out = env.work / "stdout.tar.gz"
        full = dict(os.environ, TMPDIR=str(env.tmpdir))
        # stdout a pipe (`gather --output /dev/stdout | ssh ...`): written in place.
        result = subprocess.run([env.binary, "--root", root, "gather", "--output", "/dev/stdout"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=full)
        out.write_bytes(result.stdout)
        if result.returncode != 0:
            fail(name, f"exit {result.returncode}: {result.stderr[:200]!r}")
        try:
            # The whole of stdout is one gzip stream: a summary after it is not gzip.
            gzip.decompress(out.read_bytes())
            with tarfile.open(out) as tar:
                tar.getmember("rdmi-probe-bundle/.rdmi-probe-bundle/manifest.json")
        except (OSError, EOFError, tarfile.TarError, KeyError) as e:
            fail(name, f"stdout is not the bundle alone: {e}")

    name = "TMPDIR others may write without the sticky bit"
    if not only or only in name:
        bundle = env.work / "sticky.tar.gz"
        env.run(["--root", root, "gather", "--output", str(bundle)])
        open_dir = env.work / "open-tmp"
        open_dir.mkdir()
        open_dir.chmod(0o777)
        for json_mode in (False, True):
            result = env.run(["--root", str(bundle), "report"] + (["--json"] if json_mode else []),
                             env={"TMPDIR": str(open_dir)})
            if result.returncode != 2 or "sticky bit" not in result.stderr:
                fail(name, f"exit {result.returncode}: {result.stderr.strip()[:200]}")
            if json_mode:
                try:
                    env.validate(name, json.loads(result.stdout))
                except ValueError:
                    fail(name, f"--json printed no JSON: {result.stdout[:200]!r}")
        if list(open_dir.iterdir()):
            fail(name, f"extracted into it: {list(open_dir.iterdir())}")
        open_dir.chmod(0o1777)
        result = env.run(["--root", str(bundle), "report"], env={"TMPDIR": str(open_dir)})
        if result.returncode == 2:
            fail(name, f"with the sticky bit: exit 2: {result.stderr.strip()[:200]}")

    name = "TMPDIR owned by another user"
    if (not only or only in name) and os.geteuid() == 0:
        # Mode 0755 and no other writer: but its owner may rename what is made there and put a
        # root of their own in its place, so it is refused, naming the directory and its owner.
        bundle = env.work / "foreign.tar.gz"
        env.run(["--root", root, "gather", "--output", str(bundle)])
        foreign = env.work / "foreign-tmp"
        foreign.mkdir()
        foreign.chmod(0o755)
        os.chown(foreign, 65534, 65534)
        nobody = pwd.getpwuid(65534).pw_name
        for json_mode in (False, True):
            result = env.run(["--root", str(bundle), "report"] + (["--json"] if json_mode else []),
                             env={"TMPDIR": str(foreign)})
            lines = result.stderr.strip().splitlines()
            if result.returncode != 2:
                fail(name, f"exit {result.returncode}, not 2: {result.stderr.strip()[:200]}")
            elif len(lines) != 1 or str(foreign) not in lines[0] or nobody not in lines[0]:
                fail(name, f"not one line naming {foreign} and {nobody}: {lines}")
            if json_mode:
                try:
                    env.validate(name, json.loads(result.stdout))
                except ValueError:
                    fail(name, f"--json printed no JSON: {result.stdout[:200]!r}")
        if list(foreign.iterdir()):
            fail(name, f"extracted into it: {list(foreign.iterdir())}")

    name = "signal removes the private directory"
    if only and only not in name:
        return
    bundle = env.work / "signal.tar.gz"
    env.run(["--root", root, "gather", "--output", str(bundle)])
    fifo = env.work / "fifo"
    os.mkfifo(fifo)
    full = dict(os.environ, TMPDIR=str(env.tmpdir))
    # The document goes to a FIFO nobody reads: the run waits there, its bundle extracted.
    proc = subprocess.Popen([env.binary, "--root", str(bundle), "report", "--output", str(fifo)],
                            env=full, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for _ in range(100):
        if list(env.tmpdir.iterdir()):
            break
        time.sleep(0.05)
    if not list(env.tmpdir.iterdir()):
        fail(name, "no private directory appeared")
    time.sleep(0.3)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=10)
    if proc.returncode != 128 + signal.SIGTERM:
        fail(name, f"exit {proc.returncode}, not {128 + signal.SIGTERM}")
    env.tmp_clean(name)


def run_bytes(env: Env, args, extra_env=None):
    """env.run for arguments and output that need not be UTF-8."""
    full = dict(os.environ)
    full.update({"TMPDIR": str(env.tmpdir), "SOURCE_DATE_EPOCH": "1700000000"})
    full.pop("FAKE_DOCA_DEVICES", None)
    full.update(extra_env or {})
    return subprocess.run([env.binary, "--timeout", "120", *args], capture_output=True,
                          env=full, timeout=120)


def test_attacks(env: Env, only: str | None):
    """Round 7 attacks on bundles: a relative PKG_CONFIG_PATH entry, bytes that are not UTF-8
    in the --root path, an environment value and a listed file name or link text, identities
    in a library's note section or appended after its sections."""
    base = env.fixtures / "roots" / "complete-3.3"

    name = "attack relative PKG_CONFIG_PATH"
    if not only or only in name:
        for redact in ([], ["--redact"]):
            bundle = env.work / f"relative{len(redact)}.tar.gz"
            result = env.run(["--root", str(base), "gather", *redact, "--output", str(bundle)],
                             env={"PKG_CONFIG_PATH": "rel/pc:opt/x"})
            if result.returncode != 0:
                fail(name, f"gather{redact} exit {result.returncode}: {result.stderr.strip()[:200]}")
                continue
            manifest = check_manifest(env, f"{name} {redact}", bundle)
            relative = [e["path"] for e in manifest["errors"] if not e["path"].startswith("/")]
            if relative:
                fail(name, f"{redact}: errors with relative paths: {relative[:3]}")
        env.tmp_clean(name)

    name = "attack not UTF-8"
    if not only or only in name:
        top = env.work / os.fsdecode(b"host\xff")
        root = top / "root"
        shutil.copytree(base, root, symlinks=True)
        pc = root / "opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig"
        (pc / os.fsdecode(b"doca-\xff.pc")).write_text("")
        os.symlink(os.fsdecode(b"/nowhere\xfe"), pc / "doca-link.pc")
        original = report_json(env, name, ["--root", str(root)])
        for redact in ([], ["--redact"]):
            for env_value in ({}, {"PKG_CONFIG_PATH": os.fsdecode(b"/x\xff")}):
                where = f"{name} {redact} {sorted(env_value)}"
                bundle = env.work / "utf8.tar.gz"
                result = run_bytes(env, ["--root", str(root), "gather", *redact, "--output",
                                         str(bundle), "--json"], env_value)
                if result.returncode != 0:
                    fail(where, f"gather exit {result.returncode}: {result.stderr[:200]!r}")
                    continue
                try:
                    env.validate(where, json.loads(result.stdout))
                except ValueError:
                    fail(where, f"--json printed no JSON: {result.stdout[:200]!r}")
                manifest = check_manifest(env, where, bundle)
                skipped = [s["path"] for s in manifest["skipped"]]
                for leaf in ("doca-\ufffd.pc", "doca-link.pc"):
                    if not any(p.endswith(leaf) for p in skipped):
                        fail(where, f"{leaf} not listed in skipped: {skipped}")
                replayed = report_json(env, where, ["--root", str(bundle)], env_value)
                if not env_value and replayed and original and \
                        verdicts(replayed) != verdicts(original):
                    fail(where, "other verdicts than the original")
        env.tmp_clean(name)

    name = "attack redact library trailer"
    if not only or only in name:
        root = env.work / "trailer-root"
        shutil.copytree(base, root, symlinks=True)
        (root / "etc").mkdir(exist_ok=True)
        (root / "etc" / "hostname").write_text("buildhost7\n")
        secrets = (b"10.20.30.40", b"b8:ce:f6:a1:b2:c4", b"buildhost7")
        libraries = [p for p in root.rglob("libdoca_*.so*") if p.is_file() and not p.is_symlink()]
        note = env.work / "note.bin"
        note.write_bytes(b"noted 10.20.30.41 on buildhost7\0")
        secrets += (b"10.20.30.41",)
        objcopy = shutil.which("objcopy")
        if objcopy is None:
            fail(name, "objcopy (binutils) is needed")
        for lib in libraries:
            # A note section (SHT_NOTE) of its own, then a trailer after the last section.
            if objcopy is not None:
                subprocess.run([objcopy, "--add-section", f".note.banner={note}", str(lib)],
                               check=True)
            with open(lib, "ab") as f:
                f.write(b"built on " + b" ".join(secrets[:3]) + b"\n")
        bundle = env.work / "trailer.tar.gz"
        result = env.run(["--root", str(root), "gather", "--redact", "--output", str(bundle)])
        if result.returncode != 0:
            fail(name, f"gather exit {result.returncode}: {result.stderr.strip()[:200]}")
        else:
            check_manifest(env, name, bundle)
            with tarfile.open(bundle) as tar:
                for member in tar.getmembers():
                    if not (member.isfile() and "libdoca_" in member.name):
                        continue
                    data = tar.extractfile(member).read()
                    lib = root / member.name[len("rdmi-probe-bundle/"):]
                    if len(data) != lib.stat().st_size:
                        fail(name, f"{lib.name}: stored {len(data)} bytes, not {lib.stat().st_size}")
                    for secret in secrets:
                        if secret in data:
                            fail(name, f"{lib.name} still holds {secret.decode()}")
            replayed = report_json(env, name, ["--root", str(bundle)])
            original = report_json(env, name, ["--root", str(root)])
            if replayed and original and verdicts(replayed) != verdicts(original):
                fail(name, "other verdicts than the original")
        env.tmp_clean(name)


def system_library(soname: str) -> str:
    """The path ldconfig's cache gives for `soname` on this machine."""
    listing = subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True, text=True).stdout
    for line in listing.splitlines():
        if line.strip().startswith(soname + " ") and "=>" in line:
            return line.split("=>", 1)[1].strip()
    raise RuntimeError(f"{soname} is not in the loader cache")


def test_no_libarchive(env: Env, only: str | None):
    root = str(env.fixtures / "sysfs" / "cx6dx")
    good = env.work / "libarchive-good.tar.gz"
    if env.run(["--root", root, "gather", "--output", str(good)]).returncode != 0:
        fail("no libarchive", "cannot gather the bundle to replay")
        return
    # Found first through LD_LIBRARY_PATH: the real library in a directory anyone may write to,
    # and another library under libarchive's soname in a trusted one.
    open_dir = env.work / "world-writable-libs"
    open_dir.mkdir()
    shutil.copy(system_library("libarchive.so.13"), open_dir / "libarchive.so.13")
    open_dir.chmod(0o777)
    impostor_dir = env.work / "impostor-libs"
    impostor_dir.mkdir(mode=0o755)
    shutil.copy(system_library("libz.so.1"), impostor_dir / "libarchive.so.13")
    cases = [
        ("untrusted directory", open_dir, f"{open_dir}"),
        ("not libarchive", impostor_dir, "does not export archive_"),
    ]
    for case, directory, expect in cases:
        for command in ("gather", "replay"):
            name = f"no libarchive: {case}, {command}"
            if only and only not in name:
                continue
            out = env.work / "never-written.tar.gz"
            args = (["--root", root, "gather", "--output", str(out)] if command == "gather"
                    else ["--root", str(good), "report"])
            for json_mode in (False, True):
                result = env.run(args + (["--json"] if json_mode else []),
                                 env={"LD_LIBRARY_PATH": str(directory)})
                if result.returncode != 2:
                    fail(name, f"exit {result.returncode}, not 2 ({result.stderr.strip()[:200]})")
                    continue
                lines = result.stderr.strip().splitlines()
                if (len(lines) != 1 or "libarchive.so.13: " not in lines[0]
                        or expect not in lines[0]):
                    fail(name, f"not one line naming libarchive.so.13 and '{expect}': {lines}")
                if json_mode:
                    try:
                        env.validate(name, json.loads(result.stdout))
                    except ValueError:
                        fail(name, f"--json printed no JSON: {result.stdout[:200]!r}")
                if out.exists():
                    fail(name, "gather wrote its output without libarchive")
            env.tmp_clean(name)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("-k", dest="only")
    parser.add_argument("--sanitized", action="store_true",
                        help="a sanitizer build: the 64-device scale root is not replayed")
    args = parser.parse_args()
    env = Env(args)
    try:
        for test in (test_replay, test_live, test_redact, test_redact_names,
                     test_redact_identities, test_redact_long_lines, test_redact_libraries,
                     test_redact_old_manifest,
                     test_hostile,
                     test_no_libarchive,
                     test_errors, test_limits, test_attacks):
            test(env, args.only)
    finally:
        subprocess.run(["rm", "-rf", str(env.work)], check=False)
    print(f"bundles: {len(FAILURES)} failure(s)")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
