extension World {
    /// Continuous collision for the bodies that moved more than half their inner size in one step.
    ///
    /// Each body is swept as the largest circle it surely contains (radius = its smallest inner
    /// radius, around its centre of mass) from the step's start to its end, against static and
    /// kinematic shapes; at the first hit it is moved back to the time of impact, keeping its velocity
    /// so next step's speculative contact stops it. A swept inner circle is conservative about
    /// rotation and never reports a hit the real shape would not make; when it starts within reach of
    /// a shape, a circle a quarter of its size is swept instead (Box2D's fallback).
    ///
    /// All sweeps run first, over raw buffers and in parallel blocks, then the hits are applied in
    /// the order of `fast`: a sweep reads only its own body and static or kinematic shapes, none of
    /// which a hit changes, so neither the order nor the thread that sweeps matters.
    func solveContinuous(_ fast: [Int32]) {
        // nothing to hit (a world of UIKit items in no collision behaviour): skip the sweeps
        updateStaticLayer()   // (already done by this step's pair search, unless shapes changed since)
        if !broadPhase.proxyListDirty && broadPhase.grid.staticProxyCount == 0 && broadPhase.kinematicProxies.isEmpty {
            return
        }
        let base = shapes.base, bodyBase = bodies.base
        let count = fast.count
        let times = UnsafeMutablePointer<Float>.allocate(capacity: count)
        defer { times.deallocate() }
        let blockSize = SplitSize.sweepBlock
        fast.withUnsafeBufferPointer { fastBuffer in
            let list = fastBuffer.baseAddress!
            broadPhase.grid.withQuery { g in
                pool.run(blocks: (count + blockSize - 1) / blockSize) { block in
                    for k in (block * blockSize)..<min(count, (block + 1) * blockSize) {
                        times[k] = self.sweep(Int(list[k]), base, bodyBase, g)
                    }
                }
            }
        }
        for k in 0..<count where times[k] < 1 { moveToImpact(Int(fast[k]), times[k]) }
    }

    /// The time of impact in [0, 1) of body `bi`'s swept inner circle, or 1 when it hits nothing.
    private func sweep(_ bi: Int, _ base: UnsafePointer<Shape>, _ bodyBase: UnsafePointer<Body>,
                       _ grid: GridQuery) -> Float {
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
        let r = nearOnly ? b.minExtent + 0.5 * speculativeDistance : b.minExtent
        let deep = b.minExtent - linearSlop
        guard d.lengthSquared > 0, r > 0 else { return 1 }
        let sweep = AABB(lower: minv(p0, p1), upper: maxv(p0, p1)).inflated(by: r)
        var tMin: Float = 1
        // through a pointer: a captured local written by the test below costs a dynamic
        // exclusivity check per candidate
        withUnsafeMutablePointer(to: &tMin) { tMin in
            // a local function, not a closure value: it does not escape, so nothing is allocated
            func test(_ q: Int32) {
                let other = base[Int(q)]
                guard other.isAlive, other.body != Int32(bi) else { return }
                let ob = bodyBase[Int(other.body)]
                guard ob.type != .dynamic else { return }
                // the body's own filters (most bodies have one shape)
                var s = b.headShape, collides = false
                while s >= 0 && !collides {
                    collides = base[Int(s)].filter.shouldCollide(with: other.filter)
                    s = base[Int(s)].nextShape
                }
                guard collides else { return }
                if ob.jointCount > 0 && b.jointCount > 0 && jointPreventsCollision(Int32(bi), other.body) { return }
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
                if let t = hit, t < tMin.pointee { tMin.pointee = t }
            }
            func testEntry(_ e: GridEntry) { test(e.proxy) }
            grid.query(sweep, exclude: -1, isStatic: true, testEntry)
            for q in broadPhase.kinematicProxies where base[Int(q)].fatAABB.overlaps(sweep) { test(q) }
        }
        return tMin
    }

