// DynamicLibrary over dlopen/dlsym/dlvsym/dlinfo.
#include "os/dynamic_library.hpp"

#include <dlfcn.h>
#include <link.h>

#include <utility>

namespace rdmi {

Result<DynamicLibrary> DynamicLibrary::open(const std::string& path_or_soname) {
    dlerror();
    void* handle = ::dlopen(path_or_soname.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char* err = dlerror();
        return make_gap(GapReason::error,
                        err != nullptr ? err : path_or_soname + ": dlopen failed");
    }
    return DynamicLibrary(handle);
}

DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& other) noexcept {
    if (this != &other) {
        if (handle_ != nullptr) ::dlclose(handle_);
        handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
}

DynamicLibrary::~DynamicLibrary() {
    if (handle_ != nullptr) ::dlclose(handle_);
}

void* DynamicLibrary::symbol(const char* name) const {
    return ::dlsym(handle_, name);
}

void* DynamicLibrary::versioned_symbol(const char* name, const char* version) const {
    return ::dlvsym(handle_, name, version);
}

std::string DynamicLibrary::loaded_path() const {
    link_map* map = nullptr;
    if (::dlinfo(handle_, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr || map->l_name == nullptr) {
        return {};
    }
    return map->l_name;
}

}  // namespace rdmi
