// Reading and changing live bodies through their ids: every call checks the id first.

extension World {
    // MARK: Reading bodies

    package func bodyType(_ id: BodyID) -> BodyType { isValid(id) ? bodies[Int(id.index)].type : .static }
    /// Origin position (pt).
    package func position(_ id: BodyID) -> Vec2 { isValid(id) ? bodies[Int(id.index)].transform.p : .zero }
    /// Centre of mass, world (pt).
    package func worldCenter(_ id: BodyID) -> Vec2 { isValid(id) ? bodies[Int(id.index)].center : .zero }
    /// Rotation (rad), in (−π, π].
    package func angle(_ id: BodyID) -> Float { isValid(id) ? bodies[Int(id.index)].transform.q.angle : 0 }
    package func transform(_ id: BodyID) -> Transform { isValid(id) ? bodies[Int(id.index)].transform : .identity }
    /// Velocity of the centre of mass (pt/s).
    package func linearVelocity(_ id: BodyID) -> Vec2 { isValid(id) ? bodies[Int(id.index)].linearVelocity : .zero }
    /// rad/s.
    package func angularVelocity(_ id: BodyID) -> Float { isValid(id) ? bodies[Int(id.index)].angularVelocity : 0 }
    /// Mass (mass units: density × area / lengthUnitsPerMeter²).
    package func mass(_ id: BodyID) -> Float { isValid(id) ? bodies[Int(id.index)].mass : 0 }
    /// Rotational inertia about the centre of mass (mass·pt²).
    package func rotationalInertia(_ id: BodyID) -> Float { isValid(id) ? bodies[Int(id.index)].inertia : 0 }
    package func localCenter(_ id: BodyID) -> Vec2 { isValid(id) ? bodies[Int(id.index)].localCenter : .zero }
    package func isAwake(_ id: BodyID) -> Bool { isValid(id) && bodies[Int(id.index)].awakeIndex >= 0 }
    package func sleepTime(_ id: BodyID) -> Float { isValid(id) ? bodies[Int(id.index)].sleepTime : 0 }
    /// Replaces the contents of `out` with the bodies the last step moved (every body awake while it
    /// ran, kinematic ones too), in the order it solved them: what a renderer writes back, without
    /// visiting the bodies that slept. Empty before the first step and after a step that did not run.
    ///
    /// When the steps record the poses (`recordsMovedBodies`) and nothing moved or destroyed a body
    /// since, this copies the step's record; else it reads the bodies.
    package func collectMovedBodies(into out: inout [MovedBody]) {
        out.removeAll(keepingCapacity: true)
        if moves.isCurrent {
            out.append(contentsOf: UnsafeBufferPointer(start: moves.poses.pointer, count: moves.count))
            assert(matchesMovedBodies(out), "the step's record of the moved bodies differs from the bodies")
            return
        }
        readMovedBodies(into: &out)
    }

    /// `collectMovedBodies(into:)` from the bodies themselves.
    private func readMovedBodies(into out: inout [MovedBody]) {
        out.reserveCapacity(sets.moved.count)
        let base = bodies.base
        for bi in sets.moved where Int(bi) < bodies.count {
            let b = base[Int(bi)]
            guard b.isAlive else { continue }   // destroyed since the step
            out.append(MovedBody(userData: b.userData, transform: b.transform))
        }
    }

    /// Whether `list` is what the bodies say the last step moved, bit for bit (debug checks).
    private func matchesMovedBodies(_ list: [MovedBody]) -> Bool {
        var read: [MovedBody] = []
        readMovedBodies(into: &read)
        return read.count == list.count && zip(read, list).allSatisfy { a, b in
            a.userData == b.userData && a.transform.p.x.bitPattern == b.transform.p.x.bitPattern
                && a.transform.p.y.bitPattern == b.transform.p.y.bitPattern
                && a.transform.q.c.bitPattern == b.transform.q.c.bitPattern
                && a.transform.q.s.bitPattern == b.transform.q.s.bitPattern
        }
    }

    /// Whether each step records the poses of the bodies it moves as it finalises them, for
    /// `collectMovedBodies(into:)` to copy. Default false; the animator's world sets it (its
    /// write-back reads them after every step).
    package var recordsMovedBodies: Bool {
        get { moves.isRecording }
        set {
            moves.isRecording = newValue
            moves.isCurrent = false
        }
    }

