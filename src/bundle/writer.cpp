// The tar.gz is built in memory and handed to write_output_file, so the bundle on disk appears
// atomically (a temporary beside it, renamed) exactly like every other --output.
#include "bundle/writer.hpp"

#include <memory>

#include "bundle/layout.hpp"
#include "bundle/libarchive_api.hpp"
#include "digest/sha256.hpp"

namespace rdmi::bundle {
namespace {

struct ArchiveCloser {
    const LibarchiveApi* la;
    void operator()(archive* a) const { la->archive_write_free(a); }
};
struct EntryFree {
    const LibarchiveApi* la;
    void operator()(archive_entry* e) const { la->archive_entry_free(e); }
};

la_ssize_t append_to_string(archive* /*a*/, void* client, const void* buffer, size_t length) {
    static_cast<std::string*>(client)->append(static_cast<const char*>(buffer), length);
    return static_cast<la_ssize_t>(length);
}

std::string in_archive(std::string_view in_root) {
    return std::string(kTopDir) + std::string(in_root);
}

Gap archive_gap(const LibarchiveApi& la, archive* a, std::string_view what) {
    const char* message = la.archive_error_string(a);
    return Gap{GapReason::error, "bundle: " + std::string(what) + ": " +
                                     (message != nullptr ? message : "libarchive error")};
}

class TarWriter {
  public:
    TarWriter(const LibarchiveApi& la, archive* a, long long mtime)
        : la_(la), a_(a), mtime_(mtime) {}

    Result<bool> add(const std::string& name, FileType type, unsigned mode, std::string_view bytes,
                     const std::string& target) {
        std::unique_ptr<archive_entry, EntryFree> entry(la_.archive_entry_new(), EntryFree{&la_});
        la_.archive_entry_set_pathname(entry.get(), name.c_str());
        la_.archive_entry_set_mtime(entry.get(), mtime_, 0);
        la_.archive_entry_set_uid(entry.get(), 0);
        la_.archive_entry_set_gid(entry.get(), 0);
        if (type == FileType::directory) {
            la_.archive_entry_set_filetype(entry.get(), AE_IFDIR);
            la_.archive_entry_set_perm(entry.get(), 0755);
        } else if (type == FileType::symlink) {
            la_.archive_entry_set_filetype(entry.get(), AE_IFLNK);
            la_.archive_entry_set_perm(entry.get(), 0777);
            la_.archive_entry_set_symlink(entry.get(), target.c_str());
        } else {
            la_.archive_entry_set_filetype(entry.get(), AE_IFREG);
            // Readable by whoever extracts it; the original mode is in the manifest.
            la_.archive_entry_set_perm(entry.get(), (mode & 0111U) != 0U ? 0755 : 0644);
            la_.archive_entry_set_size(entry.get(), static_cast<la_int64_t>(bytes.size()));
        }
        if (la_.archive_write_header(a_, entry.get()) != ARCHIVE_OK)
            return archive_gap(la_, a_, name);
        if (type == FileType::regular && !bytes.empty() &&
            la_.archive_write_data(a_, bytes.data(), bytes.size()) !=
                static_cast<la_ssize_t>(bytes.size()))
            return archive_gap(la_, a_, name);
        return true;
    }

  private:
    const LibarchiveApi& la_;
    archive* a_;
    long long mtime_;
};

}  // namespace

nlohmann::ordered_json captured_document(
    bool live, const std::string& doca_prefix,
    const std::map<std::string, std::optional<std::string>>& env,
    const std::vector<RecordedAnswer>& answers) {
    nlohmann::ordered_json environment = nlohmann::ordered_json::object();
    for (const auto& [name, value] : env)
        environment[name] =
            value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& recorded : answers) {
        nlohmann::ordered_json one{{"key", recorded.key}};
        if (recorded.answer) {
            one["text"] = *recorded.answer;
        } else {
            one["gap"] = {{"reason", to_string(recorded.answer.gap().reason)},
                          {"message", recorded.answer.gap().message}};
        }
        list.push_back(std::move(one));
    }
    nlohmann::ordered_json options = nlohmann::ordered_json::object();
    if (!doca_prefix.empty()) options["doca_prefix"] = doca_prefix;
    return nlohmann::ordered_json{
        {"live", live}, {"options", options}, {"environment", environment}, {"answers", list}};
}

