// Test helper: parses fixture libraries and headers and classifies them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "doca_headers/header_scanner.hpp"
#include "elf/elf_reader.hpp"
#include "elf/symbol_audit.hpp"
#include "fixture_libs.hpp"
#include "unit/elf/read_fixture.hpp"

namespace rdmi::test {

/// Declarations of both fixture RDMI headers. They view the headers' texts, which are read once
/// and kept for the whole test run.
inline std::vector<HeaderDecl> fixture_header_decls() {
    static const std::vector<std::string> texts = [] {
        std::vector<std::string> read;
        for (const char* name : {"doca_rdmi_connection.h", "doca_rdmi_poster.h"})
            read.push_back(read_host_file(std::string(fixture::kHeadersDir) + "/" + name));
        return read;
    }();
    std::vector<HeaderDecl> decls;
    const char* names[] = {"doca_rdmi_connection.h", "doca_rdmi_poster.h"};
    for (std::size_t i = 0; i < texts.size(); ++i) {
        auto scan = scan_header(texts[i], names[i]);
        decls.insert(decls.end(), scan.decls.begin(), scan.decls.end());
    }
    return decls;
}

/// A parsed fixture ELF file.
inline ElfImage fixture_image(const char* path) {
    auto image = parse_elf(read_host_file(path));
    REQUIRE(image.ok());
    return std::move(image).value();
}

/// The members of the fixture static archive.
inline std::vector<ArchiveMember> fixture_archive() {
    auto members = parse_archive(read_host_file(fixture::kStaticLib));
    REQUIRE(members.ok());
    return std::move(members).value();
}

/// A global function a library defines in .text; `version` empty for none, `hidden` for a
/// non-default version (name@V, not name@@V).
inline ElfSymbol exported_function(std::string_view name, std::string_view version = {},
                                   bool hidden = false) {
    ElfSymbol s;
    s.name = name;
    s.type = SymbolType::func;
    s.binding = SymbolBinding::global;
    s.defined = true;
    s.section = ".text";
    s.version = version;
    s.version_hidden = hidden;
    return s;
}

/// classify() with the usual fixture refs and prefix.
inline LibraryAudit classify_fixture(const ElfImage& library,
                                     const std::vector<ArchiveMember>& archive,
                                     const std::vector<HeaderDecl>& headers,
                                     const std::vector<SymbolEvidence>& runtime = {}) {
    return classify(library, archive, headers, runtime,
                    ClassifyOptions{"doca_rdmi_", "libdoca_rdmi.so.3", "libdoca_rdmi.a"});
}

}  // namespace rdmi::test
