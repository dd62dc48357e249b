// share_actions.cpp — the Share panel's actions for its canvas buttons and their parallel-DOM twins (share_actions.h).
#include "app/share_actions.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>

#include "app/app.h"
#include "app/app_exchange.h"
#include "app/base/colormap.h"
#include "app/base/strings.h"
#include "app/content/lesson_file.h"
#include "app/exchange/embed.h"
#include "app/exchange/share.h"
#include "app/exchange/svg_export.h"
#include "app/lesson/lesson_run.h"
#include "app/state/presets.h"
#include "app/state/state_json.h"

namespace attn {
namespace {
using nlohmann::json;

struct Png {
  int w = 0, h = 0;
  std::vector<uint8_t> rgba;
};
// The first head's weights in the heatmap's colours: square cells of up to 48 px (the image at most about 512 px a
// side), masked cells hatched grey.
Png heatmap_png(const App& app) {
  const HeadResult& head = app.result.core.first_head();
  const int n = static_cast<int>(head.weights.rows()), m = static_cast<int>(head.weights.cols());
  const int cell = std::clamp(512 / std::max(1, std::max(n, m)), 1, 48);
  Png png{m * cell, n * cell, {}};
  png.rgba.resize(static_cast<size_t>(png.w) * png.h * 4);
  for (int y = 0; y < png.h; ++y)
    for (int x = 0; x < png.w; ++x) {
      const int i = y / cell, j = x / cell;
      const float grey = ((x + y) / 4) % 2 ? 0x50 / 255.0f : 0x30 / 255.0f;
      const Rgb c = is_masked_logit(head.logits(i, j)) ? Rgb{grey, grey, grey} : viridis(head.weights(i, j));
      uint8_t* px = &png.rgba[(static_cast<size_t>(y) * png.w + x) * 4];
      px[0] = colour_byte(c.r);
      px[1] = colour_byte(c.g);
      px[2] = colour_byte(c.b);
      px[3] = 0xFF;
    }
  return png;
}

struct ExportFile {
  const char* name;
  const char* mime;
  std::function<std::string(const App&)> bytes = nullptr;  // a file's bytes; or
  std::function<Png(const App&)> png = nullptr;            // an image the host encodes; neither: the canvas's pixels
};
ShareExport svg_export(const char* name, const char* label) {
  return {control_id(ControlFamily::share_svg, name), label, ControlId::share_png_canvas, name};
}
// The files by control id, in the panel's order.
const std::vector<std::pair<ShareExport, ExportFile>>& export_table() {
  static const std::vector<std::pair<ShareExport, ExportFile>> table = {
      {{control_id(ControlId::share_png_canvas), "share.png_canvas", ControlId::share_png_canvas, nullptr},
       {"attnplay-canvas.png", "image/png", nullptr}},
      {{control_id(ControlId::share_png_heatmap), "share.png_heatmap", ControlId::share_png_heatmap, nullptr},
       {"attnplay-heatmap.png", "image/png", nullptr, heatmap_png}},
      {svg_export("attnplay-heatmap.svg", "share.svg_heatmap"),
       {"attnplay-heatmap.svg", "image/svg+xml", [](const App& a) { return heatmap_svg(a); }}},
      {svg_export("attnplay-saturation.svg", "share.svg_saturation"),
       {"attnplay-saturation.svg", "image/svg+xml", [](const App& a) { return saturation_svg(a); }}},
      {svg_export("attnplay-variance.svg", "share.svg_variance"),
       {"attnplay-variance.svg", "image/svg+xml", [](const App& a) { return variance_svg(a); }}},
      {{control_id(ControlId::share_csv), "share.csv", ControlId::share_csv, nullptr},
       {"attnplay-result.csv", "text/csv", [](const App& a) { return result_csv(a.result); }}},
      {{control_id(ControlId::share_result_json), "share.result_json", ControlId::share_result_json, nullptr},
       {"attnplay-result.json", "application/json", [](const App& a) { return result_json_text(a); }}},
      {{control_id(ControlId::share_state_json), "share.state_json", ControlId::share_state_json, nullptr},
       {"attnplay-state.json", "application/json",
        [](const App& a) {
          return state_to_json(a.state).dump(1, ' ', false, json::error_handler_t::replace) + "\n";
        }}},
  };
  return table;
}
const ExportFile* export_file(const std::string& control) {
  for (const auto& [e, f] : export_table())
    if (e.control == control) return &f;
  return nullptr;
}
}  // namespace

const std::vector<ShareExport>& share_exports() {
  static const std::vector<ShareExport> list = [] {
    std::vector<ShareExport> v;
    for (const auto& [e, f] : export_table()) v.push_back(e);
    return v;
  }();
  return list;
}

bool share_export_available(const App& app, const std::string& control) {
  const ExportFile* f = export_file(control);
  if (!f) return false;
  if (f->bytes) return static_cast<bool>(app.host.download);
  if (f->png) return app.host.save_png && app.result.core.first_head().weights.size() > 0;
  return static_cast<bool>(app.host.capture_canvas);
}

std::string share_save(App& app, const std::string& control) {
  const ExportFile* f = export_file(control);
  if (!f) return "no such export: " + control;
  if (!share_export_available(app, control)) return "this page cannot save files here";
  if (f->png) {
    const Png png = f->png(app);
    app.save_png(f->name, png.w, png.h, png.rgba);
    return "";
  }
  if (!f->bytes) {
    app.host.capture_canvas(f->name);
    app.status = tr_format(app.state.lang, "share.saving", {{"name", f->name}});
    return "";
  }
  app.download(f->name, f->mime, f->bytes(app));
  return "";
}

std::string share_copy_link(App& app) {
  const std::string link = app.share_link();
  if (app.host.copy_text) app.host.copy_text(link);
  app.status = tr_format(app.state.lang, "share.link_copied", {{"count", std::to_string(link.size())}});
  return link;
}

const char* package_kind_name(PackageKind k) {
  return k == PackageKind::scorm2004 ? "2004" : k == PackageKind::cmi5 ? "cmi5" : "1.2";
}

std::vector<std::string> package_lessons(const App& app) {
  std::vector<std::string> ids;
  for (const Lesson& l : lessons())
    for (const std::string& chosen : app.package_choice.lessons)
      if (chosen == l.id) ids.push_back(l.id);
  if (!ids.empty()) return ids;
  if (const Lesson* open = open_lesson(app)) return {open->id};
  if (!lessons().empty()) return {lessons().front().id};
  return {};
}

bool choose_package_lesson(App& app, const std::string& id, bool in) {
  if (!find_lesson(id)) return false;
  std::vector<std::string> now = package_lessons(app);  // what the popup shows as ticked, the default included
  now.erase(std::remove(now.begin(), now.end(), id), now.end());
  if (in) now.push_back(id);
  app.package_choice.lessons = now;
  return true;
}

std::string make_package(App& app) {
  if (!app.host.make_course_package) return "this page cannot make course packages";
  const std::vector<std::string> ids = package_lessons(app);
  if (ids.empty()) return "no lesson to package";
  std::string list;
  for (const std::string& id : ids) list += (list.empty() ? "" : ",") + id;
  app.host.make_course_package(list, package_kind_name(app.package_choice.kind));
  return "";
}

const std::vector<std::string>& embed_panel_ids() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> v;
    for (const std::string& id : panel_ids())
      if (id != "share") v.push_back(id);  // the Share window stays with the teacher
    return v;
  }();
  return ids;
}

