target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/compact_document_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/output_queue_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/self_contained_schema_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tools_test.cpp
)
