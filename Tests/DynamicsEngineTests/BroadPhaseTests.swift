import DynamicsEngine
import Testing

/// The uniform grid against brute force: its candidate pairs are exactly the overlapping fat boxes.
@Suite struct BroadPhaseTests {
    /// A mixed scene: a 4 000 pt static floor, static segments (ramps and a shelf), a few 500 pt
    /// dynamic boxes dropped onto a crowd of 10–30 pt boxes and circles, some thrown sideways.
    static func scene(seed: UInt64, cellSize: Float? = nil) -> World {
        var d = WorldDef()
        d.cellSize = cellSize
        d.validate = true
        let w = World(def: d)
        populate(w, seed: seed)
        return w
    }

    /// The scene's content, shifted by `o`.
    static func populate(_ w: World, seed: UInt64, offset o: Vec2 = .zero) {
        var rng = SplitMix64(seed: seed)
        addBox(w, .static, at: o + Vec2(0, 50), half: Vec2(2000, 50))
        addSegment(w, from: o + Vec2(-1500, -400), to: o + Vec2(-700, -100))
        addSegment(w, from: o + Vec2(1500, -400), to: o + Vec2(700, -100))
        addSegment(w, from: o + Vec2(-200, -700), to: o + Vec2(200, -700))
        for _ in 0..<250 {
            let p = o + Vec2(uniform(-1400...1400, &rng), uniform(-1200 ... -20, &rng))
            let size = uniform(10...30, &rng)
            let b: BodyID
            if Bool.random(using: &rng) {
                b = addBox(w, at: p, half: Vec2(0.5 * size, 0.5 * uniform(10...30, &rng)), angle: uniform(-1...1, &rng))
            } else {
                b = addCircle(w, at: p, radius: 0.5 * size)
            }
            if uniform(0...1, &rng) < 0.2 { w.setLinearVelocity(b, Vec2(uniform(-800...800, &rng), uniform(-300...300, &rng))) }
        }
        for k in 0..<3 {
            let b = addBox(w, at: o + Vec2(-900 + 900 * Float(k), -1700 - 300 * Float(k)), half: Vec2(250, 250), angle: uniform(-0.3...0.3, &rng))
            w.setAngularVelocity(b, uniform(-1...1, &rng))
        }
    }

    static func key(_ p: (ShapeID, ShapeID)) -> SIMD2<Int32> {
        SIMD2(min(p.0.index, p.1.index), max(p.0.index, p.1.index))
    }

    /// A box whose filter collides with nothing falls through the ground in free fall (no contact,
    /// no push: the drop after t is g t²/2 to the integrator's first-order error), and given its
    /// filter back while still overlapping a second, colliding box, it touches it again on the
    /// next step.
    @Test func shapesThatCollideWithNothingLeaveTheBroadPhase() {
        let g: Float = 1000
        let w = makeWorld(gravity: Vec2(0, g), sleep: false)
        addBox(w, .static, at: Vec2(0, 20), half: Vec2(200, 20))
        let ghost = addBox(w, at: Vec2(0, -10), half: Vec2(10, 10))
        let partner = addBox(w, .kinematic, at: Vec2(0, 500), half: Vec2(50, 50))
        let shape = w.shapes(of: ghost)[0]
        w.setFilter(shape, Filter(categoryBits: 1, maskBits: 0))
        #expect(w.filter(shape).collidesWithNothing)
        let steps = 30, dt: Float = 1.0 / 60
        for _ in 0..<steps {
            w.step(dt: dt, substeps: 4)
            #expect(w.contactCount == 0)
        }
        let t = Float(steps) * dt
        let drop = w.position(ghost).y + 10
        // sub-stepped symplectic Euler: drop = g t² / 2 × (1 + 1/n) for n = steps × 4 sub-steps
        let n = Float(steps * 4)
        #expect(abs(drop - 0.5 * g * t * t * (1 + 1 / n)) < 0.01 * drop, "drop \(drop)")
        // now inside the kinematic box: with its filter back it has a contact after one step
        w.setTransform(ghost, position: Vec2(0, 500), angle: 0)
        w.setFilter(shape, Filter())
        w.step(dt: dt, substeps: 4)
        #expect(w.contactCount == 1)
        _ = partner
    }

