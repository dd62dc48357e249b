// shell.cpp — [SECTION] fonts · [SECTION] theme · [SECTION] layout · [SECTION] frame
#include "ui/shell.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "app/base/glyph_ranges.h"
#include "app/exchange/embed.h"
#include "app/kept_view.h"
#include "app/lesson/embed_panels.h"
#include "app/lesson/lesson_run.h"
#include "app/start_view.h"
#include "app/state/tiling.h"
#include "render/assets.h"
#include "ui/axis_labels.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/theme.h"
#include "ui/tooltip.h"

namespace attn::ui {

Shell::Shell(App& app) : app_(app) {
#define ATTN_PANEL_MAKE(id, open, lock, column, weight, shows) \
  panels_[static_cast<size_t>(PanelId::id)] = make_##id##_panel();
  ATTN_PANELS(ATTN_PANEL_MAKE)
#undef ATTN_PANEL_MAKE
}

Shell::~Shell() = default;

// [SECTION] fonts ------------------------------------------------------------------------------
void Shell::init(float pixel_ratio) {
  pixel_ratio_ = pixel_ratio > 0 ? pixel_ratio : 1;
  ImGuiIO& io = ImGui::GetIO();
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  const Asset font = find_asset("ui_font.ttf");
  // The font is compiled in (cmake/AttnplayEmbed.cmake); the page's ImGui is built without its own default font.
  IM_ASSERT(font.data && "ui_font.ttf is compiled in");
  {
    static ImVector<ImWchar> ranges;  // must outlive the atlas build
    ImFontGlyphRangesBuilder b;
    b.AddRanges(io.Fonts->GetGlyphRangesDefault());
    for (const GlyphRange& r : kUiGlyphRanges) {  // the ranges the font was subset to
      const ImWchar pair[] = {static_cast<ImWchar>(r.first), static_cast<ImWchar>(r.last), 0};
      b.AddRanges(pair);
    }
    b.BuildRanges(&ranges);
    ImFontConfig cfg;
    cfg.FontDataOwnedByAtlas = false;  // the bytes are static, compiled into the binary
    std::strncpy(cfg.Name, "DejaVu Sans", sizeof cfg.Name - 1);
    // Rasterise at device resolution, draw at logical size: crisp on high-DPI screens.
    io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(font.data), static_cast<int>(font.size),
                                   15.0f * pixel_ratio_, &cfg, ranges.Data);
  }
  apply_theme();
}

// [SECTION] theme ------------------------------------------------------------------------------
void Shell::apply_theme() {
  if (theme_set_ && dark_applied_ == app_.state.dark_theme) return;
  dark_applied_ = app_.state.dark_theme;
  theme_set_ = true;
  ImGuiStyle& st = ImGui::GetStyle();
  if (dark_applied_)
    ImGui::StyleColorsDark(&st);
  else
    ImGui::StyleColorsLight(&st);
  const ThemePalette& p = palette(dark_applied_);
  const auto col = [](Rgb c, float a = 1.0f) { return ImVec4(c.r, c.g, c.b, a); };
  st.Colors[ImGuiCol_WindowBg] = col(p.window_bg);
  st.Colors[ImGuiCol_PopupBg] = col(p.window_bg);
  st.Colors[ImGuiCol_Text] = col(p.text);
  st.Colors[ImGuiCol_TextDisabled] = col(p.text_disabled);
  const ControlPalette& c = control_palette(dark_applied_);
  st.Colors[ImGuiCol_FrameBg] = col(c.frame_bg);
  st.Colors[ImGuiCol_Border] = col(c.frame_border);
  st.Colors[ImGuiCol_CheckMark] = col(c.mark);
  st.Colors[ImGuiCol_SliderGrab] = col(c.mark);
  st.FrameBorderSize = 1;
  st.WindowRounding = 4;
  st.FrameRounding = 3;
  st.GrabMinSize = 12;
}

