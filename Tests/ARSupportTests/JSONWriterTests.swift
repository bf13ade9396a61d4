import ARSupport
import ARTestSupport
import Testing

@Suite struct JSONWriterTests {
  static func numberText(_ d: Double) -> String {
    var out = JSONWriter()
    out.number(d)
    return out.text
  }

  /// Hard cases for shortest round-trip printing: exponents both ways, the switch between
  /// plain and exponent notation (2^53, 1e16), subnormals, extremes, ties.
  static let hardNumbers: [Double] = [
    0.1, 0.2, 0.30000000000000004, 1.0, -1.0, 40.0, 0.5, 1.5, 100.0, 123456789.0,
    2.220446049250313e-16, Double.ulpOfOne, 1e-5, 1e-4, 0.001, 1e15, 1e16, 1e17, 9007199254740992.0,
    9007199254740993.0, 4503599627370496.5, 1e21, 1e22, 1e23,
    // 5e-324 (the least subnormal) and 2.2250738585072009e-308 (the greatest) by bit pattern: as
    // literals they draw an underflow warning.
    Double(bitPattern: 1), -Double(bitPattern: 1),
    Double.leastNormalMagnitude, Double.leastNonzeroMagnitude,
    Double(bitPattern: 0x000F_FFFF_FFFF_FFFF),
    Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, Double.pi, -Double.pi,
    1 / 3.0, 2 / 3.0, 0.1 + 0.2, 1440.0, 1920.0, 1234.5678, -0.000123, 6.02214076e23,
    Double(Int64.max), Double(Int64.min), 18446744073709551616.0, 0.7071067811865476,
  ]

  @Test("every hard-case number prints exactly as \"\\(d)\"")
  func hardNumbersMatchSwiftDescription() {
    for d in Self.hardNumbers {
      #expect(Self.numberText(d) == "\(d)", "\(d.bitPattern)")
    }
  }

  @Test("the text of a few numbers, hand-written")
  func handWrittenNumbers() {
    #expect(Self.numberText(1) == "1.0")
    #expect(Self.numberText(0.1) == "0.1")
    #expect(Self.numberText(2.220446049250313e-16) == "2.220446049250313e-16")
    #expect(Self.numberText(1e16) == "1e+16")
    #expect(Self.numberText(1e15) == "1000000000000000.0")
    #expect(Self.numberText(Double(bitPattern: 1)) == "5e-324")
    #expect(Self.numberText(-2.5) == "-2.5")
  }

  @Test("both zeros print 0.0 and non-finite numbers print null, as before")
  func zerosAndNonFinite() {
    #expect(Self.numberText(0) == "0.0")
    #expect(Self.numberText(-0.0) == "0.0")
    #expect(Self.numberText(.infinity) == "null")
    #expect(Self.numberText(-.infinity) == "null")
    #expect(Self.numberText(.nan) == "null")
    #expect(Self.numberText(.signalingNaN) == "null")
  }

  @Test("200 000 random bit patterns print as \"\\(d)\" (seeded, so failures repeat)")
  func randomBitPatternsMatchSwiftDescription() {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    var mismatches: [UInt64] = []
    for _ in 0..<200_000 {
      // SplitMix64 step.
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      z ^= z >> 31
      let d = Double(bitPattern: z)
      guard d.isFinite, d != 0 else { continue }
      if Self.numberText(d) != "\(d)" { mismatches.append(z) }
    }
    #expect(mismatches.isEmpty)
  }

  @Test("integers print as String(i), Int.min and Int.max included")
  func integers() {
    for i in [0, 1, -1, 9, 10, -10, 99, 100, 1920, 1_000_000, Int.max, Int.min, Int.min + 1] {
      var out = JSONWriter()
      out.integer(i)
      #expect(out.text == String(i))
    }
  }

  @Test("unsigned integers print in full, past Int.max to UInt64.max")
  func unsignedIntegers() {
    let cases: [(UInt64, String)] = [
      (0, "0"), (9_223_372_036_854_775_807, "9223372036854775807"),
      (9_223_372_036_854_775_808, "9223372036854775808"),
      (UInt64.max, "18446744073709551615"),
    ]
    for (value, text) in cases {
      #expect(JSONValue.unsigned(value).text == text)
    }
  }

  @Test("strings escape quotes, backslashes and control characters as the old writer did")
  func strings() {
    let cases = [
      "", "plain", "say \"hi\"", "back\\slash", "line\nbreak\r\ttab",
      "\u{0}\u{1}\u{8}\u{b}\u{c}\u{1f}",
      "\u{7f}", "café", "日本語", "emoji 👍🏽 flag 🇫🇷", "e\u{301}", "/slash/", "mix\"\\\u{1}é",
    ]
    for s in cases {
      var out = JSONWriter()
      out.string(s)
      #expect(out.text == ReferenceJSON.text(.string(s)), "\(s.debugDescription)")
    }
    var out = JSONWriter()
    out.string("a\"\u{1}\u{1f}")
    #expect(out.text == #""a\"\u0001\u001f""#)
  }

  @Test("a nested value gives the old writer's bytes through text and write(to:)")
  func nestedValue() {
    let value = JSONValue.object([
      ("frame", 12), ("t", 0.1), ("neg", -0.0), ("big", 1e16), ("inf", .number(.infinity)),
      ("list", .numbers([1, 2.5, -3e-7])), ("empty", .array([])), ("none", .null),
      ("flags", .array([true, false])), ("quote\"key", "välue\n"),
      ("nested", .object([("a", .object([])), ("b", .array([.array([0.3])]))])),
    ])
    let expected = ReferenceJSON.text(value)
    #expect(value.text == expected)
    var appended = "prefix:"
    value.write(to: &appended)
    #expect(appended == "prefix:" + expected)
    #expect(
      expected
        == #"{"frame":12,"t":0.1,"neg":0.0,"big":1e+16,"inf":null,"list":[1.0,2.5,-3e-07],"#
        + #""empty":[],"none":null,"flags":[true,false],"quote\"key":"välue\n","#
        + #""nested":{"a":{},"b":[[0.3]]}}"#)
  }
}
