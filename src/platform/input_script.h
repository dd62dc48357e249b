// input_script.h — the desktop window driven by a script of input steps instead of a person (`attnplay gui
// --input FILE`), so the UI exerciser's sequences (tests/browser/exerciser.mjs) run against the desktop build
// under AddressSanitizer + UBSan too. The steps reach ImGui through its input queue exactly where the GLFW
// backend's own events do, one frame at a time.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace attn {
class App;

// A JSON array of steps, each an object with one of:
//   {"move": [x, y]}            pointer to window pixels
//   {"item": "d_k", "dx": 0.5}  pointer to a tracked item (App::item_rects), dx across it; absent item: no-op
//   {"down": true} {"up": true} left button
//   {"wheel": [dx, dy]}         in ImGui's wheel units (one notch = 1)
//   {"key": "Tab", "mods": ["Shift"]}  press and release (names as in the browser: ArrowLeft, Enter, Space, A, …)
//   {"text": "12.5"}            characters typed, one a frame
//   {"state": {...}}            a partial state, as setState applies it (errors are answers, not failures)
//   {"frames": n}               let n frames pass
//   {"check_fit": "where"}      note what the last drawn frame cut at its panel's edge, as "id (where)"
class InputScript {
 public:
  // "" or why the text is not such a script.
  std::string load(const std::string& text);
  // Queues this frame's events (call after the backend's NewFrame, before ImGui::NewFrame).
  void queue_frame(App& app);
  bool done() const { return next_ >= steps_.size() && wait_ == 0 && pending_text_.empty(); }
  size_t steps() const { return steps_.size(); }
  size_t states_refused() const { return refused_; }
  // What the check_fit steps found cut, in script order (`gui --check-fit` fails on it).
  const std::vector<std::string>& cut_found() const { return cut_found_; }

 private:
  bool run_step(App& app, const nlohmann::json& step);  // true: the step ends this frame's input
  nlohmann::json steps_ = nlohmann::json::array();
  size_t next_ = 0;
  int wait_ = 0;
  std::string pending_text_;  // UTF-8 not yet typed
  float x_ = -1, y_ = -1;     // where the pointer is; re-sent each frame so the window system's cursor never wins
  size_t refused_ = 0;
  std::vector<std::string> cut_found_;
};

}  // namespace attn
