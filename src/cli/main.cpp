// main.cpp — `attnplay`: compute a scenario file to JSON, run the variance experiment, print the state schema,
// or open the GUI.
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "app/exchange/share.h"
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_verify.h"
#include "app/state/registry.h"
#include "app/state/state_json.h"
#include "core/attention/attention.h"
#include "core/attention/montecarlo.h"
#include "core/json_codec.h"
#include "manifest_cmd.h"
#include "package_cmd.h"
#include "strings_cmd.h"
#include "train_cmd.h"

#ifdef ATTNPLAY_WITH_GUI
#include "platform/platform.h"
#endif

namespace {

#ifndef ATTNPLAY_VERSION
#define ATTNPLAY_VERSION "0.1.0"
#endif

constexpr int kExitError = 1;  // bad input: the file, its JSON or its numbers
constexpr int kExitUsage = 2;  // bad command line

// Experiment bounds: enough for any plot, small enough that one run stays interactive.
constexpr long kMaxSamples = 10000000;
constexpr long kMaxBins = 1000;
constexpr size_t kMaxDks = 64;

const std::string kUsage =
    std::string(
        "usage: attnplay <command> [options]\n"
        "\n"
        "commands:\n"
        "  compute [--compact] SCENARIO.json   compute attention for a scenario file ('-' reads stdin)\n"
        "                                      and print every intermediate as JSON\n"
        "  variance --d-k 4,16,64 [--samples N] [--seed S] [--bins B]\n"
        "                                      measure var(q.k) with and without 1/sqrt(d_k) scaling\n"
        "                                      (defaults: --samples 10000 --seed 1 --bins 41)\n") +
    attn::cli::kTrainUsage + attn::cli::kPackageUsage +
    "  lesson check LESSON.json            check a lesson file: \"ok: N steps, M predictions\" (and any\n"
    "                                      warnings), or the one reason it would be refused\n"
    "  lesson verify LESSON.json|ID        walk every state a learner can reach in a lesson and check every\n"
    "                                      text shown there; prints each failure and the walk's counts\n"
    "  schema                              print the app state's keys as JSON: each key's kind and values\n" +
    std::string(attn::cli::kStringsUsage) +
    "  ids                                 print the panel ids (embed panels=) and lockable control ids\n"
    "                                      (embed lock=, hide=; lesson locks) as JSON\n" +
    attn::cli::kManifestUsage +
    "  share STATE.json                    print the page's share fragment (s=1.…) of a (partial) state\n"
    "  share --open FRAGMENT               print the whole state a share fragment or link opens\n"
    "  gui [...]                           open the desktop window (GUI builds only); --input FILE plays\n"
    "                                      a script of input steps (see src/platform/input_script.h);\n"
    "                                      --check-fit exits 3 naming any control cut at a panel's edge;\n"
    "                                      --lesson FILE opens a lesson file at its first step;\n"
    "                                      --catalog data/strings/TAG.json shows a translator's catalog\n"
    "\n"
    "options:\n"
    "  -h, --help      show this help\n"
    "  --version       print the version\n"
    "\n"
    "exit codes: 0 success, 1 invalid input (or a training run that stopped), 2 usage error\n";

// Length of the well-formed UTF-8 sequence starting at s[i], or 0 if it is not one.
size_t utf8_length(const std::string& s, size_t i) {
  const auto b = [&s](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  return n;
}

// Every failure is exactly one line, so scripts can read the reason with `head -1`; messages may
// quote the user's bytes, so control characters and broken UTF-8 are neutralised first.
int fail(int code, const std::string& msg) {
  std::string line;
  for (size_t i = 0; i < msg.size();) {
    const size_t n = utf8_length(msg, i);
    const unsigned char c = static_cast<unsigned char>(msg[i]);
    if (n == 0) {
      line += '?';
      i += 1;
    } else if (n == 1 && (c < 0x20 || c == 0x7F)) {
      line += ' ';
      i += 1;
    } else {
      line.append(msg, i, n);
      i += n;
    }
  }
  std::cerr << "error: " << line << "\n";
  return code;
}

int usage_error(const std::string& msg) { return fail(kExitUsage, msg + " (see attnplay --help)"); }

// Reads at most kMaxJsonBytes + 1 bytes so an endless or huge input is refused without buffering it all.
std::string read_input(const std::string& path, std::string& text) {
  // A folder opens on Linux and fails at the first read, but does not open on Windows ("Permission denied"):
  // either way the learner is told what the path is.
  std::error_code ec;
  if (path != "-" && std::filesystem::is_directory(path, ec)) return "cannot read " + path + ": it is a folder";
  FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (!f) return "cannot open " + path + ": " + std::strerror(errno);
  std::string buf;
  char chunk[65536];
  bool too_big = false;
  for (;;) {
    size_t n = std::fread(chunk, 1, sizeof chunk, f);
    buf.append(chunk, n);
    if (buf.size() > attn::kMaxJsonBytes) {
      too_big = true;
      break;
    }
    if (n < sizeof chunk) break;
  }
  const bool read_failed = std::ferror(f) != 0;
  const int read_errno = errno;
  if (f != stdin) std::fclose(f);
  const std::string name = path == "-" ? std::string("standard input") : path;
  if (read_failed) return "cannot read " + name + ": " + std::strerror(read_errno);
  if (too_big) return name + " is larger than the limit of " + std::to_string(attn::kMaxJsonBytes) + " bytes";
  text = std::move(buf);
  return "";
}

// Pretty printing with 2-space indent, except that arrays of scalars (matrix rows, per-row
// statistics) stay on one line: a 3×3 matrix reads as 3 lines, not 15.
void pretty(const nlohmann::json& j, int indent, std::string& out) {
  const auto scalar = [](const nlohmann::json& v) {
    // Invalid UTF-8 in a label must not abort the dump; replace it instead.
    return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  const std::string pad(static_cast<size_t>(indent + 2), ' ');
  if (j.is_array()) {
    bool flat = true;
    for (const auto& v : j) flat = flat && v.is_primitive();
    if (flat || j.empty()) {
      out += "[";
      for (size_t i = 0; i < j.size(); ++i) out += (i ? ", " : "") + scalar(j[i]);
      out += "]";
      return;
    }
    out += "[\n";
    for (size_t i = 0; i < j.size(); ++i) {
      out += pad;
      pretty(j[i], indent + 2, out);
      out += i + 1 < j.size() ? ",\n" : "\n";
    }
    out.append(static_cast<size_t>(indent), ' ');
    out += "]";
  } else if (j.is_object()) {
    if (j.empty()) {
      out += "{}";
      return;
    }
    out += "{\n";
    size_t i = 0;
    for (auto it = j.begin(); it != j.end(); ++it, ++i) {
      out += pad + scalar(nlohmann::json(it.key())) + ": ";
      pretty(it.value(), indent + 2, out);
      out += i + 1 < j.size() ? ",\n" : "\n";
    }
    out.append(static_cast<size_t>(indent), ' ');
    out += "}";
  } else {
    out += scalar(j);
  }
}

int emit(const nlohmann::json& j, bool compact) {
  std::string s;
  if (compact)
    s = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  else
    pretty(j, 0, s);
  std::cout << s << "\n";
  std::cout.flush();
  if (!std::cout) return fail(kExitError, "cannot write to standard output");
  return 0;
}

int cmd_compute(const std::vector<std::string>& args) {
  bool compact = false;
  std::string path;
  bool have_path = false;
  for (const std::string& a : args) {
    if (a == "--compact") {
      compact = true;
    } else if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (a.size() > 1 && a[0] == '-') {
      return usage_error("unknown option for compute: " + a);
    } else if (have_path) {
      return usage_error("compute takes one scenario file, got a second: " + a);
    } else {
      path = a;
      have_path = true;
    }
  }
  if (!have_path) return usage_error("compute needs a scenario file (or '-' for stdin)");

  std::string text;
  std::string err = read_input(path, text);
  if (!err.empty()) return fail(kExitError, err);
  attn::Scenario scenario;
  err = attn::parse_scenario(text, scenario);
  if (!err.empty()) return fail(kExitError, err);
  attn::Result result;
  err = attn::compute(scenario, result);
  if (!err.empty()) return fail(kExitError, err);
  nlohmann::json j = attn::result_to_json(result);
  if (j.contains("error")) return fail(kExitError, j["error"].get<std::string>());
  return emit(j, compact);
}

// Parses a whole decimal integer in [lo, hi]; "" on success.
std::string parse_int(const std::string& flag, const std::string& text, long lo, long hi, long& out) {
  if (text.empty()) return flag + " needs a number";
  size_t i = 0;
  bool neg = false;
  if (text[0] == '-' || text[0] == '+') {
    neg = text[0] == '-';
    i = 1;
  }
  if (i == text.size()) return flag + " expects an integer, got '" + text + "'";
  long v = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') return flag + " expects an integer, got '" + text + "'";
    // Stop once past the bound so the accumulator cannot overflow on a long digit string.
    if (v > hi) return flag + " must be between " + std::to_string(lo) + " and " + std::to_string(hi);
    v = v * 10 + (c - '0');
  }
  if (neg) v = -v;
  if (v < lo || v > hi) return flag + " must be between " + std::to_string(lo) + " and " + std::to_string(hi);
  out = v;
  return "";
}

std::string parse_u64(const std::string& flag, const std::string& text, uint64_t& out) {
  if (text.empty() || text.size() > 20) return flag + " expects a non-negative integer, got '" + text + "'";
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return flag + " expects a non-negative integer, got '" + text + "'";
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return flag + " is larger than 2^64 - 1";
    v = v * 10 + d;
  }
  out = v;
  return "";
}

int cmd_variance(const std::vector<std::string>& args) {
  std::vector<int> d_ks;
  long samples = 10000, bins = 41;
  uint64_t seed = 1;
  bool compact = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--compact") {
      compact = true;
      continue;
    }
    if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      return 0;
    }
    // Accept both "--flag value" and "--flag=value".
    std::string flag = a, value;
    bool has_value = false;
    const size_t eq = a.find('=');
    if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
      flag = a.substr(0, eq);
      value = a.substr(eq + 1);
      has_value = true;
    }
    if (flag != "--d-k" && flag != "--samples" && flag != "--seed" && flag != "--bins")
      return usage_error("unknown option for variance: " + a);
    if (!has_value) {
      if (i + 1 >= args.size()) return usage_error(flag + " needs a value");
      value = args[++i];
    }
    std::string err;
    if (flag == "--d-k") {
      d_ks.clear();
      size_t start = 0;
      for (;;) {
        const size_t comma = value.find(',', start);
        const std::string item = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        long d = 0;
        err = parse_int("--d-k", item, 1, attn::kMaxDim, d);
        if (!err.empty()) break;
        d_ks.push_back(static_cast<int>(d));
        if (d_ks.size() > kMaxDks) {
          err = "--d-k takes at most " + std::to_string(kMaxDks) + " values";
          break;
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    } else if (flag == "--samples") {
      err = parse_int(flag, value, 1, kMaxSamples, samples);
    } else if (flag == "--bins") {
      err = parse_int(flag, value, 1, kMaxBins, bins);
    } else {
      err = parse_u64(flag, value, seed);
    }
    if (!err.empty()) return usage_error(err);
  }
  if (d_ks.empty()) return usage_error("variance needs --d-k, e.g. --d-k 4,16,64");

  const std::vector<attn::VarianceRow> rows =
      attn::variance_experiment(d_ks, static_cast<int>(samples), seed, static_cast<int>(bins));
  nlohmann::json j = attn::variance_to_json(rows);
  if (j.is_object() && j.contains("error")) return fail(kExitError, j["error"].get<std::string>());
  return emit(j, compact);
}

