// The purposes' names, one spelling for every output.
#include "core/purpose.hpp"

namespace rdmi {

std::vector<std::string> purpose_names(Purposes set) {
    std::vector<std::string> out;
    if (answers(set, Purposes::run)) out.emplace_back("run");
    if (answers(set, Purposes::build)) out.emplace_back("build");
    return out;
}

std::string purposes_text(Purposes set) {
    std::string out;
    for (const auto& name : purpose_names(set)) out += (out.empty() ? "" : ", ") + name;
    return out.empty() ? "none" : out;
}

std::optional<Purposes> parse_for(std::string_view text) {
    if (text == "run") return Purposes::run;
    if (text == "build") return Purposes::build;
    if (text == "all") return Purposes::both;
    return std::nullopt;
}

std::string_view for_name(Purposes set) {
    if (set == Purposes::run) return "run";
    if (set == Purposes::build) return "build";
    return "all";
}

}  // namespace rdmi
