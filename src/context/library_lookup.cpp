// Shared-object lookup in a library directory.
#include "context/library_lookup.hpp"

namespace rdmi {

Result<std::string> find_shared_object(const Fs& fs, const std::string& libdir,
                                       const std::string& name) {
    const std::string stem = "lib" + name;
    for (const char* suffix : {".so", ".so.3", ".so.2"}) {
        std::string candidate = join_path(libdir, stem + suffix);
        if (fs.exists(candidate)) return candidate;
    }
    if (auto entries = fs.list_dir(libdir); entries.ok()) {
        for (const auto& entry : *entries) {
            if (entry.name.starts_with(stem + ".so.")) return join_path(libdir, entry.name);
        }
    }
    return make_gap(GapReason::not_found,
                    join_path(libdir, stem + ".so") + ": no such file (nor " + stem + ".so.*)");
}

std::string library_name_of_module(const std::string& module) {
    std::string name = module;
    for (auto& c : name) {
        if (c == '-') c = '_';
    }
    return name;
}

}  // namespace rdmi
