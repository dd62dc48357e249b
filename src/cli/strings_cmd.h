// strings_cmd.h — `attnplay strings`: check a translator's catalog against English, or make the pseudo-locale.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace attn::cli {

// Runs the command with the arguments after "strings":
//   check FILE|TAG   a catalog (data/strings/TAG.json) against English: missing and extra keys, placeholders that
//                    differ, characters the canvas's font cannot draw. Prints one line per finding and a summary.
//   pseudo           the pseudo-locale of the English catalog on stdout (accented, 40 % longer, bracketed).
// Returns 0 (no errors; missing keys are warnings, English shows for them), 1 (errors) or 2 (usage), with `error`
// holding the one-line reason when it is not 0.
int run_strings(const std::vector<std::string>& args, std::ostream& out, std::string& error);

// The lines of `attnplay --help` that describe the command.
extern const char kStringsUsage[];

}  // namespace attn::cli
