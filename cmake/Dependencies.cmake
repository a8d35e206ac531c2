# Every dependency comes from a Debian package (scripts/setup installs them).
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBPKGCONF REQUIRED IMPORTED_TARGET libpkgconf)
pkg_check_modules(LIBELF REQUIRED IMPORTED_TARGET libelf)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 2.1 REQUIRED)
find_package(spdlog 1.10 REQUIRED)

# Start-up cost: a probe run is a few milliseconds, and resolving libstdc++'s, libfmt's and
# spdlog's symbols at load time was a sixth of it. By default the program links its own
# dependencies statically (libstdc++, libgcc, libpkgconf, libelf; spdlog and fmt compiled in) and
# loads only libc, libm and zlib (kept shared: an embedded zlib copy would miss security updates).
# Sanitizer and fuzz builds keep everything shared: a static libstdc++ would hide operator new
# from the sanitizers' interceptors.
option(RDMI_PROBE_STATIC_DEPS "Link libstdc++, libpkgconf, libelf, spdlog and fmt statically" ON)
if(RDMI_PROBE_SANITIZE OR RDMI_PROBE_FUZZ)
  set(RDMI_PROBE_STATIC_DEPS OFF)
endif()
add_library(rdmi_deps INTERFACE)
if(RDMI_PROBE_STATIC_DEPS)
  find_package(fmt REQUIRED)
  find_library(RDMI_LIBPKGCONF_A NAMES libpkgconf.a REQUIRED)
  find_library(RDMI_LIBELF_A NAMES libelf.a REQUIRED)
  target_include_directories(rdmi_deps INTERFACE ${LIBPKGCONF_INCLUDE_DIRS} ${LIBELF_INCLUDE_DIRS})
  target_compile_options(rdmi_deps INTERFACE ${LIBPKGCONF_CFLAGS_OTHER})
  target_link_libraries(rdmi_deps INTERFACE spdlog::spdlog_header_only fmt::fmt-header-only
                                            ${RDMI_LIBPKGCONF_A} ${RDMI_LIBELF_A} z)
  target_link_options(rdmi_deps INTERFACE -static-libstdc++ -static-libgcc)
else()
  target_link_libraries(rdmi_deps INTERFACE spdlog::spdlog PkgConfig::LIBPKGCONF PkgConfig::LIBELF)
endif()
