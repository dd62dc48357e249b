// lesson_file.cpp — lesson files parsed (every problem named with its step, line and column) and the catalog of
// lessons compiled in and added.
#include "app/content/lesson_file.h"

#include <algorithm>
#include <deque>
#include <vector>

#include "app/base/data.h"
#include "app/base/strings.h"

namespace attn {

using nlohmann::json;

namespace {
constexpr size_t kMaxIdBytes = 64;

// Where inline texts of the lesson being parsed go, the key prefix of the part being read ("step3.": the generated
// keys name the field, so a message or a key says where a text came from), and the language of the messages.
struct TextSink {
  Lesson& lesson;
  std::string part;
  Lang words = Lang::En;
};

std::string inline_key(const TextSink& sink, const std::string& field) {
  return "inline:" + sink.lesson.id + ":" + sink.part + field;
}

// A text: a catalog key, or {"en": "…", "hi-Latn": "…", "de": …} — any language the page has — kept under a
// generated key. A missing English or Hinglish text is a warning: English is shown for it, else the first text.
std::string read_text(const json& v, const std::string& field, std::string& out, TextSink& sink) {
  if (v.is_string()) {
    out = v.get<std::string>();
    return out.size() > 200 ? tr_format(sink.words, "lesson.check.catalog_key_long", {{"field", field}}) : "";
  }
  if (!v.is_object()) return tr_format(sink.words, "lesson.check.not_text", {{"field", field}});
  ExtraText text;
  for (auto it = v.begin(); it != v.end(); ++it) {
    Lang lang = kDefaultLang;
    if (!lang_from_code(it.key(), lang) || lang_code(lang) != it.key())
      return tr_format(sink.words, "lesson.check.unknown_lang",
                       {{"tag", printable(it.key(), 16)}, {"langs", lang_codes_list()}, {"field", field}});
    if (!it.value().is_string())
      return tr_format(sink.words, "lesson.check.not_string", {{"field", field + "." + it.key()}});
    const std::string s = it.value().get<std::string>();
    if (s.size() > kMaxTextBytes)
      return tr_format(sink.words, "lesson.check.text_bytes",
                       {{"n", std::to_string(s.size())},
                        {"max", std::to_string(kMaxTextBytes)},
                        {"tag", it.key()},
                        {"field", field}});
    if (const std::string chars = undrawable_characters(s); !chars.empty())
      return tr_format(sink.words, "lesson.check.undrawable",
                       {{"chars", printable(chars, 80)}, {"tag", it.key()}, {"field", field}});
    if (!s.empty()) text.by_tag[it.key()] = s;
  }
  if (text.by_tag.empty()) return tr_format(sink.words, "lesson.check.no_text", {{"field", field}});
  const std::string shown = text.by_tag.count("en") ? "English" : "the \"" + text.by_tag.begin()->first + "\" text";
  for (const char* tag : {"en", "hi-Latn"})
    if (!text.by_tag.count(tag))
      sink.lesson.warnings.push_back(sink.part + field + ": no \"" + tag + "\" text; " + shown + " is shown");
  out = inline_key(sink, field);
  sink.lesson.texts[out] = std::move(text);
  return "";
}

std::string get_text(const json& j, const char* key, std::string& out, bool required, TextSink& sink,
                     const std::string& prefix = "") {
  if (!j.contains(key)) return required ? tr_format(sink.words, "lesson.check.missing", {{"field", prefix + key}}) : "";
  return read_text(j[key], prefix + key, out, sink);
}

std::string get_texts(const json& j, const char* key, std::vector<std::string>& out, TextSink& sink,
                      const std::string& prefix = "") {
  if (!j.contains(key)) return "";
  const std::string field = prefix + key;
  if (!j[key].is_array()) return tr_format(sink.words, "lesson.check.not_texts", {{"field", field}});
  for (size_t i = 0; i < j[key].size(); ++i) {
    out.emplace_back();
    const json& v = j[key][i];
    if (v.is_string() && v.get<std::string>().empty()) continue;  // "" = no text (the right answer's feedback)
    const std::string err = read_text(v, field + "[" + std::to_string(i) + "]", out.back(), sink);
    if (!err.empty()) return err;
  }
  return "";
}

// `prefix` names the part the key is in ("task."), so a message names the field as the author wrote it.
std::string get_string(const json& j, const char* key, std::string& out, bool required, Lang words,
                       const std::string& prefix = "") {
  const std::string field = prefix + key;
  if (!j.contains(key)) return required ? tr_format(words, "lesson.check.missing", {{"field", field}}) : "";
  if (!j[key].is_string()) return tr_format(words, "lesson.check.not_string", {{"field", field}});
  out = j[key].get<std::string>();
  if (out.size() > 200) return tr_format(words, "lesson.check.string_long", {{"max", "200"}, {"field", field}});
  return "";
}

std::string get_strings(const json& j, const char* key, std::vector<std::string>& out, Lang words,
                        const std::string& prefix = "") {
  if (!j.contains(key)) return "";
  const auto refused = [&] { return tr_format(words, "lesson.check.not_strings", {{"field", prefix + key}}); };
  if (!j[key].is_array()) return refused();
  for (const json& v : j[key]) {
    if (!v.is_string()) return refused();
    out.push_back(v.get<std::string>());
  }
  return "";
}

std::string parse_condition(const json& j, Condition& c, const std::string& field, Lang words) {
  if (!j.is_object()) return tr_format(words, "lesson.check.not_condition", {{"field", field}});
  std::string err = get_string(j, "value", c.value, true, words, field + ".");
  if (err.empty()) err = get_string(j, "op", c.op, true, words, field + ".");
  if (!err.empty()) return err;
  if (c.op != "<" && c.op != "<=" && c.op != ">" && c.op != ">=" && c.op != "==")
    return tr_format(words, "lesson.check.bad_op", {{"field", field + ".op"}});
  if (j.contains("than") && j["than"].is_string())
    c.than_value = j["than"].get<std::string>();
  else if (!j.contains("than") || !j["than"].is_number())
    return tr_format(words, "lesson.check.bad_than", {{"field", field + ".than"}});
  else
    c.than = j["than"].get<double>();
  if (j.contains("tolerance")) {
    if (!j["tolerance"].is_number() || !(j["tolerance"].get<double>() >= 0))
      return tr_format(words, "lesson.check.not_non_negative", {{"field", field + ".tolerance"}});
    c.tolerance = j["tolerance"].get<double>();
  }
  if (j.contains("state")) {
    if (!j["state"].is_object()) return tr_format(words, "lesson.check.not_object", {{"field", field + ".state"}});
    c.state = j["state"];
  }
  return "";
}

// A number task's named slips: [{"number": 8, "tolerance": 0.05, "feedback": "lesson.….slip"}, …].
std::string parse_slips(const json& j, std::vector<Task::Slip>& out, TextSink& sink) {
  if (!j.is_array()) return tr(sink.words, "lesson.check.not_slips");
  for (size_t i = 0; i < j.size(); ++i) {
    const json& e = j[i];
    const std::string where = "task.slips[" + std::to_string(i) + "]";
    if (!e.is_object() || !e.value("number", json()).is_number() || !e.contains("feedback"))
      return tr_format(sink.words, "lesson.check.slip_parts", {{"field", where}});
    Task::Slip slip{e["number"].get<double>(), 0, ""};
    const std::string err = read_text(e["feedback"], where + ".feedback", slip.feedback, sink);
    if (!err.empty()) return err;
    if (e.contains("tolerance")) {
      if (!e["tolerance"].is_number() || e["tolerance"].get<double>() < 0)
        return tr_format(sink.words, "lesson.check.not_non_negative", {{"field", where + ".tolerance"}});
      slip.tolerance = e["tolerance"].get<double>();
    }
    out.push_back(std::move(slip));
  }
  return "";
}

// A prediction: choices with the index of the right one, or a number with how far off an answer may be.
std::string parse_answer(const json& j, Task& t, Lang words) {
  if (!t.choices.empty() && j.contains("number")) return tr(words, "lesson.check.choices_and_number");
  if (t.choices.empty() && !j.contains("number")) return tr(words, "lesson.check.no_answer");
  if (!t.choices.empty()) {
    if (t.choices.size() > kMaxChoices)
      return tr_format(words, "lesson.check.too_many_choices", {{"max", std::to_string(kMaxChoices)}});
    if (!j.contains("answer")) return tr(words, "lesson.check.no_answer_index");
    if (!j["answer"].is_number_integer()) return tr(words, "lesson.check.answer_not_index");
    const auto answer = j["answer"].get<long long>();
    if (answer < 0 || answer >= static_cast<long long>(t.choices.size()))
      return tr_format(words, "lesson.check.answer_out_of_range",
                       {{"answer", std::to_string(answer)}, {"last", std::to_string(t.choices.size() - 1)}});
    t.answer = static_cast<int>(answer);
    return "";
  }
  if (!j["number"].is_number()) return tr_format(words, "lesson.check.not_number", {{"field", "task.number"}});
  if (!j.contains("tolerance")) return tr(words, "lesson.check.no_tolerance");
  if (!j["tolerance"].is_number() || !(j["tolerance"].get<double>() >= 0))
    return tr_format(words, "lesson.check.not_non_negative", {{"field", "task.tolerance"}});
  t.number = j["number"].get<double>();
  t.tolerance = j["tolerance"].get<double>();
  if (!std::isfinite(*t.number) || !std::isfinite(t.tolerance))
    return tr_format(words, "lesson.check.not_finite", {{"field", "task.number"}});
  return "";
}

std::string parse_predict(const json& j, Task& t, TextSink& sink) {
  t.kind = Task::Kind::Predict;
  if (!j.contains("asks"))  // the author says what would give the answer away; [] when nothing on screen does
    return tr(sink.words, "lesson.check.no_asks");
  std::string err = parse_answer(j, t, sink.words);
  if (err.empty()) err = get_texts(j, "feedback", t.feedback, sink, "task.");
  if (!err.empty()) return err;
  if (j.contains("slips")) {
    err = parse_slips(j["slips"], t.slips, sink);
    if (!err.empty()) return err;
  }
  if (j.contains("reveal")) {
    if (!j["reveal"].is_object())
      return tr_format(sink.words, "lesson.check.not_partial_state", {{"field", "task.reveal"}});
    t.reveal = j["reveal"];
  }
  return "";
}

// What a text asserts of the numbers it quotes, as conditions the lesson verifier checks ("" or the problem).
std::string parse_claims(const json& j, std::vector<Condition>& out, bool& declared, const std::string& field,
                         Lang words) {
  declared = j.contains("claims");
  if (!declared) return "";
  if (!j["claims"].is_array()) return tr_format(words, "lesson.check.not_conditions", {{"field", field}});
  for (size_t i = 0; i < j["claims"].size(); ++i) {
    out.emplace_back();
    const std::string err = parse_condition(j["claims"][i], out.back(), field + "[" + std::to_string(i) + "]", words);
    if (!err.empty()) return err;
  }
  return "";
}

std::string parse_task(const json& j, Task& t, TextSink& sink) {
  const Lang words = sink.words;
  if (!j.is_object()) return tr_format(words, "lesson.check.not_object", {{"field", "task"}});
  std::string kind, err = get_string(j, "kind", kind, true, words, "task.");
  if (err.empty()) err = get_string(j, "id", t.id, true, words, "task.");
  if (err.empty()) err = get_text(j, "question", t.question, true, sink, "task.");
  if (err.empty()) err = get_text(j, "explain", t.explain, false, sink, "task.");
  if (err.empty()) err = get_text(j, "hint", t.hint, false, sink, "task.");
  if (err.empty()) err = get_texts(j, "choices", t.choices, sink, "task.");
  if (err.empty()) err = get_strings(j, "asks", t.asks, words, "task.");
  if (err.empty()) err = parse_claims(j, t.claims, t.claims_declared, "task.claims", words);
  if (!err.empty()) return err;
  if (kind == "predict") return parse_predict(j, t, sink);
  if (kind != "do") return tr(words, "lesson.check.bad_kind");
  t.kind = Task::Kind::Do;
  if (!j.contains("goal")) return tr(words, "lesson.check.no_goal");
  if (j.contains("solution")) {
    if (!j["solution"].is_object())
      return tr_format(words, "lesson.check.not_partial_state", {{"field", "task.solution"}});
    t.solution = j["solution"];
  }
  return parse_condition(j["goal"], t.goal, "task.goal", words);
}

std::string parse_step(const json& j, LessonStep& s, TextSink& sink) {
  const Lang words = sink.words;
  if (!j.is_object()) return tr(words, "lesson.check.step_not_object");
  std::string err = get_string(j, "id", s.id, false, words);
  if (err.empty()) err = get_text(j, "text", s.text, true, sink);
  if (err.empty()) err = get_string(j, "highlight", s.highlight, false, words);
  if (err.empty()) err = get_strings(j, "panels", s.panels, words);
  if (err.empty()) err = get_strings(j, "lock", s.lock, words);
  if (!err.empty()) return err;
  if (j.contains("state")) {
    if (!j["state"].is_object()) return tr_format(words, "lesson.check.not_partial_state", {{"field", "state"}});
    s.state = j["state"];
  }
  err = parse_claims(j, s.claims, s.claims_declared, "claims", words);
  if (!err.empty()) return err;
  if (j.contains("task")) return parse_task(j["task"], s.task, sink);
  return "";
}

// "step 3" and the step's id (its own, else its question's) when it has one, as the author wrote it.
std::string step_label(size_t index, const json& j, Lang words) {
  const std::string step = std::to_string(index + 1);
  std::string id;
  if (j.is_object() && j.contains("id") && j["id"].is_string())
    id = j["id"].get<std::string>();
  else if (j.is_object() && j.contains("task") && j["task"].is_object() && j["task"].contains("id") &&
           j["task"]["id"].is_string())
    id = j["task"]["id"].get<std::string>();
  return id.empty() ? tr_format(words, "lesson.check.step", {{"step", step}})
                    : tr_format(words, "lesson.check.step_id", {{"step", step}, {"id", printable(id, kMaxIdBytes)}});
}

// "JSON syntax error at line 3, column 14" of a byte offset (columns counted in bytes from 1).
std::string syntax_error_at(const std::string& text, size_t byte, Lang words) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < std::min(byte, text.size()); ++i) {
    if (text[i] == '\n')
      ++line, column = 1;
    else
      ++column;
  }
  return tr_format(words, "lesson.check.json_syntax",
                   {{"line", std::to_string(line)}, {"column", std::to_string(column)}});
}

