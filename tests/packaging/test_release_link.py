#!/usr/bin/python3
"""The release link as CMake configures it: what scripts/release.sh builds its packages from.
Configures the source tree with the release options into a temporary directory (no build) and
reads the program's link step from build.ninja:
  * zlib is the system's shared library, never libz.a: distributions patch zlib for security, and
    lintian fails a .deb that embeds it (embedded-library);
  * no packed relative relocations (-z pack-relative-relocs: GLIBC_ABI_DT_RELR, glibc 2.36);
  * no -static-libgcc (the static unwinder needs _dl_find_object, GLIBC_2.35);
  * libstdc++ static, and src/compat/arc4random.cpp in the program (arc4random, GLIBC_2.36).
RDMI_PROBE_STATIC_ZLIB=ON on top of the release options links libz.a: the check can tell.

    test_release_link.py [--source DIR] [--cc cc] [--cxx c++]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f"FAIL {message}")


RELEASE_OPTIONS = ["-DCMAKE_BUILD_TYPE=Release", "-DRDMI_PROBE_TESTS=OFF", "-DRDMI_PROBE_DOCS=OFF",
                   "-DRDMI_PROBE_STATIC_DEPS=ON", "-DRDMI_PROBE_GLIBC_COMPAT=ON"]


def link_step(source, cc, cxx, build, *extra):
    """The program's link statement and its variables, or None when configuring failed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CMAKE_")}
    proc = subprocess.run(["cmake", "-S", str(source), "-B", str(build), "-G", "Ninja",
                           f"-DCMAKE_C_COMPILER={cc}", f"-DCMAKE_CXX_COMPILER={cxx}",
                           *RELEASE_OPTIONS, *extra],
                          capture_output=True, text=True, timeout=300, env=env)
    check(proc.returncode == 0, f"configure {' '.join(extra)}: {proc.returncode} {proc.stderr[-2000:]}")
    if proc.returncode != 0:
        return None
    ninja = (Path(build) / "build.ninja").read_text()
    # "build rdmi-probe: CXX_EXECUTABLE_LINKER__rdmi-probe_Release <objects> || <order-only>"
    # and its indented variables up to the next blank line.
    match = re.search(r"^build rdmi-probe: CXX_EXECUTABLE_LINKER\S* (.*?)\n((?:  .*\n)+)", ninja, re.M)
    check(match is not None, "build.ninja has the program's link step")
    return match.group(1) + "\n" + match.group(2) if match else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, default=Path(__file__).resolve().parents[2])
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cxx", default="c++")
    args = ap.parse_args()
    if shutil.which("ninja") is None:
        print("SKIP: no ninja to configure with")
        return 0
    with tempfile.TemporaryDirectory(prefix="rdmi-release-link-") as tmp:
        step = link_step(args.source, args.cc, args.cxx, Path(tmp) / "release")
        if step is not None:
            check("libz.a" not in step, f"the release link takes no libz.a:\n{step}")
            check(re.search(r"(^|\s)-lz(\s|$)|libz\.so", step) is not None, f"the release link takes the shared zlib:\n{step}")
            check("pack-relative-relocs" not in step, f"the release link packs no relative relocations:\n{step}")
            check("-static-libgcc" not in step, f"the release link keeps libgcc_s shared:\n{step}")
            check("-static-libstdc++" in step, f"the release link has libstdc++ static:\n{step}")
            check("arc4random.cpp" in step, f"the program has its own arc4random:\n{step}")
        step = link_step(args.source, args.cc, args.cxx, Path(tmp) / "static-zlib", "-DRDMI_PROBE_STATIC_ZLIB=ON")
        if step is not None:
            check("libz.a" in step, f"RDMI_PROBE_STATIC_ZLIB=ON links libz.a:\n{step}")
    print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
