extension World {
    /// Puts resting islands to sleep.
    ///
    /// Islands are found afresh each step with union–find over the awake bodies, joined by touching
    /// contacts and joints between dynamic bodies (static and kinematic bodies do not join islands, or
    /// everything on one floor would be one island). An island sleeps when every body in it has been
    /// slower than the sleep speed for `timeToSleep`; a moving kinematic body keeps what it touches
    /// awake. Bodies that sleep together are recorded together, so touching one wakes them all.
    /// Union–find in awake-list order with the smaller index as root is deterministic. Only the
    /// bodies that have rested are joined (see below): the islands that can sleep are the same.
    ///
    /// An island that touches nothing fixed — no contact with a static, kinematic or sleeping body,
    /// no joint to a static or kinematic one — does not sleep while the forces on it (the step's
    /// applied forces and torques, and gravity) do not balance: by Newton's first law it cannot be
    /// at rest, however slowly it moves yet. Box2D v3 judges by the speed alone, so an island
    /// pushed by less than sleep speed / time to sleep (10 pt/s², 0.1 m/s²) falls asleep before
    /// it reaches the sleep speed and stays where it was for good; the animator's fields (a weak
    /// spot of a noise field, a radial field far away) do that. An island that rests on something
    /// fixed is left to the speed test: its support can balance the forces (a box on the floor
    /// under gravity).
    ///
    /// It also clears the awake bodies' applied forces and torques, which act for one step: the
    /// pass that reads the bodies clears those of bodies that have not rested (no island of theirs
    /// is weighed), the rest once the islands about to sleep have been weighed.
    func updateSleep(dt: Float) {
        let n = sets.awake.count
        guard n > 0 else { return }
        let limit = def.timeToSleep
        // What the walk over the contacts needs of each awake body, read once in awake order into
        // one byte each (the contact walk then reads no body record: two cache misses a contact).
        // In parallel: on two threads half the records were last written by the other core, and
        // this pass was a serial cache miss a body (junkyard: a fifth of its sleep phase).
        let bp = bodies.base
        let kind = UnsafeMutablePointer<UInt8>.allocate(capacity: n)
        defer { kind.deallocate() }
        let chunks = pool.maximumChunks
        let sleepyChunks = UnsafeMutablePointer<Bool>.allocate(capacity: chunks)
        sleepyChunks.initialize(repeating: false, count: chunks)
        defer { sleepyChunks.deallocate() }
        sets.awake.withUnsafeBufferPointer { awakeBuffer in
            let awake = awakeBuffer.baseAddress!
            pool.forEachChunk(n, minimum: SplitSize.bodies) { r, chunk in
                var anySleepy = false
                for k in r {
                    let b = bp + Int(awake[k])
                    let type = b.pointee.type, sleepTime = b.pointee.sleepTime
                    var f: UInt8 = type == .dynamic ? SleepKind.dynamic : (type == .kinematic ? SleepKind.kinematic : 0)
                    if sleepTime >= limit {
                        f |= SleepKind.sleepy
                        anySleepy = true
                    } else {
                        b.pointee.force = .zero
                        b.pointee.torque = 0
                    }
                    if sleepTime == 0 { f |= SleepKind.moving }
                    kind[k] = f
                }
                sleepyChunks[chunk] = anySleepy
            }
        }
        // An island sleeps when every member has rested `limit` seconds: with no such body there
        // is nothing to find, and the walk over every contact below is skipped.
        guard (0..<chunks).contains(where: { sleepyChunks[$0] }) else { return }
        // Only the islands of rested bodies can sleep, so the union–find joins rested bodies only
        // and marks ("taints") a rested body that touches, or is joined to, a dynamic body that has
        // not rested, or a moving kinematic one: an island of the whole graph has a member that has
        // not rested exactly when, along a path to it, a rested body touches one that has not. So
        // the islands that can sleep, their members and their order are the ones a union–find over
        // every awake body finds, without its work on the bodies that are moving (junkyard: most).
        // Union–find over raw buffers: an array captured by these local functions would cost a
        // dynamic exclusivity check on every access (that was 8 % of a step in `smash`).
        let parent = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        defer { parent.deallocate() }
        for k in 0..<n { parent[k] = Int32(k) }
        func find(_ x: Int32) -> Int32 {
            var r = x
            while parent[Int(r)] != r { r = parent[Int(r)] }
            var y = x
            while parent[Int(y)] != r { let nx = parent[Int(y)]; parent[Int(y)] = r; y = nx }
            return r
        }
        func union(_ a: Int32, _ b: Int32) {
            let ra = find(a), rb = find(b)
            if ra == rb { return }
            if ra < rb { parent[Int(rb)] = ra } else { parent[Int(ra)] = rb }
        }
        var minSleep = [Float](repeating: .greatestFiniteMagnitude, count: n)
        // The contacts' links, found in parallel (`SleepLink`) and joined here in contact order:
        // each root is its island's least index whatever the order of the unions, and the other
        // two lists are read as sets, so any split finds the same islands.
        let (links, parts) = sleepLinks(kind: kind)
        var tainted: [Int32] = []
        var supported: [Int32] = []
        for part in parts {
            for k in part {
                let l = links[k]
                switch l.y {
                case SleepLink.tainted: tainted.append(l.x)
                case SleepLink.supported: supported.append(l.x)
                default: union(l.x, l.y)
                }
            }
        }
        for j in joints where j.isAlive {
            let a = bodies[Int(j.bodyA)], b = bodies[Int(j.bodyB)]
            if a.awakeIndex >= 0 && b.awakeIndex >= 0 && a.type == .dynamic && b.type == .dynamic {
                let x = a.awakeIndex, y = b.awakeIndex
                let sx = SleepKind.isSleepy(kind, x), sy = SleepKind.isSleepy(kind, y)
                if sx && sy { union(x, y) } else if sx { tainted.append(x) } else if sy { tainted.append(y) }
            } else if a.type == .kinematic && a.sleepTime == 0 && b.awakeIndex >= 0 {
                if SleepKind.isSleepy(kind, b.awakeIndex) { tainted.append(b.awakeIndex) }
            } else if b.type == .kinematic && b.sleepTime == 0 && a.awakeIndex >= 0 {
                if SleepKind.isSleepy(kind, a.awakeIndex) { tainted.append(a.awakeIndex) }
            } else if a.type != .dynamic && b.awakeIndex >= 0 {
                if SleepKind.isSleepy(kind, b.awakeIndex) { supported.append(b.awakeIndex) }
            } else if b.type != .dynamic && a.awakeIndex >= 0 {
                if SleepKind.isSleepy(kind, a.awakeIndex) { supported.append(a.awakeIndex) }
            }
        }
        // Only whether an island's least sleep time reaches `limit` matters: a body that has not
        // rested is an island of its own here (0), an untainted island of rested bodies reaches it.
        minSleep.withUnsafeMutableBufferPointer { ms in
            for k in 0..<n where kind[k] & SleepKind.sleepy == 0 { ms[k] = 0 }
        }
        for k in tainted { minSleep[Int(find(k))] = 0 }
        keepPushedIslandsAwake(&minSleep, supported: supported, limit: limit, find: find)
        // The islands have been weighed: the rested bodies' forces are spent too.
        sets.awake.withUnsafeBufferPointer { awake in
            for k in 0..<n where kind[k] & SleepKind.sleepy != 0 {
                bp[Int(awake[k])].force = .zero
                bp[Int(awake[k])].torque = 0
            }
        }
        var groupIndex = [Int32](repeating: -1, count: n)
        var groups: [[Int32]] = []
        sets.awake.withUnsafeBufferPointer { awake in
            for k in 0..<n {
                let r = Int(find(Int32(k)))
                guard minSleep[r] >= limit else { continue }
                if groupIndex[r] < 0 { groupIndex[r] = Int32(groups.count); groups.append([]) }
                groups[Int(groupIndex[r])].append(awake[k])
            }
        }
        for members in groups {
            let island = sets.newSleepIsland(members)
            for bi in members {
                removeFromAwake(bi)
                bodies[Int(bi)].sleepIsland = island
                bodies[Int(bi)].linearVelocity = .zero
                bodies[Int(bi)].angularVelocity = 0
                bodies[Int(bi)].force = .zero
                bodies[Int(bi)].torque = 0
            }
        }
    }
}

