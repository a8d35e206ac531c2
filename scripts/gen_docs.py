#!/usr/bin/python3
"""Man page and docs/options.md's option tables of rdmi-probe, generated from the program's
option model (`rdmi-probe __option-model`: every option as the parser takes it, each
subcommand's summary and exit codes, the helper names), never from --help text. The shell
completion scripts are the program's own: `rdmi-probe __complete --script bash|zsh`.

  gen_docs.py --binary B man   --template T --version V --out DIR   rdmi-probe.1.gz + .so pages
  gen_docs.py --binary B check-man MANPAGE   the option model's options vs the man page's
  gen_docs.py --binary B --fixtures F docs SOURCE_DIR
                                   rewrite every generated block of the documents (GENERATED_HOMES):
                                   docs/checks.md's list of every check id and docs/report.md's
                                   consistency rule (from `check --list-checks --json`), and
                                   docs/report.md's BlueField-3 host samples
                                   (the report on the fixture root F/roots/both-host)
  gen_docs.py --binary B --fixtures F check-docs SOURCE_DIR
                                   fail when a block disagrees with the program, is missing from
                                   its document, or is found in another document
                                   (`readme FILE` / `check-readme FILE` are older spellings: the
                                   source directory is FILE's)
  gen_docs.py --binary B --fixtures F check-fleet docs/fleet.md
                                   fail when the metric and NFD key tables disagree with what
                                   report --format prometheus / nfd emit on the fixture roots
  gen_docs.py --self-test                    the model reader and the man check on a canned model

Standard library only. The man page date is SOURCE_DATE_EPOCH when set (reproducible builds).
"""
import argparse
import datetime
import gzip
import json
import os
import re
import shlex
import subprocess
import sys

class Entry:
    """One option or positional of the option model, as the renderers use it."""

    def __init__(self, spec):
        self.positional = spec["positional"]
        self.desc = spec["help"]
        self.choices = list(spec["choices"])
        self.default = spec["default"] if spec["help_shows_default"] else None
        self.kind = spec["kind"]
        self.repeatable = spec["repeatable"]
        self.excludes = list(spec["excludes"])
        self.required = spec["required"]
        self.value_optional = spec["value_optional"]
        if self.positional:
            self.names = [spec["name"]]
        else:
            self.names = ([spec["short_name"]] if spec["short_name"] else []) + [spec["name"]]
        self.type = spec["placeholder"] or None if self.kind != "flag" and not self.positional \
            else None
        self.head = spec.get("head", spec["name"])
        self.text = spec.get("text", spec["help"])
        self.range = None
        if spec["minimum"] is not None and spec["maximum"] is not None:
            self.range = f"[{number(spec['minimum'])} - {number(spec['maximum'])}]"

    @property
    def takes_value(self):
        return self.type is not None or bool(self.choices)

    def long_names(self):
        return [n for n in self.names if n.startswith("-")]


def number(value):
    return str(int(value)) if float(value).is_integer() else repr(value)


def flag(names, text):
    """An entry the parser has but the model need not declare (--help, --version)."""
    return Entry({"positional": False, "help": text, "choices": [], "default": "",
                  "help_shows_default": False, "kind": "flag", "repeatable": False,
                  "excludes": [], "required": False, "value_optional": False,
                  "short_name": names[0], "name": names[1], "placeholder": "",
                  "minimum": None, "maximum": None, "head": ", ".join(names), "text": text})


def model_from_json(doc):
    """The option model document -> {'global', 'commands', 'helpers', 'exits', 'exit_note'}."""
    glob = [flag(["-h", "--help"], "print this help and exit"),
            flag(["-V", "--version"], "print the program's name and version and exit")]
    glob += [Entry(o) for o in doc["global"]]
    commands = []
    for c in doc["commands"]:
        entries = [Entry(o) for o in c["options"]]
        commands.append({"name": c["name"], "summary": c["summary"],
                         "options": [flag(["-h", "--help"], "print this help and exit")]
                         + [e for e in entries if not e.positional],
                         "positionals": [e for e in entries if e.positional],
                         "exits": c["exits"]})
    return {"global": glob, "commands": commands, "schemas": [],
            "helpers": {h["name"]: (h["command"], h["forced"] or None) for h in doc["helpers"]},
            "exits": doc["exits"], "exit_note": doc["exit_note"],
            "default_command": doc["default_command"]}


# A cross-built binary runs under an emulator (--emulator "qemu-aarch64 -L ..."): every spawn
# goes through it.
EMULATOR = []


def run_help(binary, *args):
    proc = subprocess.run([*EMULATOR, binary, *args], capture_output=True, text=True, timeout=30)
    if proc.returncode != 0:
        raise SystemExit(f"gen_docs: {binary} {' '.join(args)} exited {proc.returncode}: "
                         f"{proc.stderr.strip()}")
    return proc.stdout


