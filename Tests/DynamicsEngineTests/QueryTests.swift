import DynamicsEngine
import Foundation
import Testing

/// The engine's queries: each shape test against its closed-form answer, then the grid against a
/// walk over every shape (the same per-shape tests, so any difference is a shape the grid did
/// not find), then the guarantee that querying never changes a step.
@Suite struct QueryTests {
    // MARK: Shape tests, analytic

    /// A circle of radius 10 at (100, 50); rays of length 200 along +x. At height y the ray
    /// enters at x = 100 − √(100 − (y − 50)²), so t = x / 200, with normal ((x − 100), (y − 50)) / 10.
    @Test(arguments: [Float(50), 56, 42, 59.5])
    func circleRay(height y: Float) throws {
        let w = makeWorld(gravity: .zero)
        let c = addCircle(w, .static, at: Vec2(100, 50), radius: 10)
        let off = Double(y - 50)
        let x = 100 - (100 - off * off).squareRoot()
        let hit = try #require(w.rayCast(from: Vec2(0, y), to: Vec2(200, y)))
        #expect(w.body(of: hit.shape) == c)
        #expect(abs(Double(hit.fraction) - x / 200) < 1e-6)
        #expect(abs(Double(hit.normal.x) - (x - 100) / 10) < 1e-5)
        #expect(abs(Double(hit.normal.y) - off / 10) < 1e-5)
        // beside the circle: no hit
        #expect(w.rayCast(from: Vec2(0, 60.01), to: Vec2(200, 60.01)) == nil)
    }

    /// A 20 × 20 box turned 45°: a diamond |x| + |y| = 10√2 around (0, 0). The ray y = 5 from
    /// x = −50 to 50 enters its upper-left face at x = −(10√2 − 5): t = (50 − 10√2 + 5) / 100,
    /// normal (−1, 1)/√2.
    @Test func rotatedBoxRay() throws {
        let w = makeWorld(gravity: .zero)
        addBox(w, .static, at: .zero, half: Vec2(10, 10), angle: .pi / 4)
        let hit = try #require(w.rayCast(from: Vec2(-50, 5), to: Vec2(50, 5)))
        let expected = (50 - 10 * 2.0.squareRoot() + 5) / 100
        #expect(abs(Double(hit.fraction) - expected) < 1e-6)
        #expect(abs(Double(hit.normal.x) + 0.5.squareRoot()) < 1e-5)
        #expect(abs(Double(hit.normal.y) - 0.5.squareRoot()) < 1e-5)
        // from the other side, the upper-right face: normal (1, 1)/√2, same fraction by symmetry
        let back = try #require(w.rayCast(from: Vec2(50, 5), to: Vec2(-50, 5)))
        #expect(abs(Double(back.fraction) - expected) < 1e-6)
        #expect(abs(Double(back.normal.x) - 0.5.squareRoot()) < 1e-5)
    }

    /// An axis-aligned box hit head-on and at a slant: fraction and normal exact in binary.
    @Test func boxRayFractionsAreExact() throws {
        let w = makeWorld(gravity: .zero)
        addBox(w, .static, at: Vec2(64, 0), half: Vec2(16, 8))
        // from x = 0 to 128 along y = 0: enters x = 48, t = 0.375, normal (−1, 0)
        let hit = try #require(w.rayCast(from: Vec2(0, 0), to: Vec2(128, 0)))
        #expect(hit.fraction == 0.375)
        #expect(hit.normal == Vec2(-1, 0))
        // from (64, −40) down to (64, 40): enters the top y = −8 at t = 0.4, normal (0, −1)
        let down = try #require(w.rayCast(from: Vec2(64, -40), to: Vec2(64, 40)))
        #expect(abs(down.fraction - 0.4) < 1e-7)
        #expect(down.normal == Vec2(0, -1))
        // ending short of the box: no hit
        #expect(w.rayCast(from: Vec2(0, 0), to: Vec2(47.5, 0)) == nil)
    }

