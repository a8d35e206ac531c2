#!/usr/bin/env bash
# Profiles one `rdmi-probe --json --root ROOT` on the bench root (complete DOCA 3.3 install, 8
# PCI functions) under callgrind and prints the functions with the largest inclusive cost
# (instructions executed in them and everything they call).
#
#   bench/profile.sh build-bench [TOP]      (a build configured as in bench/run.sh)
#   bench/profile.sh build-bench TOP ARGS...  (the same for `rdmi-probe ARGS...`, e.g. the
#                                              real-size root or the live probe: `--json`)
#   PROBE=build/rdmi-probe bench/profile.sh ...   (another build's binary, e.g. the default one)
#
# The profile stays in BUILD_DIR/bench/callgrind.out for kcachegrind / callgrind_annotate.
set -euo pipefail
build=$(realpath "${1:-build-bench}")
top=${2:-15}
root=$build/bench/roots/complete-3.3-8fn
probe=$(realpath "${PROBE:-$build/rdmi-probe}")
args=(--json --root "$root")
(($# > 2)) && args=("${@:3}")
out=$build/bench/callgrind.out
command -v valgrind >/dev/null || { echo "profile.sh: valgrind is needed (scripts/setup.sh --bench)" >&2; exit 2; }
[[ -e $root/.rdmi-sysfs-fixture ]] || { echo "profile.sh: $root missing: build $build first" >&2; exit 2; }
valgrind --tool=callgrind --callgrind-out-file="$out" "$probe" "${args[@]}" \
  >/dev/null 2>"$build/bench/callgrind.log" || true  # exit code: the verdict on the root
callgrind_annotate --inclusive=yes "$out" >"$out.inclusive" 2>/dev/null
/usr/bin/python3 - "$out.inclusive" "$top" <<'PY'
import re, sys
path, top = sys.argv[1], int(sys.argv[2])
# The process start-up and the CLI's dispatch frames hold ~90% of everything; they are skipped
# so that the table shows where the work is.
SKIP = re.compile(r"\(below main\)|__libc_start|^main$|cli::run\(|cli::guarded|"
                  r"_Function_handler<int \(\), rdmi::cli::run|run_unguarded")
total, rows = None, []
for line in open(path):
    m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$", line)
    if not m:
        continue
    ir = int(m.group(1).replace(",", ""))
    name = m.group(2)
    if "ld-linux" in name:  # the dynamic loader's entry: the whole process
        continue
    if name == "PROGRAM TOTALS":
        total = ir
        continue
    name = re.sub(r"^[^:]*:", "", name, count=1) if not name.startswith("???:") else name[4:]
    name = re.sub(r" \[[^\]]*\]$", "", name)
    # nlohmann's full template arguments say nothing here: ordered_json it is.
    while True:
        shorter = re.sub(r"basic_json<[^<>]*(<[^<>]*(<[^<>]*>[^<>]*)*>[^<>]*)*>", "json", name)
        if shorter == name:
            break
        name = shorter
    name = name.replace("nlohmann::json_abi_v3_11_2::", "nlohmann::")
    name = name.replace("std::__cxx11::basic_string<char, std::char_traits<char>, "
                        "std::allocator<char> >", "std::string")
    name = name.replace("std::basic_string_view<char, std::char_traits<char> >",
                        "std::string_view")
    if not SKIP.search(name):
        rows.append((ir, name))
print(f"Total: {total:,} instructions (Ir); process start-up and CLI dispatch frames skipped.")
print()
print("| inclusive Ir | % of total | function |")
print("| ---: | ---: | --- |")
for ir, name in rows[:top]:
    print(f"| {ir:,} | {100 * ir / total:.1f} | `{name[:150]}` |")
PY
if grep -q "unhandled amd64-linux syscall: 437" "$build/bench/callgrind.log"; then
  echo
  echo "Note: this valgrind does not know openat2 (syscall 437), so under it RootedFs falls back to"
  echo "resolving paths in user space (rdmi::resolve_in_root); native runs use openat2 and do not"
  echo "spend those instructions. Read the other rows net of resolve_in_root's cost."
fi
