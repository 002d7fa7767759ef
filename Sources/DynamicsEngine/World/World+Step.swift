import Foundation

extension World {
    /// Advances the world by `dt` seconds with `substeps` solver sub-steps (Box2D's defaults: 1/60, 4).
    ///
    /// The recipe, one call per phase: find new pairs (grid), update manifolds (once per step),
    /// solve with sub-steps (integrate, warm start, solve, integrate positions, relax), restitution,
    /// store impulses, finalise bodies (transforms, boxes, sleep timers), continuous collision for fast
    /// bodies, then put resting islands to sleep.
    package func step(dt: Float, substeps: Int) {
        beginEvents.removeAll(keepingCapacity: true)
        endEvents.removeAll(keepingCapacity: true)
        guard dt > 0, dt.isFinite else { return }
        let n = max(1, min(substeps, 64))
        pool.beginStep()
        defer { pool.endStep() }
        var timer = PhaseTimer(isProfiling)
        updatePairs()
        profile.pairs = timer.lap()
        collide()
        profile.collide = timer.lap()
        solve(dt: dt, substeps: n)
        _ = timer.lap()   // solve times its own phases
        if def.enableSleep { updateSleep(dt: dt) }
        profile.sleep = timer.lap()
        solvedContactCount = -1
        stepCount += 1
        if def.validate {
            // The engine only reports: whoever switched validation on (a test, the animator under
            // DYNAMICS_VALIDATE) decides whether a broken invariant stops the run.
            validationErrors = validate()
        }
    }

    // MARK: Broad phase

    func rebuildProxyLists() {
        movableProxies.removeAll(keepingCapacity: true)
        staticProxies.removeAll(keepingCapacity: true)
        kinematicProxies.removeAll(keepingCapacity: true)
        for i in 0..<shapes.count where shapes[i].isAlive {
            if shapes[i].isStaticProxy { staticProxies.append(Int32(i)) } else { movableProxies.append(Int32(i)) }
            if bodies[Int(shapes[i].body)].type == .kinematic { kinematicProxies.append(Int32(i)) }
        }
        proxyListDirty = false
        grid.movableDirty = true
    }

    /// Picks the grid cell from the typical size of movable shapes: the median of their fat boxes'
    /// larger side (a cell about one object wide keeps each object in ≤ 4 cells and few objects per cell).
    func chooseCellSize() {
        guard !movableProxies.isEmpty else { return }
        var sizes = movableProxies.map { max(shapes[Int($0)].fatAABB.width, shapes[Int($0)].fatAABB.height) }
        sizes.sort()
        let median = sizes[sizes.count / 2]
        grid.setCellSize(max(median, 4 * linearSlop))
        cellSizeProxyCount = movableProxies.count
        cellSizeChosen = true
    }

    func shouldCollide(_ a: Int32, _ b: Int32) -> Bool {
        let sa = shapes[Int(a)], sb = shapes[Int(b)]
        if sa.body == sb.body { return false }
        let ta = bodies[Int(sa.body)].type, tb = bodies[Int(sb.body)].type
        if ta != .dynamic && tb != .dynamic { return false }
        if !sa.filter.shouldCollide(with: sb.filter) { return false }
        if sa.kind == .segment && sb.kind == .segment { return false }
        if bodies[Int(sa.body)].jointCount > 0 && bodies[Int(sb.body)].jointCount > 0 && jointPreventsCollision(sa.body, sb.body) { return false }
        return true
    }

