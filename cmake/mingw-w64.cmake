# mingw-w64.cmake — toolchain for the Windows build (x86_64, cross-compiled on Debian by g++-mingw-w64-x86-64-posix).
# The posix thread model (winpthreads, linked statically) gives std::thread/std::mutex; the program is one .exe
# with the C/C++ runtimes linked in (-static), so it needs no DLL beside it. GLFW and zlib are Debian's source
# packages built with this same toolchain into ATTNPLAY_WIN_DEPS (scripts/windows.sh), searched before anything else.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(_triple x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${_triple}-gcc-posix)
set(CMAKE_CXX_COMPILER ${_triple}-g++-posix)
set(CMAKE_RC_COMPILER ${_triple}-windres)
set(CMAKE_AR ${_triple}-gcc-ar-posix CACHE FILEPATH "")
set(CMAKE_RANLIB ${_triple}-gcc-ranlib-posix CACHE FILEPATH "")

if(NOT ATTNPLAY_WIN_DEPS)
  set(ATTNPLAY_WIN_DEPS "${CMAKE_CURRENT_LIST_DIR}/../build/windows-deps")
endif()
get_filename_component(ATTNPLAY_WIN_DEPS "${ATTNPLAY_WIN_DEPS}" ABSOLUTE)
set(CMAKE_FIND_ROOT_PATH "${ATTNPLAY_WIN_DEPS}" /usr/${_triple})
# Programs from the build machine; libraries, headers and CMake packages from the Windows side only. The
# header-only dependencies (Eigen, nlohmann-json, Catch2) are found with NO_CMAKE_FIND_ROOT_PATH
# (cmake/AttnplayDeps.cmake) and are target-independent.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Header-only libraries Debian installs in /usr/include (stb) are linked into ATTNPLAY_WIN_DEPS/include by
# scripts/windows.sh; the cross compiler never searches /usr/include itself.
set(CMAKE_C_FLAGS_INIT "-isystem ${ATTNPLAY_WIN_DEPS}/include")
set(CMAKE_CXX_FLAGS_INIT "-isystem ${ATTNPLAY_WIN_DEPS}/include")
# One self-contained .exe: libgcc, libstdc++ and winpthreads linked in.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -static-libgcc -static-libstdc++")
