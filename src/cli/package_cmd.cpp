// package_cmd.cpp — `attnplay package`: reads the built page's files from --site and writes the course package
// (src/app/lesson/course_package.h) to --out.
#include "package_cmd.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "app/lesson/course_package.h"
#include "app/lesson/lesson.h"

#ifndef ATTNPLAY_DEFAULT_SITE
#define ATTNPLAY_DEFAULT_SITE "build/web"
#endif

namespace attn::cli {

const char kPackageUsage[] =
    "  package --lesson ID|FILE.json[,...] --scorm 1.2|2004|--cmi5 --out FILE.zip [--site DIR] [--pass 0.8]\n"
    "          [--title TEXT] [--xapi-endpoint URL]\n"
    "                                      a course package for an LMS: one SCO (cmi5: AU) per lesson (a built-in\n"
    "                                      id or a teacher's lesson file, checked and carried inside), the page from\n"
    "                                      --site (default: $ATTNPLAY_SITE or the web build), mastery --pass (cmi5:\n"
    "                                      also none); --xapi-endpoint (SCORM) also sends xAPI statements to it\n";

namespace {

constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

struct PackageArgs {
  CoursePackageOptions package;
  std::string out, site;
  bool pass_given = false;  // --pass: else the lessons' own pass mark, else the default
};

bool read_file(const std::string& path, std::string& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  out = ss.str();
  return static_cast<bool>(f) || f.eof();
}

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : s + ",") {
    if (c != ',') {
      cur += c;
    } else if (!cur.empty()) {
      parts.push_back(cur);
      cur.clear();
    }
  }
  return parts;
}

std::string parse_options(const std::vector<std::string>& args, PackageArgs& p) {
  CoursePackageOptions& o = p.package;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--cmi5") {
      o.cmi5 = true;
      continue;
    }
    const bool known = a == "--lesson" || a == "--scorm" || a == "--out" || a == "--site" || a == "--pass" ||
                       a == "--title" || a == "--xapi-endpoint";
    if (!known) return "unknown option for package: " + a;
    if (i + 1 >= args.size()) return a + " needs a value";
    const std::string& v = args[++i];
    if (a == "--lesson") o.lessons = split_commas(v);
    if (a == "--scorm") o.scorm = v;
    if (a == "--out") p.out = v;
    if (a == "--site") p.site = v;
    if (a == "--title") o.title = v;
    if (a == "--xapi-endpoint") o.xapi_endpoint = v;
    if (a == "--pass") p.pass_given = true;
    if (a == "--pass" && v == "none") {
      o.graded = false;
    } else if (a == "--pass") {
      o.graded = true;
      char* end = nullptr;
      o.pass = std::strtod(v.c_str(), &end);
      if (!end || *end || !std::isfinite(o.pass) || o.pass < 0 || o.pass > 1)
        return "--pass must be a number from 0 to 1 (the share of predictions right at the first try) or none";
    }
  }
  if (o.lessons.empty()) return "package needs --lesson ID (several: --lesson ID1,ID2)";
  if (o.cmi5 && !o.scorm.empty()) return "package takes --scorm or --cmi5, not both";
  if (!o.cmi5 && o.scorm != "1.2" && o.scorm != "2004") return "package needs --scorm 1.2 or --scorm 2004 (or --cmi5)";
  if (!o.cmi5 && !o.graded) return "--pass none is for --cmi5 only (a SCORM package needs a pass mark)";
  if (o.cmi5 && !o.xapi_endpoint.empty())
    return "--xapi-endpoint is for SCORM only (a cmi5 package is told its LRS by the LMS at launch)";
  if (p.out.empty()) return "package needs --out FILE.zip";
  if (!o.xapi_endpoint.empty() && o.xapi_endpoint.rfind("https://", 0) != 0 && o.xapi_endpoint.rfind("http://", 0) != 0)
    return "--xapi-endpoint must be an http(s) address";
  if (p.site.empty()) {
    const char* env = std::getenv("ATTNPLAY_SITE");
    p.site = env && *env ? env : ATTNPLAY_DEFAULT_SITE;
  }
  return "";
}

// A --lesson entry naming a file (it ends in .json or has a '/'): the teacher's lesson, checked as
// `attnplay lesson check` does, carried in the package; the entry becomes its id.
std::string add_lesson_files(CoursePackageOptions& o) {
  for (std::string& entry : o.lessons) {
    const bool is_file =
        entry.find('/') != std::string::npos || (entry.size() > 5 && entry.compare(entry.size() - 5, 5, ".json") == 0);
    if (!is_file) continue;
    std::string text;
    if (!read_file(entry, text)) return "cannot read the lesson file " + entry;
    const Lesson* added = nullptr;
    const std::string err = add_lesson(text, &added);
    if (!err.empty()) return entry + ": " + err;
    set_package_lesson_text(added->id, text);
    entry = added->id;
  }
  return "";
}

// The page's files as its site-manifest.json lists them (and the list itself); "" or which one is missing.
std::string read_site(const std::string& dir, std::vector<PackageFile>& site) {
  PackageFile manifest{kSiteManifest, ""};
  if (!read_file(dir + "/" + kSiteManifest, manifest.bytes))
    return "the page's file list " + dir + "/" + kSiteManifest +
           " is missing: build the web page first or name it with --site DIR";
  std::vector<std::string> paths;
  std::string err = site_manifest_paths(manifest.bytes, paths);
  if (!err.empty()) return dir + "/" + err;
  site.push_back(std::move(manifest));
  for (const std::string& name : paths) {
    PackageFile f{name, ""};
    if (!read_file(dir + "/" + name, f.bytes))
      return "the page's file " + dir + "/" + name + " is missing (it is in " + kSiteManifest +
             "): build the web page again";
    site.push_back(std::move(f));
  }
  return "";
}

}  // namespace

int run_package(const std::vector<std::string>& args, std::string& error) {
  PackageArgs p;
  error = parse_options(args, p);
  if (!error.empty()) return kExitUsage;
  error = add_lesson_files(p.package);
  if (error.empty() && !p.pass_given) take_lessons_pass_mark(p.package);
  if (error.empty()) error = check_package_options(p.package);
  if (!error.empty()) return kExitError;
  std::vector<PackageFile> site;
  error = read_site(p.site, site);
  if (!error.empty()) return kExitError;
  std::string zip;
  error = build_course_package(p.package, site, zip);
  if (!error.empty()) return kExitError;
  std::ofstream out(p.out, std::ios::binary | std::ios::trunc);
  out.write(zip.data(), static_cast<std::streamsize>(zip.size()));
  out.close();
  if (!out) {
    error = "could not write " + p.out;
    return kExitError;
  }
  const std::string kind = p.package.cmi5 ? std::string("cmi5") : "SCORM " + p.package.scorm;
  std::printf("%s: %s, %zu lesson%s, %zu bytes\n", p.out.c_str(), kind.c_str(), p.package.lessons.size(),
              p.package.lessons.size() == 1 ? "" : "s", zip.size());
  return 0;
}

}  // namespace attn::cli
