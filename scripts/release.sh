#!/usr/bin/env bash
# Builds the release artifacts into dist/: for amd64 and arm64 each a .deb, an .rpm and a tarball
# (the binary, the helper links, the man pages, the completions, the schemas, the fleet's systemd
# units and Ansible fact) -- six in all.
# Every shipped binary is checked to need no glibc symbol newer than GLIBC_2.34 (RHEL 9; Ubuntu
# 22.04 has 2.35), and the packages' dependencies are checked to say the same. docs/release.md
# says how the link gets there and what older systems would take.
#
#   scripts/release.sh [--arch amd64|arm64|all] [--out DIR] [--jobs N] [--max-glibc 2.34]
#   scripts/release.sh --check-glibc FILE [MAX]   only the glibc check of one ELF file:
#                                                 exit 0 at most MAX, 1 above or GLIBC_PRIVATE,
#                                                 2 not checkable (FILE from the caller's dir)
#   scripts/release.sh --smoke FILE               only the run check of one rdmi-probe binary
#                                                 (an aarch64 one under qemu): exit 0 or 1
# Runs scripts/setup.sh --tests --release first (the aarch64 cross compiler, qemu-user, the arm64
# libraries, rpmbuild, lintian). Builds in build-release-<arch>/ with the shared compiler cache,
# niced.
set -euo pipefail
# FILE and --out name paths as the caller wrote them, from the caller's directory, while the
# script itself works from the source tree.
caller_dir=$PWD
from_caller() { if [[ $1 == /* ]]; then echo "$1"; else echo "$caller_dir/$1"; fi; }
cd "$(dirname "$0")/.."
source_dir=$PWD

max_glibc=2.34
arches=(amd64 arm64)
out=dist
jobs=2

die() { echo "release.sh: $*" >&2; exit 1; }
usage() { echo "release.sh: $*" >&2; exit 2; }

objdump_for() {  # the objdump that reads this ELF file's machine
  local machine
  machine=$(LC_ALL=C readelf -h "$1" 2>/dev/null | sed -n 's/^ *Machine: *//p')
  case $machine in
    *X86-64*) echo objdump ;;
    *AArch64*) echo aarch64-linux-gnu-objdump ;;
    *) return 1 ;;
  esac
}

# True when version A sorts above version B (2.100 above 2.99: versions, not text).
version_above() { [[ $1 != "$2" && $(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n1) == "$1" ]]; }

# Prints the highest GLIBC_ version FILE needs; exit 1 when above MAX, 2 when it cannot tell.
check_glibc() {
  local file=$1 max=${2:-$max_glibc} tool symbols versions highest
  [[ -e $file ]] || { echo "release.sh: $file: no such file" >&2; return 2; }
  [[ -f $file ]] || { echo "release.sh: $file: not a regular file" >&2; return 2; }
  tool=$(objdump_for "$file") || { echo "release.sh: $file: not an x86-64 or aarch64 ELF file" >&2; return 2; }
  command -v "$tool" >/dev/null || { echo "release.sh: $tool missing (scripts/setup.sh --release)" >&2; return 2; }
  # A file readelf takes for ELF but objdump cannot read (truncated, damaged) is not judged.
  # (A static binary has no dynamic symbols at all: that is said below.)
  if ! symbols=$("$tool" -T "$file" 2>&1) && ! grep -q 'not a dynamic object' <<<"$symbols"; then
    echo "release.sh: $file: $tool -T cannot read it: $(tail -n1 <<<"$symbols" | cut -c1-200)" >&2
    return 2
  fi
  # GLIBC_PRIVATE ties a binary to the one glibc build it was linked against: never shippable.
  if grep -q 'GLIBC_PRIVATE' <<<"$symbols"; then
    echo "release.sh: $file needs GLIBC_PRIVATE symbols (internal to one glibc build):" >&2
    grep -F 'GLIBC_PRIVATE' <<<"$symbols" | awk '{print "  " $NF}' >&2
    return 1
  fi
  versions=$(grep -o 'GLIBC_[0-9][0-9.]*' <<<"$symbols" | sed 's/^GLIBC_//' | sort -uV) ||
    { echo "release.sh: $file: no GLIBC_ versions in its dynamic symbols (static, or not linked with glibc)" >&2; return 2; }
  highest=$(tail -n1 <<<"$versions")
  # Which symbols need the highest version: the first thing to look at when this fails.
  if version_above "$highest" "$max"; then
    echo "release.sh: $file needs GLIBC_$highest, above GLIBC_$max:" >&2
    grep -E "GLIBC_${highest//./\\.}([^0-9.]|$)" <<<"$symbols" | awk '{print "  " $NF}' >&2
    return 1
  fi
  # Version needs that name no symbol, so objdump -T never shows them: packing the relative
  # relocations (ld -z pack-relative-relocs) records GLIBC_ABI_DT_RELR, which only loaders from
  # glibc 2.36 on provide; an older one refuses to start the program. They are in the version
  # references (objdump -p). And a DT_RELR table without that need would be skipped silently by
  # an older loader, leaving every packed pointer unrelocated: the dynamic section is read too.
  local refs ref abi_since
  refs=$("$tool" -p "$file" 2>/dev/null | sed -n '/^Version References:/,/^$/p' | awk 'NF == 4 {print $4}')
  while read -r ref; do
    case $ref in
      GLIBC_ABI_DT_RELR) abi_since=2.36 ;;
      GLIBC_ABI_*)
        echo "release.sh: $file needs $ref, a glibc ABI tag this check does not know the first release of" >&2
        return 1 ;;
      GLIBC_[0-9]*) abi_since=${ref#GLIBC_} ;;
      *) continue ;;
    esac
    if version_above "$abi_since" "$max"; then
      echo "release.sh: $file needs $ref (glibc $abi_since on), above GLIBC_$max" >&2
      return 1
    fi
    version_above "$abi_since" "$highest" && highest=$abi_since
  done < <(sort -u <<<"$refs")
  if LC_ALL=C readelf -d "$file" 2>/dev/null | grep -q '(RELR)'; then
    if version_above 2.36 "$max"; then
      echo "release.sh: $file has packed relative relocations (DT_RELR), which loaders before glibc 2.36 skip; above GLIBC_$max" >&2
      return 1
    fi
    version_above 2.36 "$highest" && highest=2.36
  fi
  echo "$highest"
}

