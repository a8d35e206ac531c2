# Cross-compiles for the BlueField's Arm cores (aarch64) on a Debian/Ubuntu host with multiarch:
#   dpkg --add-architecture arm64; apt-get install g++-aarch64-linux-gnu qemu-user
#   and the -dev:arm64 libraries (scripts/setup.sh --cross-arm64 installs them).
# Headers come from /usr/include (shared by every architecture), libraries and CMake package
# files from /usr/lib/aarch64-linux-gnu, which CMake searches because the compiler reports that
# library architecture. Built programs run under qemu user-mode emulation: CMake prefixes the
# tests' executables with CMAKE_CROSSCOMPILING_EMULATOR, and the Python test drivers take the
# same prefix from RDMI_PROBE_EMULATOR.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(RDMI_CROSS_TRIPLET aarch64-linux-gnu)

set(CMAKE_C_COMPILER ${RDMI_CROSS_TRIPLET}-gcc)
set(CMAKE_CXX_COMPILER ${RDMI_CROSS_TRIPLET}-g++)

# Only the target's libraries: never link an x86-64 library found in /usr/lib/x86_64-linux-gnu.
set(CMAKE_FIND_ROOT_PATH /usr/${RDMI_CROSS_TRIPLET})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

# pkg-config reads the target's .pc files only (libpkgconf, libelf).
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${RDMI_CROSS_TRIPLET}/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")

# qemu-aarch64 finds the target's dynamic loader and libc under -L; binfmt_misc is not needed.
find_program(RDMI_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(RDMI_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${RDMI_QEMU_AARCH64} -L /usr/${RDMI_CROSS_TRIPLET}
      CACHE STRING "Runs the target's programs on the build machine")
endif()
# The package architecture names.
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
set(CPACK_RPM_PACKAGE_ARCHITECTURE aarch64)
