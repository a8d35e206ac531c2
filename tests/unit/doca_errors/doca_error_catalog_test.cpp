// The DOCA error catalog: every value 0..31 explained with three runnable checks, the spellings
// the `error` command accepts, the closest names for a typo, and the call causes.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "api/doca_types.hpp"
#include "doca_errors/doca_error_catalog.hpp"

namespace rdmi::doca {

constexpr auto npos = std::string::npos;

TEST_CASE("every doca_error_t value has a name, a description, a layer and its checks") {
    const auto& entries = error_entries();
    REQUIRE(entries.size() == 32);
    std::set<std::string_view> names;
    for (const auto& entry : entries) {
        CAPTURE(entry.number);
        CHECK(entry.number == static_cast<int>(&entry - entries.data()));
        CHECK(names.insert(entry.name).second);
        CHECK_FALSE(entry.description.empty());
        CHECK_FALSE(entry.meaning.empty());
        for (const auto& check : entry.checks) {
            if (entry.number == 0) {
                CHECK(check.command.empty());
                continue;
            }
            CHECK(check.command.substr(0, 11) == "rdmi-probe ");
            CHECK_FALSE(check.what.empty());
        }
    }
    CHECK(entries[18].name == "DOCA_ERROR_BAD_STATE");
    CHECK(entries[18].layer == ErrorLayer::lifecycle_order);
    CHECK(entries[21].layer == ErrorLayer::below_doca);
    CHECK(entries[4].layer == ErrorLayer::unsupported);
    CHECK(entries[31].description == "Device experienced a fatal error");
}

TEST_CASE("find_error accepts the full name, the short name, lower case, a dash and the number") {
    for (const char* query :
         {"DOCA_ERROR_BAD_STATE", "BAD_STATE", "bad_state", "bad-state", "Bad_State", "18"}) {
        CAPTURE(query);
        const auto entry = find_error(query);
        REQUIRE(entry.has_value());
        CHECK(entry->number == 18);
    }
    CHECK(find_error("DOCA_SUCCESS")->number == 0);
    CHECK(find_error("success")->number == 0);
    CHECK(find_error("0")->number == 0);
    CHECK(find_error("31")->number == 31);
    for (const char* bad : {"", "32", "-1", "18x", " 18", "0x12", "BAD_STAT", "DOCA_ERROR_",
                            "99999999999999999999"}) {
        CAPTURE(bad);
        CHECK_FALSE(find_error(bad).has_value());
    }
    CHECK_FALSE(find_error(std::string(1000, 'A')).has_value());
}

TEST_CASE("closest_error_names ranks by edit distance over the short names") {
    auto names = closest_error_names("BAD_STAT");
    REQUIRE(names.size() == 3);
    CHECK(names[0] == "DOCA_ERROR_BAD_STATE");
    names = closest_error_names("doca_error_not_suported");
    CHECK(names[0] == "DOCA_ERROR_NOT_SUPPORTED");
    CHECK(closest_error_names("x", 1).size() == 1);
    CHECK(closest_error_names(std::string(10000, 'Z')).size() == 3);  // bounded input
}

TEST_CASE("call causes: the RDMI attach after start, and nothing invented for other pairs") {
    const auto cause = find_call_cause("doca_rdmi_connection_dpa_completion_attach", 18);
    REQUIRE(cause.has_value());
    CHECK(std::string(cause->cause).rfind("attached after doca_ctx_start", 0) == 0);
    CHECK_FALSE(find_call_cause("doca_rdmi_connection_dpa_completion_attach", 6).has_value());
    CHECK(known_call("doca_rdmi_connection_dpa_completion_attach"));
    CHECK_FALSE(known_call("doca_nothing"));
    for (const auto& c : call_causes()) {
        CAPTURE(c.call);
        CHECK(c.call.substr(0, 5) == "doca_");
        CHECK(find_error(std::to_string(c.number)).has_value());
        CHECK_FALSE(c.fix.empty());
    }
}

TEST_CASE("descriptions are doca_error.h's own text") {
    const auto& entries = error_entries();
    CHECK(entries[14].description == "Not Connected");
    CHECK(entries[22].description == "An unexpected scenario was detected");
    // NOT_CONNECTED is a missing progress engine, datapath or device, not a network link.
    CHECK(entries[14].layer != ErrorLayer::data_path);
    for (const auto& check : entries[14].checks) CHECK(check.command.find("port-active") == npos);
}

TEST_CASE("call causes: what the headers document, and no BAD_STATE they do not list") {
    const auto mmap = find_call_cause("doca_mmap_dev_get_dpa_handle", 2);
    REQUIRE(mmap.has_value());
    CHECK(mmap->basis == CauseBasis::documented);
    CHECK(mmap->documented_in == "doca_mmap.h");
    CHECK(std::string(mmap->cause).find("not started") != npos);
    CHECK_FALSE(find_call_cause("doca_mmap_dev_get_dpa_handle", 18).has_value());

    const auto start = find_call_cause("doca_ctx_start", 14);
    REQUIRE(start.has_value());
    CHECK(start->documented_in == "doca_ctx.h");
    CHECK(std::string(start->cause).find("progress engine") != npos);
    CHECK(std::string(start->fix).find("doca_ctx_set_datapath_on_dpa") != npos);
    CHECK_FALSE(find_call_cause("doca_ctx_start", 18).has_value());
    CHECK_FALSE(find_call_cause("doca_dpa_start", 18).has_value());

    const auto open = find_call_cause("doca_dev_open", 14);
    REQUIRE(open.has_value());
    CHECK(open->documented_in == "doca_dev.h");
    CHECK(std::string(open->cause).find("could not be opened") != npos);
}

TEST_CASE("every call cause says whether it is documented (and where) or inferred") {
    for (const auto& c : call_causes()) {
        CAPTURE(c.call);
        if (c.basis == CauseBasis::documented) {
            CHECK(c.documented_in.ends_with(".h"));
            CHECK(basis_text(c) == "documented in " + std::string(c.documented_in));
        } else {
            CHECK(c.documented_in.empty());
            CHECK(basis_text(c).starts_with("inferred from the lifecycle"));
        }
    }
    CHECK(find_call_cause("doca_rdmi_connection_dpa_completion_attach", 18)->basis ==
          CauseBasis::inferred);
    CHECK(to_string(CauseBasis::documented) == "documented");
    CHECK(to_string(CauseBasis::inferred) == "inferred");
}

TEST_CASE("layer names are stable and distinct") {
    std::set<std::string_view> seen;
    for (auto layer : {ErrorLayer::none, ErrorLayer::configuration, ErrorLayer::lifecycle_order,
                       ErrorLayer::unsupported, ErrorLayer::version, ErrorLayer::resources,
                       ErrorLayer::transient, ErrorLayer::data_path, ErrorLayer::below_doca,
                       ErrorLayer::internal}) {
        CHECK(seen.insert(to_string(layer)).second);
        CHECK_FALSE(describe(layer).empty());
    }
    CHECK(to_string(ErrorLayer::lifecycle_order) == "lifecycle-order");
}

}  // namespace rdmi::doca
