import Foundation

// Plain two-float math for the engine's hot loops.
//
// The engine works in `Float`: the solver's working set (velocities, delta positions, anchors) fits
// twice as many values per cache line as `Double`, and Box2D v3 shows that single precision with
// delta positions inside a step is accurate enough for worlds tens of thousands of points across.
// Layout: `x` then `y`, 8 bytes, no padding.

/// A 2-vector of `Float`: a point or a direction in engine units (points unless said otherwise).

package struct Vec2: Equatable, Hashable, Sendable, Codable {
    package var x: Float
    package var y: Float

    @inline(__always)
    package init(_ x: Float, _ y: Float) { self.x = x; self.y = y }

    package static let zero = Vec2(0, 0)

    @inline(__always) package var length: Float { (x * x + y * y).squareRoot() }
    @inline(__always) package var lengthSquared: Float { x * x + y * y }
    @inline(__always) package var isFinite: Bool { x.isFinite && y.isFinite }

    /// Unit vector in the same direction, or zero when the length is (almost) zero.
    @inline(__always)
    package var normalized: Vec2 {
        let l = length
        if l < 1.1920929e-07 { return .zero }
        let inv = 1 / l
        return Vec2(x * inv, y * inv)
    }

    /// Counter-clockwise perpendicular in a y-up frame: (−y, x).
    @inline(__always) package var leftPerp: Vec2 { Vec2(-y, x) }
    /// Clockwise perpendicular in a y-up frame: (y, −x).
    @inline(__always) package var rightPerp: Vec2 { Vec2(y, -x) }

    @inline(__always) package static func + (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x + b.x, a.y + b.y) }
    @inline(__always) package static func - (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x - b.x, a.y - b.y) }
    @inline(__always) package static prefix func - (a: Vec2) -> Vec2 { Vec2(-a.x, -a.y) }
    @inline(__always) package static func * (s: Float, a: Vec2) -> Vec2 { Vec2(s * a.x, s * a.y) }
    @inline(__always) package static func * (a: Vec2, s: Float) -> Vec2 { Vec2(s * a.x, s * a.y) }
    @inline(__always) package static func += (a: inout Vec2, b: Vec2) { a.x += b.x; a.y += b.y }
    @inline(__always) package static func -= (a: inout Vec2, b: Vec2) { a.x -= b.x; a.y -= b.y }
}

@inline(__always) package func dot(_ a: Vec2, _ b: Vec2) -> Float { a.x * b.x + a.y * b.y }
/// The z component of the 3-D cross product of two plane vectors.
@inline(__always) package func cross(_ a: Vec2, _ b: Vec2) -> Float { a.x * b.y - a.y * b.x }
/// ω × r for a scalar angular velocity ω about the z axis.
@inline(__always) package func cross(_ s: Float, _ v: Vec2) -> Vec2 { Vec2(-s * v.y, s * v.x) }
/// r × s for a scalar s about the z axis.
@inline(__always) package func cross(_ v: Vec2, _ s: Float) -> Vec2 { Vec2(s * v.y, -s * v.x) }
@inline(__always) package func distance(_ a: Vec2, _ b: Vec2) -> Float { (b - a).length }
@inline(__always) package func distanceSquared(_ a: Vec2, _ b: Vec2) -> Float { (b - a).lengthSquared }
@inline(__always) package func lerp(_ a: Vec2, _ b: Vec2, _ t: Float) -> Vec2 { Vec2(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)) }
@inline(__always) package func minv(_ a: Vec2, _ b: Vec2) -> Vec2 { Vec2(Swift.min(a.x, b.x), Swift.min(a.y, b.y)) }
@inline(__always) package func maxv(_ a: Vec2, _ b: Vec2) -> Vec2 { Vec2(Swift.max(a.x, b.x), Swift.max(a.y, b.y)) }
@inline(__always) package func clamp(_ v: Float, _ lo: Float, _ hi: Float) -> Float { Swift.min(Swift.max(v, lo), hi) }

/// A rotation stored as cosine and sine, so composing and applying it needs no trigonometry.

package struct Rot: Equatable, Hashable, Sendable, Codable {
    package var c: Float
    package var s: Float

    @inline(__always) package init(c: Float, s: Float) { self.c = c; self.s = s }
    /// A rotation by `angle` radians (turning +x toward +y).
    package init(angle: Float) { self.c = cosf(angle); self.s = sinf(angle) }

    package static let identity = Rot(c: 1, s: 0)

    @inline(__always) package var angle: Float { atan2f(s, c) }

    @inline(__always)
    package var normalized: Rot {
        let mag = (s * s + c * c).squareRoot()
        let inv: Float = mag > 0 ? 1 / mag : 0
        return Rot(c: c * inv, s: s * inv)
    }

    /// Advances the rotation by a small angle `h·ω` (first order, renormalised), as the solver's
    /// sub-steps do: cheaper than `sin`/`cos` and exact to second order for the tiny angles of a sub-step.
    @inline(__always)
    package func integrated(by deltaAngle: Float) -> Rot {
        Rot(c: c - deltaAngle * s, s: s + deltaAngle * c).normalized
    }

    @inline(__always) package func rotate(_ v: Vec2) -> Vec2 { Vec2(c * v.x - s * v.y, s * v.x + c * v.y) }
    @inline(__always) package func invRotate(_ v: Vec2) -> Vec2 { Vec2(c * v.x + s * v.y, -s * v.x + c * v.y) }

    /// self · other (apply `other` first).
    @inline(__always)
    package func mul(_ q: Rot) -> Rot { Rot(c: c * q.c - s * q.s, s: s * q.c + c * q.s) }
    /// selfᵀ · other.
    @inline(__always)
    package func invMul(_ q: Rot) -> Rot { Rot(c: c * q.c + s * q.s, s: c * q.s - s * q.c) }
}

