// The bash and zsh completion scripts: small shims that ask `rdmi-probe __complete` at each TAB.
#pragma once

#include <string>
#include <string_view>

namespace rdmi::cli {

/// The completion script of `shell` ("bash" or "zsh"), registered for rdmi-probe and every
/// helper name; "" for another shell. The packages install exactly this text.
[[nodiscard]] std::string completion_script(std::string_view shell);

}  // namespace rdmi::cli
