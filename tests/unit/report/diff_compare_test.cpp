// Tests for the field-by-field comparison.
#include <doctest/doctest.h>

#include <algorithm>

#include "json/json_input.hpp"
#include "report/diff_document.hpp"

namespace rdmi::diff {
namespace {

TEST_CASE("equal documents have no changes; run fields and x_rdmi_probe are ignored") {
    Json a = Json::parse(R"({"side": "host", "snapshot_at": "1", "x_rdmi_probe": {"a": 1},
                            "run": {"generated_at": "x", "duration_ms": 1}})");
    Json b = Json::parse(R"({"side": "host", "snapshot_at": "2", "x_rdmi_probe": {"a": 2},
                            "run": {"generated_at": "y", "duration_ms": 2}})");
    CHECK(compare(a, b, {}).empty());
    CHECK(compare(a, b, Options{true}).size() == 4);
}

TEST_CASE("a PCIe link that trained lower shows in a diff of two state documents") {
    // x_rdmi_probe.pcie_link is a fact about the host (as consistency and libraries are), so it
    // is compared without --all; the rest of x_rdmi_probe still is not.
    Json a = Json::parse(R"({"side": "host", "x_rdmi_probe": {"generated_at": "1",
        "pcie_link": {"functions": [{"function": "0000:03:00.0", "status": "pass"}]}}})");
    Json b = Json::parse(R"({"side": "host", "x_rdmi_probe": {"generated_at": "2",
        "pcie_link": {"functions": [{"function": "0000:03:00.0", "status": "warn"}]}}})");
    auto changes = compare(a, b, {});
    REQUIRE(changes.size() == 1);
    CHECK(changes[0].pointer == "/x_rdmi_probe/pcie_link/functions/0/status");
    CHECK(changes[0].label == "x_rdmi_probe.pcie_link.functions[function=0000:03:00.0].status");
    CHECK(changes[0].kind == ChangeKind::changed);
}

TEST_CASE("the ignored list excepts exactly the x_rdmi_probe members compare() compares") {
    const std::string ignored = ignored_fields({}).at(0);
    for (const std::string key : {"consistency", "libraries", "pcie_link", "host", "document"}) {
        CAPTURE(key);
        Json a = Json::parse(R"({"side": "host", "x_rdmi_probe": {}})");
        Json b = a;
        a["x_rdmi_probe"][key] = 1;
        b["x_rdmi_probe"][key] = 2;
        const bool compared = !compare(a, b, {}).empty();
        const bool excepted = ignored.find("/x_rdmi_probe/" + key) != std::string::npos;
        CHECK(compared == excepted);
    }
}

TEST_CASE("removing a report's first fix-plan step is one removal, not a renumbering") {
    // The steps as two runs of the same host write them, before and after its NVIDIA device
    // was fitted: every later step moved up by one.
    Json a = Json::parse(R"({"fix_plan": [
        {"step": 1, "id": "nvidia-device", "action": "run on a host with a BlueField-3",
         "resolves": ["rdmi-dpa-device"], "fixes_failure": true},
        {"step": 2, "id": "install-doca", "action": "install the DOCA SDK",
         "resolves": ["doca-prefix", "dpacc"], "fixes_failure": true},
        {"step": 3, "id": "hugepages", "action": "reserve hugepages",
         "resolves": ["hugepages"], "fixes_failure": false}]})");
    Json b = Json::parse(R"({"fix_plan": [
        {"step": 1, "id": "install-doca", "action": "install the DOCA SDK",
         "resolves": ["doca-prefix", "dpacc"], "fixes_failure": true},
        {"step": 2, "id": "hugepages", "action": "reserve hugepages",
         "resolves": ["hugepages"], "fixes_failure": false}]})");
    auto changes = compare(a, b, {});
    REQUIRE(changes.size() == 1);
    CHECK(changes[0].pointer == "/fix_plan/0");
    CHECK(changes[0].label == "fix_plan[id=nvidia-device]");
    CHECK(changes[0].kind == ChangeKind::removed);
    // --all compares every field, the step numbers too; the ignored list says they were not.
    CHECK(compare(a, b, Options{true}).size() == 3);
    const auto ignored = ignored_fields({}, "report");
    CHECK(std::find(ignored.begin(), ignored.end(), "/fix_plan/*/step (steps are matched by id)") !=
          ignored.end());
    CHECK(ignored_fields({}, "doca-env").size() == ignored.size() - 1);
    // A member of a step that moved up is named at its own index on each side.
    b["fix_plan"][0]["action"] = "install DOCA 3.3";
    changes = compare(a, b, {});
    REQUIRE(changes.size() == 2);
    CHECK(changes[1].pointer == "/fix_plan/1/action");
    CHECK(changes[1].b_pointer == "/fix_plan/0/action");
    CHECK(changes[1].label == "fix_plan[id=install-doca].action");
}