    package func userData(_ id: BodyID) -> Int { isValid(id) ? bodies[Int(id.index)].userData : 0 }
    package func userData(_ id: ShapeID) -> Int { isValid(id) ? shapes[Int(id.index)].userData : 0 }
    package func body(of shape: ShapeID) -> BodyID { isValid(shape) ? bodyID(shapes[Int(shape.index)].body) : .null }
    /// The world velocity of a point fixed to the body (pt/s).
    package func velocity(_ id: BodyID, atWorldPoint p: Vec2) -> Vec2 {
        guard isValid(id) else { return .zero }
        let b = bodies[Int(id.index)]
        return b.linearVelocity + cross(b.angularVelocity, p - b.center)
    }

    // MARK: Changing bodies (each wakes the body)

    /// Teleports the origin (pt) and rotation (rad). Non-finite input is ignored.
    package func setTransform(_ id: BodyID, position: Vec2, angle: Float) {
        guard isValid(id), position.isFinite, angle.isFinite else { return }
        moves.isCurrent = false
        let bi = Int(id.index)
        var b = bodies[bi]
        b.transform = Transform(p: position, q: Rot(angle: angle))
        b.center = b.transform.apply(b.localCenter)
        b.center0 = b.center
        b.rotation0 = b.transform.q
        bodies[bi] = b
        refreshShapeBoxes(bi)
        wake(bodyIndex: id.index)
    }

    func refreshShapeBoxes(_ bi: Int) {
        let xf = bodies[bi].transform
        var s = bodies[bi].headShape
        while s >= 0 {
            let si = Int(s)
            let box = shapes[si].computeAABB(xf)
            shapes[si].aabb = box
            if shapes[si].isStaticProxy {
                shapes[si].fatAABB = box
                noteStaticChange(s)
            } else if !World.fatBox(shapes[si].fatAABB, covers: box, speculative: speculativeDistance) {
                shapes[si].fatAABB = fatBox(for: box)
            }
            if !shapes[si].enlarged { shapes[si].enlarged = true; broadPhase.movedProxies.append(s) }
            noteTeleportForQueries(s)
            s = shapes[si].nextShape
        }
    }

    package func setLinearVelocity(_ id: BodyID, _ v: Vec2) {
        guard isValid(id), v.isFinite, bodies[Int(id.index)].type != .static else { return }
        bodies[Int(id.index)].linearVelocity = v
        if v != .zero { wake(bodyIndex: id.index) }
    }

    package func setAngularVelocity(_ id: BodyID, _ w: Float) {
        guard isValid(id), w.isFinite, bodies[Int(id.index)].type != .static else { return }
        if bodies[Int(id.index)].fixedRotation && bodies[Int(id.index)].type == .dynamic { return }
        bodies[Int(id.index)].angularVelocity = w
        if w != 0 { wake(bodyIndex: id.index) }
    }

    /// Adds a force (mass·pt/s²) at a world point for the next step.
    package func applyForce(_ id: BodyID, _ f: Vec2, at point: Vec2, wake: Bool = true) {
        guard isValid(id), f.isFinite, point.isFinite, bodies[Int(id.index)].type == .dynamic else { return }
        if wake { self.wake(bodyIndex: id.index) }
        guard bodies[Int(id.index)].awakeIndex >= 0 else { return }
        bodies[Int(id.index)].force += f
        bodies[Int(id.index)].torque += cross(point - bodies[Int(id.index)].center, f)
    }

    package func applyForceToCenter(_ id: BodyID, _ f: Vec2, wake: Bool = true) {
        guard isValid(id), f.isFinite, bodies[Int(id.index)].type == .dynamic else { return }
        if wake { self.wake(bodyIndex: id.index) }
        guard bodies[Int(id.index)].awakeIndex >= 0 else { return }
        bodies[Int(id.index)].force += f
    }

    /// Adds mass × (`ax`, `ay`) (an acceleration in pt/s², given in `Double`) to the force of every
    /// awake dynamic body of `ids` for the next step, waking none: gravity on a crowd of items in
    /// one call, where a call per item cost four id checks. Each product is formed in `Double` and
    /// rounded to `Float`, as the caller's own arithmetic would round it. Returns the positions in
    /// `ids` whose force came out non-finite; those bodies are left unchanged.
    package func applyAcceleration(x ax: Double, y ay: Double, to ids: [BodyID]) -> [Int] {
        var rejected: [Int] = []
        let bp = bodies.base
        for (k, id) in ids.enumerated() where isValid(id) {
            let b = bp + Int(id.index)
            guard b.pointee.type == .dynamic, b.pointee.awakeIndex >= 0 else { continue }
            let m = Double(b.pointee.mass)
            let f = Vec2(Float(m * ax), Float(m * ay))
            guard f.isFinite else { rejected.append(k); continue }
            b.pointee.force += f
        }
        return rejected
    }

