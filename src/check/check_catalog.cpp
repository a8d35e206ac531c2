// The finding catalog gathered from its tables.
#include "check/check_catalog.hpp"

#include <deque>
#include <string>
#include <vector>

#include "check/gate_findings.hpp"
#include "model/registry.hpp"
#include "probes/loopback/loopback.hpp"
#include "probes/symbols/symbols_findings.hpp"
#include "sysfs/pci_ids.hpp"

namespace rdmi {
namespace {

// The tables of what has no probe row, in catalog order after the rows' entries.
constexpr std::span<const FindingInfo* const> kTablesAfterRows[] = {
    kRegistryFindings, kSymbolsCommandFindings, kLoopbackCommandFindings, kGateFindings};

// An entry whose fix names the devices with a DPA carries a placeholder (the catalog's layer
// cannot see the product table): its copy with the table's wording, kept for the program's
// life, so that `--explain`, `--list-checks` and docs/checks.md name exactly the table's products.
const FindingInfo* with_products(const FindingInfo* info) {
    if (info->fix.find("{dpa-devices}") == std::string_view::npos) return info;
    static std::deque<std::string> texts;
    static std::deque<FindingInfo> entries;
    texts.push_back(sysfs::with_dpa_products(info->fix));
    FindingInfo copy = *info;
    copy.fix = texts.back();
    entries.push_back(copy);
    return &entries.back();
}

std::vector<const FindingInfo*> make_catalog() {
    std::vector<const FindingInfo*> out;
    for (const auto& row : probe_registry()) {
        for (const FindingInfo* own : row.findings) out.push_back(with_products(own));
    }
    for (const auto table : kTablesAfterRows) {
        for (const FindingInfo* entry : table) out.push_back(with_products(entry));
    }
    return out;
}

}  // namespace

std::span<const FindingInfo* const> check_catalog() {
    static const std::vector<const FindingInfo*> catalog = make_catalog();
    return catalog;
}

const FindingInfo* find_check(std::string_view id) {
    return find_finding(check_catalog(), id);
}

}  // namespace rdmi
