# The .deb (scripts/package.sh builds it from a Release tree): the binary stripped, library
# dependencies from dpkg-shlibdeps, and the Qt plugins the program loads at run time (which
# no linker sees) listed by hand.
include(GNUInstallDirs)

set(_pkgdoc "${CMAKE_INSTALL_DATADIR}/doc/headroom")
install(FILES ${CMAKE_SOURCE_DIR}/packaging/io.headroom.headroom.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${CMAKE_SOURCE_DIR}/resources/icons/headroom.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/io.headroom.headroom.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/headroom-workspace.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/copyright DESTINATION ${_pkgdoc})

# The tracking watch as a systemd user service and its hourly timer, with an example of the
# settings file they read (tests/packaging's check_systemd.sh builds the .deb and runs
# systemd-analyze verify on what it unpacks to).
# The unit names the binary where the .deb puts it.
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(HEADROOM_PACKAGED_BINDIR ${CPACK_PACKAGING_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR})
configure_file(${CMAKE_SOURCE_DIR}/packaging/headroom-watch.service.in
               ${CMAKE_BINARY_DIR}/packaging/headroom-watch.service @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/packaging/headroom-watch.service ${CMAKE_SOURCE_DIR}/packaging/headroom-watch.timer
        DESTINATION lib/systemd/user COMPONENT systemd)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/watch.env DESTINATION ${_pkgdoc}/examples COMPONENT systemd)

# Compressed documents (the Debian policy's names): the changelog and headroom(1), the
# latter written from the CLI's own help once the binary is built.
string(TIMESTAMP _today "%Y-%m-%d" UTC)
set(_man "${CMAKE_BINARY_DIR}/packaging/headroom.1.gz")
set(_changelog "${CMAKE_BINARY_DIR}/packaging/changelog.gz")
add_custom_command(OUTPUT ${_man}
  COMMAND ${CMAKE_COMMAND} -DHEADROOM=$<TARGET_FILE:headroom> -DOUT=${_man}
          -DVERSION=${PROJECT_VERSION} -DDATE=${_today}
          -P ${CMAKE_SOURCE_DIR}/packaging/manpage.cmake
  DEPENDS headroom ${CMAKE_SOURCE_DIR}/packaging/manpage.cmake
  COMMENT "Writing headroom(1) from the CLI help" VERBATIM)
add_custom_command(OUTPUT ${_changelog}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/packaging
  COMMAND sh -c "gzip -9nc '${CMAKE_SOURCE_DIR}/packaging/changelog' > '${_changelog}'"
  DEPENDS ${CMAKE_SOURCE_DIR}/packaging/changelog VERBATIM)
add_custom_target(package_docs ALL DEPENDS ${_man} ${_changelog})
install(FILES ${_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${_changelog} DESTINATION ${_pkgdoc})

set(CPACK_PACKAGE_NAME headroom)
set(CPACK_PACKAGE_VENDOR "Headroom")
set(CPACK_PACKAGE_CONTACT "Headroom maintainers <maintainers@headroom.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GPU capacity planning workbench for AI inference and training")
# The extended description, one paragraph a block; CPack indents it and writes the blank line
# between paragraphs as " .".
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Headroom sizes GPU fleets from workload facts: KV-cache concurrency, inference
replicas at their latency targets, training time and memory, MIG layouts,
fragmentation on real cluster traces, demand forecasts and reservation cost.

Every number is explained step by step, money is exact to the cent, charts
export as vector PDF, and every analysis also runs headless from the command
line. Workspaces are single SQLite files that open by double-click.")
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Loaded as plugins: the SQLite and PostgreSQL SQL drivers, the SVG image format (in libqt6svg6);
# DejaVu is the font the charts and the deck are measured with.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite, libqt6sql6-psql, libqt6svg6, fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://headroom.invalid/")
include(CPack)
