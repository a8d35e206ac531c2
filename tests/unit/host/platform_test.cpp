// Tests for scan_platform(): kernel, modules, hugepages, uverbs; nothing live under a root.
#include "host/platform.hpp"

#include <doctest/doctest.h>
#include <sys/utsname.h>

#include "os/rooted_fs.hpp"
#include "support/temp_tree.hpp"
#include "unit/sysfs/sysfs_fixture.hpp"

namespace rdmi::host {

TEST_CASE("scan_platform: a BlueField-3 host root, read only from the root") {
    const auto fs = test::sysfs_fixture("bf3-host-dpu");
    CHECK_FALSE(query_live_host(fs).has_value());
    const PlatformFacts p = scan_platform(fs);
    CHECK_FALSE(p.live);
    CHECK(p.architecture.value == "x86_64");
    CHECK(p.architecture.source.kind == "procfs");
    CHECK(p.architecture.source.ref == "/proc/sys/kernel/arch");
    CHECK(p.kernel_release.value == "5.15.0-91-generic");
    CHECK(p.kernel_release.source.ref == "/proc/sys/kernel/osrelease");
    CHECK(p.mlx5_core.present.value == true);
    CHECK(p.mlx5_core.how == "loaded");
    CHECK(p.mlx5_core.present.source.ref == "/proc/modules");
    CHECK(p.mlx5_ib.present.value == true);
    CHECK(p.mlx5_modules.value == std::vector<std::string>{"mlx5_core", "mlx5_ib"});
    CHECK(p.hugepages_2m.nr_hugepages.value == 1024U);
    CHECK(p.hugepages_2m.free_hugepages.value == 1000U);
    CHECK(p.hugepages_2m.free_hugepages.source.ref ==
          "/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages");
    CHECK(p.hugepages_1g.nr_hugepages.value == 0U);
    REQUIRE(p.hugetlbfs_mounts.value->size() == 1);
    CHECK(p.hugetlbfs_mounts.value->at(0).mount_point == "/dev/hugepages");
    CHECK(p.hugetlbfs_mounts.value->at(0).page_size == "2M");
    REQUIRE(p.uverbs.value->size() == 2);
    const UverbsNode& node = p.uverbs.value->at(0);
    CHECK(node.path == "/dev/infiniband/uverbs0");
    CHECK(node.info.mode == 0666U);
    CHECK(node.accessible.gap->reason == GapReason::not_applicable);
    CHECK(p.bfb.gap->reason == GapReason::not_found);
    CHECK(p.bfb.gap->message == "/etc/mlnx-release: no such file or directory");
    CHECK(p.bluefield_platform_devices.gap->reason == GapReason::not_found);
}

TEST_CASE("scan_platform: the BlueField Arm root reports its own kernel, not this machine's") {
    const auto fs = test::sysfs_fixture("bf3-arm");
    const PlatformFacts p = scan_platform(fs, std::nullopt);
    CHECK(p.architecture.value == "aarch64");
    CHECK(p.kernel_release.value == "5.15.0-1042-bluefield");
    struct utsname uts {};
    REQUIRE(::uname(&uts) == 0);
    CHECK(*p.kernel_release.value != std::string(uts.release));
    CHECK(p.bfb.value == "DOCA_2.9.1_BSP_4.9.1_Ubuntu_22.04-6.24-10.prod");
    CHECK(p.bfb.source.kind == "file");
    CHECK(p.bluefield_platform_devices.value ==
          std::vector<std::string>{"MLNXBF03:00", "MLNXBF04:00", "MLNXBF08:00"});
    CHECK(p.hugetlbfs_mounts.value->at(0).mount_point == "/mnt/huge");
    CHECK(p.uverbs.value->size() == 4);
}

TEST_CASE("scan_platform: live facts come from uname and judge uverbs access") {
    const auto fs = test::sysfs_fixture("cx6dx");  // uverbs nodes are mode 0600, owned by root
    LiveHost nobody{"x86_64", "9.9.9-live", 65534, 65534, {}};
    const PlatformFacts p = scan_platform(fs, nobody);
    CHECK(p.live);
    CHECK(p.kernel_release.value == "9.9.9-live");
    CHECK(p.kernel_release.source.kind == "api");
    CHECK(p.architecture.value == "x86_64");
    REQUIRE(p.uverbs.value->size() == 2);
    CHECK(p.uverbs.value->at(0).accessible.value == false);
    LiveHost root{"x86_64", "9.9.9-live", 0, 0, {}};
    CHECK(scan_platform(fs, root).uverbs.value->at(0).accessible.value == true);
    LiveHost owner{"x86_64", "9.9.9-live", p.uverbs.value->at(0).info.uid + 1000, 0, {}};
    CHECK(scan_platform(fs, owner).uverbs.value->at(1).accessible.value == false);
    CHECK(p.hugetlbfs_mounts.value->empty());  // cx6dx mounts no hugetlbfs
}

TEST_CASE("scan_platform: group permission and the live root") {
    test::TempTree tree;
    tree.write("/dev/infiniband/uverbs0", "", 0660);
    auto fs = RootedFs::open(tree.root());
    REQUIRE(fs.ok());
    const auto info = fs->stat("/dev/infiniband/uverbs0").value();
    LiveHost member{"x86_64", "r", info.uid + 1, info.gid + 7, {info.gid}};
    CHECK(scan_platform(*fs, member).uverbs.value->at(0).accessible.value == true);
    LiveHost stranger{"x86_64", "r", info.uid + 1, info.gid + 7, {}};
    CHECK(scan_platform(*fs, stranger).uverbs.value->at(0).accessible.value == false);

    auto live = RootedFs::open("/");
    REQUIRE(live.ok());
    const auto host = query_live_host(*live);
    REQUIRE(host.has_value());
    struct utsname uts {};
    REQUIRE(::uname(&uts) == 0);
    CHECK(host->release == uts.release);
    CHECK(scan_platform(*live).kernel_release.value == std::string(uts.release));
}

TEST_CASE("scan_platform: built-in modules and a missing or broken /proc") {
    test::TempTree tree;
    tree.write("/proc/modules", "ib_core 450560 0 - Live 0x0\n");
    tree.write("/sys/module/mlx5_core/parameters/debug_mask", "0\n");
    auto fs = RootedFs::open(tree.root());
    REQUIRE(fs.ok());
    PlatformFacts p = scan_platform(*fs, std::nullopt);
    CHECK(p.mlx5_core.present.value == true);
    CHECK(p.mlx5_core.how == "built-in");
    CHECK(p.mlx5_core.present.source.ref == "/sys/module/mlx5_core");
    CHECK(p.mlx5_ib.present.value == false);
    CHECK(p.mlx5_modules.value == std::vector<std::string>{"mlx5_core"});
    CHECK(p.mlx5_modules.source.ref == "/proc/modules + /sys/module (built-in)");
    CHECK(p.architecture.gap->reason == GapReason::not_found);
    CHECK(p.kernel_release.gap->message == "/proc/sys/kernel/osrelease: no such file or directory");
    CHECK(p.hugepages_2m.nr_hugepages.gap->reason == GapReason::not_found);
    CHECK(p.uverbs.gap->reason == GapReason::not_found);

    tree.write("/proc/modules", "\x01\x02 junk\n");
    tree.write("/proc/mounts", "garbage\n");
    p = scan_platform(*fs, std::nullopt);
    CHECK(p.mlx5_core.how == "loaded or built-in");
    REQUIRE_FALSE(p.mlx5_ib.present.ok());
    CHECK(p.mlx5_ib.present.gap->message ==
          "/proc/modules: line 1: not a module entry: \"\\x01\\x02 junk\"");
    REQUIRE_FALSE(p.hugetlbfs_mounts.ok());
    CHECK(p.hugetlbfs_mounts.gap->message == "/proc/mounts: line 1: not a mount entry");
}

TEST_CASE("scan_platform: a captured root without /proc takes its architecture from its shell") {
    test::TempTree tree;
    // An ELF header (64-bit, little-endian) whose e_machine is 183, EM_AARCH64.
    std::string header(
        "\x7f"
        "ELF\x02\x01\x01",
        7);
    header.resize(18, '\0');
    header += std::string("\xb7\x00", 2);
    header.resize(64, '\0');
    tree.write("/usr/bin/sh", header, 0755);
    auto fs = RootedFs::open(tree.root());
    REQUIRE(fs.ok());
    PlatformFacts p = scan_platform(*fs, std::nullopt);
    CHECK(p.architecture.value == "aarch64");
    CHECK(p.architecture.source.ref == "/usr/bin/sh (ELF e_machine)");

    // Not an ELF file, or a machine DOCA does not ship for: no answer, the /proc gap stays.
    tree.write("/usr/bin/sh", "#!/bin/dash\n", 0755);
    p = scan_platform(*fs, std::nullopt);
    CHECK(p.architecture.gap->reason == GapReason::not_found);
}

namespace {
// The machine root_machine_name gives for a temporary tree.
std::optional<std::string> machine_of(const test::TempTree& tree) {
    auto fs = RootedFs::open(tree.root());
    REQUIRE(fs.ok());
    return root_machine_name(*fs);
}
}  // namespace

TEST_CASE("root_machine_name: /proc, else the shell, else one machine's multiarch directory") {
    {
        test::TempTree tree;  // both directories, but /proc says
        tree.mkdir("/usr/lib/x86_64-linux-gnu");
        tree.mkdir("/usr/lib/aarch64-linux-gnu");
        tree.write("/proc/sys/kernel/arch", "aarch64\n");
        CHECK(machine_of(tree) == "aarch64");
    }
    {
        test::TempTree tree;  // a partial root: only DOCA and its multiarch directory
        tree.mkdir("/usr/lib/aarch64-linux-gnu/pkgconfig");
        CHECK(machine_of(tree) == "aarch64");
    }
    {
        test::TempTree tree;
        tree.mkdir("/usr/lib/x86_64-linux-gnu");
        CHECK(machine_of(tree) == "x86_64");
    }
    {
        test::TempTree tree;  // a multiarch root with no other sign: unknown, not a guess
        tree.mkdir("/usr/lib/x86_64-linux-gnu");
        tree.mkdir("/usr/lib/aarch64-linux-gnu");
        CHECK_FALSE(machine_of(tree).has_value());
    }
    {
        test::TempTree tree;  // a file where the directory would be says nothing
        tree.write("/usr/lib/aarch64-linux-gnu", "");
        tree.mkdir("/etc");
        CHECK_FALSE(machine_of(tree).has_value());
    }
}

}  // namespace rdmi::host

