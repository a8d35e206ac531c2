// The Prometheus emitter: label escaping, the check state set, what is left out and why.
#include "report/prometheus_report.hpp"

#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "probes/install/install_findings.hpp"
#include "text/text.hpp"
#include "unit/report/fleet_facts.hpp"

namespace rdmi::prometheus {
namespace {

using test::check;
using test::function_row;
using test::install_with;
using test::mark_collected;

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    for (auto line : split_lines(text)) out.emplace_back(line);
    return out;
}

std::vector<std::string> samples_of(const std::string& text, const std::string& family) {
    std::vector<std::string> out;
    for (const auto& line : lines_of(text)) {
        if (line.starts_with(family + "{") || line.starts_with(family + " ")) out.push_back(line);
    }
    return out;
}

bool has_line(const std::string& text, const std::string& wanted) {
    for (const auto& line : lines_of(text)) {
        if (line == wanted) return true;
    }
    return false;
}

// Every line is a comment, HELP, TYPE or one sample; each family's HELP and TYPE come once,
// before its samples, and its samples are together (what the text format requires).
void check_well_formed(const std::string& text) {
    REQUIRE(!text.empty());
    CHECK(text.back() == '\n');
    static const std::regex sample(
        R"(^([a-z_]+)(\{[a-z_]+="([^"\\]|\\.)*"(,[a-z_]+="([^"\\]|\\.)*")*\})? [0-9.]+$)");
    std::set<std::string> finished;
    std::set<std::string> series;
    std::string current;
    for (const auto& line : lines_of(text)) {
        if (line.starts_with("# HELP ")) {
            const std::string name = line.substr(7, line.find(' ', 7) - 7);
            CHECK_MESSAGE(finished.count(name) == 0, "family listed twice: " << name);
            if (!current.empty()) finished.insert(current);
            current = name;
            continue;
        }
        if (line.starts_with("# TYPE ")) {
            CHECK(line == "# TYPE " + current + " gauge");
            continue;
        }
        if (line.starts_with("# ")) {
            CHECK(!line.starts_with("# HELP"));
            continue;
        }
        std::smatch m;
        REQUIRE_MESSAGE(std::regex_match(line, m, sample), "not a sample: " << line);
        CHECK_MESSAGE(m[1].str() == current, "sample outside its family: " << line);
        // node_exporter rejects a file that lists one series twice.
        CHECK_MESSAGE(series.insert(line.substr(0, line.rfind(' '))).second,
                      "series listed twice: " << line);
    }
}

Facts minimal() {
    Facts facts;
    facts.run.generated_at = "2023-11-14T22:13:20Z";
    facts.run.duration_ms = 12.5;
    return facts;
}

TEST_CASE("label values are escaped as the text format wants: backslash, quote, line feed") {
    CHECK(escape_label_value("mlx5_0") == "mlx5_0");
    CHECK(escape_label_value(R"(a\b"c)") == R"(a\\b\"c)");
    CHECK(escape_label_value("a\nb") == R"(a\nb)");
    CHECK(escape_label_value("") == "");
}

TEST_CASE("only short printable ASCII identifiers become label values") {
    CHECK(usable_label_value("0000:03:00.0"));
    CHECK(usable_label_value(R"(mlx5"0\)"));  // printable: written escaped
    CHECK(usable_label_value(std::string(kMaxLabelValue, 'a')));
    CHECK_FALSE(usable_label_value(""));
    CHECK_FALSE(usable_label_value(std::string(kMaxLabelValue + 1, 'a')));
    CHECK_FALSE(usable_label_value("mlx5\n0"));
    CHECK_FALSE(usable_label_value("\x1b[31mred"));
    CHECK_FALSE(usable_label_value("mlx5\x7f"));
    CHECK_FALSE(usable_label_value("caf\xc3\xa9"));  // valid UTF-8, but not an identifier
    CHECK_FALSE(usable_label_value("\xff\xfe"));
}

TEST_CASE("each check is a complete state set: all five statuses, 1 only for its own") {
    Facts facts = minimal();
    facts.install = install_with(
        "3.3.0105",
        {check(finding::doca_prefix, Status::pass), check(finding::rdmi_headers, Status::fail),
         check(finding::dpacc, Status::skip), check(finding::rdmi_samples, Status::warn),
         check(finding::doca_caps, Status::info)});
    mark_collected(facts, ProbeId::install);
    const std::string text = report(facts);
    check_well_formed(text);
    const std::map<std::string, std::string> expected = {{"doca-prefix", "pass"},
                                                         {"rdmi-headers", "fail"},
                                                         {"dpacc", "skip"},
                                                         {"rdmi-samples", "warn"},
                                                         {"doca-caps", "info"}};
    const auto samples = samples_of(text, "rdmi_probe_check_status");
    CHECK(samples.size() == expected.size() * 5);
    for (const auto& [id, status] : expected) {
        int ones = 0;
        for (const char* s : {"pass", "fail", "skip", "info", "warn"}) {
            const std::string prefix =
                "rdmi_probe_check_status{check=\"" + id + "\",status=\"" + s + "\"} ";
            const bool own = status == s;
            CHECK_MESSAGE(has_line(text, prefix + (own ? "1" : "0")), prefix);
            ones += own ? 1 : 0;
        }
        CHECK(ones == 1);
    }
}

TEST_CASE("ready: one series per purpose, always, 1 exactly when report --for it exits 0") {
    Facts facts = minimal();
    // No check at all: nothing failed, so both are ready, and both series are still written.
    std::string text = report(facts);
    check_well_formed(text);
    CHECK(has_line(text, R"(rdmi_probe_ready{purpose="run"} 1)"));
    CHECK(has_line(text, R"(rdmi_probe_ready{purpose="build"} 1)"));

    facts.install = install_with(
        "3.3.0105", {check(finding::doca_caps, Status::warn), check(finding::dpacc, Status::fail)});
    mark_collected(facts, ProbeId::install);
    text = report(facts);
    check_well_formed(text);
    CHECK(samples_of(text, "rdmi_probe_ready").size() == 2);
    CHECK(has_line(text, R"(rdmi_probe_ready{purpose="run"} 1)"));
    CHECK(has_line(text, R"(rdmi_probe_ready{purpose="build"} 0)"));

    // A skip is not ready either (report exits 3); library-<module> answers both questions.
    facts.install = install_with(
        "3.3.0105", {check(finding::dpacc, Status::pass),
                     Check{FindingId(finding::library, "doca-rdmi"), Status::skip, "m", "", {}}});
    text = report(facts);
    CHECK(has_line(text, R"(rdmi_probe_ready{purpose="run"} 0)"));
    CHECK(has_line(text, R"(rdmi_probe_ready{purpose="build"} 0)"));
}

TEST_CASE("a check id listed twice is exported once: two equal series would spoil the file") {
    Facts facts = minimal();
    facts.install = install_with(
        "3.3.0105", {check(finding::dpacc, Status::pass), check(finding::dpacc, Status::fail)});
    mark_collected(facts, ProbeId::install);
    const std::string text = report(facts);
    check_well_formed(text);
    CHECK(samples_of(text, "rdmi_probe_check_status").size() == 5);
    CHECK(has_line(text, R"(rdmi_probe_check_status{check="dpacc",status="pass"} 1)"));
    CHECK(text.find("# rdmi_probe_check_status omitted: a check id listed twice") !=
          std::string::npos);
}

TEST_CASE("info carries the tool's and DOCA's versions; an unknown DOCA version is empty") {
    Facts facts = minimal();
    facts.install = install_with("3.3.0105");
    CHECK(report(facts).find(",doca_version=\"3.3.0105\"} 1\n") != std::string::npos);
    facts.install = install_with("");
    CHECK(report(facts).find(",doca_version=\"\"} 1\n") != std::string::npos);
    facts.install.reset();
    CHECK(report(facts).find(",doca_version=\"\"} 1\n") != std::string::npos);
}

TEST_CASE("per function: DPA known is 1 or 0, unknown is left out with a comment") {
    Facts facts = minimal();
    facts.devices.emplace();
    facts.devices->summary = {
        function_row("0000:03:00.0", {"mlx5_0"}, sysfs::DpaSupport::yes),
        function_row("0000:04:00.0", {"mlx5_1"}, sysfs::DpaSupport::no),
        function_row("0000:05:00.0", {}, sysfs::DpaSupport::unknown),
    };
    DeviceSummary sf = function_row("mlx5_core.sf.2", {"mlx5_2"}, sysfs::DpaSupport::yes);
    sf.kind = "SF";
    facts.devices->summary.push_back(sf);
    const std::string text = report(facts);
    check_well_formed(text);
    CHECK(has_line(text, R"(rdmi_probe_device_dpa_capable{pci="0000:03:00.0",device="mlx5_0"} 1)"));
    CHECK(has_line(text, R"(rdmi_probe_device_dpa_capable{pci="0000:04:00.0",device="mlx5_1"} 0)"));
    CHECK(samples_of(text, "rdmi_probe_device_dpa_capable").size() == 2);  // no 05:00.0, no SF
    CHECK(text.find("# rdmi_probe_device_dpa_capable omitted: a function whose DPA support is "
                    "unknown") != std::string::npos);
}

TEST_CASE("hostile device names: escaped when printable, left out when not, never raw") {
    Facts facts = minimal();
    facts.devices.emplace();
    facts.devices->summary = {
        function_row("0000:03:00.0", {R"(mlx5"0\)"}, sysfs::DpaSupport::yes),
        function_row("0000:04:00.0", {"mlx5\n} 1\nrdmi_probe_fake 1"}, sysfs::DpaSupport::yes),
        function_row("0000:05:00.0\x1b[2J", {"mlx5_2"}, sysfs::DpaSupport::yes),
    };
    const std::string text = report(facts);
    check_well_formed(text);
    CHECK(has_line(text,
                   R"(rdmi_probe_device_dpa_capable{pci="0000:03:00.0",device="mlx5\"0\\"} 1)"));
    CHECK(samples_of(text, "rdmi_probe_device_dpa_capable").size() == 1);
    CHECK(text.find("rdmi_probe_fake") == std::string::npos);
    CHECK(text.find('\x1b') == std::string::npos);
    CHECK(text.find("omitted: a function whose rdma device name is not printable ASCII") !=
          std::string::npos);
    CHECK(text.find("omitted: a function whose PCI address is not printable ASCII") !=
          std::string::npos);
}

TEST_CASE("ports: ACTIVE is 1, another state 0, an unreadable state left out; SF ports not") {
    Facts facts = minimal();
    facts.devices.emplace();
    auto& inv = facts.devices->inventory;
    sysfs::Function pf;
    pf.name = "0000:03:00.0";
    sysfs::Function sf;
    sf.name = "mlx5_core.sf.2";
    sf.kind = sysfs::FunctionKind::sf;
    inv.functions = {pf, sf};
    auto port = [](std::uint32_t n, const char* state) {
        sysfs::RdmaPort p;
        p.number = n;
        if (state != nullptr) {
            p.state = Sourced<sysfs::NumberedName>::of({4, state}, {"sysfs", "state"});
        } else {
            p.state = Sourced<sysfs::NumberedName>::missing(
                Gap{GapReason::permission_denied, "state"}, {"sysfs", "state"});
        }
        return p;
    };
    sysfs::RdmaDevice dev;
    dev.name = "mlx5_0";
    dev.function = Sourced<std::string>::of(pf.name, {"sysfs", "device"});
    dev.ports = {port(1, "ACTIVE"), port(2, "DOWN"), port(3, nullptr)};
    sysfs::RdmaDevice sfdev;
    sfdev.name = "mlx5_2";
    sfdev.function = Sourced<std::string>::of(sf.name, {"sysfs", "device"});
    sfdev.ports = {port(1, "ACTIVE")};
    inv.rdma_devices = {dev, sfdev};
    const std::string text = report(facts);
    check_well_formed(text);
    CHECK(
        has_line(text, R"(rdmi_probe_port_active{device="mlx5_0",port="1",pci="0000:03:00.0"} 1)"));
    CHECK(
        has_line(text, R"(rdmi_probe_port_active{device="mlx5_0",port="2",pci="0000:03:00.0"} 0)"));
    CHECK(samples_of(text, "rdmi_probe_port_active").size() == 2);
    CHECK(text.find("# rdmi_probe_port_active omitted: a port whose state could not be read") !=
          std::string::npos);
}

TEST_CASE("versions consistent and experimental symbols: present when known, else a comment") {
    Facts facts = minimal();
    std::string text = report(facts);
    check_well_formed(text);
    CHECK(samples_of(text, "rdmi_probe_doca_versions_consistent").empty());
    CHECK(text.find("# HELP rdmi_probe_doca_versions_consistent") == std::string::npos);
    CHECK(text.find("# rdmi_probe_doca_versions_consistent omitted: the install probe did not "
                    "run") != std::string::npos);
    CHECK(text.find("# rdmi_probe_experimental_symbols omitted: no doca-rdmi library") !=
          std::string::npos);

    facts.install = install_with("3.3.0105");
    SymbolsFacts symbols;
    symbols.library.path = "/opt/mellanox/doca/lib/x86_64-linux-gnu/libdoca_rdmi.so.3";
    symbols.audit.counts.experimental = 7;
    facts.symbols = Result<SymbolsFacts>(symbols);
    text = report(facts);
    check_well_formed(text);
    // One source only: nothing to compare, so not consistent.
    CHECK(has_line(text, "rdmi_probe_doca_versions_consistent 0"));
    CHECK(has_line(text, R"(rdmi_probe_experimental_symbols{library="doca_rdmi"} 7)"));

    facts.symbols = Result<SymbolsFacts>(Gap{GapReason::malformed, "not ELF"});
    text = report(facts);
    CHECK(samples_of(text, "rdmi_probe_experimental_symbols").empty());
    CHECK(text.find("omitted: the symbol audit could not read the library") != std::string::npos);
}

TEST_CASE("run time and duration in base units; a time that does not parse is left out") {
    Facts facts = minimal();
    std::string text = report(facts);
    CHECK(has_line(text, "rdmi_probe_last_run_timestamp_seconds 1700000000"));
    CHECK(has_line(text, "rdmi_probe_run_duration_seconds 0.012500"));
    for (const char* bad : {"", "2023-13-01T00:00:00Z", "2023-11-14T22:13:20",
                            "2023-11-14 22:13:20Z", "2023-11-14T22:13:20Zjunk"}) {
        facts.run.generated_at = bad;
        text = report(facts);
        check_well_formed(text);
        CHECK_MESSAGE(samples_of(text, "rdmi_probe_last_run_timestamp_seconds").empty(), bad);
        CHECK(text.find("# rdmi_probe_last_run_timestamp_seconds omitted: the run's time is not "
                        "known") != std::string::npos);
    }
}

TEST_CASE("one port named twice in sysfs (ports/1 and ports/01) is one series, not two") {
    Facts facts = minimal();
    facts.devices.emplace();
    auto& inv = facts.devices->inventory;
    sysfs::Function pf;
    pf.name = "0000:03:00.0";
    inv.functions = {pf};
    auto port = [](const char* state) {
        sysfs::RdmaPort p;
        p.number = 1;
        p.state = Sourced<sysfs::NumberedName>::of({4, state}, {"sysfs", "state"});
        return p;
    };
    sysfs::RdmaDevice dev;
    dev.name = "mlx5_0";
    dev.function = Sourced<std::string>::of(pf.name, {"sysfs", "device"});
    dev.ports = {port("ACTIVE"), port("DOWN")};
    inv.rdma_devices = {dev};
    const std::string text = report(facts);
    check_well_formed(text);
    CHECK(samples_of(text, "rdmi_probe_port_active") ==
          std::vector<std::string>{
              R"(rdmi_probe_port_active{device="mlx5_0",port="1",pci="0000:03:00.0"} 1)"});
    CHECK(has_line(text,
                   "# rdmi_probe_port_active omitted: a series listed twice (its first "
                   "value is exported)"));
}

}  // namespace
}  // namespace rdmi::prometheus
