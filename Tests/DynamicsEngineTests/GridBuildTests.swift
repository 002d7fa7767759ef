@testable import DynamicsEngine
import Testing

/// The movable layer rebuilt on several threads (`UniformGrid.buildInParallel`) against the serial
/// counting sort: the pair search reads buckets in order and stops at the crowding limit, so the
/// two must agree entry for entry, not only as sets.
@Suite struct GridBuildTests {
    /// 3 000 bodies of 6–40 pt (boxes and circles, turned at random) on a jittered lattice, every
    /// 97th a 3 000 pt plank that goes to the large list (so a part's share has holes to close),
    /// and, for the sparse case, a second crowd 10⁶ pt away (the hashed layout). After a step has
    /// chosen the cell size and the proxy lists, the layer is rebuilt serially and on 2 and 3
    /// threads (3 parts do not divide the proxies evenly).
    @Test(arguments: [(2, false), (3, false), (2, true), (3, true)])
    func severalThreadsBuildTheSerialLayer(threads: Int, sparse: Bool) {
        let w = makeWorld(gravity: .zero, sleep: false)
        var rng = SplitMix64(seed: 27)
        for k in 0..<3000 {
            let far: Float = sparse && k % 2 == 1 ? 1_000_000 : 0
            let p = Vec2(far + Float(k % 60) * 45 + uniform(-10...10, &rng),
                         Float(k / 60) * 45 + uniform(-10...10, &rng))
            if k % 97 == 0 {
                addBox(w, at: p, half: Vec2(1500, 4), angle: uniform(-0.2...0.2, &rng))
            } else if k % 3 == 0 {
                addCircle(w, at: p, radius: uniform(3...20, &rng))
            } else {
                addBox(w, at: p, half: Vec2(uniform(3...20, &rng), uniform(3...20, &rng)), angle: uniform(-3...3, &rng))
            }
        }
        w.step(dt: 1.0 / 60, substeps: 4)
        let proxies = w.broadPhase.movableProxies
        #expect(proxies.count >= UniformGrid.parallelBuildMinimum)
        var serial = w.broadPhase.grid, parallel = w.broadPhase.grid
        serial.movableDirty = true
        parallel.movableDirty = true
        let pool = WorkerPool(threadCount: threads)
        pool.beginStep()   // the first steps run with the workers
        #expect(pool.runsInParallel, "the rebuild below would take the serial path")
        let shapes = w.shapes.base, shapeCount = w.shapes.count, bodies = w.bodies.base
        serial.updateMovable(proxies, moved: [], shapes: shapes, shapeCount: shapeCount, bodies: bodies)
        parallel.updateMovable(proxies, moved: [], shapes: shapes, shapeCount: shapeCount, bodies: bodies, pool: pool)
        pool.endStep()
        let a = serial.movable, b = parallel.movable
        #expect(a.layout.hashed == sparse)
        #expect(a.layout.mask == b.layout.mask && a.layout.hashed == b.layout.hashed
            && a.layout.rowShift == b.layout.rowShift && a.layout.originX == b.layout.originX
            && a.layout.originY == b.layout.originY)
        #expect(a.large.count >= 3000 / 97 && a.large.map(\.proxy) == b.large.map(\.proxy))
        #expect(a.smallCount + a.large.count == proxies.count && a.smallCount == b.smallCount)
        #expect(same(Array(a.small[0..<a.smallCount]), Array(b.small[0..<b.smallCount])))
        #expect(a.slotOf == b.slotOf)
        #expect(a.start == b.start)
        let total = Int(a.start[a.layout.mask + 1])
        #expect(total >= a.smallCount)
        #expect(same(Array(a.entries[0..<total]), Array(b.entries[0..<total])))
    }

    private func same(_ x: [GridEntry], _ y: [GridEntry]) -> Bool {
        x.count == y.count && zip(x, y).allSatisfy { e, f in
            e.proxy == f.proxy && e.body == f.body && e.flags == f.flags && e.box.lower == f.box.lower
                && e.box.upper == f.box.upper && e.lowCellX == f.lowCellX && e.lowCellY == f.lowCellY
        }
    }
}
