target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/install.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install_checks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install_files.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install_locate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install_modules.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install_versions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loopback_isolation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loopback_journal.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loopback_probe.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loopback_run.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loopback_verdict.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loopback_wire.cpp
  ${CMAKE_CURRENT_LIST_DIR}/probe_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tool_runner.cpp
)
