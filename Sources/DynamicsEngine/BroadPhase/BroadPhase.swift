/// The broad phase's part of the world: which shape pairs have a contact, the grid that finds new
/// ones, the grid that answers queries, and what tells them that shapes changed (Box2D v3's
/// `b2BroadPhase`, with its move buffer and pair set).
///
/// Owns, with their invariants:
/// - `pairs`: exactly one entry per live contact, keyed by its shape pair (`World.validate`);
/// - `grid`, its cell size and when it was chosen: every movable proxy with the fat box it had at
///   the last pair search, and every static shape that collides with something;
/// - the proxy lists: the non-static shapes that collide with something, in index order, rebuilt
///   from all shapes while `proxyListDirty`, which only `noteMovableShapesChanged` sets (and
///   with it `shapeListVersion`, which the query grid watches);
/// - `movedProxies`: the shapes whose fat box grew (or that were made) since the last pair search,
///   each once (`Shape.enlarged` marks the queued ones); the search consumes the list;
/// - `staticChanges` and the segment joins: the static shapes changed since the grid's static
///   layer and the ghost vertices were last brought up to date;
/// - `queryIndex`: the queries' own grid (`QueryIndex`), which nothing in a step reads;
/// - the search's buffers and the last step's crowd count.
///
/// The functions that read shapes and bodies to keep these up to date are `World` extensions
/// (`World+Pairs.swift`, `SegmentJoins.swift`, `World+Queries.swift`); those that need only this
/// part and a view of the shapes are here.
struct BroadPhase {
    /// One entry per live contact, keyed by its shape pair; each shape's partner list and crowd count.
    var pairs = PairTable()
    /// The pair search's grid: static layer (changed one shape at a time) and movable layer.
    var grid = UniformGrid()
    /// Whether `grid`'s cell size was chosen (from the movable shapes, or `WorldDef.cellSize`).
    var cellSizeChosen = false
    /// The number of movable proxies when the cell size was chosen: it is chosen again when the
    /// count more than doubles.
    var cellSizeProxyCount = 0
    /// Non-static shapes (indices) in creation order.
    var movableProxies: [Int32] = []
    /// Shapes of kinematic bodies: what the continuous pass sweeps against besides static shapes.
    var kinematicProxies: [Int32] = []
    /// Set when the non-static shapes change (made or destroyed, body types, filters): the lists
    /// above are rebuilt from all shapes. Static shapes are not in a list: they are noted one by
    /// one (`World.noteStaticChange`), for the grid's static layer, the segment joins and the
    /// query grid. Set through `noteMovableShapesChanged`, cleared by `rebuildProxyLists`.
    private(set) var proxyListDirty = true
    /// Goes up whenever `proxyListDirty` is set: the query grid rebuilds when it differs from the
    /// one it was built at (static shapes it takes one by one, see `QueryIndex`).
    private(set) var shapeListVersion: UInt64 = 0
    /// Static shapes made, destroyed or changed since the last pair search: the grid's static
    /// layer takes them out and puts them back one by one (`UniformGrid.updateStatic`).
    var staticChanges: [Int32] = []
    /// Per shape slot: the ghost vertices of static segments (`WorldDef.smoothSegmentJoins`);
    /// empty when there are none. Brought up to date before the narrow phase.
    var segmentGhosts: [SegmentGhosts] = []
    /// Set when every ghost must be found again (a restore, a body type change); otherwise the
    /// static segments noted in `segmentJoins` are updated with their neighbours only.
    var segmentGhostsDirty = true
    /// The static segments by end point, for `segmentGhosts`.
    var segmentJoins = SegmentJoinIndex()
    /// The grid of the point, box and ray queries (`Queries/`); built by the first query.
    var queryIndex = QueryIndex()
    /// Shapes whose fat box grew since the last pair search.
    var movedProxies: [Int32] = []
    /// The pair search's output buffers, kept between steps for their capacity.
    var pairCandidates = PairCandidates()
    /// Crowding pairs (`World.crowdLimit`) the last step's pair search left out: nonzero only in
    /// a heap of deeply overlapping shapes.
    var lastStepCrowdLimited = 0
    /// Per category bit, how many live shapes that collide with something carry it.
    private(set) var categoryShapeCounts = [Int32](repeating: 0, count: 64)
    /// The category bits some live shape that collides with something carries (`categoryShapeCounts`):
    /// a shape whose mask meets none of them meets no shape at all (`meetsNothing`). Box2D's tree
    /// skips a subtree whose category bits the query's mask misses; a grid has no subtrees, so the
    /// test is made once, for the world: a figure of shapes that never collide with each other
    /// (Box2D's joint grid: one category, masked out) stays out of the grid.
    private(set) var categoriesInUse: UInt64 = 0

