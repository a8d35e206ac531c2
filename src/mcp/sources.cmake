target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/compact_document.cpp
  ${CMAKE_CURRENT_LIST_DIR}/output_queue.cpp
  ${CMAKE_CURRENT_LIST_DIR}/self_contained_schema.cpp
  ${CMAKE_CURRENT_LIST_DIR}/server.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tool_call.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tools.cpp
)
