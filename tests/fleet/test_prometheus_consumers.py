#!/usr/bin/python3
"""`report --format prometheus` read by the real consumers, not by our idea of them.

  promtool       every fixture root's metrics pass `promtool check metrics` (Debian package
                 prometheus); a file with a known defect fails it, so the check can fail
  node-exporter  a real prometheus-node-exporter, started on 127.0.0.1 on a free port with
                 only the textfile collector pointed at a directory rdmi-probe wrote into
                 (under umask 077, read by node_exporter as nobody when the test runs as root),
                 is scraped over HTTP: every series of the file is there with its value, and
                 node_textfile_scrape_error is 0. The root's device names need escaping (a
                 quote, a backslash) or would forge a sample (line feeds): the escaped one
                 comes back intact, the other is left out

  join           the same node_exporter with its infiniband collector reading a fixture
                 root's /sys (--path.sysfs) and its textfile collector reading rdmi-probe's
                 metrics of that root, scraped once; `promtool test rules` then evaluates, on
                 the scraped series, recording rules that join rdmi_probe_port_active with
                 node_infiniband_state_id on(device, port) and rdmi_probe_device_dpa_capable
                 with node_infiniband_info on(device) (the rules docs/fleet.md shows, with the
                 scrape's instance), and must find exactly the joined series the scrape
                 implies (none would match with other label names)

    test_prometheus_consumers.py --binary B --fixtures F promtool --tool PATH
    test_prometheus_consumers.py --binary B --fixtures F node-exporter --tool PATH
    test_prometheus_consumers.py --binary B --fixtures F join --tool PATH --promtool PATH \\
                                 --doc docs/fleet.md

An empty --tool means CMake did not find the program at configure time: the test says so and
exits 77 (ctest reports it skipped). scripts/setup.sh --tests installs both, so the suite as CI
runs it (scripts/test.sh: setup, then configure) never skips them; a --tool that is given but
does not run fails.
"""
import argparse
import ctypes
import json
import os
import pwd
import shutil
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

SKIP = 77
PR_SET_PDEATHSIG = 1
# Roots with devices, without, malformed, split, with VFs, and 64+ functions.
ROOTS = ["roots/both-host", "roots/both-dpu", "roots/both-empty", "roots/both-malformed",
         "roots/both-split-devices", "roots/both-vfs-legacy", "roots/no-doca", "sysfs/scale"]
ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "SOURCE_DATE_EPOCH": "1700000000"}
for _key in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
    if _key in os.environ:
        ENV[_key] = os.environ[_key]

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
LABEL = re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?')


def parse_samples(text):
    """{(name, labels without empty values): value} of a text-format document."""
    out = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if not m:
            raise ValueError(f"not a sample line: {line!r}")
        labels = []
        rest = m.group(2) or ""
        pos = 0
        while pos < len(rest):
            lm = LABEL.match(rest, pos)
            if not lm:
                raise ValueError(f"bad labels in {line!r}")
            value = re.sub(r"\\(.)", lambda e: {"n": "\n"}.get(e.group(1), e.group(1)), lm.group(2))
            if value:  # an empty label value is the label's absence
                labels.append((lm.group(1), value))
            pos = lm.end()
        out[(m.group(1), frozenset(labels))] = float(m.group(3))
    return out


def hostile_root(fixtures, parent):
    """The BlueField-3 host root with its rdma devices renamed: mlx5_0 to `mlx5"0\\` (printable:
    written escaped) and mlx5_1 to a name with line feeds that would forge a sample if written
    raw (left out). Returns the root."""
    root = os.path.join(parent, "hostile-root")
    shutil.copytree(os.path.join(fixtures, "roots", "both-host"), root, symlinks=True)
    cls = os.path.join(root, "sys", "class", "infiniband")
    for old, new in (("mlx5_0", 'mlx5"0\\'), ("mlx5_1", "mlx5\n1 9\nrdmi_probe_forged 1")):
        link = os.path.join(cls, old)
        target = os.readlink(link)
        device_dir = os.path.normpath(os.path.join(cls, target))
        os.rename(device_dir, os.path.join(os.path.dirname(device_dir), new))
        os.unlink(link)
        os.symlink(os.path.join(os.path.dirname(target), new), os.path.join(cls, new))
    return root


def report(binary, root, output=None, umask=None):
    args = [binary, "report", "--format", "prometheus", "--root", root]
    if output:
        args += ["--output", output]
    proc = subprocess.run(args, capture_output=True, text=True, env=ENV, timeout=120,
                          preexec_fn=(lambda: os.umask(umask)) if umask is not None else None)
    if proc.returncode not in (0, 1, 3):
        raise RuntimeError(f"{' '.join(args)}: exit {proc.returncode}: {proc.stderr.strip()}")
    return proc.stdout


