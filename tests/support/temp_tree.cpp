// TempTree implementation.
#include "support/temp_tree.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace rdmi::test {

namespace fs = std::filesystem;

TempTree::TempTree() {
    std::string tmpl = (fs::temp_directory_path() / "rdmi-probe-test-XXXXXX").string();
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    root_ = buf.data();
}

TempTree::~TempTree() {
    std::error_code ec;
    // Restore permissions first so that unreadable test directories can be removed.
    for (auto it = fs::recursive_directory_iterator(
             root_, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_directory(ec) && !it->is_symlink(ec)) ::chmod(it->path().c_str(), 0755);
    }
    ::chmod(root_.c_str(), 0755);
    fs::remove_all(root_, ec);
}

std::string TempTree::host(std::string_view in_tree) const {
    std::string out = root_;
    if (in_tree.empty() || in_tree.front() != '/') out += '/';
    out += in_tree;
    return out;
}

void TempTree::write(std::string_view in_tree, std::string_view content, unsigned mode) const {
    const fs::path path = host(in_tree);
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    ::chmod(path.c_str(), mode);
}

void TempTree::mkdir(std::string_view in_tree, unsigned mode) const {
    fs::create_directories(host(in_tree));
    ::chmod(host(in_tree).c_str(), mode);
}

void TempTree::symlink(std::string_view target, std::string_view in_tree) const {
    const fs::path path = host(in_tree);
    fs::create_directories(path.parent_path());
    if (::symlink(std::string(target).c_str(), path.c_str()) != 0) {
        throw std::runtime_error("symlink failed: " + path.string());
    }
}

void TempTree::fifo(std::string_view in_tree) const {
    const fs::path path = host(in_tree);
    fs::create_directories(path.parent_path());
    if (::mkfifo(path.c_str(), 0644) != 0)
        throw std::runtime_error("mkfifo failed: " + path.string());
}

void TempTree::chmod(std::string_view in_tree, unsigned mode) const {
    ::chmod(host(in_tree).c_str(), mode);
}

}  // namespace rdmi::test