    /// The non-static shapes changed (one made or destroyed, a body type, a filter that joins or
    /// leaves the broad phase): the proxy lists are rebuilt before the next pair search, and the
    /// query grid before the next query. The one way to set `proxyListDirty`.
    mutating func noteMovableShapesChanged() {
        proxyListDirty = true
        shapeListVersion &+= 1
    }

    /// Whether a shape with filter `f` can collide with no live shape: its filter passes nothing,
    /// or its mask misses every category in use and no positive group overrides the bits. Such a
    /// shape is in no proxy list and not in the grid: no pair can come of it, and a grid entry
    /// would only be moved and scanned past every step.
    func meetsNothing(_ f: Filter) -> Bool { BroadPhase.meetsNothing(f, inUse: categoriesInUse) }

    static func meetsNothing(_ f: Filter, inUse: UInt64) -> Bool {
        f.collidesWithNothing || (f.groupIndex <= 0 && f.maskBits & inUse == 0)
    }

    /// Counts filter `f` in (`delta` 1) or out (−1) of the categories in use, for a shape made,
    /// destroyed or refiltered. When the set of bits in use changes, shapes may start or stop
    /// meeting nothing, so the proxy lists and the static layer are rebuilt before the next search.
    /// A shape that starts meeting something again is found by the search of the shape whose
    /// category brought it in (a made or refiltered shape is queued for one).
    mutating func countCategories(of f: Filter, _ delta: Int32) {
        guard !f.collidesWithNothing else { return }
        var bits = f.categoryBits, crossed = false
        while bits != 0 {
            let i = bits.trailingZeroBitCount
            bits &= bits &- 1
            let before = categoryShapeCounts[i]
            categoryShapeCounts[i] += delta
            crossed = crossed || (before == 0) != (categoryShapeCounts[i] == 0)
        }
        // the set of bits in use changes only when a count reaches or leaves zero: made shapes
        // of categories already in use (nearly all of them) skip the 64-bit rescan
        if crossed { noteCategoriesCounted() }
    }

    /// Counts the categories of every live shape afresh (a restore).
    mutating func recountCategories(shapes: SlotPool<Shape>) {
        categoryShapeCounts = [Int32](repeating: 0, count: 64)
        for i in 0..<shapes.count where shapes[i].isAlive && !shapes[i].filter.collidesWithNothing {
            var bits = shapes[i].filter.categoryBits
            while bits != 0 {
                categoryShapeCounts[bits.trailingZeroBitCount] += 1
                bits &= bits &- 1
            }
        }
        noteCategoriesCounted()
    }

    private mutating func noteCategoriesCounted() {
        var inUse: UInt64 = 0
        for i in 0..<64 where categoryShapeCounts[i] > 0 { inUse |= 1 << UInt64(i) }
        guard inUse != categoriesInUse else { return }
        categoriesInUse = inUse
        noteMovableShapesChanged()
        grid.staticDirty = true
        staticChanges.removeAll()
    }

    /// The movable and kinematic proxy lists from every shape, in index order.
    mutating func rebuildProxyLists(shapes: SlotPool<Shape>, bodies: SlotPool<Body>) {
        movableProxies.removeAll(keepingCapacity: true)
        kinematicProxies.removeAll(keepingCapacity: true)
        for i in 0..<shapes.count
        where shapes[i].isAlive && !shapes[i].isStaticProxy && !meetsNothing(shapes[i].filter) {
            movableProxies.append(Int32(i))
            if bodies[Int(shapes[i].body)].type == .kinematic { kinematicProxies.append(Int32(i)) }
        }
        proxyListDirty = false
        grid.movableDirty = true
    }

