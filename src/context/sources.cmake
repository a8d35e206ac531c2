target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/context.cpp
  ${CMAKE_CURRENT_LIST_DIR}/library_lookup.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rpm_records_context.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tool_runner.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wire_json.cpp
)
