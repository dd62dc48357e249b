# AttnplayWeb.cmake — the page: attnplay.js + attnplay.wasm, the training worker's attnplay-train.js + .wasm and the
# HTML shell from web/, in ATTNPLAY_SITE_DIR.
if(NOT ATTNPLAY_APP)
  return()
endif()
include(AttnplayGui)
target_compile_definitions(attn_gui PUBLIC ATTNPLAY_GLES3=1)

# The page's download is mostly code, and most of it is not hot: widgets, panels, state and decoders are built
# for size (-Oz). The attention kernels, the progressive compute and the trainer's passes keep -O3: they are the
# frame time while a slider is dragged (node tests/bench/browser_perf.mjs, run_bench.mjs).
foreach(_t imgui attn_gui attn_app attnplay_zlib_wasm)
  target_compile_options(${_t} PRIVATE -Oz)
endforeach()
file(GLOB_RECURSE _cold_core CONFIGURE_DEPENDS src/core/exercise/*.cpp src/core/*_codec.cpp
     src/core/train/train_settings.cpp src/core/train/train_state.cpp src/core/train/train_tasks.cpp
     src/core/zip_writer.cpp)
# (no precompiled header for them: it was built at -O3, and clang refuses a header built with other
# optimisation macros)
set_source_files_properties(${_cold_core} PROPERTIES COMPILE_OPTIONS -Oz SKIP_PRECOMPILE_HEADERS ON)

add_executable(attnplay_web src/platform/web.cpp src/platform/web_input.cpp src/platform/web_api.cpp)
target_link_libraries(attnplay_web PRIVATE attn_gui)
attnplay_warnings(attnplay_web)
set_target_properties(attnplay_web PROPERTIES OUTPUT_NAME attnplay SUFFIX ".js"
  RUNTIME_OUTPUT_DIRECTORY "${ATTNPLAY_SITE_DIR}")
target_link_options(attnplay_web PRIVATE
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB -sTOTAL_STACK=1MB
  -sDYNAMIC_EXECUTION=0 -sENVIRONMENT=web
  -sEXPORTED_RUNTIME_METHODS=ccall,UTF8ToString,stringToUTF8,lengthBytesUTF8,HEAPU8
  # The bridge's functions are exported by EMSCRIPTEN_KEEPALIVE where they are defined (web_api.cpp,
  # web_input.cpp); only the runtime's own need naming here.
  -sEXPORTED_FUNCTIONS=_main,_malloc,_free
  -sINVOKE_RUN=1 -sEXIT_RUNTIME=0
  # The page reads no files (data and fonts are compiled in): no file system in attnplay.js.
  -sFILESYSTEM=0
  # attnplay.js handles only the Module fields web/site/attnplay-api.js sets, and decodes text with the
  # browser's TextDecoder: less glue in the first download.
  -sINCOMING_MODULE_JS_API=[canvas,print,printErr,instantiateWasm,loadSplitModule,onAbort,onRuntimeInitialized]
  -sTEXTDECODER=2
  # The renderer uses WebGL 2's core only (R32F is sampled, never drawn into): asking the browser for each of
  # its extensions at start cost the phone profile 80 ms.
  -sGL_SUPPORT_AUTOMATIC_ENABLE_EXTENSIONS=0
  # Nor does it enable an extension by name, use WebGL 1's temporary buffers, GLES's version string or
  # extension names, or read GLES-only errors back (glGetError is never called): less glue to download.
  -sGL_SUPPORT_SIMPLE_ENABLE_EXTENSIONS=0
  -sGL_POOL_TEMP_BUFFERS=0
  -sGL_EMULATE_GLES_VERSION_STRING_FORMAT=0
  -sGL_EXTENSIONS_IN_PREFIXED_FORMAT=0
  -sGL_TRACK_ERRORS=0
  # binaryen's whole-module passes for size; the hot functions were already made fast by the compiler.
  -Oz)
# The "webcheck" preset: Emscripten's run-time checks turn a silent memory error into a report naming the function.
if(ATTNPLAY_WEB_CHECKS)
  target_link_options(attnplay_web PRIVATE -sASSERTIONS=2 -sSAFE_HEAP=1 -sSTACK_OVERFLOW_CHECK=2 --profiling-funcs)
endif()
# The first view downloads only the functions it runs: after the link, scripts/split_wasm.mjs measures which
# those are in headless Chromium and splits the module into attnplay.wasm and attnplay.deferred.wasm, which
# the page fetches once the first half has arrived (web/site/attnplay-api.js).
option(ATTNPLAY_SPLIT_WASM "Split the page's module into the first view's half and the rest" ON)
if(ATTNPLAY_SPLIT_WASM AND NOT ATTNPLAY_WEB_CHECKS)
  find_program(ATTNPLAY_NODE node REQUIRED)
  target_link_options(attnplay_web PRIVATE -sSPLIT_MODULE=1 -Wno-experimental)
  # A changed measurement (the visits it makes) relinks and splits again.
  set_property(TARGET attnplay_web APPEND PROPERTY LINK_DEPENDS "${CMAKE_SOURCE_DIR}/scripts/split_wasm.mjs")
  add_custom_command(TARGET attnplay_web POST_BUILD
    COMMAND ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs
            ${ATTNPLAY_NODE} ${CMAKE_SOURCE_DIR}/scripts/split_wasm.mjs "${ATTNPLAY_SITE_DIR}"
    COMMENT "Splitting attnplay.wasm into the first view's half and the rest" VERBATIM)
else()
  add_custom_command(TARGET attnplay_web POST_BUILD
    COMMAND ${CMAKE_COMMAND} -E rm -f "${ATTNPLAY_SITE_DIR}/attnplay.deferred.wasm" VERBATIM)
endif()

# Learn mode's training thread: the core alone, loaded by web/site/attnplay-train-worker.js (importScripts).
add_executable(attnplay_train_worker src/platform/train_worker.cpp)
target_link_libraries(attnplay_train_worker PRIVATE attn_core)
attnplay_warnings(attnplay_train_worker)
set_target_properties(attnplay_train_worker PROPERTIES OUTPUT_NAME attnplay-train SUFFIX ".js"
  RUNTIME_OUTPUT_DIRECTORY "${ATTNPLAY_SITE_DIR}")
target_link_options(attnplay_train_worker PRIVATE
  --no-entry -sENVIRONMENT=worker -sMODULARIZE=1 -sEXPORT_NAME=AttnplayTrain
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=16MB -sTOTAL_STACK=1MB -sDYNAMIC_EXECUTION=0 -sFILESYSTEM=0
  -sEXPORTED_RUNTIME_METHODS=UTF8ToString,HEAPU8
  -sEXPORTED_FUNCTIONS=_malloc,_free,_attnplay_train_load,_attnplay_train_error,_attnplay_train_run,_attnplay_train_save,_attnplay_train_bytes,_attnplay_train_steps,_attnplay_train_finished)
add_dependencies(attnplay_web attnplay_train_worker)

# The site's scripts are minified (scripts/minify_js.mjs, terser from npm): their comments are for developers, not
# for a phone's first download. The checked build keeps them readable.
option(ATTNPLAY_MINIFY_JS "Minify the site's scripts" ON)
set(_minify "")
set(_site_scripts attnplay-api.js attnplay-a11y.js attention-playground.js attnplay-embed.js attnplay-lms.js
    attnplay-lms-notices.js attnplay-cmi5.js attnplay-sw.js attnplay-train-worker.js)
if(ATTNPLAY_MINIFY_JS AND NOT ATTNPLAY_WEB_CHECKS)
  list(TRANSFORM _site_scripts PREPEND "${ATTNPLAY_SITE_DIR}/")
  set(_minify COMMAND ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs ${ATTNPLAY_NODE}
              ${CMAKE_SOURCE_DIR}/scripts/minify_js.mjs ${_site_scripts})
  add_custom_command(TARGET attnplay_web POST_BUILD
    COMMAND ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs ${ATTNPLAY_NODE}
            ${CMAKE_SOURCE_DIR}/scripts/minify_js.mjs "${ATTNPLAY_SITE_DIR}/attnplay.js"
    COMMENT "Minifying attnplay.js" VERBATIM)
endif()

# Static files of the shell, copied on every build.
add_custom_target(attnplay_site ALL
  COMMAND ${CMAKE_COMMAND} -E make_directory "${ATTNPLAY_SITE_DIR}"
  COMMAND ${CMAKE_COMMAND} -E copy_directory "${CMAKE_SOURCE_DIR}/web/site" "${ATTNPLAY_SITE_DIR}"
  COMMAND ${CMAKE_COMMAND} -E copy_directory "${CMAKE_SOURCE_DIR}/web/examples" "${ATTNPLAY_SITE_DIR}/examples"
  COMMAND ${CMAKE_COMMAND} -E make_directory "${ATTNPLAY_SITE_DIR}/strings"
  COMMAND ${CMAKE_COMMAND} -E copy ${FETCHED_DATA} "${ATTNPLAY_SITE_DIR}/strings"
  # The app's own description (`attnplay manifest`, docs/dev/manifest.md), for scripts and the Python package.
  COMMAND ${CMAKE_COMMAND} -E copy "${CMAKE_SOURCE_DIR}/data/manifest.json" "${ATTNPLAY_SITE_DIR}/manifest.json"
  # The installed app's icons, drawn from the favicon (scripts/make_icons.py).
  COMMAND /usr/bin/python3 ${CMAKE_SOURCE_DIR}/scripts/make_icons.py "${CMAKE_SOURCE_DIR}/web/site/favicon.svg"
          "${ATTNPLAY_SITE_DIR}"
  ${_minify}
  COMMENT "Copying the HTML shell into ${ATTNPLAY_SITE_DIR}" VERBATIM)
add_dependencies(attnplay_web attnplay_site)

# The one list of the page's files (scripts/site_manifest.mjs), written after every other step of the site's build:
# the service worker, a course package and the Python package read it.
find_program(ATTNPLAY_NODE node REQUIRED)
add_custom_target(attnplay_site_manifest ALL
  COMMAND ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs ${ATTNPLAY_NODE}
          ${CMAKE_SOURCE_DIR}/scripts/site_manifest.mjs "${ATTNPLAY_SITE_DIR}"
  COMMENT "Listing the page's files in site-manifest.json" VERBATIM)
add_dependencies(attnplay_site_manifest attnplay_web attnplay_train_worker attnplay_site)
