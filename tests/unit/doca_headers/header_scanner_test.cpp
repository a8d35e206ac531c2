// Tests for the header scanner: every formatting style it claims to handle, the fixture
// headers, malformed text, and a large generated header.
#include "doca_headers/header_scanner.hpp"

#include <doctest/doctest.h>

#include <map>
#include <random>
#include <string>

#include "fixture_libs.hpp"
#include "unit/elf/read_fixture.hpp"

namespace rdmi {
namespace {

std::map<std::string, HeaderDecl> by_name(const HeaderScan& scan) {
    std::map<std::string, HeaderDecl> out;
    for (const auto& d : scan.decls) out[std::string(d.name)] = d;
    return out;
}

}  // namespace

TEST_CASE("scan_header: macro on the line before, on the same line, and after the parameters") {
    const auto scan = scan_header(R"(DOCA_EXPERIMENTAL
doca_error_t doca_a(int x);
DOCA_STABLE doca_error_t doca_b(void);
doca_error_t doca_c(void) DOCA_DEPRECATED;
int doca_d(void);
)",
                                  "x.h");
    REQUIRE(scan.decls.size() == 4);
    CHECK(scan.notes.empty());
    CHECK(scan.decls[0].name == "doca_a");
    CHECK(scan.decls[0].annotation == Annotation::experimental);
    CHECK(scan.decls[0].macro == "DOCA_EXPERIMENTAL");
    CHECK(scan.decls[0].line == 2);
    CHECK(scan.decls[0].file == "x.h");
    CHECK(scan.decls[0].kind == DeclKind::function);
    // Every name here is a lexed ASCII identifier: writers need not escape it.
    for (const auto& decl : scan.decls) CHECK(decl.identifier);
    CHECK(scan.decls[1].annotation == Annotation::stable);
    CHECK(scan.decls[1].line == 3);
    CHECK(scan.decls[2].annotation == Annotation::deprecated);
    CHECK(scan.decls[3].name == "doca_d");
    CHECK(scan.decls[3].annotation == Annotation::none);
    CHECK(scan.decls[3].macro.empty());
}

TEST_CASE("scan_header: multi-line parameters, comments and pointer returns") {
    const auto scan = scan_header(R"(/* DOCA_STABLE in a comment
   spanning lines; int doca_fake(void); */
DOCA_EXPERIMENTAL // trailing comment
struct doca_ctx *
doca_rdmi_connection_as_ctx(struct doca_rdmi_connection *conn, /* a ( paren */
                            int flags,
                            // int doca_commented_out(void);
                            const char *name);
)",
                                  "y.h");
    REQUIRE(scan.decls.size() == 1);
    CHECK(scan.decls[0].name == "doca_rdmi_connection_as_ctx");
    CHECK(scan.decls[0].annotation == Annotation::experimental);
    CHECK(scan.decls[0].line == 5);
}

TEST_CASE("scan_header: a macro on a later line of a multi-line declaration still counts") {
    const auto scan = scan_header(R"(doca_error_t
doca_late_stable(struct doca_dev *dev,
                 int flags)
    DOCA_STABLE;
struct doca_ctx *
DOCA_DEPRECATED
doca_middle(void);
extern const int
    doca_late_data
    DOCA_EXPERIMENTAL;
)",
                                  "late.h");
    const auto decls = by_name(scan);
    REQUIRE(decls.size() == 3);
    CHECK(decls.at("doca_late_stable").annotation == Annotation::stable);
    CHECK(decls.at("doca_late_stable").macro == "DOCA_STABLE");
    CHECK(decls.at("doca_late_stable").line == 2);
    CHECK(decls.at("doca_middle").annotation == Annotation::deprecated);
    CHECK(decls.at("doca_late_data").annotation == Annotation::experimental);
    CHECK(decls.at("doca_late_data").kind == DeclKind::data);
}

TEST_CASE("scan_header: the DOCA 1.x __DOCA_EXPERIMENTAL spelling is experimental") {
    const auto scan = scan_header(R"(__DOCA_EXPERIMENTAL
doca_error_t doca_old_style(void);
int doca_old_data __DOCA_EXPERIMENTAL;
)",
                                  "old.h");
    const auto decls = by_name(scan);
    REQUIRE(decls.size() == 2);
    CHECK(decls.at("doca_old_style").annotation == Annotation::experimental);
    CHECK(decls.at("doca_old_style").macro == "__DOCA_EXPERIMENTAL");
    CHECK(decls.at("doca_old_data").annotation == Annotation::experimental);
    CHECK(decls.at("doca_old_data").kind == DeclKind::data);
}

