// Queries between steps: the shapes containing a point, meeting a box, hit by a ray. Each looks
// only at the grid cells it covers (`QueryIndex`), so its cost does not grow with the number of
// shapes; the `…ByWalk` twins test every shape the same way, for tests to compare.
//
// Every query sees the shapes where the last step (or `setTransform`) left them. Non-finite
// input answers nothing. Queries change nothing the step reads.

extension World {
    // MARK: Keeping the index (`BroadPhase`'s methods below, over the world's shapes)

    func noteMovesForQueries() { broadPhase.noteMovesForQueries(shapes: shapes) }

    func noteTeleportForQueries(_ s: Int32) { broadPhase.noteTeleportForQueries(s, shapes: shapes) }

    func noteStaticChangeForQueries(_ s: Int32) { broadPhase.noteStaticChangeForQueries(s, shapeSlots: shapes.count) }

    func updateQueryIndex() {
        refreshStaleBoxes()
        broadPhase.updateQueryIndex(shapes: shapes, bodies: bodies, minimumCell: 4 * linearSlop)
    }
}

extension BroadPhase {
    /// The pair search hands over the moved shapes it has not seen applied before it consumes
    /// them (see `QueryIndex`). Nothing to do until the first query has built the index.
    mutating func noteMovesForQueries(shapes: SlotPool<Shape>) {
        defer { queryIndex.appliedMoves = 0 }   // the list is emptied by the search
        guard queryIndex.isBuilt, !queryIndex.movableStale, queryIndex.appliedMoves < movedProxies.count else { return }
        // static shapes come through `staticChanges`
        for p in movedProxies[queryIndex.appliedMoves...] where !BroadPhase.isLiveStatic(p, shapes) {
            queryIndex.pending.append(p)
        }
        notePendingOverflow()
    }

    /// Past this many pending moves the next query rebuilds the movable layer anyway: stop
    /// collecting (an app that queried once and then steps for hours must not grow the list
    /// without end).
    private mutating func notePendingOverflow() {
        if queryIndex.pending.count > queryIndex.proxies.count / 4 + 64 {
            queryIndex.movableStale = true
            queryIndex.pending.removeAll()
        }
    }

    /// Whether shape slot `p` holds a live shape of a static body (in the query grid's static layer).
    static func isLiveStatic(_ p: Int32, _ shapes: SlotPool<Shape>) -> Bool {
        p >= 0 && Int(p) < shapes.count && shapes[Int(p)].isAlive && shapes[Int(p)].isStaticProxy
    }

    /// A shape moved by hand (`setTransform`, a body type change): noted even when it is queued in
    /// `movedProxies` already, since a query may have applied that entry before this move.
    mutating func noteTeleportForQueries(_ s: Int32, shapes: SlotPool<Shape>) {
        guard queryIndex.isBuilt, !queryIndex.movableStale, !BroadPhase.isLiveStatic(s, shapes) else { return }
        queryIndex.pending.append(s)
        notePendingOverflow()
    }

    /// A static shape made, destroyed or changed (`noteStaticChange`).
    mutating func noteStaticChangeForQueries(_ s: Int32, shapeSlots: Int) {
        guard queryIndex.isBuilt, !queryIndex.grid.staticDirty else { return }
        queryIndex.staticChanges.append(s)
        if queryIndex.staticChanges.count > shapeSlots + 64 {
            queryIndex.grid.staticDirty = true
            queryIndex.staticChanges.removeAll()
        }
    }

    /// Brings the query grid up to date with the shapes as they are now: the shapes noted since
    /// the last update, and those the pair search has not taken yet and no query applied.
    mutating func updateQueryIndex(shapes: SlotPool<Shape>, bodies: SlotPool<Body>, minimumCell: Float) {
        let base = UnsafePointer(shapes.base), bodyBase = UnsafePointer(bodies.base)
        if !queryIndex.isBuilt || queryIndex.builtVersion != shapeListVersion {
            rebuildQueryIndex(base, bodyBase, shapeSlots: shapes.count, minimumCell: minimumCell)
            return
        }
        updateQueryStatics(base, bodyBase, shapeSlots: shapes.count)
        if queryIndex.movableStale {
            // too many moves to keep: the movable layer from scratch
            queryIndex.movableStale = false
            queryIndex.pending.removeAll(keepingCapacity: true)
            queryIndex.appliedMoves = movedProxies.count
            for p in queryIndex.proxies where base[Int(p)].isAlive { queryIndex.bounds = queryIndex.bounds.union(base[Int(p)].fatAABB) }
            queryIndex.grid.movableDirty = true
            queryIndex.grid.updateMovable(queryIndex.proxies, moved: [], shapes: base, shapeCount: shapes.count, bodies: bodyBase)
            queryIndex.didUpdate()
            return
        }
        var moved = queryIndex.pending
        if queryIndex.appliedMoves < movedProxies.count {
            for p in movedProxies[queryIndex.appliedMoves...] where !BroadPhase.isLiveStatic(p, shapes) {
                moved.append(p)
            }
        }
        queryIndex.appliedMoves = movedProxies.count
        queryIndex.pending.removeAll(keepingCapacity: true)
        guard !moved.isEmpty else { return }
        for p in moved where Int(p) < shapes.count && shapes[Int(p)].isAlive {
            queryIndex.bounds = queryIndex.bounds.union(shapes[Int(p)].fatAABB)
        }
        queryIndex.grid.updateMovable(queryIndex.proxies, moved: moved, shapes: base, shapeCount: shapes.count, bodies: bodyBase)
        queryIndex.didUpdate()
    }

