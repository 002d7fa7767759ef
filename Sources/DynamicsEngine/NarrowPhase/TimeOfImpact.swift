// Times of impact between whole shapes, for bullets (`World.solveBullets`).
//
// The distance between two convex shapes is found by GJK on their cores (a polygon's vertices, a
// segment's ends, a circle's centre), less their radii; the time of impact by conservative
// advancement (Mirtich): at the time reached, the gap and its direction bound how soon the shapes
// can close it, given how far each body's centre travels and how far any of its points can swing
// with its turn, and the time moves on by that much until the gap is down to the target. It never
// steps past a contact, and unlike a swept circle it sees a turned card's corners.

/// A body's motion over a step, for times of impact: its centre of mass on a straight line from
/// where it started to where it ends, and its angle turning evenly by `turn` (rad, the short way).
struct BodySweep {
    var localCenter: Vec2
    var c0: Vec2, c1: Vec2
    var a0: Float, turn: Float

    /// The sweep of a body from its pose at the step's start to its pose now, after a step of `dt`
    /// seconds. The turn is the change of rotation, taken whole turns more or less as the body's
    /// angular velocity says (a 12 pt square struck at its corner spun 7 rad in a step, which the
    /// change of rotation alone reads as 0.7).
    init(_ b: Body, dt: Float) {
        localCenter = b.localCenter
        c0 = b.center0
        c1 = b.center
        a0 = b.rotation0.angle
        let net = b.rotation0.invMul(b.transform.q).angle
        let spun = b.angularVelocity * dt
        let turns = spun.isFinite ? ((spun - net) / (2 * .pi)).rounded() : 0
        turn = net + turns * 2 * .pi
    }

    /// A body that does not move, at its pose now, with no angle to compute (a placeholder where
    /// no sweep reads the motion).
    static func still(_ b: Body) -> BodySweep {
        BodySweep(localCenter: b.localCenter, c0: b.center, c1: b.center, a0: 0, turn: 0)
    }

    private init(localCenter: Vec2, c0: Vec2, c1: Vec2, a0: Float, turn: Float) {
        self.localCenter = localCenter
        self.c0 = c0
        self.c1 = c1
        self.a0 = a0
        self.turn = turn
    }

    /// The body's transform at `t` ∈ [0, 1] of the step.
    func transform(at t: Float) -> Transform {
        let q = Rot(angle: a0 + t * turn)
        return Transform(p: c0 + t * (c1 - c0) - q.rotate(localCenter), q: q)
    }

    /// How far the centre travels over the step.
    var translation: Vec2 { c1 - c0 }
}

/// Calls `body` with a shape's core: its points in the body frame (1 for a circle, 2 for a
/// segment, a polygon's vertices) and its radius. No allocation.
@inline(__always)
func withCore<R>(of s: Shape, _ body: (UnsafePointer<Vec2>, Int, Float) -> R) -> R {
    switch s.kind {
    case .circle:
        var p = s.p1
        return withUnsafePointer(to: &p) { body($0, 1, s.radius) }
    case .segment:
        var ends = (s.p1, s.p2)
        return withUnsafePointer(to: &ends) { pair in
            pair.withMemoryRebound(to: Vec2.self, capacity: 2) { body($0, 2, s.radius) }
        }
    case .polygon:
        let poly = s.polygon!
        return body(poly.vertices, Int(poly.count), s.radius)
    }
}

