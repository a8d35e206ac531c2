target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/elf_image.cpp
  ${CMAKE_CURRENT_LIST_DIR}/elf_reader.cpp
)
