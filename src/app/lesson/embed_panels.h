// embed_panels.h — which panels an embedded playground (?embed=1&panels=…) shows. The course page's list, except
// while a lesson step is open: the panels the step opens are shown too, and while its prediction is unanswered no
// panel that shows what the question asks (the embed's list cannot give an answer away).
#pragma once

#include <string>
#include <vector>

#include "app/exchange/embed.h"
#include "app/lesson/lesson_run.h"
#include "app/state/registry.h"

namespace attn {

struct EmbedPanels {
  std::vector<PanelId> shown;         // in the embed's order, then the step's own in registry order
  std::vector<std::string> added;     // panel keys the step opened that the embed's list lacks
  std::vector<std::string> withheld;  // panel keys of the list hidden until the prediction is answered
};

EmbedPanels embed_panels(const EmbedSettings& e, LessonView run);

}  // namespace attn