// The document, or why it is no JSON: a SAX pass finds where the syntax breaks without exceptions.
struct SyntaxError : nlohmann::json_sax<json> {
  size_t at = 0;
  bool found = false;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) override {
    at = position > 0 ? position - 1 : 0, found = true;  // the byte where the parser stopped
    return false;
  }
};

std::string parse_document(const std::string& text, json& out, Lang words) {
  if (text.size() > kMaxLessonBytes)
    return tr_format(words, "lesson.check.file_bytes",
                     {{"n", std::to_string(text.size())}, {"max", std::to_string(kMaxLessonBytes)}});
  out = json::parse(text, nullptr, false);
  if (!out.is_discarded()) return out.is_object() ? "" : tr(words, "lesson.check.not_lesson_object");
  SyntaxError sax;
  json::sax_parse(text, &sax);
  size_t at = sax.found ? std::min(sax.at, text.size()) : text.size();
  // A string read to its end before it was found out of place ("title": "t" "steps"): point at its opening quote.
  if (at < text.size() && text[at] == '"' && at > 0)
    for (size_t i = at; i-- > 0;)
      if (text[i] == '"' && (i == 0 || text[i - 1] != '\\')) {
        at = i;
        break;
      }
  return syntax_error_at(text, at, words);
}

// A lesson id goes into links and keys: lower-case letters, digits and "-".
std::string check_id(const std::string& id, Lang words) {
  if (id.empty() || id.size() > kMaxIdBytes) return tr(words, "lesson.check.id_length");
  for (char c : id)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
      return tr_format(words, "lesson.check.id_chars", {{"id", printable(id, kMaxIdBytes)}});
  return "";
}

