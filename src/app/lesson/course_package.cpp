// course_package.cpp — the manifest for each SCORM version and cmi5's course structure, the launch addresses, the CSP
// entry for an LRS, the zip.
#include "app/lesson/course_package.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

#include "app/base/data.h"
#include "app/base/strings.h"
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_run.h"
#include "core/zip_writer.h"

namespace attn {

namespace {

std::string xml_escape(const std::string& s) {
  std::string r;
  for (char c : s) {
    switch (c) {
      case '&':
        r += "&amp;";
        break;
      case '<':
        r += "&lt;";
        break;
      case '>':
        r += "&gt;";
        break;
      case '"':
        r += "&quot;";
        break;
      default:
        r += c;
    }
  }
  return r;
}

std::string url_escape(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string r;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      r += static_cast<char>(c);
    } else {
      r += '%';
      r += hex[c >> 4];
      r += hex[c & 15];
    }
  }
  return r;
}

// "https://lrs.example/xapi/" → "https://lrs.example" (what the page's CSP must allow it to connect to).
std::string origin_of(const std::string& url) {
  const size_t scheme = url.find("://");
  const size_t end = url.find_first_of("/?#", scheme + 3);
  return url.substr(0, end);
}

// Teachers' lesson files given for packages, by lesson id.
std::map<std::string, std::string>& teacher_texts() {
  static std::map<std::string, std::string> texts;
  return texts;
}

const std::string* teacher_text(const std::string& id) {
  const auto it = teacher_texts().find(id);
  return it == teacher_texts().end() ? nullptr : &it->second;
}

// The page opened at the lesson: a teacher's file by its place in the package, a built-in lesson by its id.
std::string lesson_href(const Lesson& l) {
  return teacher_text(l.id) ? "index.html?lesson-url=" + url_escape("lessons/" + l.id + ".json")
                            : "index.html?lesson=" + url_escape(l.id);
}

std::string launch_href(const Lesson& l, const CoursePackageOptions& o) {
  std::string href = lesson_href(l) + "&lms=1";
  if (!o.xapi_endpoint.empty()) href += "&xapi-endpoint=" + url_escape(o.xapi_endpoint);
  return href;
}

std::string pass_text(double pass) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", pass);
  return buf;
}

// The <file> lines every SCO shares (one "common" asset resource the SCOs depend on).
std::string file_list(const std::vector<std::string>& files, const char* indent) {
  std::string s;
  for (const std::string& f : files) s += std::string(indent) + "<file href=\"" + xml_escape(f) + "\"/>\n";
  return s;
}

std::string manifest_12(const std::vector<const Lesson*>& ls, const CoursePackageOptions& o,
                        const std::vector<std::string>& files) {
  std::string m =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<manifest identifier=\"attnplay-course\" version=\"1.0\"\n"
      "    xmlns=\"http://www.imsproject.org/xsd/imscp_rootv1p1p2\"\n"
      "    xmlns:adlcp=\"http://www.adlnet.org/xsd/adlcp_rootv1p2\"\n"
      "    xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
      "    xsi:schemaLocation=\"http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd "
      "http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd "
      "http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd\">\n"
      "  <metadata>\n    <schema>ADL SCORM</schema>\n    <schemaversion>1.2</schemaversion>\n  </metadata>\n"
      "  <organizations default=\"attnplay-org\">\n    <organization identifier=\"attnplay-org\">\n"
      "      <title>" +
      xml_escape(o.title) + "</title>\n";
  const int mastery = static_cast<int>(std::lround(o.pass * 100));
  for (const Lesson* l : ls)
    m += "      <item identifier=\"item-" + l->id + "\" identifierref=\"sco-" + l->id + "\" isvisible=\"true\">\n" +
         "        <title>" + xml_escape(tr(Lang::En, l->title.c_str())) + "</title>\n" +
         "        <adlcp:masteryscore>" + std::to_string(mastery) + "</adlcp:masteryscore>\n      </item>\n";
  m += "    </organization>\n  </organizations>\n  <resources>\n";
  for (const Lesson* l : ls)
    m += "    <resource identifier=\"sco-" + l->id + "\" type=\"webcontent\" adlcp:scormtype=\"sco\" href=\"" +
         xml_escape(launch_href(*l, o)) + "\">\n      <file href=\"index.html\"/>\n" +
         "      <dependency identifierref=\"page\"/>\n    </resource>\n";
  m += "    <resource identifier=\"page\" type=\"webcontent\" adlcp:scormtype=\"asset\">\n" +
       file_list(files, "      ") + "    </resource>\n  </resources>\n</manifest>\n";
  return m;
}

