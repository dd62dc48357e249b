// check_screenshot.cpp — reads a desktop screenshot and the item rectangles it was drawn with, and
// checks the picture is not blank and that the heatmap's colours are ordered like the weights.
// usage: check_screenshot SHOT.png RECTS.json ROW "COL_LOW,COL_HIGH" ROWS COLS
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#define STB_IMAGE_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#include <stb/stb_image.h>
#pragma GCC diagnostic pop

namespace {
int fail(const std::string& why) {
  std::fprintf(stderr, "FAIL: %s\n", why.c_str());
  return 1;
}
// Relative luminance: viridis is monotonic in it, so a larger weight must look brighter.
double luminance(const unsigned char* p) { return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]; }
}  // namespace

int main(int argc, char** argv) {
  if (argc != 7) return fail("usage: check_screenshot SHOT.png RECTS.json ROW LOW,HIGH ROWS COLS");
  int w = 0, h = 0, ch = 0;
  unsigned char* img = stbi_load(argv[1], &w, &h, &ch, 4);
  if (!img) return fail(std::string("cannot read ") + argv[1]);
  // Not blank: the pixel values must vary (a black or single-colour frame has variance ~0).
  double sum = 0, sum2 = 0;
  const size_t n = static_cast<size_t>(w) * h;
  for (size_t i = 0; i < n; ++i) {
    const double l = luminance(img + 4 * i);
    sum += l;
    sum2 += l * l;
  }
  const double var = sum2 / n - (sum / n) * (sum / n);
  std::printf("screenshot %dx%d, luminance variance %.1f\n", w, h, var);
  if (var < 100) return fail("screenshot looks blank");

  std::ifstream in(argv[2]);
  const nlohmann::json rects = nlohmann::json::parse(in, nullptr, false);
  if (rects.is_discarded() || !rects.contains("heatmap:grid")) return fail("no heatmap rectangle recorded");
  const auto& r = rects["heatmap:grid"];
  const int row = std::atoi(argv[3]);
  int lo = 0, hi = 0;
  if (std::sscanf(argv[4], "%d,%d", &lo, &hi) != 2) return fail("bad LOW,HIGH");
  const int rows = std::atoi(argv[5]), cols = std::atoi(argv[6]);
  const double cw = r["w"].get<double>() / cols, chh = r["h"].get<double>() / rows;
  auto sample = [&](int i, int j) {
    const int x = static_cast<int>(r["x"].get<double>() + cw * (j + 0.5));
    const int y = static_cast<int>(r["y"].get<double>() + chh * (i + 0.5));
    return luminance(img + 4 * (static_cast<size_t>(y) * w + x));
  };
  const double l_lo = sample(row, lo), l_hi = sample(row, hi);
  std::printf("heatmap row %d: cell %d luminance %.1f, cell %d luminance %.1f\n", row, lo, l_lo, hi, l_hi);
  if (!(l_hi > l_lo + 10)) return fail("heatmap colours are not ordered like the weights");
  stbi_image_free(img);
  std::puts("ok");
  return 0;
}
