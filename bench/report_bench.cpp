// Benchmarks every JSON emitter (full report, env, caps, state, symbols) on the facts collected
// from the bench root (the complete DOCA 3.3 fixture install with 8 PCI functions), and the
// static probe run that collects them: the in-process part of `rdmi-probe --json --root`.
// Bytes/s is the emitter's throughput; the collection runs once, outside the timed loop.
#include <benchmark/benchmark.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "json/document_layout.hpp"
#include "json/json_common.hpp"
#include "mcp/compact_document.hpp"
#include "model/contract_facts.hpp"
#include "model/registry.hpp"
#include "os/env.hpp"
#include "os/rooted_fs.hpp"
#include "probes/symbols/symbols.hpp"
#include "report/contract_common.hpp"
#include "report/contract_documents.hpp"
#include "report/json_report.hpp"
#include "report/symbols_json.hpp"
#include "static_probe.hpp"

namespace {

/// The bench root and the seams a probe needs, as the CLI sets them up for --root.
struct Fixture {
    rdmi::RootedFs fs;
    rdmi::MapEnv env;
    std::shared_ptr<spdlog::logger> log = spdlog::null_logger_st("report_bench");

    [[nodiscard]] rdmi::ProbeContext context() const {
        return bench::static_probe_context(fs, env, *log);
    }
};

const Fixture& fixture() {
    static const Fixture instance = [] {
        auto fs = rdmi::RootedFs::open(RDMI_BENCH_ROOT);
        if (!fs) {
            (void)std::fprintf(stderr, "report_bench: %s: %s\n", RDMI_BENCH_ROOT,
                               fs.gap().message.c_str());
            std::exit(2);
        }
        return Fixture{*fs, {}};
    }();
    return instance;
}

const rdmi::json::RunFacts kRun{"2026-01-01T00:00:00Z", RDMI_BENCH_ROOT, false};

/// Times `emit` (facts -> document text) and reports bytes/s and the document size.
template <typename Emit>
void emit_loop(benchmark::State& state, Emit&& emit) {
    std::size_t bytes = 0;
    for (auto _ : state) {
        const std::string text = emit();
        bytes = text.size();
        benchmark::DoNotOptimize(text.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
    state.counters["doc_bytes"] = static_cast<double>(bytes);
}

rdmi::Facts collect_report() {
    rdmi::Facts report;
    report.run.root = RDMI_BENCH_ROOT;
    report.run.live = false;
    rdmi::collect(fixture().context(), rdmi::kReportProbes, report, {}, rdmi::OnProbeError::record);
    return report;
}

void BM_probe_all_static(benchmark::State& state) {
    std::size_t functions = 0;
    for (auto _ : state) {
        auto report = collect_report();
        functions = report.devices ? report.devices->inventory.functions.size() : 0;
        benchmark::DoNotOptimize(report);
    }
    state.counters["functions"] = static_cast<double>(functions);
}

void BM_emit_report(benchmark::State& state) {
    const auto report = collect_report();
    emit_loop(state, [&] { return rdmi::json::dump(rdmi::json::report(report)); });
}

// The two halves of BM_emit_report: building the tree, and writing it as text. Together they
// say what a writer (sections written as they are produced, no tree) could save at most.
void BM_report_tree(benchmark::State& state) {
    const auto report = collect_report();
    for (auto _ : state) {
        auto tree = rdmi::json::report(report);
        benchmark::DoNotOptimize(tree);
    }
}

void BM_report_dump(benchmark::State& state) {
    const auto tree = rdmi::json::report(collect_report());
    emit_loop(state, [&] { return rdmi::json::dump(tree); });
}

// The tree streamed as `report --json` writes it (json::dump_to), indented (a command line) or
// compact (a forked MCP call's child): what the layout costs the writer.
void stream_loop(benchmark::State& state, rdmi::json::DocumentLayout layout) {
    const auto tree = rdmi::json::report(collect_report());
    rdmi::json::set_streamed_layout(layout);
    emit_loop(state, [&] {
        std::string text;
        rdmi::json::dump_to(tree, [&](std::string_view piece) {
            text.append(piece);
            return true;
        });
        return text;
    });
    rdmi::json::set_streamed_layout(rdmi::json::DocumentLayout::indented);
}

void BM_report_stream_indented(benchmark::State& state) {
    stream_loop(state, rdmi::json::DocumentLayout::indented);
}

void BM_report_stream_compact(benchmark::State& state) {
    stream_loop(state, rdmi::json::DocumentLayout::compact);
}

// The MCP server's part of a `report` call's answer (mcp/server.cpp's send_compact): the
// child's document made compact, then written twice into the answer's line, once escaped.
void server_answer_loop(benchmark::State& state, rdmi::json::DocumentLayout layout) {
    const auto tree = rdmi::json::report(collect_report());
    const std::string document = layout == rdmi::json::DocumentLayout::compact
                                     ? tree.dump(-1) + "\n"
                                     : rdmi::json::dump(tree);
    emit_loop(state, [&] {
        const auto compact = rdmi::mcp::compact_document(document, 128);
        std::string line;
        line.reserve(2 * compact->size() + compact->size() / 8 + 128);
        rdmi::mcp::append_json_escaped(line, *compact);
        line += *compact;
        return line;
    });
}

void BM_server_answer_from_indented(benchmark::State& state) {
    server_answer_loop(state, rdmi::json::DocumentLayout::indented);
}

void BM_server_answer_from_compact(benchmark::State& state) {
    server_answer_loop(state, rdmi::json::DocumentLayout::compact);
}

void contract_loop(benchmark::State& state, bool with_capabilities,
                   rdmi::contract::Document (*build)(const rdmi::contract::ContractFacts&)) {
    rdmi::Facts collected;
    collected.run.root = RDMI_BENCH_ROOT;
    collected.run.live = false;
    rdmi::collect(fixture().context(), rdmi::contract::kContractProbes, collected);
    rdmi::collect(fixture().context(), {rdmi::ProbeId::doca_caps}, collected);
    const auto facts = rdmi::contract::contract_facts(std::move(collected), with_capabilities);
    emit_loop(state, [&] {
        return rdmi::json::dump(rdmi::json::contract_json(build(facts), kRun, false));
    });
}

void BM_emit_env(benchmark::State& state) {
    contract_loop(state, false, &rdmi::json::env_document);
}
void BM_emit_caps(benchmark::State& state) {
    contract_loop(state, true, &rdmi::json::caps_document);
}
rdmi::contract::Document host_state(const rdmi::contract::ContractFacts& facts) {
    return rdmi::json::state_document(facts, rdmi::json::Side::host);
}
void BM_emit_state(benchmark::State& state) {
    contract_loop(state, false, &host_state);
}

void BM_emit_symbols(benchmark::State& state) {
    auto facts = rdmi::probe_symbols(fixture().context(), rdmi::SymbolsRequest{});
    if (!facts) {
        state.SkipWithError(facts.gap().message.c_str());
        return;
    }
    rdmi::RunInfo run;
    run.root = RDMI_BENCH_ROOT;
    run.live = false;
    emit_loop(state, [&] { return rdmi::json::symbols_document(*facts, run); });
}

}  // namespace

BENCHMARK(BM_probe_all_static)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_emit_report)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_report_tree)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_report_dump)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_report_stream_indented)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_report_stream_compact)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_server_answer_from_indented)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_server_answer_from_compact)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_emit_env)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_emit_caps)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_emit_state)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_emit_symbols)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
