// svg_export.cpp — SVG writers for the heatmap, the saturation bars and the variance histogram.
#include "app/exchange/svg_export.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/base/colormap.h"
#include "app/playground/playground.h"

namespace attn {

namespace {
std::string esc(const std::string& s) { return escape_markup(s); }

std::string num(double v, int decimals = 2) {
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", decimals, std::isfinite(v) ? v : 0.0);
  return b;
}

// The heatmap's colour (app/base/colormap.h), as #rrggbb.
std::string viridis_hex(double t) {
  const Rgb c = viridis(static_cast<float>(t));
  char b[8];
  std::snprintf(b, sizeof b, "#%02x%02x%02x", colour_byte(c.r), colour_byte(c.g), colour_byte(c.b));
  return b;
}

std::string header(double w, double h, const std::string& title) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(w, 0) +
         "\" height=\"" + num(h, 0) + "\" viewBox=\"0 0 " + num(w, 0) + " " + num(h, 0) +
         "\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"12\">\n<title>" + esc(title) + "</title>\n" +
         "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
}

const HeadResult& head(const Playground& pg) {
  const Result& r = pg.result.core;
  return r.first_head();
}

// Bars of `values` (one per label) from y0 downwards to the baseline, with the axis and labels.
std::string bars(const std::vector<double>& values, const std::vector<std::string>& labels, double x0, double y0,
                 double w, double h, const char* colour, const char* cls) {
  std::string s;
  const size_t n = values.size();
  const double bw = n ? w / static_cast<double>(n) : w;
  for (size_t i = 0; i < n; ++i) {
    const double v = std::isfinite(values[i]) ? std::clamp(values[i], 0.0, 1.0) : 0.0;
    s += "<rect class=\"" + std::string(cls) + "\" x=\"" + num(x0 + bw * i + 2) + "\" y=\"" + num(y0 + h * (1 - v)) +
         "\" width=\"" + num(std::max(1.0, bw - 4)) + "\" height=\"" + num(h * v) + "\" fill=\"" + colour +
         "\"><title>" + esc(i < labels.size() ? labels[i] : "") + ": " + num(values[i], 4) + "</title></rect>\n";
    s += "<text class=\"label\" x=\"" + num(x0 + bw * (i + 0.5)) + "\" y=\"" + num(y0 + h + 14) +
         "\" text-anchor=\"middle\">" + esc(i < labels.size() ? labels[i] : "") + "</text>\n";
  }
  s += "<line x1=\"" + num(x0) + "\" y1=\"" + num(y0 + h) + "\" x2=\"" + num(x0 + w) + "\" y2=\"" + num(y0 + h) +
       "\" stroke=\"#333\"/>\n";
  for (double t : {0.0, 0.5, 1.0})
    s += "<text class=\"tick\" x=\"" + num(x0 - 4) + "\" y=\"" + num(y0 + h * (1 - t) + 4) + "\" text-anchor=\"end\">" +
         num(t, 1) + "</text>\n";
  return s;
}
}  // namespace

std::string heatmap_svg(const Playground& pg) {
  const HeadResult& h = head(pg);
  const int n = static_cast<int>(h.weights.rows()), m = static_cast<int>(h.weights.cols());
  const double cell = std::clamp(480.0 / std::max(1, std::max(n, m)), 4.0, 48.0), left = 90, top = 90;
  const double W = left + cell * m + 20, H = top + cell * n + 50;
  std::string s = header(W, H, "Attention weights softmax(QKᵀ/√d_k)");
  s += "<text x=\"" + num(left) +
       "\" y=\"20\" font-size=\"14\">Attention weights (rows: queries, columns: keys), d_k = " +
       num(pg.result.core.d_k, 0) + (pg.state.scale ? ", ÷√d_k" : ", unscaled") + "</text>\n";
  const auto& rows = pg.result.row_labels;
  const auto& cols = pg.result.col_labels;
  for (int j = 0; j < m; ++j)
    s += "<text class=\"col-label\" transform=\"translate(" + num(left + cell * (j + 0.5) + 4) + "," + num(top - 6) +
         ") rotate(-60)\">" + esc(j < static_cast<int>(cols.size()) ? cols[static_cast<size_t>(j)] : "") + "</text>\n";
  for (int i = 0; i < n; ++i) {
    s += "<text class=\"row-label\" x=\"" + num(left - 6) + "\" y=\"" + num(top + cell * (i + 0.5) + 4) +
         "\" text-anchor=\"end\">" + esc(i < static_cast<int>(rows.size()) ? rows[static_cast<size_t>(i)] : "") +
         "</text>\n";
    for (int j = 0; j < m; ++j) {
      const float w = h.weights(i, j);
      const bool masked = !std::isfinite(h.logits(i, j)) && h.logits(i, j) < 0;
      s += "<rect class=\"cell\" x=\"" + num(left + cell * j) + "\" y=\"" + num(top + cell * i) + "\" width=\"" +
           num(cell) + "\" height=\"" + num(cell) + "\" fill=\"" + (masked ? std::string("#777777") : viridis_hex(w)) +
           "\"><title>" + num(w, 4) + "</title></rect>\n";
      if (cell >= 30 && !masked)
        s += "<text class=\"value\" x=\"" + num(left + cell * (j + 0.5)) + "\" y=\"" + num(top + cell * (i + 0.5) + 4) +
             "\" text-anchor=\"middle\" font-size=\"10\" fill=\"" + (w > 0.6f ? "#000" : "#fff") + "\">" + num(w, 2) +
             "</text>\n";
    }
  }
  s += "<text x=\"" + num(left) + "\" y=\"" + num(H - 14) + "\">keys →   (each row sums to 1)</text>\n</svg>\n";
  return s;
}