/// What `updateSleep`'s walk over the solved contacts found at one contact (awake indices):
/// `x` and `y` are rested dynamic bodies that touch (the union–find joins them); with `y` =
/// `SleepLink.tainted`, `x` is a rested body that touches a dynamic body that has not rested, or a
/// moving kinematic one (its island cannot sleep this step); with `y` = `SleepLink.supported`, `x`
/// is a rested dynamic body resting on something fixed (static, sleeping, or a still kinematic body).
enum SleepLink {
    static let tainted: Int32 = -1
    static let supported: Int32 = -2
}

extension World {
    /// `updateSleep`'s walk over the touching contacts the solver just prepared (with their
    /// bodies' awake indices; `awakeCount` for a static or sleeping body), in parallel parts.
    /// `kind` holds each awake body's `SleepKind` bits. A part of contacts `r` writes its links
    /// (`SleepLink`) in contact order from `r.lowerBound` of the returned buffer; returned with the
    /// parts' ranges of it, in contact order.
    ///
    /// Why in parallel: the walk reads every solved contact, and in a pile that never sleeps but
    /// has rested bodies (junkyard: 26 000 contacts) it ran every step on one thread while the
    /// other waited; what the union–find must do serially is the links it found.
    fileprivate func sleepLinks(kind: UnsafeMutablePointer<UInt8>) -> (UnsafeMutablePointer<SIMD2<Int32>>, [Range<Int>]) {
        let solved = scratch.solvedContacts.pointer
        let dummy = Int32(sets.awake.count)
        let contactCount = max(0, scratch.solvedContactCount)
        let links = scratch.sleepLinks.reserve(count: max(1, contactCount))
        let chunks = pool.maximumChunks
        let found = UnsafeMutablePointer<Range<Int>>.allocate(capacity: chunks)
        found.initialize(repeating: 0..<0, count: chunks)
        defer { found.deallocate() }
        pool.forEachChunk(contactCount, minimum: SplitSize.sleepContacts) { r, chunk in
            var n = r.lowerBound
            @inline(__always) func link(_ x: Int32, _ y: Int32) { links[n] = SIMD2(x, y); n += 1 }
            for k in r {
                let sc = solved[k]
                if sc.a == dummy || sc.b == dummy {
                    // a static (or sleeping) body holds the other one up
                    let x = sc.a != dummy ? sc.a : sc.b
                    if x != dummy && SleepKind.isSleepy(kind, x) { link(x, SleepLink.supported) }
                    continue
                }
                let ka = kind[Int(sc.a)], kb = kind[Int(sc.b)]
                if ka & SleepKind.dynamic != 0 && kb & SleepKind.dynamic != 0 {
                    let sa = SleepKind.isSleepy(kind, sc.a), sb = SleepKind.isSleepy(kind, sc.b)
                    if sa && sb {
                        link(sc.a, sc.b)
                    } else if sa {
                        link(sc.a, SleepLink.tainted)
                    } else if sb {
                        link(sc.b, SleepLink.tainted)
                    }
                    continue
                }
                // a dynamic body meets a kinematic one: moving, it keeps the body awake; still, it holds it
                let (x, y): (Int32, Int32)
                if ka & SleepKind.kinematic != 0 && kb & SleepKind.dynamic != 0 {
                    (x, y) = (sc.b, sc.a)
                } else if kb & SleepKind.kinematic != 0 && ka & SleepKind.dynamic != 0 {
                    (x, y) = (sc.a, sc.b)
                } else {
                    continue
                }
                guard SleepKind.isSleepy(kind, x) else { continue }
                link(x, kind[Int(y)] & SleepKind.moving != 0 ? SleepLink.tainted : SleepLink.supported)
            }
            found[chunk] = r.lowerBound..<n
        }
        return (links, Array(UnsafeBufferPointer(start: found, count: chunks)))
    }
}

