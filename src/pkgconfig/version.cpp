// Version comparison through libpkgconf, so results match `pkg-config --atleast-version` & co.
#include "pkgconfig/version.hpp"

#include <libpkgconf/libpkgconf.h>

#include <string>

namespace rdmi::pkgconfig {

int compare_versions(std::string_view a, std::string_view b) {
    const std::string lhs(a);
    const std::string rhs(b);
    const int cmp = pkgconf_compare_version(lhs.c_str(), rhs.c_str());
    return cmp < 0 ? -1 : (cmp > 0 ? 1 : 0);
}

bool satisfies(std::string_view version, std::string_view op, std::string_view required) {
    if (op.empty()) return true;
    const int cmp = compare_versions(version, required);
    if (op == "=") return cmp == 0;
    if (op == "!=") return cmp != 0;
    if (op == "<") return cmp < 0;
    if (op == "<=") return cmp <= 0;
    if (op == ">") return cmp > 0;
    if (op == ">=") return cmp >= 0;
    return false;
}

}  // namespace rdmi::pkgconfig