TEST_CASE("scan_header: extern \"C\", preprocessor lines, inline bodies, typedefs, structs") {
    const auto scan = scan_header(R"(#ifndef X_H
#define X_H
#define DOCA_MACRO_DECL(n) \
    DOCA_STABLE int n(void);
#ifdef __cplusplus
extern "C" {
#endif
typedef void (*doca_cb_t)(int);
typedef int doca_int_t;
struct doca_attr {
    int (*on_error)(int code);
    DOCA_EXPERIMENTAL int member;
};
enum doca_kind { DOCA_KIND_A = (1 << 2), DOCA_KIND_B };
static inline int doca_inline_helper(int x)
{
    if (x) { return doca_other(x); }
    return 0;
}
static int doca_static_decl(void);
DOCA_EXPERIMENTAL
int doca_after_inline(void);
extern int doca_data;
DOCA_STABLE extern const char *doca_version_string;
extern void (*doca_hook)(int);
int doca_not_extern_data;
#ifdef __cplusplus
}
#endif
#endif
)",
                                  "z.h");
    const auto decls = by_name(scan);
    CHECK(scan.notes.empty());
    CHECK(decls.size() == 4);
    REQUIRE(decls.count("doca_after_inline") == 1);
    CHECK(decls.at("doca_after_inline").annotation == Annotation::experimental);
    CHECK(decls.at("doca_after_inline").line == 22);
    REQUIRE(decls.count("doca_data") == 1);
    CHECK(decls.at("doca_data").kind == DeclKind::data);
    REQUIRE(decls.count("doca_version_string") == 1);
    CHECK(decls.at("doca_version_string").kind == DeclKind::data);
    CHECK(decls.at("doca_version_string").annotation == Annotation::stable);
    REQUIRE(decls.count("doca_hook") == 1);
    CHECK(decls.at("doca_hook").kind == DeclKind::data);
    for (const char* absent :
         {"doca_cb_t", "doca_int_t", "on_error", "member", "doca_other", "doca_inline_helper",
          "doca_static_decl", "n", "doca_not_extern_data", "DOCA_KIND_A"})
        CHECK_MESSAGE(decls.count(absent) == 0, absent);
}

TEST_CASE("scan_header: lines may end in \\n, \\r\\n or a lone \\r (as GCC and Clang read them)") {
    // With classic Mac line ends the whole header was one line: "#ifndef" swallowed it, no
    // declaration was found, and an experimental call passed a --forbid-experimental gate.
    const std::string lf =
        "#ifndef X_H\n"
        "#define X_H \\\n"
        "    DOCA_STABLE int doca_hidden(void);\n"
        "#include <doca_compat.h> // a comment\n"
        "/* a comment\n"
        "   over lines */\n"
        "DOCA_EXPERIMENTAL // trailing\n"
        "int doca_a(const char *s);\n"
        "extern const char *doca_s; static const char *t = \"x\n"
        "; DOCA_DEPRECATED int doca_b(int x,\n"
        "    int y);\n"
        "#endif\n";
    for (const std::string ending : {"\n", "\r\n", "\r"}) {
        CAPTURE(ending);
        std::string text;
        for (const char c : lf) text += c == '\n' ? ending : std::string(1, c);
        const auto scan = scan_header(text, "m.h");
        const auto decls = by_name(scan);
        CHECK(decls.size() == 3);
        REQUIRE(decls.count("doca_a") == 1);
        CHECK(decls.at("doca_a").annotation == Annotation::experimental);
        CHECK(decls.at("doca_a").line == 8);
        REQUIRE(decls.count("doca_s") == 1);
        CHECK(decls.at("doca_s").line == 9);
        REQUIRE(decls.count("doca_b") == 1);
        CHECK(decls.at("doca_b").annotation == Annotation::deprecated);
        CHECK(decls.at("doca_b").line == 10);
        CHECK(decls.count("doca_hidden") == 0);  // in the #define continued on the next line
        CHECK(scan.notes == std::vector<std::string>{"line 9: unterminated literal"});
    }
}

