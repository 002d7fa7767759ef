import Foundation

/// Small, allocation-light polygon algorithms shared by paths, collision shapes and boundaries.
///
/// ## Conventions
/// A polygon is an array of vertices in points; the edge from the last vertex back to the first is
/// implied (do not repeat the first vertex). **Orientation** is named by the sign of the shoelace
/// area `Σ (xᵢ·yᵢ₊₁ − xᵢ₊₁·yᵢ) / 2` (``signedArea(_:)``):
/// - positive: counter-clockwise in y-up mathematics, which **appears clockwise on a y-down
///   screen** (UIKit's rectangle and oval paths come out positive);
/// - negative: the other way round.
/// ``convexHull(_:tolerance:)`` returns positive orientation, the convention Box2D's solver
/// expects (it only cares about the sign of cross products, not which way y points).
///
/// Every function accepts any input: non-finite points are filtered out (or make a validity test
/// answer `false`), nothing traps, and every loop is bounded by the input size.
enum PolygonTools {
    // MARK: Convex hull

    /// The convex hull of `points`, by Andrew's monotone chain, in O(n log n).
    ///
    /// - Returns: the hull vertices with positive ``signedArea(_:)`` (clockwise on a y-down
    ///   screen), starting at the vertex with the smallest x (then smallest y). Duplicate and
    ///   collinear points are dropped: a vertex survives only if it lies more than `tolerance`
    ///   points outside the line joining its neighbours (0 = exact; negative or non-finite counts
    ///   as 0). Non-finite input points are ignored. Degenerate input gives fewer than 3 points:
    ///   `[]` for no finite point, one point if all coincide, the two extreme points if all are
    ///   collinear — callers should check `count >= 3`.
    /// - Note: Deterministic: equal input arrays give bit-identical output, whatever their order.
    static func convexHull(_ points: [CGPoint], tolerance: CGFloat = 0) -> [CGPoint] {
        var sorted = finite(points)
        sorted.sort { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
        var unique: [Point] = []
        unique.reserveCapacity(sorted.count)
        for p in sorted where unique.last != p { unique.append(p) }
        guard unique.count >= 3 else { return unique.map(\.cgPoint) }

        let slack = tolerance.isFinite ? Swift.max(Double(tolerance), 0) : 0
        // Keep `a` between `o` and `b` only for a strict left turn (y-up) beyond the slack.
        func keeps(_ o: Point, _ a: Point, _ b: Point) -> Bool {
            let turn = cross(a - o, b - o)
            return slack == 0 ? turn > 0 : turn > slack * (b - o).length
        }
        var hull: [Point] = []
        hull.reserveCapacity(unique.count + 1)
        for p in unique {
            while hull.count >= 2, !keeps(hull[hull.count - 2], hull[hull.count - 1], p) { hull.removeLast() }
            hull.append(p)
        }
        let lowerCount = hull.count + 1
        for p in unique.reversed().dropFirst() {
            while hull.count >= lowerCount, !keeps(hull[hull.count - 2], hull[hull.count - 1], p) {
                hull.removeLast()
            }
            hull.append(p)
        }
        hull.removeLast()  // the first point again
        return hull.map(\.cgPoint)
    }

    // MARK: Measures

    /// The signed shoelace area of the closed polygon, in pt²: positive when the vertices run
    /// clockwise on a y-down screen (counter-clockwise in y-up maths). Non-finite vertices are
    /// ignored; fewer than 3 vertices give 0.
    static func signedArea(_ polygon: [CGPoint]) -> CGFloat {
        let p = finite(polygon)
        guard p.count >= 3 else { return 0 }
        let origin = p[0]
        var twice = 0.0
        for i in 1..<(p.count - 1) { twice += cross(p[i] - origin, p[i + 1] - origin) }
        return CGFloat(twice / 2)
    }

    /// The unsigned area of the closed polygon, in pt² (`abs(signedArea)`); meaningful for simple
    /// polygons only.
    static func area(_ polygon: [CGPoint]) -> CGFloat {
        abs(signedArea(polygon))
    }

    /// The area centroid of the closed polygon, in points (correct for simple polygons of either
    /// orientation). Falls back to the mean of the vertices when the area is (nearly) zero, and
    /// returns `.zero` when no vertex is finite.
    static func centroid(_ polygon: [CGPoint]) -> CGPoint {
        let p = finite(polygon)
        guard !p.isEmpty else { return .zero }
        let origin = p[0]
        var mean = Point(x: 0, y: 0)
        var extent = 0.0
        for v in p {
            mean = mean + (v - origin)
            extent = Swift.max(extent, (v - origin).length)
        }
        mean = origin + mean * (1 / Double(p.count))
        guard p.count >= 3 else { return mean.cgPoint }
        var twice = 0.0
        var sum = Point(x: 0, y: 0)
        for i in 1..<(p.count - 1) {
            let a = p[i] - origin, b = p[i + 1] - origin
            let c = cross(a, b)
            twice += c
            sum = sum + (a + b) * c
        }
        guard abs(twice) > 1e-12 * extent * extent, twice.isFinite else { return mean.cgPoint }
        let result = origin + sum * (1 / (3 * twice))
        return result.x.isFinite && result.y.isFinite ? result.cgPoint : mean.cgPoint
    }

    // MARK: Validity

    /// Whether the closed polygon is strictly convex: at least 3 distinct vertices, every turn in
    /// the same direction (straight-through vertices allowed, fold-backs not), winding once.
    /// Either orientation passes. Exact repeats of consecutive vertices are ignored; a non-finite
    /// vertex, a zero area or a star (pentagram) answer `false`.
    static func isConvex(_ polygon: [CGPoint]) -> Bool {
        guard let p = ring(polygon), p.count >= 3 else { return false }
        let n = p.count
        var direction = 0
        var turning = 0.0
        for i in 0..<n {
            let incoming = p[i] - p[(i + n - 1) % n]
            let outgoing = p[(i + 1) % n] - p[i]
            let turn = cross(incoming, outgoing)
            let along = dot(incoming, outgoing)
            if turn == 0 {
                if along < 0 { return false }
                continue
            }
            let sign = turn > 0 ? 1 : -1
            if direction == 0 {
                direction = sign
            } else if sign != direction {
                return false
            }
            turning += atan2(turn, along)
        }
        // A convex polygon turns once (±2π); a pentagram turns twice while every turn agrees.
        return direction != 0 && abs(turning) < 3 * Double.pi
    }

    /// Whether the closed polygon is simple: at least 3 distinct vertices and no two edges meet
    /// except neighbours at their shared vertex (touching, crossing, overlapping collinear edges and
    /// fold-backs all count as self-intersection). Exact repeats of consecutive vertices are
    /// ignored; a non-finite vertex answers `false`. O(n²): meant for item shapes, not big data.
    static func isSimple(_ polygon: [CGPoint]) -> Bool {
        guard let p = ring(polygon), p.count >= 3 else { return false }
        let n = p.count
        for i in 0..<n {
            let a0 = p[i], a1 = p[(i + 1) % n]
            for j in (i + 1)..<n {
                let b0 = p[j], b1 = p[(j + 1) % n]
                if j == i + 1 {
                    if foldsBack(a0, a1, b1) { return false }
                } else if i == 0, j == n - 1 {
                    if foldsBack(b0, b1, a1) { return false }
                } else if segmentsMeet(a0, a1, b0, b1) {
                    return false
                }
            }
        }
        return true
    }

    // MARK: Cleaning

    /// `points` without non-finite points and without any point lying within `tolerance` points
    /// (inclusive) of a point already kept; order is preserved and the first of a cluster wins.
    /// A tolerance of 0 (or negative, or non-finite) removes exact duplicates only. Uses a hash
    /// grid of `tolerance`-sized cells, so it is O(n) on average.
    static func welded(_ points: [CGPoint], tolerance: CGFloat) -> [CGPoint] {
        let cellSize = tolerance.isFinite ? Double(tolerance) : 0
        var kept: [Point] = []
        var grid: [Cell: [Int]] = [:]
        for p in finite(points) {
            if cellSize > 0 {
                let cx = cellIndex(p.x / cellSize), cy = cellIndex(p.y / cellSize)
                var near = false
                search: for dx in -1...1 {
                    for dy in -1...1 {
                        for index in grid[Cell(x: cx &+ dx, y: cy &+ dy)] ?? [] {
                            let d = kept[index] - p
                            if dot(d, d) <= cellSize * cellSize {
                                near = true
                                break search
                            }
                        }
                    }
                }
                if near { continue }
                grid[Cell(x: cx, y: cy), default: []].append(kept.count)
            } else {
                // +0.0 folds −0 into 0 so that equal coordinates share a key.
                let key = Cell(x: Int(truncatingIfNeeded: (p.x + 0.0).bitPattern),
                               y: Int(truncatingIfNeeded: (p.y + 0.0).bitPattern))
                if grid[key] != nil { continue }
                grid[key] = [kept.count]
            }
            kept.append(p)
        }
        return kept.map(\.cgPoint)
    }

    // MARK: Point queries

    /// The winding number of the closed polygon around `point` (Sunday's crossing rule, no
    /// trigonometry): +1 per turn with positive orientation, −1 per negative turn, 0 outside.
    /// Edges are half-open, so a point on an edge is counted consistently but may go either way.
    /// Non-finite points or vertices contribute nothing.
    static func windingNumber(of point: CGPoint, in polygon: [CGPoint]) -> Int {
        let px = Double(point.x), py = Double(point.y)
        guard px.isFinite, py.isFinite, polygon.count >= 2 else { return 0 }
        var winding = 0
        var previous = polygon[polygon.count - 1]
        for current in polygon {
            defer { previous = current }
            let ax = Double(previous.x), ay = Double(previous.y)
            let bx = Double(current.x), by = Double(current.y)
            guard ax.isFinite, ay.isFinite, bx.isFinite, by.isFinite else { continue }
            let side = (bx - ax) * (py - ay) - (px - ax) * (by - ay)
            if ay <= py {
                if by > py, side > 0 { winding += 1 }
            } else if by <= py, side < 0 {
                winding -= 1
            }
        }
        // An upward edge with the point on its left counts +1: the same cross-product sign as
        // the shoelace formula, so a polygon with positive `signedArea` winds +1 around its inside.
        return winding
    }

    // MARK: Private

    /// A point in Double precision, the working type of the algorithms above.
    private struct Point: Equatable {
        var x: Double
        var y: Double
        var cgPoint: CGPoint { CGPoint(x: x, y: y) }
        var length: Double { (x * x + y * y).squareRoot() }
        static func - (l: Point, r: Point) -> Point { Point(x: l.x - r.x, y: l.y - r.y) }
        static func + (l: Point, r: Point) -> Point { Point(x: l.x + r.x, y: l.y + r.y) }
        static func * (l: Point, s: Double) -> Point { Point(x: l.x * s, y: l.y * s) }
    }

    private struct Cell: Hashable {
        var x: Int
        var y: Int
    }

    private static func cross(_ a: Point, _ b: Point) -> Double { a.x * b.y - a.y * b.x }
    private static func dot(_ a: Point, _ b: Point) -> Double { a.x * b.x + a.y * b.y }

    private static func finite(_ points: [CGPoint]) -> [Point] {
        var result: [Point] = []
        result.reserveCapacity(points.count)
        for p in points {
            let x = Double(p.x), y = Double(p.y)
            if x.isFinite, y.isFinite { result.append(Point(x: x, y: y)) }
        }
        return result
    }

    /// The polygon as a ring with exact consecutive repeats (including last == first) removed,
    /// or nil if any vertex is non-finite.
    private static func ring(_ polygon: [CGPoint]) -> [Point]? {
        var result: [Point] = []
        result.reserveCapacity(polygon.count)
        for v in polygon {
            let p = Point(x: Double(v.x), y: Double(v.y))
            guard p.x.isFinite, p.y.isFinite else { return nil }
            if result.last != p { result.append(p) }
        }
        while result.count > 1, result.last == result.first { result.removeLast() }
        return result
    }

    /// Saturating conversion of a grid coordinate, so huge (finite) values cannot trap.
    private static func cellIndex(_ value: Double) -> Int {
        let cell = value.rounded(.down)
        if cell >= 9.2e18 { return Int.max }
        if cell <= -9.2e18 { return Int.min }
        return Int(cell)
    }

    /// Whether neighbouring edges `p → v` and `v → q` overlap beyond their shared vertex.
    private static func foldsBack(_ p: Point, _ v: Point, _ q: Point) -> Bool {
        cross(p - v, q - v) == 0 && dot(p - v, q - v) > 0
    }

    /// Whether closed segments `a0a1` and `b0b1` share at least one point (exact predicates).
    private static func segmentsMeet(_ a0: Point, _ a1: Point, _ b0: Point, _ b1: Point) -> Bool {
        let d1 = cross(b1 - b0, a0 - b0), d2 = cross(b1 - b0, a1 - b0)
        let d3 = cross(a1 - a0, b0 - a0), d4 = cross(a1 - a0, b1 - a0)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) {
            return true
        }
        func within(_ s0: Point, _ s1: Point, _ p: Point) -> Bool {
            Swift.min(s0.x, s1.x) <= p.x && p.x <= Swift.max(s0.x, s1.x)
                && Swift.min(s0.y, s1.y) <= p.y && p.y <= Swift.max(s0.y, s1.y)
        }
        return (d1 == 0 && within(b0, b1, a0)) || (d2 == 0 && within(b0, b1, a1))
            || (d3 == 0 && within(a0, a1, b0)) || (d4 == 0 && within(a0, a1, b1))
    }
}
