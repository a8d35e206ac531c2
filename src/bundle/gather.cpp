// gather_bundle: the host names to hide are read from the gathered root itself (its
// /proc/sys/kernel/hostname and /etc/hostname), so that redaction needs no live call.
#include "bundle/gather.hpp"

#include "bundle/bundle_tree.hpp"
#include "bundle/redact_bundle.hpp"

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
    const std::string host_root = info.root;
    if (info.redacted) {
        redactor.emplace(host_names(recorded.fs.inner()));
        redact_bundle(*redactor, tree, docs, info);
    }
    auto doc = manifest(info, tree, docs);
    std::string text = doc.dump(2) + "\n";
    if (redactor) {
        // Error messages quote what was read; the digests hold no value a pattern matches.
        text = redact_document(*redactor, text, "manifest.json", host_root, info.root);
        doc = nlohmann::ordered_json::parse(text);
    }
    auto archive = archive_bytes(tree, docs, text, mtime);
    if (!archive) return archive.gap();
    return Gathered{std::move(archive).value(), std::move(doc)};
}

}  // namespace rdmi::bundle
