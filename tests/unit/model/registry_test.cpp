// Tests for the probe registry: rows in dependency order, each probe at most once per run,
// live-only dependencies, contained errors, and the report's checks assembled from the rows.
#include "model/registry.hpp"

#include <doctest/doctest.h>

#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <set>
#include <span>
#include <stdexcept>
#include <string>

#include "check/check_catalog.hpp"
#include "check/gate_findings.hpp"
#include "model/contract_facts.hpp"
#include "os/env.hpp"
#include "os/rooted_fs.hpp"
#include "probes/devices/devices_findings.hpp"
#include "probes/environment.hpp"
#include "probes/install/install_findings.hpp"
#include "probes/loopback/loopback.hpp"
#include "probes/symbols/symbols_findings.hpp"
#include "support/temp_tree.hpp"

namespace rdmi {
namespace {

using namespace std::chrono_literals;

spdlog::logger& null_logger() {
    static spdlog::logger logger("registry-test", std::make_shared<spdlog::sinks::null_sink_st>());
    return logger;
}

/// A rooted file system that counts every access, and throws on any path under `poison`.
class CountingFs final : public Fs {
  public:
    CountingFs(RootedFs inner, std::string poison = "")
        : inner_(std::move(inner)), poison_(std::move(poison)) {}

    Result<std::string> read_file(std::string_view path, std::size_t max) const override {
        touch(path);
        return inner_.read_file(path, max);
    }
    Result<std::vector<DirEntry>> list_dir(std::string_view path) const override {
        touch(path);
        return inner_.list_dir(path);
    }
    Result<FileInfo> stat(std::string_view path, bool follow) const override {
        touch(path);
        return inner_.stat(path, follow);
    }
    Result<std::string> read_link(std::string_view path) const override {
        touch(path);
        return inner_.read_link(path);
    }
    Result<std::string> real_path(std::string_view path) const override {
        touch(path);
        return inner_.real_path(path);
    }
    Result<std::string> host_path(std::string_view path) const override {
        touch(path);
        return inner_.host_path(path);
    }
    const std::string& root() const override { return inner_.root(); }
    bool is_live() const override { return inner_.is_live(); }

    mutable int accesses = 0;

  private:
    void touch(std::string_view path) const {
        ++accesses;
        if (!poison_.empty() && path.starts_with(poison_))
            throw std::runtime_error("poisoned read of " + std::string(path));
    }

