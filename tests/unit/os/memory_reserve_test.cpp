#include "os/memory_reserve.hpp"

#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <new>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

// In a child: the parent's heap and new-handler stay as they were.
template <typename Body>
int in_child(Body body) {
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(body());
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

// VmSize: what RLIMIT_AS is compared with.
rlim_t address_space_in_use() {
    std::FILE* statm = std::fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (statm != nullptr) {
        if (std::fscanf(statm, "%lu", &pages) != 1) pages = 0;
        std::fclose(statm);
    }
    return static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE));
}

}  // namespace

TEST_CASE("memory reserve: a failed allocation releases it and still throws bad_alloc") {
    const int code = in_child([] {
        rdmi::arm_memory_reserve(rdmi::kMemoryReserveBytes);
        if (!rdmi::memory_reserve_held()) return 10;
        try {
            std::get_new_handler()();
            return 11;  // the handler must not return: the allocation that failed still fails
        } catch (const std::bad_alloc&) {
        }
        if (rdmi::memory_reserve_held()) return 12;
        rdmi::arm_memory_reserve(rdmi::kMemoryReserveBytes);
        return rdmi::memory_reserve_held() ? 0 : 13;
    });
    CHECK(code == 0);
}

// What the reserve is for: a document half built when the address space ran out is destroyed
// while the bad_alloc unwinds, and nlohmann::json's destructor allocates its work list then.
// Without the reserve that allocation fails too and the process aborts (std::terminate).
TEST_CASE("memory reserve: a JSON tree destroyed by a bad_alloc's unwinding does not abort") {
#ifdef RDMI_PROBE_SANITIZED
    // The sanitizers' allocator reserves terabytes of address space: no RLIMIT_AS fits it.
    return;
#endif
    const int code = in_child([] {
        rdmi::arm_memory_reserve(rdmi::kMemoryReserveBytes);
        try {
            nlohmann::json document = nlohmann::json::array();
            for (int i = 0; i <= 20000; ++i) {
                nlohmann::json entry = nlohmann::json::object();
                entry["path"] = std::string(64, 'x') + std::to_string(i);
                document.push_back(std::move(entry));
            }
            // From here on the address space may grow by 256 KiB, which the ballast uses up:
            // freeing the tree's 20,001 entries needs a 320 KiB work list, which only the
            // reserve's megabyte, given back when the ballast's allocation fails, makes room for.
            rlimit limit{};
            ::getrlimit(RLIMIT_AS, &limit);
            limit.rlim_cur = address_space_in_use() + (256U << 10);
            ::setrlimit(RLIMIT_AS, &limit);
            std::vector<char*> ballast;
            ballast.reserve(1U << 16);
            for (;;) ballast.push_back(new char[4096]);
        } catch (const std::bad_alloc&) {
            return 0;
        }
    });
    CHECK(code == 0);
}
