import ARMath
import ARSupport

/// The `T_BS` extrinsics of a EuRoC `sensor.yaml`: the sensor (camera) pose in the IMU body
/// frame, a row-major 4×4 under `T_BS: … data: [ … ]`.
///
/// Only this key is read, with a small line scanner rather than a YAML parser: the EuRoC files
/// all write it as `T_BS:` followed by `cols`, `rows` and a flow-sequence `data` list.
enum EuRoCSensorFile {
  /// `bodyFromSensor` = `T_BS`, so `worldFromCamera = worldFromBody · T_BS`.
  /// - Throws: `TrackReadError` `.missingInput` for an unreadable file, `.badData` when
  ///   `T_BS.data` is missing, has other than 16 numbers, a bottom row other than `0 0 0 1`,
  ///   or a rotation that is not orthonormal within 1e-2.
  static func bodyFromSensor(path: String) throws -> RigidTransform {
    let lines = try TrackLineReader(path: path)
    var inBlock = false
    var collecting = false
    var dataLine: Int?
    var text = ""
    while let line = try lines.nextLine() {
      let content =
        line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        .first.map(String.init) ?? ""
      let trimmed = content.drop { $0 == " " || $0 == "\t" }
      if collecting {
        text += " " + trimmed
        if trimmed.contains("]") { break }
        continue
      }
      if trimmed.hasPrefix("T_BS:") {
        inBlock = true
        continue
      }
      guard inBlock else { continue }
      if !content.hasPrefix(" "), !content.hasPrefix("\t"), !trimmed.isEmpty {
        break  // the next top-level key: T_BS had no data
      }
      if trimmed.hasPrefix("data:") {
        dataLine = lines.lineNumber
        text = String(trimmed.dropFirst("data:".count))
        collecting = !text.contains("]")
        if !collecting { break }
      }
    }
    guard let dataLine else {
      throw TrackReadError(file: path, field: "T_BS.data", "no T_BS data list found")
    }
    guard let open = text.firstIndex(of: "["), let close = text.firstIndex(of: "]"), open < close
    else {
      throw TrackReadError(
        file: path, line: dataLine, field: "T_BS.data", "expected a [ … ] list of 16 numbers")
    }
    let items = text[text.index(after: open)..<close].split(whereSeparator: {
      $0 == "," || $0 == " " || $0 == "\t"
    })
    var values: [Double] = []
    for item in items {
      guard let value = InputText.double(item), value.isFinite else {
        throw TrackReadError(
          file: path, line: dataLine, field: "T_BS.data",
          "\(InputText.quoted(item)) is not a finite number")
      }
      values.append(value)
    }
    guard values.count == 16 else {
      throw TrackReadError(
        file: path, line: dataLine, field: "T_BS.data",
        "expected 16 numbers (a row-major 4×4), found \(values.count)")
    }
    let bottom = Array(values[12...])
    guard zip(bottom, [0.0, 0, 0, 1]).allSatisfy({ abs($0 - $1) <= 1e-9 }) else {
      throw TrackReadError(
        file: path, line: dataLine, field: "T_BS.data",
        "the bottom row is \(bottom), not [0, 0, 0, 1]")
    }
    let m = Matrix3(rowMajor: [
      values[0], values[1], values[2], values[4], values[5], values[6], values[8], values[9],
      values[10],
    ])
    var validator = RotationValidator(path: path)
    let q = try validator.rotation(m, line: dataLine, field: "T_BS.data")
    return RigidTransform(rotation: q, translation: Vector3(values[3], values[7], values[11]))
  }
}
