#!/usr/bin/env bash
# Builds the .deb (and the .rpm where rpmbuild is installed) from a configured and built build
# directory, checks the .deb with lintian, unpacks it into a temporary root and runs the
# installed binary under every name from there.
#   scripts/package.sh [BUILD_DIR]     (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
[[ -f $build/CPackConfig.cmake ]] || { echo "package.sh: $build is not a configured build" >&2; exit 2; }
# Only what the package holds: the binary, its generated docs, the DPA plugin where configured.
targets=(rdmi-probe rdmi_probe_docs)
cmake --build "$build" --target help | grep -q '^rdmi_probe_dpa:' && targets+=(rdmi_probe_dpa)
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"
out=$build/packages
rm -rf "$out"
generators=DEB
command -v rpmbuild >/dev/null && generators="DEB;RPM"
(cd "$build" && cpack -G "$generators" -B "$PWD/packages" >/dev/null)
deb=$(ls "$out"/*.deb)
for pkg in "$out"/*.deb "$out"/*.rpm; do
  [[ -f $pkg ]] && echo "package.sh: built $(basename "$pkg")"
done

# The metadata the issue asks for.
fields=$(dpkg-deb -f "$deb" Package Version Maintainer Recommends Depends Section)
echo "$fields" | sed 's/^/  /'
grep -q '^Recommends: libibverbs1, ibverbs-providers, pkgconf, libarchive13$' <<<"$fields" ||
  { echo "package.sh: Recommends field wrong" >&2; exit 1; }
version=$(sed -n 's/^project(rdmi-probe VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
grep -q "^Version: $version\$" <<<"$fields" || { echo "package.sh: version is not $version" >&2; exit 1; }

if ! command -v lintian >/dev/null; then
  echo "package.sh: lintian missing; installing it (apt-get install lintian)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends lintian >/dev/null
fi
# Warnings and errors fail; the overrides shipped in the package justify what remains.
lintian --fail-on error,warning --display-info --show-overrides "$deb" 2>&1 |
  grep -v "running with root privileges is not recommended" || true
lintian --fail-on error,warning "$deb" >/dev/null 2>&1 ||
  { echo "package.sh: lintian found errors or warnings" >&2; exit 1; }

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
/usr/bin/python3 tests/packaging/test_install_layout.py --tree "$root/usr" --source .
# The .rpm holds the same tree (the systemd units, the Ansible fact) where it can be unpacked.
rpm_file=$(realpath "$(ls "$out"/*.rpm 2>/dev/null | head -n1)" 2>/dev/null || true)
if [[ -n $rpm_file ]] && command -v rpm2cpio >/dev/null && command -v cpio >/dev/null; then
  mkdir "$root/rpm"
  (cd "$root/rpm" && rpm2cpio "$rpm_file" | cpio -idm --quiet)
  /usr/bin/python3 tests/packaging/test_install_layout.py --tree "$root/rpm/usr" --source . >/dev/null ||
    { echo "package.sh: the .rpm's tree fails the layout test" >&2; exit 1; }
  echo "package.sh: .rpm layout ok"
fi
echo "package.sh: ok"
