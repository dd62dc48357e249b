// study.cpp — the scaling study's results and its reversal configuration (see study.h).
#include "app/learn/study.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <tuple>

#include "app/base/data.h"

namespace attn {

using nlohmann::json;

namespace {
StudySide read_side(const json& j) {
  StudySide s;
  s.lr = j.value("lr", 0.0);
  s.lr_at_edge = j.value("lr_at_edge", false);
  s.median = j.value("median", "");
  s.q1 = j.value("q1", "");
  s.q3 = j.value("q3", "");
  s.reached = j.value("reached", 0);
  s.seeds = j.value("seeds", 0);
  return s;
}

std::vector<StudyRow> read_rows() {
  std::vector<StudyRow> rows;
  for (const DataFile* f : data_files_in("study-results")) {
    const json doc = json::parse(f->data, f->data + f->size, nullptr, false);
    if (!doc.is_object() || !doc.contains("rows") || !doc["rows"].is_array()) continue;
    for (const json& r : doc["rows"]) {
      StudyRow row;
      row.study = doc.value("study", "");
      row.task = r.value("task", "");
      row.init = r.value("init", "");
      row.optimizer = r.value("optimizer", "");
      row.d_k = r.value("d_k", 0);
      row.a = read_side(r.value("a", json::object()));
      row.b = read_side(r.value("b", json::object()));
      row.b_slower = r.value("b_slower", 0);
      row.paired = r.value("paired", 0);
      const json ratio = r.value("ratio", json::object());
      row.ratio_median = ratio.value("median", "");
      row.ratio_min = ratio.value("min", "");
      row.ratio_max = ratio.value("max", "");
      rows.push_back(std::move(row));
    }
  }
  // As study.mjs orders its table: task, d_k, init, optimizer.
  std::stable_sort(rows.begin(), rows.end(), [](const StudyRow& x, const StudyRow& y) {
    return std::tie(x.task, x.d_k, x.init, x.optimizer) < std::tie(y.task, y.d_k, y.init, y.optimizer);
  });
  return rows;
}

// The grid file a results file came from ("studies/scaling.json"), as the study ran it.
json study_grid(const std::string& study) {
  const DataFile* f = find_data_file("studies/" + study + ".json");
  return f ? json::parse(f->data, f->data + f->size, nullptr, false) : json();
}

std::string rate(double lr) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", lr);
  return buf;
}

std::string side_cell(const StudySide& s) { return s.median + " [" + s.q1 + "–" + s.q3 + "]"; }
}  // namespace

const std::vector<StudyRow>& study_rows() {
  static const std::vector<StudyRow> rows = read_rows();
  return rows;
}

const StudyRow* reversal_row() {
  const StudyRow* best = nullptr;
  for (const StudyRow& r : study_rows()) {
    const bool reverses = r.init == "small" && r.paired > 0 && 2 * r.b_slower < r.paired && r.a.lr == r.b.lr &&
                          !r.a.lr_at_edge && r.a.reached == r.a.seeds && r.b.reached == r.b.seeds;
    if (reverses && (!best || r.d_k < best->d_k)) best = &r;  // the smallest d_k: the quickest to run in a page
  }
  return best;
}

std::string reversal_settings(train::TrainSettings& out, uint64_t seed) {
  const StudyRow* r = reversal_row();
  if (!r) return "no configuration of the study reverses the result";
  const json grid = study_grid(r->study);
  if (!grid.is_object() || !grid.contains("tasks") || !grid["tasks"].contains(r->task))
    return "the study's grid for " + r->task + " is missing";
  // The grid's command-line flags for the task ("--layers", "2", …) are the training settings' keys.
  json settings = json::object();
  const json& flags = grid["tasks"][r->task];
  for (size_t i = 0; i + 1 < flags.size(); i += 2) {
    std::string key = flags[i].get<std::string>().substr(2);
    for (char& c : key) c = c == '-' ? '_' : c;
    const std::string value = flags[i + 1].get<std::string>();
    const bool number = value.find_first_not_of("0123456789.") == std::string::npos;
    settings[key] = number ? json::parse(value) : json(value);
  }
  settings.update({{"d_k", r->d_k},
                   {"init", r->init},
                   {"optimizer", r->optimizer},
                   {"lr", r->a.lr},
                   {"steps", grid.value("max_steps", 500)},
                   {"seed", seed},
                   {"vary", "scale"}});
  train::TrainSettings st;
  const std::string err = train::settings_from_json(settings, st);
  if (!err.empty()) return err;
  st.b_scale = false;  // B: no scaling, as in every run of the study
  out = st;
  return "";
}

namespace {
// A study setting's id ("sort", "unit", "sgd") in words: the catalog's name for it, else the id itself.
std::string setting_word(Lang lang, const std::string& prefix, const std::string& id, const char* suffix = "") {
  const std::string key = prefix + id + suffix;
  return has_string(lang, key) ? tr(lang, key.c_str()) : id;
}

std::string setting_text(Lang lang, const StudyRow& r) {
  return tr_format(lang, "learn.study.setting",
                   {{"task", setting_word(lang, "learn.task.", r.task, ".name")},
                    {"d_k", std::to_string(r.d_k)},
                    {"init", setting_word(lang, "learn.study.init.", r.init)},
                    {"optimizer", setting_word(lang, "learn.study.optimizer.", r.optimizer)}});
}
}  // namespace

std::vector<std::vector<std::string>> study_table(Lang lang) {
  std::vector<std::vector<std::string>> t;
  t.push_back({tr(lang, "learn.study.col.setting"), tr(lang, "learn.study.col.a"), tr(lang, "learn.study.col.b"),
               tr(lang, "learn.study.col.ratio"), tr(lang, "learn.study.col.slower")});
  for (const StudyRow& r : study_rows())
    t.push_back({setting_text(lang, r), side_cell(r.a) + " · lr " + rate(r.a.lr) + (r.a.lr_at_edge ? "*" : ""),
                 side_cell(r.b) + " · lr " + rate(r.b.lr) + (r.b.lr_at_edge ? "*" : ""),
                 r.ratio_median + " (" + r.ratio_min + "–" + r.ratio_max + ")",
                 std::to_string(r.b_slower) + "/" + std::to_string(r.paired)});
  return t;
}

std::string reversal_text(Lang lang) {
  const StudyRow* r = reversal_row();
  if (!r) return "";
  return tr_format(lang, "learn.study.reversal_about",
                   {{"task", setting_word(lang, "learn.task.", r->task, ".name")},
                    {"d_k", std::to_string(r->d_k)},
                    {"optimizer", setting_word(lang, "learn.study.optimizer.", r->optimizer)},
                    {"lr", rate(r->a.lr)},
                    {"faster", std::to_string(r->paired - r->b_slower)},
                    {"seeds", std::to_string(r->paired)},
                    {"ratio", r->ratio_median},
                    {"seed", std::to_string(kReversalSeed)}});
}

}  // namespace attn
