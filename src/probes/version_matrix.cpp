// version-matrix.json: validation and availability.
#include "probes/version_matrix.hpp"

#include <array>

#include <nlohmann/json.hpp>

#include "json/json_input.hpp"
#include "json/json_strict.hpp"

namespace rdmi {
namespace {

// Ordered: of two stray fields, the first one in the file is the one named.
using MatrixJson = nlohmann::ordered_json;

constexpr std::array<std::string_view, 7> kEntryFields = {
    "library",          "capability", "display_name", "min_doca_version",
    "max_doca_version", "source_url", "source_quote"};

struct Invalid {
    std::string message;
};

/// Length of the "M.m.p" prefix of `text` (three dot-separated digit runs), or 0.
std::size_t version_prefix(std::string_view text) {
    std::size_t i = 0;
    for (int part = 0; part < 3; ++part) {
        if (part > 0) {
            if (i >= text.size() || text[i] != '.') return 0;
            ++i;
        }
        const std::size_t start = i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
        if (i == start) return 0;
    }
    return i;
}

bool is_plain_version(std::string_view text) {
    return !text.empty() && version_prefix(text) == text.size();
}

/// "M.m.p", optionally followed by a semver pre-release ("-rc.1") or build ("+x") part.
bool is_semver(std::string_view text) {
    const std::size_t n = version_prefix(text);
    return n > 0 &&
           (n == text.size() || ((text[n] == '-' || text[n] == '+') && n + 1 < text.size()));
}

std::string need_string(const MatrixJson& obj, std::string_view key, const std::string& at) {
    auto it = obj.find(key);
    if (it == obj.end()) {
        // At the top level `at` is "": no empty pointer before the colon.
        throw Invalid{(at.empty() ? std::string() : at + ": ") + "missing \"" + std::string(key) +
                      "\""};
    }
    if (!it->is_string()) throw Invalid{json_pointer_append(at, key) + ": not a string"};
    return it->get<std::string>();
}

std::string need_version(const MatrixJson& obj, std::string_view key, const std::string& at) {
    std::string text = need_string(obj, key, at);
    if (!is_plain_version(text) || !parse_doca_version(text))
        throw Invalid{json_pointer_append(at, key) + ": \"" + text + "\" is not a DOCA version"};
    return text;
}

void only_fields(const MatrixJson& obj, std::span<const std::string_view> allowed,
                 const std::string& at) {
    for (const auto& [key, value] : obj.items()) {
        (void)value;
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
            throw Invalid{json_pointer_append(at, key) + ": not a field of the contract's shape"};
    }
}

MatrixEntry entry(const MatrixJson& obj, const std::string& at) {
    if (!obj.is_object()) throw Invalid{at + ": not an object"};
    only_fields(obj, kEntryFields, at);
    MatrixEntry e;
    e.library = need_string(obj, "library", at);
    e.capability = need_string(obj, "capability", at);
    e.display_name = need_string(obj, "display_name", at);
    e.min_doca_version = need_version(obj, "min_doca_version", at);
    auto max = obj.find("max_doca_version");
    if (max == obj.end()) throw Invalid{at + ": missing \"max_doca_version\""};
    if (!max->is_null()) e.max_doca_version = need_version(obj, "max_doca_version", at);
    e.source_url = need_string(obj, "source_url", at);
    e.source_quote = need_string(obj, "source_quote", at);
    return e;
}

int compare_release_first(const DocaVersion& a, const DocaVersion& b) {
    DocaVersion x = a;
    DocaVersion y = b;
    if (!x.build || !y.build) x.build = y.build = std::nullopt;
    return compare_doca_versions(x, y);
}

}  // namespace

Result<VersionMatrix> parse_version_matrix(std::string_view bytes, std::string_view name) {
    auto parsed = parse_json_input<MatrixJson>(bytes, name, json_input::kVersionMatrix);
    if (!parsed) return parsed.gap();
    const MatrixJson& doc = *parsed;
    try {
        if (!doc.is_object()) throw Invalid{"top level: not an object"};
        constexpr std::array<std::string_view, 3> kTop = {"schema_version", "generated_at",
                                                          "entries"};
        only_fields(doc, kTop, "");
        VersionMatrix matrix;
        matrix.schema_version = need_string(doc, "schema_version", "");
        if (!is_semver(matrix.schema_version))
            throw Invalid{"/schema_version: \"" + matrix.schema_version + "\" is not semver"};
        matrix.generated_at = need_string(doc, "generated_at", "");
        auto entries = doc.find("entries");
        if (entries == doc.end()) throw Invalid{"missing \"entries\""};
        if (!entries->is_array()) throw Invalid{"/entries: not an array"};
        for (std::size_t i = 0; i < entries->size(); ++i)
            matrix.entries.push_back(entry((*entries)[i], "/entries/" + std::to_string(i)));
        return matrix;
    } catch (const Invalid& e) {
        return make_gap(GapReason::malformed, std::string(name) + ": " + e.message);
    }
}

bool entry_available(const MatrixEntry& entry, const DocaVersion& version) {
    auto min = parse_doca_version(entry.min_doca_version);
    if (!min || compare_release_first(version, *min) < 0) return false;
    if (!entry.max_doca_version) return true;
    auto max = parse_doca_version(*entry.max_doca_version);
    return max && compare_release_first(version, *max) <= 0;
}

VersionMatrixFacts probe_version_matrix(const ProbeContext& ctx, const InstallFacts& install) {
    VersionMatrixFacts facts;
    const std::string prefix = install.prefix.value.value_or("/opt/mellanox/doca");
    facts.path = join_path(prefix, "share/version-matrix.json");
    Check& check = facts.check;
    check.sources = {{"file", facts.path}};

    const VersionMatch& match =
        install.stack_versions.agreed ? install.stack_versions : install.contract_versions;
    if (match.agreed) {
        facts.install_version = Sourced<std::string>::of(
            match.agreed->to_string(),
            {"derived",
             &match == &install.stack_versions ? "RDMI stack versions" : "contract versions"});
    } else {
        facts.install_version = Sourced<std::string>::missing(
            {GapReason::not_found, "the install's DOCA version is unknown"},
            {"derived", "RDMI stack and contract versions"});
    }

    auto text = ctx.fs.read_file(facts.path, json_input::kVersionMatrix.max_bytes);
    if (!text) {
        facts.gap = text.gap();
        facts.present = text.gap().reason != GapReason::not_found;
        check.status = facts.present ? Status::fail : Status::info;
        check.message = facts.present
                            ? "version matrix " + facts.path + " unreadable: " + text.gap().message
                            : "no version matrix at " + facts.path +
                                  " (the contract's only location; no other is tried)";
        if (facts.present) check.remediation = "make the file readable, or remove it";
        return facts;
    }
    facts.present = true;
    auto matrix = parse_version_matrix(*text, facts.path);
    if (!matrix) {
        facts.gap = matrix.gap();
        check.status = Status::fail;
        check.message =
            "version matrix is malformed (" + matrix.gap().message + "); none of it is used";
        check.remediation = "reinstall the DOCA package that ships share/version-matrix.json";
        return facts;
    }
    facts.matrix = std::move(matrix).value();
    std::size_t available = 0;
    if (auto version = match.agreed) {
        for (auto& e : facts.matrix->entries) {
            e.available = entry_available(e, *version);
            if (*e.available) ++available;
        }
    }
    check.status = Status::info;
    check.message =
        facts.install_version.ok()
            ? std::to_string(available) + " of " + std::to_string(facts.matrix->entries.size()) +
                  " version-matrix entries available on DOCA " + *facts.install_version.value
            : "version matrix read (" + std::to_string(facts.matrix->entries.size()) +
                  " entries), but the install's DOCA version is unknown";
    return facts;
}

}  // namespace rdmi
