// Declarations follow rpm's public headers (librpm-dev 4.18: rpmlib.h, rpmmacro.h, rpmts.h,
// rpmdb.h, rpmfiles.h, header.h, rpmtag.h, rpmlog.h, rpmpgp.h); every function named here has
// been in the public API since rpm 4.14, so librpm.so.9 (4.16 to 4.18) and .so.10 (4.19, 4.20)
// both serve. Declaring instead of including keeps librpm out of the build: it is only ever
// loaded, and only when a probed root has an rpm database.
#include "packages/rpm_library.hpp"

#include <fcntl.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "loader/dynamic_library.hpp"
#include "text/text.hpp"

namespace rdmi {
namespace {

// Opaque librpm handles.
struct RpmTs;
struct RpmMatchIterator;
struct RpmHeader;
struct RpmFiles;
struct RpmLogRecord;

constexpr std::int32_t kTagName = 1000;           // RPMTAG_NAME
constexpr std::int32_t kTagVersion = 1001;        // RPMTAG_VERSION
constexpr std::int32_t kTagRelease = 1002;        // RPMTAG_RELEASE
constexpr std::int32_t kTagEpoch = 1003;          // RPMTAG_EPOCH
constexpr std::int32_t kTagArch = 1022;           // RPMTAG_ARCH
constexpr std::int32_t kTagBasenames = 1117;      // RPMTAG_BASENAMES: rpmfilesNew's file list
constexpr std::int32_t kTagDirnames = 1118;       // RPMDBI_DIRNAMES: packages by directory
constexpr std::int32_t kTagInstFilenames = 5040;  // RPMDBI_INSTFILENAMES: installed files only
constexpr int kMacroLevelCmdline = -7;            // RMIL_CMDLINE
constexpr int kFileStateNormal = 0;               // RPMFILE_STATE_NORMAL
constexpr int kFileStateNetshared = 3;            // RPMFILE_STATE_NETSHARED

struct RpmApi {
    int (*read_config_files)(const char*, const char*);
    int (*push_macro)(void*, const char*, const char*, const char*, int);
    RpmTs* (*ts_create)();
    int (*ts_open_db)(RpmTs*, int);
    RpmMatchIterator* (*ts_init_iterator)(RpmTs*, std::int32_t, const void*, std::size_t);
    RpmHeader* (*next_iterator)(RpmMatchIterator*);
    RpmMatchIterator* (*free_iterator)(RpmMatchIterator*);
    int (*iterator_count)(RpmMatchIterator*);
    const char* (*header_string)(RpmHeader*, std::int32_t);
    std::uint64_t (*header_number)(RpmHeader*, std::int32_t);
    RpmFiles* (*files_new)(void*, RpmHeader*, std::int32_t, std::uint32_t);
    RpmFiles* (*files_free)(RpmFiles*);
    std::uint32_t (*files_count)(RpmFiles*);
    int (*files_find)(RpmFiles*, const char*);
    int (*files_state)(RpmFiles*, int);
    int (*files_dir_index)(RpmFiles*, int);
    const char* (*files_dir_name)(RpmFiles*, int);
    const unsigned char* (*files_digest)(RpmFiles*, int, int*, std::size_t*);
    int (*(*log_set_callback)(int (*)(RpmLogRecord*, void*), void*))(RpmLogRecord*, void*);
    const char* (*log_message)(RpmLogRecord*);
};

template <typename Fn>
void resolve_rpm(const DynamicLibrary& lib, Fn& fn, const char* name) {
    fn = lib.function<Fn>(name);
    if (fn == nullptr) throw std::runtime_error(std::string("librpm has no ") + name);
}

// What librpm logged while answering: the reason a refusal gives (never printed by librpm).
std::string g_rpm_logged;

// The child's one open database: loaded and opened by the first question, kept for the rest.
struct RpmOpenDatabase {
    std::string library;
    std::string database;
    std::optional<DynamicLibrary> lib;
    RpmApi api{};
    RpmTs* ts = nullptr;
};

RpmOpenDatabase& rpm_open_database() {
    static RpmOpenDatabase db;
    return db;
}

const RpmApi* g_rpm_api = nullptr;

int capture_rpm_log(RpmLogRecord* record, void* /*data*/) {
    if (g_rpm_api != nullptr && record != nullptr) {
        const char* text = g_rpm_api->log_message(record);
        if (text != nullptr && g_rpm_logged.size() < 4096) g_rpm_logged += text;
    }
    return 0;  // not RPMLOG_DEFAULT: nothing on the probe's stderr
}

std::string rpm_logged_reason(std::string_view fallback) {
    std::string reason(trim(g_rpm_logged));
    g_rpm_logged.clear();
    if (reason.empty()) return std::string(fallback);
    // Several lines ("error: sqlite failure: ...\nerror: cannot open Packages index ..."):
    // one line in a gap.
    for (char& c : reason) {
        if (c == '\n') c = ';';
    }
    return reason;
}

RpmOpenDatabase& rpm_open_for(const std::string& library, const std::string& database) {
    RpmOpenDatabase& db = rpm_open_database();
    if (db.ts != nullptr) {
        if (db.library != library || db.database != database)
            throw std::runtime_error("this reader already has another database open");
        return db;
    }
    auto lib = DynamicLibrary::open(library);
    if (!lib) throw std::runtime_error(lib.gap().message);
    db.lib.emplace(std::move(lib).value());
    RpmApi& api = db.api;
    resolve_rpm(*db.lib, api.read_config_files, "rpmReadConfigFiles");
    resolve_rpm(*db.lib, api.push_macro, "rpmPushMacro");
    resolve_rpm(*db.lib, api.ts_create, "rpmtsCreate");
    resolve_rpm(*db.lib, api.ts_open_db, "rpmtsOpenDB");
    resolve_rpm(*db.lib, api.ts_init_iterator, "rpmtsInitIterator");
    resolve_rpm(*db.lib, api.next_iterator, "rpmdbNextIterator");
    resolve_rpm(*db.lib, api.free_iterator, "rpmdbFreeIterator");
    resolve_rpm(*db.lib, api.iterator_count, "rpmdbGetIteratorCount");
    resolve_rpm(*db.lib, api.header_string, "headerGetString");
    resolve_rpm(*db.lib, api.header_number, "headerGetNumber");
    resolve_rpm(*db.lib, api.files_new, "rpmfilesNew");
    resolve_rpm(*db.lib, api.files_free, "rpmfilesFree");
    resolve_rpm(*db.lib, api.files_count, "rpmfilesFC");
    resolve_rpm(*db.lib, api.files_find, "rpmfilesFindFN");
    resolve_rpm(*db.lib, api.files_state, "rpmfilesFState");
    resolve_rpm(*db.lib, api.files_dir_index, "rpmfilesDI");
    resolve_rpm(*db.lib, api.files_dir_name, "rpmfilesDN");
    resolve_rpm(*db.lib, api.files_digest, "rpmfilesFDigest");
    resolve_rpm(*db.lib, api.log_set_callback, "rpmlogSetCallback");
    resolve_rpm(*db.lib, api.log_message, "rpmlogRecMessage");
    g_rpm_api = &api;
    api.log_set_callback(&capture_rpm_log, nullptr);
    if (api.read_config_files(nullptr, nullptr) != 0)
        throw std::runtime_error("librpm: " + rpm_logged_reason("cannot read its configuration"));
    // This machine's defaults name its own database (Debian's is ~/.rpmdb): the copy is named
    // explicitly, and read with the backend the copy is in.
    api.push_macro(nullptr, "_dbpath", nullptr, database.c_str(), kMacroLevelCmdline);
    api.push_macro(nullptr, "_db_backend", nullptr, "sqlite", kMacroLevelCmdline);
    RpmTs* ts = api.ts_create();
    if (ts == nullptr) throw std::runtime_error("librpm: rpmtsCreate failed");
    if (api.ts_open_db(ts, O_RDONLY) != 0) {
        throw std::runtime_error("librpm refuses the database: " +
                                 rpm_logged_reason("it cannot be opened"));
    }
    db.library = library;
    db.database = database;
    db.ts = ts;
    return db;
}

std::string rpm_package_fields(const RpmApi& api, RpmHeader* h) {
    auto field = [&](std::int32_t tag) {
        const char* value = api.header_string(h, tag);
        return std::string(value != nullptr ? value : "");
    };
    std::string version = field(kTagVersion) + "-" + field(kTagRelease);
    // An epoch is part of what rpm compares: "2:3.3.0047-1", as rpm -q --qf %{EVR} spells it.
    if (const std::uint64_t epoch = api.header_number(h, kTagEpoch); epoch != 0)
        version = std::to_string(epoch) + ":" + version;
    return field(kTagName) + "\t" + version + "\t" + field(kTagArch);
}

std::string rpm_digest_algorithm(int algo) {
    // PGPHASHALGO_* (rpmpgp.h), the values RPMTAG_FILEDIGESTALGO holds.
    switch (algo) {
        case 1:
            return "md5";
        case 2:
            return "sha1";
        case 8:
            return "sha256";
        case 9:
            return "sha384";
        case 10:
            return "sha512";
        case 11:
            return "sha224";
        default:
            return "pgp-hash-" + std::to_string(algo);
    }
}

std::string rpm_lower_hex(const unsigned char* bytes, std::size_t len) {
    return lower_hex(std::string_view(reinterpret_cast<const char*>(bytes), len));  // NOLINT
}

// Every field, empty ones too (a question about "" is still four fields).
std::vector<std::string> rpm_request_fields(std::string_view text) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find('\n', start);
        fields.emplace_back(text.substr(start, end == std::string_view::npos ? end : end - start));
        if (end == std::string_view::npos) return fields;
        start = end + 1;
    }
}

