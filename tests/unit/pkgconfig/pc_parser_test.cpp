// Tests for parse_pc: libpkgconf on in-memory bytes, and every kind of malformed input.
#include "pkgconfig/pc_parser.hpp"

#include <doctest/doctest.h>

#include <string>

namespace rdmi::pkgconfig {
namespace {

constexpr std::string_view kDocaCommon =
    "prefix=/opt/mellanox/doca\n"
    "libdir=${prefix}/lib/x86_64-linux-gnu\n"
    "includedir=${prefix}/include\n"
    "\n"
    "Name: doca-common\n"
    "Description: DOCA Core library\n"
    "Version: 3.3.0\n"
    "URL: https://developer.nvidia.com/doca\n"
    "Requires: libibverbs >= 1.14, doca-verbs = 3.3.0\n"
    "Requires.private: libmlx5\n"
    "Libs: -L${libdir} -ldoca_common -pthread\n"
    "Libs.private: -lm\n"
    "Cflags: -I${includedir} -DDOCA_ALLOW_EXPERIMENTAL_API\n";

Gap parse_gap(std::string_view bytes, std::string_view path = "/p/x.pc") {
    auto result = parse_pc(bytes, path);
    REQUIRE_FALSE(result.ok());
    CHECK(result.gap().reason == GapReason::malformed);
    CHECK(result.gap().message.find('\n') == std::string::npos);
    return result.gap();
}

}  // namespace

TEST_CASE("parse_pc reads every field through libpkgconf") {
    auto result =
        parse_pc(kDocaCommon, "/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig/doca-common.pc");
    REQUIRE(result.ok());
    const Module& m = *result;
    CHECK(m.name == "doca-common");
    CHECK(m.display_name == "doca-common");
    CHECK(m.version == "3.3.0");
    CHECK(m.description == "DOCA Core library");
    CHECK(m.variables.at("libdir") == "/opt/mellanox/doca/lib/x86_64-linux-gnu");
    CHECK(m.variables.at("includedir") == "/opt/mellanox/doca/include");
    CHECK(m.variables.at("pcfiledir") == "/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig");
    CHECK(m.variables.size() == 4);
    CHECK(m.libs == std::vector<std::string>{"-L/opt/mellanox/doca/lib/x86_64-linux-gnu",
                                             "-ldoca_common", "-pthread"});
    CHECK(m.libs_private == std::vector<std::string>{"-lm"});
    CHECK(m.cflags == std::vector<std::string>{"-I/opt/mellanox/doca/include",
                                               "-DDOCA_ALLOW_EXPERIMENTAL_API"});
    REQUIRE(m.requires_public.size() == 2);
    CHECK(to_string(m.requires_public[0]) == "libibverbs >= 1.14");
    CHECK(to_string(m.requires_public[1]) == "doca-verbs = 3.3.0");
    REQUIRE(m.requires_private.size() == 1);
    CHECK(m.requires_private[0].op.empty());
    CHECK(m.requires_private[0].version.empty());
    CHECK(to_string(m.requires_private[0]) == "libmlx5");
    CHECK(m.warnings.empty());
}

TEST_CASE("parse_pc parses every Requires operator") {
    auto result = parse_pc(
        "Name: r\nDescription: d\nVersion: 1\n"
        "Requires: a = 1, b != 2, c < 3, d <= 4, e > 5, f >= 6, g,h\n",
        "/x/r.pc");
    REQUIRE(result.ok());
    std::vector<std::string> got;
    for (const auto& req : result->requires_public) got.push_back(to_string(req));
    CHECK(got == std::vector<std::string>{"a = 1", "b != 2", "c < 3", "d <= 4", "e > 5", "f >= 6",
                                          "g", "h"});
}

TEST_CASE("parse_pc applies the sysroot as pkg-config does") {
    ParseOptions options;
    options.sysroot = "/sysroot";
    auto inside = parse_pc(kDocaCommon, "/sysroot/usr/lib/pkgconfig/doca-common.pc", options);
    REQUIRE(inside.ok());
    CHECK(inside->variables.at("libdir") == "/sysroot/opt/mellanox/doca/lib/x86_64-linux-gnu");
    CHECK(inside->variables.at("pcfiledir") == "/sysroot/usr/lib/pkgconfig");
    CHECK(inside->libs.at(0) == "-L/sysroot/opt/mellanox/doca/lib/x86_64-linux-gnu");
    CHECK(inside->cflags.at(0) == "-I/sysroot/opt/mellanox/doca/include");

    options.fdo_sysroot_rules = true;
    auto fdo = parse_pc(kDocaCommon, "/sysroot/usr/lib/pkgconfig/doca-common.pc", options);
    REQUIRE(fdo.ok());
    CHECK(fdo->variables.at("libdir") == "/opt/mellanox/doca/lib/x86_64-linux-gnu");
    CHECK(fdo->libs.at(0) == "-L/sysroot/opt/mellanox/doca/lib/x86_64-linux-gnu");
}

TEST_CASE("parse_pc rejects files libpkgconf rejects, with its reason and the file name") {
    CHECK(parse_gap("Name: x\nDescription: d\n").message ==
          "/p/x.pc: file does not declare a `Version' field");
    CHECK(parse_gap("Version: 1\nDescription: d\n").message ==
          "/p/x.pc: file does not declare a `Name' field");
    CHECK(parse_gap("prefix=/usr\n", "/q/y.pc").message ==
          "/q/y.pc: file does not declare a `Name' field; file does not declare a "
          "`Description' field; file does not declare a `Version' field");
    CHECK(parse_gap("").message == "/p/x.pc: empty file");
    CHECK(parse_gap("\n\n   \n").message.find("`Name'") != std::string::npos);
}

TEST_CASE("parse_pc turns garbage and binary bytes into a one-line Gap") {
    std::string garbage;
    for (int i = 0; i < 4096; ++i)
        garbage += static_cast<char>(1 + (i * 37) % 255);  // every byte but NUL
    CHECK(parse_gap(garbage).message.find("/p/x.pc: ") == 0);
    std::string elf(
        "\x7f"
        "ELF\x02\x01\x01",
        7);
    elf += std::string(64, '\0');
    CHECK(parse_gap(elf).message == "/p/x.pc: contains a NUL byte at offset 7, not a text file");
    CHECK(parse_gap(std::string("Name: a\0b\nDescription: d\nVersion: 1\n", 34)).message ==
          "/p/x.pc: contains a NUL byte at offset 7, not a text file");
    CHECK(parse_gap("\xff\xfe\r\n:=:=\n${${\n}}}}\n").message.find("/p/x.pc: file does not") == 0);
}

TEST_CASE("parse_pc rejects a 1 MB line and values past libpkgconf's buffer") {
    const std::string big =
        "Name: l\nDescription: d\nVersion: 1\nx=" + std::string(1000000, 'a') + "\nLibs: -L${x}\n";
    CHECK(parse_gap(big).message ==
          "/p/x.pc: line 4 is 1000002 bytes long (libpkgconf splits lines longer than 65000)");
    // Short lines, but expansion doubles the value until it overflows the 64 KiB buffer.
    std::string doubling =
        "Name: l\nDescription: d\nVersion: 1\nv0=" + std::string(1000, 'a') + "\n";
    for (int i = 1; i <= 8; ++i)
        doubling += "v" + std::to_string(i) + "=${v" + std::to_string(i - 1) + "}${v" +
                    std::to_string(i - 1) + "}\n";
    CHECK(parse_gap(doubling).message.find("past libpkgconf's buffer (truncated)") !=
          std::string::npos);
}

TEST_CASE("parse_pc rejects recursive variables instead of expanding them to nothing") {
    CHECK(parse_gap("a=${b}\nb=${a}\nName: x\nDescription: d\nVersion: ${a}\n").message ==
          "/p/x.pc: line 1: variable 'a' refers to itself through a -> b -> a");
    // A forward reference is accepted with a warning (libpkgconf expands it to "").
    auto fwd =
        parse_pc("Name: x\nDescription: d\nVersion: 1\nLibs: -L${libdir}\nlibdir=/l\n", "/p/x.pc");
    REQUIRE(fwd.ok());
    CHECK(fwd->libs == std::vector<std::string>{"-L"});
    REQUIRE(fwd->warnings.size() == 1);
    CHECK(fwd->warnings[0].find("'libdir' is used before its definition") != std::string::npos);
}

TEST_CASE("parse_pc keeps libpkgconf's parse warnings as Module warnings") {
    auto result = parse_pc("Name: x\nDescription: d\n  Version: 1\nprefix = /usr \n", "/p/x.pc");
    REQUIRE(result.ok());
    REQUIRE_FALSE(result->warnings.empty());
    for (const auto& w : result->warnings) {
        CHECK(w.rfind("line ", 0) == 0);
        CHECK(w.find('\n') == std::string::npos);
    }
}

}  // namespace rdmi::pkgconfig
