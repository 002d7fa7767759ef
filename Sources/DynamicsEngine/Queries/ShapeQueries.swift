// What a query asks of one shape: does it contain a point, where does a ray first meet it. Each
// test works in the shape's body frame (the point or ray is carried into it once), so a rotated
// box is tested as an unrotated one.

/// A ray's hit on a shape (world frame).
package struct ShapeRayHit: Sendable, Equatable {
    /// The shape hit.
    package var shape: ShapeID
    /// Where along the ray, 0 at its start and 1 at its end.
    package var fraction: Float
    /// The surface normal at the hit, unit length, on the side the ray came from.
    package var normal: Vec2
}

extension Shape {
    /// Whether `p` (in the body frame) lies inside the shape or on its outline. A segment has no
    /// inside and contains nothing.
    @inline(__always)
    func contains(local p: Vec2) -> Bool {
        switch kind {
        case .circle:
            return distanceSquared(p, p1) <= radius * radius
        case .segment:
            return false
        case .polygon:
            // inside every edge's half-plane (normals point out)
            let poly = polygon!
            for i in 0..<Int(poly.count) where dot(poly.normals[i], p - poly.vertices[i]) > 0 { return false }
            return true
        }
    }

    /// Where the ray `p + t·d`, t in [0, 1] (body frame), first enters the shape: the parameter
    /// and the outward normal there (body frame), or nil.
    ///
    /// As in Box2D, a ray that starts inside a circle or polygon (or on its outline) does not hit
    /// it: there is no surface between the start and the shape. A segment is two-sided and is hit
    /// from either side, at t = 0 when the ray starts on it; a ray along a segment does not hit it.
    func rayCast(local p: Vec2, _ d: Vec2) -> (t: Float, normal: Vec2)? {
        switch kind {
        case .circle:
            return Shape.rayCastCircle(p, d, center: p1, radius: radius)
        case .segment:
            return Shape.rayCastSegment(p, d, p1, p2)
        case .polygon:
            let poly = polygon!
            return Shape.rayCastPolygon(p, d, poly.vertices, poly.normals, Int(poly.count))
        }
    }

    /// |p + t·d − c| = r, the smaller root. With m = p − c, the roots are t = (−b ∓ √(b² − a·k)) / a
    /// for a = d·d, b = m·d, k = m·m − r²; the smaller one is written k / (−b + √…), which does not
    /// cancel when the circle is small and the ray long.
    static func rayCastCircle(_ p: Vec2, _ d: Vec2, center c: Vec2, radius r: Float) -> (t: Float, normal: Vec2)? {
        let m = p - c
        let k = dot(m, m) - r * r
        guard k > 0 else { return nil }       // starts inside or on the circle
        let b = dot(m, d)
        guard b < 0 else { return nil }       // heading away (or not moving)
        let a = dot(d, d)
        let disc = b * b - a * k
        guard disc >= 0 else { return nil }   // passes beside it
        let t = k / (-b + disc.squareRoot())
        guard t <= 1 else { return nil }
        let n = (m + t * d).normalized
        return (t, n == .zero ? (-d).normalized : n)
    }

    /// The ray clipped by each edge's half-plane (Cyrus–Beck, as Box2D's polygon ray cast): it
    /// enters at the latest entering edge and leaves at the earliest leaving one; it hits when it
    /// enters before it leaves, and only when some edge was entered (else it started inside).
    static func rayCastPolygon(_ p: Vec2, _ d: Vec2, _ v: UnsafePointer<Vec2>, _ n: UnsafePointer<Vec2>,
                               _ count: Int) -> (t: Float, normal: Vec2)? {
        var lower: Float = 0, upper: Float = 1
        var entered = -1
        for i in 0..<count {
            // the ray's signed distance inside edge i's line at t: num − t·den, in units of |n|
            let num = dot(n[i], v[i] - p)
            let den = dot(n[i], d)
            if den == 0 {
                if num < 0 { return nil }      // parallel to the edge, outside it
            } else if den < 0 {
                // entering edge i's half-plane at t = num / den
                if num < lower * den { lower = num / den; entered = i }
            } else if num < upper * den {
                upper = num / den              // leaving it
            }
            if upper < lower { return nil }
        }
        guard entered >= 0 else { return nil }
        return (lower, n[entered])
    }

    /// p + t·d = a + s·(b − a) with t and s in [0, 1]; the normal turned to face the ray.
    static func rayCastSegment(_ p: Vec2, _ d: Vec2, _ a: Vec2, _ b: Vec2) -> (t: Float, normal: Vec2)? {
        let e = b - a
        let den = cross(d, e)
        guard den != 0 else { return nil }
        let w = a - p
        let t = cross(w, e) / den
        let s = cross(w, d) / den
        guard t >= 0, t <= 1, s >= 0, s <= 1 else { return nil }
        var normal = e.leftPerp.normalized
        if dot(normal, d) > 0 { normal = -normal }
        return (t, normal)
    }
}
