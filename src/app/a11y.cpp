// a11y.cpp — the parallel DOM's description: panels, their state-bound controls, the lesson step, the weights row.
#include "app/a11y.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "app/app.h"
#include "app/base/strings.h"
#include "app/builder_twin.h"
#include "app/describe/sweep_table.h"
#include "app/describe/variance_table.h"
#include "app/learn/learn.h"
#include "app/learn/learn_text.h"
#include "app/learn/study.h"
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_run.h"
#include "app/lesson/lesson_text.h"
#include "app/panel_actions.h"
#include "app/playground/saturation.h"
#include "app/share_actions.h"
#include "app/start_view.h"
#include "app/state/embedding_edit.h"
#include "app/state/presets.h"
#include "app/state/registry.h"
#include "app/state/state_json.h"
#include "app/state/tiling.h"
#include "app/worksheet/worksheet.h"

namespace attn {
namespace {
using nlohmann::json;

constexpr int kChooserNumbered = 12;  // numbered exercises the chooser lists (any other is typed in the panel)

bool locked(const App& app, const std::string& id) {
  if (app.embed.enabled && app.embed.is_locked(id)) return true;
  return std::find(app.lesson_locks.begin(), app.lesson_locks.end(), id) != app.lesson_locks.end();
}

// The upper end of a range whose schema bound is wider than the example on screen.
double range_max(const App& app, const std::string& key, double schema_max) {
  if (key == "selected_row") return std::max<double>(0, static_cast<double>(app.result.row_labels.size()) - 1);
  if (key == "plane_x" || key == "plane_y") return std::max(0, app.state.d_model - 1);
  // The canvas's slider ends at kTemperatureSliderMax (a lesson may set a hotter row: the range then reaches it).
  if (key == "temperature") return std::max(kTemperatureSliderMax, app.state.temperature);
  return schema_max;
}

// "d_k 64, scaling on (…)": what a reader hears for a slider, with the setting that decides what it means.
std::string value_text(const App& app, const std::string& key, const std::string& label, const json& value) {
  std::string v = value.is_string() ? value.get<std::string>() : value.dump();
  if (key == "selected_row" && value.is_number_integer()) {
    const int row = value.get<int>();
    if (row >= 0 && row < static_cast<int>(app.result.row_labels.size()))
      v = learner_index(row) + ": " + app.result.row_labels[static_cast<size_t>(row)];
  }
  std::string text = label + " " + v;
  if (key == "d_k")
    text += std::string(", ") + tr(app.state.lang, "a11y.scaling") + " " +
            tr(app.state.lang, app.state.scale ? "summary.scaling_on" : "summary.scaling_off");
  return text;
}

// One state-bound control as the page builds it: kind from the schema type, the label the panel drew.
json control_json(const App& app, const std::string& id, const json& schema, const json& state) {
  // The name the canvas drew it with; else (a panel not drawn yet) its own catalog name; never its id.
  const auto label_it = app.item_labels.find(id);
  const std::string own = "a11y.control." + id;
  const std::string drawn = label_it != app.item_labels.end() ? tr(app.state.lang, label_it->second.c_str()) : "";
  std::string label = has_string(app.state.lang, own) ? tr(app.state.lang, own.c_str()) : drawn.empty() ? id : drawn;
  // A name of its own (a select where the canvas draws a checkbox) still holds the words drawn beside the control,
  // so a learner who says or sees them finds it (WCAG 2.5.3, label in name).
  if (!drawn.empty() && label.find(drawn) == std::string::npos) label = drawn + ": " + label;
  json c = {{"id", id}, {"label", label}, {"value", state[id]}, {"locked", locked(app, id)}};
  if (id == "preset") {  // a string in the schema, a choice on screen: the preset registry's examples, or none
    c["label"] = tr(app.state.lang, "a11y.preset");
    c["kind"] = "select";
    c["options"] = json::array({""});
    c["option_labels"] = json::array({tr(app.state.lang, "controls.custom")});
    for (const Preset& p : presets()) {
      c["options"].push_back(p.id);
      c["option_labels"].push_back(tr(app.state.lang, p.title.c_str()));
    }
  } else if (schema.contains("enum")) {
    c["kind"] = "select";
    c["options"] = schema["enum"];
    c["option_labels"] = json::array();  // in words ("a11y.option.theme.dark": "Dark"), else the value itself
    for (const json& o : schema["enum"]) {
      const std::string key = "a11y.option." + id + "." + o.get<std::string>();
      c["option_labels"].push_back(has_string(app.state.lang, key) ? tr(app.state.lang, key.c_str())
                                                                   : o.get<std::string>());
    }
  } else if (schema.value("type", "") == "boolean") {
    c["kind"] = "checkbox";
  } else if (schema.value("type", "") == "integer" || schema.value("type", "") == "number") {
    const bool integer = schema["type"] == "integer";
    const double lo = schema.value("minimum", 0.0), hi = range_max(app, id, schema.value("maximum", 100.0));
    c["kind"] = "range";
    c["min"] = lo;
    c["max"] = hi;
    // One arrow press is a step a learner can see: 1 for a count, 0.05 of a temperature, 1/200 of any other range.
    c["step"] = integer ? 1.0 : id == "temperature" ? 0.05 : (hi - lo) / 200.0;
    c["valuetext"] = value_text(app, id, label, state[id]);
  } else if (schema.value("type", "") == "string") {
    c["kind"] = "text";
  } else {
    return nullptr;  // a matrix or an object: the canvas's own editors (embedding plane, mask grid)
  }
  return c;
}

std::string number_text(double v, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// Learn mode's settings and buttons as the Learn panel draws them; the page hands their edits back as
// {"do": "learn", "id", "value"} (learn_action), since they are parts of the state key "learn", not keys.
json learn_controls_json(const App& app) {
  const Lang lang = app.state.lang;
  const train::TrainSettings& st = app.state.learn_settings;
  const auto base = [&](ControlId id, const char* kind, const std::string& label) {
    return json{{"id", control_id(id)},
                {"kind", kind},
                {"label", label},
                {"locked", locked(app, control_id(id))},
                {"act", "learn"}};
  };
  const auto range = [&](ControlId id, const char* label, double value, double lo, double hi, double step) {
    json c = base(id, "range", tr(lang, label));
    c.update({{"value", value},
              {"min", lo},
              {"max", hi},
              {"step", step},
              {"valuetext", std::string(tr(lang, label)) + " " + number_text(value, step < 1 ? 4 : 0)}});
    return c;
  };
  json task = base(ControlId::learn_task, "select", tr(lang, "learn.task"));
  task.update({{"value", train::task_name(st.task)}, {"options", json::array()}, {"option_labels", json::array()}});
  for (train::TaskKind k : kLearnTasks) {
    task["options"].push_back(train::task_name(k));
    task["option_labels"].push_back(learn_task_name(lang, k));
  }
  json vary = base(ControlId::learn_vary, "select", tr(lang, "learn.b_differs"));
  vary.update(
      {{"value", train::difference_name(st.vary)}, {"options", json::array()}, {"option_labels", json::array()}});
  for (train::Difference d : kLearnDifferences) {
    vary["options"].push_back(train::difference_name(d));
    vary["option_labels"].push_back(learn_difference_name(lang, d));
  }
  return json::array(
      {task, range(ControlId::learn_d_k, "learn.dk", st.model.d_k, 1, kLearnDkMax, 1),
       range(ControlId::learn_layers, "learn.layers", st.model.layers, 1, kLearnLayersMax, 1),
       range(ControlId::learn_heads, "learn.heads", st.model.heads, 1, kLearnHeadsMax, 1), vary,
       range(ControlId::learn_lr, "learn.lr", st.optim.learning_rate, kLearnLrMin, kLearnLrMax, kLearnLrMin),
       base(ControlId::learn_play, "button", tr(lang, app.state.learn_playing ? "learn.pause" : "learn.play")),
       base(ControlId::learn_step, "button", tr(lang, "learn.step")),
       base(ControlId::learn_reset, "button", tr(lang, "learn.reset")),
       range(ControlId::learn_speed, "learn.speed", app.state.learn_speed, 1, kLearnSpeedMax, 1),
       base(ControlId::learn_export, "button", tr(lang, "learn.export")),
       base(ControlId::learn_reversal, "button", tr(lang, "learn.study.reversal"))});
}

// The run's progress as the panel prints it under the buttons, and why a setting was refused.
std::string learn_status(const App& app) {
  const train::Trainer& t = app.learn.trainer;
  std::string s =
      tr_format(app.state.lang, "learn.steps",
                {{"steps", std::to_string(t.steps_done())}, {"planned", std::to_string(t.settings().steps)}});
  if (!app.learn.message.empty()) s += ". " + app.learn.message;
  const std::string cost = learn_cost_text(app.state.lang, app.state.learn_settings);
  if (!cost.empty()) s += ". " + cost;
  return s;
}

json panels_json(const App& app) {
  const json& schema = state_schema();
  const json state = state_to_json(app.state);
  json panels = json::array();
  for (const PanelInfo& p : panel_table()) {
    if (!app.state.panels[p.id]) continue;
    json controls = json::array();
    for (size_t i = 0; i < kControlCount; ++i) {
      const std::string id = control_id(static_cast<ControlId>(i));
      const auto where = app.item_panels.find(id);
      if (where == app.item_panels.end() || where->second != p.key) continue;
      // A button that acts (Re-roll weights, Shuffle tokens, the Masks panel's Clear buttons) in the panel's order.
      if (json b = action_twin(app, static_cast<ControlId>(i)); !b.is_null()) {
        controls.push_back(std::move(b));
        continue;
      }
      if (!schema.contains(id) || !state.contains(id)) continue;
      json c = control_json(app, id, schema[id], state);
      if (!c.is_null()) controls.push_back(std::move(c));
    }
    json panel = {{"key", p.key}, {"title", tr(app.state.lang, (std::string("panel.") + p.key).c_str())}};
    if (std::string(p.key) == "learn") {
      for (json& c : learn_controls_json(app)) controls.push_back(std::move(c));
      panel["status"] = learn_status(app);
    }
    // The last shuffle's gap, as the panel prints it under its buttons (the page says it once when it is new).
    if (std::string(p.key) == "positional" && !last_shuffle_text(app).empty()) panel["status"] = last_shuffle_text(app);
    if (std::string(p.key) == "share")
      for (json& c : share_controls_json(app)) controls.push_back(std::move(c));
    panel["controls"] = std::move(controls);
    panels.push_back(std::move(panel));
  }
  return panels;
}

// The open step as render_step() words it (app/lesson/lesson_text.h): the same texts the canvas draws, never a
// template.
json lesson_json(const App& app) {
  const Lesson* l = open_lesson(app);
  const LessonStep* step = open_step(app);
  if (!l || !step) return nullptr;
  const StepProgress& sp = app.step_progress;
  const StepTexts t = render_step(app);
  const int n = app.state.lesson.step, steps = static_cast<int>(l->steps.size());
  json j = {{"id", l->id},
            {"title", t.title},
            {"step", n},
            {"steps", steps},
            {"step_of", t.step_of},
            {"text", t.text},
            {"can_back", n > 1},
            {"can_next", step_complete(app)},
            {"back", t.back},
            {"next", t.next},
            {"check", t.check},
            {"exit", t.exit},
            {"restart", tr(app.state.lang, "a11y.restart")}};
  if (!t.text_since.empty()) j["text_since"] = t.text_since;
  if (t.task == StepTexts::Task::None || t.loading) return j;
  j["task"] = t.task == StepTexts::Task::Predict ? "predict" : "do";
  j["question"] = t.question;
  j["choices"] = t.choices;
  j["number"] = t.number;
  j["chosen"] = sp.chosen;
  j["attempts"] = sp.attempts;
  j["answered"] = t.answered;
  j["correct"] = t.correct;
  // Right or wrong said in words, never by colour alone.
  for (const auto& [key, text] : {std::pair{"verdict", &t.verdict},
                                  {"feedback", &t.feedback},
                                  {"one_more", &t.one_more},
                                  {"missed", &t.missed},
                                  {"explain", &t.explain},
                                  {"explain_since", &t.explain_since},
                                  {"hint", &t.hint}})
    if (!text->empty()) j[key] = *text;
  return j;
}

// The menu bar's twin (the canvas's View and Language menus cannot be reached from the page's Tab order): a
// checkbox per panel as the View menu ticks them, its workspaces, and the languages. Not in an embed, whose page
// decides what shows.
json menus_json(const App& app) {
  if (app.embed.enabled) return nullptr;
  const Lang lang = app.state.lang;
  json panels = json::array(), spaces = json::array(), langs = json::array();
  for (const PanelInfo& p : panel_table())
    panels.push_back({{"key", p.key},
                      {"title", tr(lang, (std::string("panel.") + p.key).c_str())},
                      {"open", app.state.panels[p.id]}});
  for (const Workspace& w : workspaces())
    spaces.push_back({{"key", w.key}, {"title", tr(lang, (std::string("workspace.") + w.key).c_str())}});
  for (Lang l : languages()) langs.push_back({{"code", lang_code(l)}, {"title", language_name(l)}});
  return {{"title", tr(lang, "a11y.menus")},
          {"view", tr(lang, "menu.view")},
          {"panels", panels},
          {"workspace", tr(lang, "menu.workspace")},
          {"workspaces", spaces},
          {"language", tr(lang, "menu.language")},
          {"languages", langs},
          {"lang", lang_code(lang)}};
}

// A finished lesson's results as render_results() words them (the lesson panel draws the same texts).
json results_json(const App& app) {
  // Checked here, not only in render_results: a page with no finished lesson never runs it, so its code stays in
  // the module's second half (docs/performance.md).
  if (open_lesson(app) || app.finished_lesson.empty()) return nullptr;
  const LessonResults r = render_results(app);
  if (r.lesson.empty()) return nullptr;
  json rows = json::array();
  for (const ResultRow& row : r.rows)
    rows.push_back({{"step", row.step},
                    {"question", row.question},
                    {"given", row.given},
                    {"verdict", row.verdict},
                    {"right", row.right},
                    {"answer", row.answer},
                    {"review", row.review}});
  return {{"lesson", r.lesson},           {"heading", r.heading}, {"score", r.score},     {"tasks", r.tasks},
          {"answers", r.answers_heading}, {"rows", rows},         {"restart", r.restart}, {"close", r.close},
          {"next_id", r.next_id},         {"next", r.next}};
}

// The start view of a first visit (start_view.h), worded as the canvas draws it: a heading, the sentence saying what
// the page is, the language choice and the two ways in.
json start_json(const App& app) {
  if (!start_view_shown(app)) return nullptr;
  const Lang lang = app.state.lang;
  json langs = json::array();
  for (Lang l : languages()) langs.push_back({{"code", lang_code(l)}, {"title", language_name(l)}});
  const std::vector<LessonEntry>& lessons = builtin_lesson_entries();
  const std::string about =
      lessons.empty() ? std::string()
                      : tr_format(lang, "start.lesson_about", {{"title", tr(lang, lessons.front().title.c_str())}});
  return {{"heading", tr(lang, "start.title")},
          {"sentence", tr(lang, "start.sentence")},
          {"language", tr(lang, "start.language")},
          {"languages", langs},
          {"lang", lang_code(lang)},
          {"lesson", tr(lang, "start.lesson")},
          {"lesson_about", about},
          {"explore", tr(lang, "start.explore")},
          {"explore_about", tr(lang, "start.explore_about")}};
}

// The lesson picker while no lesson is open: every lesson (the compiled-in ones, then a teacher's) as the lesson
// panel lists them, with how far the learner got.
json lessons_json(const App& app) {
  // An embed without the lesson panel has no Lessons menu either: its page decides what the learner works on.
  if (open_lesson(app) || (app.embed.enabled && !app.state.panels.lesson)) return nullptr;
  if (!app.finished_lesson.empty()) return nullptr;  // the results show instead, as on the canvas
  if (start_view_shown(app)) return nullptr;         // the start view stands alone, as on the canvas
  const Lang lang = app.state.lang;
  json items = json::array();
  int k = 0;
  for (const LessonEntry& l : lesson_entries()) {
    const json& p = app.progress.contains(l.id) && app.progress[l.id].is_object() ? app.progress[l.id] : json::object();
    const bool done = p.value("completed", false);
    const int furthest = p.value("furthest", 0);
    std::string status;
    if (done)
      status = tr(lang, "lesson.ui.completed");
    else if (furthest > 0)
      status = tr_format(lang, "lesson.ui.reached",
                         {{"step", std::to_string(furthest)}, {"steps", std::to_string(l.steps)}});
    items.push_back({{"id", l.id},
                     {"title", std::to_string(++k) + ". " + tr(lang, l.title.c_str())},
                     {"status", status},
                     {"summary", l.summary.empty() ? std::string() : tr(lang, l.summary.c_str())}});
  }
  return {{"title", tr(lang, "menu.lessons")},
          {"intro", tr(lang, "lesson.ui.intro")},
          {"items", std::move(items)},
          {"reset", tr(lang, "lesson.ui.reset_progress")}};
}

// "[1.0, 0.5; -1.0, 2.0]": a given matrix as the worksheet prints it.
std::string matrix_text(const Mat& m, int decimals) {
  std::string t = "[";
  for (int i = 0; i < m.rows(); ++i) {
    if (i) t += "; ";
    for (int j = 0; j < m.cols(); ++j) t += (j ? ", " : "") + number_text(m(i, j), decimals);
  }
  return t + "]";
}

// A typed cell's grade in words (the canvas says it by colour and a tooltip).
std::string cell_status_text(const WorksheetSession& w, exercise::Stage s, int i, int j, Lang lang) {
  using exercise::CellStatus;
  const exercise::CellGrade& g = w.grade.stage(s).at(i, j);
  switch (g.status) {
    case CellStatus::Correct:
      return tr(lang, "a11y.cell.correct");
    case CellStatus::CarriedForward:
      return tr(lang, "a11y.cell.carried");
    case CellStatus::Wrong:
      return tr(lang, "a11y.cell.wrong");
    case CellStatus::Invalid:
      return issue_message(g.issue, w.answers.at(s, i, j), lang);
    default:
      return "";
  }
}

// One stage of the worksheet: its cells (typed text, grade in words, a name saying where it is), or the given
// matrix; what the note remarks and the diagnoses say about it.
json worksheet_stage_json(const App& app, exercise::Stage s) {
  const WorksheetSession& w = app.worksheet;
  const exercise::Exercise& ex = w.exercise;
  const Lang lang = app.state.lang;
  const std::string title = worksheet_stage_title(s, lang);
  json j = {{"id", exercise::stage_id(s)}, {"title", title}, {"formula", worksheet_stage_formula(s, lang)}};
  if (ex.is_given(s)) {
    j["given"] = std::string(tr(lang, "worksheet.given")) + " " + matrix_text(ex.ref(s), ex.decimals_of(s));
  } else {
    const auto labels = exercise::stage_row_labels(ex, s);
    json rows = json::array();
    for (int i = 0; i < ex.rows(s); ++i) {
      json cells = json::array();
      for (int c = 0; c < ex.cols(s); ++c)
        cells.push_back(
            {{"value", w.answers.at(s, i, c)},
             {"label", tr_format(lang, "a11y.cell",
                                 {{"row", std::to_string(i + 1)}, {"col", std::to_string(c + 1)}, {"stage", title}})},
             {"status", cell_status_text(w, s, i, c, lang)},
             {"invalid", w.grade.stage(s).at(i, c).status == exercise::CellStatus::Wrong ||
                             w.grade.stage(s).at(i, c).status == exercise::CellStatus::Invalid}});
      rows.push_back({{"label", i < static_cast<int>(labels.size()) ? labels[static_cast<size_t>(i)] : ""},
                      {"cells", std::move(cells)}});
    }
    j["rows"] = std::move(rows);
  }
  // "Show me" under the stage of the cell picked last, and the arithmetic it wrote out (the panel's texts).
  if (w.picked_stage == exercise::stage_index(s)) {
    j["show"] = tr(lang, "worksheet.show_me");
    j["show_for"] = tr_format(  // the cell it refers to, named as its field is
        lang, "a11y.cell",
        {{"row", std::to_string(w.show_row + 1)}, {"col", std::to_string(w.show_col + 1)}, {"stage", title}});
  }
  if (const std::string shown = shown_breakdown(w, s, lang); !shown.empty()) j["breakdown"] = shown;
  json notes = json::array();
  for (size_t k = 0; k < ex.remarks.size(); ++k) {
    const exercise::Remark& r = ex.remarks[k];
    const bool quoted = std::any_of(w.grade.diagnoses.begin(), w.grade.diagnoses.end(),
                                    [&](const exercise::Diagnosis& d) { return d.remark == static_cast<int>(k); });
    if (r.stage == s && !quoted && remark_open(ex, w.grade, r)) notes.push_back(remark_text(r, lang));
  }
  for (const exercise::Diagnosis& d : w.grade.diagnoses)
    if (d.stage == s) notes.push_back(diagnosis_message(ex, d, lang));
  j["notes"] = std::move(notes);
  return j;
}

// The worksheet panel's choice of exercise as one select: the first numbered exercises (and the one open, if another),
// then the notes' worked examples by their titles. Choosing sets the state key "exercise", as the panel does.
json exercise_chooser_json(const App& app) {
  const Lang lang = app.state.lang;
  const std::string& current = app.state.exercise;
  json options = json::array(), labels = json::array();
  bool listed = false;
  const auto numbered = [&](const std::string& number) {
    options.push_back("exercise-" + number);
    labels.push_back(tr_format(lang, "worksheet.exercise_number", {{"number", number}}));
    listed = listed || "exercise-" + number == current;
  };
  for (int k = 1; k <= kChooserNumbered; ++k) numbered(std::to_string(k));
  if (current.rfind("exercise-", 0) == 0 && !listed) numbered(current.substr(9));
  for (const std::string& id : exercise::note_exercise_ids()) {
    exercise::Exercise note;
    options.push_back(id);
    labels.push_back(exercise::note_exercise(id, note).empty() ? exercise_title(note, lang) : id);
  }
  return {{"label", tr(lang, "a11y.exercise_choice")},
          {"value", current},
          {"options", std::move(options)},
          {"option_labels", std::move(labels)},
          {"locked", locked(app, "exercise")}};
}

// The worksheet while its panel is open: the exercise's inputs, each stage, the check's summary.
json worksheet_json(const App& app) {
  const WorksheetSession& w = app.worksheet;
  if (!app.state.panels.worksheet) return nullptr;
  const Lang lang = app.state.lang;
  json j = {{"title", tr(lang, "panel.worksheet")}, {"chooser", exercise_chooser_json(app)}};
  // A newly chosen exercise loads at the next frame: till then the chooser alone, so the focus stays on it.
  if (w.loaded != app.state.exercise) return j;
  if (!w.error.empty()) {
    j["error"] = w.error;
    return j;
  }
  const exercise::Exercise& ex = w.exercise;
  j["intro"] = tr_format(lang, "worksheet.intro",
                         {{"d_k", number_text(ex.d_k, 0)}, {"sqrt_d_k", number_text(std::sqrt(ex.d_k), 4)}});
  j["inputs"] = json::array({"X = " + matrix_text(ex.X, 1), "W_Q = " + matrix_text(ex.W_q, 1),
                             "W_K = " + matrix_text(ex.W_k, 1), "W_V = " + matrix_text(ex.W_v, 1)});
  json stages = json::array();
  for (exercise::Stage s : exercise::kStages) stages.push_back(worksheet_stage_json(app, s));
  j["stages"] = std::move(stages);
  const exercise::Grade& g = w.grade;
  j["summary"] = g.all_correct ? tr(lang, "worksheet.all_correct")
                               : tr_format(lang, "worksheet.progress",
                                           {{"answered", std::to_string(g.answered)},
                                            {"asked", std::to_string(g.asked)},
                                            {"mistakes", std::to_string(g.mistakes)}});
  return j;
}

// The painted mask and key padding the masks panel edits: the state's (random examples) or the scenario's.
struct MaskRefs {
  const std::optional<MaskMat>& cells;
  const std::vector<bool>& padding;
};
MaskRefs mask_refs(const State& s) {
  const bool random = s.mode == InputMode::Random;
  return {random ? s.mask_cells : s.explicit_scenario.mask_cells,
          random ? s.key_padding : s.explicit_scenario.key_padding};
}

// The mask grid while the masks panel is open and shows one the canvas tracks cell by cell (up to 16 × 16): a
// checkbox per cell named by its query and key, one per key for padding, each said blocked or not.
json masks_json(const App& app) {
  if (!app.state.panels.masks) return nullptr;
  const HeadResult& h = app.result.core.first_head();
  const int n = static_cast<int>(h.weights.rows()), m = static_cast<int>(h.weights.cols());
  const bool random = app.state.mode == InputMode::Random;
  const bool fits = n > 0 && m > 0 && (!random || (n == app.state.embeddings.rows() && m == n));
  if (!fits || n > 16 || m > 16 || static_cast<int>(app.result.row_labels.size()) < n ||
      static_cast<int>(app.result.col_labels.size()) < m)
    return nullptr;
  const Lang lang = app.state.lang;
  const MaskRefs refs = mask_refs(app.state);
  const bool have = refs.cells && refs.cells->rows() == n && refs.cells->cols() == m;
  json rows = json::array();
  for (int i = 0; i < n; ++i) {
    json cells = json::array();
    for (int j = 0; j < m; ++j)
      cells.push_back({{"blocked", have && (*refs.cells)(i, j) != 0},
                       {"masked", is_masked_logit(h.logits(i, j))},
                       {"label", tr_format(lang, "a11y.mask_cell",
                                           {{"query", app.result.row_labels[static_cast<size_t>(i)]},
                                            {"key", app.result.col_labels[static_cast<size_t>(j)]}})}});
    rows.push_back({{"query", app.result.row_labels[static_cast<size_t>(i)]}, {"cells", std::move(cells)}});
  }
  json padding = json::array();
  for (int j = 0; j < m; ++j)
    padding.push_back(j < static_cast<int>(refs.padding.size()) && refs.padding[static_cast<size_t>(j)]);
  return {{"title", tr(lang, "a11y.mask_grid")},
          {"keys", json(std::vector<std::string>(app.result.col_labels.begin(), app.result.col_labels.begin() + m))},
          {"rows", std::move(rows)},
          {"padding", std::move(padding)},
          {"padding_label", tr(lang, "masks.padding")},
          {"masked", tr(lang, "a11y.masked")},
          {"locked", locked(app, "mask")}};
}

// The embeddings panel's points while it shows them (random examples, up to kPointTwinsMax tokens, not hidden by an
// embed): per token its two coordinates on the plane's axes, named "cat: x (dimension 1)".
json points_json(const App& app) {
  const State& s = app.state;
  const int n = static_cast<int>(s.embeddings.rows()), d = static_cast<int>(s.embeddings.cols());
  if (!s.panels.embeddings || s.mode != InputMode::Random || n == 0 || d == 0 || n > kPointTwinsMax ||
      (app.embed.enabled && app.embed.is_hidden("embeddings")))
    return nullptr;
  const Lang lang = s.lang;
  const int px = std::clamp(s.plane_x, 0, d - 1), py = std::clamp(s.plane_y, 0, d - 1);
  json items = json::array();
  for (int i = 0; i < n; ++i) {
    const std::string token =
        i < static_cast<int>(app.result.row_labels.size()) ? app.result.row_labels[static_cast<size_t>(i)] : "";
    const auto axis = [&](const char* name, int dim) {
      const std::string label = tr_format(lang, "a11y.point_axis",
                                          {{"token", token},
                                           {"axis", name},
                                           {"dim", tr_format(lang, "a11y.point_dim", {{"dim", learner_index(dim)}})}});
      const double v = s.embeddings(i, dim);
      return json{{"label", label}, {"value", v}, {"valuetext", label + " " + number_text(v, 3)}};
    };
    items.push_back({{"label", tr_format(lang, "a11y.point", {{"index", learner_index(i)}, {"token", token}})},
                     {"x", axis("x", px)},
                     {"y", axis("y", py)}});
  }
  return {{"title", tr(lang, "a11y.points")},
          {"items", std::move(items)},
          {"min", -kEmbeddingEditMax},
          {"max", kEmbeddingEditMax},
          {"locked", locked(app, "embeddings")}};
}

// The selected row's weights (head 1) with the key tokens: the numbers the heatmap colours. While a lesson question
// asks about them, the table says they are hidden until the answer (a reader must not hear what a sighted learner
// is asked to predict).
json weights_json(const App& app) {
  const HeadResult& h = app.result.core.first_head();
  const int row = app.state.selected_row;
  if (row < 0 || row >= h.weights.rows()) return nullptr;
  const std::vector<std::string> withheld = withheld_facts(app);
  if (withholds(withheld, "weights") || withholds(withheld, "saturation"))
    return {{"withheld", tr(app.state.lang, "summary.withheld")}};
  json w = json::array();
  for (int k = 0; k < h.weights.cols(); ++k) w.push_back(static_cast<double>(h.weights(row, k)));
  const RowSaturation sat = row_saturation(h, row);
  const std::string query = row < static_cast<int>(app.result.row_labels.size())
                                ? app.result.row_labels[static_cast<size_t>(row)]
                                : learner_index(row);
  // The app's one rule (saturation.h): one visible key is weight 1 by construction, not saturation.
  const char* said = sat.single_key  ? "summary.single_key"
                     : sat.saturated ? "summary.saturated"
                                     : "summary.not_saturated";
  return {{"row", row},
          {"query", query},
          {"keys", app.result.col_labels},
          {"weights", w},
          {"max_weight", sat.max_weight},
          {"largest", tr_format(app.state.lang, "a11y.largest_weight", {{"w", format_fixed(sat.max_weight, 3)}})},
          {"saturated", sat.saturated},
          {"saturation", tr(app.state.lang, said)}};
}
// A panel's table in the parallel DOM: none while the panel is closed, "withheld" while a lesson question asks about
// what the panel shows (the canvas hides the panel then), else what `make` gives in the page's language.
template <class Make>
json panel_table_json(const App& app, PanelId id, Make make) {
  if (!app.state.panels[id]) return nullptr;
  for (const std::string& fact : withheld_facts(app))
    if (panel_shows(panel_info(id), fact)) return {{"withheld", tr(app.state.lang, "summary.withheld")}};
  return make(app.state.lang);
}

// The Saturation panel's curves as a table.
json sweep_json(const App& app, Lang lang) {
  const DkSweep& sw = app.result.sweep;
  const size_t row = static_cast<size_t>(sw.row);
  const std::string query = row < app.result.row_labels.size() ? app.result.row_labels[row] : learner_index(sw.row);
  json out = {{"caption", tr_format(lang, "a11y.sweep.caption", {{"query", query}})}};
  const auto table = sweep_table(lang, sw, app.result.core.d_k);
  if (table.empty()) {
    out["about"] = tr_format(lang, "saturation.no_sweep", {{"d_k", std::to_string(app.result.core.d_k)}});
    return out;
  }
  out["about"] = tr(lang, "a11y.sweep.about");
  out["table"] = table;
  return out;
}

// The Variance lab's readouts as the panel's table has them, each value with its theory.
json variance_json(const App& app, Lang lang) {
  const VarianceRow& v = app.result.variance;
  json out = {{"caption", tr(lang, "panel.variance")}, {"about", variance_intro(lang, v)}};
  if (v.samples <= 0 || v.d_k <= 0) return out;
  const ReadoutTable t = variance_readouts(lang, v);
  json table = json::array({t.header});
  for (const ReadoutRow& row : t.rows) {
    json cells = json::array({row.name});
    for (const ReadoutCell& c : row.cells)
      cells.push_back(c.theory.empty() ? c.value
                                       : tr_format(lang, "a11y.readout", {{"value", c.value}, {"theory", c.theory}}));
    table.push_back(std::move(cells));
  }
  out["table"] = std::move(table);
  return out;
}
// The scaling study as the Learn panel shows it: a caption, what the numbers are, the table (header first), and
// the reversal the panel's button runs.
json study_json(Lang lang) {
  const auto table = study_table(lang);
  if (table.size() < 2) return nullptr;
  return {{"caption", tr(lang, "learn.study.title")},
          {"about", tr(lang, "learn.study.about")},
          {"table", table},
          {"reversal", reversal_text(lang)}};
}
}  // namespace

nlohmann::json a11y_description(const App& app) {
  const Lang lang = app.state.lang;
  json words = json::object();
  for (const char* key :
       {"a11y.skip_lesson", "a11y.skip_controls", "a11y.skip_results", "a11y.results", "a11y.weights_caption",
        "a11y.query", "a11y.key", "a11y.weight", "a11y.whole_matrix", "a11y.controls", "a11y.lesson", "a11y.answer",
        "a11y.skip_lessons", "a11y.skip_worksheet", "a11y.skip_builder", "a11y.skip_menus", "a11y.skip_links",
        "a11y.row", "a11y.column",
        // attnplay-lms.js: what the learner is told about the LMS (mode, credit, a session failing or not started)
        "lms.not_recorded", "lms.no_credit", "lms.failing", "lms.recorded_again", "lms.not_connected", "lms.starting"})
    words[key] = tr(lang, key);
  return {{"lang", lang_code(lang)},
          {"panels", panels_json(app)},
          {"start", start_json(app)},
          {"lesson", lesson_json(app)},
          {"lessons", lessons_json(app)},
          {"results", results_json(app)},
          {"menus", menus_json(app)},
          {"worksheet", worksheet_json(app)},
          {"masks", masks_json(app)},
          {"points", points_json(app)},
          {"weights", weights_json(app)},
          {"sweep", panel_table_json(app, PanelId::saturation, [&](Lang l) { return sweep_json(app, l); })},
          {"variance", panel_table_json(app, PanelId::variance, [&](Lang l) { return variance_json(app, l); })},
          // Learn mode's progress in words ("So far: A reached 90 % accuracy at step 190, …") while its panel is open.
          {"learn", app.state.panels.learn ? learn_outcome(lang, app.learn.trainer) : std::string()},
          {"study", app.state.panels.learn ? study_json(lang) : json()},
          {"builder", app.embed.enabled ? json() : builder_twin_json(app)},
          {"words", words}};
}

namespace {
// {"stage": "Q", "row": i, "col": j, "value": text} (0-based) into the worksheet, as the canvas's cell writes it.
std::string type_worksheet_cell(App& app, const json& action) {
  const auto text = [&](const char* k) {
    return action.contains(k) && action[k].is_string() ? action[k].get<std::string>() : std::string();
  };
  const auto index = [&](const char* k) {
    return action.contains(k) && action[k].is_number_integer() ? action[k].get<int>() : -1;
  };
  const WorksheetSession& w = app.worksheet;
  const std::optional<exercise::Stage> found = exercise::stage_from_id(text("stage"));
  if (!found || !action.contains("value") || !action["value"].is_string() || w.loaded != app.state.exercise ||
      !w.error.empty())
    return "no such worksheet cell";
  const exercise::Stage s = found.value();
  const int row = index("row"), col = index("col");
  if (w.exercise.is_given(s) || row < 0 || col < 0 || row >= w.exercise.rows(s) || col >= w.exercise.cols(s))
    return "no such worksheet cell";
  type_cell(app, s, row, col, text("value"));
  return "";
}

// {"do": "pick_cell", "stage", "row", "col"} (a cell's twin focused, as the canvas's cell activated) and
// {"do": "show_me", "stage"} (the twin of "Show me" under that stage).
std::string worksheet_show_action(App& app, const std::string& what, const json& action) {
  WorksheetSession& w = app.worksheet;
  const std::optional<exercise::Stage> found = exercise::stage_from_id(
      action.contains("stage") && action["stage"].is_string() ? action["stage"].get<std::string>() : "");
  if (!found || w.loaded != app.state.exercise || !w.error.empty() || w.exercise.is_given(*found))
    return "no such worksheet stage";
  const exercise::Stage s = *found;
  if (what == "show_me") return show_picked_cell(w, s) ? "" : "no cell of this stage is picked";
  const auto index = [&](const char* k) {
    return action.contains(k) && action[k].is_number_integer() ? action[k].get<int>() : -1;
  };
  const int row = index("row"), col = index("col");
  if (row < 0 || col < 0 || row >= w.exercise.rows(s) || col >= w.exercise.cols(s)) return "no such worksheet cell";
  pick_cell(w, s, row, col);
  return "";
}

// A Learn control's edit from the page, as the Learn panel makes it (numbers clamped to the panel's ranges).
std::string learn_action(App& app, const json& action) {
  const std::string id = action.contains("id") && action["id"].is_string() ? action["id"].get<std::string>() : "";
  if (locked(app, id)) return "locked";
  const json& v = action.contains("value") ? action["value"] : json();
  train::TrainSettings& st = app.state.learn_settings;
  const auto num = [&](double lo, double hi) { return std::clamp(v.is_number() ? v.get<double>() : lo, lo, hi); };
  const auto whole = [&](double lo, double hi) { return static_cast<int>(std::lround(num(lo, hi))); };
  if (id == "learn:task") {
    for (train::TaskKind k : kLearnTasks)
      if (v.is_string() && v.get<std::string>() == train::task_name(k)) set_learn_task(st, k);
  } else if (id == "learn:vary") {
    for (train::Difference d : kLearnDifferences)
      if (v.is_string() && v.get<std::string>() == train::difference_name(d)) st.vary = d;
  } else if (id == "learn:d_k" && v.is_number()) {
    set_learn_d_k(st, whole(1, kLearnDkMax));
  } else if (id == "learn:layers" && v.is_number()) {
    st.model.layers = whole(1, kLearnLayersMax);
  } else if (id == "learn:heads" && v.is_number()) {
    st.model.heads = whole(1, kLearnHeadsMax);
  } else if (id == "learn:lr" && v.is_number()) {
    st.optim.learning_rate = num(kLearnLrMin, kLearnLrMax);
  } else if (id == "learn:speed" && v.is_number()) {
    app.state.learn_speed = whole(1, kLearnSpeedMax);
  } else if (id == "learn:play") {
    app.state.learn_playing = !app.state.learn_playing;
  } else if (id == "learn:step") {
    learn_step(app);
  } else if (id == "learn:reset") {
    learn_reset(app);
  } else if (id == "learn:reversal") {
    return learn_open_reversal(app);
  } else if (id == "learn:export") {
    if (app.host.download)
      app.download("attnplay-train.json", "application/json", app.learn.trainer.to_json(true).dump(1));
  } else {
    return "unknown Learn control";
  }
  return "";
}

// A mask cell or a key's padding set from the page, as painting the canvas's grid or ticking its box does.
std::string mask_action(App& app, const std::string& what, const json& action) {
  if (locked(app, "mask")) return "locked";
  const auto index = [&](const char* k) {
    return action.contains(k) && action[k].is_number_integer() ? action[k].get<int>() : -1;
  };
  const bool on = action.contains("value") && action["value"].is_boolean() && action["value"].get<bool>();
  const HeadResult& h = app.result.core.first_head();
  const int n = static_cast<int>(h.weights.rows()), m = static_cast<int>(h.weights.cols());
  const int row = index("row"), col = index("col");
  State& s = app.state;
  const bool random = s.mode == InputMode::Random;
  if (col < 0 || col >= m) return "no such mask cell";
  if (what == "mask_pad") {
    std::vector<bool>& padding = random ? s.key_padding : s.explicit_scenario.key_padding;
    if (static_cast<int>(padding.size()) != m) padding.assign(static_cast<size_t>(m), false);
    padding[static_cast<size_t>(col)] = on;
    return "";
  }
  if (row < 0 || row >= n) return "no such mask cell";
  std::optional<MaskMat>& cells = random ? s.mask_cells : s.explicit_scenario.mask_cells;
  if (!cells || cells->rows() != n || cells->cols() != m) cells = MaskMat::Zero(n, m);
  (*cells)(row, col) = on ? 1 : 0;
  return "";
}

// {"row": i, "axis": "x" | "y", "value": v}: one coordinate of a token's point, through the plane drag's own edit.
std::string point_action(App& app, const json& action) {
  if (locked(app, "embeddings")) return "locked";
  State& s = app.state;
  const int row = action.contains("row") && action["row"].is_number_integer() ? action["row"].get<int>() : -1;
  const std::string axis =
      action.contains("axis") && action["axis"].is_string() ? action["axis"].get<std::string>() : "";
  const bool x = axis == "x";
  const int d = static_cast<int>(s.embeddings.cols());
  if (s.mode != InputMode::Random || row < 0 || row >= s.embeddings.rows() || d <= 0 || (!x && axis != "y") ||
      !action.contains("value") || !action["value"].is_number())
    return "no such point";
  s.plane_x = std::clamp(s.plane_x, 0, d - 1);
  s.plane_y = std::clamp(s.plane_y, 0, d - 1);
  const double v = action["value"].get<double>();
  const double at_x = x ? v : s.embeddings(row, s.plane_x), at_y = x ? s.embeddings(row, s.plane_y) : v;
  return move_embedding_point(s, row, at_x, at_y) ? "" : "no such point";
}

// The menus' twin: open or close a panel, open a workspace, change the language (as the View and Language menus do).
std::string menu_action(App& app, const std::string& what, const json& v, const json& action) {
  if (app.embed.enabled) return "an embed's page decides what shows";
  if (what == "language") {
    Lang l = app.state.lang;
    if (!v.is_string() || !lang_from_code(v.get<std::string>(), l)) return "no such language";
    app.state.lang = l;
    return "";
  }
  if (what == "workspace") {
    const Workspace* w = v.is_string() ? find_workspace(v.get<std::string>()) : nullptr;
    if (!w) return "no such workspace";
    apply_workspace(app.state.panels, *w);
    return "";
  }
  const PanelInfo* p = v.is_string() ? find_panel(v.get<std::string>()) : nullptr;
  if (!p || !action.contains("open") || !action["open"].is_boolean()) return "no such panel";
  app.state.panels[p->id] = action["open"].get<bool>();
  return "";
}

// A finished lesson's results: review a step, start it again, or put the results away.
std::string results_action(App& app, const std::string& what, const json& v) {
  if (app.finished_lesson.empty() || open_lesson(app)) return "no lesson has finished";
  if (what == "review") return v.is_number_integer() ? review_step(app, v.get<int>()) : "no such step";
  if (what == "results_restart") return restart_lesson(app, std::string(app.finished_lesson));
  close_results(app);
  return "";
}

// Actions that need no open lesson: start one, forget the progress, type a worksheet cell, a lesson's results.
bool free_action(App& app, const std::string& what, const json& action, std::string& err) {
  const json& v = action.contains("value") ? action["value"] : json();
  if (what == "start" && v.is_string()) {
    const Lesson* l = find_lesson(v.get<std::string>());
    if (!l) {
      err = "no such lesson";
      return true;
    }
    err = continue_lesson(app, l->id);  // as the lesson panel does
    return true;
  }
  if (what == "start_view") {  // the start view's two buttons
    if (!start_view_shown(app))
      err = "the start view is not open";
    else if (v == "lesson")
      err = start_first_lesson(app);
    else if (v == "explore")
      explore_freely(app);
    else
      err = "no such way to start";
    return true;
  }
  if (what == "mask_cell" || what == "mask_pad") {
    err = mask_action(app, what, action);
    return true;
  }
  if (what == "point") {
    err = point_action(app, action);
    return true;
  }
  if (what == "learn") {
    err = learn_action(app, action);
    return true;
  }
  if (what == "reset_progress") {
    reset_progress(app);
    return true;
  }
  if (what == "panel" || what == "workspace" || what == "language") {
    err = menu_action(app, what, v, action);
    return true;
  }
  if (what == "review" || what == "results_restart" || what == "results_close") {
    err = results_action(app, what, v);
    return true;
  }
  if (what == "cell") {
    err = type_worksheet_cell(app, action);
    return true;
  }
  if (what == "share") {
    err = share_action(app, action);
    return true;
  }
  if (what == "button") {  // Re-roll weights, Shuffle tokens, Clear painted cells, Clear padding
    err = button_action(app, action.contains("id") && action["id"].is_string() ? action["id"].get<std::string>() : "");
    return true;
  }
  if (what == "builder") {  // the lesson builder's twins (builder_twin.h)
    err = builder_act(app, action);
    return true;
  }
  if (what == "pick_cell" || what == "show_me") {
    err = worksheet_show_action(app, what, action);
    return true;
  }
  return false;
}
}  // namespace

std::string a11y_act(App& app, const nlohmann::json& action) {
  if (!action.is_object() || !action.contains("do") || !action["do"].is_string()) return "no action given";
  const std::string what = action["do"].get<std::string>();
  if (std::string err; free_action(app, what, action, err)) return err;
  const Lesson* l = open_lesson(app);
  if (!l) return "no lesson is open";
  if (what == "next") return next_step(app) ? "" : tr(app.state.lang, "lesson.ui.need_answer");
  if (what == "back") return app.state.lesson.step > 1 ? go_to_step(app, app.state.lesson.step - 1) : "";
  if (what == "exit") {
    leave_lesson(app);
    return "";
  }
  if (what == "restart") return restart_lesson(app, std::string(l->id));
  const json& v = action.contains("value") ? action["value"] : json();
  if (what == "choice" && v.is_number_integer()) {
    answer_choice(app, v.get<int>());
    return "";
  }
  if (what == "number" && v.is_string()) {
    answer_typed(app, v.get<std::string>());
    return "";
  }
  return "unknown action";
}

}  // namespace attn
