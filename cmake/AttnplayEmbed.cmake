# AttnplayEmbed.cmake — turn asset files into a C++ source (name → bytes), so both targets run
# from one self-contained binary with no file lookups.

# DejaVu Sans cut down to the glyphs the UI uses (Latin, Greek, arrows, math, sub/superscripts, check
# marks); src/ui/glyph_ranges.h lists the same ranges for ImGui and the catalog test.
function(attnplay_font_subset outvar output)
  set(_src /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf)
  find_program(PYFTSUBSET pyftsubset)
  if(PYFTSUBSET)
    add_custom_command(OUTPUT "${output}"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${CMAKE_BINARY_DIR}/assets"
      # No layout tables: ImGui's rasteriser reads no kerning or substitutions (GPOS, GSUB), so they were bytes
      # the page downloaded for nothing.
      COMMAND ${PYFTSUBSET} ${_src} --output-file=${output} --no-hinting --desubroutinize --layout-features=
              --drop-tables+=GPOS,GSUB,GDEF,kern,FFTM
              --unicodes=U+0020-007E,U+00A0-017F,U+0370-03FF,U+1D2C-1D6A,U+2010-205E,U+2070-209C,U+2100-214F,U+2190-21FF,U+2200-22FF,U+2308-230B,U+25A0-25FF,U+2713-2717
      DEPENDS ${_src} VERBATIM)
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
