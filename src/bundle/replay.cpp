// BundleFs and open_replay. The manifest, not the extracted files, says who owned a file and
// its mode: an archive extracted by another user loses both, and trust verdicts rest on them.
#include "bundle/replay.hpp"

#include <limits>
#include <stdexcept>

#include "bundle/bundle_tree.hpp"
#include "bundle/layout.hpp"
#include "json/json_input.hpp"

namespace rdmi::bundle {
namespace {

std::optional<GapReason> reason_named(std::string_view name) {
    for (auto r : {GapReason::not_found, GapReason::not_installed, GapReason::permission_denied,
                   GapReason::timeout, GapReason::not_applicable, GapReason::malformed,
                   GapReason::untrusted, GapReason::error}) {
        if (to_string(r) == name) return r;
    }
    return std::nullopt;
}

FileType type_named(std::string_view name) {
    for (auto t : {FileType::regular, FileType::directory, FileType::symlink, FileType::fifo,
                   FileType::socket, FileType::char_device, FileType::block_device}) {
        if (type_name(t) == name) return t;
    }
    return FileType::other;
}

bool is_meta(std::string_view path) {
    const std::string normal = normal_path(path);
    const std::string_view meta = kMetaDir;
    return normal == meta ||
           (normal.size() > meta.size() && normal.starts_with(meta) && normal[meta.size()] == '/');
}

Gap hidden(std::string_view path) {
    return Gap{GapReason::not_found, std::string(path) + ": No such file or directory"};
}

Gap gap_of(const nlohmann::json& j) {
    auto reason = reason_named(j.at("reason").get<std::string>());
    if (!reason) throw std::runtime_error("unknown gap reason");
    return Gap{*reason, j.at("message").get<std::string>()};
}

// A whole number in [0, max]: nlohmann converts 0.5 to 0 (a "root-owned" file) and a number
// past the type's range is undefined behaviour, so a manifest's facts are checked first.
std::uint64_t whole_number(const nlohmann::json& f, const char* field, std::uint64_t max) {
    const auto& v = f.at(field);
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() > max)
        throw std::runtime_error(f.value("path", std::string("a file")) + ": " + field +
                                 " is not a whole number up to " + std::to_string(max));
    return v.get<std::uint64_t>();
}

ReplayIndex index_of(const nlohmann::json& manifest) {
    ReplayIndex index;
    for (const auto& f : manifest.at("files")) {
        FileInfo info;
        info.type = type_named(f.at("type").get<std::string>());
        info.mode = static_cast<std::uint32_t>(whole_number(f, "mode", 07777));
        info.uid = static_cast<std::uint32_t>(whole_number(f, "uid", 0xFFFFFFFFU));
        info.gid = static_cast<std::uint32_t>(whole_number(f, "gid", 0xFFFFFFFFU));
        info.size = whole_number(f, "stat_size", std::numeric_limits<std::uint64_t>::max());
        index.info.emplace(f.at("path").get<std::string>(), info);
    }
    for (const auto& e : manifest.at("errors")) {
        index.failures.emplace(
            e.at("operation").get<std::string>() + " " + e.at("path").get<std::string>(),
            gap_of(e));
    }
    if (manifest.contains("skipped")) {
        for (const auto& s : manifest.at("skipped"))
            index.skipped.emplace(s.at("path").get<std::string>(),
                                  s.at("reason").get<std::string>());
    }
    return index;
}

// A read's message names the in-root path ("/.rdmi-probe-bundle/manifest.json: larger than
// ..."); the document is named by where it is instead, so that the replay of an archive can name
// the archive and the entry.
Gap document_gap(const Gap& read, std::string_view in_root, const std::string& shown) {
    std::string_view why = read.message;
    const std::string named = std::string(in_root) + ": ";
    if (why.starts_with(named)) why.remove_prefix(named.size());
    return Gap{GapReason::malformed, shown + ": " + std::string(why)};
}

}  // namespace

std::optional<Gap> BundleFs::refused(std::string_view op, std::string_view path) const {
    if (is_meta(path)) return hidden(path);
    std::string key(op);
    key += ' ';
    key += path;
    if (auto it = index_.failures.find(key); it != index_.failures.end()) return it->second;
    return std::nullopt;
}

std::optional<Gap> BundleFs::not_stored(std::string_view path) const {
    if (index_.skipped.empty()) return std::nullopt;
    // A path gather left out does not resolve in the bundle: it is looked up as written.
    auto real = inner_->real_path(path);
    std::string at = real ? *real : normal_path(path);
    while (true) {
        if (auto it = index_.skipped.find(at); it != index_.skipped.end())
            return Gap{GapReason::not_applicable,
                       std::string(path) + ": not in the bundle (" + it->second + ")"};
        // A stored object's own record is the only one that speaks for it.
        if (real || at == "/") return std::nullopt;
        at = std::string(dir_name(at));
    }
}

template <typename T>
Result<T> BundleFs::or_not_stored(Result<T> failed, std::string_view path) const {
    if (!failed && failed.gap().reason == GapReason::not_found) {
        if (auto gap = not_stored(path)) return *gap;
    }
    return failed;
}

Result<std::string> BundleFs::read_file(std::string_view path, std::size_t max_bytes) const {
    if (auto gap = refused("read", path)) return *gap;
    if (auto gap = not_stored(path)) return *gap;
    return inner_->read_file(path, max_bytes);
}

