// Test helper: the machine the test binary runs as, and the ELF machine of a file. Tests that
// name a multiarch directory or load a library use these instead of assuming x86-64, so the same
// tests hold on the aarch64 build run under an emulator.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rdmi::test {

#if defined(__x86_64__)
inline constexpr std::string_view kNativeMachine = "x86_64";
inline constexpr std::string_view kNativeTriplet = "x86_64-linux-gnu";
#elif defined(__aarch64__)
inline constexpr std::string_view kNativeMachine = "aarch64";
inline constexpr std::string_view kNativeTriplet = "aarch64-linux-gnu";
#else
#error "the tests know x86_64 and aarch64 only"
#endif

/// The ELF machine of a host file, symbolic links followed, spelt as ElfImage::machine_name()
/// spells it ("x86_64", "aarch64"); nullopt when the file is unreadable or not ELF.
std::optional<std::string> elf_machine(const std::string& path);

/// True when openat2(2) works here: tried on the current directory, not inferred from the kernel
/// version (an emulator or a seccomp profile can refuse it on any kernel).
bool have_openat2();

/// True when posix_spawn(3) reports a program that cannot be executed as an error. POSIX also
/// allows an exec failure to surface only as exit status 127; that is what a user-mode emulator
/// does, which runs the vfork-style child glibc uses as a fork.
bool posix_spawn_reports_exec_failure();

}  // namespace rdmi::test