namespace {
bool contains(const std::vector<std::string>& list, const std::string& id) {
  return std::find(list.begin(), list.end(), id) != list.end();
}
// The embed choice's list for the family of its checkboxes, or nullptr.
template <class Choice>
auto embed_list(Choice& c, ControlFamily family) -> decltype(&c.panels) {
  if (family == ControlFamily::share_show) return &c.panels;
  if (family == ControlFamily::share_lock) return &c.locked;
  if (family == ControlFamily::share_hide) return &c.hidden;
  return nullptr;
}
const std::vector<std::string>& embed_offered(ControlFamily family) {
  return family == ControlFamily::share_show ? embed_panel_ids() : control_ids();
}
}  // namespace

bool embed_item_chosen(const App& app, ControlFamily family, const std::string& id) {
  const std::vector<std::string>* list = embed_list(app.embed_choice, family);
  return list && contains(*list, id);
}

bool choose_embed_item(App& app, ControlFamily family, const std::string& id, bool in) {
  std::vector<std::string>* list = embed_list(app.embed_choice, family);
  if (!list || !contains(embed_offered(family), id)) return false;
  if (contains(*list, id) == in) return true;
  if (in)
    list->push_back(id);
  else
    list->erase(std::remove(list->begin(), list->end(), id), list->end());
  app.embed_choice.code.clear();  // the code shown would no longer be the one the options say
  return true;
}

