// RpmRecords: the questions go to librpm in a contained child (one per open database), each
// answer through the run's LiveAnswers, so that gather records it and a bundle replays it
// without librpm.
#include "packages/rpm_records.hpp"

#include <spdlog/spdlog.h>

#include <array>
#include <optional>
#include <utility>

#include "loader/loader_path.hpp"
#include "packages/rpm_library.hpp"
#include "process/isolated_worker.hpp"

namespace rdmi {
namespace {

// One line of the child's answer, split at tabs.
std::vector<std::string> rpm_answer_fields(std::string_view line) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = line.find('\t', start);
        fields.emplace_back(line.substr(start, end == std::string_view::npos ? end : end - start));
        if (end == std::string_view::npos) return fields;
        start = end + 1;
    }
}

// True when every character of `word` (not empty) is alphanumeric or one of `also`.
bool rpm_word(std::string_view word, std::string_view also) {
    if (word.empty()) return false;
    for (const char c : word) {
        const bool alnum =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum && also.find(c) == std::string_view::npos) return false;
    }
    return true;
}

// A package as rpmbuild lets one be named (Name: alphanumerics and "._+-"; Version and Release:
// and "._+~^", the epoch before a ':'; an arch of alphanumerics and '_'). The name goes into the
// `dnf reinstall` a fix prints for root to run: an answer outside these (a forged database, a
// forged bundle) names no package.
bool rpm_plain_package(const InstalledPackage& package) {
    return rpm_word(package.name, "._+-") && rpm_word(package.version, "._+~^:-") &&
           (package.arch.empty() || rpm_word(package.arch, "_"));
}

// The same file on a merged-/usr system: "/lib64/x" and "/usr/lib64/x" (rpm systems list the
// /usr spelling; a probe may have found the other).
std::optional<std::string> rpm_merged_usr_twin(std::string_view path) {
    for (const std::string_view top : {"/lib/", "/lib64/", "/bin/", "/sbin/"}) {
        if (path.starts_with(top)) return "/usr" + std::string(path);
        if (path.starts_with("/usr") && path.substr(4).starts_with(top))
            return std::string(path.substr(4));
    }
    return std::nullopt;
}

std::optional<std::string> merged_usr_twin_dir(std::string_view dir) {
    for (const std::string_view top : {"/lib", "/lib64", "/bin", "/sbin"}) {
        if (dir == top) return "/usr" + std::string(dir);
        if (dir == "/usr" + std::string(top)) return std::string(top);
    }
    return rpm_merged_usr_twin(dir);
}

class RpmRecords final : public PackageRecords {
  public:
    RpmRecords(const RpmRecordsSource& source, std::string database)
        : fs_(source.fs),
          answers_(source.answers),
          deadline_(source.deadline),
          call_timeout_(source.call_timeout),
          private_dir_(source.private_dir),
          trusted_library_(source.trusted_library),
          library_paths_(source.library_paths),
          log_(source.log),
          database_(std::move(database)),
          source_{source.answers.replayed() ? "captured" : "api", database_} {}

    // Copies the database and asks librpm to open the copy; the answer is the package count.
    Result<std::string> open() const {
        return answers_.answer("rpm open " + database_, [this]() -> Result<std::string> {
            if (auto copied = copy_database(); !copied) return copied.gap();
            return ask("open", "");
        });
    }

    [[nodiscard]] std::string_view manager() const override { return "rpm"; }
    [[nodiscard]] const Provenance& source() const override { return source_; }

    [[nodiscard]] std::optional<FileRecord> owner_of(std::string_view path) const override {
        auto record = owner_exactly(std::string(path));
        if (!record) {
            if (auto twin = rpm_merged_usr_twin(path)) record = owner_exactly(*twin);
        }
        return record;
    }

    [[nodiscard]] std::optional<InstalledPackage> main_owner_of_directory(
        std::string_view dir) const override {
        auto best = directory_owner(std::string(dir));
        if (auto twin = merged_usr_twin_dir(dir)) {
            auto other = directory_owner(*twin);
            if (other && (!best || other->second > best->second)) best = std::move(other);
        }
        if (!best) return std::nullopt;
        return best->first;
    }