TEST_CASE("/run and /tool/version are how a document was made, not what it found") {
    // One host probed from two root paths, by two builds of rdmi-probe.
    Json a = Json::parse(R"({"schema": "urn:rdmi-probe:schema:report",
        "tool": {"name": "rdmi-probe", "version": "1.4.0"},
        "run": {"root": "/srv/a", "live": false, "timeout_s": 30}, "result": "pass"})");
    Json b = Json::parse(R"({"schema": "urn:rdmi-probe:schema:report",
        "tool": {"name": "rdmi-probe", "version": "1.5.0"},
        "run": {"root": "/srv/other/b", "live": false, "timeout_s": 60}, "result": "pass"})");
    CHECK(compare(a, b, {}).empty());
    CHECK(compare(a, b, Options{true}).size() == 3);
    // Below the top a member named run or tool is an ordinary one.
    Json nested_a = Json::parse(R"({"x": {"run": 1, "tool": {"version": 1}}})");
    Json nested_b = Json::parse(R"({"x": {"run": 2, "tool": {"version": 2}}})");
    CHECK(compare(nested_a, nested_b, {}).size() == 2);
    const auto ignored = ignored_fields({});
    CHECK(std::find(ignored.begin(), ignored.end(), "/run") != ignored.end());
    CHECK(std::find(ignored.begin(), ignored.end(), "/tool/version") != ignored.end());
}

TEST_CASE("ports, GIDs and version-matrix entries are matched by what identifies them") {
    // Port 1 went away: one removal, not port 2 reported as port 1 changed and a removal.
    Json a = Json::parse(R"({"ports": [{"number": 1, "state": "ACTIVE"},
                                       {"number": 2, "state": "DOWN"}]})");
    Json b = Json::parse(R"({"ports": [{"number": 2, "state": "DOWN"}]})");
    auto ports = compare(a, b, {});
    REQUIRE(ports.size() == 1);
    CHECK(ports[0].kind == ChangeKind::removed);
    CHECK(ports[0].pointer == "/ports/0");
    CHECK(ports[0].label == "ports[number=1]");

    Json gids_a = Json::parse(R"({"port_num": 1, "gids": [{"index": 0, "gid": "fe80::1"},
                                                          {"index": 1, "gid": "fe80::2"}]})");
    Json gids_b = Json::parse(R"({"port_num": 1, "gids": [{"index": 1, "gid": "fe80::3"}]})");
    auto gids = compare(Json::array({gids_a}), Json::array({gids_b}), {});
    REQUIRE(gids.size() == 2);
    CHECK(gids[0].label == "[port_num=1].gids[index=0]");
    CHECK(gids[1].pointer == "/0/gids/1/gid");
    CHECK(gids[1].b_pointer == "/0/gids/0/gid");

    Json matrix_a = Json::parse(R"([{"library": "doca_dpa", "capability": "a", "available": true},
                                    {"library": "doca_dpa", "capability": "b", "available": true}])");
    Json matrix_b =
        Json::parse(R"([{"library": "doca_dpa", "capability": "b", "available": true}])");
    auto matrix = compare(matrix_a, matrix_b, {});
    REQUIRE(matrix.size() == 1);
    CHECK(matrix[0].label == "[library=doca_dpa,capability=a]");
}

TEST_CASE("changed, added and removed fields with JSON pointers") {
    Json a = Json::parse(R"({"side": "host", "a/b": 1, "gone": true})");
    Json b = Json::parse(R"({"side": "dpu", "a/b": 1, "new": null})");
    auto changes = compare(a, b, {});
    REQUIRE(changes.size() == 3);
    CHECK(changes[0].pointer == "/side");
    CHECK(changes[0].kind == ChangeKind::changed);
    CHECK(changes[1].pointer == "/gone");
    CHECK(changes[1].kind == ChangeKind::removed);
    CHECK_FALSE(changes[1].b.has_value());
    CHECK(changes[2].pointer == "/new");
    CHECK(changes[2].kind == ChangeKind::added);
    CHECK(changes[2].b->is_null());
}