    /// A segment is two-sided: its normal faces whichever side the ray comes from.
    @Test func segmentNormalFacesTheRay() throws {
        let w = makeWorld(gravity: .zero)
        addSegment(w, from: Vec2(0, 100), to: Vec2(200, 100))
        let down = try #require(w.rayCast(from: Vec2(50, 0), to: Vec2(50, 200)))
        #expect(down.fraction == 0.5)
        #expect(down.normal == Vec2(0, -1))
        let up = try #require(w.rayCast(from: Vec2(50, 150), to: Vec2(50, 50)))
        #expect(up.fraction == 0.5)
        #expect(up.normal == Vec2(0, 1))
        // along the segment: no hit; past its end: no hit
        #expect(w.rayCast(from: Vec2(-50, 100), to: Vec2(300, 100)) == nil)
        #expect(w.rayCast(from: Vec2(201, 0), to: Vec2(201, 200)) == nil)
        // segments contain no point
        #expect(w.shapes(containing: Vec2(50, 100)).isEmpty)
    }

    /// Box2D's rule: a ray that starts inside a shape (or on its outline) does not hit it.
    @Test func rayStartingInsideIgnoresTheShape() {
        let w = makeWorld(gravity: .zero)
        addBox(w, .static, at: .zero, half: Vec2(10, 10))
        addCircle(w, .static, at: Vec2(100, 0), radius: 10)
        #expect(w.rayCast(from: Vec2(0, 0), to: Vec2(50, 0)) == nil)
        #expect(w.rayCast(from: Vec2(-10, 0), to: Vec2(-10, 50)) == nil)       // on the box's left edge
        #expect(w.rayCast(from: Vec2(100, 0), to: Vec2(100, 50)) == nil)       // the circle's centre
        #expect(w.rayCast(from: Vec2(90, 0), to: Vec2(50, 0)) == nil)          // on the circle, leaving it
        // from inside the box toward the circle: the circle only, entered at x = 90
        let hit = w.rayCastAll(from: Vec2(0, 0), to: Vec2(200, 0))
        #expect(hit.count == 1 && hit[0].fraction == 0.45)
    }

    /// A box of half-extents 30 × 10 at (200, 100) turned by θ: a point at local (u, v) is at
    /// (200, 100) + R(θ)(u, v). Points 0.01 pt inside each edge are in, 0.01 pt outside are out,
    /// and the corners themselves (the outline counts) are in.
    @Test(arguments: [Float(0), 0.3, 1, 2.5, -0.7])
    func rotatedBoxContainsPointsAtItsEdges(angle: Float) {
        let w = makeWorld(gravity: .zero)
        addBox(w, .static, at: Vec2(200, 100), half: Vec2(30, 10), angle: angle)
        let c = Double(cos(angle)), s = Double(sin(angle))
        func world(_ u: Double, _ v: Double) -> Vec2 { Vec2(Float(200 + c * u - s * v), Float(100 + s * u + c * v)) }
        for (u, v) in [(29.99, 0.0), (-29.99, 0), (0, 9.99), (0, -9.99), (29.99, 9.99), (-29.99, -9.99)] {
            #expect(w.shapes(containing: world(u, v)).count == 1, "(\(u), \(v)) inside at θ = \(angle)")
        }
        for (u, v) in [(30.01, 0.0), (-30.01, 0), (0, 10.01), (0, -10.01), (30.01, 9.99), (-29.99, -10.01)] {
            #expect(w.shapes(containing: world(u, v)).isEmpty, "(\(u), \(v)) outside at θ = \(angle)")
        }
        if angle == 0 {
            for corner in [Vec2(230, 110), Vec2(170, 90), Vec2(230, 90), Vec2(170, 110)] {
                #expect(w.shapes(containing: corner).count == 1, "corner \(corner)")
            }
        }
    }

