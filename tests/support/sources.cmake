target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/as_unprivileged.cpp
  ${CMAKE_CURRENT_LIST_DIR}/child_output.cpp
  ${CMAKE_CURRENT_LIST_DIR}/elf_builder.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fs_answers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/memory_fs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/native_arch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/temp_tree.cpp
)
