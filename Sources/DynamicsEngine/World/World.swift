import Foundation

/// A rigid-body world: bodies, shapes, contacts and joints, stepped with Box2D v3's soft step.
///
/// Storage is data-oriented: bodies, shapes, contacts and joints live in ``SlotPool``s (dense slots
/// with a free list), handed out as generation-checked ids. The awake bodies form a dense
/// list; each step copies their velocities into a packed solver array so the sub-step loops run
/// over contiguous memory. Nothing in a step iterates a `Dictionary` or `Set`: every order is an
/// array order that depends only on the sequence of calls, so the same calls give the same bits.
///
/// The world holds the pools and three parts, each a struct stored inline (no indirection in the
/// step's loops) whose file says what it owns and keeps: `broadPhase` (`BroadPhase`: the pair
/// table, the grids, the proxy lists and the shapes waiting for the pair search), `sets`
/// (`BodySets`: the awake list and the sleeping islands) and `scratch` (`SolverScratch`: the
/// solver's per-step arrays).
///
/// Where things live: each concept's life cycle and accessors in its folder (`Bodies/`, `Shapes/`,
/// `Joints/`, `Contacts/`: `World+…Lifecycle.swift` creates and destroys, `World+….swift` reads
/// and changes); the awake list and sleeping islands in `Islands/` (`updateSleep` in
/// `World+Sleep.swift`); the pair search in `BroadPhase/World+Pairs.swift`; manifolds in
/// `NarrowPhase/World+Collide.swift`; the step's recipe in `World+Step.swift`, its phases in
/// `Solver/World+Solve.swift` over a `StepContext`; storage in `Storage/`; snapshots in `Snapshot/`.
package final class World {
    package let def: WorldDef
    package var gravity: Vec2

    // Derived tolerances (engine units).
    let linearSlop: Float
    let speculativeDistance: Float
    let aabbMargin: Float
    let maxPushSpeed: Float
    let restitutionThreshold: Float
    let maxLinearSpeed: Float
    let sleepThreshold: Float
    /// mass = density × area × massPerAreaScale.
    let massPerAreaScale: Float

    let bodies = SlotPool<Body>()
    let shapes = SlotPool<Shape>()
    let contacts = SlotPool<Contact>()
    let joints = SlotPool<Joint>()
    /// What the step's scan reads of each contact slot, kept beside `contacts` (`ContactKey`).
    let contactKeys = ContactKeys()

    /// The awake list and the sleeping islands.
    var sets = BodySets()
    /// The last step's moved bodies with their poses, when the world's holder has the steps
    /// record them (`recordsMovedBodies`): see `collectMovedBodies(into:)`.
    let moves = MovedPoses()

    /// The pair table, the grids, the proxy lists and what tells them that shapes changed.
    var broadPhase = BroadPhase()
    /// Crowding pairs (`crowdLimit`) the last step's pair search left out: nonzero only in a
    /// heap of deeply overlapping shapes. The animator reads it to say so.
    package var lastStepCrowdLimited: Int { broadPhase.lastStepCrowdLimited }

    /// The contact budget: at most this many crowding pairs per shape (`crowding(_:)`: a dynamic
    /// pair with the other shape at least half as big). Where shapes do not overlap, a shape has
    /// room for few such neighbours — 6 in the pyramids, 14 to 20 in the tumbler, junkyard and
    /// compounds, 29 in ui_rain and 35 to 36 in smash and washer, where fast bodies' fat boxes
    /// stretch over their whole motion (the most any shape reached in each benchmark scene) — so
    /// the budget binds only in a heap of deeply overlapping shapes, where pairs grow as n²/2
    /// (10 000 items on one point: 50 million). There each shape keeps at most 64: the heap's
    /// memory and work per step grow as n, and the pairs it has push it apart until the missing
    /// ones are no longer needed. Box2D bounds its contact arrays the same way, by capacity.
    package static let crowdLimit: Int32 = 64

    /// A pair search stops a query after this many overlapping crowding candidates (kept or not)
    /// in crowded grid buckets (`GridQuery.crowdedBucket`): in a heap every shape overlaps every
    /// other, and reading them all is n² work per step.
    static let crowdScanLimit: Int32 = 2 * crowdLimit

    /// The most crowding pairs any shape has now (for tests: the budget's headroom in a scene).
    package var maximumCrowdCount: Int { Int(broadPhase.pairs.maximumCrowdCount) }

    package internal(set) var beginEvents: [ContactEvent] = []
    package internal(set) var endEvents: [ContactEvent] = []
    /// Steps taken.
    package internal(set) var stepCount = 0
    /// Whether the boxes of shapes that meet nothing may lag their bodies: set by a step that
    /// skipped them (`updateShapeBoxes`), cleared by `refreshStaleBoxes`, which every reader of
    /// boxes calls first.
    var hasStaleBoxes = false
    /// Problems found by the validation walk (empty when valid or not run).
    package internal(set) var validationErrors: [String] = []
    /// Whether steps time their phases into `profile` (off by default: `bench --profile`).
    package var isProfiling = false
    /// The last step's phase times, while `isProfiling`.
    package internal(set) var profile = StepProfile()

    /// Constraints per colour in the last step (slot 0 = overflow), for the benchmark's report.
    package internal(set) var lastColorCounts: [Int] = []

    /// The awake joints' colours and solve order, kept while nothing they depend on changes.
    var jointGraph = KeptJointGraph()

    /// Whether the next step reuses the joints' colours the last one chose (see `KeptJointGraph`).
    package var keepsJointColors: Bool { jointGraph.isCurrent }

    /// Largest polygon vertex count in the world: sizes the narrow phase's scratch space.
    var maxPolygonCount = 8
    /// Threads for the step's parallel loops (WorldDef.workerCount).
    let pool: WorkerPool
    /// The solver phases' per-step arrays, kept for their capacity.
    var scratch = SolverScratch()

    package init(def: WorldDef = WorldDef()) {
        self.def = def
        gravity = def.gravity
        let u = def.lengthUnitsPerMeter > 0 && def.lengthUnitsPerMeter.isFinite ? def.lengthUnitsPerMeter : 100
        linearSlop = 0.005 * u
        speculativeDistance = 4 * linearSlop
        aabbMargin = 0.05 * u   // Box2D v3's B2_MAX_AABB_MARGIN (5 cm)
        maxPushSpeed = def.maxContactPushSpeedMeters * u
        restitutionThreshold = def.restitutionThresholdMeters * u
        maxLinearSpeed = def.maxLinearSpeedMeters * u
        sleepThreshold = def.sleepThresholdMeters * u
        massPerAreaScale = 1 / (u * u)
        precondition(BodyState.layoutIsAsExpected, "BodyState's layout changed: the wide contact solver's loads depend on it")
        pool = WorkerPool(threadCount: def.workerCount)
        if let c = def.cellSize { broadPhase.grid.setCellSize(c); broadPhase.cellSizeChosen = true }
    }

    deinit {
        for s in shapes where s.isAlive { s.polygon?.free() }
    }

    // MARK: Counters

    package var bodyCount: Int { bodies.liveCount }
    package var shapeCount: Int { shapes.liveCount }
    package var jointCount: Int { joints.liveCount }
    /// Contacts whose fat boxes overlap (Box2D's counter), touching or not.
    package var contactCount: Int { contacts.liveCount }
    package var touchingContactCount: Int { contacts.reduce(0) { $0 + ($1.isAlive && $1.isTouching ? 1 : 0) } }
    /// Each touching contact's slot and colour (0 = overflow), in slot order: what the tests of the
    /// kept constraint graph watch.
    package var touchingContactColors: [(slot: Int, color: Int, bodyA: Int, bodyB: Int)] {
        contacts.enumerated().compactMap { i, c in
            c.isAlive && c.isTouching ? (i, Int(c.color), Int(c.bodyA), Int(c.bodyB)) : nil
        }
    }
    /// Overwrites a contact's colour without touching its bodies' marks: a test's forgery of a
    /// broken graph, which `validate()` and a restore of its snapshot must refuse.
    package func forgeContactColor(slot: Int, _ color: Int) {
        contacts[slot].color = UInt8(truncatingIfNeeded: color)
        refreshContactKey(Int32(slot))
    }
    package var awakeBodyCount: Int { sets.awake.reduce(0) { $0 + (bodies[Int($1)].type == .dynamic ? 1 : 0) } }
    /// Whether any dynamic body is awake: `awakeBodyCount > 0`, stopping at the first (the
    /// animator asks twice a step).
    package var hasAwakeDynamicBody: Bool { sets.awake.contains { bodies[Int($0)].type == .dynamic } }
    /// Whether any body sleeps (in a sleep island). O(1).
    package var hasSleepingBody: Bool { sets.sleepIslands.count > sets.freeSleepIslands.count }
    package var cellSize: Float { broadPhase.grid.cellSize }
    /// The lengths of the body, shape, contact and joint arrays, free slots included: what the
    /// world holds in memory (soak tests check that it stops growing).
    package var storageCounts: (bodies: Int, shapes: Int, contacts: Int, joints: Int) {
        (bodies.count, shapes.count, contacts.count, joints.count)
    }

}

/// The two per-side links of a contact or joint in its bodies' edge lists.
struct EdgeLinks {
    var side0: Int32 = -1
    var side1: Int32 = -1
    @inline(__always) func get(_ i: Int) -> Int32 { i == 0 ? side0 : side1 }
    @inline(__always) mutating func set(_ i: Int, _ v: Int32) { if i == 0 { side0 = v } else { side1 = v } }
}
