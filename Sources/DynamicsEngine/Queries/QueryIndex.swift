/// The grid that answers queries: which shapes contain a point, meet a box, lie along a ray.
///
/// Why a second grid rather than the broad phase's own: the broad phase leaves out the shapes
/// that collide with nothing (a UIKit item in no collision behaviour), and queries must find
/// them too; and it is brought up to date only by the pair search, whose in-place updates and
/// rebuilds decide the order of its cell lists and so, in a crowded heap, which pairs are found.
/// Updating that grid from a query would let looking at the world change how it moves. This one
/// is the same `UniformGrid` (same cells, counting-sort rebuild and in-place update), over every
/// live shape, and only queries touch it, so the step's results are the same whether or not
/// anything queries it.
///
/// Static shapes (boundaries, anchored items) are in the grid's static layer, the others in its
/// movable layer.
///
/// It is built by the first query, not before: a world nobody queries pays nothing for it but
/// one branch per step (`noteMovesForQueries`). Afterwards each query first brings it up to date:
/// - the shapes whose fat box changed since are known without a walk: the world queues every
///   such shape in `movedProxies` for the pair search (once per search); the pair search hands
///   the part no query applied yet here before consuming it (`pending`), a query applies what
///   was queued since the last one (`appliedMoves`), and a shape moved by hand is noted again
///   (`World.noteTeleportForQueries`), as it may be queued and applied already;
/// - those few are rewritten in place (`UniformGrid.updateMovable`); past an eighth of the shapes
///   the movable layer is rebuilt, and when non-static shapes were made or destroyed
///   (`BroadPhase.shapeListVersion`) the whole grid, which costs about what the step's own grid update
///   costs;
/// - static shapes made, destroyed or moved (`staticChanges`) are taken out of the static layer
///   and put back one by one, as in the broad phase (`UniformGrid.updateStatic`).
/// So a query between steps costs a look at the cells it crosses, plus once per step the update.
struct QueryIndex {
    var grid = UniformGrid()
    /// Every live non-static shape when the grid was last rebuilt, in index order.
    var proxies: [Int32] = []
    /// Static shapes made, destroyed or changed since the last update (`World.noteStaticChange`).
    var staticChanges: [Int32] = []
    /// Set when `pending` overflowed: the next update rebuilds the movable layer.
    var movableStale = false
    /// Whether the grid holds every live shape with its fat box, apart from `pending` and the
    /// world's `movedProxies`. False until the first query.
    var isBuilt = false
    /// `BroadPhase.shapeListVersion` at the last rebuild.
    var builtVersion: UInt64 = 0
    /// Shapes whose fat box changed since the last update: handed over by the pair search, or
    /// moved by hand.
    var pending: [Int32] = []
    /// How many leading entries of the world's `movedProxies` the grid has applied: the list
    /// only grows until the pair search empties it, so a query applies only what came after.
    var appliedMoves = 0
    /// Covers every box in the grid (it only grows between rebuilds): a ray is clipped to it
    /// before walking cells, so a ray of any length walks only cells that can hold something.
    var bounds = AABB(lower: Vec2(.infinity, .infinity), upper: Vec2(-.infinity, -.infinity))
    /// A mark per shape slot: a shape met in several cells is tested once per query.
    var visited: [UInt32] = []
    var stamp: UInt32 = 0
    /// The number of shapes when the cell size was last chosen.
    var cellSizeShapeCount = 0
    /// Counts, for tests: rebuilds and in-place updates.
    private(set) var rebuildCount = 0
    private(set) var updateCount = 0

    /// The next query's mark, with `visited` long enough for `slots` shapes.
    mutating func nextStamp(slots: Int) -> UInt32 {
        if visited.count < slots { visited += Array(repeating: 0, count: slots - visited.count) }
        stamp &+= 1
        if stamp == 0 {
            visited.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            stamp = 1
        }
        return stamp
    }

    mutating func didRebuild() { rebuildCount += 1 }
    mutating func didUpdate() { updateCount += 1 }
}

extension AABB {
    /// Whether `p` lies in the box, edges included.
    @inline(__always)
    func contains(point p: Vec2) -> Bool {
        lower.x <= p.x && p.x <= upper.x && lower.y <= p.y && p.y <= upper.y
    }

    /// Whether the segment `a + t·d`, t in [t0, t1], meets the box (edges included). Divides
    /// rather than multiplying by 1/d, so a tiny component gives ±∞, never 0·∞.
    @inline(__always)
    func meetsRay(_ a: Vec2, _ d: Vec2, _ t0: Float, _ t1: Float) -> Bool {
        var lo = t0, hi = t1
        if d.x != 0 {
            var ta = (lower.x - a.x) / d.x, tb = (upper.x - a.x) / d.x
            if ta > tb { swap(&ta, &tb) }
            lo = Swift.max(lo, ta); hi = Swift.min(hi, tb)
        } else if a.x < lower.x || a.x > upper.x {
            return false
        }
        if d.y != 0 {
            var ta = (lower.y - a.y) / d.y, tb = (upper.y - a.y) / d.y
            if ta > tb { swap(&ta, &tb) }
            lo = Swift.max(lo, ta); hi = Swift.min(hi, tb)
        } else if a.y < lower.y || a.y > upper.y {
            return false
        }
        return lo <= hi
    }

    /// The parameter range [t0, t1] ⊂ [0, 1] of `a + t·d` inside the box, or nil.
    func clip(_ a: Vec2, _ d: Vec2) -> (Float, Float)? {
        var lo: Float = 0, hi: Float = 1
        for axis in 0..<2 {
            let p = axis == 0 ? a.x : a.y, v = axis == 0 ? d.x : d.y
            let l = axis == 0 ? lower.x : lower.y, u = axis == 0 ? upper.x : upper.y
            if v != 0 {
                var ta = (l - p) / v, tb = (u - p) / v
                if ta > tb { swap(&ta, &tb) }
                lo = Swift.max(lo, ta); hi = Swift.min(hi, tb)
            } else if p < l || p > u {
                return nil
            }
        }
        return lo <= hi ? (lo, hi) : nil
    }
}
