// Tests for PkgConfig::resolve_requires: found, missing, version constraints, cycles, private.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "os/rooted_fs.hpp"
#include "pkgconfig/pkgconfig.hpp"
#include "support/temp_tree.hpp"

namespace rdmi::pkgconfig {
namespace {

using Vars = std::map<std::string, std::string, std::less<>>;

std::string pc(std::string_view name, std::string_view version, std::string_view requires_line = "",
               std::string_view private_line = "") {
    std::string text =
        "Name: " + std::string(name) + "\nDescription: d\nVersion: " + std::string(version) + "\n";
    if (!requires_line.empty()) text += "Requires: " + std::string(requires_line) + "\n";
    if (!private_line.empty()) text += "Requires.private: " + std::string(private_line) + "\n";
    return text;
}

std::string summary(const std::vector<ResolvedRequire>& edges) {
    std::string out;
    for (const auto& e : edges) {
        out += e.required_by + "->" + to_string(e.requirement) + ":" +
               std::string(to_string(e.status)) + "@" + std::to_string(e.depth) +
               (e.is_private ? "p" : "") + "\n";
    }
    return out;
}

}  // namespace

TEST_CASE("resolve_requires walks the DOCA RDMI stack and checks every version constraint") {
    test::TempTree tree;
    tree.write(
        "/pc/doca-rdmi.pc",
        pc("doca-rdmi", "3.3.0", "doca-common = 3.3.0, doca-verbs >= 3.3.0, doca-dpa = 3.3.0"));
    tree.write("/pc/doca-common.pc", pc("doca-common", "3.3.0"));
    tree.write("/pc/doca-verbs.pc", pc("doca-verbs", "3.2.1025", "doca-common"));
    tree.mkdir("/empty");
    auto fs = RootedFs::open(tree.root());
    REQUIRE(fs.ok());
    MapEnv env(Vars{{"PKG_CONFIG_LIBDIR", "/empty:/pc"}});
    const PkgConfig pkg(*fs, env);
    auto rdmi = pkg.find("doca-rdmi");
    REQUIRE(rdmi.ok());
    const auto edges = pkg.resolve_requires(*rdmi);
    CHECK(summary(edges) ==
          "doca-rdmi->doca-common = 3.3.0:satisfied@1\n"
          "doca-rdmi->doca-verbs >= 3.3.0:version_mismatch@1\n"
          "doca-verbs->doca-common:satisfied@2\n"
          "doca-rdmi->doca-dpa = 3.3.0:not_found@1\n");
    CHECK(edges[0].version == "3.3.0");
    CHECK(edges[0].pc_path == "/pc/doca-common.pc");
    CHECK(edges[0].message.empty());
    CHECK(edges[1].version == "3.2.1025");
    CHECK(edges[1].message ==
          "doca-rdmi requires doca-verbs >= 3.3.0, found doca-verbs 3.2.1025 (/pc/doca-verbs.pc)");
    CHECK(edges[3].version.empty());
    CHECK(edges[3].message == "doca-dpa: doca-dpa.pc not found; searched /empty:/pc");
}

TEST_CASE("resolve_requires reports a cyclic Requires instead of following it forever") {
    test::TempTree tree;
    tree.write("/pc/a.pc", pc("a", "1", "b"));
    tree.write("/pc/b.pc", pc("b", "1", "c >= 1"));
    tree.write("/pc/c.pc", pc("c", "1", "a, d"));
    tree.write("/pc/d.pc", pc("d", "1", "d"));  // requires itself
    auto fs = RootedFs::open(tree.root());
    REQUIRE(fs.ok());
    MapEnv env(Vars{{"PKG_CONFIG_LIBDIR", "/pc"}});
    const PkgConfig pkg(*fs, env);
    const auto edges = pkg.resolve_requires(pkg.find("a").value());
    CHECK(summary(edges) ==
          "a->b:satisfied@1\n"
          "b->c >= 1:satisfied@2\n"
          "c->a:cycle@3\n"
          "c->d:satisfied@3\n"
          "d->d:cycle@4\n");
    CHECK(edges[2].message == "Requires cycle: a -> b -> c -> a");
    CHECK(edges[4].message == "Requires cycle: d -> d");
}

TEST_CASE(
    "resolve_requires expands a shared dependency once, and follows Requires.private "
    "only when asked") {
    test::TempTree tree;
    tree.write("/pc/top.pc", pc("top", "1", "left, right", "hidden < 2"));
    tree.write("/pc/left.pc", pc("left", "1", "shared"));
    tree.write("/pc/right.pc", pc("right", "1", "shared"));
    tree.write("/pc/shared.pc", pc("shared", "1", "leaf"));
    tree.write("/pc/leaf.pc", pc("leaf", "1"));
    tree.write("/pc/hidden.pc", pc("hidden", "2", "", "broken"));
    tree.write("/pc/broken.pc", "Name: broken\n");
    auto fs = RootedFs::open(tree.root());
    REQUIRE(fs.ok());
    MapEnv env(Vars{{"PKG_CONFIG_LIBDIR", "/pc"}});
    const PkgConfig pkg(*fs, env);
    const Module top = pkg.find("top").value();
    CHECK(summary(pkg.resolve_requires(top)) ==
          "top->left:satisfied@1\n"
          "left->shared:satisfied@2\n"
          "shared->leaf:satisfied@3\n"
          "top->right:satisfied@1\n"
          "right->shared:satisfied@2\n");
    const auto all = pkg.resolve_requires(top, RequiresScope::with_private);
    CHECK(summary(all) ==
          "top->left:satisfied@1\n"
          "left->shared:satisfied@2\n"
          "shared->leaf:satisfied@3\n"
          "top->right:satisfied@1\n"
          "right->shared:satisfied@2\n"
          "top->hidden < 2:version_mismatch@1p\n"
          "hidden->broken:unreadable@2p\n");
    CHECK(all.back().message.find("/pc/broken.pc: file does not declare a `Description' field") !=
          std::string::npos);
}

TEST_CASE("resolve_requires stops at kMaxRequiresDepth") {
    test::TempTree tree;
    const int chain = kMaxRequiresDepth + 5;
    for (int i = 0; i < chain; ++i) {
        const std::string name = "m" + std::to_string(i);
        tree.write("/pc/" + name + ".pc", pc(name, "1", "m" + std::to_string(i + 1)));
    }
    tree.write("/pc/m" + std::to_string(chain) + ".pc", pc("m" + std::to_string(chain), "1"));
    auto fs = RootedFs::open(tree.root());
    REQUIRE(fs.ok());
    MapEnv env(Vars{{"PKG_CONFIG_LIBDIR", "/pc"}});
    const PkgConfig pkg(*fs, env);
    const auto edges = pkg.resolve_requires(pkg.find("m0").value());
    REQUIRE(edges.size() == static_cast<std::size_t>(kMaxRequiresDepth));
    CHECK(edges.back().status == RequireStatus::too_deep);
    CHECK(edges.back().depth == kMaxRequiresDepth);
    CHECK(edges[0].status == RequireStatus::satisfied);
}

}  // namespace rdmi::pkgconfig
