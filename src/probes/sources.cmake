target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/devices.cpp
  ${CMAKE_CURRENT_LIST_DIR}/devices_checks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/doca_caps.cpp
  ${CMAKE_CURRENT_LIST_DIR}/doca_caps_query.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install_checks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install_files.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install_locate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install_modules.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install_versions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/probe_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tool_runner.cpp
  ${CMAKE_CURRENT_LIST_DIR}/verbs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/verbs_locate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/verbs_query.cpp
  ${CMAKE_CURRENT_LIST_DIR}/verbs_wire.cpp
)
