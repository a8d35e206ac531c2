#!/usr/bin/python3
"""The fleet's systemd units and Ansible fact (packaging/systemd, packaging/ansible).

  units   `systemd-analyze verify` accepts the service and the timer with nothing to say (the
          ExecStart binary pointed at the build's); the timer runs the service every 5 minutes
          and is wanted by timers.target; the service's ExecStart lines, run in order as
          systemd runs them against a fixture root with their directories moved into a
          temporary one, write the env cache, the verdict cache and the metrics with a status
          the unit counts as success; without node_exporter's textfile directory they still
          write both caches, skip the metrics saying why and succeed; metrics that cannot be
          written into an existing directory fail the unit after the caches; the service's
          SystemCallFilter= (its @groups expanded by `systemd-analyze syscall-filter`) allows
          prctl, capget, capset and the landlock_* calls the contained children make; the
          check --wait example unit of docs/fleet.md passes the same verify, its start timeout
          covers the wait, and its ExecStartPre= line passes on a fixture root
  fact    rdmi.fact prints one JSON object in every case: the cached document's bytes up to
          its closing brace, or an {"error": {"message": ...}} object when the cache is
          missing, empty, truncated, not a file, unreadable, too large, or shaped like one
          object without being one (not UTF-8, binary, two documents); and beside it, in
          every case, `verdict`: ready, build_ready and result as the program answers them
          for the root whose `report --format nfd` was cached, or an error object when that
          cache is missing, unreadable, too large or holds what rdmi-probe never writes; the
          same bytes with and without python3; one document whole when the timer renames
          another over the cache while the fact reads it; and always exits 0

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

    problems += check_exec_lines(args, service)
    return problems


# Where the service writes, and what the test puts there instead.
CACHE_DIR = "/var/cache/rdmi-probe"
TEXTFILE_DIR = "/var/lib/prometheus/node-exporter"
EXPECTED_OUTPUTS = [f"{CACHE_DIR}/env.json", f"{CACHE_DIR}/verdict.nfd",
                    f"{TEXTFILE_DIR}/rdmi-probe.prom"]


def run_service(service, binary, root, cache_dir, textfile_dir, scratch):
    """Runs the service's ExecStart= lines as systemd does (each split by its quoting, run
    without a shell, in order; the first whose exit status is not a success ends the unit),
    with rdmi-probe replaced by the build's binary on `root` and the two directories moved.
    Returns (unit succeeded, [(command, exit status, stderr)])."""
    wrapper = os.path.join(scratch, "rdmi-probe")
    Path(wrapper).write_text(f'#!/bin/sh\nexec {shlex.quote(binary)} "$@" --root {shlex.quote(root)}\n')
    os.chmod(wrapper, 0o755)
    success = {0} | {int(c) for v in unit_values(service, "SuccessExitStatus") for c in v.split()}
    ran = []
    for command in unit_values(service, "ExecStart"):
        moved = (command.replace("/usr/bin/rdmi-probe", wrapper).replace(CACHE_DIR, cache_dir)
                 .replace(TEXTFILE_DIR, textfile_dir))
        proc = subprocess.run(shlex.split(moved), capture_output=True, text=True, env=ENV,
                              timeout=120)
        ran.append((command, proc.returncode, proc.stderr))
        if proc.returncode not in success:
            return False, ran
    return True, ran


def check_exec_lines(args, service):
    """The service writes the env cache, the verdict cache and the metrics; the two caches the
    Ansible fact reads are written whether or not node_exporter's textfile directory exists,
    and only its absence (not a failed write into it) skips the metrics."""
    problems = []
    outputs = re.findall(r"--output ([^\s;']+)", "\n".join(unit_values(service, "ExecStart")))
    if sorted(outputs) != sorted(EXPECTED_OUTPUTS):
        problems.append(f"{SERVICE}: writes {outputs}, want {EXPECTED_OUTPUTS}")
    writable = set(unit_values(service, "ReadWritePaths")) | {
        "/var/cache/" + v for v in unit_values(service, "CacheDirectory")}
    for out in outputs:
        if not any(os.path.dirname(out) == w.lstrip("-") for w in writable):
            problems.append(f"{SERVICE}: {out} is outside ReadWritePaths= and CacheDirectory=")
    for command in unit_values(service, "ExecStart"):
        if not shlex.split(command)[0].startswith("/"):
            problems.append(f"{SERVICE}: ExecStart {command!r} does not start with an absolute path")
    root = os.path.join(args.fixtures, "roots", "both-host")
    binary = os.path.abspath(args.binary)

    def written(directory, name):
        path = os.path.join(directory, name)
        return os.path.isfile(path) and os.path.getsize(path) > 0

    def describe(ran):
        return "; ".join(f"{c.split()[0]}...: exit {rc} {err.strip()[:200]!r}" for c, rc, err in ran)

    with tempfile.TemporaryDirectory(prefix="rdmi-exec-") as d:
        # Every directory there: the three files written, the unit a success.
        cache, textfile = os.path.join(d, "cache"), os.path.join(d, "textfile")
        os.mkdir(cache)
        os.mkdir(textfile)
        ok, ran = run_service(service, binary, root, cache, textfile, d)
        missing = [n for dir_, n in ((cache, "env.json"), (cache, "verdict.nfd"),
                                     (textfile, "rdmi-probe.prom")) if not written(dir_, n)]
        if not ok or missing:
            problems.append(f"with both directories: unit {'ok' if ok else 'failed'}, not "
                            f"written {missing}: {describe(ran)}")
        else:
            print(f"ok   with both directories: {len(ran)} ExecStart lines, exits "
                  f"{[rc for _, rc, _ in ran]}, env.json, verdict.nfd and rdmi-probe.prom written")

    for case, make in (("without the textfile directory", lambda path: None),
                       ("with a file where the textfile directory goes",
                        lambda path: Path(path).write_text("not a directory\n"))):
        with tempfile.TemporaryDirectory(prefix="rdmi-exec-") as d:
            # No textfile directory (node_exporter not installed): the caches are still
            # written, the metrics skipped with a line for the journal, and the unit succeeds.
            cache, textfile = os.path.join(d, "cache"), os.path.join(d, "no-textfile")
            os.mkdir(cache)
            make(textfile)
            existed = os.path.lexists(textfile)
            ok, ran = run_service(service, binary, root, cache, textfile, d)
            said = "".join(err for _, _, err in ran)
            if not ok or not written(cache, "env.json") or not written(cache, "verdict.nfd"):
                problems.append(f"{case}: unit {'ok' if ok else 'failed'}, caches written "
                                f"{written(cache, 'env.json')}/{written(cache, 'verdict.nfd')}: "
                                f"{describe(ran)}")
            elif os.path.isdir(textfile) or os.path.lexists(textfile) != existed:
                problems.append(f"{case}: the unit changed what is at the textfile path")
            elif "is not a directory (is prometheus-node-exporter installed?)" not in said:
                problems.append(f"{case}: nothing said why no metrics were written: "
                                f"{said[:300]!r}")
            else:
                print(f"ok   {case}: the env and verdict caches written, the metrics skipped "
                      "with a message, the unit a success")

    with tempfile.TemporaryDirectory(prefix="rdmi-exec-") as d:
        # A textfile directory whose metrics cannot be written (a directory where the file
        # goes): a failure of the unit, not a skip; the caches written before it.
        cache, textfile = os.path.join(d, "cache"), os.path.join(d, "textfile")
        os.mkdir(cache)
        os.makedirs(os.path.join(textfile, "rdmi-probe.prom"))
        ok, ran = run_service(service, binary, root, cache, textfile, d)
        if ok or ran[-1][1] != 2:
            problems.append(f"metrics that cannot be written: unit {'ok' if ok else 'failed'}, "
                            f"want a failure with exit 2: {describe(ran)}")
        elif not written(cache, "env.json") or not written(cache, "verdict.nfd"):
            problems.append("metrics that cannot be written: the caches before them were not")
        else:
            print("ok   metrics that cannot be written fail the unit (exit 2), after the caches")
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


def run_fact(fact, cache, verdict, user=None, path="/usr/bin:/bin"):
    def drop():
        if user is not None:
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)

    env = {"PATH": path, "RDMI_PROBE_ENV_CACHE": str(cache),
           "RDMI_PROBE_VERDICT_CACHE": str(verdict)}
    return subprocess.run([str(fact)], capture_output=True, text=True, errors="replace", env=env,
                          timeout=30,
                          preexec_fn=drop)


def without_python(directory):
    """A PATH of the tools the fact uses, python3 not among them: its other reader."""
    os.makedirs(directory)
    for tool in ("sh", "head", "tail", "tr", "wc", "cat"):
        os.symlink(shutil.which(tool, path="/usr/bin:/bin"), os.path.join(directory, tool))
    return directory


def program_verdict(binary, root):
    """The verdict as the program itself answers it: `report --for run` and `--for build` exit
    0 or not, and the report's result."""
    def run(*extra):
        return subprocess.run([binary, "report", "--root", root, *extra], capture_output=True,
                              text=True, env=ENV, timeout=120)
    return {"ready": run("--for", "run").returncode == 0,
            "build_ready": run("--for", "build").returncode == 0,
            "result": run("--json", "--field", "/result").stdout.strip()}


