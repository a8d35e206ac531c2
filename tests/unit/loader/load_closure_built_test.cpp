// The load-closure check on ELF objects the real linker builds at test time: DT_NEEDED paths
// with dynamic string tokens, PT_INTERP of a program run, filtees and legacy hwcap directories.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "loader/elf_dynamic.hpp"
#include "loader/load_closure.hpp"
#include "support/elf_builder.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

std::string built_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

bool closure_has(const ClosureVerdict& verdict, const std::string& path) {
    return std::find(verdict.members.begin(), verdict.members.end(), path) != verdict.members.end();
}

// A private tree with a directory for the compiler's objects.
struct BuiltTree {
    test::TempTree tree;
    test::ElfBuilder elf;
    BuiltTree() : elf(objects_dir(tree)) {}
    static std::string objects_dir(const test::TempTree& t) {
        ::chmod(t.root().c_str(), 0755);
        t.mkdir("/objects", 0755);
        return t.host("/objects");
    }
    [[nodiscard]] std::string host(std::string_view p) const { return tree.host(p); }
};

// The loader this machine's programs name in PT_INTERP, from a program linked by default.
std::string system_interpreter(const BuiltTree& t) {
    t.elf.program(test::ElfSpec(t.host("/objects/default-program")));
    std::string program = built_bytes(t.host("/objects/default-program"));
    auto info = read_dynamic_info(program);
    REQUIRE(info.ok());
    REQUIRE_FALSE(info->interpreter.empty());
    return info->interpreter;
}

}  // namespace

TEST_CASE("a DT_NEEDED path with $ORIGIN is judged where the loader would find it") {
    if (!test::can_build_native_elf()) return;
    BuiltTree t;
    t.tree.mkdir("/a/b/c", 0755);
    t.tree.mkdir("/evil", 0777);
    // The linker records the soname of what it links against: this stub's is the path.
    t.elf.shared(test::ElfSpec(t.host("/objects/libx.so")).named("$ORIGIN/../../../evil/libx.so"));
    t.elf.shared(test::ElfSpec(t.host("/a/b/c/libtrusted.so"))
                     .named("libtrusted.so")
                     .linking({t.host("/objects/libx.so")}));
    std::filesystem::copy_file(t.host("/objects/libx.so"), t.host("/evil/libx.so"));
    std::string library = built_bytes(t.host("/a/b/c/libtrusted.so"));
    auto info = read_dynamic_info(library);
    REQUIRE(info.ok());
    REQUIRE(info->needed.front() == "$ORIGIN/../../../evil/libx.so");

    // From "/" the unexpanded name led nowhere, and nothing was refused.
    LoadEnvironment env = program_load_environment();
    env.cwd = "/";
    const std::string expanded = t.host("/a/b/c/../../../evil/libx.so");
    auto verdict = check_load_closure(t.host("/a/b/c/libtrusted.so"), LoadKind::library, env);
    REQUIRE(verdict.gap.has_value());
    CHECK(verdict.gap->reason == GapReason::untrusted);
    CHECK(verdict.gap->message.find(": writable by others") != std::string::npos);
    CHECK(verdict.gap->message.find(expanded) != std::string::npos);

    // A private directory passes, with the file a member.
    t.tree.chmod("/evil", 0755);
    verdict = check_load_closure(t.host("/a/b/c/libtrusted.so"), LoadKind::library, env);
    CHECK_FALSE(verdict.gap.has_value());
    CHECK(closure_has(verdict, expanded));
}

TEST_CASE("$LIB and $PLATFORM in a DT_NEEDED path: every spelling is judged") {
    if (!test::can_build_native_elf()) return;
    BuiltTree t;
    t.tree.mkdir("/p/lib", 0755);
    t.tree.mkdir("/p/lib64", 0777);  // one spelling of $LIB a glibc may use
    t.elf.shared(test::ElfSpec(t.host("/objects/liby.so")).named("${ORIGIN}/../$LIB/liby.so"));
    t.elf.shared(test::ElfSpec(t.host("/p/lib/libuser.so")).linking({t.host("/objects/liby.so")}));
    std::filesystem::copy_file(t.host("/objects/liby.so"), t.host("/p/lib64/liby.so"));
    auto env = program_load_environment();
    env.lib_expansions = {"lib", "lib64"};
    auto verdict = check_load_closure(t.host("/p/lib/libuser.so"), LoadKind::library, env);
    REQUIRE(verdict.gap.has_value());
    CHECK(verdict.gap->message.find(t.host("/p/lib/../lib64") + ": writable by others") !=
          std::string::npos);
    // A token with no value drops the name, as ld.so does: nothing is judged or loaded for it.
    t.elf.shared(test::ElfSpec(t.host("/objects/libz.so")).named("$PLATFORM/libz.so"));
    t.elf.shared(test::ElfSpec(t.host("/p/lib/libplat.so")).linking({t.host("/objects/libz.so")}));
    env.platform.clear();
    verdict = check_load_closure(t.host("/p/lib/libplat.so"), LoadKind::library, env);
    CHECK_FALSE(verdict.gap.has_value());
    CHECK(std::none_of(verdict.members.begin(), verdict.members.end(), [](const std::string& m) {
        return m.find("libz.so") != std::string::npos;
    }));
}

