// Filling the DOCA DPA function table by dlsym across every loaded DOCA library: which library
// exports doca_sync_event_* or doca_umem_* is inferred, not documented
// (docs/reference/install-layout.md#library-names).
#include "api/doca_dpa_api.hpp"

namespace rdmi::doca {
namespace {

void* find_symbol(const std::vector<DynamicLibrary>& libraries, const char* name) {
    for (const auto& library : libraries) {
        if (void* found = library.symbol(name)) return found;
    }
    return nullptr;
}

template <typename Fn>
void resolve(const std::vector<DynamicLibrary>& libraries, const char* name, Fn& slot,
             std::vector<std::string>& missing) {
    slot = reinterpret_cast<Fn>(find_symbol(libraries, name));  // NOLINT: dlsym's documented use
    if (slot == nullptr) missing.emplace_back(name);
}

}  // namespace

std::string DocaDpaApi::error_name(int error) const {
    if (error_get_name != nullptr) {
        if (const char* name = error_get_name(static_cast<doca_error_t>(error));
            name != nullptr && *name != '\0')
            return name;
    }
    return std::string(fallback_error_name(error));
}

std::string DocaDpaApi::error_description(int error) const {
    if (error_get_descr != nullptr) {
        if (const char* descr = error_get_descr(static_cast<doca_error_t>(error)); descr != nullptr)
            return descr;
    }
    return std::string(fallback_error_description(error));
}

bool DocaDpaApi::has_rdmi_poster() const {
    return verbs_context_create != nullptr && verbs_context_destroy != nullptr &&
           rdmi_poster_create != nullptr && rdmi_poster_dpa_completion_attach != nullptr &&
           rdmi_poster_as_ctx != nullptr && rdmi_poster_destroy != nullptr;
}

Result<LoadedDocaDpaApi> load_doca_dpa_api(const std::vector<std::string>& paths) {
    LoadedDocaDpaApi loaded;
    for (const auto& path : paths) {
        auto library = DynamicLibrary::open(path);
        if (!library) return library.gap();
        loaded.loaded_paths.push_back(library->loaded_path());
        loaded.libraries.push_back(std::move(library).value());
    }
#define RDMI_RESOLVE_REQUIRED(name) \
    resolve(loaded.libraries, "doca_" #name, loaded.api.name, loaded.missing_required);
#define RDMI_RESOLVE_OPTIONAL(name) \
    resolve(loaded.libraries, "doca_" #name, loaded.api.name, loaded.missing_optional);
    RDMI_DOCA_DPA_REQUIRED(RDMI_RESOLVE_REQUIRED)
    RDMI_DOCA_DPA_OPTIONAL(RDMI_RESOLVE_OPTIONAL)
#undef RDMI_RESOLVE_REQUIRED
#undef RDMI_RESOLVE_OPTIONAL
    return loaded;
}

}  // namespace rdmi::doca