bool rpm_file_installed(int state) {
    return state == kFileStateNormal || state == kFileStateNetshared;
}

// The first package whose installed files list `path`.
std::string rpm_owner(const RpmApi& api, RpmTs* ts, const std::string& path) {
    RpmMatchIterator* it = api.ts_init_iterator(ts, kTagInstFilenames, path.c_str(), 0);
    if (it == nullptr) return "";
    std::string answer;
    while (RpmHeader* h = api.next_iterator(it)) {
        RpmFiles* files = api.files_new(nullptr, h, kTagBasenames, 0);
        if (files == nullptr) continue;
        const int ix = api.files_find(files, path.c_str());
        if (ix >= 0 && rpm_file_installed(api.files_state(files, ix))) {
            int algo = 0;
            std::size_t len = 0;
            const unsigned char* digest = api.files_digest(files, ix, &algo, &len);
            const std::string hex = digest != nullptr ? rpm_lower_hex(digest, len) : "";
            answer = rpm_package_fields(api, h);
            answer.append("\t").append(path).append("\t");
            answer.append(hex.empty() ? "" : rpm_digest_algorithm(algo)).append("\t").append(hex);
        }
        api.files_free(files);
        if (!answer.empty()) break;
    }
    api.free_iterator(it);
    return answer;
}

