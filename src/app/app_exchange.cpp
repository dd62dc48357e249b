// app_exchange.cpp — the App's share link, opened fragments and imported files, downloads, getResult's JSON and the
// builder's opened lessons: what the App exchanges with the page, the host and files.
#include "app/app_exchange.h"

#include "app/app.h"
#include "app/exchange/share.h"
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_builder.h"
#include "app/lesson/lesson_run.h"
#include "core/json_codec.h"

namespace attn {

using nlohmann::json;

std::string open_in_builder(App& app, const std::string& text, const std::string& name) {
  app.builder_import = false;
  std::string file = text, err;
  if (is_lesson_link(text)) err = decode_lesson_link(text, file, app.state.lang);
  LessonDraft d;
  const json j = json::parse(file, nullptr, false);
  if (err.empty()) err = draft_from_json(j, d, app.state.lang);
  if (!err.empty()) {
    app.status = tr_format(app.state.lang, "status.lesson_failed", {{"name", printable(name)}, {"error", err}});
    return err;
  }
  app.builder_opened = j;
  app.state.panels.builder = true;
  return "";
}

namespace {
// null without a sweep (explicit matrices have one fixed d_k).
json sweep_json(const DkSweep& sw) {
  if (!sw.available) return nullptr;
  const auto band = [&](int m, int k) {
    const DkSweep::Band& b = sw.band[m][k];
    return json{{"mean", b.mean}, {"lo", b.lo}, {"hi", b.hi}};
  };
  const auto stats = [&](int k) {
    return json{{"entropy", sw.entropy[k]},
                {"max_weight", sw.max_weight[k]},
                {"jacobian_norm", sw.jacobian[k]},
                {"band", {{"entropy", band(0, k)}, {"max_weight", band(1, k)}, {"jacobian_norm", band(2, k)}}}};
  };
  return {{"d_k", sw.d_k},     {"heads", sw.heads},    {"row", sw.row},
          {"draws", sw.draws}, {"unscaled", stats(0)}, {"scaled", stats(1)}};
}
}  // namespace

json app_result_json(const App& app) {
  json j = result_to_json(app.result.core);
  if (!app.result.error.empty()) j["error"] = app.result.error;
  if (app.state.panels.learn || app.learn.trainer.steps_done() > 0) j["learn"] = learn_result_json(app);
  if (app.worksheet.loaded == app.state.exercise && app.worksheet.error.empty())
    j["worksheet"] = {{"exercise", app.worksheet.loaded},
                      {"answers", worksheet_answers_json(app.worksheet.answers)},
                      {"answered", app.worksheet.grade.answered},
                      {"mistakes", app.worksheet.grade.mistakes}};
  if (!app.state.lesson.id.empty())  // the open step as the learner left it (answer box included)
    j["lesson"] = {{"id", app.state.lesson.id},
                   {"step", app.state.lesson.step},
                   {"attempts", app.step_progress.attempts},
                   {"correct", app.step_progress.correct},
                   {"missed", app.step_progress.missed},
                   {"answered", app.step_progress.correct || app.step_progress.missed},
                   {"goal_met", app.step_progress.goal_met},
                   {"draft", lesson_draft(app)},
                   {"steps", open_lesson(app) ? open_lesson(app)->steps.size() : 0},
                   {"questions", open_lesson(app) ? lesson_questions_json(*open_lesson(app)) : json::array()}};
  j["tokens"] = app.result.row_labels;      // query rows
  j["key_tokens"] = app.result.col_labels;  // key columns
  const CrossResult& c = app.result.cross;
  json cross = {{"states", app.state.cross.states == CrossStates::NoteExample ? "note" : "seeded"},
                {"step", app.state.cross.step},
                {"source", c.source},
                {"target", c.target},
                {"encoder", matrix_to_json(c.encoder)},
                {"decoder", matrix_to_json(c.decoder)}};
  for (int k = 0; k < kCrossScorings; ++k) {
    const Result& r = c.scored[static_cast<size_t>(k)];
    const std::string& err = c.error[static_cast<size_t>(k)];
    cross[cross_scoring_id(k)] = err.empty() ? json{{"scores", matrix_to_json(r.main.scores)},
                                                    {"logits", matrix_to_json(c.softmax_scores(k))},
                                                    {"weights", matrix_to_json(r.main.weights)},
                                                    {"context", matrix_to_json(r.output)}}
                                             : json{{"error", err}};
  }
  j["cross"] = std::move(cross);
  json options = json::array();
  for (const HeadsOption& o : app.result.heads_options)
    options.push_back({{"heads", o.heads},
                       {"d_head", o.d_head},
                       {"mean_entropy", o.mean_entropy},
                       {"mean_max_weight", o.mean_max_weight},
                       {"min_head_entropy", o.min_head_entropy},
                       {"max_head_entropy", o.max_head_entropy}});
  j["heads_options"] = std::move(options);
  j["sweep"] = sweep_json(app.result.sweep);
  return j;
}

std::string result_json_text(const App& app) {
  return app_result_json(app).dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

// ---- App members -----------------------------------------------------------------------------
std::string App::share_link() const {
  return (host.page_url ? host.page_url() : std::string()) + "#" + share_fragment(state);
}

// A link or file leaves out the default language (English), so English in one means "not said":
// the learner's language stays; a Hinglish one switches to Hinglish.
static void keep_language(State& opened, Lang current) {
  if (opened.lang == kDefaultLang) opened.lang = current;
}

const std::string& App::current_share_link(double now_seconds) {
  const uint64_t stamp = change_stamp();
  const bool stale = shown_link_.empty() || shown_link_stamp_ != stamp ||
                     now_seconds - shown_link_at_ >= kLinkRefreshSeconds || now_seconds < shown_link_at_;
  if (stale) {
    shown_link_ = share_link();
    shown_link_stamp_ = stamp;
    shown_link_at_ = now_seconds;
  }
  return shown_link_;
}

bool App::open_fragment(const std::string& fragment) {
  if (!is_share_fragment(fragment)) return false;  // "#top": the page's, not a state to open
  State s;
  const Lang lang = state.lang;
  const std::string err = decode_share_fragment(fragment, s);
  if (err.empty()) {
    keep_language(s, lang);
    state = std::move(s);
    status.clear();
    update();
    return true;
  }
  state = default_state();
  state.lang = lang;
  status = tr_format(lang, "status.link_failed", {{"error", printable(err, 160)}});
  update();
  return false;
}

std::string App::import_text(const std::string& text, const std::string& name) {
  const bool to_builder = builder_import;  // asked for this pick only
  builder_import = false;
  if (looks_like_lesson(text) && to_builder) return open_in_builder(*this, text, name);  // to edit it
  if (looks_like_lesson(text)) return open_lesson_file(*this, text, name);               // a teacher's lesson file
  State s;
  std::string kind;
  const std::string err = import_document(text, state, s, kind);
  if (!err.empty()) {
    status = tr_format(state.lang, "status.import_failed", {{"name", printable(name)}, {"error", printable(err, 160)}});
    return err;
  }
  keep_language(s, state.lang);
  state = std::move(s);
  update();
  status = tr_format(state.lang, kind == "scenario" ? "status.imported_scenario" : "status.imported_state",
                     {{"name", printable(name)}});
  return "";
}

namespace {
std::string saved_text(Lang lang, const SaveOutcome& o) {
  if (o.ok) return tr_format(lang, "status.saved_path", {{"path", o.where}});
  const std::string failed = tr_format(lang, "status.write_failed", {{"name", o.where}});
  return o.reason.empty() ? failed : failed + ": " + o.reason;
}
}  // namespace

void App::download(const std::string& name, const std::string& mime, const std::string& bytes) {
  status = host.download ? saved_text(state.lang, host.download(name, mime, bytes))
                         : tr(state.lang, "status.save_unavailable");
}

void App::save_png(const std::string& name, int w, int h, const std::vector<uint8_t>& rgba) {
  status = host.save_png ? saved_text(state.lang, host.save_png(name, w, h, rgba))
                         : tr(state.lang, "status.save_unavailable");
}

}  // namespace attn