TEST_CASE("scan_header: an identifier may hold UTF-8 letters (as GCC and Clang accept)") {
    // Cut at the first byte above 0x7f, the name was "doca_caf" and the symbol the library
    // exports, "doca_caf\xc3\xa9", had no declaration, so no stability.
    const auto scan = scan_header(
        "DOCA_EXPERIMENTAL void doca_caf\xc3\xa9(void);\nDOCA_STABLE int \xc3\xa9t\xc3\xa9_doca;\n",
        "u.h");
    REQUIRE(scan.decls.size() == 2);
    CHECK(scan.decls[0].name == "doca_caf\xc3\xa9");
    CHECK(scan.decls[0].annotation == Annotation::experimental);
    CHECK(scan.decls[0].kind == DeclKind::function);
    CHECK(scan.decls[1].name == "\xc3\xa9t\xc3\xa9_doca");
    CHECK(scan.decls[1].kind == DeclKind::data);
    // Not printable ASCII: a writer must check (and escape or replace) these names itself.
    CHECK_FALSE(scan.decls[0].identifier);
    CHECK_FALSE(scan.decls[1].identifier);
    // A UTF-8 letter after eight ASCII bytes, and one in the last place.
    const auto longer =
        scan_header("int doca_abcdefgh\xc3\xa9(void);\nint doca_\xc3(void);\n", "u.h");
    REQUIRE(longer.decls.size() == 2);
    CHECK_FALSE(longer.decls[0].identifier);
    CHECK_FALSE(longer.decls[1].identifier);
}

TEST_CASE("scan_header: the declaration right after an inline function body is its own") {
    // A function body ends its statement at the closing brace (no ';' follows). Taken for a
    // struct body, the statement would run on into the next declaration and swallow it.
    const auto scan = scan_header(R"(static inline int doca_inline_a(int x) { return x; }
int doca_after_body(void);
static inline void doca_inline_b(void)
{
}
DOCA_EXPERIMENTAL int doca_after_second(int y);
struct doca_s { int a; };
int doca_after_struct(void);
)",
                                  "b.h");
    const auto decls = by_name(scan);
    CHECK(scan.notes.empty());
    REQUIRE(decls.count("doca_after_body") == 1);
    CHECK(decls.at("doca_after_body").line == 2);
    REQUIRE(decls.count("doca_after_second") == 1);
    CHECK(decls.at("doca_after_second").annotation == Annotation::experimental);
    CHECK(decls.at("doca_after_second").line == 6);
    CHECK(decls.count("doca_after_struct") == 1);
    CHECK(decls.size() == 3);
}

TEST_CASE("scan_header: attributes and a function-like macro before the declaration") {
    const auto scan = scan_header(R"(
__attribute__((visibility("default"))) DOCA_EXPERIMENTAL
int doca_attr_first(void) __attribute__((nonnull(1)));
DOCA_API_EXPORT(3) DOCA_STABLE long doca_after_macro(char c);
int doca_with_asm(void) __asm__("doca_real_name");
)",
                                  "w.h");
    const auto decls = by_name(scan);
    REQUIRE(decls.size() == 3);
    CHECK(decls.at("doca_attr_first").annotation == Annotation::experimental);
    CHECK(decls.at("doca_after_macro").annotation == Annotation::stable);
    CHECK(decls.count("doca_with_asm") == 1);
}

TEST_CASE("scan_header: unterminated comments, literals and braces end cleanly with notes") {
    auto scan =
        scan_header("DOCA_STABLE int doca_ok(void);\n/* never closed\nint doca_no(void);", "a.h");
    REQUIRE(scan.decls.size() == 1);
    CHECK(scan.decls[0].name == "doca_ok");
    REQUIRE(scan.notes.size() == 1);
    CHECK(scan.notes[0] == "line 2: unterminated comment");

    scan = scan_header("extern const char *doca_s = \"open\n;\nint doca_x(void);\n", "b.h");
    CHECK(scan.notes.size() == 1);
    CHECK(by_name(scan).count("doca_x") == 1);

    scan = scan_header("static inline int f(void) {\n  return 0;\n", "c.h");
    CHECK(scan.decls.empty());
    REQUIRE(scan.notes.size() == 1);
    CHECK(scan.notes[0].find("unclosed") != std::string::npos);

    scan = scan_header("}\nDOCA_STABLE int doca_y(void);\n", "d.h");
    CHECK(scan.notes.size() == 1);
    CHECK(by_name(scan).count("doca_y") == 1);

    CHECK(scan_header("", "e.h").decls.empty());
    CHECK(scan_header("DOCA_EXPERIMENTAL", "f.h").decls.empty());
    const std::string binary("\0\xff\xfe(((", 6);
    CHECK(scan_header(binary, "g.h").decls.empty());
}

