/// A potential or actual touch between two shapes, alive while their fat boxes overlap.
///
/// Contacts are created by the broad phase when fat boxes start to overlap and destroyed by the
/// narrow phase when they stop; in between, the manifold is recomputed every step and its impulses
/// carried over by feature id. Shape A is the one of higher kind (segment ≥ polygon ≥ circle), so
/// one manifold function per kind pair suffices; the normal points from A to B.
struct Contact: PoolElement {
    var shapeA: Int32 = -1
    var shapeB: Int32 = -1
    var bodyA: Int32 = -1
    var bodyB: Int32 = -1
    // The flags and the material come first, with the bodies, beside the manifold that follows:
    // the narrow phase and the sort into solve order read them together. (The scan of every slot
    // reads the slots' `ContactKey`s, not these records.)
    var friction: Float = 0
    var restitution: Float = 0
    var isAlive = false
    var isTouching = false
    var enableContactEvents = false
    /// While touching: its place in the constraint graph, the slot of the solve order it keeps
    /// until it stops touching (0 = the overflow set, 1… = colours; see `ConstraintColoring`).
    var color: UInt8 = 0
    var manifold = Manifold()
    // Body contact lists (doubly linked by edge key = contact << 1 | side).
    var prevKey = EdgeLinks()
    var nextKey = EdgeLinks()
    var pairKey: UInt64 = 0
    // Recycling: the poses when the manifold was last computed.
    var cachedRotationA = Rot.identity
    var cachedRotationB = Rot.identity
    var cachedRelative = Transform.identity
    var cacheValid = false
}

/// A touch that began or ended during the last step.
package struct ContactEvent: Sendable, Equatable {
    package var shapeA: ShapeID
    package var shapeB: ShapeID
    /// World point of the deepest manifold point (pt); zero for end events.
    package var point: Vec2
    /// Normal from A to B.
    package var normal: Vec2
    /// Approach speed along the normal when the touch began (pt/s, positive when closing).
    package var approachSpeed: Float
}

/// Orders a shape pair into one 64-bit key: smaller index in the high half.
@inline(__always) func pairKey(_ a: Int32, _ b: Int32) -> UInt64 {
    a < b ? (UInt64(UInt32(a)) << 32) | UInt64(UInt32(b)) : (UInt64(UInt32(b)) << 32) | UInt64(UInt32(a))
}
