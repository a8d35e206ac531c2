target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/activity_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/append_file_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/descriptor_limit_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/exhaustion_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fd_pair_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fs_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/huge_pages_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/link_rule_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/memory_reserve_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/output_target_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/proc_fd_dir_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reap_within_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rooted_fs_no_open_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rooted_fs_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/terminal_width_test.cpp
)