    /// The motion of each body of `ids[range]`, written as `Double`s into the columns at the same
    /// indices: the origin's position (pt), the centre of mass's velocity (pt/s) and the mass (0
    /// for a body that cannot take a force now: invalid, asleep, or not dynamic). One call for a
    /// force field over a crowd, where a call per quantity per item cost an id check each. Reads
    /// only, so several ranges of one crowd may be read at once on several threads.
    package func readMotion(
        of ids: UnsafeBufferPointer<BodyID>, _ range: Range<Int>,
        x: UnsafeMutablePointer<Double>, y: UnsafeMutablePointer<Double>,
        vx: UnsafeMutablePointer<Double>, vy: UnsafeMutablePointer<Double>, mass: UnsafeMutablePointer<Double>,
        fx: UnsafeMutablePointer<Float>? = nil, fy: UnsafeMutablePointer<Float>? = nil
    ) {
        let bp = bodies.base
        for k in range {
            let id = ids[k]
            guard isValid(id) else {
                x[k] = 0; y[k] = 0; vx[k] = 0; vy[k] = 0; mass[k] = 0
                fx?[k] = 0; fy?[k] = 0
                continue
            }
            let b = bp + Int(id.index)
            let movable = b.pointee.type == .dynamic && b.pointee.awakeIndex >= 0
            let p = b.pointee.transform.p, v = b.pointee.linearVelocity
            x[k] = Double(p.x); y[k] = Double(p.y)
            vx[k] = Double(v.x); vy[k] = Double(v.y)
            mass[k] = Double(movable ? b.pointee.mass : 0)
            // the force lies on the same cache line as the velocity and the mass
            fx?[k] = b.pointee.force.x; fy?[k] = b.pointee.force.y
        }
    }

    /// Sets the force (mass·pt/s²) of each body of `ids[range]` that is awake and dynamic to
    /// (`fx[k]`, `fy[k]`), and restarts its sleep timer where `restart[k]` (clearing the flag): the
    /// forces a crowd read with ``readMotion(of:_:x:y:vx:vy:mass:fx:fy:)`` and added to since, and
    /// the timers its fields keep running, written once for several fields. A non-finite pair, an
    /// invalid id and a body asleep or not dynamic are skipped. When no body appears twice in
    /// `ids`, several ranges may be stored at once on several threads.
    package func storeForces(
        of ids: UnsafeBufferPointer<BodyID>, fx: UnsafePointer<Float>, fy: UnsafePointer<Float>,
        restartingTimers restart: UnsafeMutablePointer<Bool>, _ range: Range<Int>
    ) {
        let bp = bodies.base
        for k in range {
            let timer = restart[k]
            if timer { restart[k] = false }
            let id = ids[k]
            guard isValid(id) else { continue }
            let b = bp + Int(id.index)
            guard b.pointee.type == .dynamic, b.pointee.awakeIndex >= 0 else { continue }
            if timer { b.pointee.sleepTime = 0 }
            let f = Vec2(fx[k], fy[k])
            if f.isFinite { b.pointee.force = f }
        }
    }

    /// Adds `forces[k]` (mass·pt/s²) at the centre of mass of `ids[k]` for the next step, for every
    /// k in `range`, waking none; as ``applyForceToCenter(_:_:wake:)`` would, a non-finite force,
    /// an invalid id, and a body asleep or not dynamic are skipped. When no body appears twice in
    /// `ids`, several ranges may be applied at once on several threads: each writes only its own
    /// bodies' force.
    package func applyForcesToCenters(of ids: UnsafeBufferPointer<BodyID>, _ forces: UnsafeBufferPointer<Vec2>,
                                      _ range: Range<Int>) {
        let bp = bodies.base
        for k in range {
            let f = forces[k], id = ids[k]
            guard f.x != 0 || f.y != 0, f.isFinite, isValid(id) else { continue }
            let b = bp + Int(id.index)
            guard b.pointee.type == .dynamic, b.pointee.awakeIndex >= 0 else { continue }
            b.pointee.force += f
        }
    }

