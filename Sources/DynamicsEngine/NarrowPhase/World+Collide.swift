// The narrow phase: each contact's manifold, recycled or recomputed, and the touches that begin
// and end; `computeManifold` picks the collision routine for a pair of shape kinds.

extension World {
    /// Updates every contact that has an awake body: drops pairs whose fat boxes parted, recycles or
    /// recomputes manifolds, and records touch changes. The per-contact work runs over raw buffers
    /// (no exclusivity checks, no copies of the big arrays); changes to the world's structure —
    /// destroying contacts, waking islands, events — are applied afterwards in contact order.
    func collide() {
        let spec = speculativeDistance
        updateSegmentGhosts()
        let ghosts = broadPhase.segmentGhosts
        let recycleDistance = 10 * linearSlop
        let recycleJointed = def.recycleJointedContacts
        let recycleCosAngle: Float = 0.98   // about 11.5°
        let slop = linearSlop
        let count = contacts.count
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
        // Raw views: the blocks only write their own contacts' records.
        let cp = contacts.base, bp = bodies.base, sp = shapes.base, keys = contactKeys.base
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
                let jointed = !recycleJointed && (bA.pointee.jointCount > 0 || bB.pointee.jointCount > 0)
                if c.pointee.cacheValid && !bA.pointee.isFast && !bB.pointee.isFast && !jointed {
                    let rel = xfA.invMul(xfB)
                    let qa0 = c.pointee.cachedRotationA, qb0 = c.pointee.cachedRotationB
                    let cosA = xfA.q.c * qa0.c + xfA.q.s * qa0.s
                    let cosB = xfB.q.c * qb0.c + xfB.q.s * qb0.s
                    let extentA: Float = bA.pointee.type == .static ? 0 : bA.pointee.maxExtent
                    let extentB: Float = bB.pointee.type == .static ? 0 : bB.pointee.maxExtent
                    let qr = rel.q.invMul(c.pointee.cachedRelative.q)
                    let moved = distance(rel.p, c.pointee.cachedRelative.p) + max(extentA, extentB) * abs(qr.s)
                    // A manifold with no point is kept only while the pair cannot have come
                    // within the speculative distance: its margin past it when computed (see
                    // Collide.swift). Kept for a whole speculative distance instead, a card
                    // computed 2.09 pt from a wall and sliding 1.99 pt a step reached it with no
                    // contact and went 1.9 pt in.
                    let tolerance = c.pointee.isTouching
                        ? recycleDistance : min(recycleDistance, c.pointee.manifold.p0.separation - spec)
                    if min(cosA, cosB) > recycleCosAngle && moved < tolerance {
                        let dqA = xfA.q.mul(Rot(c: qa0.c, s: -qa0.s))
                        let dqB = xfB.q.mul(Rot(c: qb0.c, s: -qb0.s))
                        let n = c.pointee.manifold.normal
                        let dc = bB.pointee.center - bA.pointee.center
                        if c.pointee.manifold.pointCount > 0 {
                            let p = c.pointee.manifold.p0
                            c.pointee.manifold.p0.separation = p.baseSeparation + dot(dc + dqB.rotate(p.anchorB) - dqA.rotate(p.anchorA), n)
                        }
                        if c.pointee.manifold.pointCount > 1 {
                            let p = c.pointee.manifold.p1
                            c.pointee.manifold.p1.separation = p.baseSeparation + dot(dc + dqB.rotate(p.anchorB) - dqA.rotate(p.anchorA), n)
                        }
                        continue
                    }
                }
                c.pointee.cachedRotationA = xfA.q
                c.pointee.cachedRotationB = xfB.q
                c.pointee.cachedRelative = xfA.invMul(xfB)
                c.pointee.cacheValid = true
                var m = self.computeManifold(sA.pointee, xfA, sB.pointee, xfB, spec: spec, slop: slop, scratch: scratch)
                if sA.pointee.kind == .segment && Int(c.pointee.shapeA) < ghosts.count && bA.pointee.type == .static {
                    let g = ghosts[Int(c.pointee.shapeA)]
                    if (g.hasBefore || g.hasAfter) && World.isGhostContact(m, segment: sA.pointee, xf: xfA, ghosts: g,
                                                                       otherKind: sB.pointee.kind, slop: slop) {
                        m.pointCount = 0
                        // Not recycled: the neighbour's face holds the item only while its own
                        // manifold is fresh; kept empty for the next few points of travel, this one
                        // would leave the item unsupported where the neighbour's cache turns over.
                        c.pointee.cacheValid = false
                    }
                }
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
                        break
                    }
                    m[k] = mp
                }
                c.pointee.manifold = m
                let touching = m.pointCount > 0
                if touching != c.pointee.isTouching {
                    c.pointee.isTouching = touching
                    keys[i].isTouching = touching
                    changed.append(Int32(i))
                }
            }
            disjointLists[block] = disjoint
            changedLists[block] = changed
        }
        var disjoint: [Int32] = []
        var changed: [Int32] = []
        for b in 0..<blocks { disjoint.append(contentsOf: disjointLists[b]); changed.append(contentsOf: changedLists[b]) }
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
                colorTouchingContact(Int32(i))   // kept until it stops touching
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
            } else {
                releaseContactColor(Int32(i))
                if c.enableContactEvents {
                    let a = shapeID(c.shapeA), b = shapeID(c.shapeB)
                    endEvents.append(ContactEvent(shapeA: a, shapeB: b, point: .zero, normal: m.normal, approachSpeed: 0))
                }
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
