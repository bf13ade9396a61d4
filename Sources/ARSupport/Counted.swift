/// `count` and `noun` for a message, the noun in the plural unless the count is 1: "1 frame",
/// "0 frames", "2 gaps" (`plural` when adding an "s" would be wrong: "1 line not a JSON
/// object" wants "lines not JSON objects").
public func counted<Count: BinaryInteger>(_ count: Count, _ noun: String, plural: String? = nil)
  -> String
{
  "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
}
