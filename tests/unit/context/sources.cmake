target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/context_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wire_json_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wire_samples.cpp
)
