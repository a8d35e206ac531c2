#!/usr/bin/env python3
"""Fails when docs/reference/dpa-lifecycle.md's device-API list and the DPA kernels disagree.

The note's "Device API" section lists every DOCA device call and DPA intrinsic the probe's kernels
make, one per line as `name(...)`. This check extracts the calls from the kernel source (comments
removed, so that a call named in a comment does not count) and compares the two sets both ways:
a call the kernels make that the note does not list, and a call the note lists that the kernels
no longer make, both fail with the name. It also checks that the note counts the kernels right
(the number of `__dpa_global__` functions, written as a word: "runs three kernels").

Usage: check_device_api.py [--root DIR] | --self-test
"""

import argparse
import os
import re
import sys
import tempfile

KERNELS = "dpa_kernels/device/rdmi_probe_kernels.c"
NOTE = "docs/reference/dpa-lifecycle.md"
SECTION = "## Device API"
# DOCA device calls and the DPA toolchain's intrinsics.
CALL = re.compile(r"\b((?:doca_dpa_dev_|__dpa_)[A-Za-z0-9_]*)\s*\(")
LISTED = re.compile(r"^- `((?:doca_dpa_dev_|__dpa_)[A-Za-z0-9_]*)\(", re.MULTILINE)
KERNEL = re.compile(r"\b__dpa_global__\s+void\s+([A-Za-z0-9_]+)\s*\(")
COUNT = re.compile(r"runs (one|two|three|four|five|six) kernels")
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
# Attributes and qualifiers spelled like calls.
NOT_CALLS = {"__dpa_global__", "__dpa_rpc__"}


def strip_comments(source):
    source = re.sub(r"/\*.*?\*/", " ", source, flags=re.DOTALL)
    return re.sub(r"//[^\n]*", " ", source)


def kernel_calls(source):
    return {name for name in CALL.findall(strip_comments(source)) if name not in NOT_CALLS}


def kernel_count(source):
    return len(KERNEL.findall(strip_comments(source)))


def section(note, heading):
    start = note.find("\n" + heading + "\n")
    if start < 0:
        return None
    rest = note[start + len(heading) + 2:]
    end = rest.find("\n## ")
    return rest if end < 0 else rest[:end]


def check(root):
    problems = []
    try:
        with open(os.path.join(root, KERNELS), encoding="utf-8") as f:
            source = f.read()
        with open(os.path.join(root, NOTE), encoding="utf-8") as f:
            note = f.read()
    except OSError as error:
        return [f"{error.filename}: {error.strerror}"]
    listed_text = section(note, SECTION)
    if listed_text is None:
        return [f"{NOTE}: no section {SECTION!r}"]
    made = kernel_calls(source)
    listed = set(LISTED.findall(listed_text))
    for name in sorted(made - listed):
        problems.append(f"{NOTE}: {SECTION[3:]} does not list {name}, which {KERNELS} calls")
    for name in sorted(listed - made):
        problems.append(f"{NOTE}: {SECTION[3:]} lists {name}, which {KERNELS} does not call")
    counts = COUNT.findall(note)
    kernels = kernel_count(source)
    if not counts:
        problems.append(f"{NOTE}: says nowhere how many kernels it runs (\"runs N kernels\")")
    for word in counts:
        if WORDS[word] != kernels:
            problems.append(f"{NOTE}: says it runs {word} kernels; {KERNELS} defines {kernels}")
    return problems


def self_test():
    kernels = """
/* a comment naming doca_dpa_dev_sync_event_wait_gt (not called) */
__dpa_global__ void a(void) {}
__dpa_global__ void b(uint64_t x) { uint64_t t = __dpa_thread_time(); doca_dpa_dev_rdma_signal_set(x); }
"""
    good = """# Note
It runs two kernels.

## Device API

- `doca_dpa_dev_rdma_signal_set(rdma, ...)`.
- `__dpa_thread_time()`: the timer.

## Next
- `doca_dpa_dev_other(x)` in another section does not count.
"""
    cases = [
        (good, []),
        (good.replace("two kernels", "three kernels"), ["says it runs three kernels"]),
        (good.replace("- `__dpa_thread_time()`: the timer.\n", ""),
         ["does not list __dpa_thread_time"]),
        (good.replace("## Next", "- `doca_dpa_dev_device_set(h)`.\n\n## Next"),
         ["lists doca_dpa_dev_device_set"]),
        (good.replace("## Device API", "## Device calls"), ["no section"]),
    ]
    failed = 0
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, os.path.dirname(KERNELS)))
        os.makedirs(os.path.join(root, os.path.dirname(NOTE)))
        with open(os.path.join(root, KERNELS), "w", encoding="utf-8") as f:
            f.write(kernels)
        for number, (note, expected) in enumerate(cases):
            with open(os.path.join(root, NOTE), "w", encoding="utf-8") as f:
                f.write(note)
            problems = check(root)
            ok = len(problems) == len(expected) and all(
                any(want in problem for problem in problems) for want in expected)
            if not ok:
                failed += 1
                print(f"self-test case {number}: expected {expected}, got {problems}")
    print(f"{len(cases) - failed} passed, {failed} failed")
    return 1 if failed else 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args(argv)
    if args.self_test:
        return self_test()
    problems = check(args.root)
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"{NOTE}: the device-API list matches {KERNELS}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
