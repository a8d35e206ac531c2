// The comparison: objects by key, arrays by identity field when every element has a unique
// one, scalar arrays as sets, everything else by position. Every change is named by RFC 6901
// pointers into the documents themselves (an element's index on its own side), and by a label
// that names identified elements for people.
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
// the PCIe links of x_rdmi_probe.pcie_link (a PCI address or an SF's name). Some identities are
// numbers (a port's number, a GID's index) or pairs (a version-matrix entry is a library's
// capability; a version node is needed from a file); `path` names files, `pointer` the
// contract fields a gap or fallback is about.
const std::array<Keys, 17> kIdentityKeys = {Keys{"pkg_config_name"},
                                            Keys{"id"},
                                            Keys{"name"},
                                            Keys{"library", "capability"},
                                            Keys{"library"},
                                            Keys{"symbol", "flag"},
                                            Keys{"symbol"},
                                            Keys{"probe"},
                                            Keys{"pcie_address"},
                                            Keys{"pcie_address", "kind"},
                                            Keys{"function"},
                                            Keys{"path"},
                                            Keys{"number"},
                                            Keys{"port_num"},
                                            Keys{"index"},
                                            Keys{"file", "version"},
                                            Keys{"pointer"}};

/// "k=v" (or "k1=v1,k2=v2") for an element that has every key as a string or an integer;
/// nullopt otherwise.
std::optional<std::string> identity(const Json& item, const Keys& keys) {
    if (!item.is_object()) return std::nullopt;
    std::string out;
    for (std::string_view key : keys) {
        auto it = item.find(key);
        if (it == item.end()) return std::nullopt;
        std::string value;
        if (it->is_string()) {
            value = it->get<std::string>();
        } else if (it->is_number_integer()) {
            value = it->dump();
        } else {
            return std::nullopt;
        }
        out += (out.empty() ? "" : ",") + std::string(key) + "=" + value;
    }
    return out;
}

/// Where a value sits: its pointer in A and in B (an element matched by identity may sit at
/// another index in each), and its human label.
struct Place {
    std::string a;
    std::string b;
    std::string label;
    bool named = false;

    [[nodiscard]] Place member(std::string_view key) const {
        return Place{json_pointer_append(a, key), json_pointer_append(b, key),
                     label.empty() ? std::string(key) : label + "." + std::string(key), named};
    }
    [[nodiscard]] Place element(std::size_t in_a, std::size_t in_b) const {
        return Place{a + "/" + std::to_string(in_a), b + "/" + std::to_string(in_b),
                     label + "[" + std::to_string(in_a) + "]", named};
    }
    [[nodiscard]] Place identified(std::size_t in_a, std::size_t in_b,
                                   const std::string& id) const {
        return Place{a + "/" + std::to_string(in_a), b + "/" + std::to_string(in_b),
                     label + "[" + id + "]", true};
    }
    [[nodiscard]] std::string shown_label() const { return label.empty() ? "(document)" : label; }

    [[nodiscard]] Change removed(const Json& value) const {
        return Change{a,     std::nullopt, shown_label(), named, ChangeKind::removed,
                      value, std::nullopt};
    }
    [[nodiscard]] Change added(const Json& value) const {
        return Change{b,    std::nullopt, shown_label(), named, ChangeKind::added, std::nullopt,
                      value};
    }
    [[nodiscard]] Change changed(const Json& in_a, const Json& in_b) const {
        return Change{a, b, shown_label(), named, ChangeKind::changed, in_a, in_b};
    }
};

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