// The package with the most installed files directly in `dir` (ties: the first by name).
std::string rpm_directory_owner(const RpmApi& api, RpmTs* ts, const std::string& dir) {
    const std::string key = dir.ends_with('/') ? dir : dir + "/";  // rpm's dirnames end in '/'
    RpmMatchIterator* it = api.ts_init_iterator(ts, kTagDirnames, key.c_str(), 0);
    if (it == nullptr) return "";
    std::map<std::string, std::size_t> counts;  // "name\tversion\tarch" -> files
    while (RpmHeader* h = api.next_iterator(it)) {
        RpmFiles* files = api.files_new(nullptr, h, kTagBasenames, 0);
        if (files == nullptr) continue;
        std::size_t count = 0;
        const auto total = static_cast<int>(api.files_count(files));
        for (int ix = 0; ix < total; ++ix) {
            const char* dn = api.files_dir_name(files, api.files_dir_index(files, ix));
            if (dn != nullptr && key == dn && rpm_file_installed(api.files_state(files, ix)))
                ++count;
        }
        api.files_free(files);
        if (count > 0) counts[rpm_package_fields(api, h)] += count;
    }
    api.free_iterator(it);
    const std::pair<const std::string, std::size_t>* best = nullptr;
    for (const auto& entry : counts) {
        if (best == nullptr || entry.second > best->second) best = &entry;
    }
    return best == nullptr ? "" : best->first + "\t" + std::to_string(best->second);
}

}  // namespace

std::string rpm_request(const RpmQuestion& question) {
    return question.library + "\n" + question.database + "\n" + question.operation + "\n" +
           question.subject;
}

std::string rpm_database_task(std::string_view request) {
    const std::vector<std::string> fields = rpm_request_fields(request);
    if (fields.size() != 4) throw std::runtime_error("malformed rpm request");
    RpmOpenDatabase& db = rpm_open_for(fields[0], fields[1]);
    const std::string& operation = fields[2];
    if (operation == "open") {
        RpmMatchIterator* it = db.api.ts_init_iterator(db.ts, 0, nullptr, 0);  // RPMDBI_PACKAGES
        if (it == nullptr) {
            throw std::runtime_error("librpm refuses the database: " +
                                     rpm_logged_reason("it lists no packages"));
        }
        const int count = db.api.iterator_count(it);
        db.api.free_iterator(it);
        return "packages " + std::to_string(count);
    }
    std::string answer = operation == "owner" ? rpm_owner(db.api, db.ts, fields[3])
                         : operation == "directory"
                             ? rpm_directory_owner(db.api, db.ts, fields[3])
                             : throw std::runtime_error("unknown rpm question");
    g_rpm_logged.clear();
    return answer;
}

}  // namespace rdmi
