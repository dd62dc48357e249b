// test_start_view.cpp — a first visit (nothing kept, nothing linked, the page on its own) opens with the start view;
// "Start the first lesson" opens the first lesson at step 1 in a column of its own, "Explore freely" the default
// panels; the parallel DOM has the same view and buttons; a returning learner, a link, an embed or an LMS never see it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "app/a11y.h"
#include "app/app.h"
#include "app/base/strings.h"
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_run.h"
#include "app/start_view.h"
#include "app/state/tiling.h"

using namespace attn;
using nlohmann::json;

namespace {
// A first visit as the platform starts it, with the progress the host would keep.
struct FirstVisit {
  App app;
  std::string kept;
  FirstVisit() {
    app.host.save_progress = [this](const std::string& json) { kept = json; };
    app.start_view = first_visit(VisitFacts{});
    app.tick();
  }
  bool told_start_view(const std::string& choice) const {
    return std::any_of(app.events.begin(), app.events.end(), [&](const json& e) {
      return e.value("type", "") == "start-view" && e.value("choice", "") == choice;
    });
  }
};

VisitFacts from_query(const std::string& query) {
  VisitFacts f;
  read_visit_query(query, f);
  return f;
}
}  // namespace

TEST_CASE("only a visit with nothing kept, linked, embedded or launched opens with the start view", "[start]") {
  CHECK(first_visit(VisitFacts{}));
  VisitFacts f;
  f.kept_work = true;  // a returning learner goes straight back to their work
  CHECK_FALSE(first_visit(f));
  f = {};
  f.link = true;  // a share link's fragment, a builder's #lesson=, a state file
  CHECK_FALSE(first_visit(f));
  // The query: a lesson link, an embed, a course package's or a cmi5 launch; a language alone is still a first visit.
  CHECK(first_visit(from_query("")));
  CHECK(first_visit(from_query("?lang=hi-Latn")));
  CHECK(from_query("?lesson=not-explanation&step=2").lesson_link);
  CHECK(from_query("?lesson-url=https%3A%2F%2Fexample.org%2Fl.json").lesson_link);
  CHECK(from_query("?embed=1").embed);
  CHECK(from_query("?panels=heatmap,controls").embed);
  CHECK(from_query("?lms=1").lms);
  CHECK(from_query("?xapi-endpoint=https%3A%2F%2Flrs.example").lms);
  CHECK(from_query("?endpoint=e&fetch=f&registration=r&actor=a&activityId=i").lms);
  CHECK(first_visit(from_query("?endpoint=e&fetch=f")));  // not a whole cmi5 launch
  for (const char* q : {"?lesson=not-explanation", "?embed=1", "?lms=1", "?xapi-endpoint=x"})
    CHECK_FALSE(first_visit(from_query(q)));
  // What the page found besides: work kept in this browser, an inline notebook copy, a page in another page's frame.
  for (const char* words : {"kept", "inline", "framed", "kept framed"}) {
    VisitFacts w;
    read_visit_words(words, w);
    INFO(words);
    CHECK_FALSE(first_visit(w));
  }
  VisitFacts none;
  read_visit_words("", none);
  CHECK(first_visit(none));
}