    /// Brings the query grid's static layer up to date (every live static shape): the noted
    /// changes in place, or a rebuild (`UniformGrid.updateStatic`); the bounds grow to cover them.
    private mutating func updateQueryStatics(_ base: UnsafePointer<Shape>, _ bodyBase: UnsafePointer<Body>,
                                             shapeSlots: Int) {
        guard queryIndex.grid.staticDirty || !queryIndex.staticChanges.isEmpty else { return }
        var changes: [Int32] = []
        swap(&changes, &queryIndex.staticChanges)
        var bounds = queryIndex.bounds
        func isLiveStatic(_ p: Int32) -> Bool {
            p >= 0 && Int(p) < shapeSlots && base[Int(p)].isAlive && base[Int(p)].isStaticProxy
        }
        for p in changes where isLiveStatic(p) { bounds = bounds.union(base[Int(p)].fatAABB) }
        queryIndex.grid.updateStatic(changes: &changes, shapes: base, shapeCount: shapeSlots, bodies: bodyBase,
                                     isMember: { isLiveStatic($0) },
                                     all: {
                                         let all = (0..<Int32(shapeSlots)).filter { isLiveStatic($0) }
                                         for p in all { bounds = bounds.union(base[Int(p)].fatAABB) }
                                         return all
                                     })
        swap(&changes, &queryIndex.staticChanges)
        queryIndex.bounds = bounds
    }

    private mutating func rebuildQueryIndex(_ base: UnsafePointer<Shape>, _ bodyBase: UnsafePointer<Body>,
                                            shapeSlots: Int, minimumCell: Float) {
        var proxies: [Int32] = []
        swap(&proxies, &queryIndex.proxies)
        proxies.removeAll(keepingCapacity: true)
        var bounds = AABB(lower: Vec2(.infinity, .infinity), upper: Vec2(-.infinity, -.infinity))
        var n = 0
        for i in 0..<shapeSlots where base[i].isAlive {
            n += 1
            if !base[i].isStaticProxy { proxies.append(Int32(i)) }
            bounds = bounds.union(base[i].fatAABB)
        }
        // The cell from the typical moving shape, as the broad phase chooses its own (a cell about
        // one shape wide); chosen again when the number of shapes doubled or halved.
        let last = queryIndex.cellSizeShapeCount
        if last == 0 || n > 2 * last + 64 || 2 * n + 64 < last {
            var sizes: [Float] = []
            for p in proxies { sizes.append(max(base[Int(p)].fatAABB.width, base[Int(p)].fatAABB.height)) }
            if sizes.isEmpty {
                for i in 0..<shapeSlots where base[i].isAlive { sizes.append(max(base[i].fatAABB.width, base[i].fatAABB.height)) }
            }
            if !sizes.isEmpty {
                sizes.sort()
                queryIndex.grid.setCellSize(max(sizes[sizes.count / 2], minimumCell))
            }
            queryIndex.cellSizeShapeCount = max(n, 1)
        }
        queryIndex.grid.movableDirty = true
        queryIndex.grid.updateMovable(proxies, moved: [], shapes: base, shapeCount: shapeSlots, bodies: bodyBase)
        queryIndex.grid.staticDirty = true
        queryIndex.staticChanges.removeAll(keepingCapacity: true)
        updateQueryStatics(base, bodyBase, shapeSlots: shapeSlots)
        queryIndex.movableStale = false
        swap(&proxies, &queryIndex.proxies)
        queryIndex.bounds = bounds
        queryIndex.pending.removeAll(keepingCapacity: true)
        queryIndex.appliedMoves = movedProxies.count
        queryIndex.builtVersion = shapeListVersion
        queryIndex.isBuilt = true
        queryIndex.didRebuild()
    }
}

