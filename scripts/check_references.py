#!/usr/bin/env python3
"""Fails when the repository cites a document it does not contain.

Code, tests, scripts and docs explain themselves by pointing at the DOCA reference notes in
docs/reference/ ("docs/reference/install-layout.md#version-sources"). This check keeps those
pointers honest:

* a citation of a docs/reference note must name a file that exists and, when it has one, an
  anchor that is a heading of that file;
* a relative Markdown link in any Markdown file scanned (README.md, docs/, bench/README.md, ...)
  must resolve the same way: a .md target to a file and, when it names one, a heading; any other
  target to a file or directory of the repository;
* docs/README.md, the index of the documentation, links every other page of docs/;
* nothing may cite the notes the project was built from before they were written into the
  repository (their names and numbering are listed in FORBIDDEN), since a reader of the
  repository cannot follow them.

Usage: check_references.py [--root DIR] | --self-test
"""

import argparse
import os
import re
import sys
import tempfile

# What is scanned, relative to the root: whole trees and single files.
TREES = ["src", "tests", "scripts", "dpa_kernels", "cmake", "docs", "packaging", "schemas",
         "completions", "bench", ".ci", ".github"]
FILES = ["README.md", "CMakeLists.txt", "CONTRIBUTING.md"]
SKIP_DIRS = {".git", "__pycache__"}
TEXT_SUFFIXES = {".c", ".cc", ".cpp", ".h", ".hpp", ".in", ".py", ".sh", ".cmake", ".txt", ".md",
                 ".json", ".map", ".yml", ".yaml", ".tsv", ".bash", ".zsh", ".fish", ".1", ".golden",
                 ".catalog", ".pc", ".out", ".err", ".expected", ".toml", ".cfg", ""}
MAX_FILE_BYTES = 4 * 1024 * 1024

# Citations of documents outside the repository, each with what to cite instead. Built from parts
# so that this file does not match itself.
FORBIDDEN = [
    (re.compile("doca" + r"-facts"), "an unpublished note; cite docs/reference/<note>.md#<anchor>"),
    (re.compile("rdmi" + r"-domain"), "an unpublished note; cite docs/reference/<note>.md#<anchor>"),
    (re.compile(r"shared/" + "reference"), "outside the repository; cite docs/reference/"),
    (re.compile(r"/work/" + "shared"), "outside the repository; cite docs/reference/"),
    (re.compile("UNCONFIRMED" + r" #\d"), "a numbered list outside the repository; cite "
     "docs/reference/dpa-lifecycle.md#not-confirmed or the note's own section"),
    (re.compile(r"contract " + "\u00a7"), "a section of a document outside the repository; cite "
     "docs/reference/structured-tools-contract.md#<anchor>"),
    (re.compile(r"(?<![\w/.-])(?:design|style)\.md"), "not in the repository; cite README.md or "
     "docs/"),
    # Bare section numbers ("(D.4)", "F.5 fallback") of the same unpublished notes.
    (re.compile(r"(?<![\w.#/-])[A-H]\.[1-9](?![\w.])"), "a section number of a note outside the "
     "repository; cite docs/reference/<note>.md#<anchor>"),
]