    func updatePairs() {
        if proxyListDirty { rebuildProxyLists() }
        if def.cellSize == nil {
            if !cellSizeChosen || movableProxies.count > 2 * cellSizeProxyCount + 64 { chooseCellSize() }
        }
        guard !movedProxies.isEmpty else { return }
        shapes.withUnsafeBufferPointer { sh in
            bodies.withUnsafeBufferPointer { bb in
                let base = sh.baseAddress!, bodyBase = bb.baseAddress!
                grid.updateStatic(staticProxies, shapes: base, shapeCount: sh.count, bodies: bodyBase)
                grid.updateMovable(movableProxies, moved: movedProxies, shapes: base, shapeCount: sh.count, bodies: bodyBase)
            }
        }
        // Candidates go through a pointer: appending to a local captured by the report function
        // costs a dynamic exclusivity check per candidate. The arrays are kept for their capacity.
        var candidates = PairCandidates()
        swap(&candidates, &pairCandidates)
        candidates.found.removeAll(keepingCapacity: true)
        candidates.jointed.removeAll(keepingCapacity: true)
        movedProxies.sort()
        // Pairs that already have a contact are dropped as they are found (Box2D does the same), so
        // only new pairs are collected and sorted. The table is read through a raw view (partner
        // lists, keys): through `self` each lookup would cost an exclusivity check, through a copy a
        // retain and release of its arrays per query. Nothing writes the table before the view ends.
        grid.withQuery { g in withUnsafeMutablePointer(to: &candidates) { out in pairs.withKeys { existing in
            shapes.withUnsafeBufferPointer { sh in
                bodies.withUnsafeBufferPointer { bb in
                    let base = sh.baseAddress!, bodyBase = bb.baseAddress!
                    for p in movedProxies {
                        guard base[Int(p)].isAlive else { continue }
                        let me = GridEntry(p, shapes: base, bodies: bodyBase, conservative: false)
                        // shouldCollide, on the flags the grid keeps beside each box: most candidates
                        // are decided without reading the other shape or its body
                        func report(_ e: GridEntry) {
                            let q = e.proxy
                            if q < 0 { return }   // a vacated entry (see `GridEntry.vacated`)
                            if e.flags.contains(.enlarged) && q < p { return }   // the other's own search reports it
                            if e.body == me.body { return }
                            let both = me.flags.intersection(e.flags), either = me.flags.union(e.flags)
                            if !either.contains(.dynamicBody) || both.contains(.segment) { return }
                            if either.contains(.customFilter) && !base[Int(p)].filter.shouldCollide(with: base[Int(q)].filter) { return }
                            if existing.contains(p, q) { return }
                            let key = pairKey(p, q)
                            if both.contains(.jointedBody) && bodyBase[Int(me.body)].jointCount > 0 && bodyBase[Int(e.body)].jointCount > 0 {
                                out.pointee.jointed.append(key)   // joints decide below
                            } else {
                                out.pointee.found.append(key)
                            }
                        }
                        g.query(me.box, exclude: p, isStatic: false, report)
                        if !base[Int(p)].isStaticProxy { g.query(me.box, exclude: p, isStatic: true, report) }
                    }
                }
            }
        } } }
        for key in candidates.jointed {
            let a = shapes[Int(key >> 32)].body, b = shapes[Int(key & 0xFFFF_FFFF)].body
            if !jointPreventsCollision(a, b) { candidates.found.append(key) }
        }
        shapes.withUnsafeMutableBufferPointer { sh in
            for p in movedProxies where Int(p) < sh.count { sh[Int(p)].enlarged = false }
        }
        movedProxies.removeAll(keepingCapacity: true)
        candidates.found.sort()
        var last = UInt64.max
        for key in candidates.found where key != last {
            last = key
            createContact(Int32(truncatingIfNeeded: key >> 32), Int32(truncatingIfNeeded: key & 0xFFFF_FFFF))
        }
        swap(&candidates, &pairCandidates)
    }

    // MARK: Narrow phase

