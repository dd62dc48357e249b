// test_builder_twin.cpp — the lesson builder's parallel-DOM twin: its actions edit the one draft the canvas panel
// draws (app.builder), keep it with the progress, and its description shows the draft, the step being edited and the
// checker's verdict; what cannot be done is refused with why, and a saved file is a lesson the validator accepts.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "app/a11y.h"
#include "app/app.h"
#include "app/base/strings.h"
#include "app/builder_actions.h"
#include "app/lesson/lesson.h"
#include "app/state/registry.h"

using namespace attn;
using nlohmann::json;

namespace {
json builder_do(const char* what, json extra = json::object()) {
  extra["do"] = "builder";
  extra["what"] = what;
  return extra;
}

// Every item of the twin's description, groups opened.
void flatten(const json& items, std::vector<json>& out) {
  for (const json& it : items) {
    out.push_back(it);
    if (it.contains("items")) flatten(it["items"], out);
  }
}
json find_item(const App& app, const std::string& id) {
  std::vector<json> all;
  flatten(a11y_description(app)["builder"]["items"], all);
  for (const json& it : all)
    if (it.value("id", "") == id) return it;
  return nullptr;
}
}  // namespace

TEST_CASE("the builder twin's actions build the draft the canvas shows, kept with the progress", "[builder][a11y]") {
  App app;
  std::string saved_name, saved;
  app.host.download = [&](const std::string& name, const std::string&, const std::string& bytes) {
    saved_name = name, saved = bytes;
    return SaveOutcome{true, name, ""};
  };
  CHECK(a11y_act(app, builder_do("add")) == "the lesson builder is not open");
  CHECK(a11y_description(app)["builder"].is_null());
  app.state.panels.builder = true;
  app.tick();
  CHECK(find_item(app, "builder:add")["then"] == "builder:step:1:text");

  REQUIRE(a11y_act(app, builder_do("id", {{"value", "kb-lesson"}})).empty());
  REQUIRE(a11y_act(app, builder_do("title", {{"value", "By keys"}})).empty());
  REQUIRE(a11y_act(app, builder_do("add")).empty());
  REQUIRE(app.builder.draft.steps.size() == 1);
  CHECK(app.builder.selected == 0);
  CHECK(find_item(app, "builder:step:1")["pressed"] == true);
  REQUIRE(a11y_act(app, builder_do("text", {{"step", 0}, {"field", "text"}, {"value", "Look at\nd_k 8."}})).empty());
  CHECK(app.builder.draft.steps[0].text.in(Lang::En) == "Look at d_k 8.");  // one paragraph, as the canvas keeps it
  CHECK(app.progress["builder"]["steps"][0]["text"]["en"] == "Look at d_k 8.");

  app.state.d_k = 16;
  REQUIRE(a11y_act(app, builder_do("add")).empty());
  REQUIRE(a11y_act(app, builder_do("text", {{"step", 1}, {"field", "text"}, {"value", "Now d_k 16."}})).empty());
  REQUIRE(a11y_act(app, builder_do("ask", {{"step", 1}, {"value", "1"}})).empty());
  CHECK(app.builder.draft.steps[1].choices.size() == 2);
  for (const auto& [field, choice, text] :
       std::vector<std::tuple<const char*, int, const char*>>{{"question", -1, "Which row is flatter?"},
                                                              {"choice", 0, "d_k 8"},
                                                              {"choice", 1, "d_k 16"},
                                                              {"feedback", 0, "Scaling keeps them alike."}}) {
    json a = {{"step", 1}, {"field", field}, {"value", text}};
    if (choice >= 0) a["choice"] = choice;
    REQUIRE(a11y_act(app, builder_do("text", a)).empty());
  }
  REQUIRE(a11y_act(app, builder_do("right", {{"step", 1}, {"value", "1"}})).empty());
  CHECK(app.builder.draft.steps[1].answer == 1);
  // The wrong choice (now the first) asks for its feedback; the right one has none.
  CHECK(find_item(app, "builder:step:2:choice:1:feedback").is_object());
  CHECK(find_item(app, "builder:step:2:choice:2:feedback").is_null());
  CHECK(find_item(app, "builder:step:2:choice:2:right").is_null());  // an option of the radio group, not an item

  INFO(app.builder.problem);
  REQUIRE(app.builder.problem.empty());
  CHECK(a11y_description(app)["builder"]["verdict"] == tr_format(Lang::En, "builder.ok", {{"n", "2"}}));
  CHECK_FALSE(find_item(app, "builder:save").contains("disabled"));
  REQUIRE(a11y_act(app, builder_do("save")).empty());
  CHECK(saved_name == "kb-lesson.json");
  Lesson l;
  REQUIRE(check_lesson_text(saved, l).empty());
  CHECK(l.steps.size() == 2);

  // Moving and deleting: the picked step follows its step.
  REQUIRE(a11y_act(app, builder_do("up", {{"step", 1}})).empty());
  CHECK(app.builder.selected == 0);
  CHECK(a11y_act(app, builder_do("up", {{"step", 0}})) == "it cannot move so");
  REQUIRE(a11y_act(app, builder_do("delete", {{"step", 1}})).empty());
  CHECK(app.builder.draft.steps.size() == 1);
  CHECK(a11y_act(app, builder_do("delete", {{"step", 4}})) == "no such step");
  CHECK(a11y_act(app, builder_do("fly", {{"step", 0}})) == "unknown builder action");
}

