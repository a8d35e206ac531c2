#!/usr/bin/python3
"""The fleet's systemd units and Ansible fact (packaging/systemd, packaging/ansible).

  units   `systemd-analyze verify` accepts the service and the timer with nothing to say (the
          ExecStart binary pointed at the build's); the timer runs the service every 5 minutes
          and is wanted by timers.target; each ExecStart line of the service, run as written
          against a fixture root with its output paths moved into a temporary directory,
          exits with a status the unit counts as success and writes its file; the service's
          SystemCallFilter= (its @groups expanded by `systemd-analyze syscall-filter`) allows
          prctl, capget, capset and the landlock_* calls the contained children make; the
          check --wait example unit of docs/fleet.md passes the same verify, its start timeout
          covers the wait, and its ExecStartPre= line passes on a fixture root
  fact    rdmi.fact prints one JSON object in every case: the cached document as it is, or an
          {"error": {"message": ...}} object when the cache is missing, empty, truncated, not
          a file, unreadable, too large, or shaped like one object without being one (not
          UTF-8, binary, two documents); and always exits 0

    test_fleet_units.py --binary B --fixtures F --source S units --tool PATH-OF-systemd-analyze
    test_fleet_units.py --binary B --fixtures F --source S fact

An empty --tool (systemd-analyze not found at configure time) is a skip: exit 77.
"""
import argparse
import json
import os
import pwd
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP = 77
SERVICE = "rdmi-probe-textfile.service"
TIMER = "rdmi-probe-textfile.timer"
ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "SOURCE_DATE_EPOCH": "1700000000"}
for _key in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
    if _key in os.environ:
        ENV[_key] = os.environ[_key]


def unit_values(text, key):
    return [m.group(1).strip() for m in re.finditer(rf"^{key}=(.*)$", text, re.MULTILINE)]


# What the probe's contained children call to contain themselves (src/process/containment.cpp).
CONTAINMENT_CALLS = ["prctl", "capget", "capset", "landlock_create_ruleset", "landlock_add_rule",
                     "landlock_restrict_self"]


def expand_syscall_group(tool, name, seen):
    """The system calls of a SystemCallFilter= item, groups expanded as systemd-analyze lists them."""
    if not name.startswith("@"):
        return {name}
    if name in seen:
        return set()
    seen.add(name)
    proc = subprocess.run([tool, "syscall-filter", name], capture_output=True, text=True, timeout=60)
    calls = set()
    for line in proc.stdout.splitlines()[1:]:
        item = line.strip()
        if item and not item.startswith("#"):
            calls |= expand_syscall_group(tool, item, seen)
    return calls


def check_syscall_filter(tool, service):
    """The unit's SystemCallFilter= lets the containment's calls through: allow-lists add up,
    a "~" list takes away (systemd.exec(5))."""
    allowed, denied, seen = set(), set(), set()
    for value in unit_values(service, "SystemCallFilter"):
        target = denied if value.startswith("~") else allowed
        for item in value.lstrip("~").split():
            target |= expand_syscall_group(tool, item, seen)
    if len(allowed) < 50:
        return [f"systemd-analyze syscall-filter expanded the allow-list to {len(allowed)} calls: "
                "this check cannot tell what the unit allows"]
    missing = [c for c in CONTAINMENT_CALLS if c not in allowed or c in denied]
    if missing:
        return [f"{SERVICE}: SystemCallFilter= denies {missing}: the contained children would "
                "run without Landlock (run.containment partial)"]
    print(f"ok   SystemCallFilter= allows {', '.join(CONTAINMENT_CALLS)}")
    return []


