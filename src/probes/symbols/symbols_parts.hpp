// Internal steps of the symbols probe, one file each; exposed for the probe and its tests.
#pragma once

#include <string>
#include <vector>

#include "elf/symbol_audit.hpp"
#include "loader/runtime_symbols.hpp"
#include "probes/symbols/symbols.hpp"

namespace rdmi::symbols {

/// Audits the library of an already located pkg-config module.
Result<SymbolsFacts> audit_module(const ProbeContext& ctx, const SymbolsRequest& request,
                                  const ModuleFacts& module);

/// Audits `facts.library.path` (set by the caller) whose -l name is `library_name`.
Result<SymbolsFacts> audit_located(const ProbeContext& ctx, const SymbolsRequest& request,
                                   SymbolsFacts facts, const std::string& library_name);

/// Fills `facts.loader`: where the loader would find the library's soname, and whether that is
/// the audited file. LD_LIBRARY_PATH is honoured on live runs only.
void predict_loader(const ProbeContext& ctx, const ElfImage& library, SymbolsFacts& facts);

/// For a dynamically linked application (nullopt for anything else): its search path, whether
/// it binds at load, and where the loader would find the audited library it needs, or what
/// would make it find it. The application's bytes are `app_bytes`; it is `facts.application`
/// on `user_fs`.
std::optional<AppLoadFacts> predict_app_load(const ProbeContext& ctx, const Fs& user_fs,
                                             const ElfImage& library, const SymbolsFacts& facts,
                                             std::string_view app_bytes);

/// Live and trusted only: loads the file the loader would pick (or the --lib file) in a child
/// and resolves every audited name; fills `facts.runtime` and returns the runtime evidence.
std::vector<SymbolEvidence> resolve_runtime(const ProbeContext& ctx, const ElfImage& library,
                                            SymbolsFacts& facts);

/// The evidence one resolution gives: `nodes` are the version nodes the loaded file defines
/// (the ones dlvsym was asked about). Pure: no loading.
std::vector<SymbolEvidence> runtime_evidence(const RuntimeResolution& resolution,
                                             const std::vector<std::string>& nodes);

/// The version nodes worth asking dlvsym about: those named *EXPERIMENTAL* or *DEPRECATED*.
std::vector<std::string> stability_nodes(const ElfImage& image);

/// The ELF machine number of this process (EM_X86_64 on x86-64).
std::uint16_t host_machine();

}  // namespace rdmi::symbols
