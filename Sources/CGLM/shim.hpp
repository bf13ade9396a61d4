// Bridge to GLM 0.9.9 for ARMath. Double-precision types only; every call names its
// handedness/clip convention explicitly (lookAtRH, perspectiveRH_NO).
#pragma once
#define GLM_FORCE_CTOR_INIT
#define GLM_FORCE_EXPLICIT_CTOR
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <glm/ext/matrix_clip_space.hpp>

namespace arsim_glm {

/// Column-major 16 doubles, matching glm::dmat4's memory layout.
struct Mat4 { double m[16]; };
/// Quaternion stored x, y, z, w (ARMath's order), converted to GLM's (w, x, y, z) constructor here only.
struct Quat { double x, y, z, w; };

inline glm::dmat4 toGLM(const Mat4 &a) { return glm::make_mat4(a.m); }
inline Mat4 fromGLM(const glm::dmat4 &g) {
  Mat4 r;
  const double *p = glm::value_ptr(g);
  for (int i = 0; i < 16; ++i) r.m[i] = p[i];
  return r;
}
inline glm::dquat toGLM(const Quat &q) { return glm::dquat(q.w, q.x, q.y, q.z); }
inline Quat fromGLM(const glm::dquat &q) { return Quat{q.x, q.y, q.z, q.w}; }

inline Mat4 multiply(const Mat4 &a, const Mat4 &b) { return fromGLM(toGLM(a) * toGLM(b)); }
inline Mat4 inverse(const Mat4 &a) { return fromGLM(glm::inverse(toGLM(a))); }
inline double determinant(const Mat4 &a) { return glm::determinant(toGLM(a)); }
inline Mat4 rotationMatrix(const Quat &q) { return fromGLM(glm::mat4_cast(toGLM(q))); }
inline Quat quaternionFromMatrix(const Mat4 &a) {
  return fromGLM(glm::quat_cast(glm::dmat3(toGLM(a))));
}
inline Quat quaternionFromAxisAngle(double x, double y, double z, double angleRadians) {
  return fromGLM(glm::angleAxis(angleRadians, glm::normalize(glm::dvec3(x, y, z))));
}
inline Quat multiply(const Quat &a, const Quat &b) { return fromGLM(toGLM(a) * toGLM(b)); }
inline Quat slerp(const Quat &a, const Quat &b, double t) {
  return fromGLM(glm::slerp(toGLM(a), toGLM(b), t));
}
inline Mat4 lookAtRH(double ex, double ey, double ez, double cx, double cy, double cz,
                     double ux, double uy, double uz) {
  return fromGLM(glm::lookAtRH(glm::dvec3(ex, ey, ez), glm::dvec3(cx, cy, cz),
                               glm::dvec3(ux, uy, uz)));
}
inline Mat4 perspectiveRH_NO(double fovyRadians, double aspect, double zNear, double zFar) {
  return fromGLM(glm::perspectiveRH_NO(fovyRadians, aspect, zNear, zFar));
}

}  // namespace arsim_glm
