// The pair search: the step's broad phase (`BroadPhase`), which creates a contact for each new
// pair of overlapping fat boxes.

extension World {
    /// Whether shape `p` belongs in the grid's static layer now (see `BroadPhase.rebuildProxyLists`).
    func isStaticGridProxy(_ p: Int32) -> Bool { broadPhase.isStaticGridProxy(shapes[Int(p)]) }

    /// Brings the grid's static layer up to date (`BroadPhase.updateStaticLayer`).
    func updateStaticLayer() { broadPhase.updateStaticLayer(shapes: shapes, bodies: bodies) }

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
        broadPhase.lastStepCrowdLimited = 0
        noteMovesForQueries()                           // before the moves are consumed below
        if broadPhase.proxyListDirty { broadPhase.rebuildProxyLists(shapes: shapes, bodies: bodies) }
        if def.cellSize == nil {
            if !broadPhase.cellSizeChosen || broadPhase.movableProxies.count > 2 * broadPhase.cellSizeProxyCount + 64 {
                broadPhase.chooseCellSize(shapes: shapes, minimum: 4 * linearSlop)
            }
        }
        updateStaticLayer()
        // Moves of shapes the grid does not hold (see `rebuildProxyLists`) need no search.
        let inUse = broadPhase.categoriesInUse
        broadPhase.movedProxies.removeAll { p in
            guard Int(p) < shapes.count, shapes[Int(p)].isAlive else { return false }
            guard BroadPhase.meetsNothing(shapes[Int(p)].filter, inUse: inUse) else { return false }
            shapes[Int(p)].enlarged = false
            return true
        }
        guard !broadPhase.movedProxies.isEmpty else { return }
        // Raw views of the pools: no slot is added until the new contacts are created below.
        let base = shapes.base, bodyBase = bodies.base
        broadPhase.grid.updateMovable(broadPhase.movableProxies, moved: broadPhase.movedProxies, shapes: base,
                                      shapeCount: shapes.count, bodies: bodyBase, pool: pool)
        // The merged candidates; the arrays are kept between steps for their capacity.
        var candidates = PairCandidates()
        swap(&candidates, &broadPhase.pairCandidates)
        candidates.found.removeAll(keepingCapacity: true)
        candidates.jointed.removeAll(keepingCapacity: true)
        candidates.limited = 0
        broadPhase.movedProxies.sort()
        // The moved proxies search in blocks, in parallel: each block collects its own candidates
        // (through a pointer: appending to a local captured by the report function costs a dynamic
        // exclusivity check per candidate), merged below in block order and then sorted, so the
        // contacts made do not depend on the thread count.
        // Pairs that already have a contact are dropped as they are found (Box2D does the same), so
        // only new pairs are collected and sorted. The table is read through a raw view (partner
        // lists, keys): through `self` each lookup would cost an exclusivity check, through a copy a
        // retain and release of its arrays per query. Nothing writes the table or the grid before
        // the views end.
        let movedCount = broadPhase.movedProxies.count
        let blockSize = SplitSize.pairSearchBlock
        let blocks = (movedCount + blockSize - 1) / blockSize
        let out = UnsafeMutablePointer<PairCandidates>.allocate(capacity: blocks)
        out.initialize(repeating: PairCandidates(), count: blocks)
        defer { out.deinitialize(count: blocks); out.deallocate() }
        broadPhase.movedProxies.withUnsafeBufferPointer { movedBuffer in
            let moved = movedBuffer.baseAddress!
            broadPhase.grid.withQuery { g in broadPhase.pairs.withKeys { existing in
                pool.run(blocks: blocks) { block in
                    let o = out + block
                    for i in (block * blockSize)..<min(movedCount, (block + 1) * blockSize) {
                        let p = moved[i]
                        // the queue's mark off here, each block its own proxies, instead of in a
                        // serial pass after the search (a cache miss per moved shape on the caller)
                        defer { base[Int(p)].enlarged = false }
                        guard base[Int(p)].isAlive else { continue }
                        let me = GridEntry(p, shapes: base, bodies: bodyBase, conservative: false)
                        // The contact budget (`crowdLimit`), judged on fat boxes here (the pairs
                        // made below count by shape size): a candidate crowds p when one of its
                        // sides is at least half p's larger one; p adds at most `room` of them.
                        let meDynamic = me.flags.contains(.dynamicBody)
                        let half = meDynamic ? 0.5 * max(me.box.width, me.box.height) : .infinity
                        // kept in the block's record, not a local: a variable the report function
                        // below captures was a heap box per moved proxy (callgrind: one allocation
                        // and free per query)
                        o.pointee.room = meDynamic ? World.crowdLimit - existing.crowdCount(p) : 0
                        // shouldCollide, on the flags the grid keeps beside each box: most candidates
                        // are decided without reading the other shape or its body
                        @inline(__always) func report(_ e: GridEntry) {
                            let q = e.proxy
                            if q < 0 { return }   // a vacated entry (see `GridEntry.vacated`)
                            if e.flags.contains(.enlarged) && q < p { return }   // the other's own search reports it
                            if e.body == me.body { return }
                            let both = me.flags.intersection(e.flags), either = me.flags.union(e.flags)
                            if !either.contains(.dynamicBody) || both.contains(.segment) { return }
                            if either.contains(.customFilter) && !base[Int(p)].filter.shouldCollide(with: base[Int(q)].filter) { return }
                            if existing.contains(p, q) { return }
                            if meDynamic && e.flags.contains(.dynamicBody)
                                && (e.box.upper.x - e.box.lower.x >= half || e.box.upper.y - e.box.lower.y >= half) {
                                if o.pointee.room <= 0 || existing.crowdCount(q) >= World.crowdLimit { o.pointee.limited += 1; return }
                                o.pointee.room -= 1
                            }
                            let key = pairKey(p, q)
                            if both.contains(.jointedBody) && bodyBase[Int(me.body)].jointCount > 0 && bodyBase[Int(e.body)].jointCount > 0 {
                                o.pointee.jointed.append(key)   // joints decide below
                            } else {
                                o.pointee.found.append(key)
                            }
                        }
                        if g.query(me.box, exclude: p, isStatic: false, crowdHalf: half, scanLimit: World.crowdScanLimit, report) {
                            o.pointee.limited += 1
                        }
                        if !base[Int(p)].isStaticProxy { g.query(me.box, exclude: p, isStatic: true, report) }
                    }
                }
            } }
        }
        for b in 0..<blocks {
            candidates.found.append(contentsOf: out[b].found)
            candidates.jointed.append(contentsOf: out[b].jointed)
            candidates.limited += out[b].limited
        }
        for key in candidates.jointed {
            let a = shapes[Int(key >> 32)].body, b = shapes[Int(key & 0xFFFF_FFFF)].body
            if !jointPreventsCollision(a, b) { candidates.found.append(key) }
        }
        broadPhase.movedProxies.removeAll(keepingCapacity: true)
        candidates.found.sort()
        var last = UInt64.max
        for key in candidates.found where key != last {
            last = key
            let a = Int32(truncatingIfNeeded: key >> 32), b = Int32(truncatingIfNeeded: key & 0xFFFF_FFFF)
            // The budget, in key order: the searches judged each shape's room apart.
            let crowds = crowding(key)
            if (crowds.low && broadPhase.pairs.crowdCount(a) >= World.crowdLimit) || (crowds.high && broadPhase.pairs.crowdCount(b) >= World.crowdLimit) {
                candidates.limited += 1
                continue
            }
            createContact(a, b)
        }
        broadPhase.lastStepCrowdLimited = candidates.limited
        swap(&candidates, &broadPhase.pairCandidates)
    }
}