def collect(binary):
    """The whole command-line surface, from the option model; the schemas' names."""
    model = model_from_json(json.loads(run_help(binary, "__option-model")))
    try:
        model["schemas"] = [s["name"] for s in json.loads(run_help(binary, "schema", "--json"))]
    except (ValueError, KeyError, TypeError):
        model["schemas"] = []
    return model


def helpers(model):
    """The helper names whose subcommand this binary has -> that subcommand."""
    have = {c["name"] for c in model["commands"]}
    return {h: cmd for h, (cmd, _) in model["helpers"].items() if cmd in have}


# ---- man page -------------------------------------------------------------------------------

def roff(text):
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return ("\\&" + text) if text[:1] in (".", "'") else text


def man_entry(e):
    if e.positional:
        tag = f"\\fI{roff(e.names[0])}\\fR"
    else:
        tag = ", ".join(f"\\fB{roff(n)}\\fR" for n in e.names)
        if e.type:
            tag += f" \\fI{roff(e.type)}\\fR"
    desc = roff(e.desc[:1].upper() + e.desc[1:])
    notes = []
    if e.choices:
        notes.append("one of " + ", ".join(f"\\fB{roff(c)}\\fR" for c in e.choices))
    if e.range:
        notes.append(f"in {roff(e.range)}")
    if e.default is not None:
        notes.append(f"default \\fB{roff(e.default)}\\fR")
    if e.excludes:
        notes.append("not with " + " or ".join(f"\\fB{roff(x)}\\fR" for x in e.excludes))
    if notes:
        desc = desc.rstrip(".") + " (" + "; ".join(notes) + ")"
    if desc and desc[-1] not in ".!?":
        desc += "."
    return f".TP\n{tag}\n{desc}"


def man_checks(catalog):
    """The CHECKS section's list: each catalog entry, the questions it answers and its meaning."""
    out = []
    for f in catalog["findings"]:
        purposes = ", ".join(f.get("purposes") or ["none"])
        # A placeholder in capitals ("module-NAME"): "<probe>-probe" would read as an option.
        spelled = re.sub(r"<([a-z]+)>", lambda m: m.group(1).upper(), f["id"])
        meaning = re.sub(r"<([a-z]+)>", lambda m: m.group(1).upper(), f["meaning"])
        out.append(f".TP\n.B {roff(spelled)}\n({purposes}) {roff(meaning)}")
    return "\n".join(out)


def render_man(model, template, version, datadir, catalog=None):
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc) if epoch \
        else datetime.datetime.now(datetime.timezone.utc)
    glob = "\n".join(man_entry(e) for e in model["global"])
    subs = []
    for c in model["commands"]:
        synopsis = f"rdmi-probe {c['name']}"
        if c["options"]:
            synopsis += " [OPTIONS]"
        for p in c["positionals"]:
            synopsis += f" {p.names[0]}"
        part = [f'.SS "{roff(synopsis)}"', roff(c["summary"][:1].upper() + c["summary"][1:]) + "."]
        names = [h for h, cmd in helpers(model).items() if cmd == c["name"]]
        if names:
            part.append(".br\nAlso run as " + ", ".join(f"\\fB{roff(h)}\\fR" for h in names)
                        + ".")
        part += [man_entry(e) for e in c["positionals"] + c["options"]]
        subs.append("\n".join(part))
    names = helpers(model)
    helper_synopsis = "".join(f".br\n.B {roff(h)}\n[\\fIOPTIONS\\fR]\n" for h in names)
    helper_map = []
    for i, (h, cmd) in enumerate(names.items()):
        forced = model["helpers"][h][1]
        run = f"rdmi-probe {cmd}" + (f" {forced}" if forced else "")
        end = "." if i == len(names) - 1 else ","
        helper_map.append(f".B {roff(h)}\nruns\n.BR \"{roff(run)}\" {end}")
    page = (template.replace("@NAMES@", roff(", ".join(["rdmi-probe", *names])))
            .replace("@HELPER_SYNOPSIS@", helper_synopsis.rstrip("\n"))
            .replace("@HELPER_MAP@", "\n".join(helper_map))
            .replace("@DATE@", when.strftime("%Y-%m-%d"))
            .replace("@VERSION@", version).replace("@DATADIR@", datadir)
            .replace("@PREFIX@", os.path.dirname(datadir.rstrip("/")) or "/")
            .replace("@GLOBAL_OPTIONS@", glob).replace("@SUBCOMMANDS@", "\n".join(subs)))
    if catalog is not None:
        page = page.replace("@CHECKS@", man_checks(catalog))
    return page


def write_gz(path, text):
    with open(path, "wb") as raw:  # mtime 0 and no name: byte-identical between builds
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as gz:
            gz.write(text.encode())


# ---- the --help <-> man page check ----------------------------------------------------------