std::string manifest_2004(const std::vector<const Lesson*>& ls, const CoursePackageOptions& o,
                          const std::vector<std::string>& files) {
  std::string m =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<manifest identifier=\"attnplay-course\" version=\"1\"\n"
      "    xmlns=\"http://www.imsglobal.org/xsd/imscp_v1p1\"\n"
      "    xmlns:adlcp=\"http://www.adlnet.org/xsd/adlcp_v1p3\"\n"
      "    xmlns:adlseq=\"http://www.adlnet.org/xsd/adlseq_v1p3\"\n"
      "    xmlns:adlnav=\"http://www.adlnet.org/xsd/adlnav_v1p3\"\n"
      "    xmlns:imsss=\"http://www.imsglobal.org/xsd/imsss\"\n"
      "    xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
      "    xsi:schemaLocation=\"http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd "
      "http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd "
      "http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd\">\n"
      "  <metadata>\n    <schema>ADL SCORM</schema>\n    <schemaversion>2004 4th Edition</schemaversion>\n"
      "  </metadata>\n"
      "  <organizations default=\"attnplay-org\">\n    <organization identifier=\"attnplay-org\">\n"
      "      <title>" +
      xml_escape(o.title) + "</title>\n";
  for (const Lesson* l : ls)
    m += "      <item identifier=\"item-" + l->id + "\" identifierref=\"sco-" + l->id + "\">\n" + "        <title>" +
         xml_escape(tr(Lang::En, l->title.c_str())) + "</title>\n" +
         "        <imsss:sequencing>\n          <imsss:objectives>\n"
         "            <imsss:primaryObjective objectiveID=\"pass-" +
         l->id + "\" satisfiedByMeasure=\"true\">\n" + "              <imsss:minNormalizedMeasure>" +
         pass_text(o.pass) + "</imsss:minNormalizedMeasure>\n" +
         "            </imsss:primaryObjective>\n          </imsss:objectives>\n        </imsss:sequencing>\n"
         "      </item>\n";
  m += "      <imsss:sequencing>\n        <imsss:controlMode choice=\"true\" flow=\"true\"/>\n"
       "      </imsss:sequencing>\n    </organization>\n  </organizations>\n  <resources>\n";
  for (const Lesson* l : ls)
    m += "    <resource identifier=\"sco-" + l->id + "\" type=\"webcontent\" adlcp:scormType=\"sco\" href=\"" +
         xml_escape(launch_href(*l, o)) + "\">\n      <file href=\"index.html\"/>\n" +
         "      <dependency identifierref=\"page\"/>\n    </resource>\n";
  m += "    <resource identifier=\"page\" type=\"webcontent\" adlcp:scormType=\"asset\">\n" +
       file_list(files, "      ") + "    </resource>\n  </resources>\n</manifest>\n";
  return m;
}

// cmi5's masteryScore: a decimal with at most 4 places ("0.8", not "8e-01").
std::string mastery_text(double pass) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", pass);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

// The IRIs statements name lessons by (attnplay-lms.js's activity base), and courses beside them.
constexpr const char* kLessonIriBase = "https://attnplay.invalid/lessons/";
constexpr const char* kCourseIriBase = "https://attnplay.invalid/courses/";

size_t prediction_count(const Lesson& l) {
  size_t n = 0;
  for (const LessonStep& s : l.steps) n += s.task.kind == Task::Kind::Predict ? 1 : 0;
  return n;
}

// A cmi5 langstring list: the catalog key's text in each language the catalogs have.
std::string langstrings(const std::string& key, const char* indent) {
  std::string s;
  for (const Lang lang : languages())
    s += std::string(indent) + "<langstring lang=\"" + lang_code(lang) + "\">" + xml_escape(tr(lang, key.c_str())) +
         "</langstring>\n";
  return s;
}

// The course's description: its lessons' summaries (a lesson without one by its title), in each language.
std::string course_description(const std::vector<const Lesson*>& ls, const char* indent) {
  std::string s;
  for (const Lang lang : languages()) {
    std::string text;
    for (const Lesson* l : ls)
      text += (text.empty() ? "" : " ") + std::string(tr(lang, (l->summary.empty() ? l->title : l->summary).c_str()));
    s += std::string(indent) + "<langstring lang=\"" + lang_code(lang) + "\">" + xml_escape(text) + "</langstring>\n";
  }
  return s;
}

