// train_cmd.h — `attnplay train`: Learn mode's training run from the command line.
#pragma once

#include <string>
#include <vector>

namespace attn::cli {

// Runs the command with the arguments after "train". Returns the exit code (0 ok, 1 invalid input
// or a run that stopped, 2 usage error); when it is not 0, `error` holds the one-line reason.
int run_train(const std::vector<std::string>& args, std::string& error);

// The lines of `attnplay --help` that describe the command.
extern const char kTrainUsage[];

}  // namespace attn::cli