void set_embed_origins(App& app, const std::string& list) {
  const std::string kept = list.substr(0, kMaxEmbedOriginsText);
  if (kept == app.embed_choice.origins) return;
  app.embed_choice.origins = kept;
  app.embed_choice.code.clear();
}

void set_embed_size(App& app, int width, int height) {
  EmbedChoice& c = app.embed_choice;
  width = std::clamp(width, kEmbedMinWidth, kEmbedMaxWidth);
  height = std::clamp(height, kEmbedMinHeight, kEmbedMaxHeight);
  if (width == c.width && height == c.height) return;
  c.width = width;
  c.height = height;
  c.code.clear();
}

namespace {
// The choice as the embed query says it, and why there can be no code yet (cheap: no share link is built).
EmbedCode check_embed(const App& app, EmbedSettings& e) {
  const EmbedChoice& c = app.embed_choice;
  const Lang lang = app.state.lang;
  e.enabled = true;
  for (const std::string& id : embed_panel_ids())  // the registry's order, whatever order they were ticked in
    if (contains(c.panels, id)) e.panels.push_back(id);
  e.locked = c.locked;
  e.hidden = c.hidden;
  EmbedCode code;
  code.origins_error = parse_origin_list(c.origins, e.origins);
  if (!code.origins_error.empty())
    code.error = tr(lang, "share.embed_fix_origins");
  else if (e.panels.empty())
    code.error = tr(lang, "share.embed_no_panel");
  return code;
}
}  // namespace

EmbedCode embed_code_problems(const App& app) {
  EmbedSettings e;
  return check_embed(app, e);
}

EmbedCode embed_code(const App& app) {
  EmbedSettings e;
  EmbedCode code = check_embed(app, e);
  if (!code.error.empty()) return code;
  const Lang lang = app.state.lang;
  const std::string base = app.host.page_url ? app.host.page_url() : std::string();
  code.url = base + "?" + embed_query(e) + "#" + share_fragment(app.state);
  const Preset* p = find_preset(app.state.preset);
  code.title =
      tr_format(lang, "share.embed_title", {{"what", tr(lang, p ? p->title.c_str() : "share.embed_title_default")}});
  code.html = embed_iframe_html(code.url, code.title, app.embed_choice.width, app.embed_choice.height);
  return code;
}

std::string copy_embed_code(App& app) {
  const EmbedCode code = embed_code(app);
  if (!code.error.empty()) return code.origins_error.empty() ? code.error : code.error + " " + code.origins_error;
  app.embed_choice.code = code.html;
  if (app.host.copy_text) app.host.copy_text(code.html);
  app.status = tr(app.state.lang, "share.embed_copied");
  return "";
}