extension World {
    /// How often the query grid was rebuilt and updated, how many of the updates were done in
    /// place, and how many shapes they moved to other cells (for tests).
    package var queryIndexCounts: (rebuilds: Int, updates: Int, inPlace: Int, relocations: Int) {
        let index = broadPhase.queryIndex
        return (index.rebuildCount, index.updateCount, index.grid.inPlaceUpdates, index.grid.relocations)
    }

    /// A box around every shape (their fat boxes, after bringing the query grid up to date), or
    /// nil when there are none: nothing outside it can be hit, so callers clip long rays to it.
    package func queryBounds() -> AABB? {
        updateQueryIndex()
        return broadPhase.queryIndex.bounds.isValid ? broadPhase.queryIndex.bounds : nil
    }

    // MARK: Per-shape tests, shared by the grid and the walk

    /// Whether shape `p` contains `point`: its box first (cheap, and what both the grid and the
    /// walk agree on), then the shape in its body's frame.
    @inline(__always)
    private static func contains(_ p: Int, _ point: Vec2, _ base: UnsafePointer<Shape>, _ bodyBase: UnsafePointer<Body>) -> Bool {
        guard base[p].isAlive, base[p].aabb.contains(point: point) else { return false }
        return base[p].contains(local: bodyBase[Int(base[p].body)].transform.invApply(point))
    }

    /// Shape `p`'s hit by the ray `a + t·d`, t in [0, 1]. `slack` widens the box test so that
    /// rounding never rejects a ray the shape test would accept (a segment's box is flat).
    @inline(__always)
    private func rayHit(_ p: Int, _ a: Vec2, _ d: Vec2, _ slack: Float, _ base: UnsafePointer<Shape>,
                        _ bodyBase: UnsafePointer<Body>) -> ShapeRayHit? {
        guard base[p].isAlive, base[p].fatAABB.inflated(by: slack).meetsRay(a, d, 0, 1) else { return nil }
        let xf = bodyBase[Int(base[p].body)].transform
        guard let (t, n) = base[p].rayCast(local: xf.invApply(a), xf.q.invRotate(d)) else { return nil }
        return ShapeRayHit(shape: shapeID(Int32(p)), fraction: t, normal: xf.q.rotate(n))
    }

    /// The widening of boxes for a ray from `a` along `d` (pt): a few Float roundings at its size.
    private static func raySlack(_ a: Vec2, _ d: Vec2) -> Float {
        1e-3 + 1e-6 * (abs(a.x) + abs(a.y) + abs(d.x) + abs(d.y))
    }

    /// Runs `body` with the queries' visit marks and a fresh stamp, so that a shape held by
    /// several cells is tested once per query. The marks are borrowed (swapped out) for the call.
    private func withVisitMarks(_ body: (UnsafeMutableBufferPointer<UInt32>, UInt32) -> Void) {
        var visited: [UInt32] = []
        let stamp = broadPhase.queryIndex.nextStamp(slots: shapes.count)
        swap(&visited, &broadPhase.queryIndex.visited)
        defer { swap(&visited, &broadPhase.queryIndex.visited) }
        visited.withUnsafeMutableBufferPointer { body($0, stamp) }
    }

    // MARK: Point

    /// The shapes whose geometry contains `point` (outline included), in shape-index order.
    /// Segments contain nothing. Non-finite input: none.
    package func shapes(containing point: Vec2) -> [ShapeID] {
        guard point.isFinite else { return [] }
        updateQueryIndex()
        let base = UnsafePointer(shapes.base), bodyBase = UnsafePointer(bodies.base)
        var found: [Int32] = []
        withVisitMarks { vis, stamp in
            broadPhase.queryIndex.grid.withQuery { g in
                func consider(_ e: GridEntry) {
                    let p = Int(e.proxy)
                    // a vacated entry (−1) or one already tested from a bucket shared by two cells
                    guard p >= 0, vis[p] != stamp, e.box.contains(point: point) else { return }
                    vis[p] = stamp
                    if World.contains(p, point, base, bodyBase) { found.append(Int32(p)) }
                }
                let ix = UniformGrid.cell(point.x, g.invCellSize), iy = UniformGrid.cell(point.y, g.invCellSize)
                func search(_ layer: LayerView) {
                    for e in layer.large { consider(e) }
                    for e in layer.extra { consider(e) }
                    guard !layer.entries.isEmpty else { return }
                    // a point lies in one cell: only that cell's bucket
                    let b = layer.layout.bucket(row: layer.layout.row(iy), ix)
                    for k in Int(layer.start[b])..<Int(layer.end[b]) { consider(layer.entries[k]) }
                }
                search(g.movable)
                search(g.statics)
            }
        }
        found.sort()
        return found.map { shapeID($0) }
    }

