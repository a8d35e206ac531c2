// Tests for recognising saved documents.
#include "contract/kinds.hpp"

#include <doctest/doctest.h>

namespace rdmi::contract {
namespace {

TEST_CASE("identify_document: x_rdmi_probe.schema, then schema, then the exact shape") {
    Json env = Json::parse(R"({"version": {}, "devices": [], "libraries": [], "sample_paths": [],
        "drivers": {}, "hugepages": {}, "host_kind": "host", "bf_mode": null})");
    auto by_shape = identify_document(env);
    REQUIRE(by_shape.ok());
    CHECK((*by_shape)->name == "doca-env");

    Json with_x = env;
    with_x["x_rdmi_probe"] = {{"schema", "urn:rdmi-probe:schema:collect-state"}};
    CHECK((*identify_document(with_x))->name == "collect-state");

    Json report = {{"schema", "urn:rdmi-probe:schema:report"}, {"checks", Json::array()}};
    CHECK((*identify_document(report))->name == "report");
}

TEST_CASE("identify_document refuses what it cannot name") {
    Json extra = Json::parse(R"({"side": "host", "doca_version": "", "firmware_version": "",
        "kernel_version": "", "mlx5_modules": [], "bf_mode": null, "devices": [], "extra": 1})");
    CHECK_FALSE(identify_document(extra).ok());
    extra.erase("extra");
    CHECK(identify_document(extra).ok());
    extra.erase("side");
    CHECK_FALSE(identify_document(extra).ok());
    CHECK_FALSE(identify_document(Json::array()).ok());
    CHECK_FALSE(identify_document(Json{{"schema", "urn:other"}}).ok());
    CHECK_FALSE(identify_document(Json{{"x_rdmi_probe", {{"schema", 3}}}}).ok());
}

}  // namespace
}  // namespace rdmi::contract