namespace {
json twin(const std::string& id, const char* kind, const std::string& label) {
  return json{{"id", id}, {"kind", kind}, {"label", label}, {"locked", false}, {"act", "share"}};
}
json package_twins(const App& app) {
  const Lang lang = app.state.lang;
  json twins = json::array();
  const std::vector<std::string> chosen = package_lessons(app);
  for (const Lesson& l : lessons()) {
    json c = twin(control_id(ControlFamily::share_package_lesson, l.id), "checkbox",
                  std::string(tr(lang, "share.lms_lesson")) + ": " + tr(lang, l.title.c_str()));
    c["value"] = std::find(chosen.begin(), chosen.end(), l.id) != chosen.end();
    twins.push_back(std::move(c));
  }
  json kind = twin(control_id(ControlId::share_lms_kind), "select", tr(lang, "share.lms_kind"));
  kind.update({{"value", package_kind_name(app.package_choice.kind)},
               {"options", {"1.2", "2004", "cmi5"}},
               {"option_labels",
                {tr(lang, "share.lms_scorm12"), tr(lang, "share.lms_scorm2004"), tr(lang, "share.lms_cmi5")}}});
  twins.push_back(kind);
  twins.push_back(twin(control_id(ControlId::share_lms_download), "button", tr(lang, "share.lms_make")));
  return twins;
}
// A fieldset of checkboxes named by the heading the canvas draws over them: a panel to show, a control to lock or
// hide each. A checkbox says the name the canvas draws (the id) and, where the catalog has them, its words.
json embed_group(const App& app, ControlFamily family, const char* legend) {
  const Lang lang = app.state.lang;
  std::string group_id = control_id(family, "");
  group_id.pop_back();  // "share:show"
  json group = {{"id", group_id}, {"kind", "group"}, {"label", tr(lang, legend)}, {"controls", json::array()}};
  for (const std::string& id : embed_offered(family)) {
    const std::string words = family == ControlFamily::share_show ? "panel." + id : "a11y.control." + id;
    const std::string label =
        has_string(lang, words) ? tr_format(lang, "share.embed_item", {{"title", tr(lang, words.c_str())}, {"id", id}})
                                : id;
    json c = twin(control_id(family, id), "checkbox", label);
    c["value"] = embed_item_chosen(app, family, id);
    group["controls"].push_back(std::move(c));
  }
  return group;
}
json number_twin(ControlId id, const std::string& label, int value, int min, int max) {
  json c = twin(control_id(id), "number", label);
  c.update({{"value", value}, {"min", min}, {"max", max}, {"step", 1}});
  return c;
}
// The embed options: the three groups, the origins (with their problem), the size, "Copy embed code" (with why it
// cannot copy yet) and the code last copied.
json embed_twins(const App& app) {
  const Lang lang = app.state.lang;
  const EmbedChoice& choice = app.embed_choice;
  const EmbedCode code = embed_code_problems(app);
  json twins = {embed_group(app, ControlFamily::share_show, "share.panels_to_show"),
                embed_group(app, ControlFamily::share_lock, "share.controls_locked"),
                embed_group(app, ControlFamily::share_hide, "share.controls_hidden")};
  json origins = twin(control_id(ControlId::share_origins), "text", tr(lang, "share.origins"));
  origins["value"] = choice.origins;
  if (!code.origins_error.empty()) origins["error"] = code.origins_error;
  twins.push_back(std::move(origins));
  twins.push_back(
      number_twin(ControlId::share_embed_width, tr(lang, "share.width"), choice.width, kEmbedMinWidth, kEmbedMaxWidth));
  twins.push_back(number_twin(ControlId::share_embed_height, tr(lang, "share.height"), choice.height, kEmbedMinHeight,
                              kEmbedMaxHeight));
  json copy = twin(control_id(ControlId::share_copy_embed), "button", tr(lang, "share.copy_embed"));
  if (!code.error.empty()) copy.update({{"disabled", true}, {"reason", code.error}});
  twins.push_back(std::move(copy));
  if (!choice.code.empty()) {
    json shown = twin(control_id(ControlId::share_embed_code), "code", tr(lang, "share.embed_code"));
    shown["value"] = choice.code;
    twins.push_back(std::move(shown));
  }
  return twins;
}

// The embed options' twins (embed_twins): true if `id` is one of them, with "" or why not in `err`.
bool embed_action(App& app, const std::string& id, const json& v, std::string& err) {
  for (ControlFamily f : {ControlFamily::share_show, ControlFamily::share_lock, ControlFamily::share_hide}) {
    const std::string prefix = control_id(f, "");
    if (id.rfind(prefix, 0) != 0) continue;
    const std::string item = id.substr(prefix.size());
    if (!v.is_boolean())
      err = id + " is ticked with true or false";
    else if (!choose_embed_item(app, f, item, v.get<bool>()))
      err =
          (f == ControlFamily::share_show ? "no panel an embed can show: " : "no control an embed can lock or hide: ") +
          item;
    return true;
  }
  const bool width = id == control_id(ControlId::share_embed_width);
  if (width || id == control_id(ControlId::share_embed_height)) {
    if (!v.is_number()) {
      err = id + " is a number of pixels";
      return true;
    }
    // Clamped as a double first: a huge number never reaches the int conversion.
    const int px = static_cast<int>(std::lround(std::clamp(v.get<double>(), 0.0, 1e6)));
    set_embed_size(app, width ? px : app.embed_choice.width, width ? app.embed_choice.height : px);
    return true;
  }
  if (id == control_id(ControlId::share_origins)) {
    if (v.is_string())
      set_embed_origins(app, v.get<std::string>());
    else
      err = id + " is text";
    return true;
  }
  if (id != control_id(ControlId::share_copy_embed)) return false;
  err = copy_embed_code(app);
  return true;
}
}  // namespace

