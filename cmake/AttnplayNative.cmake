# AttnplayNative.cmake — the `attnplay` binary: `compute` (CLI) always, `gui` (desktop window) with ATTNPLAY_APP.
file(GLOB CLI_SOURCES CONFIGURE_DEPENDS src/cli/*.cpp)
add_executable(attnplay ${CLI_SOURCES})
target_link_libraries(attnplay PRIVATE attn_core attn_app)
attnplay_warnings(attnplay)
# `attnplay package` takes the page from here unless told otherwise (--site, $ATTNPLAY_SITE).
target_compile_definitions(attnplay PRIVATE ATTNPLAY_DEFAULT_SITE="${ATTNPLAY_SITE_DIR}")

if(ATTNPLAY_APP)
  include(AttnplayGui)
  target_sources(attn_gui PRIVATE src/platform/desktop.cpp src/platform/input_script.cpp)
  if(WIN32)  # opengl32.dll exports OpenGL 1.1 only: the renderer's 2.0+ functions are looked up at run time
    target_sources(attn_gui PRIVATE src/platform/gl_windows.cpp)
  endif()
  target_link_libraries(attnplay PRIVATE attn_gui)
  target_compile_definitions(attnplay PRIVATE ATTNPLAY_WITH_GUI=1)
endif()

# ---- install: bin/attnplay, and with the GUI a .desktop entry; README, its docs and third-party notices.
# Only the program is installed (no static libs, headers or test binaries). Fonts and shaders are
# compiled into the binary, so the install needs nothing else at run time and never touches the network.
include(GNUInstallDirs)
install(TARGETS attnplay RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES README.md LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The pages the README links to, beside it (the developers' pages stay in the source tree).
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs PATTERN dev EXCLUDE)
if(ATTNPLAY_APP)
  install(FILES data/attnplay.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  # Embedded third-party code and data whose licences ask for their notice to travel with the binary.
  if(EXISTS "${IMGUI_DIR}/LICENSE.txt")
    install(FILES "${IMGUI_DIR}/LICENSE.txt" DESTINATION ${CMAKE_INSTALL_DOCDIR} RENAME LICENSE.imgui.txt)
  endif()
  if(EXISTS /usr/share/doc/fonts-dejavu-core/copyright)
    install(FILES /usr/share/doc/fonts-dejavu-core/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR}
            RENAME copyright.dejavu-fonts)
  endif()
endif()
# `make install` and cpack's preinstall step must not build the whole tree (tests, fuzzers,
# benchmarks): build attnplay first, then install or package what is there.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY TRUE)

# ---- CPack: `cd build/native && cpack -G DEB` → build/native/packages/attnplay_<version>_<arch>.deb
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME attnplay)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Attention Playground")
set(CPACK_PACKAGE_CONTACT "Attention Playground <dev@attnplay.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Interactive scaled dot-product attention playground (offline desktop build)")
set(CPACK_PACKAGE_DESCRIPTION "Drag d_k, the temperature and the token embeddings and watch softmax(QK^T/sqrt(d_k))V
change live. Includes the attnplay command-line tool (compute, variance) and the desktop window (gui).
Fonts and shaders are built into the binary; no network access is needed.")
set(CPACK_PACKAGE_DIRECTORY "${CMAKE_BINARY_DIR}/packages")  # never the caller's working directory
set(CPACK_STRIP_FILES TRUE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION education)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
find_program(DPKG_SHLIBDEPS dpkg-shlibdeps)
if(DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  # GLFW opens libGL.so.1 at run time, which dpkg-shlibdeps cannot see.
  if(ATTNPLAY_APP)
    set(CPACK_DEBIAN_PACKAGE_DEPENDS "libgl1")
  endif()
elseif(ATTNPLAY_APP)  # Debian bookworm names
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, libstdc++6, libgcc-s1, zlib1g, libglfw3, libopengl0, libgl1")
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, libstdc++6, libgcc-s1, zlib1g")
endif()
set(CPACK_SOURCE_IGNORE_FILES "/\\.git/" "/build/" "/\\.cache/" "/node_modules/" "/test-artifacts/")
include(CPack)
