// plot.cpp — axes with "nice" ticks (linear: 1/2/5×10ᵏ, log: powers of two) and clipped drawing.
#include "ui/plot.h"

#include "ui/panel.h"
#include "ui/theme.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

namespace attn::ui {
namespace {

struct Tick {
  double v;
  std::string text;
};

std::string tick_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", std::fabs(v) < 1e-12 ? 0.0 : v);
  return buf;
}

// About `target` ticks (chosen from the axis length in pixels), so small plots are not crowded.
std::vector<Tick> make_ticks(const Axis& a, int target) {
  std::vector<Tick> out;
  if (!a.ticks || !(a.hi > a.lo)) return out;
  if (a.log && a.lo > 0) {
    const double e0 = std::ceil(std::log2(a.lo) - 1e-9), e1 = std::floor(std::log2(a.hi) + 1e-9);
    const int span = static_cast<int>(e1 - e0);
    const int step = std::max(1, (span + target - 1) / target);
    for (double e = e0; e <= e1 + 1e-9; e += step) out.push_back({std::pow(2.0, e), tick_text(std::pow(2.0, e))});
    return out;
  }
  const double raw = (a.hi - a.lo) / std::max(1, target);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / mag;
  const double step = (norm < 1.5 ? 1 : norm < 3.5 ? 2 : norm < 7.5 ? 5 : 10) * mag;
  for (double v = std::ceil(a.lo / step) * step; v <= a.hi + step * 1e-6; v += step) out.push_back({v, tick_text(v)});
  return out;
}

}  // namespace

bool light_theme() {
  const ImVec4 c = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
  return 0.299f * c.x + 0.587f * c.y + 0.114f * c.z > 0.5f;
}
namespace {
// A colour of one of the current theme's palettes (theme.h), whichever theme is applied.
template <class Palette>
ImU32 theme_col(const Palette& (*palette_of)(bool dark), Rgb Palette::*which) {
  const Rgb c = palette_of(!light_theme()).*which;
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1));
}
ImU32 palette_col(Rgb ThemePalette::*which) { return theme_col(palette, which); }
ImU32 mark_col(Rgb MarkPalette::*which) { return theme_col(mark_palette, which); }
}  // namespace

ImU32 scaled_col() { return mark_col(&MarkPalette::scaled); }
ImU32 unscaled_col() { return mark_col(&MarkPalette::unscaled); }
ImU32 outline_col() { return mark_col(&MarkPalette::outline); }
ImU32 alarm_col() { return mark_col(&MarkPalette::alarm); }
ImU32 highlight_col() { return palette_col(&ThemePalette::highlight); }
ImU32 good_col() { return palette_col(&ThemePalette::good); }
ImU32 bad_col() { return palette_col(&ThemePalette::bad); }
ImU32 title_col() { return palette_col(&ThemePalette::title); }
ImU32 warn_col() { return palette_col(&ThemePalette::warn); }
ImU32 info_col() { return palette_col(&ThemePalette::info); }

std::string fmt(double v, int decimals, const char* fallback) { return format_shown(v, decimals, fallback); }

Plot::Plot(const char* id, float height, Axis x, Axis y) : dl_(ImGui::GetWindowDrawList()), x_(x), y_(y) {
  if (x_.log && x_.lo <= 0) x_.log = false;
  if (y_.log && y_.lo <= 0) y_.log = false;
  const float line = ImGui::GetTextLineHeight();
  const std::vector<Tick> yt = make_ticks(y_, y_ticks(height - line));
  float left = 0;
  for (const Tick& t : yt) left = std::max(left, ImGui::CalcTextSize(t.text.c_str()).x);
  left += 6;
  const float bottom = line + 3;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(60.0f, ImGui::GetContentRegionAvail().x);
  ImGui::InvisibleButton(id, ImVec2(width, height));
  hovered_ = ImGui::IsItemHovered();
  p0_ = ImVec2(origin.x + left, origin.y + 2);
  p1_ = ImVec2(origin.x + width - 4, origin.y + height - bottom);
  dl_->AddRectFilled(p0_, p1_, ImGui::GetColorU32(ImGuiCol_FrameBg));
  ticks();
  dl_->PushClipRect(p0_, p1_, true);
}

