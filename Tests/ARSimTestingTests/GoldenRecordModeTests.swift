import Testing

@testable import ARSimTesting

@Suite("GoldenRecordMode")
struct GoldenRecordModeTests {
  @Test(
    "ARSIM_RECORD wins, CI means never, otherwise missing",
    arguments: [
      (String?.none, String?.none, GoldenRecordMode?.some(.missing)),
      (nil, "true", .never), (nil, "1", .never), (nil, "false", .missing), (nil, "0", .missing),
      ("", "", .missing), ("all", "true", .all), ("FAILED", nil, .failed),
      ("never", nil, .never), ("missing", "true", .missing), ("sometimes", nil, nil),
    ])
  func mode(record: String?, ci: String?, expected: GoldenRecordMode?) {
    #expect(GoldenRecordMode.from(record: record, ci: ci) == expected)
  }
}
