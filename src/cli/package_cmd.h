// package_cmd.h — `attnplay package`: built-in lessons as a SCORM 1.2 or 2004 course package for an LMS.
#pragma once

#include <string>
#include <vector>

namespace attn::cli {

// Runs the command with the arguments after "package". Returns the exit code (0 ok, 1 invalid input such as a
// missing site file, 2 usage error); when it is not 0, `error` holds the one-line reason.
int run_package(const std::vector<std::string>& args, std::string& error);

// The lines of `attnplay --help` that describe the command.
extern const char kPackageUsage[];

}  // namespace attn::cli
