target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/reap_within_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/activity_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/descriptor_limit_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/exhaustion_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/huge_pages_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/isolated_call_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/library_trust_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/load_closure_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loader_path_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/process_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rooted_fs_no_open_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rooted_fs_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/runtime_symbols_test.cpp
)
