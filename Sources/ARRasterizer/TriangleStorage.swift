import Synchronization

/// Prepared-triangle arrays kept from one frame to the next.
///
/// A frame of a detailed environment prepares about 40 MB of triangles (B5: 100 000 of
/// `TrianglePrimitive`'s 380 bytes), more than glibc's largest mmap threshold (32 MiB, which
/// `arsim` sets: `Sources/CMalloc`), so each frame's array was fresh pages that the kernel
/// zeroed and faulted in, and gave back when the frame ended (5 % of B5's CPU). A frame takes
/// an array here and `Rasterizer.render` gives it back when the frame is drawn; what is kept
/// is emptied, so no frame sees another's triangles.
enum TriangleStorage {
  /// At most this many arrays are kept (frames rendered at once: views in parallel).
  static let most = 4

  private static let kept = Mutex<[[TrianglePrimitive]]>([])

  /// An empty array, with the capacity of one a frame gave back when there is one.
  static func take() -> [TrianglePrimitive] {
    guard var storage = kept.withLock({ $0.popLast() }) else { return [] }
    // The giver's frame is gone by now, so this is the only reference: no copy.
    storage.removeAll(keepingCapacity: true)
    return storage
  }

  /// Keeps `storage` (a drawn frame's triangles) for a later frame.
  static func give(_ storage: [TrianglePrimitive]) {
    guard storage.capacity > 0 else { return }
    kept.withLock { if $0.count < most { $0.append(storage) } }
  }
}
