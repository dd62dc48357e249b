// course_package.h — a course package an LMS imports (SCORM 1.2 or 2004 4th edition, or cmi5): imsmanifest.xml with
// one SCO per lesson (each launching index.html?lesson=ID&lms=1), or cmi5.xml with one AU per lesson (each launching
// index.html?lesson=ID, to which the LMS adds its cmi5 launch parameters), the page's static files and the lessons'
// JSON, as one zip.
// The CLI (`attnplay package`) reads the page's files from disk; the page's Share panel fetches its own.
#pragma once

#include <string>
#include <vector>

namespace attn {

struct CoursePackageOptions {
  std::vector<std::string> lessons;  // lesson ids (built-in, or given by set_package_lesson_text), in order
  std::string scorm;                 // "1.2" | "2004" (ignored for cmi5)
  bool cmi5 = false;                 // a cmi5 course package (cmi5.xml) instead of a SCORM one
  bool graded = true;                // false: no pass mark (cmi5 only: moveOn "Completed", no masteryScore)
  double pass = 0.8;                 // share of predictions right at the first try that passes (mastery score)
  std::string title = "Attention Playground";
  std::string xapi_endpoint;  // an LRS the page also sends xAPI statements to ("" = none)
};

struct PackageFile {
  std::string path;  // inside the package, '/'-separated
  std::string bytes;
};

// A teacher's lesson file (not compiled in) a package may carry: its text under its lesson id, which must also be
// added (add_lesson) so find_lesson knows it. The package holds it as lessons/<id>.json and its SCO opens it
// with ?lesson-url=.
void set_package_lesson_text(const std::string& id, const std::string& text);

// The one list of the page's files, written by the web build (scripts/site_manifest.mjs): a package carries every
// file it lists, and the list itself (the page's service worker installs from it).
constexpr const char* kSiteManifest = "site-manifest.json";
// The paths site-manifest.json lists ("" or why it cannot be read).
std::string site_manifest_paths(const std::string& manifest_json, std::vector<std::string>& paths);

// The pass mark the lessons' files give ("pass" in a lesson file, e.g. one the builder made), for options given none:
// the first lesson with one decides. The page's packages and `attnplay package` without --pass take it.
void take_lessons_pass_mark(CoursePackageOptions& o);

// "" or what is wrong with the options (unknown lesson, version, pass, endpoint).
std::string check_package_options(const CoursePackageOptions& o);

// The zip's bytes in `zip`; "" or why it could not be made. `site` holds the page's files: site-manifest.json and
// every file it lists.
std::string build_course_package(const CoursePackageOptions& o, const std::vector<PackageFile>& site, std::string& zip);

}  // namespace attn