    [[nodiscard]] std::string reinstall_command(const InstalledPackage& package) const override {
        return "dnf reinstall " + package.name;
    }

  private:
    Result<bool> copy_database() const {
        auto dir = private_dir_.new_directory("rpmdb");
        if (!dir) return dir.gap();
        // The -wal file holds transactions not yet folded into the database file; -shm is an
        // index SQLite rebuilds from them, never copied.
        for (const std::string suffix : {"", "-wal"}) {
            const std::string path = database_ + suffix;
            if (!suffix.empty() && !fs_.exists(path)) continue;
            auto bytes = fs_.map_file(path, kMaxRpmDatabaseBytes);
            if (!bytes) {
                return Gap{bytes.gap().reason,
                           bytes.gap().message + " (the rpm database is read up to " +
                               std::to_string(kMaxRpmDatabaseBytes >> 20U) + " MiB)"};
            }
            auto written = write_new_file(*dir, std::string(base_name(path)), (*bytes)->bytes());
            if (!written) return written.gap();
        }
        copy_dir_ = *dir;
        return true;
    }

    // One question to the child (started on the first one, for this copy only).
    Result<std::string> ask(const std::string& operation, const std::string& subject) const {
        if (copy_dir_.empty())
            return Gap{GapReason::error, database_ + ": the database was not copied"};
        if (library_.empty()) {
            std::optional<Gap> refused;
            for (const auto& candidate : library_paths_) {
                auto gated = trusted_library_(candidate);
                if (gated) {
                    library_ = *gated;
                    break;
                }
                // A file that is not there says nothing; a refusal of one that is, does.
                if (gated.gap().reason != GapReason::not_found) refused = gated.gap();
            }
            if (library_.empty()) {
                if (refused) return *refused;
                return Gap{GapReason::not_installed,
                           database_ +
                               ": this machine has no librpm to read it with (Debian: "
                               "apt-get install librpm9)"};
            }
            ContainmentRequest containment;
            containment.work = ContainedWork::package_database;
            containment.writable_dirs = {copy_dir_};
            worker_ = std::make_shared<IsolatedWorker>(std::move(containment));
        }
        const std::string request = rpm_request({library_, copy_dir_ + "/", operation, subject});
        auto answer = worker_->call(rpm_database_task, request, deadline_.capped(call_timeout_),
                                    "librpm " + operation);
        if (!answer) {
            Gap gap = answer.gap();
            // librpm's refusal of the copy is a fact about the probed system's database.
            if (gap.reason == GapReason::error && operation == "open")
                gap.reason = GapReason::malformed;
            gap.message = database_ + ": " + in_root_words(gap.message, operation);
            return gap;
        }
        return answer;
    }

    // The child's message as the reader knows the database: without the worker's own prefix,
    // and with the in-root directory where librpm named the private copy.
    [[nodiscard]] std::string in_root_words(std::string message,
                                            const std::string& operation) const {
        const std::string prefix = "librpm " + operation + ": ";
        if (message.starts_with(prefix)) message.erase(0, prefix.size());
        const std::string shown(dir_name(database_));
        for (std::size_t at = message.find(copy_dir_);
             !copy_dir_.empty() && at != std::string::npos;
             at = message.find(copy_dir_, at + shown.size()))
            message.replace(at, copy_dir_.size(), shown);
        return message;
    }

    Result<std::string> question(const std::string& operation, const std::string& subject) const {
        auto answer = answers_.answer("rpm " + operation + " " + subject,
                                      [&]() { return ask(operation, subject); });
        if (!answer && log_ != nullptr)
            log_->warn("rpm records: {} {}: {}", operation, subject, answer.gap().message);
        return answer;
    }

