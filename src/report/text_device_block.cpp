// The per-device key/value block of `report --device`.
#include "report/text_device_block.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include "report/terminal_text.hpp"
#include "text/text.hpp"

namespace rdmi::text {
namespace {

// A key's column: the longest key (current_link_width) and a colon fit, so values line up as
// ibv_devinfo's do; a value on the key's line keeps the line within 80 columns.
constexpr std::size_t kKeyColumn = 20;
constexpr std::size_t kMaxColumns = 80;

class Block {
  public:
    explicit Block(std::string& out) : out_(out) {}

    void heading(std::string_view text, int depth) {
        out_ += std::string(static_cast<std::size_t>(depth) * 4, ' ') + terminal_safe(text) + "\n";
    }

    // "key: value", then "from kind: ref" (or "missing: why") a little further in.
    template <typename T, typename Show>
    void datum(int depth, std::string_view key, const Sourced<T>& value, Show show) {
        // Neither read nor meant to be (a PF's physfn, a PCI function's sfnum): no line, as
        // ibv_devinfo prints no key a device does not have.
        if (!value.value && (!value.gap || value.gap->reason == GapReason::not_applicable)) return;
        line(depth, key, value.value ? show(*value.value) : std::string("(missing)"));
        if (value.gap) {
            note(depth, "missing: " + value.gap->message);
        } else if (!value.source.kind.empty() || !value.source.ref.empty()) {
            note(depth, "from " + value.source.kind + ": " + value.source.ref);
        }
    }

    void line(int depth, std::string_view key, const std::string& value) {
        const std::string indent(static_cast<std::size_t>(depth) * 4 + 4, ' ');
        std::string head = indent + std::string(key) + ":";
        const std::string safe = terminal_safe(value);
        if (head.size() < indent.size() + kKeyColumn)
            head.resize(indent.size() + kKeyColumn, ' ');
        else
            head += ' ';
        // A long value goes on a line of its own rather than past the 80th column.
        if (head.size() + safe.size() > kMaxColumns) {
            out_ += indent + std::string(key) + ":\n" + indent + "    " + safe + "\n";
        } else {
            out_ += head + safe + "\n";
        }
    }

    // Wrapped at spaces so that only a path longer than the line passes the 80th column.
    void note(int depth, const std::string& text) {
        const std::string indent(static_cast<std::size_t>(depth) * 4 + 8, ' ');
        const std::string safe = terminal_safe(text);
        std::string line = indent;
        for (const auto word : split_items(safe, " ")) {
            if (line.size() > indent.size() && line.size() + 1 + word.size() > kMaxColumns) {
                out_ += line + "\n";
                line = indent;
            }
            if (line.size() > indent.size()) line += ' ';
            line += word;
        }
        out_ += line + "\n";
    }