TEST_CASE("a document from before the warn status counts no warnings: absent equals 0") {
    Json old_doc = Json::parse(R"({"result": "pass", "summary": {"pass": 1, "info": 0}})");
    Json zero = Json::parse(R"({"result": "pass", "summary": {"pass": 1, "info": 0, "warn": 0}})");
    CHECK(compare(old_doc, zero, {}).empty());
    CHECK(compare(zero, old_doc, {}).empty());
    Json warned =
        Json::parse(R"({"result": "warn", "summary": {"pass": 1, "info": 0, "warn": 1}})");
    auto changes = compare(old_doc, warned, {});
    REQUIRE(changes.size() == 2);
    CHECK(changes[0].pointer == "/result");
    CHECK(changes[1].pointer == "/summary/warn");
    CHECK(changes[1].kind == ChangeKind::added);
    // Only the summary's count: a "warn": 0 elsewhere is an ordinary field.
    CHECK(compare(Json::parse("{}"), Json::parse(R"({"warn": 0})"), {}).size() == 1);
}

TEST_CASE("arrays: identity keys, composite keys, scalar sets, positions") {
    Json a = Json::parse(R"({"libraries": [{"pkg_config_name": "doca-a", "installed": true},
                                           {"pkg_config_name": "doca-b", "installed": true}]})");
    Json b = Json::parse(R"({"libraries": [{"pkg_config_name": "doca-b", "installed": false},
                                           {"pkg_config_name": "doca-c", "installed": true}]})");
    auto c = compare(a, b, {});
    REQUIRE(c.size() == 3);
    CHECK(c[0].pointer == "/libraries/0");
    CHECK(c[0].label == "libraries[pkg_config_name=doca-a]");
    CHECK(c[0].kind == ChangeKind::removed);
    CHECK(c[1].pointer == "/libraries/1/installed");
    CHECK(c[1].b_pointer == "/libraries/0/installed");
    CHECK(c[1].label == "libraries[pkg_config_name=doca-b].installed");
    CHECK(c[2].kind == ChangeKind::added);
    CHECK(c[2].pointer == "/libraries/1");
    CHECK_FALSE(c[2].b_pointer.has_value());

    Json d1 = Json::parse(R"([{"pcie_address": "0000:03:00.0", "kind": "PF", "mtu": 1},
                             {"pcie_address": "0000:03:00.0", "kind": "SF", "mtu": 2}])");
    Json d2 = Json::parse(R"([{"pcie_address": "0000:03:00.0", "kind": "SF", "mtu": 3},
                             {"pcie_address": "0000:03:00.0", "kind": "PF", "mtu": 1}])");
    auto dc = compare(d1, d2, {});
    REQUIRE(dc.size() == 1);
    CHECK(dc[0].pointer == "/1/mtu");
    CHECK(dc[0].b_pointer == "/0/mtu");
    CHECK(dc[0].label == "[pcie_address=0000:03:00.0,kind=SF].mtu");

    auto sets =
        compare(Json::parse(R"({"m": ["a", "b"]})"), Json::parse(R"({"m": ["b", "c"]})"), {});
    REQUIRE(sets.size() == 2);
    CHECK(sets[0].kind == ChangeKind::removed);
    CHECK(*sets[0].a == "a");
    CHECK(sets[0].pointer == "/m/0");
    CHECK(*sets[1].b == "c");
    CHECK(sets[1].pointer == "/m/1");
    CHECK(sets[1].label == "m");

    auto pos = compare(Json::parse("[[1], [2]]"), Json::parse("[[1]]"), {});
    REQUIRE(pos.size() == 1);
    CHECK(pos[0].pointer == "/1");
    CHECK(pos[0].kind == ChangeKind::removed);
}

