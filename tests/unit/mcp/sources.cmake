target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/self_contained_schema_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tools_test.cpp
)
