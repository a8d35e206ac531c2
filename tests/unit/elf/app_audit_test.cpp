// Tests for audit_application(): the fixture app as executable, object and archive, against
// the library it was linked with and against an older one.
#include "elf/app_audit.hpp"

#include <doctest/doctest.h>

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

}  // namespace rdmi
