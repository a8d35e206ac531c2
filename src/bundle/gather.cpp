// gather_bundle: the host names to hide are read from the gathered root itself (its
// /proc/sys/kernel/hostname and /etc/hostname), so that redaction needs no live call.
#include "bundle/gather.hpp"

#include "bundle/bundle_tree.hpp"
#include "bundle/redact.hpp"

namespace rdmi::bundle {
namespace {

std::vector<std::string> host_names(const Fs& fs) {
    std::vector<std::string> names;
    for (const char* path : {"/proc/sys/kernel/hostname", "/etc/hostname"}) {
        auto text = fs.read_file(path, 4096);
        if (!text) continue;
        names.push_back(text->substr(0, text->find('\n')));
    }
    return names;
}

}  // namespace

Result<Gathered> gather_bundle(const Recorded& recorded, BundleInfo info, long long mtime) {
    Tree tree = build_tree(recorded.fs.inner(), recorded.fs.recorded(), info.caps);
    Documents docs;
    docs.report = recorded.report;
    docs.captured = captured_document(info.live, recorded.doca_prefix, recorded.env.recorded(),
                                      recorded.answers.recorded())
                        .dump(2) +
                    "\n";
    std::optional<Redactor> redactor;
    if (info.redacted) {
        redactor.emplace(host_names(recorded.fs.inner()));
        tree.content_bytes = 0;
        for (auto& [path, entry] : tree.entries) {
            if (entry.type != FileType::regular || entry.bytes.empty()) continue;
            entry.bytes = redactor->text(entry.bytes, path);
            tree.content_bytes += entry.bytes.size();
        }
        // The manifest's paths are redacted with its text: the archive's names and link
        // texts are too, or a MAC address naming a file would stay in the archive and the
        // replay would find no manifest entry (owner, mode, type) for that file.
        std::map<std::string, Entry> renamed;
        for (auto& [path, entry] : tree.entries) {
            entry.path = redactor->text(path, "path");
            if (entry.type == FileType::symlink)
                entry.target = redactor->text(entry.target, "path");
            renamed.emplace(entry.path, std::move(entry));
        }
        tree.entries = std::move(renamed);
        docs.report = redactor->text(docs.report, "report.json");
        docs.captured = redactor->text(docs.captured, "captured.json");
        info.root = redactor->text(info.root, "root");
        info.redaction_counts = redactor->counts();
    }
    auto doc = manifest(info, tree, docs);
    std::string text = doc.dump(2) + "\n";
    if (redactor) {
        // Error messages quote what was read; the digests hold no value a pattern matches.
        text = redactor->text(text, "manifest.json");
        doc = nlohmann::ordered_json::parse(text);
    }
    auto archive = archive_bytes(tree, docs, text, mtime);
    if (!archive) return archive.gap();
    return Gathered{std::move(archive).value(), std::move(doc)};
}

}  // namespace rdmi::bundle