// cmi5.xml (the cmi5 specification, section 13): the course, then one AU per lesson, launched in any window at the page
// with the lesson open (the LMS appends endpoint, fetch, actor, registration and activityId). With a pass mark the LMS
// moves the learner on once the lesson is completed and passed (masteryScore: the share of predictions right at the
// first try); without one, or in a lesson with no prediction to score, once it is completed.
std::string course_structure(const std::vector<const Lesson*>& ls, const CoursePackageOptions& o) {
  std::string course_id = kCourseIriBase;
  for (size_t i = 0; i < ls.size(); ++i) course_id += (i ? "+" : "") + url_escape(ls[i]->id);
  std::string m =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<courseStructure xmlns=\"https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd\">\n"
      "  <course id=\"" +
      xml_escape(course_id) + "\">\n    <title>\n      <langstring lang=\"en\">" + xml_escape(o.title) +
      "</langstring>\n    </title>\n    <description>\n" + course_description(ls, "      ") +
      "    </description>\n  </course>\n";
  for (const Lesson* l : ls) {
    const bool judged = o.graded && prediction_count(*l) > 0;
    m += "  <au id=\"" + xml_escape(kLessonIriBase + url_escape(l->id)) + "\" moveOn=\"" +
         (judged ? "CompletedAndPassed\" masteryScore=\"" + mastery_text(o.pass) : std::string("Completed")) +
         "\" launchMethod=\"AnyWindow\">\n    <title>\n" + langstrings(l->title, "      ") +
         "    </title>\n    <description>\n" + langstrings(l->summary.empty() ? l->title : l->summary, "      ") +
         "    </description>\n    <url>" + xml_escape(lesson_href(*l)) + "</url>\n  </au>\n";
  }
  return m + "</courseStructure>\n";
}

// The page's CSP allows connections to its own origin only; an LRS elsewhere is added to connect-src.
std::string allow_connect(std::string html, const std::string& source) {
  const std::string key = "connect-src 'self'";
  const size_t at = html.find(key);
  if (at != std::string::npos) html.insert(at + key.size(), " " + source);
  return html;
}

// SCORM's LRS is named in the package; a cmi5 AU learns its LRS and the LMS's token address only at launch (often
// another origin than the package's), so its page may connect to any https origin.
std::string allow_lrs(const std::string& html, const CoursePackageOptions& o) {
  if (o.cmi5) return allow_connect(html, "https:");
  return o.xapi_endpoint.empty() ? html : allow_connect(html, origin_of(o.xapi_endpoint));
}

// The built-in lesson's JSON as compiled into the program (data/lessons/NN-<id>.json).
std::string lesson_json_text(const Lesson& l, std::string& name) {
  if (const std::string* text = teacher_text(l.id)) {
    name = "lessons/" + l.id + ".json";
    return *text;
  }
  for (const DataFile* f : data_files_in("lessons")) {
    const auto j = nlohmann::json::parse(std::string(f->data, f->size), nullptr, false);
    if (j.is_object() && j.value("id", std::string()) == l.id) {
      name = std::string(f->path);
      return std::string(f->data, f->size);
    }
  }
  name = "lessons/" + l.id + ".json";
  return "";
}

// SCORM 1.2 keeps 4096 characters of cmi.suspend_data. attnplay-lms.js keeps the learner's record there as
// {"v":2,"l":"<id>","s":<step>,"d":false,"a":[[q,n,given,flags],…]} (the playground's state only when it fits too):
// this is its longest for a lesson, every prediction answered with its longest answer (a number as JSON writes the
// longest double, "-2.2250738585072014e-308"; flags = ok + 2·first + 4·tries).
constexpr size_t kScorm12SuspendMax = 4096;
size_t longest_scorm12_record(const Lesson& l) {
  const auto digits = [](size_t n) { return std::to_string(n).size(); };
  const size_t predictions = prediction_count(l);
  size_t length = std::string(R"({"v":2,"l":"","s":,"d":false,"a":[]})").size() + l.id.size() + digits(l.steps.size());
  size_t answered = 0;
  for (const LessonStep& s : l.steps) {
    if (s.task.kind != Task::Kind::Predict) continue;
    const size_t given =
        s.task.choices.empty() ? std::string("-2.2250738585072014e-308").size() : digits(s.task.choices.size() - 1);
    length += (answered++ ? 1 : 0) + 5 + 2 * digits(predictions - 1) + given +
              digits(1 + 2 + 4 * static_cast<size_t>(kMaxMisses));
  }
  return length;
}

}  // namespace

void set_package_lesson_text(const std::string& id, const std::string& text) { teacher_texts()[id] = text; }

