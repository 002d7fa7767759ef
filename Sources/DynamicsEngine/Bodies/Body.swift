/// How a body moves.
package enum BodyType: UInt8, Sendable, Codable {
    /// Never moves; infinite mass. Boundaries and anchored items.
    case `static`
    /// Moves only by its velocity; infinite mass; pushes dynamic bodies.
    case kinematic
    /// Moves under forces, contacts and joints.
    case dynamic
}

/// A generation-checked handle to a body: a stale id (of a destroyed body) never reaches a live one.
package struct BodyID: Hashable, Sendable, Codable, Comparable {
    package var index: Int32
    package var generation: UInt32
    package init(index: Int32, generation: UInt32) { self.index = index; self.generation = generation }
    package static let null = BodyID(index: -1, generation: 0)
    package static func < (a: BodyID, b: BodyID) -> Bool { a.index < b.index }
}

/// Everything needed to create a body. Lengths in points, angles in radians, time in seconds.
package struct BodyDef: Sendable {
    package var type: BodyType = .dynamic
    /// Origin of the body (pt).
    package var position: Vec2 = .zero
    /// Rotation (rad).
    package var angle: Float = 0
    /// Velocity of the origin (pt/s).
    package var linearVelocity: Vec2 = .zero
    /// Angular velocity (rad/s).
    package var angularVelocity: Float = 0
    /// Linear damping (1/s): v ← v / (1 + h·c) every sub-step.
    package var linearDamping: Float = 0
    /// Angular damping (1/s).
    package var angularDamping: Float = 0
    /// Multiplies the world's gravity for this body.
    package var gravityScale: Float = 1
    /// A body that may never rotate (infinite rotational inertia).
    package var fixedRotation = false
    /// Whether this body may fall asleep.
    package var enableSleep = true
    /// Starts awake; a body created asleep wakes when touched.
    package var isAwake = true
    /// Opaque tag for the layer above.
    package var userData: Int = 0
    package init() {}
}

/// Per-body state. Hot fields first: the solver copies what it needs into dense per-step arrays,
/// so this struct is read once and written once per step for an awake body.
struct Body: PoolElement {
    // What the narrow phase reads of both bodies of every contact, in the first 64 bytes so a
    // contact costs one cache line per body (declaration order is layout order).
    var transform: Transform = .identity        // origin pose
    var center: Vec2 = .zero                    // centre of mass, world
    /// Index into the awake list (`BodySets.awake`), −1 when asleep or static.
    var awakeIndex: Int32 = -1
    /// Largest distance from the centre of mass to any shape point (pt): turns ω into a speed.
    var maxExtent: Float = 0
    var type: BodyType = .dynamic
    var isFast = false

    // Motion (hot).
    var center0: Vec2 = .zero                   // centre of mass at the start of the step
    var rotation0: Rot = .identity              // rotation at the start of the step
    var localCenter: Vec2 = .zero
    var linearVelocity: Vec2 = .zero
    var angularVelocity: Float = 0
    var force: Vec2 = .zero
    var torque: Float = 0
    var invMass: Float = 0
    var invInertia: Float = 0
    var mass: Float = 0
    var inertia: Float = 0                      // about the centre of mass
    var linearDamping: Float = 0
    var angularDamping: Float = 0
    var gravityScale: Float = 1
    /// Smallest inner radius of the body's shapes (pt): the continuous pass's safety size.
    var minExtent: Float = 0
    var sleepTime: Float = 0

    // Bookkeeping (cold).
    var isAlive = false
    var fixedRotation = false
    var enableSleep = true
    /// Index of the sleeping island that holds the body, −1 when awake.
    var sleepIsland: Int32 = -1
    var headShape: Int32 = -1
    var shapeCount: Int32 = 0
    var headContactKey: Int32 = -1      // contact edge list: (contact << 1) | side
    var contactCount: Int32 = 0
    /// The graph colours its touching contacts hold (bit c for colour c, dynamic bodies only): a
    /// contact keeps its colour from the step it begins touching to the step it stops
    /// (`World.colorTouchingContact`), as in Box2D v3's constraint graph.
    var contactColors: UInt32 = 0
    var headJointKey: Int32 = -1        // joint edge list: (joint << 1) | side
    var jointCount: Int32 = 0
    var userData: Int = 0
}

/// The bodies the last step moved with their poses, written by the step as it finalises each
/// body (Box2D v3's body move events), for `World.collectMovedBodies(into:)`.
///
/// Why: a renderer reads every moved body's pose after every step; read afterwards, that was one
/// more pass over the scattered body records (ui_fields: 10 000 records of 168 bytes, 3 % of its
/// step, on the caller alone), where the finalising pass holds each record already, in parallel.
final class MovedPoses {
    /// Whether steps record the poses (off: a world whose holder does not read them pays nothing).
    var isRecording = false
    /// Per body in the last step's awake list, in its order: the body's user data and pose.
    let poses = ScratchBuffer<MovedBody>()
    /// How many of `poses` the last step wrote.
    var count = 0
    /// Whether `poses` still hold every moved body as it is: false from the start of a step until
    /// its end, and once anything moved or destroyed a body since (then the bodies are read).
    var isCurrent = false
}

/// One body the last step moved (see `World.collectMovedBodies(into:)`).
package struct MovedBody: Sendable {
    /// The body's `BodyDef.userData`.
    package var userData: Int
    /// Where its origin is now, and its rotation.
    package var transform: Transform
}