std::string saturation_svg(const Playground& pg) {
  const HeadResult& h = head(pg);
  const int row = std::clamp(pg.state.selected_row, 0, std::max(0, static_cast<int>(h.weights.rows()) - 1));
  std::vector<double> now, other;
  for (Eigen::Index j = 0; h.weights.rows() > 0 && j < h.weights.cols(); ++j) now.push_back(h.weights(row, j));
  const HeadResult& f = pg.result.flipped.first_head();
  const int frow = f.weights.rows() == 1 ? 0 : row;
  for (Eigen::Index j = 0; frow < f.weights.rows() && j < f.weights.cols(); ++j) other.push_back(f.weights(frow, j));
  const double W = 640, H = 320;
  const std::string label =
      row < static_cast<int>(pg.result.row_labels.size()) ? pg.result.row_labels[static_cast<size_t>(row)] : "";
  std::string s = header(W, H, "Softmax weights of one query, scaled and unscaled");
  const std::vector<double>& scaled = pg.state.scale ? now : other;
  const std::vector<double>& unscaled = pg.state.scale ? other : now;
  s += "<text x=\"40\" y=\"20\" font-size=\"14\">Weights of \"" + esc(label) +
       "\" at d_k = " + num(pg.result.core.d_k, 0) + "</text>\n";
  s += "<text x=\"40\" y=\"44\" fill=\"#1f6fe0\">÷√d_k</text>\n" +
       bars(scaled, pg.result.col_labels, 40, 54, W / 2 - 60, H - 110, "#4696ff", "bar-scaled");
  s += "<text x=\"" + num(W / 2 + 20) + "\" y=\"44\" fill=\"#c05010\">unscaled</text>\n" +
       bars(unscaled, pg.result.col_labels, W / 2 + 20, 54, W / 2 - 60, H - 110, "#eb7828", "bar-unscaled");
  return s + "</svg>\n";
}

std::string variance_svg(const Playground& pg) {
  const VarianceRow& v = pg.result.variance;
  const double W = 640, H = 300;
  std::string s = header(W, H, "Distribution of q·k, unscaled and ÷√d_k");
  s += "<text x=\"40\" y=\"20\" font-size=\"14\">q·k over " + std::to_string(v.samples) +
       " random pairs, d_k = " + std::to_string(v.d_k) + ": Var unscaled " + num(v.var_unscaled, 2) + ", ÷√d_k " +
       num(v.var_scaled, 3) + "</text>\n";
  const auto panel = [&](const Histogram& hist, double x0, const char* colour, const char* cls, const char* name) {
    std::string out;
    uint32_t top = 1;
    for (uint32_t c : hist.counts) top = std::max(top, c);
    const double w = W / 2 - 60, h = H - 100,
                 bw = hist.counts.empty() ? w : w / static_cast<double>(hist.counts.size());
    for (size_t i = 0; i < hist.counts.size(); ++i) {
      const double f = static_cast<double>(hist.counts[i]) / top;
      out += "<rect class=\"" + std::string(cls) + "\" x=\"" + num(x0 + bw * i) + "\" y=\"" + num(50 + h * (1 - f)) +
             "\" width=\"" + num(std::max(0.5, bw - 0.5)) + "\" height=\"" + num(h * f) + "\" fill=\"" + colour +
             "\"/>\n";
    }
    out += "<line x1=\"" + num(x0) + "\" y1=\"" + num(50 + h) + "\" x2=\"" + num(x0 + w) + "\" y2=\"" + num(50 + h) +
           "\" stroke=\"#333\"/>\n";
    out += "<text class=\"tick\" x=\"" + num(x0) + "\" y=\"" + num(66 + h) + "\">" + num(hist.lo, 1) + "</text>\n";
    out += "<text class=\"tick\" x=\"" + num(x0 + w) + "\" y=\"" + num(66 + h) + "\" text-anchor=\"end\">" +
           num(hist.hi, 1) + "</text>\n";
    out += "<text class=\"axis\" x=\"" + num(x0 + w / 2) + "\" y=\"" + num(84 + h) + "\" text-anchor=\"middle\">" +
           name + "</text>\n";
    return out;
  };
  s += panel(v.hist_unscaled, 40, "#eb7828", "bin-unscaled", "q·k (unscaled)");
  s += panel(v.hist_scaled, W / 2 + 20, "#4696ff", "bin-scaled", "q·k / √d_k");
  return s + "</svg>\n";
}

std::string escape_markup(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace attn
