// ElfBuilder: the compiler as a child process with an argument vector, never through a shell.
#include "support/elf_builder.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "support/child_output.hpp"

namespace rdmi::test {
namespace {

std::string joined(const std::vector<std::string>& argv) {
    std::string out;
    for (const auto& a : argv) out += (out.empty() ? "" : " ") + a;
    return out;
}

void must_run(const std::vector<std::string>& argv) {
    const CommandOutput r = run_command(argv, {"PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C"});
    INFO(joined(argv));
    INFO(r.text);
    REQUIRE(WIFEXITED(r.status));
    REQUIRE(WEXITSTATUS(r.status) == 0);
}

void write_text(const std::string& path, const std::string& text) {
    std::ofstream out(path);
    out << text;
    REQUIRE(out.good());
}

// A C string literal of `text` (paths with quotes or backslashes stay what they are).
std::string c_literal(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

}  // namespace

bool can_build_native_elf() {
#if defined(RDMI_TEST_CROSS_BUILD)
    return false;
#else
    return true;
#endif
}

ElfBuilder::ElfBuilder(std::string work, std::string marker)
    : work_(std::move(work)),
      library_object_(work_ + "/library.o"),
      program_object_(work_ + "/program.o") {
    write_text(work_ + "/library.c", "int rdmi_loader_test_symbol(void) { return 1; }\n");
    write_text(work_ + "/program.c",
               "#include <fcntl.h>\n#include <unistd.h>\n"
               "int main(void) {\n"
               "    const char* marker = " +
                   c_literal(marker) +
                   ";\n"
                   "    if (marker[0] == '\\0') return 0;\n"
                   "    int fd = open(marker, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);\n"
                   "    if (fd >= 0 && write(fd, \"ran\\n\", 4) == 4) close(fd);\n"
                   "    return 0;\n}\n");
    must_run(
        {RDMI_TEST_C_COMPILER, "-c", "-fPIC", "-O0", "-o", library_object_, work_ + "/library.c"});
    must_run(
        {RDMI_TEST_C_COMPILER, "-c", "-fPIE", "-O0", "-o", program_object_, work_ + "/program.c"});
}

void ElfBuilder::shared(const ElfSpec& spec) const {
    link(spec, library_object_, true);
}

void ElfBuilder::program(const ElfSpec& spec) const {
    link(spec, program_object_, false);
}

void ElfBuilder::link(const ElfSpec& spec, const std::string& object, bool shared) const {
    std::vector<std::string> argv{RDMI_TEST_C_COMPILER, "-o", spec.output, object};
    if (shared) argv.emplace_back("-shared");
    if (!shared) argv.emplace_back("-pie");
    // Every file named is recorded, used or not; what it needs is not looked for at link time.
    argv.emplace_back("-Wl,--no-as-needed");
    argv.emplace_back("-Wl,--allow-shlib-undefined");
    if (!spec.soname.empty()) argv.push_back("-Wl,-soname," + spec.soname);
    if (!spec.rpath.empty()) {
        argv.push_back("-Wl,-rpath," + spec.rpath);
        argv.emplace_back(spec.runpath ? "-Wl,--enable-new-dtags" : "-Wl,--disable-new-dtags");
    }
    if (!spec.interpreter.empty()) argv.push_back("-Wl,--dynamic-linker=" + spec.interpreter);
    for (const auto& flag : spec.ld_flags) argv.push_back("-Wl," + flag);
    argv.insert(argv.end(), spec.link.begin(), spec.link.end());
    must_run(argv);
}

CommandOutput run_command(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                          const std::string& cwd) {
    const ChildOutput child = run_in_child([&] {
        ::dup2(STDOUT_FILENO, STDERR_FILENO);  // one stream: no pipe fills while the other waits
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        std::vector<char*> envp;
        for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
        envp.push_back(nullptr);
        if (::chdir(cwd.c_str()) != 0) ::_exit(126);
        ::execve(args[0], args.data(), envp.data());
        ::_exit(127);
    });
    return CommandOutput{child.status, child.out + child.err};
}

}  // namespace rdmi::test
