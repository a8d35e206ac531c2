// Times one hot path in-process on inputs of growing size, for bench/scaling.sh's tables:
//   scale_bench devices ROOT...   the devices probe (sysfs scan, platform, host kind, checks)
//   scale_bench symbols DIR...    the static symbol audit: ELF read, header scan, classification
//   scale_bench headers FILE...   the header scanner alone
// DIR holds libdoca_bench.so and include/doca_bench.h (bench/gen_versioned_lib.py). Prints one
// line per input: "<units> <median wall ms> <median CPU ms> <runs>", units being PCI functions,
// exported symbols or declarations. Asserts nothing: the fit and the verdict are the script's.
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "doca_headers/header_scanner.hpp"
#include "elf/elf_reader.hpp"
#include "elf/symbol_audit.hpp"
#include "os/env.hpp"
#include "os/rooted_fs.hpp"
#include "static_probe.hpp"

namespace {

using Clock = std::chrono::steady_clock;

/// CPU time this process has used (user + system), in ms.
double process_cpu_ms() {
    timespec now{};
    (void)clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

/// Medians of the wall time and of the CPU time of `run`, in ms. CPU time is what a shared,
/// loaded machine disturbs least. Repeats until half a second of wall time has been spent (at
/// least 5 runs, at most 200) after one warm-up run, so that small inputs get enough samples.
struct Timing {
    double wall_ms = 0;
    double cpu_ms = 0;
    int runs = 0;
};
Timing time_median(const std::function<void()>& run) {
    run();
    std::vector<double> wall;
    std::vector<double> cpu;
    double total = 0;
    while (wall.size() < 200 && (wall.size() < 5 || total < 500.0)) {
        const auto start = Clock::now();
        const double cpu_start = process_cpu_ms();
        run();
        cpu.push_back(process_cpu_ms() - cpu_start);
        wall.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        total += wall.back();
    }
    std::sort(wall.begin(), wall.end());
    std::sort(cpu.begin(), cpu.end());
    return {wall[wall.size() / 2], cpu[cpu.size() / 2], static_cast<int>(wall.size())};
}

[[noreturn]] void die(const std::string& what) {
    (void)std::fprintf(stderr, "scale_bench: %s\n", what.c_str());
    std::exit(2);
}

std::string read_or_die(const std::string& path) {
    auto fs = rdmi::RootedFs::open("/");
    if (!fs) die(fs.gap().message);
    auto bytes = fs->read_file(std::filesystem::absolute(path).string(), std::size_t{512} << 20U);
    if (!bytes) die(path + ": " + bytes.gap().message);
    return std::move(bytes).value();
}

void print(std::size_t units, const Timing& t) {
    (void)std::printf("%zu %.4f %.4f %d\n", units, t.wall_ms, t.cpu_ms, t.runs);
    (void)std::fflush(stdout);
}

void devices(const std::string& root) {
    auto fs = rdmi::RootedFs::open(root);
    if (!fs) die(root + ": " + fs.gap().message);
    spdlog::logger log("scale_bench", std::make_shared<spdlog::sinks::null_sink_st>());
    const rdmi::MapEnv env;
    std::size_t functions = 0;
    const auto timing = time_median(
        [&] { functions = bench::probe_devices(bench::static_probe_context(*fs, env, log)); });
    print(functions, timing);
}

void symbols(const std::string& dir) {
    const auto bytes = read_or_die(dir + "/libdoca_bench.so");
    const auto header = read_or_die(dir + "/include/doca_bench.h");
    std::size_t count = 0;
    const auto timing = time_median([&] {
        auto image = rdmi::parse_elf(bytes);
        if (!image) die(dir + ": " + image.gap().message);
        const auto scan = rdmi::scan_header(header, "doca_bench.h");
        const auto audit = rdmi::classify(*image, {}, scan.decls, {},
                                          rdmi::ClassifyOptions{"doca_bench_", "lib", ""});
        count = audit.symbols.size();
    });
    print(count, timing);
}

void headers(const std::string& file) {
    const auto text = read_or_die(file);
    std::size_t decls = 0;
    const auto timing = time_median([&] { decls = rdmi::scan_header(text, "h").decls.size(); });
    print(decls, timing);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) die("usage: scale_bench devices|symbols|headers INPUT...");
    const std::string_view mode = argv[1];
    void (*each)(const std::string&) = nullptr;
    if (mode == "devices") each = devices;
    if (mode == "symbols") each = symbols;
    if (mode == "headers") each = headers;
    if (each == nullptr) die("unknown mode " + std::string(mode));
    for (int i = 2; i < argc; ++i) each(argv[i]);
    return 0;
}
