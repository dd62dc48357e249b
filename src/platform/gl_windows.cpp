// gl_windows.cpp — Windows only: the OpenGL 2.0+ entry points the renderer calls, which opengl32.dll does not
// export, looked up in the current context's driver (wglGetProcAddress) on their first call. Elsewhere libGL has them.
#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "render/gl.h"

namespace {

// The driver's function, or opengl32.dll's own; a missing one ends the program with its name (no silent crash).
template <typename Fn>
Fn gl_proc(Fn& slot, const char* name) {
  if (slot) return slot;
  PROC p = wglGetProcAddress(name);
  const auto bad = reinterpret_cast<INT_PTR>(p);
  if (bad == 0 || bad == 1 || bad == 2 || bad == 3 || bad == -1) {
    HMODULE gl = GetModuleHandleA("opengl32.dll");
    p = gl ? GetProcAddress(gl, name) : nullptr;
  }
  if (!p) {
    std::fprintf(stderr, "error: the OpenGL driver has no %s (OpenGL 3.3 is needed)\n", name);
    std::abort();
  }
  static_assert(sizeof(p) == sizeof(slot), "function pointers of one size");
  std::memcpy(&slot, &p, sizeof slot);
  return slot;
}

}  // namespace

#define ATTN_GL(ret, name, pfn, params, args) \
  ret APIENTRY name params {                  \
    static pfn fn = nullptr;                  \
    return gl_proc(fn, #name) args;           \
  }

extern "C" {
ATTN_GL(void, glActiveTexture, PFNGLACTIVETEXTUREPROC, (GLenum texture), (texture))
ATTN_GL(void, glAttachShader, PFNGLATTACHSHADERPROC, (GLuint program, GLuint shader), (program, shader))
ATTN_GL(void, glBindFramebuffer, PFNGLBINDFRAMEBUFFERPROC, (GLenum target, GLuint fb), (target, fb))
ATTN_GL(void, glBindVertexArray, PFNGLBINDVERTEXARRAYPROC, (GLuint array), (array))
ATTN_GL(void, glCompileShader, PFNGLCOMPILESHADERPROC, (GLuint shader), (shader))
ATTN_GL(GLuint, glCreateProgram, PFNGLCREATEPROGRAMPROC, (void), ())
ATTN_GL(GLuint, glCreateShader, PFNGLCREATESHADERPROC, (GLenum type), (type))
ATTN_GL(void, glDeleteFramebuffers, PFNGLDELETEFRAMEBUFFERSPROC, (GLsizei n, const GLuint* fbs), (n, fbs))
ATTN_GL(void, glDeleteProgram, PFNGLDELETEPROGRAMPROC, (GLuint program), (program))
ATTN_GL(void, glDeleteShader, PFNGLDELETESHADERPROC, (GLuint shader), (shader))
ATTN_GL(void, glDeleteVertexArrays, PFNGLDELETEVERTEXARRAYSPROC, (GLsizei n, const GLuint* arrays), (n, arrays))
ATTN_GL(void, glFramebufferTexture2D, PFNGLFRAMEBUFFERTEXTURE2DPROC,
        (GLenum target, GLenum attachment, GLenum textarget, GLuint texture, GLint level),
        (target, attachment, textarget, texture, level))
ATTN_GL(void, glGenFramebuffers, PFNGLGENFRAMEBUFFERSPROC, (GLsizei n, GLuint* fbs), (n, fbs))
ATTN_GL(void, glGenVertexArrays, PFNGLGENVERTEXARRAYSPROC, (GLsizei n, GLuint* arrays), (n, arrays))
ATTN_GL(void, glGetProgramiv, PFNGLGETPROGRAMIVPROC, (GLuint program, GLenum pname, GLint* params),
        (program, pname, params))
ATTN_GL(void, glGetShaderInfoLog, PFNGLGETSHADERINFOLOGPROC,
        (GLuint shader, GLsizei size, GLsizei* length, GLchar* log), (shader, size, length, log))
ATTN_GL(void, glGetShaderiv, PFNGLGETSHADERIVPROC, (GLuint shader, GLenum pname, GLint* params),
        (shader, pname, params))
ATTN_GL(GLint, glGetUniformLocation, PFNGLGETUNIFORMLOCATIONPROC, (GLuint program, const GLchar* name), (program, name))
ATTN_GL(void, glLinkProgram, PFNGLLINKPROGRAMPROC, (GLuint program), (program))
ATTN_GL(void, glShaderSource, PFNGLSHADERSOURCEPROC,
        (GLuint shader, GLsizei count, const GLchar* const* string, const GLint* length),
        (shader, count, string, length))
ATTN_GL(void, glUniform1i, PFNGLUNIFORM1IPROC, (GLint location, GLint v0), (location, v0))
ATTN_GL(void, glUseProgram, PFNGLUSEPROGRAMPROC, (GLuint program), (program))
}
#endif  // _WIN32
