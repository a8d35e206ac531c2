// Tests for the containment of the children that run vendor code and tools: what
// /proc/self/status says in each kind of child, file writes refused by Landlock, the grants, and
// the status the report shows.
#include "process/containment.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "process/isolated_call.hpp"
#include "process/isolated_worker.hpp"
#include "process/landlock.hpp"
#include "process/process.hpp"
#include "support/temp_tree.hpp"
#include "support/without_landlock.hpp"
#include "text/text.hpp"

namespace rdmi {
namespace {

using namespace std::chrono_literals;

// "NoNewPrivs:\t1" -> "1": the field of /proc/self/status of the calling process.
std::string status_field(const std::string& name) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(name + ":", 0) == 0) return std::string(trim(line.substr(name.size() + 1)));
    }
    return "?";
}

// What a contained child says of itself, and whether it could create `file`.
std::string self_report(const std::string& file) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    const std::string created = fd >= 0 ? "created" : std::strerror(errno);  // NOLINT
    if (fd >= 0) ::close(fd);
    return "NoNewPrivs=" + status_field("NoNewPrivs") + " CapEff=" + status_field("CapEff") +
           " CapBnd=" + status_field("CapBnd") + " CapAmb=" + status_field("CapAmb") + " " +
           created;
}

std::string hex_mask(CapabilityMask mask) {
    std::ostringstream out;
    out.width(16);
    out.fill('0');
    out << std::hex << mask;
    return out.str();
}

bool running_as_root() {
    return ::geteuid() == 0;
}

bool kernel_has_full_landlock() {
    return landlock_support().abi >= kLandlockFullAbi;
}

// The file the library-worker task tries to create (set before the worker forks).
std::string g_worker_file;  // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)

std::string worker_self_report(std::string_view /*request*/) {
    return self_report(g_worker_file);
}

}  // namespace

TEST_CASE("an isolated call runs with no_new_privs, no capabilities and no file writes") {
    test::TempTree tree;
    const std::string file = tree.host("/planted");
    auto r = run_isolated([&file] { return self_report(file); }, Deadline(5s), "self-report");
    REQUIRE_MESSAGE(r.ok(), r.gap().message);
    CHECK(r->find("NoNewPrivs=1 ") != std::string::npos);
    CHECK(r->find("CapEff=0000000000000000 ") != std::string::npos);
    CHECK(r->find("CapAmb=0000000000000000 ") != std::string::npos);
    // Root holds CAP_SETPCAP, so the bounding set went too: an exec cannot regain anything.
    if (running_as_root()) CHECK(r->find("CapBnd=0000000000000000 ") != std::string::npos);
    if (kernel_has_full_landlock()) {
        CHECK(r->find(" Permission denied") != std::string::npos);
        CHECK(::access(file.c_str(), F_OK) != 0);
    }
    // The parent is untouched.
    CHECK(status_field("NoNewPrivs") == "0");
}

