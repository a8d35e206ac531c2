// The symbol-level view of a diff between two symbol audits: what an upgrade added, removed,
// promoted from experimental to stable, or deprecated.
#include <map>

#include "json/json_common.hpp"
#include "report/diff_document.hpp"

namespace rdmi::diff {
namespace {

struct SymbolState {
    std::string stability;
    bool exported = false;
};

/// name -> state from a symbols document's /symbols array; malformed entries are skipped (the
/// field-by-field changes still show them).
std::map<std::string, SymbolState> symbol_states(const Json& document) {
    std::map<std::string, SymbolState> out;
    const auto list = document.find("symbols");
    if (list == document.end() || !list->is_array()) return out;
    for (const auto& entry : *list) {
        if (!entry.is_object()) continue;
        const auto name = entry.find("name");
        const auto stability = entry.find("stability");
        const auto exported = entry.find("exported");
        if (name == entry.end() || !name->is_string()) continue;
        SymbolState state;
        if (stability != entry.end() && stability->is_string())
            state.stability = stability->get<std::string>();
        state.exported = exported != entry.end() && exported->is_boolean() && exported->get<bool>();
        out[name->get<std::string>()] = state;
    }
    return out;
}

}  // namespace

SymbolsView symbols_view(const Json& a, const Json& b) {
    const auto before = symbol_states(a);
    const auto after = symbol_states(b);
    SymbolsView view;
    for (const auto& [name, state] : after) {
        const auto old = before.find(name);
        const bool was_exported = old != before.end() && old->second.exported;
        if (state.exported && !was_exported) {
            view.added.push_back(name);
            continue;
        }
        if (old == before.end() || old->second.stability == state.stability) continue;
        if (old->second.stability == "experimental" && state.stability == "stable") {
            view.promoted.push_back(name);
        } else if (state.stability == "deprecated") {
            view.deprecated.push_back(name);
        } else {
            view.changed.push_back(name);
        }
    }
    for (const auto& [name, state] : before) {
        const auto now = after.find(name);
        if (state.exported && (now == after.end() || !now->second.exported))
            view.removed.push_back(name);
    }
    return view;
}

Json to_json(const SymbolsView& view) {
    return json::object({{"added", view.added},
                         {"removed", view.removed},
                         {"promoted", view.promoted},
                         {"deprecated", view.deprecated},
                         {"changed", view.changed}});
}

}  // namespace rdmi::diff