# qemu user-mode for the aarch64 binaries, with the loader prefix the toolchain file uses: "/",
# so ld.so and libc.so.6 come from one glibc build (Debian's arm64 multiarch libc6), never the
# cross toolchain's ld.so with the multiarch libc (that pair hangs in every pthread_create;
# cmake/toolchains/aarch64-linux-gnu.cmake and docs/release.md say why).
qemu=(qemu-aarch64 -L /)

# Runs FILE (through qemu for an aarch64 one) on commands that take the program's usual paths:
# --version returns before the run machinery; schema and error start the run watchdog's thread,
# which is where a broken emulation or start-up hangs. Each must exit 0 with output within
# SMOKE_TIMEOUT seconds (default 60: a run takes about a second under qemu).
smoke_run() {
  local file=$1 machine runner=() args out rc
  [[ -e $file ]] || { echo "release.sh: $file: no such file" >&2; return 1; }
  [[ -f $file ]] || { echo "release.sh: $file: not a regular file" >&2; return 1; }
  machine=$(LC_ALL=C readelf -h "$file" 2>/dev/null | sed -n 's/^ *Machine: *//p') || true
  case $machine in
    *X86-64*) ;;
    *AArch64*) runner=("${qemu[@]}") ;;
    *) echo "release.sh: $file: not an x86-64 or aarch64 ELF file" >&2; return 1 ;;
  esac
  for args in --version schema "error BAD_STATE"; do
    rc=0
    # shellcheck disable=SC2086  # args holds whole words
    out=$(timeout -k 5 "${SMOKE_TIMEOUT:-60}" "${runner[@]}" "$file" $args 2>&1) || rc=$?
    if ((rc == 124 || rc == 137)); then
      echo "release.sh: ${runner[*]}${runner:+ }$file $args: no exit within ${SMOKE_TIMEOUT:-60} s (hung)" >&2
      return 1
    elif ((rc != 0)) || [[ -z $out ]]; then
      echo "release.sh: ${runner[*]}${runner:+ }$file $args: exit $rc, output: ${out:0:300}" >&2
      return 1
    fi
  done
  echo "$file: --version, schema, error BAD_STATE run${runner:+ under ${runner[*]}}"
}