Result<std::shared_ptr<const FileBytes>> BundleFs::map_file(std::string_view path,
                                                            std::size_t max_bytes) const {
    if (auto gap = refused("map", path)) return *gap;
    if (auto gap = not_stored(path)) return *gap;
    return inner_->map_file(path, max_bytes);
}

Result<std::vector<DirEntry>> BundleFs::list_dir(std::string_view path) const {
    if (auto gap = refused("list", path)) return *gap;
    auto entries = inner_->list_dir(path);
    if (!entries) return or_not_stored(std::move(entries), path);
    const bool at_root = normal_path(path) == "/";
    auto real = inner_->real_path(path);
    std::vector<DirEntry> shown;
    const std::string meta = std::string(kMetaDir).substr(1);
    for (auto& e : entries.value()) {
        if (at_root && e.name == meta) continue;
        // A device node or FIFO is stored as a regular file: the listing says what it was.
        if (real && e.type == FileType::regular) {
            auto it = index_.info.find(join_path(*real, e.name));
            if (it != index_.info.end()) e.type = it->second.type;
        }
        shown.push_back(std::move(e));
    }
    return shown;
}

Result<FileInfo> BundleFs::stat(std::string_view path, bool follow) const {
    if (auto gap = refused(follow ? "stat" : "lstat", path)) return *gap;
    auto info = inner_->stat(path, follow);
    if (!info) return or_not_stored(std::move(info), path);
    std::optional<std::string> key;
    if (follow) {
        if (auto real = inner_->real_path(path)) key = *real;
    } else if (auto dir = inner_->real_path(dir_name(normal_path(path)))) {
        key = normal_path(join_path(*dir, base_name(normal_path(path))));
    }
    if (!key) return info;
    if (auto it = index_.info.find(*key); it != index_.info.end()) {
        FileInfo replayed = *info;
        replayed.mode = it->second.mode;
        replayed.uid = it->second.uid;
        replayed.gid = it->second.gid;
        replayed.size = it->second.size;
        replayed.type = it->second.type;
        return replayed;
    }
    return info;
}

Result<std::string> BundleFs::read_link(std::string_view path) const {
    if (auto gap = refused("readlink", path)) return *gap;
    return inner_->read_link(path);
}

Result<std::string> BundleFs::real_path(std::string_view path) const {
    if (auto gap = refused("realpath", path)) return *gap;
    return inner_->real_path(path);
}

Result<std::string> BundleFs::host_path(std::string_view path) const {
    if (is_meta(path)) return hidden(path);
    return inner_->host_path(path);
}

Result<std::optional<Replay>> open_replay(std::unique_ptr<Fs>& root, const BundleLimits& limits) {
    auto manifest_info = root->stat(kManifest, false);
    if (!manifest_info) return std::optional<Replay>{};
    const std::string shown_manifest = join_path(root->root(), kManifest);
    const std::string shown_captured = join_path(root->root(), kCaptured);
    JsonInputKind document = json_input::kBundleFile;
    document.max_bytes = limits.document_bytes;
    // Named by where it is, so that a replay of an archive names the archive and the entry.
    auto text = root->read_file(kManifest, document.max_bytes);
    if (!text) return document_gap(text.gap(), kManifest, shown_manifest);
    auto manifest = parse_json_input(*text, shown_manifest, document);
    if (!manifest) return manifest.gap();
    Replay replay;
    ReplayIndex index;
    bool live = false;
    try {
        const auto version = manifest->at("schema_version").get<std::string>();
        const std::string_view ours = kManifestSchemaVersion;
        if (manifest->at("schema") != kManifestSchema ||
            version.substr(0, version.find('.')) != ours.substr(0, ours.find('.')))
            return Gap{GapReason::malformed, shown_manifest + ": not a bundle manifest of schema " +
                                                 std::string(kManifestSchema) + " " +
                                                 std::string(ours.substr(0, ours.find('.'))) +
                                                 ".x"};
        index = index_of(*manifest);
        live = manifest->at("live").get<bool>();
    } catch (const std::exception& e) {
        return Gap{GapReason::malformed, shown_manifest + ": " + e.what()};
    }
    auto captured_text = root->read_file(kCaptured, document.max_bytes);
    if (!captured_text) return document_gap(captured_text.gap(), kCaptured, shown_captured);
    auto captured = parse_json_input(*captured_text, shown_captured, document);
    if (!captured) return captured.gap();
    try {
        if (const auto& options = captured->at("options"); options.contains("doca_prefix"))
            replay.doca_prefix = options.at("doca_prefix").get<std::string>();
        for (const auto& [name, value] : captured->at("environment").items()) {
            if (!value.is_null()) replay.env.emplace(name, value.get<std::string>());
        }
        std::map<std::string, Result<std::string>, std::less<>> answers;
        for (const auto& a : captured->at("answers")) {
            const auto key = a.at("key").get<std::string>();
            if (a.contains("text")) {
                answers.insert_or_assign(key, Result<std::string>(a.at("text").get<std::string>()));
            } else {
                answers.insert_or_assign(key, Result<std::string>(gap_of(a.at("gap"))));
            }
        }
        // A --root gather records the rpm records' answers too: its replay reads them instead
        // of loading librpm, and is otherwise the --root run it was.
        replay.answers = std::make_unique<CapturedAnswers>(std::move(answers), live);
    } catch (const std::exception& e) {
        return Gap{GapReason::malformed, shown_captured + ": " + e.what()};
    }
    replay.fs = std::make_unique<BundleFs>(std::move(root), std::move(index));
    return std::optional<Replay>(std::move(replay));
}

}  // namespace rdmi::bundle