Plot::~Plot() {
  dl_->PopClipRect();
  dl_->AddRect(p0_, p1_, ImGui::GetColorU32(ImGuiCol_Border));
}

double Plot::tx(double x) const {
  const double a = x_.log ? std::log(x_.lo) : x_.lo, b = x_.log ? std::log(x_.hi) : x_.hi;
  const double v = x_.log ? std::log(std::max(x, 1e-300)) : x;
  return p0_.x + (v - a) / (b - a) * (p1_.x - p0_.x);
}

double Plot::ty(double y) const {
  const double a = y_.log ? std::log(y_.lo) : y_.lo, b = y_.log ? std::log(y_.hi) : y_.hi;
  const double v = y_.log ? std::log(std::max(y, 1e-300)) : y;
  return p1_.y - (v - a) / (b - a) * (p1_.y - p0_.y);
}

ImVec2 Plot::at(double x, double y) const {
  // Clamp far outside values so float screen coordinates stay sane.
  const double sx = std::clamp(tx(x), p0_.x - 1e4, p1_.x + 1e4), sy = std::clamp(ty(y), p0_.y - 1e4, p1_.y + 1e4);
  return ImVec2(static_cast<float>(sx), static_cast<float>(sy));
}

double Plot::x_of(float screen_x) const {
  const double a = x_.log ? std::log(x_.lo) : x_.lo, b = x_.log ? std::log(x_.hi) : x_.hi;
  const double v = a + (screen_x - p0_.x) / std::max(1.0f, p1_.x - p0_.x) * (b - a);
  return x_.log ? std::exp(v) : v;
}

double Plot::y_of(float screen_y) const {
  const double a = y_.log ? std::log(y_.lo) : y_.lo, b = y_.log ? std::log(y_.hi) : y_.hi;
  const double v = a + (p1_.y - screen_y) / std::max(1.0f, p1_.y - p0_.y) * (b - a);
  return y_.log ? std::exp(v) : v;
}

int Plot::y_ticks(float pixels) {
  return std::clamp(static_cast<int>(pixels / (ImGui::GetTextLineHeight() * 2.2f)), 2, 6);
}

void Plot::ticks() {
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border, 0.5f), text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const int x_target = std::clamp(static_cast<int>((p1_.x - p0_.x) / (ImGui::GetFontSize() * 4)), 2, 8);
  for (const Tick& t : make_ticks(x_, x_target)) {
    const float sx = static_cast<float>(tx(t.v));
    dl_->AddLine(ImVec2(sx, p0_.y), ImVec2(sx, p1_.y), grid);
    const float w = ImGui::CalcTextSize(t.text.c_str()).x;
    dl_->AddText(ImVec2(std::clamp(sx - w * 0.5f, p0_.x - 4, p1_.x - w + 4), p1_.y + 2), text, t.text.c_str());
  }
  for (const Tick& t : make_ticks(y_, y_ticks(p1_.y - p0_.y))) {
    const float sy = static_cast<float>(ty(t.v));
    dl_->AddLine(ImVec2(p0_.x, sy), ImVec2(p1_.x, sy), grid);
    const ImVec2 ts = ImGui::CalcTextSize(t.text.c_str());
    dl_->AddText(ImVec2(p0_.x - ts.x - 4, std::clamp(sy - ts.y * 0.5f, p0_.y - 2, p1_.y - ts.y + 2)), text,
                 t.text.c_str());
  }
}

