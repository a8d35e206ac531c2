// The loader's rules, checked against the loader: generated library trees (seeded), linked by
// the real linker, run under the real ld.so in trace mode; every file it maps must be a member
// of the closure check_load_closure() vetted, and a directory it searched or took a file from
// that others may write must make the closure refuse. Its own ctest group (loader-property):
// doctest skips it in `unit`. RDMI_LOADER_PROPERTY_TREES and RDMI_LOADER_PROPERTY_SEED change
// how many trees and which.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "loader/elf_dynamic.hpp"
#include "loader/load_closure.hpp"
#include "support/elf_builder.hpp"
#include "support/native_arch.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

namespace fs = std::filesystem;

const std::string kTriplet(test::kNativeTriplet);
// A glibc-hwcaps level every x86-64 CPU this runs on has; on other machines a name the loader
// does not search, which only the closure looks in.
const std::string kHwcapsLevel = "x86-64-v2";

std::uint64_t env_number(const char* name, std::uint64_t fallback) {
    const char* text = std::getenv(name);
    return text != nullptr && *text != '\0' ? std::strtoull(text, nullptr, 10) : fallback;
}

// A small deterministic generator (a failure names its seed and reproduces).
class Dice {
  public:
    explicit Dice(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ULL + 1) {}
    std::uint64_t next() {
        state_ ^= state_ << 13U;
        state_ ^= state_ >> 7U;
        state_ ^= state_ << 17U;
        return state_;
    }
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
    bool chance(unsigned percent) { return below(100) < percent; }

  private:
    std::uint64_t state_;
};

std::string real_path_of(const std::string& path) {
    std::error_code ec;
    const auto canonical = fs::canonical(path, ec);
    return ec ? path : canonical.string();
}

std::string file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// What ld.so reported: the files it mapped and the files it tried (LD_DEBUG=libs).
struct Trace {
    std::set<std::string> mapped;  ///< real paths
    std::vector<std::string> tried;
    std::string text;
};

Trace parse_trace(const std::string& text) {
    Trace trace;
    trace.text = text;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        if (const auto at = line.find("trying file="); at != std::string::npos) {
            trace.tried.push_back(line.substr(at + 12));
            continue;
        }
        // "\tNAME => PATH (0x...)", "\tPATH (0x...)", "\tNAME => not found".
        if (line.empty() || line.front() != '\t') continue;
        std::string entry = line.substr(1);
        if (const auto arrow = entry.find(" => "); arrow != std::string::npos)
            entry = entry.substr(arrow + 4);
        if (const auto paren = entry.rfind(" (0x"); paren != std::string::npos)
            entry = entry.substr(0, paren);
        if (entry.find('/') != std::string::npos) trace.mapped.insert(real_path_of(entry));
    }
    return trace;
}

// One generated tree: directories of libraries that need each other by soname or by a path
// with $ORIGIN, found through DT_RPATH, DT_RUNPATH (with $ORIGIN and $LIB), LD_LIBRARY_PATH,
// glibc-hwcaps and legacy hwcap subdirectories; some names are never found.
class GeneratedTree {
  public:
    GeneratedTree(std::uint64_t seed, const std::string& interpreter)
        : dice_(seed), elf_(prepare(tree_)), interpreter_(interpreter) {
        make_dirs();
        make_libraries();
        make_root();
    }

    [[nodiscard]] const std::string& root_file() const { return root_file_; }
    [[nodiscard]] bool is_program() const { return program_; }
    [[nodiscard]] const std::optional<std::string>& ld_library_path() const { return llp_; }
    [[nodiscard]] const std::vector<std::string>& dirs() const { return dirs_; }
    [[nodiscard]] std::string cwd() const { return tree_.host("/d0"); }
    [[nodiscard]] std::string describe() const { return log_; }

  private:
    static std::string prepare(const test::TempTree& tree) {
        ::chmod(tree.root().c_str(), 0755);
        tree.mkdir("/objects", 0755);
        return tree.host("/objects");
    }

    void make_dirs() {
        const std::size_t count = 3 + dice_.below(4);
        for (std::size_t i = 0; i < count; ++i) {
            std::string dir = "/d" + std::to_string(i);
            if (i > 0 && dice_.chance(30)) dir = "/d" + std::to_string(dice_.below(i)) + dir;
            add_dir(dir);
        }
        // Where "$ORIGIN/../$LIB" of a library in /m/bin leads, in every spelling.
        add_dir("/m/bin");
        for (const std::string& spelling :
             {"lib/" + kTriplet, std::string("lib64"), std::string("lib")})
            add_dir("/m/" + spelling);
    }

    void add_dir(const std::string& dir) {
        tree_.mkdir(dir, 0755);
        if (std::find(dirs_.begin(), dirs_.end(), tree_.host(dir)) == dirs_.end())
            dirs_.push_back(tree_.host(dir));
    }

    std::string pick_dir() { return dirs_[dice_.below(dirs_.size())]; }

