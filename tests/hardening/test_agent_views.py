#!/usr/bin/python3
"""What an agent reads must be one truth: every view of "consistent" agrees on generated DOCA
trees, and the agent-facing answers (fix plan, recommended device, user paths) hold on hostile
input.

    test_agent_views.py --binary PATH --fixtures DIR --source DIR [--cases N]

The property: for N generated trees (complete-3.3 with each RDMI stack .pc given a version from
a hostile alphabet — another release, a trailing space, -rc/~ suffixes, empty, no Version line,
garbage, absent —, applications/VERSION varied the same way, sometimes a stale duplicate .pc on
PKG_CONFIG_PATH, sometimes DOCA's own pc dir gone), `env --json`'s /version/consistent, the
report's rdmi-stack-versions and contract-versions, and `check --require-consistent` give one
answer; env's per-library version is the one pkg-config resolves; every fix-plan step has an
action and check ids that the report failed or skipped, each id in one step only.

Then regression cases, each of which failed before its fix. Exits 1 when any fails.
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from hardening_suite import load_sysfs_builder

STACK = ["doca-common", "doca-verbs", "doca-dpa", "doca-rdmi"]
PC_DIR = "opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig"
SYS_PC_DIR = "usr/lib/x86_64-linux-gnu/pkgconfig"
VERSIONS = ["3.3.0105", "3.2.1025", "3.3.0047", "3.3.0105 ", "3.3.0105-rc1", "3.3.0105~rc1",
            "", "v3.3.0105", "3.3.0", "<no-version-line>", "<garbage>", "<absent>"]
APP_VERSIONS = ["3.3.0105", "3.2.1025", "3.3.0105\r", "", "junk", "<absent>"]
BAD = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def run(binary, args, env=None, cwd=None):
    full_env = dict(os.environ)
    full_env.pop("PKG_CONFIG_PATH", None)
    full_env.update(env or {})
    return subprocess.run([str(binary), *args], capture_output=True, env=full_env, cwd=cwd,
                          timeout=60)


def json_of(proc, what):
    try:
        return json.loads(proc.stdout)
    except ValueError:
        raise AssertionError(f"{what}: stdout is not JSON (exit {proc.returncode}): "
                             f"{proc.stderr.decode(errors='replace')[-300:]}")


def write_pc(path, text):
    path.unlink(missing_ok=True)
    path.write_text(text)


def set_version(pc_text, version):
    if version == "<no-version-line>":
        return re.sub(r"(?m)^Version:.*\n", "", pc_text)
    if version == "<garbage>":
        return "this is not\x01 a .pc file {{{\n"
    return re.sub(r"(?m)^Version:.*$", f"Version: {version}", pc_text)


def make_tree(fixtures, tmp, rng, n):
    root = tmp / f"tree{n}"
    shutil.copytree(fixtures / "roots/complete-3.3", root, symlinks=True)
    env = {}
    layout_gone = rng.random() < 0.15
    for name in STACK:
        doca_pc = root / PC_DIR / f"{name}.pc"
        sys_pc = root / SYS_PC_DIR / f"{name}.pc"
        text = doca_pc.read_text()
        version = "3.3.0105" if rng.random() < 0.7 else rng.choice(VERSIONS)
        # The system dir's entries are links into DOCA's dir: make them files of their own.
        sys_pc.unlink()
        if version == "<absent>":
            doca_pc.unlink()
            continue
        write_pc(doca_pc, set_version(text, version))
        write_pc(sys_pc, set_version(text, version))
    if rng.random() < 0.2:
        # A stale copy of one module earlier on the search path.
        name = rng.choice(STACK)
        custom = root / "custom"
        custom.mkdir(exist_ok=True)
        base = (fixtures / "roots/complete-3.3" / PC_DIR / f"{name}.pc").read_text()
        write_pc(custom / f"{name}.pc", set_version(base, rng.choice(["3.2.1025", "3.3.0105"])))
        env["PKG_CONFIG_PATH"] = "/custom"
    app = root / "opt/mellanox/doca/applications/VERSION"
    app_version = "3.3.0105" if rng.random() < 0.7 else rng.choice(APP_VERSIONS)
    if app_version == "<absent>":
        app.unlink()
    else:
        app.write_text(app_version + "\n")
    if layout_gone:
        # DOCA's own pc dir gone: the prefix check fails, the versions are still read.
        shutil.rmtree(root / PC_DIR)
    return root, env


def property_cases(binary, fixtures, tmp, count):
    problems = []
    rng = random.Random(20261201)
    consistent_seen = 0
    for n in range(count):
        root, env = make_tree(fixtures, tmp, rng, n)
        label = f"tree{n} ({env or 'no env'})"
        try:
            env_doc = json_of(run(binary, ["env", "--json", "--root", str(root)], env), label)
            report = json_of(run(binary, ["--json", "--root", str(root)], env), label)
            gate = json_of(run(binary, ["check", "--require-consistent", "--json", "--root",
                                        str(root)], env), label)
        except AssertionError as e:
            problems.append(str(e))
            continue
        checks = {c["id"]: c for c in report["checks"]}
        consistent = env_doc["version"]["consistent"]
        consistent_seen += consistent
        report_says = all(checks[i]["status"] == "pass"
                          for i in ("rdmi-stack-versions", "contract-versions"))
        if consistent != report_says or consistent != (gate["result"] == "pass"):
            problems.append(f"{label}: env consistent={consistent}, report "
                            f"{[checks[i]['status'] for i in ('rdmi-stack-versions', 'contract-versions')]}"
                            f", check {gate['result']}: {env_doc['x_rdmi_probe']['consistency']['reason']}")
        if any(checks[i]["status"] == "fail" for i in ("rdmi-stack-versions", "contract-versions")) \
                and gate["result"] != "fail":
            problems.append(f"{label}: the report fails a version check, check says {gate['result']}")
        # env's libraries carry the version the stack match judged.
        judged = {s["name"][:-3]: s["raw"].get("value")
                  for s in report["install"]["stack_versions"]["sources"]
                  if s["name"].endswith(".pc")}
        for lib in env_doc["x_rdmi_probe"]["libraries"]:
            name = lib["pkg_config_name"]
            if name in judged and lib["version"] is not None and lib["version"] != judged[name]:
                problems.append(f"{label}: env says {name} {lib['version']!r}, the consistency "
                                f"verdict judged {judged[name]!r}")
        problems += plan_problems(label, report)
    if count >= 20 and consistent_seen == 0:
        problems.append("the generator never produced a consistent tree: the property is vacuous")
    return problems


def plan_problems(label, report):
    problems = []
    statuses = {c["id"]: c["status"] for c in report["checks"]}
    seen = {}
    actions = set()
    for step in report["fix_plan"]:
        if not step["action"].strip():
            problems.append(f"{label}: step {step['step']} has no action")
        if step["action"] in actions:
            problems.append(f"{label}: action twice: {step['action']!r}")
        actions.add(step["action"])
        if not step["resolves"]:
            problems.append(f"{label}: step {step['step']} resolves nothing")
        for cid in step["resolves"]:
            if statuses.get(cid) not in ("fail", "skip"):
                problems.append(f"{label}: step {step['step']} resolves {cid}, "
                                f"which is {statuses.get(cid, 'not in the report')}")
            if cid in seen:
                problems.append(f"{label}: {cid} in steps {seen[cid]} and {step['step']}")
            seen[cid] = step["step"]
    return problems


# ---- regression cases -------------------------------------------------------------------------

def case_export_is_quoted_and_text_block_escaped(binary, fixtures, tmp, source):
    """A triplet directory named x86_64-linux-gnu$(touch pwned) ESC[2J LF PASS: the suggested
    export ran the command substitution when pasted, and the "What to do" block printed the line
    feed raw (a forged PASS line) and wrapped the command after "export"."""
    root = tmp / "hostile-triplet"
    shutil.copytree(fixtures / "roots/pc-only-in-doca-dir", root, symlinks=True)
    lib = root / "opt/mellanox/doca/lib"
    evil = "x86_64-linux-gnu$(touch pwned)\x1b[2J\nPASS"
    (lib / "x86_64-linux-gnu").rename(lib / evil)
    problems = []
    doc = json_of(run(binary, ["--json", "--root", str(root)]), "hostile-triplet")
    exports = [s["action"] for s in doc["fix_plan"] if s["action"].startswith("export ")]
    if not exports:
        return ["hostile-triplet: no export step in the fix plan"]
    action = exports[0]
    # Evaluated by a real shell, the suggestion must set the path and run nothing.
    shell = subprocess.run(["/bin/sh", "-c", action + '; printf %s "$PKG_CONFIG_PATH"'],
                           capture_output=True, cwd=tmp, env={"PATH": "/usr/bin:/bin"})
    if (tmp / "pwned").exists():
        problems.append("hostile-triplet: pasting the export ran the command substitution")
    if not shell.stdout.decode(errors="replace").startswith(f"/opt/mellanox/doca/lib/{evil}/"):
        problems.append(f"hostile-triplet: the export does not set the directory: {shell.stdout!r}")
    text = run(binary, ["--root", str(root)]).stdout.decode(errors="replace")
    block = text[text.find("What to do"):]
    if any(line.startswith("PASS/pkgconfig") for line in text.splitlines()):
        problems.append("hostile-triplet: a line of the human report starts with the forged PASS")
    if BAD.search(block.replace("\n", "")):
        problems.append("hostile-triplet: a raw control character in the What to do block")
    if not any(line.strip().startswith("1. export PKG_CONFIG_PATH=") for line in block.splitlines()):
        problems.append(f"hostile-triplet: the export is not whole on its line: {block[:300]!r}")
    return problems


def case_recommended_device_names_the_active_port(binary, fixtures, tmp, source):
    """One BlueField-3 PF carrying two rdma devices, mlx5_0 DOWN and mlx5_9 ACTIVE: the
    recommendation named mlx5_0 and said "port DOWN/ACTIVE". A second PF whose rdma name holds a
    line feed and a forged PASS is ranked first: the human line must escape it."""
    s = load_sysfs_builder(source)
    problems = []
    root = tmp / "two-rdma"
    r = s.Root(str(root))
    s.add_platform(r, arch="x86_64", release="6.1.0", modules=s.HOST_MODULES)
    d = s.add_pci_function(r, "0000:03:00.0", 0xA2DC)
    s.add_ibdev(r, d, "mlx5_0", 0xA2DC, ports={1: dict(state="1: DOWN")})
    s.add_ibdev(r, d, "mlx5_9", 0xA2DC, ports={1: {}})
    doc = json_of(run(binary, ["--json", "--root", str(root)]), "two-rdma")
    rec = doc["recommended_device"]
    if rec["rdma_device"] != "mlx5_9" or "mlx5_9 port ACTIVE" not in rec["reason"]:
        problems.append(f"two-rdma: recommended {rec['rdma_device']!r}: {rec['reason']!r}")
    gate = json_of(run(binary, ["check", "--require-dpa", "--require-port-active", "--json",
                                "--root", str(root)]), "two-rdma check")
    if gate["result"] != "pass" or rec["function"] not in gate["checks"][1]["details"]:
        problems.append(f"two-rdma: check does not name the recommended function: {gate['checks']}")
    hostile = tmp / "hostile-rdma"
    r = s.Root(str(hostile))
    s.add_platform(r, arch="x86_64", release="6.1.0", modules=s.HOST_MODULES)
    d = s.add_pci_function(r, "0000:01:00.0", 0xA2DC)
    s.add_ibdev(r, d, "mlx5_\n\x1b[2JPASS  forged", 0xA2DC, ports={1: {}})
    text = run(binary, ["--root", str(hostile)]).stdout.decode(errors="replace")
    rec_line = text[text.find("Recommended device"):text.find("Recommended device") + 400]
    if "Recommended device" not in text or "\\x1b" not in rec_line:
        problems.append(f"hostile-rdma: the recommendation is not shown escaped: {rec_line!r}")
    if any(re.match(r"(\\x1b\[2J|\x1b\[2J)?PASS  forged", line) for line in text.splitlines()):
        problems.append("hostile-rdma: a line of the human report starts with the forged PASS")
    return problems


def case_user_paths_resolve_like_the_shell(binary, fixtures, tmp, source):
    """`--app link/../app` names the app beside the link's target (what the shell and open(2)
    mean); lexical normalisation looked beside the link and said "no such file". --policy
    errors named the file as spelled ("nope.json"), not the full path tried."""
    problems = []
    work = tmp / "paths"
    (work / "real/sub").mkdir(parents=True)
    lib = next((fixtures / "roots/complete-3.3/opt/mellanox/doca/lib/x86_64-linux-gnu")
               .glob("libdoca_rdmi.so.3.3.*"))
    shutil.copy(lib, work / "real/app.so")
    os.symlink(work / "real/sub", work / "link")
    for args in (["check", "--app", "link/../app.so", "--min-version", "1.0.0", "--json"],
                 ["symbols", "--lib", "link/../app.so", "--json"]):
        proc = run(binary, args, cwd=work)
        if b"no such file" in proc.stdout + proc.stderr:
            problems.append(f"paths: {' '.join(args[:3])}: {proc.stderr.decode(errors='replace').strip()}")
    proc = run(binary, ["check", "--policy", "nope.json", "--json"], cwd=work)
    err = proc.stderr.decode(errors="replace").strip()
    if proc.returncode != 2 or str(work / "nope.json") not in err or err.count("\n"):
        problems.append(f"paths: --policy nope.json: exit {proc.returncode}, {err!r}")
    doc = json_of(proc, "--policy nope.json")
    if str(work / "nope.json") not in doc["error"]["message"]:
        problems.append(f"paths: --policy error document: {doc['error']['message']!r}")
    return problems


def case_garbage_pc_is_one_step(binary, fixtures, tmp, source):
    """A doca-common.pc with a NUL byte: the module check said "repair or reinstall" and both
    version checks "make doca-common.pc readable" (it is readable): two steps, one cause."""
    doc = json_of(run(binary, ["--json", "--root", str(fixtures / "roots/pc-garbage")]),
                  "pc-garbage")
    steps = doc["fix_plan"]
    problems = plan_problems("pc-garbage", doc)
    if len(steps) != 1 or set(steps[0]["resolves"]) != {
            "module-doca-common", "rdmi-stack-versions", "contract-versions"}:
        problems.append(f"pc-garbage: plan {[(s['action'], s['resolves']) for s in steps]}")
    return problems


def case_missing_pc_dir_is_one_step(binary, fixtures, tmp, source):
    """DOCA's prefix is there but its pc dir is gone (the system .pc files intact): the prefix
    check said "reinstall DOCA; expected lib/<triplet>/pkgconfig ..." and the headers
    check it skips "install the DOCA SDK ...": two steps for one cause. The versions, read and
    agreeing, were skipped as "no version could be read"."""
    root = tmp / "no-pc-dir"
    shutil.copytree(fixtures / "roots/complete-3.3", root, symlinks=True)
    for name in STACK:
        sys_pc = root / SYS_PC_DIR / f"{name}.pc"
        text = (root / PC_DIR / f"{name}.pc").read_text()
        write_pc(sys_pc, text)
    shutil.rmtree(root / PC_DIR)
    doc = json_of(run(binary, ["--json", "--root", str(root)]), "no-pc-dir")
    problems = plan_problems("no-pc-dir", doc)
    step = next((s for s in doc["fix_plan"] if "doca-prefix" in s["resolves"]), None)
    if step is None or "rdmi-headers" not in step["resolves"]:
        problems.append(f"no-pc-dir: plan {[(s['action'], s['resolves']) for s in doc['fix_plan']]}")
    statuses = {c["id"]: c["status"] for c in doc["checks"]}
    if statuses.get("rdmi-stack-versions") != "pass":
        problems.append(f"no-pc-dir: rdmi-stack-versions is {statuses.get('rdmi-stack-versions')}")
    return problems


CASES = [case_export_is_quoted_and_text_block_escaped,
         case_recommended_device_names_the_active_port,
         case_user_paths_resolve_like_the_shell,
         case_garbage_pc_is_one_step,
         case_missing_pc_dir_is_one_step]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, type=Path)
    parser.add_argument("--fixtures", required=True, type=Path)
    parser.add_argument("--source", required=True, type=Path)
    parser.add_argument("--cases", type=int, default=40, help="generated trees (default 40)")
    args = parser.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory(prefix="agent-views-") as tmpdir:
        tmp = Path(tmpdir)
        for case in CASES:
            sub = tmp / case.__name__
            sub.mkdir()
            problems = case(args.binary.resolve(), args.fixtures.resolve(), sub, args.source)
            print(("FAIL " if problems else "PASS ") + case.__name__)
            for p in problems:
                print("    " + p)
            failed += bool(problems)
        sub = tmp / "property"
        sub.mkdir()
        problems = property_cases(args.binary.resolve(), args.fixtures.resolve(), sub, args.cases)
        print(("FAIL " if problems else "PASS ") + f"consistency property over {args.cases} trees")
        for p in problems[:40]:
            print("    " + p)
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
