// Policy file parsing: the bounded JSON reader, then each key checked, type errors by JSON
// pointer.
#include "check/policy.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <utility>

#include "check/gate_findings.hpp"
#include "core/finding_catalog.hpp"
#include "json/json_input.hpp"
#include "json/json_strict.hpp"
#include "probes/install/install_findings.hpp"
#include "probes/install/version_consistency.hpp"
#include "probes/pcie_link/pcie_link.hpp"
#include "probes/symbols/symbols_findings.hpp"
#include "text/text.hpp"

namespace rdmi::gate {
namespace {

// What a policy string is trimmed of: spaces and tabs, never a line break.
constexpr std::string_view kBlanks = " \t";

using Json = nlohmann::json;

constexpr std::array<std::string_view, 6> kOperators = {">=", "<=", "!=", "=", "<", ">"};

bool is_module_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.' || c == '+';
}

Gap malformed(std::string message) {
    return Gap{GapReason::malformed, std::move(message)};
}

std::string type_name(const Json& value) {
    return value.is_number_integer() || value.is_number_unsigned() ? "integer" : value.type_name();
}

class Reader {
  public:
    explicit Reader(std::string_view path) : path_(path) {}

    [[nodiscard]] Gap at(std::string_view where, const std::string& what) const {
        return malformed(std::string(path_) + ": at " + std::string(where) + ": " + what);
    }

    Result<std::string> string(const Json& value, std::string_view where) const {
        if (!value.is_string()) return at(where, "expected a string, found " + type_name(value));
        auto text = value.get<std::string>();
        if (text.empty()) return at(where, "must not be empty");
        return text;
    }

    Result<bool> boolean(const Json& value, std::string_view where) const {
        if (!value.is_boolean())
            return at(where, "expected true or false, found " + type_name(value));
        return value.get<bool>();
    }

    Result<std::vector<std::string>> strings(const Json& value, std::string_view where) const {
        if (!value.is_array())
            return at(where, "expected an array of strings, found " + type_name(value));
        std::vector<std::string> out;
        for (std::size_t i = 0; i < value.size(); ++i) {
            auto item = string(value[i], std::string(where) + "/" + std::to_string(i));
            if (!item) return item.gap();
            out.push_back(std::move(item).value());
        }
        return out;
    }

    Result<std::string> version(const Json& value, std::string_view where) const {
        auto text = string(value, where);
        if (!text) return text;
        if (auto ok = parse_gate_version(*text); !ok) return at(where, ok.gap().message);
        return text;
    }

