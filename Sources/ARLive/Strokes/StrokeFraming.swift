/// The framing of live stroke messages (Documentation/Live.md, "Strokes port"): each message
/// is a 4-byte big-endian unsigned length followed by that many bytes of the message text
/// (the stroke log's `data`, ASCII on the AR Remote Support data stream). No terminator, no
/// padding; lengths 0 and up are valid on the wire.
///
/// Limits keep memory bounded whatever a peer sends: messages up to `maximumMessageBytes` are
/// delivered (the remote-assist session itself refuses those over 1 KB with a `warning`, as
/// for a file); longer ones up to `maximumSkippedBytes` are read, discarded and reported; a
/// longer length means the stream is garbage and the connection is closed.
public enum StrokeFraming {
  /// Largest message delivered to the session (4 KiB: room to see the session's own 1 KB
  /// refusal).
  public static let maximumMessageBytes = 4096
  /// Largest message skipped while keeping the connection (1 MiB).
  public static let maximumSkippedBytes = 1 << 20

  /// The framed bytes of one message.
  public static func frame(_ message: [UInt8]) -> [UInt8] {
    let n = UInt32(message.count)
    return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + message
  }

  /// What the decoder found in the bytes fed so far.
  public enum Item: Hashable, Sendable {
    /// A whole message of at most `maximumMessageBytes`.
    case message([UInt8])
    /// A message of this many bytes was skipped (over `maximumMessageBytes`).
    case skipped(length: Int)
    /// A length over `maximumSkippedBytes`: the stream cannot be trusted any more.
    case garbage(length: UInt32)
  }

  /// An incremental decoder: feed it bytes as they arrive; it holds at most one partial
  /// message (≤ `maximumMessageBytes` + 4 bytes).
  public struct Decoder: Sendable {
    private var pending: [UInt8] = []
    private var skipping = 0
    private var skippedLength = 0
    /// Whether a `garbage` item ended decoding (further bytes are ignored).
    public private(set) var isBroken = false

    /// Creates a decoder at a message boundary.
    public init() {}

    /// Whether the bytes fed so far end at a message boundary.
    public var isAtBoundary: Bool { pending.isEmpty && skipping == 0 }

    /// Decodes `bytes`.
    public mutating func feed(_ bytes: [UInt8]) -> [Item] {
      var items: [Item] = []
      var index = 0
      while index < bytes.count, !isBroken {
        if skipping > 0 {
          let n = min(skipping, bytes.count - index)
          skipping -= n
          index += n
          if skipping == 0 { items.append(.skipped(length: skippedLength)) }
          continue
        }
        let needHeader = 4 - min(4, pending.count)
        if needHeader > 0 {
          let n = min(needHeader, bytes.count - index)
          pending += bytes[index..<(index + n)]
          index += n
          guard pending.count == 4 else { continue }
          let length = pending.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
          if length > UInt32(maximumSkippedBytes) {
            isBroken = true
            items.append(.garbage(length: length))
            pending = []
            break
          }
          if length > UInt32(maximumMessageBytes) {
            pending = []
            skipping = Int(length)
            skippedLength = Int(length)
            continue
          }
          if length == 0 {
            pending = []
            items.append(.message([]))
          }
          continue
        }
        let length = pending.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        let n = min(length - (pending.count - 4), bytes.count - index)
        pending += bytes[index..<(index + n)]
        index += n
        if pending.count == 4 + length {
          items.append(.message(Array(pending.dropFirst(4))))
          pending = []
        }
      }
      return items
    }
  }
}
