// host.h — what the platform does for the UI (clipboard, downloads, file picking, the page address).
// web.cpp fills these with calls into attnplay-api.js, desktop.cpp with GLFW and plain files; the UI
// checks a hook is set before offering the action.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace attn {

// What a save did: where the file went (a path on the desktop, the file's name in the page), or why it could not be
// written (the system's reason, "" when there is none). App::download words it from the catalog.
struct SaveOutcome {
  bool ok = false;
  std::string where;
  std::string reason;
};

struct HostServices {
  std::function<void(const std::string& text)> copy_text;
  // Saves bytes as a file (web: a download; desktop: a file in the working directory).
  std::function<SaveOutcome(const std::string& name, const std::string& mime, const std::string& bytes)> download;
  // Saves w×h RGBA pixels (row-major, top row first) as a PNG file.
  std::function<SaveOutcome(const std::string& name, int w, int h, const std::vector<uint8_t>& rgba)> save_png;
  // Saves the whole canvas as a PNG once the current frame has been drawn.
  std::function<void(const std::string& name)> capture_canvas;
  // Opens a file picker; the chosen file's text comes back through App::import_text.
  std::function<void()> pick_file;
  // Reads a file by path (desktop, where there is no picker): "" on success.
  std::function<std::string(const std::string& path, std::string& text)> read_file;
  // The page address without query or fragment, to which share links append "#s=…" ("" on desktop).
  std::function<std::string()> page_url;
  // Builds a course package for an LMS (web: the page fetches its own files, then attnplay_package_finish zips
  // them with the lessons and downloads the zip). `lessons` is comma-separated; `scorm` "1.2" or "2004".
  std::function<void(const std::string& lessons, const std::string& scorm)> make_course_package;
  // Keeps the learner's lesson progress (web: local storage; desktop: the config folder).
  std::function<void(const std::string& json)> save_progress;
};

// The desktop's downloads: writes `bytes` to dir/name and says where, or why it could not.
SaveOutcome save_file(const std::string& dir, const std::string& name, const std::string& bytes);

}  // namespace attn
