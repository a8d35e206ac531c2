target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/capabilities_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_scope_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/registry_test.cpp
)
