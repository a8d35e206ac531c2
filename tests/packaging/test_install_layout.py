#!/usr/bin/python3
"""`cmake --install` into a temporary prefix has the whole layout (binary, helper links, DPA
plugin where built, schemas, man pages, completions, docs and license, the fleet's systemd
units and Ansible fact), and the installed binary runs under every name from there. Also
checks an unpacked .deb with --tree.

    test_install_layout.py --build DIR          install the build, then check
    test_install_layout.py --tree ROOT/usr      check an existing tree (e.g. dpkg-deb -x)
    --emulator "qemu-aarch64 -L /"   run a foreign tree's binary through it
"""
import argparse
import gzip
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

FLEET_UNITS = ["rdmi-probe-textfile.service", "rdmi-probe-textfile.timer"]
HELPERS = ["doca-env", "doca-capability-snapshot", "doca-collect-host-state",
           "doca-collect-dpu-state"]


# Prefix of every spawn of the installed binary: qemu user-mode for a cross-built tree.
EMULATOR = []


def check_tree(prefix, plugin_expected, schemas_expected, source):
    problems = []
    checks = 0

    def need(cond, what):
        nonlocal checks
        checks += 1
        if not cond:
            problems.append(what)

    def rel(*parts):
        return os.path.join(prefix, *parts)

    binary = rel("bin", "rdmi-probe")
    need(os.path.isfile(binary) and os.access(binary, os.X_OK), "bin/rdmi-probe executable")
    helpers = HELPERS + (["doca-validate"] if os.path.lexists(rel("bin", "doca-validate")) else [])
    for h in helpers:
        need(os.path.islink(rel("bin", h)) and os.readlink(rel("bin", h)) == "rdmi-probe",
             f"bin/{h} -> rdmi-probe")
    if plugin_expected:
        need(os.path.isfile(rel("bin", "rdmi-probe-dpa.so")), "bin/rdmi-probe-dpa.so")
    schema_dir = rel("share", "rdmi-probe", "schemas")
    have = sorted(os.listdir(schema_dir)) if os.path.isdir(schema_dir) else []
    if schemas_expected is not None:
        need(have == schemas_expected, f"schemas: {have} != {schemas_expected}")
    else:
        need(len(have) > 0, "share/rdmi-probe/schemas/*.json")
    for name in have:
        try:
            with open(os.path.join(schema_dir, name), encoding="utf-8") as f:
                json.load(f)
        except ValueError as e:
            problems.append(f"schema {name}: {e}")
    man1 = rel("share", "man", "man1")
    try:
        with gzip.open(os.path.join(man1, "rdmi-probe.1.gz"), "rt") as f:
            page = f.read()
        need(page.startswith(".\\\"") and "\n.TH RDMI-PROBE 1" in page, "rdmi-probe.1 is a man page")
        need(not re.search(r"@[A-Z_]+@", page), "no unfilled @PLACEHOLDERS@ in the man page")
    except OSError as e:
        problems.append(f"man1/rdmi-probe.1.gz: {e}")
    for h in helpers:
        try:
            with gzip.open(os.path.join(man1, h + ".1.gz"), "rt") as f:
                need(f.read() == ".so man1/rdmi-probe.1\n", f"man1/{h}.1.gz is a .so link")
        except OSError as e:
            problems.append(f"man1/{h}.1.gz: {e}")
    bash = rel("share", "bash-completion", "completions")
    need(os.path.isfile(os.path.join(bash, "rdmi-probe")), "bash completion")
    for h in helpers:
        need(os.path.realpath(os.path.join(bash, h)) ==
             os.path.realpath(os.path.join(bash, "rdmi-probe")), f"bash completion link {h}")
    need(os.path.isfile(rel("share", "zsh", "vendor-completions", "_rdmi-probe")),
         "zsh completion")
    # The installed scripts are what the installed program writes: never an older copy.
    for shell, path in (("bash", os.path.join(bash, "rdmi-probe")),
                        ("zsh", rel("share", "zsh", "vendor-completions", "_rdmi-probe"))):
        try:
            with open(path, encoding="utf-8") as f:
                installed = f.read()
            written = subprocess.run([*EMULATOR, binary, "__complete", "--script", shell],
                                     capture_output=True, text=True, timeout=60).stdout
            need(installed == written, f"{shell} completion is `rdmi-probe __complete --script {shell}`")
        except OSError as e:
            problems.append(f"{shell} completion: {e}")
    doc = rel("share", "doc", "rdmi-probe")
    for name in ("README.md", "LICENSE", "copyright", "changelog.gz"):
        need(os.path.isfile(os.path.join(doc, name)), f"share/doc/rdmi-probe/{name}")
    need(os.path.isfile(os.path.join(doc, "fleet.md")), "share/doc/rdmi-probe/fleet.md")
    # The fleet files, as shipped: the units under <prefix>/lib/systemd/system (/usr/lib/... in
    # the packages), not enabled (no link into a .wants directory); the fact executable.
    units = rel("lib", "systemd", "system")
    for name in FLEET_UNITS:
        path = os.path.join(units, name)
        try:
            with open(path, encoding="utf-8") as f, \
                    open(os.path.join(source, "packaging", "systemd", name), encoding="utf-8") as g:
                need(f.read() == g.read(), f"lib/systemd/system/{name} is packaging/systemd/{name}")
            need(os.stat(path).st_mode & 0o777 == 0o644, f"lib/systemd/system/{name} is 0644")
        except OSError as e:
            problems.append(f"lib/systemd/system/{name}: {e}")
    enabled = [os.path.join(d, n) for top in (prefix, os.path.join(prefix, "..", "etc"))
               for d, _, names in os.walk(top) for n in names
               if n in FLEET_UNITS and d.endswith(".wants")]
    need(not enabled, f"the units are installed, not enabled: {enabled}")
    fact = rel("share", "rdmi-probe", "ansible", "rdmi.fact")
    need(os.path.isfile(fact) and os.stat(fact).st_mode & 0o777 == 0o755,
         "share/rdmi-probe/ansible/rdmi.fact is 0755")
    if os.path.isfile(fact):
        p = subprocess.run([fact], capture_output=True, text=True, timeout=30,
                           env={"PATH": "/usr/bin:/bin",
                                "RDMI_PROBE_ENV_CACHE": os.path.join(prefix, "no-such-cache")})
        try:
            need(p.returncode == 0 and "error" in json.loads(p.stdout),
                 f"rdmi.fact without a cache: exit {p.returncode}, {p.stdout.strip()[:200]}")
        except ValueError as e:
            problems.append(f"rdmi.fact without a cache: not JSON ({e})")
    if os.path.isfile(os.path.join(doc, "LICENSE")):
        with open(os.path.join(doc, "LICENSE"), encoding="utf-8") as f:
            need("Apache License" in f.read(2000), "LICENSE is the Apache-2.0 text")

    # Run it under every name, from the tree, with only the tree's bin on PATH.
    env = {"PATH": rel("bin") + ":/usr/bin:/bin", "LC_ALL": "C.UTF-8",
           "SOURCE_DATE_EPOCH": "1700000000"}
    for key in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if key in os.environ:
            env[key] = os.environ[key]
    with tempfile.TemporaryDirectory(prefix="rdmi-empty-root-") as empty_root:
        for name in ["rdmi-probe"] + helpers:
            exe = rel("bin", name)
            for argv, codes in (([exe, "--version"], (0,)), ([exe, "--help"], (0,))):
                p = subprocess.run([*EMULATOR, *argv], capture_output=True, text=True, env=env, timeout=60)
                need(p.returncode in codes and p.stdout.strip(),
                     f"{name} {argv[1]}: exit {p.returncode} {p.stderr.strip()[:200]}")
            # doca-validate (check) needs a requirement; an empty root cannot meet it.
            extra = ["--require-consistent"] if name == "doca-validate" else []
            p = subprocess.run([*EMULATOR, exe, "--json", "--root", empty_root, *extra], capture_output=True,
                               text=True, env=env, timeout=60)
            try:
                doc_ = json.loads(p.stdout)
                need(isinstance(doc_, dict) and p.returncode in (0, 1, 3),
                     f"{name} --json: exit {p.returncode}")
            except ValueError as e:
                problems.append(f"{name} --json: not JSON ({e}); exit {p.returncode}; "
                                f"{p.stderr.strip()[:200]}")
        p = subprocess.run([*EMULATOR, rel("bin", "rdmi-probe"), "--version"], capture_output=True,
                           text=True, env=env)
        need(p.stdout.startswith("rdmi-probe "), f"--version says {p.stdout.strip()!r}")
    return checks, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build")
    ap.add_argument("--tree")
    ap.add_argument("--source", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    ap.add_argument("--emulator", default="", help="run the binary through this (qemu user-mode)")
    args = ap.parse_args()
    EMULATOR[:] = shlex.split(args.emulator)
    schemas = sorted(n for n in os.listdir(os.path.join(args.source, "schemas"))
                     if n.endswith(".json"))
    if args.tree:
        checks, problems = check_tree(args.tree, False, schemas, args.source)
    elif args.build:
        plugin = os.path.isfile(os.path.join(args.build, "rdmi-probe-dpa.so"))
        with tempfile.TemporaryDirectory(prefix="rdmi-install-") as prefix:
            p = subprocess.run(["cmake", "--install", args.build, "--prefix", prefix],
                               capture_output=True, text=True)
            if p.returncode != 0:
                print(f"FAIL cmake --install: {p.stdout}{p.stderr}")
                return 1
            checks, problems = check_tree(prefix, plugin, schemas, args.source)
    else:
        ap.error("--build or --tree")
    for pr in problems:
        print("FAIL:", pr)
    print(f"install layout: {checks} checks, {len(problems)} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
