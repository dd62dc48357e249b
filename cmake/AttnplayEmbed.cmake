# AttnplayEmbed.cmake — turn asset files into a C++ source (name → bytes), so both targets run
# from one self-contained binary with no file lookups.

# DejaVu Sans cut down to the glyphs the UI uses: the ranges are read from src/app/base/glyph_ranges.h, which ImGui's
# atlas and the catalog test read too.
function(attnplay_font_subset outvar output)
  set(_src /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf)
  set(_ranges_h "${CMAKE_SOURCE_DIR}/src/app/base/glyph_ranges.h")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_ranges_h}")
  file(READ "${_ranges_h}" _text)
  string(REGEX MATCH "kUiGlyphRanges\\[\\] = {[^;]*}" _list "${_text}")
  string(REGEX MATCHALL "{0x[0-9A-Fa-f]+, 0x[0-9A-Fa-f]+}" _pairs "${_list}")
  set(_unicodes "")
  foreach(_p IN LISTS _pairs)
    string(REGEX REPLACE "{0x([0-9A-Fa-f]+), 0x([0-9A-Fa-f]+)}" "U+\\1-\\2" _r "${_p}")
    list(APPEND _unicodes "${_r}")
  endforeach()
  list(LENGTH _unicodes _n)
  if(_n LESS 2)
    message(FATAL_ERROR "could not read the font's ranges (kUiGlyphRanges) from ${_ranges_h}")
  endif()
  string(JOIN "," _unicodes ${_unicodes})
  find_program(PYFTSUBSET pyftsubset)
  if(PYFTSUBSET)
    add_custom_command(OUTPUT "${output}"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${CMAKE_BINARY_DIR}/assets"
      # No layout tables: ImGui's rasteriser reads no kerning or substitutions (GPOS, GSUB), so they were bytes
      # the page downloaded for nothing.
      COMMAND ${PYFTSUBSET} ${_src} --output-file=${output} --no-hinting --desubroutinize --layout-features=
              --drop-tables+=GPOS,GSUB,GDEF,kern,FFTM
              --unicodes=${_unicodes}
      DEPENDS ${_src} ${_ranges_h} VERBATIM)
  else()
    add_custom_command(OUTPUT "${output}" COMMAND ${CMAKE_COMMAND} -E copy ${_src} ${output} DEPENDS ${_src})
  endif()
  set(${outvar} "${output}" PARENT_SCOPE)
endfunction()

function(attnplay_embed output)
  add_custom_command(OUTPUT "${output}"
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} "-DFILES=${ARGN}" -P ${CMAKE_SOURCE_DIR}/cmake/EmbedScript.cmake
    DEPENDS ${ARGN} ${CMAKE_SOURCE_DIR}/cmake/EmbedScript.cmake VERBATIM)
endfunction()