    /// Updates every contact that has an awake body: drops pairs whose fat boxes parted, recycles or
    /// recomputes manifolds, and records touch changes. The per-contact work runs over raw buffers
    /// (no exclusivity checks, no copies of the big arrays); changes to the world's structure —
    /// destroying contacts, waking islands, events — are applied afterwards in contact order.
    func collide() {
        let spec = speculativeDistance
        let recycleDistance = 10 * linearSlop
        let recycleCosAngle: Float = 0.98   // about 11.5°
        let slop = linearSlop
        let count = contacts.count
        var cs = contacts
        contacts = []
        // Blocks of contacts in order; each block records its own structural changes, merged after
        // in block order, so the result does not depend on how many threads ran.
        let blockSize = SplitSize.narrowPhaseBlock
        let blocks = (count + blockSize - 1) / blockSize
        let disjointLists = UnsafeMutablePointer<[Int32]>.allocate(capacity: max(1, blocks))
        let changedLists = UnsafeMutablePointer<[Int32]>.allocate(capacity: max(1, blocks))
        disjointLists.initialize(repeating: [], count: max(1, blocks))
        changedLists.initialize(repeating: [], count: max(1, blocks))
        defer {
            disjointLists.deinitialize(count: max(1, blocks)); disjointLists.deallocate()
            changedLists.deinitialize(count: max(1, blocks)); changedLists.deallocate()
        }
        let scratchStride = 2 * max(8, maxPolygonCount)
        let threadScratch = UnsafeMutablePointer<Vec2>.allocate(capacity: scratchStride * max(1, blocks))
        defer { threadScratch.deallocate() }
        cs.withUnsafeMutableBufferPointer { cbuf in
            bodies.withUnsafeBufferPointer { bbuf in
                shapes.withUnsafeBufferPointer { sbuf in
                    let cp = cbuf.baseAddress!, bp = bbuf.baseAddress!, sp = sbuf.baseAddress!
                    pool.run(blocks: blocks) { block in
                        var disjoint: [Int32] = []
                        var changed: [Int32] = []
                        let scratch = threadScratch + block * scratchStride
                        for i in (block * blockSize)..<min(count, (block + 1) * blockSize) {
                            let c = cp + i
                            if !c.pointee.isAlive { continue }
                            let bA = bp + Int(c.pointee.bodyA), bB = bp + Int(c.pointee.bodyB)
                            if bA.pointee.awakeIndex < 0 && bB.pointee.awakeIndex < 0 { continue }
                            let sA = sp + Int(c.pointee.shapeA), sB = sp + Int(c.pointee.shapeB)
                            if !sA.pointee.fatAABB.overlaps(sB.pointee.fatAABB) {
                                disjoint.append(Int32(i))
                                continue
                            }
                            let xfA = bA.pointee.transform, xfB = bB.pointee.transform
                            // Contact recycling (Box2D v3.2's idea): while the pair's relative pose has
                            // barely changed since the manifold was computed, keep its normal and anchors
                            // and only update the separations from the motion, exactly as the sub-steps
                            // do. Stacks stop jittering and resting pairs skip the narrow phase.
                            if c.pointee.cacheValid && !bA.pointee.isFast && !bB.pointee.isFast {
                                let rel = xfA.invMul(xfB)
                                let qa0 = c.pointee.cachedRotationA, qb0 = c.pointee.cachedRotationB
                                let cosA = xfA.q.c * qa0.c + xfA.q.s * qa0.s
                                let cosB = xfB.q.c * qb0.c + xfB.q.s * qb0.s
                                let extentA: Float = bA.pointee.type == .static ? 0 : bA.pointee.maxExtent
                                let extentB: Float = bB.pointee.type == .static ? 0 : bB.pointee.maxExtent
                                let qr = rel.q.invMul(c.pointee.cachedRelative.q)
                                let moved = distance(rel.p, c.pointee.cachedRelative.p) + max(extentA, extentB) * abs(qr.s)
                                let tolerance = c.pointee.isTouching ? recycleDistance : min(recycleDistance, spec)
                                if min(cosA, cosB) > recycleCosAngle && moved < tolerance {
                                    let dqA = xfA.q.mul(Rot(c: qa0.c, s: -qa0.s))
                                    let dqB = xfB.q.mul(Rot(c: qb0.c, s: -qb0.s))
                                    let n = c.pointee.manifold.normal
                                    let dc = bB.pointee.center - bA.pointee.center
                                    if c.pointee.manifold.pointCount > 0 {
                                        let p = c.pointee.manifold.p0
                                        c.pointee.manifold.p0.separation = p.baseSeparation + dot(dc + dqB.rotate(p.anchorB) - dqA.rotate(p.anchorA), n)
                                        c.pointee.manifold.p0.persisted = true
                                    }
                                    if c.pointee.manifold.pointCount > 1 {
                                        let p = c.pointee.manifold.p1
                                        c.pointee.manifold.p1.separation = p.baseSeparation + dot(dc + dqB.rotate(p.anchorB) - dqA.rotate(p.anchorA), n)
                                        c.pointee.manifold.p1.persisted = true
                                    }
                                    continue
                                }
                            }
                            c.pointee.cachedRotationA = xfA.q
                            c.pointee.cachedRotationB = xfB.q
                            c.pointee.cachedRelative = xfA.invMul(xfB)
                            c.pointee.cacheValid = true
                            var m = self.computeManifold(sA.pointee, xfA, sB.pointee, xfB, spec: spec, slop: slop, scratch: scratch)
                            // anchors relative to the centres of mass; warm start by feature id
                            let old = c.pointee.manifold
                            let cA = bA.pointee.center, cB = bB.pointee.center
                            let dc = cB - cA
                            for k in 0..<Int(m.pointCount) {
                                var mp = m[k]
                                mp.anchorA = mp.point - cA
                                mp.anchorB = mp.point - cB
                                mp.baseSeparation = mp.separation - dot(dc + mp.anchorB - mp.anchorA, m.normal)
                                for o in 0..<Int(old.pointCount) where old[o].id == mp.id {
                                    mp.normalImpulse = old[o].normalImpulse
                                    mp.tangentImpulse = old[o].tangentImpulse
                                    mp.persisted = true
                                    break
                                }
                                m[k] = mp
                            }
                            c.pointee.manifold = m
                            let touching = m.pointCount > 0
                            if touching != c.pointee.isTouching {
                                c.pointee.isTouching = touching
                                changed.append(Int32(i))
                            }
                        }
                        disjointLists[block] = disjoint
                        changedLists[block] = changed
                    }
                }
            }
        }
        var disjoint: [Int32] = []
        var changed: [Int32] = []
        for b in 0..<blocks { disjoint.append(contentsOf: disjointLists[b]); changed.append(contentsOf: changedLists[b]) }
        swap(&contacts, &cs)   // not `contacts = cs`: a second reference would make the next write copy the whole array
        // Structural changes, in contact order.
        var d = 0, g = 0
        while d < disjoint.count || g < changed.count {
            let takeDisjoint = g >= changed.count || (d < disjoint.count && disjoint[d] < changed[g])
            if takeDisjoint {
                destroyContact(disjoint[d], reportEnd: true)
                d += 1
                continue
            }
            let i = Int(changed[g])
            g += 1
            let c = contacts[i]
            let m = c.manifold
            if c.isTouching {
                let bA = bodies[Int(c.bodyA)], bB = bodies[Int(c.bodyB)]
                // a touch wakes whatever sleeps on the other side
                if bA.awakeIndex < 0 && bA.type == .dynamic { wake(bodyIndex: c.bodyA) }
                if bB.awakeIndex < 0 && bB.type == .dynamic { wake(bodyIndex: c.bodyB) }
                if c.enableContactEvents {
                    var deepest = m.p0
                    if m.pointCount > 1 && m.p1.separation < deepest.separation { deepest = m.p1 }
                    let vA = bA.linearVelocity + cross(bA.angularVelocity, deepest.point - bA.center)
                    let vB = bB.linearVelocity + cross(bB.angularVelocity, deepest.point - bB.center)
                    beginEvents.append(ContactEvent(shapeA: shapeID(c.shapeA), shapeB: shapeID(c.shapeB), point: deepest.point,
                                                    normal: m.normal, approachSpeed: -dot(vB - vA, m.normal)))
                }
            } else if c.enableContactEvents {
                endEvents.append(ContactEvent(shapeA: shapeID(c.shapeA), shapeB: shapeID(c.shapeB), point: .zero, normal: m.normal, approachSpeed: 0))
            }
        }
    }

