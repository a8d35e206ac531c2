#!/usr/bin/env bash
# Installs what rdmi-probe needs from Debian packages; fast when everything is there.
# Usage: scripts/setup.sh [--tests] [--bench]   (--tests adds what the test suite needs; --bench
# adds the benchmarks' tools on top of it: bench/run.sh times the probe on the test fixtures)
set -euo pipefail

packages=(g++ cmake ninja-build pkgconf git
          libcli11-dev nlohmann-json3-dev libspdlog-dev libfmt-dev
          libpkgconf-dev libelf-dev)
want_tests=0
want_bench=0
for arg in "$@"; do
  case $arg in
    --tests) want_tests=1 ;;
    --bench) want_tests=1 want_bench=1 ;;
    *) echo "setup: unknown option $arg" >&2; exit 2 ;;
  esac
done
if ((want_tests)); then
  # python3-jsonschema validates every document; libibverbs1 is the real verbs library the
  # tests probe on a machine without RDMA devices; the aarch64 assembler builds a foreign ELF.
  # lintian, zsh and rpm check the packages and the shell completions.
  packages+=(doctest-dev python3 python3-jsonschema libibverbs1 ibverbs-providers
             binutils-aarch64-linux-gnu clang libclang-rt-14-dev lintian zsh rpm file)
fi
if ((want_bench)); then
  # Google Benchmark for the micro-benchmarks, hyperfine for whole processes, GNU time for the
  # peak RSS, valgrind (callgrind) for profiles.
  packages+=(libbenchmark-dev hyperfine time valgrind)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup: missing Debian packages: ${missing[*]}" >&2
    echo "setup: run as root, or: sudo apt-get install ${missing[*]}" >&2
    exit 2
  fi
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
