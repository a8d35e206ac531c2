// Benchmarks the sysfs scan, and the whole devices probe built on it, over the generated fixture
// roots: time per scan and per PCI function (the per_function counter).
#include <benchmark/benchmark.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <string>

#include "host/platform.hpp"
#include "os/env.hpp"
#include "os/rooted_fs.hpp"
#include "static_probe.hpp"
#include "sysfs/devices.hpp"

namespace {

rdmi::RootedFs open_root(const char* scenario) {
    auto fs = rdmi::RootedFs::open(std::string(RDMI_SYSFS_FIXTURES_DIR) + "/" + scenario);
    if (!fs.ok()) throw std::runtime_error(fs.gap().message);
    return fs.value();
}

// Seconds per function per scan: the linearity figure.
void per_function(benchmark::State& state, std::size_t functions) {
    state.counters["functions"] = static_cast<double>(functions);
    state.counters["per_function"] = benchmark::Counter(
        static_cast<double>(functions),
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void scan_devices_of(benchmark::State& state, const char* scenario) {
    const auto fs = open_root(scenario);
    std::size_t functions = 0;
    for (auto _ : state) {
        auto inventory = rdmi::sysfs::scan_devices(fs);
        functions = inventory.functions.size();
        benchmark::DoNotOptimize(inventory);
    }
    per_function(state, functions);
}

void BM_scan_devices_scale(benchmark::State& state) {
    scan_devices_of(state, "scale");
}
void BM_scan_devices_cx7_vfs(benchmark::State& state) {
    scan_devices_of(state, "cx7-vfs");
}
void BM_scan_devices_bf3_arm(benchmark::State& state) {
    scan_devices_of(state, "bf3-arm");
}

// The devices probe as the report runs it under --root (bench::probe_devices).
void probe_devices_of(benchmark::State& state, const char* scenario) {
    const auto fs = open_root(scenario);
    const rdmi::MapEnv env;
    // Not registered: Google Benchmark calls this function more than once.
    spdlog::logger log("sysfs_bench", std::make_shared<spdlog::sinks::null_sink_st>());
    std::size_t functions = 0;
    for (auto _ : state) {
        functions = bench::probe_devices(bench::static_probe_context(fs, env, log));
        benchmark::DoNotOptimize(functions);
    }
    per_function(state, functions);
}

void BM_probe_devices_scale(benchmark::State& state) {
    probe_devices_of(state, "scale");
}
void BM_probe_devices_cx7_vfs(benchmark::State& state) {
    probe_devices_of(state, "cx7-vfs");
}

void BM_scan_platform_scale(benchmark::State& state) {
    const auto fs = open_root("scale");
    for (auto _ : state) {
        auto facts = rdmi::host::scan_platform(fs, std::nullopt);
        benchmark::DoNotOptimize(facts);
    }
}

}  // namespace

BENCHMARK(BM_scan_devices_scale)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_scan_devices_cx7_vfs)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_scan_devices_bf3_arm)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_probe_devices_scale)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_probe_devices_cx7_vfs)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_scan_platform_scale)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
