// The comparison: objects by key, arrays by identity field when every element has a unique
// one, scalar arrays as sets, everything else by position.
#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

#include "json/exact_number.hpp"
#include "json/json_strict.hpp"
#include "report/diff_document.hpp"

namespace rdmi::diff {
namespace {

using Keys = std::vector<std::string_view>;

// Identity fields of array elements in the documents rdmi-probe writes, most specific first;
// the pair names collect-*-state devices, where an SF shares its PF's address; `function` names
// the PCIe links of x_rdmi_probe.pcie_link (a PCI address or an SF's name).
const std::array<Keys, 9> kIdentityKeys = {
    Keys{"pkg_config_name"}, Keys{"id"},    Keys{"name"},         Keys{"library"},
    Keys{"symbol"},          Keys{"probe"}, Keys{"pcie_address"}, Keys{"pcie_address", "kind"},
    Keys{"function"}};

/// "k=v" (or "k1=v1,k2=v2") for an element that has every key as a string; nullopt otherwise.
std::optional<std::string> identity(const Json& item, const Keys& keys) {
    if (!item.is_object()) return std::nullopt;
    std::string out;
    for (std::string_view key : keys) {
        auto it = item.find(key);
        if (it == item.end() || !it->is_string()) return std::nullopt;
        out += (out.empty() ? "" : ",") + std::string(key) + "=" + it->get<std::string>();
    }
    return out;
}
constexpr std::array<std::string_view, 3> kRunFields = {"generated_at", "snapshot_at",
                                                        "duration_ms"};
// Members of x_rdmi_probe that are facts about the host, not about the run: compared even
// without --all, so that a doca-dpa at another release shows in a diff of two env documents,
// and a PCIe link that trained lower since the last state document shows in theirs.
constexpr std::array<std::string_view, 3> kComparedExtension = {"consistency", "libraries",
                                                                "pcie_link"};

Json compared_extension(const Json& x) {
    Json out = Json::object();
    if (!x.is_object()) return out;
    for (std::string_view key : kComparedExtension) {
        if (auto it = x.find(key); it != x.end()) out[std::string(key)] = *it;
    }
    return out;
}

// A report's fix-plan step numbers its place in the plan. Steps are matched by their id, so a
// step that moved up because an earlier one went away has not changed: one removal reads as
// one, not as a renumbering of every later step.
constexpr std::string_view kPlanPointer = "/fix_plan";
constexpr std::string_view kPlanPosition = "step";

Json without_plan_position(const Json& step) {
    Json copy = step;
    if (copy.is_object()) copy.erase(std::string(kPlanPosition));
    return copy;
}

// Numbers by the number they spell (the JSON library compares an integer with a double as two
// doubles: 2^64 + 1 equalled 2^64); anything else as the JSON library compares it.
bool same_scalar(const Json& a, const Json& b) {
    const auto number_a = canonical_number_of(a);
    const auto number_b = canonical_number_of(b);
    if (number_a || number_b) return number_a == number_b;
    return a == b;
}

// What a scalar of a set is compared by: a number by its value, anything else by its text.
std::string scalar_key(const Json& item) {
    if (auto number = canonical_number_of(item)) return "#" + *number;
    return item.dump();
}

class Comparer {
  public:
    explicit Comparer(const Options& options) : options_(options) {}

    void walk(const Json& a, const Json& b, const std::string& pointer, bool top) {
        if (a.is_object() && b.is_object()) {
            objects(a, b, pointer, top);
        } else if (a.is_array() && b.is_array()) {
            arrays(a, b, pointer);
        } else if (!same_scalar(a, b)) {
            changes_.push_back(Change{pointer, ChangeKind::changed, a, b});
        }
    }

    std::vector<Change> take() { return std::move(changes_); }

  private:
    bool ignored(std::string_view key, bool top) const {
        if (options_.all) return false;
        if (top && key == "x_rdmi_probe") return true;
        return std::find(kRunFields.begin(), kRunFields.end(), key) != kRunFields.end();
    }

    // A report or symbols document written before the warn status existed has no warn count:
    // against a newer one that counts 0 warnings, nothing changed.
    static bool absent_is_zero(const std::string& pointer, const Json& value) {
        return pointer == "/summary/warn" && value.is_number_integer() && value == 0;
    }

    // ordered_json's find() searches the members one by one: an index keeps an object of a
    // million keys linear (it was quadratic).
    static std::unordered_map<std::string_view, const Json*> index_of(const Json& object) {
        std::unordered_map<std::string_view, const Json*> index;
        index.reserve(object.size());
        for (auto it = object.begin(); it != object.end(); ++it) index.emplace(it.key(), &*it);
        return index;
    }

    void objects(const Json& a, const Json& b, const std::string& pointer, bool top) {
        const auto in_a = index_of(a);
        const auto in_b = index_of(b);
        for (const auto& [key, value] : a.items()) {
            if (ignored(key, top)) continue;
            const std::string at = json_pointer_append(pointer, key);
            auto other = in_b.find(key);
            if (other == in_b.end()) {
                if (absent_is_zero(at, value)) continue;
                changes_.push_back(Change{at, ChangeKind::removed, value, std::nullopt});
            } else {
                walk(value, *other->second, at, false);
            }
        }
        for (const auto& [key, value] : b.items()) {
            if (ignored(key, top) || in_a.contains(key)) continue;
            const std::string at = json_pointer_append(pointer, key);
            if (absent_is_zero(at, value)) continue;
            changes_.push_back(Change{at, ChangeKind::added, std::nullopt, value});
        }
        // The contract's fields first, then the extension's host facts (the why behind them).
        if (top && !options_.all) {
            auto xa = a.find("x_rdmi_probe");
            auto xb = b.find("x_rdmi_probe");
            if (xa != a.end() && xb != b.end()) {
                walk(compared_extension(*xa), compared_extension(*xb), "/x_rdmi_probe", false);
            }
        }
    }

