target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/app.cpp
  ${CMAKE_CURRENT_LIST_DIR}/check_command.cpp
  ${CMAKE_CURRENT_LIST_DIR}/caps_command.cpp
  ${CMAKE_CURRENT_LIST_DIR}/contract_command.cpp
  ${CMAKE_CURRENT_LIST_DIR}/diff_command.cpp
  ${CMAKE_CURRENT_LIST_DIR}/env_command.cpp
  ${CMAKE_CURRENT_LIST_DIR}/error_command.cpp
  ${CMAKE_CURRENT_LIST_DIR}/error_document.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loopback_command.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_command.cpp
  ${CMAKE_CURRENT_LIST_DIR}/schema_command.cpp
  ${CMAKE_CURRENT_LIST_DIR}/session.cpp
  ${CMAKE_CURRENT_LIST_DIR}/state_command.cpp
  ${CMAKE_CURRENT_LIST_DIR}/symbols_command.cpp
  ${CMAKE_CURRENT_LIST_DIR}/terminal_progress.cpp
  ${CMAKE_CURRENT_LIST_DIR}/watchdog.cpp
)
