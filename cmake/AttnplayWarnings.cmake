# AttnplayWarnings.cmake — project code compiles warning-free or not at all.
function(attnplay_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Werror)
endfunction()
