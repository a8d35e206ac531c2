# Every dependency comes from a Debian package (scripts/setup installs them).
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBPKGCONF REQUIRED IMPORTED_TARGET libpkgconf)
pkg_check_modules(LIBELF REQUIRED IMPORTED_TARGET libelf)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 2.1 REQUIRED)
find_package(spdlog 1.10 REQUIRED)