nlohmann::ordered_json not_replayable(const BundleInfo& info, const Tree& tree) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    if (!info.live) {
        out.push_back({{"what",
                        "live-only facts (verbs, DOCA capabilities, runtime version, "
                        "runtime symbols, tool outputs)"},
                       {"why", "gathered under --root: there were none to capture"}});
    }
    out.push_back({{"what", "loopback"},
                   {"why",
                    "a DPA kernel run is an experiment on the device, not an answer: "
                    "gather does not run it"}});
    out.push_back({{"what", "run metadata (generated_at, duration, root, live)"},
                   {"why", "they describe the replaying run"}});
    if (info.redacted) {
        out.push_back({{"what",
                        "values redacted (MAC addresses, GUIDs, serial numbers, host "
                        "names, IP addresses)"},
                       {"why",
                        "the replay sees the placeholders; a check comparing them may "
                        "differ"}});
    }
    // One item for all of them: the skipped list names each (a bundle past its limits may
    // skip tens of thousands, and the manifest has a size limit of its own).
    if (!tree.skipped.empty()) {
        out.push_back({{"what", "anything read from the " + std::to_string(tree.skipped.size()) +
                                    " paths in skipped (or below them)"},
                       {"why",
                        "not stored, or stored as placeholders: over a limit, or unreadable when "
                        "gathered; a replay reads them as \"not in the bundle\""}});
    }
    if (tree.failures_dropped != 0) {
        out.push_back({{"what", std::to_string(tree.failures_dropped) +
                                    " more failed operations of the gathered run"},
                       {"why", "not recorded: past the manifest's share for errors"}});
    }
    return out;
}

nlohmann::ordered_json file_record(const Entry& e, std::string_view sha256) {
    nlohmann::ordered_json f{{"path", e.path},
                             {"type", type_name(e.info.type)},
                             {"size", e.type == FileType::regular ? e.bytes.size() : 0},
                             {"uid", e.info.uid},
                             {"gid", e.info.gid},
                             {"mode", e.info.mode},
                             {"stat_size", e.info.size}};
    if (e.type == FileType::regular) {
        f["sha256"] = sha256;
        f["content"] = e.content == Content::captured ? "captured" : "placeholder";
    }
    if (e.type == FileType::symlink) f["target"] = e.target;
    return f;
}

nlohmann::ordered_json skipped_record(const Skipped& s) {
    nlohmann::ordered_json out{{"path", s.path}, {"reason", s.reason}};
    if (!s.limit.empty()) out["limit"] = s.limit;
    return out;
}

nlohmann::ordered_json error_record(const FailedAccess& f) {
    return {{"path", f.path},
            {"operation", f.operation},
            {"reason", to_string(f.gap.reason)},
            {"message", f.gap.message}};
}

