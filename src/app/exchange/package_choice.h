// package_choice.h — which lessons and which standard the next course package takes: the Share panel's popup and its
// parallel-DOM twins show and change this one choice (share_actions.h).
#pragma once

#include <string>
#include <vector>

namespace attn {

enum class PackageKind { scorm12, scorm2004, cmi5 };
struct PackageChoice {
  std::vector<std::string> lessons;  // one package, one unit per lesson; none chosen = the open lesson, else the first
  PackageKind kind = PackageKind::scorm12;
};

}  // namespace attn