// [SECTION] panels -----------------------------------------------------------------------------
// One Begin/End for every panel: the window is named "<title>###<id>", so its identity (and
// ImGui's saved state) stays the same in every language, and placed by the tiling when `tile` is set.
void Shell::draw_panel(PanelContext& ctx, PanelId id, const Tile* tile, bool closable) {
  Panel& p = *panels_[static_cast<size_t>(id)];
  const PanelInfo& info = panel_info(id);
  if (tile) {
    ImGui::SetNextWindowPos(ImVec2(tile->x, tile->y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(tile->w, tile->h), ImGuiCond_Always);
  } else {
    p.before_begin(ctx);
  }
  const std::string name = std::string(ctx.tr((std::string("panel.") + info.key).c_str())) + "###" + info.key;
  bool* open = closable ? &app_.state.panels[id] : nullptr;
  int flags = p.window_flags();
  // Panels are opaque: nothing underneath shows through. A tile has nothing underneath, and the frame's clear is
  // its background (platform/frame.cpp); a floating panel draws its own.
  if (tile)
    flags |= ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
             ImGuiWindowFlags_NoBackground;
  else
    ImGui::SetNextWindowBgAlpha(1.0f);
  if (ImGui::Begin(name.c_str(), open, flags)) {
    follow_kept_scroll(info.key, static_cast<size_t>(id));
    draw_panel_body(ctx, id);
  }
  ImGui::End();
}

// Inside a panel's (or the phone column's) window: after progress was loaded, scrolls to where the learner
// had left it once its content is measured (a few frames at most); otherwise keeps where it is now.
void Shell::follow_kept_scroll(const char* key, size_t slot) {
  ScrollFollow& f = scroll_follow_[slot];
  if (f.loads != app_.progress_loads) {
    const float y = kept_scroll(app_, key);
    if (y <= 0 || ImGui::GetScrollMaxY() >= y || ++f.tries > 30) {
      if (y > 0) ImGui::SetScrollY(std::min(y, ImGui::GetScrollMaxY()));
      f = ScrollFollow{app_.progress_loads, 0};
    }
    return;
  }
  keep_scroll(app_, key, ImGui::GetScrollY());
}

namespace {
// The control whose lock disables the whole panel, read from each registry line once (not per frame).
const ControlId* whole_panel_lock(PanelId id) {
  static const std::array<std::optional<ControlId>, kPanelCount> locks = [] {
    std::array<std::optional<ControlId>, kPanelCount> out{};
    for (const PanelInfo& p : panel_table()) {
      ControlId c{};
      if (find_control_id(p.lock, c)) out[static_cast<size_t>(p.id)] = c;
    }
    return out;
  }();
  const std::optional<ControlId>& lock = locks[static_cast<size_t>(id)];
  return lock ? &*lock : nullptr;
}
}  // namespace

// Inside a panel's window (or a stacked child on a phone): the panel, its whole-panel lock, its
// rectangle for attnplay.ui.itemRect("panel:<id>") and the lesson's outline.
void Shell::draw_panel_body(PanelContext& ctx, PanelId id) {
  const PanelInfo& info = panel_info(id);
  const ControlId* lock = whole_panel_lock(id);
  const bool disable_all = lock && ctx.locked(*lock);
  if (disable_all) ImGui::BeginDisabled();
  ctx.panel = info.key;
  panels_[static_cast<size_t>(id)]->draw(ctx);
  ctx.panel = "";
  if (disable_all) ImGui::EndDisabled();
  const ImVec2 a = ImGui::GetWindowPos(), sz = ImGui::GetWindowSize();
  ctx.track_rect(ControlFamily::panel, info.key, a.x, a.y, sz.x, sz.y);
  const LessonStep* step = open_step(app_);
  if (step && step->highlight == info.key)  // the lesson points here: an outline the learner can't miss
    ImGui::GetForegroundDrawList()->AddRect(ImVec2(a.x + 1, a.y + 1), ImVec2(a.x + sz.x - 1, a.y + sz.y - 1),
                                            outline_col(), 4, 0, 3);
}

namespace {
// Frames about 40 CSS px tall on a phone, whatever the text size.
float touch_frame_pad() { return std::max(4.0f, (40.0f - ImGui::GetFontSize()) * 0.5f); }
}  // namespace

// Phones (narrower than kNarrowWidth): one scrolling column, each panel a collapsible section at full
// width, in the tiling's order; the column scrolls with the wheel or a two-finger drag.
void Shell::draw_stacked(PanelContext& ctx, const std::vector<PanelId>& ids, float top, float bottom) {
  const ImVec2 ds = ImGui::GetIO().DisplaySize;
  // Touch targets of about 40 CSS px: taller frames, more space between rows, wider grabs.
  const float pad = touch_frame_pad();
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(10, pad));
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(10, 8));
  ImGui::PushStyleVar(ImGuiStyleVar_GrabMinSize, 28.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_ScrollbarSize, 18.0f);
  ImGui::SetNextWindowPos(ImVec2(0, top), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(ds.x, bottom - top), ImGuiCond_Always);
  // Nothing lies under the column: the frame's clear is its background (platform/frame.cpp).
  const int flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                    ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoBringToFrontOnFocus |
                    ImGuiWindowFlags_NoBackground;
  // A new lesson step brings the panel it is about to the top of the column, above the lesson sheet; so does
  // opening a panel from the View menu (it is added below the fold).
  const LessonStep* step = open_step(app_);
  if (step) {
    const std::string step_key = app_.state.lesson.id + "#" + std::to_string(app_.state.lesson.step);
    if (step_key != scrolled_to_step_) {
      scrolled_to_step_ = step_key;
      scroll_target_ = step->highlight;
      for (const std::string& p : step->panels)
        if (scroll_target_.empty() && p != "lesson" && p != "controls") scroll_target_ = p;
      if (scroll_target_.empty() && !step->panels.empty()) scroll_target_ = step->panels.front();
      scroll_frames_left_ = 4;
    }
  }
  if (!scroll_to_panel_.empty()) {
    scroll_target_ = scroll_to_panel_;
    scroll_to_panel_.clear();
    scroll_frames_left_ = 4;
  }
  if (ImGui::Begin("###stack", nullptr, flags)) {
    follow_kept_scroll("stack", kPanelCount);
    const float panel_h = std::floor((bottom - top) * kStackedHeightShare);
    for (PanelId id : ids) {
      const PanelInfo& info = panel_info(id);
      ImGui::SetNextItemOpen(true, ImGuiCond_Once);
      const std::string title = std::string(ctx.tr((std::string("panel.") + info.key).c_str())) + "###hdr-" + info.key;
      const bool bring_to_top = scroll_frames_left_ > 0 && scroll_target_ == info.key;
      if (bring_to_top) ImGui::SetNextItemOpen(true, ImGuiCond_Always);
      const bool open = ImGui::CollapsingHeader(title.c_str());
      if (bring_to_top) {
        ImGui::SetScrollHereY(0.0f);  // the line just drawn: this panel's header
        --scroll_frames_left_;
      }
      ctx.track(ControlFamily::panel_header, info.key);
      if (!open) continue;
      // The panel's own sideways scrolling (a heatmap wider than the phone) holds in the column too.
      const int child_flags = panels_[static_cast<size_t>(id)]->window_flags() & ImGuiWindowFlags_HorizontalScrollbar;
      if (ImGui::BeginChild(info.key, ImVec2(0, panel_h), true, child_flags)) draw_panel_body(ctx, id);
      ImGui::EndChild();
    }
    // Room below the last panel, so that even the last one can be brought to the top.
    ImGui::Dummy(ImVec2(1, std::max(0.0f, bottom - top - panel_h - ImGui::GetFrameHeightWithSpacing())));
  }
  ImGui::End();
  ImGui::PopStyleVar(4);
}

