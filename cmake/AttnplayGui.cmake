# AttnplayGui.cmake — the UI, renderer and embedded assets shared by the web page and the desktop window.
include(AttnplayImgui)
include(AttnplayEmbed)

# Assets compiled into the binary: a DejaVu Sans subset (Latin, Greek, math) and the GLSL shaders.
attnplay_font_subset(ATTNPLAY_FONT "${CMAKE_BINARY_DIR}/assets/ui_font.ttf")
file(GLOB SHADER_FILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/shaders/*.glsl)
attnplay_embed("${CMAKE_BINARY_DIR}/generated/assets.cpp" ${ATTNPLAY_FONT} ${SHADER_FILES})

file(GLOB UI_SOURCES CONFIGURE_DEPENDS src/ui/*.cpp src/render/*.cpp)
add_library(attn_gui STATIC ${UI_SOURCES} src/platform/frame.cpp "${CMAKE_BINARY_DIR}/generated/assets.cpp")
target_include_directories(attn_gui PUBLIC src)
target_link_libraries(attn_gui PUBLIC attn_app imgui)
attnplay_warnings(attn_gui)
