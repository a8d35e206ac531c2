// DynamicLibrary: an owned dlopen handle with typed symbol lookup.
#pragma once

#include <string>

#include "core/result.hpp"

namespace rdmi {

/// A loaded shared object; closed when destroyed. Only ever opened after the trust check
/// (loader/library_trust.hpp) and, for vendor libraries, inside a child (IsolatedWorker,
/// run_isolated()).
class DynamicLibrary {
  public:
    /// dlopen(RTLD_NOW | RTLD_LOCAL) of a path or soname; the Gap carries dlerror().
    static Result<DynamicLibrary> open(const std::string& path_or_soname);

    DynamicLibrary(DynamicLibrary&& other) noexcept : handle_(other.handle_) {
        other.handle_ = nullptr;
    }
    DynamicLibrary& operator=(DynamicLibrary&& other) noexcept;
    DynamicLibrary(const DynamicLibrary&) = delete;
    DynamicLibrary& operator=(const DynamicLibrary&) = delete;
    ~DynamicLibrary();

    /// dlsym; nullptr when absent.
    [[nodiscard]] void* symbol(const char* name) const;
    /// dlvsym; nullptr when absent.
    [[nodiscard]] void* versioned_symbol(const char* name, const char* version) const;
    /// The file the loader actually mapped (from the link map).
    [[nodiscard]] std::string loaded_path() const;

    /// Typed lookup: `lib.function<decltype(&doca_version_runtime)>("doca_version_runtime")`.
    template <typename Fn>
    [[nodiscard]] Fn function(const char* name) const {
        return reinterpret_cast<Fn>(symbol(name));  // NOLINT: dlsym's documented use
    }

  private:
    explicit DynamicLibrary(void* handle) : handle_(handle) {}
    void* handle_ = nullptr;
};

}  // namespace rdmi
