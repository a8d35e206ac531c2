// extract_bundle: libarchive reads (gzip + tar only); the files are created here, one
// component at a time with O_NOFOLLOW below a directory descriptor, so that neither a crafted
// name nor a link planted by an earlier entry can lead a write outside the target.
#include "bundle/extract.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "bundle/layout.hpp"
#include "bundle/libarchive_api.hpp"
#include "core/exhaustion.hpp"
#include "os/activity.hpp"
#include "os/rooted_fs.hpp"
#include "os/unique_fd.hpp"

namespace rdmi::bundle {
namespace {

constexpr std::size_t kBlock = std::size_t{64} << 10U;

struct ReadCloser {
    const LibarchiveApi* la;
    void operator()(archive* a) const { la->archive_read_free(a); }
};

// `text` on one line; a name is also shortened to `limit` bytes, so that the problem after
// it (a 4000-byte name "too long") is never cut off the message.
std::string one_line(std::string text, std::size_t limit = std::string::npos) {
    for (char& c : text) {
        if (c == '\n' || c == '\r' || static_cast<unsigned char>(c) < 0x20) c = ' ';
    }
    return text.size() > limit ? text.substr(0, limit) + "..." : text;
}

// The components of an entry's name; a Gap message (without the archive's name) when the name
// is absolute, climbs with "..", or is too long or deep.
Result<std::vector<std::string>> checked_name(const char* raw, const BundleLimits& limits) {
    if (raw == nullptr || *raw == '\0')
        return make_gap(GapReason::malformed, "an entry has no name");
    const std::string name(raw);
    const std::string shown = "entry '" + one_line(name, 160) + "'";
    if (name.front() == '/') return make_gap(GapReason::malformed, shown + ": absolute path");
    if (name.size() > limits.name_bytes)
        return make_gap(GapReason::malformed, shown + ": name too long");
    std::vector<std::string> parts;
    std::size_t at = 0;
    while (at <= name.size()) {
        const std::size_t end = std::min(name.find('/', at), name.size());
        std::string part = name.substr(at, end - at);
        at = end + 1;
        if (part.empty() || part == ".") continue;
        if (part == "..") return make_gap(GapReason::malformed, shown + ": '..' component");
        if (part.size() > limits.component_bytes)
            return make_gap(GapReason::malformed, shown + ": File name too long (a component)");
        parts.push_back(std::move(part));
    }
    if (parts.empty()) return make_gap(GapReason::malformed, shown + ": empty name");
    if (parts.front() != kTopDir) {
        return make_gap(GapReason::malformed,
                        shown + ": outside " + std::string(kTopDir) + "/ (not a bundle)");
    }
    if (parts.size() > limits.depth)
        return make_gap(GapReason::malformed, shown + ": nested too deep");
    return parts;
}

// True when the link at `parts` with text `target` stays inside the top directory.
bool link_stays_inside(const std::vector<std::string>& parts, const std::string& target) {
    if (target.empty() || target.front() == '/') return false;
    // Depth below the top directory of the link's own directory.
    long depth = static_cast<long>(parts.size()) - 2;
    std::size_t at = 0;
    while (at <= target.size()) {
        const std::size_t end = std::min(target.find('/', at), target.size());
        const std::string part = target.substr(at, end - at);
        at = end + 1;
        if (part.empty() || part == ".") continue;
        depth += part == ".." ? -1 : 1;
        if (depth < 0) return false;
    }
    return true;
}

class Extractor {
  public:
    Extractor(const LibarchiveApi& la, std::string archive_path, int into_fd,
              const Deadline& deadline, const BundleLimits& limits)
        : la_(la),
          shown_(std::move(archive_path)),
          into_(into_fd),
          deadline_(deadline),
          limits_(limits) {}

    Gap refuse(const std::string& why) const {
        return Gap{GapReason::malformed, shown_ + ": " + one_line(why)};
    }

    // A call on `what` (a name in the target) failed with `err`: running out of descriptors or
    // memory is no fact about the bundle, so it ends the run (ResourceExhausted), never a
    // refusal of the archive.
    void exhausted(const std::string& what, int err) const {
        throw_if_exhausted(shown_ + ": " + one_line(what, 160), err);
    }

    // Checked before each entry and each block: a bundle that takes longer to extract than the
    // run may last (200,000 entries on a loaded machine, a slow disk) ends the run on time.
    [[nodiscard]] std::optional<Gap> past_deadline() const {
        if (!deadline_.expired()) return std::nullopt;
        return Gap{GapReason::timeout,
                   shown_ + ": not extracted within the run's --timeout (stopped after " +
                       std::to_string(entries_) + " entries, " + std::to_string(total_) +
                       " bytes)"};
    }

    ~Extractor() {
        if (cached_fd_ >= 0) ::close(cached_fd_);
    }
    Extractor(const Extractor&) = delete;
    Extractor& operator=(const Extractor&) = delete;