    /// A row of overlapping circles in one category that their masks leave out (Box2D's joint grid
    /// filter) meets no shape, so it stays out of the grid. Each shape that brings a category the
    /// circles accept (a dynamic box, a static box, one circle refiltered) puts them back in, with a
    /// contact for every overlap it has; destroyed, it takes them out again.
    @Test func shapesWhoseMasksMissEveryCategoryInUseLeaveTheGrid() {
        let w = makeWorld(gravity: .zero, sleep: false)
        let own = Filter(categoryBits: 2, maskBits: ~UInt64(2))
        // radius 10, 30 pt apart; fat boxes reach 3.8 pt further (the 2 pt speculative distance and a
        // 1.77 pt margin, `World.margin(for:limit:)` of a 20 pt box): 7.5 pt of the 10 pt gaps
        var bodies: [BodyID] = [], circles: [ShapeID] = []
        for i in 0..<20 {
            bodies.append(addCircle(w, i == 0 ? .static : .dynamic, at: Vec2(30 * Float(i), 0), radius: 10))
            circles.append(w.shapes(of: bodies[i])[0])
            w.setFilter(circles[i], own)
        }
        let dt: Float = 1.0 / 60
        func settle() {
            w.step(dt: dt, substeps: 4)
            w.findNewPairs()
            #expect(w.validate().isEmpty)
            #expect(w.staticIndexErrors().isEmpty)
            #expect(w.missingPairs().isEmpty)
            #expect(w.extraPairs().isEmpty)
        }
        settle()
        #expect(w.broadPhaseProxyCounts == (movable: 0, static: 0))
        #expect(w.contactCount == 0)
        // a 20 pt box at x = 165 (155...175) touches circles 5 (140...160) and 6 (170...190)
        let box = addBox(w, at: Vec2(165, 0), half: Vec2(10, 10))
        settle()
        #expect(w.broadPhaseProxyCounts == (movable: 20, static: 1))
        #expect(w.contactCount == 2)
        w.destroyBody(box)
        settle()
        #expect(w.broadPhaseProxyCounts == (movable: 0, static: 0))
        #expect(w.contactCount == 0)
        // a static box of a category of its own on circle 1 (x 25...35); circle 0 is static too
        let floor = addBox(w, .static, at: Vec2(30, 0), half: Vec2(5, 5))
        w.setFilter(w.shapes(of: floor)[0], Filter(categoryBits: 4))
        settle()
        #expect(w.broadPhaseProxyCounts == (movable: 19, static: 2))
        #expect(w.contactCount == 1)
        w.destroyBody(floor)
        settle()
        #expect(w.broadPhaseProxyCounts == (movable: 0, static: 0))
        // circle 10 in a category of its own, moved onto circle 9 (x 275...295 against 260...280)
        w.setFilter(circles[10], Filter(categoryBits: 8))
        w.setTransform(bodies[10], position: Vec2(285, 0), angle: 0)
        settle()
        #expect(w.contactCount == 1)
        w.setFilter(circles[10], own)
        settle()
        #expect(w.contactCount == 0)
        #expect(w.broadPhaseProxyCounts == (movable: 0, static: 0))
    }

    /// After every step: no contact between shapes whose fat boxes parted (beyond the one step the
    /// narrow phase takes to notice); after the next pair search, every overlapping pair that should
    /// collide has a contact.
    @Test(arguments: [UInt64(1), 2, 3])
    func candidatePairsEqualBruteForce(seed: UInt64) {
        Self.checkPairsAgainstBruteForce(Self.scene(seed: seed))
    }

    /// Two copies of the scene 10⁶ pt apart: the occupied block is too sparse for the grid's row
    /// layout, so cells are hashed (and unrelated cells share buckets); the pairs must not change.
    @Test func sparseWorldHashesItsCellsAndFindsTheSamePairs() {
        var d = WorldDef()
        d.validate = true
        let w = World(def: d)
        Self.populate(w, seed: 4)
        Self.populate(w, seed: 5, offset: Vec2(1_000_000, 0))
        w.step(dt: 1.0 / 60, substeps: 4)
        #expect(w.broadPhaseHashesCells)
        Self.checkPairsAgainstBruteForce(w)
        // with cells as large as a tenth of the scene, one copy is laid out in rows
        #expect(!Self.scene(seed: 4, cellSize: 1000).stepped().broadPhaseHashesCells)
    }

