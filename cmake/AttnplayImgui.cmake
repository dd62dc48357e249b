# AttnplayImgui.cmake — Dear ImGui 1.90 compiled from source (IMGUI_DIR), with the GLFW + OpenGL3 backends.
set(ATTNPLAY_IMGUI_MIN_VERSION 1.90)

function(attnplay_imgui_version dir outvar)
  set(_v "")
  if(EXISTS "${dir}/imgui.h")
    file(STRINGS "${dir}/imgui.h" _line REGEX "^#define IMGUI_VERSION +\"")
    string(REGEX REPLACE ".*\"([^\"]*)\".*" "\\1" _v "${_line}")
  endif()
  set(${outvar} "${_v}" PARENT_SCOPE)
endfunction()

attnplay_imgui_version("${IMGUI_DIR}" _imgui_version)
if(NOT EXISTS "${IMGUI_DIR}/imgui.cpp" OR _imgui_version VERSION_LESS ATTNPLAY_IMGUI_MIN_VERSION)
  # The default copy is (re-)fetched: a cache left by an older checkout holds another version.
  if(IMGUI_DIR STREQUAL "${CMAKE_SOURCE_DIR}/.cache/imgui")
    execute_process(COMMAND "${CMAKE_SOURCE_DIR}/scripts/fetch_imgui.sh" RESULT_VARIABLE _rc)
    attnplay_imgui_version("${IMGUI_DIR}" _imgui_version)
  endif()
  if(NOT EXISTS "${IMGUI_DIR}/imgui.cpp" OR _imgui_version VERSION_LESS ATTNPLAY_IMGUI_MIN_VERSION)
    message(FATAL_ERROR "Dear ImGui ${ATTNPLAY_IMGUI_MIN_VERSION} or later is needed in IMGUI_DIR=${IMGUI_DIR} "
                        "(found \"${_imgui_version}\"; scripts/fetch_imgui.sh unpacks Debian's 1.90.1)")
  endif()
endif()
message(STATUS "Dear ImGui ${_imgui_version} from ${IMGUI_DIR}")

add_library(imgui STATIC
  ${IMGUI_DIR}/imgui.cpp ${IMGUI_DIR}/imgui_draw.cpp ${IMGUI_DIR}/imgui_tables.cpp
  ${IMGUI_DIR}/imgui_widgets.cpp ${IMGUI_DIR}/imgui_demo.cpp
  ${IMGUI_DIR}/backends/imgui_impl_glfw.cpp ${IMGUI_DIR}/backends/imgui_impl_opengl3.cpp)
target_include_directories(imgui SYSTEM PUBLIC ${IMGUI_DIR} ${IMGUI_DIR}/backends)
target_compile_definitions(imgui PUBLIC IMGUI_DISABLE_OBSOLETE_FUNCTIONS IMGUI_DISABLE_OBSOLETE_KEYIO)
if(ATTNPLAY_SANITIZE)  # ImGui's buffers too, so a bad index of ours into them is reported (its own UB is not ours)
  target_compile_options(imgui PRIVATE -fsanitize=address -fno-omit-frame-pointer)
endif()
if(EMSCRIPTEN)
  target_link_options(imgui PUBLIC -sUSE_GLFW=3 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2)
else()
  find_package(glfw3 REQUIRED)
  find_package(OpenGL REQUIRED)
  target_link_libraries(imgui PUBLIC glfw OpenGL::GL ${CMAKE_DL_LIBS})
endif()