    static std::optional<Keys> identity_keys(const Json& a, const Json& b) {
        if (a.empty() && b.empty()) return std::nullopt;
        for (const Keys& keys : kIdentityKeys) {
            bool usable = true;
            for (const Json* list : {&a, &b}) {
                std::set<std::string> seen;
                for (const auto& item : *list) {
                    auto id = identity(item, keys);
                    if (!id || !seen.insert(*id).second) {
                        usable = false;
                        break;
                    }
                }
                if (!usable) break;
            }
            if (usable) return keys;
        }
        return std::nullopt;
    }

    static bool unique_scalars(const Json& list) {
        std::set<std::string> seen;
        for (const auto& item : list) {
            if (item.is_structured() || !seen.insert(scalar_key(item)).second) return false;
        }
        return true;
    }

    void arrays(const Json& a, const Json& b, const std::string& pointer) {
        if (auto keys = identity_keys(a, b)) {
            by_identity(a, b, pointer, *keys);
        } else if (unique_scalars(a) && unique_scalars(b)) {
            as_sets(a, b, pointer);
        } else {
            by_position(a, b, pointer);
        }
    }

    void by_identity(const Json& a, const Json& b, const std::string& pointer, const Keys& keys) {
        // Indexed, so that two documents with 100k entries compare in n log n.
        std::map<std::string, const Json*> in_a;
        std::map<std::string, const Json*> in_b;
        for (const auto& item : a) in_a.emplace(*identity(item, keys), &item);
        for (const auto& item : b) in_b.emplace(*identity(item, keys), &item);
        auto at = [&](const std::string& id) {
            return pointer + "/[" + json_pointer_token(id) + "]";
        };
        for (const auto& item : a) {
            const std::string id = *identity(item, keys);
            auto other = in_b.find(id);
            if (other == in_b.end()) {
                changes_.push_back(Change{at(id), ChangeKind::removed, item, std::nullopt});
            } else if (pointer == kPlanPointer && !options_.all) {
                walk(without_plan_position(item), without_plan_position(*other->second), at(id),
                     false);
            } else {
                walk(item, *other->second, at(id), false);
            }
        }
        for (const auto& item : b) {
            const std::string id = *identity(item, keys);
            if (!in_a.contains(id))
                changes_.push_back(Change{at(id), ChangeKind::added, std::nullopt, item});
        }
    }

    void as_sets(const Json& a, const Json& b, const std::string& pointer) {
        std::set<std::string> in_a;
        std::set<std::string> in_b;
        for (const auto& item : a) in_a.insert(scalar_key(item));
        for (const auto& item : b) in_b.insert(scalar_key(item));
        for (const auto& item : a) {
            if (!in_b.contains(scalar_key(item)))
                changes_.push_back(Change{pointer, ChangeKind::removed, item, std::nullopt});
        }
        for (const auto& item : b) {
            if (!in_a.contains(scalar_key(item)))
                changes_.push_back(Change{pointer, ChangeKind::added, std::nullopt, item});
        }
    }

    void by_position(const Json& a, const Json& b, const std::string& pointer) {
        const std::size_t common = std::min(a.size(), b.size());
        for (std::size_t i = 0; i < common; ++i)
            walk(a[i], b[i], pointer + "/" + std::to_string(i), false);
        for (std::size_t i = common; i < a.size(); ++i) {
            changes_.push_back(
                Change{pointer + "/" + std::to_string(i), ChangeKind::removed, a[i], std::nullopt});
        }
        for (std::size_t i = common; i < b.size(); ++i) {
            changes_.push_back(
                Change{pointer + "/" + std::to_string(i), ChangeKind::added, std::nullopt, b[i]});
        }
    }

    const Options& options_;
    std::vector<Change> changes_;
};

}  // namespace

std::string_view to_string(ChangeKind kind) {
    switch (kind) {
        case ChangeKind::added:
            return "added";
        case ChangeKind::removed:
            return "removed";
        case ChangeKind::changed:
            return "changed";
    }
    return "changed";
}

std::vector<std::string> ignored_fields(const Options& options, std::string_view kind) {
    if (options.all) return {};
    // Spelled from the list compare() uses, so that the document never calls a compared
    // member ignored.
    std::string kept;
    for (std::size_t i = 0; i < kComparedExtension.size(); ++i) {
        kept += i == 0 ? "" : i + 1 == kComparedExtension.size() ? " and " : ", ";
        kept += "/x_rdmi_probe/" + std::string(kComparedExtension[i]);
    }
    std::vector<std::string> out{"/x_rdmi_probe (all but " + kept + ")"};
    for (auto field : kRunFields) out.emplace_back(field);
    if (kind == "report") {
        out.push_back(std::string(kPlanPointer) + "/*/" + std::string(kPlanPosition) +
                      " (steps are matched by id)");
    }
    return out;
}

std::vector<Change> compare(const Json& a, const Json& b, const Options& options) {
    Comparer comparer(options);
    comparer.walk(a, b, "", true);
    return comparer.take();
}

}  // namespace rdmi::diff