    /// `scratch` must hold 2 × (largest polygon vertex count) vectors.
    func computeManifold(_ sA: Shape, _ xfA: Transform, _ sB: Shape, _ xfB: Transform, spec: Float, slop: Float,
                         scratch: UnsafeMutablePointer<Vec2>) -> Manifold {
        switch (sA.kind, sB.kind) {
        case (.circle, .circle):
            return circleManifold(centerA: sA.p1, radiusA: sA.radius, xfA: xfA, centerB: sB.p1, radiusB: sB.radius, xfB: xfB, speculative: spec)
        case (.polygon, .circle):
            let p = sA.polygon!
            return polygonCircleManifold(vertices: p.vertices, normals: p.normals, count: Int(p.count), radiusA: 0, xfA: xfA,
                                         center: sB.p1, radius: sB.radius, xfB: xfB, speculative: spec)
        case (.segment, .circle):
            var v = (sA.p1, sA.p2)
            let nrm = (sA.p2 - sA.p1).rightPerp.normalized
            var nn = (nrm, -nrm)
            return withUnsafePointer(to: &v) { vp in
                withUnsafePointer(to: &nn) { np in
                    vp.withMemoryRebound(to: Vec2.self, capacity: 2) { vv in
                        np.withMemoryRebound(to: Vec2.self, capacity: 2) { nv in
                            polygonCircleManifold(vertices: vv, normals: nv, count: 2, radiusA: 0, xfA: xfA,
                                                  center: sB.p1, radius: sB.radius, xfB: xfB, speculative: spec)
                        }
                    }
                }
            }
        case (.polygon, .polygon):
            let pa = sA.polygon!, pb = sB.polygon!
            return polygonsManifold(vA: pa.vertices, nA: pa.normals, countA: Int(pa.count), xfA: xfA,
                                    vB: pb.vertices, nB: pb.normals, countB: Int(pb.count), xfB: xfB,
                                    scratch: scratch, speculative: spec, linearSlop: slop)
        case (.segment, .polygon):
            let pb = sB.polygon!
            var v = (sA.p1, sA.p2)
            let nrm = (sA.p2 - sA.p1).rightPerp.normalized
            var nn = (nrm, -nrm)
            let scr = scratch
            return withUnsafePointer(to: &v) { vp in
                withUnsafePointer(to: &nn) { np in
                    vp.withMemoryRebound(to: Vec2.self, capacity: 2) { vv in
                        np.withMemoryRebound(to: Vec2.self, capacity: 2) { nv in
                            polygonsManifold(vA: vv, nA: nv, countA: 2, xfA: xfA,
                                             vB: pb.vertices, nB: pb.normals, countB: Int(pb.count), xfB: xfB,
                                             scratch: scr, speculative: spec, linearSlop: slop)
                        }
                    }
                }
            }
        default:
            return Manifold()
        }
    }
}
