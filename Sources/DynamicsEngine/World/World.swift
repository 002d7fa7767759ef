import Foundation

/// A rigid-body world: bodies, shapes, contacts and joints, stepped with Box2D v3's soft step.
///
/// Storage is data-oriented: bodies, shapes, contacts and joints live in ``SlotPool``s (dense slots
/// with a free list), handed out as generation-checked ids. The awake bodies form a dense
/// list; each step copies their velocities into a packed solver array so the sub-step loops run
/// over contiguous memory. Nothing in a step iterates a `Dictionary` or `Set`: every order is an
/// array order that depends only on the sequence of calls, so the same calls give the same bits.
///
/// Where things live: each concept's life cycle and accessors in its folder (`Bodies/`, `Shapes/`,
/// `Joints/`, `Contacts/`: `World+…Lifecycle.swift` creates and destroys, `World+….swift` reads
/// and changes); the awake list and sleeping islands in `Islands/`; the pair search in
/// `BroadPhase/World+Pairs.swift`; manifolds in `NarrowPhase/World+Collide.swift`; the step's
/// recipe in `World+Step.swift`, its phases in `World+Solve.swift` over a `StepContext`; storage in
/// `Storage/`; snapshots in `Snapshot/`.
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

    /// Dense list of awake (dynamic or kinematic) bodies.
    var awakeBodies: [Int32] = []
    /// The bodies the last step moved: `awakeBodies` as it was when the step solved them (a body
    /// that fell asleep at the end of the step moved in it too). Box2D's body move events.
    var movedBodies: [Int32] = []
    /// Sleeping islands: the bodies that fell asleep together and must wake together.
    var sleepIslands: [[Int32]] = []
    var freeSleepIslands: [Int32] = []

    var pairs = PairTable()
    var grid = UniformGrid()
    var cellSizeChosen = false
    var cellSizeProxyCount = 0
    /// Non-static shapes (indices) in creation order.
    var movableProxies: [Int32] = []
    /// Shapes of kinematic bodies: what the continuous pass sweeps against besides static shapes.
    var kinematicProxies: [Int32] = []
    /// Set when the non-static shapes change (made or destroyed, body types, filters): the lists
    /// above are rebuilt from all shapes. Static shapes are not in a list: they are noted one by
    /// one (`noteStaticChange`), for the grid's static layer, the segment joins and the query grid.
    var proxyListDirty = true { didSet { if proxyListDirty { shapeListVersion &+= 1 } } }
    /// Static shapes made, destroyed or changed since the last pair search: the grid's static
    /// layer takes them out and puts them back one by one (`UniformGrid.updateStatic`).
    var staticChanges: [Int32] = []
    /// Per shape slot: the ghost vertices of static segments (`WorldDef.smoothSegmentJoins`);
    /// empty when there are none. Brought up to date before the narrow phase.
    var segmentGhosts: [SegmentGhosts] = []
    /// Set when every ghost must be found again (a restore, a body type change); otherwise the
    /// static segments noted in `segmentJoins` are updated with their neighbours only.
    var segmentGhostsDirty = true
    /// The static segments by end point, for `segmentGhosts`.
    var segmentJoins = SegmentJoinIndex()
    /// Goes up whenever `proxyListDirty` is set: the query grid rebuilds when it differs from the
    /// one it was built at (static shapes it takes one by one, see `QueryIndex`).
    var shapeListVersion: UInt64 = 0
    /// The grid of the point, box and ray queries (`Queries/`); built by the first query.
    var queryIndex = QueryIndex()
    /// Shapes whose fat box grew since the last pair search.
    var movedProxies: [Int32] = []
    /// The pair search's output buffers, kept between steps for their capacity.
    var pairCandidates = PairCandidates()
    /// Crowding pairs (`crowdLimit`) the last step's pair search left out: nonzero only in a
    /// heap of deeply overlapping shapes. The animator reads it to say so.
    package internal(set) var lastStepCrowdLimited = 0

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
    package var maximumCrowdCount: Int { Int(pairs.maximumCrowdCount) }

    package internal(set) var beginEvents: [ContactEvent] = []
    package internal(set) var endEvents: [ContactEvent] = []
    /// Steps taken.
    package internal(set) var stepCount = 0
    /// Problems found by the validation walk (empty when valid or not run).
    package internal(set) var validationErrors: [String] = []
    /// Whether steps time their phases into `profile` (off by default: `bench --profile`).
    package var isProfiling = false
    /// The last step's phase times, while `isProfiling`.
    package internal(set) var profile = StepProfile()

    /// Constraints per colour in the last step (slot 0 = overflow), for the benchmark's report.
    package internal(set) var lastColorCounts: [Int] = []

    /// Largest polygon vertex count in the world: sizes the narrow phase's scratch space.
    var maxPolygonCount = 8
    /// Threads for the step's parallel loops (WorldDef.workerCount).
    let pool: WorkerPool
    let stateBuffer = ScratchBuffer<BodyState>()
    let simBuffer = ScratchBuffer<BodyStepData>()
    /// The awake joints' solver records, in solve order.
    let jointSimBuffer = ScratchBuffer<JointSim>()
    /// The step's touching contacts in solve order (overflow, then colour by colour), with what
    /// their preparation reads.
    let orderedContactBuffer = ScratchBuffer<ContactInput>()
    /// The same contacts in contact order, before sorting by colour; `updateSleep` walks them too.
    let solvedContactBuffer = ScratchBuffer<SolvedContact>()
    /// The solved contacts' impulses, in the order of `solvedContactBuffer`.
    let solvedImpulseBuffer = ScratchBuffer<SolvedImpulses>()
    /// How many entries of `solvedContactBuffer` the last solve wrote, or −1 once the step is over
    /// (awake indices are only valid within a step).
    var solvedContactCount = -1
    /// The colour slot of each touching contact, in contact order.
    let contactColorBuffer = ScratchBuffer<Int32>()
    /// Overflow contacts, prepared as scalar constraints.
    let overflowBuffer = ScratchBuffer<ContactConstraint>()
    /// Coloured contacts, prepared four lanes wide.
    let wideBuffer = ScratchBuffer<WideContact>()
    /// For each wide constraint: where its first lane's contact is in the solve order.
    let wideFirstBuffer = ScratchBuffer<Int32>()
    /// Elastic contacts for the impact pass (`resolveImpactChains`).
    let impactBuffer = ScratchBuffer<Impact>()
    /// Per awake body: elastic contacts with other dynamic bodies (capped at 2), then the sweep
    /// that last changed its velocity.
    let impactBodyBuffer = ScratchBuffer<ImpactBody>()

    package init(def: WorldDef = WorldDef()) {
        self.def = def
        gravity = def.gravity
        let u = def.lengthUnitsPerMeter > 0 && def.lengthUnitsPerMeter.isFinite ? def.lengthUnitsPerMeter : 100
        linearSlop = 0.005 * u
        speculativeDistance = 4 * linearSlop
        aabbMargin = 0.1 * u
        maxPushSpeed = def.maxContactPushSpeedMeters * u
        restitutionThreshold = def.restitutionThresholdMeters * u
        maxLinearSpeed = def.maxLinearSpeedMeters * u
        sleepThreshold = def.sleepThresholdMeters * u
        massPerAreaScale = 1 / (u * u)
        precondition(BodyState.layoutIsAsExpected, "BodyState's layout changed: the wide contact solver's loads depend on it")
        pool = WorkerPool(threadCount: def.workerCount)
        if let c = def.cellSize { grid.setCellSize(c); cellSizeChosen = true }
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
    package var awakeBodyCount: Int { awakeBodies.reduce(0) { $0 + (bodies[Int($1)].type == .dynamic ? 1 : 0) } }
    /// Whether any dynamic body is awake: `awakeBodyCount > 0`, stopping at the first (the
    /// animator asks twice a step).
    package var hasAwakeDynamicBody: Bool { awakeBodies.contains { bodies[Int($0)].type == .dynamic } }
    package var cellSize: Float { grid.cellSize }
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