    /// A settling pyramid moves a few boxes a step, so the grid updates those in place (some into
    /// other cells) instead of rebuilding: the pairs must still be exactly brute force's, also after
    /// joints are made and filters changed between steps (what the entries record besides boxes).
    @Test func inPlaceUpdatesFindTheSamePairs() {
        let w = makeWorld(sleep: false)
        addBox(w, .static, at: Vec2(0, 20), half: Vec2(1500, 20))
        var base: [BodyID] = []
        let rows = 20, h: Float = 10
        for row in 0..<rows {
            for k in 0..<(rows - row) {
                let x = (Float(k) - Float(rows - row - 1) / 2) * 2.2 * h
                let b = addBox(w, at: Vec2(x, -(h + 2 * h * Float(row)) - 0.5), half: Vec2(h, h))
                if row == 0 { base.append(b) }
            }
        }
        // a kinematic box gliding past the pile: its fat box keeps moving into other cells
        let glider = addBox(w, .kinematic, at: Vec2(-600, -700), half: Vec2(h, h))
        w.setLinearVelocity(glider, Vec2(40, 0))
        Self.checkPairsAgainstBruteForce(w, steps: 120)
        var jd = JointDef(kind: .revolute)
        jd.bodyA = base[0]; jd.bodyB = base[1]
        jd.localAnchorA = Vec2(h, 0); jd.localAnchorB = Vec2(-h, 0)
        #expect(w.createJoint(jd) != nil)
        for b in base[5...6] {
            for s in w.shapes(of: b) { w.setFilter(s, Filter(groupIndex: -3)) }
        }
        Self.checkPairsAgainstBruteForce(w, steps: 60)
        // shapes whose filter passes nothing leave the grid, and come back when it passes again
        for b in base[8...10] {
            for s in w.shapes(of: b) { w.setFilter(s, Filter(categoryBits: 1, maskBits: 0)) }
        }
        Self.checkPairsAgainstBruteForce(w, steps: 30)
        for b in base[8...10] {
            for s in w.shapes(of: b) { w.setFilter(s, Filter()) }
        }
        Self.checkPairsAgainstBruteForce(w, steps: 30)
        // both in-place paths ran: entries rewritten in their cells, and entries moved to other cells
        let counts = w.broadPhaseInPlaceCounts
        #expect(counts.updates > 0 && counts.relocations > 0, "in-place updates \(counts.updates), relocations \(counts.relocations)")
    }

    /// After every step: no contact between shapes whose fat boxes parted (beyond the one step the
    /// narrow phase takes to notice); after the next pair search, every overlapping pair that should
    /// collide has a contact.
    static func checkPairsAgainstBruteForce(_ w: World, steps: Int = 150) {
        var sawContacts = 0
        var failed = false
        for _ in 0..<steps {
            w.step(dt: 1.0 / 60, substeps: 4)
            #expect(w.validationErrors.isEmpty, "step \(w.stepCount): \(w.validationErrors.prefix(3))")
            let extra = w.extraPairs()
            #expect(extra.count == 0, "step \(w.stepCount): \(extra.count) contacts without overlapping fat boxes, e.g. \(extra.prefix(3))")
            let pending = w.missingPairs()
            #expect(pending.count == 0, "step \(w.stepCount): \(pending.count) pairs missed by the last search, e.g. \(pending.prefix(3))")
            w.findNewPairs()
            let missing = w.missingPairs()
            #expect(missing.count == 0, "step \(w.stepCount): \(missing.count) overlapping pairs without a contact, e.g. \(missing.prefix(3))")
            sawContacts = max(sawContacts, w.touchingContactCount)
            if !extra.isEmpty || !missing.isEmpty || !pending.isEmpty { failed = true; break }
        }
        // the scene is not trivially sparse
        if !failed { #expect(sawContacts > 200, "only \(sawContacts) touching contacts") }
    }

    /// The grid only changes speed: 7, 50 and 1 000 pt cells (and the automatic choice) give the
    /// same contact set on every step, and so the same bits, whichever way the cells are laid out.
    @Test(arguments: [UInt64(7), 8])
    func cellSizeDoesNotChangeTheContactSet(seed: UInt64) {
        let sizes: [Float?] = [nil, 7, 50, 1000]
        let worlds = sizes.map { Self.scene(seed: seed, cellSize: $0) }
        #expect(worlds[2].cellSize == 50)
        for step in 0..<90 {
            for w in worlds { w.step(dt: 1.0 / 60, substeps: 4) }
            if step == 0 {
                // both bucket layouts are compared here: 7 pt cells are hashed, 1 000 pt cells in rows
                #expect(worlds[1].broadPhaseHashesCells && !worlds[3].broadPhaseHashesCells)
            }
            let sets = worlds.map { Set($0.contactPairs().map(Self.key)) }
            for k in 1..<sizes.count {
                let extra = sets[k].subtracting(sets[0]).count, missing = sets[0].subtracting(sets[k]).count
                #expect(extra == 0 && missing == 0,
                        "step \(step): \(sizes[k]!) pt cells: \(extra) extra, \(missing) missing pairs vs automatic (\(worlds[0].cellSize) pt)")
            }
            if sets.dropFirst().contains(where: { $0 != sets[0] }) { break }
        }
        let hashes = worlds.map { $0.stateHash() }
        #expect(Set(hashes).count == 1, "state hashes differ: \(hashes)")
    }
}

extension World {
    fileprivate func stepped() -> World { step(dt: 1.0 / 60, substeps: 4); return self }
}
