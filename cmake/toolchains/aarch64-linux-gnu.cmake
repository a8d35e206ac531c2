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

# qemu-aarch64 runs the target's programs; binfmt_misc is not needed. The loader prefix is "/":
# the program's interpreter /lib/ld-linux-aarch64.so.1 and every library it loads (libc.so.6
# included) then come from Debian's arm64 multiarch packages, one glibc build, as on an arm64
# machine. Not /usr/aarch64-linux-gnu: that prefix holds only the cross toolchain's glibc
# (libc6-arm64-cross, a different Debian revision), whose ld.so would be paired with the
# multiarch libc.so.6 (its library search falls through to /lib/aarch64-linux-gnu), and the two
# disagree on the loader's private data layout: every pthread_create then spins forever
# (docs/release.md, "A loader and a libc from two builds"). An explicit -L, as Debian's qemu
# would otherwise look under /etc/qemu-binfmt/aarch64 first.
# RDMI_CROSS_EMULATOR overrides it; a normal variable, so a build directory configured with an
# older toolchain file does not keep a cached prefix.
find_program(RDMI_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(RDMI_QEMU_AARCH64)
  set(RDMI_CROSS_EMULATOR ${RDMI_QEMU_AARCH64} -L /
      CACHE STRING "Runs the target's programs on the build machine (qemu user-mode)")
  set(CMAKE_CROSSCOMPILING_EMULATOR ${RDMI_CROSS_EMULATOR})
endif()
# The package architecture names.
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
set(CPACK_RPM_PACKAGE_ARCHITECTURE aarch64)
