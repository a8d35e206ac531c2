// dlsym/dlvsym/dladdr in the run's worker child; the query goes there and the results come back
// NUL-separated, since symbol names may hold any byte but NUL.
#include "loader/runtime_symbols.hpp"

#include <dlfcn.h>
#include <link.h>

#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "digest/sha256.hpp"
#include "loader/dynamic_library.hpp"
#include "text/text.hpp"

namespace rdmi {
namespace {

void put(std::string& out, std::string_view field) {
    out.append(field);
    out.push_back('\0');
}

std::string symbol_file(const void* address) {
    Dl_info info{};
    if (address == nullptr || ::dladdr(address, &info) == 0 || info.dli_fname == nullptr) return {};
    return info.dli_fname;
}

// The PT_LOAD address ranges of the loaded object called `name`.
using Ranges = std::vector<std::pair<std::uintptr_t, std::uintptr_t>>;

int collect_ranges(dl_phdr_info* info, std::size_t /*size*/, void* data) {
    auto* wanted = static_cast<std::pair<const std::string*, Ranges*>*>(data);
    if (info->dlpi_name == nullptr || *wanted->first != info->dlpi_name) return 0;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
        const auto& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_LOAD) continue;
        const std::uintptr_t start = info->dlpi_addr + ph.p_vaddr;
        wanted->second->emplace_back(start, start + ph.p_memsz);
    }
    return 1;
}

// dladdr scans the whole symbol table of the object on every call (quadratic over 100k
// names), so an address inside the loaded object's own segments is attributed directly and
// dladdr is only asked about the others.
std::string defining_file(const void* address, const Ranges& own, const std::string& own_path) {
    if (address == nullptr) return {};
    const auto at = reinterpret_cast<std::uintptr_t>(address);  // NOLINT: address arithmetic
    for (const auto& [start, end] : own) {
        if (at >= start && at < end) return own_path;
    }
    return symbol_file(address);
}

// The query for the child: the path, the number of version nodes, the nodes, then the names,
// each field ended by a NUL.
std::string encode_query(const RuntimeQuery& query) {
    std::string out;
    put(out, query.path);
    put(out, std::to_string(query.versions.size()));
    for (const auto& version : query.versions) put(out, version);
    for (const auto& name : query.names) put(out, name);
    return out;
}

RuntimeQuery decode_query(std::string_view text) {
    std::vector<std::string_view> fields;
    while (!text.empty()) {
        const auto end = text.find('\0');
        if (end == std::string_view::npos) throw std::runtime_error("garbled query");
        fields.push_back(text.substr(0, end));
        text.remove_prefix(end + 1);
    }
    if (fields.size() < 2) throw std::runtime_error("garbled query");
    const std::size_t versions = std::stoul(std::string(fields[1]));
    if (versions > fields.size() - 2) throw std::runtime_error("garbled query");
    RuntimeQuery query;
    query.path = std::string(fields[0]);
    query.versions.assign(fields.begin() + 2, fields.begin() + 2 + static_cast<long>(versions));
    query.names.assign(fields.begin() + 2 + static_cast<long>(versions), fields.end());
    return query;
}

std::string resolve_in_child(const RuntimeQuery& query) {
    auto handle = DynamicLibrary::open(query.path);
    if (!handle) throw std::runtime_error(handle.gap().message);
    std::string out;
    const std::string loaded = handle->loaded_path();
    Ranges own;
    std::pair<const std::string*, Ranges*> wanted{&loaded, &own};
    ::dl_iterate_phdr(&collect_ranges, &wanted);
    put(out, loaded);
    for (const auto& name : query.names) {
        void* address = handle->symbol(name.c_str());
        std::string defaults;
        std::string others;
        for (const auto& version : query.versions) {
            void* versioned = handle->versioned_symbol(name.c_str(), version.c_str());
            if (versioned == nullptr) continue;
            std::string& into = versioned == address ? defaults : others;
            into += version;
            into.push_back('\n');  // version node names are identifiers
        }
        put(out, name);
        put(out, address != nullptr ? "1" : "0");
        put(out, defaults);
        put(out, others);
        put(out, defining_file(address, own, loaded));
    }
    return out;
}

std::vector<std::string> lines_of(std::string_view text) {
    const auto lines = split_lines(text);
    return {lines.begin(), lines.end()};
}

// In the worker child. Request: encode_query().
std::string resolve_request_in_child(std::string_view request) {
    return resolve_in_child(decode_query(request));
}

}  // namespace

Result<RuntimeResolution> resolve_runtime_symbols(const RuntimeQuery& query, IsolatedWorker& worker,
                                                  const Deadline& deadline,
                                                  const LiveAnswers& answers) {
    std::string asked;
    for (const auto& name : query.names) asked += name + '\n';
    asked += '\0';
    for (const auto& node : query.versions) asked += node + '\n';
    auto raw = answers.answer(
        "runtime symbols of " + query.path + " (query " + sha256_hex(asked).substr(0, 16) + ")",
        [&query, &worker, &deadline]() {
            return worker.call(&resolve_request_in_child, encode_query(query), deadline,
                               "dlopen " + query.path, IsolatedWorker::Child::fresh);
        });
    if (!raw) return raw.gap();
    std::vector<std::string_view> fields;
    std::string_view rest = *raw;
    while (!rest.empty()) {
        const auto end = rest.find('\0');
        if (end == std::string_view::npos) break;
        fields.push_back(rest.substr(0, end));
        rest.remove_prefix(end + 1);
    }
    constexpr std::size_t kPerSymbol = 5;
    if (fields.empty() || (fields.size() - 1) % kPerSymbol != 0)
        return make_gap(GapReason::error, "dlopen " + query.path + ": garbled child result");
    RuntimeResolution resolution;
    resolution.loaded_path = std::string(fields[0]);
    for (std::size_t i = 1; i + kPerSymbol <= fields.size(); i += kPerSymbol) {
        RuntimeSymbol symbol;
        symbol.name = std::string(fields[i]);
        symbol.found = fields[i + 1] == "1";
        symbol.default_in = lines_of(fields[i + 2]);
        symbol.also_in = lines_of(fields[i + 3]);
        symbol.file = std::string(fields[i + 4]);
        resolution.symbols.push_back(std::move(symbol));
    }
    return resolution;
}

}  // namespace rdmi
