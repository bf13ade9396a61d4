import ARSupport

#if canImport(Glibc)
  import Glibc
#endif

/// An IPv4 loopback address and TCP port: the only endpoints ARLive connects to or listens on
/// (the screen-share seed's `NWEndpoint.Host.ipv4(.loopback)`).
public struct LoopbackEndpoint: Hashable, Sendable, CustomStringConvertible {
  /// The address in host byte order, inside 127.0.0.0/8.
  public let address: UInt32
  /// The TCP port (0 = let the system choose, for listeners).
  public var port: UInt16

  /// `127.0.0.1:port`.
  public init(port: UInt16) { self.init(address: 0x7F00_0001, port: port) }

  /// Parses a host given on the command line: `localhost` or a dotted quad in 127.0.0.0/8.
  /// - Throws: `LoopbackEndpoint.NotLoopback` for any other host (names, other addresses,
  ///   IPv6, malformed text), so a live session never reaches beyond this machine.
  public init(host: String, port: UInt16) throws(NotLoopback) {
    if host == "localhost" {
      self.init(port: port)
      return
    }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { throw NotLoopback(host: host) }
    var value: UInt32 = 0
    for part in parts {
      guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII),
        let byte = UInt8(part)
      else { throw NotLoopback(host: host) }
      value = value << 8 | UInt32(byte)
    }
    guard value >> 24 == 127 else { throw NotLoopback(host: host) }
    // The block's network and broadcast addresses name no host: a connect fails with
    // "network unreachable" only after the run has started.
    guard value != 0x7F00_0000, value != 0x7FFF_FFFF else {
      throw NotLoopback(host: host, notAHost: true)
    }
    self.init(address: value, port: port)
  }

  private init(address: UInt32, port: UInt16) {
    self.address = address
    self.port = port
  }

  /// The refusal of a host outside 127.0.0.0/8.
  public struct NotLoopback: Error, Sendable, CustomStringConvertible {
    /// The host as given.
    public var host: String
    /// Whether it is 127.0.0.0/8's network or broadcast address (in the block, not a host).
    public var notAHost = false
    /// The message for the command line.
    public var description: String {
      notAHost
        ? "\(InputText.quoted(host)) is the network or broadcast address of 127.0.0.0/8, not a "
          + "host: use another address in it, such as 127.0.0.1"
        : "\(InputText.quoted(host)) is not a loopback address: live sessions only use 127.0.0.0/8 or localhost"
    }
  }

  /// `a.b.c.d:port`.
  public var description: String {
    "\(address >> 24).\(address >> 16 & 0xFF).\(address >> 8 & 0xFF).\(address & 0xFF):\(port)"
  }

  /// The `sockaddr_in` (network byte order).
  var socketAddress: sockaddr_in {
    var a = sockaddr_in()
    a.sin_family = sa_family_t(AF_INET)
    a.sin_port = port.bigEndian
    a.sin_addr = in_addr(s_addr: address.bigEndian)
    return a
  }
}
