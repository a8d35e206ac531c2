// AttrDir implementation.
#include "sysfs/attr_dir.hpp"

namespace rdmi::sysfs {

Provenance provenance_of(std::string_view path) {
    auto under = [&](std::string_view top) {
        return path.substr(0, top.size()) == top &&
               (path.size() == top.size() || path[top.size()] == '/');
    };
    if (under("/sys")) return Provenance{"sysfs", std::string(path)};
    if (under("/proc")) return Provenance{"procfs", std::string(path)};
    return Provenance{"file", std::string(path)};
}

std::string AttrDir::shown(std::string_view name) const {
    return join_path(shown_, name);
}

std::string AttrDir::actual(std::string_view name) const {
    return join_path(actual_, name);
}

Provenance AttrDir::source(std::string_view name) const {
    return provenance_of(shown(name));
}

Gap AttrDir::located(std::string_view name, const Gap& gap) const {
    const std::string real = actual(name);
    const std::string nice = shown(name);
    // Fs gaps already start with the path they were given; parser gaps carry no path at all.
    if (gap.message.compare(0, real.size(), real) == 0)
        return Gap{gap.reason, nice + gap.message.substr(real.size())};
    if (gap.message.compare(0, nice.size(), nice) == 0) return gap;
    return Gap{gap.reason, nice + ": " + gap.message};
}

Result<std::string> AttrDir::read(std::string_view name) const {
    auto bytes = fs_->read_file(actual(name), kAttrCap);
    if (!bytes) return located(name, bytes.gap());
    return bytes;
}

Sourced<std::string> AttrDir::link_name(std::string_view name) const {
    auto target = fs_->read_link(actual(name));
    if (!target) return Sourced<std::string>::missing(located(name, target.gap()), source(name));
    const std::string_view base = base_name(*target);
    if (base.empty() || base == "." || base == "..") {
        return Sourced<std::string>::missing(
            located(name, Gap{GapReason::malformed, "link target has no name: " + *target}),
            source(name));
    }
    return Sourced<std::string>::of(std::string(base), source(name));
}

AttrDir AttrDir::child(std::string_view name) const {
    return AttrDir(*fs_, shown(name), actual(name));
}

}  // namespace rdmi::sysfs