// Phones: with a lesson open, the lesson is a sheet docked at the bottom and the other panels scroll above it,
// so "drag d_k until…" and the d_k slider are on screen together.
void Shell::stack_with_lesson_sheet(PanelContext& ctx, std::vector<PanelId> ids, float top) {
  const ImVec2 ds = ImGui::GetIO().DisplaySize;
  const auto lesson = std::find(ids.begin(), ids.end(), PanelId::lesson);
  if (app_.state.lesson.id.empty() || lesson == ids.end()) {
    draw_stacked(ctx, ids, top, ds.y);
    return;
  }
  ids.erase(lesson);
  const float sheet_top = draw_lesson_sheet(ctx, top);
  draw_stacked(ctx, ids, top, sheet_top);
}

// The sheet: a bar with the lesson's title that folds it away or opens it again, and the lesson below.
// Returns where it begins.
float Shell::draw_lesson_sheet(PanelContext& ctx, float top) {
  const ImVec2 ds = ImGui::GetIO().DisplaySize;
  const float pad = touch_frame_pad();
  const float bar_h = ImGui::GetFontSize() + 2 * pad + 2 * ImGui::GetStyle().WindowPadding.y;
  const LessonStep* step = open_step(app_);
  const float share = step && step->task.kind == Task::Kind::Predict ? kLessonSheetQuestionShare : kLessonSheetShare;
  const float room = ds.y - top, line = ImGui::GetTextLineHeightWithSpacing();
  const float readable = std::min(bar_h + kLessonSheetMinLines * line,
                                  room - bar_h - ImGui::GetStyle().ItemSpacing.y);  // a header as tall as the bar
  const float h = lesson_sheet_folded_ ? bar_h : std::max({bar_h, std::floor(room * share), std::floor(readable)});
  const float y = ds.y - h;
  ImGui::SetNextWindowPos(ImVec2(0, y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(ds.x, h), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(1.0f);
  const int flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                    ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoScrollbar;
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(10, pad));
  if (ImGui::Begin("###lesson-sheet", nullptr, flags)) {
    // The lesson's title is the first line below; the bar only says what it is and which way it folds.
    const std::string title = std::string(lesson_sheet_folded_ ? "\xe2\x96\xb2 " : "\xe2\x96\xbc ") +  // ▲ / ▼
                              ctx.tr("panel.lesson") + "###sheet-toggle";
    if (ImGui::Button(title.c_str(), ImVec2(-FLT_MIN, 0))) lesson_sheet_folded_ = !lesson_sheet_folded_;
    ctx.track(ControlId::lesson_sheet);
    if (ImGui::IsItemHovered()) tooltip(ctx.tr(lesson_sheet_folded_ ? "lesson.ui.sheet_open" : "lesson.ui.sheet_fold"));
    if (!lesson_sheet_folded_ &&
        ImGui::BeginChild("###lesson-sheet-body", ImVec2(0, 0), ImGuiChildFlags_AlwaysUseWindowPadding)) {
      follow_kept_scroll(panel_info(PanelId::lesson).key, static_cast<size_t>(PanelId::lesson));
      draw_panel_body(ctx, PanelId::lesson);
    }
    if (!lesson_sheet_folded_) ImGui::EndChild();
  }
  ImGui::End();
  ImGui::PopStyleVar();
  return y;
}

// The open panels that tile, in registry order (floating ones such as Share draw over them).
std::vector<PanelId> Shell::tiled_panels() const {
  std::vector<PanelId> out;
  for (const PanelInfo& info : panel_table())
    if (app_.state.panels[info.id] && !panels_[static_cast<size_t>(info.id)]->floating()) out.push_back(info.id);
  return out;
}

// [SECTION] embed mode -------------------------------------------------------------------------
// An <iframe> on a course page: no menu bar, no scrollbars, no close buttons; the listed panels tile
// whatever size the frame has. Locked controls are drawn disabled and any change to them is undone.
void Shell::draw_embedded(PanelContext& ctx) {
  const EmbedSettings& e = app_.embed;
  // The page's list, with a lesson step's own panels winning (embed_panels.h); no list: the state's panels.
  const std::vector<PanelId> shown = e.panels.empty() ? tiled_panels() : embed_panels(e, app_).shown;
  const ImVec2 ds = ImGui::GetIO().DisplaySize;
  const bool any_lock = !e.locked.empty() || !e.hidden.empty();
  State before;
  if (any_lock) before = app_.state;
  ImGui::PushStyleVar(ImGuiStyleVar_ScrollbarSize, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  const float font = ImGui::GetFontSize();
  if (stacks_panels(ds.x, font)) {
    draw_stacked(ctx, shown, 0, ds.y);
  } else {
    for (const Tile& t : tile_panels(shown, 0, 0, ds.x, ds.y, min_column_width(font))) {
      ImGui::SetNextWindowCollapsed(false, ImGuiCond_Always);
      draw_panel(ctx, t.id, &t, /*closable=*/false);  // the embedding page decides what shows
    }
  }
  ImGui::PopStyleVar(2);
  if (app_.frames == 1 && !shown.empty())  // keyboard focus in the first panel, as on the full page
    ImGui::SetWindowFocus((std::string("###") + panel_info(shown.front()).key).c_str());
  if (any_lock) revert_locked(app_.state, before, e);
  if (!app_.status.empty()) {  // no menu bar to show it in: a strip along the bottom edge
    const float wrap = std::max(100.0f, ds.x - 24);
    const ImVec2 ts = ImGui::CalcTextSize(app_.status.c_str(), nullptr, false, wrap);
    ImDrawList* fg = ImGui::GetForegroundDrawList();
    fg->AddRectFilled(ImVec2(4, ds.y - ts.y - 14), ImVec2(ts.x + 18, ds.y - 4), IM_COL32(70, 40, 20, 235), 4);
    fg->AddText(nullptr, 0, ImVec2(11, ds.y - ts.y - 9), IM_COL32(255, 205, 130, 255), app_.status.c_str(), nullptr,
                wrap);
    const ImVec2 m = ImGui::GetIO().MousePos;
    if (ImGui::IsMouseClicked(0) && m.x >= 4 && m.x <= ts.x + 18 && m.y >= ds.y - ts.y - 14)
      app_.status.clear();  // dismiss
  }
}

// [SECTION] menu bar ---------------------------------------------------------------------------
// Fingers need rows of at least 44 CSS px (Apple's and Google's guidance); a mouse does with the usual ones.
struct TouchRows {
  explicit TouchRows(bool touch) : on_(touch) {
    if (on_) ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(12, std::max(8.0f, 44.0f - ImGui::GetFontSize())));
  }
  ~TouchRows() {
    if (on_) ImGui::PopStyleVar();
  }
  TouchRows(const TouchRows&) = delete;
  TouchRows& operator=(const TouchRows&) = delete;
  bool on_;
};

namespace {
// Alt (pressed and released) on a panel enters ImGui's menu layer of that panel, which without a menu bar of its own is
// the panel's title bar: Enter there collapsed or closed it, and with it the panel's parallel-DOM twins. A keyboard
// user pressing Alt means the application's menus, as in a desktop application: the main menu bar takes the focus
// (Enter opens View, the arrows move along the menus, Escape or Alt goes back). Tab or Shift-Tab in the bar goes back
// to the panel it came from, so the keyboard is never held in the bar.
ImGuiWindow* g_menu_return = nullptr;  // the panel Alt left, until the bar is left again

void route_keys_to_menu_bar() {
  ImGuiContext& g = *GImGui;
  ImGuiWindow* bar = ImGui::FindWindowByName("##MainMenuBar");
  ImGuiWindow* nav = g.NavWindow;
  if (!nav || !bar || !bar->WasActive) return;
  const bool in_bar = nav->RootWindow == bar && g.NavLayer == ImGuiNavLayer_Menu;
  if (in_bar && g.OpenPopupStack.Size == 0 && ImGui::IsKeyPressed(ImGuiKey_Tab)) {
    ImGui::NavMoveRequestCancel();
    if (g_menu_return && g_menu_return->WasActive)
      ImGui::FocusWindow(g_menu_return, ImGuiFocusRequestFlags_RestoreFocusedChild);
    else
      ImGui::FocusTopMostWindowUnderOne(bar, nullptr, nullptr, ImGuiFocusRequestFlags_RestoreFocusedChild);
    g_menu_return = nullptr;
    if (g.NavWindow && g.NavId == 0)
      ImGui::NavInitWindow(g.NavWindow, false);  // a panel never moved in: its first control
    return;
  }
  if (g.NavLayer != ImGuiNavLayer_Menu || nav->RootWindow == bar) return;
  if (nav->RootWindow->Flags & (ImGuiWindowFlags_Popup | ImGuiWindowFlags_ChildMenu | ImGuiWindowFlags_MenuBar)) return;
  g_menu_return = nav->RootWindow;
  ImGui::FocusWindow(bar);
  g.NavLayer = ImGuiNavLayer_Menu;
  bar->NavLastIds[ImGuiNavLayer_Menu] = 0;
  ImGui::NavInitWindow(bar, true);
}
}  // namespace

float Shell::draw_menu_bar(PanelContext& ctx) {
  route_keys_to_menu_bar();
  float top = 0;
  // Decided by the device, not by the last pointer: the layout must not jump under the first finger.
  const bool touch = app_.touch_screen || stacks_panels(ImGui::GetIO().DisplaySize.x, ImGui::GetFontSize());
  if (touch)
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(10, std::max(4.0f, (44.0f - ImGui::GetFontSize()) / 2)));
  const bool bar = ImGui::BeginMainMenuBar();
  if (touch) ImGui::PopStyleVar();
  if (!bar) return top;
  const TouchRows rows(touch);  // the menus' titles, as tall as the bar, and the rows of the menus they open
  if (ImGui::BeginMenu((std::string(ctx.tr("menu.view")) + "###view").c_str())) {
    for (const PanelInfo& info : panel_table()) {
      const bool was_open = app_.state.panels[info.id];
      if (ImGui::MenuItem(ctx.tr((std::string("panel.") + info.key).c_str()), nullptr, &app_.state.panels[info.id]) &&
          !was_open)
        scroll_to_panel_ = info.key;  // on a phone it opens below the fold: the column brings it into view
      ctx.track(ControlFamily::menu_view_item, info.key);
    }
    ImGui::Separator();
    ImGui::TextDisabled("%s", ctx.tr("menu.workspace"));
    // Own ids: a workspace named like a panel ("Numerics") would share the panel item's id, and the keyboard's
    // ArrowDown, resuming from the later of two items with one id, skipped every item between them.
    for (const Workspace& w : workspaces())
      if (ImGui::MenuItem(
              (std::string(ctx.tr((std::string("workspace.") + w.key).c_str())) + "###workspace-" + w.key).c_str()))
        apply_workspace(app_.state.panels, w);
    if (share_in_view_menu_) {
      ImGui::Separator();
      if (ImGui::MenuItem((std::string(ctx.tr("menu.share")) + "###share").c_str())) app_.state.panels.share = true;
      ctx.track(ControlId::menu_share);
    }
    ImGui::EndMenu();
  }
  ctx.track(ControlId::menu_view);
  if (ImGui::BeginMenu((std::string(ctx.tr("menu.lessons")) + "###lessons").c_str())) {
    // On a phone a long title would run off the screen: it ends in "…" there, and a long press shows all of it.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float room = ImGui::GetMainViewport()->WorkSize.x - 2 * style.WindowPadding.x - 1.5f * ImGui::GetFontSize();
    for (const LessonEntry& l : builtin_lesson_entries()) {
      const std::string title = ctx.tr(l.title.c_str()), shown = fit_label(title, room);
      if (ImGui::MenuItem(shown.c_str(), nullptr, app_.state.lesson.id == l.id)) start_lesson(app_, l.id, 1);
      ctx.track(ControlFamily::menu_lessons_item, l.id);
      if (shown != title && ImGui::IsItemHovered(ImGuiHoveredFlags_DelayNormal)) tooltip(title);
    }
    if (!app_.state.lesson.id.empty()) {
      ImGui::Separator();
      if (ImGui::MenuItem(ctx.tr("lesson.ui.free_play"))) leave_lesson(app_);
    }
    ImGui::EndMenu();
  }
  ctx.track(ControlId::menu_lessons);
  if (ImGui::BeginMenu((std::string(ctx.tr("menu.language")) + "###language").c_str())) {
    for (Lang l : languages()) {
      if (ImGui::MenuItem((language_name(l) + "##" + lang_code(l)).c_str(), nullptr, app_.state.lang == l))
        app_.state.lang = l;
      ctx.track(ControlFamily::menu_language_item, lang_code(l));  // "menu:language:hi-Latn"
    }
    ImGui::EndMenu();
  }
  ctx.track(ControlId::menu_language);
  const std::string share = std::string(ctx.tr("menu.share")) + "###share";
  share_in_view_menu_ = ImGui::GetContentRegionAvail().x < button_width(share) + ImGui::GetStyle().ItemSpacing.x;
  if (!share_in_view_menu_) {
    if (ImGui::MenuItem(share.c_str())) app_.state.panels.share = true;  // links, embed code, export, import
    ctx.track(ControlId::menu_share);
  }
  // The title is decoration: cut to what is left of the bar ("…"), so large text never runs off it.
  ImGui::TextDisabled("%s", fit_label(ctx.tr("menu.title"), ImGui::GetContentRegionAvail().x - 4).c_str());
  if (app_.result.pending >= 0) {  // a long recomputation running across frames
    ImGui::SameLine();
    ImGui::TextColored(
        ImGui::ColorConvertU32ToFloat4(info_col()), "%s",
        ctx.trf("menu.computing", {{"percent", std::to_string(static_cast<int>(app_.result.pending * 100))}}).c_str());
  }
  if (!app_.status.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(warn_col()), "%s", app_.status.c_str());
  }
  top = ImGui::GetWindowSize().y;
  ImGui::EndMainMenuBar();
  return top;
}

