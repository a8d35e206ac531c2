#!/usr/bin/env bash
# Installs what rdmi-probe needs from the distribution's packages; fast when everything is there.
# Usage: scripts/setup.sh [--tests] [--bench] [--cross-arm64] [--release] [--dry-run]
#                         [--manager apt|dnf]
#   --tests        what the test suite needs        --bench    the benchmarks' tools (+ --tests)
#   --cross-arm64  the aarch64 cross compiler, qemu user-mode and the arm64 libraries (apt only;
#                  adds the arm64 architecture to dpkg)
#   --release      what scripts/release.sh needs (rpmbuild, objdump; implies --cross-arm64)
#   --dry-run      print the package manager and the packages, install nothing
#   --manager M    use M instead of detecting it: /etc/os-release's ID and ID_LIKE name the family
#                  (debian, ubuntu: apt; fedora, rhel, centos: dnf), whose manager must be there;
#                  without a known family, the one of apt-get and dnf found (both: refused)
#   RDMI_SETUP_OS_RELEASE=FILE reads FILE instead of /etc/os-release (tests)
# The names come from scripts/packages.tsv, one column per package manager.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
table=${RDMI_SETUP_TABLE:-$here/packages.tsv}

groups=(build)
dry_run=0
manager=""
while (($#)); do
  case $1 in
    --tests) groups+=(tests) ;;
    --bench) groups+=(tests bench) ;;
    --cross-arm64) groups+=(cross) ;;
    --release) groups+=(cross release) ;;
    --dry-run) dry_run=1 ;;
    --manager)
      [[ $# -ge 2 && -n $2 ]] || { echo "setup: --manager needs apt or dnf" >&2; exit 2; }
      manager=$2
      shift ;;
    *) echo "setup: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

# The distribution family os-release names (ID, then each ID_LIKE word): whose package names fit.
# The file is parsed, never sourced; one that is not a regular file says nothing.
os_release=${RDMI_SETUP_OS_RELEASE:-}
if [[ -z $os_release ]]; then
  os_release=/etc/os-release
  [[ -e $os_release ]] || os_release=/usr/lib/os-release
fi
os_field() {  # the last assignment of $1, unquoted and lower-cased; nothing when there is none
  # A line with a byte that is not printable text (CR line ends aside) is no assignment.
  head -c 65536 "$os_release" 2>/dev/null | sed 's/\r$//' | LC_ALL=C grep -av '[^[:print:]]' |
    sed -n "s/^$1=[\"']\{0,1\}\([^\"']*\)[\"']\{0,1\}[[:space:]]*\$/\1/p" | tail -n1 | tr '[:upper:]' '[:lower:]' || true
}
family=""
family_reason="$os_release: not a readable file"
if [[ -f $os_release && -r $os_release ]]; then
  os_id=$(os_field ID)
  os_like=$(os_field ID_LIKE)
  family_reason="$os_release: ID=${os_id:-(none)} ID_LIKE=${os_like:-(none)}"
  for word in $os_id $os_like; do
    case $word in
      debian | ubuntu) family=apt ;;
      fedora | rhel | centos) family=dnf ;;
      *) continue ;;
    esac
    break
  done
fi
have_apt=0 have_dnf=0
command -v apt-get >/dev/null && command -v dpkg-query >/dev/null && have_apt=1
command -v dnf >/dev/null && have_dnf=1

if [[ -z $manager ]]; then
  # The family decides: a Fedora machine may carry apt-get and dpkg (to build Debian packages),
  # and Debian ships dnf; neither is the machine's own package manager there.
  if [[ $family == apt ]]; then
    ((have_apt)) || { echo "setup: $family_reason is Debian-like, but apt-get or dpkg-query is missing" >&2; exit 2; }
    manager=apt
  elif [[ $family == dnf ]]; then
    ((have_dnf)) || { echo "setup: $family_reason is Fedora/RHEL-like, but dnf is missing (yum alone is not supported)" >&2; exit 2; }
    manager=dnf
  elif ((have_apt && have_dnf)); then
    echo "setup: both apt-get and dnf found, and $family_reason names neither family; choose with --manager apt|dnf" >&2
    exit 2
  elif ((have_apt)); then
    manager=apt
  elif ((have_dnf)); then
    manager=dnf
  else
    echo "setup: neither apt-get nor dnf found; install the packages of scripts/packages.tsv by hand" >&2
    exit 2
  fi
  if [[ -n $family ]]; then
    family_reason="$manager, as $family_reason says"
  else
    family_reason="$manager, the only package manager found ($family_reason)"
  fi
else
  family_reason=""
fi
case $manager in
  apt) column=3 ;;
  dnf) column=4 ;;
  *) echo "setup: unknown package manager '$manager' (apt or dnf)" >&2; exit 2 ;;
esac
[[ -r $table ]] || { echo "setup: cannot read the package table $table" >&2; exit 2; }

packages=()
unavailable=()
want=" ${groups[*]} "
while IFS=$'\t' read -r group what apt_name dnf_name extra; do
  [[ -z $group || $group == \#* ]] && continue
  if [[ -z ${dnf_name:-} || -n ${extra:-} ]]; then
    echo "setup: $table: malformed row for '$what' (want 4 tab-separated columns)" >&2
    exit 2
  fi
  [[ $want == *" $group "* ]] || continue
  name=$apt_name
  ((column == 4)) && name=$dnf_name
  if [[ $name == - ]]; then
    unavailable+=("$what")
  else
    # A name may be needed by two groups (rpmbuild): list it once.
    [[ " ${packages[*]} " == *" $name "* ]] || packages+=("$name")
  fi
done <"$table"

if ((${#unavailable[@]})); then
  printf 'setup: no %s package for: %s\n' "$manager" "$(IFS=,; echo "${unavailable[*]}" | sed 's/,/, /g')" >&2
fi
# Refused alike with --dry-run: a dry run says what the real one would do.
if [[ $manager == dnf && " ${groups[*]} " == *" cross "* ]]; then
  echo "setup: the arm64 cross build needs Debian multiarch (apt); on dnf it is not supported" >&2
  exit 2
fi
if ((dry_run)); then
  [[ -z $family_reason ]] || echo "setup: $family_reason" >&2
  echo "manager: $manager"
  printf '%s\n' "${packages[@]}"
  exit 0
fi

installed() {
  if [[ $manager == apt ]]; then
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
  else
    rpm -q --quiet "$1" 2>/dev/null
  fi
}
missing=()
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done
((${#missing[@]})) || exit 0
if [[ $(id -u) -ne 0 ]]; then
  echo "setup: missing $manager packages: ${missing[*]}" >&2
  if [[ $manager == apt ]]; then
    echo "setup: run as root, or: sudo apt-get install ${missing[*]}" >&2
  else
    echo "setup: run as root, or: sudo dnf install ${missing[*]}" >&2
  fi
  exit 2
fi
echo "setup: installing ${missing[*]}"
if [[ $manager == apt ]]; then
  export DEBIAN_FRONTEND=noninteractive
  if [[ " ${missing[*]}" == *:arm64* ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
    dpkg --add-architecture arm64
  fi
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  # cli11, json, spdlog, fmt and doctest are in EPEL on RHEL 9 (Fedora has them in its own repos).
  dnf install -y "${missing[@]}"
fi