  private:
    std::string& out_;
};

std::string hex(std::uint32_t v) {
    return fmt::format("{:#06x}", v);
}

std::string text_of(const std::string& v) {
    return v;
}

std::string numbered(const sysfs::NumberedName& v) {
    return fmt::format("{}: {}", v.number, v.name);
}

void pci_function(Block& block, const sysfs::Function& function) {
    block.line(0, "kind", std::string(sysfs::to_string(function.kind)));
    block.datum(0, "vendor", function.vendor, hex);
    block.datum(0, "device", function.device, hex);
    block.datum(0, "product", function.product, text_of);
    block.datum(0, "driver", function.driver, text_of);
    block.datum(0, "numa_node", function.numa_node,
                [](std::int32_t v) { return std::to_string(v); });
    block.datum(0, "physfn", function.parent_pf, text_of);
    block.datum(0, "sriov_totalvfs", function.sriov_totalvfs,
                [](std::uint32_t v) { return std::to_string(v); });
    block.datum(0, "sriov_numvfs", function.sriov_numvfs,
                [](std::uint32_t v) { return std::to_string(v); });
    block.datum(0, "sfnum", function.sfnum, [](std::uint32_t v) { return std::to_string(v); });
}

void dpa(Block& block, const DevicesFacts* devices, const std::string& function) {
    if (devices == nullptr) return;
    for (const auto& row : devices->summary) {
        if (row.function != function) continue;
        block.datum(0, "dpa", row.dpa, [](const sysfs::DpaCapability& d) {
            std::string out(sysfs::to_string(d.support));
            return d.detail.empty() ? out : out + " (" + d.detail + ")";
        });
    }
}

void pcie_link(Block& block, const PcieLinkFacts* links, const std::string& function) {
    if (links == nullptr) return;
    for (const auto& link : links->links) {
        if (link.function != function) continue;
        auto speed = [](const LinkSpeed& s) { return s.text; };
        auto width = [](unsigned w) { return "x" + std::to_string(w); };
        block.datum(0, "current_link_speed", link.current_speed, speed);
        block.datum(0, "current_link_width", link.current_width, width);
        block.datum(0, "max_link_speed", link.max_speed, speed);
        block.datum(0, "max_link_width", link.max_width, width);
        const std::string verdict =
            link.status ? std::string(to_string(*link.status)) : std::string("not judged");
        block.line(0, "pcie-link", verdict);
        if (!link.message.empty()) block.note(0, link.message);
    }
}

void rdma_device(Block& block, const sysfs::RdmaDevice& device) {
    block.heading("hca_id: " + device.name, 1);
    block.datum(1, "fw_ver", device.fw_ver, text_of);
    block.datum(1, "node_guid", device.node_guid, text_of);
    block.datum(1, "sys_image_guid", device.sys_image_guid, text_of);
    block.datum(1, "board_id", device.board_id, text_of);
    block.datum(1, "hca_type", device.hca_type, text_of);
    block.datum(1, "node_type", device.node_type, numbered);
    for (const auto& port : device.ports) {
        block.heading("port: " + std::to_string(port.number), 2);
        block.datum(2, "state", port.state, numbered);
        block.datum(2, "phys_state", port.phys_state, numbered);
        block.datum(2, "link_layer", port.link_layer, text_of);
        block.datum(2, "rate", port.rate, [](const sysfs::LinkRate& r) { return r.text; });
        block.datum(2, "lid", port.lid, [](std::uint32_t v) { return std::to_string(v); });
        block.datum(2, "gids", port.gid_count, [](std::uint32_t v) { return std::to_string(v); });
        block.datum(2, "gid_types", port.gid_types,
                    [](const std::vector<std::string>& v) { return join(v); });
        block.datum(2, "netdevs", port.netdevs,
                    [](const std::vector<std::string>& v) { return join(v); });
    }
}

void netdev(Block& block, const sysfs::NetDev& dev) {
    block.heading("netdev: " + dev.name, 1);
    block.datum(1, "operstate", dev.operstate, text_of);
    block.datum(1, "mtu", dev.mtu, [](std::uint32_t v) { return std::to_string(v); });
    block.datum(1, "address", dev.address, text_of);
    block.datum(1, "phys_port_name", dev.phys_port_name, text_of);
}

}  // namespace

std::string device_blocks(const Facts& facts) {
    if (!facts.device_scope || !facts.system) return "";
    const auto& inventory = facts.system->inventory;
    const DevicesFacts* devices = facts.devices ? &*facts.devices : nullptr;
    const PcieLinkFacts* links = facts.pcie_link ? &*facts.pcie_link : nullptr;
    std::string out;
    Block block(out);
    for (const auto& name : facts.device_scope->functions) {
        const sysfs::Function* function = inventory.find_function(name);
        if (function == nullptr) continue;
        block.heading("function: " + function->name, 0);
        pci_function(block, *function);
        dpa(block, devices, function->name);
        pcie_link(block, links, function->name);
        for (const auto& ibdev : function->rdma_devices) {
            if (const auto* device = inventory.find_rdma_device(ibdev)) rdma_device(block, *device);
        }
        for (const auto& netdev_name : function->netdevs) {
            if (const auto* dev = inventory.find_netdev(netdev_name)) netdev(block, *dev);
        }
        out += "\n";
    }
    if (!facts.device_scope->not_examined.empty()) {
        std::vector<std::string> others;
        for (const auto& other : facts.device_scope->not_examined) {
            std::vector<std::string> names = other.rdma_devices;
            names.insert(names.end(), other.netdevs.begin(), other.netdevs.end());
            others.push_back(names.empty() ? other.function
                                           : other.function + " (" + join(names) + ")");
        }
        out += "Not examined (--device):\n";
        for (const auto& other : others) out += "    " + terminal_safe(other) + "\n";
        out += "\n";
    }
    return out;
}

}  // namespace rdmi::text