    // The directory descriptor of parts[0..n) (the caller closes it), created as needed,
    // never through a link. Archives list a directory's entries together: the last
    // directory's descriptor is kept, so that most entries cost no walk from the top.
    Result<int> open_dir(const std::vector<std::string>& parts, std::size_t n) {
        std::string key;
        for (std::size_t i = 0; i < n; ++i) key += "/" + parts[i];
        if (cached_fd_ >= 0 && key == cached_key_) {
            const int fd = ::dup(cached_fd_);
            if (fd >= 0) return fd;
        }
        int fd = ::dup(into_);
        if (fd < 0) {
            const int err = errno;
            exhausted("the target", err);
            return refuse(std::string("cannot open the target: ") + std::strerror(err));
        }
        for (std::size_t i = 0; i < n; ++i) {
            const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
            int next = ::openat(fd, parts[i].c_str(), flags);
            if (next < 0 && errno == ENOENT) {
                if (::mkdirat(fd, parts[i].c_str(), 0700) != 0 && errno != EEXIST) {
                    const int err = errno;
                    ::close(fd);
                    exhausted(parts[i], err);
                    return refuse("cannot create " + parts[i] + ": " + std::strerror(err));
                }
                next = ::openat(fd, parts[i].c_str(), flags);
            }
            const int err = errno;
            ::close(fd);
            if (next < 0) {
                exhausted(parts[i], err);
                return refuse(
                    "entry path goes through '" + parts[i] + "', which is " +
                    (err == ELOOP || err == ENOTDIR ? "not a directory" : std::strerror(err)));
            }
            fd = next;
        }
        if (cached_fd_ >= 0) ::close(cached_fd_);
        cached_fd_ = ::dup(fd);
        cached_key_ = key;
        return fd;
    }

