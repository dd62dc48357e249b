// manifest_cmd.cpp — `attnplay manifest`, built from the registries and tables other languages would otherwise copy.
#include "manifest_cmd.h"

#include <iostream>

#include "app/base/page_events.h"
#include "app/exchange/embed.h"
#include "app/lesson/lesson.h"
#include "app/lesson/lesson_builder.h"
#include "app/state/registry.h"
#include "app/state/state.h"
#include "app/state/state_json.h"
#include "core/json_codec.h"
#include "core/share_codec.h"

namespace attn::cli {

const char kManifestUsage[] =
    "  manifest                            print panels, controls, state and scenario keys, lessons, limits and\n"
    "                                      page events as JSON (data/manifest.json is its copy for scripts,\n"
    "                                      tests, Python)\n";

namespace {

using nlohmann::json;

json panels_json() {
  json out = json::array();
  for (const PanelInfo& p : panel_table()) {
    json shows = json::array();
    std::string fact;
    for (const char* c = p.shows;; ++c) {  // "weights scores": the registry's space-separated facts, in its order
      if (*c != ' ' && *c != '\0') {
        fact += *c;
        continue;
      }
      if (!fact.empty()) shows.push_back(fact);
      fact.clear();
      if (*c == '\0') break;
    }
    out.push_back({{"id", p.key}, {"open", p.default_open}, {"lock", p.lock}, {"shows", shows}});
  }
  return out;
}

json controls_json() {
  json lockable = json::array();
  for (const ControlInfo& c : control_table()) lockable.push_back(c.id);
  json families = json::array();
#define ATTN_MANIFEST_FAMILY(name, prefix, alias) families.push_back({{"prefix", prefix}, {"alias", alias}});
  ATTN_CONTROL_FAMILIES(ATTN_MANIFEST_FAMILY)
#undef ATTN_MANIFEST_FAMILY
  json ids = json::array();
#define ATTN_MANIFEST_CONTROL(name, id, alias) ids.push_back({{"id", id}, {"alias", alias}});
  ATTN_CONTROLS(ATTN_MANIFEST_CONTROL)
#undef ATTN_MANIFEST_CONTROL
  return {{"ids", ids}, {"lockable", lockable}, {"families", families}};
}

json lessons_json() {
  json out = json::array();
  for (const LessonEntry& e : builtin_lesson_entries())
    out.push_back({{"id", e.id}, {"title", e.title}, {"summary", e.summary}, {"steps", e.steps}});
  return out;
}

// Each limit by the name its readers use, in bytes unless the name says otherwise.
json limits_json() {
  return {
      {"share_format_version", kShareFormatVersion},
      {"share_fragment_bytes", kMaxShareFragmentBytes},
      {"share_inflated_bytes", kMaxShareInflatedBytes},
      {"json_bytes", kMaxJsonBytes},
      {"json_depth", kMaxJsonDepth},
      {"embed_query_bytes", kMaxEmbedQueryBytes},
      {"embed_list_entries", kMaxEmbedListEntries},
      {"origin_bytes", kMaxOriginBytes},
      {"sentence_bytes", kMaxSentenceBytes},
      {"tokens", kMaxTokens},
      {"lesson_bytes", kMaxLessonBytes},
      {"lesson_steps", kMaxLessonSteps},
      {"lesson_choices", kMaxChoices},
      {"lesson_text_bytes", kMaxTextBytes},
      {"dimension", kMaxDim},
      {"lesson_link_chars", kMaxLessonLinkChars},
      {"scorm12_suspend_chars", kScorm12SuspendChars},
  };
}

json scenario_keys_json() {
  json out = json::array();
  for (const ScenarioKeyInfo& k : scenario_key_table()) out.push_back({{"name", k.name}, {"matrix", k.matrix}});
  return out;
}

json events_json() {
  json out = json::array();
  for (const PageEventInfo& e : page_event_table())
    out.push_back({{"name", e.name}, {"source", e.source}, {"subscribable", e.subscribable}, {"what", e.what}});
  return out;
}

}  // namespace

json manifest_json() {
  // nlohmann::json sorts an object's keys, so the output is byte-for-byte stable; arrays keep registry order.
  return {{"format", kManifestFormat},   {"panels", panels_json()},
          {"controls", controls_json()}, {"keys", state_schema()},
          {"lessons", lessons_json()},   {"limits", limits_json()},
          {"events", events_json()},     {"scenario_keys", scenario_keys_json()}};
}

int run_manifest(const std::vector<std::string>& args, std::string& error) {
  if (!args.empty()) {
    error = "manifest takes no arguments";
    return 2;
  }
  std::cout << manifest_json().dump(2) << "\n";
  return 0;
}

}  // namespace attn::cli