TEST_CASE("type changes are changes; the diff document and text agree") {
    auto c = compare(Json::parse(R"({"mtu": 1500})"), Json::parse(R"({"mtu": "1500"})"), {});
    REQUIRE(c.size() == 1);
    Outcome o{"collect-state", "/a", "/b", "collect-host-state", std::nullopt, {}, c, std::nullopt};
    Json doc = to_json(o);
    CHECK(doc["equal"] == false);
    CHECK(doc["b"]["document"].is_null());
    CHECK(doc["changes"][0]["b"] == "1500");
    const std::string text = to_text(text::TextStyle{}, o);
    CHECK(text.find("~ /mtu: 1500 -> \"1500\"") != std::string::npos);
    // A moved element's member: both pointers, and its identity beside them.
    auto moved = compare(Json::parse(R"({"l": [{"name": "x", "v": 1}, {"name": "y", "v": 1}]})"),
                         Json::parse(R"({"l": [{"name": "y", "v": 2}]})"), {});
    Outcome m{"report", "/a", "/b", std::nullopt, std::nullopt, {}, moved, std::nullopt};
    const std::string moved_text = to_text(text::TextStyle{}, m);
    CHECK(moved_text.find("- /l/0 (l[name=x]): ") != std::string::npos);
    CHECK(moved_text.find("~ A /l/1/v, B /l/0/v (l[name=y].v): 1 -> 2") != std::string::npos);
    const Json moved_doc = to_json(m);
    CHECK(moved_doc["changes"][1]["b_pointer"] == "/l/0/v");
    CHECK(moved_doc["changes"][1]["label"] == "l[name=y].v");
    CHECK_FALSE(moved_doc["changes"][0].contains("b_pointer"));
    CHECK(text.find("1 difference") != std::string::npos);
}

TEST_CASE("groups: /version and its members are versions, /version_matrix is not") {
    Json a = Json::parse(R"({"version": {"consistent": true}, "version_matrix": {"valid": true},
                            "checks": [1]})");
    Json b = Json::parse(R"({"version": {"consistent": false}, "version_matrix": {"valid": false},
                            "checks": [2]})");
    Outcome o{"report",          "/a",        "/b", std::nullopt, std::nullopt, {},
              compare(a, b, {}), std::nullopt};
    const Json doc = to_json(o);
    REQUIRE(doc["groups"].size() == 3);
    CHECK(doc["groups"][0]["changes"] == Json::parse("[0]"));
    CHECK(doc["changes"][0]["pointer"] == "/version/consistent");
    CHECK(doc["groups"][2]["changes"] == Json::parse("[1]"));
    CHECK(doc["changes"][1]["pointer"] == "/version_matrix/valid");
}

// Parsed the way `diff` reads its inputs: numbers no double holds keep their text.
Json saved(std::string_view text) {
    auto parsed = parse_json_input<Json>(text, "in.json", json_input::kSavedDocument);
    REQUIRE(parsed);
    return std::move(parsed).value();
}

TEST_CASE("numbers compare by the number they spell, past 64 bits and past a double's digits") {
    struct Pair {
        const char* a;
        const char* b;
        bool equal;
    };
    for (const Pair& pair :
         {Pair{"18446744073709551616", "18446744073709551617", false},
          Pair{"-9223372036854775809", "-9223372036854775810", false},
          Pair{"9007199254740993", "9007199254740992.0", false},
          Pair{"0.10000000000000000001", "0.1", false}, Pair{"1e-400", "0", false},
          Pair{"18446744073709551617", "18446744073709551617", true}, Pair{"1", "1.0", true},
          Pair{"1e20", "100000000000000000000", true}, Pair{"\"1\"", "1", false}}) {
        CAPTURE(pair.a);
        CAPTURE(pair.b);
        const Json a = saved(std::string(R"({"n": )") + pair.a + "}");
        const Json b = saved(std::string(R"({"n": )") + pair.b + "}");
        CHECK(compare(a, b, {}).empty() == pair.equal);
    }
}

TEST_CASE("scalar arrays compare as sets of numbers by value") {
    const Json a = saved(R"({"s": [18446744073709551616, 1.5]})");
    const Json b = saved(R"({"s": [15e-1, 18446744073709551617]})");
    const auto changes = compare(a, b, {});
    REQUIRE(changes.size() == 2);
    CHECK(changes[0].kind == ChangeKind::removed);
    CHECK(changes[1].kind == ChangeKind::added);
    CHECK(compare(a, saved(R"({"s": [1.50, 18446744073709551616]})"), {}).empty());
}

TEST_CASE("a kept number shows its digits in the text and the nearest double in JSON") {
    const Json a = saved(R"({"n": 18446744073709551616})");
    const Json b = saved(R"({"n": 18446744073709551617})");
    Outcome o{"report",          "/a",        "/b", std::nullopt, std::nullopt, {},
              compare(a, b, {}), std::nullopt};
    const std::string text = to_text(text::TextStyle{}, o);
    CHECK(text.find("~ /n: 18446744073709551616 -> 18446744073709551617") != std::string::npos);
    const Json doc = to_json(o);
    CHECK(doc["changes"][0]["b"].is_number_float());
    CHECK(doc["equal"] == false);
}

}  // namespace
}  // namespace rdmi::diff
