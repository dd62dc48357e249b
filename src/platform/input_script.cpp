// input_script.cpp — see input_script.h.
#include "platform/input_script.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>

#include "app/app.h"
#include "app/state/state_json.h"

namespace attn {
namespace {

// Browser key names (Playwright's, as the exerciser sends them) → ImGui's keys; a key that also types a
// character in a browser (Space) types it here too.
struct KeyName {
  const char* name;
  ImGuiKey key;
  char typed;
};
constexpr KeyName kKeys[] = {
    {"Tab", ImGuiKey_Tab, 0},         {"ArrowLeft", ImGuiKey_LeftArrow, 0}, {"ArrowRight", ImGuiKey_RightArrow, 0},
    {"ArrowUp", ImGuiKey_UpArrow, 0}, {"ArrowDown", ImGuiKey_DownArrow, 0}, {"Enter", ImGuiKey_Enter, 0},
    {"Escape", ImGuiKey_Escape, 0},   {"Space", ImGuiKey_Space, ' '},       {"Backspace", ImGuiKey_Backspace, 0},
    {"Delete", ImGuiKey_Delete, 0},   {"Home", ImGuiKey_Home, 0},           {"End", ImGuiKey_End, 0},
    {"PageUp", ImGuiKey_PageUp, 0},   {"PageDown", ImGuiKey_PageDown, 0},   {"?", ImGuiKey_Slash, '?'},
};

ImGuiKey key_of(const std::string& name, char& typed) {
  typed = 0;
  for (const KeyName& k : kKeys)
    if (name == k.name) {
      typed = k.typed;
      return k.key;
    }
  if (name.size() == 1 && std::isalpha(static_cast<unsigned char>(name[0])))
    return static_cast<ImGuiKey>(ImGuiKey_A + (std::toupper(static_cast<unsigned char>(name[0])) - 'A'));
  if (name.size() == 1 && std::isdigit(static_cast<unsigned char>(name[0])))
    return static_cast<ImGuiKey>(ImGuiKey_0 + (name[0] - '0'));
  return ImGuiKey_None;
}

// The modifier keys named in a step, as both the physical key and ImGui's modifier flag (what the backends send).
void send_mods(ImGuiIO& io, const nlohmann::json& mods, bool down) {
  if (!mods.is_array()) return;
  for (const auto& m : mods) {
    if (!m.is_string()) continue;
    const std::string n = m.get<std::string>();
    const ImGuiKey key = n == "Shift" ? ImGuiKey_LeftShift : n == "Control" ? ImGuiKey_LeftCtrl : ImGuiKey_LeftAlt;
    const ImGuiKey mod = n == "Shift" ? ImGuiMod_Shift : n == "Control" ? ImGuiMod_Ctrl : ImGuiMod_Alt;
    if (n != "Shift" && n != "Control" && n != "Alt") continue;
    io.AddKeyEvent(key, down);
    io.AddKeyEvent(mod, down);
  }
}

float number_at(const nlohmann::json& a, size_t i) {
  return a.is_array() && a.size() > i && a[i].is_number() ? a[i].get<float>() : 0.0f;
}

// Bytes of the UTF-8 sequence that starts with `lead` (a stray continuation byte counts as one).
size_t utf8_length(unsigned char lead) {
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

}  // namespace

std::string InputScript::load(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_array()) return "an input script is a JSON array of steps";
  for (size_t i = 0; i < j.size(); ++i)
    if (!j[i].is_object()) return "step " + std::to_string(i + 1) + " is not an object";
  steps_ = std::move(j);
  return "";
}

bool InputScript::run_step(App& app, const nlohmann::json& step) {
  ImGuiIO& io = ImGui::GetIO();
  if (step.contains("frames")) {
    wait_ = std::clamp(step["frames"].is_number_integer() ? step["frames"].get<int>() : 1, 1, 600);
    return true;
  }
  if (step.contains("move")) {
    x_ = number_at(step["move"], 0), y_ = number_at(step["move"], 1);
  } else if (step.contains("item") && step["item"].is_string()) {
    const auto it = app.item_rects.find(canonical_control_id(step["item"].get<std::string>()));
    const float dx = step.contains("dx") && step["dx"].is_number() ? step["dx"].get<float>() : 0.5f;
    if (it != app.item_rects.end()) x_ = it->second.x + it->second.w * dx, y_ = it->second.y + it->second.h / 2;
  } else if (step.contains("down") || step.contains("up")) {
    io.AddMousePosEvent(x_, y_);
    io.AddMouseButtonEvent(ImGuiMouseButton_Left, step.contains("down"));
  } else if (step.contains("wheel")) {
    io.AddMousePosEvent(x_, y_);
    io.AddMouseWheelEvent(number_at(step["wheel"], 0), number_at(step["wheel"], 1));
  } else if (step.contains("key") && step["key"].is_string()) {
    char typed = 0;
    const ImGuiKey key = key_of(step["key"].get<std::string>(), typed);
    const nlohmann::json mods = step.contains("mods") ? step["mods"] : nlohmann::json::array();
    send_mods(io, mods, true);
    if (key != ImGuiKey_None) io.AddKeyEvent(key, true);
    if (typed) io.AddInputCharacter(static_cast<unsigned>(typed));
    if (key != ImGuiKey_None) io.AddKeyEvent(key, false);
    send_mods(io, mods, false);
  } else if (step.contains("text") && step["text"].is_string()) {
    pending_text_ += step["text"].get<std::string>();
    return true;
  } else if (step.contains("check_fit")) {
    // queue_frame runs before this frame is drawn: the cuts are the last drawn frame's, after the waited frames.
    const std::string where = step["check_fit"].is_string() ? step["check_fit"].get<std::string>() : "";
    for (const std::string& id : app.cut_items) cut_found_.push_back(id + " (" + where + ")");
  } else if (step.contains("state")) {
    const std::string err = apply_state_text(app.state, step["state"].dump());
    if (!err.empty()) ++refused_;
    app.update();
  }
  return false;
}

void InputScript::queue_frame(App& app) {
  ImGuiIO& io = ImGui::GetIO();
  io.AddMousePosEvent(x_, y_);
  if (app.frames < 2) return;    // as on the page, input starts once the window is laid out (items have rects)
  if (!pending_text_.empty()) {  // one character a frame, as a person types
    const size_t n = std::min(utf8_length(static_cast<unsigned char>(pending_text_[0])), pending_text_.size());
    io.AddInputCharactersUTF8(pending_text_.substr(0, n).c_str());
    pending_text_.erase(0, n);
    return;
  }
  if (wait_ > 0 && --wait_ > 0) return;
  while (next_ < steps_.size())
    if (run_step(app, steps_[next_++])) return;
}

}  // namespace attn
