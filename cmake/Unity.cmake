# Unity builds: a target's sources compiled a batch at a time, each batch one translation unit
# that #includes its files, so the heavy header-only libraries (nlohmann/json, CLI11, spdlog,
# fmt) are parsed once per batch instead of once per source file.
#
# A batch never mixes directories: file-local helpers only have to be distinct within one
# directory, and adding a file shifts the batches of its own directory only. Two files of one
# directory that define the same file-local name keep one of them out of the batches
# (rdmi_unity_exclude). -DRDMI_PROBE_UNITY=OFF compiles every file on its own: what clang-tidy
# needs (its compile_commands.json then names each source) and what shows a file that does not
# include what it uses.

# Puts every C++ source of `target` into a batch of at most `batch_size` files of its directory.
function(rdmi_unity_batches target batch_size)
  get_target_property(sources ${target} SOURCES)
  foreach(source IN LISTS sources)
    if(NOT source MATCHES "\\.cpp$")
      continue()
    endif()
    get_filename_component(path "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(dir "${path}" DIRECTORY)
    file(RELATIVE_PATH dir "${PROJECT_SOURCE_DIR}" "${dir}")
    string(MAKE_C_IDENTIFIER "${dir}" key)
    if(NOT DEFINED count_${key})
      set(count_${key} 0)
    endif()
    math(EXPR batch "${count_${key}} / ${batch_size}")
    set_source_files_properties("${source}" PROPERTIES UNITY_GROUP "${key}_${batch}")
    math(EXPR count_${key} "${count_${key}} + 1")
  endforeach()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
endfunction()

# Compiles these sources on their own: each defines a file-local name that another file of its
# directory defines too.
function(rdmi_unity_exclude)
  set_source_files_properties(${ARGN} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()