    /// A circle contains the points of its disc: radius 25 at (−40, 60), on the circle (exactly
    /// representable: (15, 20) from the centre) and 0.01 pt either side along the radius.
    @Test func circleContainsItsDisc() {
        let w = makeWorld(gravity: .zero)
        addCircle(w, .static, at: Vec2(-40, 60), radius: 25)
        #expect(w.shapes(containing: Vec2(-25, 80)).count == 1)
        #expect(w.shapes(containing: Vec2(-40 + 15 * 0.9996, 60 + 20 * 0.9996)).count == 1)
        #expect(w.shapes(containing: Vec2(-40 + 15 * 1.0004, 60 + 20 * 1.0004)).isEmpty)
    }

    // MARK: The grid against the walk

    /// A random world: boxes, circles and polygons of 4 to 60 pt, some turned, some static, some
    /// colliding with nothing (left out of the broad phase, not of queries), plus long segments.
    static func randomWorld(seed: UInt64, count: Int, gravity: Vec2 = Vec2(0, 500)) -> World {
        var rng = SplitMix64(seed: seed)
        let w = makeWorld(gravity: gravity, sleep: true, validate: false)
        for k in 0..<count {
            var bd = BodyDef()
            bd.type = k % 7 == 0 ? .static : .dynamic
            bd.position = Vec2(uniform(-800...800, &rng), uniform(-600...600, &rng))
            bd.angle = uniform(-3...3, &rng)
            let body = w.createBody(bd)
            var sd = ShapeDef()
            if k % 5 == 0 { sd.filter = Filter(categoryBits: 1, maskBits: 0) }   // collides with nothing
            let size = uniform(4...60, &rng)
            switch k % 3 {
            case 0: w.createShape(on: body, sd, .box(halfWidth: size / 2, halfHeight: uniform(2...30, &rng), center: .zero, angle: 0))
            case 1: w.createShape(on: body, sd, .circle(center: .zero, radius: size / 2))
            default:
                let n = 3 + k % 6
                let pts = (0..<n).map { i -> Vec2 in
                    let a = Float(i) * 2 * .pi / Float(n) + uniform(-0.2...0.2, &rng)
                    return Vec2(size / 2 * cos(a), size / 2 * sin(a))
                }
                w.createShape(on: body, sd, .polygon(pts))
            }
        }
        addSegment(w, from: Vec2(-900, 700), to: Vec2(900, 700))
        addSegment(w, from: Vec2(-900, -700), to: Vec2(-900, 700))
        addSegment(w, from: Vec2(-300, 200), to: Vec2(250, 420))
        return w
    }

