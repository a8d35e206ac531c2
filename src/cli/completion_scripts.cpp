// The completion scripts know no option: every answer comes from `__complete`, so an option
// added to the model completes without touching them. They need no bash-completion package.
#include "cli/completion_scripts.hpp"

#include "cli/option_model.hpp"

namespace rdmi::cli {
namespace {

// @NAMES@: rdmi-probe and the helper names.
constexpr std::string_view kBashScript = R"BASH(# bash completion for @NAMES@ -*- shell-script -*-
# shellcheck shell=bash
# Written by `rdmi-probe __complete --script bash`; do not edit. Each TAB asks the program
# (`rdmi-probe __complete -- WORD...`), which answers from its option model: the first line is
# what to complete (words, files, dirs, roots) and the text kept before the value, then one
# candidate a line. Plain `complete` and `compgen`: no bash-completion package is needed.

# A word without its shell quoting, as the program would receive it.
_rdmi_probe_dequote() {
    local word=$1 out='' quote='' c i
    for ((i = 0; i < ${#word}; i++)); do
        c=${word:i:1}
        if [[ $quote == "'" ]]; then
            if [[ $c == "'" ]]; then quote=''; else out+=$c; fi
        elif [[ $c == "\\" ]] && ((i + 1 < ${#word})); then
            case $quote${word:i+1:1} in
                '"'[!\"\\\$\`]) out+=$c ;;
                *) i=$((i + 1)); out+=${word:i:1} ;;
            esac
        elif [[ $c == '"' && $quote == '"' ]]; then
            quote=''
        elif [[ -z $quote && ($c == "'" || $c == '"') ]]; then
            quote=$c
        else
            out+=$c
        fi
    done
    printf '%s' "$out"
}

_rdmi_probe() {
    local readline_word=$2 line=${COMP_LINE:0:COMP_POINT} word i glued
    local -a words=() lines=()
    # COMP_WORDBREAKS splits --opt=value and 0000:03:00.0 into several words; a word that
    # touches the one before it in the line is rejoined with it.
    for ((i = 0; i <= COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        glued=1
        [[ $line == [[:space:]]* ]] && glued=0
        line=${line#"${line%%[![:space:]]*}"}
        ((i == COMP_CWORD)) && word=$line
        if ((i > 0 && glued)); then words[-1]+=$word; else words+=("$word"); fi
        line=${line#"$word"}
    done
    local answer
    answer=$("$(_rdmi_probe_dequote "${words[0]}")" __complete -- "${words[@]}" 2>/dev/null) ||
        return 0
    [[ -n $answer ]] || return 0
    mapfile -t lines <<<"$answer"
    local header=${lines[0]}
    local directive=${header%%$'\t'*} prefix=${header#*$'\t'}
    local cur=${words[-1]}
    # What of the joined word lies before the word readline replaces ("--color=", "0000:03:").
    local lead=''
    [[ $cur == *"$readline_word" ]] && lead=${cur%"$readline_word"}
    COMPREPLY=()
    local full
    if [[ $directive == words ]]; then
        local candidate
        for candidate in "${lines[@]:1}"; do
            full=$prefix$candidate
            [[ -n $candidate ]] && COMPREPLY+=("${full#"$lead"}")
        done
        return 0
    fi
    local value path
    local -a paths=()
    value=$(_rdmi_probe_dequote "${cur#"$prefix"}")
    compopt -o filenames 2>/dev/null
    case $directive in
        files) mapfile -t paths < <(compgen -f -- "$value") ;;
        dirs) mapfile -t paths < <(compgen -d -- "$value") ;;
        roots) mapfile -t paths < <(compgen -d -- "$value"; compgen -f -X '!*.tar.gz' -- "$value") ;;
    esac
    # Readline replaces only what follows the last word break: the whole word (the prefix kept
    # and the path) less the lead, which may hold part of the path itself (x=y.txt, c:d.txt).
    # A directory is marked here: readline marks one only when the text it inserts names it,
    # which neither "1" of d=1 nor a whole --opt=dir word does (it would add a space instead).
    local dirs=0
    for path in "${paths[@]}"; do
        [[ -d $path && $path != */ ]] && path+=/ && dirs=$((dirs + 1))
        full=$prefix$path
        if [[ $full == "$lead"* ]]; then COMPREPLY+=("${full#"$lead"}"); else COMPREPLY+=("$path"); fi
    done
    [[ ${#COMPREPLY[@]} -eq 1 && $dirs -eq 1 ]] && compopt -o nospace 2>/dev/null
    return 0
}
complete -F _rdmi_probe @NAMES@
)BASH";

constexpr std::string_view kZshScript = R"ZSH(#compdef @NAMES@
# zsh completion for @NAMES@.
# Written by `rdmi-probe __complete --script zsh`; do not edit. Each TAB asks the program
# (`rdmi-probe __complete -- WORD...`), which answers from its option model: the first line is
# what to complete (words, files, dirs, roots) and the text kept before the value, then one
# candidate a line.

_rdmi_probe() {
  local answer header directive prefix
  local -a lines candidates
  answer=$("${(Q)words[1]}" __complete -- "${(@)words[1,CURRENT-1]}" "$PREFIX" 2>/dev/null) ||
    return 1
  [[ -n $answer ]] || return 1
  lines=("${(@f)answer}")
  header=${lines[1]}
  directive=${header%%$'\t'*}
  prefix=${header#*$'\t'}
  candidates=("${(@)lines[2,-1]}")
  if [[ -n $prefix ]]; then
    compset -P "${(b)prefix}" || return 1
  fi
  # _path_files, not _files: _files falls back to every file when nothing matches.
  local ret=1
  case $directive in
    files) _path_files && ret=0 ;;
    dirs) _path_files -/ && ret=0 ;;
    roots)
      _path_files -/ && ret=0
      _path_files -g '*.tar.gz(-.)' && ret=0
      ;;
    *) (( ${#candidates} )) && compadd -a candidates && ret=0 ;;
  esac
  return ret
}

# Autoloaded from fpath on the first TAB (this file's body is then _rdmi-probe, which would
# otherwise run again at each TAB), or sourced: either way the names go to _rdmi_probe.
compdef _rdmi_probe @NAMES@
if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
  _rdmi_probe "$@"
fi
)ZSH";

std::string with_names(std::string_view script) {
    std::string names = "rdmi-probe";
    for (const auto& helper : helper_names()) {
        names += ' ';
        names += helper.name;
    }
    std::string out(script);
    const std::string_view marker = "@NAMES@";
    for (std::size_t at = out.find(marker); at != std::string::npos; at = out.find(marker, at))
        out.replace(at, marker.size(), names);
    return out;
}

}  // namespace

std::string completion_script(std::string_view shell) {
    if (shell == "bash") return with_names(kBashScript);
    if (shell == "zsh") return with_names(kZshScript);
    return {};
}

}  // namespace rdmi::cli