def promtool_check(tool, text):
    return subprocess.run([tool, "check", "metrics"], input=text, capture_output=True, text=True,
                          timeout=60)


def run_promtool(args):
    problems = []
    scratch = tempfile.TemporaryDirectory(prefix="rdmi-promtool-")
    roots = [(rel, os.path.join(args.fixtures, rel)) for rel in ROOTS]
    roots.append(("hostile device names", hostile_root(args.fixtures, scratch.name)))
    for rel, root in roots:
        text = report(args.binary, root)
        if "rdmi_probe_forged" in text:
            problems.append(f"{rel}: a device name forged a sample")
        proc = promtool_check(args.tool, text)
        # promtool prints lint findings (and exits non-zero) for anything it dislikes.
        if proc.returncode != 0 or proc.stdout.strip() or proc.stderr.strip():
            problems.append(f"{rel}: promtool exit {proc.returncode}: "
                            f"{(proc.stdout + proc.stderr).strip()[:400]}")
        else:
            print(f"ok   {rel}: {len(parse_samples(text))} series pass promtool check metrics")
    scratch.cleanup()
    # The check can fail: a family whose samples are split by another one is an error.
    broken = ("# HELP a_b A.\n# TYPE a_b gauge\na_b 1\n# HELP c_d C.\n# TYPE c_d gauge\nc_d 1\n"
              "a_b{x=\"y\"} 2\n")
    if promtool_check(args.tool, broken).returncode == 0:
        problems.append("promtool accepted a file with a split family: the check cannot fail")
    return problems


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def scrape(url, deadline, proc):
    last = None
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise TimeoutError(f"node_exporter exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                return r.read().decode("utf-8")
        except OSError as e:
            last = e
            time.sleep(0.2)
    raise TimeoutError(f"no answer from {url}: {last}")


def start_exporter(tool, textfile_dir, port, collectors=("--collector.textfile",)):
    user = None
    if os.geteuid() == 0:
        user = pwd.getpwnam("nobody")

    def drop():
        if user is not None:
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
        # After setuid, which clears it: node_exporter ends with this test, however it ends.
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)

    # Its log goes to a file: a pipe nobody reads could fill and stop it.
    log = tempfile.TemporaryFile(mode="w+")
    proc = subprocess.Popen(
        [tool, f"--web.listen-address=127.0.0.1:{port}", "--collector.disable-defaults",
         *collectors, f"--collector.textfile.directory={textfile_dir}"],
        stdout=subprocess.DEVNULL, stderr=log, preexec_fn=drop, env={"PATH": "/usr/bin:/bin"})
    proc.log = log
    return proc


