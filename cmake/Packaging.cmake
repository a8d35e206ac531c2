# Install layout beyond the binary (man pages, completions, docs) and the CPack .deb/.rpm.
# The man page is generated from the built binary's option model (`rdmi-probe __option-model`,
# read by scripts/gen_docs.py) and the completion scripts are written by the binary, so neither
# can drift from the program.
option(RDMI_PROBE_DOCS "Generate and install the man page and shell completions (runs the built binary)"
       ON)
set(RDMI_PROBE_DOCS_PYTHON "/usr/bin/python3" CACHE FILEPATH
    "Interpreter for scripts/gen_docs.py (standard library only)")
set(RDMI_PROBE_MAINTAINER "rdmi-probe maintainers <rdmi-probe-maintainers@users.noreply.github.com>"
    CACHE STRING "Maintainer field of the packages")

set(_gen ${CMAKE_CURRENT_SOURCE_DIR}/scripts/gen_docs.py)
set(_man_dir ${CMAKE_CURRENT_BINARY_DIR}/man)
set(_compl_dir ${CMAKE_CURRENT_BINARY_DIR}/completions)
set(RDMI_PROBE_MAN_PAGE ${_man_dir}/rdmi-probe.1.gz)
set(_docs_outputs "")
# A cross build reads the option model of a binary this machine cannot run natively: through the
# emulator (qemu user-mode) the toolchain file names.
set(_gen_emulator "")
if(CMAKE_CROSSCOMPILING AND RDMI_PROBE_DOCS)
  if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
    message(FATAL_ERROR "cross build without CMAKE_CROSSCOMPILING_EMULATOR: the man page and "
                        "completions need the built binary run (install qemu-user, or "
                        "-DRDMI_PROBE_DOCS=OFF)")
  endif()
  list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " _gen_emulator_line)
  set(_gen_emulator --emulator "${_gen_emulator_line}")
endif()

