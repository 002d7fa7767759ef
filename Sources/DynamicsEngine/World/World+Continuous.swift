extension World {
    /// Continuous collision for the bodies that moved more than half their inner size in one step.
    ///
    /// Each body is swept as the largest circle it surely contains (radius = its smallest inner
    /// radius, around its centre of mass) from the step's start to its end, against static and
    /// kinematic shapes; at the first hit it is moved back to the time of impact, keeping its velocity
    /// so next step's speculative contact stops it. A swept inner circle is conservative about
    /// rotation and never reports a hit the real shape would not make; when it starts within reach of
    /// a shape, a circle a quarter of its size is swept instead (Box2D's fallback). With
    /// `WorldDef.sweepPastSpeculativeReach` (the animator) a body is also stopped at its outline's
    /// time of impact where the outline would end the step deep in a shape (`outlineImpact`); it is
    /// then put where the step's motion, turn included, had it at that time.
    ///
    /// All sweeps run first, over raw buffers and in parallel blocks, then the hits are applied in
    /// the order of `fast`: a sweep reads only its own body and static or kinematic shapes, none of
    /// which a hit changes, so neither the order nor the thread that sweeps matters.
    func solveContinuous(_ fast: [Int32], dt: Float) {
        // nothing to hit (a world of UIKit items in no collision behaviour): skip the sweeps
        updateStaticLayer()   // (already done by this step's pair search, unless shapes changed since)
        if !broadPhase.proxyListDirty && broadPhase.grid.staticProxyCount == 0 && broadPhase.kinematicProxies.isEmpty {
            return
        }
        let base = shapes.base, bodyBase = bodies.base
        // The kinematic shapes' list read once, as a buffer: read in each sweep (through the
        // world's `broadPhase`), it was retained and released per sweep, and with two threads
        // sweeping, the count of that one array bounced between their cores — washer (6 500 of its
        // 8 100 bodies swept a step, around a kinematic drum) swept a third slower on two threads
        // than on one.
        // Their fat boxes too, packed: every sweep tests every one (washer: 6 500 sweeps a step past
        // 40 drum walls), and from the shape records each test read a whole record.
        let kinematicBoxes = broadPhase.kinematicProxies.map { base[Int($0)].fatAABB }
        let hits = broadPhase.kinematicProxies.withUnsafeBufferPointer { kinematic in
            kinematicBoxes.withUnsafeBufferPointer { boxes in
                sweepInParallel(fast) { k, bi, g in self.sweep(bi, base, bodyBase, g, kinematic, boxes, dt: dt) }
            }
        }
        for k in 0..<fast.count where hits[k].time < 1 {
            if hits[k].byOutline {
                moveBulletToImpact(Int(fast[k]), hits[k].time, dt: dt)
            } else {
                moveToImpact(Int(fast[k]), hits[k].time)
            }
        }
    }

    /// A sweep's first hit: its time in [0, 1] of the step (1: none), and whether a shape's
    /// outline made it (`outlineImpact`) rather than the inner circle.
    struct SweepHit {
        var time: Float
        var byOutline: Bool
    }

    /// Runs `sweep(k, body, grid)` for every body of `list` in parallel blocks and returns the
    /// times it gave, in the order of `list`.
    private func sweepInParallel<Result>(
        _ list: [Int32], _ sweep: @escaping (Int, Int, GridQuery) -> Result
    ) -> [Result] {
        let count = list.count
        let blockSize = SplitSize.sweepBlock
        return [Result](unsafeUninitializedCapacity: count) { times, initialized in
            let out = times.baseAddress!
            list.withUnsafeBufferPointer { listBuffer in
                let bodies = listBuffer.baseAddress!
                broadPhase.grid.withQuery { g in
                    pool.run(blocks: (count + blockSize - 1) / blockSize) { block in
                        for k in (block * blockSize)..<min(count, (block + 1) * blockSize) {
                            (out + k).initialize(to: sweep(k, Int(bodies[k]), g))
                        }
                    }
                }
            }
            initialized = count
        }
    }

    /// Whether body `b` (index `bi`) may hit shape `other`: one of its shapes' filters lets the two
    /// collide, and no joint between their bodies turns collision off.
    private func sweptBody(_ b: Body, _ bi: Int, mayHit other: Shape, of ob: Body,
                           _ base: UnsafePointer<Shape>) -> Bool {
        // the body's own filters (most bodies have one shape)
        var s = b.headShape, collides = false
        while s >= 0 && !collides {
            collides = base[Int(s)].filter.shouldCollide(with: other.filter)
            s = base[Int(s)].nextShape
        }
        guard collides else { return false }
        return !(ob.jointCount > 0 && b.jointCount > 0 && jointPreventsCollision(Int32(bi), other.body))
    }

    /// Shape `q` and its body, when it is a live static or kinematic shape that body `bi` (`b`)
    /// may hit: not its own, and their filters and joints let the two collide; else nil.
    @inline(__always)
    private func fixedShape(_ q: Int32, hitBy bi: Int, _ b: Body, _ base: UnsafePointer<Shape>,
                            _ bodyBase: UnsafePointer<Body>) -> (Shape, Body)? {
        let other = base[Int(q)]
        guard other.isAlive, other.body != Int32(bi) else { return nil }
        let ob = bodyBase[Int(other.body)]
        guard ob.type != .dynamic, sweptBody(b, bi, mayHit: other, of: ob, base) else { return nil }
        return (other, ob)
    }

    /// The time of impact in [0, 1) of body `bi`'s swept inner circle (or, in the animator's worlds,
    /// of its outline where that comes first: `outlineImpact`), or 1 when it hits nothing;
    /// `kinematic` is the broad phase's list of kinematic shapes, `kinematicBoxes` their fat boxes.
    private func sweep(
        _ bi: Int, _ base: UnsafePointer<Shape>, _ bodyBase: UnsafePointer<Body>,
        _ grid: GridQuery, _ kinematic: UnsafeBufferPointer<Int32>, _ kinematicBoxes: UnsafeBufferPointer<AABB>,
        dt: Float
    ) -> SweepHit {
        let b = bodyBase[bi]
        let p0 = b.center0, p1 = b.center
        let d = p1 - p0
        // A body swept only because it travels past the speculative reach
        // (`WorldDef.sweepPastSpeculativeReach`), not half its size, stops only where its face
        // would otherwise end the step more than a slop inside a surface (its inner circle less a
        // slop hits it): a body resting or sliding on a surface, or passing a joint's end, never
        // does. It stops where its inner circle grown by half the speculative reach meets the
        // surface, a face 1 pt off it, so the next step's contact already has a point there.
        // Starting within that reach, or with no deep hit, it is the solver's.
        // (the setting too: with it off no such body is listed, and one on the threshold by rounding
        // must keep Box2D's sweep)
        let nearOnly = def.sweepPastSpeculativeReach && d.length <= 0.5 * b.minExtent
        // UIKit's Box2D 2.x stops a body at its outline's time of impact (`outlineImpact`);
        // Box2D v3's worlds keep its inner circle alone
        let outlineToo = def.sweepPastSpeculativeReach
        let r = nearOnly ? b.minExtent + 0.5 * speculativeDistance : b.minExtent
        let deep = b.minExtent - linearSlop
        guard d.lengthSquared > 0, r > 0 else { return SweepHit(time: 1, byOutline: false) }
        // the outline's corners reach past the inner circle: the query covers them
        let sweep = AABB(lower: minv(p0, p1), upper: maxv(p0, p1)).inflated(by: outlineToo ? max(r, b.maxExtent) : r)
        // (the outline's motion only where it is swept: washer sweeps 6 500 bodies a step)
        let motion = outlineToo ? BodySweep(b, dt: dt) : BodySweep.still(b)
        var first = SweepHit(time: 1, byOutline: false)
        // through a pointer: a captured local written by the test below costs a dynamic
        // exclusivity check per candidate
        withUnsafeMutablePointer(to: &first) { first in
            // a local function, not a closure value: it does not escape, so nothing is allocated
            func test(_ q: Int32) {
                guard let (other, ob) = fixedShape(q, hitBy: bi, b, base, bodyBase) else { return }
                // Box2D's fallback: a body that starts within reach of the shape (a spinning box's
                // corner already inside a thin wall, a wall that moved onto it) is swept again as a
                // quarter-size circle, so its centre still cannot pass through.
                let hit: Float?
                if nearOnly {
                    hit = deep > 0 && sweepCircle(from: p0, by: d, radius: deep, against: other, transform: ob.transform) != nil
                        ? sweepCircle(from: p0, by: d, radius: r, against: other, transform: ob.transform) : nil
                } else {
                    hit = sweepCircle(from: p0, by: d, radius: r, against: other, transform: ob.transform)
                        ?? sweepCircle(from: p0, by: d, radius: 0.25 * r, against: other, transform: ob.transform)
                }
                if let t = hit, t < first.pointee.time { first.pointee = SweepHit(time: t, byOutline: false) }
                // the outline may meet it earlier (a corner first), or where the circle never does
                if outlineToo, let t = outlineImpact(b, base, other, ob, motion, dt: dt), t < first.pointee.time {
                    first.pointee = SweepHit(time: t, byOutline: true)
                }
            }
            func testEntry(_ e: GridEntry) { test(e.proxy) }
            grid.query(sweep, exclude: -1, isStatic: true, testEntry)
            for i in 0..<kinematic.count where kinematicBoxes[i].overlaps(sweep) { test(kinematic[i]) }
        }
        return first
    }

    /// For a swept body in a world with `WorldDef.sweepPastSpeculativeReach` (the animator's): the
    /// time in (0, 1) at which its outline, turning and moving as it did over the step, comes within
    /// half the speculative reach of `other` (static or kinematic), when one of its shapes would
    /// otherwise end the step more than a slop inside it; nil when none would.
    ///
    /// Why: the inner circle stops a card that meets a wall with its short side, but one that
    /// meets it with a long side or a corner first went in up to a step's travel less the
    /// speculative reach (a 64 × 100 pt card thrown at 1 000 pt/s: 10 pt). UIKit's Box2D 2.x stops
    /// such a body at its outline's time of impact. Only a deep end is swept: a body resting on,
    /// sliding along or tipping off a surface ends the step within a slop of it (the solver's
    /// contact holds it), so it is never held back (an outline swept from every start held a square
    /// that should tip off a barrier, SquareAndBarrierPort).
    private func outlineImpact(_ b: Body, _ base: UnsafePointer<Shape>, _ other: Shape, _ ob: Body,
                               _ motion: BodySweep, dt: Float) -> Float? {
        let otherBox = other.computeAABB(ob.transform)
        let scratchCount = 2 * max(8, maxPolygonCount)
        // the other body's motion once, and only when one of this body's shapes is near it
        var knownMotion: BodySweep? = nil
        var earliest: Float? = nil
        var s = b.headShape
        while s >= 0 {
            let mine = base[Int(s)]
            s = mine.nextShape
            guard mine.filter.shouldCollide(with: other.filter) else { continue }
            guard mine.computeAABB(b.transform).overlaps(otherBox) else { continue }
            let otherMotion = knownMotion ?? BodySweep(ob, dt: dt)
            knownMotion = otherMotion
            let found: Float? = withUnsafeTemporaryAllocation(of: Vec2.self, capacity: scratchCount) { buffer in
                let scratch = buffer.baseAddress!
                func depth(at t: Float) -> Float {
                    overlap(mine, motion.transform(at: t), other, otherMotion.transform(at: t), scratch).0
                }
                guard depth(at: 1) > linearSlop else { return nil }
                let toi = timeOfImpact(
                    mine, motion, reachA: b.maxExtent, other, otherMotion, reachB: ob.maxExtent,
                    target: 0.5 * speculativeDistance, tolerance: 0.25 * linearSlop)
                if let t = toi, t > 0 { return t }
                // Within reach of it at the start (a card turning onto a wall on one corner, the
                // other swinging in): the time its depth first passes half a slop, by bisection
                // along the step's motion. Already that deep at the start: the solver's.
                let allowance = 0.5 * linearSlop
                guard toi == 0, depth(at: 0) <= allowance else { return nil }
                var lo: Float = 0, hi: Float = 1
                for _ in 0..<16 {
                    let mid = 0.5 * (lo + hi)
                    if depth(at: mid) > allowance { hi = mid } else { lo = mid }
                }
                return lo > 0 ? lo : nil
            }
            if let t = found { earliest = min(earliest ?? 1, t) }
        }
        return earliest
    }

    /// Bullets (`WorldDef.sweepBulletsAgainstBodies`): the bodies of `fast` that moved more than
    /// half their inner size this step (after the sweeps against static and kinematic shapes) are
    /// swept, whole, against the other dynamic bodies, both moving over the step as they did
    /// (centre on a straight line, angle turning evenly), and stop at the first time their shapes
    /// come within a slop of each other (`timeOfImpact`), turned as they were then. Then each
    /// bullet still overlapping a body deeper than `allowed` allows is pushed out of it
    /// (`separateBullets`).
    ///
    /// Every sweep reads the poses the first pass left, and the hits are applied only after all of
    /// them, in the order of `fast`: so neither the order nor the threads matter. Other bullets are
    /// swept against too (unlike Box2D's hand-flagged bullets): a thin item struck by a fast one
    /// is itself knocked more than half its size in that step, and would otherwise let the striker
    /// through. A bullet already touching a body at the step's start is the solver's, except that
    /// its centre may not pass through it (Box2D's fallback: a circle a quarter of its inner one,
    /// on the same sweeps). The grid holds the moving shapes' fat boxes from this step's pair
    /// search, which cover their poses at the step's start; a query grown by the farthest any body
    /// travelled covers every path.
    func solveBullets(_ fast: [Int32], dt: Float) {
        // no moving shape meets anything (UIKit items in no collision behaviour): no bullets, and
        // no need to read each fast body's shapes to find that out
        if !broadPhase.proxyListDirty && broadPhase.movableProxies.isEmpty { return }
        let bodyBase = bodies.base
        var bullets: [Int32] = []
        for bi in fast {
            let b = bodyBase[Int(bi)]
            guard (b.center - b.center0).length > 0.5 * b.minExtent else { continue }
            // a body none of whose shapes collides with anything (a UIKit item in no collision
            // behaviour) has nothing to hit: not a bullet
            var s = b.headShape, collides = false
            while s >= 0 && !collides {
                collides = !broadPhase.meetsNothing(shapes.base[Int(s)].filter)
                s = shapes.base[Int(s)].nextShape
            }
            if collides { bullets.append(bi) }
        }
        guard !bullets.isEmpty else { return }
        var escape: Float = 0
        for bi in sets.awake {
            let b = bodyBase[Int(bi)]
            let q0 = b.rotation0, q1 = b.transform.q
            let chord = Vec2(q1.c - q0.c, q1.s - q0.s).length
            escape = max(escape, (b.center - b.center0).length + b.maxExtent * chord)
        }
        let base = shapes.base
        let count = bullets.count
        let hits = UnsafeMutablePointer<Int32>.allocate(capacity: count)
        defer { hits.deallocate() }
        let clear = UnsafeMutablePointer<Bool>.allocate(capacity: count)
        defer { clear.deallocate() }
        let times = sweepInParallel(bullets) { k, bi, g in
            self.sweepBullet(bi, base, bodyBase, g, escape, dt, hits + k, clear + k)
        }
        // Two bullets that hit each other stop together, at the earlier of their two times: each
        // sweep took the other as moving on through the step, and one stopped earlier is not where
        // it was assumed (nor is one that hit nothing itself, left where the other was stopped).
        // Read from the sweeps' own times, so the result does not depend on the order; the bullet
        // hit is found by bisection in the bullets sorted by body.
        var stop = times
        let byBody = (0..<count).sorted { bullets[$0] < bullets[$1] }
        for k in 0..<count where times[k] < 1 {
            var lo = 0, hi = count
            while lo < hi {
                let mid = (lo + hi) / 2
                if bullets[byBody[mid]] < hits[k] { lo = mid + 1 } else { hi = mid }
            }
            guard lo < count && bullets[byBody[lo]] == hits[k] else { continue }
            let j = byBody[lo]
            let together = min(times[k], times[j])
            stop[k] = min(stop[k], together)
            stop[j] = min(stop[j], together)
        }
        for k in 0..<count where stop[k] < 1 { moveBulletToImpact(Int(bullets[k]), stop[k], dt: dt) }
        separateBullets(bullets, escape, clear: clear, stop: stop)
    }

    /// Pushes each bullet that ends the step overlapping a dynamic body deeper than `allowed`
    /// allows back out of it, along the normal of their contact as they now stand (a position
    /// correction, as Box2D 2.x, UIKit's engine, made after every step; velocities are left alone).
    /// Only the bullet moves: pushing the body it struck would push that one into its neighbours,
    /// and in a pile of drops it did (two ended 0.85 pt inside each other, past the solver's slop).
    ///
    /// Why: the solver holds a contact along the normal it had at the step's start. A 20 pt disc
    /// sliding at 1 700 pt/s along a thin item that turns 0.38 rad in the step ends 10 pt inside
    /// it (27 pt of slide along a face tilted 22° from that normal), and the next step, from there,
    /// may carry it through. Serial, in the order of `bullets`, each push reading the poses the
    /// pushes before it left: the same at any thread count.
    ///
    /// A bullet whose sweep found every body it could reach clear of it all step long (`clear`),
    /// and that was not stopped, ends the step clear of them all — unless a bullet stopped early
    /// or pushed out here now stands where its box meets this one's (`disturbed`, the boxes of
    /// those): such a bullet needs no search (ui_rain: most falling items).
    private func separateBullets(_ bullets: [Int32], _ escape: Float, clear: UnsafePointer<Bool>, stop: [Float]) {
        func currentBox(_ bi: Int) -> AABB {
            var s = bodies[bi].headShape
            var box = AABB(lower: Vec2(.infinity, .infinity), upper: Vec2(-.infinity, -.infinity))
            while s >= 0 {
                let a = shapes[Int(s)].computeAABB(bodies[bi].transform)
                box = AABB(lower: minv(box.lower, a.lower), upper: maxv(box.upper, a.upper))
                s = shapes[Int(s)].nextShape
            }
            return box
        }
        var disturbed: [AABB] = []
        for k in bullets.indices where stop[k] < 1 { disturbed.append(currentBox(Int(bullets[k]))) }
        withUnsafeTemporaryAllocation(of: Vec2.self, capacity: 2 * max(8, maxPolygonCount)) { buffer in
            let scratch = buffer.baseAddress!
            var candidates: [Int32] = []
            // One copy of the grid for all bullets: `broadPhase.grid` read per bullet copied the
            // grid, a retain and a release of each of its arrays (5 % of ui_rain's step). The
            // pushes below change shapes' fat boxes and the moved list, not the grid.
            let grid = broadPhase.grid
            for (k, bullet) in bullets.enumerated() {
                let bi = Int(bullet)
                let box = currentBox(bi)
                let skippable = clear[k] && stop[k] == 1 && !disturbed.contains(where: { $0.overlaps(box) })
                #if DEBUG
                    // debug builds search anyway, and check that nothing needed a push
                #else
                    if skippable { continue }
                #endif
                var pushed = false
                defer {
                    assert(!(skippable && pushed), "separateBullets: a bullet its sweep found clear overlapped a body")
                    if pushed { disturbed.append(currentBox(bi)) }
                }
                candidates.removeAll(keepingCapacity: true)
                // through a pointer: appending to the captured local costs a dynamic exclusivity
                // check per candidate
                withUnsafeMutablePointer(to: &candidates) { list in
                    grid.withQuery { g in
                        func note(_ e: GridEntry) {
                            if e.proxy >= 0 && e.flags.contains(.dynamicBody) { list.pointee.append(e.proxy) }
                        }
                        g.query(box.inflated(by: escape), exclude: -1, isStatic: false, note)
                    }
                }
                let shapeBase = shapes.base, bodyBase = bodies.base
                for q in candidates {
                    // the cheap rejections read single fields in place, before any record is copied
                    let shape = shapeBase + Int(q)
                    guard shape.pointee.isAlive else { continue }
                    let oi = Int(shape.pointee.body)
                    let body = bodyBase + oi, mover = bodyBase + bi
                    guard oi != bi, body.pointee.type == .dynamic else { continue }
                    // bounding circles apart: no overlap
                    let gap = (body.pointee.center - mover.pointee.center).length
                    guard gap < mover.pointee.maxExtent + body.pointee.maxExtent else { continue }
                    let other = shape.pointee, b = mover.pointee, ob = body.pointee
                    guard sweptBody(b, bi, mayHit: other, of: ob, shapeBase) else { continue }
                    let allowance = allowed(b, ob)
                    var s = b.headShape
                    while s >= 0 {
                        let mine = shapes[Int(s)]
                        s = mine.nextShape
                        guard mine.filter.shouldCollide(with: other.filter) else { continue }
                        let (depth, normal) = overlap(mine, bodies[bi].transform, other, bodies[oi].transform, scratch)
                        guard depth > allowance else { continue }
                        shift(bi, by: clampedAtFixed(bi, -(depth - allowance) * normal, grid))
                        pushed = true
                    }
                }
            }
        }
    }

    /// How deep two shapes overlap at the given transforms (pt, 0 when apart) and the normal of
    /// their contact, from `sa` toward `sb`.
    private func overlap(_ sa: Shape, _ xfA: Transform, _ sb: Shape, _ xfB: Transform,
                         _ scratch: UnsafeMutablePointer<Vec2>) -> (Float, Vec2) {
        func inOrder(_ a: ShapeKind, _ b: ShapeKind) -> Bool { b == .circle || (b == .polygon && a != .circle) }
        let swapped = !inOrder(sa.kind, sb.kind)
        let m = swapped
            ? computeManifold(sb, xfB, sa, xfA, spec: 0, slop: linearSlop, scratch: scratch)
            : computeManifold(sa, xfA, sb, xfB, spec: 0, slop: linearSlop, scratch: scratch)
        var least: Float = 0
        for i in 0..<Int(m.pointCount) { least = min(least, m[i].separation) }
        return (-least, swapped ? -m.normal : m.normal)
    }

    /// `delta` (pt), cut short where body `bi`'s inner circle (a quarter of it, where the whole one
    /// already touches) would meet a static or kinematic shape on the way, a slop before it: a
    /// push out of one body must not carry a bullet through a wall. (ui_rain: items that struck
    /// the pile at 2 000 pt/s beside a side wall were pushed out of the items they hit, 26 pt
    /// sideways in one step, and 3 of its 2 000 left the tank for good.)
    private func clampedAtFixed(_ bi: Int, _ delta: Vec2, _ grid: UniformGrid) -> Vec2 {
        let b = bodies[bi]
        let length = delta.length
        guard length > 0, b.minExtent > 0 else { return delta }
        let r = b.minExtent, from = b.center
        let path = AABB(lower: minv(from, from + delta), upper: maxv(from, from + delta)).inflated(by: r)
        let base = shapes.base, bodyBase = bodies.base
        var first: Float = 1
        withUnsafeMutablePointer(to: &first) { first in
            func test(_ q: Int32) {
                guard let (other, ob) = fixedShape(q, hitBy: bi, b, base, bodyBase) else { return }
                let xf = ob.transform
                let hit = sweepCircle(from: from, by: delta, radius: r, against: other, transform: xf)
                    ?? sweepCircle(from: from, by: delta, radius: 0.25 * r, against: other, transform: xf)
                if let t = hit, t < first.pointee { first.pointee = t }
            }
            func testEntry(_ e: GridEntry) { if e.proxy >= 0 { test(e.proxy) } }
            grid.withQuery { g in _ = g.query(path, exclude: -1, isStatic: true, testEntry) }
            for q in broadPhase.kinematicProxies where base[Int(q)].fatAABB.overlaps(path) { test(q) }
        }
        guard first < 1 else { return delta }
        return max(0, first - linearSlop / length) * delta
    }

    /// Moves body `bi` by `delta` (pt) and grows its shapes' fat boxes to cover it.
    private func shift(_ bi: Int, by delta: Vec2) {
        guard delta.isFinite else { return }
        bodies[bi].center += delta
        bodies[bi].transform.p += delta
        refreshFatBoxes(bi)
    }

    /// The time of impact in [0, 1) of bullet `bi` against the other dynamic bodies, or 1 when it
    /// hits none; the body hit first is written to `hitBody`.
    private func sweepBullet(
        _ bi: Int, _ base: UnsafePointer<Shape>, _ bodyBase: UnsafePointer<Body>, _ grid: GridQuery,
        _ escape: Float, _ dt: Float, _ hitBody: UnsafeMutablePointer<Int32>, _ clear: UnsafeMutablePointer<Bool>
    ) -> Float {
        hitBody.pointee = Int32.max
        // whether every body it can reach stays more than a slop away all step (see `separateBullets`)
        clear.pointee = false
        let b = bodyBase[bi]
        let p0 = b.center0, d = b.center - b.center0
        guard d.lengthSquared > 0 else { return 1 }
        let motion = BodySweep(b, dt: dt)
        let sweep = AABB(lower: minv(p0, b.center), upper: maxv(p0, b.center)).inflated(by: b.maxExtent)
        var tMin: Float = 1
        var allClear = true
        withUnsafeMutablePointer(to: &allClear) { allClear in
        withUnsafeMutablePointer(to: &tMin) { tMin in
            func test(_ q: Int32) {
                // the cheap rejections read single fields in place, before any record is copied
                let shape = base + Int(q)
                guard shape.pointee.isAlive, shape.pointee.body != Int32(bi) else { return }
                let body = bodyBase + Int(shape.pointee.body)
                guard body.pointee.type == .dynamic else { return }
                // Their bounding circles (centre of mass, farthest reach) start further apart than
                // the step brings them closer: no hit, and no need for the shapes' distance.
                let travel = (d - (body.pointee.center - body.pointee.center0)).length
                let apart = (body.pointee.center0 - p0).length - b.maxExtent - body.pointee.maxExtent
                guard apart <= travel + linearSlop else { return }
                let other = shape.pointee, ob = body.pointee
                guard sweptBody(b, bi, mayHit: other, of: ob, base) else { return }
                // Each of the bullet's shapes that collides with it, whole (a turned card's corners
                // reach past its inner circle), both bodies moving over the step as they did.
                let otherMotion = BodySweep(ob, dt: dt)
                let slop = linearSlop, tolerance = 0.25 * linearSlop
                var hit: Float? = nil
                // Whether a shape started within reach of it, or one was not swept (its filter):
                // only then may the core below hit where the swept shapes did not.
                var startsNear = false
                var s = b.headShape
                while s >= 0 {
                    let mine = base[Int(s)]
                    s = mine.nextShape
                    guard mine.filter.shouldCollide(with: other.filter) else { startsNear = true; continue }
                    let toi = timeOfImpact(
                        mine, motion, reachA: b.maxExtent, other, otherMotion, reachB: ob.maxExtent,
                        target: slop, tolerance: tolerance)
                    if let t = toi, t > 0 { hit = min(hit ?? 1, t) } else if toi == 0 { startsNear = true }
                }
                if hit != nil || startsNear { allClear.pointee = false }
                // The core lies within the body's shapes: where every one of them stays clear of
                // it over the whole step, so does the core (in ui_rain, half of the bodies a
                // bullet is swept against: 116 136 of 221 320 in a run, each a second sweep that
                // could not hit).
                if hit == nil && startsNear && b.minExtent > 0 {
                    // Let through whole, ending clear of it (a small item that struck it at a
                    // corner and spun can do that in one step from touching it): Box2D's
                    // fallback, a circle a quarter of the inner one about the centre of mass on
                    // the same sweeps, so at least the centre cannot pass through it.
                    var centre = b.localCenter
                    let radius = b.minExtent / 4, reach = ob.maxExtent
                    hit = withUnsafePointer(to: &centre) { core in
                        withCore(of: other) { pb, nb, rb in
                            timeOfImpact(
                                core, 1, radius, motion, reachA: 0, pb, nb, rb, otherMotion, reachB: reach,
                                target: slop, tolerance: tolerance)
                        }
                    }
                    if hit == 0 { hit = nil }   // already that deep at the start: the solver's
                }
                if let t = hit, t < tMin.pointee || (t == tMin.pointee && other.body < hitBody.pointee) {
                    tMin.pointee = t
                    hitBody.pointee = other.body
                }
            }
            func testEntry(_ e: GridEntry) { if e.proxy >= 0 && e.flags.contains(.dynamicBody) { test(e.proxy) } }
            grid.query(sweep.inflated(by: escape), exclude: -1, isStatic: false, testEntry)
        }
        }
        clear.pointee = allClear && tMin == 1
        return tMin
    }

    /// How deep a bullet may end a step in a body it touched at the step's start (pt): the
    /// speculative distance, less for thin bodies (a quarter of the thinner's inner size), never
    /// less than a slop (the solver's own allowance).
    private func allowed(_ a: Body, _ b: Body) -> Float {
        max(linearSlop, min(speculativeDistance, 0.5 * min(a.minExtent, b.minExtent)))
    }

    /// Puts bullet `bi` where its step's motion had it at `t` (translation and turn): its shapes
    /// stand a slop off what they hit, so the next step's speculative contact takes over.
    private func moveBulletToImpact(_ bi: Int, _ t: Float, dt: Float) {
        var nb = bodies[bi]
        let pose = BodySweep(nb, dt: dt).transform(at: t)
        nb.center = nb.center0 + t * (nb.center - nb.center0)
        nb.transform = pose
        bodies[bi] = nb
        refreshFatBoxes(bi)
    }

    /// Moves body `bi` back to a hair before its time of impact `tMin` along this step's motion.
    private func moveToImpact(_ bi: Int, _ tMin: Float) {
        let b = bodies[bi]
        let p0 = b.center0, d = b.center - b.center0
        // stop a hair before the surface so the next step starts with a speculative contact (for
        // a body swept by its speculative reach, whose grown circle stops it half a reach out,
        // a tenth of a slop: a whole slop would leave it beyond the reach again)
        let len = d.length
        let hair = def.sweepPastSpeculativeReach && len <= 0.5 * b.minExtent ? 0.1 * linearSlop : linearSlop
        let back = min(tMin, hair / len)
        let t = max(0, tMin - back)
        var nb = b
        nb.center = p0 + t * d
        nb.transform.p = nb.center - nb.transform.q.rotate(nb.localCenter)
        bodies[bi] = nb
        refreshFatBoxes(bi)
    }

    /// After body `bi` was moved back to an impact: grows the fat box of each of its shapes that no
    /// longer covers the shape's box grown by the speculative distance.
    private func refreshFatBoxes(_ bi: Int) {
        let nb = bodies[bi]
        // That contact needs a pair: the body now rests a hair off the surface (`fatBox(_:covers:)`).
        var s2 = nb.headShape
        while s2 >= 0 {
            let si = Int(s2)
            let box = shapes[si].computeAABB(nb.transform)
            if !World.fatBox(shapes[si].fatAABB, covers: box, speculative: speculativeDistance) {
                shapes[si].fatAABB = fatBox(for: box)
                if !shapes[si].enlarged { shapes[si].enlarged = true; broadPhase.movedProxies.append(s2) }
            }
            s2 = shapes[si].nextShape
        }
    }

    /// Time of impact in [0, 1] of a circle moving from `p0` by `d` against a shape, or nil.
    /// Starting already within reach of the shape reports nil: that overlap is the solver's job.
    func sweepCircle(from p0: Vec2, by d: Vec2, radius r: Float, against s: Shape, transform xf: Transform) -> Float? {
        switch s.kind {
        case .circle:
            return rayCircle(p0, d, xf.apply(s.p1), s.radius + r)
        case .segment:
            // a segment is a two-sided 2-gon in its body frame
            let n = (s.p2 - s.p1).rightPerp.normalized
            var v = (s.p1, s.p2), nn = (n, -n)
            return withUnsafePointer(to: &v) { vp in
                withUnsafePointer(to: &nn) { np in
                    vp.withMemoryRebound(to: Vec2.self, capacity: 2) { vv in
                        np.withMemoryRebound(to: Vec2.self, capacity: 2) { nv in
                            sweepPolygon(vv, nv, 2, xf, p0, d, r, closed: false)
                        }
                    }
                }
            }
        case .polygon:
            let poly = s.polygon!
            return sweepPolygon(poly.vertices, poly.normals, Int(poly.count), xf, p0, d, r)
        }
    }

    /// Ray against a convex polygon rounded by `r`, in the polygon's body frame (no allocation).
    /// `closed: false` (a segment) never counts as "inside".
    private func sweepPolygon(_ v: UnsafePointer<Vec2>, _ n: UnsafePointer<Vec2>, _ count: Int, _ xf: Transform,
                              _ p0: Vec2, _ d0: Vec2, _ r: Float, closed: Bool = true) -> Float? {
        let p = xf.invApply(p0), d = xf.q.invRotate(d0)
        var inside = true
        for i in 0..<count {
            let a = v[i], b = v[(i + 1) % count]
            let e = b - a
            let t = clamp(dot(p - a, e) / max(dot(e, e), 1e-12), 0, 1)
            if distanceSquared(p, a + t * e) < r * r { return nil }
            if dot(p - a, n[i]) > 0 { inside = false }
        }
        if inside && closed { return nil }
        var best: Float? = nil
        for i in 0..<count {
            let a = v[i], b = v[(i + 1) % count]
            let ni = n[i]
            let denom = dot(d, ni)
            if denom < 0 {
                let dist = dot(p - a, ni) - r
                if dist >= 0 {
                    let t = -dist / denom
                    if t <= 1 {
                        let hit = p + t * d - r * ni
                        let e = b - a
                        let u = dot(hit - a, e)
                        if u >= 0 && u <= dot(e, e) { best = min(best ?? 1, t) }
                    }
                }
            }
            if let t = rayCircle(p, d, a, r) { best = min(best ?? 1, t) }
        }
        return best
    }

    private func rayCircle(_ p: Vec2, _ d: Vec2, _ c: Vec2, _ R: Float) -> Float? {
        let m = p - c
        let cc = dot(m, m) - R * R
        if cc <= 0 { return nil }
        let bb = dot(m, d), aa = dot(d, d)
        if bb >= 0 || aa == 0 { return nil }
        let disc = bb * bb - aa * cc
        if disc < 0 { return nil }
        let t = (-bb - disc.squareRoot()) / aa
        return t >= 0 && t <= 1 ? t : nil
    }

}
