// app_exchange.h — the App's exchanges with the page and files beyond its share links: getResult's JSON (what the
// result export saves) and a lesson file or link opened in the lesson builder.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace attn {

class App;
// The CLI's result JSON plus what only the app computes (the cross-attention example, the heads
// trade-off): what window.attnplay.getResult() returns.
nlohmann::json app_result_json(const App& app);
// The same, as the text of the exported result file.
std::string result_json_text(const App& app);
// A lesson file or link's text opened in the builder (its "Open" and a file picked for it): "" or why not.
std::string open_in_builder(App& app, const std::string& text, const std::string& name);

}  // namespace attn