def check_fact(args):
    problems = []
    fact = Path(args.source) / "packaging" / "ansible" / "rdmi.fact"
    if not os.access(fact, os.X_OK):
        problems.append(f"{fact} is not executable")
    # The fact adds `error` and `verdict` beside the env document's fields: the contract must
    # never give the document members of those names.
    schema = json.loads((Path(args.source) / "schemas" / "doca-env.schema.json").read_text())
    if schema.get("additionalProperties") is not False or \
            {"error", "verdict"} & set(schema.get("properties", {})):
        problems.append("doca-env.schema.json allows an 'error' or 'verdict' member: the fact's "
                        "members would collide with the document's")
    with tempfile.TemporaryDirectory(prefix="rdmi-fact-") as d:
        os.chmod(d, 0o755)
        no_python = without_python(os.path.join(d, "bin"))
        cache = Path(d, "env.json")
        verdicts = {}
        for name in ("both-host", "both-empty"):
            root = os.path.join(args.fixtures, "roots", name)
            verdicts[name] = (Path(d, f"{name}.nfd"), program_verdict(args.binary, root))
            proc = subprocess.run([args.binary, "report", "--format", "nfd", "--output",
                                   str(verdicts[name][0]), "--root", root],
                                  capture_output=True, text=True, env=ENV, timeout=120)
            if proc.returncode not in (0, 1, 3):
                return [f"report --format nfd on {name}: exit {proc.returncode}: "
                        f"{proc.stderr.strip()[:300]}"]
        proc = subprocess.run([args.binary, "env", "--json", "--output", str(cache), "--root",
                               os.path.join(args.fixtures, "roots", "both-host")],
                              capture_output=True, text=True, env=ENV, timeout=120)
        if proc.returncode != 0:
            return [f"env --json: exit {proc.returncode}: {proc.stderr.strip()[:300]}"]
        document = cache.read_text()
        if verdicts["both-host"][1] == verdicts["both-empty"][1]:
            problems.append(f"both roots have the verdict {verdicts['both-host'][1]}: the fact's "
                            "verdict is not shown to follow the cache")

        def expect_document(case, env_cache, verdict_path, want_verdict):
            """The document's own bytes up to its closing brace, then `verdict`: its fields
            unchanged, with and without python3, byte for byte the same."""
            body = Path(env_cache).read_text()
            outputs = []
            for path in ("/usr/bin:/bin", no_python):
                proc = run_fact(fact, env_cache, verdict_path, path=path)
                outputs.append(proc.stdout)
                try:
                    doc = json.loads(proc.stdout)
                except ValueError:
                    doc = None
                if proc.returncode != 0 or not isinstance(doc, dict):
                    problems.append(f"{case} (PATH {path}): exit {proc.returncode}, not one JSON "
                                    f"object: {proc.stdout[:200]!r}")
                    return
                got = doc.pop("verdict", None)
                if doc != json.loads(body) or not proc.stdout.startswith(body.rstrip()[:-1]):
                    problems.append(f"{case} (PATH {path}): the document's fields changed")
                    return
                if got != want_verdict:
                    problems.append(f"{case} (PATH {path}): verdict {got}, want {want_verdict}")
                    return
            if outputs[0] != outputs[1]:
                problems.append(f"{case}: python3 and the shell print different bytes")
            else:
                print(f"ok   {case}: the document as it is, verdict {want_verdict}")

        for name, (verdict_path, want) in verdicts.items():
            expect_document(f"the env cache and {name}'s verdict", cache, verdict_path, want)
        host_verdict, host_want = verdicts["both-host"]
        if "error" in json.loads(document):
            problems.append("the env document has an 'error' key: the fact's error test is ambiguous")

        bare = Path(d, "no-final-newline.json")
        bare.write_text(json.dumps(json.loads(document)))  # one line, ending in "}"
        expect_document("a document without a final line feed", bare, host_verdict, host_want)
        Path(d, "empty-object.json").write_text("{}\n")
        expect_document("an empty object", Path(d, "empty-object.json"), host_verdict, host_want)

        def expect_one_file_read(case, old_body, new_body):
            """The timer renames a new document over the cache while the fact reads it: without
            python3 the fact measured one file and copied another (a document cut short, or its
            closing brace twice). A `wc` that renames the new one over the path right after it
            measured the old one makes the moment certain; the fact must print one of the two
            documents whole."""
            swap_dir = Path(d, "swap-bin")
            shutil.rmtree(swap_dir, ignore_errors=True)
            without_python(str(swap_dir))
            (swap_dir / "wc").unlink()
            env_cache, staged = Path(d, "swapped.json"), Path(d, "swapped.json.new")
            env_cache.write_text(old_body)
            staged.write_text(new_body)
            wc = shutil.which("wc", path="/usr/bin:/bin")
            mv = shutil.which("mv", path="/usr/bin:/bin")
            (swap_dir / "wc").write_text(
                "#!/bin/sh\n"
                f"out=$({shlex.quote(wc)} \"$@\") || exit\n"
                "echo \"$out\"\n"
                f"if [ \"$out\" = {len(old_body.encode())} ] && [ -e {shlex.quote(str(staged))} ]; "
                f"then {shlex.quote(mv)} -f {shlex.quote(str(staged))} "
                f"{shlex.quote(str(env_cache))}; fi\n")
            (swap_dir / "wc").chmod(0o755)
            proc = run_fact(fact, env_cache, host_verdict, path=str(swap_dir))
            try:
                doc = json.loads(proc.stdout)
            except ValueError:
                doc = None
            if staged.exists():
                problems.append(f"{case}: the cache was never measured, nothing was swapped")
            elif not isinstance(doc, dict) or doc.pop("verdict", None) != host_want or \
                    doc not in (json.loads(old_body), json.loads(new_body)):
                problems.append(f"{case}: not one of the two documents whole: "
                                f"{proc.stdout[:300]!r}")
            else:
                print(f"ok   {case}: one document whole, the verdict beside it")

        expect_one_file_read("the timer renames a longer document over the cache mid-read",
                             '{"a": 1}\n', document)
        expect_one_file_read("the timer renames a shorter document over the cache mid-read",
                             document, '{"a": 1}\n')

        def expect_error(case, path, user=None, verdict=host_verdict, want=host_want):
            proc = run_fact(fact, path, verdict, user)
            try:
                doc = json.loads(proc.stdout)
                good = (proc.returncode == 0 and isinstance(doc.get("error", {}).get("message"), str)
                        and doc.get("verdict") == want)
            except ValueError:
                good = False
            if not good:
                problems.append(f"{case}: exit {proc.returncode}, stdout {proc.stdout[:200]!r}")
            else:
                print(f"ok   {case}: {doc['error']['message']}; the verdict beside it")

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

        def expect_verdict_error(case, verdict, user=None):
            """A verdict cache that cannot be used: `verdict` is an error object, the document
            beside it untouched."""
            proc = run_fact(fact, cache, verdict, user)
            try:
                doc = json.loads(proc.stdout)
                got = doc.pop("verdict", {})
                good = (proc.returncode == 0 and doc == json.loads(document)
                        and isinstance(got.get("error", {}).get("message"), str) and len(got) == 1)
            except (ValueError, AttributeError):
                good = False
            if not good:
                problems.append(f"verdict: {case}: exit {proc.returncode}, "
                                f"stdout {proc.stdout[-300:]!r}")
            else:
                print(f"ok   verdict: {case}: {got['error']['message']}")

        expect_verdict_error("no verdict cache", Path(d, "missing.nfd"))
        Path(d, "dir.nfd").mkdir()
        expect_verdict_error("a directory", Path(d, "dir.nfd"))
        text = host_verdict.read_text()
        for case, body in (
                ("an empty file", ""),
                ("a value rdmi-probe never writes", text.replace("ready=true", "ready=maybe")),
                ("a forged member in a value",
                 text.replace("result=pass", 'result=pass", "x": {"')),
                ("a key missing", "".join(l for l in text.splitlines(True)
                                          if "/build-ready=" not in l)),
                ("over 64 KiB", text + "#" * 65536 + "\n")):
            Path(d, "bad.nfd").write_text(body)
            expect_verdict_error(case, Path(d, "bad.nfd"))
        Path(d, "last-line.nfd").write_text(text.rstrip("\n"))
        expect_document("a verdict cache whose last line has no line feed", cache,
                        Path(d, "last-line.nfd"), host_want)
        if os.geteuid() == 0:
            secret = Path(d, "secret.nfd")
            shutil.copy(host_verdict, secret)
            os.chmod(secret, 0o600)
            expect_verdict_error("a cache this user cannot read", secret, pwd.getpwnam("nobody"))
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
