// Module helpers.
#include "pkgconfig/module.hpp"

namespace rdmi::pkgconfig {

std::string to_string(const Requirement& requirement) {
    if (requirement.op.empty()) return requirement.name;
    return requirement.name + " " + requirement.op + " " + requirement.version;
}

}  // namespace rdmi::pkgconfig