namespace {
// The unscaled series (and Learn's model B) is drawn dashed, in its lines and its legend swatch, so the two series
// differ by more than their colour (WCAG 1.4.1).
bool dashed_series(ImU32 col) { return col == unscaled_col(); }

// A polyline in dashes of `dash` pixels with gaps as long, the pattern carried across its points.
void dashed_polyline(ImDrawList* dl, const std::vector<ImVec2>& pts, ImU32 col, float thick, float dash) {
  float into = 0;  // how far into the current dash-and-gap period the line is
  for (size_t i = 0; i + 1 < pts.size(); ++i) {
    const ImVec2 a = pts[i], b = pts[i + 1];
    const float len = std::hypot(b.x - a.x, b.y - a.y);
    for (float t = 0; t < len;) {
      const bool on = into < dash;
      const float step = std::min(len - t, (on ? dash : 2 * dash) - into);
      if (on && len > 0)
        dl->AddLine(ImVec2(a.x + (b.x - a.x) * t / len, a.y + (b.y - a.y) * t / len),
                    ImVec2(a.x + (b.x - a.x) * (t + step) / len, a.y + (b.y - a.y) * (t + step) / len), col, thick);
      t += step;
      into = std::fmod(into + step, 2 * dash);
    }
  }
}
}  // namespace

void Plot::line(const std::vector<double>& xs, const std::vector<double>& ys, ImU32 col, float thick) {
  std::vector<ImVec2> pts;
  const size_t n = std::min(xs.size(), ys.size());
  const bool dashed = dashed_series(col);
  auto flush = [&] {
    if (pts.size() >= 2 && dashed) dashed_polyline(dl_, pts, col, thick, 6.0f);
    if (pts.size() >= 2 && !dashed) dl_->AddPolyline(pts.data(), static_cast<int>(pts.size()), col, 0, thick);
    pts.clear();
  };
  for (size_t i = 0; i < n; ++i) {
    if (std::isfinite(xs[i]) && std::isfinite(ys[i]) && (!y_.log || ys[i] > 0))
      pts.push_back(at(xs[i], ys[i]));
    else
      flush();
  }
  flush();
}

void Plot::band(const std::vector<double>& xs, const std::vector<double>& lo, const std::vector<double>& hi,
                ImU32 col) {
  const size_t n = std::min(xs.size(), std::min(lo.size(), hi.size()));
  const auto ok = [&](size_t i) {
    return std::isfinite(xs[i]) && std::isfinite(lo[i]) && std::isfinite(hi[i]) && (!y_.log || lo[i] > 0);
  };
  for (size_t i = 0; i + 1 < n; ++i)
    if (ok(i) && ok(i + 1))
      dl_->AddQuadFilled(at(xs[i], lo[i]), at(xs[i], hi[i]), at(xs[i + 1], hi[i + 1]), at(xs[i + 1], lo[i + 1]), col);
}

void Plot::vline(double x, ImU32 col, float thick) {
  const float sx = static_cast<float>(tx(x));
  dl_->AddLine(ImVec2(sx, p0_.y), ImVec2(sx, p1_.y), col, thick);
}

void Plot::hline(double y, ImU32 col, float thick) {
  const float sy = static_cast<float>(ty(y));
  dl_->AddLine(ImVec2(p0_.x, sy), ImVec2(p1_.x, sy), col, thick);
}

void Plot::bar(double x0, double x1, double y, ImU32 col) {
  if (!std::isfinite(y)) return;
  const ImVec2 a = at(x0, y), b = at(x1, y_.lo);
  dl_->AddRectFilled(ImVec2(a.x, std::min(a.y, b.y)), ImVec2(std::max(b.x, a.x + 1.0f), b.y), col);
}

void Plot::dot(double x, double y, ImU32 col, float radius) {
  if (std::isfinite(x) && std::isfinite(y)) dl_->AddCircleFilled(at(x, y), radius, col);
}

void legend_row(const Legend& entries) {
  const float h = ImGui::GetTextLineHeight(), sw = h * 0.9f, gap = 12;
  float total = 0;
  for (const auto& e : entries) total += sw + 4 + ImGui::CalcTextSize(e.second.c_str()).x + gap;
  ImGui::SameLine(0, 16);
  if (ImGui::GetContentRegionAvail().x < total) ImGui::NewLine();
  for (size_t k = 0; k < entries.size(); ++k) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(sw, h));
    if (dashed_series(entries[k].first))
      dashed_polyline(ImGui::GetWindowDrawList(), {ImVec2(p.x, p.y + h * 0.5f), ImVec2(p.x + sw, p.y + h * 0.5f)},
                      entries[k].first, h * 0.3f, sw / 3);
    else
      ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + h * 0.35f), ImVec2(p.x + sw, p.y + h * 0.65f),
                                                entries[k].first);
    ImGui::SameLine(0, 4);
    ImGui::TextUnformatted(entries[k].second.c_str());
    if (k + 1 < entries.size()) ImGui::SameLine(0, gap);
  }
}

