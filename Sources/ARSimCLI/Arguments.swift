import ARFormats
import ARSession
import ARSupport

/// A minimal parser for `POSITIONAL… --option VALUE --flag` command lines.
struct Arguments {
  private(set) var positionals: [String] = []
  private var values: [String: String] = [:]
  private var flags: Set<String> = []

  /// Parses `arguments`; `valueOptions` take a value, `flagOptions` do not.
  /// - Throws: `UsageError` for an unknown option (suggesting the nearest known one; `-x`, a
  ///   one-letter spelling ARSim does not use, too), a missing
  ///   or empty value (a separate value starting with `--` counts as missing), a repeated
  ///   option or flag, or a NUL character (a C path or number would
  ///   stop there).
  init(_ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String> = []) throws {
    for (position, argument) in arguments.enumerated() where InputText.containsNUL(argument) {
      let option = position > 0 && valueOptions.contains(arguments[position - 1])
      let name = option ? arguments[position - 1] : "argument \(position + 1)"
      throw UsageError("\(name) \(InputText.quoted(argument)): contains a NUL character")
    }
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "--" {
        positionals += arguments[(index + 1)...]
        break
      }
      if argument.hasPrefix("--") {
        var name = argument
        var inlineValue: String?
        if let equals = argument.firstIndex(of: "=") {
          name = String(argument[..<equals])
          inlineValue = String(argument[argument.index(after: equals)...])
        }
        if valueOptions.contains(name) {
          let value: String
          if let inlineValue {
            value = inlineValue
          } else {
            index += 1
            // `--out --frames 0..3` means a forgotten value, not a folder named `--frames`
            // (`--out=--frames` still names one).
            guard index < arguments.count, !arguments[index].hasPrefix("--") else {
              throw UsageError("\(name) needs a value")
            }
            value = arguments[index]
          }
          // An empty value is never meant (`--out ""` would write into the root folder).
          guard !value.isEmpty else { throw UsageError("\(name) needs a non-empty value") }
          guard values[name] == nil else { throw UsageError("\(name) given twice") }
          values[name] = value
        } else if flagOptions.contains(name), inlineValue == nil {
          // Like a repeated value option: a doubled flag is usually a pasting mistake.
          guard flags.insert(name).inserted else { throw UsageError("\(name) given twice") }
        } else {
          let suggestion = didYouMean(name, among: valueOptions.union(flagOptions))
          throw UsageError(
            "unknown option \(InputText.quoted(argument))"
              + (suggestion.isEmpty ? " (--help lists the options)" : suggestion))
        }
      } else if argument.count >= 2, argument.hasPrefix("-"),
        argument.dropFirst().first?.isLetter == true
      {
        // `-o out`: ARSim has no one-letter options (but -h); read as a positional, it gave
        // "takes one SCENE.json, got 3". A file named so can follow `--` or be `./-o`.
        throw UsageError(
          "unknown option \(InputText.quoted(argument)) (options are spelt --name; --help "
            + "lists them; a file named so can follow '--' or be written ./\(argument))")
      } else {
        positionals.append(argument)
      }
      index += 1
    }
  }

  func value(_ name: String) -> String? { values[name] }
  func has(_ name: String) -> Bool { flags.contains(name) }

  /// An integer option.
  /// - Throws: `UsageError` when the value is not an integer in `range`.
  func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
    guard let text = values[name] else { return nil }
    guard let n = Int(text), range.contains(n) else {
      throw UsageError(
        "\(name) \(InputText.quoted(text)): expected an integer in \(range.lowerBound)…\(range.upperBound)"
      )
    }
    return n
  }

  /// A finite number option.
  /// - Throws: `UsageError` when the value is not a finite number.
  func number(_ name: String) throws -> Double? {
    guard let text = values[name] else { return nil }
    guard let x = Self.decimal(text), x.isFinite else {
      throw UsageError("\(name) \(InputText.quoted(text)): expected a number")
    }
    return x
  }

  /// A finite number option that `isAccepted` allows; errors echo the text as the user typed
  /// it (`--threshold 2`, not `2.0`).
  /// - Parameter expected: what is accepted, for the message (e.g. "a number from 0 to 1").
  /// - Throws: `UsageError` when the value is not a finite number or not accepted.
  func number(_ name: String, expected: String, where isAccepted: (Double) -> Bool) throws
    -> Double?
  {
    guard let text = values[name] else { return nil }
    guard let x = Self.decimal(text), x.isFinite, isAccepted(x) else {
      throw UsageError("\(name) \(InputText.quoted(text)): expected \(expected)")
    }
    return x
  }

  /// A decimal number (`0.1`, `1e-3`, `-2`), nil for anything else: `Double` also reads
  /// hexadecimal (`0x1` is 1), `nan` and `inf`, which no option means.
  static func decimal(_ text: String) -> Double? {
    guard !text.isEmpty, text.allSatisfy({ "0123456789+-.eE".contains($0) }) else { return nil }
    return InputText.double(text)
  }

  /// A named choice (`--format tum`).
  /// - Throws: `UsageError` listing the accepted names.
  func choice<T: CaseIterable & RawRepresentable>(_ name: String, _: T.Type) throws -> T?
  where T.RawValue == String {
    guard let text = values[name] else { return nil }
    guard let value = T(rawValue: text) else {
      let names = T.allCases.map(\.rawValue).joined(separator: ", ")
      throw UsageError("\(name) \(InputText.quoted(text)): expected one of \(names)")
    }
    return value
  }
}
