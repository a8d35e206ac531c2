// Resolves an application's DOCA needs the way ld and ld.so would, against audited libraries.
#include "elf/app_audit.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "elf/app_data_strings.hpp"
#include "elf/compiler_bytecode.hpp"
#include "elf/elf_reader.hpp"

namespace rdmi {
namespace {

// A member name comes from the archive: keep the message on one line.
std::string printable(std::string name) {
    for (char& c : name) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    }
    return name;
}

struct Need {
    std::string name;
    std::string version;
    std::string version_file;
    std::string member;
};

// One audited library with its defined dynamic symbols indexed by name, so resolving N needs
// costs O(N) rather than O(N * symbols).
struct IndexedLibrary {
    const AuditedLibrary* library = nullptr;
    std::unordered_map<std::string_view, std::vector<const ElfSymbol*>> by_name;
};

std::vector<IndexedLibrary> index_libraries(std::span<const AuditedLibrary> libraries) {
    std::vector<IndexedLibrary> out;
    for (const auto& lib : libraries) {
        if (lib.image == nullptr) continue;
        IndexedLibrary indexed{&lib, {}};
        for (const auto& symbol : lib.image->dynamic_symbols) {
            if (symbol.defined && !symbol.name.empty() && symbol.binding != SymbolBinding::local &&
                symbol.visibility != SymbolVisibility::hidden)
                indexed.by_name[symbol.name].push_back(&symbol);
        }
        out.push_back(std::move(indexed));
    }
    return out;
}

// Whether `name` is defined in `version`, or (when `version` is empty) in the definition a new
// link binds to: the default `@@` version or an unversioned one.
bool defines(const IndexedLibrary& lib, const std::string& name, const std::string& version) {
    const auto it = lib.by_name.find(name);
    if (it == lib.by_name.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(), [&](const ElfSymbol* s) {
        return version.empty() ? !s->version_hidden : s->version == version;
    });
}

void resolve(const Need& need, std::span<const IndexedLibrary> libraries,
             const AppAuditOptions& options, AppAudit& out) {
    AppDependency dep;  // member defaults: not_audited, unknown
    dep.name = need.name;
    dep.version = need.version;
    dep.version_file = need.version_file;
    dep.member = need.member;
    const AuditedLibrary* chosen = nullptr;
    bool file_audited = need.version_file.empty();
    bool name_seen = false;
    for (const auto& lib : libraries) {
        if (!need.version_file.empty() && lib.library->image->soname != need.version_file) continue;
        file_audited = true;
        if (defines(lib, need.name, need.version)) {
            chosen = lib.library;
            break;
        }
        name_seen = name_seen || lib.by_name.contains(need.name);
    }
    if (chosen != nullptr) {
        dep.resolution = Resolution::provided;
        dep.provider = chosen->image->soname;
        if (chosen->audit != nullptr) {
            if (const auto* verdict = chosen->audit->find(need.name))
                dep.stability = verdict->stability;
        }
    } else if (!file_audited) {
        dep.resolution = Resolution::not_audited;
    } else {
        dep.resolution = name_seen ? Resolution::missing_version : Resolution::missing_symbol;
    }
    // Binding to an EXPERIMENTAL node is using the experimental ABI, whatever the default is now.
    if (need.version.find("EXPERIMENTAL") != std::string::npos)
        dep.stability = Stability::experimental;
    dep.accepted =
        std::find(options.accepted_experimental.begin(), options.accepted_experimental.end(),
                  need.name) != options.accepted_experimental.end();
    if (dep.resolution == Resolution::missing_symbol ||
        dep.resolution == Resolution::missing_version)
        out.missing.push_back(dep.name);
    if (dep.stability == Stability::experimental) {
        out.experimental.push_back(dep.name);
        if (!dep.accepted) out.unaccepted_experimental.push_back(dep.name);
    }
    out.dependencies.push_back(std::move(dep));
}

void collect_version_needs(const ElfImage& app, std::span<const AuditedLibrary> libraries,
                           AppAudit& out) {
    for (const auto& need : app.version_needs) {
        for (const auto& lib : libraries) {
            if (lib.image == nullptr || lib.image->soname != need.file) continue;
            for (const auto& version : need.versions) {
                const bool provided = lib.image->defines_version(version.name);
                out.version_needs.push_back({need.file, version.name, provided});
                if (!provided) out.missing_versions.push_back(need.file + ":" + version.name);
            }
            break;
        }
    }
}

// Undefined symbols of an object, or the dynamic symbols a linked binary takes from others
// (undefined ones and copy-relocated data, which carries a `.gnu.version_r` version).
void collect_needs(const ElfImage& image, const std::string& member, const std::string& prefix,
                   std::vector<Need>& needs) {
    if (image.kind == ElfKind::relocatable) {
        for (const auto& s : image.static_symbols) {
            if (!s.defined && s.binding != SymbolBinding::local && s.name.starts_with(prefix) &&
                !s.name.empty())
                needs.push_back({std::string(s.name), {}, {}, member});
        }
        return;
    }
    for (const auto& s : image.dynamic_symbols) {
        if ((!s.defined || !s.version_file.empty()) && s.name.starts_with(prefix) &&
            !s.name.empty())
            needs.push_back(
                {std::string(s.name), std::string(s.version), std::string(s.version_file), member});
    }
}

// The loader maps a library only into a process of its own machine, class and byte order: an
// application built for another one resolves against none of these libraries, whatever names
// they share.
void check_platform(const ElfImage& image, const std::string& member,
                    std::span<const AuditedLibrary> libraries, AppAudit& out) {
    for (const auto& lib : libraries) {
        if (lib.image == nullptr || image.same_platform(*lib.image)) continue;
        out.foreign.push_back((member.empty() ? "" : printable(member) + ": ") +
                              image.platform_name());
        return;
    }
}

// What no import audit can judge: a file the linker and loader would not take as code (a core
// dump, ET_NONE, an OS- or processor-specific e_type), and a linked file that imports nothing at
// all: statically linked, so whatever it took from DOCA was copied in when it was built.
std::optional<std::string> unauditable(const ElfImage& image) {
    switch (image.kind) {
        case ElfKind::relocatable:
            return std::nullopt;
        case ElfKind::executable:
        case ElfKind::shared_object:
            break;
        default:
            return "an ELF file of type " + std::string(to_string(image.kind)) +
                   " (e_type), not an object, executable or shared library: no linker or "
                   "loader takes its needs";
    }
    const bool imports =
        std::any_of(image.dynamic_symbols.begin(), image.dynamic_symbols.end(),
                    [](const ElfSymbol& s) { return !s.defined && !s.name.empty(); });
    if (imports) return std::nullopt;
    return "imports no symbol from any library (statically linked): what it took from DOCA was "
           "linked into it, not left to the loader; pass the objects or archive it is linked "
           "from";
}

AppAudit finish(std::vector<Need> needs, std::span<const AuditedLibrary> libraries,
                const AppAuditOptions& options, AppAudit out) {
    std::sort(needs.begin(), needs.end(), [](const Need& a, const Need& b) {
        return a.name != b.name ? a.name < b.name : a.version < b.version;
    });
    needs.erase(std::unique(needs.begin(), needs.end(),
                            [](const Need& a, const Need& b) {
                                return a.name == b.name && a.version == b.version;
                            }),
                needs.end());
    const auto indexed = index_libraries(libraries);
    for (const auto& need : needs) resolve(need, indexed, options, out);
    return out;
}

}  // namespace