def stop(proc):
    """Ends node_exporter and returns the end of its log."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    proc.log.seek(0)
    text = proc.log.read()
    proc.log.close()
    return text[-600:]


def run_node_exporter(args):
    problems = []
    with tempfile.TemporaryDirectory(prefix="rdmi-textfile-") as d:
        os.chmod(d, 0o755)  # node_exporter may run as nobody
        target = os.path.join(d, "rdmi-probe.prom")
        # umask 077: a document for another service must still be readable by it.
        # Device names that need escaping: node_exporter's own parser must read them back.
        with tempfile.TemporaryDirectory(prefix="rdmi-hostile-") as scratch:
            report(args.binary, hostile_root(args.fixtures, scratch), target, umask=0o077)
        mode = os.stat(target).st_mode & 0o777
        if mode != 0o644:
            problems.append(f"{target}: mode {mode:o}, want 644 whatever the umask")
        written = parse_samples(Path(target).read_text())
        leftovers = [n for n in os.listdir(d) if n != "rdmi-probe.prom"]
        if leftovers:
            problems.append(f"files left beside the document: {leftovers}")
        body = None
        for attempt in range(3):  # the free port may be taken before node_exporter binds it
            port = free_port()
            proc = start_exporter(args.tool, d, port)
            try:
                body = scrape(f"http://127.0.0.1:{port}/metrics", time.monotonic() + 20, proc)
            except TimeoutError as e:
                if attempt == 2:
                    problems.append(f"node_exporter did not answer: {e}; its log: {stop(proc)}")
            finally:
                if not proc.log.closed:
                    stop(proc)
            if body is not None:
                break
        if body is None:
            return problems
        scraped = parse_samples(body)
        error = scraped.get(("node_textfile_scrape_error", frozenset()))
        if error != 0:
            problems.append(f"node_textfile_scrape_error is {error}, want 0")
        missing = [k for k in written if k not in scraped]
        wrong = [k for k in written if k in scraped and scraped[k] != written[k]]
        if missing:
            problems.append(f"{len(missing)} series of the file not scraped, e.g. {sorted(missing)[:3]}")
        if wrong:
            problems.append(f"{len(wrong)} series with another value, e.g. {sorted(wrong)[:3]}")
        escaped = ("rdmi_probe_device_dpa_capable",
                   frozenset({("pci", "0000:03:00.0"), ("device", 'mlx5"0\\')}))
        if scraped.get(escaped) != 1:
            problems.append(f"the escaped device name did not come back: {escaped}")
        if any(name == "rdmi_probe_forged" for name, _ in scraped):
            problems.append("a device name forged a sample")
        names = {name for name, _ in written}
        print(f"{'FAIL' if problems else 'ok  '} node_exporter served {len(written)} series of "
              f"{len(names)} families; node_textfile_scrape_error {error}")
    return problems


def serve_once(tool, textfile_dir, collectors, problems):
    """Starts node_exporter with `collectors`, scrapes it once and stops it: the body, or None
    (with the reason in problems)."""
    for attempt in range(3):  # the free port may be taken before node_exporter binds it
        port = free_port()
        proc = start_exporter(tool, textfile_dir, port, collectors)
        try:
            return scrape(f"http://127.0.0.1:{port}/metrics", time.monotonic() + 20, proc)
        except TimeoutError as e:
            if attempt == 2:
                problems.append(f"node_exporter did not answer: {e}; its log: {stop(proc)}")
        finally:
            if not proc.log.closed:
                stop(proc)
    return None


def with_port_counters(fixtures, parent):
    """The BlueField-3 host root with each rdma port's counters/ and hw_counters/ as mlx5 has
    them: node_exporter's infiniband collector drops every device when a port lacks them; the
    probe never reads them. Returns the root."""
    root = os.path.join(parent, "root")
    shutil.copytree(os.path.join(fixtures, "roots", "both-host"), root, symlinks=True)
    ports = Path(root, "sys", "class", "infiniband").glob("*/ports/*")
    for port in ports:
        for sub, name in (("counters", "port_rcv_data"), ("counters", "link_downed"),
                          ("hw_counters", "out_of_buffer")):
            (port / sub).mkdir(exist_ok=True)
            (port / sub / name).write_text("0\n")
    return root


def series_text(name, labels):
    """A series as promtool's input_series and exp_samples write it (PromQL quoting)."""
    inner = ",".join(f'{k}="{json.dumps(v)[1:-1]}"' for k, v in sorted(labels))
    return f"{name}{{{inner}}}"


JOIN_HEADING = "### Joining node_exporter's infiniband series"


def documented_rules(doc):
    """The rule group docs/fleet.md shows under JOIN_HEADING: what is tested is what a fleet
    is told to write."""
    text = Path(doc).read_text()
    if JOIN_HEADING not in text:
        raise ValueError(f"{doc}: no section {JOIN_HEADING!r}")
    block = re.search(r"```yaml\n(.*?)```", text[text.index(JOIN_HEADING):], re.DOTALL)
    if not block:
        raise ValueError(f"{doc}: no yaml block under {JOIN_HEADING!r}")
    return block.group(1)