TEST_CASE("scan_header reads the fixture headers as the version script has them") {
    const std::string dir = fixture::kHeadersDir;
    // The declarations view the texts: kept here while they are checked.
    const std::string connection_text = test::read_host_file(dir + "/doca_rdmi_connection.h");
    const std::string poster_text = test::read_host_file(dir + "/doca_rdmi_poster.h");
    const std::string compat_text =
        test::read_host_file(std::string(fixture::kFakeDocaHeadersDir) + "/doca_compat.h");
    auto connection = scan_header(connection_text, "doca_rdmi_connection.h");
    auto poster = scan_header(poster_text, "doca_rdmi_poster.h");
    auto compat = scan_header(compat_text, "doca_compat.h");
    CHECK(compat.decls.empty());
    CHECK(connection.notes.empty());
    CHECK(poster.notes.empty());
    const auto c = by_name(connection);
    const auto p = by_name(poster);
    CHECK(c.size() == 15);
    CHECK(p.size() == 9);
    int experimental = 0;
    for (const auto& [name, d] : c)
        experimental += d.annotation == Annotation::experimental ? 1 : 0;
    for (const auto& [name, d] : p)
        experimental += d.annotation == Annotation::experimental ? 1 : 0;
    CHECK(experimental == 19);
    CHECK(c.at("doca_rdmi_connection_destroy").annotation == Annotation::stable);
    CHECK(c.at("doca_rdmi_connection_as_ctx").annotation == Annotation::stable);
    CHECK(c.at("doca_rdmi_abi_version").kind == DeclKind::data);
    CHECK(c.at("doca_rdmi_connection_recv_ack").annotation == Annotation::experimental);
    CHECK(c.at("doca_rdmi_connection_create").line == 42);
    CHECK(p.at("doca_rdmi_poster_get_max_num_cqe").annotation == Annotation::deprecated);
    CHECK(p.at("doca_rdmi_poster_destroy").annotation == Annotation::stable);
    CHECK(c.count("doca_rdmi_connection_is_valid") == 0);
    CHECK(c.count("doca_rdmi_connection_event_cb_t") == 0);
}

TEST_CASE("scan_header handles a 100,000-line header in one pass") {
    std::string text = "#pragma once\nextern \"C\" {\n";
    text.reserve(4U << 20U);
    for (int i = 0; i < 25000; ++i) {
        const std::string n = std::to_string(i);
        text += i % 2 == 0 ? "DOCA_EXPERIMENTAL\n" : "DOCA_STABLE\n";
        text += "doca_error_t doca_gen_" + n + "(struct doca_thing *t,\n";
        text += "                      int arg /* " + n + " */);\n";
        text += "\n";
    }
    text += "}\n";
    const auto scan = scan_header(text, "big.h");
    REQUIRE(scan.decls.size() == 25000);
    CHECK(scan.decls.back().name == "doca_gen_24999");
    CHECK(scan.decls.back().line == 2 + 4 * 24999 + 2);
    CHECK(scan.decls.back().annotation == Annotation::stable);
    CHECK(scan.notes.empty());
}

}  // namespace rdmi

namespace rdmi {

TEST_CASE("scan_header survives arbitrary bytes and mangled fixture headers") {
    // Under ASan/UBSan an out-of-range read would show; the notes must stay one line each.
    const auto original =
        test::read_host_file(std::string(fixture::kHeadersDir) + "/doca_rdmi_connection.h");
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_int_distribution<std::size_t> position(0, original.size() - 1);
    const std::string specials = "{}()/*\"'\\#;\n";
    for (int round = 0; round < 300; ++round) {
        auto text = original;
        for (int i = 0; i < 12; ++i)
            text[position(rng)] =
                round % 2 == 0 ? static_cast<char>(byte(rng))
                               : specials[static_cast<std::size_t>(byte(rng)) % specials.size()];
        text.resize(position(rng));
        const auto scan = scan_header(text, "mangled.h");
        for (const auto& note : scan.notes) CHECK(note.find('\n') == std::string::npos);
        for (const auto& decl : scan.decls) CHECK_FALSE(decl.name.empty());
    }
}

}  // namespace rdmi
