/// One contact point of a manifold.
///
/// `anchorA`/`anchorB` are the point relative to each body's centre of mass in world orientation,
/// fixed for the whole step: the solver moves them with the bodies' delta rotations instead of
/// re-running collision in every sub-step (the "soft step"). Impulses persist between steps and are
/// matched by `id`, which names the pair of features (edges or vertices) that made the point, so a
/// resting stack starts every step from last step's answer (warm starting).
package struct ManifoldPoint: Sendable, Equatable {
    /// World position of the point (pt), midway between the two surfaces.
    package var point: Vec2 = .zero
    package var anchorA: Vec2 = .zero
    package var anchorB: Vec2 = .zero
    /// Signed gap along the normal (pt); negative when overlapping, positive for a speculative point.
    package var separation: Float = 0
    /// Accumulated normal impulse (mass·pt/s).
    package var normalImpulse: Float = 0
    package var tangentImpulse: Float = 0
    /// Largest normal impulse applied in any sub-step of the last step: tells a real touch from a
    /// speculative one.
    package var maxNormalImpulse: Float = 0
    package var id: UInt32 = 0
    /// separation − n·(c_B − c_A + anchorB − anchorA) when computed: lets a recycled manifold
    /// update its separation from the bodies' motion without re-running collision.
    package var baseSeparation: Float = 0
}

/// Up to two contact points sharing a normal that points from shape A to shape B. With no point,
/// `p0.separation` holds how far the shapes were when computed, past the speculative distance
/// (a lower bound on any point's separation; 0 where unknown): the narrow phase keeps such a
/// manifold only while the pair has moved less than that margin.
package struct Manifold: Sendable, Equatable {
    package var normal: Vec2 = .zero
    package var p0 = ManifoldPoint()
    package var p1 = ManifoldPoint()
    package var pointCount: Int32 = 0
    package init() {}

    @inline(__always)
    subscript(i: Int) -> ManifoldPoint {
        get { i == 0 ? p0 : p1 }
        set { if i == 0 { p0 = newValue } else { p1 = newValue } }
    }
}

@inline(__always) func featureID(_ a: Int, _ b: Int) -> UInt32 { UInt32(a & 0xFFFF) << 16 | UInt32(b & 0xFFFF) }
