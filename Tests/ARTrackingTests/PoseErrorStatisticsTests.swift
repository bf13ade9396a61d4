import ARMath
import ARTracking
import Testing

/// The error model sampled directly (no rendering), against the values its parameters imply.
@Suite struct PoseErrorStatisticsTests {
  static let tick = 1.0 / 60

  /// Sample standard deviation about the sample mean.
  static func sigma(_ values: [Double]) -> Double {
    let mean = values.reduce(0, +) / Double(values.count)
    let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
    return (squares / Double(values.count - 1)).squareRoot()
  }

  @Test("white noise over 10 000 ticks has the configured σ within 5 % on every axis")
  func whiteNoise() {
    var model = PoseErrorModel()
    model.positionNoise = 0.004
    model.rotationNoise = 0.002
    var process = PoseErrorProcess(model: model, seed: 11)
    var position: [[Double]] = [[], [], []]
    var rotation: [[Double]] = [[], [], []]
    for _ in 0..<10_000 {
      let e = process.step(seconds: Self.tick)
      for (axis, value) in e.position.array.enumerated() { position[axis].append(value) }
      for (axis, value) in e.rotation.array.enumerated() { rotation[axis].append(value) }
    }
    for axis in 0..<3 {
      let p = Self.sigma(position[axis]) / 0.004
      let r = Self.sigma(rotation[axis]) / 0.002
      #expect(abs(p - 1) < 0.05, "position axis \(axis): σ ratio \(p)")
      #expect(abs(r - 1) < 0.05, "rotation axis \(axis): σ ratio \(r)")
    }
    #expect(process.drift == .zero)  // noise never accumulates
  }

  @Test("random walk alone: σ(4τ)/σ(τ) = 2 within 10 % at τ = 1, 4, 16 s over 400 seeds")
  func randomWalk() {
    var model = PoseErrorModel()
    model.positionDrift = 0.01  // m/√s
    model.rotationDrift = 0.003  // rad/√s
    let taus = [1.0, 4, 16, 64]
    let ticks = taus.map { Int(($0 * 60).rounded()) }
    var position = [[Double]](repeating: [], count: taus.count)
    var rotation = [[Double]](repeating: [], count: taus.count)
    for seed in 0..<400 {
      var process = PoseErrorProcess(model: model, seed: UInt64(seed))
      var next = 0
      for tick in 1...ticks.last! {
        let e = process.step(seconds: Self.tick)
        if tick == ticks[next] {
          position[next] += e.position.array
          rotation[next] += e.rotation.array
          next += 1
        }
      }
    }
    for i in 0..<3 {
      let p = Self.sigma(position[i + 1]) / Self.sigma(position[i])
      let r = Self.sigma(rotation[i + 1]) / Self.sigma(rotation[i])
      #expect(abs(p / 2 - 1) < 0.1, "position σ(\(4 * taus[i]))/σ(\(taus[i])) = \(p)")
      #expect(abs(r / 2 - 1) < 0.1, "rotation σ(\(4 * taus[i]))/σ(\(taus[i])) = \(r)")
    }
    // And the σ itself is the density times √τ.
    for (i, tau) in taus.enumerated() {
      let expected = 0.01 * tau.squareRoot()
      #expect(abs(Self.sigma(position[i]) / expected - 1) < 0.1, "σ(\(tau)) position")
    }
  }

  @Test("the same seed gives the same errors, another seed other ones")
  func seeds() {
    var model = PoseErrorModel()
    model.positionNoise = 0.001
    model.positionDrift = 0.01
    model.rotationNoise = 0.001
    model.rotationDrift = 0.001
    func run(_ seed: UInt64) -> [PoseError] {
      var process = PoseErrorProcess(model: model, seed: seed)
      return (0..<100).map { _ in process.step(seconds: Self.tick) }
    }
    #expect(run(5) == run(5))
    #expect(run(5) != run(6))
    #expect(run(5)[0].position != run(6)[0].position)
  }

  @Test("noise and drift draw from separate streams: turning noise on leaves the drift")
  func separateStreams() {
    var driftOnly = PoseErrorModel()
    driftOnly.positionDrift = 0.02
    var both = driftOnly
    both.positionNoise = 0.01
    var a = PoseErrorProcess(model: driftOnly, seed: 1)
    var b = PoseErrorProcess(model: both, seed: 1)
    for _ in 0..<50 {
      _ = a.step(seconds: Self.tick)
      _ = b.step(seconds: Self.tick)
    }
    #expect(a.drift == b.drift)
  }
}