TEST_CASE("Start the first lesson opens the first lesson at step 1, in a column of its own", "[start]") {
  FirstVisit v;
  App& app = v.app;
  REQUIRE(start_view_shown(app));
  REQUIRE(start_first_lesson(app) == "");
  app.tick();
  CHECK(app.state.lesson.id == builtin_lesson_entries().front().id);
  CHECK(app.state.lesson.step == 1);
  CHECK(open_step(app) != nullptr);
  CHECK_FALSE(start_view_shown(app));
  CHECK(v.told_start_view("lesson"));
  CHECK_FALSE(v.kept.empty());  // kept: the next visit is not a first one
  // At 1440×900 the lesson has the left column to itself, the window's whole height below the menu bar, whichever
  // panels are open beside it (the step's own, or every default panel): they share the columns to its right.
  std::vector<PanelId> step_panels, default_panels;
  for (const PanelInfo& info : panel_table()) {
    if (app.state.panels[info.id] && info.id != PanelId::share) step_panels.push_back(info.id);
    if (info.default_open) default_panels.push_back(info.id);
  }
  const float top = 20, font = 15;
  for (const auto& open : {step_panels, default_panels}) {
    INFO(open.size() << " panels open");
    REQUIRE(std::find(open.begin(), open.end(), PanelId::lesson) != open.end());
    const std::vector<Tile> tiles = tile_panels(open, 0, top, 1440, 900 - top, min_column_width(font), true);
    const auto lesson = std::find_if(tiles.begin(), tiles.end(), [](const Tile& t) { return t.id == PanelId::lesson; });
    REQUIRE(lesson != tiles.end());
    CHECK(lesson->x == 0);
    CHECK(lesson->y == top);
    CHECK(lesson->h == 900 - top);
    CHECK(lesson->w >= min_column_width(font));
    for (const Tile& t : tiles)
      if (t.id != PanelId::lesson) CHECK(t.x >= lesson->x + lesson->w);
  }
  // Without a lesson open, the lesson panel (the lesson list) keeps its registry place among the default panels,
  // sharing the first column with the Controls.
  const std::vector<Tile> usual = tile_panels(default_panels, 0, top, 1440, 900 - top, min_column_width(font));
  const auto listed = std::find_if(usual.begin(), usual.end(), [](const Tile& t) { return t.id == PanelId::lesson; });
  CHECK(listed->h < (900 - top) / 2);
}

TEST_CASE("Explore freely shows the default panels and no lesson", "[start]") {
  FirstVisit v;
  App& app = v.app;
  REQUIRE(start_view_shown(app));
  const uint64_t stamp = app.change_stamp();
  explore_freely(app);
  app.tick();
  CHECK(app.change_stamp() != stamp);  // the page hears the change (its parallel DOM drops the view's twin)
  CHECK_FALSE(start_view_shown(app));
  CHECK(app.state.lesson.id.empty());
  CHECK(app.state.panels == PanelVisibility{});
  CHECK(v.told_start_view("explore"));
  CHECK_FALSE(v.kept.empty());
}

TEST_CASE("a lesson opened from the menu closes the start view for good; an embed never shows it", "[start]") {
  FirstVisit v;
  App& app = v.app;
  REQUIRE(start_lesson(app, builtin_lesson_entries().back().id, 1) == "");
  app.tick();
  leave_lesson(app);
  app.tick();
  CHECK_FALSE(start_view_shown(app));  // leaving the lesson goes to the panels, not back to the start view

  App embedded;
  embedded.start_view = true;
  embedded.embed.enabled = true;
  CHECK_FALSE(start_view_shown(embedded));
}

TEST_CASE("the parallel DOM has the start view: heading, sentence, languages and both buttons, which act", "[start]") {
  for (Lang lang : languages()) {
    INFO(lang_code(lang));
    FirstVisit v;
    App& app = v.app;
    app.state.lang = lang;
    const json d = a11y_description(app);
    REQUIRE(d["start"].is_object());
    const json& s = d["start"];
    CHECK(s["heading"] == tr(lang, "start.title"));
    CHECK(s["sentence"] == tr(lang, "start.sentence"));
    CHECK(s["lesson"] == tr(lang, "start.lesson"));
    CHECK(s["explore"] == tr(lang, "start.explore"));
    CHECK(s["lang"] == lang_code(lang));
    CHECK(s["languages"].size() == languages().size());
    CHECK(d["lessons"].is_null());  // the view stands alone, as on the canvas
    CHECK(a11y_act(app, {{"do", "start_view"}, {"value", "elsewhere"}}) == "no such way to start");
  }
  FirstVisit lesson;
  REQUIRE(a11y_act(lesson.app, {{"do", "start_view"}, {"value", "lesson"}}) == "");
  lesson.app.tick();
  CHECK(lesson.app.state.lesson.id == builtin_lesson_entries().front().id);
  CHECK(lesson.app.state.lesson.step == 1);
  CHECK(a11y_description(lesson.app)["start"].is_null());
  CHECK(a11y_description(lesson.app)["lesson"].is_object());
  FirstVisit explore;
  REQUIRE(a11y_act(explore.app, {{"do", "start_view"}, {"value", "explore"}}) == "");
  CHECK(a11y_description(explore.app)["start"].is_null());
  CHECK(explore.app.state.panels == PanelVisibility{});
  CHECK(a11y_act(explore.app, {{"do", "start_view"}, {"value", "lesson"}}) == "the start view is not open");
}