std::string_view to_string(Resolution resolution) {
    switch (resolution) {
        case Resolution::provided:
            return "provided";
        case Resolution::missing_symbol:
            return "missing-symbol";
        case Resolution::missing_version:
            return "missing-version";
        case Resolution::not_audited:
            break;
    }
    return "not-audited";
}

AppAudit audit_application(const ElfImage& app, std::span<const AuditedLibrary> libraries,
                           const AppAuditOptions& options) {
    AppAudit out;
    out.kind = app.kind;
    check_platform(app, {}, libraries, out);
    if (auto bytecode = gcc_lto_bytecode(app)) {
        out.unreadable = std::move(bytecode);
        out.bytecode = true;
        return out;
    }
    if (auto why = unauditable(app)) {
        out.unreadable = std::move(why);
        return out;
    }
    collect_version_needs(app, libraries, out);
    std::vector<Need> needs;
    collect_needs(app, {}, options.prefix, needs);
    return finish(std::move(needs), libraries, options, std::move(out));
}

AppAudit audit_application(std::span<const ArchiveMember> app,
                           std::span<const AuditedLibrary> libraries,
                           const AppAuditOptions& options) {
    AppAudit out;
    out.kind = ElfKind::relocatable;
    out.is_archive = true;
    std::vector<Need> needs;
    for (const auto& member : app) {
        if (member.image) check_platform(*member.image, member.name, libraries, out);
        if (auto bytecode = member.image ? gcc_lto_bytecode(*member.image) : std::nullopt) {
            out.unread.push_back(printable(member.name) + ": " + *bytecode);
            out.bytecode = true;
        } else if (auto why = member.image ? unauditable(*member.image) : std::nullopt) {
            out.unread.push_back(printable(member.name) + ": " + *why);
        } else if (member.image) {
            collect_needs(*member.image, member.name, options.prefix, needs);
        } else {
            if (member.gap && member.gap->message.find(kLlvmBitcode) != std::string::npos)
                out.bytecode = true;
            out.unread.push_back(printable(member.name) + ": " +
                                 (member.gap ? member.gap->message : "not read"));
        }
    }
    // A symbol one member defines is not needed from outside the archive.
    std::unordered_map<std::string, bool> defined_inside;
    for (const auto& member : app) {
        if (!member.image) continue;
        for (const auto& s : member.image->static_symbols) {
            if (s.defined && s.binding != SymbolBinding::local)
                defined_inside[std::string(s.name)] = true;
        }
    }
    std::erase_if(needs, [&](const Need& n) { return defined_inside.contains(n.name); });
    return finish(std::move(needs), libraries, options, std::move(out));
}