    /// Whether `s` belongs in the grid's static layer now (see `meetsNothing`).
    func isStaticGridProxy(_ s: Shape) -> Bool { BroadPhase.isStaticGridProxy(s, inUse: categoriesInUse) }

    static func isStaticGridProxy(_ s: Shape, inUse: UInt64) -> Bool {
        s.isAlive && s.isStaticProxy && !meetsNothing(s.filter, inUse: inUse)
    }

    /// Brings the grid's static layer up to date with the static shapes noted since the last
    /// pair search (`staticChanges`), or rebuilds it from all of them when it is dirty.
    mutating func updateStaticLayer(shapes: SlotPool<Shape>, bodies: SlotPool<Body>) {
        guard grid.staticDirty || !staticChanges.isEmpty else { return }
        let inUse = categoriesInUse
        let isMember = { (p: Int32) in BroadPhase.isStaticGridProxy(shapes[Int(p)], inUse: inUse) }
        grid.updateStatic(changes: &staticChanges, shapes: shapes.base, shapeCount: shapes.count, bodies: bodies.base,
                          isMember: isMember, all: { (0..<Int32(shapes.count)).filter(isMember) })
    }

    /// Picks the grid cell from the typical size of movable shapes: the median of their fat boxes'
    /// larger side (a cell about one object wide keeps each object in ≤ 4 cells and few objects
    /// per cell), at least `minimum` (pt).
    mutating func chooseCellSize(shapes: SlotPool<Shape>, minimum: Float) {
        guard !movableProxies.isEmpty else { return }
        var sizes = movableProxies.map { max(shapes[Int($0)].fatAABB.width, shapes[Int($0)].fatAABB.height) }
        sizes.sort()
        let median = sizes[sizes.count / 2]
        grid.setCellSize(max(median, minimum))
        cellSizeProxyCount = movableProxies.count
        cellSizeChosen = true
    }

    /// Static shape `s` was made, destroyed, moved, or changed what it collides with: queued for
    /// the grid's static layer and the segment joins (each falls back to a rebuild once more
    /// changes are queued than there are shape slots).
    mutating func noteStaticChange(_ s: Int32, shapeSlots: Int) {
        if !grid.staticDirty {
            staticChanges.append(s)
            if staticChanges.count > shapeSlots + 64 { grid.staticDirty = true; staticChanges.removeAll() }
        }
        if !segmentGhostsDirty {
            segmentJoins.pending.append(s)
            if segmentJoins.pending.count > shapeSlots + 64 {
                segmentGhostsDirty = true
                segmentJoins.pending.removeAll()
            }
        }
    }

    /// What a snapshot does with each stored property (`SnapshotFormatTests` checks this list
    /// against the struct).
    static let snapshotCoverage: KeyValuePairs<String, String> = [
        "movedProxies": "saved",
        "grid": "rebuilt; its cell size is saved",
        "cellSizeChosen": "saved", "cellSizeProxyCount": "saved",
        "pairs": "rebuilt from the live contacts",
        "movableProxies": "rebuilt (proxyListDirty)",
        "kinematicProxies": "rebuilt (proxyListDirty)", "proxyListDirty": "set on restore",
        "staticChanges": "cleared on restore: the grid's static layer is rebuilt",
        "segmentGhosts": "rebuilt from the static segments (segmentGhostsDirty)",
        "segmentGhostsDirty": "set on restore",
        "segmentJoins": "rebuilt with segmentGhosts (segmentGhostsDirty)",
        "shapeListVersion": "goes up on restore (proxyListDirty is set)",
        "queryIndex": "rebuilt by the next query (the version changed); queries never change a step",
        "categoryShapeCounts": "counted afresh from the shapes", "categoriesInUse": "counted afresh from the shapes",
        "pairCandidates": "per-step scratch", "lastStepCrowdLimited": "statistics of the last step",
    ]
}