def run_join(args):
    problems = []
    if not args.promtool:
        print("SKIP: promtool (package prometheus) was not found when the build was configured")
        return [SKIP]
    with tempfile.TemporaryDirectory(prefix="rdmi-join-") as d:
        os.chmod(d, 0o755)
        root = with_port_counters(args.fixtures, d)
        textfile = os.path.join(d, "textfile")
        os.mkdir(textfile)
        os.chmod(textfile, 0o755)
        report(args.binary, root, os.path.join(textfile, "rdmi-probe.prom"))
        body = serve_once(args.tool, textfile, ("--collector.textfile", "--collector.infiniband",
                                                f"--path.sysfs={root}/sys"), problems)
        if body is None:
            return problems
        scraped = parse_samples(body)
        for name, labels in ((("node_textfile_scrape_error", frozenset())),
                             ("node_scrape_collector_success",
                              frozenset({("collector", "infiniband")}))):
            want = 0 if name == "node_textfile_scrape_error" else 1
            if scraped.get((name, labels)) != want:
                problems.append(f"{name}{dict(labels)} is {scraped.get((name, labels))}, want {want}")

        def family(name):
            return {labels: value for (n, labels), value in scraped.items() if n == name}

        ports, states = family("rdmi_probe_port_active"), family("node_infiniband_state_id")
        dpa, info = family("rdmi_probe_device_dpa_capable"), family("node_infiniband_info")
        if not ports or not states or not dpa or not info:
            problems.append(f"nothing to join: {len(ports)} rdmi_probe_port_active, {len(states)} "
                            f"node_infiniband_state_id, {len(dpa)} rdmi_probe_device_dpa_capable, "
                            f"{len(info)} node_infiniband_info series scraped")
            return problems
        # A scrape adds the target's labels to every series, the same to both collectors'.
        target = {("instance", "node-1:9100"), ("job", "node")}

        def keyed(labels, keys):
            # Paired by what the labels say, whatever they are called (the release before
            # named the rdma device `ibdev`): the rules must find every pair, by their names.
            named = {("device" if k == "ibdev" else k): v for k, v in labels}
            return tuple(sorted((k, v) for k, v in named.items() if k in keys))

        # The joins, worked out from the scraped values by Python: what promtool must find.
        expected = []
        by_port = {keyed(l, ("device", "port")): v for l, v in states.items()}
        for labels, value in ports.items():
            other = by_port.get(keyed(labels, ("device", "port")))
            if other is not None:
                expected.append(("rdmi_probe:port_active:agrees_with_node_exporter",
                                 labels | target, 1.0 if value == (1.0 if other == 4 else 0.0) else 0.0))
        by_device = {keyed(l, ("device",)): l for l in info}
        for labels, value in dpa.items():
            match = by_device.get(keyed(labels, ("device",)))
            if match is not None:
                copied = {(k, v) for k, v in match if k in ("firmware_version", "hca_type")}
                expected.append(("rdmi_probe:device_dpa_capable:firmware",
                                 labels | copied | target, value))
        if len(expected) != len(ports) + len(dpa):
            problems.append(f"{len(ports) + len(dpa) - len(expected)} rdmi-probe series have no "
                            "node_exporter series with the same device (and port)")
        inputs = [(name, labels) for name in ("rdmi_probe_port_active", "node_infiniband_state_id",
                                              "rdmi_probe_device_dpa_capable",
                                              "node_infiniband_info")
                  for labels in family(name)]
        lines = ["rule_files: [rules.yml]", "evaluation_interval: 1m", "tests:",
                 "  - interval: 1m", "    input_series:"]
        for name, labels in inputs:
            lines += [f"      - series: {json.dumps(series_text(name, labels | target))}",
                      f"        values: '{scraped[(name, labels)]:g}x2'"]
        lines += ["    promql_expr_test:"]
        for record in ("rdmi_probe:port_active:agrees_with_node_exporter",
                       "rdmi_probe:device_dpa_capable:firmware"):
            lines += [f"      - expr: {record}", "        eval_time: 1m", "        exp_samples:"]
            for name, labels, value in expected:
                if name == record:
                    lines += [f"          - labels: {json.dumps(series_text(name, labels))}",
                              f"            value: {value:g}"]
        Path(d, "rules.yml").write_text(documented_rules(args.doc))
        Path(d, "test.yml").write_text("\n".join(lines) + "\n")
        proc = subprocess.run([args.promtool, "check", "rules", "rules.yml"], cwd=d,
                              capture_output=True, text=True, timeout=60)
        if proc.returncode != 0:
            problems.append(f"promtool check rules: {(proc.stdout + proc.stderr).strip()[:400]}")
        proc = subprocess.run([args.promtool, "test", "rules", "test.yml"], cwd=d,
                              capture_output=True, text=True, timeout=60)
        if proc.returncode != 0:
            problems.append(f"promtool test rules: exit {proc.returncode}: "
                            f"{(proc.stdout + proc.stderr).strip()[:1200]}")
        else:
            print(f"ok   promtool test rules: {len(expected)} joined series "
                  f"({len(ports)} ports on(device, port), {len(dpa)} functions on(device)) "
                  "from one node_exporter scrape")
    return problems


def main():
    # ctest's timeout sends SIGTERM: unwind, so that the finally blocks stop node_exporter.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("mode", choices=["promtool", "node-exporter", "join"])
    ap.add_argument("--tool", default="")
    ap.add_argument("--promtool", default="", help="join: promtool, for `test rules`")
    ap.add_argument("--doc", default="", help="join: docs/fleet.md, whose join rules are tested")
    args = ap.parse_args()
    if not args.tool:
        name = "promtool (package prometheus)" if args.mode == "promtool" else \
            "prometheus-node-exporter"
        print(f"SKIP: {name} was not found when the build was configured "
              "(scripts/setup.sh --tests installs it; then reconfigure)")
        return SKIP
    runs = {"promtool": run_promtool, "node-exporter": run_node_exporter, "join": run_join}
    problems = runs[args.mode](args)
    if problems == [SKIP]:
        return SKIP
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