def man_sections(page):
    """Man page -> {'global': set, '<subcommand>': set, '*': every option mentioned anywhere}.

    An option is documented where it is the tag line (the line after .TP) of an entry in the
    GLOBAL OPTIONS section or in a subcommand's .SS section."""
    out = {"*": set()}
    current = None
    tag_next = False
    for line in page.splitlines():
        if line.startswith(".SH"):
            current = "global" if "GLOBAL OPTIONS" in line else None
        elif line.startswith(".SS"):
            m = re.match(r'\.SS "rdmi\\-probe (\S+)', line)
            current = m.group(1) if m else None
            if current is not None:
                out.setdefault(current, set())
        if line.startswith(".\\\""):
            continue  # a roff comment
        plain = line.replace("\\-", "-")
        found = re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", re.sub(r"\\f[BIR]", " ", plain))
        out["*"].update(found)
        if tag_next and current is not None:
            out.setdefault(current, set()).update(found)
        tag_next = line.startswith(".TP")
    return out


def option_names(entries):
    return {n for e in entries if not e.positional for n in e.names}


def check_man(model, page):
    """Problems (empty when the man page and --help agree)."""
    problems = []
    sections = man_sections(page)
    wanted = {"global": option_names(model["global"])}
    for c in model["commands"]:
        wanted[c["name"]] = option_names(c["options"])
    every = set().union(*wanted.values())
    for where, names in wanted.items():
        have = sections.get(where, set())
        for n in sorted(names - have):
            problems.append(f"{where}: {n} is in --help but not in the man page")
        for n in sorted(have - names):
            problems.append(f"{where}: {n} is in the man page but not in --help")
    for n in sorted(sections["*"] - every):
        problems.append(f"man page mentions {n}, which no --help lists")
    for where in sorted(set(sections) - set(wanted) - {"*"}):
        problems.append(f"man page documents subcommand {where}, which --help does not list")
    return problems


# ---- generated documentation blocks: the check list, the consistency rule, the samples ----

SAMPLE_ROOT = "roots/both-host"  # complete DOCA 3.3 + BlueField-3 host sysfs (tests/contract)
SAMPLE_ROOT_SHOWN = "build/tests/fixtures/" + SAMPLE_ROOT
SAMPLE_EPOCH = "1700000000"
SAMPLE_CHECKS = 3  # the JSON excerpt keeps this many checks (the last is the DPA verdict)


def marker(name, end=False):
    if end:
        return f"<!-- END GENERATED {name} -->"
    return f"<!-- BEGIN GENERATED {name}: scripts/gen_docs.py docs; do not edit -->"


