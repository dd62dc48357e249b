// course_package.h — a course package an LMS imports (SCORM 1.2 or 2004 4th edition): imsmanifest.xml with one SCO
// per lesson (each launching index.html?lesson=ID&lms=1), the page's static files and the lessons' JSON, as one zip.
// The CLI (`attnplay package`) reads the page's files from disk; the page's Share panel fetches its own.
#pragma once

#include <string>
#include <vector>

namespace attn {

struct CoursePackageOptions {
  std::vector<std::string> lessons;  // lesson ids (built-in, or given by set_package_lesson_text), in order
  std::string scorm;                 // "1.2" | "2004"
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

// The page's files a package must hold, and those it takes when the site has them.
const std::vector<std::string>& package_required_files();
const std::vector<std::string>& package_optional_files();

// "" or what is wrong with the options (unknown lesson, version, pass, endpoint).
std::string check_package_options(const CoursePackageOptions& o);

// The zip's bytes in `zip`; "" or why it could not be made. `site` holds the page's files (every required one).
std::string build_course_package(const CoursePackageOptions& o, const std::vector<PackageFile>& site, std::string& zip);

}  // namespace attn
