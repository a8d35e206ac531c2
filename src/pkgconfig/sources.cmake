target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/module.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pc_parser.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pc_text_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pkgconfig.cpp
  ${CMAKE_CURRENT_LIST_DIR}/requires.cpp
  ${CMAKE_CURRENT_LIST_DIR}/version.cpp
)