def md_text(text):
    """Catalog prose for Markdown: <placeholders> would be read as HTML tags."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def render_troubleshooting(catalog):
    lines = []
    for f in catalog["findings"]:
        purposes = ", ".join(f.get("purposes") or ["none"])
        line = (f"* **`{f['id']}`** — *{md_text(f['emitted_by'])}*; for {purposes}. "
                f"{md_text(f['meaning'])}")
        if f["fix"]:
            line += f" **Fix:** {md_text(f['fix'])}"
        lines.append(line)
    return "\n".join(lines)


def render_consistency_rule(catalog):
    """The rule, word for word as the program states it (the consistent-versions meaning, which
    is also check --require-consistent's help and env's x_rdmi_probe.consistency.rule)."""
    for f in catalog["findings"]:
        if f["id"] == "consistent-versions":
            return f"> {md_text(f['meaning'])}"
    raise SystemExit("gen_docs: the catalog has no consistent-versions entry")


def troubleshooting_ids(section):
    """The ids a Troubleshooting section documents, in order."""
    return re.findall(r"^\* \*\*`([^`]+)`\*\*", section, re.MULTILINE)


def run_sample(binary, fixtures, *args):
    root = os.path.join(fixtures, SAMPLE_ROOT)
    if not os.path.isdir(root):
        raise SystemExit(f"gen_docs: no fixture root {root} (build the tests first)")
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "PKG_CONFIG_PATH",
                                                              "PKG_CONFIG_LIBDIR", "LD_PRELOAD",
                                                              "LD_LIBRARY_PATH")}
    env["SOURCE_DATE_EPOCH"] = SAMPLE_EPOCH
    # The text as an 80-column terminal shows it, whatever the terminal running this says.
    env["COLUMNS"] = "80"
    proc = subprocess.run([*EMULATOR, binary, "report", "--root", root, "--color", "never", *args],
                          capture_output=True, text=True, timeout=60, env=env)
    if proc.returncode not in (0, 1, 3):
        raise SystemExit(f"gen_docs: sample run exited {proc.returncode}: {proc.stderr.strip()}")
    shown = proc.stdout.replace(os.path.abspath(root), SAMPLE_ROOT_SHOWN)
    # The title breaks before the root or not depending on where the checkout is: shown as the
    # shown path breaks (it does not fit after "of root" in 80 columns either).
    return re.sub(r"of root\s+" + re.escape(SAMPLE_ROOT_SHOWN), "of root\n    " + SAMPLE_ROOT_SHOWN,
                  shown)


def render_sample_text(binary, fixtures):
    out = run_sample(binary, fixtures).rstrip("\n")
    return (f"```\n$ rdmi-probe --root {SAMPLE_ROOT_SHOWN}\n{out}\n```")


def render_sample_json(binary, fixtures):
    doc = json.loads(run_sample(binary, fixtures, "--json"))
    checks = doc.get("checks", [])
    # The first checks, and the DPA verdict, which is what a BlueField-3 host is about.
    shown = checks[:SAMPLE_CHECKS - 1] + [c for c in checks[SAMPLE_CHECKS - 1:]
                                          if c.get("id") == "rdmi-dpa-device"]
    excerpt, left_out = {}, []
    for key, value in doc.items():
        if key == "checks":
            excerpt[key] = shown
        elif key == "devices" and isinstance(value, dict) and value.get("summary"):
            excerpt[key] = {"summary": value["summary"][:1]}
        elif isinstance(value, (dict, list)) and key not in ("tool", "run", "summary"):
            left_out.append(key)
        else:
            excerpt[key] = value
    text = json.dumps(excerpt, indent=2, ensure_ascii=False)
    note = (f"An excerpt of `rdmi-probe --root {SAMPLE_ROOT_SHOWN} --json` "
            f"(`SOURCE_DATE_EPOCH={SAMPLE_EPOCH}`): {len(shown)} of {len(checks)} checks, the "
            f"first device of `devices.summary`, and without the "
            + ", ".join(f"`{k}`" for k in left_out) + " members.")
    return f"{note}\n\n```json\n{text}\n```"


def md_cell(text):
    """Help text in a Markdown table cell: a | would end the cell."""
    return md_text(text).replace("|", "\\|")


def render_option_tables(model):
    """Each subcommand's options, positionals and exit codes, as --help shows them."""
    names = helpers(model)
    out = ["### Global options", "",
           "Before or after the subcommand; `--field` only where a JSON document is written.", "",
           "| option | meaning |", "| --- | --- |"]
    out += [f"| `{e.head}` | {md_cell(e.text)} |" for e in model["global"]
            if e.names != ["-h", "--help"]]
    out.append("")
    for c in model["commands"]:
        title = f"### `{c['name']}`"
        if c["name"] == model.get("default_command"):
            title += " (the default: its options work without naming it)"
        out += [title, "", md_text(c["summary"][:1].upper() + c["summary"][1:]) + "."]
        also = [h for h, cmd in names.items() if cmd == c["name"]]
        if also:
            out.append("Also run as " + ", ".join(
                f"`{h}`" + (f" (`{c['name']} {model['helpers'][h][1]}`)"
                            if model["helpers"][h][1] else "") for h in also) + ".")
        out += ["", "| option | meaning |", "| --- | --- |"]
        for e in c["positionals"] + c["options"]:
            if e.names == ["-h", "--help"]:
                continue
            out.append(f"| `{e.head}` | {md_cell(e.text)} |")
        out += ["", "| exit | meaning |", "| --- | --- |"]
        out += [f"| {x['codes']} | {md_cell(x['meaning'])} |" for x in c.get("exits", [])]
        out.append("")
    return "\n".join(out).rstrip("\n")


def generated_sections(binary, fixtures):
    catalog = json.loads(run_help(binary, "check", "--list-checks", "--json"))
    return {
        "option-tables": render_option_tables(collect(binary)),
        "troubleshooting": render_troubleshooting(catalog),
        "consistency-rule": render_consistency_rule(catalog),
        "sample-report-text": render_sample_text(binary, fixtures),
        "sample-report-json": render_sample_json(binary, fixtures),
    }, catalog


# Where each generated block lives, relative to the source directory. A block is in exactly
# one document: a copy left elsewhere would go stale unseen.
GENERATED_HOMES = {
    "option-tables": "docs/options.md",
    "troubleshooting": "docs/checks.md",
    "consistency-rule": "docs/report.md",
    "sample-report-text": "docs/report.md",
    "sample-report-json": "docs/report.md",
}
BEGIN_MARKER = re.compile(r"<!-- BEGIN GENERATED ([a-z0-9-]+)[:>]")


def documents_with_blocks(source):
    """The documents a generated block may stray into: README.md and every docs/ page."""
    found = [os.path.join(source, "README.md")]
    for directory, dirs, files in os.walk(os.path.join(source, "docs")):
        dirs.sort()
        found += [os.path.join(directory, f) for f in sorted(files) if f.endswith(".md")]
    return [f for f in found if os.path.isfile(f)]


