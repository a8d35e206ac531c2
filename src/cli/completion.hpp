// Shell completion answered from the option model: what may follow the words already typed.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rdmi::cli {

/// What the shell does with the answer.
enum class CompletionDirective {
    words,        ///< offer the candidates (possibly none)
    files,        ///< complete file names (directories too, to go deeper)
    directories,  ///< complete directory names only
    roots,        ///< complete directories and *.tar.gz bundles
};

/// "words", "files", "dirs" or "roots": the shell scripts' spelling.
[[nodiscard]] std::string_view to_string(CompletionDirective directive);

/// One completion answer. `prefix` is the part of the word being completed that stays as it is
/// ("--color=" of "--color=al"); the candidates are the values that may follow it, already
/// filtered by what was typed after it.
struct CompletionAnswer {
    CompletionDirective directive = CompletionDirective::words;
    std::string prefix{};
    std::vector<std::string> candidates{};
};

/// Lists the RDMA device names and PCI addresses of a root directory ("/" for this machine).
using DeviceLister = std::function<std::vector<std::string>(const std::string& root)>;

/// Answers a completion request. `words` is the command line up to the cursor, as the shell
/// split it (quotes kept), the program's name first and the word being completed last (empty
/// when a new word starts). `devices` is asked only when a device value is completed, with the
/// --root the line gave (dequoted, relative to the working directory) or "/".
[[nodiscard]] CompletionAnswer complete_words(std::span<const std::string> words,
                                              const DeviceLister& devices);

/// A shell word without its quoting: backslash escapes, '...' and "..." removed, as the shell
/// would pass it to the program (no expansion).
[[nodiscard]] std::string shell_dequote(std::string_view word);

/// The hidden `__complete` subcommand: `__complete -- WORD...` writes the answer (the directive
/// and, after a tab, the prefix on the first line, then one candidate a line);
/// `__complete --script bash|zsh` writes the shell's completion script. `args` are the
/// arguments after `__complete`. Returns the exit code (2 for a usage error, said on stderr).
int run_complete_command(std::span<const std::string> args);

}  // namespace rdmi::cli
