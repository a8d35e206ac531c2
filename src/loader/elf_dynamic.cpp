// read_dynamic_info: e_phoff -> PT_LOAD/PT_DYNAMIC -> DT_* entries, with DT_STRTAB's address
// mapped to a file offset through the PT_LOAD segments (glibc elf/dl-load.c does the same).
#include "loader/elf_dynamic.hpp"

#include <elf.h>

#include <cstring>
#include <optional>

namespace rdmi {
namespace {

struct Segment {
    std::uint64_t vaddr = 0;
    std::uint64_t offset = 0;
    std::uint64_t filesz = 0;
};

bool host_is_little_endian() {
    const std::uint16_t probe = 1;
    std::uint8_t first = 0;
    std::memcpy(&first, &probe, 1);
    return first == 1;
}

template <typename T>
std::optional<T> read_at(std::string_view bytes, std::uint64_t offset) {
    if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return std::nullopt;
    T value{};
    std::memcpy(&value, bytes.data() + offset, sizeof(T));
    return value;
}

std::optional<std::uint64_t> file_offset(const std::vector<Segment>& loads, std::uint64_t vaddr) {
    for (const auto& seg : loads) {
        if (vaddr >= seg.vaddr && vaddr - seg.vaddr < seg.filesz) {
            return seg.offset + (vaddr - seg.vaddr);
        }
    }
    return std::nullopt;
}

// PT_INTERP as the kernel's ELF loader reads it (fs/binfmt_elf.c): 2 to PATH_MAX bytes whose
// last one is NUL, else the exec fails; the path ends at the first NUL.
Result<std::string> read_interpreter(std::string_view bytes, const Segment& interp) {
    constexpr std::uint64_t kInterpMax = 4096;  // PATH_MAX
    if (interp.filesz < 2 || interp.filesz > kInterpMax || interp.offset > bytes.size() ||
        bytes.size() - interp.offset < interp.filesz) {
        return make_gap(GapReason::malformed, "PT_INTERP lies outside the file or is too long");
    }
    const std::string_view text = bytes.substr(interp.offset, interp.filesz);
    if (text.back() != '\0') return make_gap(GapReason::malformed, "PT_INTERP is not terminated");
    return std::string(text.substr(0, text.find('\0')));
}

template <typename Ehdr, typename Phdr, typename Dyn>
Result<DynamicInfo> read_class(std::string_view bytes, unsigned elf_class) {
    auto ehdr = read_at<Ehdr>(bytes, 0);
    if (!ehdr) return make_gap(GapReason::malformed, "truncated ELF header");
    DynamicInfo info;
    info.elf_class = elf_class;
    info.machine = ehdr->e_machine;
    if (ehdr->e_phentsize != sizeof(Phdr)) {
        return make_gap(GapReason::malformed,
                        "unexpected program header size " + std::to_string(ehdr->e_phentsize));
    }
    std::vector<Segment> loads;
    std::optional<Segment> dynamic;
    std::optional<Segment> interp;
    for (std::uint64_t i = 0; i < ehdr->e_phnum; ++i) {
        auto ph = read_at<Phdr>(bytes, ehdr->e_phoff + i * sizeof(Phdr));
        if (!ph) return make_gap(GapReason::malformed, "program headers run past the end");
        const Segment seg{ph->p_vaddr, ph->p_offset, ph->p_filesz};
        if (ph->p_type == PT_LOAD) loads.push_back(seg);
        if (ph->p_type == PT_DYNAMIC) dynamic = seg;
        if (ph->p_type == PT_INTERP && !interp) interp = seg;  // the kernel takes the first
    }
    if (interp) {
        auto text = read_interpreter(bytes, *interp);
        if (!text) return text.gap();
        info.interpreter = std::move(text).value();
    }
    if (!dynamic) return info;  // statically linked: nothing to load
    info.has_dynamic = true;
    std::optional<std::uint64_t> strtab;
    std::uint64_t strsz = 0;
    struct Ref {
        std::int64_t tag;
        std::uint64_t value;
    };
    std::vector<Ref> refs;
    for (std::uint64_t at = dynamic->offset;; at += sizeof(Dyn)) {
        if (at - dynamic->offset >= dynamic->filesz && dynamic->filesz != 0) break;
        auto dyn = read_at<Dyn>(bytes, at);
        if (!dyn) return make_gap(GapReason::malformed, "dynamic section runs past the end");
        const auto tag = static_cast<std::int64_t>(dyn->d_tag);
        if (tag == DT_NULL) break;
        const auto value = static_cast<std::uint64_t>(dyn->d_un.d_val);
        if (tag == DT_STRTAB) strtab = file_offset(loads, value);
        if (tag == DT_STRSZ) strsz = value;
        // Every way a link asks ld.so to bind at load (-z now): then a missing symbol stops the
        // program before main, not at its first call.
        if (tag == DT_BIND_NOW || (tag == DT_FLAGS && (value & DF_BIND_NOW) != 0) ||
            (tag == DT_FLAGS_1 && (value & DF_1_NOW) != 0))
            info.bind_now = true;
        if (tag == DT_NEEDED || tag == DT_SONAME || tag == DT_RPATH || tag == DT_RUNPATH ||
            tag == DT_AUXILIARY || tag == DT_FILTER) {
            refs.push_back({tag, value});
        }
    }
    if (refs.empty()) return info;
    if (!strtab || *strtab > bytes.size() || strsz > bytes.size() - *strtab) {
        return make_gap(GapReason::malformed, "DT_STRTAB lies outside the file");
    }
    const std::string_view strings = bytes.substr(*strtab, strsz);
    for (const auto& ref : refs) {
        if (ref.value >= strings.size()) {
            return make_gap(GapReason::malformed, "a dynamic string lies outside DT_STRTAB");
        }
        const auto end = strings.find('\0', ref.value);
        if (end == std::string_view::npos) {
            return make_gap(GapReason::malformed, "an unterminated dynamic string");
        }
        std::string text(strings.substr(ref.value, end - ref.value));
        switch (ref.tag) {
            case DT_NEEDED:
                info.needed.push_back(std::move(text));
                break;
            case DT_SONAME:
                info.soname = std::move(text);
                break;
            case DT_RPATH:
                info.rpath = std::move(text);
                break;
            case DT_AUXILIARY:
            case DT_FILTER:
                info.filtees.push_back(std::move(text));
                break;
            default:
                info.runpath = std::move(text);
                info.has_runpath = true;
                break;
        }
    }
    return info;
}

}  // namespace

Result<DynamicInfo> read_dynamic_info(std::string_view bytes) {
    if (bytes.size() < EI_NIDENT || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0) {
        return make_gap(GapReason::malformed, "not an ELF file");
    }
    const auto data = static_cast<unsigned char>(bytes[EI_DATA]);
    if ((data == ELFDATA2LSB) != host_is_little_endian()) {
        return make_gap(GapReason::malformed, "ELF byte order differs from this machine's");
    }
    switch (static_cast<unsigned char>(bytes[EI_CLASS])) {
        case ELFCLASS64:
            return read_class<Elf64_Ehdr, Elf64_Phdr, Elf64_Dyn>(bytes, 64);
        case ELFCLASS32:
            return read_class<Elf32_Ehdr, Elf32_Phdr, Elf32_Dyn>(bytes, 32);
        default:
            return make_gap(GapReason::malformed, "unknown ELF class");
    }
}

}  // namespace rdmi
