// The NFD feature file: Kubernetes label-value rules, keys left out with a comment, no
// directive line but the opt-in expiry time, hostile values never written.
#include "report/nfd_features.hpp"

#include <doctest/doctest.h>

#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "probes/install/install_findings.hpp"
#include "text/text.hpp"
#include "unit/report/fleet_facts.hpp"

namespace rdmi::nfd {
namespace {

using test::check;
using test::function_row;
using test::install_with;
using test::mark_collected;

// Every line is a plain comment or `rdmi.nvidia.com/<key>=<label value>`; never `# +`, which
// NFD reads as a directive (an unknown one is logged as an error, an expiry-time one hides
// the features below it).
void check_well_formed(const std::string& text) {
    REQUIRE(!text.empty());
    CHECK(text.back() == '\n');
    static const std::regex feature(R"(^rdmi\.nvidia\.com/[a-z-]+=(.*)$)");
    for (auto view : split_lines(text)) {
        const std::string line(view);
        if (line.starts_with("#")) {
            CHECK_MESSAGE(!line.starts_with("# +"), line);
            CHECK_MESSAGE(!line.starts_with("#+"), line);
            continue;
        }
        std::smatch m;
        REQUIRE_MESSAGE(std::regex_match(line, m, feature), "not a feature line: " << line);
        CHECK_MESSAGE(!label_value_problem(m[1].str()), line);
    }
}

bool has_line(const std::string& text, const std::string& wanted) {
    for (auto line : split_lines(text)) {
        if (line == wanted) return true;
    }
    return false;
}

TEST_CASE("label values: at most 63 of [A-Za-z0-9._-], alphanumeric at both ends") {
    for (const char* good : {"true", "false", "3.3.0105", "a", "Z9", "a-b_c.d", "0"}) {
        CHECK_MESSAGE(!label_value_problem(good), good);
    }
    CHECK(!label_value_problem(std::string(kMaxLabelValue, 'a')));
    CHECK(label_value_problem(std::string(kMaxLabelValue + 1, 'a')) ==
          std::string_view("longer than 63 characters"));
    CHECK(label_value_problem("") == std::string_view("empty"));
    for (const char* bad : {"-abc", "abc-", ".3", "3.", "_x", "x_", "a b", "a/b", "a=b", "a:b",
                            "caf\xc3\xa9", "a\nb", "a\r", "#x", "x\x1b[0m", "\xff"}) {
        CHECK_MESSAGE(label_value_problem(bad).has_value(), bad);
    }
}

TEST_CASE("a problem is described in fixed words: the value is never quoted") {
    const std::string hostile = "x\nrdmi.nvidia.com/ready=true";
    const auto problem = label_value_problem(hostile);
    REQUIRE(problem);
    CHECK(problem->find("ready") == std::string_view::npos);
}

TEST_CASE("a complete picture: every key with its value") {
    Facts facts;
    facts.install = install_with("3.3.0105", {check(finding::doca_prefix, Status::pass)});
    mark_collected(facts, ProbeId::install);
    facts.devices.emplace();
    facts.devices->host.host_kind = host::HostKind::host;
    facts.devices->summary = {
        function_row("0000:03:00.0", {"mlx5_0"}, sysfs::DpaSupport::no),
        function_row("0000:03:00.1", {"mlx5_1"}, sysfs::DpaSupport::yes, true)};
    const std::string text = features(facts);
    check_well_formed(text);
    CHECK(text.starts_with("# rdmi-probe "));
    for (const char* line :
         {"rdmi.nvidia.com/ready=true", "rdmi.nvidia.com/build-ready=true",
          "rdmi.nvidia.com/result=pass", "rdmi.nvidia.com/doca-version=3.3.0105",
          "rdmi.nvidia.com/versions-consistent=false", "rdmi.nvidia.com/dpa=true",
          "rdmi.nvidia.com/port-active=true", "rdmi.nvidia.com/host-kind=host"}) {
        CHECK_MESSAGE(has_line(text, line), line);
    }
}

TEST_CASE("ready is false exactly when report --for run would not exit 0") {
    for (auto [status, ready, result] :
         {std::tuple{Status::pass, "true", "pass"}, std::tuple{Status::warn, "true", "warn"},
          std::tuple{Status::info, "true", "pass"}, std::tuple{Status::fail, "false", "fail"},
          std::tuple{Status::skip, "false", "skip"}}) {
        Facts facts;
        facts.install = install_with("3.3.0105", {check(finding::doca_caps, status)});
        mark_collected(facts, ProbeId::install);
        const std::string text = features(facts);
        check_well_formed(text);
        CHECK(has_line(text, std::string("rdmi.nvidia.com/ready=") + ready));
        CHECK(has_line(text, std::string("rdmi.nvidia.com/result=") + result));
    }
}

TEST_CASE("ready answers whether an application runs; build-ready whether one can be built") {
    // A healthy host without the DPA compiler and with its .pc files off the search path: what
    // fails stops a build, not a workload, so the node must stay schedulable.
    Facts facts;
    facts.install = install_with(
        "3.3.0105", {check(finding::doca_caps, Status::pass), check(finding::dpacc, Status::fail),
                     check(finding::rdmi_samples, Status::skip)});
    mark_collected(facts, ProbeId::install);
    std::string text = features(facts);
    check_well_formed(text);
    CHECK(has_line(text, "rdmi.nvidia.com/ready=true"));
    CHECK(has_line(text, "rdmi.nvidia.com/build-ready=false"));
    CHECK(has_line(text, "rdmi.nvidia.com/result=fail"));

    // And the other way round: a run check failing makes the node unready, whatever builds.
    facts.install = install_with(
        "3.3.0105", {check(finding::doca_caps, Status::fail), check(finding::dpacc, Status::pass)});
    text = features(facts);
    CHECK(has_line(text, "rdmi.nvidia.com/ready=false"));
    CHECK(has_line(text, "rdmi.nvidia.com/build-ready=true"));
}

TEST_CASE("what is unknown is left out, and a comment says why") {
    Facts facts;
    std::string text = features(facts);
    check_well_formed(text);
    for (const char* key :
         {"doca-version", "versions-consistent", "dpa", "port-active", "host-kind"}) {
        CHECK_MESSAGE(text.find(std::string("\nrdmi.nvidia.com/") + key + "=") == std::string::npos,
                      key);
        CHECK_MESSAGE(
            text.find(std::string("# rdmi.nvidia.com/") + key + " omitted: ") != std::string::npos,
            key);
    }

    // An install with no version that parses (the issue's "unparseable version").
    facts.install = install_with("");
    facts.install->stack_versions.sources[0].raw =
        Sourced<std::string>::of("three-point-three", {"pkg-config", "doca-common"});
    facts.devices.emplace();
    facts.devices->summary = {function_row("0000:03:00.0", {"mlx5_0"}, sysfs::DpaSupport::no),
                              function_row("0000:04:00.0", {}, sysfs::DpaSupport::unknown)};
    text = features(facts);
    check_well_formed(text);
    CHECK(text.find("three") == std::string::npos);
    CHECK(text.find("# rdmi.nvidia.com/doca-version omitted: no DOCA version source") !=
          std::string::npos);
    CHECK(text.find("# rdmi.nvidia.com/dpa omitted: no function surely has a DPA") !=
          std::string::npos);
    CHECK(has_line(text, "rdmi.nvidia.com/port-active=false"));
    CHECK(has_line(text, "rdmi.nvidia.com/versions-consistent=false"));

    // Every function without a DPA, for sure: false, not unknown.
    facts.devices->summary.pop_back();
    CHECK(has_line(features(facts), "rdmi.nvidia.com/dpa=false"));

    // No PCI bus at all (a bare DOCA tree as --root): nothing is known about devices.
    facts.devices->pci_bus_present = false;
    text = features(facts);
    CHECK(text.find("# rdmi.nvidia.com/dpa omitted: the root has no /sys/bus/pci/devices") !=
          std::string::npos);
    CHECK(text.find("# rdmi.nvidia.com/port-active omitted:") != std::string::npos);

    // An unlistable /sys/class/infiniband: "no active port" would be a guess.
    facts.devices->pci_bus_present = true;
    facts.devices->inventory.rdma_class_gap = Gap{GapReason::permission_denied, "x"};
    CHECK(features(facts).find("# rdmi.nvidia.com/port-active omitted: /sys/class/infiniband") !=
          std::string::npos);
}

TEST_CASE("an expiry time asked for is one directive line, before every key") {
    Facts facts;
    facts.install = install_with("3.3.0105", {check(finding::doca_prefix, Status::pass)});
    mark_collected(facts, ProbeId::install);
    const std::string text =
        features(facts, FeatureFileOptions{.expiry_time = "2023-11-14T22:28:20Z"});
    std::vector<std::string> directives;
    std::size_t first_key = std::string::npos;
    std::size_t directive_at = std::string::npos;
    std::size_t index = 0;
    for (auto view : split_lines(text)) {
        const std::string line(view);
        if (line.starts_with("# +")) {
            directives.push_back(line);
            directive_at = index;
        } else if (!line.starts_with("#") && first_key == std::string::npos) {
            first_key = index;
        }
        ++index;
    }
    CHECK(directives == std::vector<std::string>{"# +expiry-time=2023-11-14T22:28:20Z"});
    REQUIRE(first_key != std::string::npos);
    // NFD applies a directive to the lines after it: a key above it would never expire.
    CHECK(directive_at < first_key);
    // Everything else is the file without the directive, line for line.
    std::string without = text;
    without.erase(without.find("# +expiry-time="), directives.front().size() + 1);
    CHECK(without == features(facts));
    check_well_formed(without);
}

TEST_CASE("an expiry time that would break its line is refused, never written") {
    const Facts facts;
    for (const char* bad : {"", "2023-11-14T22:28:20Z\nrdmi.nvidia.com/ready=true",
                            "2023-11-14T22:28:20Z # x", "2023-11-14T22:28:20+01:00"}) {
        CAPTURE(bad);
        CHECK_THROWS_AS((void)features(facts, FeatureFileOptions{.expiry_time = bad}),
                        std::invalid_argument);
    }
}

}  // namespace
}  // namespace rdmi::nfd
