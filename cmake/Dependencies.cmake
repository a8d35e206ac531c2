# Every dependency comes from a Debian package (scripts/setup installs them).
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBPKGCONF REQUIRED IMPORTED_TARGET libpkgconf)
pkg_check_modules(LIBELF REQUIRED IMPORTED_TARGET libelf)
# libarchive: its headers only. src/bundle/libarchive_api.cpp dlopens libarchive.so.13 when a
# bundle is written or read; linking it would map it, ICU, libxml2 and a dozen more at every
# start of every command.
pkg_check_modules(LIBARCHIVE REQUIRED libarchive)
pkg_check_modules(NETTLE REQUIRED IMPORTED_TARGET nettle)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 2.1 REQUIRED)
find_package(spdlog 1.9 REQUIRED)

# Start-up cost: a probe run is a few milliseconds, and resolving libstdc++'s, libfmt's and
# spdlog's symbols at load time was a sixth of it. By default the program links its own
# dependencies statically (libstdc++, libgcc, libpkgconf, libelf, nettle; spdlog and fmt compiled
# in) and loads only libc, libm and zlib.
# Sanitizer and fuzz builds keep everything shared: a static libstdc++ would hide operator new
# from the sanitizers' interceptors.
option(RDMI_PROBE_STATIC_DEPS "Link libstdc++, libpkgconf, libelf, nettle, spdlog and fmt statically"
       ON)
# The release link (scripts/release.sh): with the static libstdc++, need no glibc symbol newer
# than 2.34 whatever glibc the build machine has (docs/release.md).
option(RDMI_PROBE_GLIBC_COMPAT "Static link that loads on glibc 2.34 (shared libgcc_s, own arc4random)"
       OFF)
if(RDMI_PROBE_SANITIZE OR RDMI_PROBE_FUZZ)
  set(RDMI_PROBE_STATIC_DEPS OFF)
endif()
add_library(rdmi_deps INTERFACE)
if(RDMI_PROBE_STATIC_DEPS)
  find_package(fmt 8 REQUIRED)
  find_library(RDMI_LIBPKGCONF_A NAMES libpkgconf.a REQUIRED)
  find_library(RDMI_LIBELF_A NAMES libelf.a REQUIRED)
  # nettle has no dependencies; only its SHA-256 and MD5 (dpkg digests) are pulled in.
  find_library(RDMI_LIBNETTLE_A NAMES libnettle.a REQUIRED)
  # zlib stays shared by default, though linking it in would save a shared object at every start
  # (18,000 instructions and 5 page faults of `--version`): it inflates sections of untrusted ELF
  # files here, distributions patch it for security, and a copy inside the binary would never
  # get those fixes (lintian rejects a .deb that embeds one: embedded-library).
  option(RDMI_PROBE_STATIC_ZLIB "Link zlib statically (not for packages: it misses zlib's fixes)"
         OFF)
  if(RDMI_PROBE_STATIC_ZLIB)
    find_library(RDMI_LIBZ_A NAMES libz.a REQUIRED)
    set(RDMI_ZLIB ${RDMI_LIBZ_A})
  else()
    set(RDMI_ZLIB z)
  endif()
  target_include_directories(rdmi_deps INTERFACE ${LIBPKGCONF_INCLUDE_DIRS} ${LIBELF_INCLUDE_DIRS}
                                                 ${NETTLE_INCLUDE_DIRS})
  target_compile_options(rdmi_deps INTERFACE ${LIBPKGCONF_CFLAGS_OTHER})
  target_link_libraries(rdmi_deps INTERFACE spdlog::spdlog_header_only fmt::fmt-header-only
                                            ${RDMI_LIBPKGCONF_A} ${RDMI_LIBELF_A}
                                            ${RDMI_LIBNETTLE_A} ${RDMI_ZLIB})
  # spdlog's headers declare its implementation, src/compat/spdlog_compiled.cpp (in rdmi_core)
  # defines it once: header-only, every file that logs compiled it again (a third of a clean
  # build). fmt stays header-only: what it adds per file is small.
  target_compile_definitions(rdmi_deps INTERFACE SPDLOG_COMPILED_LIB)
  target_link_options(rdmi_deps INTERFACE -static-libstdc++)
  # The C++ driver names libm on every link; nothing of it is used (the floating-point
  # to_chars/from_chars that called into it are not), and loading it was a shared object more to
  # find, map and relocate at every start.
  target_link_options(rdmi_deps INTERFACE -Wl,--as-needed)
  # The executable is position-independent (ASLR), so the loader adjusts every stored address
  # at start-up: 6,300 RELATIVE relocations of 24 bytes each, 150 KB to read, 28,000 instructions
  # of `--version`. Packed (DT_RELR, glibc 2.36 and binutils 2.38) they take a few hundred bytes.
  # Not for the glibc 2.34 release link, whose loader does not know them.
  if(NOT RDMI_PROBE_GLIBC_COMPAT)
    # Linking is not proof: a linker newer than the C library (binutils 2.38 with glibc 2.35, as
    # on Ubuntu 22.04) may write relocations the loader then skips. The check runs a program
    # whose pointer needs one.
    include(CheckCXXSourceRuns)
    set(CMAKE_REQUIRED_LINK_OPTIONS "-Wl,-z,pack-relative-relocs")
    check_cxx_source_runs("static int target = 7; static int* volatile pointer = &target;
                           int main() { return *pointer == 7 ? 0 : 1; }"
                          RDMI_HAVE_PACK_RELATIVE_RELOCS)
    unset(CMAKE_REQUIRED_LINK_OPTIONS)
    if(RDMI_HAVE_PACK_RELATIVE_RELOCS)
      target_link_options(rdmi_deps INTERFACE "-Wl,-z,pack-relative-relocs")
    endif()
  endif()
  if(RDMI_PROBE_GLIBC_COMPAT)
    # libgcc_s stays shared: the static unwinder (libgcc_eh) calls _dl_find_object
    # (GLIBC_2.35); the system's libgcc_s.so.1 does the same lookup with whatever its glibc has.
    # arc4random.cpp keeps libstdc++'s random-device object off arc4random@GLIBC_2.36; an INTERFACE
    # source only executables take (a static library's copy would be scanned too early to win).
    target_sources(rdmi_deps INTERFACE
      $<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:${CMAKE_CURRENT_SOURCE_DIR}/src/compat/arc4random.cpp>)
  else()
    target_link_options(rdmi_deps INTERFACE -static-libgcc)
  endif()
else()
  target_link_libraries(rdmi_deps INTERFACE spdlog::spdlog PkgConfig::LIBPKGCONF PkgConfig::LIBELF
                                            PkgConfig::NETTLE)
endif()
target_include_directories(rdmi_deps INTERFACE ${LIBARCHIVE_INCLUDE_DIRS})
target_link_libraries(rdmi_deps INTERFACE ${CMAKE_DL_LIBS})
