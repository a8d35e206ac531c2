#!/usr/bin/python3
"""The generated completions: bash completes subcommands, options and every enumerable option
value the program's --help lists (run in `bash --norc`); zsh parses the file and compinit
registers it (skipped, and said so, when zsh is not installed).

    test_completions.py --bash FILE --zsh FILE --binary rdmi-probe
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
import gen_docs  # noqa: E402


def bash_complete(script, words):
    """COMPREPLY for the command line `words`, the last word being completed."""
    prog = (f'source "$1" || exit 9\n'
            f'COMP_WORDS=({" ".join(repr(w) for w in words)})\n'
            f'COMP_CWORD={len(words) - 1}\n'
            f'COMP_LINE="${{COMP_WORDS[*]}}"\n'
            f'_rdmi_probe "${{COMP_WORDS[0]}}" "${{COMP_WORDS[COMP_CWORD]}}" '
            f'"${{COMP_WORDS[COMP_CWORD-1]}}" || exit 8\n'
            f'printf "%s\\n" "${{COMPREPLY[@]}}"\n')
    proc = subprocess.run(["bash", "--norc", "--noprofile", "-c", prog, "complete", script],
                          capture_output=True, text=True, timeout=30)
    if proc.returncode != 0 or proc.stderr:
        return None, f"exit {proc.returncode}: {proc.stderr.strip()}"
    return sorted(w for w in proc.stdout.splitlines() if w), ""


def zsh_complete(zsh, fpath_dir, typed):
    """The terminal output of typing `typed` and Tab in an interactive zsh (zsh/zpty)."""
    prog = ("zmodload zsh/zpty\n"
            "zpty z zsh -f -i\n"
            f"zpty -w z 'PS1=; fpath=({fpath_dir} $fpath); autoload -U compinit; "
            f"compinit -u -d {fpath_dir}/dump2'\n"
            f"zpty -w z $'{typed}\\t'\n"
            "sleep 2\n"
            "out=; while zpty -rt z chunk; do out+=$chunk; done\n"
            "print -r -- $out\n"
            "zpty -d z\n")
    proc = subprocess.run([zsh, "-f", "-c", prog], capture_output=True, text=True, timeout=30,
                          errors="replace")
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|[\x00-\x08\r]", "", proc.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bash", required=True)
    ap.add_argument("--zsh", required=True)
    ap.add_argument("--binary", required=True)
    args = ap.parse_args()
    model = gen_docs.collect(args.binary)
    commands = sorted(c["name"] for c in model["commands"])
    failures = []
    count = 0

    def expect(words, wanted, exact=True):
        nonlocal count
        count += 1
        got, err = bash_complete(args.bash, words)
        ok = got is not None and (got == sorted(wanted) if exact else set(wanted) <= set(got))
        if not ok:
            failures.append(f"bash: {' '.join(words)!r}<TAB> gave {got} {err}, wanted {wanted}")

    expect(["rdmi-probe", "sy"], ["symbols"])
    expect(["rdmi-probe", ""], commands)
    expect(["rdmi-probe", "--color", ""], ["auto", "always", "never"])
    expect(["rdmi-probe", "--color", "al"], ["always"])
    expect(["rdmi-probe", "--root", "/x", "st"], ["state"])  # a global option's value skipped
    expect(["rdmi-probe", "state", "--side", ""], ["host", "dpu"])
    expect(["rdmi-probe", "state", "--st"], ["--strict-contract"])
    expect(["rdmi-probe", "symbols", "--mod"], ["--module"])
    expect(["rdmi-probe", "--jso"], ["--json"])
    expect(["rdmi-probe", "loopback", "--iterations", ""], [])  # a number: nothing to offer
    if model["schemas"]:
        expect(["rdmi-probe", "schema", ""], model["schemas"])
        expect(["rdmi-probe", "schema", "doca-e"], [s for s in model["schemas"]
                                                    if s.startswith("doca-e")])
    else:
        failures.append("rdmi-probe schema --json listed no schemas")
    # Every option with enumerable values, wherever it is (--format of `check` included).
    for e in model["global"]:
        if e.choices:
            for n in e.names:
                expect(["rdmi-probe", n, ""], e.choices)
    for c in model["commands"]:
        for e in c["options"]:
            if e.choices:
                for n in e.names:
                    expect(["rdmi-probe", c["name"], n, ""], e.choices)
        helpers = [h for h, cmd in gen_docs.helpers(model).items() if cmd == c["name"]]
        for h in helpers:
            expect([h, "--strict"], ["--strict-contract"] if any(
                "--strict-contract" in e.names for e in c["options"]) else [])

    zsh = shutil.which("zsh")
    if zsh:
        count += 2
        proc = subprocess.run([zsh, "-n", args.zsh], capture_output=True, text=True)
        if proc.returncode != 0:
            failures.append(f"zsh -n: {proc.stderr.strip()}")
        with tempfile.TemporaryDirectory() as d:
            shutil.copy(args.zsh, os.path.join(d, "_rdmi-probe"))
            prog = ('fpath=("$1" $fpath); autoload -U compinit; compinit -u -D -d "$1/dump"; '
                    'print -r -- "${_comps[rdmi-probe]}|${_comps[doca-env]}"')
            proc = subprocess.run([zsh, "-f", "-c", prog, "zsh", d], capture_output=True,
                                  text=True, timeout=30)
            if proc.stdout.strip() != "_rdmi-probe|_rdmi-probe" or proc.stderr:
                failures.append(f"zsh compinit: {proc.stdout.strip()!r} {proc.stderr.strip()}")
            # Interactive completion in a pseudo-terminal: type, press Tab, read the line back.
            for typed, wanted in (("rdmi-probe sy", "rdmi-probe symbols"),
                                  ("rdmi-probe --color n", "--color never"),
                                  ("rdmi-probe state --side d", "--side dpu")):
                count += 1
                out = zsh_complete(zsh, d, typed)
                if wanted not in out:
                    failures.append(f"zsh: {typed!r}<TAB> did not give {wanted!r}: "
                                    f"{out[-200:]!r}")
    else:
        print("SKIP zsh checks: zsh is not installed")
    for f in failures:
        print("FAIL:", f)
    print(f"completions: {count} checks, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
