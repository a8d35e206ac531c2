// Policy parsing: every accepted key, and each kind of bad input with its precise message.
#include "check/policy.hpp"

#include <doctest/doctest.h>

#include <string>

namespace rdmi::gate {
namespace {

std::string error_of(std::string_view bytes) {
    auto policy = parse_policy(bytes, "p.json");
    REQUIRE_FALSE(policy.ok());
    CHECK(policy.gap().reason == GapReason::malformed);
    return policy.gap().message;
}

TEST_CASE("parse_policy reads every key") {
    auto policy =
        parse_policy(R"({"schema_version": 1, "min_version": "3.2", "max_version": "3.3.0",
        "exact_version": "3.3.0105", "require_modules": ["doca-verbs>=3.2", "doca-dpa"],
        "require_symbols": ["a"], "require_stable": ["b", "c"], "app": "bin/app",
        "forbid_experimental": true, "allow_experimental": ["x"], "require_device": "mlx5_0",
        "require_dpa": true, "require_port_active": false, "require_consistent": true,
        "require_pcie_link": true, "description": "d", "$schema": "s"})",
                     "p.json");
    REQUIRE(policy.ok());
    CHECK(*policy->min_version == "3.2");
    CHECK(*policy->max_version == "3.3.0");
    CHECK(*policy->exact_version == "3.3.0105");
    REQUIRE(policy->modules.size() == 2);
    CHECK(policy->modules[0].name == "doca-verbs");
    CHECK(policy->modules[0].op == ">=");
    CHECK(policy->modules[0].version == "3.2");
    CHECK(policy->modules[1].op.empty());
    CHECK(policy->symbols == std::vector<std::string>{"a"});
    CHECK(policy->stable.size() == 2);
    CHECK(policy->app == "bin/app");
    CHECK(policy->forbid_experimental);
    CHECK(policy->allow_experimental == std::vector<std::string>{"x"});
    CHECK(*policy->device == "mlx5_0");
    CHECK(policy->require_dpa);
    CHECK_FALSE(policy->require_port_active);
    CHECK(policy->require_consistent);
    CHECK(policy->require_pcie_link);
    CHECK_FALSE(policy->empty());
}

TEST_CASE("a waived source named many times is waived once") {
    auto policy = parse_policy(
        R"({"schema_version": 1, "waive_sources": ["bfb", "doca_caps", "bfb", "bfb"]})", "p.json");
    REQUIRE(policy.ok());
    CHECK(policy->waive_sources == std::vector<std::string>{"bfb", "doca_caps"});
}

TEST_CASE("require_device true means any device, false none") {
    auto any = parse_policy(R"({"schema_version":1,"require_device":true})", "p");
    REQUIRE(any.ok());
    REQUIRE(any->device.has_value());
    CHECK(any->device->empty());
    auto none = parse_policy(R"({"schema_version":1,"require_device":false})", "p");
    REQUIRE(none.ok());
    CHECK_FALSE(none->device.has_value());
    CHECK(none->empty());
}

TEST_CASE("syntax errors give the line and column") {
    CHECK(error_of("{\n  \"schema_version\": 1,\n  \"require_dpa\": tru\n}") ==
          "p.json: invalid JSON at line 3, column 21: syntax error while parsing value - invalid "
          "literal");
    CHECK(error_of("{\"schema_version\": 1,}")
              .starts_with("p.json: invalid JSON at line 1, column 22: "));
    // Truncated, and not UTF-8: still one line with where it broke.
    CHECK(error_of("{\"schema_version\": 1, \"app\": \"/usr/bin/a")
              .starts_with("p.json: invalid JSON at line 1, column 41: "));
    CHECK(error_of("{\"schema_version\": 1, \"app\": \"\xff\"}")
              .starts_with("p.json: invalid JSON at line 1, column 31: "));
}

TEST_CASE("a policy is bounded like every JSON input: nesting and size") {
    // A policy nests two levels; 10,000 is refused before the JSON library sees it.
    const std::string deep =
        "{\"schema_version\": 1, \"x\": " + std::string(10000, '[') + std::string(10000, ']') + "}";
    CHECK(error_of(deep) == "p.json: JSON nested deeper than 256 levels at line 1, column 283");
    // Past the policy's cap (the caller reads no more than that: this is a second guard).
    const std::string big = "{\"schema_version\": 1}" + std::string(std::size_t{1} << 20U, ' ');
    CHECK(error_of(big).starts_with("p.json: JSON input too large ("));
    CHECK(error_of(R"({"schema_version": 1, "schema_version": 1})") ==
          "p.json: /schema_version: duplicate key \"schema_version\" (a key may appear once)");
}

TEST_CASE("empty and blank files are named as such") {
    CHECK(error_of("") == "p.json: empty file (expected a JSON object with schema_version)");
    CHECK(error_of(" \n\t\r\n") ==
          "p.json: empty file (expected a JSON object with schema_version)");
}

TEST_CASE("type errors give the JSON pointer") {
    CHECK(error_of(R"({"schema_version":1,"require_modules":["doca-verbs",3]})") ==
          "p.json: at /require_modules/1: expected a string, found integer");
    CHECK(error_of(R"({"schema_version":1,"require_dpa":"yes"})") ==
          "p.json: at /require_dpa: expected true or false, found string");
    CHECK(error_of(R"({"schema_version":"1"})") ==
          "p.json: at /schema_version: expected an integer, found string");
    CHECK(error_of(R"({"schema_version":2})") ==
          "p.json: at /schema_version: unsupported schema_version 2 (this build reads 1)");
    CHECK(error_of(R"([1])") == "p.json: at (document): expected a JSON object, found array");
    CHECK(error_of(R"({"min_version":"3.2.0"})") ==
          "p.json: at /schema_version: missing (this build reads 1)");
    CHECK(error_of(R"({"schema_version":1,"require_device":3})") ==
          "p.json: at /require_device: expected true, false or a PCI address or ibdev name, "
          "found integer");
    CHECK(error_of(R"({"schema_version":1,"app":""})") == "p.json: at /app: must not be empty");
}

