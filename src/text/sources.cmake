target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/closest_name.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fit_width.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shell_word.cpp
  ${CMAKE_CURRENT_LIST_DIR}/text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wrap.cpp
)