    Result<bool> entry(archive* a, archive_entry* e) {
        if (++entries_ > limits_.entries)
            return refuse("more than " + std::to_string(limits_.entries) + " entries");
        auto parts = checked_name(la_.archive_entry_pathname(e), limits_);
        if (!parts) return refuse(parts.gap().message);
        const std::string shown = "entry '" + one_line(la_.archive_entry_pathname(e), 160) + "'";
        if (la_.archive_entry_hardlink(e) != nullptr) return refuse(shown + ": hard link");
        const auto type = la_.archive_entry_filetype(e);
        if (type == AE_IFDIR) {
            auto fd = open_dir(*parts, parts->size());
            if (!fd) return fd.gap();
            ::close(*fd);
            return true;
        }
        if (type != AE_IFREG && type != AE_IFLNK) {
            const char* what = type == AE_IFCHR    ? "character device"
                               : type == AE_IFBLK  ? "block device"
                               : type == AE_IFIFO  ? "FIFO"
                               : type == AE_IFSOCK ? "socket"
                                                   : "unknown file type";
            return refuse(shown + ": " + what);
        }
        if (parts->size() < 2) return refuse(shown + ": the top directory must be a directory");
        auto dir = open_dir(*parts, parts->size() - 1);
        if (!dir) return dir.gap();
        const UniqueFd dir_fd(*dir);
        const std::string& leaf = parts->back();
        if (type == AE_IFLNK) {
            const char* target = la_.archive_entry_symlink(e);
            if (target == nullptr || !link_stays_inside(*parts, target))
                return refuse(shown + ": link pointing out of the bundle");
            if (std::strlen(target) > limits_.link_bytes)
                return refuse(shown + ": link text longer than " +
                              std::to_string(limits_.link_bytes) + " bytes");
            if (::symlinkat(target, dir_fd.get(), leaf.c_str()) != 0) {
                const int err = errno;
                exhausted(leaf, err);
                return refuse(shown + ": " + std::strerror(err));
            }
            return true;
        }
        if (la_.archive_entry_size_is_set(e) != 0 &&
            static_cast<std::uint64_t>(la_.archive_entry_size(e)) > limits_.entry_bytes) {
            return refuse(shown + ": larger than the per-entry cap of " +
                          std::to_string(limits_.entry_bytes) + " bytes");
        }
        const UniqueFd out(::openat(dir_fd.get(), leaf.c_str(),
                                    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
        if (out.get() < 0) {
            const int err = errno;
            exhausted(leaf, err);
            return refuse(shown + ": " +
                          (err == EEXIST ? std::string("duplicate entry") : std::strerror(err)));
        }
        std::vector<char> buf(kBlock);
        std::uint64_t written = 0;
        while (true) {
            if (auto late = past_deadline()) return *late;
            la_ssize_t n = 0;
            {
                const activity::Scope reading(activity::Kind::reading, shown_);
                n = la_.archive_read_data(a, buf.data(), buf.size());
            }
            if (n == 0) break;
            if (n < 0) {
                exhausted_in(la_, a, shown_);
                return refuse("truncated or corrupt: " + error_of(la_, a));
            }
            total_ += static_cast<std::uint64_t>(n);
            written += static_cast<std::uint64_t>(n);
            if (total_ > limits_.extract_bytes) {
                return refuse("decompresses past the cap of " +
                              std::to_string(limits_.extract_bytes) + " bytes");
            }
            // The header's size may be unset (or lie): the entry's cap holds for its data.
            if (written > limits_.entry_bytes) {
                return refuse(shown + ": larger than the per-entry cap of " +
                              std::to_string(limits_.entry_bytes) + " bytes");
            }
            for (la_ssize_t done = 0; done < n;) {
                const ssize_t w =
                    ::write(out.get(), buf.data() + done, static_cast<std::size_t>(n - done));
                if (w < 0 && errno == EINTR) continue;
                if (w <= 0) {
                    const int err = w < 0 ? errno : ENOSPC;
                    exhausted(leaf, err);
                    return refuse(shown + ": cannot write: " + std::strerror(err));
                }
                done += w;
            }
        }
        return true;
    }

    // libarchive's own allocation or descriptor failure (its errno): exhaustion, not a
    // corrupt archive.
    static void exhausted_in(const LibarchiveApi& la, archive* a, const std::string& path) {
        throw_if_exhausted(path, la.archive_errno(a));
    }

    static std::string error_of(const LibarchiveApi& la, archive* a) {
        const char* message = la.archive_error_string(a);
        return message != nullptr ? message : "unreadable";
    }

  private:
    const LibarchiveApi& la_;
    std::string shown_;
    int into_;
    const Deadline& deadline_;
    const BundleLimits& limits_;
    int cached_fd_ = -1;
    std::string cached_key_;
    std::uint64_t entries_ = 0;
    std::uint64_t total_ = 0;
};

}  // namespace

Result<std::string> extract_bundle(const std::string& archive_path, const std::string& into,
                                   const Deadline& deadline, const BundleLimits& limits,
                                   const LinkRule& links) {
    const UniqueFd into_fd(::open(into.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (into_fd.get() < 0) {
        const int err = errno;
        throw_if_exhausted(into, err);
        return make_gap(GapReason::error, into + ": " + std::string(std::strerror(err)));
    }
    // Loaded before anything is read: without libarchive there is nothing to replay.
    auto loaded = libarchive();
    if (!loaded) return Gap{loaded.gap().reason, archive_path + ": " + loaded.gap().message};
    const LibarchiveApi& la = **loaded;
    std::unique_ptr<archive, ReadCloser> a(la.archive_read_new(), ReadCloser{&la});
    if (!a) throw ResourceExhausted(archive_path + ": libarchive", ENOMEM);
    la.archive_read_support_filter_gzip(a.get());
    la.archive_read_support_format_tar(a.get());
    // Like any file the probe reads: each link on the way judged by the owner rule, and only a
    // regular file opened for reading (never a device node swapped in for the file).
    std::string absolute = archive_path;
    if (absolute.empty() || absolute.front() != '/') {
        std::array<char, 4096> cwd{};
        if (::getcwd(cwd.data(), cwd.size()) == nullptr)
            return make_gap(GapReason::error, archive_path + ": " + std::strerror(errno));
        absolute = join_path(cwd.data(), archive_path);
    }
    auto host = RootedFs::open("/", RootedFs::Resolution::kernel, false, links);
    if (!host) return Gap{host.gap().reason, archive_path + ": " + host.gap().message};
    struct stat st {};
    auto opened_file = host->open_regular(absolute, st);
    if (!opened_file) {
        std::string message = opened_file.gap().message;
        if (message.starts_with(absolute)) message = archive_path + message.substr(absolute.size());
        return Gap{opened_file.gap().reason, message};
    }
    const UniqueFd file(*opened_file);
    Extractor extractor(la, archive_path, into_fd.get(), deadline, limits);
    int opened = ARCHIVE_OK;
    {
        // What the watchdog names if a read of the archive never returns (a hung mount).
        const activity::Scope reading(activity::Kind::reading, archive_path);
        opened = la.archive_read_open_fd(a.get(), file.get(), kBlock);
    }
    if (opened != ARCHIVE_OK) {
        Extractor::exhausted_in(la, a.get(), archive_path);
        return extractor.refuse("not a tar.gz bundle: " + Extractor::error_of(la, a.get()));
    }
    bool first = true;
    while (true) {
        if (auto late = extractor.past_deadline()) return *late;
        archive_entry* entry = nullptr;
        int r = ARCHIVE_OK;
        {
            const activity::Scope reading(activity::Kind::reading, archive_path);
            r = la.archive_read_next_header(a.get(), &entry);
        }
        if (r == ARCHIVE_EOF) break;
        if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
            Extractor::exhausted_in(la, a.get(), archive_path);
            return extractor.refuse(
                std::string(first ? "not a tar.gz bundle: " : "truncated or corrupt: ") +
                Extractor::error_of(la, a.get()));
        }
        if (first && la.archive_filter_code(a.get(), 0) != ARCHIVE_FILTER_GZIP)
            return extractor.refuse("not a tar.gz bundle: the tar is not gzip-compressed");
        first = false;
        if (auto done = extractor.entry(a.get(), entry); !done) return done.gap();
    }
    if (first) return extractor.refuse("not a tar.gz bundle: no entries");
    return into + "/" + kTopDir;
}

}  // namespace rdmi::bundle