TEST_CASE("a program's PT_INTERP in a writable directory is refused before it runs") {
    if (!test::can_build_native_elf()) return;
    BuiltTree t;
    const std::string loader = system_interpreter(t);
    t.tree.mkdir("/evil", 0777);
    t.tree.mkdir("/tools", 0755);
    std::filesystem::copy_file(loader, t.host("/evil/ld.so"));
    ::chmod(t.host("/evil/ld.so").c_str(), 0755);
    t.elf.program(test::ElfSpec(t.host("/tools/doca_caps")).interpreted_by(t.host("/evil/ld.so")));
    auto verdict = check_load_closure(t.host("/tools/doca_caps"), LoadKind::program,
                                      program_load_environment());
    REQUIRE(verdict.gap.has_value());
    CHECK(verdict.gap->reason == GapReason::untrusted);
    CHECK(verdict.gap->message.find(t.host("/evil") + ": writable by others") == 0);
    CHECK(verdict.gap->message.find("PT_INTERP") != std::string::npos);

    // The same interpreter in a private directory: a member, and the program may run.
    t.tree.chmod("/evil", 0755);
    verdict = check_load_closure(t.host("/tools/doca_caps"), LoadKind::program,
                                 program_load_environment());
    CHECK_FALSE(verdict.gap.has_value());
    CHECK(closure_has(verdict, t.host("/evil/ld.so")));

    // A missing interpreter in a directory anyone may write could be created there.
    t.elf.program(test::ElfSpec(t.host("/tools/dpacc")).interpreted_by(t.host("/open/ld.so")));
    t.tree.mkdir("/open", 0777);
    verdict =
        check_load_closure(t.host("/tools/dpacc"), LoadKind::program, program_load_environment());
    REQUIRE(verdict.gap.has_value());
    CHECK(verdict.gap->message.find(t.host("/open") + ": writable by others") == 0);
    // A library's PT_INTERP is never used by dlopen: not judged.
    t.tree.chmod("/evil", 0777);
    CHECK_FALSE(check_load_closure(t.host("/tools/doca_caps"), LoadKind::library,
                                   program_load_environment())
                    .gap.has_value());
}

TEST_CASE("a #! script's interpreter is judged by its own PT_INTERP too") {
    if (!test::can_build_native_elf()) return;
    BuiltTree t;
    const std::string loader = system_interpreter(t);
    t.tree.mkdir("/evil", 0777);
    t.tree.mkdir("/bin", 0755);
    std::filesystem::copy_file(loader, t.host("/evil/ld.so"));
    t.elf.program(test::ElfSpec(t.host("/bin/shell")).interpreted_by(t.host("/evil/ld.so")));
    t.tree.write("/bin/doca_caps", "#!" + t.host("/bin/shell") + "\necho hi\n", 0755);
    const auto verdict =
        check_load_closure(t.host("/bin/doca_caps"), LoadKind::program, program_load_environment());
    REQUIRE(verdict.gap.has_value());
    CHECK(verdict.gap->message.find("PT_INTERP") != std::string::npos);
    CHECK(verdict.gap->message.find("the interpreter of " + t.host("/bin/doca_caps")) !=
          std::string::npos);
}

TEST_CASE("DT_AUXILIARY and DT_FILTER filtees are mapped like DT_NEEDED, and judged") {
    if (!test::can_build_native_elf()) return;
    BuiltTree t;
    t.tree.mkdir("/lib", 0755);
    t.tree.mkdir("/evil", 0777);
    const std::string filtee = t.host("/evil/libaux.so");
    t.elf.shared(test::ElfSpec(filtee).named("libaux.so"));
    for (const std::string flag : {"--auxiliary=", "--filter="}) {
        CAPTURE(flag);
        t.elf.shared(test::ElfSpec(t.host("/lib/libfiltered.so"))
                         .named("libfiltered.so")
                         .with_ld_flag(flag + filtee));
        std::string library = built_bytes(t.host("/lib/libfiltered.so"));
        auto info = read_dynamic_info(library);
        REQUIRE(info.ok());
        CHECK(info->filtees == std::vector<std::string>{filtee});
        const auto verdict = check_load_closure(t.host("/lib/libfiltered.so"), LoadKind::library,
                                                program_load_environment());
        REQUIRE(verdict.gap.has_value());
        CHECK(verdict.gap->message.find(t.host("/evil") + ": writable by others") == 0);
    }
}

