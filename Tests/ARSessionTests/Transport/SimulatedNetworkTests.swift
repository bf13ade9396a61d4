import Testing

@testable import ARSession

@Suite("SimulatedNetwork")
struct SimulatedNetworkTests {
  func message(_ sender: String = "A", at microseconds: Int64, bytes: Int = 10, type: String = "m")
    -> NetworkMessage
  {
    NetworkMessage(
      sender: sender, destination: .channel("room"), type: type,
      payload: Array(repeating: UInt8(ascii: "x"), count: bytes), sendMicroseconds: microseconds)
  }

  @Test("an ideal link delivers at the send time, to every receiver given")
  func idealLink() {
    var network = SimulatedNetwork(configuration: .init())
    let record = network.send(message(at: 1_000), to: ["B", "C"])
    #expect(record.failure == nil)
    #expect(record.outcomes.map(\.receiver) == ["B", "C"])
    #expect(record.outcomes.map(\.arrivalMicroseconds) == [1_000, 1_000])
    do {
      let value = network.receive(for: "B", upTo: 999)
      #expect(value.isEmpty)
    }
    do {
      let value = network.receive(for: "B", upTo: 1_000)
      #expect(value.map(\.sequence) == [0])
    }
    #expect(network.receive(for: "B", upTo: 5_000).isEmpty)  // taken once
    do {
      let value = network.receive(for: "C", upTo: 1_000)
      #expect(value.count == 1)
    }
  }

  @Test(
    "latency plus jitter: every delay in [latency, latency + jitter], same draws for the same seed")
  func latencyAndJitter() {
    let link = NetworkLink(latencySeconds: 0.05, jitterSeconds: 0.02)
    func run(seed: UInt64) -> [Int64?] {
      var network = SimulatedNetwork(configuration: .init(seed: seed, defaultLink: link))
      var arrivals: [Int64?] = []
      for i in 0..<200 {
        // 25 ms apart: more than the jitter, so order-keeping never moves an arrival.
        let record = network.send(message(at: Int64(i) * 25_000), to: ["B"])
        arrivals.append(record.outcomes[0].arrivalMicroseconds)
      }
      return arrivals
    }
    let first = run(seed: 7)
    #expect(first == run(seed: 7))
    #expect(first != run(seed: 8))
    var distinct = Set<Int64>()
    for (i, arrival) in first.enumerated() {
      let delay = (arrival ?? -1) - Int64(i) * 25_000
      #expect(delay >= 50_000 && delay <= 70_000, "message \(i): \(delay) µs")
      distinct.insert(delay)
    }
    #expect(distinct.count > 100)  // the jitter is really drawn
  }

  @Test("one sender's messages to one receiver never overtake each other")
  func orderKept() {
    // Jitter 1 s, sends 1 ms apart: raw delays would reorder almost every pair.
    let link = NetworkLink(latencySeconds: 0.01, jitterSeconds: 1)
    var network = SimulatedNetwork(configuration: .init(seed: 3, defaultLink: link))
    for i in 0..<100 {
      network.send(message(at: Int64(i) * 1_000), to: ["B"])
    }
    let arrived = network.receive(for: "B", upTo: 10_000_000)
    #expect(arrived.map(\.sequence) == Array(0..<100))
    let times = arrived.map(\.arrivalMicroseconds)
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
  }

  @Test("arrivals come out in arrival order across senders; equal times in send order")
  func receiveOrder() {
    let slow = NetworkLink(latencySeconds: 0.1)
    var network = SimulatedNetwork(
      configuration: .init(links: ["A": ["C": slow]]))
    network.send(message("A", at: 0), to: ["C"])  // arrives 100 000
    network.send(message("B", at: 50_000), to: ["C"])  // arrives 50 000
    network.send(message("B", at: 100_000), to: ["C"])  // arrives 100 000, sent after A's
    do {
      let value = network.receive(for: "C", upTo: 200_000)
      #expect(value.map(\.sequence) == [1, 0, 2])
    }
  }

  @Test("an unreliable link drops lost messages with the reason; the loss rate is the link's")
  func unreliableLoss() {
    var always = SimulatedNetwork(configuration: .init(defaultLink: NetworkLink(loss: 1)))
    let record = always.send(message(at: 0), to: ["B"])
    #expect(record.outcomes[0].dropReason == .lost && record.outcomes[0].arrivalMicroseconds == nil)
    do {
      let value = always.receive(for: "B", upTo: 1_000_000)
      #expect(value.isEmpty)
    }

    var half = SimulatedNetwork(configuration: .init(seed: 11, defaultLink: NetworkLink(loss: 0.5)))
    var lost = 0
    for i in 0..<1_000 {
      let r = half.send(message(at: Int64(i) * 20_000), to: ["B"])
      if r.outcomes[0].dropReason == .lost { lost += 1 }
    }
    // Binomial(1000, 0.5): 5 standard deviations is ±79.
    #expect(abs(lost - 500) < 80, "\(lost) lost")
  }