// The page's own share-link codec, for scripts and for the other encoders' tests (Python, the web component).
int cmd_share(const std::vector<std::string>& args) {
  if (args.size() == 2 && args[0] == "--open") {
    attn::State s;
    const std::string err = attn::decode_share_fragment(args[1], s);
    if (!err.empty()) return fail(kExitError, err);
    std::cout << attn::state_to_json(s).dump(2) << "\n";
    return 0;
  }
  if (args.size() != 1 || (args[0].size() > 1 && args[0][0] == '-'))
    return usage_error("share takes a state file ('-' reads stdin) or --open FRAGMENT");
  std::string text;
  std::string err = read_input(args[0], text);
  if (!err.empty()) return fail(kExitError, err);
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return fail(kExitError, "the state is not a JSON object");
  attn::State s;
  err = attn::state_from_share_json(j, s);
  if (!err.empty()) return fail(kExitError, err);
  std::cout << attn::share_fragment(s) << "\n";
  return 0;
}

// A lesson by id (a compiled-in one) or from a file; "" or why not.
std::string load_lesson_arg(const std::string& arg, attn::Lesson& lesson) {
  if (const attn::Lesson* builtin = attn::find_lesson(arg)) {
    lesson = *builtin;
    return "";
  }
  std::string text;
  std::string err = read_input(arg, text);
  if (err.empty()) err = attn::check_lesson_text(text, lesson);
  return err.empty() ? "" : arg + ": " + err;
}