TEST_CASE("a legacy hwcap subdirectory (tls, x86_64, AT_PLATFORM) of a search directory") {
    if (!test::can_build_native_elf()) return;
    BuiltTree t;
    t.tree.mkdir("/lib", 0755);
    t.tree.mkdir("/deps", 0755);
    t.elf.shared(test::ElfSpec(t.host("/deps/libdep.so")).named("libdep.so"));
    t.elf.shared(test::ElfSpec(t.host("/lib/libuser.so")).linking({t.host("/deps/libdep.so")}));
    auto env = program_load_environment();
    env.ld_library_path = t.host("/deps");
    CHECK_FALSE(
        check_load_closure(t.host("/lib/libuser.so"), LoadKind::library, env).gap.has_value());
    // glibc up to 2.36 looks in DIR/tls/ before DIR: one that others may write is refused.
    t.tree.mkdir("/deps/tls", 0777);
    const auto verdict = check_load_closure(t.host("/lib/libuser.so"), LoadKind::library, env);
    REQUIRE(verdict.gap.has_value());
    CHECK(verdict.gap->message.find(t.host("/deps/tls") + ": writable by others") == 0);
}

}  // namespace rdmi

namespace rdmi {

TEST_CASE("a hwcaps variant's soname does not stand for a name ld.so would still search for") {
    if (!test::can_build_native_elf()) return;
    BuiltTree t;
    t.tree.mkdir("/good/glibc-hwcaps/z16", 0755);
    t.tree.mkdir("/good/tls", 0755);
    t.tree.mkdir("/evil", 0777);
    t.elf.shared(test::ElfSpec(t.host("/objects/libfoo.so")).named("libfoo.so"));
    t.elf.shared(test::ElfSpec(t.host("/objects/libbar.so")).named("libbar.so"));
    t.elf.shared(test::ElfSpec(t.host("/good/libfoo.so")).named("libfoo.so"));
    t.elf.shared(test::ElfSpec(t.host("/good/libuser.so"))
                     .named("libuser.so")
                     .linking({t.host("/objects/libfoo.so"), t.host("/objects/libbar.so")})
                     .searching(t.host("/good") + ":" + t.host("/evil"), true));
    // As in the probe, libc is already mapped: only libfoo.so and libbar.so are looked for.
    LoadEnvironment env = program_load_environment();
    env.loaded.insert("libc.so.6");
    // Nothing is planted in /evil yet; whoever may write there can add libbar.so, which ld.so
    // looks for after /good (the real loader maps /evil/libbar.so and runs its constructor).
    auto verdict = check_load_closure(t.host("/good/libuser.so"), LoadKind::library, env);
    REQUIRE(verdict.gap.has_value());
    CHECK(verdict.gap->message.find(t.host("/evil") + ": writable by others") == 0);
    // A variant below /good whose soname is libbar.so: the CPU never picks glibc-hwcaps/z16 on
    // x86-64, nor tls/ on glibc 2.37+, so it does not stand for libbar.so.
    for (const std::string variant : {"/good/glibc-hwcaps/z16/libfoo.so", "/good/tls/libfoo.so"}) {
        CAPTURE(variant);
        t.elf.shared(test::ElfSpec(t.host(variant)).named("libbar.so"));
        verdict = check_load_closure(t.host("/good/libuser.so"), LoadKind::library, env);
        REQUIRE(verdict.gap.has_value());
        CHECK(verdict.gap->message.find(t.host("/evil") + ": writable by others") == 0);
        CHECK(verdict.gap->message.find("libbar.so (needed by " + t.host("/good/libuser.so")) !=
              std::string::npos);
        std::filesystem::remove(t.host(variant));
    }
    // A private /evil passes, and the variant is still judged as a member.
    t.tree.chmod("/evil", 0755);
    t.elf.shared(test::ElfSpec(t.host("/good/glibc-hwcaps/z16/libfoo.so")).named("libbar.so"));
    verdict = check_load_closure(t.host("/good/libuser.so"), LoadKind::library, env);
    CHECK_FALSE(verdict.gap.has_value());
    CHECK(closure_has(verdict, t.host("/good/glibc-hwcaps/z16/libfoo.so")));
}

}  // namespace rdmi

namespace rdmi {

TEST_CASE("a ';' in DT_RUNPATH or DT_RPATH is part of a directory's name, as ld.so splits them") {
    if (!test::can_build_native_elf()) return;
    BuiltTree t;
    t.tree.mkdir("/lib", 0755);
    t.tree.mkdir("/w;x", 0777);
    t.elf.shared(test::ElfSpec(t.host("/objects/libbar.so")).named("libbar.so"));
    for (const bool runpath : {true, false}) {
        CAPTURE(runpath);
        // ld.so searches the one directory ".../w;x"; split at ';', it was ".../w" (missing,
        // judged by the private tree) and "x" (relative: the working directory "/").
        t.elf.shared(test::ElfSpec(t.host("/lib/libuser.so"))
                         .named("libuser.so")
                         .linking({t.host("/objects/libbar.so")})
                         .searching(t.host("/w;x"), runpath));
        LoadEnvironment env = program_load_environment();
        env.cwd = "/";
        const auto verdict = check_load_closure(t.host("/lib/libuser.so"), LoadKind::library, env);
        REQUIRE(verdict.gap.has_value());
        CHECK(verdict.gap->message.find(t.host("/w;x") + ": writable by others") == 0);
    }
}

}  // namespace rdmi
