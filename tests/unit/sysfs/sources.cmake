include(${CMAKE_CURRENT_LIST_DIR}/../../fixtures/sysfs/fixtures.cmake)
add_dependencies(rdmi_probe_tests rdmi_sysfs_fixtures)
target_compile_definitions(rdmi_probe_tests PRIVATE
  RDMI_SYSFS_FIXTURES_DIR="${RDMI_SYSFS_FIXTURES_DIR}"
  RDMI_SYSFS_FIXTURE_SCRIPT="${RDMI_SYSFS_FIXTURE_SCRIPT}")
target_sources(rdmi_probe_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/attr_dir_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/attr_text_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_names_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/devices_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ib_attrs_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/inventory_poll_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/make_sysfs_root_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/net_attrs_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pci_attrs_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pci_ids_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scan_rdma_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sysfs_fixture.cpp
)