  @Test("a reliable link turns losses into retransmission delay and gives up after its limit")
  func reliableRetransmission() {
    let reliable = NetworkLink(
      latencySeconds: 0.03, loss: 0.5,
      reliability: .reliable(retransmissionIntervalSeconds: 0.2, giveUpAfterSeconds: 5))
    var network = SimulatedNetwork(configuration: .init(seed: 5, defaultLink: reliable))
    var retried = 0
    var previous = Int64.min
    for i in 0..<200 {
      let sent = Int64(i) * 1_000_000
      let outcome = network.send(message(at: sent), to: ["B"]).outcomes[0]
      let arrival = outcome.arrivalMicroseconds
      // Arrival = send + (attempts − 1) · 200 ms + 30 ms, but never before the previous
      // message's (an ordered stream holds later messages behind a retransmitted one).
      let own = sent + Int64(outcome.attempts - 1) * 200_000 + 30_000
      #expect(arrival == max(own, previous))
      previous = arrival ?? previous
      if outcome.attempts > 1 { retried += 1 }
    }
    #expect(retried > 50 && retried < 150, "\(retried) retried")

    let hopeless = NetworkLink(
      loss: 1, reliability: .reliable(retransmissionIntervalSeconds: 0.2, giveUpAfterSeconds: 5))
    var dead = SimulatedNetwork(configuration: .init(defaultLink: hopeless))
    let outcome = dead.send(message(at: 0), to: ["B"]).outcomes[0]
    #expect(outcome.dropReason == .retransmissionTimeout)
    #expect(outcome.attempts == 26)  // attempts at 0, 0.2, …, 5.0 s; the 27th would be at 5.2 s
  }

  @Test("Agora RTM: 32 768 bytes pass, one more fails and nothing is delivered")
  func rtmSizeLimit() {
    var network = SimulatedNetwork(configuration: .init(limits: .agoraRTM))
    do {
      let sent = network.send(message(at: 0, bytes: 32_768), to: ["B"])
      #expect(sent.failure == nil)
    }
    let failed = network.send(message(at: 1, bytes: 32_769), to: ["B"])
    #expect(failed.failure == .tooLarge(bytes: 32_769, limit: 32_768))
    #expect(failed.outcomes.isEmpty)
    do {
      let value = network.receive(for: "B", upTo: 10)
      #expect(value.map(\.sequence) == [0])
    }
  }

  @Test("Agora RTM: 180 sends in 3 s pass, the 181st fails, and the window slides")
  func rtmRateLimit() {
    var network = SimulatedNetwork(configuration: .init(limits: .agoraRTM))
    // 180 sends 10 ms apart: 0 … 1.79 s.
    for i in 0..<180 {
      do {
        let sent = network.send(message(at: Int64(i) * 10_000), to: ["B"])
        #expect(sent.failure == nil)
      }
    }
    do {
      let sent = network.send(message(at: 1_800_000), to: ["B"])
      #expect(sent.failure == .tooOften(limit: 180, windowSeconds: 3))
    }
    // Another sender has its own budget.
    do {
      let sent = network.send(message("C", at: 1_800_000), to: ["B"])
      #expect(sent.failure == nil)
    }
    // At 3.0 s the window (0, 3.0] has lost the send at 0: one slot is free, then none.
    do {
      let sent = network.send(message(at: 3_000_000), to: ["B"])
      #expect(sent.failure == nil)
    }
    do {
      let sent = network.send(message(at: 3_000_001), to: ["B"])
      #expect(sent.failure != nil)
    }
    // At 3.01 s the send at 10 ms has left too.
    do {
      let sent = network.send(message(at: 3_010_000), to: ["B"])
      #expect(sent.failure == nil)
    }
  }

  @Test("Agora data stream: 1 KB packets, 30 per second, 6 KB per second")
  func dataStreamLimits() {
    var network = SimulatedNetwork(configuration: .init(limits: .agoraDataStream))
    do {
      let sent = network.send(message(at: 0, bytes: 1_025), to: ["B"])
      #expect(sent.failure != nil)
    }
    // Six 1 KB packets fill the 6 KB budget; the seventh breaks it.
    for i in 0..<6 {
      do {
        let sent = network.send(message(at: Int64(i) * 1_000, bytes: 1_024), to: ["B"])
        #expect(sent.failure == nil)
      }
    }
    do {
      let sent = network.send(message(at: 6_000, bytes: 1_024), to: ["B"])
      #expect(sent.failure == .tooManyBytes(limit: 6_144, windowSeconds: 1))
    }
    // Small packets: the 30-per-second count binds first.
    var small = SimulatedNetwork(configuration: .init(limits: .agoraDataStream))
    for i in 0..<30 {
      do {
        let sent = small.send(message(at: Int64(i) * 1_000, bytes: 10), to: ["B"])
        #expect(sent.failure == nil)
      }
    }
    do {
      let sent = small.send(message(at: 30_000, bytes: 10), to: ["B"])
      #expect(sent.failure == .tooOften(limit: 30, windowSeconds: 1))
    }
  }

  @Test("a receiver that leaves loses what was still on its way, and the record says so")
  func receiverLeaves() {
    var network = SimulatedNetwork(
      configuration: .init(defaultLink: NetworkLink(latencySeconds: 0.1)))
    network.send(message(at: 0), to: ["B", "C"])
    network.removeReceiver("B")
    do {
      let value = network.receive(for: "B", upTo: 1_000_000)
      #expect(value.isEmpty)
    }
    #expect(network.records[0].outcomes[0].dropReason == .receiverLeft)
    #expect(network.records[0].outcomes[1].arrivalMicroseconds == 100_000)
    do {
      let value = network.receive(for: "C", upTo: 1_000_000)
      #expect(value.count == 1)
    }
  }

  @Test("a peer message to nobody is accepted and dropped as no such receiver")
  func absentPeer() {
    var network = SimulatedNetwork(configuration: .init())
    let record = network.sendToAbsentPeer(
      NetworkMessage(
        sender: "A", destination: .peer("Z"), type: "m", payload: [], sendMicroseconds: 0))
    #expect(record.failure == nil)
    #expect(record.outcomes.map(\.dropReason) == [.noSuchReceiver])
    #expect(network.records[0] == record)
  }
}
