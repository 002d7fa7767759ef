extension World {
    /// The validation walk: checks every cross-reference of the world's bookkeeping and returns what
    /// is wrong (empty when consistent). Costs O(bodies + shapes + contacts + joints); tests switch it
    /// on per step with `WorldDef.validate`.
    package func validate() -> [String] {
        var errors: [String] = []
        // awake list
        for (k, bi) in sets.awake.enumerated() {
            let b = bodies[Int(bi)]
            if !b.isAlive { errors.append("awake body \(bi) is dead") }
            if b.awakeIndex != Int32(k) { errors.append("awake index of body \(bi) is \(b.awakeIndex), expected \(k)") }
            if b.type == .static { errors.append("static body \(bi) in the awake list") }
            if b.sleepIsland >= 0 { errors.append("awake body \(bi) also in sleeping island \(b.sleepIsland)") }
        }
        for (i, b) in bodies.enumerated() where b.isAlive {
            if !b.transform.p.isFinite || !b.center.isFinite || !b.linearVelocity.isFinite || !b.angularVelocity.isFinite {
                errors.append("body \(i) is not finite")
            }
            if b.type != .static && b.awakeIndex < 0 {
                if b.sleepIsland < 0 || !sets.sleepIslands[Int(b.sleepIsland)].contains(Int32(i)) {
                    errors.append("body \(i) is neither awake nor in a sleeping island")
                }
                if b.linearVelocity != .zero || b.angularVelocity != 0 { errors.append("sleeping body \(i) is moving") }
            }
            // contact edges
            var n: Int32 = 0
            var ck = b.headContactKey
            while ck >= 0 && n <= b.contactCount {
                let c = contacts[Int(ck >> 1)]
                if !c.isAlive { errors.append("body \(i) lists dead contact \(ck >> 1)") }
                let mine = (ck & 1) == 0 ? c.bodyA : c.bodyB
                if mine != Int32(i) { errors.append("contact \(ck >> 1) edge does not point back to body \(i)") }
                n += 1
                ck = c.nextKey.get(Int(ck & 1))
            }
            if n != b.contactCount { errors.append("body \(i) contact count \(b.contactCount), list has \(n)") }
            var jn: Int32 = 0
            var jk = b.headJointKey
            while jk >= 0 && jn <= b.jointCount {
                let j = joints[Int(jk >> 1)]
                if !j.isAlive { errors.append("body \(i) lists dead joint") }
                jn += 1
                jk = j.nextKey.get(Int(jk & 1))
            }
            if jn != b.jointCount { errors.append("body \(i) joint count \(b.jointCount), list has \(jn)") }
        }
        // contacts and the pair table
        for (i, c) in contacts.enumerated() where contactKeys.base[i] != ContactKey(c, bodies: bodies.base) {
            errors.append("contact \(i)'s key differs from its record")
        }
        var alive = 0
        for (i, c) in contacts.enumerated() where c.isAlive {
            alive += 1
            if broadPhase.pairs.find(c.pairKey) != Int32(i) {
                errors.append("contact \(i) missing from the pair table")
            }
            if !shapes[Int(c.shapeA)].isAlive || !shapes[Int(c.shapeB)].isAlive { errors.append("contact \(i) refers to a dead shape") }
            let m = c.manifold
            for k in 0..<Int(max(0, min(m.pointCount, 2))) {
                let p = k == 0 ? m.p0 : m.p1
                if !(p.normalImpulse.isFinite && p.tangentImpulse.isFinite && p.point.isFinite && p.separation.isFinite) {
                    errors.append("contact \(i) point \(k) is not finite")
                }
            }
            if c.isTouching {
                let a = bodies[Int(c.bodyA)], b = bodies[Int(c.bodyB)]
                let aSleeps = a.type == .dynamic && a.awakeIndex < 0, bSleeps = b.type == .dynamic && b.awakeIndex < 0
                if (aSleeps && b.type == .dynamic && b.awakeIndex >= 0) || (bSleeps && a.type == .dynamic && a.awakeIndex >= 0) {
                    errors.append("touching contact \(i) joins an awake and a sleeping body")
                }
            }
        }
        // the constraint graph: each dynamic body holds exactly its touching contacts' colours, each once
        for (i, c) in contacts.enumerated() where c.isAlive {
            if !c.isTouching && c.color != 0 { errors.append("contact \(i) keeps colour \(c.color) without touching") }
            if Int(c.color) >= ConstraintColoring.colorCount { errors.append("contact \(i) has colour \(c.color)") }
        }
        let held = ConstraintColoring.heldColors(contacts, bodyCount: bodies.count) { bodies[Int($0)].type == .dynamic }
        if let t = held.twice { errors.append("body \(t.body) has two touching contacts of colour \(t.color)") }
        for (i, b) in bodies.enumerated() where b.isAlive && b.contactColors != held.colors[i] {
            let marked = String(b.contactColors, radix: 2), holds = String(held.colors[i], radix: 2)
            errors.append("body \(i) marks colours \(marked), its contacts hold \(holds)")
        }
        if alive != broadPhase.pairs.count {
            errors.append("pair table holds \(broadPhase.pairs.count) pairs for \(alive) contacts")
        }
        if !broadPhase.pairs.partnerListsAreConsistent() { errors.append("pair table's partner lists disagree with its pairs") }
        // joints: kept colours are the ones a fresh choice makes (see `KeptJointGraph`)
        if jointGraph.isCurrent && orderJoints() != jointGraph {
            let stale = "a change to the joints, the awake bodies or their contacts' colours did not mark them stale"
            errors.append("the kept joint colours differ from a fresh choice: \(stale)")
        }
        for (i, j) in joints.enumerated() where j.isAlive {
            if !j.impulses.isFinite { errors.append("joint \(i) (\(j.def.kind)) impulses are not finite: \(j.impulses), def \(j.def), bodies \(bodies[Int(j.bodyA)].type)/\(bodies[Int(j.bodyB)].type) masses \(bodies[Int(j.bodyA)].mass)/\(bodies[Int(j.bodyB)].mass) inertia \(bodies[Int(j.bodyA)].inertia)/\(bodies[Int(j.bodyB)].inertia)") }
        }
        // shapes
        for (i, s) in shapes.enumerated() where s.isAlive {
            if !bodies[Int(s.body)].isAlive { errors.append("shape \(i) on a dead body") }
            if !s.fatAABB.contains(s.aabb) { errors.append("shape \(i) fat box does not contain its box") }
            if !s.aabb.isValid { errors.append("shape \(i) box is not valid") }
        }
        // boxes left behind only while no query grid is kept (see `refreshStaleBoxes`)
        if hasStaleBoxes && broadPhase.queryIndex.isBuilt && !broadPhase.queryIndex.movableStale {
            errors.append("boxes are left behind while a query grid is kept")
        }
        // sleeping islands
        for (k, isl) in sets.sleepIslands.enumerated() {
            for bi in isl where bodies[Int(bi)].sleepIsland != Int32(k) { errors.append("island \(k) lists body \(bi) that is not in it") }
        }
        return errors
    }

    /// Pairs of shapes whose fat boxes overlap and that should collide but have no contact: found by
    /// brute force, O(n²), for tests of the grid.
    ///
    /// Right after a step, a shape whose fat box grew in that step (`enlarged`) has not been searched
    /// yet: the next step's pair search does it first. Such pairs are pending, not missing, and are
    /// left out; call `findNewPairs()` first to check every pair.
    package func missingPairs() -> [(ShapeID, ShapeID)] {
        var missing: [(ShapeID, ShapeID)] = []
        let alive = (0..<shapes.count).filter { shapes[$0].isAlive }
        for x in 0..<alive.count {
            for y in (x + 1)..<max(alive.count, x + 1) {
                let a = Int32(alive[x]), b = Int32(alive[y])
                guard shapes[Int(a)].fatAABB.overlaps(shapes[Int(b)].fatAABB), shouldCollide(a, b) else { continue }
                if shapes[Int(a)].enlarged || shapes[Int(b)].enlarged { continue }
                let ba = bodies[Int(shapes[Int(a)].body)], bb = bodies[Int(shapes[Int(b)].body)]
                // pairs between resting bodies are not searched until one moves
                if ba.awakeIndex < 0 && bb.awakeIndex < 0 { continue }
                if broadPhase.pairs.find(pairKey(a, b)) < 0 { missing.append((shapeID(a), shapeID(b))) }
            }
        }
        return missing
    }

    /// Contacts that exist though the shapes should not collide, or whose fat boxes do not overlap
    /// (what a brute-force pair check would not report). Call it right after a step, before
    /// `findNewPairs()`.
    ///
    /// A contact is destroyed by the narrow phase at the start of the step after its fat boxes part,
    /// so a contact of a shape whose fat box was re-centred in the last step (`enlarged`) may not
    /// overlap yet and is left out, as are contacts between two bodies that are not awake (the narrow
    /// phase does not visit them).
    package func extraPairs() -> [(ShapeID, ShapeID)] {
        var extra: [(ShapeID, ShapeID)] = []
        for c in contacts where c.isAlive {
            let a = shapes[Int(c.shapeA)], b = shapes[Int(c.shapeB)]
            if !shouldCollide(c.shapeA, c.shapeB) { extra.append((shapeID(c.shapeA), shapeID(c.shapeB))); continue }
            let ba = bodies[Int(a.body)], bb = bodies[Int(b.body)]
            if ba.awakeIndex < 0 && bb.awakeIndex < 0 { continue }
            if a.enlarged || b.enlarged { continue }
            if !a.fatAABB.overlaps(b.fatAABB) { extra.append((shapeID(c.shapeA), shapeID(c.shapeB))) }
        }
        return extra
    }

    /// Runs the pair search now, as the next step does first: afterwards every overlapping pair of
    /// fat boxes that should collide has a contact, so `missingPairs()` can check all of them.
    /// Changes nothing the next step would not do itself (it finds the same pairs in the same order).
    package func findNewPairs() { updatePairs() }

    /// Whether the grid's movable layer hashes its cells (a sparse world) instead of laying them out
    /// in rows, as of the last pair search (for tests of both layouts).
    package var broadPhaseHashesCells: Bool { broadPhase.grid.movable.layout.hashed }

    /// How many shapes the pair search's grid holds, movable and static, as of the last search
    /// (for tests of `BroadPhase.meetsNothing`).
    package var broadPhaseProxyCounts: (movable: Int, static: Int) {
        (broadPhase.movableProxies.count, broadPhase.grid.staticProxyCount)
    }

    /// How many pair searches found the grid's movable layer updated in place instead of rebuilt,
    /// and how many proxies those updates moved to other cells (for tests of the in-place path).
    package var broadPhaseInPlaceCounts: (updates: Int, relocations: Int) {
        (broadPhase.grid.inPlaceUpdates, broadPhase.grid.relocations)
    }

    /// Where the structures kept up to date shape by shape for static changes (the grid's static
    /// layer, the query grid's, the segment ghosts) differ from what a rebuild from all shapes
    /// would hold (for tests of the incremental path; brings them up to date first, as the next
    /// step and query would). Empty when they agree.
    package func staticIndexErrors() -> [String] {
        var errors: [String] = []
        updateStaticLayer()
        func check(_ layer: GridLayer, _ invCellSize: Float, _ name: String, _ isMember: (Int32) -> Bool) {
            var members = 0, cells = 0
            for p in 0..<Int32(shapes.count) {
                let slot = Int(p) < layer.slotOf.count ? Int(layer.slotOf[Int(p)]) : -1
                guard isMember(p) else {
                    if slot != -1 { errors.append("\(name): shape \(p) is held but does not belong") }
                    continue
                }
                members += 1
                if slot >= 0 {
                    let e = layer.small[slot]
                    if slot >= layer.smallCount || e.proxy != p || e.box != shapes[Int(p)].fatAABB {
                        errors.append("\(name): shape \(p)'s entry is stale"); continue
                    }
                    let r = UniformGrid.cellRange(e.box, invCellSize)
                    cells += UniformGrid.cellCount(r)
                    for iy in r.y0...r.y1 {
                        for ix in r.x0...r.x1 {
                            let b = layer.layout.bucket(row: layer.layout.row(iy), ix)
                            if !(Int(layer.start[b])..<Int(layer.end[b])).contains(where: { layer.entries[$0].proxy == p }) {
                                errors.append("\(name): shape \(p) is missing from cell (\(ix), \(iy))")
                            }
                        }
                    }
                } else if slot <= -2 {
                    let i = -2 - slot
                    if i >= layer.large.count || layer.large[i].proxy != p || layer.large[i].box != shapes[Int(p)].fatAABB {
                        errors.append("\(name): shape \(p)'s large entry is stale")
                    }
                } else {
                    errors.append("\(name): shape \(p) belongs but is not held")
                }
            }
            if members != layer.smallCount + layer.large.count {
                errors.append("\(name): holds \(layer.smallCount + layer.large.count) proxies, \(members) belong")
            }
            var inBuckets = 0
            for b in 0..<layer.end.count { inBuckets += Int(layer.end[b]) - Int(layer.start[b]) }
            if inBuckets != cells || inBuckets != layer.live { errors.append("\(name): \(inBuckets) entries in buckets, \(cells) cells, live \(layer.live)") }
        }
        check(broadPhase.grid.statics, broadPhase.grid.invCellSize, "broad phase") { isStaticGridProxy($0) }
        if broadPhase.queryIndex.isBuilt {
            updateQueryIndex()
            let queryGrid = broadPhase.queryIndex.grid
            check(queryGrid.statics, queryGrid.invCellSize, "query grid") { p in shapes[Int(p)].isAlive && shapes[Int(p)].isStaticProxy }
        }
        // the ghosts, against a rebuild from every static segment
        updateSegmentGhosts()
        let kept = broadPhase.segmentGhosts
        broadPhase.segmentGhostsDirty = true
        updateSegmentGhosts()
        let found = broadPhase.segmentGhosts
        for i in 0..<max(kept.count, found.count) {
            let a = i < kept.count ? kept[i] : SegmentGhosts(), b = i < found.count ? found[i] : SegmentGhosts()
            if a.hasBefore != b.hasBefore || a.hasAfter != b.hasAfter || (a.hasBefore && a.before != b.before) || (a.hasAfter && a.after != b.after) {
                errors.append("ghosts of shape \(i) differ from a rebuild")
            }
        }
        return errors
    }

    /// How many ghost vertices the static segments have (ends met by exactly one other segment).
    package var segmentGhostCount: Int {
        updateSegmentGhosts()
        return broadPhase.segmentGhosts.reduce(0) { $0 + ($1.hasBefore ? 1 : 0) + ($1.hasAfter ? 1 : 0) }
    }

    /// Every live contact's shape pair (touching or not), in contact order: the broad phase's output.
    package func contactPairs() -> [(ShapeID, ShapeID)] {
        contacts.filter { $0.isAlive }.map { (shapeID($0.shapeA), shapeID($0.shapeB)) }
    }

    /// FNV-1a over the bits of every live body's position and angle, in body index order.
    package func stateHash() -> UInt64 {
        var h = FNV1a()
        for b in bodies where b.isAlive {
            h.add(b.transform.p.x)
            h.add(b.transform.p.y)
            h.add(b.transform.q.angle)
        }
        return h.value
    }
}
