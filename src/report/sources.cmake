target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/check_formats.cpp
  ${CMAKE_CURRENT_LIST_DIR}/check_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/devices_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/devices_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loopback_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loopback_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/symbols_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/symbols_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/text_report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/text_style.cpp
)