namespace rdmi::host {
namespace {

// A 64-byte ELF header: class (1 = 32-bit, 2 = 64-bit), data (1 = little-, 2 = big-endian) and
// e_machine, written in that byte order.
std::string elf_header(unsigned char elf_class, unsigned char elf_data, std::uint16_t machine) {
    std::string header(
        "\x7f"
        "ELF",
        4);
    header += static_cast<char>(elf_class);
    header += static_cast<char>(elf_data);
    header += '\x01';
    header.resize(18, '\0');
    const auto lo = static_cast<char>(machine & 0xffU);
    const auto hi = static_cast<char>(machine >> 8U);
    header += elf_data == 2 ? std::string{hi, lo} : std::string{lo, hi};
    header.resize(64, '\0');
    return header;
}

Sourced<std::string> architecture_of(const test::TempTree& tree) {
    auto fs = RootedFs::open(tree.root());
    REQUIRE(fs.ok());
    return scan_platform(*fs, std::nullopt).architecture;
}

}  // namespace

TEST_CASE("root architecture: a /proc/sys/kernel/arch that is no machine name is not used") {
    // The machine becomes part of the pkg-config directories searched under the root.
    for (const char* text : {"../../../../etc\n", "x86_64/../../tmp\n", "x86 64\n", "AARCH64\n",
                             "aarch64-linux-gnu\n"}) {
        CAPTURE(text);
        test::TempTree tree;
        tree.write("/proc/sys/kernel/arch", text);
        CHECK_FALSE(machine_of(tree).has_value());
        auto arch = architecture_of(tree);
        REQUIRE_FALSE(arch.ok());
        CHECK(arch.gap->reason == GapReason::malformed);
        CHECK(arch.gap->message.starts_with("/proc/sys/kernel/arch: not a machine name: \""));
        // The next witness still answers.
        tree.write("/bin/sh", elf_header(2, 1, 183), 0755);
        CHECK(machine_of(tree) == "aarch64");
    }
    test::TempTree tree;
    tree.write("/proc/sys/kernel/arch", std::string(33, 'a') + "\n");
    CHECK_FALSE(machine_of(tree).has_value());
    tree.write("/proc/sys/kernel/arch", "riscv64\n");  // a machine, though not DOCA's: as it says
    CHECK(machine_of(tree) == "riscv64");
}

TEST_CASE("root architecture: only a 64-bit little-endian shell names x86_64 or aarch64") {
    struct Case {
        unsigned char elf_class;
        unsigned char elf_data;
        std::uint16_t machine;
        const char* says;
    };
    for (const Case& c : {Case{2, 2, 183, "ELF file for machine 183, 64-bit, not little-endian"},
                          Case{1, 1, 62, "ELF file for machine 62, not 64-bit, little-endian"},
                          Case{2, 1, 243, "ELF file for machine 243, 64-bit, little-endian"},
                          Case{2, 1, 21, "ELF file for machine 21, 64-bit, little-endian"}}) {
        CAPTURE(c.says);
        test::TempTree tree;
        tree.write("/bin/sh", elf_header(c.elf_class, c.elf_data, c.machine), 0755);
        // The first ELF shell is the root's: an aarch64 /usr/bin/env does not overrule it.
        tree.write("/usr/bin/env", elf_header(2, 1, 183), 0755);
        CHECK_FALSE(machine_of(tree).has_value());
        auto arch = architecture_of(tree);
        REQUIRE_FALSE(arch.ok());
        CHECK(arch.gap->reason == GapReason::not_found);  // /proc's reason leads
        CHECK(arch.gap->message.find(std::string("/bin/sh: ") + c.says +
                                     ": not x86_64 or aarch64") != std::string::npos);
    }
    test::TempTree tree;  // a truncated header is no ELF file: the next shell answers
    tree.write("/bin/sh", elf_header(2, 1, 183).substr(0, 19), 0755);
    tree.write("/usr/bin/env", elf_header(2, 1, 62), 0755);
    CHECK(machine_of(tree) == "x86_64");
    CHECK(architecture_of(tree).source.ref == "/usr/bin/env (ELF e_machine)");
}

TEST_CASE(
    "root architecture: the multiarch directory answers with its provenance, and a root "
    "that says nothing says why") {
    test::TempTree tree;
    tree.mkdir("/usr/lib/aarch64-linux-gnu");
    auto arch = architecture_of(tree);
    CHECK(arch.value == "aarch64");
    CHECK(arch.source.ref == "/usr/lib/aarch64-linux-gnu (the root's only multiarch directory)");
    {
        test::TempTree with_proc;  // a guess only without a better witness
        with_proc.mkdir("/usr/lib/aarch64-linux-gnu");
        auto fs = RootedFs::open(with_proc.root());
        REQUIRE(fs.ok());
        CHECK(scan_platform(*fs, std::nullopt).architecture_from_layout);
        with_proc.write("/proc/sys/kernel/arch", "aarch64\n");
        CHECK_FALSE(scan_platform(*fs, std::nullopt).architecture_from_layout);
    }

    tree.mkdir("/usr/lib/x86_64-linux-gnu");
    tree.symlink("sh", "/bin/sh");  // a loop: no shell to read
    arch = architecture_of(tree);
    REQUIRE_FALSE(arch.ok());
    CHECK(arch.gap->message ==
          "/proc/sys/kernel/arch: no such file or directory; no ELF shell (/bin/sh, /usr/bin/sh, "
          "/bin/bash, /usr/bin/env); both /usr/lib/x86_64-linux-gnu and "
          "/usr/lib/aarch64-linux-gnu (multiarch)");
}

}  // namespace rdmi::host