  private:
    std::string_view path_;
};

// Applies one top-level member; a Gap names its pointer.
Result<bool> apply(const Reader& r, const std::string& key, const Json& value, Policy& p) {
    const std::string where = json_pointer_append("", key);
    auto set_version = [&](std::optional<std::string>& slot) -> Result<bool> {
        auto v = r.version(value, where);
        if (!v) return v.gap();
        slot = std::move(v).value();
        return true;
    };
    auto set_bool = [&](bool& slot) -> Result<bool> {
        auto v = r.boolean(value, where);
        if (!v) return v.gap();
        slot = *v;
        return true;
    };
    auto set_strings = [&](std::vector<std::string>& slot) -> Result<bool> {
        auto v = r.strings(value, where);
        if (!v) return v.gap();
        slot = std::move(v).value();
        return true;
    };
    if (key == "schema_version") {
        if (!value.is_number_integer())
            return r.at(where, "expected an integer, found " + type_name(value));
        if (value.get<long long>() != kPolicySchemaVersion) {
            return r.at(where, "unsupported schema_version " + value.dump() +
                                   " (this build reads " + std::to_string(kPolicySchemaVersion) +
                                   ")");
        }
        return true;
    }
    if (key == "$schema" || key == "description") {
        if (!value.is_string()) return r.at(where, "expected a string, found " + type_name(value));
        return true;
    }
    if (key == "min_version") return set_version(p.min_version);
    if (key == "max_version") return set_version(p.max_version);
    if (key == "exact_version") return set_version(p.exact_version);
    if (key == "require_modules") {
        std::vector<std::string> texts;
        if (auto ok = set_strings(texts); !ok) return ok;
        for (std::size_t i = 0; i < texts.size(); ++i) {
            auto m = parse_module_requirement(texts[i]);
            if (!m) return r.at(where + "/" + std::to_string(i), m.gap().message);
            p.modules.push_back(std::move(m).value());
        }
        return true;
    }
    if (key == "require_symbols") return set_strings(p.symbols);
    if (key == "require_stable") return set_strings(p.stable);
    if (key == "app") {
        auto v = r.string(value, where);
        if (!v) return v.gap();
        p.app = std::move(v).value();
        return true;
    }
    if (key == "forbid_experimental") return set_bool(p.forbid_experimental);
    if (key == "allow_experimental") return set_strings(p.allow_experimental);
    if (key == "require_device") {
        if (value.is_boolean()) {
            if (value.get<bool>()) p.device = "";
            return true;
        }
        if (!value.is_string()) {
            return r.at(where, "expected true, false or a PCI address or ibdev name, found " +
                                   type_name(value));
        }
        auto v = r.string(value, where);
        if (!v) return v.gap();
        p.device = std::move(v).value();
        return true;
    }
    if (key == "require_dpa") return set_bool(p.require_dpa);
    if (key == "require_port_active") return set_bool(p.require_port_active);
    if (key == "require_consistent") return set_bool(p.require_consistent);
    if (key == "require_pcie_link") return set_bool(p.require_pcie_link);
    if (key == "require_integrity") return set_bool(p.require_integrity);
    if (key == "for") {
        auto v = r.string(value, where);
        if (!v) return v.gap();
        p.for_purposes = parse_for(*v);
        if (!p.for_purposes) return r.at(where, "expected \"run\", \"build\" or \"all\"");
        return true;
    }
    if (key == "waive_sources") {
        std::vector<std::string> names;
        if (auto ok = set_strings(names); !ok) return ok;
        // Each source once, as the flags' merge keeps them: a repeated name waives nothing more,
        // and the document records every waiver (a list of one name many times was that many
        // copies of the waiver in every message and document).
        p.waive_sources.clear();
        for (std::size_t i = 0; i < names.size(); ++i) {
            if (auto ok = check_waived_source(names[i]); !ok)
                return r.at(where + "/" + std::to_string(i), ok.gap().message);
            if (std::find(p.waive_sources.begin(), p.waive_sources.end(), names[i]) ==
                p.waive_sources.end())
                p.waive_sources.push_back(names[i]);
        }
        return true;
    }
    return r.at(where, "unknown key \"" + key + "\"");
}

}  // namespace

bool Policy::empty() const {
    return !min_version && !max_version && !exact_version && modules.empty() && symbols.empty() &&
           stable.empty() && app.empty() && !device && !require_dpa && !require_port_active &&
           !require_consistent && !require_pcie_link && !require_integrity;
}

Result<ModuleRequirement> parse_module_requirement(std::string_view text) {
    const std::string_view whole = trim(text, kBlanks);
    std::size_t end = 0;
    while (end < whole.size() && is_module_char(whole[end])) ++end;
    ModuleRequirement req;
    req.name = std::string(whole.substr(0, end));
    if (req.name.empty()) {
        return malformed("\"" + std::string(text) +
                         "\": expected a module name (NAME[OP VERSION])");
    }
    std::string_view rest = trim(whole.substr(end), kBlanks);
    if (rest.empty()) return req;
    for (auto op : kOperators) {
        if (!rest.starts_with(op)) continue;
        req.op = std::string(op);
        req.version = std::string(trim(rest.substr(op.size()), kBlanks));
        break;
    }
    if (req.op.empty()) {
        return malformed("\"" + std::string(text) + "\": expected one of >= <= != = < > after " +
                         req.name);
    }
    bool digit = false;
    for (char c : req.version) {
        if (c >= '0' && c <= '9') digit = true;
        if (!is_module_char(c) && c != '~') {
            return malformed("\"" + std::string(text) + "\": \"" + req.version +
                             "\" is not a version");
        }
    }
    if (!digit)
        return malformed("\"" + std::string(text) + "\": \"" + req.version + "\" is not a version");
    return req;
}

