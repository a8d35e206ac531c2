#!/usr/bin/python3
"""`diff` against real documents: what it calls a change is one, and every pointer it emits holds.

    test_diff.py --binary PATH --fixtures DIR [--seed N] [--pairs N]

* One host probed from two root paths (a fixture root copied to two directories) diffs equal,
  exit 0, for every document command that reads a root (report, env, state, caps, symbols).
* A real report without its first fix-plan step (the later ones renumbered): one removal.
* Property: real documents of those commands on several fixture roots, each paired with a
  randomly edited copy of itself (members removed, added or changed, array elements removed,
  inserted, moved or changed), and with another root's document. For every change of
  `diff --json`: `pointer` resolves in the document it names (A for removed and changed, B for
  added) to the value the change carries, `b_pointer` resolves in B to `b`, and every group
  lists indices of changes. The seed is printed, so a failure replays.
Ends with "N passed, M failed"; exits 1 if anything failed.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

COMMANDS = (
    ("report", ["report", "--json"]),
    ("env", ["env", "--json"]),
    ("state", ["state", "--json"]),
    ("caps", ["caps", "--json"]),
    ("symbols", ["symbols", "--json"]),
)
ROOTS = ("complete-3.3", "dpa-mismatch", "rdmi-lib-missing", "legacy-2.10")
KIND_KEYS = ("schema", "x_rdmi_probe")
ERROR_SCHEMA = "urn:rdmi-probe:schema:error"


def run(binary: str, args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=120, check=False)


def document(binary: str, args: list[str], root: str) -> dict[str, Any]:
    done = run(binary, [*args, "--root", root])
    return json.loads(done.stdout)


def resolve(doc: Any, pointer: str) -> Any:
    """The value at an RFC 6901 pointer; KeyError/IndexError when it does not resolve."""
    if pointer == "":
        return doc
    if not pointer.startswith("/"):
        raise KeyError(f"{pointer!r} does not start with /")
    for raw in pointer[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(doc, list):
            if not token.isdigit() or (token != "0" and token.startswith("0")):
                raise KeyError(f"{token!r} is no array index")
            doc = doc[int(token)]
        elif isinstance(doc, dict):
            doc = doc[token]
        else:
            raise KeyError(f"{token!r} below a scalar")
    return doc


def places(doc: Any, at: tuple = ()) -> list[tuple]:
    """Every (container path) in the document."""
    out = []
    if isinstance(doc, (dict, list)):
        out.append(at)
        items = doc.items() if isinstance(doc, dict) else enumerate(doc)
        for key, value in items:
            out.extend(places(value, (*at, key)))
    return out


def value_at(doc: Any, path: tuple) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def edit(doc: dict[str, Any], rng: random.Random, count: int) -> dict[str, Any]:
    """A copy of doc with `count` random edits inside it (the members naming its kind kept)."""
    out = copy.deepcopy(doc)
    for _ in range(count):
        containers = [p for p in places(out) if p]
        if not containers:
            break
        target = value_at(out, rng.choice(containers))
        action = rng.randrange(5)
        if isinstance(target, dict):
            keys = list(target)
            # What names the document's kind stays, or diff rightly refuses the pair.
            keys = [k for k in target if k not in KIND_KEYS]
            if action == 0 and keys:
                del target[rng.choice(keys)]
            elif action == 1 or not keys:
                target[f"added_{rng.randrange(1000)}"] = rng.choice([1, "x", None, [1, 2], {"k": 1}])
            else:
                key = rng.choice(keys)
                if not isinstance(target[key], (dict, list)):
                    target[key] = rng.choice([0, "changed", True, None, 2.5])
        else:
            if action == 0 and target:
                del target[rng.randrange(len(target))]
            elif action == 1 and target:
                target.insert(rng.randrange(len(target) + 1), copy.deepcopy(rng.choice(target)))
            elif action == 2 and len(target) > 1:
                target.insert(rng.randrange(len(target)), target.pop(rng.randrange(len(target))))
            elif target:
                i = rng.randrange(len(target))
                if not isinstance(target[i], (dict, list)):
                    target[i] = rng.choice([7, "other", False])
                elif isinstance(target[i], dict) and target[i]:
                    key = rng.choice(list(target[i]))
                    if not isinstance(target[i][key], (dict, list)):
                        target[i][key] = "edited"
    return out


def check_pointers(a: Any, b: Any, diff: dict[str, Any]) -> list[str]:
    problems = []
    for i, change in enumerate(diff["changes"]):
        kind = change["change"]
        side, expected = (b, change.get("b")) if kind == "added" else (a, change.get("a"))
        try:
            found = resolve(side, change["pointer"])
            if found != expected:
                problems.append(f"change {i}: {change['pointer']} in {'B' if kind == 'added' else 'A'}"
                                f" holds {json.dumps(found)[:80]}, the change says {json.dumps(expected)[:80]}")
        except (KeyError, IndexError) as error:
            problems.append(f"change {i}: {change['pointer']!r} does not resolve: {error}")
        if kind == "changed":
            try:
                if resolve(b, change["b_pointer"]) != change["b"]:
                    problems.append(f"change {i}: b_pointer {change['b_pointer']} does not hold b")
            except (KeyError, IndexError) as error:
                problems.append(f"change {i}: b_pointer {change.get('b_pointer')!r}: {error}")
        elif "b_pointer" in change:
            problems.append(f"change {i}: a {kind} change with a b_pointer")
    if any("changes" not in group for group in diff["groups"]):
        return [*problems, "a group lists no change indices"]
    listed = sorted(i for group in diff["groups"] for i in group["changes"])
    if listed != list(range(len(diff["changes"]))):
        problems.append(f"groups list {listed[:10]}..., not each change once")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--pairs", type=int, default=60)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 30)
    print(f"seed {seed}")
    rng = random.Random(seed)
    roots = Path(args.fixtures) / "roots"
    passed = failed = 0

    def verdict(name: str, problems: list[str]) -> None:
        nonlocal passed, failed
        if problems:
            failed += 1
            print(f"FAIL {name}")
            for problem in problems[:8]:
                print(f"    {problem}")
        else:
            passed += 1
            print(f"ok   {name}")

    with tempfile.TemporaryDirectory(prefix="rdmi-diff-") as tmp_name:
        tmp = Path(tmp_name)
        # One host from two root paths: a copy keeps owners, modes and links (run as root).
        first, second = tmp / "first", tmp / "elsewhere" / "second-root"
        shutil.copytree(roots / "complete-3.3", first, symlinks=True)
        shutil.copytree(roots / "complete-3.3", second, symlinks=True)
        documents: dict[str, list[Path]] = {}
        for name, command in COMMANDS:
            paths = []
            for label, root in (("first", first), ("second", second)):
                path = tmp / f"{name}-{label}.json"
                path.write_text(json.dumps(document(args.binary, command, str(root))))
                paths.append(path)
            done = run(args.binary, ["diff", str(paths[0]), str(paths[1])])
            verdict(f"{name}: one host from two root paths is equal",
                    [] if done.returncode == 0 else [f"exit {done.returncode}", *done.stdout.splitlines()[-12:]])
            done = run(args.binary, ["diff", "--all", str(paths[0]), str(paths[1])])
            verdict(f"{name}: --all still shows the run's root path",
                    [] if done.returncode == 1 and "/run/root" in done.stdout or name not in ("report", "symbols")
                    else [f"exit {done.returncode}", *done.stdout.splitlines()[-6:]])

        real: list[tuple[str, dict[str, Any]]] = []
        for name, command in COMMANDS:
            for root in ROOTS:
                doc = document(args.binary, command, str(roots / root))
                # A root without the library makes `symbols` an error document: not a pair.
                if doc.get("schema") != ERROR_SCHEMA:
                    real.append((f"{name} of {root}", doc))
        # A real fix plan without its first step: one removal, not a renumbering of the rest.
        for label, doc in real:
            if not label.startswith("report") or len(doc.get("fix_plan", [])) < 2:
                continue
            fewer = copy.deepcopy(doc)
            first = fewer["fix_plan"].pop(0)
            for number, step in enumerate(fewer["fix_plan"], start=1):
                step["step"] = number
            (tmp / "plan_a.json").write_text(json.dumps(doc))
            (tmp / "plan_b.json").write_text(json.dumps(fewer))
            done = run(args.binary, ["diff", "--json", str(tmp / "plan_a.json"), str(tmp / "plan_b.json")])
            changes = json.loads(done.stdout)["changes"] if done.stdout else []
            expected = [{"pointer": "/fix_plan/0", "change": "removed", "label": f"fix_plan[id={first['id']}]", "a": first}]
            verdict(f"{label} without its first fix step ({len(doc['fix_plan'])} steps): one removal",
                    [] if done.returncode == 1 and changes == expected else [f"exit {done.returncode}: {json.dumps(changes)[:400]}"])
        pair_problems: list[str] = []
        for n in range(args.pairs):
            label, a = rng.choice(real)
            if n % 4 == 3:
                others = [d for other, d in real if other.split()[0] == label.split()[0] and d is not a]
                b = rng.choice(others)
                label += " vs another root"
            else:
                b = edit(a, rng, rng.randrange(1, 6))
            if rng.randrange(2):
                a, b = b, a
            path_a, path_b = tmp / "a.json", tmp / "b.json"
            path_a.write_text(json.dumps(a))
            path_b.write_text(json.dumps(b))
            extra = ["--all"] if rng.randrange(3) == 0 else []
            done = run(args.binary, ["diff", "--json", *extra, str(path_a), str(path_b)])
            if done.returncode not in (0, 1):
                pair_problems.append(f"pair {n} ({label}): exit {done.returncode}: {done.stderr.strip()}")
                continue
            diff = json.loads(done.stdout)
            if (done.returncode == 0) != (not diff["changes"]):
                pair_problems.append(f"pair {n} ({label}): exit {done.returncode} with {len(diff['changes'])} changes")
            pair_problems.extend(f"pair {n} ({label}): {p}" for p in check_pointers(a, b, diff))
        verdict(f"{args.pairs} generated pairs: every pointer resolves to its value in the document it names",
                pair_problems)

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
