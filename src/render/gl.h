// gl.h — OpenGL ES 3.0 (WebGL2) or desktop OpenGL 3.3 core, chosen by the build (ATTNPLAY_GLES3).
#pragma once

#ifdef ATTNPLAY_GLES3
#include <GLES3/gl3.h>
#else
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#endif