Result<bool> check_waived_source(std::string_view name) {
    if (find_waivable(name) != nullptr) return true;
    return malformed("\"" + std::string(name) + "\" is not a version source a waiver can name (" +
                     waivable_names() + ")");
}

Result<DocaVersion> parse_gate_version(std::string_view text) {
    const std::string spelled(text);
    if (!text.empty() && text == trim(text, kBlanks)) {
        if (auto v = parse_doca_version(spelled)) return *v;
        if (auto v = parse_doca_version(spelled + ".0")) return *v;
    }
    return malformed("\"" + spelled + "\" is not a DOCA version (expected MAJOR.MINOR[.PATCH])");
}

Result<Policy> parse_policy(std::string_view bytes, std::string_view path) {
    auto parsed = parse_json_input(bytes, path, json_input::kPolicy);
    if (!parsed) return parsed.gap();
    const Json& document = *parsed;
    const Reader reader(path);
    if (!document.is_object())
        return reader.at("(document)", "expected a JSON object, found " + type_name(document));
    if (!document.contains("schema_version")) {
        return reader.at("/schema_version",
                         "missing (this build reads " + std::to_string(kPolicySchemaVersion) + ")");
    }
    Policy policy;
    for (const auto& [key, value] : document.items()) {
        if (auto ok = apply(reader, key, value, policy); !ok) return ok.gap();
    }
    return policy;
}

void keep_purposes(Policy& policy, Purposes wanted) {
    auto kept = [&](const FindingInfo& finding) { return answers(finding.purposes, wanted); };
    if (!kept(finding::min_version)) policy.min_version.reset();
    if (!kept(finding::max_version)) policy.max_version.reset();
    if (!kept(finding::exact_version)) policy.exact_version.reset();
    if (!kept(finding::module)) policy.modules.clear();
    if (!kept(finding::symbol)) policy.symbols.clear();
    if (!kept(finding::stable)) policy.stable.clear();
    // The experimental audit needs the application: both go, or the app alone.
    if (!kept(finding::app_experimental)) {
        policy.forbid_experimental = false;
        policy.allow_experimental.clear();
    }
    if (!kept(finding::app_resolves) && !policy.forbid_experimental) policy.app.clear();
    if (!kept(finding::device)) policy.device.reset();
    if (!kept(finding::dpa)) policy.require_dpa = false;
    if (!kept(finding::port_active)) policy.require_port_active = false;
    if (!kept(finding::consistent_versions)) policy.require_consistent = false;
    if (!answers(finding::pcie_link.purposes, wanted)) policy.require_pcie_link = false;
}

void merge_policy(Policy& base, const Policy& extra) {
    if (extra.min_version) base.min_version = extra.min_version;
    if (extra.max_version) base.max_version = extra.max_version;
    if (extra.exact_version) base.exact_version = extra.exact_version;
    base.modules.insert(base.modules.end(), extra.modules.begin(), extra.modules.end());
    base.symbols.insert(base.symbols.end(), extra.symbols.begin(), extra.symbols.end());
    base.stable.insert(base.stable.end(), extra.stable.begin(), extra.stable.end());
    if (!extra.app.empty()) base.app = extra.app;
    base.forbid_experimental = base.forbid_experimental || extra.forbid_experimental;
    base.allow_experimental.insert(base.allow_experimental.end(), extra.allow_experimental.begin(),
                                   extra.allow_experimental.end());
    if (extra.device && (!base.device || !extra.device->empty())) base.device = extra.device;
    base.require_dpa = base.require_dpa || extra.require_dpa;
    base.require_port_active = base.require_port_active || extra.require_port_active;
    base.require_consistent = base.require_consistent || extra.require_consistent;
    base.require_pcie_link = base.require_pcie_link || extra.require_pcie_link;
    base.require_integrity = base.require_integrity || extra.require_integrity;
    for (const auto& name : extra.waive_sources) {
        if (std::find(base.waive_sources.begin(), base.waive_sources.end(), name) ==
            base.waive_sources.end())
            base.waive_sources.push_back(name);
    }
}

}  // namespace rdmi::gate
