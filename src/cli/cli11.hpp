// CLI11, included without <iostream>'s static initialiser: the one way src/ includes CLI11.
//
// Before GCC 13, every translation unit that includes <iostream> holds a static
// std::ios_base::Init, whose constructor builds the eight standard streams and the whole
// classic locale (ctype, numpunct, time and message facets, narrow and wide) before main():
// about 50,000 instructions and a dozen page faults, a sixth of `rdmi-probe --version`.
// CLI11 includes <iostream> only to name std::cout and std::cerr as App::exit()'s default
// streams (and in deprecated/retired-option warnings, which this program never sets up); the
// program passes its own streams instead (cli/app.cpp), prints through stdio, and so never
// needs the standard stream objects.
//
// Here <iostream>'s declarations are given without its initialiser: code that includes only
// this header must not use std::cin, std::cout, std::cerr or std::clog (they are never
// constructed). A file that does include <iostream> itself gets the initialiser back, which
// is only slower (tests/cli/startup_test.cmake checks the executable holds none).
#pragma once

#include <istream>
#include <ostream>

#if defined(__GLIBCXX__) && defined(_GLIBCXX_RELEASE) && _GLIBCXX_RELEASE < 13 && \
    !defined(_GLIBCXX_IOSTREAM)
#define _GLIBCXX_IOSTREAM 1  // NOLINT(bugprone-reserved-identifier): libstdc++'s include guard
namespace std {              // NOLINT(cert-dcl58-cpp): the declarations <iostream> makes
extern istream cin;
extern ostream cout;
extern ostream cerr;
extern ostream clog;
}  // namespace std
#endif

#include <CLI/CLI.hpp>