REFERENCE_DIR = "docs/reference"
DOCS_INDEX = "docs/README.md"
CITATION = re.compile(r"docs/reference/([A-Za-z0-9_.-]+\.md)(?:#([A-Za-z0-9_-]+))?")
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def slug(title):
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens."""
    title = re.sub(r"`([^`]*)`", r"\1", title.strip().lower())
    title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)
    kept = "".join(c for c in title if c.isalnum() or c in " -_")
    return kept.replace(" ", "-")


def anchors_of(path):
    """Every anchor a Markdown file defines, duplicates numbered as GitHub does."""
    anchors, seen, in_fence = set(), {}, False
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if FENCE.match(line):
                in_fence = not in_fence
                continue
            match = None if in_fence else HEADING.match(line)
            if not match:
                continue
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            anchors.add(base if count == 0 else f"{base}-{count}")
    return anchors


def scanned_files(root):
    self_path = os.path.realpath(__file__)
    for name in FILES:
        path = os.path.join(root, name)
        if os.path.isfile(path):
            yield path
    for tree in TREES:
        top = os.path.join(root, tree)
        for directory, dirs, files in os.walk(top):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
            for name in sorted(files):
                path = os.path.join(directory, name)
                if os.path.realpath(path) == self_path:
                    continue
                if os.path.splitext(name)[1] not in TEXT_SUFFIXES:
                    continue
                if os.path.islink(path) or not os.path.isfile(path):
                    continue
                if os.path.getsize(path) > MAX_FILE_BYTES:
                    continue
                yield path


def read_text(path):
    with open(path, "rb") as handle:
        data = handle.read()
    if b"\0" in data:
        return None
    return data.decode("utf-8", errors="replace")


class Checker:
    def __init__(self, root):
        self.root = root
        self.anchor_cache = {}
        self.problems = []

    def anchors(self, path):
        if path not in self.anchor_cache:
            try:
                self.anchor_cache[path] = anchors_of(path) if os.path.isfile(path) else None
            except (OSError, UnicodeDecodeError):
                self.anchor_cache[path] = None
        return self.anchor_cache[path]

    def report(self, path, line_no, message):
        rel = os.path.relpath(path, self.root)
        self.problems.append(f"{rel}:{line_no}: {message}")

    def check_target(self, path, line_no, target_file, anchor, shown):
        anchors = self.anchors(target_file)
        if anchors is None:
            self.report(path, line_no, f"{shown}: no such file in the repository")
        elif anchor and anchor not in anchors:
            self.report(path, line_no, f"{shown}: no heading with anchor #{anchor}")

    def check_file(self, path):
        try:
            text = read_text(path)
        except OSError as err:
            self.report(path, 0, f"cannot be read ({err.strerror}), so its citations are unchecked")
            return
        if text is None:
            return
        markdown = path.endswith(".md")
        in_fence = False
        for line_no, line in enumerate(text.splitlines(), 1):
            if markdown and FENCE.match(line):
                in_fence = not in_fence
            for pattern, why in FORBIDDEN:
                match = pattern.search(line)
                if match:
                    self.report(path, line_no, f"cites '{match.group(0)}': {why}")
            for match in CITATION.finditer(line):
                target = os.path.join(self.root, REFERENCE_DIR, match.group(1))
                self.check_target(path, line_no, target, match.group(2), match.group(0))
            if markdown and not in_fence:
                for match in MD_LINK.finditer(line):
                    self.check_link(path, line_no, match.group(1))

    def check_link(self, path, line_no, link):
        if re.match(r"^[a-z][a-z0-9+.-]*:", link):  # http:, https:, mailto:
            return
        file_part, _, anchor = link.partition("#")
        target = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part \
            else path
        if not target.startswith(os.path.realpath(self.root)) and \
                not target.startswith(self.root):
            self.report(path, line_no, f"({link}): points outside the repository")
            return
        if file_part and not file_part.endswith(".md"):
            if not os.path.exists(target):
                self.report(path, line_no, f"({link}): no such file or directory in the repository")
            return
        self.check_target(path, line_no, target, anchor, f"({link})")

    def check_index(self):
        """Every page of docs/ is linked from the index, so that a reader can find it."""
        index = os.path.join(self.root, DOCS_INDEX)
        docs = os.path.join(self.root, "docs")
        if not os.path.isdir(docs):
            return
        if not os.path.isfile(index):
            self.report(index, 0, "missing: the index of docs/ must list every page")
            return
        linked = set()
        with open(index, encoding="utf-8", errors="replace") as handle:
            for match in MD_LINK.finditer(handle.read()):
                linked.add(os.path.normpath(os.path.join(docs, match.group(1).partition("#")[0])))
        for directory, dirs, files in os.walk(docs):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
            for name in sorted(files):
                page = os.path.normpath(os.path.join(directory, name))
                if name.endswith(".md") and page != os.path.normpath(index) and page not in linked:
                    self.report(index, 0, f"does not link {os.path.relpath(page, self.root)}")

    def run(self):
        for path in scanned_files(self.root):
            self.check_file(path)
        self.check_index()
        return self.problems


def self_test():
    """The check finds each kind of bad citation and accepts the good ones."""
    with tempfile.TemporaryDirectory() as root:
        ref = os.path.join(root, REFERENCE_DIR)
        os.makedirs(ref)
        os.makedirs(os.path.join(root, "src"))
        with open(os.path.join(ref, "note.md"), "w", encoding="utf-8") as handle:
            handle.write("# Note\n\n## Version sources\n\n## `doca_caps` flags\n\n```\n# not a heading\n"
                         "```\n\n## Twice\n\n## Twice\n\nSee [other](other.md#gone) and "
                         "[here](#version-sources) and [web](https://example.com/x.md#y).\n")
        good = ("// docs/reference/note.md#version-sources docs/reference/note.md\n"
                "// docs/reference/note.md#doca_caps-flags docs/reference/note.md#twice-1\n")
        bad = ("// docs/reference/note.md#missing\n"          # 1: unknown anchor
               "// docs/reference/absent.md\n"                # 2: unknown file
               "// docs/reference/note.md#not-a-heading\n"    # 3: fenced text is no heading
               "// " + "doca" + "-facts E.4\n"                 # 4
               "// (" + "rdmi" + "-domain.md)\n"               # 5
               "// shared/" + "reference/x.md\n"               # 6
               "// " + "UNCONFIRMED" + " #7\n"                 # 7
               "// contract " + "\u00a75\n"                    # 8
               "// (design" + ".md \"Options\")\n"              # 9
               "// the getters of D" + ".4, v1.2.3, x.y\n")        # 10
        with open(os.path.join(root, DOCS_INDEX), "w", encoding="utf-8") as handle:
            handle.write("[note](reference/note.md)\n")
        with open(os.path.join(root, "docs", "unlisted.md"), "w", encoding="utf-8") as handle:
            handle.write("# Unlisted\n")
        # Links outside docs/ are checked too: a README's, a bench page's. Fenced text is no link.
        with open(os.path.join(root, "README.md"), "w", encoding="utf-8") as handle:
            handle.write("[ok](docs/reference/note.md#twice) [dir](docs/reference/) [src](src/good.cpp)\n"
                         "[gone](docs/gone.md)\n"                       # 2: no such page
                         "[anchor](docs/reference/note.md#nowhere)\n"   # 3: no such heading
                         "[file](src/gone.cpp)\n"                       # 4: no such file
                         "```\n[fenced](docs/none.md)\n```\n")
        with open(os.path.join(root, "src", "good.cpp"), "w", encoding="utf-8") as handle:
            handle.write(good)
        with open(os.path.join(root, "src", "bad.cpp"), "w", encoding="utf-8") as handle:
            handle.write(bad)
        problems = Checker(root).run()
    bad_lines = sorted({int(p.split(":")[1]) for p in problems if p.startswith("src/bad.cpp")})
    expected = list(range(1, 11))
    errors = []
    if bad_lines != expected:
        errors.append(f"bad.cpp: flagged lines {bad_lines}, expected {expected}")
    if any(p.startswith("src/good.cpp") for p in problems):
        errors.append("good.cpp flagged: " + "; ".join(problems))
    note = [p for p in problems if p.startswith(os.path.join(REFERENCE_DIR, "note.md"))]
    if len(note) != 1 or "other.md#gone" not in note[0]:
        errors.append(f"note.md: expected one broken link (other.md#gone), got {note}")
    readme_lines = sorted({int(p.split(":")[1]) for p in problems if p.startswith("README.md:")})
    if readme_lines != [2, 3, 4]:
        errors.append(f"README.md: flagged lines {readme_lines}, expected [2, 3, 4]: {problems}")
    index = [p for p in problems if p.startswith(DOCS_INDEX)]
    if len(index) != 1 or "docs/unlisted.md" not in index[0]:
        errors.append(f"{DOCS_INDEX}: expected one unlisted page (docs/unlisted.md), got {index}")
    for error in errors:
        print("self-test: " + error, file=sys.stderr)
    print("check_references self-test: " + ("FAILED" if errors else "ok"))
    return 1 if errors else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), os.pardir))
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    root = os.path.abspath(args.root)
    if not os.path.isdir(os.path.join(root, REFERENCE_DIR)):
        print(f"check_references: {root}: no {REFERENCE_DIR} directory", file=sys.stderr)
        return 2
    problems = Checker(root).run()
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"check_references: {len(problems)} citation(s) outside the repository or broken",
              file=sys.stderr)
        return 1
    print("check_references: every citation resolves inside the repository")
    return 0


if __name__ == "__main__":
    sys.exit(main())
