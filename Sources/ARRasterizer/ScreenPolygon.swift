/// One edge of a `ScreenPolygon`, stored so that two polygons sharing it evaluate bit-identical
/// edge functions (see `ScreenPolygon`).
struct ScreenEdge: Sendable {
  // Screen space (pixels, u right, v down). (ax, ay) is the lexicographically smaller endpoint.
  var ax: Double
  var ay: Double
  var bx: Double
  var by: Double
  /// ±1: makes `sign · E(p)` positive inside the polygon.
  var sign: Double
  /// Whether a sample exactly on this edge (E = 0) is inside: the top-left rule.
  var includesZero: Bool

  /// `admits(u:v:)` at the samples u of one row, lane by lane: the same operations on the
  /// same values, so the same answers.
  @inline(__always) func admits(u: DoubleLanes, v: Double) -> SIMDMask<DoubleLanes.MaskStorage> {
    let e = sign * ((bx - ax) * (v - ay) - (by - ay) * (u - ax))
    // e > 0 || (e == 0 && includesZero); NaN is admitted by neither.
    return includesZero ? e .>= 0 : e .> 0
  }

  /// An edge that every point passes (pads triangles to four edges).
  static let open = ScreenEdge(ax: 0, ay: 0, bx: 0, by: 0, sign: 1, includesZero: true)

  /// Whether screen point (u, v) is on the inner side (or on the edge, by the fill rule).
  @inline(__always) func admits(u: Double, v: Double) -> Bool {
    let e = sign * ((bx - ax) * (v - ay) - (by - ay) * (u - ax))
    return e > 0 || (e == 0 && includesZero)
  }
}

/// A convex screen-space polygon of 3 or 4 vertices (a triangle after near-plane clipping),
/// with the top-left fill rule.
///
/// Screen space: pixels, u right, v down, sample positions anywhere (pixel centres at integers).
/// A point p is inside when every edge function `E(p) = (b − a) × (p − a)` has the polygon's
/// inner sign; a point exactly on an edge (E = 0) counts only for *top* edges (horizontal, inside
/// below) and *left* edges (inside to the right), as Direct3D's rule. Two polygons sharing an
/// edge traverse it in opposite directions, so exactly one of them takes the points on it.
///
/// Exactness: each edge function is evaluated from its endpoints in a canonical order
/// (lexicographically smaller first) and only its sign flips, so the two polygons sharing an
/// edge compute bit-identical |E| and no sample is drawn twice or missed, in floating point.
struct ScreenPolygon: Sendable {
  var edges: (ScreenEdge, ScreenEdge, ScreenEdge, ScreenEdge)
  /// Bounding box of the vertices (screen space).
  var minU: Double
  var maxU: Double
  var minV: Double
  var maxV: Double

  /// The polygon through `vertices` (3 or 4, in order, either winding), or `nil` when it has
  /// zero or non-finite area.
  init?(vertices: [(u: Double, v: Double)]) {
    guard vertices.count == 3 || vertices.count == 4 else { return nil }
    let fourth = vertices.count == 4 ? vertices[3] : vertices[0]
    self.init(
      count: vertices.count, (vertices[0], vertices[1], vertices[2], fourth))
  }

  /// The polygon through the first `count` (3 or 4) of `vertices`, in order, either winding,
  /// or `nil` when it has zero or non-finite area; no allocation (what every frame's triangle
  /// preparation calls).
  init?(
    count n: Int,
    _ vertices: (
      (u: Double, v: Double), (u: Double, v: Double), (u: Double, v: Double),
      (u: Double, v: Double)
    )
  ) {
    guard n == 3 || n == 4 else { return nil }
    @inline(__always) func vertex(_ i: Int) -> (u: Double, v: Double) {
      switch i {
      case 0: vertices.0
      case 1: vertices.1
      case 2: vertices.2
      default: vertices.3
      }
    }
    var twiceArea = 0.0
    for i in 0..<n {
      let a = vertex(i)
      let b = vertex((i + 1) % n)
      twiceArea += a.u * b.v - b.u * a.v
    }
    guard twiceArea.isFinite, twiceArea != 0 else { return nil }
    let orientation: Double = twiceArea > 0 ? 1 : -1
    @inline(__always) func edge(_ i: Int) -> ScreenEdge {
      let a = vertex(i)
      let b = vertex((i + 1) % n)
      // Direction with the inside on the positive side of E.
      let dx = (b.u - a.u) * orientation
      let dy = (b.v - a.v) * orientation
      // Top edge: horizontal, inside below (v down) ⇔ dx > 0; left edge: inside to the right
      // ⇔ dy < 0.
      let includesZero = dy < 0 || (dy == 0 && dx > 0)
      let swapped = (b.u, b.v) < (a.u, a.v)
      let (lo, hi) = swapped ? (b, a) : (a, b)
      return ScreenEdge(
        ax: lo.u, ay: lo.v, bx: hi.u, by: hi.v, sign: swapped ? -orientation : orientation,
        includesZero: includesZero)
    }
    edges = (edge(0), edge(1), edge(2), n == 4 ? edge(3) : .open)
    // As `Sequence.min()` / `max()`: the first vertex, replaced by a strictly smaller
    // (larger) one.
    var minU = vertices.0.u
    var maxU = vertices.0.u
    var minV = vertices.0.v
    var maxV = vertices.0.v
    for i in 1..<n {
      let p = vertex(i)
      if p.u < minU { minU = p.u }
      if p.u > maxU { maxU = p.u }
      if p.v < minV { minV = p.v }
      if p.v > maxV { maxV = p.v }
    }
    self.minU = minU
    self.maxU = maxU
    self.minV = minV
    self.maxV = maxV
  }