def section_span(text, name):
    begin, end = marker(name), marker(name, end=True)
    start = text.find(begin)
    stop = text.find(end)
    if start < 0 or stop < start:
        return None
    return start + len(begin), stop


def replace_sections(text, sections, where="the document"):
    for name, body in sections.items():
        span = section_span(text, name)
        if span is None:
            raise SystemExit(f"gen_docs: {where} has no {marker(name)} ... {marker(name, True)}")
        text = text[: span[0]] + "\n" + body + "\n" + text[span[1]:]
    return text


def by_home(sections):
    """{document: {block: body}} from {block: body}, by GENERATED_HOMES."""
    homes = {}
    for name, body in sections.items():
        homes.setdefault(GENERATED_HOMES[name], {})[name] = body
    return homes


def write_docs(source, sections):
    for rel, blocks in by_home(sections).items():
        path = os.path.join(source, rel)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(replace_sections(text, blocks, rel))


def check_docs(source, sections, catalog):
    """Every block current in its home document, and in no other."""
    problems = []
    homes = by_home(sections)
    for path in documents_with_blocks(source):
        rel = os.path.relpath(path, source)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for name in BEGIN_MARKER.findall(text):
            if GENERATED_HOMES.get(name) != rel:
                home = GENERATED_HOMES.get(name, "no document: the generator has no such block")
                problems.append(f"{rel}: generated block {name!r} belongs in {home}")
    for rel, blocks in homes.items():
        path = os.path.join(source, rel)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            problems.append(f"{rel}: cannot be read ({e.strerror}): it holds "
                            + ", ".join(sorted(blocks)))
            continue
        problems += [f"{rel}: {p}" for p in check_blocks(text, blocks, catalog)]
    return problems


def normalise_volatile(text):
    """What changes from run to run or release to release: durations and the tool version."""
    text = re.sub(r"in [0-9]+(\.[0-9]+)? ms", "in N ms", text)
    text = re.sub(r'"duration_ms": [0-9.eE+-]+', '"duration_ms": N', text)
    text = re.sub(r'("name": "rdmi-probe",\s*"version": ")[^"]*"', r'\1V"', text)
    text = re.sub(r"rdmi-probe [0-9][^ :]*:", "rdmi-probe V:", text)
    return text


def check_blocks(text, sections, catalog):
    """The blocks of one document against the program's output."""
    problems = []
    for name, body in sections.items():
        span = section_span(text, name)
        if span is None:
            problems.append(f"no generated block {name!r}")
            continue
        have = text[span[0]:span[1]].strip("\n")
        if name == "troubleshooting":
            documented = troubleshooting_ids(have)
            catalogued = [f["id"] for f in catalog["findings"]]
            for i in catalogued:
                if i not in documented:
                    problems.append(f"troubleshooting: {i} is in the catalog but not listed")
            for i in documented:
                if i not in catalogued:
                    problems.append(f"troubleshooting: {i} is listed but not in the catalog")
        if normalise_volatile(have) != normalise_volatile(body):
            diff = [line for line in difflib_unified(have, body)][:20]
            problems.append(f"{name}: differs from the program's output "
                            f"(regenerate with gen_docs.py docs):\n" + "\n".join(diff))
    return problems


def difflib_unified(a, b):
    import difflib
    return difflib.unified_diff(normalise_volatile(a).splitlines(),
                                normalise_volatile(b).splitlines(), "document", "generated",
                                lineterm="", n=1)


# ---- self-test ------------------------------------------------------------------------------

def canned_option(name, **fields):
    spec = {"name": name, "short_name": "", "kind": "flag", "placeholder": "", "choices": [],
            "minimum": None, "maximum": None, "help": "", "default": "",
            "help_shows_default": False, "global": False, "commands": [], "positional": False,
            "required": False, "required_unless": "", "repeatable": False,
            "value_optional": False, "excludes": [], "exposure": "tool_argument",
            "policy_key": "", "no_policy_key": "", "head": name, "text": ""}
    spec.update(fields)
    return spec


