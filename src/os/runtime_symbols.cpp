// dlsym/dlvsym/dladdr in a run_isolated child; results come back NUL-separated, since symbol
// names may hold any byte but NUL.
#include "os/runtime_symbols.hpp"

#include <dlfcn.h>

#include <stdexcept>
#include <string_view>

#include "os/dynamic_library.hpp"
#include "os/isolated_call.hpp"

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

std::string resolve_in_child(const RuntimeQuery& query) {
    auto handle = DynamicLibrary::open(query.path);
    if (!handle) throw std::runtime_error(handle.gap().message);
    std::string out;
    put(out, handle->loaded_path());
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
        put(out, symbol_file(address));
    }
    return out;
}

std::vector<std::string> split_lines(std::string_view text) {
    std::vector<std::string> lines;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const auto end = text.find('\n', pos);
        lines.emplace_back(text.substr(pos, end - pos));
        if (end == std::string_view::npos) break;
        pos = end + 1;
    }
    return lines;
}

}  // namespace

Result<RuntimeResolution> resolve_runtime_symbols(const RuntimeQuery& query,
                                                  const Deadline& deadline) {
    auto raw = run_isolated([&query]() { return resolve_in_child(query); }, deadline,
                            "dlopen " + query.path);
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
        symbol.default_in = split_lines(fields[i + 2]);
        symbol.also_in = split_lines(fields[i + 3]);
        symbol.file = std::string(fields[i + 4]);
        resolution.symbols.push_back(std::move(symbol));
    }
    return resolution;
}

}  // namespace rdmi
