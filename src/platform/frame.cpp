// frame.cpp — the frame body shared by web.cpp and desktop.cpp (sokol-style: each target only
// sizes its surface, pumps its events and presents).
#include "platform/frame.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>

#include <cfloat>
#include <chrono>

#include "app/app.h"
#include "core/hash.h"
#include "render/gl.h"
#include "render/heatmap.h"
#include "ui/shell.h"

namespace attn {
namespace {

// Everything a drawn frame's pixels depend on: the draw lists (vertices, indices, commands), the
// surface, the background and the offscreen textures the lists sample.
uint64_t frame_digest(const ImDrawData& dd, const FrameSurface& surface, bool dark) {
  const uint64_t head[] = {static_cast<uint64_t>(surface.framebuffer_w), static_cast<uint64_t>(surface.framebuffer_h),
                           dark ? 1u : 0u, offscreen_passes(),
                           static_cast<uint64_t>(reinterpret_cast<uintptr_t>(ImGui::GetIO().Fonts->TexID))};
  uint64_t h = digest_words(head, sizeof head);
  for (int l = 0; l < dd.CmdListsCount; ++l) {
    const ImDrawList& list = *dd.CmdLists[l];
    h = digest_words(list.VtxBuffer.Data, static_cast<size_t>(list.VtxBuffer.Size) * sizeof(ImDrawVert), h);
    h = digest_words(list.IdxBuffer.Data, static_cast<size_t>(list.IdxBuffer.Size) * sizeof(ImDrawIdx), h);
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      const float clip[4] = {cmd.ClipRect.x, cmd.ClipRect.y, cmd.ClipRect.z, cmd.ClipRect.w};
      const uint64_t fields[] = {static_cast<uint64_t>(reinterpret_cast<uintptr_t>(cmd.TextureId)), cmd.VtxOffset,
                                 cmd.IdxOffset, cmd.ElemCount,
                                 static_cast<uint64_t>(reinterpret_cast<uintptr_t>(cmd.UserCallback))};
      h = digest_words(clip, sizeof clip, h);
      h = digest_words(fields, sizeof fields, h);
    }
  }
  return h;
}

// A frame cut short leaves ImGui's frame open: on the page, a call that needed the module's second half when it
// could not be fetched (offline before it arrived) unwinds out of the frame, and attnplay-api.js starts the loop
// again. Close what that frame opened, as its own end would have (NewFrame clears the window stack itself, not
// the style, colour and disabled state), so the next frame starts clean; the cut frame is not drawn. It runs at
// the start of every frame, and calls only what every frame calls, so the split keeps it in the first half.
void close_cut_frame() {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  if (!g.WithinFrameScope) return;
  while (g.CurrentWindowStack.Size > 1) ImGui::End();
  if (g.ColorStack.Size > 0) ImGui::PopStyleColor(g.ColorStack.Size);
  if (g.StyleVarStack.Size > 0) ImGui::PopStyleVar(g.StyleVarStack.Size);
  if (g.DisabledStackSize > 0 && (g.CurrentItemFlags & ImGuiItemFlags_Disabled) != 0)
    g.Style.Alpha = g.DisabledAlphaBackup;
  g.DisabledStackSize = 0;
  ImGui::EndFrame();
}

double ms_since(std::chrono::steady_clock::time_point& mark) {
  const auto now = std::chrono::steady_clock::now();
  const double ms = std::chrono::duration<double, std::milli>(now - mark).count();
  mark = now;
  return ms;
}

}  // namespace

bool run_frame(App& app, ui::Shell& shell, const FrameSurface& surface) {
  close_cut_frame();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  if (surface.display_w > 0 && surface.display_h > 0) {
    io.DisplaySize = ImVec2(surface.display_w, surface.display_h);
    io.DisplayFramebufferScale = ImVec2(surface.display_scale, surface.display_scale);
  }
  // Queued after the backend's own pointer event, so it is the one ImGui applies.
  if (surface.hide_pointer) io.AddMousePosEvent(-FLT_MAX, -FLT_MAX);
  if (surface.queue_input) surface.queue_input();
  ImGui::NewFrame();
  // Held since the last frame (ImGui keeps the active item until the button or finger is released).
  app.control_held = ImGui::IsAnyItemActive();
  app.first_view_drawing = app.frames < App::kFirstViewFrames;
  FramePhases unused;
  FramePhases& ph = surface.phases ? *surface.phases : unused;
  ph = FramePhases{app.frames, 0, 0, 0, 0, 0, 0};
  auto mark = std::chrono::steady_clock::now();
  // One frame: the input above, then the model's tick, then the panels draw what it computed.
  app.tick();
  ph.tick_ms = ms_since(mark);
  ph.recompute_ms = app.last_recompute_ms;
  shell.draw();
  ph.panels_ms = ms_since(mark);
  ImGui::Render();
  const bool dark = app.state.dark_theme;
  const uint64_t digest = surface.last_drawn ? frame_digest(*ImGui::GetDrawData(), surface, dark) : 0;
  ph.render_ms = ms_since(mark);
  if (surface.last_drawn) {
    if (digest == *surface.last_drawn && !surface.force_draw) return false;
    *surface.last_drawn = digest;
  }
  glViewport(0, 0, surface.framebuffer_w, surface.framebuffer_h);
  // The tiled panels and the phone's column draw no background of their own (Shell): this clear, in the theme's
  // window colour, is theirs — a screen less of blended, textured fill a frame, which a GPU-less phone browser
  // draws in software.
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  ph.gl_ms = ms_since(mark);
  return true;
}

bool app_working(const App& app) {
  return app.result.pending >= 0 || app.result.variance_pending || app.result.sweep.band_pending ||
         app.state.learn_playing;
}

}  // namespace attn
