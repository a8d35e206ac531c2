// The --root path is the one value no replay reads as a path ("run metadata" in the manifest's
// not_replayable), so a host name is hidden there even as a path component; it is replaced as
// a whole wherever a document quotes it (the report's run, messages naming host paths).
#include "bundle/redact_bundle.hpp"

#include <nlohmann/json.hpp>

#include "os/activity.hpp"

namespace rdmi::bundle {
namespace {

void replace_all(std::string& text, std::string_view from, std::string_view to) {
    if (from.empty() || from == to) return;
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

// The spelling of `s` inside a JSON string, as the documents write it (bytes that are not
// UTF-8 replaced, never a throw).
std::string json_escaped(const std::string& s) {
    const std::string quoted =
        nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return quoted.substr(1, quoted.size() - 2);
}

}  // namespace

std::string redact_document(Redactor& redactor, std::string_view text, std::string_view name,
                            const std::string& host_root, const std::string& shown_root) {
    std::string out(text);
    // "/" (a live gather) is in every path: it is no identity, and replacing it would be wrong.
    if (host_root != "/" && host_root != shown_root)
        replace_all(out, json_escaped(host_root), json_escaped(shown_root));
    return redactor.text(out, name);
}

void redact_bundle(Redactor& redactor, Tree& tree, Documents& docs, BundleInfo& info) {
    tree.content_bytes = 0;
    for (auto& [path, entry] : tree.entries) {
        if (entry.type != FileType::regular || entry.bytes.empty()) continue;
        // While a large tree is redacted, an overrun names the file, not the last one read.
        const activity::Scope doing(activity::Kind::redacting, path);
        if (is_binary(entry.bytes)) {
            auto redacted = redactor.binary(entry.bytes);
            if (!redacted) {
                const std::string reason = "redaction: " + redacted.gap().message;
                info.redaction_excluded.push_back({path, reason, {}});
                tree.skipped.push_back({path, reason, {}});
                entry.bytes.clear();
                entry.content = Content::placeholder;
                continue;
            }
            entry.bytes = std::move(redacted).value();
        } else {
            entry.bytes = redactor.text(entry.bytes, path);
        }
        tree.content_bytes += entry.bytes.size();
    }
    // The manifest's paths are redacted with its text: the archive's names and link texts are
    // too, or a MAC address naming a file would stay in the archive and the replay would find
    // no manifest entry (owner, mode, type) for that file.
    std::map<std::string, Entry> renamed;
    for (auto& [path, entry] : tree.entries) {
        entry.path = redactor.text(path, "path");
        if (entry.type == FileType::symlink) entry.target = redactor.text(entry.target, "path");
        renamed.emplace(entry.path, std::move(entry));
    }
    tree.entries = std::move(renamed);
    for (auto& skipped : tree.skipped) skipped.path = redactor.text(skipped.path, "path");
    for (auto& excluded : info.redaction_excluded)
        excluded.path = redactor.text(excluded.path, "path");
    const std::string host_root = info.root;
    info.root = redactor.metadata(host_root);
    docs.report = redact_document(redactor, docs.report, "report.json", host_root, info.root);
    docs.captured = redact_document(redactor, docs.captured, "captured.json", host_root, info.root);
    info.redaction_counts = redactor.counts();
    info.redactor_version = kRedactorVersion;
}

}  // namespace rdmi::bundle
