target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/devices_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/doca_caps_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/environment_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/install_versions_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loopback_fake.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loopback_isolation_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loopback_probe_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loopback_selftest_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loopback_sequence_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loopback_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loopback_trace_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/symbols_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/verbs_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wire_json_test.cpp
)