// `lesson verify FILE|ID`: every state a learner can reach, every text shown there (lesson_verify.h).
int cmd_lesson_verify(const std::string& arg) {
  attn::Lesson lesson;
  const std::string err = load_lesson_arg(arg, lesson);
  if (!err.empty()) return fail(kExitError, err);
  int failures = 0;
  for (attn::Lang lang : attn::languages()) {
    const attn::LessonVerifyReport r = attn::verify_lesson(lesson, lang);
    for (const std::string& f : r.failures) std::cout << "fail: " << f << "\n";
    failures += static_cast<int>(r.failures.size());
    std::cout << lesson.id << " [" << attn::lang_code(lang) << "]: " << r.states << " states, " << r.texts << " texts, "
              << r.claims << " claims checked, " << r.failures.size() << " failures\n";
  }
  return failures ? kExitError : 0;
}

// `lesson check FILE`: what a teacher runs before handing a lesson file out; the app refuses the same files.
int cmd_lesson(const std::vector<std::string>& args) {
  if (args.size() == 2 && args[0] == "verify") return cmd_lesson_verify(args[1]);
  if (args.size() != 2 || args[0] != "check")
    return usage_error("usage: attnplay lesson check LESSON.json | attnplay lesson verify LESSON.json|ID");
  std::string text;
  std::string err = read_input(args[1], text);
  if (!err.empty()) return fail(kExitError, err);
  attn::Lesson lesson;
  err = attn::check_lesson_text(text, lesson);
  if (err.empty()) err = attn::verify_lesson_message(lesson);
  if (!err.empty()) return fail(kExitError, args[1] + ": " + err);
  size_t predictions = 0;
  for (const attn::LessonStep& s : lesson.steps) predictions += s.task.kind == attn::Task::Kind::Predict ? 1 : 0;
  for (const std::string& w : lesson.warnings) std::cout << "warning: " << w << "\n";
  std::cout << "ok: " << lesson.steps.size() << (lesson.steps.size() == 1 ? " step, " : " steps, ") << predictions
            << (predictions == 1 ? " prediction\n" : " predictions\n");
  return 0;
}

