import Foundation

/// A rigid-body world: bodies, shapes, contacts and joints, stepped with Box2D v3's soft step.
///
/// Storage is data-oriented: bodies, shapes, contacts and joints live in arrays indexed by dense
/// indices with free lists, handed out as generation-checked ids. The awake bodies form a dense
/// list; each step copies their velocities into a packed solver array so the sub-step loops run
/// over contiguous memory. Nothing in a step iterates a `Dictionary` or `Set`: every order is an
/// array order that depends only on the sequence of calls, so the same calls give the same bits.
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

    var bodies: [Body] = []
    var freeBodies: [Int32] = []
    var shapes: [Shape] = []
    var freeShapes: [Int32] = []
    var contacts: [Contact] = []
    var freeContacts: [Int32] = []
    var joints: [Joint] = []
    var freeJoints: [Int32] = []

    /// Dense list of awake (dynamic or kinematic) bodies.
    var awakeBodies: [Int32] = []
    /// Sleeping islands: the bodies that fell asleep together and must wake together.
    var sleepIslands: [[Int32]] = []
    var freeSleepIslands: [Int32] = []

    var pairs = PairTable()
    var grid = UniformGrid()
    var cellSizeChosen = false
    var cellSizeProxyCount = 0
    /// Non-static shapes (indices) in creation order; static shapes.
    var movableProxies: [Int32] = []
    var staticProxies: [Int32] = []
    /// Shapes of kinematic bodies: what the continuous pass sweeps against besides static shapes.
    var kinematicProxies: [Int32] = []
    var proxyListDirty = true
    /// Shapes whose fat box grew since the last pair search.
    var movedProxies: [Int32] = []
    /// The pair search's output buffers, kept between steps for their capacity.
    var pairCandidates = PairCandidates()

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

    package var bodyCount: Int { bodies.count - freeBodies.count }
    package var shapeCount: Int { shapes.count - freeShapes.count }
    package var jointCount: Int { joints.count - freeJoints.count }
    /// Contacts whose fat boxes overlap (Box2D's counter), touching or not.
    package var contactCount: Int { contacts.count - freeContacts.count }
    package var touchingContactCount: Int { contacts.reduce(0) { $0 + ($1.isAlive && $1.isTouching ? 1 : 0) } }
    package var awakeBodyCount: Int { awakeBodies.reduce(0) { $0 + (bodies[Int($1)].type == .dynamic ? 1 : 0) } }
    package var cellSize: Float { grid.cellSize }
    /// The lengths of the body, shape, contact and joint arrays, free slots included: what the
    /// world holds in memory (soak tests check that it stops growing).
    package var storageCounts: (bodies: Int, shapes: Int, contacts: Int, joints: Int) {
        (bodies.count, shapes.count, contacts.count, joints.count)
    }

    // MARK: Bodies

    package func createBody(_ d: BodyDef) -> BodyID {
        var b = Body()
        let pos = d.position.isFinite ? d.position : .zero
        let angle = d.angle.isFinite ? d.angle : 0
        b.transform = Transform(p: pos, q: Rot(angle: angle))
        b.center = pos; b.center0 = pos; b.rotation0 = b.transform.q
        b.type = d.type
        b.linearVelocity = d.type == .static || !d.linearVelocity.isFinite ? .zero : d.linearVelocity
        b.angularVelocity = d.type == .static || !d.angularVelocity.isFinite ? 0 : d.angularVelocity
        b.linearDamping = max(0, d.linearDamping.isFinite ? d.linearDamping : 0)
        b.angularDamping = max(0, d.angularDamping.isFinite ? d.angularDamping : 0)
        b.gravityScale = d.gravityScale.isFinite ? d.gravityScale : 1
        b.fixedRotation = d.fixedRotation
        b.enableSleep = d.enableSleep
        b.userData = d.userData
        b.isAlive = true
        let index: Int32
        if let f = freeBodies.popLast() {
            index = f
            b.generation = bodies[Int(f)].generation &+ 1
            bodies[Int(f)] = b
        } else {
            index = Int32(bodies.count)
            bodies.append(b)
        }
        if d.type != .static {
            if d.isAwake || d.type == .kinematic {
                addToAwake(index)
            } else {
                bodies[Int(index)].isAwake = false
                let island = newSleepIsland([index])
                bodies[Int(index)].sleepIsland = island
            }
        } else {
            bodies[Int(index)].isAwake = false
        }
        return BodyID(index: index, generation: bodies[Int(index)].generation)
    }

    package func isValid(_ id: BodyID) -> Bool {
        id.index >= 0 && Int(id.index) < bodies.count && bodies[Int(id.index)].isAlive && bodies[Int(id.index)].generation == id.generation
    }
    package func isValid(_ id: ShapeID) -> Bool {
        id.index >= 0 && Int(id.index) < shapes.count && shapes[Int(id.index)].isAlive && shapes[Int(id.index)].generation == id.generation
    }
    package func isValid(_ id: JointID) -> Bool {
        id.index >= 0 && Int(id.index) < joints.count && joints[Int(id.index)].isAlive && joints[Int(id.index)].generation == id.generation
    }

    package func destroyBody(_ id: BodyID) {
        guard isValid(id) else { return }
        let bi = Int(id.index)
        wake(bodyIndex: id.index)
        // joints
        var jk = bodies[bi].headJointKey
        while jk >= 0 {
            let j = jk >> 1
            let next = joints[Int(j)].nextKey.get(Int(jk & 1))
            destroyJointInternal(j)
            jk = next
        }
        // contacts (and their shapes' pairs)
        var ck = bodies[bi].headContactKey
        while ck >= 0 {
            let c = ck >> 1
            let next = contacts[Int(c)].nextKey.get(Int(ck & 1))
            destroyContact(c, reportEnd: true)
            ck = next
        }
        var s = bodies[bi].headShape
        while s >= 0 {
            let next = shapes[Int(s)].nextShape
            freeShape(s)
            s = next
        }
        removeFromAwake(id.index)
        if bodies[bi].sleepIsland >= 0 { removeFromSleepIsland(id.index) }
        bodies[bi].isAlive = false
        bodies[bi].headShape = -1
        freeBodies.append(id.index)
        proxyListDirty = true
    }

    // MARK: Shapes

    /// Creates a shape; returns nil (and changes nothing) for degenerate or non-finite geometry.
    @discardableResult
    package func createShape(on body: BodyID, _ d: ShapeDef, _ geometry: ShapeGeometry) -> ShapeID? {
        guard isValid(body) else { return nil }
        var s = Shape()
        switch geometry {
        case let .circle(center, radius):
            guard center.isFinite, radius.isFinite, radius > 0 else { return nil }
            s.kind = .circle; s.p1 = center; s.radius = radius
        case let .segment(a, b):
            guard a.isFinite, b.isFinite, distanceSquared(a, b) > linearSlop * linearSlop else { return nil }
            s.kind = .segment; s.p1 = a; s.p2 = b
        case let .box(hw, hh, center, angle):
            guard hw.isFinite, hh.isFinite, hw > 0, hh > 0, center.isFinite, angle.isFinite else { return nil }
            let xf = Transform(p: center, q: Rot(angle: angle))
            let pts = [Vec2(-hw, -hh), Vec2(hw, -hh), Vec2(hw, hh), Vec2(-hw, hh)].map { xf.apply($0) }
            s.kind = .polygon; s.polygon = PolygonStore(points: pts)
        case let .polygon(points):
            let hull = convexHull(points, weldTolerance: 0.5 * linearSlop)
            guard hull.count >= 3 else { return nil }
            s.kind = .polygon; s.polygon = PolygonStore(points: hull)
            maxPolygonCount = max(maxPolygonCount, hull.count)
        }
        let dens = d.density.isFinite ? max(0, d.density) : 1
        s.density = dens
        s.friction = d.friction.isFinite ? max(0, d.friction) : 0.6
        s.restitution = d.restitution.isFinite ? max(0, d.restitution) : 0
        s.filter = d.filter
        s.enableContactEvents = d.enableContactEvents
        s.usesOtherMaterial = d.usesOtherMaterial
        s.userData = d.userData
        s.body = body.index
        s.isAlive = true
        let bi = Int(body.index)
        s.isStaticProxy = bodies[bi].type == .static
        s.aabb = s.computeAABB(bodies[bi].transform)
        s.fatAABB = s.isStaticProxy ? s.aabb : s.aabb.inflated(by: margin(for: s.aabb))
        s.enlarged = true
        s.nextShape = bodies[bi].headShape
        let index: Int32
        if let f = freeShapes.popLast() {
            index = f
            s.generation = shapes[Int(f)].generation &+ 1
            shapes[Int(f)] = s
        } else {
            index = Int32(shapes.count)
            shapes.append(s)
        }
        bodies[bi].headShape = index
        bodies[bi].shapeCount += 1
        movedProxies.append(index)
        proxyListDirty = true
        if s.isStaticProxy { grid.staticDirty = true }
        updateMass(bi)
        return ShapeID(index: index, generation: shapes[Int(index)].generation)
    }

    package func destroyShape(_ id: ShapeID) {
        guard isValid(id) else { return }
        let si = id.index
        let bi = Int(shapes[Int(si)].body)
        wake(bodyIndex: Int32(bi))
        // contacts of this shape
        var ck = bodies[bi].headContactKey
        while ck >= 0 {
            let c = ck >> 1
            let next = contacts[Int(c)].nextKey.get(Int(ck & 1))
            if contacts[Int(c)].shapeA == si || contacts[Int(c)].shapeB == si { destroyContact(c, reportEnd: true) }
            ck = next
        }
        // unlink from the body
        var prev: Int32 = -1
        var s = bodies[bi].headShape
        while s >= 0 {
            if s == si {
                if prev < 0 { bodies[bi].headShape = shapes[Int(s)].nextShape } else { shapes[Int(prev)].nextShape = shapes[Int(s)].nextShape }
                break
            }
            prev = s
            s = shapes[Int(s)].nextShape
        }
        bodies[bi].shapeCount -= 1
        freeShape(si)
        updateMass(bi)
    }

    private func freeShape(_ si: Int32) {
        if shapes[Int(si)].isStaticProxy { grid.staticDirty = true }
        shapes[Int(si)].polygon?.free()
        shapes[Int(si)].polygon = nil
        shapes[Int(si)].isAlive = false
        freeShapes.append(si)
        proxyListDirty = true
    }

    func margin(for box: AABB) -> Float {
        min(aabbMargin, 0.125 * max(box.width, box.height))
    }

    /// Recomputes mass, centre of mass and inertia from the shapes (uniform density per shape).
    func updateMass(_ bi: Int) {
        var b = bodies[bi]
        b.mass = 0; b.invMass = 0; b.inertia = 0; b.invInertia = 0
        b.localCenter = .zero
        b.minExtent = .greatestFiniteMagnitude
        b.maxExtent = 0
        if b.type != .dynamic {
            b.center = b.transform.p
            b.minExtent = 0
            var s = b.headShape
            while s >= 0 { b.maxExtent = max(b.maxExtent, shapes[Int(s)].extent(from: .zero)); s = shapes[Int(s)].nextShape }
            bodies[bi] = b
            return
        }
        var mass: Float = 0, rot: Float = 0, lc = Vec2.zero
        var s = b.headShape
        while s >= 0 {
            let sh = shapes[Int(s)]
            if sh.density > 0 {
                let md = sh.massData(massPerArea: sh.density * massPerAreaScale)
                mass += md.mass
                lc += md.mass * md.center
                rot += md.rotationalInertia
            }
            b.minExtent = min(b.minExtent, sh.innerRadius())
            s = sh.nextShape
        }
        if mass > 0 && mass.isFinite {
            b.mass = mass
            b.invMass = 1 / mass
            lc = (1 / mass) * lc
        } else {
            // A dynamic body needs mass: fall back to 1 so it still moves sensibly.
            b.mass = 1; b.invMass = 1
        }
        if rot > 0 && !b.fixedRotation {
            b.inertia = rot - b.mass * dot(lc, lc)
            if b.inertia > 0 && b.inertia.isFinite { b.invInertia = 1 / b.inertia } else { b.inertia = 0; b.invInertia = 0 }
        }
        let oldCenter = b.center
        b.localCenter = lc
        b.center = b.transform.apply(lc)
        b.center0 = b.center
        // keep the velocity of the centre of mass consistent with the origin's
        b.linearVelocity += cross(b.angularVelocity, b.center - oldCenter)
        s = b.headShape
        while s >= 0 { b.maxExtent = max(b.maxExtent, shapes[Int(s)].extent(from: lc)); s = shapes[Int(s)].nextShape }
        if b.minExtent == .greatestFiniteMagnitude { b.minExtent = 0 }
        bodies[bi] = b
    }

    // MARK: Joints

    @discardableResult
    package func createJoint(_ d: JointDef) -> JointID? {
        guard isValid(d.bodyA), isValid(d.bodyB), d.bodyA != d.bodyB else { return nil }
        var j = Joint()
        j.def = d
        j.def.localAxisA = d.localAxisA.normalized
        if j.def.localAxisA == .zero { j.def.localAxisA = Vec2(1, 0) }
        j.bodyA = d.bodyA.index; j.bodyB = d.bodyB.index
        j.isAlive = true
        let index: Int32
        if let f = freeJoints.popLast() {
            index = f
            j.generation = joints[Int(f)].generation &+ 1
            joints[Int(f)] = j
        } else {
            index = Int32(joints.count)
            joints.append(j)
        }
        linkJoint(index)
        // joined bodies must not keep a contact they no longer want
        if !d.collideConnected { destroyContactsBetween(d.bodyA.index, d.bodyB.index) }
        wake(bodyIndex: d.bodyA.index); wake(bodyIndex: d.bodyB.index)
        return JointID(index: index, generation: joints[Int(index)].generation)
    }

    package func destroyJoint(_ id: JointID) {
        guard isValid(id) else { return }
        let j = joints[Int(id.index)]
        wake(bodyIndex: j.bodyA); wake(bodyIndex: j.bodyB)
        destroyJointInternal(id.index)
        // the bodies may collide again: let their shapes look for pairs
        if !j.def.collideConnected { markShapesMoved(j.bodyA); markShapesMoved(j.bodyB) }
    }

    func markShapesMoved(_ bi: Int32) {
        var s = bodies[Int(bi)].headShape
        while s >= 0 {
            if !shapes[Int(s)].enlarged { shapes[Int(s)].enlarged = true; movedProxies.append(s) }
            s = shapes[Int(s)].nextShape
        }
    }

    private func destroyJointInternal(_ ji: Int32) {
        unlinkJoint(ji)
        joints[Int(ji)].isAlive = false
        freeJoints.append(ji)
    }

    private func linkJoint(_ ji: Int32) {
        let j = joints[Int(ji)]
        for side in 0..<2 {
            let bi = Int(side == 0 ? j.bodyA : j.bodyB)
            let key = (ji << 1) | Int32(side)
            let head = bodies[bi].headJointKey
            joints[Int(ji)].prevKey.set(side, -1)
            joints[Int(ji)].nextKey.set(side, head)
            if head >= 0 { joints[Int(head >> 1)].prevKey.set(Int(head & 1), key) }
            bodies[bi].headJointKey = key
            bodies[bi].jointCount += 1
        }
        grid.movableDirty = true   // the bodies' entries record whether they have joints
    }

    private func unlinkJoint(_ ji: Int32) {
        let j = joints[Int(ji)]
        for side in 0..<2 {
            let bi = Int(side == 0 ? j.bodyA : j.bodyB)
            let prev = j.prevKey.get(side), next = j.nextKey.get(side)
            if prev >= 0 { joints[Int(prev >> 1)].nextKey.set(Int(prev & 1), next) } else { bodies[bi].headJointKey = next }
            if next >= 0 { joints[Int(next >> 1)].prevKey.set(Int(next & 1), prev) }
            bodies[bi].jointCount -= 1
        }
        grid.movableDirty = true
    }

    /// Whether a joint that disables collision links the two bodies.
    func jointPreventsCollision(_ a: Int32, _ b: Int32) -> Bool {
        let (x, y) = bodies[Int(a)].jointCount <= bodies[Int(b)].jointCount ? (a, b) : (b, a)
        var k = bodies[Int(x)].headJointKey
        while k >= 0 {
            let j = joints[Int(k >> 1)]
            let other = (k & 1) == 0 ? j.bodyB : j.bodyA
            if other == y && !j.def.collideConnected { return true }
            k = j.nextKey.get(Int(k & 1))
        }
        return false
    }

    // MARK: Contacts

    func createContact(_ sa: Int32, _ sb: Int32) {
        var shapeA = shapes[Int(sa)], shapeB = shapes[Int(sb)]
        var a = sa, b = sb
        if shapeA.kind.rawValue < shapeB.kind.rawValue { swap(&a, &b); swap(&shapeA, &shapeB) }
        var c = Contact()
        c.shapeA = a; c.shapeB = b
        c.bodyA = shapeA.body; c.bodyB = shapeB.body
        (c.friction, c.restitution) = mixedMaterial(shapeA, shapeB)
        c.enableContactEvents = shapeA.enableContactEvents || shapeB.enableContactEvents
        c.isAlive = true
        c.pairKey = pairKey(a, b)
        let index: Int32
        if let f = freeContacts.popLast() { index = f; contacts[Int(f)] = c } else { index = Int32(contacts.count); contacts.append(c) }
        pairs.insert(c.pairKey, index)
        // Linked over raw buffers: each subscript write to a class's array property is a dynamic
        // exclusivity check, and pair searches create contacts by the thousand.
        contacts.withUnsafeMutableBufferPointer { cs in
            bodies.withUnsafeMutableBufferPointer { bs in
                for side in 0..<2 {
                    let bi = Int(side == 0 ? c.bodyA : c.bodyB)
                    let key = (index << 1) | Int32(side)
                    let head = bs[bi].headContactKey
                    cs[Int(index)].prevKey.set(side, -1)
                    cs[Int(index)].nextKey.set(side, head)
                    if head >= 0 { cs[Int(head >> 1)].prevKey.set(Int(head & 1), key) }
                    bs[bi].headContactKey = key
                    bs[bi].contactCount += 1
                }
            }
        }
    }

    /// Friction √(f₁f₂) and restitution max(e₁, e₂), unless one side defers to the other's material.
    func mixedMaterial(_ a: Shape, _ b: Shape) -> (Float, Float) {
        if a.usesOtherMaterial && !b.usesOtherMaterial { return (b.friction, b.restitution) }
        if b.usesOtherMaterial && !a.usesOtherMaterial { return (a.friction, a.restitution) }
        return ((a.friction * b.friction).squareRoot(), max(a.restitution, b.restitution))
    }

    func destroyContact(_ ci: Int32, reportEnd: Bool) {
        let c = contacts[Int(ci)]
        if reportEnd && c.isTouching && c.enableContactEvents {
            endEvents.append(ContactEvent(shapeA: shapeID(c.shapeA), shapeB: shapeID(c.shapeB), point: .zero, normal: c.manifold.normal, approachSpeed: 0))
        }
        pairs.remove(c.pairKey)
        contacts.withUnsafeMutableBufferPointer { cs in
            bodies.withUnsafeMutableBufferPointer { bs in
                for side in 0..<2 {
                    let bi = Int(side == 0 ? c.bodyA : c.bodyB)
                    let prev = c.prevKey.get(side), next = c.nextKey.get(side)
                    if prev >= 0 { cs[Int(prev >> 1)].nextKey.set(Int(prev & 1), next) } else { bs[bi].headContactKey = next }
                    if next >= 0 { cs[Int(next >> 1)].prevKey.set(Int(next & 1), prev) }
                    bs[bi].contactCount -= 1
                }
                cs[Int(ci)].isAlive = false
                cs[Int(ci)].isTouching = false
            }
        }
        freeContacts.append(ci)
    }

    func destroyContactsBetween(_ a: Int32, _ b: Int32) {
        var ck = bodies[Int(a)].headContactKey
        while ck >= 0 {
            let c = ck >> 1
            let next = contacts[Int(c)].nextKey.get(Int(ck & 1))
            let other = (ck & 1) == 0 ? contacts[Int(c)].bodyB : contacts[Int(c)].bodyA
            if other == b { destroyContact(c, reportEnd: true) }
            ck = next
        }
    }

    func shapeID(_ i: Int32) -> ShapeID { ShapeID(index: i, generation: shapes[Int(i)].generation) }
    func bodyID(_ i: Int32) -> BodyID { BodyID(index: i, generation: bodies[Int(i)].generation) }

    // MARK: Awake list and sleeping islands

    func addToAwake(_ bi: Int32) {
        guard bodies[Int(bi)].awakeIndex < 0 else { return }
        bodies[Int(bi)].awakeIndex = Int32(awakeBodies.count)
        bodies[Int(bi)].isAwake = true
        awakeBodies.append(bi)
    }

    func removeFromAwake(_ bi: Int32) {
        let ai = Int(bodies[Int(bi)].awakeIndex)
        guard ai >= 0 else { return }
        let last = awakeBodies.removeLast()
        if ai < awakeBodies.count {
            awakeBodies[ai] = last
            bodies[Int(last)].awakeIndex = Int32(ai)
        }
        bodies[Int(bi)].awakeIndex = -1
        bodies[Int(bi)].isAwake = false
    }

    func newSleepIsland(_ members: [Int32]) -> Int32 {
        if let f = freeSleepIslands.popLast() { sleepIslands[Int(f)] = members; return f }
        sleepIslands.append(members)
        return Int32(sleepIslands.count - 1)
    }

    func removeFromSleepIsland(_ bi: Int32) {
        let isl = Int(bodies[Int(bi)].sleepIsland)
        guard isl >= 0 else { return }
        if let k = sleepIslands[isl].firstIndex(of: bi) { sleepIslands[isl].remove(at: k) }
        bodies[Int(bi)].sleepIsland = -1
        if sleepIslands[isl].isEmpty { freeSleepIslands.append(Int32(isl)) }
    }

    /// Wakes the body and every body that fell asleep with it.
    func wake(bodyIndex bi: Int32) {
        guard bi >= 0, Int(bi) < bodies.count else { return }
        let b = bodies[Int(bi)]
        guard b.isAlive, b.type != .static else { return }
        if b.awakeIndex >= 0 { bodies[Int(bi)].sleepTime = 0; return }
        let isl = Int(b.sleepIsland)
        if isl >= 0 {
            let members = sleepIslands[isl]
            sleepIslands[isl] = []
            freeSleepIslands.append(Int32(isl))
            for m in members {
                bodies[Int(m)].sleepIsland = -1
                bodies[Int(m)].sleepTime = 0
                addToAwake(m)
            }
        } else {
            bodies[Int(bi)].sleepTime = 0
            addToAwake(bi)
        }
    }
}

/// The two per-side links of a contact or joint in its bodies' edge lists.
struct EdgeLinks: Codable {
    var side0: Int32 = -1
    var side1: Int32 = -1
    @inline(__always) func get(_ i: Int) -> Int32 { i == 0 ? side0 : side1 }
    @inline(__always) mutating func set(_ i: Int, _ v: Int32) { if i == 0 { side0 = v } else { side1 = v } }
}
