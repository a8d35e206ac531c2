#!/usr/bin/python3
"""Checks that a newcomer can find the test of every source file.

Every `src/<path>.cpp` (and every header with no .cpp of its own) either has a unit test of the
same stem, `tests/unit/<path>_test.cpp`, or a row in the index of tests/README.md naming the
tests that cover it. The index may not go stale: each row names a source that exists and has no
same-stem test, and each test it names exists.

Usage: check_test_index.py [--root DIR]   (default: the repository this script is in)
       check_test_index.py --self-test    (the checker finds what it must, on made-up trees)
Prints one line per problem and exits 1 when there is any; exits 0 with a summary otherwise.
"""
import os
import re
import sys
import tempfile

INDEX = "tests/README.md"
INDEX_HEADING = "## Sources covered by tests of another name"
ROW = re.compile(r"^\|\s*`(src/[^`]+)`\s*\|(.*)\|\s*$")
CITED = re.compile(r"`([^`]+)`")


def sources(root):
    """src/ files that want a test: every .cpp but main.cpp, and headers with no .cpp."""
    found = []
    src = os.path.join(root, "src")
    for dirpath, _dirs, files in os.walk(src):
        for name in files:
            rel = os.path.relpath(os.path.join(dirpath, name), root)
            stem, ext = os.path.splitext(rel)
            if ext == ".cpp" and rel != "src/main.cpp":
                found.append(rel)
            elif ext == ".hpp" and not os.path.exists(os.path.join(root, stem + ".cpp")):
                found.append(rel)
    return sorted(found)


def same_stem_test(root, source):
    stem = os.path.splitext(source[len("src/"):])[0]
    return os.path.exists(os.path.join(root, "tests", "unit", stem + "_test.cpp"))


def read_index(root):
    """{source: [tests]} from the index's table, and problems with the index's own shape."""
    path = os.path.join(root, INDEX)
    if not os.path.exists(path):
        return {}, [f"{INDEX}: missing (it holds the index of sources tested under another name)"]
    rows, problems, inside = {}, [], False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("## "):
                inside = line.strip() == INDEX_HEADING
                continue
            if not inside:
                continue
            m = ROW.match(line)
            if not m:
                continue
            tests = CITED.findall(m.group(2))
            if not tests:
                problems.append(f"{INDEX}:{number}: {m.group(1)} names no test")
            rows[m.group(1)] = (number, tests)
    return rows, problems


def check(root):
    rows, problems = read_index(root)
    wanted = sources(root)
    for source in wanted:
        if not same_stem_test(root, source) and source not in rows:
            stem = os.path.splitext(source[len("src/"):])[0]
            problems.append(f"{source}: no tests/unit/{stem}_test.cpp and no row in {INDEX} "
                            f"under \"{INDEX_HEADING[3:]}\"")
    for source, (number, tests) in sorted(rows.items()):
        if source not in wanted:
            problems.append(f"{INDEX}:{number}: {source} is not a source file that wants a test")
        elif same_stem_test(root, source):
            problems.append(f"{INDEX}:{number}: {source} has a test of its own stem; drop the row")
        for test in tests:
            if not os.path.exists(os.path.join(root, test)):
                problems.append(f"{INDEX}:{number}: {test} (named for {source}) does not exist")
    return problems, len(wanted), len(rows)


def self_test():
    def tree(files):
        d = tempfile.mkdtemp(prefix="test-index-")
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
            with open(os.path.join(d, rel), "w", encoding="utf-8") as f:
                f.write(text)
        return d

    head = f"# Tests\n\n{INDEX_HEADING}\n\n| source | tests |\n| --- | --- |\n"
    cases = [
        ({"src/a/x.cpp": "", "tests/unit/a/x_test.cpp": "", INDEX: head}, []),
        ({"src/a/x.cpp": "", INDEX: head}, ["no tests/unit/a/x_test.cpp"]),
        ({"src/a/x.cpp": "", "tests/cli/t.py": "",
          INDEX: head + "| `src/a/x.cpp` | `tests/cli/t.py` |\n"}, []),
        ({"src/a/x.cpp": "", INDEX: head + "| `src/a/x.cpp` | `tests/gone.py` |\n"},
         ["does not exist"]),
        ({"src/a/x.cpp": "", "tests/unit/a/x_test.cpp": "", "tests/t.py": "",
          INDEX: head + "| `src/a/x.cpp` | `tests/t.py` |\n"}, ["drop the row"]),
        ({INDEX: head + "| `src/gone.cpp` | `tests/t.py` |\n", "tests/t.py": ""},
         ["not a source file"]),
        ({"src/a/only.hpp": "", INDEX: head}, ["no tests/unit/a/only_test.cpp"]),
        ({"src/a/y.hpp": "", "src/a/y.cpp": "", "tests/unit/a/y_test.cpp": "", INDEX: head}, []),
        ({"src/a/x.cpp": ""}, ["missing", "no tests/unit/a/x_test.cpp"]),
    ]
    failed = 0
    for number, (files, expected) in enumerate(cases, 1):
        problems, _, _ = check(tree(files))
        ok = len(problems) == len(expected) and all(
            any(e in p for p in problems) for e in expected)
        if not ok:
            failed += 1
            print(f"self-test case {number}: expected {expected}, got {problems}")
    print(f"check_test_index self-test: {len(cases) - failed} of {len(cases)} cases pass")
    return 1 if failed else 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    root = argv[argv.index("--root") + 1] if "--root" in argv else os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))
    problems, wanted, indexed = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"check_test_index: {len(problems)} problem(s)")
        return 1
    print(f"check_test_index: {wanted} sources, {wanted - indexed} with a test of their own "
          f"stem, {indexed} in {INDEX}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
