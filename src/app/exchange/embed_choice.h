// embed_choice.h — the embed code a teacher is putting together in the Share panel: the panels the <iframe> shows,
// the controls it locks and hides, the host pages that may drive it, its size. The canvas's embed options and their
// parallel-DOM twins show and change this one choice; share_actions.h builds the code from it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace attn {

// The <iframe>'s size in pixels: smaller than this the panels cannot be read, larger is no page's column.
constexpr int kEmbedMinWidth = 200, kEmbedMaxWidth = 4000;
constexpr int kEmbedMinHeight = 150, kEmbedMaxHeight = 4000;
constexpr size_t kMaxEmbedOriginsText = 1023;  // the canvas's text box holds this many bytes

struct EmbedChoice {
  std::vector<std::string> panels = {"heatmap", "saturation"};  // panel ids to show (the code lists them in order)
  std::vector<std::string> locked = {"d_k"};                    // control ids, in the order they were ticked
  std::vector<std::string> hidden;
  std::string origins;  // as typed: comma-separated origins (parse_origin_list reads them)
  int width = 640, height = 400;
  std::string code;  // the code last copied; "" before the first copy and after any change of the choice
};

}  // namespace attn
