// Benchmarks the symbol audit's static half on generated 20,000- and 100,000-symbol versioned
// libraries (bench/gen_versioned_lib.py): the ELF read (.dynsym and its version sections), the
// loader's read of the dynamic section, the header scan, the classification, the three
// together, and then the whole static `symbols` probe (as `rdmi-probe symbols --root DIR --lib
// DIR/libdoca_bench.so --headers DIR/include` runs it) and its JSON document. The per_1k counter
// is the CPU time per 1,000 symbols (or declarations): equal at both sizes means linear growth.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include "doca_headers/header_scanner.hpp"
#include "elf/elf_reader.hpp"
#include "elf/symbol_audit.hpp"
#include "json/json_common.hpp"
#include "loader/elf_dynamic.hpp"
#include "os/env.hpp"
#include "os/rooted_fs.hpp"
#include "probes/symbols/symbols.hpp"
#include "report/symbols_json.hpp"
#include "static_probe.hpp"

namespace {

std::string read_or_die(const std::string& path) {
    auto fs = rdmi::RootedFs::open("/");
    auto bytes = fs->read_file(path, std::size_t{512} << 20U);
    if (!bytes.ok()) {
        (void)std::fprintf(stderr, "elf_bench: %s: %s\n", path.c_str(),
                           bytes.gap().message.c_str());
        std::exit(2);
    }
    return std::move(bytes).value();
}

std::string library_of(const char* dir) {
    return read_or_die(std::string(dir) + "/libdoca_bench.so");
}
std::string header_of(const char* dir) {
    return read_or_die(std::string(dir) + "/include/doca_bench.h");
}

const rdmi::ClassifyOptions kOptions{"doca_bench_", "libdoca_bench.so", ""};

/// Items per second, and seconds per 1,000 items (printed in the benchmark's time unit).
void per_thousand(benchmark::State& state, std::size_t items) {
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * items));
    state.counters["per_1k"] = benchmark::Counter(
        static_cast<double>(items) / 1000.0,
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void read_elf(benchmark::State& state, const char* dir) {
    const auto bytes = library_of(dir);
    std::size_t symbols = 0;
    for (auto _ : state) {
        auto image = rdmi::parse_elf(bytes);
        symbols = image->dynamic_symbols.size();
        benchmark::DoNotOptimize(image);
    }
    per_thousand(state, symbols);
}

// The load closure's read of one object's PT_DYNAMIC (through libelf, over a writable copy as
// the closure's private mapping is): the cost per library of a closure.
void read_dynamic(benchmark::State& state, const char* dir) {
    auto bytes = library_of(dir);
    for (auto _ : state) {
        auto info = rdmi::read_dynamic_info(bytes);
        benchmark::DoNotOptimize(info);
    }
}

void scan_header(benchmark::State& state, const char* dir) {
    const auto text = header_of(dir);
    std::size_t decls = 0;
    for (auto _ : state) {
        auto result = rdmi::scan_header(text, "doca_bench.h");
        decls = result.decls.size();
        benchmark::DoNotOptimize(result);
    }
    per_thousand(state, decls);
}

void classify(benchmark::State& state, const char* dir) {
    const auto image = rdmi::parse_elf(library_of(dir));
    const auto text = header_of(dir);  // the declarations view it
    const auto headers = rdmi::scan_header(text, "doca_bench.h");
    std::size_t symbols = 0;
    for (auto _ : state) {
        auto audit = rdmi::classify(*image, {}, headers.decls, {}, kOptions);
        symbols = audit.symbols.size();
        benchmark::DoNotOptimize(audit);
    }
    per_thousand(state, symbols);
}

void static_audit(benchmark::State& state, const char* dir) {
    const auto bytes = library_of(dir);
    const auto text = header_of(dir);
    std::size_t symbols = 0;
    for (auto _ : state) {
        auto image = rdmi::parse_elf(bytes);
        auto headers = rdmi::scan_header(text, "doca_bench.h");
        auto audit = rdmi::classify(*image, {}, headers.decls, {}, kOptions);
        symbols = audit.symbols.size();
        benchmark::DoNotOptimize(audit);
    }
    per_thousand(state, symbols);
}

/// The symbols probe under --root DIR: nothing is loaded, no child runs.
rdmi::Result<rdmi::SymbolsFacts> probe_static(const char* dir) {
    auto fs = rdmi::RootedFs::open(dir);
    if (!fs) return fs.gap();
    const rdmi::MapEnv env;
    spdlog::logger log("elf_bench", std::make_shared<spdlog::sinks::null_sink_st>());
    const auto ctx = bench::static_probe_context(*fs, env, log, std::chrono::seconds(120),
                                                 std::chrono::seconds(60));
    rdmi::SymbolsRequest request;
    request.library = "/libdoca_bench.so";
    request.headers_dir = "/include";
    return rdmi::probe_symbols(ctx, request);
}

void symbols_probe(benchmark::State& state, const char* dir) {
    std::size_t symbols = 0;
    for (auto _ : state) {
        auto facts = probe_static(dir);
        if (!facts) {
            state.SkipWithError(facts.gap().message.c_str());
            return;
        }
        symbols = facts->audit.symbols.size();
        benchmark::DoNotOptimize(facts);
    }
    per_thousand(state, symbols);
}

void symbols_json(benchmark::State& state, const char* dir) {
    const auto facts = probe_static(dir);
    if (!facts) {
        state.SkipWithError(facts.gap().message.c_str());
        return;
    }
    rdmi::RunInfo run;
    run.root = dir;
    run.live = false;
    std::size_t bytes = 0;
    for (auto _ : state) {
        const auto text = rdmi::json::symbols_document(*facts, run);
        bytes = text.size();
        benchmark::DoNotOptimize(text.data());
    }
    per_thousand(state, facts->audit.symbols.size());
    state.counters["doc_bytes"] = static_cast<double>(bytes);
}

}  // namespace

BENCHMARK_CAPTURE(read_elf, 20k, RDMI_BENCH_SYMBOLS_20K)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(read_elf, 100k, RDMI_BENCH_SYMBOLS_100K)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(read_dynamic, 20k, RDMI_BENCH_SYMBOLS_20K)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(read_dynamic, 100k, RDMI_BENCH_SYMBOLS_100K)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(scan_header, 20k, RDMI_BENCH_SYMBOLS_20K)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(scan_header, 100k, RDMI_BENCH_SYMBOLS_100K)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(classify, 20k, RDMI_BENCH_SYMBOLS_20K)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(classify, 100k, RDMI_BENCH_SYMBOLS_100K)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(static_audit, 20k, RDMI_BENCH_SYMBOLS_20K)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(static_audit, 100k, RDMI_BENCH_SYMBOLS_100K)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symbols_probe, 20k, RDMI_BENCH_SYMBOLS_20K)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symbols_probe, 100k, RDMI_BENCH_SYMBOLS_100K)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symbols_json, 20k, RDMI_BENCH_SYMBOLS_20K)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(symbols_json, 100k, RDMI_BENCH_SYMBOLS_100K)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