TEST_CASE("the loopback child keeps CAP_IPC_LOCK, CAP_NET_RAW and CAP_SYS_RAWIO, and its file") {
    test::TempTree tree;
    tree.write("/trace.jsonl", "");
    const std::string trace = tree.host("/trace.jsonl");
    const std::string other = tree.host("/other");
    auto r = run_isolated(
        [&] {
            const int fd = ::open(trace.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
            const std::string appended = fd >= 0 ? "appended" : std::strerror(errno);  // NOLINT
            if (fd >= 0) ::close(fd);
            return appended + " " + self_report(other);
        },
        Deadline(5s), "loopback self-report", {ContainedWork::loopback, {trace}, {}});
    REQUIRE_MESSAGE(r.ok(), r.gap().message);
    CHECK(r->rfind("appended ", 0) == 0);
    CHECK(r->find("NoNewPrivs=1 ") != std::string::npos);
    if (running_as_root()) {
        const std::string kept =
            hex_mask(capability_bit(CAP_IPC_LOCK) | capability_bit(CAP_NET_RAW) |
                     capability_bit(CAP_SYS_RAWIO));
        CHECK(r->find("CapEff=" + kept + " ") != std::string::npos);
        CHECK(r->find("CapBnd=" + kept + " ") != std::string::npos);
    }
    if (kernel_has_full_landlock()) CHECK(r->find(" Permission denied") != std::string::npos);
}

TEST_CASE("the rpm database reader is contained under --root too, writing only its copy's dir") {
    const ContainmentSettings saved = containment_settings();
    configure_containment({false, "--root: nothing is loaded or run", true});
    struct Restore {
        ContainmentSettings settings;
        ~Restore() { configure_containment(settings); }
    } const restore{saved};
    test::TempTree tree;
    tree.mkdir("/copy");
    const std::string beside_copy = tree.host("/copy/rpmdb.sqlite-shm");
    const std::string elsewhere = tree.host("/elsewhere");
    ContainmentRequest request;
    request.work = ContainedWork::package_database;
    request.writable_dirs = {tree.host("/copy")};
    auto r = run_isolated(
        [&] {
            const int fd =
                ::open(beside_copy.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
            const std::string made = fd >= 0 ? "made" : std::strerror(errno);  // NOLINT
            if (fd >= 0) ::close(fd);
            return made + " " + self_report(elsewhere);
        },
        Deadline(5s), "rpm reader self-report", request);
    REQUIRE_MESSAGE(r.ok(), r.gap().message);
    CHECK(r->rfind("made ", 0) == 0);
    CHECK(r->find("NoNewPrivs=1 CapEff=0000000000000000 ") != std::string::npos);
    if (kernel_has_full_landlock()) {
        CHECK(r->find(" Permission denied") != std::string::npos);
        CHECK(::access(elsewhere.c_str(), F_OK) != 0);
    }
}

TEST_CASE("the library worker child is contained before its first call") {
    test::TempTree tree;
    g_worker_file = tree.host("/planted");
    IsolatedWorker worker;
    auto r = worker.call(&worker_self_report, "", Deadline(5s), "worker self-report");
    REQUIRE_MESSAGE(r.ok(), r.gap().message);
    CHECK(r->find("NoNewPrivs=1 CapEff=0000000000000000 ") != std::string::npos);
    if (kernel_has_full_landlock()) {
        CHECK(r->find(" Permission denied") != std::string::npos);
        CHECK(::access(g_worker_file.c_str(), F_OK) != 0);
    }
}

TEST_CASE("a tool runs with no_new_privs and no capabilities, and what it executes too") {
    test::TempTree tree;
    const std::string file = tree.host("/planted");
    // grep is executed by the shell: an exec under no_new_privs regains nothing, even as root.
    auto out = run_process({"/bin/sh", "-c",
                            "grep -E '^(NoNewPrivs|CapEff|CapBnd|CapAmb):' /proc/self/status; "
                            "if (: > " +
                                file +
                                ") 2>/dev/null; then echo created; else echo "
                                "refused; fi"},
                           Deadline(5s));
    REQUIRE_MESSAGE(out.ok(), out.gap().message);
    CHECK(out->stdout_text.find("NoNewPrivs:\t1\n") != std::string::npos);
    CHECK(out->stdout_text.find("CapEff:\t0000000000000000\n") != std::string::npos);
    CHECK(out->stdout_text.find("CapAmb:\t0000000000000000\n") != std::string::npos);
    if (running_as_root())
        CHECK(out->stdout_text.find("CapBnd:\t0000000000000000\n") != std::string::npos);
    if (kernel_has_full_landlock()) {
        CHECK(out->stdout_text.find("refused\n") != std::string::npos);
        CHECK(::access(file.c_str(), F_OK) != 0);
    }
}

TEST_CASE("without Landlock (--no-landlock) the writes go through, the rest stays") {
    const ContainmentSettings saved = containment_settings();
    ContainmentSettings no_landlock = saved;
    no_landlock.landlock = false;  // what --no-landlock sets; the system call filter stays
    configure_containment(no_landlock);
    struct Restore {
        ContainmentSettings settings;
        ~Restore() { configure_containment(settings); }
    } const restore{saved};
    test::TempTree tree;
    const std::string file = tree.host("/written");
    auto r = run_isolated([&file] { return self_report(file); }, Deadline(5s), "self-report");
    REQUIRE_MESSAGE(r.ok(), r.gap().message);
    CHECK(r->find("NoNewPrivs=1 CapEff=0000000000000000 ") != std::string::npos);
    CHECK(r->find(" created") != std::string::npos);
    const ContainmentStatus status = containment_status();
    CHECK(status.state == ContainmentState::partial);
    REQUIRE(status.reasons.size() == 1);
    CHECK(status.reasons[0].find("--no-landlock") != std::string::npos);
    CHECK(status.landlock_abi == 0);
}

TEST_CASE("the status: full with Landlock ABI 3 or later, not applicable when nothing runs") {
    const ContainmentStatus live = containment_status();
    CHECK(live.no_new_privs);
    if (kernel_has_full_landlock()) {
        CHECK(live.state == ContainmentState::full);
        CHECK(live.reasons.empty());
        CHECK(live.landlock_abi == landlock_support().abi);
    } else {
        CHECK(live.state == ContainmentState::partial);
        CHECK_FALSE(live.reasons.empty());
    }
    CHECK(live.library_calls_capabilities.empty());
    CHECK(live.tool_capabilities.empty());
    if (running_as_root()) {
        CHECK(live.loopback_capabilities ==
              std::vector<std::string>{"CAP_NET_RAW", "CAP_IPC_LOCK", "CAP_SYS_RAWIO"});
    }
    const ContainmentSettings saved = containment_settings();
    configure_containment({false, "--root: nothing is loaded or run", true});
    const ContainmentStatus under_root = containment_status();
    configure_containment(saved);
    CHECK(under_root.state == ContainmentState::not_applicable);
    CHECK(under_root.reasons == std::vector<std::string>{"--root: nothing is loaded or run"});
    CHECK(to_string(under_root.state) == "not_applicable");
}

TEST_CASE("a refusal in a contained child says so; not applicable, it says nothing") {
    CHECK(containment_refusal_note().find("refused inside the contained child") == 0);
    const ContainmentSettings saved = containment_settings();
    configure_containment({false, "--root", true});
    const std::string note = containment_refusal_note();
    configure_containment(saved);
    CHECK(note.empty());
}

TEST_CASE("the write grants: /dev/infiniband with ioctl, /dev/null, each hugetlbfs mount") {
    const auto grants = vendor_write_grants(
        "proc /proc proc rw 0 0\n"
        "hugetlbfs /dev/hugepages hugetlbfs rw,relatime,pagesize=2M 0 0\n"
        "tmpfs /dev/shm tmpfs rw 0 0\n"
        "none /mnt/huge1G hugetlbfs rw,pagesize=1024M 0 0\n");
    REQUIRE(grants.size() == 4);
    CHECK(grants[0].path == "/dev/infiniband");
    CHECK(grants[0].device_ioctl);
    CHECK_FALSE(grants[0].create_files);
    CHECK(grants[1].path == "/dev/null");
    CHECK(grants[2].path == "/dev/hugepages");
    CHECK(grants[2].create_files);
    CHECK(grants[3].path == "/mnt/huge1G");
}

TEST_CASE("an older ABI's ruleset leaves out the rights it does not know (truncate before 3)") {
    if (landlock_support().abi < kLandlockFullAbi) return;  // nothing to compare against
    // The child enforces only the ruleset under test (Landlock domains stack).
    const test::WithoutLandlock only_the_ruleset_under_test;
    test::TempTree tree;
    tree.write("/existing", "contents");
    const std::string existing = tree.host("/existing");
    for (const int abi : {2, kLandlockFullAbi}) {
        auto r = run_isolated(
            [abi, &existing] {
                const LandlockRuleset ruleset = build_landlock_ruleset(abi, {});
                if (ruleset.fd < 0) return std::string("build failed");
                if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return std::string("nnp");
                if (landlock_enforce(ruleset.fd).failed()) return std::string("enforce failed");
                const bool truncated = ::truncate(existing.c_str(), 0) == 0;
                const bool opened = ::open(existing.c_str(), O_WRONLY | O_CLOEXEC) >= 0;
                return std::string(truncated ? "truncated" : "kept") +
                       (opened ? " opened" : " refused");
            },
            Deadline(5s), "ABI " + std::to_string(abi));
        REQUIRE_MESSAGE(r.ok(), r.gap().message);
        CHECK_MESSAGE(*r == (abi < kLandlockFullAbi ? "truncated refused" : "kept refused"), "ABI ",
                      abi);
    }
}

}  // namespace rdmi
