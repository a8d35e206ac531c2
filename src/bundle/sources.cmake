target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/bundle_tree.cpp
  ${CMAKE_CURRENT_LIST_DIR}/elf_regions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/extract.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fit.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gather.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identity_scan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/libarchive_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/redact.cpp
  ${CMAKE_CURRENT_LIST_DIR}/redact_bundle.cpp
  ${CMAKE_CURRENT_LIST_DIR}/replay.cpp
  ${CMAKE_CURRENT_LIST_DIR}/writer.cpp
)