std::string site_manifest_paths(const std::string& manifest_json, std::vector<std::string>& paths) {
  const nlohmann::json m = nlohmann::json::parse(manifest_json, nullptr, false);
  if (!m.is_object() || m.value("format", "") != "attnplay-site" || !m.value("files", nlohmann::json()).is_array())
    return std::string(kSiteManifest) + " is not the page's file list";
  paths.clear();
  for (const nlohmann::json& f : m["files"]) {
    const std::string path = f.is_object() ? f.value("path", "") : "";
    // Paths stay inside the package: no absolute paths, no "..".
    if (path.empty() || path[0] == '/' || path.find("..") != std::string::npos)
      return std::string(kSiteManifest) + " lists a path that is not the page's: \"" + printable(path) + "\"";
    paths.push_back(path);
  }
  return paths.empty() ? std::string(kSiteManifest) + " lists no files" : "";
}

void take_lessons_pass_mark(CoursePackageOptions& o) {
  for (const std::string& id : o.lessons) {
    const Lesson* l = find_lesson(id);
    if (!l || (!l->pass && !l->ungraded)) continue;
    o.graded = !l->ungraded;
    if (l->pass) o.pass = *l->pass;
    return;
  }
}

std::string check_package_options(const CoursePackageOptions& o) {
  if (o.lessons.empty()) return "a package needs at least one lesson";
  for (const std::string& id : o.lessons) {
    if (find_lesson(id)) continue;
    std::string known;
    for (const Lesson& k : lessons()) known += (known.empty() ? "" : ", ") + k.id;
    return "unknown lesson \"" + id + "\" (built-in lessons: " + known + ")";
  }
  if (!o.cmi5 && o.scorm != "1.2" && o.scorm != "2004") return "the SCORM version must be 1.2 or 2004";
  if (!o.cmi5 && !o.graded) return "a SCORM package needs a pass mark (a lesson without one: package it for cmi5)";
  if (o.cmi5 && !o.xapi_endpoint.empty())
    return "a cmi5 package is told its LRS by the LMS at launch: it takes no xAPI endpoint";
  if (!o.cmi5 && o.scorm == "1.2")
    for (const std::string& id : o.lessons)
      if (const size_t n = longest_scorm12_record(*find_lesson(id)); n > kScorm12SuspendMax)
        return "lesson \"" + id + "\": a learner's record can take " + std::to_string(n) +
               " characters, more than the " + std::to_string(kScorm12SuspendMax) +
               " SCORM 1.2 keeps in suspend_data (package it for SCORM 2004)";
  if (!std::isfinite(o.pass) || o.pass < 0 || o.pass > 1) return "the passing share must be from 0 to 1";
  if (!o.xapi_endpoint.empty() && o.xapi_endpoint.rfind("https://", 0) != 0 && o.xapi_endpoint.rfind("http://", 0) != 0)
    return "the xAPI endpoint must be an http(s) address";
  return "";
}

std::string build_course_package(const CoursePackageOptions& o, const std::vector<PackageFile>& site,
                                 std::string& zip_out) {
  std::string err = check_package_options(o);
  if (!err.empty()) return err;
  std::vector<const Lesson*> ls;
  for (const std::string& id : o.lessons) ls.push_back(find_lesson(id));
  const auto find = [&site](const std::string& name) -> const PackageFile* {
    for (const PackageFile& f : site)
      if (f.path == name) return &f;
    return nullptr;
  };
  const PackageFile* manifest = find(kSiteManifest);
  if (!manifest) return std::string("the page's file ") + kSiteManifest + " is missing";
  std::vector<std::string> paths;
  err = site_manifest_paths(manifest->bytes, paths);
  if (!err.empty()) return err;
  paths.push_back(kSiteManifest);
  ZipWriter zip;
  std::vector<std::string> files;
  for (const std::string& name : paths) {
    const PackageFile* f = find(name);
    if (!f) return "the page's file " + name + " is missing";
    zip.add(name, name == "index.html" ? allow_lrs(f->bytes, o) : f->bytes);
    files.push_back(name);
  }
  for (const Lesson* l : ls) {
    std::string name;
    const std::string text = lesson_json_text(*l, name);
    if (text.empty()) continue;
    zip.add(name, text);
    files.push_back(name);
  }
  if (o.cmi5)
    zip.add("cmi5.xml", course_structure(ls, o));
  else
    zip.add("imsmanifest.xml", o.scorm == "1.2" ? manifest_12(ls, o, files) : manifest_2004(ls, o, files));
  zip_out = zip.finish(err);
  return err;
}

}  // namespace attn