namespace {

// The audited libraries' experimental exports that `options` does not accept.
std::unordered_set<std::string_view> unaccepted_experimental_exports(
    std::span<const AuditedLibrary> libraries, const AppAuditOptions& options) {
    std::unordered_set<std::string_view> names;
    for (const auto& lib : libraries) {
        if (lib.audit == nullptr) continue;
        for (const auto& verdict : lib.audit->symbols) {
            if (verdict.exported && verdict.stability == Stability::experimental &&
                std::find(options.accepted_experimental.begin(),
                          options.accepted_experimental.end(),
                          verdict.name) == options.accepted_experimental.end())
                names.insert(verdict.name);
        }
    }
    return names;
}

// A name the application imports is judged as an import; one it only holds as a string may be
// looked up with dlsym() (nothing says it is: a name computed at run time is not seen at all).
void find_named_in_data(std::string_view bytes, const ElfImage& image,
                        const std::unordered_set<std::string_view>& experimental,
                        const AppAuditOptions& options, std::set<std::string>& found) {
    for (auto& name : names_in_data(bytes, image, experimental, options.prefix))
        found.insert(std::move(name));
}

void keep_unimported(const std::set<std::string>& found, AppAudit& out) {
    for (const auto& name : found) {
        const bool imported =
            std::any_of(out.dependencies.begin(), out.dependencies.end(),
                        [&](const AppDependency& dep) { return dep.name == name; });
        if (!imported) out.named_in_data.push_back(name);
    }
}

}  // namespace

Result<AppAudit> audit_application_bytes(std::string_view bytes,
                                         std::span<const AuditedLibrary> libraries,
                                         const AppAuditOptions& options) {
    const auto experimental = unaccepted_experimental_exports(libraries, options);
    std::set<std::string> found;
    if (looks_like_archive(bytes)) {
        auto members = parse_archive(bytes);
        if (!members) return members.gap();
        auto audit =
            audit_application(std::span<const ArchiveMember>(*members), libraries, options);
        for (const auto& member : *members) {
            if (member.image && member.offset <= bytes.size() &&
                member.size <= bytes.size() - member.offset)
                find_named_in_data(bytes.substr(member.offset, member.size), *member.image,
                                   experimental, options, found);
        }
        keep_unimported(found, audit);
        return audit;
    }
    // `clang -flto -c` writes bitcode, not ELF: an object whose needs no ELF reader can see.
    if (is_llvm_bitcode(bytes)) {
        AppAudit audit;
        audit.kind = ElfKind::relocatable;
        audit.unreadable = kLlvmBitcode;
        audit.bytecode = true;
        return audit;
    }
    auto image = parse_elf(bytes);
    if (!image) return image.gap();
    auto audit = audit_application(*image, libraries, options);
    find_named_in_data(bytes, *image, experimental, options, found);
    keep_unimported(found, audit);
    return audit;
}

}  // namespace rdmi
