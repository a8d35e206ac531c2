// The pcie-link verdict, one per PCIe link. The functions of one card behind one upstream port
// share one physical link: a verdict per function would print the same link twice, or, when
// their figures disagree, show the warning and hide the sibling that passes. A Socket Direct
// or multi-host card reaches the host through two upstream ports: two links, two verdicts.
#include <algorithm>

#include "probes/pcie_link/pcie_link.hpp"
#include "text/shell_word.hpp"
#include "text/text.hpp"

namespace rdmi {
namespace {

std::vector<Provenance> sources_of(const PcieLink& link) {
    std::vector<Provenance> out{link.current_speed.source, link.current_width.source,
                                link.max_speed.source, link.max_width.source};
    if (link.port) {
        out.push_back(link.port->max_speed.source);
        out.push_back(link.port->max_width.source);
    }
    return out;
}

int severity(Status status) {
    return status == Status::warn ? 2 : status == Status::skip ? 1 : 0;
}

// A function's verdict without its own name: every message starts with it (pcie_link.cpp).
std::string verdict_of(const PcieLink& link) {
    return link.message.starts_with(link.function) ? link.message.substr(link.function.size())
                                                   : ": " + link.message;
}

std::string names(const std::vector<std::string>& functions) {
    if (functions.size() < 2) return functions.empty() ? "" : functions.front();
    return join(std::vector<std::string>(functions.begin(), functions.end() - 1)) + " and " +
           functions.back();
}

void finish(PcieLinkGroup& group, const std::vector<const PcieLink*>& members) {
    const PcieLink& first = *members.front();
    if (members.size() == 1) {
        group.status = *first.status;
        group.message = first.message;
        return;
    }
    const std::string where =
        group.port ? "upstream port " + *group.port : "device " + group.id + ", no port above it";
    for (const auto* link : members) {
        if (severity(*link->status) > severity(group.status)) group.status = *link->status;
        if (*link->status != *first.status || verdict_of(*link) != verdict_of(first))
            group.functions_agree = false;
    }
    if (group.functions_agree) {
        const std::string verdict = verdict_of(first);
        group.message = verdict.starts_with(":")
                            ? names(group.functions) + " (one link, " + where + ")" + verdict
                            : names(group.functions) + ", one link (" + where + ")," + verdict;
        return;
    }
    std::vector<std::string> each;
    each.reserve(members.size());
    for (const auto* link : members) each.push_back(link->message);
    group.message = names(group.functions) + " share one link (" + where +
                    ") but disagree: " + join(each, "; ");
}

// The fix for the warned links: a reseat only where the slot's port can do more than the link
// trained at; where its maximum is unknown, the slot or riser is read first.
std::string remediation(const std::vector<const PcieLink*>& warned) {
    bool move = false;
    bool reseat = false;
    std::vector<std::string> unknown_ports;
    bool unknown_without_port = false;
    for (const auto* link : warned) {
        move = move || link->slot_limited;
        if (!link->trained_low) continue;
        if (!link->upstream_unknown) {
            reseat = true;
        } else if (link->port) {
            if (std::find(unknown_ports.begin(), unknown_ports.end(), link->port->address) ==
                unknown_ports.end())
                unknown_ports.push_back(link->port->address);
        } else {
            unknown_without_port = true;
        }
    }
    std::vector<std::string> steps;
    if (move) {
        steps.emplace_back(
            "Move a slot-limited card to a slot with the card's lanes and "
            "generation.");
    }
    if (reseat) {
        steps.emplace_back(
            "Reseat a card trained below what its slot's port reaches; check the "
            "slot's lanes and the BIOS bifurcation and PCIe generation settings.");
    }
    if (!unknown_ports.empty() || unknown_without_port) {
        std::string read;
        for (const auto& port : unknown_ports) {
            read += (read.empty() ? "" : ", ") + std::string("lspci -vv -s ") + shell_word(port);
        }
        steps.push_back(
            "The slot or riser may be the limit where the upstream port's maximum is "
            "unknown: read what it can do (" +
            (read.empty() ? std::string("the board's manual") : read + ": LnkCap") +
            ") before reseating.");
    }
    return join(steps, " ");
}

}  // namespace

std::vector<PcieLinkGroup> group_pcie_links(const std::vector<PcieLink>& links) {
    std::vector<PcieLinkGroup> groups;
    std::vector<std::vector<const PcieLink*>> members;
    for (const auto& link : links) {
        if (!link.status) continue;
        const std::string id = link.link_id.empty() ? link.function : link.link_id;
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&id](const PcieLinkGroup& g) { return g.id == id; });
        if (it == groups.end()) {
            PcieLinkGroup group;
            group.id = id;
            if (link.port) group.port = link.port->address;
            groups.push_back(std::move(group));
            members.emplace_back();
            it = groups.end() - 1;
        }
        it->functions.push_back(link.function);
        members[static_cast<std::size_t>(it - groups.begin())].push_back(&link);
    }
    for (std::size_t i = 0; i < groups.size(); ++i) finish(groups[i], members[i]);
    return groups;
}

// One check for all links: warn when any warns (a skip's reason is still listed), else skip
// when any could not be judged, else pass.
std::optional<Check> pcie_link_check(const std::vector<PcieLink>& links) {
    const auto groups = group_pcie_links(links);
    if (groups.empty()) return std::nullopt;
    const auto any = [&groups](Status s) {
        return std::any_of(groups.begin(), groups.end(),
                           [s](const PcieLinkGroup& g) { return g.status == s; });
    };
    Check check{finding::pcie_link, Status::pass, "", "", {}};
    check.status = any(Status::warn)   ? Status::warn
                   : any(Status::skip) ? Status::skip
                                       : Status::pass;
    std::string message;
    std::vector<const PcieLink*> warned;
    for (const auto& group : groups) {
        // A passing link is named only when everything passes.
        if (check.status != Status::pass && group.status == Status::pass) continue;
        if (!message.empty()) message += "; ";
        message += group.status == Status::skip ? "not judged: " + group.message : group.message;
        for (const auto& link : links) {
            if (std::find(group.functions.begin(), group.functions.end(), link.function) ==
                    group.functions.end() ||
                !link.status)
                continue;
            if (*link.status == Status::warn) warned.push_back(&link);
            for (auto& source : sources_of(link)) {
                // Functions behind one port share its files: each file is listed once.
                const bool listed =
                    std::any_of(check.sources.begin(), check.sources.end(),
                                [&source](const Provenance& p) { return p.ref == source.ref; });
                if (!listed) check.sources.push_back(std::move(source));
            }
        }
    }
    check.message = std::move(message);
    if (check.status == Status::warn) check.remediation = remediation(warned);
    return check;
}

}  // namespace rdmi
