// Tests for report --device's text block: a real generated sysfs root scanned and scoped, each
// datum with its provenance, lines within 80 columns but for a path, names escaped.
#include "report/text_device_block.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "model/device_scope.hpp"
#include "sysfs/devices.hpp"
#include "text/text.hpp"
#include "unit/sysfs/sysfs_fixture.hpp"

namespace rdmi {
namespace {

Facts scoped_roce_ports(const std::vector<std::string>& names) {
    Facts facts;
    facts.system.emplace();
    facts.system->inventory = sysfs::scan_devices(test::sysfs_fixture("roce-ports"));
    auto resolution = resolve_device_scope(facts.system->inventory, names);
    REQUIRE(resolution.unknown.empty());
    narrow_to_scope(*facts.system, resolution.scope);
    facts.device_scope = resolution.scope;
    return facts;
}

std::size_t longest_word(std::string_view line) {
    std::size_t longest = 0;
    for (const auto word : split_items(line, " ")) longest = std::max(longest, word.size());
    return longest;
}

TEST_CASE("device block: nothing without a scope") {
    Facts facts;
    CHECK(text::device_blocks(facts).empty());
}

TEST_CASE("device block: keys as sysfs names them, each value with where it was read") {
    const std::string out = text::device_blocks(scoped_roce_ports({"mlx5_1"}));
    CHECK(out.find("function: 0000:17:00.1\n") == 0);
    CHECK(out.find("    hca_id: mlx5_1\n") != std::string::npos);
    CHECK(out.find("        fw_ver:             28.41.1000\n"
                   "            from sysfs: /sys/class/infiniband/mlx5_1/fw_ver\n") !=
          std::string::npos);
    CHECK(out.find("            state:              4: ACTIVE\n"
                   "                from sysfs: /sys/class/infiniband/mlx5_1/ports/1/state\n") !=
          std::string::npos);
    // A PF has no physfn and a PCI function no sfnum: no line, as ibv_devinfo prints none.
    CHECK(out.find("physfn") == std::string::npos);
    CHECK(out.find("sfnum") == std::string::npos);
    // A file that is not there is said, with why.
    CHECK(out.find("phys_port_name:     (missing)\n            missing: "
                   "/sys/class/net/ens3f1np1/phys_port_name:") != std::string::npos);
    // The scope's other functions, named once each.
    CHECK(out.find("Not examined (--device):\n    0000:17:00.0 (mlx5_0, ens3f0np0)\n"
                   "    0000:17:00.2 (mlx5_2)\n    0000:81:00.0 (mlx5_3, ibp129s0)\n") !=
          std::string::npos);
    CHECK(out.find("hca_id: mlx5_0") == std::string::npos);
}

TEST_CASE("device block: within 80 columns but for a word that cannot break") {
    const std::string out =
        text::device_blocks(scoped_roce_ports({"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"}));
    for (const auto line : split_lines(out)) {
        CAPTURE(line);
        // Only an unbreakable token (a path) may carry a line past the 80th column.
        if (line.size() > 80) CHECK(longest_word(line) > 40);
    }
}

TEST_CASE("device block: a name that holds a line feed cannot start a line of its own") {
    Facts facts = scoped_roce_ports({"mlx5_1"});
    auto& inventory = facts.system->inventory;
    inventory.rdma_devices.front().name = "mlx5_1\nPASS  forged";
    inventory.functions.front().rdma_devices = {"mlx5_1\nPASS  forged"};
    const std::string out = text::device_blocks(facts);
    CHECK(out.find("hca_id: mlx5_1\\nPASS  forged") != std::string::npos);
    CHECK(out.find("\nPASS  forged") == std::string::npos);
}

}  // namespace
}  // namespace rdmi