    /// Thousands of points, boxes and rays per seed, before and between steps (bodies falling:
    /// the grid is updated in place and rebuilt), each answered by the grid exactly as by the walk.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func gridMatchesWalk(seed: UInt64) {
        // odd seeds fall (most shapes move: rebuilds); even ones drift without gravity, a few
        // bodies thrown (few move: in-place updates, shapes leaving their cells)
        let calm = seed % 2 == 0
        let w = QueryTests.randomWorld(seed: seed, count: 400, gravity: calm ? .zero : Vec2(0, 500))
        var rng = SplitMix64(seed: seed &* 977)
        if calm {
            for k in stride(from: 1, to: 400, by: 27) {
                w.setLinearVelocity(w.body(of: ShapeID(index: Int32(k), generation: 0)), Vec2(uniform(-300...300, &rng), uniform(-300...300, &rng)))
            }
        }
        var checked = (points: 0, hits: 0, rays: 0, rayHits: 0)
        var teleported: [BodyID] = []
        for round in 0..<6 {
            // where the grid changed: at and through the bodies moved by hand, and 100 others
            // (shapes that left their cells wait in the grid's `extra` list until a rebuild)
            let sample = teleported + (0..<100).map { w.body(of: ShapeID(index: Int32(($0 * 37 + round) % 400), generation: 0)) }
            for body in sample {
                let p = w.position(body)
                #expect(w.shapes(containing: p) == w.shapesByWalk(containing: p), "at body \(body), round \(round)")
                let a = p - Vec2(120, 45), b = p + Vec2(120, 45)
                #expect(w.rayCastAll(from: a, to: b) == w.rayCastAllByWalk(from: a, to: b), "through body \(body), round \(round)")
                #expect(!w.rayCastAll(from: a, to: b).isEmpty)
            }
            teleported = []
            for _ in 0..<1_000 {
                let p = Vec2(uniform(-950...950, &rng), uniform(-750...750, &rng))
                let grid = w.shapes(containing: p)
                #expect(grid == w.shapesByWalk(containing: p), "point \(p), round \(round)")
                checked.points += 1; checked.hits += grid.count
            }
            for _ in 0..<200 {
                let lo = Vec2(uniform(-950...950, &rng), uniform(-750...750, &rng))
                let box = AABB(lower: lo, upper: lo + Vec2(uniform(0...300, &rng), uniform(0...300, &rng)))
                #expect(w.shapes(overlapping: box) == w.shapesByWalk(overlapping: box), "box \(box), round \(round)")
            }
            for k in 0..<300 {
                let a = Vec2(uniform(-1000...1000, &rng), uniform(-800...800, &rng))
                // short rays, long ones, and ones reaching far outside the world
                let reach: Float = k % 3 == 0 ? 40 : (k % 3 == 1 ? 500 : 5_000)
                let angle = uniform(-3.2...3.2, &rng)
                let b = a + Vec2(reach * cos(angle), reach * sin(angle))
                let all = w.rayCastAll(from: a, to: b)
                let walk = w.rayCastAllByWalk(from: a, to: b)
                #expect(all == walk, "ray \(a) → \(b), round \(round)")
                let nearest = w.rayCastNearest(from: a, to: b)
                #expect(nearest == walk.filter { $0.fraction == walk.first?.fraction }, "nearest \(a) → \(b), round \(round)")
                checked.rays += 1; checked.rayHits += all.count
            }
            // many steps (most shapes moved: a rebuild) or one (a few: updated in place), and a
            // few bodies moved by hand
            run(w, steps: round % 2 == 0 ? 20 : 1)
            for _ in 0..<3 {
                let body = w.body(of: ShapeID(index: Int32.random(in: 0..<400, using: &rng), generation: 0))
                w.setTransform(body, position: Vec2(uniform(-900...900, &rng), uniform(-700...700, &rng)), angle: uniform(-3...3, &rng))
                teleported.append(body)
            }
        }
        // the fuzz is not vacuous: many points inside shapes, many rays through several
        #expect(checked.hits > 300)
        #expect(checked.rayHits > 3 * checked.rays / 2)
        // the grid was updated in place between steps, not only rebuilt
        // both ways of keeping the grid were used: rebuilt, and (calm worlds) updated in place,
        // with shapes moved to other cells
        #expect(w.queryIndexCounts.rebuilds > 0)
        if calm { #expect(w.queryIndexCounts.inPlace > 0 && w.queryIndexCounts.relocations > 0) }
    }

    /// Moving one body by hand between queries: the next query sees it there, through an update
    /// in place (no rebuild), and no longer where it was.
    @Test func teleportIsSeenAtOnce() {
        let w = QueryTests.randomWorld(seed: 9, count: 300)
        let box = addBox(w, .dynamic, at: Vec2(2000, 2000), half: Vec2(10, 10))
        #expect(w.shapes(containing: Vec2(2000, 2000)).count == 1)
        let before = w.queryIndexCounts
        w.setTransform(box, position: Vec2(-2000, 1500), angle: 0)
        #expect(w.shapes(containing: Vec2(2000, 2000)).isEmpty)
        #expect(w.shapes(containing: Vec2(-2005, 1495)).map { w.body(of: $0) } == [box])
        #expect(w.queryIndexCounts.rebuilds == before.rebuilds)
        #expect(w.queryIndexCounts.updates == before.updates + 1)
        // a new static shape goes into the grid's static layer in place (issue 29.1); a new
        // moving one changes the movable list: rebuilt. Both are found, and a destroyed one is not.
        let c = addCircle(w, .static, at: Vec2(3000, 0), radius: 5)
        #expect(w.shapes(containing: Vec2(3000, 0)).map { w.body(of: $0) } == [c])
        #expect(w.queryIndexCounts.rebuilds == before.rebuilds)
        w.destroyBody(c)
        #expect(w.shapes(containing: Vec2(3000, 0)).isEmpty)
        #expect(w.queryIndexCounts.rebuilds == before.rebuilds)
        let d = addCircle(w, .dynamic, at: Vec2(3100, 0), radius: 5)
        #expect(w.shapes(containing: Vec2(3100, 0)).map { w.body(of: $0) } == [d])
        #expect(w.queryIndexCounts.rebuilds == before.rebuilds + 1)
    }

