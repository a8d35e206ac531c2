// Tests for audit_application(): the fixture app as executable, object and archive, against
// the library it was linked with and against an older one.
#include "elf/app_audit.hpp"

#include <doctest/doctest.h>

#include "elf/compiler_bytecode.hpp"

#include <algorithm>

#include "unit/elf/fixture_audit.hpp"

namespace rdmi {
namespace {

const AppDependency& dependency(const AppAudit& audit, std::string_view name) {
    const auto it = std::find_if(audit.dependencies.begin(), audit.dependencies.end(),
                                 [&](const AppDependency& d) { return d.name == name; });
    REQUIRE_MESSAGE(it != audit.dependencies.end(), name);
    return *it;
}

struct Audited {
    ElfImage image;
    LibraryAudit audit;
};

Audited audited(const char* path) {
    Audited out{test::fixture_image(path), {}};
    out.audit = test::classify_fixture(out.image, {}, test::fixture_header_decls());
    return out;
}

}  // namespace

TEST_CASE("audit_application: the fixture executable against the library it was linked with") {
    const auto lib = audited(fixture::kVersionedLib);
    const std::vector<AuditedLibrary> libs = {{&lib.image, &lib.audit}};
    AppAuditOptions options;
    options.accepted_experimental = {"doca_rdmi_connection_create", "doca_rdmi_poster_post"};
    const auto app = test::fixture_image(fixture::kAppExecutable);
    const auto audit = audit_application(app, libs, options);
    CHECK(audit.kind == ElfKind::shared_object);  // a PIE executable is ET_DYN
    CHECK_FALSE(audit.is_archive);
    REQUIRE(audit.dependencies.size() == 6);
    CHECK(audit.missing.empty());
    CHECK(audit.missing_versions.empty());
    REQUIRE(audit.version_needs.size() == 2);
    CHECK(std::all_of(audit.version_needs.begin(), audit.version_needs.end(),
                      [](const AppVersionNeed& n) { return n.provided; }));
    const auto& create = dependency(audit, "doca_rdmi_connection_create");
    CHECK(create.version == "EXPERIMENTAL");
    CHECK(create.version_file == "libdoca_rdmi.so.3");
    CHECK(create.resolution == Resolution::provided);
    CHECK(create.provider == "libdoca_rdmi.so.3");
    CHECK(create.stability == Stability::experimental);
    CHECK(create.accepted);
    const auto& destroy = dependency(audit, "doca_rdmi_connection_destroy");
    CHECK(destroy.version == "DOCA_3.3");
    CHECK(destroy.stability == Stability::stable);
    // Copy-relocated data is defined in the executable but still needed from the library.
    const auto& data = dependency(audit, "doca_rdmi_abi_version");
    CHECK(data.resolution == Resolution::provided);
    CHECK(audit.experimental.size() == 4);
    CHECK(audit.unaccepted_experimental ==
          std::vector<std::string>{"doca_rdmi_connection_get_app_rq_info",
                                   "doca_rdmi_poster_create"});
}

TEST_CASE("audit_application: the same executable against the older library fails to load") {
    const auto lib = audited(fixture::kOlderLib);
    const std::vector<AuditedLibrary> libs = {{&lib.image, &lib.audit}};
    const auto app = test::fixture_image(fixture::kAppExecutable);
    const auto audit = audit_application(app, libs, {});
    CHECK(audit.missing_versions == std::vector<std::string>{"libdoca_rdmi.so.3:DOCA_3.3"});
    CHECK(dependency(audit, "doca_rdmi_connection_get_app_rq_info").resolution ==
          Resolution::missing_symbol);
    CHECK(dependency(audit, "doca_rdmi_connection_destroy").resolution ==
          Resolution::missing_version);
    CHECK(dependency(audit, "doca_rdmi_connection_create").resolution == Resolution::provided);
    CHECK(audit.missing == std::vector<std::string>{"doca_rdmi_abi_version",
                                                    "doca_rdmi_connection_destroy",
                                                    "doca_rdmi_connection_get_app_rq_info"});
    CHECK(audit.unaccepted_experimental.size() == 4);
}

TEST_CASE("audit_application: object file and archive resolve by name only") {
    const auto lib = audited(fixture::kOlderLib);
    const std::vector<AuditedLibrary> libs = {{&lib.image, &lib.audit}};
    const AppAuditOptions options{"doca_rdmi_", {"doca_rdmi_poster_create"}};

    auto object = audit_application_bytes(test::read_host_file(fixture::kAppObject), libs, options);
    REQUIRE(object.ok());
    CHECK(object->kind == ElfKind::relocatable);
    CHECK(object->version_needs.empty());
    CHECK(object->dependencies.size() == 6);
    CHECK(object->missing == std::vector<std::string>{"doca_rdmi_connection_get_app_rq_info"});
    // Unversioned: bound to the default version, which the older library has for these.
    CHECK(dependency(*object, "doca_rdmi_connection_destroy").resolution == Resolution::provided);
    CHECK(dependency(*object, "doca_rdmi_connection_destroy").stability == Stability::stable);
    CHECK(dependency(*object, "doca_rdmi_poster_post").stability == Stability::experimental);
    CHECK(dependency(*object, "doca_rdmi_poster_create").accepted);
    CHECK(object->unaccepted_experimental ==
          std::vector<std::string>{"doca_rdmi_connection_create", "doca_rdmi_poster_post"});
    // Declared in the headers but absent from the older library: missing, stability unknown.
    CHECK(dependency(*object, "doca_rdmi_connection_get_app_rq_info").stability ==
          Stability::unknown);

    auto archive =
        audit_application_bytes(test::read_host_file(fixture::kAppArchive), libs, options);
    REQUIRE(archive.ok());
    CHECK(archive->is_archive);
    CHECK(archive->dependencies.size() == 6);
    CHECK(dependency(*archive, "doca_rdmi_poster_post").member == "rdmi_app.c.o");
    CHECK(archive->missing == object->missing);
}

TEST_CASE("audit_application: a new link binds only a default (@@) or unversioned definition") {
    // A name the library defines only as a non-default version (name@DOCA_1.0, kept for
    // binaries linked earlier) cannot be bound by a new link: ld refuses it, so an object that
    // needs it is missing a version. Beside it, a name with a default version resolves.
    auto needed = [](const char* name) {
        ElfSymbol s;
        s.name = name;
        s.binding = SymbolBinding::global;
        return s;
    };
    ElfImage lib;
    lib.kind = ElfKind::shared_object;
    lib.soname = "libdoca_x.so.1";
    lib.dynamic_symbols = {test::exported_function("doca_x_old", "DOCA_1.0", true),
                           test::exported_function("doca_x_new", "DOCA_2.0"),
                           test::exported_function("doca_x_plain")};
    ElfImage object;
    object.kind = ElfKind::relocatable;
    object.static_symbols = {needed("doca_x_old"), needed("doca_x_new"), needed("doca_x_plain")};
    const std::vector<AuditedLibrary> libs = {{&lib, nullptr}};
    const auto audit = audit_application(object, libs, {});
    CHECK(dependency(audit, "doca_x_new").resolution == Resolution::provided);
    CHECK(dependency(audit, "doca_x_plain").resolution == Resolution::provided);
    CHECK(dependency(audit, "doca_x_old").resolution == Resolution::missing_version);
    CHECK(audit.missing == std::vector<std::string>{"doca_x_old"});
}

TEST_CASE("audit_application: a versioned need is looked up only in the file it names") {
    // The loader binds doca_x@DOCA_2.0 (from libdoca_a.so.1) in libdoca_a.so.1 alone: another
    // library defining the same name and version does not provide it.
    ElfSymbol other;
    other.name = "doca_x";
    other.type = SymbolType::func;
    other.binding = SymbolBinding::global;
    other.defined = true;
    other.section = ".text";
    other.version = "DOCA_2.0";
    ElfImage lib_b;
    lib_b.kind = ElfKind::shared_object;
    lib_b.soname = "libdoca_b.so.1";
    lib_b.dynamic_symbols = {other};
    ElfImage lib_a;
    lib_a.kind = ElfKind::shared_object;
    lib_a.soname = "libdoca_a.so.1";
    ElfSymbol need;
    need.name = "doca_x";
    need.binding = SymbolBinding::global;
    need.version = "DOCA_2.0";
    need.version_hidden = true;
    need.version_file = "libdoca_a.so.1";
    ElfImage app;
    app.kind = ElfKind::executable;
    app.dynamic_symbols = {need};

    // The named file is audited and lacks the symbol: missing, even though libdoca_b has it.
    const std::vector<AuditedLibrary> both = {{&lib_b, nullptr}, {&lib_a, nullptr}};
    const auto audit = audit_application(app, both, {});
    CHECK(dependency(audit, "doca_x").resolution == Resolution::missing_symbol);
    CHECK(audit.missing == std::vector<std::string>{"doca_x"});
    // The named file is not among the audited libraries: not audited, never "provided".
    const std::vector<AuditedLibrary> only_b = {{&lib_b, nullptr}};
    const auto unaudited = audit_application(app, only_b, {});
    CHECK(dependency(unaudited, "doca_x").resolution == Resolution::not_audited);
    CHECK(unaudited.missing.empty());
    // The control: the named file defining it provides it.
    lib_a.dynamic_symbols = {other};
    const auto provided = audit_application(app, both, {});
    CHECK(dependency(provided, "doca_x").resolution == Resolution::provided);
    CHECK(dependency(provided, "doca_x").provider == "libdoca_a.so.1");
}

TEST_CASE("audit_application: unaudited files and unreadable input") {
    const auto app = test::fixture_image(fixture::kAppExecutable);
    const auto audit = audit_application(app, {}, {});
    CHECK(audit.dependencies.size() == 6);
    CHECK(audit.missing.empty());
    CHECK(std::all_of(
        audit.dependencies.begin(), audit.dependencies.end(),
        [](const AppDependency& d) { return d.resolution == Resolution::not_audited; }));
    // Still experimental: the app binds to the EXPERIMENTAL node by name.
    CHECK(dependency(audit, "doca_rdmi_poster_post").stability == Stability::experimental);
    CHECK(audit.version_needs.empty());

    auto garbage = audit_application_bytes("not an elf", {}, {});
    REQUIRE_FALSE(garbage.ok());
    CHECK(garbage.gap().reason == GapReason::malformed);
    auto bad_archive = audit_application_bytes("!<arch>\nshort", {}, {});
    REQUIRE_FALSE(bad_archive.ok());
    CHECK(to_string(Resolution::missing_version) == "missing-version");
}

TEST_CASE("audit_application_bytes: LTO bytecode is unreadable, never 'no dependencies'") {
    const auto lib = audited(fixture::kVersionedLib);
    const std::vector<AuditedLibrary> libs = {{&lib.image, &lib.audit}};
    if (fixture::kHaveGccLto) {
        auto slim = audit_application_bytes(test::read_host_file(fixture::kAppSlimLto), libs, {});
        REQUIRE(slim.ok());
        CHECK(slim->unreadable == kGccLtoBytecode);
        CHECK(slim->bytecode);
        CHECK(slim->dependencies.empty());
        auto archive =
            audit_application_bytes(test::read_host_file(fixture::kAppSlimLtoArchive), libs, {});
        REQUIRE(archive.ok());
        CHECK_FALSE(archive->unreadable);
        CHECK(archive->bytecode);
        CHECK(archive->unread ==
              std::vector<std::string>{std::string("rdmi_app_slim.o: ") + kGccLtoBytecode});
        // A fat object carries real code: read like any object.
        auto fat = audit_application_bytes(test::read_host_file(fixture::kAppFatLto), libs, {});
        REQUIRE(fat.ok());
        CHECK_FALSE(fat->unreadable);
        CHECK_FALSE(fat->bytecode);
        CHECK(fat->unaccepted_experimental.size() == 4);
    }
    if (fixture::kHaveBitcode) {
        auto bitcode =
            audit_application_bytes(test::read_host_file(fixture::kAppBitcode), libs, {});
        REQUIRE(bitcode.ok());
        CHECK(bitcode->unreadable == kLlvmBitcode);
    }
}

TEST_CASE("audit_application: another machine, class or byte order is foreign") {
    const auto lib = audited(fixture::kVersionedLib);
    const std::vector<AuditedLibrary> libs = {{&lib.image, &lib.audit}};
    struct Case {
        bool built;
        const char* app;
        const char* platform;
    };
    for (const Case& c :
         {Case{fixture::kHaveAarch64, fixture::kAarch64App, "aarch64, ELF64, little-endian"},
          Case{fixture::kHaveAarch64, fixture::kAarch64BeApp, "aarch64, ELF64, big-endian"},
          Case{fixture::kHaveI386, fixture::kI386App, "i386, ELF32, little-endian"}}) {
        if (!c.built) continue;
        CAPTURE(c.app);
        const auto audit = audit_application(test::fixture_image(c.app), libs, {});
        CHECK(audit.foreign == std::vector<std::string>{c.platform});
        // The names alone would resolve: only the platform says they never will.
        CHECK(audit.missing.empty());
        CHECK(audit.missing_versions.empty());
    }
    // The same platform is not foreign; an archive names the member.
    CHECK(
        audit_application(test::fixture_image(fixture::kAppExecutable), libs, {}).foreign.empty());
    if (fixture::kHaveAarch64) {
        const auto aarch64 = audited(fixture::kAarch64Lib);
        const std::vector<AuditedLibrary> arm = {{&aarch64.image, &aarch64.audit}};
        auto members = parse_archive(test::read_host_file(fixture::kAppArchive));
        REQUIRE(members.ok());
        const auto audit = audit_application(std::span<const ArchiveMember>(*members), arm, {});
        REQUIRE(audit.foreign.size() == 1);
        CHECK(audit.foreign[0].ends_with(": x86_64, ELF64, little-endian"));
    }
}

TEST_CASE("audit_application_bytes: an experimental name held as a string, not imported") {
    const auto lib = audited(fixture::kVersionedLib);
    const std::vector<AuditedLibrary> libs = {{&lib.image, &lib.audit}};
    const std::string dlsym_app = test::read_host_file(fixture::kAppDlsym);
    auto audit = audit_application_bytes(dlsym_app, libs, {});
    REQUIRE(audit.ok());
    CHECK(audit->named_in_data == std::vector<std::string>{"doca_rdmi_connection_create"});
    CHECK(audit->unaccepted_experimental.empty());
    // Accepted: nothing to say.
    AppAuditOptions accepted;
    accepted.accepted_experimental = {"doca_rdmi_connection_create"};
    auto allowed = audit_application_bytes(dlsym_app, libs, accepted);
    REQUIRE(allowed.ok());
    CHECK(allowed->named_in_data.empty());
    // The fixture app imports its experimental names: judged as imports, not named again.
    auto linked = audit_application_bytes(test::read_host_file(fixture::kAppExecutable), libs, {});
    REQUIRE(linked.ok());
    CHECK(linked->named_in_data.empty());
}

}  // namespace rdmi
