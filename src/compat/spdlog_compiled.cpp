// spdlog's implementation, compiled once for the statically linked build.
//
// Debian ships spdlog as headers and a shared library only (no libspdlog.a). Used header-only,
// spdlog's implementation (the -inl.h files) is compiled into every translation unit that logs:
// about 6 s of CPU each at -O2/-O3, a third of a clean build. With SPDLOG_COMPILED_LIB defined
// everywhere (Dependencies.cmake) the headers only declare it, and this file defines it once,
// as spdlog's own src/spdlog.cpp does for its library build (spdlog's README, "Compiled
// version"). Only what the program uses is here: the logger, the registry and its default
// colour sink, the pattern formatter and base_sink over the mutexes the program's sinks take.
#ifndef SPDLOG_COMPILED_LIB
#error "spdlog_compiled.cpp is for builds that define SPDLOG_COMPILED_LIB"
#endif

#include <spdlog/common-inl.h>
#include <spdlog/details/backtracer-inl.h>
#include <spdlog/details/log_msg-inl.h>
#include <spdlog/details/log_msg_buffer-inl.h>
#include <spdlog/details/null_mutex.h>
#include <spdlog/details/os-inl.h>
#include <spdlog/details/periodic_worker-inl.h>
#include <spdlog/details/registry-inl.h>
#include <spdlog/logger-inl.h>
#include <spdlog/pattern_formatter-inl.h>
#include <spdlog/sinks/ansicolor_sink-inl.h>
#include <spdlog/sinks/base_sink-inl.h>
#include <spdlog/sinks/sink-inl.h>
#include <spdlog/spdlog-inl.h>

#include <mutex>

// The sinks derive from base_sink, whose members only this file defines.
template class spdlog::sinks::base_sink<std::mutex>;
template class spdlog::sinks::base_sink<spdlog::details::null_mutex>;
// The registry's default logger writes through this sink.
template class spdlog::sinks::ansicolor_sink<spdlog::details::console_mutex>;
template class spdlog::sinks::ansicolor_stdout_sink<spdlog::details::console_mutex>;