json share_controls_json(const App& app) {
  const Lang lang = app.state.lang;
  json controls = json::array({twin(control_id(ControlId::share_copy_link), "button", tr(lang, "share.copy_link"))});
  for (json& c : embed_twins(app)) controls.push_back(std::move(c));  // the panel's order: link, embed, exports, …
  for (const ShareExport& e : share_exports())
    if (share_export_available(app, e.control)) controls.push_back(twin(e.control, "button", tr(lang, e.label)));
  if (app.host.pick_file)
    controls.push_back(twin(control_id(ControlId::share_import_json), "button", tr(lang, "share.import")));
  if (app.host.make_course_package && !lessons().empty())
    for (json& c : package_twins(app)) controls.push_back(std::move(c));
  return controls;
}

std::string share_action(App& app, const json& action) {
  const std::string id = action.value("id", "");
  const json& v = action.contains("value") ? action["value"] : json();
  if (id == control_id(ControlId::share_copy_link)) {
    share_copy_link(app);
    return "";
  }
  if (export_file(id)) return share_save(app, id);
  if (std::string err; embed_action(app, id, v, err)) return err;
  if (id == control_id(ControlId::share_import_json)) {
    if (!app.host.pick_file) return "this page cannot open files here";
    app.host.pick_file();
    return "";
  }
  const std::string lesson_prefix = control_id(ControlFamily::share_package_lesson, "");
  if (id.rfind(lesson_prefix, 0) == 0 && v.is_boolean() &&
      choose_package_lesson(app, id.substr(lesson_prefix.size()), v.get<bool>()))
    return "";
  if (id == control_id(ControlId::share_lms_kind) && v.is_string()) {
    for (PackageKind k : {PackageKind::scorm12, PackageKind::scorm2004, PackageKind::cmi5})
      if (v.get<std::string>() == package_kind_name(k)) {
        app.package_choice.kind = k;
        return "";
      }
  }
  if (id == control_id(ControlId::share_lms_download)) return make_package(app);
  return "unknown share action";
}

}  // namespace attn