// Where and when a document was made, not what it found: one host probed from two root paths,
// or by two builds of rdmi-probe, is the same host.
constexpr std::string_view kRunObject = "run";
constexpr std::string_view kToolObject = "/tool";
constexpr std::string_view kToolVersion = "version";

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

    void walk(const Json& a, const Json& b, const Place& place, bool top) {
        if (a.is_object() && b.is_object()) {
            objects(a, b, place, top);
        } else if (a.is_array() && b.is_array()) {
            arrays(a, b, place);
        } else if (!same_scalar(a, b)) {
            changes_.push_back(place.changed(a, b));
        }
    }

    std::vector<Change> take() { return std::move(changes_); }

  private:
    // `parent` is the object's pointer in A: /run and /tool/version are ignored only at the
    // top, where every document rdmi-probe writes has them.
    bool ignored(std::string_view key, const std::string& parent, bool top) const {
        if (options_.all) return false;
        if (top && (key == "x_rdmi_probe" || key == kRunObject)) return true;
        if (parent == kToolObject && key == kToolVersion) return true;
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

    void objects(const Json& a, const Json& b, const Place& place, bool top) {
        const auto in_a = index_of(a);
        const auto in_b = index_of(b);
        for (const auto& [key, value] : a.items()) {
            if (ignored(key, place.a, top)) continue;
            const Place at = place.member(key);
            auto other = in_b.find(key);
            if (other == in_b.end()) {
                if (absent_is_zero(at.a, value)) continue;
                changes_.push_back(at.removed(value));
            } else {
                walk(value, *other->second, at, false);
            }
        }
        for (const auto& [key, value] : b.items()) {
            if (ignored(key, place.a, top) || in_a.contains(key)) continue;
            const Place at = place.member(key);
            if (absent_is_zero(at.b, value)) continue;
            changes_.push_back(at.added(value));
        }
        // The contract's fields first, then the extension's host facts (the why behind them).
        if (top && !options_.all) {
            auto xa = a.find("x_rdmi_probe");
            auto xb = b.find("x_rdmi_probe");
            if (xa != a.end() && xb != b.end()) {
                walk(compared_extension(*xa), compared_extension(*xb), place.member("x_rdmi_probe"),
                     false);
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

    void arrays(const Json& a, const Json& b, const Place& place) {
        if (auto keys = identity_keys(a, b)) {
            by_identity(a, b, place, *keys);
        } else if (unique_scalars(a) && unique_scalars(b)) {
            as_sets(a, b, place);
        } else {
            by_position(a, b, place);
        }
    }

    void by_identity(const Json& a, const Json& b, const Place& place, const Keys& keys) {
        // Indexed, so that two documents with 100k entries compare in n log n.
        std::map<std::string, std::size_t> in_a;
        std::map<std::string, std::size_t> in_b;
        for (std::size_t i = 0; i < a.size(); ++i) in_a.emplace(*identity(a[i], keys), i);
        for (std::size_t i = 0; i < b.size(); ++i) in_b.emplace(*identity(b[i], keys), i);
        for (std::size_t i = 0; i < a.size(); ++i) {
            const std::string id = *identity(a[i], keys);
            auto other = in_b.find(id);
            if (other == in_b.end()) {
                changes_.push_back(place.identified(i, i, id).removed(a[i]));
                continue;
            }
            const Place at = place.identified(i, other->second, id);
            if (place.a == kPlanPointer && !options_.all) {
                walk(without_plan_position(a[i]), without_plan_position(b[other->second]), at,
                     false);
            } else {
                walk(a[i], b[other->second], at, false);
            }
        }
        for (std::size_t i = 0; i < b.size(); ++i) {
            const std::string id = *identity(b[i], keys);
            if (!in_a.contains(id)) changes_.push_back(place.identified(i, i, id).added(b[i]));
        }
    }

    // A set member that went away is named by its index in A, one that came by its index in
    // B; the label is the array's (the value says which member).
    void as_sets(const Json& a, const Json& b, const Place& place) {
        std::set<std::string> in_a;
        std::set<std::string> in_b;
        for (const auto& item : a) in_a.insert(scalar_key(item));
        for (const auto& item : b) in_b.insert(scalar_key(item));
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (in_b.contains(scalar_key(a[i]))) continue;
            Change change = place.element(i, i).removed(a[i]);
            change.label = place.shown_label();
            changes_.push_back(std::move(change));
        }
        for (std::size_t i = 0; i < b.size(); ++i) {
            if (in_a.contains(scalar_key(b[i]))) continue;
            Change change = place.element(i, i).added(b[i]);
            change.label = place.shown_label();
            changes_.push_back(std::move(change));
        }
    }

    void by_position(const Json& a, const Json& b, const Place& place) {
        const std::size_t common = std::min(a.size(), b.size());
        for (std::size_t i = 0; i < common; ++i) walk(a[i], b[i], place.element(i, i), false);
        for (std::size_t i = common; i < a.size(); ++i)
            changes_.push_back(place.element(i, i).removed(a[i]));
        for (std::size_t i = common; i < b.size(); ++i)
            changes_.push_back(place.element(i, i).added(b[i]));
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
    std::vector<std::string> out{"/x_rdmi_probe (all but " + kept + ")",
                                 "/" + std::string(kRunObject),
                                 std::string(kToolObject) + "/" + std::string(kToolVersion)};
    for (auto field : kRunFields) out.emplace_back(field);
    if (kind == "report") {
        out.push_back(std::string(kPlanPointer) + "/*/" + std::string(kPlanPosition) +
                      " (steps are matched by id)");
    }
    return out;
}

std::vector<Change> compare(const Json& a, const Json& b, const Options& options) {
    Comparer comparer(options);
    comparer.walk(a, b, Place{}, true);
    return comparer.take();
}

}  // namespace rdmi::diff