    std::optional<FileRecord> owner_exactly(const std::string& path) const {
        auto answer = question("owner", path);
        if (!answer || answer->empty()) return std::nullopt;
        auto fields = rpm_answer_fields(*answer);
        if (fields.size() != 6) return std::nullopt;
        FileRecord record{{fields[0], fields[1], fields[2]}, fields[3], fields[4], fields[5]};
        if (!rpm_plain_package(record.package)) return std::nullopt;
        return record;
    }

    std::optional<std::pair<InstalledPackage, std::size_t>> directory_owner(
        const std::string& dir) const {
        auto answer = question("directory", dir);
        if (!answer || answer->empty()) return std::nullopt;
        auto fields = rpm_answer_fields(*answer);
        if (fields.size() != 4) return std::nullopt;
        std::size_t files = 0;
        for (const char c : fields[3]) {
            if (c < '0' || c > '9') return std::nullopt;
            files = files * 10 + static_cast<std::size_t>(c - '0');
        }
        InstalledPackage package{fields[0], fields[1], fields[2]};
        if (!rpm_plain_package(package)) return std::nullopt;
        return std::pair{std::move(package), files};
    }

    const Fs& fs_;
    const LiveAnswers& answers_;
    Deadline deadline_;
    std::chrono::milliseconds call_timeout_;
    RunPrivateDir& private_dir_;
    std::function<Result<std::string>(const std::string&)> trusted_library_;
    std::vector<std::string> library_paths_;
    spdlog::logger* log_;
    std::string database_;  ///< in-root path of the database file
    Provenance source_;
    mutable std::string copy_dir_;  ///< host directory of the private copy
    mutable std::string library_;   ///< host path of the librpm that passed the gate
    mutable std::shared_ptr<IsolatedWorker> worker_;
};

// The rpm database of the root, or why there is none to read.
Result<std::string> locate_rpm_database(const Fs& fs) {
    for (const char* path : kRpmDatabasePaths) {
        if (fs.exists(path)) return std::string(path);
    }
    // Formats this machine's librpm (Debian's, sqlite and read-only Berkeley DB) is not asked
    // to read: see docs/reference/rpm-database.md#formats.
    for (const auto& [path, format] : std::array<std::pair<const char*, const char*>, 4>{
             {{"/var/lib/rpm/Packages", "Berkeley DB (rpm before 4.16)"},
              {"/usr/lib/sysimage/rpm/Packages", "Berkeley DB (rpm before 4.16)"},
              {"/var/lib/rpm/Packages.db", "ndb"},
              {"/usr/lib/sysimage/rpm/Packages.db", "ndb"}}}) {
        if (fs.exists(path)) {
            return Gap{GapReason::not_applicable,
                       std::string(path) + ": an rpm database in the " + format +
                           " format, which is not read (only rpmdb.sqlite is)"};
        }
    }
    return Gap{GapReason::not_applicable, "no rpm database (/var/lib/rpm/rpmdb.sqlite)"};
}

}  // namespace

std::vector<std::string> RpmRecordsSource::default_librpm_paths() {
    const std::string multiarch = kHostMultiarchTriplet.empty()
                                      ? std::string("/usr/lib")
                                      : "/usr/lib/" + std::string(kHostMultiarchTriplet);
    std::vector<std::string> paths;
    for (const char* soname : {"librpm.so.10", "librpm.so.9"}) {
        for (const std::string& dir :
             {multiarch, std::string("/usr/lib64"), std::string("/usr/lib")})
            paths.push_back(dir + "/" + soname);
    }
    return paths;
}

Result<std::unique_ptr<PackageRecords>> open_rpm_records(const RpmRecordsSource& source) {
    auto database = locate_rpm_database(source.fs);
    if (!database) return database.gap();
    auto records = std::make_unique<RpmRecords>(source, *database);
    auto opened = records->open();
    if (!opened) return opened.gap();
    if (!opened->starts_with("packages "))
        return Gap{GapReason::malformed, *database + ": unexpected answer from librpm"};
    return std::unique_ptr<PackageRecords>(std::move(records));
}

}  // namespace rdmi
