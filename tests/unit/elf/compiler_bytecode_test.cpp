// Tests for recognising LTO objects: GCC's slim and fat objects and LLVM bitcode, built from the
// fixture application by the real compilers (tests/fixtures/libs/CMakeLists.txt).
#include "elf/compiler_bytecode.hpp"

#include <doctest/doctest.h>

#include "unit/elf/fixture_audit.hpp"

namespace rdmi {
namespace {

TEST_CASE("gcc_lto_bytecode: a slim object is bytecode only, a fat one and a plain one are not") {
    if (!fixture::kHaveGccLto) {
        MESSAGE("the tests were not built by GCC: no LTO fixtures");
        return;
    }
    CHECK(gcc_lto_bytecode(test::fixture_image(fixture::kAppSlimLto)) == kGccLtoBytecode);
    CHECK_FALSE(gcc_lto_bytecode(test::fixture_image(fixture::kAppFatLto)));
    CHECK_FALSE(gcc_lto_bytecode(test::fixture_image(fixture::kAppObject)));
    // Only objects carry LTO bytecode to a link.
    CHECK_FALSE(gcc_lto_bytecode(test::fixture_image(fixture::kAppExecutable)));
}

TEST_CASE("gcc_lto_bytecode: LTO sections without the marker still need a real symbol") {
    if (!fixture::kHaveGccLto) return;
    ElfImage image = test::fixture_image(fixture::kAppSlimLto);
    // Older GCC marks every LTO object with __gnu_lto_v1 only: with no other global symbol the
    // table says nothing of the code.
    for (auto& symbol : image.static_symbols) {
        if (symbol.name == "__gnu_lto_slim") symbol.name = "__gnu_lto_v1";
    }
    CHECK(gcc_lto_bytecode(image) == kGccLtoBytecode);
    // Without the .gnu.lto_ sections it is an ordinary (empty) object.
    for (auto& name : image.section_names) {
        if (name.starts_with(".gnu.lto_")) name = ".note";
    }
    CHECK_FALSE(gcc_lto_bytecode(image));
}

TEST_CASE("gcc_lto_bytecode: the slim marker decides; a symbol of no contents is no fat code") {
    if (!fixture::kHaveGccLto) return;
    ElfImage image = test::fixture_image(fixture::kAppSlimLto);
    // The marker says there is no code, whatever the bytecode's sections are called.
    for (auto& name : image.section_names) {
        if (name.starts_with(".gnu.lto_")) name = ".gnx.lto_" + name.substr(9);
    }
    CHECK(gcc_lto_bytecode(image) == kGccLtoBytecode);
    // Without the marker, a global symbol beside the bytecode and no allocated contents: the
    // linker plugin takes the bytecode, the symbol names nothing it does.
    image = test::fixture_image(fixture::kAppSlimLto);
    for (auto& symbol : image.static_symbols) {
        if (symbol.name == "__gnu_lto_slim") symbol.name = "rdmi_app_entry";
    }
    CHECK(gcc_lto_bytecode(image) == kGccLtoBytecode);
    // The fat object has both, and is read.
    CHECK_FALSE(gcc_lto_bytecode(test::fixture_image(fixture::kAppFatLto)));
}

TEST_CASE("is_llvm_bitcode: clang -flto output and the bitcode wrapper") {
    if (fixture::kHaveBitcode) CHECK(is_llvm_bitcode(test::read_host_file(fixture::kAppBitcode)));
    CHECK(is_llvm_bitcode(std::string_view("BC\xC0\xDE\x35\x14", 6)));
    CHECK(is_llvm_bitcode(std::string_view("\xDE\xC0\x17\x0B\0\0\0\0", 8)));
    CHECK_FALSE(is_llvm_bitcode("BC"));
    CHECK_FALSE(is_llvm_bitcode(test::read_host_file(fixture::kAppObject)));
}

}  // namespace
}  // namespace rdmi
