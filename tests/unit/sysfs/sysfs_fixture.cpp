// Test helpers for the sysfs layer.
#include "sysfs_fixture.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <map>

namespace rdmi::test {

std::string sysfs_fixture_dir(std::string_view scenario) {
    return std::string(RDMI_SYSFS_FIXTURES_DIR) + "/" + std::string(scenario);
}

RootedFs sysfs_fixture(std::string_view scenario) {
    auto fs = RootedFs::open(sysfs_fixture_dir(scenario));
    REQUIRE_MESSAGE(fs.ok(), "fixture root missing: ", sysfs_fixture_dir(scenario));
    return fs.value();
}

MemoryFs sysfs_fixture_in_memory(std::string_view scenario) {
    static std::map<std::string, MemoryFs, std::less<>> read;
    auto it = read.find(scenario);
    if (it == read.end())
        it = read.emplace(scenario, MemoryFs::copy_of(sysfs_fixture_dir(scenario))).first;
    return it->second;
}

int run_fixture_script(const std::string& args) {
    const std::string command = std::string("/usr/bin/python3 ") + RDMI_SYSFS_FIXTURE_SCRIPT + " " +
                                args + " >/dev/null 2>&1";
    const int status = std::system(command.c_str());  // NOLINT(cert-env33-c): fixed test command
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace rdmi::test
