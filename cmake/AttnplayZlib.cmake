# AttnplayZlib.cmake — zlib for the share-link codec (src/core/share_codec.cpp): Debian's zlib1g-dev
# natively; for WebAssembly its C files compiled from Debian's source package, unpacked by
# scripts/fetch_zlib.sh into the git-ignored .cache/zlib (Emscripten's zlib port would need a download).
add_library(attnplay_zlib INTERFACE)
if(EMSCRIPTEN)
  set(ZLIB_SRC_DIR "${CMAKE_SOURCE_DIR}/.cache/zlib" CACHE PATH "zlib sources for the WebAssembly build (default: Debian's source package)")
  if(NOT EXISTS "${ZLIB_SRC_DIR}/inflate.c")
    execute_process(COMMAND "${CMAKE_SOURCE_DIR}/scripts/fetch_zlib.sh" RESULT_VARIABLE _rc)
    if(NOT EXISTS "${ZLIB_SRC_DIR}/inflate.c")
      message(FATAL_ERROR "zlib sources not found in ZLIB_SRC_DIR=${ZLIB_SRC_DIR} (scripts/fetch_zlib.sh failed: ${_rc})")
    endif()
  endif()
  set(_zlib_sources adler32.c compress.c crc32.c deflate.c infback.c inffast.c inflate.c inftrees.c trees.c
      uncompr.c zutil.c)
  list(TRANSFORM _zlib_sources PREPEND "${ZLIB_SRC_DIR}/")
  add_library(attnplay_zlib_wasm STATIC ${_zlib_sources})
  target_include_directories(attnplay_zlib_wasm SYSTEM PUBLIC "${ZLIB_SRC_DIR}")
  # DYNAMIC_CRC_TABLE: the CRC tables (13 KB of data, 8 KiB gzipped, all in the first download since data is
  # not split) are computed when a zip or gzip first needs them instead of shipped; the page has one thread.
  target_compile_definitions(attnplay_zlib_wasm PRIVATE HAVE_UNISTD_H HAVE_STDARG_H DYNAMIC_CRC_TABLE)
  target_compile_options(attnplay_zlib_wasm PRIVATE -w)  # third-party C; not held to the project's -Werror
  target_link_libraries(attnplay_zlib INTERFACE attnplay_zlib_wasm)
else()
  find_package(ZLIB REQUIRED)
  target_link_libraries(attnplay_zlib INTERFACE ZLIB::ZLIB)
endif()
