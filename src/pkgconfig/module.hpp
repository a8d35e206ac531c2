// Module: the data one `.pc` file gives, as pkg-config (libpkgconf) reads it.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace rdmi::pkgconfig {

/// One entry of a `Requires:` / `Requires.private:` field ("doca-common >= 3.3.0").
struct Requirement {
    std::string name;     ///< module name
    std::string op;       ///< "", "=", "!=", "<", "<=", ">", ">=" ("" = any version)
    std::string version;  ///< the version the operator compares against ("" when op is "")
};

/// "name", or "name op version".
std::string to_string(const Requirement& requirement);

/// A parsed `.pc` file. Values are what pkg-config prints: variables expanded, sysroot applied.
struct Module {
    std::string name;          ///< module name pkg-config knows it by ("doca-common")
    std::string display_name;  ///< the `Name:` field
    std::string pc_path;       ///< in-root path of the `.pc` file
    std::string version;       ///< the `Version:` field
    std::string description;   ///< the `Description:` field
    std::map<std::string, std::string> variables;  ///< expanded (prefix, libdir, pcfiledir, ...)
    std::vector<std::string> libs;                 ///< `Libs:` tokens ("-L/x", "-lfoo")
    std::vector<std::string> libs_private;         ///< `Libs.private:` tokens
    std::vector<std::string> cflags;               ///< `Cflags:` tokens
    std::vector<std::string> cflags_private;       ///< `Cflags.private:` tokens
    std::vector<Requirement> requires_public;      ///< `Requires:` (`requires` is a C++20 keyword)
    std::vector<Requirement> requires_private;     ///< `Requires.private:`
    bool uninstalled = false;                      ///< found as `<name>-uninstalled.pc`
    std::vector<std::string> warnings;  ///< libpkgconf warnings, skipped candidates (one line each)
};

/// A `.pc` file found in a directory listing.
struct ModuleFile {
    std::string name;     ///< file name without ".pc"
    std::string pc_path;  ///< in-root path
};

}  // namespace rdmi::pkgconfig