bool checkbox_wrapped(const std::string& label, bool* v) {
  const size_t id_at = label.find("##");
  const std::string text = label.substr(0, id_at);
  if (checkbox_width(label) <= ImGui::GetContentRegionAvail().x) return ImGui::Checkbox(label.c_str(), v);
  bool changed = ImGui::Checkbox(id_at == std::string::npos ? ("##" + label).c_str() : label.c_str() + id_at, v);
  ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  if (ImGui::IsItemClicked()) {  // the label toggles, as a checkbox's own label does
    *v = !*v;
    changed = true;
  }
  return changed;
}

namespace {
// The end of the next piece a line may not break inside: a word, or a short bracketed group such as
// "(1, 0)" or "[0.1, 0.2]", so a vector never splits across lines.
size_t unbreakable_end(const std::string& text, size_t p, size_t nl) {
  constexpr size_t kLongestGroup = 28;
  size_t e = text.find(' ', p);
  if (e == std::string::npos || e > nl) e = nl;
  const char closing = text[p] == '(' ? ')' : text[p] == '[' ? ']' : 0;
  if (!closing || text.find(closing, p) < e) return e;
  const size_t close = text.find(closing, p);
  if (close == std::string::npos || close >= nl || close - p > kLongestGroup) return e;
  const size_t end = text.find(' ', close);
  return end == std::string::npos || end > nl ? nl : end;
}

// What a widget label shows: the text before "##".
std::string shown_text(const std::string& label) { return label.substr(0, label.find("##")); }

// Item id → the frame it was last marked in. Few entries (one per surface ever drawn).
std::unordered_map<ImGuiID, int>& two_d_drag_surfaces() {
  static std::unordered_map<ImGuiID, int> marked;
  return marked;
}
}  // namespace

void mark_two_d_drag_surface() { two_d_drag_surfaces()[ImGui::GetItemID()] = ImGui::GetFrameCount(); }

bool is_two_d_drag_surface(ImGuiID id) {
  const auto it = two_d_drag_surfaces().find(id);
  return id != 0 && it != two_d_drag_surfaces().end() && it->second >= ImGui::GetFrameCount() - 2;
}

void same_line_if_fits(float width, float spacing) {
  const float gap = spacing >= 0 ? spacing : ImGui::GetStyle().ItemSpacing.x;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + gap + width <= right) ImGui::SameLine(0, gap);
}

float button_width(const std::string& label) {
  return ImGui::CalcTextSize(shown_text(label).c_str()).x + 2 * ImGui::GetStyle().FramePadding.x;
}

float checkbox_width(const std::string& label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
         ImGui::CalcTextSize(shown_text(label).c_str()).x;
}

bool wrapped_button(const std::string& label) {
  const std::string text = shown_text(label);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float width = std::max(ImGui::GetFrameHeight(), ImGui::GetContentRegionAvail().x);
  const float wrap = std::max(1.0f, width - 2 * style.FramePadding.x);
  const ImVec2 size = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const bool pressed = ImGui::Button(("##" + label).c_str(), ImVec2(width, size.y + 2 * style.FramePadding.y));
  // One line is centred as a button's label is; several lines start at the left.
  const float indent = size.x < wrap ? (width - size.x) / 2 : style.FramePadding.x;
  ImGui::GetWindowDrawList()->AddText(ImGui::GetFont(), ImGui::GetFontSize(),
                                      ImVec2(at.x + indent, at.y + style.FramePadding.y),
                                      ImGui::GetColorU32(ImGuiCol_Text), text.c_str(), nullptr, wrap);
  return pressed;
}

