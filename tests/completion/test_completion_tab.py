#!/usr/bin/python3
"""TAB pressed in real interactive shells: bash without the bash-completion package, bash with
it (the script loaded by name from a completions directory, one link per helper name, as the
packages install it) and zsh with compinit, each in a tmux pane, the screen read back.

Every case types a line, presses TAB (twice where bash lists), then types a sentinel "@": keys
are handled in order, so once the sentinel is on the screen the completion before it is done,
and the line shows exactly what TAB inserted (a trailing space or none). No fixed sleeps: each
wait polls the pane for a condition, bounded.

    test_completion_tab.py --binary rdmi-probe --bash FILE --zsh FILE --fixture-root DIR
                           --source SOURCE_DIR

Exit 77 (skipped) when tmux, zsh or bash-completion is missing, unless
RDMI_REQUIRE_COMPLETION_TOOLS=1 (CI), which makes that a failure.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

PROMPT = "READY> "
WAIT_S = 10.0


class Pane:
    """One tmux server of its own (its own socket), one window, one interactive shell."""

    count = 0

    def __init__(self, home, command):
        self.zsh = " zsh " in command
        # A socket per shell: the previous shell's server may still be exiting after its
        # kill-server, and a new session on its socket would meet a server on its way out.
        Pane.count += 1
        self.socket = f"rdmi-completion-{os.getpid()}-{Pane.count}"
        self.tmux = ["tmux", "-L", self.socket, "-f", "/dev/null"]
        subprocess.run(self.tmux + ["new-session", "-d", "-x", "250", "-y", "60", "-s", "t",
                                    command], check=True, cwd=home)
        self.wait_for(lambda screen: screen.rstrip().endswith(PROMPT.rstrip()), "first prompt")

    def screen(self):
        return subprocess.run(self.tmux + ["capture-pane", "-p", "-t", "t"], check=True,
                              capture_output=True, text=True).stdout

    def keys(self, *keys, literal=False):
        subprocess.run(self.tmux + ["send-keys", "-t", "t"] + (["-l"] if literal else []) +
                       list(keys), check=True)

    def wait_for(self, condition, what, wait_s=None):
        deadline = time.monotonic() + (WAIT_S if wait_s is None else wait_s)
        while True:
            screen = self.screen()
            if condition(screen):
                return screen
            if time.monotonic() > deadline:
                raise TimeoutError(f"{what}: not on the screen after {wait_s or WAIT_S} s:\n"
                                   f"{screen}")
            time.sleep(0.02)  # a poll interval, not a guess at how long the shell takes

    def fresh_line(self):
        """An empty screen with only the prompt on it."""
        # The prompt C-c prints is a new one: counting them keeps the old prompt, still on the
        # screen, from passing for it, so C-l never reaches a shell still handling the SIGINT
        # (which would drop it).
        prompts = self.screen().count(PROMPT.rstrip())
        # Under the sanitizer build in a loaded CI run, a shell once echoed ^C and drew no new
        # prompt for 10 s; a second C-c is as harmless to an idle line as the first, so it is
        # pressed again, a bounded number of times, rather than waited on.
        for attempt in range(5):
            self.keys("C-c")
            try:
                self.wait_for(lambda s: s.rstrip().endswith(PROMPT.rstrip()) and
                              s.count(PROMPT.rstrip()) > prompts, "prompt after C-c",
                              wait_s=WAIT_S / 5)
                break
            except TimeoutError:
                if attempt == 4:
                    raise
        # Under load a key can still land while the line editor redraws; C-l is idempotent, so
        # a bounded number of presses replaces a guess at how long that takes.
        for attempt in range(5):
            self.keys("C-l")
            try:
                self.wait_for(lambda s: s.strip() == PROMPT.strip(), "cleared screen",
                              wait_s=WAIT_S / 5)
                return
            except TimeoutError:
                if attempt == 4:
                    raise

    def close(self):
        subprocess.run(self.tmux + ["kill-server"], capture_output=True)


def prompt_line(screen, sentinel):
    for line in reversed(screen.splitlines()):
        if line.startswith(PROMPT) and sentinel in line:
            return line[len(PROMPT):].rstrip()
    return None


def run_case(pane, typed, tabs, expect_line=None, expect_listed=(), refuse_listed=()):
    """Types `typed`, presses TAB `tabs` times, then the sentinel; checks the line and what the
    screen lists. Returns a failure text or None."""
    pane.fresh_line()
    pane.keys(typed, literal=True)
    # "list": what an ambiguous TAB shows, two presses in bash (its second lists), one in zsh
    # (its second would start cycling through the list).
    if tabs == "list":
        tabs = 1 if pane.zsh else 2
    for _ in range(tabs):
        pane.keys("Tab")
    sentinel = "@"
    pane.keys(sentinel, literal=True)
    try:
        screen = pane.wait_for(lambda s: prompt_line(s, sentinel) is not None, "the sentinel")
    except TimeoutError as e:
        return f"{typed!r}: {e}"
    line = prompt_line(screen, sentinel)
    listed = screen.replace(PROMPT + (line or ""), "").split()
    if expect_line is not None and line != expect_line + sentinel:
        return f"{typed!r}<TAB>: line is {line!r}, wanted {expect_line + sentinel!r}"
    # bash lists what follows the last word break of a candidate ("00.0" of "0000:03:00.0",
    # as readline replaces only that part); zsh lists the whole candidate.
    # Without "=" among the word breaks, bash lists the whole --opt=value word.
    missing = [w for w in expect_listed
               if not any(w == l or (w.endswith(l) and w[-len(l) - 1] in ":=") or
                          (l.endswith(w) and l[-len(w) - 1] == "=") for l in listed)]
    if missing:
        return f"{typed!r}<TAB><TAB>: {missing} not listed; screen:\n{screen}"
    extra = [w for w in refuse_listed if w in listed]
    if extra:
        return f"{typed!r}<TAB><TAB>: {extra} listed, wrongly; screen:\n{screen}"
    return None


def cases(helpers, check_id, schema):
    """(typed, tabs, line wanted, words listed, words not listed); shells differ in how a list
    is shown, never in what a line becomes."""
    out = [
        ("rdmi-probe sy", 1, "rdmi-probe symbols ", (), ()),
        ("rdmi-probe --col", 1, "rdmi-probe --color ", (), ()),
        ("rdmi-probe --color n", 1, "rdmi-probe --color never ", (), ()),
        ("rdmi-probe --color=al", 1, "rdmi-probe --color=always ", (), ()),
        ("rdmi-probe check --format j", "list", "rdmi-probe check --format j", ("json", "junit"),
         ("text",)),
        ("rdmi-probe state --side d", 1, "rdmi-probe state --side dpu ", (), ()),
        # file options: a file, a name with spaces kept one word, a directory to go deeper
        ("rdmi-probe --output no", 1, "rdmi-probe --output notes\\ file.txt ", (), ()),
        ("rdmi-probe --output=no", 1, "rdmi-probe --output=notes\\ file.txt ", (), ()),
        ("rdmi-probe --output al", 1, "rdmi-probe --output alpha\\ dir/", (), ()),
        ("rdmi-probe --output alpha\\ dir/in", 1, "rdmi-probe --output alpha\\ dir/inner/",
         (), ()),
        ("rdmi-probe diff no", 1, "rdmi-probe diff notes\\ file.txt ", (), ()),
        # a name holding a word break ("=", ":"): the part typed before it is not doubled
        ("rdmi-probe --output x=", 1, "rdmi-probe --output x=y.txt ", (), ()),
        ("rdmi-probe --output=x=", 1, "rdmi-probe --output=x=y.txt ", (), ()),
        ("rdmi-probe --output c:", 1, "rdmi-probe --output c:d.txt ", (), ()),
        ("rdmi-probe --output d=", 1, "rdmi-probe --output d=1/", (), ()),
        ("rdmi-probe --output=al", 1, "rdmi-probe --output=alpha\\ dir/", (), ()),
        # --root: directories and bundles, no other file
        ("rdmi-probe --root bu", 1, "rdmi-probe --root bundle.tar.gz ", (), ()),
        ("rdmi-probe --root ot", 1, "rdmi-probe --root ot", (), ()),
        ("rdmi-probe --root=bu", 1, "rdmi-probe --root=bundle.tar.gz ", (), ()),
        # --doca-prefix: directories only
        ("rdmi-probe --doca-prefix no", 1, "rdmi-probe --doca-prefix no", (), ()),
        # values from the program's catalogs
        ("rdmi-probe error DOCA_ERROR_BAD_S", 1, "rdmi-probe error DOCA_ERROR_BAD_STATE ", (), ()),
        ("rdmi-probe error NOT_SUPP", 1, "rdmi-probe error NOT_SUPPORTED ", (), ()),
        (f"rdmi-probe check --explain {check_id[:-1]}", 1,
         f"rdmi-probe check --explain {check_id} ", (), ()),
        (f"rdmi-probe schema {schema[:-1]}", 1, f"rdmi-probe schema {schema} ", (), ()),
        # devices of the --root given earlier (a name with a space), PCI addresses with colons
        ("rdmi-probe --root fx\\ root check --require-device mlx", 1,
         "rdmi-probe --root fx\\ root check --require-device mlx5_", (), ()),
        ("rdmi-probe --root fx\\ root check --require-device mlx5_", "list",
         "rdmi-probe --root fx\\ root check --require-device mlx5_", ("mlx5_0", "mlx5_1"), ()),
        ("rdmi-probe --root fx\\ root check --require-device=0000:03:00.", "list",
         "rdmi-probe --root fx\\ root check --require-device=0000:03:00.",
         ("0000:03:00.0", "0000:03:00.1"), ()),
        ("rdmi-probe --root fx\\ root check --require-device 0000:03:00.1", 1,
         "rdmi-probe --root fx\\ root check --require-device 0000:03:00.1 ", (), ()),
        ("rdmi-probe --root bundle.tar.gz check --require-device ml", 1,
         "rdmi-probe --root bundle.tar.gz check --require-device ml", (), ()),
        # -d/--device of report, env, caps and state: the same devices, in every form
        ("rdmi-probe --root fx\\ root report -d mlx5_", "list",
         "rdmi-probe --root fx\\ root report -d mlx5_", ("mlx5_0", "mlx5_1"), ()),
        ("rdmi-probe --root fx\\ root caps --device=0000:03:00.", "list",
         "rdmi-probe --root fx\\ root caps --device=0000:03:00.",
         ("0000:03:00.0", "0000:03:00.1"), ()),
        ("doca-env --root fx\\ root -d mlx5_0", 1, "doca-env --root fx\\ root -d mlx5_0 ", (), ()),
        # the default subcommand's options before any subcommand; help names subcommands
        ("rdmi-probe --format pro", 1, "rdmi-probe --format prometheus ", (), ()),
        ("rdmi-probe help lo", 1, "rdmi-probe help loopback ", (), ()),
        # a duration: nothing, and no file names either
        ("rdmi-probe check --wait no", 1, "rdmi-probe check --wait no", (), ()),
        # a number: nothing, and no file names either
        ("rdmi-probe --timeout no", 1, "rdmi-probe --timeout no", (), ()),
    ]
    for helper in helpers:
        out.append((f"{helper} --jso", 1, f"{helper} --json ", (), ()))
    out.append(("doca-validate --strict-c", 1, "doca-validate --strict-contract ", (), ()))
    return out


def make_home(tmp, binary, bash_script, zsh_script, fixture_root, helpers):
    home = os.path.join(tmp, "home")
    work = os.path.join(home, "work")
    bindir = os.path.join(home, "bin")
    for d in (work, bindir, os.path.join(work, "alpha dir", "inner"),
              os.path.join(work, "d=1")):
        os.makedirs(d, exist_ok=True)
    for name in ("notes file.txt", "other.txt", "bundle.tar.gz", "x=y.txt", "c:d.txt"):
        with open(os.path.join(work, name), "w", encoding="utf-8") as f:
            f.write("x\n")
    os.symlink(fixture_root, os.path.join(work, "fx root"))
    for name in ["rdmi-probe"] + helpers:
        os.symlink(os.path.abspath(binary), os.path.join(bindir, name))
    # bash-completion's per-user directory: the script by the program's name, a link per helper.
    compl = os.path.join(home, ".local", "share", "bash-completion", "completions")
    os.makedirs(compl)
    shutil.copy(bash_script, os.path.join(compl, "rdmi-probe"))
    for name in helpers:
        os.symlink("rdmi-probe", os.path.join(compl, name))
    fpath = os.path.join(home, "zfuncs")
    os.makedirs(fpath)
    shutil.copy(zsh_script, os.path.join(fpath, "_rdmi-probe"))
    with open(os.path.join(home, "plain.bashrc"), "w", encoding="utf-8") as f:
        f.write(f"PS1='{PROMPT}'\nsource '{bash_script}'\n")
    # A user's COMP_WORDBREAKS without "=" and ":" (as some set it for scp and make): readline
    # then replaces the whole --opt=value word.
    with open(os.path.join(home, "nobreaks.bashrc"), "w", encoding="utf-8") as f:
        f.write(f"PS1='{PROMPT}'\nsource '{bash_script}'\n"
                "COMP_WORDBREAKS=${COMP_WORDBREAKS//[:=]/}\n")
    with open(os.path.join(home, "bc.bashrc"), "w", encoding="utf-8") as f:
        f.write(f"PS1='{PROMPT}'\nsource /usr/share/bash-completion/bash_completion\n")
    zdot = os.path.join(home, "zdot")
    os.makedirs(zdot)
    with open(os.path.join(zdot, ".zshrc"), "w", encoding="utf-8") as f:
        f.write(f"PS1='{PROMPT}'\nfpath=('{fpath}' $fpath)\nautoload -U compinit\n"
                f"compinit -u -d '{home}/zcompdump'\n")
    env = f"env -i HOME='{home}' PATH='{bindir}:/usr/bin:/bin' TERM=screen LANG=C.UTF-8"
    shells = {
        "bash (no bash-completion)": f"{env} bash --noprofile --rcfile '{home}/plain.bashrc' -i",
        "bash (bash-completion)": f"{env} bash --noprofile --rcfile '{home}/bc.bashrc' -i",
        "bash (no = or : word breaks)":
            f"{env} bash --noprofile --rcfile '{home}/nobreaks.bashrc' -i",
        "zsh (compinit)": f"{env} ZDOTDIR='{zdot}' zsh -i",
    }
    return work, shells


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--bash", required=True)
    ap.add_argument("--zsh", required=True)
    ap.add_argument("--fixture-root", required=True)
    args = ap.parse_args()
    # The shells run in a throwaway HOME: every path given must hold from there.
    for name in ("binary", "bash", "zsh", "fixture_root"):
        setattr(args, name, os.path.abspath(getattr(args, name)))
    missing = [tool for tool, there in (
        ("tmux", shutil.which("tmux")), ("zsh", shutil.which("zsh")),
        ("bash-completion", os.path.isfile("/usr/share/bash-completion/bash_completion")))
        if not there]
    if missing:
        print(f"completion-tab: {', '.join(missing)} not installed")
        return 1 if os.environ.get("RDMI_REQUIRE_COMPLETION_TOOLS") == "1" else 77
    # The names the script registers (the model's helper names), rdmi-probe first.
    with open(args.bash, encoding="utf-8") as f:
        registered = [ln for ln in f if ln.startswith("complete -F ")][-1].split()[3:]
    helpers = registered[1:]
    catalog = json.loads(subprocess.run([args.binary, "check", "--list-checks", "--json"],
                                        capture_output=True, text=True).stdout)
    ids = sorted(f["id"] for f in catalog["findings"] if "<" not in f["id"])
    # An id no other id starts with, so one TAB completes it.
    check_id = next(i for i in ids if not any(o != i and o.startswith(i[:-1]) for o in ids))
    schemas = json.loads(subprocess.run([args.binary, "schema", "--json"], capture_output=True,
                                        text=True).stdout)
    names = sorted(s["name"] for s in schemas)
    schema = next(n for n in names if not any(o != n and o.startswith(n[:-1]) for o in names))
    failures, count = [], 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        work, shells = make_home(tmp, args.binary, args.bash, args.zsh, args.fixture_root,
                                 helpers)
        for shell, command in shells.items():
            pane = Pane(work, command)
            try:
                for typed, tabs, line, listed, refused in cases(helpers, check_id, schema):
                    count += 1
                    problem = run_case(pane, typed, tabs, line, listed, refused)
                    if problem:
                        failures.append(f"{shell}: {problem}")
            finally:
                pane.close()
    for f in failures:
        print("FAIL:", f)
    print(f"completion-tab: {count} TAB presses in {len(shells)} shells, {len(failures)} failed, "
          f"{time.monotonic() - started:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
