// Tests for redaction: the linear scanner on inputs a backtracking regex could not take, the
// identities of every documented shape, GIDs that keep their kind, and binary files that keep
// their length (real ELF libraries built by the test build).
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "bundle/redact.hpp"
#include "bundle/redact_bundle.hpp"
#include "elf/elf_reader.hpp"
#include "fixture_libs.hpp"
#include "os/activity.hpp"
#include "sysfs/ib_attrs.hpp"

namespace rdmi::bundle {
namespace {

std::string slurp(const char* path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in.good());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> dynamic_names(std::string_view bytes) {
    auto image = parse_elf(bytes);
    REQUIRE(image.ok());
    std::vector<std::string> out;
    for (const auto& s : image->dynamic_symbols)
        out.push_back(std::string(s.name) + "@" + std::string(s.version));
    return out;
}

}  // namespace

TEST_CASE(
    "Redactor: a line of 100,000 letters after a quote, or 100 KB after serial=, is one pass") {
    // std::regex recursed once per character here and overflowed the stack (SIGSEGV).
    Redactor r({"node7"});
    const std::string letters = "X \"" + std::string(100000, 'a') + "\n";
    CHECK(r.text(letters, "/proc/mounts") == letters);
    const std::string serial = "serial=" + std::string(100000, 'b') + "\nnext node7\n";
    CHECK(r.text(serial, "/etc/x") == "serial=SERIAL-1\nnext host-1\n");
    const std::string quoted = R"({"board_serial": ")" + std::string(100000, 'c') + "\"}";
    CHECK(r.text(quoted, "report.json") == R"({"board_serial": "SERIAL-2"})");
    // Long runs of what each matcher reads: hex digits, colons, dots, digits.
    for (const char c : {'f', ':', '.', '1', '-', '"'}) {
        const std::string run(200000, c);
        CHECK(r.text(run, "/x").size() == run.size());
    }
}

TEST_CASE("Redactor: identities in the shapes tools print them") {
    Redactor r({"node7.lab.example.com\n"});
    const std::string text = r.text(
        "loop ::1 any :: v6 ::abcd:1234:5678 mapped ::ffff:198.18.0.9\n"
        "guid 0c42a10300a1b2c4 and 0x0C42A10300A1B2C4 not 0c42a10300a1b2c4ff\n"
        "hosts NODE7 node7.lab Node7.Lab.Example.Com node7.other.org\n"
        "SN: MT2233X00042\nS/N=MT2233X00043\n"
        "dash B8-CE-F6-A1-B2-C4 dot b8ce.f6a1.b2c5\n",
        "/x");
    CAPTURE(text);
    CHECK(text.find("::1 ") != std::string::npos);  // loopback: no identity
    CHECK(text.find(":: v6") != std::string::npos);
    CHECK(text.find("abcd:1234:5678") == std::string::npos);
    CHECK(text.find("198.18.0.9") == std::string::npos);
    CHECK(text.find("::ffff:192.0.2.1") != std::string::npos);  // the prefix stays
    CHECK(text.find("0c42a10300a1b2c4 ") == std::string::npos);
    CHECK(text.find("0x0000000000000001") != std::string::npos);  // the same GUID, one number
    CHECK(text.find("0000000000000001 and") != std::string::npos);
    CHECK(text.find("0c42a10300a1b2c4ff") != std::string::npos);  // 18 digits: not a GUID
    CHECK(text.find("NODE7") == std::string::npos);
    CHECK(text.find("node7.lab ") == std::string::npos);
    CHECK(text.find("Node7.Lab") == std::string::npos);
    CHECK(text.find("node7.other.org") != std::string::npos);  // another name
    CHECK(text.find("MT2233X0004") == std::string::npos);
    CHECK(text.find("B8-CE") == std::string::npos);
    CHECK(text.find("02-00-00-00-00-01") != std::string::npos);
    CHECK(text.find("b8ce.f6a1") == std::string::npos);
    CHECK(text.find("0200.0000.0002") != std::string::npos);
    CHECK(!r.holds_identity(text, ScanMode{}));
}

