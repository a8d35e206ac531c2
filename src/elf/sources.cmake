target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/elf_image.cpp
  ${CMAKE_CURRENT_LIST_DIR}/app_audit.cpp
  ${CMAKE_CURRENT_LIST_DIR}/app_data_strings.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compiler_bytecode.cpp
  ${CMAKE_CURRENT_LIST_DIR}/elf_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/symbol_audit.cpp
)
