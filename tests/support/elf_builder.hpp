// Real ELF objects for the loader tests, built at test time by the compiler and linker the tree
// was built with: shared libraries with chosen sonames, DT_NEEDED, DT_RPATH or DT_RUNPATH, and
// programs with a chosen PT_INTERP.
#pragma once

#include <string>
#include <vector>

namespace rdmi::test {

/// True when this test binary can build and run native ELF objects: not a cross build run
/// under a user-mode emulator (qemu-user), where the compiler's output is for another machine.
bool can_build_native_elf();

/// One object to link; the setters chain: ElfSpec(path).named("libx.so").linking({...}).
struct ElfSpec {
    explicit ElfSpec(std::string out) : output(std::move(out)) {}
    ElfSpec& named(std::string name) {
        soname = std::move(name);
        return *this;
    }
    ElfSpec& linking(std::vector<std::string> files) {
        link = std::move(files);
        return *this;
    }
    ElfSpec& searching(std::string path, bool as_runpath) {
        rpath = std::move(path);
        runpath = as_runpath;
        return *this;
    }
    ElfSpec& interpreted_by(std::string path) {
        interpreter = std::move(path);
        return *this;
    }
    ElfSpec& with_ld_flag(std::string flag) {
        ld_flags.push_back(std::move(flag));
        return *this;
    }

    std::string output;                 ///< host path of the file to write
    std::string soname;                 ///< DT_SONAME; "" for none
    std::vector<std::string> link;      ///< files linked against: their sonames become DT_NEEDED
    std::string rpath;                  ///< DT_RPATH (or DT_RUNPATH with `runpath`); "" for none
    bool runpath = false;               ///< --enable-new-dtags
    std::string interpreter;            ///< PT_INTERP of a program; "" for the default
    std::vector<std::string> ld_flags;  ///< further linker options ("--auxiliary=libaux.so")
};

/// Compiles its two objects (a library's, a program's that writes `marker` when run) once, then
/// links each spec. Failures are doctest failures naming the command.
class ElfBuilder {
  public:
    /// `work` is a directory for the objects; `marker`, when not empty, is the file a built
    /// program appends a line to when it runs (its path is compiled in: run_process() clears
    /// the environment).
    explicit ElfBuilder(std::string work, std::string marker = "");

    /// Links a shared library.
    void shared(const ElfSpec& spec) const;
    /// Links a program (its main writes the marker, then exits 0).
    void program(const ElfSpec& spec) const;

  private:
    void link(const ElfSpec& spec, const std::string& object, bool shared) const;
    std::string work_;
    std::string library_object_;
    std::string program_object_;
};

/// What one child process wrote (stdout and stderr together) and how it ended.
struct CommandOutput {
    int status = -1;  ///< as waitpid(2) gives it
    std::string text;
};

/// Runs argv[0] (a path) with exactly `env`, in `cwd`, and waits for it.
CommandOutput run_command(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                          const std::string& cwd = "/");

}  // namespace rdmi::test
