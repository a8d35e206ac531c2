// Finding the shared object behind a -l name in a library directory, as a linker would.
#pragma once

#include <string>

#include "core/result.hpp"
#include "os/fs.hpp"

namespace rdmi {

/// What an application linking with -l<name> gets from `libdir`: lib<name>.so, else the runtime
/// sonames DOCA uses (.so.3, .so.2), else any lib<name>.so.*
/// (docs/reference/install-layout.md#library-names). In-root path, or Gap not_found naming what
/// was looked for.
Result<std::string> find_shared_object(const Fs& fs, const std::string& libdir,
                                       const std::string& name);

/// "doca_rdmi" for the pkg-config module "doca-rdmi".
std::string library_name_of_module(const std::string& module);

}  // namespace rdmi
