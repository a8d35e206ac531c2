// gather_bundle: the host names to hide are read from the gathered root itself (its
// /proc/sys/kernel/hostname and /etc/hostname), so that redaction needs no live call.
#include "bundle/gather.hpp"

#include <algorithm>
#include <tuple>

#include "bundle/bundle_tree.hpp"
#include "bundle/fit.hpp"
#include "bundle/redact.hpp"
#include "bundle/redact_bundle.hpp"

namespace rdmi::bundle {
namespace {

// Every document is dumped this way: a string that is not UTF-8 (a --root path, an
// environment value, a file name or a message quoting one) is spelled with U+FFFD, never a
// throw (nlohmann's strict handler throws type_error 316, which ended gather without a word).
std::string json_text(const nlohmann::ordered_json& doc) {
    return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::vector<std::string> host_names(const Fs& fs) {
    std::vector<std::string> names;
    for (const char* path : {"/proc/sys/kernel/hostname", "/etc/hostname"}) {
        auto text = fs.read_file(path, 4096);
        if (!text) continue;
        names.push_back(text->substr(0, text->find('\n')));
    }
    return names;
}

// The archive entries that are the bundle's own: the top directory, the documents' directory,
// manifest.json, report.json and captured.json.
constexpr std::uint64_t kOwnEntries = 5;
// Room kept in the manifest for what its fixed part may still grow by (not_replayable's items
// for the skipped and dropped counts).
constexpr std::uint64_t kManifestSlack = 1024;

std::uint64_t minus(std::uint64_t a, std::uint64_t b) {
    return a > b ? a - b : 0;
}

// The captured answers, the largest replaced by a gap until the document fits `max_bytes`:
// a replay then says "not captured" for them, as for any question not asked when gathering.
std::string captured_within(const Recorded& recorded, bool live, std::uint64_t max_bytes) {
    std::vector<RecordedAnswer> answers = recorded.answers.recorded();
    std::string text;
    while (true) {
        text = json_text(captured_document(live, recorded.doca_prefix, recorded.env.recorded(),
                                           answers)) +
               "\n";
        if (text.size() <= max_bytes) return text;
        RecordedAnswer* largest = nullptr;
        for (auto& a : answers) {
            if (a.answer && (largest == nullptr || a.answer->size() > largest->answer->size()))
                largest = &a;
        }
        if (largest == nullptr) return text;  // gaps alone: gather_bundle refuses below
        largest->answer =
            make_gap(GapReason::not_applicable,
                     "not captured: its " + std::to_string(largest->answer->size()) +
                         " bytes would take captured.json past the bundle's limit of " +
                         std::to_string(max_bytes) + " bytes");
    }
}

}  // namespace

Result<Gathered> gather_bundle(const Recorded& recorded, BundleInfo info, long long mtime) {
    Tree tree = build_tree(recorded.fs.inner(), recorded.fs.recorded(), info.caps);
    Documents docs;
    docs.report = recorded.report;
    const BundleLimits& limits = info.limits;
    // A document is an archive entry too.
    const std::uint64_t document_max = std::min(limits.document_bytes, limits.entry_bytes);
    docs.captured = captured_within(recorded, info.live, document_max);
    std::optional<Redactor> redactor;
    const std::string host_root = info.root;
    if (info.redacted) {
        redactor.emplace(host_names(recorded.fs.inner()));
        redact_bundle(*redactor, tree, docs, info);
    }
    // Within the limits a replay enforces: what does not fit is left out and listed in the
    // manifest's skipped; a manifest that comes out over its own limit (redaction lengthens
    // what it quotes) is fitted again with the overflow taken off its room.
    FitBudget budget;
    budget.entries = minus(limits.entries, kOwnEntries);
    budget.content_bytes = minus(limits.extract_bytes,
                                 docs.report.size() + docs.captured.size() + limits.document_bytes);
    budget.manifest_bytes =
        minus(document_max, json_text(manifest(info, Tree{}, docs)).size() + kManifestSlack);
    nlohmann::ordered_json doc;
    std::string text;
    for (int attempt = 0;; ++attempt) {
        fit_to_limits(tree, limits, budget);
        doc = manifest(info, tree, docs);
        text = json_text(doc) + "\n";
        if (redactor) {
            // Error messages quote what was read; the digests hold no value a pattern matches.
            text = redact_document(*redactor, text, "manifest.json", host_root, info.root);
        }
        if (text.size() <= document_max || attempt == 3) break;
        budget.manifest_bytes =
            minus(budget.manifest_bytes, text.size() - document_max + kManifestSlack);
    }
    if (redactor) doc = nlohmann::ordered_json::parse(text);
    for (const auto& [name, size, max] :
         {std::tuple{"manifest.json", text.size(), document_max},
          std::tuple{"captured.json", docs.captured.size(), document_max},
          std::tuple{"report.json", docs.report.size(), limits.entry_bytes}}) {
        // Never a bundle that a replay refuses: this is the limits' last word, not expected.
        if (size > max) {
            return make_gap(GapReason::error,
                            std::string("bundle: ") + name + " would be " + std::to_string(size) +
                                " bytes, past the bundle's limit of " + std::to_string(max));
        }
    }
    auto archive = archive_bytes(tree, docs, text, mtime);
    if (!archive) return archive.gap();
    return Gathered{std::move(archive).value(), std::move(doc)};
}

}  // namespace rdmi::bundle
