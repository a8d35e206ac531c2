// locate_soname(): the dynamic loader's search order, re-done over the Fs seam so that a
// library is trust-checked before anything of it runs.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "loader/loader_path.hpp"
#include "probes/verbs/verbs.hpp"
#include "text/text.hpp"

namespace rdmi {
namespace {

// What ldconfig skips around an ld.so.conf entry.
constexpr std::string_view kBlank = " \t\r";

// LD_LIBRARY_PATH's entries (':' or ';', as ld.so(8) reads them), the empty ones dropped.
std::vector<std::string> split(std::string_view text, std::string_view separators) {
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const auto end = text.find_first_of(separators, pos);
        const auto piece = text.substr(pos, end == std::string_view::npos ? end : end - pos);
        if (!piece.empty()) out.emplace_back(piece);
        if (end == std::string_view::npos) break;
        pos = end + 1;
    }
    return out;
}

// Only the "*.conf in one directory" form of include that Debian and Fedora ship is expanded.
void read_ld_so_conf(const Fs& fs, const std::string& path, int depth,
                     std::vector<std::string>& dirs) {
    if (depth > 4) return;
    auto text = fs.read_file(path, 1 << 20);
    if (!text) return;
    for (const auto raw : split_lines(*text)) {
        const std::string line(trim(raw.substr(0, raw.find('#')), kBlank));
        if (line.empty()) continue;
        if (line.rfind("include", 0) == 0 && line.size() > 7 &&
            (line[7] == ' ' || line[7] == '\t')) {
            const std::string pattern(trim(std::string_view(line).substr(8), kBlank));
            const auto slash = pattern.rfind('/');
            if (slash == std::string::npos) continue;
            const std::string dir = pattern.substr(0, slash);
            const std::string glob = pattern.substr(slash + 1);
            if (glob != "*.conf") continue;
            auto entries = fs.list_dir(dir);
            if (!entries) continue;
            std::vector<std::string> names;
            for (const auto& entry : *entries) {
                if (entry.name.size() > 5 &&
                    entry.name.compare(entry.name.size() - 5, 5, ".conf") == 0)
                    names.push_back(entry.name);
            }
            std::sort(names.begin(), names.end());
            for (const auto& name : names) read_ld_so_conf(fs, dir + "/" + name, depth + 1, dirs);
            continue;
        }
        if (line.front() == '/') dirs.push_back(line);
    }
}

// ld.so skips a file built for another machine and keeps searching (a multiarch host lists
// /lib/aarch64-linux-gnu in ld.so.conf on x86-64 when foreign packages are installed).
bool foreign_elf(const Fs& fs, const std::string& path) {
#if defined(__x86_64__)
    constexpr std::uint16_t kHostMachine = 62;  // EM_X86_64
#elif defined(__aarch64__)
    constexpr std::uint16_t kHostMachine = 183;  // EM_AARCH64
#else
    constexpr std::uint16_t kHostMachine = 0;  // unknown: never skip
#endif
    if (kHostMachine == 0) return false;
    auto mapped = fs.map_file(path, std::size_t{1} << 31U);
    if (!mapped) return false;
    const std::string_view head = (*mapped)->bytes();
    if (head.size() < 20 || head.substr(0, 4) !=
                                "\x7f"
                                "ELF")
        return false;
    std::uint16_t machine = 0;
    std::memcpy(&machine, head.data() + 18, sizeof machine);
    const unsigned elf_class = static_cast<unsigned char>(head[4]) == 2 ? 64U : 32U;
    return machine != kHostMachine || elf_class != sizeof(void*) * 8;
}

}  // namespace

Sourced<std::string> locate_soname(const Fs& fs, const Env& env, const std::string& soname) {
    std::vector<std::pair<std::string, std::string>> dirs;  // directory, how it was found
    if (auto path = env.get("LD_LIBRARY_PATH")) {
        for (const auto& dir : split(*path, ":;"))
            if (dir.front() == '/') dirs.emplace_back(dir, "LD_LIBRARY_PATH");
    }
    std::vector<std::string> conf;
    read_ld_so_conf(fs, "/etc/ld.so.conf", 0, conf);
    for (const auto& dir : conf) dirs.emplace_back(dir, "/etc/ld.so.conf");
    std::vector<std::string> defaults;
    if (!kHostMultiarchTriplet.empty()) {
        defaults.push_back("/lib/" + std::string(kHostMultiarchTriplet));
        defaults.push_back("/usr/lib/" + std::string(kHostMultiarchTriplet));
    }
    for (const char* dir : {"/lib64", "/usr/lib64", "/lib", "/usr/lib"}) defaults.emplace_back(dir);
    for (const auto& dir : defaults) dirs.emplace_back(dir, "default library directory");

    std::string searched;
    for (const auto& [dir, how] : dirs) {
        const std::string candidate = dir + "/" + soname;
        auto info = fs.stat(candidate, true);
        if (info && info->type == FileType::regular && !foreign_elf(fs, candidate))
            return Sourced<std::string>::of(candidate, {"file", candidate + " (" + how + ")"});
        if (!searched.empty()) searched += ":";
        searched += dir;
    }
    return Sourced<std::string>::missing(
        Gap{GapReason::not_installed,
            soname + " not found in the loader's search path (" + searched +
                "); install rdma-core's libibverbs (Debian/Ubuntu: libibverbs1, RHEL: "
                "libibverbs)"},
        {"file", soname});
}

}  // namespace rdmi