def check_units(args):
    problems = []
    units = Path(args.source) / "packaging" / "systemd"
    service = (units / SERVICE).read_text()
    timer = (units / TIMER).read_text()
    binary = os.path.abspath(args.binary)
    with tempfile.TemporaryDirectory(prefix="rdmi-units-") as d:
        for name, text in ((SERVICE, service), (TIMER, timer)):
            Path(d, name).write_text(text.replace("/usr/bin/rdmi-probe", binary))
        proc = subprocess.run([args.tool, "verify", "--man=no", os.path.join(d, SERVICE),
                               os.path.join(d, TIMER)], capture_output=True, text=True, timeout=60)
        said = (proc.stdout + proc.stderr).strip()
        if proc.returncode != 0 or said:
            problems.append(f"systemd-analyze verify: exit {proc.returncode}: {said[:600]}")
        else:
            print("ok   systemd-analyze verify: no complaint")
        # verify also reports an unknown key, without failing: make sure it would say something.
        Path(d, SERVICE).write_text(service.replace("[Service]\n", "[Service]\nNoSuchKey=1\n"))
        proc = subprocess.run([args.tool, "verify", "--man=no", os.path.join(d, SERVICE)],
                              capture_output=True, text=True, timeout=60)
        if "NoSuchKey" not in proc.stdout + proc.stderr:
            problems.append("systemd-analyze verify did not mention an unknown key: this check "
                            "cannot fail")

    problems += check_syscall_filter(args.tool, service)
    problems += check_wait_example(args)

    if unit_values(timer, "OnUnitActiveSec") != ["5min"]:
        problems.append(f"{TIMER}: OnUnitActiveSec {unit_values(timer, 'OnUnitActiveSec')}, want 5min")
    if unit_values(timer, "WantedBy") != ["timers.target"]:
        problems.append(f"{TIMER}: not WantedBy=timers.target")
    if unit_values(timer, "Unit") not in ([], [SERVICE]):
        problems.append(f"{TIMER}: runs {unit_values(timer, 'Unit')}, not {SERVICE}")
    if unit_values(service, "WantedBy"):
        problems.append(f"{SERVICE}: has an [Install] target: the timer starts it, nothing else")

    success = {0} | {int(c) for v in unit_values(service, "SuccessExitStatus") for c in v.split()}
    commands = unit_values(service, "ExecStart")
    outputs = [a for c in commands for a in shlex.split(c)[shlex.split(c).index("--output") + 1:][:1]]
    if sorted(outputs) != ["/var/cache/rdmi-probe/env.json",
                           "/var/lib/prometheus/node-exporter/rdmi-probe.prom"]:
        problems.append(f"{SERVICE}: writes {outputs}")
    writable = set(unit_values(service, "ReadWritePaths")) | {
        "/var/cache/" + v for v in unit_values(service, "CacheDirectory")}
    for out in outputs:
        if not any(os.path.dirname(out) == w.lstrip("-") for w in writable):
            problems.append(f"{SERVICE}: {out} is outside ReadWritePaths= and CacheDirectory=")
    with tempfile.TemporaryDirectory(prefix="rdmi-exec-") as d:
        for command in commands:
            argv = shlex.split(command)
            if argv[0] != "/usr/bin/rdmi-probe":
                problems.append(f"{SERVICE}: ExecStart runs {argv[0]}")
                continue
            target = os.path.join(d, os.path.basename(argv[argv.index("--output") + 1]))
            argv[argv.index("--output") + 1] = target
            argv = [binary, *argv[1:], "--root", os.path.join(args.fixtures, "roots", "both-host")]
            proc = subprocess.run(argv, capture_output=True, text=True, env=ENV, timeout=120)
            if proc.returncode not in success or not os.path.getsize(target):
                problems.append(f"ExecStart {command}: exit {proc.returncode} (the unit accepts "
                                f"{sorted(success)}): {proc.stderr.strip()[:300]}")
            else:
                print(f"ok   ExecStart {' '.join(argv[1:3])}: exit {proc.returncode}, "
                      f"{os.path.getsize(target)} bytes")
    return problems


def wait_example(source):
    """docs/fleet.md's example unit: the ```ini block that has an ExecStartPre= line."""
    text = (Path(source) / "docs" / "fleet.md").read_text()
    blocks = re.findall(r"^```ini\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    return [b for b in blocks if "ExecStartPre=" in b]


def check_wait_example(args):
    """The check --wait example of docs/fleet.md: systemd-analyze verify accepts it, its start
    timeout covers the wait, and its ExecStartPre= line passes on a host whose DPA port is
    ACTIVE (the both-host fixture root)."""
    problems = []
    found = wait_example(args.source)
    if len(found) != 1:
        return [f"docs/fleet.md: {len(found)} ```ini blocks with ExecStartPre=, want the one "
                "check --wait example"]
    unit = found[0]
    binary = os.path.abspath(args.binary)
    pre = unit_values(unit, "ExecStartPre")
    if len(pre) != 1 or shlex.split(pre[0])[:2] != ["/usr/bin/rdmi-probe", "check"] \
            or "--wait" not in shlex.split(pre[0]):
        return [f"docs/fleet.md example: ExecStartPre= {pre}, want one rdmi-probe check --wait"]
    argv = shlex.split(pre[0])
    with tempfile.TemporaryDirectory(prefix="rdmi-wait-unit-") as d:
        # The application is the reader's; verify needs an executable at its path.
        app = unit_values(unit, "ExecStart")[0].split()[0]
        text = unit.replace("/usr/bin/rdmi-probe", binary).replace(app, "/bin/true")
        path = os.path.join(d, "my-rdmi-app.service")
        Path(path).write_text(text)
        proc = subprocess.run([args.tool, "verify", "--man=no", path], capture_output=True,
                              text=True, timeout=60)
        said = (proc.stdout + proc.stderr).strip()
        if proc.returncode != 0 or said:
            problems.append(f"docs/fleet.md example: systemd-analyze verify: exit "
                            f"{proc.returncode}: {said[:600]}")
        else:
            print("ok   docs/fleet.md check --wait example: systemd-analyze verify: no complaint")
    wait = argv[argv.index("--wait") + 1]
    start = unit_values(unit, "TimeoutStartSec")
    seconds = {"s": 1, "min": 60, "m": 60, "h": 3600}

    def in_seconds(value):
        m = re.fullmatch(r"([0-9.]+)(ms|s|min|m|h)?", value)
        if m is None:
            return None
        return float(m.group(1)) * (0.001 if m.group(2) == "ms" else seconds.get(m.group(2), 1))

    # The start timeout covers the wait and one evaluation's --timeout (default 10 s).
    if not start or in_seconds(start[0]) is None or in_seconds(wait) is None \
            or in_seconds(start[0]) < in_seconds(wait) + 10:
        problems.append(f"docs/fleet.md example: TimeoutStartSec={start} does not cover "
                        f"--wait {wait} and --timeout")
    proc = subprocess.run([binary, *argv[1:], "--root",
                           os.path.join(args.fixtures, "roots", "both-host")],
                          capture_output=True, text=True, env=ENV, timeout=200)
    if proc.returncode != 0:
        problems.append(f"docs/fleet.md example: ExecStartPre {pre[0]} on both-host: exit "
                        f"{proc.returncode}, want 0: {(proc.stdout + proc.stderr)[-400:]}")
    else:
        print("ok   docs/fleet.md check --wait example: ExecStartPre passes on both-host")
    return problems


def run_fact(fact, cache, user=None):
    def drop():
        if user is not None:
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)

    env = {"PATH": "/usr/bin:/bin", "RDMI_PROBE_ENV_CACHE": str(cache)}
    return subprocess.run([str(fact)], capture_output=True, text=True, errors="replace", env=env,
                          timeout=30,
                          preexec_fn=drop)


