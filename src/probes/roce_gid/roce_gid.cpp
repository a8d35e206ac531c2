// The roce-gid verdicts. RoCE v2 reaches a peer over IP: the kernel fills a port's GID table
// from the addresses of its netdev, and without one the port has only its default link-local
// GIDs, which no router forwards and rdma_cm does not resolve a peer's address to. That is the
// most common reason an ACTIVE RoCE port still cannot connect
// (docs/reference/sysfs-formats.md#gid-table).
#include "probes/roce_gid/roce_gid.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "text/shell_word.hpp"
#include "text/text.hpp"

namespace rdmi {
namespace {

constexpr std::string_view kRoceV2 = "RoCE v2";
// The GIDs a verdict names: a real table holds a few dozen at most, a hostile or broken one
// any number; the report's ip_gids keeps every one.
constexpr std::size_t kGidsShown = 8;

// "a, b, c" for the first kGidsShown of `items`, then ", and N more".
std::string listed(const std::vector<std::string>& items) {
    std::vector<std::string> shown(
        items.begin(),
        items.begin() + static_cast<std::ptrdiff_t>(std::min(items.size(), kGidsShown)));
    std::string text = join(shown);
    if (items.size() > kGidsShown)
        text += ", and " + std::to_string(items.size() - kGidsShown) + " more";
    return text;
}

bool is_ipv4_mapped(const sysfs::Gid& gid) {
    return std::all_of(gid.begin(), gid.begin() + 10, [](std::uint8_t b) { return b == 0; }) &&
           gid[10] == 0xff && gid[11] == 0xff;
}

std::string where(const RoceGidPort& port) {
    return port.rdma_device + " port " + std::to_string(port.port);
}

std::string netdev_words(const std::vector<std::string>& netdevs) {
    return netdevs.size() == 1 ? "netdev " + netdevs.front() : "netdevs " + join(netdevs);
}

RoceGidPort not_applicable(RoceGidPort port, std::string why) {
    port.message = where(port) + ": " + std::move(why);
    return port;
}

RoceGidPort judged(RoceGidPort port, Status status, std::string verdict) {
    port.status = status;
    port.message = where(port) + " (" + netdev_words(port.netdevs) + "): " + std::move(verdict);
    return port;
}

// The GIDs a failing port does have, for its message: what the table held instead.
std::string others(const std::vector<sysfs::PortGid>& gids) {
    std::vector<std::string> seen;
    std::set<sysfs::Gid> distinct;
    for (const auto& g : gids) {
        if (distinct.insert(g.gid).second) seen.push_back(gid_address(g.gid));
    }
    return seen.empty() ? "its GID table is empty" : "only " + listed(seen);
}

std::string fix_for(const RoceGidPort& port) {
    const std::string dev = shell_word(port.netdevs.front());
    return "give " + dev + " an IP address and bring it up (ip addr add <address>/<prefix> dev " +
           dev + "; ip link set " + dev + " up), then rdma link show " +
           shell_word(port.rdma_device + "/" + std::to_string(port.port)) +
           " names it and the kernel adds the RoCE v2 GID";
}

}  // namespace

bool gid_carries_ip(const sysfs::Gid& gid) {
    if (is_ipv4_mapped(gid)) return gid[12] != 0 || gid[13] != 0 || gid[14] != 0 || gid[15] != 0;
    const bool link_local = gid[0] == 0xfe && (gid[1] & 0xc0U) == 0x80;
    const bool multicast = gid[0] == 0xff;
    return !link_local && !multicast && !sysfs::is_zero_gid(gid);
}

std::string gid_address(const sysfs::Gid& gid) {
    char text[INET6_ADDRSTRLEN] = {};
    if (::inet_ntop(AF_INET6, gid.data(), text, sizeof text) == nullptr) return "?";
    return text;
}

RoceGidPort judge_roce_port(const sysfs::RdmaDevice& device, const sysfs::RdmaPort& port) {
    RoceGidPort out;
    out.rdma_device = device.name;
    out.port = port.number;
    if (device.function.ok()) out.function = *device.function.value;
    if (port.netdevs.ok()) out.netdevs = *port.netdevs.value;
    out.sources = {port.link_layer.source, port.state.source, port.netdevs.source, port.gids.source,
                   port.gid_types.source};

    if (!port.link_layer.ok())
        return not_applicable(std::move(out),
                              "link layer unknown: " + port.link_layer.gap->message);
    if (*port.link_layer.value != "Ethernet")
        return not_applicable(std::move(out), *port.link_layer.value + ", not RoCE");
    if (!port.state.ok())
        return not_applicable(std::move(out), "port state unknown: " + port.state.gap->message);
    if (port.state.value->name != "ACTIVE")
        return not_applicable(std::move(out), "port " + port.state.value->name + ", not ACTIVE");
    if (out.netdevs.empty())
        return not_applicable(std::move(out), "no netdev (an IP address has nowhere to go)");
    if (!port.gids.ok())
        return judged(std::move(out), Status::skip,
                      "the GID table could not be read: " + port.gids.gap->message);

    bool type_unknown = false;
    for (const auto& g : *port.gids.value) {
        if (!gid_carries_ip(g.gid)) continue;
        if (!g.type.ok()) {
            type_unknown = true;
        } else if (*g.type.value == kRoceV2) {
            out.ip_gids.push_back({g.index, gid_address(g.gid)});
        }
    }
    if (!out.ip_gids.empty()) {
        std::vector<std::string> named;
        for (const auto& g : out.ip_gids)
            named.push_back(g.address + " (index " + std::to_string(g.index) + ")");
        return judged(std::move(out), Status::pass, "RoCE v2 GID " + listed(named));
    }
    // An entry that did not read may be the RoCE v2 GID this looks for.
    if (!port.unread_gids.empty()) {
        const std::size_t n = port.unread_gids.size();
        return judged(std::move(out), Status::skip,
                      std::to_string(n) + (n == 1 ? " GID entry" : " GID entries") +
                          " could not be read (" + port.unread_gids.front().message +
                          (n > 1 ? ", ..." : "") + ")");
    }
    if (type_unknown)
        return judged(std::move(out), Status::skip,
                      "a GID with an IP address has a type that could not be read");
    const std::string had = others(*port.gids.value);
    return judged(std::move(out), Status::fail, "no RoCE v2 GID with an IP address (" + had + ")");
}

std::optional<Check> roce_gid_check(const std::vector<RoceGidPort>& ports) {
    const auto any = [&ports](Status s) {
        return std::any_of(ports.begin(), ports.end(),
                           [s](const RoceGidPort& p) { return p.status == s; });
    };
    if (!any(Status::pass) && !any(Status::fail) && !any(Status::skip)) return std::nullopt;
    Check check{finding::roce_gid, Status::pass, "", "", {}};
    check.status = any(Status::fail)   ? Status::fail
                   : any(Status::skip) ? Status::skip
                                       : Status::pass;
    std::vector<std::string> messages;
    std::vector<std::string> fixes;
    for (const auto& port : ports) {
        if (!port.status) continue;
        // A passing port is named only when every judged port passes.
        if (check.status != Status::pass && *port.status == Status::pass) continue;
        messages.push_back(*port.status == Status::skip ? "not judged: " + port.message
                                                        : port.message);
        if (*port.status == Status::fail) fixes.push_back(fix_for(port));
        for (const auto& source : port.sources) {
            if (source.ref.empty()) continue;
            const bool listed =
                std::any_of(check.sources.begin(), check.sources.end(),
                            [&source](const Provenance& p) { return p.ref == source.ref; });
            if (!listed) check.sources.push_back(source);
        }
    }
    check.message = join(messages, "; ");
    if (!fixes.empty()) {
        std::string text = join(fixes, "; ");
        text.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(text.front())));
        check.remediation = text + ".";
    }
    return check;
}

RoceGidFacts probe_roce_gid(const sysfs::DeviceInventory& inventory) {
    RoceGidFacts facts;
    for (const auto& device : inventory.rdma_devices) {
        for (const auto& port : device.ports) facts.ports.push_back(judge_roce_port(device, port));
    }
    facts.check = roce_gid_check(facts.ports);
    return facts;
}

json::Json roce_gid_json(const RoceGidFacts& facts) {
    using json::Json;
    Json ports = Json::array();
    for (const auto& port : facts.ports) {
        Json gids = Json::array();
        for (const auto& g : port.ip_gids)
            gids.push_back(json::object({{"index", g.index}, {"address", g.address}}));
        ports.push_back(
            json::object({{"rdma_device", port.rdma_device},
                          {"port", port.port},
                          {"function", port.function.empty() ? Json(nullptr) : Json(port.function)},
                          {"netdevs", port.netdevs},
                          {"status", port.status ? Json(std::string(to_string(*port.status)))
                                                 : Json("not_applicable")},
                          {"message", port.message},
                          {"ip_gids", std::move(gids)}},
                         7));
    }
    return json::object({{"ports", std::move(ports)}});
}

}  // namespace rdmi
