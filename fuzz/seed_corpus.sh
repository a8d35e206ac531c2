#!/usr/bin/env bash
# Seeds the fuzz corpora with copies of fixture files (and a few small system files when the
# fixtures are not built). Usage: seed_corpus.sh SOURCE_DIR CORPUS_DIR [FIXTURE_BUILD_DIR]
set -uo pipefail
src=$1 out=$2 fixtures=${3:-}
mkdir -p "$out"/{fuzz_elf,fuzz_archive,fuzz_header,fuzz_sysfs,fuzz_pc,fuzz_ld_cache,fuzz_json,fuzz_redact,fuzz_dpkg_status}
n=0
seed() {  # seed TARGET FILE [PREFIX_BYTE_OCTAL]: copies files up to 1 MiB under a unique name
  local target=$1 file=$2 prefix=${3:-}
  [[ -f $file && -r $file ]] || return 0
  (( $(stat -c %s "$file") <= 1048576 )) || return 0
  n=$((n + 1))
  if [[ -n $prefix ]]; then
    { printf "\\$prefix"; cat "$file"; } >"$out/$target/seed_$n" 2>/dev/null
  else
    cp "$file" "$out/$target/seed_$n" 2>/dev/null
  fi
}
fx=$fixtures/tests/fixtures
if [[ -n $fixtures && -d $fx ]]; then
  while IFS= read -r -d '' f; do
    case $(head -c 8 "$f" 2>/dev/null | od -An -c | tr -d ' ') in
      177ELF*) seed fuzz_elf "$f" ;;
      '!<arch>\n'*) seed fuzz_archive "$f" ;;
    esac
  done < <(find "$fx" -type f \( -name '*.so*' -o -name '*.o' -o -name '*.a' \) -print0 | head -z -n 200)
  while IFS= read -r -d '' f; do seed fuzz_pc "$f"; done < <(find "$fx" -name '*.pc' -type f -print0 | head -z -n 100)
  while IFS= read -r -d '' f; do seed fuzz_header "$f"; done < <(find "$fx" -name '*.h' -type f -print0 | head -z -n 100)
  while IFS= read -r -d '' f; do seed fuzz_json "$f"; done < <(find "$fx" -name '*.json' -type f -print0 | head -z -n 100)
  # sysfs attribute files: each seeded once per parser (the first byte picks the parser).
  i=0
  while IFS= read -r -d '' f; do
    seed fuzz_sysfs "$f" "$(printf '%03o' $((i % 22)))"; i=$((i + 1))
  done < <(find "$fx" -path '*sys*' -type f -size -4k -print0 | head -z -n 400)
  while IFS= read -r -d '' f; do seed fuzz_ld_cache "$f"; done < <(find "$fx" -name 'ld.so.cache' -type f -print0)
  # Redaction: what a bundle stores (sysfs attributes, /proc files, JSON documents, libraries).
  while IFS= read -r -d '' f; do seed fuzz_redact "$f"; done < <(find "$fx" \( -path '*sys*' -o -path '*proc*' \) -type f -size -4k -print0 | head -z -n 100)
  while IFS= read -r -d '' f; do seed fuzz_redact "$f"; done < <(find "$fx" \( -name '*.json' -o -name '*.so*' \) -type f -print0 | head -z -n 40)
fi
# Source-tree fixtures and schemas, and small system files, so a corpus exists without a build.
while IFS= read -r -d '' f; do seed fuzz_header "$f"; done < <(find "$src/tests/fixtures" -name '*.h' -print0)
while IFS= read -r -d '' f; do seed fuzz_json "$f"; done < <(find "$src/schemas" "$src/tests/cli/cases" -name '*.json' -print0 | head -z -n 60)
while IFS= read -r -d '' f; do seed fuzz_pc "$f"; done < <(find /usr/lib/x86_64-linux-gnu/pkgconfig /usr/share/pkgconfig -name '*.pc' -print0 2>/dev/null | head -z -n 40)
seed fuzz_ld_cache /etc/ld.so.cache
# dpkg status files: the fixture roots' and this machine's (under the 1 MiB seed cap).
if [[ -n $fixtures && -d $fx ]]; then
  while IFS= read -r -d '' f; do seed fuzz_dpkg_status "$f"; done < <(find "$fx" -path '*var/lib/dpkg/status' -type f -print0 | head -z -n 20)
fi
seed fuzz_dpkg_status /var/lib/dpkg/status
while IFS= read -r -d '' f; do seed fuzz_redact "$f"; done < <(find "$src/tests/cli/cases" -name '*.json' -print0 | head -z -n 20)
for f in /usr/lib/x86_64-linux-gnu/libpkgconf.so.3 /usr/lib/x86_64-linux-gnu/libelf.so.1; do
  seed fuzz_elf "$(readlink -f "$f")"
done
for f in /usr/lib/x86_64-linux-gnu/crt1.o /usr/lib/x86_64-linux-gnu/crti.o /usr/lib/gcc/x86_64-linux-gnu/12/crtbegin.o \
         /usr/lib/x86_64-linux-gnu/libdl.so.2 /usr/lib/x86_64-linux-gnu/libpthread.so.0; do
  seed fuzz_elf "$(readlink -f "$f")"
done
for f in /usr/lib/x86_64-linux-gnu/libc_nonshared.a /usr/lib/x86_64-linux-gnu/libpthread.a; do seed fuzz_archive "$f"; done
for t in "$out"/*; do printf '%s: %s seeds\n' "$(basename "$t")" "$(ls "$t" | wc -l)"; done
