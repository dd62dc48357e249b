# AttnplayPch.cmake — precompiled headers for the heavy third-party headers every file includes.
# ATTNPLAY_PCH=OFF builds without them (to check that every file still includes what it uses).
option(ATTNPLAY_PCH "Precompile Eigen, nlohmann-json (and Catch2 for the tests)" ON)
function(attnplay_pch target)
  if(ATTNPLAY_PCH)
    target_precompile_headers(${target} PRIVATE <Eigen/Core> <nlohmann/json.hpp> <string> <vector> ${ARGN})
  endif()
endfunction()
