// fs_answers: one line per call.
#include "support/fs_answers.hpp"

#include <vector>

namespace rdmi::test {
namespace {

template <typename T, typename Show>
std::string answer_line(const Result<T>& got, Show show) {
    if (!got) {
        return "gap " + std::string(to_string(got.gap().reason)) + " " + got.gap().message + "\n";
    }
    return "ok " + show(*got) + "\n";
}

}  // namespace

std::string fs_answers(const Fs& fs, const std::string& path) {
    auto text = [](const std::string& s) { return s; };
    auto info = [](const FileInfo& i) {
        return std::string(to_string(i.type)) + " " + std::to_string(i.mode) + " " +
               std::to_string(i.uid) + ":" + std::to_string(i.gid) +
               (i.type == FileType::directory ? "" : " " + std::to_string(i.size));
    };
    auto names = [](const std::vector<DirEntry>& entries) {
        std::string out;
        for (const auto& e : entries) out += e.name + ":" + std::string(to_string(e.type)) + ",";
        return out;
    };
    std::string out = answer_line(fs.read_file(path, 4096), text);
    out += answer_line(fs.read_file(path),
                       [](const std::string& s) { return std::to_string(s.size()); });
    out += answer_line(fs.stat(path, true), info);
    out += answer_line(fs.stat(path, false), info);
    out += answer_line(fs.read_link(path), text);
    out += answer_line(fs.real_path(path), text);
    out += answer_line(fs.list_dir(path), names);
    out += answer_line(fs.map_file(path, 4096), [](const std::shared_ptr<const FileBytes>& bytes) {
        return std::string(bytes->bytes());
    });
    return out;
}

}  // namespace rdmi::test
