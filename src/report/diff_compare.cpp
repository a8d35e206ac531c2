// The comparison: objects by key, arrays by identity field when every element has a unique
// one, scalar arrays as sets, everything else by position.
#include <algorithm>
#include <array>
#include <set>

#include "report/diff_document.hpp"

namespace rdmi::diff {
namespace {

// Identity fields of array elements in the documents rdmi-probe writes, most specific first.
constexpr std::array<std::string_view, 7> kIdentityKeys = {
    "pkg_config_name", "id", "name", "library", "symbol", "pcie_address", "probe"};
constexpr std::array<std::string_view, 3> kRunFields = {"generated_at", "snapshot_at",
                                                        "duration_ms"};

class Comparer {
  public:
    explicit Comparer(const Options& options) : options_(options) {}

    void walk(const Json& a, const Json& b, const std::string& pointer, bool top) {
        if (a.is_object() && b.is_object()) {
            objects(a, b, pointer, top);
        } else if (a.is_array() && b.is_array()) {
            arrays(a, b, pointer);
        } else if (a != b) {
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

    void objects(const Json& a, const Json& b, const std::string& pointer, bool top) {
        for (const auto& [key, value] : a.items()) {
            if (ignored(key, top)) continue;
            const std::string at = pointer + "/" + contract::escape_pointer_token(key);
            auto other = b.find(key);
            if (other == b.end()) {
                changes_.push_back(Change{at, ChangeKind::removed, value, std::nullopt});
            } else {
                walk(value, *other, at, false);
            }
        }
        for (const auto& [key, value] : b.items()) {
            if (ignored(key, top) || a.contains(key)) continue;
            changes_.push_back(Change{pointer + "/" + contract::escape_pointer_token(key),
                                      ChangeKind::added, std::nullopt, value});
        }
    }

    static std::optional<std::string> identity_key(const Json& a, const Json& b) {
        for (std::string_view key : kIdentityKeys) {
            bool usable = true;
            for (const Json* list : {&a, &b}) {
                std::set<std::string> seen;
                for (const auto& item : *list) {
                    auto it = item.is_object() ? item.find(key) : item.end();
                    if (!item.is_object() || it == item.end() || !it->is_string() ||
                        !seen.insert(it->get<std::string>()).second) {
                        usable = false;
                        break;
                    }
                }
                if (!usable) break;
            }
            if (usable && !(a.empty() && b.empty())) return std::string(key);
        }
        return std::nullopt;
    }

    static bool unique_scalars(const Json& list) {
        std::set<std::string> seen;
        for (const auto& item : list) {
            if (item.is_structured() || !seen.insert(item.dump()).second) return false;
        }
        return true;
    }

    void arrays(const Json& a, const Json& b, const std::string& pointer) {
        if (auto key = identity_key(a, b)) {
            by_identity(a, b, pointer, *key);
        } else if (unique_scalars(a) && unique_scalars(b)) {
            as_sets(a, b, pointer);
        } else {
            by_position(a, b, pointer);
        }
    }

    void by_identity(const Json& a, const Json& b, const std::string& pointer,
                     const std::string& key) {
        auto find = [&key](const Json& list, const Json& id) -> const Json* {
            for (const auto& item : list) {
                if (item[key] == id) return &item;
            }
            return nullptr;
        };
        auto at = [&](const Json& id) {
            return pointer + "/[" + key + "=" +
                   contract::escape_pointer_token(id.get<std::string>()) + "]";
        };
        for (const auto& item : a) {
            const Json* other = find(b, item[key]);
            if (other == nullptr) {
                changes_.push_back(Change{at(item[key]), ChangeKind::removed, item, std::nullopt});
            } else {
                walk(item, *other, at(item[key]), false);
            }
        }
        for (const auto& item : b) {
            if (find(a, item[key]) == nullptr)
                changes_.push_back(Change{at(item[key]), ChangeKind::added, std::nullopt, item});
        }
    }

    void as_sets(const Json& a, const Json& b, const std::string& pointer) {
        for (const auto& item : a) {
            if (std::find(b.begin(), b.end(), item) == b.end())
                changes_.push_back(Change{pointer, ChangeKind::removed, item, std::nullopt});
        }
        for (const auto& item : b) {
            if (std::find(a.begin(), a.end(), item) == a.end())
                changes_.push_back(Change{pointer, ChangeKind::added, std::nullopt, item});
        }
    }

    void by_position(const Json& a, const Json& b, const std::string& pointer) {
        const std::size_t common = std::min(a.size(), b.size());
        for (std::size_t i = 0; i < common; ++i)
            walk(a[i], b[i], pointer + "/" + std::to_string(i), false);
        for (std::size_t i = common; i < a.size(); ++i)
            changes_.push_back(
                Change{pointer + "/" + std::to_string(i), ChangeKind::removed, a[i], std::nullopt});
        for (std::size_t i = common; i < b.size(); ++i)
            changes_.push_back(
                Change{pointer + "/" + std::to_string(i), ChangeKind::added, std::nullopt, b[i]});
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

std::vector<std::string> ignored_fields(const Options& options) {
    if (options.all) return {};
    std::vector<std::string> out{"/x_rdmi_probe"};
    for (auto field : kRunFields) out.emplace_back(field);
    return out;
}

std::vector<Change> compare(const Json& a, const Json& b, const Options& options) {
    Comparer comparer(options);
    comparer.walk(a, b, "", true);
    return comparer.take();
}

}  // namespace rdmi::diff
