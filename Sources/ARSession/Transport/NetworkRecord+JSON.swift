import ARSupport

extension NetworkRecord {
  /// The record as one `messages.jsonl` line (a contract; Documentation/Collaboration.md):
  /// `{"sequence", "t": send τ, "from", "channel" | "peer", "type", "bytes", "payload",
  /// "presence"?: true, "failed"?: reason, "deliveries": [{"to", "t": arrival τ, "attempts"} |
  /// {"to", "dropped": reason, "attempts"}]}`. `payload` is the payload as text (UTF-8, invalid
  /// bytes replaced); times are seconds.
  public var json: JSONValue {
    var fields: [(String, JSONValue)] = [
      ("sequence", .integer(sequence)),
      ("t", .number(ReplayTime.seconds(message.sendMicroseconds))),
      ("from", .string(message.sender)),
    ]
    switch message.destination {
    case .channel(let channel): fields.append(("channel", .string(channel)))
    case .peer(let peer): fields.append(("peer", .string(peer)))
    }
    fields += [
      ("type", .string(message.type)),
      ("bytes", .integer(message.sizeBytes)),
      ("payload", .string(String(decoding: message.payload, as: UTF8.self))),
    ]
    if message.isPresenceNotice { fields.append(("presence", .bool(true))) }
    if let failure { fields.append(("failed", .string(failure.description))) }
    fields.append(
      (
        "deliveries",
        .array(
          outcomes.map { outcome in
            var entry: [(String, JSONValue)] = [("to", .string(outcome.receiver))]
            if let arrival = outcome.arrivalMicroseconds {
              entry.append(("t", .number(ReplayTime.seconds(arrival))))
            }
            if let reason = outcome.dropReason {
              entry.append(("dropped", .string(reason.rawValue)))
            }
            entry.append(("attempts", .integer(outcome.attempts)))
            return .object(entry)
          })
      ))
    return .object(fields)
  }
}