// [SECTION] frame ------------------------------------------------------------------------------
void Shell::draw() {
  begin_tooltips(app_);
  draw_frame();
  end_tooltips();
}

void Shell::draw_frame() {
  ImGuiIO& io = ImGui::GetIO();
  io.FontGlobalScale = app_.state.text_scale / pixel_ratio_;
  apply_theme();
  app_.item_rects.clear();
  app_.item_panels.clear();
  app_.cut_items.clear();
  app_.focused_item.clear();
  PanelContext ctx(app_);
  // The state changed since the widgets last drew, not through them (the API, a host page's message, a
  // lesson step, a preset): an active widget would write its own old value back this frame, so it lets go.
  if (app_.state_stamp() != drawn_stamp_ && ImGui::GetActiveID() != 0) {
    ImGui::ClearActiveID();
    ctx.outside_change = true;
  }

  if (app_.embed.enabled) {
    draw_embedded(ctx);
    ++app_.frames;
    drawn_stamp_ = app_.state_stamp();
    return;
  }
  // "?" opens the list of keys (unless the learner is typing into a field).
  if (!io.WantTextInput)
    for (int i = 0; i < io.InputQueueCharacters.Size; ++i)
      if (io.InputQueueCharacters[i] == '?') app_.state.panels.help = !app_.state.panels.help;
  const float top = draw_menu_bar(ctx);
  if (start_view_shown(app_)) {  // a first visit: the start view alone says what this is and where to begin
    draw_start_view(ctx, top);
    ++app_.frames;
    drawn_stamp_ = app_.state_stamp();
    return;
  }
  const ImVec2 ds = io.DisplaySize;
  // A lesson step's locked controls: whatever the learner changed in them this frame is put back
  // (unless the frame moved to another step, which sets its own state).
  const bool lesson_locked = !app_.lesson_locks.empty();
  const bool revealed_before = app_.step_progress.revealed;
  State before;
  if (lesson_locked) before = app_.state;
  // Every open panel takes a tile of the window; opening one from the View menu retiles, so no
  // panel ever floats over another (the Share dialog excepted).
  const float font = ImGui::GetFontSize();
  if (stacks_panels(ds.x, font))
    stack_with_lesson_sheet(ctx, tiled_panels(), top);
  else
    for (const Tile& t :
         tile_panels(tiled_panels(), 0, top, ds.x, ds.y - top, min_column_width(font), !app_.state.lesson.id.empty()))
      draw_panel(ctx, t.id, &t, true);
  // Keyboard learners start in the Controls panel: Tab walks its controls, arrows change them.
  if (app_.frames == 1) ImGui::SetWindowFocus("###controls");
  for (const PanelInfo& info : panel_table())
    if (app_.state.panels[info.id] && panels_[static_cast<size_t>(info.id)]->floating())
      draw_panel(ctx, info.id, nullptr, true);
  // A right answer's reveal (the lesson's own change, made by the answer button this frame) stands.
  const bool revealed_now = app_.step_progress.revealed && !revealed_before;
  if (lesson_locked && app_.state.lesson == before.lesson && !revealed_now)
    for (const std::string& id : app_.lesson_locks)
      if (const ControlInfo* c = find_control(id)) c->undo(app_.state, before);
  ++app_.frames;
  drawn_stamp_ = app_.state_stamp();
}

}  // namespace attn::ui
