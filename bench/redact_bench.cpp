// Times redaction alone on the files it is given, as `gather --redact` redacts a stored file
// (Redactor::binary for an ELF file or one holding a NUL, Redactor::text otherwise):
//   redact_bench FILE...
// Prints one line per file: "<bytes> <kind> <median CPU ms> <MB/s> <runs> <outcome>", outcome
// being "same length", "text" or "left out". Asserts nothing.
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bundle/redact.hpp"

namespace {

double cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        std::ifstream in(argv[i], std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "redact_bench: cannot read %s\n", argv[i]);
            return 2;
        }
        const std::string bytes{std::istreambuf_iterator<char>(in),
                                std::istreambuf_iterator<char>()};
        const bool binary = rdmi::bundle::is_binary(bytes);
        std::vector<double> times;
        std::string outcome;
        for (int run = 0; run < 5; ++run) {
            rdmi::bundle::Redactor redactor({"node7.example.com"});
            const double start = cpu_ms();
            if (binary) {
                auto out = redactor.binary(bytes);
                outcome = !out                          ? "left out"
                          : out->size() == bytes.size() ? "same length"
                                                        : "LENGTH CHANGED";
            } else {
                outcome = redactor.text(bytes, argv[i]).empty() ? "empty" : "text";
            }
            times.push_back(cpu_ms() - start);
        }
        std::sort(times.begin(), times.end());
        const double median = times[times.size() / 2];
        std::printf("%s: %zu bytes %s %.1f ms CPU (median of %zu) %.0f MB/s, %s\n", argv[i],
                    bytes.size(), binary ? "binary" : "text", median, times.size(),
                    median > 0 ? static_cast<double>(bytes.size()) / 1e3 / median : 0.0,
                    outcome.c_str());
    }
    return 0;
}
