// The loopback document validated against schemas/rdmi-probe-loopback.schema.json with a real
// JSON Schema validator (python3-jsonschema), for pass, fail, timeout and skip verdicts; and the
// text rendering of a failure.
#include "report/loopback_json.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>

#include "report/loopback_text.hpp"
#include "support/temp_tree.hpp"
#include "unit/probes/loopback/loopback_fake.hpp"

namespace rdmi {

using namespace std::chrono_literals;

namespace {

bool valid(const json::Json& document) {
    test::TempTree tree;
    tree.write("/doc.json", json::dump(document));
    const std::string schema =
        std::string(RDMI_TEST_SOURCE_DIR) + "/schemas/rdmi-probe-loopback.schema.json";
    const std::string command =
        "/usr/bin/python3 -c 'import json,sys,jsonschema; s=json.load(open(sys.argv[1])); "
        "jsonschema.Draft202012Validator.check_schema(s); "
        "jsonschema.Draft202012Validator(s).validate(json.load(open(sys.argv[2])))' " +
        schema + " " + tree.host("/doc.json");
    return std::system(command.c_str()) == 0;  // NOLINT(cert-env33-c): fixed command, test only
}

RunInfo run_info() {
    RunInfo run;
    run.generated_at = "2025-01-01T00:00:00Z";
    run.timeout_s = 10;
    return run;
}

}  // namespace

TEST_CASE("every kind of loopback document validates against its schema") {
    auto& fake = test::FakeDoca::get();
    std::vector<std::pair<const char*, const char*>> plans{{"", ""},
                                                           {"corrupt", "5"},
                                                           {"kernel", "write_never"},
                                                           {"devices", "none"},
                                                           {"lenient", "1"},
                                                           {"fail", "doca_dpa_start#1=18"}};
    for (const auto& [key, value] : plans) {
        const auto& plan = key;  // clang 14 lambdas cannot capture a binding
        CAPTURE(plan);
        fake.reset();
        if (*key != '\0') fake.set(key, value);
        auto options = test::fake_options(3);
        options.lifecycle_selftest = true;
        options.bytes = 65536;
        const auto verdict = test::run_fake(options, 300ms);
        const auto document = json::loopback_document(run_info(), verdict);
        CHECK(document["schema"] == json::kLoopbackSchemaId);
        CHECK(document["result"] == std::string(to_string(verdict.result)));
        CHECK(valid(document));
    }
    LoopbackVerdict empty;
    loopback::finish_verdict(empty);
    CHECK(valid(json::loopback_document(run_info(), empty)));
    // The validator is real: a document with a wrong field type is refused.
    auto broken = json::loopback_document(run_info(), empty);
    broken["dpa_loopback"]["level_reached"] = "three";
    CHECK_FALSE(valid(broken));
}

TEST_CASE("a failed loopback reads as error, layer, offset and fix") {
    auto& fake = test::FakeDoca::get();
    fake.reset();
    fake.set("corrupt", "42");
    const auto verdict = test::run_fake(test::fake_options(3));
    const std::string out = text::loopback(text::TextStyle{}, verdict);
    CHECK(out.find("FAIL     L3 verify") != std::string::npos);
    CHECK(out.find("layer: DPA") != std::string::npos);
    CHECK(out.find("first mismatch at byte 42") != std::string::npos);
    CHECK(out.find("fix: ") != std::string::npos);
    CHECK(out.find("note:") != std::string::npos);
    CHECK(out.find("Result: FAIL") != std::string::npos);
}

TEST_CASE("-q: a loopback shows its failed step and what to do, nothing else") {
    auto& fake = test::FakeDoca::get();
    fake.reset();
    fake.set("corrupt", "42");
    const auto verdict = test::run_fake(test::fake_options(3));
    text::TextStyle quiet;
    quiet.verbosity = -1;
    const std::string out = text::loopback(quiet, verdict);
    CHECK(out.find("FAIL     L3 verify") != std::string::npos);
    CHECK(out.find("fix: ") != std::string::npos);
    CHECK(out.find("PASS") == std::string::npos);
    CHECK(out.find("DPA loopback, level") == std::string::npos);
    CHECK(out.find("Result:") == std::string::npos);
    // A run that passed has nothing to say: not its passed self-test, not its notes.
    fake.reset();
    auto passed = test::run_fake(test::fake_options(3));
    REQUIRE(passed.result == Status::pass);
    passed.selftest = LoopbackSelftest{Status::pass, "doca_rdmi_poster", "DOCA_ERROR_BAD_STATE",
                                       "DOCA_ERROR_BAD_STATE", "the lifecycle is enforced"};
    passed.notes.push_back("measured on a loaded machine");
    CHECK(text::loopback(quiet, passed).empty());
    // A self-test that failed is a failure, shown.
    passed.selftest->result = Status::fail;
    CHECK(text::loopback(quiet, passed).find("lifecycle self-test") != std::string::npos);
}

}  // namespace rdmi