    RootedFs inner_;
    std::string poison_;
};

/// A static root with a DOCA prefix (no modules) and an empty PCI bus.
struct Tree {
    test::TempTree tree;
    Tree() {
        tree.mkdir("/opt/mellanox/doca/samples/doca_rdma");
        tree.mkdir("/sys/bus/pci/devices");
    }
    [[nodiscard]] CountingFs fs(std::string poison = "") const {
        return CountingFs(RootedFs::open(tree.root()).value(), std::move(poison));
    }
};

ProbeContext context(const Fs& fs, const Env& env) {
    return ProbeContext{fs, env, null_logger(), Deadline(10s), 5s, std::nullopt, false};
}

TEST_CASE("every row follows the probes it depends on, and its index is its id") {
    const auto rows = probe_registry();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        CAPTURE(rows[i].name);
        CHECK(static_cast<std::size_t>(rows[i].id) == i);
        CHECK(&probe_row(rows[i].id) == &rows[i]);
        for (const auto* deps : {&rows[i].depends_on, &rows[i].depends_on_live}) {
            for (ProbeId dep : *deps) CHECK(static_cast<std::size_t>(dep) < i);
        }
        CHECK_FALSE(rows[i].name.empty());
        CHECK_FALSE(rows[i].reads.empty());
        CHECK(probe_field(rows[i].id).find('-') == std::string_view::npos);
    }
}

TEST_CASE("the report runs the rows marked in_report, in registry order") {
    std::vector<ProbeId> marked;
    for (const auto& row : probe_registry()) {
        if (row.in_report) marked.push_back(row.id);
    }
    CHECK(std::vector<ProbeId>(kReportProbes.begin(), kReportProbes.end()) == marked);
    CHECK(kReportProbes.front() == ProbeId::install);
    CHECK(probe_field(ProbeId::version_matrix) == "version_matrix");
    CHECK(probe_field(ProbeId::doca_caps) == "doca_caps");
}

TEST_CASE(
    "the whole catalog: the rows' entries in registry order, then the tables of what has "
    "no row") {
    const auto catalog = check_catalog();
    std::set<std::string_view> ids;
    for (const FindingInfo* info : catalog) CHECK_MESSAGE(ids.insert(info->id).second, info->id);
    std::vector<const FindingInfo*> expected;
    for (const auto& row : probe_registry()) {
        for (const FindingInfo* own : row.findings) expected.push_back(own);
    }
    for (const auto table : {std::span<const FindingInfo* const>(kRegistryFindings),
                             std::span<const FindingInfo* const>(kSymbolsCommandFindings),
                             std::span<const FindingInfo* const>(kLoopbackCommandFindings),
                             std::span<const FindingInfo* const>(kGateFindings)}) {
        expected.insert(expected.end(), table.begin(), table.end());
    }
    // By id: an entry whose fix names the DPA devices is a copy with the table's wording.
    REQUIRE(catalog.size() == expected.size());
    for (std::size_t i = 0; i < catalog.size(); ++i) CHECK(catalog[i]->id == expected[i]->id);
    // The order docs/checks.md and --list-checks have always shown, at the joints of the tables.
    CHECK(catalog.front()->id == "doca-prefix");
    CHECK(catalog[11]->id == "rdmi-dpa-device");
    CHECK(catalog[18]->id == "rdmi-symbols-exported");
    CHECK(catalog[26]->id == "pcie-link");
    CHECK(catalog[27]->id == "roce-gid");
    CHECK(catalog[28]->id == "install-integrity");
    CHECK(catalog[29]->id == "<probe>-probe");
    CHECK(catalog[30]->id == "symbols-exported");
    CHECK(catalog[37]->id == "dpa-loopback");
    CHECK(catalog[38]->id == "min-version");
    CHECK(catalog.back()->id == "port-active");
    CHECK(find_check("install-probe") == &finding::probe_error);
    CHECK(find_check("module-doca-rdmi") == &finding::module);
    CHECK(find_check("no-such-check") == nullptr);
}

TEST_CASE("every catalog entry answers run, build or both, wherever it is declared") {
    for (const FindingInfo* info : check_catalog()) {
        CHECK_MESSAGE(info->purposes != Purposes::none, info->id);
        CHECK_MESSAGE(answers(info->purposes, Purposes::both), info->id);
    }
    // The rule's anchors (docs/report.md, "Run and build"): a compiler only builds, a driver only
    // runs, a missing library stops both.
    CHECK(finding::dpacc.purposes == Purposes::build);
    CHECK(finding::module.purposes == Purposes::build);
    CHECK(finding::uverbs_access.purposes == Purposes::run);
    CHECK(finding::library.purposes == Purposes::both);
    CHECK(find_check("pcie-link")->purposes == Purposes::run);
}

TEST_CASE("report --for: the checks, and the readiness, of one purpose") {
    Facts facts;
    facts.install.emplace();
    facts.install->checks = {
        Check{FindingId(finding::dpacc), Status::fail, "no dpacc", "install it", {}},
        Check{FindingId(finding::doca_caps), Status::pass, "doca_caps", "", {}},
        Check{FindingId(finding::library, "doca-rdmi"), Status::pass, "lib", "", {}}};
    facts.collected |= std::uint32_t{1} << static_cast<unsigned>(ProbeId::install);
    auto ids = [](const std::vector<Check>& checks) {
        std::vector<std::string> out;
        for (const auto& c : checks) out.push_back(c.id.str());
        return out;
    };
    CHECK(ids(report_checks(facts)) ==
          std::vector<std::string>{"dpacc", "doca-caps", "library-doca-rdmi"});
    facts.run.for_purposes = Purposes::run;
    CHECK(ids(report_checks(facts)) == std::vector<std::string>{"doca-caps", "library-doca-rdmi"});
    facts.run.for_purposes = Purposes::build;
    CHECK(ids(report_checks(facts)) == std::vector<std::string>{"dpacc", "library-doca-rdmi"});
    // Readiness does not depend on the run's own --for.
    CHECK(ready_for(facts, Purposes::run));
    CHECK_FALSE(ready_for(facts, Purposes::build));
    CHECK_FALSE(ready_for(facts, Purposes::both));
}

TEST_CASE("a probe runs once per run, however often it is asked for") {
    Tree tree;
    const auto fs = tree.fs();
    MapEnv env;
    const auto ctx = context(fs, env);
    Facts facts;
    collect(ctx, kReportProbes, facts);
    const int after_report = fs.accesses;
    CHECK(after_report > 0);
    for (const auto& row : probe_registry()) {
        // The loopback and install-integrity run only when asked for (their request).
        if (row.id != ProbeId::samples && row.id != ProbeId::loopback &&
            row.id != ProbeId::install_integrity)
            CHECK_MESSAGE(collected(facts, row.id), row.name);
    }
    // Asking again, alone or with what it depends on, reads nothing more.
    collect(ctx, kReportProbes, facts);
    collect(ctx, {ProbeId::install, ProbeId::system, ProbeId::devices}, facts);
    CHECK(fs.accesses == after_report);
    // A probe not yet run reads; its collected dependency does not run again.
    collect(ctx, {ProbeId::samples}, facts);
    CHECK(fs.accesses > after_report);
    REQUIRE(facts.samples);
    REQUIRE(facts.samples->paths.size() == 0);  // no doca-rdma module: nothing to look for
}

TEST_CASE("asking for a probe runs what it depends on first") {
    Tree tree;
    const auto fs = tree.fs();
    MapEnv env;
    Facts facts;
    collect(context(fs, env), {ProbeId::devices}, facts);
    CHECK(collected(facts, ProbeId::system));
    CHECK(collected(facts, ProbeId::verbs));
    CHECK(collected(facts, ProbeId::doca_caps));
    REQUIRE(facts.devices);
    CHECK(facts.devices->pci_bus_present);
    // doca-caps reads the install only on the live root: under a root, it is not run for it.
    CHECK_FALSE(collected(facts, ProbeId::install));
    CHECK_FALSE(facts.install);
}

TEST_CASE("the loopback under a root: its live-only dependency does not run") {
    Tree tree;
    const auto fs = tree.fs();
    MapEnv env;
    Facts facts;
    ProbeRequest request;
    request.loopback = LoopbackOptions{};
    collect(context(fs, env), {ProbeId::loopback}, facts, request);
    CHECK_FALSE(collected(facts, ProbeId::install));
    CHECK(fs.accesses == 0);
    REQUIRE(facts.loopback);
    CHECK(facts.loopback->result == Status::skip);
}

TEST_CASE("a probe without its request leaves its field empty") {
    Tree tree;
    const auto fs = tree.fs();
    MapEnv env;
    Facts facts;
    collect(context(fs, env), {ProbeId::loopback}, facts);
    CHECK(collected(facts, ProbeId::loopback));
    CHECK_FALSE(facts.loopback);
}

TEST_CASE("a probe that throws: recorded, the others still run, the report lists a failed check") {
    Tree tree;
    const auto fs = tree.fs("/sys");
    MapEnv env;
    Facts facts;
    collect(context(fs, env), kReportProbes, facts, {}, OnProbeError::record);
    REQUIRE(facts.probe_errors.size() == 1);
    CHECK(facts.probe_errors[0].probe == "system");
    CHECK(facts.probe_errors[0].message.find("poisoned read of /sys") != std::string::npos);
    CHECK_FALSE(facts.system);
    CHECK_FALSE(facts.devices);  // its input is missing; the error says why
    CHECK(facts.install);
    CHECK(facts.environment);
    const auto checks = report_checks(facts);
    std::size_t at = checks.size();
    for (std::size_t i = 0; i < checks.size(); ++i) {
        if (checks[i].id == "system-probe") at = i;
    }
    REQUIRE(at < checks.size());
    CHECK(checks[at].status == Status::fail);
    CHECK(
        checks[at].message.starts_with("PCI functions, platform and host kind: internal error: "));
    // In registry order: the install's checks before it, the environment's after it.
    CHECK(checks.front().id == facts.install->checks.front().id);
    CHECK(checks.back().id == facts.environment->checks.back().id);
    CHECK(overall_status(checks) == Status::fail);
}

TEST_CASE("a probe that throws: raised when the command asks so") {
    Tree tree;
    const auto fs = tree.fs("/sys");
    MapEnv env;
    Facts facts;
    CHECK_THROWS_AS(collect(context(fs, env), {ProbeId::devices}, facts), std::runtime_error);
}

TEST_CASE("the report's checks are each collected probe's, in registry order") {
    Facts facts;
    facts.install.emplace();
    facts.install->checks.push_back(Check{finding::doca_prefix, Status::pass, "p", "", {}});
    facts.environment.emplace();
    facts.environment->checks.push_back(Check{finding::env_ld_preload, Status::pass, "e", "", {}});
    facts.symbols = Result<SymbolsFacts>(Gap{GapReason::not_found, "no libdoca_rdmi"});
    // Not collected: their facts are not the report's.
    CHECK(report_checks(facts).empty());
    facts.collected = ~std::uint32_t{0};
    const auto checks = report_checks(facts);
    REQUIRE(checks.size() == 3);
    CHECK(checks[0].id == "doca-prefix");
    // The report audits doca-rdmi: the symbols probe's ids say so.
    CHECK(checks[1].id == "rdmi-symbols-exported");
    CHECK(checks[1].status == Status::skip);
    CHECK(checks[1].message == "no libdoca_rdmi");
    CHECK(checks[2].id == "env-ld-preload");
}

TEST_CASE("the contract view: the system scan, the samples, and the capabilities on request") {
    Tree tree;
    const auto fs = tree.fs();
    MapEnv env;
    Facts facts;
    facts.run.root = tree.tree.root();
    facts.run.live = false;
    facts.run.generated_at = "2026-01-01T00:00:00Z";
    collect(context(fs, env), contract::kContractProbes, facts);
    CHECK_FALSE(contract::contract_facts(facts, false).capabilities);
    // pcie-link's facts reach the view only when a document asked for them (state, caps).
    CHECK_FALSE(contract::contract_facts(facts, false).pcie_link);
    collect(context(fs, env), {ProbeId::pcie_link}, facts);
    CHECK(contract::contract_facts(facts, false).pcie_link);
    collect(context(fs, env), {ProbeId::doca_caps}, facts);
    const auto view = contract::contract_facts(facts, true);
    CHECK(view.generated_at == "2026-01-01T00:00:00Z");
    CHECK_FALSE(view.live);
    REQUIRE(view.capabilities);
    REQUIRE(view.capabilities->gaps.size() == 1);
    CHECK(view.capabilities->gaps[0].reason == GapReason::not_applicable);
}

TEST_CASE(
    "a live report loads the vendor libraries in one child, the symbol check in a fresh one") {
    // The fixture install: libdoca_common's runtime version, the DOCA capability query and (where
    // libibverbs is installed) the verbs listing share one child; the runtime symbol check needs
    // a child that has loaded nothing else. Before: one child per call. The prefix's libraries
    // are of the machine this test runs as, so they load (under an emulator too).
    const auto fs = RootedFs::open("/").value();
    MapEnv env;
    const ProbeContext ctx{fs,
                           env,
                           null_logger(),
                           Deadline(30s),
                           10s,
                           std::string(RDMI_TEST_FIXTURES_DIR) + "/native-prefixes/complete-3.3",
                           false};
    Facts facts;
    collect(ctx, kReportProbes, facts);
    REQUIRE(facts.install);
    const auto& runtime = facts.install->stack_versions.sources[4];
    REQUIRE_MESSAGE(runtime.raw.ok(), (runtime.raw.gap ? runtime.raw.gap->message : ""));
    REQUIRE(facts.doca_caps);
    CHECK_FALSE(facts.doca_caps->gap);
    REQUIRE(facts.symbols);
    REQUIRE(*facts.symbols);
    CHECK((*facts.symbols)->runtime.loaded);
    CHECK(ctx.worker->children_started() == 2);
}

}  // namespace
}  // namespace rdmi
