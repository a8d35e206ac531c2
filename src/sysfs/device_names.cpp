// Device names for completion: one directory listing and one readlink per entry.
#include "sysfs/device_names.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

#include "os/unique_fd.hpp"

namespace rdmi::sysfs {
namespace {

bool plain_name(std::string_view name) {
    return !name.empty() && name.size() <= 64 && name.front() != '.' &&
           std::ranges::all_of(name, [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' ||
                      c == ':' || c == '-';
           });
}

// "0000:03:00.0": domain:bus:device.function, the form sysfs names PCI functions by.
bool pci_address(std::string_view text) {
    if (text.size() != 12) return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const bool ok = (i == 4 || i == 7) ? c == ':'
                        : i == 10          ? c == '.'
                                           : std::isxdigit(static_cast<unsigned char>(c)) != 0;
        if (!ok) return false;
    }
    return true;
}

// The class entry links to .../<pci address>/infiniband/<name>: the component before
// "infiniband" is the function's address (a device on no PCI bus has none).
std::string address_in_link(std::string_view link) {
    const std::size_t marker = link.rfind("/infiniband/");
    if (marker == std::string_view::npos) return {};
    const std::string_view parent = link.substr(0, marker);
    const std::string_view last = parent.substr(parent.rfind('/') + 1);
    return pci_address(last) ? std::string(last) : std::string();
}

}  // namespace

std::vector<std::string> rdma_device_names(const std::string& root,
                                           std::chrono::milliseconds budget) {
    const auto deadline = std::chrono::steady_clock::now() + budget;
    std::vector<std::string> names;
    const std::string dir = (root.empty() ? std::string("/") : root) + "/sys/class/infiniband";
    // O_NONBLOCK: a FIFO planted where the directory should be fails, never waits.
    UniqueFd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK));
    if (fd.get() < 0) return names;
    DIR* stream = ::fdopendir(fd.get());
    if (stream == nullptr) return names;
    fd.release();  // the stream owns it from here on
    std::size_t devices = 0;
    while (const dirent* entry = ::readdir(stream)) {
        if (devices >= kDeviceNamesLimit || std::chrono::steady_clock::now() > deadline) break;
        const std::string_view name(entry->d_name);
        if (!plain_name(name)) continue;
        ++devices;
        names.emplace_back(name);
        std::array<char, 512> link{};
        const ssize_t n = ::readlinkat(::dirfd(stream), entry->d_name, link.data(), link.size());
        if (n > 0 && static_cast<std::size_t>(n) < link.size()) {
            std::string address = address_in_link(std::string_view(link.data(), n));
            if (!address.empty()) names.push_back(std::move(address));
        }
    }
    ::closedir(stream);
    std::ranges::sort(names);
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

}  // namespace rdmi::sysfs