CANNED_MODEL = {
    "tool": {"name": "rdmi-probe", "version": "0"},
    "default_command": "symbols",
    "global": [
        canned_option("--output", kind="file", placeholder="FILE", help="write it to FILE",
                      head="--output FILE", text="write it to FILE"),
        canned_option("--timeout", kind="seconds", placeholder="SECONDS", minimum=0.001,
                      maximum=3600.0, help="bound on the run", default="10",
                      help_shows_default=True, head="--timeout SECONDS",
                      text="bound on the run [from 0.001 to 3600; default: 10]"),
        canned_option("--verbose", short_name="-v", help="more detail", repeatable=True,
                      head="-v, --verbose", text="more detail"),
        canned_option("--color", kind="choice", placeholder="WHEN",
                      choices=["auto", "always", "never"], help="colour: a | b",
                      default="auto", help_shows_default=True, head="--color WHEN",
                      text="colour: a | b [one of: auto, always, never; default: auto]"),
    ],
    "commands": [{
        "name": "symbols", "summary": "audit symbols",
        "options": [
            canned_option("A", kind="document", placeholder="TEXT", positional=True,
                          required=True, help="a document", head="A", text="a document"),
            canned_option("--side", kind="choice", placeholder="TEXT", choices=["host", "dpu"],
                          help="host or dpu", head="--side TEXT", text="host or dpu"),
            canned_option("--module", kind="pkgconfig_module", placeholder="NAME",
                          help="module", head="--module NAME", text="module"),
            canned_option("--list", help="list them", excludes=["--module"], head="--list",
                          text="list them [not with --module]"),
        ],
        "exits": [{"codes": "0", "meaning": "the document was produced"},
                  {"codes": "2", "meaning": "usage error"}]}],
    "helpers": [{"name": "doca-symbols", "command": "symbols", "forced": ""}],
    "exits": [{"codes": "0", "meaning": "passed"}], "exit_note": "a note",
}


def self_test():
    failures = []

    def expect(cond, what):
        if not cond:
            failures.append(what)

    # The fleet check reads label names outside parentheses, and sees a table's drift.
    expect(top_level_names("`check` (a check id: `rdmi-probe x`), `status` (`pass`)") ==
           {"check", "status"}, "top-level label names")
    doc = "### Metrics\n\n| metric | labels |\n| --- | --- |\n| `m_a` | `x` (`y`) |\n"
    expect(check_fleet(doc, {"m_a": {"x"}}, set()) == [], "a matching table passes")
    expect(len(check_fleet(doc, {"m_a": {"x", "z"}, "m_b": set()}, {"k"})) == 3,
           "an undocumented label, metric and key fail")

    model = model_from_json(CANNED_MODEL)
    color = [e for e in model["global"] if e.names == ["--color"]]
    expect(len(color) == 1, "--color read")
    if color:
        expect(color[0].choices == ["auto", "always", "never"], f"choices {color[0].choices}")
        expect(color[0].default == "auto", f"default {color[0].default}")
        expect(color[0].type == "WHEN", f"type {color[0].type}")
    timeout = [e for e in model["global"] if e.names == ["--timeout"]][0]
    expect((timeout.type, timeout.range, timeout.default) == ("SECONDS", "[0.001 - 3600]", "10"),
           f"timeout {timeout.type} {timeout.range} {timeout.default}")
    expect([e.names for e in model["global"]][:2] == [["-h", "--help"], ["-V", "--version"]],
           "help and version lead the global options")
    expect(["-v", "--verbose"] in [e.names for e in model["global"]], "short+long names")
    sub = model["commands"][0]
    expect(len(sub["positionals"]) == 1 and sub["positionals"][0].names == ["A"], "positional")
    side = [e for e in sub["options"] if e.names == ["--side"]][0]
    expect(side.choices == ["host", "dpu"], f"side {side.choices}")
    expect(helpers(model) == {"doca-symbols": "symbols"}, f"helpers {helpers(model)}")
    template = ".TH X 1\n.SH GLOBAL OPTIONS\n@GLOBAL_OPTIONS@\n.SH SUBCOMMANDS\n@SUBCOMMANDS@\n" \
               ".SH EXAMPLES\n.B rdmi-probe \\-\\-color never\n"
    page = render_man(model, template, "0", "/usr/share")
    expect(check_man(model, page) == [], f"generated page agrees: {check_man(model, page)}")
    expect("Excludes" not in page and "not with \\fB\\-\\-module\\fR" in page,
           "an exclusion is a note of its option, not a word of its name")
    tables = render_option_tables(model)
    expect("| `--list` | list them [not with --module] |" in tables, f"option table: {tables}")
    expect("colour: a \\| b" in tables, "a | in a help text does not end the table cell")
    expect("`doca-symbols`" in tables and "| 2 | usage error |" in tables,
           "helper names and exit codes in the tables")
    dropped = page.replace("\\fB\\-\\-module\\fR", "\\fBmodule\\fR")
    expect(any("--module is in --help but not" in p for p in check_man(model, dropped)),
           "a missing option is caught")
    added = page + ".TP\n\\fB\\-\\-bogus\\fR\nnothing\n"
    expect(any("--bogus" in p for p in check_man(model, added)), "an extra option is caught")
    stale = page + ".SH EXAMPLES\n.B rdmi-probe \\-\\-gone\n"
    expect(any("--gone" in p for p in check_man(model, stale)), "a stale example is caught")
    catalog = {"findings": [
        {"id": "doca-prefix", "emitted_by": "report", "meaning": "Where <prefix> is.",
         "fix": "Install it.", "purposes": ["run", "build"]},
        {"id": "module-<name>", "emitted_by": "report", "meaning": "A module.", "fix": None,
         "purposes": ["build"]}]}
    section = render_troubleshooting(catalog)
    expect("*report*; for run, build." in section and "*report*; for build." in section,
           "each entry names its purposes")
    expect(troubleshooting_ids(section) == ["doca-prefix", "module-<name>"],
           f"ids parsed back: {troubleshooting_ids(section)}")
    expect("&lt;prefix&gt;" in section, "placeholders escaped for Markdown")
    readme = ("# X\n" + marker("troubleshooting") + "\nold\n" + marker("troubleshooting", True)
              + "\n")
    fresh = replace_sections(readme, {"troubleshooting": section})
    expect(check_blocks(fresh, {"troubleshooting": section}, catalog) == [],
           "a regenerated README agrees")
    fewer = {"findings": catalog["findings"][:1]}
    stale = check_blocks(fresh, {"troubleshooting": render_troubleshooting(fewer)}, fewer)
    expect(any("module-<name> is listed but not in the catalog" in p for p in stale),
           f"an id only in README is caught: {stale}")
    more = {"findings": catalog["findings"] + [
        {"id": "dpa", "emitted_by": "check", "meaning": "A DPA.", "fix": None}]}
    missing = check_blocks(fresh, {"troubleshooting": render_troubleshooting(more)}, more)
    expect(any("dpa is in the catalog but not listed" in p for p in missing),
           f"an id only in the catalog is caught: {missing}")
    # check_docs: each block in its home document, current, and nowhere else.
    import tempfile
    blocks = {"troubleshooting": section}
    with tempfile.TemporaryDirectory() as src:
        os.makedirs(os.path.join(src, "docs"))
        home = os.path.join(src, GENERATED_HOMES["troubleshooting"])
        with open(home, "w", encoding="utf-8") as f:
            f.write(fresh)
        with open(os.path.join(src, "README.md"), "w", encoding="utf-8") as f:
            f.write("# README\n")
        expect(check_docs(src, blocks, catalog) == [],
               f"a current block in its home passes: {check_docs(src, blocks, catalog)}")
        with open(os.path.join(src, "README.md"), "w", encoding="utf-8") as f:
            f.write(fresh)
        strays = check_docs(src, blocks, catalog)
        expect(any(p.startswith("README.md: generated block 'troubleshooting' belongs in")
                   for p in strays), f"a copy left in README.md is caught: {strays}")
        os.remove(os.path.join(src, "README.md"))
        os.remove(home)
        gone = check_docs(src, blocks, catalog)
        expect(any(p.startswith(GENERATED_HOMES["troubleshooting"] + ": cannot be read")
                   for p in gone), f"a missing home document is caught: {gone}")
        with open(home, "w", encoding="utf-8") as f:
            f.write("# Checks\n")
        bare = check_docs(src, blocks, catalog)
        expect(any("no generated block 'troubleshooting'" in p for p in bare),
               f"a home document without its block is caught: {bare}")
    expect(normalise_volatile("FAIL (1 failed) in 21.9 ms") ==
           normalise_volatile("FAIL (1 failed) in 3 ms"), "durations normalised")
    expect(normalise_volatile("FAIL (1 failed) in 3 ms") !=
           normalise_volatile("FAIL (2 failed) in 3 ms"), "content is not normalised away")
    for f in failures:
        print("FAIL:", f)
    print(f"gen_docs self-test: {'FAILED' if failures else 'ok'}")
    return 1 if failures else 0


