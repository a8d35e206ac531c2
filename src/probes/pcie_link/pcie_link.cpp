// pcie-link: sysfs prints a PCIe function's trained link (current_link_speed/_width) and the
// most the card supports (max_link_speed/_width). The link trains to the lower of what the card
// and its upstream port support, so the port's maximum is read too: a card below that trained
// badly (a seating or lane problem); a card whose maximum exceeds the port's sits in a slower
// slot. A card with its own PCIe switch (BlueField-3) reaches the slot through the switch's
// upstream port: that link is judged, not the card's inside. VFs and SFs share their PF's link
// and have no link of their own to judge. The formats and the encodings:
// docs/reference/sysfs-formats.md#pcie-link.
#include "probes/pcie_link/pcie_link.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "sysfs/attr_dir.hpp"
#include "sysfs/attr_text.hpp"
#include "sysfs/pci_attrs.hpp"

namespace rdmi {
namespace {

constexpr unsigned kMaxLanes = 32;
// PCIE_LNK_WIDTH_UNKNOWN (0xff) as max_link_width prints it
// (docs/reference/sysfs-formats.md#pcie-link).
constexpr std::string_view kUnknownWidth = "255";

// Figures as the messages print them: "16.0 GT/s x16".
std::string speed_text(double gts) {
    char buf[32];
    // gts is at most 128 (the parser's bound): always fits. printf rounds the exact binary value
    // to one decimal as to_chars would; the library's floating-point to_chars pulls in libm.
    const int length = std::snprintf(buf, sizeof buf, "%.1f GT/s", gts);
    return std::string(buf, static_cast<std::size_t>(length));
}

std::string figures(double gts, unsigned width) {
    return speed_text(gts) + " x" + std::to_string(width);
}

// Usable data rate of one lane in Gb/s: 8b/10b up to 5 GT/s, 128b/130b from 8 GT/s, FLIT
// (242 of 256 bytes) at 64 GT/s. Compares a link trained at a lower generation fairly.
double lane_rate(double gts) {
    if (gts < 8.0 - 0.01) return gts * 0.8;
    if (gts < 64.0 - 0.01) return gts * 128.0 / 130.0;
    return gts * 242.0 / 256.0;
}

std::string share_text(double ratio) {
    const auto near = [ratio](double r) { return std::fabs(ratio - r) < 0.005; };
    if (near(0.5)) return "half its PCIe bandwidth";
    if (near(0.25)) return "a quarter of its PCIe bandwidth";
    if (near(0.125)) return "an eighth of its PCIe bandwidth";
    // Half away from zero, as lround would (ratio is positive); the subtraction is exact.
    const double percent = ratio * 100.0;
    auto whole = static_cast<long long>(percent);
    if (percent - static_cast<double>(whole) >= 0.5) ++whole;
    return "about " + std::to_string(whole) + "% of its PCIe bandwidth";
}

bool same_speed(double a, double b) {
    return std::fabs(a - b) < 0.01;
}

// The PCI address that is the basename of a /sys/devices path, if it is one ("0000:00:01.0");
// a root bus ("pci0000:00") or anything else is not a port.
std::optional<std::string> port_address(const std::string& device_path) {
    const auto slash = device_path.find_last_of('/');
    if (slash == std::string::npos || slash == 0) return std::nullopt;
    const std::string parent = device_path.substr(0, slash);
    const std::string name = parent.substr(parent.find_last_of('/') + 1);
    // dddd:bb:dd.f in hex: a tree replayed with --root names its own directories, and the
    // address reaches a suggested command (lspci -s).
    if (!sysfs::is_pci_address(name)) return std::nullopt;
    return name;
}

// "0000:03:00" for "0000:03:00.1": the device whose functions share a link.
std::string device_of(const std::string& address) {
    const auto dot = address.find_last_of('.');
    return dot == std::string::npos ? address : address.substr(0, dot);
}

std::string parent_dir(const std::string& path) {
    return path.substr(0, path.find_last_of('/'));
}

bool absent(const std::optional<Gap>& gap) {
    return gap && gap->reason == GapReason::not_found;
}

// The first gap among the figures the verdict needs, for a skip.
std::optional<Gap> first_gap(const PcieLink& link) {
    for (const auto* gap : {&link.current_speed.gap, &link.current_width.gap, &link.max_speed.gap,
                            &link.max_width.gap}) {
        if (*gap) return **gap;
    }
    return std::nullopt;
}

void judge(PcieLink& link) {
    // Through the card's switch, the figures are its upstream port's: say so.
    const std::string who =
        link.card_switch ? link.function + " (through its card's PCIe switch, upstream port " +
                               *link.card_switch + ")"
                         : link.function;
    const auto gap = first_gap(link);
    if (gap) {
        link.status = Status::skip;
        link.message = link.function + ": " + gap->message;
        return;
    }
    double reach_gts = link.max_speed.value->gts;
    unsigned reach_width = *link.max_width.value;
    std::string port_note;
    if (link.port) {
        auto& port = *link.port;
        // A link trains to the lower of both ends' maxima: a port maximum below what the link
        // trained at is contradicted by the link, and limits nothing (no move, no slot blame).
        const double cur = link.current_speed.value->gts;
        if (port.max_speed.ok() && port.max_speed.value->gts < cur - 0.01) {
            port.max_speed = Sourced<LinkSpeed>::missing(
                Gap{GapReason::malformed, port.max_speed.source.ref + ": " +
                                              speed_text(port.max_speed.value->gts) +
                                              " is below the link's trained " + speed_text(cur)},
                port.max_speed.source);
        }
        if (port.max_width.ok() && *port.max_width.value < *link.current_width.value) {
            port.max_width = Sourced<unsigned>::missing(
                Gap{GapReason::malformed, port.max_width.source.ref + ": x" +
                                              std::to_string(*port.max_width.value) +
                                              " is below the link's trained x" +
                                              std::to_string(*link.current_width.value)},
                port.max_width.source);
        }
        if (port.max_speed.ok() && port.max_speed.value->gts < reach_gts - 0.01) {
            reach_gts = port.max_speed.value->gts;
            link.slot_limited = true;
        }
        if (port.max_width.ok() && *port.max_width.value < reach_width) {
            reach_width = *port.max_width.value;
            link.slot_limited = true;
        }
        if (!port.max_speed.ok() || !port.max_width.ok()) {
            const Gap& why = port.max_speed.ok() ? *port.max_width.gap : *port.max_speed.gap;
            port_note = " (its upstream port's maximum is unknown: " + why.message + ")";
        }
    }
    link.reach_gts = reach_gts;
    link.reach_width = reach_width;
    const double cur_gts = link.current_speed.value->gts;
    const unsigned cur_width = *link.current_width.value;
    const std::string card = figures(link.max_speed.value->gts, *link.max_width.value);
    const std::string slot_text =
        link.slot_limited ? "its slot (upstream port " + link.port->address + ") reaches only " +
                                figures(reach_gts, reach_width) + " of the card's " + card +
                                ": another slot, not a reseat, gives it more"
                          : "";
    const bool trained_low = cur_gts < reach_gts - 0.01 || cur_width < reach_width;
    link.trained_low = trained_low;
    if (trained_low) {
        const double ratio =
            (lane_rate(cur_gts) * cur_width) / (lane_rate(reach_gts) * reach_width);
        link.status = Status::warn;
        // A reseat helps only a link that trained below what the slot's port can do; when the
        // port's maximum is unknown, the slot or a riser may be all there is.
        link.upstream_unknown = !port_note.empty() || !link.port;
        const std::string cause =
            link.upstream_unknown
                ? "; the slot or riser may limit it" +
                      (link.port
                           ? port_note
                           : std::string(" (no upstream port above it to read a maximum from)"))
                : "; its upstream port " + link.port->address +
                      " can do more: reseat the card or check the slot's lanes and BIOS "
                      "bifurcation" +
                      (link.slot_limited ? "; and " + slot_text : "");
        link.message = who + " runs at " + figures(cur_gts, cur_width) + " of " +
                       figures(reach_gts, reach_width) + ": " + share_text(ratio) + cause;
        return;
    }
    if (link.slot_limited) {
        link.status = Status::warn;
        link.message = who + " runs at " + figures(cur_gts, cur_width) +
                       ", limited by its slot: " + slot_text + port_note;
        return;
    }
    link.status = Status::pass;
    link.message = who + " runs at " + figures(cur_gts, cur_width) +
                   (same_speed(cur_gts, reach_gts) ? ", its maximum" : "") + port_note;
}

// Whether `dir` is a bridge of the card itself: an NVIDIA (0x15b3) PCI-to-PCI bridge (class
// 0x0604xx). BlueField-3 and some ConnectX cards carry a PCIe switch: their functions hang
// below its downstream ports, and only its upstream port's link goes through the slot. A tree
// without the files has no such bridge; files that are there but do not read leave it unknown
// (a gap): taking the card's inside link for the slot's would pass a degraded slot link.
Sourced<bool> card_bridge(const Fs& fs, const std::string& dir) {
    const sysfs::AttrDir attrs(fs, dir);
    auto vendor = attrs.read("vendor");
    auto klass = attrs.read("class");
    if ((!vendor && vendor.gap().reason == GapReason::not_found) ||
        (!klass && klass.gap().reason == GapReason::not_found))
        return Sourced<bool>::of(false, attrs.source("vendor"));
    Result<std::string_view> id = vendor ? sysfs::attr_line(*vendor) : vendor.gap();
    Result<std::string_view> cls = klass ? sysfs::attr_line(*klass) : klass.gap();
    if (!id)
        return Sourced<bool>::missing(attrs.located("vendor", id.gap()), attrs.source("vendor"));
    if (!cls)
        return Sourced<bool>::missing(attrs.located("class", cls.gap()), attrs.source("class"));
    return Sourced<bool>::of(*id == "0x15b3" && cls->starts_with("0x0604"), attrs.source("vendor"));
}

// The card's edge: `device_path` itself, or the topmost of the card's bridges above it (its
// switch's upstream port), so that the next bridge up is the slot's port. A bridge that cannot
// be told: its gap.
Sourced<std::string> card_edge(const Fs& fs, const std::string& device_path) {
    std::string edge = device_path;
    while (port_address(edge)) {
        auto bridge = card_bridge(fs, parent_dir(edge));
        if (!bridge.ok()) return Sourced<std::string>::missing(*bridge.gap, bridge.source);
        if (!*bridge.value) break;
        edge = parent_dir(edge);
    }
    return Sourced<std::string>::of(edge, {});
}

PcieLink read_link(const Fs& fs, const sysfs::Function& fn,
                   const std::vector<std::string>& inventory_paths) {
    PcieLink link;
    link.function = fn.name;
    link.kind = fn.kind;
    if (fn.kind != sysfs::FunctionKind::pf) {
        link.message =
            std::string(sysfs::to_string(fn.kind)) + ": shares its PF's link (not applicable)";
        return link;
    }
    std::string actual = fn.device_path.empty() ? fn.sysfs_path : fn.device_path;
    std::string shown = fn.sysfs_path;
    if (!fn.device_path.empty()) {
        const auto found = card_edge(fs, fn.device_path);
        if (!found.ok()) {
            // Which link reaches the slot is unknown: judged as a figure that did not read.
            const Gap why{found.gap->reason,
                          "cannot tell whether the bridge above it is its card's own PCIe "
                          "switch: " +
                              found.gap->message};
            link.current_speed = link.max_speed = Sourced<LinkSpeed>::missing(why, found.source);
            link.current_width = link.max_width = Sourced<unsigned>::missing(why, found.source);
            judge(link);
            link.link_id = device_of(fn.name);
            return link;
        }
        const std::string& edge = *found.value;
        if (edge != fn.device_path) {
            const std::string address = edge.substr(edge.find_last_of('/') + 1);
            // The switch's upstream port is an NVIDIA device too: when the inventory lists it,
            // the card's link is judged there, once.
            if (std::find(inventory_paths.begin(), inventory_paths.end(), edge) !=
                inventory_paths.end()) {
                link.message = fn.name + ": behind its card's PCIe switch, whose link to the " +
                               "slot is judged at " + address + " (not applicable)";
                return link;
            }
            link.card_switch = address;
            actual = shown = edge;
        }
    }
    const sysfs::AttrDir dir(fs, shown, actual);
    link.current_speed = dir.get<LinkSpeed>("current_link_speed", parse_link_speed);
    link.current_width = dir.get<unsigned>("current_link_width", parse_link_width);
    link.max_speed = dir.get<LinkSpeed>("max_link_speed", parse_link_speed);
    link.max_width = dir.get<unsigned>("max_link_width", parse_link_width);
    if (absent(link.current_speed.gap) && absent(link.current_width.gap) &&
        absent(link.max_speed.gap) && absent(link.max_width.gap)) {
        // Not a PCIe function as far as the kernel tells (or a tree without the attributes).
        link.message = fn.name + ": no link attributes in " + shown + " (not applicable)";
        return link;
    }
    if (!fn.device_path.empty()) {
        if (auto address = port_address(actual)) {
            const sysfs::AttrDir port_dir(fs, parent_dir(actual));
            link.port =
                UpstreamPort{*address, port_dir.get<LinkSpeed>("max_link_speed", parse_link_speed),
                             port_dir.get<unsigned>("max_link_width", parse_link_width)};
        }
    }
    judge(link);
    link.link_id =
        link.port ? link.port->address : device_of(actual.substr(actual.find_last_of('/') + 1));
    return link;
}

}  // namespace

Result<LinkSpeed> parse_link_speed(std::string_view bytes) {
    auto line = sysfs::attr_line(bytes);
    if (!line) return line.gap();
    const std::string_view text = *line;
    if (text.starts_with("Unknown"))
        return Gap{GapReason::not_applicable, "link speed \"Unknown\" (link down or not trained)"};
    const auto space = text.find(' ');
    const std::string_view rate = text.substr(0, space);
    std::string_view rest = space == std::string_view::npos ? "" : text.substr(space + 1);
    const auto bad = [&text] {
        return sysfs::malformed("not a link speed: " + sysfs::quote_for_message(text));
    };
    if (!rest.starts_with("GT/s")) return bad();
    rest.remove_prefix(4);
    if (!rest.empty() && rest != " PCIe") return bad();
    // <digits>[.<digits>], bounded: no PCIe generation is faster than 128 GT/s.
    double gts = 0;
    double scale = 0;
    if (rate.empty() || rate.size() > 6) return bad();
    for (const char c : rate) {
        if (c == '.' && scale == 0) {
            scale = 1;
        } else if (c >= '0' && c <= '9') {
            if (scale == 0) {
                gts = gts * 10 + (c - '0');
            } else {
                scale /= 10;
                gts += (c - '0') * scale;
            }
        } else {
            return bad();
        }
    }
    if (rate.front() == '.' || rate.back() == '.') return bad();
    // Only the rates pci_speed_string() prints (2.5 to 64 GT/s; 128 for the next generation).
    constexpr double kRates[] = {2.5, 5.0, 8.0, 16.0, 32.0, 64.0, 128.0};
    if (std::none_of(std::begin(kRates), std::end(kRates),
                     [gts](double r) { return same_speed(gts, r); }))
        return bad();
    return LinkSpeed{std::string(text), gts};
}

Result<unsigned> parse_link_width(std::string_view bytes) {
    auto line = sysfs::attr_line(bytes);
    if (!line) return line.gap();
    // pcie_get_width_cap() answers PCIE_LNK_WIDTH_UNKNOWN when the Link Capabilities register
    // reads 0, and max_link_width prints it as a number: the kernel does not know the width.
    if (*line == kUnknownWidth) {
        return Gap{GapReason::not_applicable,
                   "link width 255: the kernel's unknown width (the device's Link Capabilities "
                   "register read 0)"};
    }
    auto number = sysfs::parse_decimal(*line, kMaxLanes);
    if (!number) {
        return sysfs::malformed("not a lane count 0.." + std::to_string(kMaxLanes) + ": " +
                                sysfs::quote_for_message(*line));
    }
    if (*number == 0) return Gap{GapReason::not_applicable, "link width 0 (link not trained)"};
    return static_cast<unsigned>(*number);
}

namespace {

using json::Json;
using json::object;

// A link figure: speed as sysfs printed it with the parsed GT/s, or a width; null with its gap.
Json link_speed(const Sourced<LinkSpeed>& speed) {
    Json out = object(
        {{"value", speed.value ? object({{"text", speed.value->text}, {"gts", speed.value->gts}})
                               : Json(nullptr)},
         {"source", json::provenance(speed.source)}});
    if (speed.gap) out["gap"] = json::gap(*speed.gap);
    return out;
}

Json link_width(const Sourced<unsigned>& width) {
    Json out = object({{"value", width.value ? Json(*width.value) : Json(nullptr)},
                       {"source", json::provenance(width.source)}});
    if (width.gap) out["gap"] = json::gap(*width.gap);
    return out;
}

}  // namespace

Json pcie_link_json(const PcieLinkFacts& facts) {
    Json functions = Json::array();
    for (const auto& link : facts.links) {
        if (!link.status) {
            functions.push_back(object({{"function", link.function},
                                        {"kind", std::string(sysfs::to_string(link.kind))},
                                        {"status", "not_applicable"},
                                        {"message", link.message}}));
            continue;
        }
        Json port = link.port ? object({{"address", link.port->address},
                                        {"max_speed", link_speed(link.port->max_speed)},
                                        {"max_width", link_width(link.port->max_width)}})
                              : Json(nullptr);
        functions.push_back(
            object({{"function", link.function},
                    {"kind", std::string(sysfs::to_string(link.kind))},
                    {"status", to_string(*link.status)},
                    {"message", link.message},
                    {"current_speed", link_speed(link.current_speed)},
                    {"current_width", link_width(link.current_width)},
                    {"max_speed", link_speed(link.max_speed)},
                    {"max_width", link_width(link.max_width)},
                    {"card_switch", link.card_switch ? Json(*link.card_switch) : Json(nullptr)},
                    {"upstream_port", std::move(port)},
                    {"reach_gts", link.reach_gts ? Json(*link.reach_gts) : Json(nullptr)},
                    {"reach_width", link.reach_width ? Json(*link.reach_width) : Json(nullptr)},
                    {"slot_limited", link.slot_limited}},
                   13));
    }
    Json links = Json::array();
    for (const auto& group : group_pcie_links(facts.links)) {
        links.push_back(object({{"id", group.id},
                                {"upstream_port", group.port ? Json(*group.port) : Json(nullptr)},
                                {"functions", group.functions},
                                {"status", to_string(group.status)},
                                {"functions_agree", group.functions_agree},
                                {"message", group.message}}));
    }
    return object({{"functions", std::move(functions)}, {"links", std::move(links)}});
}

PcieLinkFacts read_pcie_links(const Fs& fs, const sysfs::DeviceInventory& inventory) {
    PcieLinkFacts facts;
    std::vector<std::string> paths;
    for (const auto& fn : inventory.functions) {
        if (!fn.device_path.empty()) paths.push_back(fn.device_path);
    }
    for (const auto& fn : inventory.functions) facts.links.push_back(read_link(fs, fn, paths));
    facts.check = pcie_link_check(facts.links);
    return facts;
}

PcieLinkFacts probe_pcie_link(const ProbeContext& ctx, const sysfs::DeviceInventory& inventory) {
    return read_pcie_links(ctx.fs, inventory);
}

}  // namespace rdmi
