import CGLM

// Conversions between ARMath values and the GLM shim's plain structs. Internal: no GLM type
// leaves ARMath.

extension Matrix4 {
  var glm: arsim_glm.Mat4 {
    let (a, b, c, d) = columns
    var m = arsim_glm.Mat4()
    m.m = (a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, c.x, c.y, c.z, c.w, d.x, d.y, d.z, d.w)
    return m
  }

  init(glm g: arsim_glm.Mat4) {
    let m = g.m
    self.init(
      Vector4(m.0, m.1, m.2, m.3), Vector4(m.4, m.5, m.6, m.7),
      Vector4(m.8, m.9, m.10, m.11), Vector4(m.12, m.13, m.14, m.15))
  }
}

extension Quaternion {
  var glm: arsim_glm.Quat { arsim_glm.Quat(x: x, y: y, z: z, w: w) }
  init(glm q: arsim_glm.Quat) { self.init(x: q.x, y: q.y, z: q.z, w: q.w) }
}