  /// Whether screen point (u, v) is inside by the top-left rule.
  @inline(__always) func covers(u: Double, v: Double) -> Bool {
    edges.0.admits(u: u, v: v) && edges.1.admits(u: u, v: v) && edges.2.admits(u: u, v: v)
      && edges.3.admits(u: u, v: v)
  }

  /// `covers(u:v:)` at the samples u of one row, lane by lane (the same answers).
  @inline(__always) func covers(u: DoubleLanes, v: Double) -> SIMDMask<DoubleLanes.MaskStorage> {
    edges.0.admits(u: u, v: v) .& edges.1.admits(u: u, v: v) .& edges.2.admits(u: u, v: v)
      .& edges.3.admits(u: u, v: v)
  }

  /// The sample columns of `columns` on sample row v whose u = `grid.u(sx)` `covers`: exactly
  /// the samples `covers` accepts, found by bisection.
  ///
  /// Exactness: for fixed v each edge function, as evaluated in floating point, is monotone in
  /// u (a rounded subtraction and a product with a constant are monotone), and u is monotone in
  /// the column, so each edge admits a prefix or a suffix of the columns and `covers` admits
  /// their intersection, one contiguous range.
  func coveredColumns(v: Double, columns: Range<Int>, grid: SampleGrid) -> Range<Int> {
    var range = columns
    // One edge at a time (no array of edges: this runs per row and primitive).
    Self.clip(&range, to: edges.0, v: v, grid: grid)
    Self.clip(&range, to: edges.1, v: v, grid: grid)
    Self.clip(&range, to: edges.2, v: v, grid: grid)
    Self.clip(&range, to: edges.3, v: v, grid: grid)
    return range
  }

  /// Narrows `range` to its columns that `edge` admits on row v (empty: `low..<low`).
  @inline(__always) private static func clip(
    _ range: inout Range<Int>, to edge: ScreenEdge, v: Double, grid: SampleGrid
  ) {
    let low = range.lowerBound
    let high = range.upperBound
    guard low < high else { return }
    let first = edge.admits(u: grid.u(low), v: v)
    let last = edge.admits(u: grid.u(high - 1), v: v)
    guard first != last else {
      if !first { range = low..<low }
      return
    }
    // Admitted prefix (first) or suffix: the column where admission changes, starting from
    // where the edge's line crosses the row.
    let change = firstChange(
      low, high - 1, startingAt: first, guess: edge.crossingColumn(v: v, grid: grid)
    ) { edge.admits(u: grid.u($0), v: v) }
    range = first ? low..<change : change..<high
  }
}

extension ScreenEdge {
  /// The sample column nearest where the edge's line crosses sample row v, a guess for
  /// `ScreenPolygon.firstChange` (any value is safe: it only orders the search). Screen
  /// space: u* = ax + (bx − ax)·(v − ay)/(by − ay), column (u* + ½)·N − ½.
  @inline(__always) func crossingColumn(v: Double, grid: SampleGrid) -> Int {
    let u = ax + (bx - ax) * (v - ay) / (by - ay)
    let column = (u + 0.5) * Double(grid.scale) - 0.5
    // NaN and out-of-range guesses go to the ends (the search clamps them).
    guard column > -0x1p52 else { return Int.min / 2 }
    guard column < 0x1p52 else { return Int.max / 2 }
    return Int(column)
  }
}

extension ScreenPolygon {
  /// On a predicate `admits` that is monotone on a ... b, `atStart` at `a` and not at `b`:
  /// the first column in (a, b] whose value is not `atStart`, the unique column c with
  /// `admits(c − 1) == atStart` and `admits(c) != atStart`.
  ///
  /// Searched outwards from `guess` (clamped into (a, b]) with doubling steps, then by
  /// bisection within the last step, so a guess a column or two off costs a few evaluations
  /// instead of log₂(b − a); the result does not depend on the guess.
  @inline(__always) static func firstChange(
    _ a: Int, _ b: Int, startingAt atStart: Bool, guess: Int, _ admits: (Int) -> Bool
  ) -> Int {
    // Invariant: admits(low) == atStart, admits(high) != atStart.
    var low = a
    var high = b
    let start = Swift.min(Swift.max(guess, a + 1), b)
    var step = 1
    if admits(start) == atStart {
      low = start
      while low + step < high {
        if admits(low + step) == atStart {
          low += step
          step += step
        } else {
          high = low + step
          break
        }
      }
    } else {
      high = start
      while high - step > low {
        if admits(high - step) != atStart {
          high -= step
          step += step
        } else {
          low = high - step
          break
        }
      }
    }
    while high - low > 1 {
      let m = low + (high - low) / 2
      if admits(m) == atStart { low = m } else { high = m }
    }
    return high
  }
}
