target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/exact_number.cpp
  ${CMAKE_CURRENT_LIST_DIR}/exhaustion.cpp
  ${CMAKE_CURRENT_LIST_DIR}/finding_catalog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fix_plan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gap.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_input.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_pointer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/md5.cpp
  ${CMAKE_CURRENT_LIST_DIR}/progress.cpp
  ${CMAKE_CURRENT_LIST_DIR}/purpose.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sha256.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shell_word.cpp
  ${CMAKE_CURRENT_LIST_DIR}/text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/version.cpp
)