def check_fact(args):
    problems = []
    fact = Path(args.source) / "packaging" / "ansible" / "rdmi.fact"
    if not os.access(fact, os.X_OK):
        problems.append(f"{fact} is not executable")
    with tempfile.TemporaryDirectory(prefix="rdmi-fact-") as d:
        os.chmod(d, 0o755)
        cache = Path(d, "env.json")
        proc = subprocess.run([args.binary, "env", "--json", "--output", str(cache), "--root",
                               os.path.join(args.fixtures, "roots", "both-host")],
                              capture_output=True, text=True, env=ENV, timeout=120)
        if proc.returncode != 0:
            return [f"env --json: exit {proc.returncode}: {proc.stderr.strip()[:300]}"]
        document = cache.read_text()
        proc = run_fact(fact, cache)
        if proc.returncode != 0 or proc.stdout != document:
            problems.append(f"with a cache: exit {proc.returncode}, output is not the document")
        elif "error" in json.loads(proc.stdout):
            problems.append("the env document has an 'error' key: the fact's error test is ambiguous")
        else:
            print("ok   a cached document is printed as it is")

        bare = Path(d, "no-final-newline.json")
        bare.write_text(json.dumps(json.loads(document)))  # one line, ending in "}"
        proc = run_fact(fact, bare)
        if proc.returncode != 0 or proc.stdout != bare.read_text():
            problems.append(f"a document without a final line feed: exit {proc.returncode}, "
                            f"{proc.stdout[:200]!r}")
        else:
            print("ok   a document without a final line feed is printed as it is")

        def expect_error(case, path, user=None):
            proc = run_fact(fact, path, user)
            try:
                doc = json.loads(proc.stdout)
                good = proc.returncode == 0 and isinstance(doc.get("error", {}).get("message"), str)
            except ValueError:
                good = False
            if not good:
                problems.append(f"{case}: exit {proc.returncode}, stdout {proc.stdout[:200]!r}")
            else:
                print(f"ok   {case}: {doc['error']['message']}")

        expect_error("no cache", Path(d, "missing.json"))
        expect_error("a cache path with a quote and a line feed", Path(d, 'x"\n.json'))
        Path(d, "empty.json").write_text("")
        expect_error("an empty cache", Path(d, "empty.json"))
        Path(d, "cut.json").write_text(document[: len(document) // 2])
        expect_error("a truncated cache", Path(d, "cut.json"))
        # Shaped like one object (starts "{", ends "}") and still not one: what the first- and
        # last-byte check alone let through.
        for case, body in (("a cache not in UTF-8", b'{"a": "\xff\xfe"}'),
                           ("a binary cache", b"{\x00\x01\x7f}"),
                           ("two objects in the cache", b'{"a": 1}\n{"b": 2}')):
            Path(d, "shaped.json").write_bytes(body)
            expect_error(case, Path(d, "shaped.json"))
        Path(d, "dir.json").mkdir()
        expect_error("a directory", Path(d, "dir.json"))
        with open(Path(d, "huge.json"), "wb") as f:
            f.truncate(16 * 1024 * 1024 + 1)
        expect_error("a cache over 16 MiB", Path(d, "huge.json"))
        if os.geteuid() == 0:
            secret = Path(d, "secret.json")
            shutil.copy(cache, secret)
            os.chmod(secret, 0o600)
            expect_error("a cache this user cannot read", secret, pwd.getpwnam("nobody"))
        else:
            print("SKIP a cache this user cannot read: needs root to run as another user")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("mode", choices=["units", "fact"])
    ap.add_argument("--tool", default="")
    args = ap.parse_args()
    if args.mode == "units" and not args.tool:
        print("SKIP: systemd-analyze was not found when the build was configured (package "
              "systemd); the units were not verified")
        return SKIP
    problems = check_units(args) if args.mode == "units" else check_fact(args)
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