// "pass": a share from 0 to 1, or "none" (courses that do not grade the lesson).
std::string parse_pass(const json& j, Lesson& l, Lang words) {
  if (!j.contains("pass")) return "";
  const json& p = j["pass"];
  if (p == "none") {
    l.ungraded = true;
    return "";
  }
  if (!p.is_number() || !(p.get<double>() >= 0 && p.get<double>() <= 1)) return tr(words, "lesson.check.bad_pass");
  l.pass = p.get<double>();
  return "";
}

struct Loaded {
  std::vector<Lesson> lessons;
  std::vector<std::string> errors;
};

const Loaded& loaded() {
  static const Loaded all = [] {
    Loaded l;
    for (const DataFile* f : data_files_in("lessons")) {
      Lesson lesson;
      const std::string err = parse_lesson(std::string(f->data, f->size), lesson);
      if (err.empty())
        l.lessons.push_back(std::move(lesson));
      else
        l.errors.push_back(std::string(f->path) + ": " + err);
    }
    return l;
  }();
  return all;
}

}  // namespace

std::string parse_lesson(const std::string& text, Lesson& out, Lang words) {
  json j;
  std::string err = parse_document(text, j, words);
  if (!err.empty()) return err;
  Lesson l;
  TextSink sink{l, "", words};
  err = get_string(j, "id", l.id, true, words);
  if (err.empty()) err = check_id(l.id, words);
  if (err.empty()) err = get_text(j, "title", l.title, true, sink);
  if (err.empty()) err = get_text(j, "summary", l.summary, false, sink);
  if (err.empty()) err = parse_pass(j, l, words);
  if (!err.empty()) return err;
  if (!j.contains("steps") || !j["steps"].is_array() || j["steps"].empty())
    return tr(words, "lesson.check.no_steps_array");
  if (j["steps"].size() > kMaxLessonSteps)
    return tr_format(words, "lesson.check.too_many_steps",
                     {{"n", std::to_string(j["steps"].size())}, {"max", std::to_string(kMaxLessonSteps)}});
  for (size_t i = 0; i < j["steps"].size(); ++i) {
    LessonStep s;
    sink.part = "step" + std::to_string(i + 1) + ".";
    err = parse_step(j["steps"][i], s, sink);
    if (!err.empty()) return step_label(i, j["steps"][i], words) + ": " + err;
    l.steps.push_back(std::move(s));
  }
  out = std::move(l);
  return "";
}

