# .deb package: Qt plugins load at run time, so the SQLite driver and SVG plugin are
# listed as dependencies by hand.
install(FILES ${CMAKE_SOURCE_DIR}/packaging/headroom.desktop DESTINATION share/applications)
install(FILES ${CMAKE_SOURCE_DIR}/resources/icons/headroom.svg
        DESTINATION share/icons/hicolor/scalable/apps)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/io.headroom.Headroom.metainfo.xml
        DESTINATION share/metainfo)

set(CPACK_PACKAGE_NAME headroom)
set(CPACK_PACKAGE_VENDOR "Headroom")
set(CPACK_PACKAGE_CONTACT "Headroom maintainers <maintainers@headroom.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite, libqt6svg6, qt6-qpa-plugins, fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
include(CPack)
