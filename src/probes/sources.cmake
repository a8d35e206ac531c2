target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/install.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install_checks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install_files.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install_locate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install_modules.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install_versions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/probe_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/symbols.cpp
  ${CMAKE_CURRENT_LIST_DIR}/symbols_checks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/symbols_runtime.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tool_runner.cpp
)
