# Warning flags and sanitizers, applied per target.
function(rdmi_probe_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion -Wnon-virtual-dtor
                                           -Wold-style-cast -Woverloaded-virtual)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    # GCC 12 reports std::string copies as overlapping or oversized memcpy when optimising (GCC bugs
    # 105651, 105329, 107852): false positives in libstdc++ code, not in ours.
    target_compile_options(${target} PRIVATE -Wno-restrict -Wno-stringop-overflow
                                             -Wno-stringop-overread -Wno-array-bounds)
  endif()
  if(RDMI_PROBE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

if(RDMI_PROBE_SANITIZE)
  add_compile_options(-fsanitize=${RDMI_PROBE_SANITIZE} -fno-omit-frame-pointer
                      -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${RDMI_PROBE_SANITIZE})
  # Objects left to the process's exit are freed instead (core/drop_at_exit.hpp).
  add_compile_definitions(RDMI_PROBE_SANITIZED=1)
endif()