/// The distance between the convex hulls of two point sets placed by `xfA` and `xfB`, and the
/// unit direction from A's closest point to B's: (0, zero) when the hulls touch or overlap.
/// GJK on the Minkowski difference B − A, with a simplex of up to three vertices.
func hullDistance(
    _ a: UnsafePointer<Vec2>, _ countA: Int, _ xfA: Transform,
    _ b: UnsafePointer<Vec2>, _ countB: Int, _ xfB: Transform
)
    -> (distance: Float, normal: Vec2)
{
    // the point of each set farthest along a world direction
    func support(_ p: UnsafePointer<Vec2>, _ count: Int, _ xf: Transform, _ d: Vec2) -> Int32 {
        let local = xf.q.invRotate(d)
        var best = 0, most = dot(p[0], local)
        for i in 1..<count {
            let v = dot(p[i], local)
            if v > most { most = v; best = i }
        }
        return Int32(best)
    }
    struct Vertex { var w: Vec2; var ia: Int32; var ib: Int32 }
    func vertex(_ ia: Int32, _ ib: Int32) -> Vertex {
        Vertex(w: xfB.apply(b[Int(ib)]) - xfA.apply(a[Int(ia)]), ia: ia, ib: ib)
    }
    var s0 = vertex(0, 0), s1 = s0, s2 = s0
    var count = 1
    var v = s0.w
    for _ in 0..<32 {
        // the point of the simplex nearest the origin, keeping only the vertices that span it
        switch count {
        case 1:
            v = s0.w
        case 2:
            let e = s1.w - s0.w
            let ee = dot(e, e)
            let t = ee > 0 ? -dot(s0.w, e) / ee : 0
            if t <= 0 { count = 1; v = s0.w } else if t >= 1 { s0 = s1; count = 1; v = s0.w } else { v = s0.w + t * e }
        default:
            // the origin's region of the triangle (vertex, edge or inside)
            let p0 = s0.w, p1 = s1.w, p2 = s2.w
            let e01 = p1 - p0, e02 = p2 - p0
            let d1 = -dot(e01, p0), d2 = -dot(e02, p0)
            let d3 = -dot(e01, p1), d4 = -dot(e02, p1)
            let d5 = -dot(e01, p2), d6 = -dot(e02, p2)
            let vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4
            if d1 <= 0 && d2 <= 0 {
                count = 1; v = p0
            } else if d3 >= 0 && d4 <= d3 {
                s0 = s1; count = 1; v = p1
            } else if d6 >= 0 && d5 <= d6 {
                s0 = s2; count = 1; v = p2
            } else if vc <= 0 && d1 >= 0 && d3 <= 0 {
                count = 2; v = p0 + (d1 / (d1 - d3)) * e01
            } else if vb <= 0 && d2 >= 0 && d6 <= 0 {
                s1 = s2; count = 2; v = p0 + (d2 / (d2 - d6)) * e02
            } else if va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0 {
                let t = (d4 - d3) / ((d4 - d3) + (d5 - d6))
                s0 = s1; s1 = s2; count = 2; v = p1 + t * (p2 - p1)
            } else {
                return (0, .zero)  // the origin is inside: the hulls overlap
            }
        }
        let vv = dot(v, v)
        if vv < 1e-10 { return (0, .zero) }
        // the vertex of B − A farthest toward the origin
        let next = vertex(support(a, countA, xfA, v), support(b, countB, xfB, -v))
        let known = (next.ia == s0.ia && next.ib == s0.ib) || (count > 1 && next.ia == s1.ia && next.ib == s1.ib)
        // no vertex gets meaningfully nearer: v is the nearest point
        if known || vv - dot(v, next.w) <= 1e-6 * vv { break }
        if count == 1 { s1 = next } else { s2 = next }
        count += 1
    }
    let distance = v.length
    return (distance, (1 / distance) * v)
}

/// The first time in (0, 1) at which shape `sa` on body sweep `motionA` and shape `sb` on
/// `motionB` come within `target` (pt, between their rounded outlines) of each other; 0 when they
/// are within it at the step's start (touching: the solver's); nil when they do not meet within
/// the step.
///
/// `reachA` and `reachB` bound how far any point of each body lies from its centre of mass (pt):
/// a point swings at most `reach × |turn|` over the step.
func timeOfImpact(
    _ sa: Shape, _ motionA: BodySweep, reachA: Float,
    _ sb: Shape, _ motionB: BodySweep, reachB: Float,
    target: Float, tolerance: Float
) -> Float? {
    withCore(of: sa) { pa, na, ra in
        withCore(of: sb) { pb, nb, rb in
            timeOfImpact(
                pa, na, ra, motionA, reachA: reachA, pb, nb, rb, motionB, reachB: reachB,
                target: target, tolerance: tolerance)
        }
    }
}

/// ``timeOfImpact(_:_:reachA:_:_:reachB:target:tolerance:)`` for two cores given as points in
/// their bodies' frames (`countA`, `countB` of them) rounded by `radiusA`, `radiusB` (pt).
func timeOfImpact(
    _ pa: UnsafePointer<Vec2>, _ countA: Int, _ radiusA: Float, _ motionA: BodySweep,
    reachA: Float,
    _ pb: UnsafePointer<Vec2>, _ countB: Int, _ radiusB: Float, _ motionB: BodySweep,
    reachB: Float,
    target: Float, tolerance: Float
) -> Float? {
    let relative = motionB.translation - motionA.translation
    let swing = abs(motionA.turn) * reachA + abs(motionB.turn) * reachB
    var t: Float = 0
    for iteration in 0..<48 {
        let (distance, n) = hullDistance(pa, countA, motionA.transform(at: t), pb, countB, motionB.transform(at: t))
        let gap = distance - radiusA - radiusB
        if gap < target + tolerance { return iteration == 0 ? 0 : t }
        // the fastest the gap can close: B's travel toward A along the gap, plus any swing
        let closing = -dot(relative, n) + swing
        guard closing > 0 else { return nil }
        t += (gap - target) / closing
        if t >= 1 { return nil }
    }
    return t  // still closing in after every iteration: stop where it got, short of contact
}
