// The silent progress sink.
#include "core/progress.hpp"

namespace rdmi {
namespace {

class NoProgress final : public Progress {
  public:
    void update(std::string_view /*what*/, std::size_t /*done*/, std::size_t /*total*/) override {}
    void finish() override {}
};

}  // namespace

Progress& Progress::none() {
    static NoProgress silent;
    return silent;
}

}  // namespace rdmi