float width_beside_label(const std::string& label, float min_em) {
  const float room = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(shown_text(label).c_str()).x -
                     ImGui::GetStyle().ItemInnerSpacing.x;
  return std::max(min_em * ImGui::GetFontSize(), room);
}

std::string field_label(const std::string& label, float min_em) {
  const std::string text = shown_text(label);
  const float room =
      ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(text.c_str()).x - ImGui::GetStyle().ItemInnerSpacing.x;
  if (room >= min_em * ImGui::GetFontSize()) {
    ImGui::SetNextItemWidth(std::min(ImGui::CalcItemWidth(), room));
    return label;
  }
  text_wrapped(text);
  ImGui::SetNextItemWidth(-FLT_MIN);
  const size_t id = label.find("##");
  return id == std::string::npos ? "##" + label : label.substr(id);
}

void text_wrapped(const std::string& text, ImU32 col) {
  const float width = std::max(40.0f, ImGui::GetContentRegionAvail().x);
  const float space = ImGui::CalcTextSize(" ").x;
  if (col) ImGui::PushStyleColor(ImGuiCol_Text, col);
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    // One paragraph: greedily fill lines with whole words.
    std::string line;
    float line_w = 0;
    size_t p = start;
    while (p < nl) {
      const size_t e = unbreakable_end(text, p, nl);
      const std::string word = text.substr(p, e - p);
      const float w = ImGui::CalcTextSize(word.c_str()).x;
      if (!line.empty() && line_w + space + w > width) {
        ImGui::TextUnformatted(line.c_str());
        line.clear();
        line_w = 0;
      }
      if (!line.empty()) {
        line += ' ';
        line_w += space;
      }
      line += word;
      line_w += w;
      p = e + 1;
    }
    ImGui::TextUnformatted(line.c_str());
    start = nl + 1;
  }
  if (col) ImGui::PopStyleColor();
}

void badge(const char* text, ImU32 bg, ImU32 fg) {
  const ImVec2 ts = ImGui::CalcTextSize(text);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float pad = 5;
  // The item is exactly one text line tall so the badge never makes its line taller than its neighbours'.
  ImGui::Dummy(ImVec2(ts.x + pad * 2, ts.y));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(ImVec2(p.x, p.y - 1), ImVec2(p.x + ts.x + pad * 2, p.y + ts.y + 1), bg, 3);
  dl->AddText(ImVec2(p.x + pad, p.y), fg, text);
}

void draw_thumbnail(ImDrawList* dl, ImVec2 p0, float w, float h, const Thumbnail& t, bool probabilities) {
  // Scrolled out of the panel's view, a picture costs nothing: Learn mode's heaviest settings have 64 of 32 × 32
  // cells, about 9 ms a frame in WebAssembly when each was drawn.
  if (t.rows == 0 || t.cols == 0 || !ImGui::IsRectVisible(p0, ImVec2(p0.x + w, p0.y + h))) return;
  const float cw = w / t.cols, ch = h / t.rows, range = std::max(t.range, 1e-6f);
  for (int a = 0; a < t.rows; ++a)
    for (int b = 0; b < t.cols; ++b) {
      const float v = t.cells[static_cast<size_t>(a) * static_cast<size_t>(t.cols) + static_cast<size_t>(b)];
      const ImU32 col = !std::isfinite(v) ? IM_COL32(80, 80, 80, 255)
                        : probabilities   ? viridis_u32(v)
                                          : diverging_u32(v, range);
      dl->AddRectFilled(ImVec2(p0.x + b * cw, p0.y + a * ch), ImVec2(p0.x + (b + 1) * cw, p0.y + (a + 1) * ch), col);
    }
}

const Thumbnail& ThumbnailCache::get(uint64_t key, const Mat& M, bool probabilities) {
  if (key != key_ || thumbnail_.rows != std::min<int>(static_cast<int>(M.rows()), kSide) ||
      thumbnail_.cols != std::min<int>(static_cast<int>(M.cols()), kSide)) {
    thumbnail_ = pool_thumbnail(M, kSide, probabilities);
    key_ = key;
  }
  return thumbnail_;
}

}  // namespace attn::ui
