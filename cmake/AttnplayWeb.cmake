# AttnplayWeb.cmake — the page: attnplay.js + attnplay.wasm, the training worker's attnplay-train.js + .wasm and the
# HTML shell from web/, in ATTNPLAY_SITE_DIR.
if(NOT ATTNPLAY_APP)
  return()
endif()
include(AttnplayGui)
target_compile_definitions(attn_gui PUBLIC ATTNPLAY_GLES3=1)

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
  -sINVOKE_RUN=1 -sEXIT_RUNTIME=0)
# The "webcheck" preset: Emscripten's run-time checks turn a silent memory error into a report naming the function.
if(ATTNPLAY_WEB_CHECKS)
  target_link_options(attnplay_web PRIVATE -sASSERTIONS=2 -sSAFE_HEAP=1 -sSTACK_OVERFLOW_CHECK=2 --profiling-funcs)
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

# Static files of the shell, copied on every build.
add_custom_target(attnplay_site ALL
  COMMAND ${CMAKE_COMMAND} -E make_directory "${ATTNPLAY_SITE_DIR}"
  COMMAND ${CMAKE_COMMAND} -E copy_directory "${CMAKE_SOURCE_DIR}/web/site" "${ATTNPLAY_SITE_DIR}"
  COMMAND ${CMAKE_COMMAND} -E copy_directory "${CMAKE_SOURCE_DIR}/web/examples" "${ATTNPLAY_SITE_DIR}/examples"
  COMMENT "Copying the HTML shell into ${ATTNPLAY_SITE_DIR}")
add_dependencies(attnplay_web attnplay_site)
