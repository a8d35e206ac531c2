target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/containment_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/isolated_call_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/isolated_worker_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/process_test.cpp
)