if [[ ${1:-} == --smoke ]]; then
  (($# == 2)) || usage "--smoke FILE"
  # Absolute: a bare name would be looked up on PATH when it is run.
  smoke_run "$(from_caller "$2")"
  exit
fi

if [[ ${1:-} == --check-glibc ]]; then
  (($# == 2 || $# == 3)) || usage "--check-glibc FILE [MAX]"
  (($# == 2)) || [[ $3 =~ ^2\.[0-9]+$ ]] || usage "--check-glibc: MAX must be a version like 2.34, not '$3'"
  rc=0
  highest=$(check_glibc "$(from_caller "$2")" "${3:-$max_glibc}") || rc=$?
  ((rc == 0)) && echo "$2: GLIBC_$highest (at most GLIBC_${3:-$max_glibc})"
  exit $rc
fi

while (($#)); do
  case $1 in
    --arch)
      (($# >= 2)) || usage "--arch needs amd64, arm64 or all"
      case $2 in amd64 | arm64) arches=("$2") ;; all) arches=(amd64 arm64) ;; *) usage "unknown arch $2" ;; esac
      shift ;;
    --out) (($# >= 2)) || usage "--out needs a directory"; out=$(from_caller "$2"); shift ;;
    --jobs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || usage "--jobs needs a number"; jobs=$2; shift ;;
    --max-glibc) [[ ${2:-} =~ ^2\.[0-9]+$ ]] || usage "--max-glibc needs a version like 2.34"; max_glibc=$2; shift ;;
    *) usage "unknown option $1" ;;
  esac
  shift
done

# The cross compiler, qemu-user, the arm64 libraries, rpmbuild, rpm2cpio, cpio, lintian.
scripts/setup.sh --tests --release
version=$(sed -n 's/^project(rdmi-probe VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
[[ -n $version ]] || die "no project version in CMakeLists.txt"
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Same sources, same artifacts: timestamps in the archives come from the last commit.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
export SOURCE_DATE_EPOCH
# The shared compiler cache; its precompiled-header objects are reusable only with this
# sloppiness (the build uses precompiled headers).
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}
command -v ccache >/dev/null && export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache

# Highest version of the C library in a package's dependencies: dpkg's "libc6 (>= 2.34)", rpm's
# "libc.so.6(GLIBC_2.34)(64bit)".
check_deb_depends() {
  local deb=$1 depends need
  depends=$(dpkg-deb -f "$deb" Depends)
  # The version inside the parentheses only: "libc6" itself holds a digit.
  need=$(grep -o 'libc6 (>= [0-9.]*)' <<<"$depends" | sed 's/.*>= //; s/)$//' | sort -V | tail -n1)
  [[ -n $need ]] || die "$(basename "$deb"): Depends names no libc6 version: $depends"
  [[ $(printf '%s\n%s\n' "$need" "$max_glibc" | sort -V | tail -n1) == "$max_glibc" ]] ||
    die "$(basename "$deb"): Depends wants libc6 >= $need, above $max_glibc"
  echo "  Depends: $depends"
}
check_rpm_requires() {
  local rpm_file=$1 requires need
  requires=$(rpm -qp --requires "$rpm_file" 2>/dev/null)
  need=$(grep -o 'GLIBC_[0-9][0-9.]*' <<<"$requires" | sed 's/GLIBC_//' | sort -V | tail -n1)
  [[ -n $need ]] || die "$(basename "$rpm_file"): Requires names no GLIBC_ version"
  [[ $(printf '%s\n%s\n' "$need" "$max_glibc" | sort -V | tail -n1) == "$max_glibc" ]] ||
    die "$(basename "$rpm_file"): Requires GLIBC_$need, above $max_glibc"
  echo "  Requires: $(grep -v '^rpmlib(' <<<"$requires" | tr '\n' ' ')"
}

build_arch() {
  local arch=$1 build=build-release-$1 rpm_arch emulator=() toolchain=()
  case $arch in
    amd64) rpm_arch=x86_64 ;;
    arm64)
      rpm_arch=aarch64
      toolchain=(--toolchain "$source_dir/cmake/toolchains/aarch64-linux-gnu.cmake")
      emulator=("${qemu[@]}") ;;
  esac
  echo "== $arch: configure and build in $build"
  # The release link: static libstdc++ and dependencies, shared libgcc_s and zlib, glibc <= 2.34.
  # -O2 as distributions build their packages (CMake's Release default is -O3).
  cmake -S . -B "$build" -G Ninja "${toolchain[@]}" -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG" \
    -DRDMI_PROBE_TESTS=OFF -DRDMI_PROBE_STATIC_DEPS=ON -DRDMI_PROBE_GLIBC_COMPAT=ON -DRDMI_PROBE_STATIC_ZLIB=OFF \
    -DRDMI_PROBE_DOCS=ON >"$build.configure.log" 2>&1 ||
    { cat "$build.configure.log" >&2; die "$arch: configure failed"; }
  rm -f "$build.configure.log"
  nice cmake --build "$build" -j"$jobs" --target rdmi-probe rdmi_probe_docs >/dev/null ||
    die "$arch: build failed (run: cmake --build $build)"

  local binary=$build/rdmi-probe highest
  highest=$(check_glibc "$binary") || die "$arch: $binary needs too new a glibc (see above)"
  echo "  $binary: highest glibc symbol version GLIBC_$highest (at most GLIBC_$max_glibc)"
  "${emulator[@]}" "$binary" --version | sed 's/^/  --version: /'
  smoke_run "$binary" | sed 's/^/  /' || die "$arch: $binary does not run"

  echo "== $arch: packages"
  rm -rf "$build/packages"
  # dpkg-shlibdeps reads the ELF file's machine and the symbols files of that architecture's
  # libc6 (libc6:arm64 comes with the cross libraries).
  (cd "$build" && cpack -G "DEB;RPM" -B "$PWD/packages" >/dev/null) ||
    die "$arch: cpack failed"
  local deb rpm_file
  deb=$(realpath "$(ls "$build"/packages/*.deb)")
  rpm_file=$(realpath "$(ls "$build"/packages/*.rpm)")
  [[ $(dpkg-deb -f "$deb" Architecture) == "$arch" ]] || die "$(basename "$deb"): not Architecture $arch"
  [[ $(rpm -qp --qf '%{ARCH}' "$rpm_file" 2>/dev/null) == "$rpm_arch" ]] || die "$(basename "$rpm_file"): not $rpm_arch"
  check_deb_depends "$deb"
  check_rpm_requires "$rpm_file"
  lintian --fail-on error,warning "$deb" >"$build/lintian.log" 2>&1 ||
    { grep -v "running with root privileges" "$build/lintian.log" >&2; die "$(basename "$deb"): lintian errors or warnings"; }
  echo "  lintian: clean"

  # Every binary the packages ship, checked as shipped (stripped, unpacked).
  local root
  root=$(mktemp -d)
  dpkg-deb -x "$deb" "$root/deb"
  mkdir -p "$root/rpm" && (cd "$root/rpm" && rpm2cpio "$rpm_file" | cpio -idm --quiet)
  local f
  while IFS= read -r f; do
    check_glibc "$f" >/dev/null || { rm -rf "$root"; die "$arch: shipped $f needs too new a glibc"; }
  done < <(find "$root" -type f -exec sh -c 'head -c4 "$1" | grep -q "ELF"' _ {} \; -print)
  local emu_line=""
  ((${#emulator[@]})) && emu_line="${emulator[*]}"
  /usr/bin/python3 tests/packaging/test_install_layout.py --tree "$root/deb/usr" --source . \
    --emulator "$emu_line" >/dev/null || { rm -rf "$root"; die "$arch: the .deb's tree fails the layout test"; }
  # The same layout from the .rpm: the systemd units in /usr/lib/systemd/system, the fact.
  /usr/bin/python3 tests/packaging/test_install_layout.py --tree "$root/rpm/usr" --source . \
    --emulator "$emu_line" >/dev/null || { rm -rf "$root"; die "$arch: the .rpm's tree fails the layout test"; }
  rm -rf "$root"

  echo "== $arch: tarball"
  local name=rdmi-probe-$version-linux-$rpm_arch stage
  stage=$(mktemp -d)
  DESTDIR=$stage/$name cmake --install "$build" --prefix / --strip >/dev/null
  # lintian's overrides mean nothing outside a .deb.
  rm -rf "$stage/$name/share/lintian"
  /usr/bin/python3 tests/packaging/test_install_layout.py --tree "$stage/$name" --source . \
    --emulator "$emu_line" >/dev/null || { rm -rf "$stage"; die "$arch: the tarball's tree fails the layout test"; }
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
    -C "$stage" -czf "$out/$name.tar.gz" "$name"
  rm -rf "$stage"

  cp "$deb" "$rpm_file" "$out/"
}

for arch in "${arches[@]}"; do
  build_arch "$arch"
done
echo "== dist"
shopt -s nullglob
for f in "$out"/*.deb "$out"/*.rpm "$out"/*.tar.gz; do
  printf '  %-48s %8s bytes  sha256 %s\n' "$(basename "$f")" "$(stat -c %s "$f")" "$(sha256sum "$f" | cut -c1-16)"
done
echo "release.sh: ok"