    /// `shapes(containing:)` by testing every shape (for tests).
    package func shapesByWalk(containing point: Vec2) -> [ShapeID] {
        guard point.isFinite else { return [] }
        refreshStaleBoxes()
        let base = UnsafePointer(shapes.base), bodyBase = UnsafePointer(bodies.base)
        return (0..<shapes.count).filter { World.contains($0, point, base, bodyBase) }.map { shapeID(Int32($0)) }
    }

    // MARK: Box

    /// The shapes whose box (`aabb`, not the fat one) overlaps `box`, edges included, in
    /// shape-index order. Non-finite input: none.
    package func shapes(overlapping box: AABB) -> [ShapeID] {
        guard box.lower.isFinite, box.upper.isFinite, box.lower.x <= box.upper.x, box.lower.y <= box.upper.y else { return [] }
        updateQueryIndex()
        let base = UnsafePointer(shapes.base)
        var found: [Int32] = []
        withVisitMarks { vis, stamp in
            broadPhase.queryIndex.grid.withQuery { g in
                func consider(_ e: GridEntry) {
                    let p = Int(e.proxy)
                    guard p >= 0, vis[p] != stamp else { return }
                    vis[p] = stamp
                    if base[p].isAlive && base[p].aabb.overlaps(box) { found.append(Int32(p)) }
                }
                g.query(box, exclude: -1, isStatic: false, consider)
                g.query(box, exclude: -1, isStatic: true, consider)
            }
        }
        found.sort()
        return found.map { shapeID($0) }
    }

    /// `shapes(overlapping:)` by testing every shape (for tests).
    package func shapesByWalk(overlapping box: AABB) -> [ShapeID] {
        guard box.lower.isFinite, box.upper.isFinite else { return [] }
        refreshStaleBoxes()
        return (0..<shapes.count).filter { shapes[$0].isAlive && shapes[$0].aabb.overlaps(box) }.map { shapeID(Int32($0)) }
    }

    // MARK: Ray

    /// The first shape the segment from `a` to `b` enters: the smallest fraction, the lower shape
    /// index between equal ones. A shape containing `a` is not hit (see `Shape.rayCast(local:_:)`);
    /// `a == b` or non-finite input hits nothing.
    package func rayCast(from a: Vec2, to b: Vec2) -> ShapeRayHit? { rayCastNearest(from: a, to: b).first }

    /// Every shape hit at the smallest fraction (almost always one; more where shapes touch
    /// exactly there), by shape index: what a caller with its own rule for ties needs. Stops
    /// walking cells once nothing nearer can follow.
    package func rayCastNearest(from a: Vec2, to b: Vec2) -> [ShapeRayHit] {
        var best: [ShapeRayHit] = []
        castRay(a, b, closest: true) { hit in
            if let f = best.first?.fraction, hit.fraction > f { return f }
            if let f = best.first?.fraction, hit.fraction < f { best.removeAll() }
            best.append(hit)
            return hit.fraction
        }
        best.sort { $0.shape < $1.shape }
        return best
    }

    /// Every shape the segment from `a` to `b` enters, once each at its first entry, ordered by
    /// fraction and then shape index. Otherwise as `rayCast(from:to:)`.
    package func rayCastAll(from a: Vec2, to b: Vec2) -> [ShapeRayHit] {
        var hits: [ShapeRayHit] = []
        castRay(a, b, closest: false) { hits.append($0); return 1 }
        hits.sort { $0.fraction < $1.fraction || ($0.fraction == $1.fraction && $0.shape < $1.shape) }
        return hits
    }

    /// `rayCastAll(from:to:)` by testing every shape (for tests).
    package func rayCastAllByWalk(from a: Vec2, to b: Vec2) -> [ShapeRayHit] {
        let d = b - a
        guard a.isFinite, b.isFinite, d != .zero else { return [] }
        refreshStaleBoxes()
        let base = UnsafePointer(shapes.base), bodyBase = UnsafePointer(bodies.base)
        let slack = World.raySlack(a, d)
        var hits = (0..<shapes.count).compactMap { rayHit($0, a, d, slack, base, bodyBase) }
        hits.sort { $0.fraction < $1.fraction || ($0.fraction == $1.fraction && $0.shape < $1.shape) }
        return hits
    }

