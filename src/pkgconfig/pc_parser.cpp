// parse_pc: libpkgconf over an in-memory FILE, with its messages captured.
#include "pkgconfig/pc_parser.hpp"

#include <libpkgconf/libpkgconf.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "pkgconfig/pc_text_check.hpp"

namespace rdmi::pkgconfig {
namespace {

// libpkgconf passes the handler data back as const void*; it is our own vector.
bool capture_message(const char* msg, const pkgconf_client_t* /*client*/, const void* data) {
    auto* sink = static_cast<std::vector<std::string>*>(const_cast<void*>(data));
    sink->emplace_back(msg != nullptr ? msg : "");
    return true;
}

// "<file>: warning: file does not declare a `Version' field\n" -> "file does not declare ...".
std::string clean_message(std::string msg, std::string_view pc_path) {
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    for (char& c : msg) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    const std::string prefix = std::string(pc_path) + ":";
    if (msg.compare(0, prefix.size(), prefix) == 0) {
        msg.erase(0, prefix.size());
        // Parser warnings carry a line number after the file name: keep it as "line N".
        std::size_t digits = 0;
        while (digits < msg.size() && msg[digits] >= '0' && msg[digits] <= '9') ++digits;
        if (digits > 0 && digits < msg.size() && msg[digits] == ':') {
            msg = "line " + msg.substr(0, digits) + msg.substr(digits);
        }
        while (!msg.empty() && msg.front() == ' ') msg.erase(0, 1);
    }
    if (const auto pos = msg.find("warning: "); pos != std::string::npos) msg.erase(pos, 9);
    return msg;
}

struct ClientDeleter {
    void operator()(pkgconf_client_t* client) const { pkgconf_client_free(client); }
};

struct PkgReleaser {
    pkgconf_client_t* client;
    pkgconf_pkg_t* pkg;
    ~PkgReleaser() { pkgconf_pkg_unref(client, pkg); }
};

// Points the client's error and warn handlers at `messages` for one parse, and away again after.
class HandlerScope {
  public:
    HandlerScope(pkgconf_client_t* client, std::vector<std::string>* messages) : client_(client) {
        pkgconf_client_set_error_handler(client_, capture_message, messages);
        pkgconf_client_set_warn_handler(client_, capture_message, messages);
    }
    ~HandlerScope() {
        pkgconf_client_set_error_handler(client_, nullptr, nullptr);
        pkgconf_client_set_warn_handler(client_, nullptr, nullptr);
    }
    HandlerScope(const HandlerScope&) = delete;
    HandlerScope& operator=(const HandlerScope&) = delete;