    /// Restoring a snapshot into a queried world: the next query sees the restored shapes (the
    /// grid is rebuilt), exactly as the walk does.
    @Test func restoreIsSeen() throws {
        let w = QueryTests.randomWorld(seed: 14, count: 200)
        run(w, steps: 10)
        let saved = w.snapshot()
        let probes = (0..<200).map { Vec2(Float($0 % 20) * 90 - 900, Float($0 / 20) * 140 - 700) }
        let before = probes.map { w.shapes(containing: $0) }
        run(w, steps: 40)
        _ = w.shapes(containing: .zero)
        try w.restore(saved)
        #expect(probes.map { w.shapes(containing: $0) } == before)
        #expect(probes.map { w.shapesByWalk(containing: $0) } == before)
        #expect(before.contains { !$0.isEmpty })
    }

    /// Queries change nothing the step reads: a crowded heap (where the broad phase's bucket
    /// order matters) stepped with queries between every step ends bit for bit where it ends
    /// without them.
    @Test func queriesDoNotChangeTheSimulation() {
        func heap() -> World {
            var rng = SplitMix64(seed: 5)
            let w = makeWorld(sleep: true, validate: false)
            addBox(w, .static, at: Vec2(0, 200), half: Vec2(400, 10))
            // on top of each other: grid buckets of more than 64 entries, the contact budget binding
            for _ in 0..<200 {
                addBox(w, at: Vec2(uniform(-6...6, &rng), uniform(-6...6, &rng)), half: Vec2(6, 6), angle: uniform(-1...1, &rng))
            }
            return w
        }
        let quiet = heap(), watched = heap()
        var rng = SplitMix64(seed: 6)
        var limited = 0
        for _ in 0..<60 {
            quiet.step(dt: 1.0 / 60, substeps: 4)
            limited += quiet.lastStepCrowdLimited
            watched.step(dt: 1.0 / 60, substeps: 4)
            for _ in 0..<20 {
                let p = Vec2(uniform(-100...100, &rng), uniform(-100...200, &rng))
                _ = watched.shapes(containing: p)
                _ = watched.rayCastAll(from: p, to: p + Vec2(300, -50))
                _ = watched.shapes(overlapping: AABB(lower: p, upper: p + Vec2(30, 30)))
            }
        }
        #expect(limited > 0)   // the order-sensitive part of the pair search was exercised
        #expect(quiet.stateHash() == watched.stateHash())
        #expect(quiet.contactCount == watched.contactCount)
    }

    /// Non-finite input and a ray of no length answer nothing.
    @Test func badInputAnswersNothing() {
        let w = makeWorld(gravity: .zero)
        addBox(w, .static, at: .zero, half: Vec2(10, 10))
        #expect(w.shapes(containing: Vec2(.nan, 0)).isEmpty)
        #expect(w.shapes(containing: Vec2(0, .infinity)).isEmpty)
        #expect(w.rayCastAll(from: Vec2(-50, 0), to: Vec2(.infinity, 0)).isEmpty)
        #expect(w.rayCastAll(from: Vec2(-50, 0), to: Vec2(-50, 0)).isEmpty)
        #expect(w.shapes(overlapping: AABB(lower: Vec2(.nan, 0), upper: Vec2(1, 1))).isEmpty)
        #expect(w.rayCast(from: Vec2(-50, 0), to: Vec2(50, 0)) != nil)
    }
}