    /// Walks the cells the segment crosses, nearest first, and reports each shape hit once;
    /// `report` returns the fraction beyond which nothing more is wanted (the closest hit so far
    /// for `closest`, else 1).
    ///
    /// The walk goes strip by strip across the ray's longer axis (columns for a flat ray, rows for
    /// a steep one); in each strip it visits the cells the ray crosses there, widened by a hair so
    /// rounding never skips a cell the ray grazes. A shape hit at fraction t has its hit point in
    /// a cell of the strip holding t, so once the closest hit lies before the end of the current
    /// strip nothing later can beat it. The large shapes and those waiting in the grid's `extra`
    /// list are tested first, as they are in no cell.
    private func castRay(_ a: Vec2, _ b: Vec2, closest: Bool, _ report: (ShapeRayHit) -> Float) {
        let d = b - a
        guard a.isFinite, b.isFinite, d != .zero, d.isFinite else { return }
        updateQueryIndex()
        let slack = World.raySlack(a, d)
        guard let (t0, t1) = broadPhase.queryIndex.bounds.inflated(by: slack).clip(a, d) else { return }
        let base = UnsafePointer(shapes.base), bodyBase = UnsafePointer(bodies.base)
        var limit: Float = 1
        withVisitMarks { vis, stamp in
            broadPhase.queryIndex.grid.withQuery { g in
                let movable = g.movable, statics = g.statics
                func consider(_ e: GridEntry) {
                    let p = Int(e.proxy)
                    guard p >= 0, vis[p] != stamp else { return }
                    vis[p] = stamp
                    if let hit = rayHit(p, a, d, slack, base, bodyBase), hit.fraction <= limit { limit = report(hit) }
                }
                for e in movable.large { consider(e) }
                for e in movable.extra { consider(e) }
                for e in statics.large { consider(e) }
                for e in statics.extra { consider(e) }
                guard !movable.entries.isEmpty || !statics.entries.isEmpty else { return }
                /// The entries of cell (ix, iy) in `layer`.
                func visit(_ layer: LayerView, _ ix: Int32, _ iy: Int32) {
                    guard !layer.entries.isEmpty else { return }
                    let bucket = layer.layout.bucket(row: layer.layout.row(iy), ix)
                    for k in Int(layer.start[bucket])..<Int(layer.end[bucket]) { consider(layer.entries[k]) }
                }
                let inv = g.invCellSize, cell = 1 / inv
                let flat = abs(d.x) >= abs(d.y)
                // (major, minor) coordinates: the strips run across the major axis
                let am = flat ? a.x : a.y, an = flat ? a.y : a.x
                let dm = flat ? d.x : d.y, dn = flat ? d.y : d.x
                let step: Int32 = dm > 0 ? 1 : -1
                let hair = slack + 1e-3 * cell
                let first = UniformGrid.cell(am + t0 * dm - Float(step) * hair, inv)
                let last = UniformGrid.cell(am + t1 * dm + Float(step) * hair, inv)
                // A ray crossing more cells than there are shapes: testing every shape costs less.
                let strips = Int(abs(Int64(last) - Int64(first))) + 1
                let minorCells = Int(abs(dn * (t1 - t0)) * inv) + strips
                if strips + minorCells > movable.small.count + statics.small.count {
                    for e in movable.small { consider(e) }
                    for e in statics.small { consider(e) }
                    return
                }
                var c = first
                while true {
                    // the strip's range of t (the ray's major coordinate within the cell's edges)
                    let lo = Float(c) * cell, hi = Float(c + 1) * cell
                    var ta = (lo - am) / dm, tb = (hi - am) / dm
                    if ta > tb { swap(&ta, &tb) }
                    let far = Swift.min(tb, t1)
                    let tHair = hair / abs(dm)
                    ta = Swift.max(ta - tHair, t0); tb = Swift.min(tb + tHair, t1)
                    if ta <= tb {
                        let na = an + ta * dn, nb = an + tb * dn
                        var m0 = UniformGrid.cell(Swift.min(na, nb) - hair, inv)
                        var m1 = UniformGrid.cell(Swift.max(na, nb) + hair, inv)
                        let minorStep: Int32 = dn >= 0 ? 1 : -1
                        if minorStep < 0 { swap(&m0, &m1) }
                        var m = m0
                        while true {
                            let ix = flat ? c : m, iy = flat ? m : c
                            visit(movable, ix, iy)
                            visit(statics, ix, iy)
                            if m == m1 { break }
                            m += minorStep
                        }
                    }
                    // (less a hair: a hit on the strip's far edge may be filed in the next cell)
                    if closest && limit < far - tHair { return }
                    if c == last { break }
                    c += step
                }
            }
        }
    }
}