namespace {
// Lessons loaded while the app runs (a teacher's files), after the compiled-in ones. A deque: a loaded
// lesson stays where it is while others are added, and one loaded again under its id is replaced in place.
std::deque<Lesson>& added_lessons() {
  static std::deque<Lesson> added;
  return added;
}
// The compiled-in entries, then the added lessons'; remade only when a lesson is added (lists are drawn every frame).
std::vector<LessonEntry>& listed_entries() {
  static std::vector<LessonEntry> all = builtin_lesson_entries();
  return all;
}
void relist_added_lessons() {
  std::vector<LessonEntry>& all = listed_entries();
  all.resize(builtin_lesson_entries().size());
  for (const Lesson& l : added_lessons()) all.push_back({l.id, l.title, l.summary, static_cast<int>(l.steps.size())});
}
}  // namespace

const Lesson& keep_added_lesson(Lesson&& lesson) {
  auto& all = added_lessons();
  auto it = std::find_if(all.begin(), all.end(), [&](const Lesson& a) { return a.id == lesson.id; });
  if (it == all.end()) it = all.insert(all.end(), Lesson{});
  set_extra_texts("inline:" + lesson.id + ":", lesson.texts);
  *it = std::move(lesson);
  relist_added_lessons();
  return *it;
}

const std::deque<Lesson>& added_lessons_list() { return added_lessons(); }

