target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/elf_dynamic_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/library_trust_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/load_closure_built_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/load_closure_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loader_path_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loader_property_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/real_paths_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/runtime_symbols_test.cpp
)
