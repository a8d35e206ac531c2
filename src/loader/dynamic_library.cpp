// DynamicLibrary over dlopen/dlsym/dlvsym/dlinfo.
#include "loader/dynamic_library.hpp"

#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <string_view>
#include <utility>

#include "core/exhaustion.hpp"

namespace rdmi {

namespace {

// The errno of a failed dlopen, when its message ends with one that means exhaustion; 0 if not.
// dlopen gives no errno of its own: glibc ends the message with strerror of the failed open or
// mapping ("...: cannot open shared object file: Too many open files").
int exhaustion_in(std::string_view message) {
    for (const int err : {EMFILE, ENFILE, ENOMEM, ENOBUFS}) {
        const std::string_view text = std::strerror(err);  // NOLINT(concurrency-mt-unsafe)
        if (message.ends_with(text)) return err;
    }
    return 0;
}

// glibc names no errno when a segment of the object cannot be mapped (elf/dl-load.c reaches
// `lose` with errval 0): out of address space (ulimit -v) or of mappings, a reservation of a
// size larger than any library it maps fails the same way, where a noexec mount or a broken
// file leave it possible.
constexpr std::string_view kMapSegment = "failed to map segment from shared object";

bool address_space_exhausted() {
    constexpr std::size_t kProbe = std::size_t{256} << 20U;
    void* at =
        ::mmap(nullptr, kProbe, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (at == MAP_FAILED) return errno == ENOMEM;
    ::munmap(at, kProbe);
    return false;
}

}  // namespace

Result<DynamicLibrary> DynamicLibrary::open(const std::string& path_or_soname) {
    dlerror();
    void* handle = ::dlopen(path_or_soname.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char* err = dlerror();
        if (err == nullptr) return make_gap(GapReason::error, path_or_soname + ": dlopen failed");
        // A library that could not be mapped for want of descriptors or memory is not absent.
        if (const int exhausted = exhaustion_in(err)) {
            std::string_view what = err;
            what.remove_suffix(std::strlen(std::strerror(exhausted)));  // NOLINT
            if (what.ends_with(": ")) what.remove_suffix(2);
            throw ResourceExhausted(what, exhausted);
        }
        if (std::string_view(err).ends_with(kMapSegment) && address_space_exhausted())
            throw ResourceExhausted(err, ENOMEM);
        return make_gap(GapReason::error, err);
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
