target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/activity.cpp
  ${CMAKE_CURRENT_LIST_DIR}/append_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/atomic_write.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dynamic_library.cpp
  ${CMAKE_CURRENT_LIST_DIR}/env.cpp
  ${CMAKE_CURRENT_LIST_DIR}/errno_gap.cpp
  ${CMAKE_CURRENT_LIST_DIR}/isolated_call.cpp
  ${CMAKE_CURRENT_LIST_DIR}/library_trust.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loader_path.cpp
  ${CMAKE_CURRENT_LIST_DIR}/path_resolver.cpp
  ${CMAKE_CURRENT_LIST_DIR}/process.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rooted_fs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/runtime_symbols.cpp
  ${CMAKE_CURRENT_LIST_DIR}/self_exe.cpp
)
