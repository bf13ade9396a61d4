import ARRender
import Foundation

/// The processor a benchmark ran on, as Linux's `/proc/cpuinfo` describes its first processor:
/// figures move between machines, so `arsim bench` says which one they are from (issue 27).
/// Fields the file does not give (another OS, a virtual machine without a clock) are `nil`.
struct ProcessorDescription: Equatable {
  /// `vendor_id`, e.g. `AuthenticAMD`, `GenuineIntel`.
  var vendor: String?
  /// `model name`, e.g. `AMD EPYC`, `Intel(R) Xeon(R) Platinum 8488C`.
  var modelName: String?
  /// `cpu family` and `model` (decimal, as the file prints them).
  var family: String?
  var model: String?
  /// `cpu MHz`: the clock the kernel reports (some virtual machines give none).
  var megahertz: Double?

  /// The fields of the first `processor` block of `cpuinfo` text.
  static func parse(cpuinfo: String) -> ProcessorDescription {
    var description = ProcessorDescription()
    for line in cpuinfo.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.trimmingCharacters(in: .whitespaces).isEmpty, description.vendor != nil { break }
      guard let colon = line.firstIndex(of: ":") else { continue }
      let key = line[..<colon].trimmingCharacters(in: .whitespaces)
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      guard !value.isEmpty else { continue }
      switch key {
      case "vendor_id": description.vendor = value
      case "model name": description.modelName = value
      case "cpu family": description.family = value
      case "model": description.model = value
      case "cpu MHz": description.megahertz = Double(value).flatMap { $0 > 0 ? $0 : nil }
      default: break
      }
    }
    return description
  }

  /// This machine's processor (all `nil` when `/proc/cpuinfo` cannot be read).
  static func current() -> ProcessorDescription {
    guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else {
      return ProcessorDescription()
    }
    return parse(cpuinfo: text)
  }

  /// The bench's `processor:` line: model name, vendor, family and model, cores, clock, and
  /// the vector extensions the run uses (the rasterizer build, the PNG filter's path).
  func line(cores: Int, rasterizer: InstructionSet, pngFilter: String) -> String {
    let clock =
      megahertz.map { "clock \(Int($0.rounded())) MHz" } ?? "clock not given by /proc/cpuinfo"
    return "processor: \(modelName ?? "unknown model") (vendor \(vendor ?? "unknown"), family "
      + "\(family ?? "?") model \(model ?? "?")), \(cores) cores, \(clock); vector extensions "
      + "used: rasterizer \(rasterizer.rawValue), PNG filter \(pngFilter)"
  }
}
