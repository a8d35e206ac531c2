// Benchmarks the symbol audit's static half: ELF parse, header scan and classification, on
// generated 20,000- and 100,000-symbol versioned libraries, with readelf/nm timings for scale.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "elf/elf_reader.hpp"
#include "elf/symbol_audit.hpp"
#include "headers/header_scanner.hpp"
#include "os/rooted_fs.hpp"

namespace {

std::string read_or_die(const std::string& path) {
    auto fs = rdmi::RootedFs::open("/");
    auto bytes = fs->read_file(path, std::size_t{512} << 20U);
    if (!bytes.ok()) {
        std::fprintf(stderr, "elf_bench: %s: %s\n", path.c_str(), bytes.gap().message.c_str());
        std::exit(2);
    }
    return std::move(bytes).value();
}

std::string header_of(const std::string& library) {
    return library.substr(0, library.size() - 3) + ".h";  // libdoca_bench_N.so -> .h
}

void parse(benchmark::State& state, const char* path) {
    const auto bytes = read_or_die(path);
    std::size_t symbols = 0;
    for (auto _ : state) {
        auto image = rdmi::parse_elf(bytes);
        symbols = image->dynamic_symbols.size();
        benchmark::DoNotOptimize(image);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * symbols));
}

void scan(benchmark::State& state, const char* path) {
    const auto text = read_or_die(header_of(path));
    std::size_t decls = 0;
    for (auto _ : state) {
        auto result = rdmi::scan_header(text, "bench.h");
        decls = result.decls.size();
        benchmark::DoNotOptimize(result);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * decls));
}

void parse_scan_classify(benchmark::State& state, const char* path) {
    const auto bytes = read_or_die(path);
    const auto text = read_or_die(header_of(path));
    std::size_t symbols = 0;
    for (auto _ : state) {
        auto image = rdmi::parse_elf(bytes);
        auto headers = rdmi::scan_header(text, "bench.h");
        auto audit = rdmi::classify(*image, {}, headers.decls, {},
                                    rdmi::ClassifyOptions{"doca_bench_", "lib", ""});
        symbols = audit.symbols.size();
        benchmark::DoNotOptimize(audit);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * symbols));
}

// Wall time of a shell command, best of five, for comparison only.
void time_tool(const char* label, const std::string& command) {
    double best = 1e30;
    for (int i = 0; i < 5; ++i) {
        const auto start = std::chrono::steady_clock::now();
        if (std::system((command + " >/dev/null 2>&1").c_str()) != 0) return;
        const std::chrono::duration<double, std::milli> took =
            std::chrono::steady_clock::now() - start;
        best = std::min(best, took.count());
    }
    std::printf("%-40s %8.2f ms (best of 5, incl. process start)\n", label, best);
}

}  // namespace

BENCHMARK_CAPTURE(parse, 20k, RDMI_BENCH_LIB_20K)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(parse, 100k, RDMI_BENCH_LIB_100K)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(scan, 20k, RDMI_BENCH_LIB_20K)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(scan, 100k, RDMI_BENCH_LIB_100K)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(parse_scan_classify, 20k, RDMI_BENCH_LIB_20K)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(parse_scan_classify, 100k, RDMI_BENCH_LIB_100K)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::printf("\nFor scale:\n");
    time_tool("readelf --dyn-syms -W (20k)",
              std::string("readelf --dyn-syms -W ") + RDMI_BENCH_LIB_20K);
    time_tool("readelf --dyn-syms -W (100k)",
              std::string("readelf --dyn-syms -W ") + RDMI_BENCH_LIB_100K);
    time_tool("nm -D (100k)", std::string("nm -D ") + RDMI_BENCH_LIB_100K);
    return 0;
}