const std::vector<Lesson>& lessons() { return loaded().lessons; }
const std::vector<std::string>& lesson_load_errors() { return loaded().errors; }

const std::vector<LessonEntry>& builtin_lesson_entries() {
  static const std::vector<LessonEntry> entries = [] {
    std::vector<LessonEntry> out;
    for (const DataFile* f : data_files_in("lessons")) {
      const json j = json::parse(f->data, f->data + f->size, nullptr, false);
      if (!j.is_object()) continue;
      const json id = j.value("id", json()), title = j.value("title", json()), summary = j.value("summary", json());
      const json steps = j.value("steps", json());
      if (!id.is_string() || !title.is_string() || !(summary.is_null() || summary.is_string()) || !steps.is_array())
        continue;
      out.push_back({id.get<std::string>(), title.get<std::string>(),
                     summary.is_string() ? summary.get<std::string>() : std::string(), static_cast<int>(steps.size())});
    }
    return out;
  }();
  return entries;
}

const std::vector<LessonEntry>& lesson_entries() { return listed_entries(); }

bool lesson_listed(const std::string& id) {
  const std::vector<LessonEntry>& all = lesson_entries();
  return std::any_of(all.begin(), all.end(), [&](const LessonEntry& e) { return e.id == id; });
}

namespace {
const Lesson*& lesson_under_test() {
  static const Lesson* current = nullptr;
  return current;
}
}  // namespace

LessonUnderTest::LessonUnderTest(const Lesson& lesson) : previous_(lesson_under_test()) {
  lesson_under_test() = &lesson;
  if (!lesson.texts.empty()) set_extra_texts("inline:" + lesson.id + ":", lesson.texts);
}

LessonUnderTest::~LessonUnderTest() {
  const Lesson* walked = lesson_under_test();
  lesson_under_test() = previous_;
  if (walked->texts.empty()) return;
  // The inline texts go back to those of the lesson added under that id, if any.
  const Lesson* kept = find_lesson(walked->id);
  set_extra_texts("inline:" + walked->id + ":", kept ? kept->texts : std::map<std::string, ExtraText>{});
}

const Lesson* find_lesson(const std::string& id) {
  if (lesson_under_test() && lesson_under_test()->id == id) return lesson_under_test();
  for (const Lesson& l : lessons())
    if (l.id == id) return &l;
  for (const Lesson& l : added_lessons())
    if (l.id == id) return &l;
  return nullptr;
}

}  // namespace attn