FLEET_ROOTS = ["roots/both-host", "roots/both-empty", "roots/no-doca"]


def table_rows(text, heading):
    """The first column and the second of the Markdown table under `heading`."""
    section = text.split(heading, 1)[1] if heading in text else ""
    rows = []
    for line in section.splitlines()[1:]:
        if line.startswith("#"):
            break
        if line.startswith("| `"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            rows.append((cells[0].strip("`"), cells[1] if len(cells) > 1 else ""))
    return rows


def top_level_names(cell):
    """The backticked names of a labels cell outside parentheses: "`a` (x `y`), `b`" -> a, b."""
    depth, kept = 0, ""
    for c in cell:
        depth += c == "("
        if depth == 0:
            kept += c
        depth -= c == ")" and depth > 0
    return set(re.findall(r"`([a-z_]+)`", kept))


def emitted_fleet(binary, fixtures):
    """{metric: {label names}} and {nfd key} over the fleet roots (including keys left out with
    a comment, which are documented too)."""
    metrics, keys = {}, set()
    for rel in FLEET_ROOTS:
        root = os.path.join(fixtures, rel)
        for fmt in ("prometheus", "nfd"):
            proc = subprocess.run([*EMULATOR, binary, "report", "--format", fmt, "--root", root],
                                  capture_output=True, text=True, timeout=60)
            if proc.returncode not in (0, 1, 3):
                raise SystemExit(f"gen_docs: report --format {fmt} on {rel} exited "
                                 f"{proc.returncode}: {proc.stderr.strip()}")
            for line in proc.stdout.splitlines():
                if fmt == "nfd":
                    m = re.match(r"^(?:# )?(rdmi\.nvidia\.com/[a-z-]+)[= ]", line)
                    if m:
                        keys.add(m.group(1))
                    continue
                m = re.match(r"^(?:# )?([a-z_]+)(?:\{(.*)\})? ", line)
                if m and not line.startswith(("# HELP", "# TYPE")) and m.group(1) != "rdmi":
                    names = set(re.findall(r'([a-z_]+)="', m.group(2) or ""))
                    metrics.setdefault(m.group(1), set()).update(names)
    return metrics, keys


def check_fleet(doc, metrics, keys):
    problems = []
    documented = {name: top_level_names(labels) for name, labels in table_rows(doc, "### Metrics")}
    for name, labels in metrics.items():
        if name not in documented:
            problems.append(f"metric {name} is emitted but not in the Metrics table")
        elif labels - documented[name]:
            problems.append(f"metric {name}: labels {sorted(labels - documented[name])} are not "
                            f"documented (the table says {sorted(documented[name])})")
    for name, labels in documented.items():
        if name not in metrics:
            problems.append(f"metric {name} is documented but never emitted")
        elif labels - metrics[name]:
            problems.append(f"metric {name}: documented labels {sorted(labels - metrics[name])} "
                            "are never emitted")
    documented_keys = {key for key, _ in table_rows(doc, "| key | value | left out when |")}
    for key in sorted(keys ^ documented_keys):
        problems.append(f"NFD key {key} is " + ("emitted but not documented" if key in keys
                                                 else "documented but never emitted"))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("mode", nargs="?",
                    choices=["man", "check-man", "docs", "check-docs", "readme",
                             "check-readme", "check-fleet"])
    ap.add_argument("manpage", nargs="?")
    ap.add_argument("--template")
    ap.add_argument("--version", default="0")
    ap.add_argument("--datadir", default="/usr/share")
    ap.add_argument("--out")
    ap.add_argument("--fixtures", help="the test build's fixture directory (docs modes)")
    ap.add_argument("--emulator", default="",
                    help="command line the binary runs under (a cross build's qemu user-mode)")
    args = ap.parse_args()
    EMULATOR[:] = shlex.split(args.emulator)
    if args.self_test:
        return self_test()
    if not args.binary or not args.mode:
        ap.error("--binary and a mode are needed")
    if args.mode == "check-fleet":
        if not args.fixtures or not args.manpage:
            ap.error("check-fleet needs --fixtures DIR and the docs/fleet.md path")
        with open(args.manpage, encoding="utf-8") as f:
            doc = f.read()
        metrics, keys = emitted_fleet(args.binary, args.fixtures)
        problems = check_fleet(doc, metrics, keys)
        for p in problems:
            print("FAIL:", p)
        print(f"docs/fleet.md vs the program: {len(metrics)} metrics, {len(keys)} NFD keys, "
              f"{len(problems)} problem(s)")
        return 1 if problems else 0
    if args.mode in ("docs", "check-docs", "readme", "check-readme"):
        if not args.fixtures or not args.manpage:
            ap.error("docs modes need --fixtures DIR and the source directory")
        source = args.manpage
        if args.mode in ("readme", "check-readme"):  # the older spelling named README.md
            source = os.path.dirname(os.path.abspath(source))
        sections, catalog = generated_sections(args.binary, args.fixtures)
        if args.mode in ("docs", "readme"):
            write_docs(source, sections)
            return 0
        problems = check_docs(source, sections, catalog)
        for p in problems:
            print("FAIL:", p)
        print(f"generated documentation vs the program: {len(problems)} problem(s)")
        return 1 if problems else 0
    model = collect(args.binary)
    if args.mode == "man":
        with open(args.template, encoding="utf-8") as f:
            catalog = json.loads(run_help(args.binary, "check", "--list-checks", "--json"))
            page = render_man(model, f.read(), args.version, args.datadir, catalog)
        problems = check_man(model, page)
        if problems:  # the template mentions an option the program lacks
            print("\n".join(problems), file=sys.stderr)
            return 1
        os.makedirs(args.out, exist_ok=True)
        write_gz(os.path.join(args.out, "rdmi-probe.1.gz"), page)
        for helper in helpers(model):
            write_gz(os.path.join(args.out, helper + ".1.gz"), ".so man1/rdmi-probe.1\n")
    else:
        opener = gzip.open if args.manpage.endswith(".gz") else open
        with opener(args.manpage, "rt", encoding="utf-8") as f:
            problems = check_man(model, f.read())
        for p in problems:
            print("FAIL:", p)
        print(f"man page vs --help: {len(problems)} problem(s)")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
