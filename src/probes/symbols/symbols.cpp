// The symbols probe: find the library (pkg-config or --lib), read it, its archive and headers,
// classify, predict and resolve at run time, audit the application.
#include "probes/symbols/symbols.hpp"

#include "context/library_lookup.hpp"

#include "elf/text_arena.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <iterator>

#include "doca_headers/header_scanner.hpp"
#include "elf/compiler_bytecode.hpp"
#include "elf/elf_reader.hpp"
#include "pkgconfig/pkgconfig.hpp"
#include "probes/install/install_parts.hpp"
#include "probes/symbols/symbols_parts.hpp"

namespace rdmi {
namespace {

std::string library_stem(std::string_view file) {
    std::string name(file);
    if (name.starts_with("lib")) name.erase(0, 3);
    if (const auto dot = name.find(".so"); dot != std::string::npos) name.erase(dot);
    if (name.ends_with(".a")) name.erase(name.size() - 2);
    return name;
}

// The module by pkg-config's rules, then in DOCA's own pc dir (as the install probe does).
Result<ModuleFacts> find_module(const ProbeContext& ctx, const std::string& name) {
    InstallFacts located;
    const std::string machine = ctx.root_machine();
    const pkgconfig::PkgConfig pc(ctx.fs, ctx.env, {}, machine);
    install::locate_prefix(ctx, pc, located);
    std::vector<std::string> extra;
    if (!located.pc_dir.empty()) extra.push_back(located.pc_dir);
    const pkgconfig::PkgConfig with_doca_dir(ctx.fs, ctx.env, extra, machine);
    auto module = with_doca_dir.find(name);
    if (!module) return module.gap();
    ModuleFacts facts = module_facts_from(*module);
    facts.name = name;
    return facts;
}

Result<ElfImage> read_library(const Fs& fs, const std::string& path) {
    auto bytes = fs.map_file(path, kMaxElfBytes);
    if (!bytes) return bytes.gap();
    auto image = parse_elf((*bytes)->bytes());
    if (!image) return Gap{image.gap().reason, path + ": " + image.gap().message};
    if (image->kind == ElfKind::relocatable) {
        return make_gap(GapReason::malformed,
                        path + ": a relocatable object, not a shared library (use --check)");
    }
    return image;
}

}  // namespace

Result<std::string> read_application(const Fs& fs, const std::string& path) {
    auto bytes = fs.read_file(path, kMaxElfBytes);
    if (!bytes) return bytes.gap();
    const std::string_view data = *bytes;
    if (looks_like_archive(data)) {
        if (auto members = parse_archive(data); !members) {
            return Gap{GapReason::malformed,
                       path + ": unreadable archive: " + members.gap().message};
        }
    } else if (is_llvm_bitcode(data)) {
        // Read, but not readable: the audit says so, and the application checks skip.
    } else if (!data.starts_with("\x7f"
                                 "ELF")) {
        return make_gap(GapReason::malformed,
                        path + ": not an ELF object or archive (no \\x7fELF or !<arch> magic)");
    } else if (auto image = parse_elf(data); !image) {
        return Gap{GapReason::malformed, path + ": unreadable ELF: " + image.gap().message};
    }
    return std::move(bytes).value();
}

namespace {

// DPA device-side headers declare functions of the device libraries that dpacc links, never of
// the host shared object: auditing them against the .so would list them all as missing.
bool device_side_header(std::string_view name) {
    // doca_dpa_dev*.h and doca_rdmi_dev_*.h; doca_dev.h is the host device API and is kept.
    return name.find("_dev_") != std::string_view::npos || name.starts_with("doca_dpa_dev");
}

// The declarations of the scanned headers with what they view: the mapped texts and the file
// names (HeaderDecl holds no string of its own).
struct HeaderDecls {
    std::vector<std::shared_ptr<const FileBytes>> texts;
    TextArena file_names;
    std::vector<HeaderDecl> decls;
};

Result<HeaderDecls> scan_headers(const Fs& fs, const std::string& dir, const std::string& prefix,
                                 SymbolsFacts& facts) {
    HeaderDecls out;
    auto entries = fs.list_dir(dir);
    if (!entries) return entries.gap();
    for (const auto& entry : *entries) {
        if (!entry.name.ends_with(".h")) continue;
        const std::string path = join_path(dir, entry.name);
        if (device_side_header(entry.name)) {
            facts.skipped_headers.push_back(path);
            continue;
        }
        ScannedHeader header;
        header.path = path;
        // Not opened unless regular (a device node may act on open). A name ending in .h that
        // is not a header still says why its declarations are missing: a dangling link or a
        // FIFO in place of doca_rdmi_poster.h would otherwise leave its calls unclassified
        // with no word of it.
        auto info = fs.stat(path);
        if (!info || info->type != FileType::regular) {
            header.gap = info ? make_gap(GapReason::malformed,
                                         path + ": is a " + std::string(to_string(info->type)) +
                                             ", not a regular file")
                              : info.gap();
            facts.headers.push_back(std::move(header));
            continue;
        }
        // Mapped, as the library is: a generated header of 100k declarations is 8 MB that a
        // read would copy.
        auto text = fs.map_file(path, kMaxHeaderBytes);
        if (!text) {
            header.gap = text.gap();
            facts.headers.push_back(std::move(header));
            continue;
        }
        auto scan = scan_header((*text)->bytes(), out.file_names.copy(entry.name));
        std::erase_if(scan.decls,
                      [&prefix](const HeaderDecl& decl) { return !decl.name.starts_with(prefix); });
        header.declarations = static_cast<int>(scan.decls.size());
        if (!scan.decls.empty()) out.texts.push_back(std::move(text).value());
        // Moved whole when it is the first: a 100k-declaration header is not copied.
        if (out.decls.empty()) {
            out.decls = std::move(scan.decls);
        } else {
            out.decls.insert(out.decls.end(), scan.decls.begin(), scan.decls.end());
        }
        header.notes = std::move(scan.notes);
        // Only headers that declare something with the prefix are worth listing.
        if (header.declarations > 0 || !header.notes.empty())
            facts.headers.push_back(std::move(header));
    }
    return out;
}

void read_archive(const Fs& fs, const std::string& library_path, const std::string& name,
                  std::vector<ArchiveMember>& members, SymbolsFacts& facts) {
    const std::string path = join_path(dir_name(library_path), "lib" + name + ".a");
    if (!fs.exists(path)) return;
    facts.archive_path = path;
    auto bytes = fs.read_file(path, kMaxElfBytes);
    if (!bytes) {
        facts.archive_gap = bytes.gap();
        return;
    }
    auto parsed = parse_archive(*bytes);
    if (!parsed) {
        facts.archive_gap = Gap{parsed.gap().reason, path + ": " + parsed.gap().message};
        return;
    }
    members = std::move(parsed).value();
}

}  // namespace

std::string module_library_name(const ModuleFacts& module) {
    std::string wanted = module.name;
    std::replace(wanted.begin(), wanted.end(), '-', '_');
    for (const auto& lib : module.library_names) {
        if (lib == wanted) return lib;
    }
    return module.library_names.empty() ? wanted : module.library_names.front();
}

std::string default_symbol_prefix(std::string_view library_name) {
    if (library_name.starts_with("doca_")) return std::string(library_name) + "_";
    return {};
}

namespace symbols {

Result<SymbolsFacts> audit_located(const ProbeContext& ctx, const SymbolsRequest& request,
                                   SymbolsFacts facts, const std::string& library_name) {
    const Fs& user_fs = request.user_fs != nullptr ? *request.user_fs : ctx.fs;
    const Fs& lib_fs = request.library.empty() ? ctx.fs : user_fs;
    auto image = read_library(lib_fs, facts.library.path);
    if (!image) return image.gap();
    LibraryIdentity& id = facts.library;
    id.real_path = lib_fs.real_path(id.path).value_or(id.path);
    id.soname = image->soname;
    id.machine = image->machine_name();
    id.elf_class = image->elf_class;
    id.endian = image->endian;
    id.needed = image->needed;
    for (const auto& def : image->version_defs) {
        if (!def.is_base) facts.version_defs.push_back(def.name);
    }
    const std::string prefix =
        request.prefix ? *request.prefix : default_symbol_prefix(library_name);
    std::vector<ArchiveMember> archive;
    read_archive(lib_fs, id.path, library_name, archive, facts);
    HeaderDecls headers;  // the declarations view it: it outlives every classify() below
    const std::vector<HeaderDecl>& decls = headers.decls;
    if (!facts.headers_dir.empty()) {
        const Fs& headers_fs = request.headers_dir.empty() ? ctx.fs : user_fs;
        auto scanned = scan_headers(headers_fs, facts.headers_dir, prefix, facts);
        if (scanned) {
            headers = std::move(scanned).value();
        } else if (!request.headers_dir.empty()) {
            return scanned.gap();  // asked for explicitly: unreadable input
        } else {
            facts.headers.push_back({facts.headers_dir, 0, {}, scanned.gap()});
        }
    }
    const std::string archive_ref =
        facts.archive_path.empty() ? "" : std::string(base_name(facts.archive_path));
    // Evidence names the library as applications know it: by soname.
    const ClassifyOptions options{
        prefix, id.soname.empty() ? std::string(base_name(id.path)) : id.soname, archive_ref};
    facts.audit = classify(*image, archive, decls, {}, options);
    symbols::predict_loader(ctx, *image, facts);
    if (auto runtime = symbols::resolve_runtime(ctx, *image, facts); !runtime.empty())
        facts.audit = classify(*image, archive, decls, runtime, options);
    if (!request.application.empty()) {
        facts.application = request.application;
        facts.accepted_experimental = request.accepted_experimental;
        auto bytes = read_application(user_fs, request.application);
        if (!bytes) return bytes.gap();
        const AuditedLibrary library{&*image, &facts.audit};
        AppAuditOptions app_options;
        app_options.accepted_experimental = request.accepted_experimental;
        auto app = audit_application_bytes(*bytes, std::span(&library, 1), app_options);
        if (!app) return Gap{app.gap().reason, request.application + ": " + app.gap().message};
        facts.app = std::move(app).value();
        facts.app_load = predict_app_load(ctx, user_fs, *image, facts, *bytes);
    }
    facts.checks = symbols_checks(facts, request.check_ids);
    return facts;
}

}  // namespace symbols

Result<SymbolsFacts> probe_symbols(const ProbeContext& ctx, const SymbolsRequest& request) {
    SymbolsFacts facts;
    facts.headers_dir = request.headers_dir;
    if (!request.library.empty()) {
        facts.library.path = request.library;
        return symbols::audit_located(ctx, request, std::move(facts),
                                      library_stem(base_name(request.library)));
    }
    const std::string name = request.module.empty() ? kDefaultSymbolsModule : request.module;
    auto module = find_module(ctx, name);
    if (!module) return module.gap();
    return symbols::audit_module(ctx, request, *module);
}

std::optional<Result<SymbolsFacts>> probe_rdmi_symbols(const ProbeContext& ctx,
                                                       const InstallFacts& install) {
    for (const auto& module : install.stack) {
        if (module.name != kDefaultSymbolsModule) continue;
        if (!module.found || module.libdir.empty()) return std::nullopt;
        SymbolsRequest request;
        request.check_ids = kRdmiSymbolsCheckIds;
        auto facts = symbols::audit_module(ctx, request, module);
        if (!facts && facts.gap().reason == GapReason::not_found) return std::nullopt;
        return facts;
    }
    return std::nullopt;
}

namespace symbols {

Result<SymbolsFacts> audit_module(const ProbeContext& ctx, const SymbolsRequest& request,
                                  const ModuleFacts& module) {
    SymbolsFacts facts;
    facts.module = module.name;
    facts.module_version = module.version;
    facts.pc_path = module.pc_path;
    facts.libdir = module.libdir;
    facts.headers_dir = request.headers_dir.empty() ? module.includedir : request.headers_dir;
    const std::string name = module_library_name(module);
    if (module.libdir.empty())
        return make_gap(GapReason::not_found, module.pc_path + ": no libdir variable");
    auto path = find_shared_object(ctx.fs, module.libdir, name);
    if (!path) return path.gap();
    facts.library.path = *path;
    return audit_located(ctx, request, std::move(facts), name);
}

}  // namespace symbols
}  // namespace rdmi