TEST_CASE("Redactor: GIDs keep their kind (link-local /64, IPv4-mapped /96) and still parse") {
    Redactor r({});
    const std::string link_local = r.text("fe80:0000:0000:0000:0e42:a1ff:fe00:0001\n", "/gids/0");
    CHECK(link_local == "fe80:0000:0000:0000:0000:0000:0000:0001\n");
    const std::string mapped = r.text("0000:0000:0000:0000:0000:ffff:0a01:0203\n", "/gids/1");
    CHECK(mapped == "0000:0000:0000:0000:0000:ffff:0000:0002\n");
    const std::string global = r.text("2001:0db8:0000:0000:0000:0000:0000:0042\n", "/gids/2");
    CHECK(global.rfind("2001:0000:", 0) == 0);  // global stays global, not loopback
    const std::string unused = "0000:0000:0000:0000:0000:0000:0000:0000\n";
    CHECK(r.text(unused, "/gids/3") == unused);
    for (const auto& gid : {link_local, mapped, global}) {
        auto parsed = sysfs::parse_gid(gid);
        REQUIRE(parsed.ok());
        CHECK(!sysfs::is_zero_gid(*parsed));
    }
    // The same address in another spelling is the same value.
    CHECK(r.text("fe80::e42:a1ff:fe00:1", "/x") == "fe80::000:0000:0000:1");
}

TEST_CASE("Redactor: the --root path loses a host name even as a path component") {
    Redactor r({"node7"});
    CHECK(r.text("/srv/node7/root", "path") == "/srv/node7/root");  // a stored path stays
    CHECK(r.metadata("/srv/node7/root") == "/srv/host-1/root");
}

TEST_CASE("Redactor: an ELF library keeps its length, its symbols and versions; data is redacted") {
    Redactor r({"node7.example.com"});
    const std::string original = slurp(fixture::kIdentitiesLib);
    REQUIRE(is_binary(original));
    auto redacted = r.binary(original);
    REQUIRE(redacted.ok());
    CHECK(redacted->size() == original.size());
    CHECK(dynamic_names(*redacted) == dynamic_names(original));
    for (const char* secret :
         {"node7", "10.1.2.3", "fe80::e42:a1ff:fe00:1", "MT2233X00001", "0c:42:a1:00:00:01"})
        CHECK_MESSAGE(redacted->find(secret) == std::string::npos, secret);
    CHECK(!r.holds_identity(*redacted, ScanMode{true, false}));
    // The versioned DOCA fixture (version nodes, a soname) holds no identity: unchanged.
    const std::string doca = slurp(fixture::kVersionedLib);
    CHECK(r.binary(doca).value() == doca);
}

TEST_CASE("Redactor: an ELF library with a host name among its symbols is left out, not changed") {
    Redactor r({"node7.example.com"});
    auto redacted = r.binary(slurp(fixture::kIdentitiesNamedLib));
    REQUIRE(!redacted.ok());
    CHECK(redacted.gap().message.find("host_name in its string tables") != std::string::npos);
    CHECK(redacted.gap().message.find("node7") == std::string::npos);  // never the value
}

TEST_CASE("Redactor: any other binary keeps its length") {
    Redactor r({"node7"});
    std::string cache("ld.so-1.7.0\0/opt/10.1.2.3/lib/libx.so\0node7\0", 44);
    auto redacted = r.binary(cache);
    REQUIRE(redacted.ok());
    CHECK(redacted->size() == cache.size());
    CHECK(redacted->find("10.1.2.3") == std::string::npos);
    CHECK(redacted->find("node7") == std::string::npos);
}

TEST_CASE("redact_bundle: an overrun while redacting names the file being redacted") {
    // The watchdog's message blamed the last file read, long before redaction began.
    { const activity::Scope read(activity::Kind::reading, "/etc/hostname"); }
    Redactor r({"node7"});
    Tree tree;
    Entry entry;
    entry.path = "/usr/lib/libx.so";
    entry.bytes = "built on node7\n";
    tree.entries.emplace(entry.path, entry);
    Documents docs;
    BundleInfo info;
    info.root = "/srv/node7";
    redact_bundle(r, tree, docs, info);
    CHECK(activity::snapshot().description == "redacting /usr/lib/libx.so");
    CHECK(tree.entries.at("/usr/lib/libx.so").bytes == "built on host-1\n");
    CHECK(info.root == "/srv/host-1");
    CHECK(info.redactor_version == kRedactorVersion);
}

}  // namespace rdmi::bundle