    /// Bullets (`WorldDef.sweepBulletsAgainstBodies`): the bodies of `fast` that moved more than
    /// half their inner size this step (after the sweeps against static and kinematic shapes) are
    /// swept, as their inner circles, against the other dynamic bodies, each moving by its own
    /// travel this step, and stop at the first hit.
    ///
    /// Every sweep reads the poses the first pass left, and the hits are applied only after all of
    /// them, in the order of `fast`: so neither the order nor the threads matter. Other bullets are
    /// swept against too (unlike Box2D's hand-flagged bullets): a thin item struck by a fast one
    /// is itself knocked more than half its size in that step, and would otherwise let the striker
    /// through. The sweep is of the relative motion (translations only; the other body's turn in
    /// the step is taken as done at its start). The grid holds the moving shapes' fat boxes from
    /// this step's pair search, which cover their poses at the step's start; a query grown by the
    /// farthest any body travelled covers every relative path.
    func solveBullets(_ fast: [Int32]) {
        let bodyBase = bodies.base
        var bullets: [Int32] = []
        for bi in fast {
            let b = bodyBase[Int(bi)]
            if (b.center - b.center0).length > 0.5 * b.minExtent { bullets.append(bi) }
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
        let times = UnsafeMutablePointer<Float>.allocate(capacity: count)
        let hits = UnsafeMutablePointer<Int32>.allocate(capacity: count)
        defer { times.deallocate(); hits.deallocate() }
        let blockSize = SplitSize.sweepBlock
        bullets.withUnsafeBufferPointer { bulletBuffer in
            let list = bulletBuffer.baseAddress!
            broadPhase.grid.withQuery { g in
                pool.run(blocks: (count + blockSize - 1) / blockSize) { block in
                    for k in (block * blockSize)..<min(count, (block + 1) * blockSize) {
                        times[k] = self.sweepBullet(Int(list[k]), base, bodyBase, g, escape, hits + k)
                    }
                }
            }
        }
        // A bullet that hit another bullet stops no later than that one does: each sweep took the
        // other as moving on through the step, and one stopped earlier is not where it was assumed.
        // (Read from the sweeps' own times, so the result does not depend on the order.)
        var stop = [Float](repeating: 1, count: count)
        var indexOfBody: [Int32: Int] = [:]
        for k in 0..<count { indexOfBody[bullets[k]] = k }
        for k in 0..<count {
            stop[k] = times[k]
            if times[k] < 1, let j = indexOfBody[hits[k]] { stop[k] = min(times[k], times[j]) }
        }
        for k in 0..<count where stop[k] < 1 { moveToImpact(Int(bullets[k]), stop[k]) }
    }

    /// The time of impact in [0, 1) of bullet `bi`'s swept inner circle against the other dynamic
    /// bodies as they stand, or 1 when it hits none.
    private func sweepBullet(
        _ bi: Int, _ base: UnsafePointer<Shape>, _ bodyBase: UnsafePointer<Body>, _ grid: GridQuery,
        _ escape: Float, _ hitBody: UnsafeMutablePointer<Int32>
    ) -> Float {
        hitBody.pointee = Int32.max
        let b = bodyBase[bi]
        let p0 = b.center0, d = b.center - b.center0
        let r = b.minExtent
        guard d.lengthSquared > 0, r > 0 else { return 1 }
        let sweep = AABB(lower: minv(p0, b.center), upper: maxv(p0, b.center)).inflated(by: r)
        var tMin: Float = 1
        withUnsafeMutablePointer(to: &tMin) { tMin in
            func test(_ q: Int32) {
                let other = base[Int(q)]
                guard other.isAlive, other.body != Int32(bi) else { return }
                let ob = bodyBase[Int(other.body)]
                guard ob.type == .dynamic else { return }
                var s = b.headShape, collides = false
                while s >= 0 && !collides {
                    collides = base[Int(s)].filter.shouldCollide(with: other.filter)
                    s = base[Int(s)].nextShape
                }
                guard collides else { return }
                if ob.jointCount > 0 && b.jointCount > 0 && jointPreventsCollision(Int32(bi), other.body) { return }
                // In the other body's frame: it stands where it started the step (turned as it
                // ends it) and the bullet moves by the difference of their travels, so a body that
                // was knocked ahead of the bullet is not met where it ended, and two bullets meeting
                // head-on stop at the same time. A bullet already within reach of it (pushing it) is
                // swept again as a quarter-size circle, as against static shapes.
                let dOther = ob.center - ob.center0
                let start = Transform(p: ob.transform.p - dOther, q: ob.transform.q)
                let relative = d - dOther
                guard relative.lengthSquared > 0 else { return }
                let hit =
                    sweepCircle(from: p0, by: relative, radius: r, against: other, transform: start)
                    ?? sweepCircle(from: p0, by: relative, radius: r / 4, against: other, transform: start)
                if let t = hit, t < tMin.pointee || (t == tMin.pointee && other.body < hitBody.pointee) {
                    tMin.pointee = t
                    hitBody.pointee = other.body
                }
            }
            func testEntry(_ e: GridEntry) { if e.proxy >= 0 && e.flags.contains(.dynamicBody) { test(e.proxy) } }
            grid.query(sweep.inflated(by: escape), exclude: -1, isStatic: false, testEntry)
        }
        return tMin
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
        // That contact needs a pair: the body now rests a hair off the surface, possibly still inside
        // the fat box it had before the hit, which may stop short of the surface. Box2D's rule: a fat
        // box must cover the body's box grown by the speculative distance, else it is re-centred and
        // searched again. Without it the body is put back at the same place every step and never stops.
        var s2 = nb.headShape
        while s2 >= 0 {
            let si = Int(s2)
            let reach = shapes[si].computeAABB(nb.transform).inflated(by: speculativeDistance)
            if !shapes[si].fatAABB.contains(reach) {
                shapes[si].fatAABB = reach.inflated(by: margin(for: reach))
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
