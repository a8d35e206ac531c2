target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/app_audit_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/app_data_strings_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compiler_bytecode_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/elf_reader_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/symbol_audit_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/symbol_join_test.cpp
)
