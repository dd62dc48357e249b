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

# The page never uses ImGui's built-in ProggyClean font (the shell adds its own before the atlas is built), yet
# ImFontAtlas::Build() names it as the fallback, which links its 12 KB base85 text (10 KiB of the first
# download, gzipped). For WebAssembly imgui_draw.cpp is compiled from a copy whose fallback is an assertion.
set(_imgui_draw "${IMGUI_DIR}/imgui_draw.cpp")
if(EMSCRIPTEN)
  file(READ "${_imgui_draw}" _src)
  string(FIND "${_src}" "if (ConfigData.Size == 0)\n        AddFontDefault();" _at)
  if(_at GREATER -1)
    string(REPLACE "if (ConfigData.Size == 0)\n        AddFontDefault();"
           "IM_ASSERT(ConfigData.Size > 0 && \"attnplay adds its font before the atlas is built\");" _src "${_src}")
    set(_imgui_draw "${CMAKE_BINARY_DIR}/generated/imgui_draw_nodefaultfont.cpp")
    # (written only when it differs, so a re-configure does not rebuild it)
    file(WRITE "${_imgui_draw}.new" "#line 1 \"${IMGUI_DIR}/imgui_draw.cpp\"\n${_src}")
    configure_file("${_imgui_draw}.new" "${_imgui_draw}" COPYONLY)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${IMGUI_DIR}/imgui_draw.cpp")
  else()
    message(STATUS "imgui_draw.cpp: no default-font fallback found to drop (the page links ProggyClean)")
  endif()
endif()

add_library(imgui STATIC
  ${IMGUI_DIR}/imgui.cpp ${_imgui_draw} ${IMGUI_DIR}/imgui_tables.cpp
  ${IMGUI_DIR}/imgui_widgets.cpp ${IMGUI_DIR}/imgui_demo.cpp
  ${IMGUI_DIR}/backends/imgui_impl_glfw.cpp ${IMGUI_DIR}/backends/imgui_impl_opengl3.cpp)
target_include_directories(imgui SYSTEM PUBLIC ${IMGUI_DIR} ${IMGUI_DIR}/backends)
target_compile_definitions(imgui PUBLIC IMGUI_DISABLE_OBSOLETE_FUNCTIONS IMGUI_DISABLE_OBSOLETE_KEYIO)
# WebGL has no glDrawElementsBaseVertex, so ImGui's OpenGL backend cannot split a window's draw list at 65,536
# vertices there: with 16-bit indices a larger list (the Learn panel's per-head plots at 16 heads, 2 layers) wraps
# its indices and draws its text over itself. 32-bit indices (WebGL2 draws them natively) remove the limit.
if(EMSCRIPTEN)
  target_compile_definitions(imgui PUBLIC "ImDrawIdx=unsigned int")
endif()
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