    // A search-path entry that leads to `dir` from the object at `from_dir`.
    std::string entry_for(const std::string& dir, const std::string& from_dir) {
        if (dir.ends_with("/m/lib64") || dir.ends_with("/m/lib") ||
            dir.ends_with("/m/lib/" + kTriplet)) {
            return tree_.host("/m/bin") == from_dir ? "$ORIGIN/../$LIB" : tree_.host("/m/$LIB");
        }
        if (dice_.chance(50)) return dir;
        const std::string rel = fs::path(dir).lexically_relative(from_dir).string();
        return std::string(dice_.chance(50) ? "$ORIGIN/" : "${ORIGIN}/") + rel;
    }

    void make_libraries() {
        // Built from the last to the first: a library needs only libraries built before it.
        for (std::size_t n = 3 + dice_.below(4); n-- > 0;) {
            Library lib{"libg" + std::to_string(n) + ".so", pick_dir()};
            make_object(lib);
            libs_.insert(libs_.begin(), lib);
        }
    }

    struct Library {
        std::string soname;
        std::string dir;
    };

    // Links `out` in `dir` with DT_NEEDED on some of the libraries built so far and search
    // entries that find them (or not), as a library or a program.
    void link(const std::string& out, const std::string& dir, bool program,
              const std::string& soname) {
        test::ElfSpec spec = test::ElfSpec(out).named(soname);
        std::vector<std::string> entries;
        for (const Library& dep : libs_) {
            if (!dice_.chance(55)) continue;
            const std::string dep_file = dep.dir + "/" + dep.soname;
            if (dice_.chance(30)) {
                // By a path: the linker records the soname of a stub whose soname is that path.
                const std::string rel = fs::path(dep.dir).lexically_relative(dir).string();
                const std::string name =
                    (dice_.chance(50) ? "$ORIGIN/" : "${ORIGIN}/") + rel + "/" + dep.soname;
                const std::string stub = elf_dir() + "/stub" + std::to_string(stubs_++) + ".so";
                elf_.shared(test::ElfSpec(stub).named(name));
                spec.link.push_back(stub);
                log_ += " " + out + " needs " + name + ";";
                continue;
            }
            spec.link.push_back(dep_file);
            log_ += " " + out + " needs " + dep.soname + ";";
            if (dice_.chance(60)) entries.push_back(entry_for(dep.dir, dir));
        }
        if (dice_.chance(25)) {
            // A name nothing provides: the loader looks everywhere and fails.
            const std::string stub = elf_dir() + "/missing" + std::to_string(stubs_++) + ".so";
            elf_.shared(test::ElfSpec(stub).named("libmissing" + std::to_string(stubs_) + ".so"));
            spec.link.push_back(stub);
        }
        if (dice_.chance(20)) entries.push_back(entry_for(pick_dir(), dir));
        if (!entries.empty()) {
            for (const auto& e : entries) spec.rpath += (spec.rpath.empty() ? "" : ":") + e;
            spec.runpath = dice_.chance(50);
            log_ += std::string(" ") + (spec.runpath ? "RUNPATH " : "RPATH ") + spec.rpath + ";";
        }
        if (program) {
            elf_.program(spec);
        } else {
            elf_.shared(spec);
        }
    }

    std::string elf_dir() const { return tree_.host("/objects"); }

    void make_object(const Library& lib) {
        const std::string out = lib.dir + "/" + lib.soname;
        link(out, lib.dir, false, lib.soname);
        // Copies the loader may prefer: a glibc-hwcaps level, a legacy hwcap subdirectory.
        if (dice_.chance(15)) place_copy(out, lib.dir + "/glibc-hwcaps/" + kHwcapsLevel);
        if (dice_.chance(15)) place_copy(out, lib.dir + "/tls");
    }

    void place_copy(const std::string& file, const std::string& dir) {
        fs::create_directories(dir);
        fs::copy_file(file, dir + "/" + fs::path(file).filename().string(),
                      fs::copy_options::overwrite_existing);
        if (std::find(dirs_.begin(), dirs_.end(), dir) == dirs_.end()) dirs_.push_back(dir);
        log_ += " copy in " + dir + ";";
    }

    void make_root() {
        program_ = dice_.chance(70);
        const std::string dir = dice_.chance(20) ? tree_.host("/m/bin") : pick_dir();
        root_file_ = dir + (program_ ? "/tool" : "/libroot.so");
        link(root_file_, dir, program_, program_ ? "" : "libroot.so");
        if (dice_.chance(40)) {
            std::string value;
            for (std::size_t i = 0, n = 1 + dice_.below(3); i < n; ++i) {
                value += (value.empty() ? "" : ":") +
                         (dice_.chance(15) ? std::string("$ORIGIN/../m/lib") : pick_dir());
            }
            llp_ = value;
            log_ += " LD_LIBRARY_PATH=" + value + ";";
        }
        log_ = (program_ ? "program " : "library ") + root_file_ + ";" + log_;
    }

    test::TempTree tree_;
    Dice dice_;
    test::ElfBuilder elf_;
    std::string interpreter_;
    std::vector<std::string> dirs_;
    std::vector<Library> libs_;
    std::string root_file_;
    bool program_ = true;
    std::optional<std::string> llp_;
    std::size_t stubs_ = 0;
    std::string log_;
};

