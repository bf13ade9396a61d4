import ARFormats
import ARSupport
import Foundation

/// The session kinds a run knows, in registration order: the order their sessions run each
/// tick, so the order of their events and trace fields (the command line registers measure,
/// displayers, remote assist, collaboration; Documentation/CustomSessions.md shows how to add one).
public struct SessionRegistry: Sendable {
  /// The kinds, in registration order.
  public private(set) var kinds: [any SessionKind] = []

  /// Creates a registry with `kinds` registered in order.
  /// Precondition: the keys are distinct (trap).
  public init(_ kinds: [any SessionKind] = []) {
    for kind in kinds { register(kind) }
  }

  /// Adds `kind` after the ones registered so far.
  /// Precondition: no registered kind has the same key (trap: a programming error).
  public mutating func register(_ kind: any SessionKind) {
    precondition(
      !kinds.contains { $0.key == kind.key }, "session kind '\(kind.key)' registered twice")
    kinds.append(kind)
  }

  /// The scene-file keys of the registered kinds, in order.
  public var keys: [String] { kinds.map(\.key) }

  /// The first registered kind's live-message default (`SessionKind.liveMessageDefault`) with
  /// its key, if any kind takes live messages.
  public var liveMessageDefault: (key: String, configuration: any LiveMessageConfiguration)? {
    for kind in kinds {
      if let configuration = kind.liveMessageDefault { return (kind.key, configuration) }
    }
    return nil
  }

  /// Every kind's schema patterns, merged (for unknown-field warnings).
  public var schema: [String: Set<String>] {
    var merged: [String: Set<String>] = [:]
    for kind in kinds { merged.merge(kind.schema) { $0.union($1) } }
    return merged
  }

  /// Decodes the section of each registered kind present (and not null) in the scene file
  /// `bytes`, in registration order.
  /// - Throws: `InputError` `.badData` naming `file` and the field path (no line: the scene
  ///   loader adds it), as `JSONDecoder` failures of the whole scene are reported.
  public func decodeSections(_ bytes: [UInt8], file: String) throws -> [DecodedSection] {
    var sections: [DecodedSection] = []
    for kind in kinds {
      if let section = try Self.decode(kind, bytes: bytes, file: file) {
        sections.append(section)
      }
    }
    return sections
  }

  private static func decode<Kind: SessionKind>(_ kind: Kind, bytes: [UInt8], file: String)
    throws -> DecodedSection?
  {
    let decoder = JSONDecoder()
    // Failable in some Foundations; the key is a valid constant.
    guard let infoKey = CodingUserInfoKey(rawValue: SectionBox<Kind.Section>.keyName) else {
      return nil
    }
    decoder.userInfo[infoKey] = kind.key
    let box: SectionBox<Kind.Section>
    do {
      box = try decoder.decode(SectionBox<Kind.Section>.self, from: Data(bytes))
    } catch let error as DecodingError {
      // Foundation's JSONDecoder reports a number an `Int` field cannot hold (1.5, 10²⁰) as
      // corrupt data with no coding path: the file's syntax is fine, so the section is named.
      if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
        JSONSyntaxLocator.firstProblem(in: bytes) == nil
      {
        throw InputError(
          .badData, InputLocation(file: file, field: kind.key),
          "a number in this section does not fit its field's type (an integer field given a "
            + "fraction or a number beyond ±2⁶³; Foundation's JSONDecoder names no field for "
            + "it: declare such fields JSONInteger, ARSupport, to have them named)")
      }
      throw JSONDecoding.locatedError(error, bytes: bytes, file: file)
    }
    guard let section = box.section else { return nil }
    return DecodedSection(key: kind.key) { scene in try kind.configure(section, in: &scene) }
  }
}

/// One kind's decoded section of a scene file, not yet checked.
public struct DecodedSection: Sendable {
  /// The kind's scene-file key.
  public let key: String
  private let configureBody: @Sendable (inout SceneSection) throws -> any SessionConfiguration

  init(
    key: String,
    configure: @escaping @Sendable (inout SceneSection) throws -> any SessionConfiguration
  ) {
    self.key = key
    configureBody = configure
  }

  /// Checks the section (`SessionKind.configure`).
  /// - Throws: what the kind throws.
  public func configure(in scene: inout SceneSection) throws -> any SessionConfiguration {
    try configureBody(&scene)
  }
}

/// Decodes the value under one top-level key (given in the decoder's user info) as `Section`,
/// so coding paths, and so error fields, start at that key.
private struct SectionBox<Section: Decodable>: Decodable {
  /// The user-info key carrying the section's key.
  static var keyName: String { "arsim.sectionKey" }
  var section: Section?

  init(from decoder: any Decoder) throws {
    guard
      let key = decoder.userInfo.first(where: { $0.key.rawValue == Self.keyName })?.value as? String
    else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: [], debugDescription: "no section key"))
    }
    let container = try decoder.container(keyedBy: JSONDecoding.AnyKey.self)
    section = try container.decodeIfPresent(Section.self, forKey: JSONDecoding.AnyKey(key))
  }
}