/// The angle of `b` relative to `a`, in [−π, π] (rad), from ``polynomialAtan2(_:_:)``: the
/// joints' angle in every step.
@inline(__always)
package func relativeAngle(_ a: Rot, _ b: Rot) -> Float {
    let s = a.c * b.s - a.s * b.c
    let c = a.c * b.c + a.s * b.s
    return polynomialAtan2(s, c)
}

/// atan2(y, x) in [−π, π] (rad) for finite `y`, `x`, within 5·10⁻⁷ rad; 0 for (0, 0); NaN if either is NaN.
///
/// Why not libm's `atan2f`: the solver needs the same bits on every platform for its determinism,
/// and C libraries differ in the last place; it is also a quarter of the cost. The octant is
/// reduced to t = min/max in [0, 1], where atan(t) = t·P(t²) with P of degree 7, its coefficients
/// fitted (Remez) to the smallest largest error over [0, 1], 4·10⁻⁸. The rest of the bound: evaluating
/// in Float (1.4·10⁻⁷), `Float.pi` being 1.5·10⁻⁷ below π, and rounding the octant's π − r (1.2·10⁻⁷).
@inline(__always)
package func polynomialAtan2(_ y: Float, _ x: Float) -> Float {
    let ax = abs(x), ay = abs(y)
    let big = ax > ay ? ax : ay, small = ax > ay ? ay : ax
    // (0, 0) → t = 0; a NaN makes both compares false, big = ay or ax, and the NaN flows through
    let t = big > 0 ? small / big : small + big
    let u = t * t
    var p: Float = -0.00405456731
    p = p * u + 0.0218629576
    p = p * u - 0.055912327
    p = p * u + 0.0964219719
    p = p * u - 0.139086291
    p = p * u + 0.199465662
    p = p * u - 0.333298594
    p = p * u + 0.999999344
    var r = p * t
    if ay > ax { r = 0.5 * Float.pi - r }
    if x < 0 { r = Float.pi - r }
    return y < 0 ? -r : r
}

/// Wraps an angle into (−π, π].
package func unwindAngle(_ a: Float) -> Float {
    if a < -Float.pi { return a + 2 * Float.pi }
    if a > Float.pi { return a - 2 * Float.pi }
    return a
}

/// A rigid transform: rotate, then translate.

package struct Transform: Equatable, Hashable, Sendable, Codable {
    package var p: Vec2
    package var q: Rot
    @inline(__always) package init(p: Vec2, q: Rot) { self.p = p; self.q = q }
    package static let identity = Transform(p: .zero, q: .identity)
    @inline(__always) package func apply(_ v: Vec2) -> Vec2 { q.rotate(v) + p }
    @inline(__always) package func invApply(_ v: Vec2) -> Vec2 { q.invRotate(v - p) }
    /// selfᵀ · b: `b` expressed in the frame of `self`.
    @inline(__always)
    package func invMul(_ b: Transform) -> Transform {
        Transform(p: q.invRotate(b.p - p), q: q.invMul(b.q))
    }
}

/// An axis-aligned bounding box in engine units.

package struct AABB: Equatable, Sendable, Codable {
    package var lower: Vec2
    package var upper: Vec2
    @inline(__always) package init(lower: Vec2, upper: Vec2) { self.lower = lower; self.upper = upper }
    @inline(__always)
    package func overlaps(_ b: AABB) -> Bool {
        !(b.lower.x > upper.x || b.lower.y > upper.y || lower.x > b.upper.x || lower.y > b.upper.y)
    }
    @inline(__always)
    package func contains(_ b: AABB) -> Bool {
        lower.x <= b.lower.x && lower.y <= b.lower.y && b.upper.x <= upper.x && b.upper.y <= upper.y
    }
    @inline(__always) package func union(_ b: AABB) -> AABB { AABB(lower: minv(lower, b.lower), upper: maxv(upper, b.upper)) }
    @inline(__always) package func inflated(by m: Float) -> AABB { AABB(lower: Vec2(lower.x - m, lower.y - m), upper: Vec2(upper.x + m, upper.y + m)) }
    package var isValid: Bool { lower.isFinite && upper.isFinite && lower.x <= upper.x && lower.y <= upper.y }
    package var width: Float { upper.x - lower.x }
    package var height: Float { upper.y - lower.y }
}
