target_sources(rdmi_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/rpm_library.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rpm_records.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dpkg_records.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dpkg_status.cpp
  ${CMAKE_CURRENT_LIST_DIR}/package_database.cpp
)
