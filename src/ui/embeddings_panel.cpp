// embeddings_panel.cpp — edit token embeddings: a draggable 2-D plane of two chosen dimensions and a cell table.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/state/embedding_edit.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/tooltip.h"

namespace attn::ui {
namespace {

constexpr float kPointHalf = 4.0f;  // half the side of a point's square, in pixels
constexpr float kGrabRadius = 10.0f;

class EmbeddingsPanel : public Panel {
 public:
  void draw(PanelContext& ctx) override {
    State& s = ctx.state;
    const AppResult& r = ctx.result;
    if (s.mode != InputMode::Random) {
      text_wrapped(ctx.tr("embeddings.fixed"));
      return;
    }
    const int n = static_cast<int>(s.embeddings.rows()), d = static_cast<int>(s.embeddings.cols());
    if (n == 0 || d == 0) {
      text_wrapped(ctx.tr("embeddings.no_tokens"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
      return;
    }
    s.plane_x = std::clamp(s.plane_x, 0, d - 1);
    s.plane_y = std::clamp(s.plane_y, 0, d - 1);
    axis_combo(ctx, "embeddings.x_axis", ControlId::plane_x, s.plane_x, d);
    ImGui::SameLine();
    axis_combo(ctx, "embeddings.y_axis", ControlId::plane_y, s.plane_y, d);
    {
      // An embedding page may lock the embeddings: the plane and cells are then shown but disabled.
      LockScope lock(ctx, ControlId::embeddings);
      plane(ctx, s, r, n);
      if (!ctx.hidden(ControlId::embeddings)) {
        text_wrapped(plane_caption(ctx, s, d), ImGui::GetColorU32(ImGuiCol_TextDisabled));
        text_wrapped(ctx.tr("embeddings.drag_hint"), ImGui::GetColorU32(ImGuiCol_TextDisabled));
        table(ctx, s, r, n, d);
      }
    }
  }

 private:
  // What the plane is: the whole space (and whether q·k is the dot product seen here) or a slice.
  static std::string plane_caption(const PanelContext& ctx, const State& s, int d) {
    if (d == 2)
      return ctx.tr(s.projections == Projections::Identity ? "embeddings.plane.whole"
                                                           : "embeddings.plane.whole_projected");
    return ctx.trf(
        s.projections == Projections::Identity ? "embeddings.plane.slice_identity" : "embeddings.plane.slice",
        {{"x", dim_name(ctx, s.plane_x)}, {"y", dim_name(ctx, s.plane_y)}, {"d", std::to_string(d)}});
  }

  static std::string dim_name(const PanelContext& ctx, int dim) {
    return ctx.trf("embeddings.dim", {{"dim", learner_index(dim)}});
  }

  static void axis_combo(PanelContext& ctx, const char* name_key, ControlId control, int& dim, int d) {
    ui::Control lockable(ctx, control);  // a lesson or an embed may hold the plane still
    if (lockable.hidden()) return;
    ctx.app.item_labels[control_id(control)] = name_key;  // the parallel DOM's twin says the same name
    ImGui::TextUnformatted(ctx.tr(name_key));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 4.5f);
    const std::string cur = dim_name(ctx, dim);
    if (ImGui::BeginCombo((std::string("##") + control_id(control)).c_str(), cur.c_str())) {
      for (int c = 0; c < d; ++c)
        if (ImGui::Selectable((dim_name(ctx, c) + "###" + std::to_string(c)).c_str(), c == dim)) dim = c;
      ImGui::EndCombo();
    }
    lockable.track();
  }

  void plane(PanelContext& ctx, State& s, const AppResult& r, int n) {
    const int px = s.plane_x, py = s.plane_y;
    // The axes hold still while a point is dragged, or the point would chase its own rescaling.
    if (drag_ < 0) {
      float mx = 1.0f;
      for (int i = 0; i < n; ++i) {
        const float a = s.embeddings(i, px), b = s.embeddings(i, py);
        if (std::isfinite(a)) mx = std::max(mx, std::fabs(a));
        if (std::isfinite(b)) mx = std::max(mx, std::fabs(b));
      }
      range_ = std::ceil(mx * 1.15f * 2) / 2;
    }
    const float avail = ImGui::GetContentRegionAvail().x;
    // At most half the panel's height, so a few rows of the cell table stay in view below.
    const float height = std::clamp(std::min(avail * 0.62f, ImGui::GetContentRegionAvail().y * 0.5f), 110.0f, 260.0f);
    // Roughly equal units on both axes, so angles and lengths (what dot products see) look right.
    const double aspect = std::max(0.5, (avail - 40.0) / std::max(1.0, height - ImGui::GetTextLineHeight() - 5.0));
    Plot p("embedding plane", height, Axis{-range_ * aspect, range_ * aspect}, Axis{-range_, range_});
    ctx.track(ControlId::embeddings);
    mark_two_d_drag_surface();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    int nearest = -1;
    float best = kGrabRadius * kGrabRadius;
    for (int i = 0; i < n; ++i) {
      const ImVec2 q = p.at(s.embeddings(i, px), s.embeddings(i, py));
      const float dd = (q.x - mouse.x) * (q.x - mouse.x) + (q.y - mouse.y) * (q.y - mouse.y);
      if (dd <= best) {
        best = dd;
        nearest = i;
      }
    }
    if (ImGui::IsItemActivated() && nearest >= 0) {
      drag_ = nearest;
      s.selected_row = nearest;
    }
    if (!ImGui::IsItemActive()) drag_ = -1;
    if (drag_ >= 0 && drag_ < n) {  // edit → state; the app recomputes next frame
      const double x = p.x_of(mouse.x), y = p.y_of(mouse.y);
      // Kept inside the plane on screen; the edit itself is the one the page's twins of the points make too.
      if (std::isfinite(x) && std::isfinite(y))
        move_embedding_point(s, drag_, std::clamp(x, -range_ * aspect, range_ * aspect),
                             std::clamp(y, -static_cast<double>(range_), static_cast<double>(range_)));
    }
    p.vline(0, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    p.hline(0, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const bool labels = n <= kPointTwinsMax;  // named and tracked one by one, as their twins are
    for (int i = 0; i < n; ++i) {
      const ImVec2 q = p.at(s.embeddings(i, px), s.embeddings(i, py));
      const bool sel = i == s.selected_row;
      dl->AddRectFilled(ImVec2(q.x - kPointHalf, q.y - kPointHalf), ImVec2(q.x + kPointHalf, q.y + kPointHalf),
                        sel ? highlight_col() : scaled_col());
      if (sel) dl->AddCircle(q, kPointHalf * 2.2f, highlight_col(), 0, 2.0f);
      if (labels)
        ctx.track_rect(ControlFamily::embedding_point, std::to_string(i), q.x - kPointHalf, q.y - kPointHalf,
                       kPointHalf * 2, kPointHalf * 2);
    }
    if (labels) point_labels(s, r, p, dl, px, py, n);
    const int tip = drag_ >= 0 ? drag_ : (p.hovered() ? nearest : -1);
    if (tip >= 0 && tip < static_cast<int>(r.row_labels.size()))
      tooltip(ctx.trf("embeddings.point_tip", {{"token", r.row_labels[static_cast<size_t>(tip)]},
                                               {"index", learner_index(tip)},
                                               {"x", dim_name(ctx, px)},
                                               {"vx", fmt(s.embeddings(tip, px))},
                                               {"y", dim_name(ctx, py)},
                                               {"vy", fmt(s.embeddings(tip, py))}}));
  }

  // Token names beside their points that never pile up: the selected token first, then each beside,
  // left of, above or below its point wherever it overlaps no name already placed; a name with no
  // free place is left out (hovering the point names it).
  static void point_labels(const State& s, const AppResult& r, const Plot& p, ImDrawList* dl, int px, int py, int n) {
    std::vector<ImVec4> placed;  // x0, y0, x1, y1
    const auto free_at = [&placed](const ImVec4& b) {
      for (const ImVec4& o : placed)
        if (b.x < o.z && o.x < b.z && b.y < o.w && o.y < b.w) return false;
      return true;
    };
    const float lh = ImGui::GetTextLineHeight();
    for (int k = -1; k < n; ++k) {
      const int i = k < 0 ? s.selected_row : k;
      if ((k >= 0 && i == s.selected_row) || i < 0 || i >= n || i >= static_cast<int>(r.row_labels.size())) continue;
      const std::string& t = r.row_labels[static_cast<size_t>(i)];
      const ImVec2 q = p.at(s.embeddings(i, px), s.embeddings(i, py)), ts = ImGui::CalcTextSize(t.c_str());
      const ImVec2 spots[] = {{q.x + kPointHalf + 3, q.y - lh * 0.5f},
                              {q.x - kPointHalf - 3 - ts.x, q.y - lh * 0.5f},
                              {q.x - ts.x * 0.5f, q.y - kPointHalf - 1 - lh},
                              {q.x - ts.x * 0.5f, q.y + kPointHalf + 1}};
      for (const ImVec2& at : spots) {
        const ImVec4 box(at.x, at.y, at.x + ts.x, at.y + lh);
        if (!free_at(box)) continue;
        placed.push_back(box);
        dl->AddText(at, i == s.selected_row ? highlight_col() : ImGui::GetColorU32(ImGuiCol_Text), t.c_str());
        break;
      }
    }
  }

  static void table(PanelContext& ctx, State& s, const AppResult& r, int n, int d) {
    const float line = ImGui::GetFrameHeightWithSpacing();
    const float h = std::clamp(ImGui::GetContentRegionAvail().y, line * 4, line * (std::min(n, 12) + 1.5f));
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("cells", d + 1, flags, ImVec2(0, h))) return;
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn(ctx.tr("embeddings.token"), ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 4.5f);
    for (int c = 0; c < d; ++c)
      ImGui::TableSetupColumn(dim_name(ctx, c).c_str(), ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 4.2f);
    ImGui::TableHeadersRow();
    // Only the rows on screen get widgets: 1024 tokens × d_model cells would be far too many.
    ImGuiListClipper clipper;
    clipper.Begin(n);
    while (clipper.Step()) {
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const std::string tok = i < static_cast<int>(r.row_labels.size()) ? r.row_labels[static_cast<size_t>(i)] : "";
        if (ImGui::Selectable((tok + "##row" + std::to_string(i)).c_str(), i == s.selected_row)) s.selected_row = i;
        for (int c = 0; c < d; ++c) {
          ImGui::TableNextColumn();
          ImGui::SetNextItemWidth(-FLT_MIN);
          const std::string id = "##e_" + std::to_string(i) + "_" + std::to_string(c);
          ImGui::DragFloat(id.c_str(), &s.embeddings(i, c), 0.01f, -100.0f, 100.0f, "%.3f");
          ctx.track(ControlFamily::embedding_cell, std::to_string(i) + "," + std::to_string(c));
        }
      }
    }
    ImGui::EndTable();
  }

  int drag_ = -1;       // token being dragged in the plane
  float range_ = 3.0f;  // half-height of the plane in embedding units
};

}  // namespace

std::unique_ptr<Panel> make_embeddings_panel() { return std::make_unique<EmbeddingsPanel>(); }

}  // namespace attn::ui