TEST_CASE("the builder twin refuses outputs while the checker finds a problem, and says why", "[builder][a11y]") {
  App app;
  bool downloaded = false;
  app.host.download = [&](const std::string&, const std::string&, const std::string&) {
    downloaded = true;
    return SaveOutcome{true, "", ""};
  };
  app.state.panels.builder = true;
  app.tick();
  REQUIRE(a11y_act(app, builder_do("add")).empty());  // a step with no text: not yet a lesson
  REQUIRE_FALSE(app.builder.problem.empty());
  const json save = find_item(app, "builder:save");
  CHECK(save["disabled"] == true);
  CHECK(save["reason"] == tr_format(Lang::En, "builder.problem", {{"error", app.builder.problem}}));
  CHECK(a11y_act(app, builder_do("save")) == app.builder.problem);
  CHECK_FALSE(downloaded);
  CHECK(a11y_act(app, builder_do("text", {{"step", 0}, {"field", "text"}, {"value", 3}})) == "no text given");
  CHECK(a11y_act(app, builder_do("number", {{"step", 0}, {"value", "x"}})) == "not a number");
}

TEST_CASE("every twin of the builder rings a control the canvas tracks, or names one of its kind", "[builder][a11y]") {
  App app;
  app.state.panels.builder = true;
  app.tick();
  for (const char* ask : {"1", "2", "3"}) {
    REQUIRE(a11y_act(app, builder_do("add")).empty());
    const int i = static_cast<int>(app.builder.draft.steps.size()) - 1;
    REQUIRE(a11y_act(app, builder_do("ask", {{"step", i}, {"value", ask}})).empty());
  }
  std::vector<json> all;
  flatten(a11y_description(app)["builder"]["items"], all);
  std::vector<json> option_ids;  // a radio group's options each ring their own canvas control
  for (const json& it : all)
    for (const json& o : it.value("options", json::array()))
      if (o.contains("id")) option_ids.push_back({{"id", o["id"]}});
  all.insert(all.end(), option_ids.begin(), option_ids.end());
  for (const json& it : all) {
    const std::string id = it.value("id", "");
    if (id.empty() || id == "builder:scorm") continue;
    INFO(id);
    CHECK(canonical_control_id(id) == id);
    ControlId known;
    CHECK((id.rfind("builder:step:", 0) == 0 || find_control_id(id, known)));
  }
}

TEST_CASE("the builder twin says what it refuses in the page's language", "[builder][a11y]") {
  App app;
  app.state.lang = Lang::HiLatn;
  CHECK(a11y_act(app, builder_do("add")) == "lesson builder khula nahi hai");
  app.state.panels.builder = true;
  app.tick();
  CHECK(a11y_act(app, builder_do("open")) == "koi link nahi diya");
  REQUIRE(a11y_act(app, builder_do("add")).empty());
  CHECK(a11y_act(app, builder_do("up", {{"step", 0}})) == "yeh step us taraf nahi khisak sakta");
  CHECK(a11y_act(app, builder_do("delete", {{"step", 4}})) == "aisa koi step nahi hai");
  CHECK(a11y_act(app, builder_do("fly", {{"step", 0}})) == "anjaan builder action");
  REQUIRE(a11y_act(app, builder_do("ask", {{"step", 0}, {"value", "1"}})).empty());
  REQUIRE(app.builder.draft.steps[0].choices.size() == 2);
  CHECK(a11y_act(app, builder_do("remove_choice", {{"step", 0}, {"choice", 0}})) ==
        "question mein kam se kam do choices rehni chahiye");
  CHECK(a11y_act(app, builder_do("remove_choice", {{"step", 0}, {"choice", 5}})) == "aisi koi choice nahi hai");
  app.state.lang = Lang::En;
  CHECK(a11y_act(app, builder_do("open")) == "no link given");
  CHECK(a11y_act(app, builder_do("remove_choice", {{"step", 0}, {"choice", 1}})) ==
        "a question keeps at least two choices");
  REQUIRE(a11y_act(app, builder_do("add_choice", {{"step", 0}})).empty());
  CHECK(a11y_act(app, builder_do("remove_choice", {{"step", 0}, {"choice", 2}})).empty());
  CHECK(app.builder.draft.steps[0].choices.size() == 2);
}