  private:
    pkgconf_client_t* client_;
};

// One client per thread and sysroot setting, reused across files: creating a client (its
// personality's directory lists) costs as much as parsing a small .pc file. The client keeps no
// per-file state: pkgconf_pkg_new_from_file does not touch its package cache.
pkgconf_client_t* client_for(const ParseOptions& options) {
    struct Cached {
        ParseOptions options;
        std::unique_ptr<pkgconf_client_t, ClientDeleter> client;
    };
    thread_local std::vector<Cached> cache;
    for (auto& entry : cache) {
        if (entry.options.sysroot == options.sysroot &&
            entry.options.fdo_sysroot_rules == options.fdo_sysroot_rules)
            return entry.client.get();
    }
    // The default personality only supplies system include/lib dirs for filtering; the client's
    // search list stays empty (pkgconf_client_dir_list_build is never called), so libpkgconf
    // never opens a file itself.
    std::unique_ptr<pkgconf_client_t, ClientDeleter> client(
        pkgconf_client_new(nullptr, nullptr, pkgconf_cross_personality_default()));
    if (!client) return nullptr;
    // No trace handler: libpkgconf then skips formatting a trace line for every step it takes.
    // (pkgconf_client_set_trace_handler(NULL) would install a no-op handler that still formats.)
    client->trace_handler = nullptr;
    if (options.sysroot) pkgconf_client_set_sysroot_dir(client.get(), options.sysroot->c_str());
    if (options.fdo_sysroot_rules) {
        pkgconf_client_set_flags(client.get(), pkgconf_client_get_flags(client.get()) |
                                                   PKGCONF_PKG_PKGF_FDO_SYSROOT_RULES);
    }
    cache.push_back({options, std::move(client)});
    return cache.back().client.get();
}

std::string comparator_text(pkgconf_pkg_comparator_t compare) {
    switch (compare) {
        case PKGCONF_CMP_NOT_EQUAL:
            return "!=";
        case PKGCONF_CMP_ANY:
            return "";
        case PKGCONF_CMP_LESS_THAN:
            return "<";
        case PKGCONF_CMP_LESS_THAN_EQUAL:
            return "<=";
        case PKGCONF_CMP_EQUAL:
            return "=";
        case PKGCONF_CMP_GREATER_THAN:
            return ">";
        case PKGCONF_CMP_GREATER_THAN_EQUAL:
            return ">=";
    }
    return "?";
}

std::vector<Requirement> requirements_of(const pkgconf_list_t& list) {
    std::vector<Requirement> out;
    const pkgconf_node_t* node = nullptr;
    PKGCONF_FOREACH_LIST_ENTRY(list.head, node) {
        const auto* dep = static_cast<const pkgconf_dependency_t*>(node->data);
        Requirement req;
        req.name = dep->package != nullptr ? dep->package : "";
        req.op = comparator_text(dep->compare);
        if (!req.op.empty() && dep->version != nullptr) req.version = dep->version;
        out.push_back(std::move(req));
    }
    return out;
}

// Fragments are stored split ("-L" + "/usr/lib"); pkg-config prints them joined.
std::vector<std::string> tokens_of(const pkgconf_list_t& list) {
    std::vector<std::string> out;
    const pkgconf_node_t* node = nullptr;
    PKGCONF_FOREACH_LIST_ENTRY(list.head, node) {
        const auto* frag = static_cast<const pkgconf_fragment_t*>(node->data);
        std::string token;
        if (frag->type != '\0') {
            token += '-';
            token += frag->type;
        }
        if (frag->data != nullptr) token += frag->data;
        out.push_back(std::move(token));
    }
    return out;
}

std::string text_of(const char* value) {
    return value != nullptr ? value : "";
}

}  // namespace

Result<Module> parse_pc(std::string_view bytes, std::string_view pc_path,
                        const ParseOptions& options) {
    const std::string path(pc_path);
    const auto malformed = [&](const std::string& problem) {
        return make_gap(GapReason::malformed, path + ": " + problem);
    };
    if (bytes.empty()) return malformed("empty file");
    PcTextCheck check = check_pc_text(bytes);
    if (check.fatal) return malformed(*check.fatal);

    std::vector<std::string> messages;
    pkgconf_client_t* client = client_for(options);
    if (client == nullptr)
        return make_gap(GapReason::error, path + ": cannot create a libpkgconf client");
    const HandlerScope capture{client, &messages};

    std::string buffer(bytes);
    FILE* in = ::fmemopen(buffer.data(), buffer.size(), "r");
    if (in == nullptr)
        return make_gap(GapReason::error, path + ": cannot open an in-memory stream");
    // libpkgconf 1.8 closes the stream itself (pkgconf_parser_parse ends in fclose), also when
    // it rejects the file: `in` must not be touched after this call.
    pkgconf_pkg_t* pkg = pkgconf_pkg_new_from_file(client, path.c_str(), in);
    if (pkg == nullptr) {
        std::string problem;
        for (const auto& msg : messages) {
            std::string clean = clean_message(msg, path);
            if (clean.empty() || clean == "skipping invalid file") continue;
            problem += (problem.empty() ? "" : "; ") + clean;
        }
        return malformed(problem.empty() ? "rejected by libpkgconf" : problem);
    }
    PkgReleaser release{client, pkg};

    Module module;
    module.name = text_of(pkg->id);
    module.display_name = text_of(pkg->realname);
    module.pc_path = path;
    module.version = text_of(pkg->version);
    module.description = text_of(pkg->description);
    const pkgconf_node_t* node = nullptr;
    PKGCONF_FOREACH_LIST_ENTRY(pkg->vars.head, node) {
        const auto* tuple = static_cast<const pkgconf_tuple_t*>(node->data);
        // pkgconf_tuple_find, like `pkg-config --variable`: a global (pc_sysrootdir) shadows
        // the per-package value libpkgconf sets for a .pc outside the sysroot.
        if (tuple->key != nullptr) {
            module.variables.emplace(tuple->key,
                                     text_of(pkgconf_tuple_find(client, &pkg->vars, tuple->key)));
        }
    }
    module.libs = tokens_of(pkg->libs);
    module.libs_private = tokens_of(pkg->libs_private);
    module.cflags = tokens_of(pkg->cflags);
    module.cflags_private = tokens_of(pkg->cflags_private);
    module.requires_public = requirements_of(pkg->required);
    module.requires_private = requirements_of(pkg->requires_private);

    // libpkgconf expands into fixed 64 KiB buffers and truncates without a word.
    for (const auto& [key, value] : module.variables) {
        if (value.size() >= kMaxPcValueBytes) {
            return malformed("variable '" + key + "' expands to " + std::to_string(value.size()) +
                             "+ bytes, past libpkgconf's buffer (truncated)");
        }
    }
    for (const auto* list :
         {&module.libs, &module.libs_private, &module.cflags, &module.cflags_private}) {
        for (const auto& token : *list) {
            if (token.size() >= kMaxPcValueBytes) {
                return malformed("a Libs/Cflags token is " + std::to_string(token.size()) +
                                 "+ bytes, past libpkgconf's buffer (truncated)");
            }
        }
    }

    module.warnings = std::move(check.warnings);
    for (const auto& msg : messages) {
        std::string clean = clean_message(msg, path);
        if (!clean.empty()) module.warnings.push_back(std::move(clean));
    }
    return module;
}

}  // namespace rdmi::pkgconfig
