// The symbol requirements: names libdoca_rdmi must export (stably), and the application audit.
#include <string>

#include "check/evaluate.hpp"
#include "check/gate_findings.hpp"
#include "probes/symbols/symbols_findings.hpp"

namespace rdmi::gate {
namespace {

std::string library_label(const SymbolsFacts& facts) {
    return facts.library.soname.empty() ? facts.library.path : facts.library.soname;
}

Check skipped(FindingId id, const Gap& gap) {
    return Check{std::move(id),
                 Status::skip,
                 "cannot be checked: " + gap.message,
                 "install DOCA's doca-rdmi (or point --doca-prefix at it), then rerun",
                 {}};
}

Check symbol_check(const SymbolsFacts& facts, const std::string& name, bool stable) {
    Check check{FindingId(stable ? finding::stable : finding::symbol, name),
                Status::pass,
                "",
                "",
                {{"file", facts.library.path}}};
    const SymbolVerdict* verdict = facts.audit.find(name);
    const std::string lib = library_label(facts);
    if (verdict == nullptr || !verdict->exported) {
        check.status = Status::fail;
        check.message =
            name + " is not exported by " + lib +
            (verdict != nullptr && verdict->declared ? " (declared in a header only)" : "");
        check.remediation = "install a DOCA release that provides " + name + ", or stop using it";
        return check;
    }
    const std::string stability(to_string(verdict->stability));
    if (!stable) {
        check.message = name + " is exported by " + lib + " (" + stability + ")";
        return check;
    }
    switch (verdict->stability) {
        case Stability::stable:
            check.message = name + " is exported by " + lib + " and stable";
            return check;
        case Stability::unknown:
            check.status = Status::skip;
            check.message = name + " is exported by " + lib +
                            ", but nothing marks its stability (no version nodes, sections or "
                            "header annotations)";
            check.remediation = "install DOCA's headers (doca-rdmi includedir) so they can be read";
            return check;
        default:
            check.status = Status::fail;
            check.message = name + " is exported by " + lib + " but " + stability;
            check.remediation =
                "use a stable replacement, or wait for the release that stabilises " + name;
            return check;
    }
}

// The symbols probe's own app check, under the same id.
Check app_check(const SymbolsFacts& facts, const FindingInfo& id) {
    for (const auto& check : facts.checks) {
        if (check.id.is(id)) return check;
    }
    return Check{id, Status::skip, "the application was not audited", "", {}};
}

}  // namespace

std::vector<Check> symbols_gate(const Policy& policy, const Result<SymbolsFacts>& symbols) {
    std::vector<Check> checks;
    for (const auto& name : policy.symbols) {
        checks.push_back(symbols ? symbol_check(*symbols, name, false)
                                 : skipped(FindingId(finding::symbol, name), symbols.gap()));
    }
    for (const auto& name : policy.stable) {
        checks.push_back(symbols ? symbol_check(*symbols, name, true)
                                 : skipped(FindingId(finding::stable, name), symbols.gap()));
    }
    if (policy.app.empty()) return checks;
    checks.push_back(symbols ? app_check(*symbols, finding::app_resolves)
                             : skipped(finding::app_resolves, symbols.gap()));
    if (policy.forbid_experimental) {
        checks.push_back(symbols ? app_check(*symbols, finding::app_experimental)
                                 : skipped(finding::app_experimental, symbols.gap()));
    }
    return checks;
}

}  // namespace rdmi::gate
