target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/dynamic_library.cpp
  ${CMAKE_CURRENT_LIST_DIR}/elf_dynamic.cpp
  ${CMAKE_CURRENT_LIST_DIR}/library_trust.cpp
  ${CMAKE_CURRENT_LIST_DIR}/load_closure.cpp
  ${CMAKE_CURRENT_LIST_DIR}/loader_path.cpp
  ${CMAKE_CURRENT_LIST_DIR}/real_paths.cpp
  ${CMAKE_CURRENT_LIST_DIR}/runtime_symbols.cpp
  ${CMAKE_CURRENT_LIST_DIR}/trust_cache.cpp
)
