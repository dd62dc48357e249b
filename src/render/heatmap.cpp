// heatmap.cpp — R32F value texture → viridis (shaders/heatmap.frag.glsl) → RGBA8 texture via an FBO.
#include "render/heatmap.h"

#include <string>

#include "render/assets.h"
#include "render/gl.h"

namespace attn {

namespace {
std::string g_version = "#version 330 core";

std::string shader_source(const char* name) {
  const Asset a = find_asset(name);
  if (!a.data) return {};
  // The version line is chosen at load time so one shader file serves WebGL2 and desktop GL.
  return g_version + "\nprecision highp float;\n" + std::string(reinterpret_cast<const char*>(a.data), a.size);
}

unsigned compile(unsigned kind, const std::string& src, std::string& err) {
  const unsigned sh = glCreateShader(kind);
  const char* p = src.c_str();
  glShaderSource(sh, 1, &p, nullptr);
  glCompileShader(sh);
  int ok = 0;
  glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024] = {0};
    glGetShaderInfoLog(sh, sizeof log, nullptr, log);
    err = std::string("shader compile failed: ") + log;
  }
  return sh;
}
}  // namespace

void set_glsl_version(const char* version_line) { g_version = version_line; }

HeatmapRenderer::~HeatmapRenderer() {
  if (program_) glDeleteProgram(program_);
  if (vao_) glDeleteVertexArrays(1, &vao_);
  if (value_tex_) glDeleteTextures(1, &value_tex_);
  if (color_tex_) glDeleteTextures(1, &color_tex_);
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
}

bool HeatmapRenderer::ensure_program() {
  if (program_) return true;
  if (!error_.empty()) return false;
  const std::string vs = shader_source("heatmap.vert.glsl"), fs = shader_source("heatmap.frag.glsl");
  if (vs.empty() || fs.empty()) {
    error_ = "heatmap shaders are missing from the build";
    return false;
  }
  const unsigned v = compile(GL_VERTEX_SHADER, vs, error_);
  const unsigned f = compile(GL_FRAGMENT_SHADER, fs, error_);
  if (!error_.empty()) return false;
  program_ = glCreateProgram();
  glAttachShader(program_, v);
  glAttachShader(program_, f);
  glLinkProgram(program_);
  glDeleteShader(v);
  glDeleteShader(f);
  int ok = 0;
  glGetProgramiv(program_, GL_LINK_STATUS, &ok);
  if (!ok) {
    error_ = "heatmap shader link failed";
    return false;
  }
  glGenVertexArrays(1, &vao_);
  glGenTextures(1, &value_tex_);
  glGenTextures(1, &color_tex_);
  glGenFramebuffers(1, &fbo_);
  return true;
}

namespace {
uint64_t g_offscreen_passes = 0;  // GL state is per context, and the one context is the process's
}  // namespace

uint64_t offscreen_passes() { return g_offscreen_passes; }

void HeatmapRenderer::update(const float* values, int rows, int cols, uint64_t revision) {
  if (revision == revision_ && rows == rows_ && cols == cols_) return;
  if (rows <= 0 || cols <= 0 || !ensure_program()) return;
  ++g_offscreen_passes;
  revision_ = revision;
  rows_ = rows;
  cols_ = cols;

  // Save the GL state ImGui's renderer relies on; this runs between frames' draws.
  int prev_fbo = 0, prev_viewport[4] = {0, 0, 0, 0}, prev_program = 0, prev_tex = 0, prev_vao = 0;
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &prev_fbo);
  glGetIntegerv(GL_VIEWPORT, prev_viewport);
  glGetIntegerv(GL_CURRENT_PROGRAM, &prev_program);
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &prev_tex);
  glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &prev_vao);

  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, value_tex_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  if (rows != tex_rows_ || cols != tex_cols_) {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, cols, rows, 0, GL_RED, GL_FLOAT, values);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, color_tex_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, cols, rows, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color_tex_, 0);
    tex_rows_ = rows;
    tex_cols_ = cols;
  } else {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, cols, rows, GL_RED, GL_FLOAT, values);
  }

  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glViewport(0, 0, cols, rows);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glUseProgram(program_);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, value_tex_);
  glUniform1i(glGetUniformLocation(program_, "u_values"), 0);
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLES, 0, 3);  // one full-screen triangle, positions from gl_VertexID

  glBindVertexArray(static_cast<unsigned>(prev_vao));
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<unsigned>(prev_fbo));
  glViewport(prev_viewport[0], prev_viewport[1], prev_viewport[2], prev_viewport[3]);
  glUseProgram(static_cast<unsigned>(prev_program));
  glBindTexture(GL_TEXTURE_2D, static_cast<unsigned>(prev_tex));
}

}  // namespace attn
