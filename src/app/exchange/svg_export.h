// svg_export.h — vector figures for slides and papers: the heatmap, the selected row's weights scaled and
// unscaled, and the variance histogram, as SVG with text as text and labelled axes.
#pragma once

#include <string>

namespace attn {

class Playground;

// Each returns a complete SVG document (UTF-8). Labels are XML-escaped; non-finite values are drawn as
// masked cells or left out, never written as NaN.
std::string heatmap_svg(const Playground& pg);
std::string saturation_svg(const Playground& pg);
std::string variance_svg(const Playground& pg);

// Text made safe inside XML/HTML text and attribute values (& < > " ').
std::string escape_markup(const std::string& s);

}  // namespace attn