nlohmann::ordered_json manifest(const BundleInfo& info, const Tree& tree, const Documents& docs) {
    nlohmann::ordered_json files = nlohmann::ordered_json::array();
    for (const auto& [path, e] : tree.entries) files.push_back(file_record(e, sha256_hex(e.bytes)));
    nlohmann::ordered_json skipped = nlohmann::ordered_json::array();
    for (const auto& s : tree.skipped) skipped.push_back(skipped_record(s));
    nlohmann::ordered_json errors = nlohmann::ordered_json::array();
    for (const auto& f : tree.failures) errors.push_back(error_record(f));
    nlohmann::ordered_json documents = nlohmann::ordered_json::array();
    for (const auto& [name, text] :
         {std::pair<const char*, const std::string*>{kReport, &docs.report},
          std::pair<const char*, const std::string*>{kCaptured, &docs.captured}}) {
        documents.push_back(
            {{"path", name}, {"size", text->size()}, {"sha256", sha256_hex(*text)}});
    }
    nlohmann::ordered_json redaction{{"applied", info.redacted}};
    nlohmann::ordered_json counts = nlohmann::ordered_json::object();
    for (const auto& [kind, n] : info.redaction_counts) counts[kind] = n;
    redaction["values"] = counts;
    if (info.redacted) {
        redaction["version"] = info.redactor_version;
        nlohmann::ordered_json excluded = nlohmann::ordered_json::array();
        for (const auto& e : info.redaction_excluded)
            excluded.push_back({{"path", e.path}, {"reason", e.reason}});
        redaction["excluded"] = excluded;
    }
    return nlohmann::ordered_json{
        {"schema", kManifestSchema},
        {"schema_version", kManifestSchemaVersion},
        {"tool", {{"name", "rdmi-probe"}, {"version", info.tool_version}}},
        {"generated_at", info.generated_at},
        {"root", info.root},
        {"live", info.live},
        {"caps",
         {{"file_bytes", info.caps.file_bytes},
          {"total_bytes", info.caps.total_bytes},
          {"extract_bytes", info.limits.extract_bytes},
          {"extract_entries", info.limits.entries},
          {"entry_bytes", info.limits.entry_bytes},
          {"name_bytes", info.limits.name_bytes},
          {"depth", info.limits.depth},
          {"component_bytes", info.limits.component_bytes},
          {"link_bytes", info.limits.link_bytes},
          {"document_bytes", info.limits.document_bytes}}},
        {"content_bytes", tree.content_bytes},
        {"documents", documents},
        {"redaction", redaction},
        {"files", files},
        {"skipped", skipped},
        {"errors", errors},
        {"not_replayable", not_replayable(info, tree)}};
}

Result<std::string> archive_bytes(const Tree& tree, const Documents& docs,
                                  const std::string& manifest_text, long long mtime) {
    auto loaded = libarchive();
    if (!loaded) return loaded.gap();
    const LibarchiveApi& la = **loaded;
    std::string out;
    std::unique_ptr<archive, ArchiveCloser> a(la.archive_write_new(), ArchiveCloser{&la});
    if (!a) return make_gap(GapReason::error, "bundle: libarchive: out of memory");
    if (la.archive_write_set_format_pax_restricted(a.get()) != ARCHIVE_OK ||
        la.archive_write_add_filter_gzip(a.get()) != ARCHIVE_OK ||
        // Reproducible output: no name or time stamp in the gzip header.
        la.archive_write_set_filter_option(a.get(), "gzip", "timestamp", nullptr) < ARCHIVE_WARN ||
        la.archive_write_set_bytes_in_last_block(a.get(), 1) != ARCHIVE_OK ||
        la.archive_write_open(a.get(), &out, nullptr, &append_to_string, nullptr) != ARCHIVE_OK)
        return archive_gap(la, a.get(), "cannot start the archive");
    TarWriter writer(la, a.get(), mtime);
    if (auto r = writer.add(std::string(kTopDir), FileType::directory, 0, {}, {}); !r)
        return r.gap();
    for (const auto& [path, e] : tree.entries) {
        if (auto r = writer.add(in_archive(path), e.type, e.info.mode, e.bytes, e.target); !r)
            return r.gap();
    }
    if (auto r = writer.add(in_archive(kMetaDir), FileType::directory, 0, {}, {}); !r)
        return r.gap();
    for (const auto& [name, text] :
         {std::pair<const char*, const std::string*>{kManifest, &manifest_text},
          std::pair<const char*, const std::string*>{kReport, &docs.report},
          std::pair<const char*, const std::string*>{kCaptured, &docs.captured}}) {
        if (auto r = writer.add(in_archive(name), FileType::regular, 0644, *text, {}); !r)
            return r.gap();
    }
    if (la.archive_write_close(a.get()) != ARCHIVE_OK)
        return archive_gap(la, a.get(), "cannot finish the archive");
    return out;
}

}  // namespace rdmi::bundle