if(RDMI_PROBE_DOCS)
  # The helper names that get a man page link and a completion link; doca-validate joins
  # them when the `check` subcommand exists (gen_docs.py writes only those it finds).
  add_custom_command(
    OUTPUT ${RDMI_PROBE_MAN_PAGE}
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${_man_dir}
    COMMAND ${RDMI_PROBE_DOCS_PYTHON} ${_gen} ${_gen_emulator} --binary $<TARGET_FILE:rdmi-probe> man
            --template ${CMAKE_CURRENT_SOURCE_DIR}/docs/man/rdmi-probe.1.in
            --version ${PROJECT_VERSION}
            --datadir ${CMAKE_INSTALL_FULL_DATADIR} --out ${_man_dir}
    DEPENDS rdmi-probe ${_gen} ${CMAKE_CURRENT_SOURCE_DIR}/docs/man/rdmi-probe.1.in
    COMMENT "Man page from the option model"
    VERBATIM)
  # The completion scripts are written by the program itself: they hold no option (each TAB
  # asks `rdmi-probe __complete`), so they change only with the program's own text of them.
  add_custom_command(
    OUTPUT ${_compl_dir}/bash/rdmi-probe ${_compl_dir}/zsh/_rdmi-probe
    COMMAND ${CMAKE_COMMAND} -E make_directory ${_compl_dir}/bash ${_compl_dir}/zsh
    COMMAND rdmi-probe __complete --script bash
            > ${_compl_dir}/bash/rdmi-probe
    COMMAND rdmi-probe __complete --script zsh
            > ${_compl_dir}/zsh/_rdmi-probe
    DEPENDS rdmi-probe
    COMMENT "bash and zsh completion scripts from rdmi-probe __complete --script"
    VERBATIM)
  # Debian wants the package's changelog compressed beside the copyright file.
  add_custom_command(
    OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/doc/changelog.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/doc
    COMMAND ${RDMI_PROBE_DOCS_PYTHON} -c
            "import gzip,sys; d=open(sys.argv[1],'rb').read(); f=open(sys.argv[2],'wb'); g=gzip.GzipFile(filename='',mode='wb',fileobj=f,compresslevel=9,mtime=0); g.write(d); g.close(); f.close()"
            ${CMAKE_CURRENT_SOURCE_DIR}/packaging/changelog ${CMAKE_CURRENT_BINARY_DIR}/doc/changelog.gz
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/packaging/changelog
    VERBATIM)
  add_custom_target(rdmi_probe_docs ALL
    DEPENDS ${RDMI_PROBE_MAN_PAGE} ${_compl_dir}/bash/rdmi-probe ${_compl_dir}/zsh/_rdmi-probe
            ${CMAKE_CURRENT_BINARY_DIR}/doc/changelog.gz)

  install(DIRECTORY ${_man_dir}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
          FILES_MATCHING PATTERN "*.1.gz")
  install(FILES ${_compl_dir}/bash/rdmi-probe
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
  # bash-completion loads a completion by the command's name: one link per helper name.
  foreach(helper IN LISTS RDMI_HELPER_NAMES)
    install(CODE "file(CREATE_LINK rdmi-probe
      \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/bash-completion/completions/${helper}\" SYMBOLIC)")
  endforeach()
  install(FILES ${_compl_dir}/zsh/_rdmi-probe
          DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/doc/changelog.gz
          DESTINATION ${CMAKE_INSTALL_DOCDIR})
endif()

install(FILES README.md LICENSE packaging/copyright docs/fleet.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The fleet's timer and its service (docs/fleet.md): installed, never enabled by the package.
# lib/systemd/system under the prefix: /usr/lib/systemd/system in the .deb and the .rpm, where
# systemd reads packaged units on Debian, Ubuntu and RHEL; their ExecStart says /usr/bin.
install(FILES packaging/systemd/rdmi-probe-textfile.service
              packaging/systemd/rdmi-probe-textfile.timer
        DESTINATION lib/systemd/system)
# The Ansible local fact, to be linked or copied into /etc/ansible/facts.d by the playbook that
# enables the timer: a package does not write into Ansible's configuration.
install(PROGRAMS packaging/ansible/rdmi.fact DESTINATION ${CMAKE_INSTALL_DATADIR}/rdmi-probe/ansible)
# lintian reads a package's overrides from here.
install(FILES packaging/lintian-overrides DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
        RENAME rdmi-probe)

# ---- CPack: .deb always, .rpm where rpmbuild is installed -------------------------------------
set(CPACK_PACKAGE_NAME rdmi-probe)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "rdmi-probe maintainers")
set(CPACK_PACKAGE_CONTACT "${RDMI_PROBE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "environment and capability probe for NVIDIA DOCA RDMI")
set(CPACK_PACKAGE_DESCRIPTION_FILE ${CMAKE_CURRENT_SOURCE_DIR}/packaging/description.txt)
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_CURRENT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGE_INSTALL_DIRECTORY rdmi-probe)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_PACKAGE_CHECKSUM SHA256)
set(CPACK_GENERATOR DEB)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libarchive13: loaded at run time by `gather` and `--root FILE.tar.gz` only, so not in Depends
# (shlibdeps cannot see a dlopen).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libibverbs1, ibverbs-providers, pkgconf, libarchive13")
# CPack makes the Description field: the summary, then description.txt (formatted for Debian).

find_program(RDMI_PROBE_RPMBUILD rpmbuild)
if(RDMI_PROBE_RPMBUILD)
  list(APPEND CPACK_GENERATOR RPM)
  set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
  set(CPACK_RPM_PACKAGE_LICENSE "Apache-2.0")
  set(CPACK_RPM_PACKAGE_GROUP "Applications/System")
  # CPack 3.25 has no Recommends variable: the weak dependencies go in as spec header lines.
  set(CPACK_RPM_SPEC_MORE_DEFINE "Recommends: libibverbs\nRecommends: pkgconfig\nRecommends: libarchive")
  # CPack strips with the target's strip; rpmbuild's own post-install pass would run the build
  # machine's strip and fail on a cross build's binary (and has nothing left to do elsewhere).
  if(CMAKE_CROSSCOMPILING)
    set(CPACK_RPM_SPEC_INSTALL_POST "/bin/true")
  endif()
  set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION
      /usr/share/man /usr/share/man/man1 /usr/share/bash-completion
      /usr/share/bash-completion/completions /usr/share/zsh /usr/share/zsh/vendor-completions
      /usr/share/doc /usr/lib/systemd /usr/lib/systemd/system)
endif()
include(CPack)