TEST_CASE("unknown keys are rejected, with the pointer escaped") {
    CHECK(error_of(R"({"schema_version":1,"require_modlues":[]})") ==
          "p.json: at /require_modlues: unknown key \"require_modlues\"");
    CHECK(error_of(R"({"schema_version":1,"a/b~c":1})") ==
          "p.json: at /a~1b~0c: unknown key \"a/b~c\"");
}

TEST_CASE("bad versions and module requirements") {
    CHECK(error_of(R"({"schema_version":1,"min_version":"3.x"})") ==
          "p.json: at /min_version: \"3.x\" is not a DOCA version (expected MAJOR.MINOR[.PATCH])");
    CHECK(error_of(R"({"schema_version":1,"max_version":"3"})")
              .starts_with("p.json: at /max_version: \"3\" is not a DOCA version"));
    CHECK(error_of(R"({"schema_version":1,"require_modules":["doca-verbs=>3.2"]})") ==
          "p.json: at /require_modules/0: \"doca-verbs=>3.2\": \">3.2\" is not a version");
}

TEST_CASE("dependent keys are left to the merged requirements (flags may add the app)") {
    auto policy = parse_policy(R"({"schema_version":1,"forbid_experimental":true})", "p");
    REQUIRE(policy.ok());
    CHECK(policy->forbid_experimental);
    CHECK(policy->app.empty());
}

TEST_CASE("deep nesting is an error, not a crash") {
    std::string deep = R"({"schema_version":1,"x":)";
    deep += std::string(100000, '[');
    deep += std::string(100000, ']');
    deep += "}";
    // Refused by the depth cap before the JSON library builds (and later frees) the tree.
    CHECK(error_of(deep) == "p.json: JSON nested deeper than 256 levels at line 1, column 280");
}

TEST_CASE("parse_module_requirement") {
    auto plain = parse_module_requirement(" doca-rdmi ");
    REQUIRE(plain.ok());
    CHECK(plain->name == "doca-rdmi");
    CHECK(plain->op.empty());
    for (const char* op : {">=", "<=", "!=", "=", "<", ">"}) {
        auto m = parse_module_requirement(std::string("doca-verbs ") + op + " 3.2.1025");
        REQUIRE(m.ok());
        CHECK(m->op == op);
        CHECK(m->version == "3.2.1025");
    }
    CHECK_FALSE(parse_module_requirement("").ok());
    CHECK_FALSE(parse_module_requirement(">=3.2").ok());
    CHECK(parse_module_requirement("doca-verbs ~ 3").gap().message ==
          "\"doca-verbs ~ 3\": expected one of >= <= != = < > after doca-verbs");
    CHECK(parse_module_requirement("doca-verbs>=").gap().message ==
          "\"doca-verbs>=\": \"\" is not a version");
}

TEST_CASE("parse_gate_version") {
    CHECK(parse_gate_version("3.2")->to_string() == "3.2.0");
    CHECK(parse_gate_version("3.3.0105")->to_string() == "3.3.0105");
    CHECK_FALSE(parse_gate_version("").ok());
    CHECK_FALSE(parse_gate_version(" 3.2.0").ok());
    CHECK_FALSE(parse_gate_version("3").ok());
    CHECK_FALSE(parse_gate_version("v3.2").ok());
}

TEST_CASE("merge_policy: flags add to the file") {
    Policy base;
    base.min_version.emplace("3.2");  // (assigning a literal trips GCC 12's maybe-uninitialized)
    base.modules.push_back({"doca-dpa", "", ""});
    base.device = "";
    Policy extra;
    extra.min_version = "3.3";
    extra.modules.push_back({"doca-verbs", ">=", "3.2"});
    extra.device = "mlx5_1";
    extra.require_dpa = true;
    merge_policy(base, extra);
    CHECK(*base.min_version == "3.3");
    CHECK(base.modules.size() == 2);
    CHECK(*base.device == "mlx5_1");
    CHECK(base.require_dpa);
    Policy any;
    any.device = "";
    merge_policy(base, any);
    CHECK(*base.device == "mlx5_1");  // an any-device flag does not widen a named one
}

TEST_CASE("require_pcie_link: alone a requirement; a flag adds it to a file without it") {
    auto only = parse_policy(R"({"schema_version":1,"require_pcie_link":true})", "p");
    REQUIRE(only.ok());
    CHECK(only->require_pcie_link);
    CHECK_FALSE(only->empty());
    auto bad = parse_policy(R"({"schema_version":1,"require_pcie_link":"yes"})", "p.json");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.gap().message.find("/require_pcie_link") != std::string::npos);
    Policy base;
    base.min_version = "3.2";
    Policy extra;
    extra.require_pcie_link = true;
    merge_policy(base, extra);
    CHECK(base.require_pcie_link);
    merge_policy(base, Policy{});
    CHECK(base.require_pcie_link);  // a file's requirement stays when the flag is absent
}

}  // namespace
}  // namespace rdmi::gate