    /// The transforms of `ids` (the identity for an invalid id), in order: one call for a crowd.
    package func transforms(of ids: [BodyID]) -> [Transform] {
        ids.map { isValid($0) ? bodies[Int($0.index)].transform : .identity }
    }

    /// Adds a torque (mass·pt²/s²) for the next step.
    package func applyTorque(_ id: BodyID, _ t: Float, wake: Bool = true) {
        guard isValid(id), t.isFinite, bodies[Int(id.index)].type == .dynamic else { return }
        if wake { self.wake(bodyIndex: id.index) }
        guard bodies[Int(id.index)].awakeIndex >= 0 else { return }
        bodies[Int(id.index)].torque += t
    }

    /// Applies an impulse (mass·pt/s) at a world point now.
    package func applyLinearImpulse(_ id: BodyID, _ impulse: Vec2, at point: Vec2) {
        guard isValid(id), impulse.isFinite, point.isFinite, bodies[Int(id.index)].type == .dynamic else { return }
        wake(bodyIndex: id.index)
        let bi = Int(id.index)
        bodies[bi].linearVelocity += bodies[bi].invMass * impulse
        bodies[bi].angularVelocity += bodies[bi].invInertia * cross(point - bodies[bi].center, impulse)
    }

    package func setDamping(_ id: BodyID, linear: Float, angular: Float) {
        guard isValid(id) else { return }
        if linear.isFinite && linear >= 0 { bodies[Int(id.index)].linearDamping = linear }
        if angular.isFinite && angular >= 0 { bodies[Int(id.index)].angularDamping = angular }
    }

    package func setGravityScale(_ id: BodyID, _ s: Float) {
        guard isValid(id), s.isFinite else { return }
        bodies[Int(id.index)].gravityScale = s
    }

    package func setFixedRotation(_ id: BodyID, _ fixed: Bool) {
        guard isValid(id), bodies[Int(id.index)].fixedRotation != fixed else { return }
        bodies[Int(id.index)].fixedRotation = fixed
        if fixed { bodies[Int(id.index)].angularVelocity = 0 }
        updateMass(Int(id.index))
        wake(bodyIndex: id.index)
    }

    package func setSleepEnabled(_ id: BodyID, _ enabled: Bool) {
        guard isValid(id) else { return }
        bodies[Int(id.index)].enableSleep = enabled
        if !enabled { wake(bodyIndex: id.index) }
    }

    /// Wakes the body and its sleeping island.
    package func wake(_ id: BodyID) { if isValid(id) { wake(bodyIndex: id.index) } }

    /// Changes static ↔ kinematic ↔ dynamic. Contacts are rebuilt; velocities of a static body are cleared.
    package func setBodyType(_ id: BodyID, _ type: BodyType) {
        guard isValid(id) else { return }
        let bi = Int(id.index)
        guard bodies[bi].type != type else { return }
        wake(bodyIndex: id.index)
        var ck = bodies[bi].headContactKey
        while ck >= 0 {
            let c = ck >> 1
            let next = contacts[Int(c)].nextKey.get(Int(ck & 1))
            let other = (ck & 1) == 0 ? contacts[Int(c)].bodyB : contacts[Int(c)].bodyA
            wake(bodyIndex: other)
            destroyContact(c, reportEnd: true)
            ck = next
        }
        // joints to this body: wake their other bodies
        var jk = bodies[bi].headJointKey
        while jk >= 0 {
            let j = joints[Int(jk >> 1)]
            wake(bodyIndex: (jk & 1) == 0 ? j.bodyB : j.bodyA)
            jk = j.nextKey.get(Int(jk & 1))
        }
        let old = bodies[bi].type
        bodies[bi].type = type
        jointGraphChanged(body: id.index)   // a joint's colours depend on which of its bodies are dynamic
        if type == .static {
            removeFromAwake(id.index)
            bodies[bi].linearVelocity = .zero
            bodies[bi].angularVelocity = 0
        } else if old == .static {
            addToAwake(id.index)
        }
        var s = bodies[bi].headShape
        while s >= 0 {
            shapes[Int(s)].isStaticProxy = type == .static
            // into or out of the static layer (a kinematic ↔ dynamic change leaves it as it is)
            if type == .static || old == .static { noteStaticChange(s) }
            s = shapes[Int(s)].nextShape
        }
        broadPhase.noteMovableShapesChanged()
        updateMass(bi)
        refreshShapeBoxes(bi)
    }
}
