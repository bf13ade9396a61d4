/// What an environment may hold; over a limit the scene is refused with the limit named
/// (exit 65). Documented in Documentation/Environments.md, "Limits".
public enum EnvironmentLimits {
  /// Triangles of the whole environment after triangulation (instances counted): 2 000 000,
  /// twenty times B5's 100 000; about 100 MB of prepared triangles per frame.
  public static let triangles = 2_000_000
  /// Bytes of one model file or of a file it references: 256 MiB.
  public static let fileBytes = 256 << 20
  /// The longer side of a texture: 8192 texels (a common GPU limit).
  public static let textureSide = 8192
  /// Texels of all textures together: 64 Mi (256 MiB as RGBA8, a third more with mips).
  public static let textureTexels = 64 << 20
  /// A corner farther than this from the world origin (metres) drops its triangle with a
  /// warning: 100 km, far past any room and still exact in Float.
  public static let coordinate = 100_000.0
  /// Seconds the model reader's child process may run before it is stopped.
  public static let readerSeconds = 60.0
}