extension World {
    /// The smallest unbalanced acceleration (pt/s², or rad/s² times the island's radius of
    /// gyration) that keeps an unsupported island awake: a hundredth of the one that carries a
    /// body from rest to the sleep speed in the time to sleep — 0.1 pt/s² (0.001 m/s²) at the
    /// defaults, 5 pt in 10 s. Smaller pushes are left to the speed test (rounding, the last
    /// whisper of a damped spring field at its centre).
    var unbalancedAcceleration: Float { sleepThreshold / max(def.timeToSleep, 1e-3) / 100 }

    /// Sets `minSleep` of every island that is about to sleep (its `minSleep` at least `limit`),
    /// touches nothing fixed (no member in `supported`) and is pushed by forces that do not
    /// balance, to 0: it stays awake this step (see `updateSleep`).
    ///
    /// The island's forces are its members' applied forces and torques of this step (still on the
    /// bodies: `clearAppliedForces` runs after this) and gravity; they balance when the net force
    /// over the total mass, and the net torque about the island's centre of mass over its inertia
    /// there (times its radius of gyration), are both below `unbalancedAcceleration`.
    func keepPushedIslandsAwake(_ minSleep: inout [Float], supported: [Int32], limit: Float, find: (Int32) -> Int32) {
        let n = sets.awake.count
        // Only islands about to sleep are judged; with none, nothing is summed.
        var candidates = false
        for k in 0..<n where minSleep[Int(find(Int32(k)))] >= limit { candidates = true; break }
        guard candidates else { return }
        var held = [Bool](repeating: false, count: n)
        for k in supported { held[Int(find(k))] = true }
        // Per root, about a member's centre (`origin`, so far-off coordinates cost no precision):
        // total mass, first moment, force, torque, inertia.
        var origin = [Vec2?](repeating: nil, count: n)
        var mass = [Float](repeating: 0, count: n)
        var moment = [Vec2](repeating: .zero, count: n)
        var force = [Vec2](repeating: .zero, count: n)
        var torque = [Float](repeating: 0, count: n)
        var inertia = [Float](repeating: 0, count: n)
        let g = gravity
        for k in 0..<n {
            let r = Int(find(Int32(k)))
            guard minSleep[r] >= limit, !held[r] else { continue }
            let b = bodies[Int(sets.awake[k])]
            guard b.type == .dynamic else { continue }
            let f = b.force + (b.mass * b.gravityScale) * g
            if origin[r] == nil { origin[r] = b.center }
            let x = b.center - origin[r]!
            mass[r] += b.mass
            moment[r] += b.mass * x
            force[r] += f
            torque[r] += b.torque + cross(x, f)
            inertia[r] += b.inertia + b.mass * x.lengthSquared
        }
        let limitSquared = unbalancedAcceleration * unbalancedAcceleration
        for r in 0..<n where mass[r] > 0 && minSleep[r] >= limit {
            let m = mass[r]
            let c = (1 / m) * moment[r]
            var pushed = force[r].lengthSquared > limitSquared * m * m
            if !pushed {
                // About the centre of mass: T = Σ(τ + x × F) − c × ΣF, I = Σ(I + m|x|²) − M|c|².
                let t = torque[r] - cross(c, force[r])
                let i = inertia[r] - m * c.lengthSquared
                // α·√(I/M) ≥ limit  ⇔  T² ≥ limit²·I·M
                pushed = i > 0 && t * t > limitSquared * i * m
            }
            if pushed { minSleep[r] = 0 }
        }
    }
}

extension World {
    /// Clears the applied forces and torques of the awake bodies at the end of a step, when sleep
    /// is off: they act for one step (with sleep on, `updateSleep` clears them once it has read them).
    func clearAppliedForces() {
        let bp = bodies.base
        sets.awake.withUnsafeBufferPointer { awake in
            for bi in awake {
                bp[Int(bi)].force = .zero
                bp[Int(bi)].torque = 0
            }
        }
    }
}

/// The bits `updateSleep` keeps per awake body.
private enum SleepKind {
    static let dynamic: UInt8 = 1
    static let kinematic: UInt8 = 2
    /// Slower than the sleep speed for at least the time to sleep.
    static let sleepy: UInt8 = 4
    /// A sleep time of 0: moving now (what keeps a kinematic body's touches awake).
    static let moving: UInt8 = 8

    /// Whether the body at awake index `x` has `sleepy` among its bits in `kind`.
    @inline(__always)
    static func isSleepy(_ kind: UnsafeMutablePointer<UInt8>, _ x: Int32) -> Bool { kind[Int(x)] & sleepy != 0 }
}
