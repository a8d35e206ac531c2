// The warn status through the gate: the contract's vocabulary, --fail-on-warn, and every output
// of `check` (document, exit code, text, JUnit, GitHub), with fake checks; the pcie-link gate's
// real warning is in evaluate_pcie_link_test.cpp and the CLI cases check_pcie_link_*.
#include <doctest/doctest.h>

#include <array>

#include "check/evaluate.hpp"
#include "check/gate_findings.hpp"
#include "cli/exit_codes.hpp"
#include "report/gate_formats.hpp"
#include "report/gate_json.hpp"
#include "report/text_style.hpp"

namespace rdmi::gate {
namespace {

Check with(Status status, std::string message = "m") {
    return Check{finding::dpa, status, std::move(message), "reseat the card", {}};
}

GateReport gate_of(std::vector<Check> checks, bool fail_on_warn) {
    GateReport gate;
    gate.checks = std::move(checks);
    gate.fail_on_warn = fail_on_warn;
    gate.result = gate_verdict(gate.checks, fail_on_warn);
    return gate;
}

}  // namespace

TEST_CASE("a warning passes the gate, and fails it under --fail-on-warn") {
    CHECK(gate_verdict({with(Status::pass), with(Status::warn)}, false) == Status::pass);
    CHECK(gate_verdict({with(Status::pass), with(Status::warn)}, true) == Status::fail);
    // Under --fail-on-warn a warning is a failure, and a failure outweighs a skip.
    CHECK(gate_verdict({with(Status::skip), with(Status::warn)}, false) == Status::skip);
    CHECK(gate_verdict({with(Status::skip), with(Status::warn)}, true) == Status::fail);
    CHECK(gate_verdict({with(Status::pass)}, true) == Status::pass);
    CHECK(contract_status(Status::warn, false) == Status::pass);
    CHECK(contract_status(Status::warn, true) == Status::fail);
    CHECK(contract_status(Status::info, true) == Status::pass);
    CHECK(contract_status(Status::skip, true) == Status::skip);
}

TEST_CASE("the document's result and the exit code never disagree, warnings or not") {
    constexpr std::array kStatuses{Status::pass, Status::fail, Status::skip, Status::warn};
    for (const Status a : kStatuses) {
        for (const Status b : kStatuses) {
            for (const bool fail_on_warn : {false, true}) {
                const GateReport gate = gate_of({with(a), with(b)}, fail_on_warn);
                const auto doc = json::check_document(gate).body;
                CAPTURE(to_string(a));
                CAPTURE(to_string(b));
                CAPTURE(fail_on_warn);
                const std::string result = doc["result"].get<std::string>();
                const int code = cli::exit_code_for(gate.result);
                if (result == "pass") CHECK(code == cli::kExitOk);
                if (result == "fail") CHECK(code == cli::kExitFailed);
                if (result == "skip") CHECK(code == cli::kExitSkipped);
                CHECK((result == "pass" || result == "fail" || result == "skip"));
                for (const auto& check : doc["checks"]) {
                    const std::string status = check["status"].get<std::string>();
                    CHECK((status == "pass" || status == "fail" || status == "skip"));
                }
                const bool warned = a == Status::warn || b == Status::warn;
                if (warned && fail_on_warn) CHECK(code == cli::kExitFailed);
            }
        }
    }
}

TEST_CASE("the contract document writes a warning as pass (fail under --fail-on-warn), saying so") {
    const auto passing = json::check_document(gate_of({with(Status::warn, "x16 of x8")}, false));
    CHECK(passing.body["checks"][0]["status"] == "pass");
    CHECK(passing.body["checks"][0]["details"] == "warning: x16 of x8");
    CHECK(passing.body["result"] == "pass");
    const auto failing = json::check_document(gate_of({with(Status::warn, "x16 of x8")}, true));
    CHECK(failing.body["checks"][0]["status"] == "fail");
    CHECK(failing.body["result"] == "fail");
}

TEST_CASE("text: a warning has its own mark and count; --fail-on-warn says why it fails") {
    CHECK(gate_text(gate_of({with(Status::pass, "ok"), with(Status::warn, "slow")}, false)) ==
          "PASS  dpa  ok\n"
          "WARN  dpa  slow\n"
          "      fix: reseat the card\n"
          "Result: PASS (0 failed, 0 skipped, 1 passed, 1 warned)\n");
    CHECK(gate_text(gate_of({with(Status::warn, "slow")}, true)) ==
          "WARN  dpa  slow\n"
          "      fix: reseat the card\n"
          "Result: FAIL (0 failed, 0 skipped, 0 passed, 1 warned (failing: --fail-on-warn))\n");
    text::TextStyle quiet;
    quiet.verbosity = -1;
    // -q is failures and warnings, whether or not the warning fails the gate.
    CHECK(gate_text(gate_of({with(Status::warn, "slow")}, false), quiet) ==
          "WARN  dpa  slow\n"
          "      fix: reseat the card\n");
    CHECK(gate_text(gate_of({with(Status::pass, "ok")}, false), quiet).empty());
    CHECK(gate_text(gate_of({with(Status::warn, "slow")}, true), quiet) ==
          "WARN  dpa  slow\n"
          "      fix: reseat the card\n");
}

TEST_CASE("junit: a warning is no failure (a property and system-out) unless --fail-on-warn") {
    const std::string warned = gate_junit(gate_of({with(Status::warn, "slow")}, false));
    CHECK(warned.find("failures=\"0\"") != std::string::npos);
    CHECK(warned.find("<failure") == std::string::npos);
    CHECK(warned.find("<property name=\"status\" value=\"warn\"/>") != std::string::npos);
    CHECK(warned.find("<system-out>warning: slow\nfix: reseat the card</system-out>") !=
          std::string::npos);
    const std::string failed = gate_junit(gate_of({with(Status::warn, "slow")}, true));
    CHECK(failed.find("failures=\"1\"") != std::string::npos);
    CHECK(failed.find("<failure type=\"warn\" message=\"slow\">") != std::string::npos);
    CHECK(failed.find("<property name=\"result\" value=\"fail\"/>") != std::string::npos);
}

TEST_CASE("github: a warning is ::warning, or ::error under --fail-on-warn") {
    CHECK(gate_github(gate_of({with(Status::warn, "slow")}, false)) ==
          "::warning title=rdmi-probe check%3A dpa::slow%0Afix: reseat the card\n"
          "rdmi-probe check: pass (0 failed, 0 skipped, 0 passed, 1 warned)\n");
    CHECK(gate_github(gate_of({with(Status::warn, "slow")}, true)).starts_with("::error "));
}

TEST_CASE("the report: WARN is its own mark, the verdict warn, the exit code 0") {
    const std::vector<Check> checks{with(Status::pass, "ok"), with(Status::warn, "slow")};
    CHECK(overall_status(checks) == Status::warn);
    CHECK(cli::exit_code_for(overall_status(checks)) == cli::kExitOk);
    const text::TextStyle style;
    CHECK(text::render_verdict(style, checks) ==
          "Result: WARN (0 failed, 0 skipped, 1 passed, 0 info, 1 warned)\n");
    // Ordered after what failed or was skipped, before what passed.
    const std::string rendered = text::render_checks(style, checks);
    CHECK(rendered.find("WARN") < rendered.find("PASS"));
    CHECK(rendered.find("fix: reseat the card") != std::string::npos);
}

}  // namespace rdmi::gate