Trace run_loader(const GeneratedTree& t, const std::string& interpreter) {
    std::vector<std::string> env{"LD_TRACE_LOADED_OBJECTS=1", "LD_DEBUG=libs"};
    if (t.ld_library_path()) env.push_back("LD_LIBRARY_PATH=" + *t.ld_library_path());
    std::vector<std::string> argv{t.root_file()};
    if (!t.is_program()) argv = {interpreter, "--list", t.root_file()};
    return parse_trace(test::run_command(argv, env, t.cwd()).text);
}

LoadEnvironment closure_environment(const GeneratedTree& t) {
    LoadEnvironment env = program_load_environment();
    env.cwd = t.cwd();
    env.ld_library_path = t.ld_library_path();
    // `ld.so --list LIB` makes LIB the main program: $ORIGIN in LD_LIBRARY_PATH is its own.
    env.main_origin = fs::path(t.root_file()).parent_path().string();
    return env;
}

// The nearest existing directory at or above the one `file` would be in.
std::string existing_dir_of(const std::string& file) {
    fs::path dir = fs::path(file).parent_path();
    std::error_code ec;
    while (!fs::is_directory(dir, ec) && dir.has_parent_path() && dir != dir.parent_path())
        dir = dir.parent_path();
    return dir.lexically_normal().string();
}

bool dir_within(const std::string& path, const std::string& dir) {
    return path == dir || path.starts_with(dir + "/");
}

std::string interpreter_of_default_program(const std::string& work) {
    test::ElfBuilder elf(work);
    elf.program(test::ElfSpec(work + "/default-program"));
    std::string program = file_bytes(work + "/default-program");
    auto info = read_dynamic_info(program);
    REQUIRE(info.ok());
    return info->interpreter;
}

}  // namespace

TEST_CASE("loader property: every file ld.so maps is vetted by the closure" *
          doctest::test_suite("loader-property") * doctest::skip()) {
    if (!test::can_build_native_elf()) {
        MESSAGE("a cross build under an emulator: the loader property needs the native loader");
        return;
    }
    const std::uint64_t trees = env_number("RDMI_LOADER_PROPERTY_TREES", 24);
    const std::uint64_t seed = env_number("RDMI_LOADER_PROPERTY_SEED", 20270301);
    test::TempTree scratch;
    const std::string interpreter = interpreter_of_default_program(scratch.root());
    std::size_t mapped_total = 0;
    std::size_t compared = 0;
    std::size_t refusals = 0;
    for (std::uint64_t n = 0; n < trees; ++n) {
        const std::uint64_t tree_seed = seed + n;
        GeneratedTree t(tree_seed, interpreter);
        CAPTURE(tree_seed);
        INFO(t.describe());
        const Trace trace = run_loader(t, interpreter);
        INFO(trace.text);
        // `ld.so --list LIB` stops at a name it cannot find (a program's trace goes on and says
        // "not found"), before it lists anything: then only the directories it tried count.
        const bool stopped =
            trace.text.find("error while loading shared libraries") != std::string::npos;
        REQUIRE((stopped || !trace.mapped.empty()));
        compared += stopped ? 0 : 1;
        const LoadEnvironment env = closure_environment(t);
        const LoadKind kind = t.is_program() ? LoadKind::program : LoadKind::library;
        const ClosureVerdict verdict = check_load_closure(t.root_file(), kind, env);
        REQUIRE_MESSAGE(!verdict.gap, "a private tree refused: " << verdict.gap->message);
        std::set<std::string> vetted;
        for (const auto& m : verdict.members) vetted.insert(real_path_of(m));
        for (const auto& mapped : trace.mapped) {
            // `ld.so --list` is itself the loader that maps: the one thing not asked of a dlopen.
            if (!t.is_program() && mapped == real_path_of(interpreter)) continue;
            CHECK_MESSAGE(vetted.contains(mapped), "mapped but not vetted: " << mapped);
            ++mapped_total;
        }
        // Each directory of the tree that others may write, one at a time: where the loader
        // searched or found a file there, the closure must refuse.
        for (const auto& dir : t.dirs()) {
            bool used = std::any_of(trace.tried.begin(), trace.tried.end(),
                                    [&](const std::string& f) {
                                        return dir_within(existing_dir_of(f), dir);
                                    }) ||
                        std::any_of(trace.mapped.begin(), trace.mapped.end(),
                                    [&](const std::string& f) { return dir_within(f, dir); });
            if (!used) continue;
            ::chmod(dir.c_str(), 0777);
            const ClosureVerdict open = check_load_closure(t.root_file(), kind, env);
            ::chmod(dir.c_str(), 0755);
            CHECK_MESSAGE(open.gap.has_value(), "the loader used " << dir << ", writable");
            refusals += open.gap.has_value() ? 1 : 0;
        }
    }
    MESSAGE(trees << " trees (" << compared << " fully listed by the loader), " << mapped_total
                  << " mapped files vetted, " << refusals << " writable directories refused");
    CHECK(compared * 2 >= trees);  // most trees are compared file by file, not vacuously
}

}  // namespace rdmi