int cmd_gui(int argc, char** argv) {
#ifdef ATTNPLAY_WITH_GUI
  // The window sees a conventional argv: program name, then what followed "gui".
  std::vector<char*> gui_argv;
  gui_argv.push_back(argv[0]);
  for (int i = 2; i < argc; ++i) gui_argv.push_back(argv[i]);
  gui_argv.push_back(nullptr);
  return attn::run_gui(static_cast<int>(gui_argv.size()) - 1, gui_argv.data());
#else
  (void)argc;
  (void)argv;
  return fail(kExitUsage, "this build has no GUI");
#endif
}

int run(int argc, char** argv) {
  if (argc < 2) return usage_error("missing command");
  const std::string cmd = argv[1];
  std::vector<std::string> rest(argv + 2, argv + argc);
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (cmd == "--version") {
    std::cout << "attnplay " << ATTNPLAY_VERSION << "\n";
    return 0;
  }
  if (cmd == "compute") return cmd_compute(rest);
  if (cmd == "variance") return cmd_variance(rest);
  if (cmd == "train") {
    std::string err;
    const int rc = attn::cli::run_train(rest, err);
    if (rc == kExitUsage) return usage_error(err);
    return rc == 0 ? 0 : fail(rc, err);
  }
  if (cmd == "package") {
    std::string err;
    const int rc = attn::cli::run_package(rest, err);
    if (rc == kExitUsage) return usage_error(err);
    return rc == 0 ? 0 : fail(rc, err);
  }
  if (cmd == "lesson") return cmd_lesson(rest);
  if (cmd == "strings") {
    std::string err;
    const int rc = attn::cli::run_strings(rest, std::cout, err);
    if (rc == kExitUsage) return usage_error(err);
    return rc == 0 ? 0 : fail(rc, err);
  }
  if (cmd == "schema") {
    if (!rest.empty()) return usage_error("schema takes no arguments");
    std::cout << attn::state_schema().dump(2) << "\n";
    return 0;
  }
  if (cmd == "ids") {
    if (!rest.empty()) return usage_error("ids takes no arguments");
    // What an embed's panels= and lock=/hide= accept, from the registries: docs and tests read this, not a copy.
    std::cout << nlohmann::json{{"panels", attn::panel_ids()}, {"controls", attn::control_ids()}}.dump(2) << "\n";
    return 0;
  }
  if (cmd == "manifest") {
    std::string err;
    const int rc = attn::cli::run_manifest(rest, err);
    return rc == 0 ? 0 : usage_error(err);
  }
  if (cmd == "share") return cmd_share(rest);
  if (cmd == "gui") return cmd_gui(argc, argv);
  if (!cmd.empty() && cmd[0] == '-') return usage_error("unknown option: " + cmd);
  return usage_error("unknown command: " + cmd);
}

}  // namespace

int main(int argc, char** argv) {
  // Last line of defence: whatever slips through still ends as one "error:" line, not a crash.
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    return fail(kExitError, "out of memory");
  } catch (const std::exception& e) {
    return fail(kExitError, e.what());
  } catch (...) {
    return fail(kExitError, "unexpected failure");
  }
}
