// StringBytes: a file's bytes held in a string, where an Fs reads a file instead of mapping it.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "os/fs.hpp"

namespace rdmi {

/// FileBytes that own a copy of the file's contents.
class StringBytes final : public FileBytes {
  public:
    explicit StringBytes(std::string data) : data_(std::move(data)) {}
    [[nodiscard]] std::string_view bytes() const override { return data_; }

  private:
    std::string data_;
};

}  // namespace rdmi
