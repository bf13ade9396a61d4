import ARRender
import ARSession
import ARSupport

extension ReplayScene {
  /// Writes an image as this scene's frame files are written (PNG with `png`, atomically): what
  /// a frame sink outside the rendering layers is given (`FrameSinkSetup.imageWriter`).
  public var imageWriter: FrameImageWriter {
    let png = self.png
    return FrameImageWriter { image, path in
      try FileIO.writeAtomically(try png.encode(image, file: path), to: path)
    }
  }
}
